"""Users' decks, languages and coach choices kept between clicks
(:class:`bot.prefs.Preferences`): read once, updated by a change, read again
after ``fresh_s`` where another process may have changed them."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from bot.prefs import Preferences
from db.prefs import UserPrefs
from db.store import Store

USER, OTHER = 42, 43


class Clock:
    def __init__(self) -> None:
        self.t = 1_000.0

    def __call__(self) -> float:
        return self.t


Read = Callable[[int], Awaitable[UserPrefs | None]]


@pytest.fixture
def reads(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The users whose row the store was asked for, in order."""
    asked: list[int] = []
    read: Read = store.get_user_prefs

    async def counted(user_id: int) -> UserPrefs | None:
        asked.append(user_id)
        return await read(user_id)

    monkeypatch.setattr(store, "get_user_prefs", counted)
    return asked


async def test_a_row_is_read_once_and_a_change_updates_it(store: Store, reads: list[int]) -> None:
    prefs = Preferences(store, Clock(), fresh_s=None)
    assert (await prefs.language(USER), await prefs.deck(USER)) == (None, None)
    assert not await prefs.coach(USER)
    assert reads == [USER]
    await prefs.set_language(USER, "de")
    await prefs.set_deck(USER, "four-color")
    await prefs.set_coach(USER, True)
    assert (await prefs.language(USER), await prefs.deck(USER)) == ("de", "four-color")
    assert await prefs.coach(USER)
    assert reads == [USER]  # the changes updated what is kept
    # What is kept is what is stored.
    assert await Preferences(store, Clock(), fresh_s=None).language(USER) == "de"
    stored = await store.get_user_prefs(USER)
    assert stored is not None and (stored.language, stored.deck, stored.coach) == (
        "de",
        "four-color",
        True,
    )


async def test_the_only_process_never_reads_a_kept_row_again(
    store: Store, reads: list[int]
) -> None:
    clock = Clock()
    prefs = Preferences(store, clock, fresh_s=None)
    await prefs.set_deck(USER, "classic")  # not kept yet: the next use reads it
    assert await prefs.deck(USER) == "classic"
    clock.t += 365 * 24 * 3600.0
    assert await prefs.deck(USER) == "classic"
    assert reads == [USER]


async def test_a_change_made_by_another_process_shows_within_fresh_s(
    store: Store, reads: list[int]
) -> None:
    clock = Clock()
    here = Preferences(store, clock, fresh_s=60.0)
    elsewhere = Preferences(store, clock, fresh_s=60.0)  # another process, same store
    assert await here.language(USER) is None
    await elsewhere.set_language(USER, "fr")
    clock.t += 59.0
    assert await here.language(USER) is None  # the bounded staleness documented
    clock.t += 1.0
    assert await here.language(USER) == "fr"
    assert reads == [USER, USER]


async def test_a_read_overtaken_by_a_change_is_not_kept(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    prefs = Preferences(store, Clock(), fresh_s=None)
    release = asyncio.Event()
    read: Read = store.get_user_prefs

    async def slow(user_id: int) -> UserPrefs | None:
        row = await read(user_id)  # the row as it was before the change
        await release.wait()
        return row

    monkeypatch.setattr(store, "get_user_prefs", slow)
    reading = asyncio.create_task(prefs.language(USER))
    await asyncio.sleep(0.05)
    await prefs.set_language(USER, "es")
    release.set()
    assert await reading is None  # it answered with what it read ...
    assert await prefs.language(USER) == "es"  # ... but did not keep it


async def test_the_users_kept_are_bounded(store: Store, reads: list[int]) -> None:
    prefs = Preferences(store, Clock(), fresh_s=None, kept=1)
    await prefs.deck(USER)
    await prefs.deck(OTHER)
    await prefs.deck(OTHER)
    await prefs.deck(USER)  # dropped for OTHER: read again
    assert reads == [USER, OTHER, USER]
