"""The log as the bot writes it: plain text where it is read by a program
(``docker logs``, a log collector), in colour only on a terminal."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import discord.utils
import pytest

from bot.config import Settings
from bot.runner import configure_logging

ESCAPE = "\x1b["


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture(autouse=True)
def _root_logger_restored() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


@pytest.fixture(autouse=True)
def _in_a_container(monkeypatch: pytest.MonkeyPatch) -> None:
    # Where discord.py turns colour on whatever the stream (its own check).
    monkeypatch.setattr(discord.utils, "is_docker", lambda: True)


def _logged(monkeypatch: pytest.MonkeyPatch, stderr: io.StringIO) -> str:
    monkeypatch.setattr("sys.stderr", stderr)
    configure_logging(Settings())
    logging.getLogger("bot.example").warning("SIGTERM received: stopping")
    return stderr.getvalue()


def test_the_log_is_plain_text_where_it_is_not_a_terminal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    line = _logged(monkeypatch, io.StringIO())
    assert ESCAPE not in line, repr(line)
    assert line.endswith("[WARNING ] bot.example: SIGTERM received: stopping\n"), repr(line)


def test_a_terminal_still_gets_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    line = _logged(monkeypatch, _Terminal())
    assert ESCAPE in line and "SIGTERM received: stopping" in line, repr(line)
