-- The results of solo games (house rule teams=solo), where each seat plays
-- for itself. ``winner`` names a team (0 or 1) and ``score0``/``score1`` the
-- two teams' scores, so a solo game leaves them NULL and keeps its own here:
-- the seat that won, and every seat's final score as a JSON list of four.
-- Partnership games, and every game written before, leave these NULL.

ALTER TABLE games ADD COLUMN winner_seat INTEGER CHECK (winner_seat BETWEEN 0 AND 3);
ALTER TABLE games ADD COLUMN seat_scores TEXT;
