"""A finished game's history as a JSON file, and the check that it replays.

The file holds the game's rules, seats, result and its hand records in the
simulator's ``--record`` format; when the table's seed and action list are
known they are included too, so the whole game can be rebuilt with
:meth:`bot.game.state.Game.from_json`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from bot.game.rules import RuleSet
from bot.game.state import Game
from bot.stats.records import BadRecord, FinishedGame, read_hand

EXPORT_FORMAT = "spades-history/1"


def export_document(
    game: FinishedGame, game_json: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    document: dict[str, Any] = {
        "format": EXPORT_FORMAT,
        "game": game.game_id,
        "guild": game.guild_id,
        "finished_at": game.finished_at,
        "rules": game.rules.model_dump(mode="json"),
        "seats": [
            {
                "seat": seat,
                "team": seat & 1,
                "user_id": player.user_id,
                "computer_level": player.computer_level,
            }
            for seat, player in enumerate(game.seats)
        ],
        "result": {
            "winner": game.winner,
            "reason": game.reason.value,
            "seat": game.reason_seat,
        },
        "final_scores": list(game.final_scores),
        "hints": game.hints,
        "hands": [dict(record) for record in game.hand_records],
    }
    if game_json is not None:
        document["seed"] = game_json["seed"]
        document["started_at"] = game_json.get("started_at", 0.0)
        document["fixed_deals"] = game_json.get("fixed_deals", [])
        document["actions"] = list(game_json["actions"])
    return document


def export_bytes(game: FinishedGame, game_json: Mapping[str, Any] | None = None) -> bytes:
    """The history file a player downloads: indented JSON, UTF-8."""
    return json.dumps(export_document(game, game_json), indent=1).encode("utf-8")


def export_filename(game_id: int) -> str:
    return f"spades-game-{game_id}.json"


def replay_hands(document: Mapping[str, Any]) -> tuple[int, int]:
    """Score the exported hands again from nothing and return the final score.

    Each hand is scored with the exported rules from the bids and tricks it
    records, starting from the score and bags the hands before it left;
    any disagreement with what the file says raises :class:`BadRecord`.
    """
    rules = RuleSet.model_validate(document["rules"])
    scores = [0, 0]
    bags = [0, 0]
    for index, record in enumerate(document["hands"], start=1):
        if list(record["score_before"]) != scores or list(record["bags_before"]) != bags:
            raise BadRecord(f"hand {index} does not start where hand {index - 1} ended")
        hand = read_hand(rules, record)
        for team in (0, 1):
            scores[team] += hand.results[team].points
            bags[team] = hand.results[team].bags_after
        if list(hand.score_after) != scores or list(hand.bags_after) != bags:
            raise BadRecord(f"hand {index} does not add up to its recorded score")
    return scores[0], scores[1]


def replay_actions(document: Mapping[str, Any]) -> Game:
    """Rebuild the whole game from the exported seed and actions."""
    if "actions" not in document:
        raise BadRecord("this history holds hand records only, not the action list")
    return Game.from_json(
        {
            "rules": document["rules"],
            "seed": document["seed"],
            "started_at": document.get("started_at", 0.0),
            "fixed_deals": document.get("fixed_deals", []),
            "actions": document["actions"],
        }
    )
