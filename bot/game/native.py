"""The engine's compiled modules: which they are, and whether they may run.

``setup.py`` compiles the modules of :data:`COMPILED` with mypyc into C
extensions beside their sources (several times faster on play-outs) and,
once every one of them has built, records a digest of each source the build
depends on in :data:`DIGESTS_FILE`. Importing this module (``bot.game`` does
it first) checks that record: when a source was edited after the build, when
a compiled module, their shared library or the record is missing, or when
``SPADES_PURE_PYTHON=1`` is set, a finder put
first on ``sys.meta_path`` loads all of these modules from their ``.py``
files instead. So what runs is always the code in the tree; a stale build
costs speed (and says so in a warning), never correctness.

This file runs on its own too: ``setup.py`` executes it for the module list
and the digests, before the package can be imported.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

PACKAGE = "bot.game"
#: The modules compiled to C, each imported by the ones after it.
COMPILED = (
    "cards", "trick", "types", "scoring", "bidding", "deal", "record", "state", "playout",
)  # fmt: skip
#: Plain modules whose types the compiled code was built against: an edit to
#: them makes a build stale too.
BUILT_AGAINST = (
    "refusals", "rules", "durations", "checks", "house", "house_conflicts", "rest_claim",
    "sides", "passing", "observe",
)  # fmt: skip
#: The library the compiled modules share (top level, beside the ``bot`` package).
SHARED_LIBRARY = "bot_game__mypyc"
#: Beside the modules: ``{module: sha256 of its source}`` as compiled.
DIGESTS_FILE = "compiled-sources.json"
#: Set to 1 to install without compiling, or to run the sources of a build.
PURE_PYTHON_ENV = "SPADES_PURE_PYTHON"
HERE = Path(__file__).resolve().parent


def source_digests(directory: Path = HERE) -> dict[str, str]:
    """The sha256 of each source a build depends on (raises OSError when one is missing)."""
    return {
        name: hashlib.sha256((directory / f"{name}.py").read_bytes()).hexdigest()
        for name in COMPILED + BUILT_AGAINST
    }


def extension_files(directory: Path = HERE) -> dict[str, Path]:
    """The compiled module file of each module of :data:`COMPILED` that has one."""
    found = {}
    for name in COMPILED:
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = directory / f"{name}{suffix}"
            if path.exists():
                found[name] = path
                break
    return found


def shared_library_found() -> bool:
    return importlib.util.find_spec(SHARED_LIBRARY) is not None


def reason_to_run_sources(directory: Path = HERE) -> str | None:
    """Why the compiled modules must not be used; None when they may be, or
    when there are none (then the sources run anyway)."""
    compiled = extension_files(directory)
    if not compiled:
        return None
    if os.environ.get(PURE_PYTHON_ENV) == "1":
        return f"{PURE_PYTHON_ENV}=1"
    if len(compiled) < len(COMPILED):
        missing = ", ".join(sorted(set(COMPILED) - set(compiled)))
        return f"compiled modules are missing: {missing}"
    if not shared_library_found():
        return f"their shared library {SHARED_LIBRARY} is missing"
    try:
        recorded = json.loads((directory / DIGESTS_FILE).read_text())
    except (OSError, ValueError):
        return "there is no record of a complete build"
    try:
        current = source_digests(directory)
    except OSError as exc:
        return f"a source is missing ({exc.filename})"
    if recorded != current:
        return "sources were edited after the build"
    return None


class SourceFinder(importlib.abc.MetaPathFinder):
    """Finds the compiled modules' ``.py`` sources before the extension files."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.names = {f"{PACKAGE}.{name}": name for name in COMPILED}

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        name = self.names.get(fullname)
        if name is None:
            return None
        return importlib.util.spec_from_file_location(fullname, self.directory / f"{name}.py")


def choose_modules(directory: Path = HERE) -> str | None:
    """Install a :class:`SourceFinder` when the compiled modules must not be
    used; return the reason, or None."""
    reason = reason_to_run_sources(directory)
    if reason is None or any(isinstance(f, SourceFinder) for f in sys.meta_path):
        return reason
    loaded = [f"{PACKAGE}.{name}" for name in COMPILED if f"{PACKAGE}.{name}" in sys.modules]
    if loaded:  # too late to choose: keep what runs, consistently
        return reason
    sys.meta_path.insert(0, SourceFinder(directory))
    if not reason.startswith(PURE_PYTHON_ENV):
        warnings.warn(
            f"bot.game runs its Python sources, not its compiled modules: {reason} "
            "(pip install -e . compiles them again)",
            RuntimeWarning,
            stacklevel=2,
        )
    return reason


def engine_build() -> str:
    """``compiled`` when the engine's state module is a C extension, else ``python``."""
    module = sys.modules.get(f"{PACKAGE}.state")
    file = getattr(module, "__file__", None) or ""
    return "compiled" if file.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)) else "python"


if __name__ == PACKAGE + ".native":
    choose_modules()
