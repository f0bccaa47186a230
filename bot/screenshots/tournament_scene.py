"""The screen of a tournament: eight players register as pairs, it starts, a top seed is Ready."""

from __future__ import annotations

import discord
from simcord import ChannelHandle, MemberActor

from bot.i18n import tr
from bot.render.tournament_text import TITLE
from bot.screenshots.scenes import TARGET, Game, Shot

MORE_PLAYERS = ("Ana", "Ben", "Chloe", "Dev")


async def tournament_screen(game: Game) -> None:
    new = [game.guild.add_member(game.env.create_user(name)) for name in MORE_PLAYERS]
    players = [*game.players, *new]
    organizer = players[0]
    # Tables open only in the channels the moderator allowed: the lounge is one.
    hall = game.guild.channels["spades-lounge"]
    opened = await organizer.slash(hall, "spades tournament new", name="Autumn cup", target=TARGET)
    assert game.response(opened).ephemeral, "the tournament did not open"
    await game.env.settle()  # its message goes out in the outbox's line
    service = game.bot.tournaments
    opened_one = service.in_channel(hall.id)
    row = service.row(opened_one.id) if opened_one is not None else None
    assert row is not None, "the tournament did not open"
    # The tournament talks in the server's language, whatever the players chose.
    language = str(row.settings.get("language", "en"))

    def label(text: str) -> str:
        return tr(language, text)

    for player, partner in zip(players[::2], players[1::2], strict=True):
        menu = await player.click(message(hall), label=label("Register"))
        await player.select(game.response(menu), [partner])
        await partner.click(message(hall), label=label("Confirm partner"))
    await organizer.click(message(hall), label=label("Start"))
    tournament = service.in_channel(hall.id)
    assert tournament is not None, "the tournament did not open"
    # Team 1 answers its ready check, pictured before any table opens (ids would vary).
    first = tournament.team(tournament.matches[0].a or 0)
    assert first is not None, "a first-round match without its teams"
    await by_id(players, first.players[0]).click(message(hall), label=label("Ready"))
    await game.env.settle()
    caption = "A tournament's message: its teams, the first ready checks and the bracket"
    await game.take(Shot("tournament", caption, organizer, message(hall), hall))


def message(channel: ChannelHandle) -> discord.Message:
    """The tournament's message in its channel."""
    return next(
        m
        for m in channel.history()
        if m.author.bot and m.embeds and (m.embeds[0].title or "").startswith(TITLE)
    )


def by_id(players: list[MemberActor], user_id: int) -> MemberActor:
    return next(p for p in players if p.id == user_id)
