-- The view action_commits (migrations 016 and 025) takes the history part of
-- the engine state too: ``history`` is NULL (leave it) or the table's new
-- history, written when a hand ends. The last card of a hand is then one
-- INSERT like any other card, rather than a transaction of four statements.

DROP TRIGGER action_commits_insert;
DROP VIEW action_commits;

CREATE VIEW action_commits (
    table_id, seq, kind, actor, payload, at, game_no, format, current, deadlines, history
) AS SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL WHERE 0;

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
        VALUES (NEW.table_id, NEW.game_no, NEW.seq, NEW.format, NEW.current)
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
