"""What is a person's own and global (their deck design) reads the same from
every process, also right after another process changed it."""

from __future__ import annotations

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
        assert await second.app.deck_of(USER) == "four-colour"
        await second.app.set_deck(USER, "classic")
        assert await first.app.deck_of(USER) == "classic"
        assert await second.app.deck_of(USER) == "classic"
    finally:
        await first.close()
        await second.close()
