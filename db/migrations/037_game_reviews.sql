-- The coach's review of a finished game, for its replay: the costly cards of
-- every seat in every hand, as one JSON document written once per game (the
-- review takes seconds of CPU; a replay's frames read it). A game without a
-- row has not been reviewed yet.

CREATE TABLE game_reviews (
    game_id BIGINT PRIMARY KEY,
    review TEXT NOT NULL,
    reviewed_at DOUBLE PRECISION NOT NULL
);
