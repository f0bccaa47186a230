"""One scheduler for the whole bot: durable deadlines, fired by a single task.

Deadlines are rows in the store, keyed by ``(owner, kind)``, the owner being
what the deadlines belong to: a table for the turn clock, a tournament for
the tournaments' scheduler. Arming a key
again replaces its deadline, cancelling it removes the row. One asyncio task
sleeps until the earliest deadline is due (a heap ordered by due time), fires
everything that is due, and sleeps again; arming a nearer deadline wakes it
early. There is no per-owner task and no polling. A change that writes an
owner's deadlines inside its own transaction hands them to
:meth:`Scheduler.adopt`, which tracks them without writing again.

Exactly once, across restarts: :meth:`Scheduler.start` loads every stored row
and fires the ones that fell due while the bot was down at once. A fired
deadline's row is deleted when its handler returns, unless the handler armed
the same key again (then the new row has already replaced it). A crash while a
handler runs leaves the row, so the deadline fires again after the restart:
handlers make that harmless by checking the table version carried in
``data`` (an action that was already committed moved the version on) and by
recording their progress before any side effect they must not repeat.

The clock is injectable (:class:`Clock`) so tests run days of table time in
milliseconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any, Protocol

# The one import of the deadline's definition (the store's own type): the
# rest of the bot takes it from this package.
from db.sql import Deadline as Deadline
from db.sql import DeadlineKey

log = logging.getLogger(__name__)

# With nothing scheduled the loop still wakes now and then; this keeps the
# sleep a plain timer (which simulated clocks can fast-forward) rather than an
# unbounded wait, and costs one wake-up a day.
IDLE_NAP_S = 24 * 3600.0


class Clock(Protocol):
    """Where the scheduler reads the time and waits. ``now`` is epoch seconds,
    the same time base as the table service's ``now``."""

    def now(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...


class SystemClock:
    """The wall clock, waiting with ``asyncio.sleep``. ``now`` is injectable so
    the Discord layer can pass a time source a simulated Discord controls."""

    def __init__(self, now: Callable[[], float] = time.time) -> None:
        self._now = now

    def now(self) -> float:
        return self._now()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))


class DeadlineStore(Protocol):
    """The part of the store the scheduler persists deadlines in."""

    async def put_deadline(
        self, owner: int, kind: str, due_at: float, data: Mapping[str, Any]
    ) -> None: ...

    async def delete_deadline(self, owner: int, kind: str) -> None: ...

    async def load_deadlines(self) -> Iterable[Deadline]: ...


Handler = Callable[[Deadline], Awaitable[None]]


class Scheduler:
    """Arms, cancels and fires deadlines. Handlers are registered per kind
    with :meth:`on` before :meth:`start`."""

    def __init__(
        self,
        store: DeadlineStore,
        clock: Clock | None = None,
        *,
        retry_after_s: float = 60.0,
        max_attempts: int = 3,
        serves: Callable[[int], Awaitable[bool]] | None = None,
    ) -> None:
        self.store = store
        # Which owners' stored deadlines this scheduler loads: a process of a
        # sharded bot leaves the other shards' tables to their own process.
        self.serves = serves
        self.clock: Clock = clock or SystemClock()
        self.retry_after_s = retry_after_s
        self.max_attempts = max_attempts
        self._handlers: dict[str, Handler] = {}
        # Per owner, per kind: an owner's deadlines are found without a scan.
        self._pending: dict[int, dict[str, Deadline]] = {}
        self._pending_count = 0
        # Entries are (due_at, sequence, deadline); an entry whose deadline is
        # no longer the pending one for its key is stale and skipped (lazy
        # deletion keeps cancel and re-arm O(1)).
        self._heap: list[tuple[float, int, Deadline]] = []
        self._sequence = itertools.count()
        self._loop_task: asyncio.Task[None] | None = None
        self._nap: asyncio.Task[None] | None = None
        self._sleeping = False  # the firing task waits on _nap and nobody woke it
        self._nap_until = float("inf")
        self._firing: set[asyncio.Task[None]] = set()
        self._consumed: set[int] = set()  # ids of fired deadlines already recorded
        self._idle = asyncio.Event()
        self.fired_count = 0

    # -- set-up ---------------------------------------------------------------

    def on(self, kind: str, handler: Handler) -> None:
        if kind in self._handlers:
            raise ValueError(f"a handler for {kind!r} deadlines is already registered")
        self._handlers[kind] = handler

    async def start(self) -> None:
        """Load every stored deadline (of the owners it serves) and start the
        firing task. Deadlines that fell due while the bot was down fire at once."""
        if self._loop_task is not None:
            raise RuntimeError("the scheduler is already running")
        served: dict[int, bool] = {}
        for deadline in await self.store.load_deadlines():
            if self.serves is not None:
                if deadline.owner not in served:
                    served[deadline.owner] = await self.serves(deadline.owner)
                if not served[deadline.owner]:
                    continue
            self._remember(deadline)
        self._heap.extend(
            (d.due_at, next(self._sequence), d)
            for kinds in self._pending.values()
            for d in kinds.values()
        )
        heapq.heapify(self._heap)
        log.info("scheduler started with %d pending deadlines", self._pending_count)
        self._loop_task = asyncio.create_task(self._run(), name="deadline-scheduler")
        self._loop_task.add_done_callback(_log_loop_end)

    async def stop(self, grace_s: float = 5.0) -> None:
        """Stop the firing task; handlers already running get ``grace_s`` to
        finish before they are cancelled (their rows stay and fire again at the
        next start)."""
        task, self._loop_task = self._loop_task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._firing:
            _, late = await asyncio.wait(set(self._firing), timeout=grace_s)
            for firing in late:
                firing.cancel()
            if late:
                await asyncio.wait(late)

    @property
    def running(self) -> bool:
        return self._loop_task is not None and not self._loop_task.done()

    # -- arming ---------------------------------------------------------------

    async def arm(self, deadline: Deadline) -> None:
        """Store ``deadline``, replacing any pending one with the same key."""
        await self.store.put_deadline(deadline.owner, deadline.kind, deadline.due_at, deadline.data)
        self._track(deadline)

    async def cancel(self, owner: int, kind: str) -> bool:
        """Drop the pending deadline of that key; True if there was one."""
        had = self._forget((owner, kind)) is not None
        # Before start() the stored rows are not loaded yet: delete blindly.
        if had or self._loop_task is None:
            await self.store.delete_deadline(owner, kind)
        if had:
            self._compact_if_sparse()
        return had

    async def cancel_all(self, owner: int) -> None:
        """Drop every pending deadline of an owner (a table ended or was closed)."""
        for kind in list(self._pending.get(owner, ())):
            await self.cancel(owner, kind)

    async def set_all(self, owner: int, deadlines: tuple[Deadline, ...]) -> None:
        """Store and track exactly ``deadlines`` as the owner's pending ones:
        the others are cancelled, and only those that differ from the pending
        deadline of their key are written."""
        wanted = _by_kind(owner, deadlines)
        for kind in [kind for kind in self._pending.get(owner, ()) if kind not in wanted]:
            await self.cancel(owner, kind)
        for deadline in wanted.values():
            if self._pending_at(deadline.key) != deadline:
                await self.arm(deadline)

    def adopt(self, owner: int, deadlines: tuple[Deadline, ...]) -> None:
        """The store has just committed exactly ``deadlines`` as the owner's
        rows (inside the transaction of the change that called for them): track
        them, and forget the owner's other pending deadlines, without writing to
        the store. A deadline equal to the pending one keeps its place."""
        wanted = _by_kind(owner, deadlines)
        dropped = [kind for kind in self._pending.get(owner, ()) if kind not in wanted]
        for kind in dropped:
            self._forget((owner, kind))
        for deadline in wanted.values():
            if self._pending_at(deadline.key) != deadline:
                self._track(deadline)
        if dropped:
            self._compact_if_sparse()

    async def consume(self, deadline: Deadline) -> None:
        """Called by a handler: record now that this fired deadline is done, so
        the side effect that follows is not repeated after a crash (at most
        once), instead of when the handler returns (at least once)."""
        if id(deadline) in self._consumed:
            return
        self._consumed.add(id(deadline))
        if self._pending_at(deadline.key) is None:
            await self.store.delete_deadline(deadline.owner, deadline.kind)

    def pending(self, owner: int, kind: str) -> Deadline | None:
        return self._pending_at((owner, kind))

    def armed(self, owner: int) -> bool:
        """Whether the owner has any pending deadline."""
        return owner in self._pending

    def __len__(self) -> int:
        return self._pending_count

    async def wait_idle(self) -> None:
        """Wait until no handler is running and the firing task sleeps with
        nothing due: lets tests and benchmarks step a simulated clock."""
        while True:
            await self._idle.wait()
            # A nap that just ended takes a few loop turns to reach the firing
            # task (nap future, nap task, firing task): let them run before
            # trusting the flag.
            for _ in range(4):
                await asyncio.sleep(0)
            if self._idle.is_set():
                return

    def _pending_at(self, key: DeadlineKey) -> Deadline | None:
        kinds = self._pending.get(key[0])
        return kinds.get(key[1]) if kinds is not None else None

    def _remember(self, deadline: Deadline) -> bool:
        """Make ``deadline`` the pending one of its key; True if it replaced one."""
        kinds = self._pending.setdefault(deadline.owner, {})
        replaced = deadline.kind in kinds
        kinds[deadline.kind] = deadline
        self._pending_count += not replaced
        return replaced

    def _forget(self, key: DeadlineKey) -> Deadline | None:
        kinds = self._pending.get(key[0])
        deadline = kinds.pop(key[1], None) if kinds is not None else None
        if deadline is not None:
            self._pending_count -= 1
            if not kinds:
                del self._pending[key[0]]
        return deadline

    def _track(self, deadline: Deadline) -> None:
        replaced = self._remember(deadline)
        heapq.heappush(self._heap, (deadline.due_at, next(self._sequence), deadline))
        if replaced:
            self._compact_if_sparse()
        if self._sleeping and deadline.due_at < self._nap_until and self._nap is not None:
            # Wake the firing task: it sleeps for a later moment than this one.
            self._sleeping = False
            self._idle.clear()
            self._nap.cancel()

    def _compact_if_sparse(self) -> None:
        if len(self._heap) > 64 and len(self._heap) > 4 * self._pending_count:
            self._heap = [
                entry for entry in self._heap if self._pending_at(entry[2].key) is entry[2]
            ]
            heapq.heapify(self._heap)

    # -- firing ---------------------------------------------------------------

    async def _run(self) -> None:
        while True:
            self._fire_due()
            self._nap_until = self._heap[0][0] if self._heap else float("inf")
            delay = min(self._nap_until - self.clock.now(), IDLE_NAP_S)
            self._nap = asyncio.create_task(self.clock.sleep(delay), name="deadline-nap")
            self._sleeping = True
            self._set_idle_if_quiet()
            try:
                await self._nap
            except asyncio.CancelledError:
                # A cancelled nap is a wake-up; a cancelled loop is a stop.
                current = asyncio.current_task()
                if current is not None and current.cancelling():
                    raise
            finally:
                self._nap = None
                self._sleeping = False
                self._idle.clear()

    def _fire_due(self) -> None:
        now = self.clock.now()
        heap = self._heap
        while heap and heap[0][0] <= now:
            _, _, deadline = heapq.heappop(heap)
            if self._pending_at(deadline.key) is not deadline:
                continue  # cancelled or re-armed since it was pushed
            self._forget(deadline.key)
            task = asyncio.create_task(self._fire(deadline), name=f"deadline-{deadline.kind}")
            self._firing.add(task)
            task.add_done_callback(self._fired)

    async def _fire(self, deadline: Deadline) -> None:
        handler = self._handlers.get(deadline.kind)
        try:
            if handler is None:
                log.error("no handler for %s deadline of %s", deadline.kind, deadline.owner)
            else:
                await handler(deadline)
            self.fired_count += 1
        except Exception:
            log.exception("%s deadline of %s failed", deadline.kind, deadline.owner)
            if await self._retry(deadline):
                return
        finally:
            consumed = id(deadline) in self._consumed
            self._consumed.discard(id(deadline))
        if not consumed and self._pending_at(deadline.key) is None:
            await self.store.delete_deadline(deadline.owner, deadline.kind)

    async def _retry(self, deadline: Deadline) -> bool:
        """Arm a failed deadline again later, unless the handler re-armed its
        key or it has failed too often. True if it will be tried again."""
        if self._pending_at(deadline.key) is not None:
            return True
        attempt = int(deadline.data.get("attempt", 1))
        if attempt >= self.max_attempts:
            log.error(
                "giving up the %s deadline of %s after %d attempts",
                deadline.kind,
                deadline.owner,
                attempt,
            )
            return False
        retry = Deadline(
            deadline.owner,
            deadline.kind,
            self.clock.now() + self.retry_after_s * attempt,
            {**deadline.data, "attempt": attempt + 1},
        )
        await self.arm(retry)
        return True

    def _fired(self, task: asyncio.Task[None]) -> None:
        self._firing.discard(task)
        if not task.cancelled() and (exc := task.exception()) is not None:
            # _fire logs handler errors itself; this catches store failures.
            log.error("recording a fired deadline failed", exc_info=exc)
        self._set_idle_if_quiet()

    def _set_idle_if_quiet(self) -> None:
        if self._sleeping and not self._firing:
            self._idle.set()


def _by_kind(owner: int, deadlines: tuple[Deadline, ...]) -> dict[str, Deadline]:
    """An owner's deadlines by kind, refusing any that its rows cannot be."""
    by_kind = {d.kind: d for d in deadlines}
    if len(by_kind) < len(deadlines):
        raise ValueError(f"owner {owner} has at most one deadline of each kind")
    if any(d.owner != owner for d in deadlines):
        raise ValueError(f"deadlines of another owner given as {owner}'s")
    return by_kind


def _log_loop_end(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and (exc := task.exception()) is not None:
        log.critical("the deadline scheduler stopped", exc_info=exc)
