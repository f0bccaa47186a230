"""Which committed changes reach which listeners of the application: each
hears of the kind of change it subscribed to only, so that a card play in
the middle of a hand runs neither the coach's nor the statistics' listeners."""

from __future__ import annotations

from pathlib import Path

from bot.app import Change, Snapshot, SpadesApp
from bot.tables.service import TableService
from db.store import Store
from tests.coach.test_service import play_hand, started
from tests.discord.conftest import fast_settings
from tests.service.driver import HOST, FakeClock, waited_user
from tests.shards.cores import RecordingNotifier


class Heard:
    """The events one listener was told of."""

    def __init__(self) -> None:
        self.events: list[str] = []

    def __call__(self, snapshot: Snapshot, event: str) -> None:
        self.events.append(event)


async def test_each_listener_hears_of_its_kind_of_change_only(
    store: Store, service: TableService, clock: FakeClock, tmp_path: Path
) -> None:
    settings = fast_settings(tmp_path / "unused.db")
    app = SpadesApp(settings, store, service, now=clock, notifier=RecordingNotifier())
    heard = {change: Heard() for change in Change}
    for change, listener in heard.items():
        app.subscribe(listener, change)
    table = await started(service, hints=False)
    table, _ = await play_hand(service, table)
    every = heard[Change.EVERY].events
    assert every.count("play") == 52 and every.count("bid") == 4
    # The hand's last card, and nothing before it.
    assert heard[Change.HAND_OVER].events == ["play"]
    assert heard[Change.FINISHED].events == []

    table = await service.next_hand(table.id, HOST, table.version)
    table = await service.resign(table.id, waited_user(table), table.version)
    assert heard[Change.FINISHED].events == ["resign"]
    assert heard[Change.HAND_OVER].events == ["play"]  # a resignation is not a card
    assert every[-1] == "resign"
