"""Nothing is lost across restarts: close and reopen the store and the service
after every single action of complete games, and compare each step with the
same game played without interruption."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.tables.model import Table, TableOptions, TableStatus
from bot.tables.service import TableService
from db.store import Store
from tests.backends import Backend, game_results
from tests.service.driver import GUESTS, HOST, Chooser, FakeClock, seed_counter


def observable(table: Table) -> dict[str, Any]:
    return {
        "id": table.id,
        "status": table.status,
        "version": table.version,
        "seats": table.seats,
        "spectators": table.spectators,
        "host": table.host_id,
        "options": table.options,
        "game_number": table.game_number,
        "game_id": table.game_id,
        "game": table.game.observable() if table.game else None,
        "created_at": table.created_at,
        "updated_at": table.updated_at,
    }


class Restarting:
    """A service that is closed and reopened (store included) before each use."""

    def __init__(self, target: str, clock: FakeClock) -> None:
        self.target = target
        self.clock = clock
        self.seeds = seed_counter()
        self.store: Store | None = None
        self.service: TableService | None = None
        self.reopened = 0

    async def fresh(self) -> TableService:
        if self.store is not None:
            await self.store.close()
        self.store = await Store.open(self.target)
        self.service = await TableService.open(self.store, now=self.clock, seed_source=self.seeds)
        self.reopened += 1
        return self.service

    async def close(self) -> None:
        if self.store is not None:
            await self.store.close()


SCENARIOS = [
    pytest.param("standard", "allowed", 250, 0.05, 0.004, id="standard-revokes-allowed"),
    pytest.param("low-club", "blocked", 250, 0.0, 0.0, id="low-club-blocked"),
    pytest.param("cardgames", "allowed", 250, 0.1, 0.003, id="cardgames-allowed"),
    pytest.param("blind-nil", "allowed", 250, 0.02, 0.0, id="blind-nil-allowed"),
]


@pytest.mark.parametrize(
    ("preset", "revokes", "target", "revoke_rate", "challenge_rate"), SCENARIOS
)
async def test_reopen_after_every_action(
    tmp_path: Path,
    backend: Backend,
    preset: str,
    revokes: str,
    target: int,
    revoke_rate: float,
    challenge_rate: float,
) -> None:
    steady_store = await Store.open(tmp_path / "steady.db")
    steady = await TableService.open(steady_store, now=FakeClock(), seed_source=seed_counter())
    restarting = Restarting(backend.target, FakeClock())
    steady_chooser = Chooser(len(preset) * 31 + len(revokes), revoke_rate=revoke_rate,
                             challenge_rate=challenge_rate)  # fmt: skip
    mirror_chooser = Chooser(len(preset) * 31 + len(revokes), revoke_rate=revoke_rate,
                             challenge_rate=challenge_rate)  # fmt: skip
    steps = 0

    async def both(action: Any) -> Table:
        """Run ``action(service, table)`` on both; compare."""
        nonlocal steps
        a: Table = await action(steady, steady_table)
        b = await action(await restarting.fresh(), restarted_table)
        steps += 1
        assert observable(a) == observable(b), f"step {steps}"
        return a

    options = TableOptions.chosen(target=target, revokes=revokes, preset=preset)
    steady_table = await steady.create(3, 700, HOST, options)
    restarted_table = await (await restarting.fresh()).create(3, 700, HOST, options)
    lobby = [
        lambda s, t: s.join(t.id, GUESTS[0], t.version),
        lambda s, t: s.join(t.id, GUESTS[1], t.version),
        lambda s, t: s.join(t.id, GUESTS[2], t.version),
        lambda s, t: s.join(t.id, 4444, t.version),  # a spectator, later gone
        lambda s, t: s.leave(t.id, GUESTS[0], t.version),
        lambda s, t: s.set_message(t.id, 12345),
        lambda s, t: s.add_computers(t.id, HOST, t.version, "random"),
        lambda s, t: s.choose_partner(t.id, HOST, t.version, 2),
        lambda s, t: s.start(t.id, HOST, t.version),
        lambda s, t: s.leave(t.id, 4444, t.version),
    ]
    for action in lobby:
        steady_table = await both(action)
        restarted_table = await restarting.service.get(steady_table.id)  # type: ignore[union-attr]

    rematch_version = 0
    for game_round in range(2):
        while steady_table.status is TableStatus.PLAYING:
            steady_table = await steady_chooser.step(steady, steady_table)
            service = await restarting.fresh()
            restarted_table = await mirror_chooser.step(service, await service.get(steady_table.id))
            steps += 1
            assert observable(steady_table) == observable(restarted_table), f"step {steps}"
            if game_round == 1 and steady_table.version > rematch_version + 15:
                break
        if game_round == 0:
            steady_table = await both(
                lambda s, t: s.rematch(t.id, HOST, t.version, swap_teams=True)
            )
            restarted_table = await restarting.service.get(steady_table.id)  # type: ignore[union-attr]
            rematch_version = steady_table.version

    # The two logs are the same row for row, results included.
    assert restarting.store is not None
    steady_log = await steady_store.action_log(steady_table.id)
    mirror_log = await restarting.store.action_log(steady_table.id)
    assert steady_log == mirror_log
    steady_results = await game_results(steady_store, steady_table.id)
    assert steady_results == await game_results(restarting.store, steady_table.id)
    finished_games = 1 + (steady_table.status is TableStatus.FINISHED)
    assert len(steady_results) == finished_games
    assert restarting.reopened > 40
    await restarting.close()
    await steady_store.close()
