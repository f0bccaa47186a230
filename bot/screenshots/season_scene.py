"""The screen of a season closing: the results channel gets the closed season's leaderboard."""

from __future__ import annotations

import discord

from bot.screenshots.scenes import Game, Shot


async def season_screen(game: Game) -> None:
    stewards = game.guild.create_role(
        "Season stewards", permissions=discord.Permissions(manage_guild=True)
    )
    mod = game.guild.add_member(game.env.create_user("Robin"), roles=[stewards])
    lounge = game.guild.channels["spades-lounge"]
    results = game.guild.channels["spades-results"]
    started = await mod.slash(lounge, "spades-admin season start", name="Winter league")
    assert game.response(started).ephemeral, "the season did not start"
    await game.env.settle()  # the post goes out in the outbox's line
    post = next(m for m in reversed(results.history()) if m.author.bot and m.embeds)
    caption = "A season closes: its final leaderboard in the results channel"
    await game.take(Shot("season", caption, mod, post, results))
