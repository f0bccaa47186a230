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
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

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


@dataclass(frozen=True, slots=True)
class _Queued:
    write: Write[Any]
    answer: asyncio.Future[Any]


class GroupCommit:
    """The write queue of one connection; ``lock`` is the connection's write
    lock, held while a transaction is written so that other transactions on
    the connection never interleave with it."""

    def __init__(self, connection: aiosqlite.Connection, lock: asyncio.Lock) -> None:
        self._connection = connection
        self._lock = lock
        self._queued: list[_Queued] = []
        self._writer: asyncio.Task[None] | None = None

    async def write(self, write: Write[T]) -> T:
        """Run ``write`` in the next transaction; returns what it returned
        once that transaction is committed."""
        answer: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queued.append(_Queued(write, answer))
        if self._writer is None:
            self._writer = asyncio.create_task(self._write_queued())
        return await answer

    async def drain(self) -> None:
        """Wait until everything queued so far is written (before closing)."""
        while self._writer is not None:
            await asyncio.shield(self._writer)

    async def _write_queued(self) -> None:
        try:
            while self._queued:
                async with self._lock:
                    # Everything queued until now, the waits for the lock included.
                    batch = [q for q in self._queued if not q.answer.cancelled()]
                    self._queued = []
                    if batch:
                        await self._write_batch(batch)
        finally:
            # Only a cancelled writer leaves actions queued: fail them too.
            self._writer = None
            for queued in self._queued:
                queued.answer.cancel()
            self._queued = []

    async def _write_batch(self, batch: list[_Queued]) -> None:
        try:
            outcomes = await _on_thread(self._connection, _write_together, [q.write for q in batch])
        except BaseException as exc:
            for queued in batch:
                _fail(queued.answer, exc)
            if not isinstance(exc, Exception):
                raise
            return
        for queued, outcome in zip(batch, outcomes, strict=True):
            if queued.answer.done():
                continue  # its caller was cancelled; the action is written all the same
            if isinstance(outcome, _Refused):
                queued.answer.set_exception(outcome.error)
            else:
                queued.answer.set_result(outcome)


def _fail(answer: asyncio.Future[Any], exc: BaseException) -> None:
    if answer.done():
        return
    if isinstance(exc, asyncio.CancelledError):
        answer.cancel()
    else:
        answer.set_exception(exc)


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


async def _on_thread(
    connection: aiosqlite.Connection,
    function: Callable[[sqlite3.Connection, list[Write[Any]]], list[Any]],
    writes: list[Write[Any]],
) -> list[Any]:
    # aiosqlite runs every call on the connection's own thread through this
    # method; its public ones run one statement per trip.
    run: Callable[..., Awaitable[list[Any]]] = connection._execute
    return await run(function, connection._conn, writes)
