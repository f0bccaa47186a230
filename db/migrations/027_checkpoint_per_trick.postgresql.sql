-- The engine state is stored at the end of each trick and of the bidding
-- (and at every other change of a game), no longer with every card: a row of
-- commit_actions whose ``current`` is NULL leaves the stored state as it is.
-- A resume replays the few actions logged after it (see bot.game.checkpoint).
-- Rows that carry a state are written as before; the view, its trigger and
-- the ten-array commit_actions call this one and need no change.

CREATE OR REPLACE FUNCTION commit_actions(
    table_ids bigint[], seqs bigint[], kinds text[], actors bigint[], payloads text[],
    ats double precision[], game_nos integer[], formats text[], currents bytea[],
    deadline_sets text[], histories bytea[]
) RETURNS text[] LANGUAGE plpgsql AS $$
DECLARE
    refusals text[];
BEGIN
    WITH batch AS (
        SELECT * FROM unnest(
            table_ids, seqs, kinds, actors, payloads, ats, game_nos, formats, currents,
            deadline_sets, histories
        ) WITH ORDINALITY AS b (
            table_id, seq, kind, actor, payload, at, game_no, format, current, deadlines,
            history, n
        )
    ), bumped AS (
        -- The version test is in the UPDATE itself: a concurrent writer
        -- holding the row makes this one wait, then find the version moved on.
        -- Only the first row of a table is tried (its caller knew the
        -- version; no caller can know the one after a row not yet written).
        UPDATE tables t SET version = b.seq, updated_at = b.at
            FROM (SELECT DISTINCT ON (table_id) * FROM batch ORDER BY table_id, n) b
            WHERE t.id = b.table_id AND t.version = b.seq - 1
            RETURNING b.n
    ), written AS (
        SELECT b.* FROM batch b JOIN bumped USING (n)
    ), logged AS (
        INSERT INTO actions (table_id, seq, kind, actor, payload, at)
            SELECT table_id, seq, kind, actor, payload, at FROM written
    ), states AS (
        INSERT INTO table_states (table_id, game_no, version, format, current)
            SELECT table_id, game_no, seq, format, current FROM written
            WHERE current IS NOT NULL
            ON CONFLICT (table_id) DO UPDATE SET
                game_no = excluded.game_no,
                version = excluded.version,
                format = excluded.format,
                current = excluded.current
    ), histories_written AS (
        INSERT INTO table_histories (table_id, history)
            SELECT table_id, history FROM written WHERE history IS NOT NULL
            ON CONFLICT (table_id) DO UPDATE SET history = excluded.history
    ), due AS (
        SELECT w.table_id, d ->> 0 AS kind, (d ->> 1)::double precision AS due_at,
                d ->> 2 AS data
            FROM written w, json_array_elements(w.deadlines::json) AS d
    ), kept AS (
        -- Upserted rather than deleted and inserted: the sub-statements of
        -- one statement must not touch one row twice.
        INSERT INTO deadlines (table_id, kind, due_at, data) SELECT * FROM due
            ON CONFLICT (table_id, kind) DO UPDATE SET
                due_at = excluded.due_at, data = excluded.data
    ), dropped AS (
        DELETE FROM deadlines x USING written w
            WHERE x.table_id = w.table_id AND w.deadlines IS NOT NULL
            AND NOT EXISTS (
                SELECT 1 FROM due WHERE due.table_id = x.table_id AND due.kind = x.kind
            )
    )
    SELECT array_agg(CASE WHEN k.n IS NULL THEN 'version conflict' END ORDER BY b.n)
        INTO refusals
        FROM batch b LEFT JOIN bumped k USING (n);
    RETURN coalesce(refusals, '{}');
END;
$$;
