-- Per-user preferences: the deck design a player sees. `data` holds any
-- further preferences as a JSON object.

CREATE TABLE user_prefs (
    user_id     INTEGER PRIMARY KEY,
    deck        TEXT,
    data        TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(data)),
    updated_at  REAL NOT NULL
);
