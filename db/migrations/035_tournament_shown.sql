-- The version of a tournament its public message last showed. A restart
-- draws again every message left behind (shown_version < version), a
-- finished tournament's too: a stop between its last step and the edit
-- must not leave live Ready buttons on a decided bracket. Tournaments that
-- ended before this column are taken as shown, as they were then.

ALTER TABLE tournaments ADD COLUMN shown_version BIGINT NOT NULL DEFAULT 0;

UPDATE tournaments SET shown_version = version WHERE status NOT IN ('registering', 'running');
