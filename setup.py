"""Build of the package: the rules engine's hot modules compiled with mypyc.

Everything is declared in pyproject.toml; this file only adds the C
extensions of ``bot.game.native.COMPILED``. Without a C compiler, when mypyc
fails, or with ``SPADES_PURE_PYTHON=1``, the package installs as plain
Python and behaves the same (only slower): the engine picks its sources
whenever the compiled modules are missing or older than the code.
"""

from __future__ import annotations

import json
import os
import runpy
import sys
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
ENGINE = ROOT / "bot" / "game"
# Run on its own: the package cannot be imported before it is built.
native = runpy.run_path(str(ENGINE / "native.py"))


def say(message: str) -> None:
    print(f"spades-bot: {message}", file=sys.stderr)


def engine_extensions() -> list[Extension]:
    if os.environ.get(native["PURE_PYTHON_ENV"]) == "1":
        say("pure Python engine, as asked")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        say("mypyc is not installed: pure Python engine")
        return []
    paths = [str(Path("bot", "game", f"{name}.py")) for name in native["COMPILED"]]
    previous = Path.cwd()
    os.chdir(ROOT)  # mypyc takes paths relative to the project
    try:
        extensions: list[Extension] = mypycify(
            ["--no-warn-unused-configs", *paths], group_name="bot_game"
        )
    except (Exception, SystemExit) as exc:  # mypyc exits on a type error
        say(f"mypyc could not compile the engine ({exc!r}): pure Python engine")
        return []
    finally:
        os.chdir(previous)
    BUILT_SOURCES.update(native["source_digests"](ENGINE))
    return extensions


#: The digests of the sources mypyc compiled, recorded once the build is complete.
BUILT_SOURCES: dict[str, str] = {}


class OptionalBuildExt(build_ext):
    """Builds the engine's extensions if it can; the package works without them.

    The record of compiled sources is removed first and written only when
    every extension has built: without it the engine runs its sources, so an
    old or partial build is never used.
    """

    def run(self) -> None:
        package = ENGINE if self.inplace else Path(self.build_lib, "bot", "game")
        record = package / native["DIGESTS_FILE"]
        record.unlink(missing_ok=True)
        self.failed: list[str] = []
        try:
            super().run()
        except Exception as exc:
            say(f"the compiled engine did not build ({exc!r}): pure Python engine")
            return
        if self.failed or not BUILT_SOURCES:
            return
        package.mkdir(parents=True, exist_ok=True)
        record.write_text(json.dumps(BUILT_SOURCES, indent=1) + "\n")

    def build_extension(self, ext: Any) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:
            self.failed.append(ext.name)
            say(f"{ext.name} did not build ({exc!r}): pure Python engine")


setup(ext_modules=engine_extensions(), cmdclass={"build_ext": OptionalBuildExt})
