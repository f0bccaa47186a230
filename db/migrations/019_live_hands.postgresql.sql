-- The private hand messages the bot keeps current (PostgreSQL; see the
-- SQLite file of the same number for why rows never outlive their token).

CREATE TABLE live_hands (
    table_id        BIGINT NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    user_id         BIGINT NOT NULL,
    application_id  BIGINT NOT NULL,
    token           TEXT   NOT NULL CHECK (token <> ''),
    expires_at      DOUBLE PRECISION NOT NULL,
    version         BIGINT NOT NULL CHECK (version >= 0),
    PRIMARY KEY (table_id, user_id)
);
