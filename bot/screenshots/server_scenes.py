"""The screens of a server, continuing the scripted game: several tables, a replay,
a tournament and a season closing."""

from __future__ import annotations

import discord
from simcord import ChannelHandle, MemberActor

from bot.game.types import Phase
from bot.i18n import tr
from bot.render.replay import marks_at
from bot.render.tournament_text import TITLE
from bot.screenshots.scenes import TARGET, Game, Shot
from bot.tables.model import Table

#: The thread is pictured when the host is to play in this trick of the first hand.
THREAD_TRICK = 3


async def server_screens(game: Game) -> None:
    maya, theo, priya, jonas = game.players
    lounge = game.guild.create_text_channel("spades-lounge")
    await open_with_computers(game, lounge, maya)
    await game.play_until(lambda table: hosts_turn_in_trick(game, table, THREAD_TRICK))
    # The channel as someone passing by sees it: one message for the table.
    caption = "A table in its channel, talking in its thread"
    await game.take(Shot("thread", caption, priya, game.table_message(), layout="channel"))
    await jonas.click(game.table_message(), label=game.label("Watch"))

    await game.play_until(lambda table: game.game_of(table).phase is Phase.HAND_OVER)
    await jonas.select(game.table_message(), ["1"], custom_id=seat_menu_id(game.table_message()))
    caption = "A watcher asks for a computer's seat"
    await game.take(Shot("seat-request", caption, maya, game.table_message()))
    await maya.click(game.table_message(), label=game.label("Accept the request"))

    backroom = game.guild.create_text_channel("spades-backroom")
    await open_with_computers(game, backroom, theo, joining=maya)
    mine = await maya.slash(game.channel, "spades mygames")
    await game.take(Shot("mygames", "/spades mygames: your tables", maya, game.response(mine)))

    moderators = game.guild.create_role(
        "Moderators", permissions=discord.Permissions(manage_guild=True)
    )
    mod = game.guild.add_member(game.env.create_user("Sam"), roles=[moderators])
    results = game.guild.create_text_channel("spades-results")
    for channel in (lounge, backroom):
        await mod.slash(channel, "spades-admin channels add", channel=channel)
    await mod.slash(lounge, "spades-admin results-channel", channel=results)
    panel = await mod.slash(lounge, "spades-admin show")
    await game.take(Shot("admin", "/spades-admin show", mod, game.response(panel), lounge))


async def open_with_computers(
    game: Game, channel: ChannelHandle, host: MemberActor, joining: MemberActor | None = None
) -> None:
    """A started table in ``channel`` with ``joining`` beside the host, computers elsewhere."""
    game.move_to(channel)
    await host.slash(channel, "spades new", target=TARGET, **game.table_language())
    if joining is not None:
        await joining.click(game.table_message(), label=game.label("Join"))
    await host.click(game.table_message(), label=game.label("Add computer players"))
    await host.click(game.table_message(), label=game.label("Start"))


def hosts_turn_in_trick(game: Game, table: Table, trick: int) -> bool:
    state = game.game_of(table)
    return len(state.tricks) == trick - 1 and game.hosts_turn_to_play(table)


def seat_menu_id(message: discord.Message) -> str:
    """The custom id of the table message's menu of computers' seats."""
    for row in message.components:
        for item in getattr(row, "children", []):
            if isinstance(item, discord.SelectMenu) and ":seat_ask:" in str(item.custom_id):
                return str(item.custom_id)
    raise AssertionError("no menu of computers' seats on the table message")


#: Clicks on ▶ at most, to reach the marked trick.
STEPS = 14


async def replay_screen(game: Game) -> None:
    host = game.players[0]
    table = await game.table()
    assert table.game_id is not None and table.guild_id is not None, "no finished game"
    opened = game.response(await host.slash(game.channel, "spades replay", game=table.game_id))
    # The first viewer starts the coach's review; the shot waits for its notes.
    await game.bot.app.wait_background()
    replays = game.bot.app.replays
    replay = await replays.replay(table.guild_id, table.game_id)
    review = await replays.review(replay)
    marks = [] if review is None else review.cards
    marked = next(
        (i for i, frame in enumerate(replay.frames) if marks_at(frame, marks)), STEPS // 2
    )
    start = max(s for s in replay.hand_starts() if s <= marked)
    viewer = opened
    if start:
        menu = next(
            item
            for row in viewer.components
            for item in row.get("components", [])
            if item.get("type") == 3
        )
        await host.select(viewer, [str(start)], custom_id=menu["custom_id"])
        viewer = game.message_of(viewer)
    for _ in range(min(marked - start, STEPS)):
        await host.click(viewer, label="▶")
    viewer = game.message_of(viewer)
    caption = "A replay: every hand face up, the trick, and the coach's note"
    await game.take(Shot("replay", caption, host, viewer))


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
        menu = await player.click(tournament_post(hall), label=label("Register"))
        await player.select(game.response(menu), [partner])
        await partner.click(tournament_post(hall), label=label("Confirm partner"))
    await organizer.click(tournament_post(hall), label=label("Start"))
    tournament = service.in_channel(hall.id)
    assert tournament is not None, "the tournament did not open"
    # Team 1 answers its ready check, pictured before any table opens (ids would vary).
    first = tournament.team(tournament.matches[0].a or 0)
    assert first is not None, "a first-round match without its teams"
    await by_id(players, first.players[0]).click(tournament_post(hall), label=label("Ready"))
    await game.env.settle()
    caption = "A tournament's message: its teams, the first ready checks and the bracket"
    await game.take(Shot("tournament", caption, organizer, tournament_post(hall), hall))


def tournament_post(channel: ChannelHandle) -> discord.Message:
    """The tournament's message in its channel."""
    return next(
        m
        for m in channel.history()
        if m.author.bot and m.embeds and (m.embeds[0].title or "").startswith(TITLE)
    )


def by_id(players: list[MemberActor], user_id: int) -> MemberActor:
    return next(p for p in players if p.id == user_id)


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
