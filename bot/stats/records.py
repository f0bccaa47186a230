"""A finished game read from its hand records, each hand rescored by the engine's own rules."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.game.rules import RuleSet
from bot.game.scoring import BLIND_NIL, NIL, TeamHandResult, score_hand
from bot.game.sides import places, side_of, sides, solo
from bot.game.state import Game
from bot.game.types import ActionKind, EndReason

#: How a game ends with one seat losing it on its own (``reason_seat``).
_LOST_OUTRIGHT = frozenset(
    (EndReason.REVOKE, EndReason.FALSE_CLAIM, EndReason.RESIGNATION, EndReason.TIMEOUT)
)


class BadRecord(ValueError):
    """A recorded hand or game that cannot be read."""


@dataclass(frozen=True, slots=True)
class SeatPlayer:
    """Who sat in one seat: a Discord user, or a computer player of some level."""

    user_id: int | None = None
    computer_level: str | None = None

    def __post_init__(self) -> None:
        if (self.user_id is None) == (self.computer_level is None):
            raise BadRecord("a seat holds either a user or a computer player")

    @property
    def is_human(self) -> bool:
        return self.user_id is not None


@dataclass(frozen=True, slots=True)
class RecordedHand:
    """One hand of a recorded game, as far as the statistics need it. Scores,
    bags and results are per side (:mod:`bot.game.sides`): two teams, or four
    seats in solo."""

    number: int
    bids: tuple[int, int, int, int]  # per seat; NIL or BLIND_NIL for the Nils
    tricks_won: tuple[int, int, int, int]
    bags_before: tuple[int, ...]
    hand_score: tuple[int, ...]
    score_after: tuple[int, ...]
    bags_after: tuple[int, ...]
    results: tuple[TeamHandResult, ...]  # the engine's scoring of this hand, per side

    @property
    def bag_penalty(self) -> tuple[bool, ...]:
        """Whether each side lost points to the bag limit in this hand."""
        return tuple(result.bag_penalty < 0 for result in self.results)

    @property
    def set(self) -> tuple[bool, ...]:
        """Whether each side was set (failed its contract) in this hand."""
        return tuple(_was_set(result) for result in self.results)


def _was_set(result: TeamHandResult) -> bool:
    return result.contract > 0 and not result.made


_BID_WORDS = {"nil": NIL, "blind_nil": BLIND_NIL}


def _bid_value(raw: object) -> int:
    if isinstance(raw, str):
        if raw in _BID_WORDS:
            return _BID_WORDS[raw]
        raise BadRecord(f"unknown bid {raw!r}")
    if isinstance(raw, int) and not isinstance(raw, bool) and 1 <= raw <= 13:
        return raw
    raise BadRecord(f"unknown bid {raw!r}")


def _quad(raw: object, name: str) -> tuple[int, int, int, int]:
    values = _ints(raw, name, 4)
    return (values[0], values[1], values[2], values[3])


def _ints(raw: object, name: str, length: int) -> list[int]:
    if not isinstance(raw, list) or len(raw) != length:
        raise BadRecord(f"{name} should list {length} numbers")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in raw):
        raise BadRecord(f"{name} should list {length} numbers")
    return list(raw)


def read_hand(rules: RuleSet, record: Mapping[str, Any]) -> RecordedHand:
    """Read one hand-record JSON object and score it again with ``rules``."""
    try:
        bids: list[int | None] = [None] * 4
        for entry in record["bids"]:
            seat = int(entry["seat"])
            if not 0 <= seat < 4 or bids[seat] is not None:
                raise BadRecord(f"hand {record.get('hand')}: bad bidding seat {seat}")
            bids[seat] = _bid_value(entry["bid"])
        if any(b is None for b in bids):
            raise BadRecord(f"hand {record.get('hand')}: a seat has no bid")
        seat_bids = (bids[0] or 0, bids[1] or 0, bids[2] or 0, bids[3] or 0)
        tricks_won = _quad(record["tricks_won"], "tricks_won")
        count = len(sides(rules))
        bags_before = tuple(_ints(record["bags_before"], "bags_before", count))
        hand = RecordedHand(
            number=int(record["hand"]),
            bids=seat_bids,
            tricks_won=tricks_won,
            bags_before=bags_before,
            hand_score=tuple(_ints(record["hand_score"], "hand_score", count)),
            score_after=tuple(_ints(record["score_after"], "score_after", count)),
            bags_after=tuple(_ints(record["bags_after"], "bags_after", count)),
            results=score_hand(rules, list(seat_bids), list(tricks_won), bags_before),
        )
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, BadRecord):
            raise
        raise BadRecord(f"a hand record is malformed: {exc!r}") from None
    scored = tuple(result.points for result in hand.results)
    if scored != hand.hand_score:
        raise BadRecord(
            f"hand {hand.number}: recorded score {list(hand.hand_score)} "
            f"differs from the rules' {list(scored)}"
        )
    return hand


def read_hands(rules: RuleSet, records: Iterable[Mapping[str, Any]]) -> list[RecordedHand]:
    hands = [read_hand(rules, r) for r in records]
    for index, hand in enumerate(hands, start=1):
        if hand.number != index:
            raise BadRecord(f"hand {hand.number} is recorded at index {index}")
    return hands


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """Everything the statistics keep of one finished game: ``winner`` is the
    winning side, a team or in solo a seat (None: a draw); ``final_scores``
    are per side."""

    guild_id: int
    game_id: int
    finished_at: float
    rules: RuleSet
    seats: tuple[SeatPlayer, SeatPlayer, SeatPlayer, SeatPlayer]
    winner: int | None
    reason: EndReason
    reason_seat: int | None
    final_scores: tuple[int, ...]
    hand_records: tuple[Mapping[str, Any], ...]
    challenger_seat: int | None = None  # who called the revoke, for REVOKE and FALSE_CLAIM
    hints: bool = False  # played with the coach's hints on
    note: str | None = None  # a moderator's reason for ending it (EndReason.MODERATOR)

    @property
    def solo(self) -> bool:
        return solo(self.rules)

    def side(self, seat: int) -> int:
        """The side ``seat`` played on: its team, or in solo itself."""
        return side_of(self.rules, seat)

    def places(self) -> tuple[int, ...]:
        """Each seat's place, 1 the best (bot.game.sides.places): in solo a
        seat that lost the game outright (a revoke, a false claim, resigning,
        the clock) is last. Partners share their team's."""
        last = self.reason_seat if self.solo and self.reason in _LOST_OUTRIGHT else None
        by_side = places(self.final_scores, self.winner, last)
        return tuple(by_side[self.side(seat)] for seat in range(4))

    @property
    def has_computer(self) -> bool:
        return any(not seat.is_human for seat in self.seats)

    @property
    def has_help(self) -> bool:
        """Whether anyone had help: a computer player at the table, or hints."""
        return self.has_computer or self.hints

    def hands(self) -> list[RecordedHand]:
        return read_hands(self.rules, self.hand_records)

    @classmethod
    def from_game(
        cls,
        game: Game,
        *,
        guild_id: int,
        game_id: int,
        seats: Sequence[SeatPlayer],
        finished_at: float,
        hints: bool = False,
    ) -> FinishedGame:
        """The record of a game the engine has finished."""
        if game.result is None:
            raise BadRecord("the game is not over")
        if len(seats) != 4:
            raise BadRecord("a game has four seats")
        records = tuple(h.to_json(str(game_id), game.rules) for h in game.hand_records)
        last = game.actions[-1] if game.actions else None
        challenger = last.seat if last and last.kind is ActionKind.CHALLENGE else None
        return cls(
            guild_id=guild_id,
            game_id=game_id,
            finished_at=finished_at,
            rules=game.rules,
            seats=(seats[0], seats[1], seats[2], seats[3]),
            winner=game.result.winner,
            reason=game.result.reason,
            reason_seat=game.result.seat,
            final_scores=tuple(game.scores),
            hand_records=records,
            challenger_seat=challenger,
            hints=hints,
            note=game.result.note,
        )
