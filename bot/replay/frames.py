"""The frames of a finished game's replay: each hand's bidding, its tricks, a claim."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.game.cards import mask_of, parse_card
from bot.game.record import HandRecord
from bot.game.rules import RuleSet
from bot.game.trick import Trick
from bot.stats.records import BadRecord, FinishedGame, SeatPlayer, read_hand

#: The cards of a trick on the table: (seat, card) in play order.
Play = tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class Frame:
    hand: int  # 1, 2, ...
    trick: int  # 0: the bidding; 1-13: that trick on the table
    dealer: int
    hands: tuple[int, int, int, int]  # each seat's cards at that moment, as masks
    bids: tuple[int, int, int, int]  # per seat; NIL and BLIND_NIL as the engine's
    table: Play  # the trick on the table; empty while bidding
    winner: int | None  # who takes the trick on the table
    last_winner: int | None  # who took the trick before it
    taken: tuple[int, int, int, int]  # tricks per seat, the one on the table included
    #: Per side (two teams, or four players in solo), before the hand.
    score: tuple[int, ...]
    bags: tuple[int, ...]
    #: Set on the hand's last frame: the hand's points and the score after it, per side.
    hand_score: tuple[int, ...] | None = None
    score_after: tuple[int, ...] | None = None
    #: (seat, tricks it was given) on a claim's frame.
    claim: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class Replay:
    """Every frame of one game, and where each hand's begin."""

    game_id: int
    guild_id: int
    rules: RuleSet
    seats: tuple[SeatPlayer, SeatPlayer, SeatPlayer, SeatPlayer]
    frames: tuple[Frame, ...]
    records: tuple[HandRecord, ...]

    def hand_starts(self) -> list[int]:
        """The index of each hand's bidding frame, hand by hand."""
        return [i for i, frame in enumerate(self.frames) if frame.trick == 0]

    def played_in(self, user_id: int) -> bool:
        return any(seat.user_id == user_id for seat in self.seats)


def hand_record(rules: RuleSet, raw: Mapping[str, Any]) -> HandRecord:
    """A stored hand record (its JSON object) as the engine's record."""
    deck = rules.deck.value
    try:
        read = read_hand(rules, raw)
        dealt = [mask_of(parse_card(name, deck) for name in hand) for hand in raw["hands"]]
        order = [(int(entry["seat"]), read.bids[int(entry["seat"])]) for entry in raw["bids"]]
        tricks = [
            Trick(
                int(t["leader"]), tuple(parse_card(c, deck) for c in t["cards"]), int(t["winner"])
            )
            for t in raw["tricks"]
        ]
        passes = tuple(
            (int(p["seat"]), int(p["to"]), mask_of(parse_card(name, deck) for name in p["cards"]))
            for p in raw.get("passes", ())
        )
        claim_raw = raw.get("claim")
        claim = None if claim_raw is None else (int(claim_raw["seat"]), int(claim_raw["tricks"]))
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, BadRecord):
            raise
        raise BadRecord(f"a hand record is malformed: {exc!r}") from None
    if len(dealt) != 4:
        raise BadRecord(f"hand {read.number} has {len(dealt)} hands")
    bags_before = list(read.bags_before)
    return HandRecord(
        hand=read.number,
        dealer=int(raw["dealer"]),
        dealt=dealt,
        bids=order,
        tricks=tricks,
        tricks_won=list(read.tricks_won),
        score_before=list(raw["score_before"]),
        bags_before=bags_before,
        hand_score=list(read.hand_score),
        score_after=list(read.score_after),
        bags_after=list(read.bags_after),
        results=read.results,
        claim=claim,
        passes=passes,
    )


def hand_frames(record: HandRecord) -> list[Frame]:
    """The frames of one hand, bidding first."""
    bids = [0, 0, 0, 0]
    for seat, bid in record.bids:
        bids[seat] = bid
    hands = record.held
    taken = [0, 0, 0, 0]
    last_winner: int | None = None

    def frame(trick: int, table: Play = (), winner: int | None = None, **more: Any) -> Frame:
        """A frame with the cards held, the tricks taken and the last winner so far."""
        return Frame(
            **{"taken": _quad(taken), **more},
            hand=record.hand,
            trick=trick,
            dealer=record.dealer,
            hands=_quad(hands),
            bids=_quad(bids),
            table=table,
            winner=winner,
            last_winner=last_winner,
            score=tuple(record.score_before),
            bags=tuple(record.bags_before),
        )

    frames = [frame(0)]
    for number, trick in enumerate(record.tricks, start=1):
        table = tuple(((trick.leader + i) & 3, card) for i, card in enumerate(trick.cards))
        for seat, card in table:
            hands[seat] &= ~(1 << card)
        taken[trick.winner] += 1
        frames.append(frame(number, table, trick.winner))
        last_winner = trick.winner
    if record.claim is not None:
        seat, _ = record.claim
        given = [won - had for won, had in zip(record.tricks_won, taken, strict=True)]
        claim = (seat, sum(given))
        frames.append(frame(len(record.tricks) + 1, taken=_quad(record.tricks_won), claim=claim))
    last = frames[-1]
    frames[-1] = replace(
        last, hand_score=tuple(record.hand_score), score_after=tuple(record.score_after)
    )
    return frames


def replay_of(game: FinishedGame) -> Replay:
    """The replay of a finished game. BadRecord if its records cannot be read."""
    records = tuple(hand_record(game.rules, raw) for raw in game.hand_records)
    frames: list[Frame] = []
    for record in records:
        frames.extend(hand_frames(record))
    if not frames:
        raise BadRecord(f"game {game.game_id} has no finished hand")
    return Replay(
        game_id=game.game_id,
        guild_id=game.guild_id,
        rules=game.rules,
        seats=game.seats,
        frames=tuple(frames),
        records=records,
    )


def _quad(values: Sequence[int]) -> tuple[int, int, int, int]:
    return (values[0], values[1], values[2], values[3])
