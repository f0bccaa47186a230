"""``python -m bot`` against a Discord that never answers:
``python -m tests.discord.silent_start [ARGS]`` runs bot/__main__.py with ARGS.

discord.com and gateway.discord.gg resolve to a server in this process that
accepts connections and never sends a byte (what ``--add-host`` does in
scripts/check-image.sh), so the bot, once started, waits at its login: neither
connected nor refused, whatever the network. Only the standard library loads
before bot/__main__.py runs, so the bot's start is timed as ``python -m bot``'s.
"""

from __future__ import annotations

import runpy
import socket
import threading
from typing import Any

SILENT_HOSTS = frozenset({"discord.com", "gateway.discord.gg"})


def _silent_server() -> int:
    """A port on 127.0.0.1 that accepts every connection and never answers."""
    server = socket.create_server(("127.0.0.1", 0))
    accepted: list[tuple[socket.socket, Any]] = []  # kept open, never read

    def accept() -> None:
        while True:
            accepted.append(server.accept())

    threading.Thread(target=accept, name="silent-discord", daemon=True).start()
    port: int = server.getsockname()[1]
    return port


def _resolve_to(port: int) -> None:
    resolve = socket.getaddrinfo

    def getaddrinfo(host: Any, service: Any, *args: Any, **kwargs: Any) -> Any:
        if host in SILENT_HOSTS:
            host, service = "127.0.0.1", port
        return resolve(host, service, *args, **kwargs)

    socket.getaddrinfo = getaddrinfo  # type: ignore[assignment] # the real one's answers


if __name__ == "__main__":
    _resolve_to(_silent_server())
    runpy.run_module("bot", run_name="__main__", alter_sys=True)
