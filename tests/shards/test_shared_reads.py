"""What is a person's own and global (their deck design) reads the same from
every process: at once in the process that changed it, and in every other
within the time a process trusts what it keeps (:data:`bot.prefs.FRESH_S`)."""

from __future__ import annotations

from bot.prefs import FRESH_S

from .cores import Now, open_core

USER = 4242


async def test_a_deck_chosen_in_one_process_is_the_deck_in_every_other(
    store_location: str,
) -> None:
    now = Now()
    first, second = (
        await open_core(store_location, "0", now),
        await open_core(store_location, "1", now),
    )
    try:
        assert await first.app.deck_of(USER) is None
        assert await second.app.deck_of(USER) is None
        await first.app.set_deck(USER, "four-colour")
        assert await first.app.deck_of(USER) == "four-colour"
        now.t += FRESH_S
        assert await second.app.deck_of(USER) == "four-colour"
        await second.app.set_deck(USER, "classic")
        assert await second.app.deck_of(USER) == "classic"
        now.t += FRESH_S
        assert await first.app.deck_of(USER) == "classic"
    finally:
        await first.close()
        await second.close()


async def test_a_process_keeps_a_deck_read_elsewhere_at_most_fresh_s(
    store_location: str,
) -> None:
    """The bounded staleness, pinned: a click within ``FRESH_S`` of the last
    read costs no read, and may still show the deck chosen before."""
    now = Now()
    first, second = (
        await open_core(store_location, "0", now),
        await open_core(store_location, "1", now),
    )
    try:
        assert await first.app.deck_of(USER) is None
        await second.app.set_deck(USER, "classic")
        now.t += FRESH_S - 1
        assert await first.app.deck_of(USER) is None
        now.t += 1
        assert await first.app.deck_of(USER) == "classic"
    finally:
        await first.close()
        await second.close()
