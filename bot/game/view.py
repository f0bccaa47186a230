"""What one seat may know, and nothing else.

Computer players and the Discord layer's private hand messages are built from
a :class:`PlayerView` only: the seat's own cards, everything played in public
(bids, tricks, scores) and the legal actions of the seat. Other seats' cards
are not in it, so no code holding a view can leak or use them.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.game.bidding import forced_bid
from bot.game.rules import RuleSet
from bot.game.sides import partner_of, side_of
from bot.game.state import Game
from bot.game.trick import Trick
from bot.game.types import GameResult, Phase


@dataclass(frozen=True, slots=True)
class PlayerView:
    seat: int
    rules: RuleSet
    phase: Phase
    hand_number: int
    dealer: int
    hand: int  # mask of the seat's own unplayed cards
    looked: bool  # whether the seat has looked at its cards (Blind Nil)
    bids: tuple[int | None, ...]  # per seat, None until made
    bid_order: tuple[tuple[int, int], ...]
    to_act: int | None  # the seat being waited on, if any
    leader: int
    trick: tuple[int, ...]  # the trick in progress, in play order from ``leader``
    tricks: tuple[Trick, ...]  # this hand's finished tricks
    tricks_won: tuple[int, ...]
    spades_broken: bool
    scores: tuple[int, ...]  # per side (bot.game.sides): two teams, or four in solo
    bags: tuple[int, ...]
    legal_bids: tuple[int, ...]
    legal_cards: int  # mask of the cards playable without revoking
    playable_cards: int  # mask of the cards the engine accepts (revokes included)
    result: GameResult | None
    #: The seat claiming the rest of the tricks while the opponents answer, else -1.
    rest_claimer: int = -1
    #: The Nil pass (bot.game.passing): how many cards the seat passes this
    #: hand (0: none), the cards it chose (0 until chosen) and the cards its
    #: partner gave it (0 until the exchange is made); and, public, the seats
    #: still choosing.
    pass_count: int = 0
    passed: int = 0
    received: int = 0
    choosing: tuple[int, ...] = ()

    @property
    def my_turn(self) -> bool:
        return self.to_act == self.seat

    @property
    def forced_bid(self) -> int | None:
        """The bid the seat must make now when the rules leave no choice (Mirror)."""
        return forced_bid(self.legal_bids)

    @property
    def team(self) -> int:
        """The seat's side: its team, or in solo the seat itself."""
        return side_of(self.rules, self.seat)

    @property
    def partner(self) -> int | None:
        """The seat's partner; None in solo."""
        return partner_of(self.rules, self.seat)

    @property
    def played_mask(self) -> int:
        """Every card already played in this hand, the trick in progress included."""
        mask = 0
        for trick in self.tricks:
            for card in trick.cards:
                mask |= 1 << card
        for card in self.trick:
            mask |= 1 << card
        return mask


def view_of(game: Game, seat: int) -> PlayerView:
    """Build the view of ``seat``: its own hand and the public state only."""
    # Before a seat looks, Blind Nil players must not see their cards: the
    # hand is withheld until they look or bid.
    show_hand = game.looked[seat] or game.bids[seat] is not None or not game.rules.blind_nil
    exchange = game.exchange
    return PlayerView(
        seat=seat,
        rules=game.rules,
        phase=game.phase,
        hand_number=game.hand_number,
        dealer=game.dealer,
        hand=game.hands[seat] if show_hand else 0,
        looked=game.looked[seat],
        bids=tuple(game.bids),
        bid_order=tuple(game.bid_order),
        to_act=game.waited_on(),
        leader=game.leader,
        trick=tuple(game.trick),
        tricks=tuple(game.tricks),
        tricks_won=tuple(game.tricks_won),
        spades_broken=game.spades_broken,
        scores=tuple(game.scores),
        bags=tuple(game.bags),
        legal_bids=tuple(game.legal_bids(seat)),
        legal_cards=game.legal_play_mask(seat),
        playable_cards=game.playable_mask(seat),
        result=game.result,
        rest_claimer=game.rest.claimer,
        pass_count=exchange.counts[seat],
        passed=exchange.chosen[seat],
        received=exchange.received(seat),
        choosing=exchange.choosing(),
    )


__all__ = ["Phase", "PlayerView", "view_of"]
