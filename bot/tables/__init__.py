"""Tables: the lifecycle of a Spades table over the store. No Discord here.

``TableService`` (in :mod:`bot.tables.service`) is the one entry point; it
hands out immutable :class:`Table` snapshots and raises
:class:`~bot.refusals.Refusal` subclasses or the engine's
``IllegalAction`` for refused actions.
"""

from bot.tables.model import Seat, Table, TableOptions, TableStatus
from bot.tables.service import TableService

__all__ = ["Seat", "Table", "TableOptions", "TableService", "TableStatus"]
