-- Deadlines of the turn clock, at most one per table and kind. The store only
-- keeps them; the turn clock gives them their meaning.

CREATE TABLE deadlines (
    table_id  INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    kind      TEXT    NOT NULL,
    due_at    REAL    NOT NULL,
    data      TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(data)),
    PRIMARY KEY (table_id, kind)
) WITHOUT ROWID;

CREATE INDEX deadlines_due ON deadlines (due_at);
