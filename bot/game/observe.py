"""What can be observed of a game's state, as plain values: two games that
played the same compare equal, whatever their private fields hold (a copy,
a replay, a refused action that must change nothing)."""

from __future__ import annotations

from typing import Any, Protocol

from bot.game.passing import Exchange
from bot.game.record import HandRecord
from bot.game.rest_claim import RestClaim
from bot.game.trick import Trick
from bot.game.types import GameResult, Phase


class Observed(Protocol):
    """The public fields of a game's state (:class:`bot.game.state.Game`)."""

    phase: Phase
    hand_number: int
    dealer: int
    dealt: list[int]
    hands: list[int]
    looked: list[bool]
    bids: list[int | None]
    bid_order: list[tuple[int, int]]
    to_act: int
    leader: int
    trick: list[int]
    tricks: list[Trick]
    tricks_won: list[int]
    spades_broken: bool
    revokes: list[tuple[int, int]]
    scores: list[int]
    bags: list[int]
    hand_records: list[HandRecord]
    waiting_since: float
    result: GameResult | None
    rest: RestClaim
    exchange: Exchange

    @property
    def action_count(self) -> int: ...


def observable(game: Observed) -> dict[str, Any]:
    """Everything observable about ``game``, for comparing two games; the
    Nil passes say who is still choosing, never which cards."""
    return {
        "phase": game.phase.value,
        "hand_number": game.hand_number,
        "dealer": game.dealer,
        "dealt": list(game.dealt),
        "hands": list(game.hands),
        "looked": list(game.looked),
        "bids": list(game.bids),
        "bid_order": list(game.bid_order),
        "to_act": game.to_act,
        "leader": game.leader,
        "trick": list(game.trick),
        "tricks": [(t.leader, t.cards, t.winner) for t in game.tricks],
        "tricks_won": list(game.tricks_won),
        "spades_broken": game.spades_broken,
        "revokes": list(game.revokes),
        "scores": list(game.scores),
        "bags": list(game.bags),
        "hands_played": len(game.hand_records),
        "waiting_since": game.waiting_since,
        "result": game.result.to_json() if game.result else None,
        "rest": [game.rest.claimer, game.rest.accepted, game.rest.shown],
        "choosing": list(game.exchange.choosing()),  # (never which cards)
        "actions": game.action_count,
    }
