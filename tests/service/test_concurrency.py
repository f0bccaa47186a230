"""Exactly once under concurrency: many clicks on one turn, one wins."""

from __future__ import annotations

import asyncio

from bot import refusals
from bot.game.playout import random_card
from bot.game.refusals import IllegalAction
from bot.game.view import view_of
from bot.tables.model import Table
from bot.tables.service import TableService
from db.store import Store
from tests.backends import table_rows
from tests.service.driver import HOST, Chooser, seated_table


async def log_rows(store: Store, table_id: int) -> int:
    [(count,)] = await table_rows(
        store, "SELECT count(*) FROM actions WHERE table_id = ?", (table_id,)
    )
    return int(count)


async def _playing(service: TableService) -> Table:
    table = await seated_table(service)
    table = await service.start(table.id, HOST, table.version)
    chooser = Chooser(9)
    for _ in range(6):  # through the bids and into the first trick
        table = await chooser.step(service, table)
    return table


async def test_fifty_clicks_on_one_turn_commit_once(service: TableService, store: Store) -> None:
    table = await _playing(service)
    game = table.game
    assert game is not None
    seat = game.waited_on()
    assert seat is not None
    user = table.seats[seat].user_id
    assert user is not None
    legal = [c for c in range(52) if view_of(game, seat).legal_cards >> c & 1]
    rows_before = await log_rows(store, table.id)
    # The same player double-clicking every legal card, and everyone else too.
    attempts = [
        service.play(table.id, user, legal[i % len(legal)], table.version) for i in range(40)
    ]
    attempts += [
        service.play(table.id, other.user_id, 0, table.version)
        for other in table.seats
        if other.user_id not in (None, user)
    ] * 4
    assert len(attempts) >= 50
    outcomes = await asyncio.gather(*attempts[:50], return_exceptions=True)
    accepted = [o for o in outcomes if isinstance(o, Table)]
    refused = [o for o in outcomes if not isinstance(o, Table)]
    assert len(accepted) == 1
    assert all(isinstance(o, (refusals.StaleAction, IllegalAction)) for o in refused), refused
    assert sum(isinstance(o, refusals.StaleAction) for o in refused) >= 39
    assert accepted[0].version == table.version + 1
    assert await log_rows(store, table.id) == rows_before + 1
    assert (await service.get(table.id)).version == table.version + 1


async def test_tables_progress_concurrently(service: TableService, store: Store) -> None:
    tables = [await seated_table(service, channel=600 + n) for n in range(8)]
    tables = [await service.start(t.id, HOST, t.version) for t in tables]
    choosers = [Chooser(n) for n in range(len(tables))]

    async def run(table: Table, chooser: Chooser) -> Table:
        for _ in range(30):
            table = await chooser.step(service, table)
        return table

    done = await asyncio.gather(*(run(t, c) for t, c in zip(tables, choosers, strict=True)))
    for before, after in zip(tables, done, strict=True):
        assert after.version == before.version + 30
        assert await log_rows(store, after.id) == after.version


async def test_random_clicks_from_everyone_keep_the_log_consistent(
    service: TableService, store: Store
) -> None:
    """Four players clicking at random, concurrently, often on stale views:
    whatever is accepted forms one gapless log that replays to the same game."""
    table = await _playing(service)
    import random

    rng = random.Random(4)

    async def clicker(user: int) -> int:
        accepted = 0
        for _ in range(40):
            current = await service.get(table.id)
            game = current.game
            assert game is not None
            seat = current.seat_of(user)
            assert seat is not None
            version = current.version - (1 if rng.random() < 0.2 else 0)
            await asyncio.sleep(0)
            try:
                if game.waited_on() == seat and game.phase.value == "playing":
                    mask = view_of(game, seat).legal_cards
                    await service.play(table.id, user, random_card(mask, rng), version)
                elif game.waited_on() is None and not game.over:
                    await service.next_hand(table.id, user, version)
                else:
                    await service.play(table.id, user, rng.randrange(52), version)
                accepted += 1
            except (refusals.Refusal, IllegalAction):
                pass
        return accepted

    users = [s.user_id for s in table.seats if s.user_id is not None]
    counts = await asyncio.gather(*(clicker(u) for u in users))
    final = await service.get(table.id)
    assert final.version == table.version + sum(counts)
    assert await log_rows(store, table.id) == final.version
    reopened = await TableService.open(service.store)
    again = await reopened.get(table.id)
    assert again.game is not None and final.game is not None
    assert again.game.observable() == final.game.observable()
