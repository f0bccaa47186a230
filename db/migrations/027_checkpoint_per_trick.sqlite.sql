-- The engine state is stored at the end of each trick and of the bidding
-- (and at every other change of a game), no longer with every card: a row of
-- the view action_commits whose ``current`` is NULL leaves the stored state
-- as it is. A resume replays the few actions logged after it (see
-- bot.game.checkpoint). Rows that carry a state are written as before.

DROP TRIGGER action_commits_insert;

CREATE TRIGGER action_commits_insert INSTEAD OF INSERT ON action_commits
BEGIN
    -- The action must follow the table's current version: seq = version + 1.
    SELECT RAISE(ABORT, 'version conflict')
        WHERE NOT EXISTS (
            SELECT 1 FROM tables WHERE id = NEW.table_id AND version = NEW.seq - 1
        );
    UPDATE tables SET version = NEW.seq, updated_at = NEW.at WHERE id = NEW.table_id;
    INSERT INTO actions (table_id, seq, kind, actor, payload, at)
        VALUES (NEW.table_id, NEW.seq, NEW.kind, NEW.actor, NEW.payload, NEW.at);
    INSERT INTO table_states (table_id, game_no, version, format, current)
        SELECT NEW.table_id, NEW.game_no, NEW.seq, NEW.format, NEW.current
        WHERE NEW.current IS NOT NULL
        ON CONFLICT (table_id) DO UPDATE SET
            game_no = excluded.game_no,
            version = excluded.version,
            format = excluded.format,
            current = excluded.current;
    INSERT INTO table_histories (table_id, history)
        SELECT NEW.table_id, NEW.history WHERE NEW.history IS NOT NULL
        ON CONFLICT (table_id) DO UPDATE SET history = excluded.history;
    DELETE FROM deadlines WHERE table_id = NEW.table_id AND NEW.deadlines IS NOT NULL;
    INSERT INTO deadlines (table_id, kind, due_at, data)
        SELECT NEW.table_id, json_extract(value, '$[0]'), json_extract(value, '$[1]'),
            json_extract(value, '$[2]')
        FROM json_each(NEW.deadlines);
END;
