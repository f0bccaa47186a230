"""Copy a whole store into an empty database of another kind, every table it describes."""

from __future__ import annotations

from dataclasses import dataclass

from db.errors import StoreError
from db.sql import Database, TableShape

BATCH = 2000


class TargetNotEmpty(StoreError):
    """The database to copy into already holds rows; nothing was written."""


@dataclass(frozen=True, slots=True)
class Copied:
    rows: dict[str, int]  # table name -> rows copied (and found in the copy)


def in_dependency_order(tables: list[TableShape]) -> list[TableShape]:
    """``tables`` with every table after those its foreign keys point to."""
    by_name = {t.name: t for t in tables}
    placed: list[TableShape] = []
    done: set[str] = set()

    def place(table: TableShape, path: frozenset[str]) -> None:
        if table.name in done:
            return
        if table.name in path:
            raise StoreError(f"foreign keys form a cycle through {table.name}")
        for name in sorted(table.references):
            if name in by_name:
                place(by_name[name], path | {table.name})
        done.add(table.name)
        placed.append(table)

    for table in tables:
        place(table, frozenset())
    return placed


async def row_counts(db: Database, tables: list[TableShape]) -> dict[str, int]:
    counts = {}
    for table in tables:
        row = await db.fetchone(f"SELECT count(*) FROM {table.name}")
        counts[table.name] = int(row[0]) if row else 0
    return counts


async def copy_database(source: Database, target: Database) -> Copied:
    """Copy ``source`` into the empty ``target`` in one transaction and compare the row counts."""
    if await source.schema_version() != await target.schema_version():
        raise StoreError("the two databases are at different schema versions")
    tables = in_dependency_order(await source.tables())
    _check_same_shape(tables, await target.tables())
    filled = {name: n for name, n in (await row_counts(target, tables)).items() if n}
    if filled:
        listed = ", ".join(f"{name} ({n} rows)" for name, n in sorted(filled.items()))
        raise TargetNotEmpty(f"{target.describe()} is not empty: {listed}")
    async with target.transaction() as tx:
        for table in tables:
            columns = ", ".join(table.columns)
            placeholders = ", ".join("?" * len(table.columns))
            rows = await source.fetchall(f"SELECT {columns} FROM {table.name}")
            for start in range(0, len(rows), BATCH):
                await tx.executemany(
                    f"INSERT INTO {table.name} ({columns}) VALUES ({placeholders})",
                    rows[start : start + BATCH],
                )
    await target.after_copy(tables)
    expected, found = await row_counts(source, tables), await row_counts(target, tables)
    if expected != found:
        wrong = sorted(n for n in expected if expected[n] != found[n])
        raise StoreError(f"the copy's row counts differ in {', '.join(wrong)}")
    return Copied(found)


def _check_same_shape(source: list[TableShape], target: list[TableShape]) -> None:
    theirs = {t.name: set(t.columns) for t in target}
    for table in source:
        if table.name not in theirs:
            raise StoreError(f"the target has no table {table.name}")
        missing = sorted(set(table.columns) - theirs[table.name])
        if missing:
            raise StoreError(f"the target's table {table.name} lacks {', '.join(missing)}")
    extra = sorted(set(theirs) - {t.name for t in source})
    if extra:
        raise StoreError(f"the source has no table {extra[0]}")
