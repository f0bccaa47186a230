-- When the end of a game was delivered to its channel: the final table
-- message with its result and rematch buttons, and the score picture. A game
-- that ended but was never announced (the process died right after the last
-- card) is announced after the restart. Games that ended before this column
-- existed count as announced: nothing is posted again for them.

ALTER TABLE games ADD COLUMN announced_at REAL;
UPDATE games SET announced_at = ended_at WHERE ended_at IS NOT NULL;
