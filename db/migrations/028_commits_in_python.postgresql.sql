-- An action's write is the store's own statements again (db/table_store.py,
-- one transaction of plain statements, the same on both databases): the view
-- action_commits, its trigger and the commit_actions functions (migrations
-- 016, 025, 026, 027) go.
--
-- During a rolling upgrade a process of the earlier version may still serve
-- some shards. Its ordinary actions (a bid, a card) call commit_actions,
-- which no longer exists: each such call fails with "function ... does not
-- exist" and writes nothing (that process reports the click as an unexpected
-- error; the table stays at its version); its other writes still work. Its
-- shards play again once they move to a process of this version, which
-- resumes their tables from what was committed.

DROP VIEW action_commits;
DROP FUNCTION action_commits_insert();
-- The ten-array form (026) calls the eleven-array one: it goes first.
DROP FUNCTION commit_actions(
    bigint[], bigint[], text[], bigint[], text[], double precision[], integer[], text[],
    bytea[], text[]
);
DROP FUNCTION commit_actions(
    bigint[], bigint[], text[], bigint[], text[], double precision[], integer[], text[],
    bytea[], text[], bytea[]
);
