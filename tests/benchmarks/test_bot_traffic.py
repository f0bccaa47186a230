"""The bot benchmark's own bookkeeping: the modelled global limit, the peak
per second, and matching a table message to the actions it shows."""

from __future__ import annotations

import json

import pytest

from benchmarks.bot import GLOBAL_LIMIT, Traffic, peak_per_second
from bot.app import REDRAW, Snapshot
from bot.tables.model import Table


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def table_at(version: int, table_id: int = 7) -> Snapshot:
    table = Table.__new__(Table)  # only id and version are read
    object.__setattr__(table, "id", table_id)
    object.__setattr__(table, "version", version)
    return Snapshot(table)


def table_message(table_id: int, version: int) -> dict[str, object]:
    button = {"type": 2, "custom_id": f"spades:hand:{table_id}:{version}", "label": "My hand"}
    return {
        "embeds": [{"title": f"Spades · table {table_id} · playing"}],
        "components": [{"type": 1, "components": [button]}],
    }


EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"


def test_token_requests_beyond_the_global_limit_in_one_second_count_as_429s() -> None:
    clock = FakeClock()
    traffic = Traffic(clock, recording=True)
    for _ in range(GLOBAL_LIMIT + 3):
        traffic.sent(EDIT, True, None)
    assert traffic.modelled_429 == 3
    clock.now += 1.0
    traffic.sent(EDIT, True, None)
    assert traffic.modelled_429 == 3


def test_interaction_callbacks_do_not_count_against_the_limit() -> None:
    traffic = Traffic(FakeClock(), recording=True)
    for _ in range(GLOBAL_LIMIT * 2):
        traffic.sent("POST /interactions/{webhook_id}/{webhook_token}/callback", False, None)
    assert traffic.modelled_429 == 0
    assert len(traffic.requests) == GLOBAL_LIMIT * 2


def test_nothing_is_counted_before_recording_starts() -> None:
    traffic = Traffic(FakeClock())
    traffic.sent(EDIT, True, None)
    traffic.committed(table_at(2), "play")
    assert traffic.requests == [] and traffic.actions == 0


def test_the_peak_is_the_busiest_second() -> None:
    assert peak_per_second([0.0, 0.5, 0.99, 1.0, 1.2, 5.0]) == 4
    assert peak_per_second([]) == 0


def test_an_edit_shows_every_action_up_to_the_version_it_carries() -> None:
    clock = FakeClock()
    traffic = Traffic(clock, recording=True)
    for version in (2, 3, 4):
        traffic.committed(table_at(version), "play")
    traffic.committed(table_at(4), REDRAW)  # not an action
    assert traffic.actions == 3
    clock.now += 0.25
    traffic.sent(EDIT, True, table_message(7, 3))
    assert traffic.shown == pytest.approx([0.25, 0.25])
    traffic.sent(EDIT, True, table_message(8, 4))  # another table's message
    assert len(traffic.shown) == 2
    traffic.sent(EDIT, True, json.loads(json.dumps(table_message(7, 4))))
    assert len(traffic.shown) == 3


ORIGINAL = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"
CALLBACK = "POST /interactions/{webhook_id}/{webhook_token}/callback"


def through(token: str) -> str:
    return f"https://discord.com/api/v10/webhooks/1/{token}/messages/@original"


def test_an_interaction_token_has_its_own_bucket_and_dies_after_15_minutes() -> None:
    clock = FakeClock()
    traffic = Traffic(clock, recording=True)
    born = clock.now
    traffic.sent(CALLBACK, False, None, "https://discord.com/api/v10/interactions/9/abc/callback")
    # Off the global limit, within the token's own: 5 in any 2 s.
    for _ in range(GLOBAL_LIMIT + 1):
        clock.now += 0.41
        traffic.sent(ORIGINAL, False, table_message(7, 2), through("abc"))
    assert (traffic.modelled_429, traffic.token_429, traffic.expired_401) == (0, 0, 0)
    clock.now += 2.0
    for _ in range(6):
        traffic.sent(ORIGINAL, False, None, through("abc"))  # at one instant
    assert traffic.token_429 == 1  # the sixth in 2 s
    traffic.sent(ORIGINAL, False, None, through("other"))  # another token's bucket
    assert traffic.token_429 == 1
    # Every table edit so far went through a token.
    assert traffic.table_edits == {True: GLOBAL_LIMIT + 1}
    # 15 minutes after its callback, the token is answered 401.
    clock.now = born + 15 * 60 - 0.01
    traffic.sent(ORIGINAL, False, None, through("abc"))
    assert traffic.expired_401 == 0
    clock.now = born + 15 * 60
    traffic.sent(ORIGINAL, False, None, through("abc"))
    assert traffic.expired_401 == 1
