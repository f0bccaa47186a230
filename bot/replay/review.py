"""The coach's review of a whole game, for its replay: each seat's costliest
card of each hand (:func:`bot.coach.review.review_hand`), computed once and
stored as one JSON document."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from bot.coach.review import Effect, review_hand
from bot.game.record import HandRecord
from bot.game.rules import RuleSet

#: The document's shape; a newer shape is read as "not reviewed" and redone.
VERSION = 1


@dataclass(frozen=True, slots=True)
class Mark:
    """A costly card: who played it, where, what was better, and its cost."""

    hand: int
    trick: int
    seat: int
    played: int
    better: int
    effect: Effect
    number: int  # bags saved or points gained, as the effect counts
    points: int  # what the better card gains the team, in points of the hand


def review_game(rules: RuleSet, records: Sequence[HandRecord]) -> list[Mark]:
    """Every seat's costliest card of every hand. CPU work of seconds: run it
    off the event loop."""
    marks = []
    for record in records:
        for seat in range(4):
            mistake = review_hand(rules, record, seat).mistake
            if mistake is not None:
                marks.append(
                    Mark(
                        record.hand,
                        mistake.trick,
                        seat,
                        mistake.played,
                        mistake.better,
                        mistake.effect,
                        mistake.number,
                        mistake.points,
                    )
                )
    return marks


def marks_json(marks: Sequence[Mark]) -> str:
    return json.dumps({"version": VERSION, "marks": [asdict(m) for m in marks]})


def marks_of(document: str) -> list[Mark] | None:
    """The marks of a stored document; None if this version cannot read it."""
    try:
        found = json.loads(document)
        if found.get("version") != VERSION:
            return None
        return [Mark(**{**raw, "effect": Effect(raw["effect"])}) for raw in found["marks"]]
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
