"""A tournament's steps in the store, on both databases: one transaction per
step with a version check, the event log in order, the matches' places and
tables, and the tournament's deadlines."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from db.store import Deadline, IntegrityFailure, StoreError, VersionConflict
from db.table_records import Change, GameStart, LogEntry
from db.tournaments import GameMatch, TournamentEvent, TournamentRow, TournamentStore
from tests.backends import FOUR_SEATED, Backend, open_tables, table_rows


@pytest.fixture
async def tournaments(backend: Backend) -> AsyncIterator[TournamentStore]:
    store = await backend.open()
    yield TournamentStore(store)
    await store.close()


async def _new(tournaments: TournamentStore) -> int:
    return await tournaments.create(
        guild_id=5,
        channel_id=6,
        organizer_id=7,
        name="Winter cup",
        settings={"format": "double", "target": 250},
        first=TournamentEvent("new", 7, {"name": "Winter cup"}, 1.0),
    )


async def test_steps_are_logged_in_order_with_a_version_check(
    tournaments: TournamentStore,
) -> None:
    tid = await _new(tournaments)
    version = await tournaments.commit_event(tid, 1, TournamentEvent("register", 8, {"a": 1}, 2.0))
    assert version == 2
    version = await tournaments.commit_event(
        tid, 2, TournamentEvent("start", 7, {}, 3.0), status="running"
    )
    with pytest.raises(VersionConflict):
        await tournaments.commit_event(tid, 2, TournamentEvent("register", 9, {}, 4.0))
    row = await tournaments.get(tid)
    assert row is not None
    assert (row.version, row.status, row.settings["format"], row.name) == (
        3,
        "running",
        "double",
        "Winter cup",
    )
    events = await tournaments.events(tid)
    assert [(e.kind, e.actor, dict(e.payload), e.at) for e in events] == [
        ("new", 7, {"name": "Winter cup"}, 1.0),
        ("register", 8, {"a": 1}, 2.0),
        ("start", 7, {}, 3.0),
    ]
    assert [t.id for t in await tournaments.open_ones()] == [tid]
    await tournaments.commit_event(tid, 3, TournamentEvent("over", None, {}, 5.0), status="over")
    assert await tournaments.open_ones() == []


async def test_a_channel_s_latest_is_its_newest_open_one_else_its_newest(
    tournaments: TournamentStore,
) -> None:
    assert await tournaments.latest_in_channel(6) is None
    first, second, third = [await _new(tournaments) for _ in range(3)]

    async def latest() -> int | None:
        row = await tournaments.latest_in_channel(6)
        return None if row is None else row.id

    assert await latest() == third
    await tournaments.commit_event(third, 1, TournamentEvent("c", 7, {}, 2.0), status="cancelled")
    assert await latest() == second
    await tournaments.commit_event(second, 1, TournamentEvent("o", 7, {}, 2.0), status="over")
    assert await latest() == first  # the only one still open comes first
    await tournaments.commit_event(first, 1, TournamentEvent("o", 7, {}, 2.0), status="over")
    assert await latest() == third  # none open: the newest, whatever its end
    assert await tournaments.latest_in_channel(66) is None


async def test_the_log_is_append_only(tournaments: TournamentStore) -> None:
    tid = await _new(tournaments)
    with pytest.raises((IntegrityFailure, StoreError)):
        async with tournaments.store.transaction() as db:
            await db.execute("DELETE FROM tournament_events WHERE tournament_id = ?", (tid,))
    assert len(await tournaments.events(tid)) == 1


async def test_deadlines_are_written_with_the_step_and_kept_per_kind(
    tournaments: TournamentStore,
) -> None:
    tid = await _new(tournaments)
    ready = Deadline(tid, "ready:3", 100.0, {"match": 3})
    await tournaments.commit_event(
        tid, 1, TournamentEvent("ready-check", None, {}, 2.0), deadlines=[ready]
    )
    assert await tournaments.load_deadlines() == [ready]
    with pytest.raises(VersionConflict):  # a refused step changes no deadline
        await tournaments.commit_event(tid, 1, TournamentEvent("x", None, {}, 2.0), deadlines=[])
    assert await tournaments.load_deadlines() == [ready]
    await tournaments.put_deadline(tid, "ready:4", 50.0, {"match": 4})
    assert [d.kind for d in await tournaments.load_deadlines()] == ["ready:4", "ready:3"]
    await tournaments.delete_deadline(tid, "ready:4")
    await tournaments.commit_event(tid, 2, TournamentEvent("y", None, {}, 3.0), deadlines=[])
    assert await tournaments.load_deadlines() == []


async def test_a_match_keeps_its_first_place_and_finds_its_table(
    tournaments: TournamentStore,
) -> None:
    tid = await _new(tournaments)
    (table_id,) = await open_tables(tournaments.store, 1)
    await tournaments.set_channel(tid, 2, 111)
    await tournaments.set_channel(tid, 2, 222)  # a second attempt keeps the first channel
    [match] = await tournaments.match_tables(tid)
    assert (match.channel_id, match.table_id) == (111, None)
    await tournaments.set_table(tid, 2, table_id)
    assert await table_rows(
        tournaments.store,
        "SELECT tournament_id, match_no FROM tournament_tables WHERE table_id = ?",
        (table_id,),
    ) == [(tid, 2)]
    await tournaments.set_message(tid, 999)
    assert await table_rows(
        tournaments.store, "SELECT message_id FROM tournaments WHERE id = ?", (tid,)
    ) == [(999,)]


async def test_a_game_at_a_match_table_names_its_tournament_and_match(
    tournaments: TournamentStore,
) -> None:
    tid = await _new(tournaments)
    match_table, other_table = await open_tables(tournaments.store, 2)
    await tournaments.set_channel(tid, 3, 111)
    await tournaments.set_table(tid, 3, match_table)
    start = GameStart(1, "standard", {}, 9, 2.0, FOUR_SEATED)
    games = [
        (
            await tournaments.store.commit_action(
                table, 1, LogEntry("start", 10, {}, 2.0), Change(game_start=start)
            )
        ).game_id
        for table in (match_table, other_table)
    ]
    played, ordinary = (g or 0 for g in games)
    found = await tournaments.matches_of_games([played, ordinary])
    assert found == {played: GameMatch("Winter cup", 3)}
    assert await tournaments.matches_of_games([]) == {}


async def test_standings_are_owed_until_marked_posted(tournaments: TournamentStore) -> None:
    tid = await _new(tournaments)
    assert await tournaments.standings_owed() == []  # registering: nothing to post yet
    await tournaments.commit_event(tid, 1, TournamentEvent("start", 7, {}, 2.0), status="over")
    assert [row.id for row in await tournaments.standings_owed()] == [tid]
    assert await tournaments.owes_standings(tid)
    await tournaments.standings_posted(tid, 3.0)
    assert await tournaments.standings_owed() == []
    assert not await tournaments.owes_standings(tid)


async def test_a_finished_tournament_is_unshown_until_its_last_version_is_shown(
    tournaments: TournamentStore,
) -> None:
    tid = await _new(tournaments)
    assert await tournaments.unshown() == []  # open: redrawn at every start anyway
    await tournaments.shown(tid, 1)
    await tournaments.commit_event(tid, 1, TournamentEvent("start", 7, {}, 2.0), status="over")
    assert [row.id for row in await tournaments.unshown()] == [tid]
    await tournaments.shown(tid, 2)
    await tournaments.shown(tid, 1)  # an older drawing finishing late changes nothing
    assert await tournaments.unshown() == []


#: What a finished tournament may owe, each read by the store, and the
#: migration that added it: tournaments over before it owe nothing.
OWED = [
    pytest.param(34, TournamentStore.standings_owed, id="standings (034)"),
    pytest.param(35, TournamentStore.unshown, id="message (035)"),
]


@pytest.mark.parametrize(("added_in", "owed"), OWED)
async def test_tournaments_over_before_a_migration_owe_nothing_it_added(
    backend: Backend,
    added_in: int,
    owed: Callable[[TournamentStore], Awaitable[list[TournamentRow]]],
) -> None:
    old = await backend.open(upto=added_in - 1)
    before = TournamentStore(old)
    over, running = await _new(before), await _new(before)
    await before.commit_event(over, 1, TournamentEvent("start", 7, {}, 2.0), status="over")
    await before.commit_event(running, 1, TournamentEvent("start", 7, {}, 2.0), status="running")
    await old.close()
    store = await backend.open()
    try:
        after = TournamentStore(store)
        assert await owed(after) == []
        await after.commit_event(running, 2, TournamentEvent("x", 7, {}, 3.0), status="over")
        assert [row.id for row in await owed(after)] == [running]
    finally:
        await store.close()
