"""The check that an exported history file replays: its hands scored again
from nothing, and the whole game rebuilt from its seed and actions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.game.rules import RuleSet
from bot.game.state import Game
from bot.stats.records import BadRecord, read_hand


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
