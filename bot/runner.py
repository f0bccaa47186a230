"""Entry points (run, publish commands, health); a failed start is one line and status 2."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from bot.config import ConfigError, Settings, load_settings

if TYPE_CHECKING:
    from bot.discord_app import SpadesBot

log = logging.getLogger(__name__)
PROG = "python -m bot"
EXIT_BAD_SETUP = 2


class _Parser(argparse.ArgumentParser):
    """argparse that reports a bad argument as one line and exit status 2."""

    def error(self, message: str) -> NoReturn:
        _fail(f"{message} (see {self.prog} --help)")


def _fail(message: str) -> NoReturn:
    print(f"spades-bot: {message}", file=sys.stderr)
    raise SystemExit(EXIT_BAD_SETUP)


#: The subcommands of ``python -m bot``, each with its one line of help.
SUBCOMMANDS = (
    ("sync", "publish the slash commands to Discord (globally, or --guild ID)"),
    ("health", "exit 0 while the running bot is alive (for a HEALTHCHECK)"),
    ("simulate", "computer players play complete games and write their hand records"),
    ("migrate-db", "copy the SQLite database onto an empty PostgreSQL one (--to URL)"),
)


def _subcommand_list() -> str:
    width = max(len(name) for name, _ in SUBCOMMANDS)
    lines = [f"  {name.ljust(width)}  {text}" for name, text in SUBCOMMANDS]
    return "\n".join(
        ["subcommands (each has its own --help):", *lines, "", "With none, the bot runs."]
    )


def _config_parser(command: str, description: str, epilog: str | None = None) -> _Parser:
    parser = _Parser(
        prog=f"{PROG} {command}".strip(),
        description=description,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        metavar="PATH",
        help="the settings file (default: config.toml if it exists)",
    )
    return parser


def _settings(path: Path | None, overrides: dict[str, Any] | None = None) -> Settings:
    try:
        return load_settings(path, **(overrides or {}))
    except ConfigError as exc:
        _fail(str(exc))


def _add_shard_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--shards",
        dest="shard_ids",
        default=None,
        metavar="IDS",
        help="connect only these shards, e.g. 0-3 or 0,2 (overrides [discord] shard_ids)",
    )
    parser.add_argument(
        "--shard-count",
        type=int,
        default=None,
        metavar="N",
        help="how many shards the bot has in all (overrides [discord] shard_count)",
    )


def _shard_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """``--shards`` and ``--shard-count`` as settings, checked with the others."""
    given = {key: getattr(args, key) for key in ("shard_ids", "shard_count")}
    discord = {key: value for key, value in given.items() if value is not None}
    return {"discord": discord} if discord else {}


def _token(settings: Settings) -> str:
    try:
        return settings.token()
    except ConfigError as exc:
        _fail(str(exc))


#: A plain log line off a terminal (discord.py would colour it for ``docker logs`` too).
PLAIN_LOG = logging.Formatter(
    "[{asctime}] [{levelname:<8}] {name}: {message}", "%Y-%m-%d %H:%M:%S", style="{"
)


def configure_logging(settings: Settings) -> None:
    """Log to stderr at the configured level; in colour only on a terminal."""
    import discord.utils

    handler = logging.StreamHandler()
    discord.utils.setup_logging(
        handler=handler,
        formatter=discord.utils.MISSING if handler.stream.isatty() else PLAIN_LOG,
        level=getattr(logging, settings.logging.level),
        root=True,
    )


def run_settings(argv: list[str]) -> Settings:
    """The settings ``python -m bot ARGV`` runs with: file, environment and shard flags."""
    parser = _config_parser("", "Run the Spades bot.", _subcommand_list())
    parser.usage = (
        f"{PROG} [--config PATH] [--shards IDS --shard-count N]"
        f" | {PROG} {{{','.join(n for n, _ in SUBCOMMANDS)}}} ..."
    )
    _add_shard_arguments(parser)
    args = parser.parse_args(argv)
    return _settings(args.config, _shard_overrides(args))


def run(argv: list[str]) -> int:
    """Start the bot and keep it connected until interrupted."""
    settings = run_settings(argv)
    token = _token(settings)
    configure_logging(settings)

    import aiohttp
    import discord

    from bot.discord_app import StartupError, bot_class

    async def main() -> None:
        bot = bot_class(settings)(settings)
        await serve(bot, lambda: bot.start(token))

    try:
        asyncio.run(main())
    except discord.LoginFailure:
        _fail("Discord refused the token: copy it again from the Bot page of your application")
    except StartupError as exc:
        _fail(str(exc))
    except (aiohttp.ClientConnectionError, discord.GatewayNotFound) as exc:
        _unreachable(exc)
    except KeyboardInterrupt:
        pass
    return 0


#: How long the connection may take to end by itself after a stop.
CONNECTION_ENDS_S = 1.0
#: The signals that stop the bot cleanly: docker stop's, and Ctrl+C's.
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


async def serve(bot: SpadesBot, connect: Callable[[], Awaitable[None]]) -> None:
    """Open the database and run the bot until Discord closes or SIGTERM/SIGINT, then close."""
    loop = asyncio.get_running_loop()
    # The earlier handlers come back afterwards, so a late signal still ends cleanly.
    previous = {number: signal.getsignal(number) for number in STOP_SIGNALS}
    for number in STOP_SIGNALS:
        loop.add_signal_handler(number, _stop_on, bot, number)
    try:
        await bot.open_database()
        if not bot.stopping:
            await _keep_connected(bot, connect)
    finally:
        await bot.close()
        for number, handler in previous.items():
            loop.remove_signal_handler(number)
            if handler is not None:
                signal.signal(number, handler)
    log.info("stopped")


async def _keep_connected(bot: SpadesBot, connect: Callable[[], Awaitable[None]]) -> None:
    """``connect``, until the connection ends or a stop is asked."""
    connection = asyncio.ensure_future(connect())
    stopped = asyncio.ensure_future(bot.wait_stopped())
    await asyncio.wait((connection, stopped), return_when=asyncio.FIRST_COMPLETED)
    stopped.cancel()
    if not connection.done():
        # Stopped: a login waiting on a silent network would not end by itself.
        await asyncio.wait((connection,), timeout=CONNECTION_ENDS_S)
        connection.cancel()
    try:
        await connection
    except (asyncio.CancelledError, Exception):
        # A stop during a login or reconnection raises an error of its own: it was asked for.
        if not bot.stopping:
            raise


def _stop_on(bot: SpadesBot, received: signal.Signals) -> None:
    log.info("%s received: stopping once the work under way is done", received.name)
    bot.stop()


def _unreachable(exc: Exception) -> NoReturn:
    # Not a setting to fix, so not status 2; a supervisor may simply retry.
    print(f"spades-bot: cannot reach Discord ({exc}); check the network and retry", file=sys.stderr)
    raise SystemExit(1)


def sync(argv: list[str]) -> int:
    """Publish the slash commands, globally or to one server (seen at once)."""
    parser = _config_parser("sync", "Publish the bot's slash commands to Discord.")
    parser.add_argument(
        "--guild",
        type=int,
        default=None,
        metavar="ID",
        help="publish to this server only (shows at once; good while testing)",
    )
    args = parser.parse_args(argv)
    settings = _settings(args.config)
    token = _token(settings)
    configure_logging(settings)

    import aiohttp
    import discord

    from bot.discord_app import SpadesBot

    async def main() -> list[str]:
        async with SpadesBot(settings, commands_only=True) as bot:
            await bot.login(token)
            return await bot.sync_commands(args.guild)

    try:
        names = asyncio.run(main())
    except discord.LoginFailure:
        _fail("Discord refused the token: copy it again from the Bot page of your application")
    except discord.HTTPException as exc:
        _fail(f"Discord refused the commands: {exc.status} {exc.text or exc}")
    except aiohttp.ClientConnectionError as exc:
        _unreachable(exc)
    where = f"server {args.guild}" if args.guild else "every server (global)"
    print(f"Published {len(names)} commands to {where}: {', '.join(sorted(names))}")
    return 0


def health(argv: list[str]) -> int:
    """Exit 0 while the running bot keeps its heartbeat file fresh, else 1."""
    parser = _config_parser("health", "Check that the running bot is alive.")
    _add_shard_arguments(parser)  # a sharded process: the same flags it runs with
    args = parser.parse_args(argv)
    settings = _settings(args.config, _shard_overrides(args))
    beat = _heartbeat(settings)
    file = settings.database.sqlite_file
    if file is not None and not file.exists():
        print(f"unhealthy: no database at {file}")
        return 1
    try:
        age = time.time() - beat.stat().st_mtime
    except FileNotFoundError:
        print(f"unhealthy: no heartbeat file at {beat} (not connected yet?)")
        return 1
    if age > settings.health.stale_after_s:
        print(f"unhealthy: last heartbeat {age:.0f} s ago")
        return 1
    print(f"healthy: last heartbeat {age:.0f} s ago")
    return 0


def _heartbeat(settings: Settings) -> Path:
    """The heartbeat file health reads; without shard settings, a sharded bot's newest too."""
    beat = settings.heartbeat_path
    if settings.discord.sharded or beat.exists():
        return beat
    stem = beat.name.removesuffix(".heartbeat")
    sharded = sorted(
        beat.parent.glob(f"{stem}.shards-*.heartbeat"), key=lambda path: path.stat().st_mtime
    )
    return sharded[-1] if sharded else beat


def screenshots(argv: list[str]) -> int:
    """``python -m bot screenshots``: the pictures, of the bot this entry point builds."""
    from bot.screenshots.cli import main

    return main(argv, picture_bot)


def picture_bot(settings: Settings, seeds: Callable[[], int]) -> SpadesBot:
    """The bot the screenshots are taken of, dealing from ``seeds``."""
    from bot.discord_app import SpadesBot

    return SpadesBot(settings, seed_source=seeds)
