"""Group commit: the actions of many tables written in one transaction.

The connection writes one transaction at a time, and each trip to its thread
costs far more than the statements of an action. So an action does not wait
for its own turn: it joins a queue, and one writer takes everything queued
into one ``BEGIN IMMEDIATE`` ... ``COMMIT``, in a single trip to the
connection's thread. Actions arriving meanwhile go together into the next
transaction. An action alone is a transaction alone, as before.

Guarantees, for each action:

* its caller hears back only after the ``COMMIT`` that holds it returned
  (durable as any commit of the connection: WAL, ``synchronous=NORMAL``);
* in a shared transaction it runs inside its own ``SAVEPOINT``: an action the
  store refuses (:class:`StoreError` from its write: a version conflict, a
  channel taken) is rolled back alone and fails alone, the others commit;
* anything else going wrong (a full disk, an I/O error, ``COMMIT`` itself
  failing) rolls the whole transaction back and fails every action in it:
  nothing of it is written.

A caller cancelled while its action is still queued takes it off the queue
(nothing is written); once its transaction has gone to the thread, the
action commits or fails with the others whether or not anyone still waits.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar, cast

import aiosqlite

from db.errors import StoreError

T = TypeVar("T")

#: One action's statements, run on the connection's thread inside a
#: transaction the group commit opened. Raises :class:`StoreError` to refuse
#: the action; whatever it wrote is then rolled back.
Write = Callable[[sqlite3.Connection], T]


@dataclass(frozen=True, slots=True)
class _Refused:
    error: StoreError


@dataclass(slots=True)
class _Queued:
    write: Write[Any]
    #: What its caller waits for: the write's outcome, or :data:`_TAKE_OVER`
    #: (then a fresh future takes its place).
    answer: asyncio.Future[Any]


#: The answer that tells a waiting caller that its leader stopped (was
#: cancelled) with actions still queued: it leads now.
_TAKE_OVER: Any = object()


class GroupCommit:
    """The write queue of one connection; ``lock`` is the connection's write
    lock, held while a transaction is written so that other transactions on
    the connection never interleave with it.

    No task of its own writes the queue: the first caller to find nobody
    writing leads, writing batch after batch until the queue is empty, while
    the others wait for their answer. A leader that is cancelled hands over:
    the first caller still waiting leads. (A long-lived writer task would
    outlive the work that started it, which an event loop driven step by step,
    as the tests drive it, cannot see the end of.)"""

    def __init__(self, connection: aiosqlite.Connection, lock: asyncio.Lock) -> None:
        self._connection = connection
        self._lock = lock
        self._queued: list[_Queued] = []
        # Done when the current leader stops leading; None: nobody leads.
        self._leading: asyncio.Future[None] | None = None
        # Transactions on the connection's thread, whoever waits for them.
        self._in_flight: set[asyncio.Future[list[Any]]] = set()

    async def write(self, write: Write[T]) -> T:
        """Run ``write`` in the next transaction; returns what it returned
        once that transaction is committed."""
        loop = asyncio.get_running_loop()
        queued = _Queued(write, loop.create_future())
        self._queued.append(queued)
        try:
            if self._leading is None:
                await self._lead(queued)
            while True:
                outcome = await queued.answer
                if outcome is not _TAKE_OVER:
                    return cast(T, outcome)
                queued.answer = loop.create_future()
                if self._leading is None:  # else a newcomer leads already
                    await self._lead(queued)
        except asyncio.CancelledError:
            # Still queued: taken off the queue. Already written or on its way:
            # it commits or fails with its transaction all the same.
            queued.answer.cancel()
            raise

    async def drain(self) -> None:
        """Wait until everything queued so far is written (before closing)."""
        while self._leading is not None or self._in_flight:
            waits: list[asyncio.Future[Any]] = list(self._in_flight)
            if self._leading is not None:
                waits.append(self._leading)
            await asyncio.wait(waits)

    async def _lead(self, own: _Queued) -> None:
        leading = self._leading = asyncio.get_running_loop().create_future()
        try:
            while self._queued:
                async with self._lock:
                    # Everything queued until now, the waits for the lock included.
                    batch = [q for q in self._queued if not q.answer.done()]
                    self._queued = []
                    if batch:
                        await self._write_batch(batch)
        finally:
            if self._leading is leading:
                self._leading = None
            leading.set_result(None)
            # Stopped early (cancelled): the first other caller still waiting leads.
            waiting = [q for q in self._queued if not q.answer.done()]
            self._queued = waiting
            heirs = [q for q in waiting if q is not own]
            if heirs:
                heirs[0].answer.set_result(_TAKE_OVER)

    async def _write_batch(self, batch: list[_Queued]) -> None:
        written = _on_thread(self._connection, _write_together, [q.write for q in batch])
        self._in_flight.add(written)
        written.add_done_callback(lambda done: self._answer(batch, done))
        # Shielded: a cancelled leader stops waiting, the transaction goes on
        # and its callers still hear how it went.
        await asyncio.shield(written)

    def _answer(self, batch: list[_Queued], written: asyncio.Future[list[Any]]) -> None:
        self._in_flight.discard(written)
        if written.cancelled():
            for queued in batch:
                queued.answer.cancel()
            return
        failure = written.exception()
        if failure is not None:
            for queued in batch:
                if not queued.answer.done():
                    queued.answer.set_exception(failure)
            return
        for queued, outcome in zip(batch, written.result(), strict=True):
            if queued.answer.done():
                continue  # its caller was cancelled; the action is written all the same
            if isinstance(outcome, _Refused):
                queued.answer.set_exception(outcome.error)
            else:
                queued.answer.set_result(outcome)


def _write_together(db: sqlite3.Connection, writes: list[Write[Any]]) -> list[Any]:
    """On the connection's thread: ``writes`` in one transaction, what each
    returned or its refusal. Raises (having rolled back) when the transaction
    as a whole fails, or when a lone write is refused."""
    shared = len(writes) > 1
    outcomes: list[Any] = []
    db.execute("BEGIN IMMEDIATE")
    try:
        for write in writes:
            if not shared:
                outcomes.append(write(db))
                continue
            db.execute("SAVEPOINT action")
            try:
                outcomes.append(write(db))
            except StoreError as refused:
                db.execute("ROLLBACK TO action")
                outcomes.append(_Refused(refused))
            db.execute("RELEASE action")
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return outcomes


def _on_thread(
    connection: aiosqlite.Connection,
    function: Callable[[sqlite3.Connection, list[Write[Any]]], list[Any]],
    writes: list[Write[Any]],
) -> asyncio.Future[list[Any]]:
    """``function`` queued on the connection's own thread, as every aiosqlite
    call is; the future it answers through, itself (aiosqlite's public calls
    run one statement per trip, and wrap the future in a coroutine that a
    cancelled caller would take down with it)."""
    future: asyncio.Future[list[Any]] = asyncio.get_running_loop().create_future()
    if not connection._running or connection._connection is None:
        future.set_exception(ValueError("Connection closed"))
        return future
    connection._tx.put_nowait((future, partial(function, connection._conn, writes)))
    return future
