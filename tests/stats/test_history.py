from __future__ import annotations

import json

import pytest

from bot.game.rules import preset
from bot.game.state import Game
from bot.stats.history import export_document, export_filename, replay_actions, replay_hands
from bot.stats.records import BadRecord, computer, human
from bot.stats.service import StatsService

from .games import finish, play_out, revoking_game, seats_of


async def test_the_exported_history_replays_to_the_recorded_final_score(
    stats: StatsService,
) -> None:
    rules = preset("blind-nil")
    game = play_out(Game.new(rules, 21), 21, level="heuristic")
    assert len(game.hand_records) > 3
    seats = (human(1), computer("heuristic"), human(3), human(4))
    await stats.record_game(finish(game, 77, seats), game.to_json())
    data = await stats.export_history(1, 77)
    assert data is not None
    document = json.loads(data)
    assert document["final_scores"] == game.scores
    assert document["seats"][1] == {
        "seat": 1,
        "team": 1,
        "user_id": None,
        "computer_level": "heuristic",
    }
    assert len(document["hands"]) == len(game.hand_records)
    assert replay_hands(document) == tuple(game.scores)
    rebuilt = replay_actions(document)
    assert rebuilt.scores == game.scores and rebuilt.result == game.result
    assert export_filename(77) == "spades-game-77.json"


async def test_an_export_without_the_action_list_still_replays_its_hands(
    stats: StatsService,
) -> None:
    game, revoker = revoking_game(4)
    game.challenge((revoker + 1) & 3, revoker, 1e6)
    await stats.record_game(finish(game, 5, seats_of(1, 2, 3, 4)))
    data = await stats.export_history(1, 5)
    assert data is not None
    document = json.loads(data)
    assert document["result"] == {"winner": 1 - (revoker & 1), "reason": "revoke", "seat": revoker}
    assert replay_hands(document) == tuple(game.scores)
    with pytest.raises(BadRecord, match="action list"):
        replay_actions(document)


async def test_a_game_of_another_server_or_unknown_is_not_exported(stats: StatsService) -> None:
    game = play_out(Game.new(preset("standard"), 1), 1)
    await stats.record_game(finish(game, 9, seats_of(1, 2, 3, 4), guild_id=1))
    assert await stats.export_history(2, 9) is None
    assert await stats.export_history(1, 10) is None


def test_a_doctored_history_does_not_replay() -> None:
    game = play_out(Game.new(preset("standard"), 31), 31, level="heuristic")
    record = finish(game, 1, seats_of(1, 2, 3, 4))
    document = export_document(record)
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
