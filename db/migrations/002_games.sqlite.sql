-- Every game played at a table and, once it is over, how it ended, per seat
-- and team, with its hand records: the source of the leaderboard and history.

CREATE TABLE games (
    id           INTEGER PRIMARY KEY,  -- the game id of hand records and the leaderboard
    table_id     INTEGER NOT NULL REFERENCES tables (id),
    game_no      INTEGER NOT NULL CHECK (game_no >= 1),
    guild_id     INTEGER,
    channel_id   INTEGER NOT NULL,
    preset       TEXT    NOT NULL,
    options      TEXT    NOT NULL CHECK (json_valid(options)),
    seed         INTEGER NOT NULL,
    started_at   REAL    NOT NULL,
    -- Filled in by the action that ends the game.
    ended_at     REAL,
    winner       INTEGER CHECK (winner IN (0, 1)),  -- NULL: a draw, or not over
    reason       TEXT,                              -- the engine's end reason
    reason_seat  INTEGER CHECK (reason_seat BETWEEN 0 AND 3),
    score0       INTEGER,
    score1       INTEGER,
    hands_played INTEGER,
    hands        TEXT CHECK (hands IS NULL OR json_valid(hands)),
    UNIQUE (table_id, game_no)
);

CREATE INDEX games_ended ON games (ended_at) WHERE ended_at IS NOT NULL;

-- One row per seat, written when the game starts; the outcome when it ends.
CREATE TABLE game_seats (
    game_id          INTEGER NOT NULL REFERENCES games (id),
    seat             INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    user_id          INTEGER,
    bot_level        TEXT,
    team             INTEGER NOT NULL CHECK (team IN (0, 1)),
    outcome          TEXT CHECK (outcome IN ('won', 'lost', 'draw')),
    points           INTEGER,   -- the team's final score
    opponent_points  INTEGER,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;

CREATE INDEX game_seats_user ON game_seats (user_id) WHERE user_id IS NOT NULL;
