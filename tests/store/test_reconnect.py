"""A PostgreSQL server that goes away (here: stopped at once and started
again mid-test) does not end the bot: actions are refused with "try again in
a moment" while it is away, nothing acknowledged is lost, and the store works
again on its own once the server is back."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from bot.refusals import StaleAction, TryAgainSoon, as_refusal
from bot.tables.model import Table
from bot.tables.service import TableService
from cogs.errors import explain
from db.store import DatabaseAway, Store
from tests.backends import Backend, Server, need_server, table_rows
from tests.service.driver import HOST, Chooser, seated_table

#: The store must answer within this while the server is away (no hanging).
REFUSED_WITHIN_S = 5.0


@pytest.fixture
def server(postgres_server: Server | None) -> Server:
    return need_server(postgres_server)


async def _until_it_works(service: TableService, table: Table, chooser: Chooser) -> Table:
    """The next action, retried as a player would while refused."""
    deadline = time.monotonic() + 30
    while True:
        try:
            return await chooser.step(service, await service.get(table.id))
        except DatabaseAway:
            assert time.monotonic() < deadline, "the store never came back"
            await asyncio.sleep(0.2)


async def test_a_restarted_server_costs_a_moment_and_loses_nothing(server: Server) -> None:
    store = await Store.open(await server.create_database())
    try:
        service = await TableService.open(store)
        table = await seated_table(service, channel=4242)
        table = await service.start(table.id, HOST, table.version)
        chooser = Chooser(3)
        for _ in range(10):
            table = await chooser.step(service, table)
        acknowledged = table.version

        server.stop()
        try:
            for _ in range(3):
                started = time.monotonic()
                with pytest.raises(DatabaseAway) as away:
                    await chooser.step(service, table)
                assert time.monotonic() - started < REFUSED_WITHIN_S
                # The Discord layer answers it as a refusal, in words.
                assert isinstance(as_refusal(away.value), TryAgainSoon)
                assert explain(as_refusal(away.value)) == (
                    "The bot cannot reach its database right now: try again in a moment."
                )
            with pytest.raises(DatabaseAway):
                await store.load_open_tables()
        finally:
            server.start()

        table = await _until_it_works(service, table, chooser)
        assert table.version == acknowledged + 1
        for _ in range(10):
            table = await chooser.step(service, table)
        rows = await table_rows(
            store, "SELECT seq FROM actions WHERE table_id = ? ORDER BY seq", (table.id,)
        )
        assert [seq for (seq,) in rows] == list(range(1, table.version + 1))
        # A fresh process reads the same game.
        again = await TableService.open(store)
        reread = await again.get(table.id)
        assert reread.game is not None and table.game is not None
        assert reread.game.observable() == table.game.observable()
    finally:
        await store.close()


async def test_a_write_cut_off_but_made_is_read_back(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The connection died after the server committed: the service cannot
    know, so it reads the table back before its next action."""
    store = await backend.open()
    try:
        service = await TableService.open(store)
        table = await seated_table(service, channel=4343)
        table = await service.start(table.id, HOST, table.version)
        commit = store.commit_action

        async def committed_then_cut_off(*args: Any, **kwargs: Any) -> Any:
            await commit(*args, **kwargs)
            raise DatabaseAway("the connection was closed in the middle of operation")

        monkeypatch.setattr(store, "commit_action", committed_then_cut_off)
        chooser = Chooser(5)
        with pytest.raises(DatabaseAway):
            await chooser.step(service, table)
        monkeypatch.setattr(store, "commit_action", commit)
        # A click drawn from the table before the cut: refused as stale, not doubled.
        with pytest.raises(StaleAction):
            await chooser.step(service, table)
        reread = await service.get(table.id)
        assert reread.version == table.version + 1
        assert len(await store.action_log(table.id)) == reread.version
        table = await chooser.step(service, reread)  # and play goes on
        assert table.version == reread.version + 1
    finally:
        await store.close()
