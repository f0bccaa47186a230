-- The bot token's REST budget, shared by every process of a sharded bot.
-- Requests go out in slots 1 / rest_per_s seconds apart; ``free_at`` (epoch
-- seconds) is the first slot no process has leased yet. A process leases a
-- few slots at a time, moving it on; a global 429 moves it past the pause.
-- One row (id 1), written at the first lease.

CREATE TABLE rest_budget (
    id INTEGER PRIMARY KEY,
    free_at DOUBLE PRECISION NOT NULL
);
