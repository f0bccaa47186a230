"""A database written by an earlier version of the bot (commit a9e2bba, see
tests/fixtures/make_upgrade_db.py) opens with today's code and every table
carries on exactly where it was."""

from __future__ import annotations

import json
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.game import checkpoint
from bot.game.types import Phase
from bot.tables.model import Table
from bot.tables.service import TableService
from db.clock_store import ClockStore
from db.stats_store import StatsStore
from db.store import Store, find_migrations

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
OLD_DB = FIXTURES / "upgrade_a9e2bba.db"
EXPECTED: dict[str, Any] = json.loads((FIXTURES / "upgrade_a9e2bba.json").read_text("utf-8"))
#: Table options added since the fixture was written: its tables read them as these.
NEW_OPTIONS: dict[str, Any] = {"hints": False}


def as_json(value: Any) -> Any:
    """``value`` as the fixture's JSON holds it (tuples become lists, keys strings)."""
    return json.loads(json.dumps(value))


def resumed(table: Table) -> dict[str, Any]:
    game = table.game
    options = table.options.model_dump(mode="json")
    for name, default in NEW_OPTIONS.items():
        assert options.pop(name) == default
    shown: dict[str, Any] = as_json(
        {
            "id": table.id,
            "guild_id": table.guild_id,
            "channel_id": table.channel_id,
            "message_id": table.message_id,
            "host_id": table.host_id,
            "options": options,
            "status": table.status.value,
            "version": table.version,
            "seats": [[s.user_id, s.computer_level] for s in table.seats],
            "spectators": list(table.spectators),
            "game_number": table.game_number,
            "game_id": table.game_id,
            "created_at": table.created_at,
            "updated_at": table.updated_at,
            "game": None if game is None else game.to_json(),
            "game_snapshot": None if game is None else game.snapshot(),
        }
    )
    return shown


@pytest.fixture(params=["from checkpoints", "replayed from the log"])
async def upgraded(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[tuple[Store, TableService]]:
    if request.param == "replayed from the log":
        monkeypatch.setattr(checkpoint, "USABLE", False)
    path = tmp_path / "spades.db"
    shutil.copyfile(OLD_DB, path)
    store = await Store.open(path)
    try:
        yield store, await TableService.open(store)
    finally:
        await store.close()


def test_the_fixture_holds_what_its_script_promises() -> None:
    assert EXPECTED["schema_version"] == 17
    statuses = {t["id"]: (t["status"], t["game_number"]) for t in EXPECTED["open_tables"]}
    names = EXPECTED["tables"]
    assert statuses == {
        names["lobby"]: ("lobby", 0),
        names["bidding"]: ("playing", 1),
        names["trick"]: ("playing", 1),
        names["rematch"]: ("playing", 2),
        names["computers"]: ("playing", 1),
    }
    games = {t["id"]: t["game_snapshot"] for t in EXPECTED["open_tables"] if t["game"]}
    assert games[names["bidding"]]["phase"] == "bidding"
    assert games[names["trick"]]["phase"] == "playing" and len(games[names["trick"]]["trick"]) == 2
    finished = EXPECTED["game_results"]
    assert [len(finished[str(names[n])]) for n in ("finished", "rematch")] == [1, 1]
    assert EXPECTED["uncounted_games"] == []
    assert {kind for _, kind, _, _ in EXPECTED["deadlines"]} == {"lobby", "turn", "computer"}


async def test_every_open_table_resumes_as_it_was(upgraded: tuple[Store, TableService]) -> None:
    store, service = upgraded
    assert await store.schema_version() == find_migrations()[-1].number
    tables = sorted(await service.unfinished(), key=lambda t: t.id)
    assert [resumed(t) for t in tables] == EXPECTED["open_tables"]
    names = EXPECTED["tables"]
    for name in ("finished", "cancelled"):
        closed = await service.get(names[name])
        assert not closed.is_open and await service.in_channel(closed.channel_id) is None


async def test_deadlines_preferences_mentions_and_stats_are_kept(
    upgraded: tuple[Store, TableService],
) -> None:
    store, service = upgraded
    deadlines = [[d.table_id, d.kind, d.due_at, dict(d.data)] for d in await store.load_deadlines()]
    assert deadlines == EXPECTED["deadlines"]
    assert {user: await store.get_deck(int(user)) for user in EXPECTED["decks"]} == EXPECTED[
        "decks"
    ]
    mentions = {}
    for table in await service.unfinished():
        mention = await store.turn_mention(table.id)
        mentions[str(table.id)] = None if mention is None else [mention.message_id, mention.turn]
    assert mentions == EXPECTED["turn_mentions"]
    clocks = await ClockStore(store).load_all()
    assert {
        str(table_id): {"stand_in": state.stand_in, "away_seats": sorted(state.away_seats)}
        for table_id, state in clocks.items()
    } == EXPECTED["clock"]
    results = {key: await store.game_results(int(key)) for key in EXPECTED["game_results"]}
    assert as_json(results) == EXPECTED["game_results"]
    stats = StatsStore(store)
    assert await stats.uncounted_game_ids() == []
    players = {}
    for user in EXPECTED["players"]:
        row = await stats.player(77, int(user))
        players[user] = row and {
            "rating": row.rating,
            "rated_games": row.rated_games,
            "tally": row.tally,
        }
    assert players == EXPECTED["players"]


async def test_the_resumed_games_go_on(upgraded: tuple[Store, TableService]) -> None:
    store, service = upgraded
    table = await service.get(EXPECTED["tables"]["trick"])
    game = table.game
    assert game is not None and game.phase is Phase.PLAYING
    seat = game.to_act
    card = (game.legal_play_mask(seat) & -game.legal_play_mask(seat)).bit_length() - 1
    user = table.seats[seat].user_id
    assert user is not None
    after = await service.play(table.id, user, card, table.version)
    assert after.version == table.version + 1
    assert after.game is not None and len(after.game.actions) == len(game.actions) + 1
    assert (await store.action_log(table.id))[-1].payload["value"] == card
