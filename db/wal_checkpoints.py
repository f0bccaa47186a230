"""WAL checkpoints of the SQLite file on a thread of their own.

In WAL mode every commit appends the pages it changed to the ``-wal`` file,
and a checkpoint copies them back into the database file (and syncs both).
SQLite's own checkpoint runs inside the commit that takes the WAL past 1,000
pages: with many tables acting, that commit, and every action waiting on
it, takes several times as long as the others (8-12 ms against 1 for the
COMMIT of a 100-table round, measured with ``benchmarks.store``'s tables at
once). Here a thread with its own connection checkpoints instead, a little
after something was written and at most every :data:`INTERVAL_S`; the
checkpoint runs in SQLite with the interpreter's lock released, beside the
event loop and the writing connection's thread, and waits for neither.

A ``PASSIVE`` checkpoint copies what no reader still needs and never blocks
a writer; once the WAL is copied whole, the next writer starts it again from
its beginning, so the file stays small. The writing connection keeps an
automatic checkpoint at :data:`FALLBACK_PAGES` all the same, in case this
thread cannot keep up (or cannot run at all).
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from pathlib import Path

log = logging.getLogger(__name__)

#: At most one checkpoint this often (seconds), while commits come.
INTERVAL_S = 0.05
#: The writing connection's own automatic checkpoint, as a safety net: ten
#: times SQLite's default.
FALLBACK_PAGES = 10_000


class WalCheckpointer:
    """Checkpoints ``path``'s WAL after commits (call :meth:`wrote` after each),
    on its own thread; :meth:`stop` ends it."""

    def __init__(self, path: Path, busy_timeout_ms: int) -> None:
        self._path = path
        self._busy_timeout_ms = busy_timeout_ms
        self._due = threading.Event()
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="wal-checkpoints", daemon=True)
        self.checkpoints = 0  # done so far (tests, benchmarks)

    def start(self) -> None:
        self._thread.start()

    def wrote(self) -> None:
        """A transaction was committed: a checkpoint is due."""
        self._due.set()

    def stop(self) -> None:
        """End the thread (after the checkpoint under way, if any)."""
        self._stopping.set()
        self._due.set()
        if self._thread.is_alive():
            self._thread.join()

    def _run(self) -> None:
        try:
            connection = sqlite3.connect(self._path, isolation_level=None)
        except sqlite3.Error:
            log.exception("cannot open %s for checkpoints: SQLite checkpoints alone", self._path)
            return
        try:
            connection.execute(f"PRAGMA busy_timeout = {self._busy_timeout_ms:d}")
            while True:
                self._due.wait()
                if self._stopping.is_set():
                    return
                self._due.clear()
                try:
                    connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                    self.checkpoints += 1
                except sqlite3.Error as exc:
                    log.warning("a WAL checkpoint of %s failed: %s", self._path, exc)
                if self._stopping.wait(INTERVAL_S):
                    return
        finally:
            connection.close()
