-- The private hand messages the bot keeps current, one per player and table:
-- what it needs to edit the message after a restart (the answer to an
-- interaction is edited through the application id and that interaction's
-- token) and the table version the hand was drawn at when it was opened.
--
-- The token lets anyone holding it edit that one private message, and
-- Discord accepts it for 15 minutes only, so a row lives no longer: it is
-- deleted once past expires_at (epoch seconds, a little before Discord's
-- limit) whenever the bot sees it, replaced when the player opens a newer
-- hand, and deleted when the game ends or the player leaves the table.
-- Earlier versions of the bot never read this table; a database they wrote
-- simply starts with no live hands.

CREATE TABLE live_hands (
    table_id        INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    user_id         INTEGER NOT NULL,
    application_id  INTEGER NOT NULL,
    token           TEXT    NOT NULL CHECK (token <> ''),
    expires_at      REAL    NOT NULL,
    version         INTEGER NOT NULL CHECK (version >= 0),
    PRIMARY KEY (table_id, user_id)
) WITHOUT ROWID;
