"""The engine's choice between its compiled modules and its Python sources.

The unit tests give ``bot.game.native`` a scratch directory of fake sources and
fake extension files (its checks only look at names and bytes). The subprocess
tests import the real package in a fresh interpreter, since the choice is made
once, at the first import of ``bot.game``.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot.game import native
from bot.game.native import (
    BUILT_AGAINST,
    COMPILED,
    DIGESTS_FILE,
    PURE_PYTHON_ENV,
    SourceFinder,
    choose_modules,
    extension_files,
    reason_to_run_sources,
    source_digests,
)

REPO = Path(__file__).parents[2]
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]
WARNING_TEXT = "runs its Python sources"

BUILD = "import bot.game, bot.game.native as n; print(n.engine_build())"
# A whole hand with the first legal card each time: enough to run every module.
ONE_HAND = """
import bot.game, bot.game.native as n, bot.game.rules, bot.game.state
print(n.engine_build())
game = bot.game.state.Game.new(bot.game.rules.preset("standard"), 1)
for _ in range(4):
    game.bid(game.to_act, 3)
for _ in range(52):
    game.play(game.to_act, game.legal_cards(game.to_act)[0])
print(len(game.hand_records))
"""
WHERE = BUILD + "; import bot.game.state as s; print(s.__file__)"


@pytest.fixture(autouse=True)
def _no_pure_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """The variable may be set where the suite runs; each test sets it itself."""
    monkeypatch.delenv(PURE_PYTHON_ENV, raising=False)


@pytest.fixture
def shared_library(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether the compiled modules' shared library is found, as the test says
    (the fake builds here have none; the real one may not exist either)."""
    found = [True]
    monkeypatch.setattr(native, "shared_library_found", lambda: found[0])
    return found


def _sources(directory: Path) -> None:
    for name in COMPILED + BUILT_AGAINST:
        (directory / f"{name}.py").write_text(f"# the {name} module\n")


def _extensions(directory: Path, names: tuple[str, ...] = COMPILED) -> None:
    for name in names:
        (directory / f"{name}{SUFFIX}").write_bytes(b"")


def _record(directory: Path) -> None:
    (directory / DIGESTS_FILE).write_text(json.dumps(source_digests(directory)))


@pytest.fixture
def build(tmp_path: Path, shared_library: list[bool]) -> Path:
    """A directory as a fresh build leaves it: sources, extensions, their record."""
    _sources(tmp_path)
    _extensions(tmp_path)
    _record(tmp_path)
    return tmp_path


def _env(pure_python: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in (PURE_PYTHON_ENV, "PYTHONWARNINGS")}
    if pure_python:
        env[PURE_PYTHON_ENV] = "1"
    return env


def _run(code: str, cwd: Path, pure_python: bool = False) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        env=_env(pure_python),
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 0, result.stderr
    return result


def _compiled_expected(directory: Path) -> bool:
    """Whether an interpreter without the variable should load the compiled modules."""
    return bool(extension_files(directory)) and reason_to_run_sources(directory) is None


# --- digests, extension files and the reason, on fake files ---------------------


def test_source_digests_are_sha256_of_each_compiled_source(tmp_path: Path) -> None:
    _sources(tmp_path)
    digests = source_digests(tmp_path)
    assert list(digests) == list(COMPILED + BUILT_AGAINST)
    state = (tmp_path / "state.py").read_bytes()
    assert digests["state"] == hashlib.sha256(state).hexdigest()
    (tmp_path / "state.py").write_bytes(state + b"# edited\n")
    assert source_digests(tmp_path)["state"] != digests["state"]


def test_extension_files_lists_only_the_modules_that_have_one(tmp_path: Path) -> None:
    _sources(tmp_path)
    assert extension_files(tmp_path) == {}
    _extensions(tmp_path, ("cards", "playout"))
    assert extension_files(tmp_path) == {
        "cards": tmp_path / f"cards{SUFFIX}",
        "playout": tmp_path / f"playout{SUFFIX}",
    }


def test_no_extension_files_means_nothing_to_refuse(tmp_path: Path) -> None:
    _sources(tmp_path)
    assert reason_to_run_sources(tmp_path) is None


def test_fresh_build_may_run(build: Path) -> None:
    assert reason_to_run_sources(build) is None


def test_source_edited_after_the_build(build: Path) -> None:
    with (build / "scoring.py").open("a") as source:
        source.write("# a late fix\n")
    reason = reason_to_run_sources(build)
    assert reason is not None
    assert "edited" in reason


def test_missing_extension_is_named(build: Path) -> None:
    (build / f"state{SUFFIX}").unlink()
    reason = reason_to_run_sources(build)
    assert reason is not None
    assert "state" in reason
    # Only the missing one is named.
    assert not any(name in reason for name in COMPILED if name != "state")


def test_a_module_the_build_depends_on_edited_after_it(build: Path) -> None:
    with (build / "rules.py").open("a") as source:
        source.write("# a new option\n")
    reason = reason_to_run_sources(build)
    assert reason is not None and "edited" in reason


def test_missing_source(build: Path) -> None:
    (build / "refusals.py").unlink()
    reason = reason_to_run_sources(build)
    assert reason is not None and "refusals.py" in reason


def test_missing_shared_library(build: Path, shared_library: list[bool]) -> None:
    shared_library[0] = False
    reason = reason_to_run_sources(build)
    assert reason is not None and native.SHARED_LIBRARY in reason


def test_missing_record(build: Path) -> None:
    (build / DIGESTS_FILE).unlink()
    assert reason_to_run_sources(build) is not None


def test_record_that_is_not_json(build: Path) -> None:
    (build / DIGESTS_FILE).write_text("not json {")
    assert reason_to_run_sources(build) is not None


def test_pure_python_variable_refuses_a_fresh_build(
    build: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(PURE_PYTHON_ENV, "1")
    reason = reason_to_run_sources(build)
    assert reason is not None
    assert PURE_PYTHON_ENV in reason


def test_pure_python_variable_without_extensions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing compiled, nothing to choose: the sources run anyway."""
    _sources(tmp_path)
    monkeypatch.setenv(PURE_PYTHON_ENV, "1")
    assert reason_to_run_sources(tmp_path) is None


# --- the finder and the choice ----------------------------------------------------


def test_source_finder_finds_only_the_compiled_modules_sources(tmp_path: Path) -> None:
    _sources(tmp_path)
    finder = SourceFinder(tmp_path)
    spec = finder.find_spec("bot.game.state", None)
    assert spec is not None
    assert spec.name == "bot.game.state"
    assert spec.origin == str(tmp_path / "state.py")
    assert finder.find_spec("bot.game.rules", None) is None
    assert finder.find_spec("state", None) is None


def test_choice_too_late_changes_nothing(build: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """This process has the engine loaded already: a stale directory must not
    put a finder in front of modules that are already running."""
    (build / DIGESTS_FILE).unlink()
    # A copy, so that a wrong finder cannot outlive the test.
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    before = list(sys.meta_path)
    assert choose_modules(build) is not None
    assert sys.meta_path == before


def test_choice_with_nothing_compiled_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _sources(tmp_path)
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    before = list(sys.meta_path)
    assert choose_modules(tmp_path) is None
    assert sys.meta_path == before


# --- the real package, in a fresh interpreter ---------------------------------------


def test_pure_python_variable_runs_the_sources() -> None:
    result = _run(ONE_HAND, REPO, pure_python=True)
    assert result.stdout.split() == ["python", "1"]
    # Asked for: no warning.
    assert WARNING_TEXT not in result.stderr


def test_build_without_the_variable_matches_the_tree() -> None:
    """Compiled exactly when this tree has a usable build; honest where the
    compile did not happen."""
    expected = "compiled" if _compiled_expected(native.HERE) else "python"
    result = _run(ONE_HAND, REPO)
    assert result.stdout.split() == [expected, "1"]


def _copy_tree(destination: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(REPO / "bot", destination / "bot", ignore=ignore)
    # The compiled modules share one library at the top level.
    for library in REPO.glob("bot_game__mypyc*"):
        shutil.copy2(library, destination / library.name)


def test_copy_with_an_edited_source_runs_the_sources(tmp_path: Path) -> None:
    _copy_tree(tmp_path)
    compiled = _compiled_expected(native.HERE)

    # The unedited copy behaves as the tree it was copied from.
    before = _run(WHERE, tmp_path)
    build, state_file = before.stdout.split()
    assert state_file.startswith(str(tmp_path))
    assert build == ("compiled" if compiled else "python")

    with (tmp_path / "bot" / "game" / "state.py").open("a") as source:
        source.write("# edited after the build\n")
    after = _run(WHERE, tmp_path)
    build, state_file = after.stdout.split()
    assert state_file == str(tmp_path / "bot" / "game" / "state.py")
    assert build == "python"
    if extension_files(native.HERE):
        assert "RuntimeWarning" in after.stderr
        assert WARNING_TEXT in after.stderr
        assert "edited" in after.stderr
    else:
        # No build to be stale: the sources run without a word.
        assert WARNING_TEXT not in after.stderr
