-- Seasons: a server's leaderboard starts fresh while the all-time record goes on.
--
-- A server that never started a season plays in its first, which has no row
-- here until a moderator closes it. The running season is the newest row
-- (or the first when there is none); a closed one has ``closed_at``.

CREATE TABLE seasons (
    guild_id BIGINT NOT NULL,
    season_no INTEGER NOT NULL CHECK (season_no >= 1),
    -- NULL for the first season, which began before anyone named it.
    name TEXT,
    -- The name folded for comparison: two seasons of a server differ in it.
    name_key TEXT,
    -- NULL for the first season: it began with the server's first game.
    started_at DOUBLE PRECISION,
    closed_at DOUBLE PRECISION,
    -- When the closed season's final leaderboard was posted to the results
    -- channel (or found to have none to go to); NULL while it is owed, so a
    -- restart posts the ones a stop left unsent.
    posted_at DOUBLE PRECISION,
    PRIMARY KEY (guild_id, season_no)
);

CREATE UNIQUE INDEX seasons_by_name ON seasons (guild_id, name_key) WHERE name_key IS NOT NULL;
CREATE INDEX seasons_owed ON seasons (guild_id) WHERE closed_at IS NOT NULL AND posted_at IS NULL;

-- The season each counted game counted in: every game before seasons
-- existed belongs to the first.
ALTER TABLE stats_games ADD COLUMN season_no INTEGER NOT NULL DEFAULT 1;

-- One row per player per season: the season's own rating and record.
CREATE TABLE stats_season_players (
    guild_id BIGINT NOT NULL,
    season_no INTEGER NOT NULL,
    user_id BIGINT NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    rating INTEGER NOT NULL,
    rated_games INTEGER NOT NULL DEFAULT 0,
    games INTEGER NOT NULL DEFAULT 0,
    wins INTEGER NOT NULL DEFAULT 0,
    losses INTEGER NOT NULL DEFAULT 0,
    draws INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, season_no, user_id)
);

CREATE INDEX stats_season_players_by_rating
    ON stats_season_players (guild_id, season_no, rating DESC, wins DESC, user_id)
    WHERE rated_games > 0;
CREATE INDEX stats_season_players_by_wins
    ON stats_season_players (guild_id, season_no, wins DESC, rating DESC, user_id)
    WHERE games > 0;

-- The first season so far is everything counted so far.
INSERT INTO stats_season_players
    (guild_id, season_no, user_id, mu, sigma, rating, rated_games, games, wins, losses, draws)
SELECT guild_id, 1, user_id, mu, sigma, rating, rated_games, games, wins, losses, draws
FROM stats_players;
