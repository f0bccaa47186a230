-- A table may talk in a thread started from its message: the thread's id,
-- NULL for a table that talks in its channel (every table opened before).

ALTER TABLE tables ADD COLUMN thread_id BIGINT;
