"""A database the bot cannot write is refused at open, with one clear line,
instead of failing every move later; and whatever makes the open fail, the
connection's thread is gone before ``Store.open`` raises.

Each open runs in a forked child process with an event loop of its own, so
that what a leftover thread prints once the loop is closed ("Event loop is
closed") is caught. Permissions do not stop root: when the tests run as root
the child drops to the user ``nobody`` first.
"""

from __future__ import annotations

import asyncio
import os
import pwd
import shutil
import sys
import tempfile
import threading
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

import pytest

from db.store import READ_ONLY, Store, StoreError


def _as_root() -> bool:
    return os.geteuid() == 0


def _nobody() -> pwd.struct_passwd:
    try:
        return pwd.getpwnam("nobody")
    except KeyError:
        pytest.skip("running as root and there is no user 'nobody' to drop to")


async def _open_and_report(path: Path) -> list[str]:
    try:
        store = await Store.open(path)
    except StoreError as exc:
        # Right after the refusal: the connection's thread must be gone.
        return [f"refused: {exc}", f"threads: {threading.active_count()}"]
    await store.close()
    return ["opened"]


def _child(path: Path, user: pwd.struct_passwd | None, out: int, err: int) -> NoReturn:
    status = 1
    try:
        sys.stderr = os.fdopen(err, "w", buffering=1)
        os.dup2(err, 2)
        if user is not None:
            os.setgroups([])
            os.setgid(user.pw_gid)
            os.setuid(user.pw_uid)
        lines = asyncio.run(_open_and_report(path))
        # Give a thread that outlived the loop the time to complain.
        for thread in threading.enumerate():
            if thread is not threading.main_thread():
                thread.join(timeout=2)
        os.write(out, "\n".join(lines).encode())
        status = 0
    except BaseException:
        traceback.print_exc()
    finally:
        sys.stderr.flush()
        os._exit(status)


def open_in_child(path: Path, *, drop_root: bool = True) -> tuple[list[str], str]:
    """What opening ``path`` printed in a child process: (stdout lines, stderr)."""
    user = _nobody() if drop_root and _as_root() else None
    out_read, out_write = os.pipe()
    err_read, err_write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(out_read)
        os.close(err_read)
        _child(path, user, out_write, err_write)
    os.close(out_write)
    os.close(err_write)
    with os.fdopen(out_read, "rb") as out, os.fdopen(err_read, "rb") as err:
        printed, complaints = out.read().decode(), err.read().decode()
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, complaints
    return printed.splitlines(), complaints


@pytest.fixture
def folder() -> Iterator[Path]:
    """A folder the child can reach (pytest's own are readable by us only),
    owned by the user the child runs as."""
    path = Path(tempfile.mkdtemp(prefix="spades-ro-"))
    path.chmod(0o755)
    try:
        yield path
    finally:
        path.chmod(0o755)
        shutil.rmtree(path)


def _existing_database(folder: Path) -> Path:
    path = folder / "spades.db"

    async def make() -> None:
        await (await Store.open(path)).close()

    asyncio.run(make())
    if _as_root():
        nobody = _nobody()
        for made in (folder, *folder.iterdir()):
            os.chown(made, nobody.pw_uid, nobody.pw_gid)
    return path


def test_an_existing_database_in_a_read_only_folder_is_refused(folder: Path) -> None:
    path = _existing_database(folder)
    folder.chmod(0o555)  # the file itself stays writable; WAL needs the folder
    assert open_in_child(path) == ([f"refused: {READ_ONLY}", "threads: 1"], "")


def test_a_read_only_database_file_is_refused(folder: Path) -> None:
    path = _existing_database(folder)
    path.chmod(0o444)
    assert open_in_child(path) == ([f"refused: {READ_ONLY}", "threads: 1"], "")
    # Refused for the mode, nothing else. SQLite gave the files it made
    # beside the database the same mode: as the message says, those too.
    for made in folder.iterdir():
        made.chmod(0o644)
    assert open_in_child(path) == (["opened"], "")


def test_a_database_that_cannot_be_opened_leaves_no_thread_behind(tmp_path: Path) -> None:
    # A folder is no database file: the connection itself fails to open.
    printed, complaints = open_in_child(tmp_path, drop_root=False)
    assert (printed, complaints) == (["refused: unable to open database file", "threads: 1"], "")
    (tmp_path / "notes.db").write_bytes(b"not a database, " * 512)
    printed, complaints = open_in_child(tmp_path / "notes.db", drop_root=False)
    assert (printed, complaints) == (["refused: file is not a database", "threads: 1"], "")


async def test_a_failed_open_closes_its_connection_in_process(tmp_path: Path) -> None:
    before = set(threading.enumerate())
    with pytest.raises(StoreError, match="unable to open database file"):
        await Store.open(tmp_path)
    (tmp_path / "notes.db").write_bytes(b"not a database, " * 512)
    with pytest.raises(StoreError, match="file is not a database"):
        await Store.open(tmp_path / "notes.db")
    assert set(threading.enumerate()) == before
