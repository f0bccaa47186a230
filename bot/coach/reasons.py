"""Why a bid or a card is right, in a beginner's terms, from the seat's view only."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.ai.bidding import deck_trumps
from bot.ai.plan import plan_of
from bot.game.cards import (
    ABOVE,
    ACE,
    BELOW,
    CLUBS,
    DECK_MASKS,
    HAND_SIZE,
    KING,
    SIDE_SUITS,
    SPADE_MASK,
    SPADES,
    SUIT_MASKS,
    card_of,
    suit_of,
    suit_pattern,
)
from bot.game.rules import Bidding, Deck
from bot.game.scoring import BLIND_NIL
from bot.game.sides import deficit, opponents
from bot.game.trick import BEATERS, winning
from bot.game.types import Action, ActionKind
from bot.game.view import PlayerView


class Why(StrEnum):
    ONLY_CARD = "only_card"
    OWN_NIL_LEAD = "own_nil_lead"
    OWN_NIL_UNDER = "own_nil_under"
    OWN_NIL_DISCARD = "own_nil_discard"
    COVER_NIL = "cover_nil"
    COVER_NIL_LOW = "cover_nil_low"  # the partner is safe already: keep the high cards
    NIL_LEAD_LOW = "nil_lead_low"
    NIL_STAY_UNDER = "nil_stay_under"
    DUCK_MADE = "duck_made"
    LEAD_LOWEST_CLUB = "lead_lowest_club"
    CASH_WINNER = "cash_winner"
    LEAD_SIDE = "lead_side"
    LEAD_SPADE = "lead_spade"
    LEAD_LOW = "lead_low"
    LEAD = "lead"
    PARTNER_WINNING = "partner_winning"
    TRUMP = "trump"
    WIN_TRICK = "win_trick"
    CANNOT_WIN = "cannot_win"
    DISCARD = "discard"
    BID_COUNT = "bid_count"
    #: A bid well below the count for the partner's: ``seat`` the partner, ``claimed`` its bid.
    BID_UNDER_PARTNER = "bid_under_partner"
    #: A bid well below the count for the others' bids: ``claimed`` what they bid together.
    BID_UNDER_TABLE = "bid_under_table"
    #: Mirror and Whiz: a number bid is the hand's spades.
    BID_SPADES = "bid_spades"
    BID_NIL = "bid_nil"
    BID_BLIND_NIL = "bid_blind_nil"
    LOOK_FIRST = "look_first"
    #: The Nil pass (``cards`` the mask passed): the Nil bidder's high spades,
    #: its other high cards, and the partner's low cards.
    PASS_NIL_SPADES = "pass_nil_spades"
    PASS_NIL_HIGH = "pass_nil_high"
    PASS_COVER = "pass_cover"


class Count(StrEnum):
    """One source of tricks in a bid's count."""

    ACE = "ace"  # card: a side-suit ace
    KING = "king"  # card: a side-suit king with a guard
    #: card: the top trump, or the second or third with ``number`` guards
    TOP_SPADE = "top_spade"
    LONG_SPADES = "long_spades"  # number: spades beyond the third
    VOID = "void"  # suit: no card of it, spades to trump
    SINGLETON = "singleton"  # suit: one card of it, spades to trump


@dataclass(frozen=True, slots=True)
class CountItem:
    kind: Count
    card: int | None = None
    suit: int | None = None
    number: int = 0


@dataclass(frozen=True, slots=True)
class Reason:
    """The idea behind an action, with the card, seat, count or bid sources it refers to."""

    why: Why
    card: int | None = None
    other: int | None = None
    seat: int | None = None
    number: int = 0
    items: tuple[CountItem, ...] = ()
    claimed: int = 0
    #: The seat plays for itself (teams=solo): where a reason speaks of the
    #: team, it speaks of the player alone.
    solo: bool = False
    cards: int = 0  # a mask of cards (the Nil pass)


def reason_for(view: PlayerView, action: Action) -> Reason:
    if action.kind is ActionKind.LOOK:
        return Reason(Why.LOOK_FIRST, solo=view.partner is None)
    if action.kind is ActionKind.BID:
        return _bid_reason(view, action.value)
    if action.kind is ActionKind.PASS:
        return _pass_reason(view, action.value)
    return _card_reason(view, action.value)


def _pass_reason(view: PlayerView, cards: int) -> Reason:
    """The Nil bidder gives away what could be forced to win, spades first
    (nothing can beat the high ones); its partner gives low cards to duck with."""
    bid = view.bids[view.seat]
    if bid is None or bid > 0:
        return Reason(Why.PASS_COVER, seat=view.partner, cards=cards)
    why = Why.PASS_NIL_SPADES if cards & SPADE_MASK else Why.PASS_NIL_HIGH
    return Reason(why, cards=cards)


# -- bidding --------------------------------------------------------------------


def sure_tricks(hand: int, deck: str = Deck.STANDARD) -> tuple[CountItem, ...]:
    """The tricks a beginner counts: side aces, guarded kings, top trumps, long spades, voids."""
    items: list[CountItem] = []
    n_spades = (hand & SPADE_MASK).bit_count()
    for suit in SIDE_SUITS:
        ranks = suit_pattern(hand, suit)
        if ranks >> ACE & 1:
            items.append(CountItem(Count.ACE, card=card_of(suit, ACE)))
        if ranks >> KING & 1 and ranks.bit_count() >= 2:
            items.append(CountItem(Count.KING, card=card_of(suit, KING)))
    top = 0
    for guards, card in enumerate(deck_trumps(deck)[:3]):
        if hand >> card & 1 and n_spades - 1 >= guards:
            items.append(CountItem(Count.TOP_SPADE, card=card, number=guards))
            top += 1
    if n_spades > 3:
        items.append(CountItem(Count.LONG_SPADES, number=n_spades - 3))
    spare = min(n_spades, 3) - top
    for suit in SIDE_SUITS:
        if spare <= 0:
            break
        n = suit_pattern(hand, suit).bit_count()
        if n <= 1:
            items.append(CountItem(Count.VOID if n == 0 else Count.SINGLETON, suit=suit))
            spare -= 1
    return tuple(items)


def count_of(items: tuple[CountItem, ...]) -> int:
    return sum(item.number if item.kind is Count.LONG_SPADES else 1 for item in items)


def _bid_reason(view: PlayerView, bid: int) -> Reason:
    if bid == BLIND_NIL:
        # How far the side trails the best other (a team, or in solo a player).
        number = deficit(view.scores, view.team)
        return Reason(Why.BID_BLIND_NIL, number=number, solo=view.partner is None)
    if bid <= 0:
        spades = view.hand & SUIT_MASKS[SPADES]
        highest = spades.bit_length() - 1 if spades else None
        return Reason(Why.BID_NIL, other=highest)
    if view.rules.bidding in (Bidding.MIRROR, Bidding.WHIZ):
        return Reason(Why.BID_SPADES, number=bid)
    items = sure_tricks(view.hand, view.rules.deck)
    if count_of(items) - bid > LITTLE_LOW:
        return _far_below_reason(view, bid, items)
    return Reason(Why.BID_COUNT, number=bid, items=items)


#: Tricks a bid may fall below its count and still be "a little low".
LITTLE_LOW = 1


def _far_below_reason(view: PlayerView, bid: int, items: tuple[CountItem, ...]) -> Reason:
    """A bid well below the count: to keep the side within the tricks, or as others bid most."""
    partner_bid = None if view.partner is None else view.bids[view.partner]
    partner = partner_bid if partner_bid is not None and partner_bid > 0 else 0
    others = sum(b for s, b in enumerate(view.bids) if s != view.seat and b is not None and b > 0)
    if partner and (partner + count_of(items) > HAND_SIZE or others == partner):
        return Reason(
            Why.BID_UNDER_PARTNER, seat=view.partner, number=bid, items=items, claimed=partner
        )
    return Reason(Why.BID_UNDER_TABLE, number=bid, items=items, claimed=others)


# -- card play ------------------------------------------------------------------


def _is_nil(view: PlayerView, seat: int) -> bool:
    bid = view.bids[seat]
    return bid is not None and bid <= 0 and view.tricks_won[seat] == 0


def _unseen(view: PlayerView) -> int:
    return DECK_MASKS[view.rules.deck] & ~view.played_mask & ~view.hand


def _card_reason(view: PlayerView, card: int) -> Reason:
    legal = view.legal_cards
    if not legal & (legal - 1):
        return Reason(Why.ONLY_CARD, card)
    trick = view.trick
    seat, partner = view.seat, view.partner
    led_suit = suit_of(trick[0]) if trick else None
    best, best_seat = winning(trick, view.leader) if trick else (None, None)
    wins_now = best is None or bool(BEATERS[best] >> card & 1)
    follows = led_suit is not None and suit_of(card) == led_suit
    played = {(view.leader + i) & 3 for i in range(len(trick))}
    if _is_nil(view, seat):
        if not trick:
            return Reason(Why.OWN_NIL_LEAD, card)
        if not follows:
            return Reason(Why.OWN_NIL_DISCARD, card, best)
        if not wins_now:
            return Reason(Why.OWN_NIL_UNDER, card, best)
    if partner is not None and _is_nil(view, partner):
        if partner in played and best_seat != partner:
            return Reason(Why.COVER_NIL_LOW, card, seat=partner)
        if wins_now:
            return Reason(Why.COVER_NIL, card, seat=partner)
    for opponent in opponents(view.rules, seat):
        if not _is_nil(view, opponent):
            continue
        if not trick and _lowest_of_suit(view, card) and _unseen(view) & ABOVE[card]:
            return Reason(Why.NIL_LEAD_LOW, card, seat=opponent)
        if trick and (opponent not in played or best_seat == opponent) and not wins_now:
            return Reason(Why.NIL_STAY_UNDER, card, best, seat=opponent)
    plan = plan_of(view.rules, view.bids, view.bags)
    contract, need = plan.contract[view.team], plan.need(view.team, view.tricks_won)
    takes = wins_now and (len(trick) == 3 or _sure_to_win(view, card))
    if contract and not need and not takes:
        return Reason(Why.DUCK_MADE, card, number=contract, solo=partner is None)
    if not trick:
        return _lead_reason(view, card)
    assert best is not None
    if best_seat == partner and not wins_now:
        return Reason(Why.PARTNER_WINNING, card, best)
    if wins_now:
        if suit_of(card) == SPADES and led_suit != SPADES:
            return Reason(Why.TRUMP, card, best, number=need)
        return Reason(Why.WIN_TRICK, card, best, number=need, solo=partner is None)
    if follows:
        return Reason(Why.CANNOT_WIN, card, best, number=int(_lowest_of_suit(view, card)))
    return Reason(Why.DISCARD, card, best)


def _lowest_of_suit(view: PlayerView, card: int) -> bool:
    return not view.hand & BELOW[card]


def _sure_to_win(view: PlayerView, card: int) -> bool:
    """No unseen card of the suit is higher (trumps aside)."""
    return not _unseen(view) & ABOVE[card]


def _lead_reason(view: PlayerView, card: int) -> Reason:
    suit = suit_of(card)
    if _sure_to_win(view, card) and (suit == SPADES or _unseen(view) & SUIT_MASKS[suit]):
        return Reason(Why.CASH_WINNER, card)
    if not view.spades_broken and suit == CLUBS and _lowest_of_suit(view, card):
        return Reason(Why.LEAD_LOWEST_CLUB, card)
    if not view.spades_broken and suit != SPADES:
        return Reason(Why.LEAD_SIDE, card)
    if suit == SPADES:
        return Reason(Why.LEAD_SPADE, card)
    if _lowest_of_suit(view, card):
        return Reason(Why.LEAD_LOW, card)
    return Reason(Why.LEAD, card)
