"""The bot as a process of its own, to stop with a signal:
``python -m tests.discord.stopping_bot DATABASE``.

It runs the way ``python -m bot`` does (:func:`bot.runner.serve`: the same
signal handlers, the same clean stop), except that Discord is SimCord, in the
process, in place of the gateway. One person and three computer players play
game after game without pause. It prints ``playing`` once the game is under way; after a
SIGTERM or SIGINT stopped the bot, ``stored V shown W refused N``: the
latest table's version in the database, the version its message shows, and how many
of the person's clicks were answered "restarting".
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import simcord

from bot.app import open_store
from bot.config import DiscordSettings
from bot.discord_app import SpadesBot
from bot.game.types import Phase
from bot.render.spec import parse
from bot.runner import configure_logging, serve
from tests.discord.conftest import fast_settings, seeds
from tests.discord.harness import World, buttons_of


def say(*words: object) -> None:
    print(*words, flush=True)


async def play(world: World) -> tuple[int, int]:
    """Play the person's turns until the bot stops answering; the last
    table's id, and the number of clicks refused because the bot was stopping."""
    refused = table_id = 0
    alice = world.user("alice")
    try:
        while not world.bot.is_closed():
            table = await world.table_any()
            assert table.game is not None
            table_id = table.id
            if table.game.over:
                result = await world.click(alice, "Rematch: same teams")
            elif table.game.phase is Phase.HAND_OVER:
                result = await world.click(alice, "Next hand")
            elif table.game.waited_on() == 0:
                result = await world.act(table)
            else:  # a computer player's turn, or a pause between hands
                await world.env.advance_time(1)
                continue
            if result.response is not None and "restarting" in result.response.content:
                refused += 1
    except Exception:
        # The bot closing under a click: Discord and the database are gone.
        if not world.bot.is_closed():
            raise
    return table_id, refused


async def main(database: Path) -> None:
    # Table edits paced as in production (one a second per channel), so that
    # one is usually waiting for its turn when the signal comes.
    paced = DiscordSettings(table_edits_per_channel_s=1.0)
    settings = fast_settings(database).model_copy(update={"discord": paced})
    configure_logging(settings)
    bot = SpadesBot(settings, seed_source=seeds())

    async def connect() -> None:
        async with simcord.run(bot, check_errors=False) as env:
            world = World(env, lambda: bot)
            await world.sync()
            alice = world.user("alice")
            await world.new_table(alice, target=500)
            await world.click(alice, "Add computer players")
            await world.click(alice, "Start")
            say("playing")
            table_id, refused = await play(world)
            await bot.close()  # the stop the signal began
            versions = [
                parse(b.custom_id.split(":", 1)[1]).version
                for b in buttons_of(world.table_message())
            ]
        store = await open_store(str(database))
        try:
            stored = await store.load_table(table_id)
        finally:
            await store.close()
        assert stored is not None
        say("stored", stored.version, "shown", max(versions), "refused", refused)

    await serve(bot, connect)


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))
