"""A finished game's hand records are stored in the format other tools read:
one JSON array of the records' JSON forms, compact, keys sorted, ASCII, with
every field of the simulator's ``--record`` lines (bids as numbers, "nil" or
"blind nil")."""

from __future__ import annotations

import json

import pytest

from bot.tables.service import TableService
from db.store import Store
from tests.backends import table_rows
from tests.service.driver import HOST, Chooser, play_to_end, seated_table

FIELDS = {
    "bags_after",
    "bags_before",
    "bids",
    "dealer",
    "game",
    "game_over",
    "hand",
    "hand_score",
    "hands",
    "preset",
    "rules",
    "score_after",
    "score_before",
    "tricks",
    "tricks_won",
    "winner",
}


@pytest.mark.parametrize("preset", ["standard", "blind-nil"])
async def test_the_stored_records_are_the_records_json(
    service: TableService, store: Store, preset: str
) -> None:
    table = await seated_table(service, target=250, preset=preset)
    table = await service.start(table.id, HOST, table.version)
    finished = await play_to_end(service, table, Chooser(4))
    assert finished.game is not None and finished.game_id is not None
    [(text,)] = await table_rows(store, "SELECT hands FROM games WHERE id = ?", (finished.game_id,))
    records = [
        r.to_json(str(finished.game_id), finished.game.rules) for r in finished.game.hand_records
    ]
    assert text == json.dumps(records, separators=(",", ":"), sort_keys=True)
    stored = json.loads(text)
    assert stored and all(FIELDS <= set(record) <= FIELDS | {"claim"} for record in stored)
    assert stored[-1]["game_over"] is True and text.isascii()
