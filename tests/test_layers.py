"""The shape of the project, checked from the code's own imports.

Data flows one way: cogs -> application core -> engine / store. Every import
counts here, also those under ``TYPE_CHECKING`` and inside functions, since
each one is a dependency a reader has to follow.

``python -m tests.test_layers`` prints the figures these tests hold at zero.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "cogs", "db")
#: The entry points and the Discord client: they build everything else. The
#: screenshot tool is one too: it runs the whole bot in a simulated Discord.
SCREENSHOT_TOOL = (
    "album",
    "chromium",
    "cli",
    "scenes",
    "server_scenes",
)
ENTRY = frozenset(
    {"bot.__main__", "bot.runner", "bot.discord_app", "bot.screenshots"}
    | {f"bot.screenshots.{module}" for module in SCREENSHOT_TOOL}
)
MAX_LINES = 500


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    return {
        module_name(path): path
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def _imported(path: Path, name: str) -> Iterator[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            yield base
            # ``from pkg import module`` imports the module too.
            yield from (f"{base}.{alias.name}" for alias in node.names)


@cache
def imports() -> dict[str, frozenset[str]]:
    """Project module -> the project modules it imports."""
    known = modules()
    graph: dict[str, frozenset[str]] = {}
    for name, path in known.items():
        found = {target for target in _imported(path, name) if target in known}
        # A module's own packages are initialised before it anyway: an edge to
        # them (``from bot.game import refusals``) is no dependency of its own.
        found -= {name, *(name.rsplit(".", depth)[0] for depth in range(1, name.count(".") + 1))}
        graph[name] = frozenset(found)
    return graph


def external_imports(name: str) -> set[str]:
    return {target.split(".")[0] for target in _imported(modules()[name], name)}


def cycles() -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    graph = imports()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def in_layer(name: str, layer: str) -> bool:
    return name == layer or name.startswith(layer + ".")


def breaks_layers(name: str, target: str) -> bool:
    """Whether ``name`` importing ``target`` goes against the design."""
    if in_layer(name, "cogs"):
        return in_layer(target, "db") or in_layer(target, "bot.game") or target in ENTRY
    if in_layer(name, "db"):
        return not in_layer(target, "db")
    if in_layer(name, "bot.game"):
        return not in_layer(target, "bot.game")
    if name in ENTRY:
        return in_layer(target, "db")  # the entry points reach the store through the core
    if in_layer(name, "bot"):
        return in_layer(target, "cogs") or target in ENTRY
    return False


def crossings() -> list[str]:
    """Every import that breaks the design, as "importer -> imported"."""
    return [
        f"{name} -> {target}"
        for name, targets in imports().items()
        for target in sorted(targets)
        if breaks_layers(name, target)
    ]


def core_modules_using_discord() -> list[str]:
    return [
        name
        for name in modules()
        if in_layer(name, "bot") and name not in ENTRY and "discord" in external_imports(name)
    ]


COG_LOOKUP = re.compile(r"\bget_cog\s*\(")


def cog_lookups() -> list[str]:
    return [
        f"{name}:{number}"
        for name, path in modules().items()
        if in_layer(name, "cogs")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if COG_LOOKUP.search(line)
    ]


def long_files() -> list[str]:
    return [
        f"{path.relative_to(ROOT)} ({count})"
        for path in modules().values()
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    ]


def test_no_import_cycles() -> None:
    assert cycles() == []


def test_every_import_follows_the_layers() -> None:
    assert crossings() == []


def test_the_core_knows_no_discord() -> None:
    assert core_modules_using_discord() == []


def test_no_cog_looks_up_another() -> None:
    assert cog_lookups() == []


def test_no_file_over_the_limit() -> None:
    assert long_files() == []


def test_the_checks_see_the_imports() -> None:
    # The analysis itself: a known import edge is found, so an empty answer
    # above means "none", not "nothing was read".
    assert "bot.tables.service" in imports()["bot.app"]
    assert "discord" in external_imports("cogs.components")


if __name__ == "__main__":
    for title, found in (
        ("import cycles", cycles()),
        ("imports across layers", crossings()),
        ("core modules importing discord", core_modules_using_discord()),
        ("cog lookups", cog_lookups()),
        (f"files over {MAX_LINES} lines", long_files()),
    ):
        print(f"{title}: {len(found)}")
        for item in found:
            print(f"  {item}")
