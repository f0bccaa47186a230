from __future__ import annotations

import json

import pytest

from bot.game.rules import preset
from bot.game.state import Game
from bot.game.types import EndReason
from bot.stats.history import export_document, export_filename
from bot.stats.records import BadRecord
from bot.stats.service import StatsService

from .games import Tables, finish, play_out, revoke_then_challenge, seats_of
from .replay import replay_actions, replay_hands


async def test_the_exported_history_replays_to_the_recorded_final_score(
    tables: Tables, stats: StatsService
) -> None:
    table = await tables.play(
        1, [1, 3, 4], computers=1, rules="blind-nil", level="heuristic", seed=21
    )
    game = table.game
    assert game is not None and table.game_id is not None and len(game.hand_records) > 3
    data = await stats.export_history(1, table.game_id)
    assert data is not None
    document = json.loads(data)
    assert document["final_scores"] == game.scores
    assert document["seats"][3] == {
        "seat": 3,
        "team": 1,
        "user_id": None,
        "computer_level": "random",
    }
    assert len(document["hands"]) == len(game.hand_records)
    assert replay_hands(document) == tuple(game.scores)
    rebuilt = replay_actions(document)
    assert rebuilt.scores == game.scores and rebuilt.result == game.result
    assert export_filename(table.game_id) == f"spades-game-{table.game_id}.json"


async def test_a_rematch_exports_only_its_own_game(tables: Tables, stats: StatsService) -> None:
    first = await tables.play(1, [1, 2, 3, 4], seed=5)
    tables.game_seed = 6
    table = await tables.service.rematch(first.id, 1, first.version)
    table = await tables.play_on(table, seed=6)
    assert table.game_id is not None and table.game_id != first.game_id
    for finished in (first, table):
        assert finished.game is not None and finished.game_id is not None
        data = await stats.export_history(1, finished.game_id)
        assert data is not None
        rebuilt = replay_actions(json.loads(data))
        assert rebuilt.scores == finished.game.scores
        assert len(rebuilt.actions) == len(finished.game.actions)


async def test_a_revoke_is_exported_with_its_challenge(tables: Tables, stats: StatsService) -> None:
    table = await tables.play(1, [1, 2, 3, 4], seed=4, scenario=revoke_then_challenge)
    result = table.result
    assert result is not None and result.reason is EndReason.REVOKE and table.game_id
    data = await stats.export_history(1, table.game_id)
    assert data is not None
    document = json.loads(data)
    assert document["result"] == {
        "winner": result.winner,
        "reason": "revoke",
        "seat": result.seat,
    }
    assert document["actions"][-1]["kind"] == "challenge"
    assert replay_actions(document).result == result


async def test_a_game_of_another_server_or_unknown_is_not_exported(
    tables: Tables, stats: StatsService
) -> None:
    table = await tables.play(1, [1, 2, 3, 4], seed=1)
    assert table.game_id is not None
    assert await stats.export_history(2, table.game_id) is None
    assert await stats.export_history(1, table.game_id + 1) is None


def test_a_doctored_history_does_not_replay() -> None:
    game = play_out(Game.new(preset("standard"), 31), 31, level="heuristic")
    record = finish(game, 1, seats_of(1, 2, 3, 4))
    document = export_document(record)
    assert replay_hands(document) == tuple(game.scores)
    hands = document["hands"]
    assert len(hands) >= 2
    hands[1] = dict(hands[1], score_before=[0, 0])
    with pytest.raises(BadRecord, match="does not start"):
        replay_hands(document)
    document = export_document(record)
    last = document["hands"][-1]
    document["hands"][-1] = dict(last, score_after=[last["score_after"][0] + 1, 0])
    with pytest.raises(BadRecord, match="add up"):
        replay_hands(document)
    with pytest.raises(BadRecord, match="action list"):
        replay_actions(document)
