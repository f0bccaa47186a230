"""The screens of a server with several tables, continuing the scripted game."""

from __future__ import annotations

import discord
from simcord import ChannelHandle, MemberActor

from bot.game.types import Phase
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
