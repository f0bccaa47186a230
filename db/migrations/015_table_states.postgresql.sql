-- The engine state of each table's current game (PostgreSQL).

CREATE TABLE table_states (
    table_id  BIGINT  PRIMARY KEY REFERENCES tables (id),
    game_no   INTEGER NOT NULL,
    version   BIGINT  NOT NULL,
    format    TEXT    NOT NULL,
    history   BYTEA,
    current   BYTEA   NOT NULL
);
