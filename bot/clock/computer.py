"""Computer moves: what a computer seat (or a stand-in for a late person)
chooses, and submitting it through the table service."""

from __future__ import annotations

import asyncio
import logging
import random
import zlib

from bot import metrics
from bot.ai.base import RandomPlayer, make_player
from bot.ai.rest_claim import claim_holds
from bot.clock.deadlines import forced_bid
from bot.game.refusals import IllegalAction
from bot.game.types import Action, ActionKind, Phase
from bot.game.view import view_of
from bot.tables.model import Table
from bot.tables.service import TableService

log = logging.getLogger(__name__)


async def decide(
    table: Table, seat: int, stand_in_level: str, expert_time_budget_s: float | None = None
) -> Action:
    """The move of the computer playing ``seat``: its own level, or
    ``stand_in_level`` for a person's seat. The same table version and seat
    give the same move (the ``expert`` level within its time budget)."""
    game = table.game
    assert game is not None
    if game.phase is Phase.HAND_OVER:
        return Action(ActionKind.NEXT_HAND, seat)
    forced = forced_bid(game, seat)
    if forced is not None:
        return Action(ActionKind.BID, seat, forced)
    if game.rest.waiting:
        # An opponent of a claim of the rest accepts exactly what holds on the
        # real deal (an exact search: off the event loop).
        holds = await asyncio.to_thread(claim_holds, game, game.rest.claimer)
        return Action(ActionKind.ACCEPT_REST if holds else ActionKind.REFUSE_REST, seat)
    level = table.seats[seat].computer_level or stand_in_level
    seed = zlib.crc32(f"{table.id}:{table.version}:{seat}".encode())
    player = make_player(level, seed, expert_time_budget_s)
    # Stronger levels search for a while: keep the event loop free.
    with metrics.deciding():
        return await asyncio.to_thread(player.decide, view_of(game, seat))


async def act(service: TableService, table: Table, seat: int, action: Action) -> Table:
    """Act for a computer seat, or for a late person's seat (as them). A move
    the engine refuses is replaced by a random legal one."""
    try:
        return await _submit(service, table, seat, action)
    except IllegalAction as refused:
        if action.kind in _NOT_REPLACED:
            raise
        log.warning(
            "table %d: the computer's %s for seat %d was refused (%s); playing at random",
            table.id,
            action.kind.value,
            seat,
            refused.message,
        )
        assert table.game is not None
        fallback = RandomPlayer(random.getrandbits(32)).decide(view_of(table.game, seat))
        return await _submit(service, table, seat, fallback)


#: Actions a random move cannot stand for: a refusal of them is passed on.
_NOT_REPLACED = frozenset({ActionKind.NEXT_HAND, ActionKind.ACCEPT_REST, ActionKind.REFUSE_REST})


async def _submit(service: TableService, table: Table, seat: int, action: Action) -> Table:
    occupant = table.seats[seat]
    if occupant.is_computer:
        return await service.computer_act(table.id, seat, table.version, action)
    user = occupant.user_id
    assert user is not None
    if action.kind is ActionKind.BID:
        return await service.bid(table.id, user, action.value, table.version)
    if action.kind is ActionKind.PLAY:
        return await service.play(table.id, user, action.value, table.version)
    if action.kind is ActionKind.PASS:
        assert table.game is not None
        hand = table.game.hand_number
        return await service.pass_cards(table.id, user, action.value, table.version, hand)
    if action.kind is ActionKind.LOOK:
        return await service.look(table.id, user, table.version)
    if action.kind is ActionKind.NEXT_HAND:
        return await service.next_hand(table.id, user, table.version)
    if action.kind in (ActionKind.ACCEPT_REST, ActionKind.REFUSE_REST):
        accept = action.kind is ActionKind.ACCEPT_REST
        return await service.answer_rest(table.id, user, table.version, accept)
    raise ValueError(f"a stand-in does not {action.kind.value}")
