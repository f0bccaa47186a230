"""SQL of the turn clock's per-table state (table ``table_clock``).

The deadlines themselves are the main store's (:class:`db.sql.DeadlineSQL`); this module
keeps the stand-in option of a table and the seats a computer plays for a late
player, so both survive a restart. It writes through the main store's
transactions and knows no rules.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from db.store import StoreSection


@dataclass(frozen=True, slots=True)
class TableClockState:
    stand_in: bool = False
    away_seats: frozenset[int] = frozenset()
    taken_back: dict[int, float] = field(default_factory=dict)


class ClockStore(StoreSection):
    async def load_all(self) -> dict[int, TableClockState]:
        rows = await self.db.fetchall(
            "SELECT table_id, stand_in, away_seats, taken_back FROM table_clock"
        )
        return {row[0]: _state(row[1], row[2], row[3]) for row in rows}

    async def save(self, table_id: int, state: TableClockState) -> None:
        away = sum(1 << seat for seat in state.away_seats)
        taken = json.dumps({str(seat): at for seat, at in sorted(state.taken_back.items())})
        await self.db.execute(
            "INSERT INTO table_clock (table_id, stand_in, away_seats, taken_back)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (table_id) DO UPDATE"
            " SET stand_in = excluded.stand_in, away_seats = excluded.away_seats,"
            " taken_back = excluded.taken_back",
            (table_id, int(state.stand_in), away, taken),
        )


def _state(stand_in: int, away: int, taken_back: str) -> TableClockState:
    return TableClockState(
        stand_in=bool(stand_in),
        away_seats=frozenset(seat for seat in range(4) if away >> seat & 1),
        taken_back={int(seat): float(at) for seat, at in json.loads(taken_back).items()},
    )
