"""The engine state is stored at the end of each trick and of the bidding, not
with every card: a table resumed between two stored states replays the
actions logged since the last one, on both databases, and comes back as the
game it was. A process of the earlier version, which reads only format 4,
replays such games from their logs; states that version wrote resume as
they are."""

from __future__ import annotations

import pytest

from bot.game import checkpoint
from bot.game.state import Game
from bot.tables import play
from bot.tables.kinds import ENGINE_KINDS
from bot.tables.model import Table, TableStatus
from bot.tables.service import TableService
from db.store import Store
from tests.backends import table_rows
from tests.service.driver import HOST, Chooser, FakeClock, seated_table, seed_counter

#: The fingerprint an earlier version of the bot reads and writes.
EARLIER_FORMAT = checkpoint.READ_FINGERPRINTS[1]


async def _stored_version(store: Store, table_id: int) -> int:
    rows = await table_rows(
        store, "SELECT version FROM table_states WHERE table_id = ?", (table_id,)
    )
    return int(rows[0][0])


async def _resumed_game(store: Store, table_id: int) -> Game | None:
    """The table's game as a new service over the same database rebuilds it."""
    return (await (await TableService.open(store)).get(table_id)).game


async def test_a_resume_after_any_action_is_the_game_as_played(store: Store) -> None:
    service = await TableService.open(store, now=FakeClock(), seed_source=seed_counter())
    chooser = Chooser(4)
    table = await seated_table(service, channel=610)
    table = await service.start(table.id, HOST, table.version)
    lags = set()
    hands = 0
    while table.status is TableStatus.PLAYING and hands < 2:
        table = await chooser.step(service, table)
        assert table.game is not None
        hands = len(table.game.hand_records)
        log = await store.action_log(table.id)
        stored = await _stored_version(store, table.id)
        behind = [e for e in log if e.seq > stored and e.kind in ENGINE_KINDS]
        lags.add(len(behind))
        # Only a trick's first cards or the first bids are left to replay.
        assert len(behind) <= 3
        assert all(e.kind in ("play", "bid") for e in behind)
        resumed = await _resumed_game(store, table.id)
        assert resumed is not None
        assert resumed.observable() == table.game.observable()
        assert resumed.actions == table.game.actions
    assert lags == {0, 1, 2, 3}
    # The resumed table plays on: its next stored state is whole again.
    service = await TableService.open(store, now=FakeClock(), seed_source=seed_counter())
    table = await service.get(table.id)
    while table.status is TableStatus.PLAYING:
        table = await chooser.step(service, table)
        game = table.game
        assert game is not None
        if not game.trick and game.phase.value != "bidding":
            break
    assert await _stored_version(store, table.id) == table.version
    assert (await _resumed_game(store, table.id)).observable() == table.game.observable()  # type: ignore[union-attr]


async def _mid_trick(service: TableService, chooser: Chooser, channel: int) -> Table:
    """A table whose last card left its trick unfinished (after one trick)."""
    table = await seated_table(service, channel=channel)
    table = await service.start(table.id, HOST, table.version)
    while True:
        table = await chooser.step(service, table)
        game = table.game
        assert game is not None
        if game.tricks and len(game.trick) == 2:
            return table


async def test_the_earlier_version_replays_what_it_cannot_trust(store: Store) -> None:
    service = await TableService.open(store, now=FakeClock(), seed_source=seed_counter())
    table = await _mid_trick(service, Chooser(6), 611)
    current = await store.load_table(table.id, checkpoint.READ_FINGERPRINTS)
    assert current is not None and current.state is not None
    assert [e.kind for e in current.state_tail] == ["play", "play"]
    assert current.game_log == []
    # The earlier version asks for its own format only: the state, written
    # two cards ago, is not handed to it, and the whole log is.
    earlier = await store.load_table(table.id, (EARLIER_FORMAT,))
    assert earlier is not None and earlier.state is None and earlier.state_tail == []
    engine_entries = [e for e in earlier.game_log if e.kind in ENGINE_KINDS]
    assert table.game is not None and len(engine_entries) == len(table.game.actions)


async def test_states_the_earlier_version_wrote_resume_without_a_replay(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The earlier version: format 4, a state with every game action.
    with monkeypatch.context() as earlier:
        earlier.setattr(checkpoint, "FINGERPRINT", EARLIER_FORMAT)
        earlier.setattr(play, "stores_state", lambda kind, game: True)
        service = await TableService.open(store, now=FakeClock(), seed_source=seed_counter())
        table = await _mid_trick(service, Chooser(7), 612)
    assert await _stored_version(store, table.id) == table.version
    formats = await table_rows(store, "SELECT format FROM table_states")
    assert formats == [(EARLIER_FORMAT,)]

    def no_replay(*args: object, **kwargs: object) -> Game:
        raise AssertionError("the stored state should have been used")

    monkeypatch.setattr(Game, "replay", no_replay)
    resumed = await _resumed_game(store, table.id)
    assert resumed is not None and table.game is not None
    assert resumed.observable() == table.game.observable()


async def test_a_tail_the_engine_refuses_falls_back_to_the_log(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    service = await TableService.open(store, now=FakeClock(), seed_source=seed_counter())
    table = await _mid_trick(service, Chooser(8), 613)
    # A state whose version says two actions less than it holds: its tail
    # replays two cards the state has played already, which the engine
    # refuses, and the game is replayed from its log instead.
    await store.db.execute(
        "UPDATE table_states SET version = version - 2 WHERE table_id = ?", (table.id,)
    )
    resumed = await _resumed_game(store, table.id)
    assert resumed is not None and table.game is not None
    assert resumed.observable() == table.game.observable()
    assert "unusable stored state, replaying its log" in caplog.text
