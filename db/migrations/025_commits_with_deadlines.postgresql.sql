-- Fewer round trips per action (PostgreSQL).
--
-- 1. The view action_commits (migration 016) takes the table's deadlines
--    too: ``deadlines`` is NULL (leave them) or a JSON array of
--    [kind, due_at, data] that becomes the table's whole set. An action of
--    the turn clock is then still one INSERT instead of a transaction of
--    three statements.
-- 2. commit_actions takes many such rows (one array per column) and commits
--    them in one transaction, each on its own: a row that is refused (a
--    version conflict, a broken constraint) is rolled back alone and its
--    entry of the returned array says why; NULL means it was committed.
--    Actions of different tables waiting at the same time are thus one round
--    trip and one commit (one WAL flush) together.

CREATE OR REPLACE VIEW action_commits AS SELECT
    NULL::bigint AS table_id, NULL::bigint AS seq, NULL::text AS kind,
    NULL::bigint AS actor, NULL::text AS payload, NULL::double precision AS at,
    NULL::integer AS game_no, NULL::text AS format, NULL::bytea AS current,
    NULL::text AS deadlines
    WHERE false;

CREATE OR REPLACE FUNCTION action_commits_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- The action must follow the table's current version: seq = version + 1.
    -- The version test is in the UPDATE itself: a concurrent writer holding
    -- the row makes this one wait, then find the version moved on.
    UPDATE tables SET version = NEW.seq, updated_at = NEW.at
        WHERE id = NEW.table_id AND version = NEW.seq - 1;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'version conflict' USING ERRCODE = 'serialization_failure';
    END IF;
    INSERT INTO actions (table_id, seq, kind, actor, payload, at)
        VALUES (NEW.table_id, NEW.seq, NEW.kind, NEW.actor, NEW.payload, NEW.at);
    INSERT INTO table_states (table_id, game_no, version, format, current)
        VALUES (NEW.table_id, NEW.game_no, NEW.seq, NEW.format, NEW.current)
        ON CONFLICT (table_id) DO UPDATE SET
            game_no = excluded.game_no,
            version = excluded.version,
            format = excluded.format,
            current = excluded.current;
    IF NEW.deadlines IS NOT NULL THEN
        DELETE FROM deadlines WHERE table_id = NEW.table_id;
        INSERT INTO deadlines (table_id, kind, due_at, data)
            SELECT NEW.table_id, d ->> 0, (d ->> 1)::double precision, d ->> 2
            FROM json_array_elements(NEW.deadlines::json) AS d;
    END IF;
    RETURN NEW;
END;
$$;

CREATE FUNCTION commit_actions(
    table_ids bigint[], seqs bigint[], kinds text[], actors bigint[], payloads text[],
    ats double precision[], game_nos integer[], formats text[], currents bytea[],
    deadline_sets text[]
) RETURNS text[] LANGUAGE plpgsql AS $$
DECLARE
    refusals text[] := '{}';
    constraint_name text;
BEGIN
    FOR i IN 1 .. coalesce(cardinality(table_ids), 0) LOOP
        BEGIN
            INSERT INTO action_commits VALUES (
                table_ids[i], seqs[i], kinds[i], actors[i], payloads[i], ats[i],
                game_nos[i], formats[i], currents[i], deadline_sets[i]);
            refusals := refusals || NULL::text;
        EXCEPTION WHEN integrity_constraint_violation OR serialization_failure THEN
            GET STACKED DIAGNOSTICS constraint_name = CONSTRAINT_NAME;
            refusals := refusals || (SQLERRM || coalesce(' (' || nullif(constraint_name, '') || ')', ''));
        END;
    END LOOP;
    RETURN refusals;
END;
$$;
