"""A finished game's history as a JSON file, from which ``Game.from_json`` rebuilds it."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from bot.game.house import changed_keys, house_text
from bot.game.rules import preset
from bot.stats.records import FinishedGame

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
        # The house rules that differ from the preset, in the simulator's text.
        "house": house_text(game.rules, changed_keys(game.rules, preset(game.rules.preset))),
        "seats": [
            {
                "seat": seat,
                "team": game.side(seat),  # in solo each seat is a side of its own
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
