-- A moderator's reason for ending a game (reason 'moderator'), shown in the
-- players' history and statistics; NULL for every other game. Games a
-- moderator ended before this column existed take it from their action log
-- (the moderator_end action logged at the game's end).

ALTER TABLE games ADD COLUMN end_note TEXT;

UPDATE games SET end_note = (
    SELECT json_extract(a.payload, '$.note') FROM actions AS a
    WHERE a.table_id = games.table_id AND a.kind = 'moderator_end' AND a.at = games.ended_at
    ORDER BY a.seq DESC LIMIT 1
) WHERE reason = 'moderator';
