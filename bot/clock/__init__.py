"""The turn clock: durable deadlines and what happens to tables when they fall due.

* :mod:`~bot.clock.scheduler`: one task firing every table's stored deadlines.
* :mod:`~bot.clock.settings`: the ``[clock]`` settings section (data only).
* :mod:`~bot.clock.deadlines`: which deadlines a table needs, and when its
  turn notices fall (pure).
* :mod:`~bot.clock.turn_clock`: :class:`~bot.clock.turn_clock.TurnClock`,
  the deadline handlers, planning each table after every change.
* :mod:`~bot.clock.computer`: the computer players' and stand-ins' moves.
* :mod:`~bot.clock.notifier`: what the clock tells players (Discord implements it).
* :mod:`~bot.clock.view`: what table messages show of the clock.

This package namespace only names the parts that need neither the table
service nor the store, so that the store can import :class:`Deadline` from it.
"""

from bot.clock.scheduler import (
    Clock,
    Deadline,
    DeadlineStore,
    Scheduler,
    SystemClock,
)
from bot.clock.settings import ClockSettings
from bot.clock.view import ClockView

__all__ = [
    "Clock",
    "ClockSettings",
    "ClockView",
    "Deadline",
    "DeadlineStore",
    "Scheduler",
    "SystemClock",
]
