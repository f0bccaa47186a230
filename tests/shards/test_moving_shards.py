"""Moving shards: stop a process and start another with its shards. Every
table of those servers resumes there, its deadlines that passed meanwhile
fire once (a reminder, a computer's move), and no other process touches them."""

from __future__ import annotations

from bot.tables.model import Table
from tests.clock.world import pending_of
from tests.service.driver import HOST

from .cores import GUILDS, Core, Now, open_core, started_table

#: Computers wait a minute: none moves in the real time a test takes.
SLOW_COMPUTERS = {"tables": {"computer_delay_s": 60.0}}


async def _clocked(location: str, shards: str, now: Now) -> Core:
    return await open_core(location, shards, now, **SLOW_COMPUTERS)


async def _waiting_on_a_computer(core: Core, channel: int) -> Table:
    """A table of the host and three computers, where a computer is to move."""
    table = await started_table(core.tables, GUILDS[0], channel, humans=1)
    assert table.game is not None
    if table.game.waited_on() == table.seat_of(HOST):
        table = await core.tables.bid(table.id, HOST, 3, table.version)
    assert table.game is not None and table.game.waited_on() != table.seat_of(HOST)
    return table


async def test_a_moved_shards_tables_resume_and_their_due_deadlines_fire_once(
    store_location: str,
) -> None:
    now = Now()
    old, other = await _clocked(store_location, "0", now), await _clocked(store_location, "1", now)
    try:
        people = await started_table(old.tables, GUILDS[0], 100)
        computers = await _waiting_on_a_computer(old, 101)
        elsewhere = await started_table(other.tables, GUILDS[1], 200)
        assert pending_of(old.app.clock.scheduler, people.id)
        assert not pending_of(other.app.clock.scheduler, people.id)
    finally:
        await old.close()  # shard 0's process stops ...

    # ... and while it is away, the first reminder and the computer's move fall due.
    now.t += people.rules.turn_limit_s / 2 + 61
    # Shard 1's process restarting now leaves shard 0's tables and deadlines alone.
    await other.close()
    other = await _clocked(store_location, "1", now)
    await other.app.clock.scheduler.wait_idle()
    assert [t.id for t in await other.tables.unfinished()] == [elsewhere.id]
    assert [n.table_id for n in other.notifier.notes] == [elsewhere.id]  # its own reminder
    new = await _clocked(store_location, "0", now)  # ... and shard 0 starts here
    try:
        await new.app.clock.scheduler.wait_idle()
        assert {t.id for t in await new.tables.unfinished()} == {people.id, computers.id}
        assert (await new.tables.get(people.id)).version == people.version
        assert [(n.what, n.table_id) for n in new.notifier.notes] == [("remind", people.id)]
        moved = await new.tables.get(computers.id)
        assert moved.version == computers.version + 1  # the one move that was due
        log = await new.store.action_log(computers.id)
        assert log[-1].actor is None  # made by a computer
        assert not pending_of(new.app.clock.scheduler, elsewhere.id)
        assert (await other.tables.get(elsewhere.id)).version == elsewhere.version
    finally:
        await new.close()

    again = await _clocked(store_location, "0", now)  # moved once more, no time passed
    try:
        await again.app.clock.scheduler.wait_idle()
        assert again.notifier.notes == []  # the reminder is not sent twice
        assert (await again.tables.get(computers.id)).version == moved.version
    finally:
        await again.close()
        await other.close()
