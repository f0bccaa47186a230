"""The numbered migration history shared by every database.

``NNN_name.sql`` applies to every database, or ``NNN_name.sqlite.sql`` and
``NNN_name.postgresql.sql`` hold each dialect's version of step NNN. Gaps are allowed;
a number used twice is an error."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from pathlib import Path

from db.errors import SchemaTooNew, StoreError

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
DIALECTS = ("sqlite", "postgresql")
_MIGRATION_NAME = re.compile(r"^(\d+)_[A-Za-z0-9_]+?(?:\.(sqlite|postgresql))?\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    number: int
    path: Path


def find_migrations(folder: Path = MIGRATIONS_DIR, dialect: str = "sqlite") -> list[Migration]:
    """The steps for ``dialect`` by number; a bad name, duplicate or missing step is an error."""
    if dialect not in DIALECTS:
        raise ValueError(f"unknown SQL dialect {dialect!r}")
    # Each number's files by dialect: one shared file (None), or one of each dialect's own.
    steps: dict[int, dict[str | None, Path]] = {}
    for path in sorted(folder.glob("*.sql")):
        match = _MIGRATION_NAME.match(path.name)
        if match is None:
            raise StoreError(f"migration file {path.name!r} is not named NNN_name.sql")
        number, own = int(match.group(1)), match.group(2)
        if number <= 0:
            raise StoreError(f"migration {path.name!r}: numbers start at 1")
        files = steps.setdefault(number, {})
        clashes = (own, None) if own else (None, *DIALECTS)
        earlier = next((files[kind] for kind in clashes if kind in files), None)
        if earlier is not None:
            raise StoreError(f"migrations {earlier.name!r} and {path.name!r} share number {number}")
        files[own] = path
    for name, other in itertools.permutations(DIALECTS):
        missing = sorted(n for n, files in steps.items() if name in files and other not in files)
        if missing:
            raise StoreError(f"migration {missing[0]} has a {name} file and no {other} one")
    return [Migration(n, files.get(None) or files[dialect]) for n, files in sorted(steps.items())]


def migration_target(migrations: list[Migration], upto: int | None) -> tuple[int, int]:
    """(the newest step known, the step to migrate to)."""
    known = max((m.number for m in migrations), default=0)
    return known, known if upto is None else min(known, upto)


def too_new(where: str, current: int, known: int) -> SchemaTooNew:
    return SchemaTooNew(
        f"the database {where} is at schema version {current}, newer than this bot "
        f"knows ({known}): run a newer version of the bot"
    )
