-- Deadlines of the turn clock, at most one per table and kind (PostgreSQL).

CREATE TABLE deadlines (
    table_id  BIGINT NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    kind      TEXT   NOT NULL,
    due_at    DOUBLE PRECISION NOT NULL,
    data      TEXT   NOT NULL DEFAULT '{}' CHECK (data::json IS NOT NULL),
    PRIMARY KEY (table_id, kind)
);

CREATE INDEX deadlines_due ON deadlines (due_at);
