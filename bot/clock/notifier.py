"""What the turn clock tells the players; the Discord layer implements it."""

from __future__ import annotations

from typing import Protocol

from bot.tables.model import Table


class TurnNotifier(Protocol):
    """The turn clock's voice. Each call follows a recorded change of the
    clock's state, so a crash loses a message rather than repeating it."""

    async def remind(self, table: Table, seats: tuple[int, ...], left_s: float) -> None:
        """A later turn notice: the seats (one, or in the Nil pass each person
        still choosing) are still awaited; ``left_s`` remain before the limit."""

    async def claim_open(self, table: Table) -> None:
        """The waited-on seat is past the limit: the other team may claim.
        Never sent at a table where a computer stands in for late players."""

    async def stood_in(self, table: Table, seats: tuple[int, ...]) -> None:
        """A computer player now plays each late seat, until its owner returns."""

    async def lobby_closed(self, table: Table) -> None:
        """The lobby was idle too long and has been closed."""

    async def archive_thread(self, table: Table, wait: bool) -> bool:
        """The table is over and its rematch window has passed: archive its
        thread. With ``wait``, while the end of the game is still to be posted
        there, nothing is done and False returned (the clock asks again a
        second later)."""
