"""What can be observed of a game's state, as plain values: two games that
played the same compare equal, whatever their private fields hold (a copy,
a replay, a refused action that must change nothing)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.game.state import Game


def observable(game: Game) -> dict[str, Any]:
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
