-- Leaderboard, ratings and statistics (PostgreSQL), kept up to date when a game ends so
-- that every query reads a few rows by primary key or index.

-- One row per player per server: the rating and the running statistics.
CREATE TABLE stats_players (
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    rating INTEGER NOT NULL,
    rated_games INTEGER NOT NULL DEFAULT 0,
    games INTEGER NOT NULL DEFAULT 0,
    wins INTEGER NOT NULL DEFAULT 0,
    losses INTEGER NOT NULL DEFAULT 0,
    draws INTEGER NOT NULL DEFAULT 0,
    hands INTEGER NOT NULL DEFAULT 0,
    points INTEGER NOT NULL DEFAULT 0,
    nils_bid INTEGER NOT NULL DEFAULT 0,
    nils_made INTEGER NOT NULL DEFAULT 0,
    blind_nils_bid INTEGER NOT NULL DEFAULT 0,
    blind_nils_made INTEGER NOT NULL DEFAULT 0,
    sets INTEGER NOT NULL DEFAULT 0,
    bags INTEGER NOT NULL DEFAULT 0,
    revokes_proven INTEGER NOT NULL DEFAULT 0,
    revokes_caught INTEGER NOT NULL DEFAULT 0,
    false_claims INTEGER NOT NULL DEFAULT 0,
    last_played_at DOUBLE PRECISION NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, user_id)
);

-- The two leaderboard orders, each an index walk from the top.
CREATE INDEX stats_players_by_rating
    ON stats_players (guild_id, rating DESC, wins DESC, user_id)
    WHERE rated_games > 0;
CREATE INDEX stats_players_by_wins
    ON stats_players (guild_id, wins DESC, rating DESC, user_id)
    WHERE games > 0;

-- How each player fares with each partner (both directions are stored).
CREATE TABLE stats_partners (
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    partner_id BIGINT NOT NULL,
    games INTEGER NOT NULL DEFAULT 0,
    wins INTEGER NOT NULL DEFAULT 0,
    draws INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, user_id, partner_id)
);

-- Ratings of the computer levels, used only on servers that rate games
-- with computer players.
CREATE TABLE stats_computer_ratings (
    guild_id BIGINT NOT NULL,
    level TEXT NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    rated_games INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, level)
);

-- The server's choice whether games with computer players are rated.
CREATE TABLE stats_guild_settings (
    guild_id BIGINT PRIMARY KEY,
    rate_computer_games INTEGER NOT NULL DEFAULT 0
);

-- Each finished game of ``games`` once it is counted in the aggregates above:
-- a game listed here is never counted again.
CREATE TABLE stats_games (
    game_id BIGINT PRIMARY KEY REFERENCES games (id),
    guild_id BIGINT NOT NULL,
    finished_at DOUBLE PRECISION NOT NULL,
    rated INTEGER NOT NULL,
    challenger_seat INTEGER  -- who called the revoke, when a challenge ended the game
);

-- Who sat where, with the rating before and after (NULL when unrated); it
-- also lists a player's games on a server newest first without reading
-- every game they ever played.
CREATE TABLE stats_game_seats (
    game_id BIGINT NOT NULL REFERENCES stats_games (game_id),
    seat INTEGER NOT NULL,
    guild_id BIGINT NOT NULL,
    user_id BIGINT,
    computer_level TEXT,
    finished_at DOUBLE PRECISION NOT NULL,
    rating_before INTEGER,
    rating_after INTEGER,
    PRIMARY KEY (game_id, seat)
);

CREATE INDEX stats_game_seats_by_player
    ON stats_game_seats (guild_id, user_id, finished_at DESC)
    WHERE user_id IS NOT NULL;

-- A server's counted games in order, to count them again from scratch.
CREATE INDEX stats_games_by_guild ON stats_games (guild_id, finished_at);
