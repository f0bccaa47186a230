"""The screen of a tournament, after the server's: its message in the lounge,
with the bracket picture, one first-round match played and the other under way.

Eight players (the game's four and four more) register as four pairs by
clicks, the organizer starts it, both first-round matches pass their ready
checks and get their tables in threads, and a team resigns the first.
"""

from __future__ import annotations

import discord
from simcord import ChannelHandle, MemberActor, ResponseMessage

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
    for match in tournament.matches[:2]:
        for team in (match.a, match.b):
            found = tournament.team(team or 0)
            assert found is not None, "a first-round match without its teams"
            ready = by_id(players, found.players[0])
            await ready.click(message(hall), label=label("Ready"))
    await game.env.settle()
    first = service.in_channel(hall.id)
    assert first is not None and first.matches[0].table_id is not None, "no table opened"
    table = await game.bot.app.tables.get(first.matches[0].table_id)
    loser = first.team(first.matches[0].b or 0)
    assert loser is not None
    resigning = by_id(players, loser.players[0])
    thread = next(t for t in hall.threads if t.id == table.channel_id)
    asked = await resigning.slash(thread, "spades resign")
    confirm = game.response(asked)
    await resigning.click(confirm, custom_id=button_id(confirm, ":resign:"))
    await game.env.settle()
    caption = "A tournament's message: its teams and the bracket, one match played"
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


def button_id(message: ResponseMessage, part: str) -> str:
    """The custom id of the message's button whose id holds ``part``."""
    for row in message.components:
        for item in row.get("components", []):
            if part in str(item.get("custom_id")):
                return str(item["custom_id"])
    raise AssertionError(f"no {part} button on the message")
