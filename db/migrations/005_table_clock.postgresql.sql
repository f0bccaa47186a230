-- The turn clock's own state per table (PostgreSQL).

CREATE TABLE table_clock (
    table_id    BIGINT  PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    stand_in    INTEGER NOT NULL DEFAULT 0 CHECK (stand_in IN (0, 1)),
    away_seats  INTEGER NOT NULL DEFAULT 0 CHECK (away_seats BETWEEN 0 AND 15),
    taken_back  TEXT    NOT NULL DEFAULT '{}' CHECK (taken_back::json IS NOT NULL)
);
