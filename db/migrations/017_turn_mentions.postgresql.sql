-- The table's current turn mention and the turn it is for (PostgreSQL).

ALTER TABLE tables ADD COLUMN turn_mention_id BIGINT;
ALTER TABLE tables ADD COLUMN turn_mention_turn TEXT;
