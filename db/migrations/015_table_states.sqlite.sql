-- The engine state of each table's current game, rewritten with every action
-- that changes it, so a restart restores games instead of replaying their
-- logs. The action log stays the truth: a state whose format the running
-- code does not know is ignored and the game is replayed.

CREATE TABLE table_states (
    table_id  INTEGER PRIMARY KEY REFERENCES tables (id),
    game_no   INTEGER NOT NULL,
    version   INTEGER NOT NULL,  -- the table version the state was written at
    format    TEXT    NOT NULL,
    history   BLOB,              -- finished hands: rewritten once a hand
    current   BLOB    NOT NULL   -- everything else: rewritten every action
);
