-- The table's current turn mention ("@user, your turn to play ..."), posted
-- and deleted by the presenter. Kept here so that a mention posted before a
-- restart is still deleted when the turn moves on, instead of staying in the
-- channel forever. NULL: no mention is posted.

ALTER TABLE tables ADD COLUMN turn_mention_id INTEGER;
