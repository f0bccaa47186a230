-- When a finished tournament's final standings were posted to the server's
-- results channel (or found to have none to go to); NULL while they are owed,
-- so a restart posts the ones a stop left unsent. Tournaments that ended
-- before this column had theirs posted (or lost) then: none is owed.

ALTER TABLE tournaments ADD COLUMN standings_posted_at DOUBLE PRECISION;

UPDATE tournaments SET standings_posted_at = updated_at WHERE status = 'over';
