"""Group commit on SQLite: the actions of many tables written in one transaction.

The connection writes one transaction at a time, and each trip to its thread
costs far more than the statements of an action. So an action does not wait
for a transaction of its own: it joins a queue, and one caller takes
everything queued into one ``BEGIN IMMEDIATE`` ... ``COMMIT``, in a single
trip to the connection's thread. Actions arriving meanwhile go together into
the next transaction. An action alone is a transaction alone, as before.

An action's statements are the store's ordinary code, written once for both
databases against the async :class:`db.sql.Statements`. On the thread they
run over :class:`ThreadStatements`, whose methods are coroutines that never
suspend: one ``send`` runs the action's code to its end. An action whose code
suspends all the same (waits on anything but its statements) is a bug, and
fails its whole transaction loudly.

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
from abc import ABC, abstractmethod
from collections.abc import Callable, Coroutine, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar, cast

import aiosqlite

from db.errors import IntegrityFailure, StoreError
from db.sql import Args, Row, Statements

T = TypeVar("T")

#: One action's statements inside a transaction someone else opened. Raises
#: :class:`StoreError` to refuse the action; whatever it wrote is then undone.
ActionWrite = Callable[[Statements], Coroutine[Any, Any, T]]


class GroupCommitting(ABC):
    """A database that writes actions together (SQLite's
    :class:`db.connection.Connected`). A base class rather than a protocol:
    every action asks, and a protocol's ``isinstance`` is slow."""

    @abstractmethod
    async def write_action(self, write: ActionWrite[T]) -> T:
        """Run ``write`` in the next shared transaction; what it returned
        once that transaction is committed."""


class ThreadStatements:
    """:class:`db.sql.Statements` on the connection's own thread, plain
    ``sqlite3``: every method finishes without suspending."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection

    async def execute(self, sql: str, args: Args = ()) -> int:
        return self._run(sql, args).rowcount

    async def executemany(self, sql: str, rows: Iterable[Args]) -> None:
        try:
            self.connection.executemany(sql, rows)
        except sqlite3.IntegrityError as exc:
            raise IntegrityFailure(str(exc)) from exc

    async def fetchall(self, sql: str, args: Args = ()) -> list[Row]:
        return self._run(sql, args).fetchall()

    async def fetchone(self, sql: str, args: Args = ()) -> Row | None:
        row: Row | None = self._run(sql, args).fetchone()
        return row

    async def insert(self, sql: str, args: Args = ()) -> int:
        row_id = self._run(sql, args).lastrowid
        assert row_id is not None
        return row_id

    def _run(self, sql: str, args: Args) -> sqlite3.Cursor:
        try:
            return self.connection.execute(sql, args)
        except sqlite3.IntegrityError as exc:
            raise IntegrityFailure(str(exc)) from exc


def run_to_end(coroutine: Coroutine[Any, Any, T]) -> T:
    """What ``coroutine`` returns, run in one step; it must not suspend."""
    try:
        coroutine.send(None)
    except StopIteration as finished:
        return cast(T, finished.value)
    coroutine.close()
    raise RuntimeError(
        "an action's write waited on something other than its statements:"
        " on the connection's thread it may only run statements"
    )


@dataclass(frozen=True, slots=True)
class _Refused:
    error: StoreError


@dataclass(slots=True)
class _Queued:
    write: ActionWrite[Any]
    #: What its caller waits for: the write's outcome, or :data:`_TAKE_OVER`
    #: (then a fresh future takes its place).
    answer: asyncio.Future[Any]
    #: Named to send the next batch once the lock is free (told
    #: :data:`_TAKE_OVER`), and not yet at it.
    named: bool = False


#: The answer that tells a waiting caller to send the next batch.
_TAKE_OVER: Any = object()


class GroupCommit:
    """The write queue of one connection; ``lock`` is the connection's write
    lock: no batch goes to the thread while a transaction holds it, so that
    no transaction on the connection ever interleaves with another.

    No task of its own writes the queue. The first caller to find it idle
    sends everything queued as one batch (its own action included) as soon as
    the lock is free, and waits for its answer like the others. When a batch
    is committed, its callers are answered; once they have run (and queued
    their next actions), whatever is queued goes as the next batch, and so on
    until the queue is empty. While a transaction holds the lock, the first
    caller queued is named to wait for it and send; cancelled, it names the
    next. (A long-lived writer task would outlive the work that started it,
    which an event loop driven step by step, as SimCord's tests and the
    whole-bot benchmark drive it, cannot see the end of.)"""

    def __init__(
        self,
        connection: aiosqlite.Connection,
        lock: asyncio.Lock,
        committed: Callable[[], None] | None = None,
    ) -> None:
        self._connection = connection
        self._lock = lock
        # Told after each transaction that committed (the WAL's checkpoints).
        self._committed = committed
        self._queued: list[_Queued] = []
        # Set while batches are being written or waited for, done when the
        # queue is idle again; None: idle.
        self._busy: asyncio.Future[None] | None = None

    async def write(self, write: ActionWrite[T]) -> T:
        """Run ``write`` in the next transaction; returns what it returned
        once that transaction is committed."""
        loop = asyncio.get_running_loop()
        queued = _Queued(write, loop.create_future())
        self._queued.append(queued)
        try:
            if self._busy is None:
                self._busy = loop.create_future()
                await self._send_when_free(queued)
            while True:
                outcome = await queued.answer
                if outcome is not _TAKE_OVER:
                    return cast(T, outcome)
                queued.named = False
                queued.answer = loop.create_future()
                await self._send_when_free(queued)
        except asyncio.CancelledError:
            if queued.named:  # cancelled before it could send: the next one sends
                queued.named = False
                self._next(leaving=queued)
            # Still queued: taken off the queue. Already written or on its way:
            # it commits or fails with its transaction all the same.
            queued.answer.cancel()
            raise

    async def drain(self) -> None:
        """Wait until everything queued so far is written (before closing)."""
        while self._busy is not None:
            await asyncio.wait((self._busy,))

    async def _send_when_free(self, own: _Queued) -> None:
        """Send everything queued (``own`` included) once the lock is free."""
        try:
            async with self._lock:
                self._send()
        except asyncio.CancelledError:
            self._next(leaving=own)
            raise

    def _send(self) -> None:
        batch = [q for q in self._queued if not q.answer.done()]
        self._queued = []
        written = _on_thread(self._connection, [q.write for q in batch])
        written.add_done_callback(partial(self._answer, batch))

    def _next(self, leaving: _Queued | None = None) -> None:
        """The next batch: everything still queued but ``leaving``, sent now
        if no transaction holds the lock (the send itself does not wait), else
        by its first caller once the lock is free; or, with nothing queued, the
        queue is idle."""
        waiting = [q for q in self._queued if q is not leaving and not q.answer.done()]
        self._queued = waiting
        if not waiting:
            busy, self._busy = self._busy, None
            if busy is not None:
                busy.set_result(None)
        elif not self._lock.locked():
            self._send()
        else:
            waiting[0].named = True
            waiting[0].answer.set_result(_TAKE_OVER)

    def _answer(self, batch: list[_Queued], written: asyncio.Future[list[Any]]) -> None:
        try:
            failure = written.exception()
            if failure is not None:
                for queued in batch:
                    if not queued.answer.done():
                        queued.answer.set_exception(failure)
                return
            if self._committed is not None:
                self._committed()
            for queued, outcome in zip(batch, written.result(), strict=True):
                if queued.answer.done():
                    continue  # its caller was cancelled; the action is written all the same
                if isinstance(outcome, _Refused):
                    queued.answer.set_exception(outcome.error)
                else:
                    queued.answer.set_result(outcome)
        finally:
            # Scheduled after the callers answered here: they run first and
            # may queue their next actions, which then go together.
            written.get_loop().call_soon(self._next)


def _write_together(db: sqlite3.Connection, writes: list[ActionWrite[Any]]) -> list[Any]:
    """On the connection's thread: ``writes`` in one transaction, what each
    returned or its refusal. Raises (having rolled back) when the transaction
    as a whole fails, or when a lone write is refused."""
    statements = ThreadStatements(db)
    shared = len(writes) > 1
    outcomes: list[Any] = []
    db.execute("BEGIN IMMEDIATE")
    try:
        for write in writes:
            if not shared:
                outcomes.append(run_to_end(write(statements)))
                continue
            db.execute("SAVEPOINT action")
            try:
                outcomes.append(run_to_end(write(statements)))
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
    connection: aiosqlite.Connection, writes: list[ActionWrite[Any]]
) -> asyncio.Future[list[Any]]:
    """:func:`_write_together` queued on the connection's own thread, as every
    aiosqlite call is; the future it answers through, itself (aiosqlite's
    public calls run one statement per trip, and wrap the future in a
    coroutine that a cancelled caller would take down with it)."""
    future: asyncio.Future[list[Any]] = asyncio.get_running_loop().create_future()
    if not connection._running or connection._connection is None:
        future.set_exception(ValueError("Connection closed"))
        return future
    connection._tx.put_nowait((future, partial(_write_together, connection._conn, writes)))
    return future
