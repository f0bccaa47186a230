-- Tables, their seats and spectators, and the append-only action log.

CREATE TABLE tables (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER,
    channel_id  INTEGER NOT NULL,
    message_id  INTEGER,
    host_id     INTEGER NOT NULL,
    options     TEXT    NOT NULL CHECK (json_valid(options)),
    status      TEXT    NOT NULL
                CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled')),
    -- Number of accepted actions; equals the seq of the newest log row.
    version     INTEGER NOT NULL CHECK (version >= 1),
    -- Games started at this table (a rematch adds one) and the log seq of the
    -- action that started the current one: replay starts after it.
    game_no     INTEGER NOT NULL DEFAULT 0,
    game_seq    INTEGER NOT NULL DEFAULT 0,
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL
);

-- One open table per channel; finished and cancelled ones do not count.
CREATE UNIQUE INDEX tables_open_channel
    ON tables (channel_id) WHERE status IN ('lobby', 'playing');

-- Four rows per table, in engine seat order: an empty seat has neither a user
-- nor a computer player level.
CREATE TABLE seats (
    table_id   INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    user_id    INTEGER,
    bot_level  TEXT,
    CHECK (user_id IS NULL OR bot_level IS NULL),
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;

CREATE INDEX seats_user ON seats (user_id) WHERE user_id IS NOT NULL;

CREATE TABLE spectators (
    table_id   INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL,
    joined_at  REAL    NOT NULL,
    PRIMARY KEY (table_id, user_id)
) WITHOUT ROWID;

CREATE TABLE actions (
    table_id  INTEGER NOT NULL REFERENCES tables (id),
    seq       INTEGER NOT NULL CHECK (seq >= 1),
    kind      TEXT    NOT NULL,
    actor     INTEGER,
    payload   TEXT    NOT NULL CHECK (json_valid(payload)),
    at        REAL    NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;

CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;
