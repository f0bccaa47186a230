"""Suite-wide safety net: no test run may hang on a database left open.

aiosqlite runs each connection on a non-daemon thread, so one connection a
test forgets to close keeps the interpreter alive after the last test. The
connections still open when the session ends are stopped here, and counted in
the terminal summary so a leak is seen and fixed rather than hidden.
"""

from __future__ import annotations

import itertools
import weakref
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Any

import aiosqlite.core
import pytest

# The ``backend`` fixture: store and service tests on SQLite and PostgreSQL.
pytest_plugins = ["tests.backends"]

if TYPE_CHECKING:
    import simcord

    from bot.config import Settings
    from bot.discord_app import SpadesBot
    from tests.discord.harness import World

_connections: weakref.WeakSet[aiosqlite.core.Connection] = weakref.WeakSet()
_original_init = aiosqlite.core.Connection.__init__
_stopped_at_exit = 0


def _tracking_init(self: aiosqlite.core.Connection, *args: Any, **kwargs: Any) -> None:
    _original_init(self, *args, **kwargs)
    _connections.add(self)


aiosqlite.core.Connection.__init__ = _tracking_init  # type: ignore[method-assign]


def _stop(connection: aiosqlite.core.Connection) -> None:
    """Close the sqlite connection on its own thread and let the thread end,
    without touching any event loop (the tests' loops are closed by now)."""

    def close_and_stop() -> object:
        if connection._connection is not None:
            connection._connection.close()
            connection._connection = None
        return aiosqlite.core._STOP_RUNNING_SENTINEL

    connection._running = False
    connection._tx.put_nowait((None, close_and_stop))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    global _stopped_at_exit
    for connection in list(_connections):
        if connection._thread.is_alive() and connection._running:
            _stop(connection)
            _stopped_at_exit += 1


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _stopped_at_exit:
        terminalreporter.write_line(
            f"{_stopped_at_exit} database connection(s) left open by tests were closed at exit",
            yellow=True,
        )


@pytest.fixture
async def bots() -> AsyncIterator[list[SpadesBot]]:
    """Every bot a SimCord test made. SimCord stops a bot by cancelling its
    tasks, like a killed process; their database connections are closed here,
    afterwards, as the operating system would."""
    made: list[SpadesBot] = []
    yield made
    for bot in made:
        if hasattr(bot, "store"):
            await bot.store.close()


# The SimCord tests of every layer build the real bot the same way: a folder
# provides ``settings``; a restart makes a new bot on the same settings, as a
# real restart would.


@pytest.fixture
def make_bot(settings: Settings, bots: list[SpadesBot]) -> Callable[[], SpadesBot]:
    from bot.discord_app import SpadesBot

    seeds = itertools.count(1)

    def make() -> SpadesBot:
        bot = SpadesBot(settings, seed_source=lambda: next(seeds))
        bots.append(bot)
        return bot

    return make


@pytest.fixture
def simcord_bot(make_bot: Callable[[], SpadesBot]) -> SpadesBot:
    return make_bot()


@pytest.fixture
async def world(simcord_env: simcord.Env, make_bot: Callable[[], SpadesBot]) -> World:
    from tests.discord.harness import World

    world = World(simcord_env, make_bot)
    await world.sync()
    return world
