"""A throwaway PostgreSQL server for the tests: ``python -m tests.pg start DIR``
prints its URL; ``python -m tests.pg stop DIR`` stops it. ``--durable`` keeps
fsync on (benchmarks); the tests run without it.

The benchmarks' figures are only honest on a ``--durable`` server: then every
setting is PostgreSQL's default (fsync, synchronous_commit and
full_page_writes on, shared_buffers 128 MB), as a deployment keeps them,
except that it listens on a unix socket only and allows 200 connections.
Without it a commit does not wait for the disk, which no deployment may do.

The server runs as the ``postgres`` system user (PostgreSQL refuses root),
its data folder and unix socket inside DIR, with no TCP port. When run as
root the server's commands go through ``runuser -u postgres --``, and DIR is
handed to that user. The binaries are looked for under
``/usr/lib/postgresql/*/bin`` and on ``PATH``.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import sys
from pathlib import Path

SERVER_USER = "postgres"
DATABASE = "postgres"


class NoServer(Exception):
    """No PostgreSQL server can be started here; the message says why."""


def binaries() -> Path:
    """The folder of ``initdb`` and ``pg_ctl``, newest version first."""
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.access(os.path.join(folder, "pg_ctl"), os.X_OK):
            return Path(folder)
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).parent
    raise NoServer("no PostgreSQL server binaries (initdb, pg_ctl) found")


def _as_server_user(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    try:
        pwd.getpwnam(SERVER_USER)
    except KeyError:
        raise NoServer(f"running as root and there is no {SERVER_USER!r} user") from None
    return ["runuser", "-u", SERVER_USER, "--", *command]


def url(folder: Path, database: str = DATABASE) -> str:
    """The URL of the server in ``folder``, for asyncpg: a unix socket, no port."""
    return f"postgresql://{SERVER_USER}@/{database}?host={folder / 'socket'}"


def start(folder: Path, *, durable: bool = False) -> str:
    """Create (first time) and start the server in ``folder``; returns its URL.
    Not ``durable`` (the tests): no fsync, a crash of the machine may lose it."""
    folder = folder.resolve()
    bin_dir = binaries()
    data, socket = folder / "data", folder / "socket"
    socket.mkdir(parents=True, exist_ok=True)
    if os.geteuid() == 0:
        entry = pwd.getpwnam(SERVER_USER)
        for path in (folder, socket):
            os.chown(path, entry.pw_uid, entry.pw_gid)
        # The server user must be able to reach the folder through its parents.
        for parent in folder.parents:
            if parent == Path("/"):
                break
            mode = parent.stat().st_mode
            if not mode & 0o001:
                os.chmod(parent, mode | 0o001)
    if not (data / "PG_VERSION").exists():
        _run(
            [
                str(bin_dir / "initdb"),
                "-D",
                str(data),
                "-U",
                SERVER_USER,
                "-A",
                "trust",
                "-E",
                "UTF8",
                "--no-sync",
            ]
        )
    options = f"-c listen_addresses='' -k {socket} -c max_connections=200"
    if not durable:
        options += " -c fsync=off"
    _run(
        [
            str(bin_dir / "pg_ctl"),
            "-D",
            str(data),
            "-l",
            str(folder / "server.log"),
            "-o",
            options,
            "-w",
            "start",
        ]
    )
    return url(folder)


def stop(folder: Path, mode: str = "fast") -> None:
    data = folder.resolve() / "data"
    if (data / "postmaster.pid").exists():
        _run([str(binaries() / "pg_ctl"), "-D", str(data), "-m", mode, "-w", "stop"])


def _run(command: list[str]) -> None:
    result = subprocess.run(
        _as_server_user(command), capture_output=True, text=True, timeout=120, check=False
    )
    if result.returncode != 0:
        raise NoServer(
            f"{Path(command[0]).name} failed: {(result.stderr or result.stdout).strip()}"
        )


def main(argv: list[str]) -> int:
    durable = "--durable" in argv
    argv = [a for a in argv if a != "--durable"]
    if len(argv) != 2 or argv[0] not in ("start", "stop"):
        print("usage: python -m tests.pg start [--durable] DIR | stop DIR", file=sys.stderr)
        return 2
    try:
        if argv[0] == "start":
            print(start(Path(argv[1]), durable=durable))
        else:
            stop(Path(argv[1]))
    except NoServer as exc:
        print(f"no PostgreSQL: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
