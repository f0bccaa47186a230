-- Per-user preferences (PostgreSQL).

CREATE TABLE user_prefs (
    user_id     BIGINT PRIMARY KEY,
    deck        TEXT,
    data        TEXT NOT NULL DEFAULT '{}' CHECK (data::json IS NOT NULL),
    updated_at  DOUBLE PRECISION NOT NULL
);
