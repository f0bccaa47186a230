-- The turn clock's own state per table: whether a computer player takes the
-- turn of a late player (a table option), which seats it currently plays for
-- their absent owner, and when an owner last took a seat back.

CREATE TABLE table_clock (
    table_id    INTEGER PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    stand_in    INTEGER NOT NULL DEFAULT 0 CHECK (stand_in IN (0, 1)),
    -- Bit n set: the computer plays seat n until its owner opens their hand.
    away_seats  INTEGER NOT NULL DEFAULT 0 CHECK (away_seats BETWEEN 0 AND 15),
    -- {"seat": epoch seconds}: the owner's turn clock restarts from there.
    taken_back  TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(taken_back))
) WITHOUT ROWID;
