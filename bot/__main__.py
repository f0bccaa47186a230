"""``python -m bot``: run the bot, or one of its tools.

python -m bot [--config PATH]            run the bot
python -m bot --shards 0-3 --shard-count 8   run it as the process of shards 0-3 of 8
python -m bot sync [--guild ID]          publish the slash commands
python -m bot health                     exit 0 if the running bot is alive (HEALTHCHECK)
python -m bot simulate --games N ...     computer players play complete games
python -m bot screenshots OUTDIR ...     pictures of the key screens (the screenshots extra)
python -m bot migrate-db --to URL        copy the SQLite file onto an empty PostgreSQL
"""

from __future__ import annotations

import os
import signal
import sys
from types import FrameType
from typing import NoReturn


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "simulate":
        from bot.simulate import main as simulate

        return simulate(args[1:])
    if args and args[0] == "screenshots":
        from bot.runner import screenshots

        return screenshots(args[1:])
    if args and args[0] == "sync":
        from bot.runner import sync

        return sync(args[1:])
    if args and args[0] == "migrate-db":
        from bot.migrate_db import main as migrate_db

        return migrate_db(args[1:])
    if args and args[0] == "health":
        from bot.runner import health

        return health(args[1:])
    # Before the imports of the bot, which take a second or so: a container
    # may be stopped while they run, and a process without a handler that is
    # PID 1 (no init in the container) ignores SIGTERM.
    previous = signal.signal(signal.SIGTERM, _exit_at_once)
    try:
        from bot.runner import run

        return run(args)
    finally:
        signal.signal(signal.SIGTERM, previous)


def _exit_at_once(number: int, frame: FrameType | None) -> NoReturn:
    """SIGTERM outside :func:`bot.runner.serve`, which stops the bot cleanly:
    before it (nothing has begun: no database, no connection) or after it,
    the process ends at once, with status 0, as after a clean stop."""
    # os.write, not print: the signal may come in the middle of a print.
    os.write(sys.stderr.fileno(), b"spades-bot: SIGTERM received with nothing under way: exiting\n")
    raise SystemExit(0)


if __name__ == "__main__":
    raise SystemExit(main())
