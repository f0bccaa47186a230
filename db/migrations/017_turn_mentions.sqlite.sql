-- The table's current turn mention ("@user, your turn to play ..."), posted
-- and deleted by the presenter. Kept here so that a mention posted before a
-- restart is still deleted when the turn moves on, instead of staying in the
-- channel forever. NULL: no mention is posted.
--
-- turn_mention_turn says which turn the mention is for, in the presenter's
-- words ("hand:seat:phase:user"): after a restart a mention for the turn that
-- is still on stays, so that person is not mentioned a second time.

ALTER TABLE tables ADD COLUMN turn_mention_id INTEGER;
ALTER TABLE tables ADD COLUMN turn_mention_turn TEXT;
