"""Interim driver of the computer players, until the turn clock takes them over.

It listens to the table service; whenever a table waits on a computer seat
it waits ``delay_s`` (so people can follow the play), asks that seat's player
for an action from the seat's view only, and submits it through the service
with the version it decided on. An action on a state that moved on meanwhile
is refused by the service as stale and simply dropped: the newer state has
already been considered.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from bot.ai.base import make_player
from bot.game.errors import IllegalAction
from bot.game.view import view_of
from bot.tables.errors import StaleAction, TableError
from bot.tables.model import Table
from bot.tables.service import TableService

log = logging.getLogger(__name__)

Spawn = Callable[[Coroutine[Any, Any, Any], str], "asyncio.Task[Any]"]


class ComputerDriver:
    def __init__(self, service: TableService, *, delay_s: float, spawn: Spawn) -> None:
        self.service = service
        self.delay_s = delay_s
        self.spawn = spawn
        self._pending: dict[tuple[int, int], asyncio.Task[Any]] = {}
        self._stopped = False

    async def on_table_change(self, table: Table, event: str) -> None:
        self.consider(table)

    def consider(self, table: Table) -> None:
        """Schedule the move of the computer seat this table waits on, if any."""
        if self._stopped:
            return
        seat = table.waiting_on_bot()
        key = (table.id, table.version)
        if seat is None or key in self._pending:
            return
        task = self.spawn(self._move(table, seat), f"computer-t{table.id}-v{table.version}")
        self._pending[key] = task
        task.add_done_callback(lambda _: self._pending.pop(key, None))

    def stop(self) -> None:
        self._stopped = True
        for task in list(self._pending.values()):
            task.cancel()

    async def _move(self, table: Table, seat: int) -> None:
        if self.delay_s > 0:
            await asyncio.sleep(self.delay_s)
        game = table.game
        level = table.seats[seat].bot_level
        assert game is not None and level is not None
        # A seed from the game and its progress: the same position gets the same move.
        player = make_player(level, seed=(game.seed * 1009 + len(game.actions)) % 2**63)
        action = player.decide(view_of(game, seat))
        try:
            await self.service.bot_act(table.id, seat, table.version, action)
        except StaleAction:
            log.debug("computer move at table %d dropped: the table moved on", table.id)
        except (TableError, IllegalAction) as exc:
            # The code only: a refusal's message may name a card.
            log.warning("computer player at table %d seat %d refused: %s", table.id, seat, exc.code)
