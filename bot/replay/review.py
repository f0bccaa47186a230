"""The coach's review of a whole game for its replay, computed once and stored as JSON."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from bot.coach.bid_review import BidEffect, review_bids
from bot.coach.hint import review_player
from bot.coach.review import Effect, review_hand
from bot.game.record import HandRecord
from bot.game.rules import RuleSet

#: The document's shape; another is read as "not reviewed" and redone (1 had no bids).
VERSION = 2


@dataclass(frozen=True, slots=True)
class Mark:
    """A costly card: who played it, where, what was better, and its cost (the
    coach's Mistake, with its hand and seat)."""

    hand: int
    trick: int
    seat: int
    played: int
    better: int
    effect: Effect
    number: int  # bags saved or points gained, as the effect counts
    points: int  # what the better card gains the team, in points of the hand


@dataclass(frozen=True, slots=True)
class BidMark:
    """A costly bid: who, which hand, the coach's bid instead and what it would have gained
    (the coach's BidMistake, with its hand)."""

    hand: int
    seat: int
    bid: int
    better: int
    effect: BidEffect
    number: int  # bags saved or points gained, as the effect counts
    points: int


@dataclass(frozen=True, slots=True)
class GameReview:
    cards: list[Mark]
    bids: list[BidMark]


def review_game(rules: RuleSet, records: Sequence[HandRecord]) -> GameReview:
    """Every seat's costliest card and costly bid of every hand; seconds of CPU work."""
    cards = []
    bids = []
    player = review_player()
    for record in records:
        for seat in range(4):
            mistake = review_hand(rules, record, seat).mistake
            if mistake is not None:
                cards.append(Mark(record.hand, seat=seat, **asdict(mistake)))
        for bid in review_bids(rules, record, player):
            bids.append(BidMark(record.hand, **asdict(bid)))
    return GameReview(cards, bids)


def review_json(review: GameReview) -> str:
    return json.dumps(
        {
            "version": VERSION,
            "marks": [asdict(m) for m in review.cards],
            "bids": [asdict(m) for m in review.bids],
        }
    )


def review_of(document: str) -> GameReview | None:
    """The review of a stored document; None if this version cannot read it."""
    try:
        found = json.loads(document)
        if found.get("version") != VERSION:
            return None
        return GameReview(
            [Mark(**{**raw, "effect": Effect(raw["effect"])}) for raw in found["marks"]],
            [BidMark(**{**raw, "effect": BidEffect(raw["effect"])}) for raw in found["bids"]],
        )
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
