-- Tournaments: an organizer's bracket on a server, its append-only event log
-- (registrations, the draw, ready presses, results, decisions), the tables
-- opened for its matches, and its deadlines (ready checks expiring).
--
-- A tournament is rebuilt by replaying its events; ``version`` is the seq of
-- the newest event, checked and bumped by every step like a table's.

CREATE TABLE tournaments (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER,
    channel_id    INTEGER NOT NULL,
    -- The tournament's public message (NULL until it is posted).
    message_id    INTEGER,
    organizer_id  INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    -- The organizer's choices: format, target, house rules, turn limit,
    -- how teams are made, the ready check's time.
    settings      TEXT    NOT NULL CHECK (json_valid(settings)),
    status        TEXT    NOT NULL
                  CHECK (status IN ('registering', 'running', 'over', 'cancelled')),
    version       INTEGER NOT NULL CHECK (version >= 1),
    created_at    REAL    NOT NULL,
    updated_at    REAL    NOT NULL
);

CREATE INDEX tournaments_open ON tournaments (channel_id) WHERE status IN ('registering', 'running');

CREATE TABLE tournament_events (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    seq            INTEGER NOT NULL CHECK (seq >= 1),
    kind           TEXT    NOT NULL,
    actor          INTEGER,
    payload        TEXT    NOT NULL CHECK (json_valid(payload)),
    at             REAL    NOT NULL,
    PRIMARY KEY (tournament_id, seq)
) WITHOUT ROWID;

CREATE TRIGGER tournament_events_no_update BEFORE UPDATE ON tournament_events
BEGIN
    SELECT RAISE(ABORT, 'the tournament log is append-only');
END;

CREATE TRIGGER tournament_events_no_delete BEFORE DELETE ON tournament_events
BEGIN
    SELECT RAISE(ABORT, 'the tournament log is append-only');
END;

-- Where a match is played. ``place_id`` (the thread, or the channel, the
-- table opens in) is written before the table is opened: a channel has at
-- most one open table, so after a crash the table found open there is the
-- match's, and no second one is opened. ``table_id`` follows once it exists.
CREATE TABLE tournament_tables (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    match_no       INTEGER NOT NULL,
    place_id       INTEGER NOT NULL,
    table_id       INTEGER REFERENCES tables (id),
    PRIMARY KEY (tournament_id, match_no)
) WITHOUT ROWID;

CREATE UNIQUE INDEX tournament_tables_table ON tournament_tables (table_id)
    WHERE table_id IS NOT NULL;

-- A tournament's deadlines, at most one per kind (a match's ready check):
-- fired by the bot's scheduler like a table's.
CREATE TABLE tournament_deadlines (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    kind           TEXT    NOT NULL,
    due_at         REAL    NOT NULL,
    data           TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(data)),
    PRIMARY KEY (tournament_id, kind)
) WITHOUT ROWID;
