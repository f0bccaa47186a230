-- Each server's settings, chosen by its moderators with /spades-admin: the
-- channels tables may open in, the roles that open tables or are told of new
-- ones, the channel finished games are announced in, and the defaults of a
-- new table. One JSON document per server, read on every use, so every
-- process of the bot sees a change at once. Servers without a row have the
-- settings of earlier versions: no limits, no announcements.

CREATE TABLE server_settings (
    guild_id BIGINT PRIMARY KEY,
    settings TEXT NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL
);
