-- A hand opened from the table message's My hand is the follow-up of a
-- deferred update: its token's @original is the public table message, so the
-- hand is edited by its own message id. NULL (every row written before): the
-- hand is the token's @original, as it always was.

ALTER TABLE live_hands ADD COLUMN message_id BIGINT;
