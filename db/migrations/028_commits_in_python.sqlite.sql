-- An action's write is the store's own statements again (db/table_store.py,
-- one transaction of plain statements, the same on both databases): the view
-- action_commits and its trigger (migrations 016, 025, 026, 027) go.
--
-- A process of the earlier version still running on this file (there should
-- be none: one process owns an SQLite file) would find no view: its INSERT
-- of an ordinary action fails with "no such table: action_commits" and writes
-- nothing; its other writes carry on.

DROP TRIGGER action_commits_insert;
DROP VIEW action_commits;
