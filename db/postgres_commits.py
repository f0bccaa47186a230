"""Ordinary actions committed together on PostgreSQL.

An ordinary action (a bid, a card) is one row of the view
``action_commits`` (:class:`db.sql.ActionRow`, handed over by the store
through ``commit_action_row``). Written alone, it would be a transaction of
its own, which costs the server far more than the rows it writes: a round
trip, the start and end of a transaction and a WAL flush. So the actions
waiting at the same time (of many tables, each awaited by its caller) go to
the server as one call of ``commit_actions`` (migrations 025, 026): one round
trip, one transaction, one flush, and one statement writing the rows of all
of them. An action whose version moved on is left out of it and fails for
its caller alone (:class:`IntegrityFailure` saying "version conflict", as
the view's trigger says it); the others are committed. An action the
database refuses outright (a broken constraint) fails the whole call; the
actions of that batch are then sent again one by one, so that only the
refused one fails, as if each had been sent by itself.

No action waits for company: while fewer than :data:`BATCH_SLOTS` calls are
at the server, an action goes out at once (a batch of one); the actions that
come meanwhile leave together (up to :data:`MAX_BATCH` a call) as soon as a
call returns. A caller hears back only once the transaction holding its
action has committed. A caller cancelled before its action has left takes it
out of the batch: it is not written.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import asyncpg

from db.errors import IntegrityFailure
from db.sql import ActionRow

#: At most this many calls of ``commit_actions`` at the server at once (each
#: holds a connection of the pool while it runs), of at most MAX_BATCH
#: actions each. Bounded batches keep the client and the server busy at the
#: same time: one batch of every waiting action would have the server write
#: hundreds of rows while the client waits, then the client handle hundreds
#: of answers while the server waits. (Measured with the shards benchmark:
#: 4 and 64 gave about the least server CPU per action and the most actions
#: per second of one process; 2 slots of any size gave batches alternating
#: between hundreds of actions and one.)
BATCH_SLOTS = 4
MAX_BATCH = 64

#: The columns of the view, in the order of ``commit_actions``'s arguments.
COLUMNS = ActionRow._fields
_CALL = "SELECT commit_actions(" + ", ".join(f"${n + 1}" for n in range(len(COLUMNS))) + ")"

#: What makes the database refuse a write: a broken constraint, or a
#: transaction it rolled back (a version conflict, a deadlock).
REFUSALS = (asyncpg.IntegrityConstraintViolationError, asyncpg.TransactionRollbackError)

Call = Callable[[Callable[[asyncpg.Connection], Awaitable[Any]]], Awaitable[Any]]


def integrity_failure(exc: asyncpg.PostgresError) -> IntegrityFailure:
    """The store's word for a write the database refused."""
    constraint = getattr(exc, "constraint_name", None)
    text = str(exc) if not constraint else f"{exc} ({constraint})"
    return IntegrityFailure(text)


@dataclass
class _Pending:
    action: ActionRow
    answer: asyncio.Future[str | None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class ActionBatches:
    """The ordinary actions of one database, sent in batches through ``call``
    (which runs its argument on a connection of the pool)."""

    def __init__(self, call: Call, slots: int = BATCH_SLOTS) -> None:
        self._call = call
        self._slots = slots
        self._waiting: list[_Pending] = []
        self._sending: set[asyncio.Task[None]] = set()

    async def commit(self, action: ActionRow) -> None:
        """Commit one action; returns once its batch is committed. Raises
        :class:`IntegrityFailure` if it was refused."""
        row = _Pending(action)
        self._waiting.append(row)
        self._send_waiting()
        try:
            refusal = await row.answer
        except asyncio.CancelledError:
            if row in self._waiting:
                self._waiting.remove(row)
            raise
        if refusal is not None:
            raise IntegrityFailure(refusal)

    async def wait_sent(self) -> None:
        """Until no batch is at the server (before the pool closes)."""
        while self._sending:
            await asyncio.wait(set(self._sending))

    def _send_waiting(self) -> None:
        while self._waiting and len(self._sending) < self._slots:
            batch, self._waiting = self._waiting[:MAX_BATCH], self._waiting[MAX_BATCH:]
            task = asyncio.get_running_loop().create_task(self._send(batch))
            self._sending.add(task)
            task.add_done_callback(self._sent)

    def _sent(self, task: asyncio.Task[None]) -> None:
        self._sending.discard(task)
        self._send_waiting()

    async def _send(self, batch: list[_Pending]) -> None:
        rows = [row for row in batch if not row.answer.done()]
        if not rows:
            return  # their callers were cancelled before the batch left
        try:
            refusals = await self._write(rows)
        except REFUSALS as exc:
            if len(rows) == 1:
                if not rows[0].answer.done():
                    rows[0].answer.set_exception(integrity_failure(exc))
                return
            for row in rows:  # which one? each alone says
                await self._send([row])
            return
        except asyncio.CancelledError:
            for row in rows:
                row.answer.cancel()
            raise
        except Exception as exc:  # the server away, say: every caller hears it
            for row in rows:
                if not row.answer.done():
                    row.answer.set_exception(exc)
            return
        for row, refusal in zip(rows, refusals, strict=True):
            if not row.answer.done():
                row.answer.set_result(refusal)

    async def _write(self, rows: list[_Pending]) -> list[str | None]:
        # By table: batches running at once (from this process or another)
        # then tend to lock the tables' rows in one order.
        rows.sort(key=lambda r: r.action.table_id)
        columns = [[row.action[n] for row in rows] for n in range(len(COLUMNS))]
        refusals: list[str | None] = await self._call(lambda c: c.fetchval(_CALL, *columns))
        return refusals
