"""Card play of the heuristic player, on bit masks.

One function, :func:`choose_card`, serves two callers:

* the heuristic player, which passes what its view allows: ``possible[s]``
  is every unseen card seat ``s`` is not known to lack;
* the search player's rollouts (:func:`roll_out`), which pass the exact
  hands of a sampled deal and play it to its last trick on the engine's
  bitmask play-out (:mod:`bot.game.playout`), well under a millisecond a hand.

So the same rules play both, and the hot loop of the rollouts stays free of
objects. The rules, in order: a Nil bidder ducks; a Nil bidder's partner
covers with high cards; a side facing an opponent's Nil leads low and ducks
under it; otherwise a side short of its contract (or able to set the other
side for more than the bags cost) tries to win the trick cheaply, and a side
whose contract is made sheds high cards and stays under, unless it has taken
every trick so far at a table that pays a Boston for all 13. In solo
(``teams=solo``) a seat has no partner: every other seat is against it.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.ai.plan import HandPlan, can_chase_nil, worth_boston, worth_setting
from bot.game.cards import (
    ABOVE,
    BELOW,
    NON_SPADE_MASK,
    QUEEN,
    SIDE_SUITS,
    SPADE_MASK,
    SPADES,
    SUIT_MASKS,
    highest_card,
    is_trump,
    lowest_card,
    rank_of,
    suit_of,
)
from bot.game.playout import CardPolicy, Position, play_out
from bot.game.trick import BEATERS, winning


def may_beat(card: int, led_mask: int, seats: Sequence[int], possible: Sequence[int]) -> bool:
    """Whether any of ``seats`` (still to play) may beat ``card`` in a trick
    of the suit ``led_mask``: with a higher card of that suit, or with a
    spade when it is out of the suit."""
    for seat in seats:
        held = possible[seat]
        if held & led_mask:
            if held & ABOVE[card] & led_mask:
                return True
        elif held & BEATERS[card] & SPADE_MASK:
            return True
    return False


def choose_card(
    plan: HandPlan,
    seat: int,
    legal: int,
    trick: Sequence[int],
    leader: int,
    possible: Sequence[int],
    won: Sequence[int],
    tricks_left: int,
) -> int:
    """The card ``seat`` plays from ``legal`` (never empty).

    ``possible[s]`` is what seat ``s`` may hold (``possible[seat]`` is the
    seat's own hand); ``won`` the tricks each seat has taken; ``tricks_left``
    counts the trick in progress.
    """
    if not legal & (legal - 1):
        return lowest_card(legal)
    if plan.nil[seat] and won[seat] == 0:
        return _nil_card(seat, legal, trick, leader, possible)
    team = plan.side[seat]
    partner = plan.partner[seat]
    rivals = plan.rivals[seat]
    need = plan.need(team, won)
    want = (
        need > 0
        or worth_setting(plan, team, won, tricks_left)
        or worth_boston(plan, seat, won, tricks_left)
    )
    if partner >= 0 and plan.nil[partner] and won[partner] == 0:
        card = _cover_card(seat, partner, legal, trick, leader, possible)
        if card is not None:
            return card
    if can_chase_nil(need, tricks_left):
        for nil_seat in rivals:
            if plan.nil[nil_seat] and won[nil_seat] == 0:
                card = _break_card(seat, nil_seat, want, legal, trick, leader, possible)
                if card is not None:
                    return card
                break
    if want:
        if not trick:
            return _lead_to_win(seat, partner, rivals, legal, possible, need >= tricks_left)
        return _follow_to_win(
            seat, partner, rivals, legal, trick, leader, possible, need >= tricks_left
        )
    if not trick:
        return _lead_to_lose(seat, legal, possible)
    return _follow_to_lose(seat, rivals, legal, trick, leader, possible)


def heuristic_policy(plan: HandPlan) -> CardPolicy:
    """:func:`choose_card` for a deal whose hands are all known."""

    def policy(position: Position, seat: int, legal: int) -> int:
        return choose_card(
            plan,
            seat,
            legal,
            position.trick,
            position.leader,
            position.hands,
            position.tricks_won,
            position.tricks_left,
        )

    return policy


def roll_out(position: Position, plan: HandPlan) -> list[int]:
    """The tricks each seat takes when ``position`` (left unchanged) is
    played to the end of the hand with :func:`choose_card`."""
    return play_out(position, heuristic_policy(plan))


def _others(seat: int, possible: Sequence[int]) -> int:
    return possible[seat ^ 1] | possible[seat ^ 2] | possible[seat ^ 3]


def _later_seats(seat: int, trick: Sequence[int], leader: int) -> list[int]:
    return [(leader + k) & 3 for k in range(len(trick) + 1, 4)]


def _is_top(card: int, others: int) -> bool:
    return not others & ABOVE[card]


def _highest_rank_card(mask: int) -> int:
    """The card of highest rank in ``mask`` (of the shortest suit on ties)."""
    best = -1
    best_key = (-1, 0)
    for suit in range(4):
        cards = mask & SUIT_MASKS[suit]
        if cards:
            card = highest_card(cards)
            key = (rank_of(card), -cards.bit_count())
            if key > best_key:
                best, best_key = card, key
    return best


def _lowest_rank_card(mask: int, avoid: int = 0) -> int:
    """The card of lowest rank in ``mask``, preferring cards not in ``avoid``
    and, on ties, the shortest suit."""
    best = -1
    best_key = (2, 99, 99)
    for suit in range(4):
        cards = mask & SUIT_MASKS[suit]
        if cards:
            card = lowest_card(cards)
            key = (1 if avoid >> card & 1 else 0, rank_of(card), cards.bit_count())
            if key < best_key:
                best, best_key = card, key
    return best


# -- a side that wants the trick ----------------------------------------------


def _lead_to_win(
    seat: int,
    partner: int,
    opponents: Sequence[int],
    legal: int,
    possible: Sequence[int],
    urgent: bool,
) -> int:
    others = _others(seat, possible)
    partner_held = possible[partner] if partner >= 0 else 0
    # Cash a sure winner of a side suit that no opponent can trump.
    best_top = -1
    best_out = -1
    for suit in SIDE_SUITS:
        cards = legal & SUIT_MASKS[suit]
        if not cards:
            continue
        top = highest_card(cards)
        if not _is_top(top, others):
            continue
        if any(not possible[o] & SUIT_MASKS[suit] and possible[o] & SPADE_MASK for o in opponents):
            continue
        out = (others & SUIT_MASKS[suit]).bit_count()
        if out > best_out:
            best_top, best_out = top, out
    if best_top >= 0:
        return best_top
    spades = legal & SPADE_MASK
    if spades:
        top = highest_card(spades)
        if _is_top(top, others) and (spades.bit_count() >= 2 or urgent):
            return top
    # Lead a suit the partner is out of, when the partner may trump it and the
    # opponents must follow.
    if partner_held & SPADE_MASK:
        for suit in SIDE_SUITS:
            cards = legal & SUIT_MASKS[suit]
            if (
                cards
                and not partner_held & SUIT_MASKS[suit]
                and all(possible[o] & SUIT_MASKS[suit] for o in opponents)
            ):
                return lowest_card(cards)
    side = legal & NON_SPADE_MASK
    if not side:
        return lowest_card(legal)
    hand = possible[seat]
    if hand & SPADE_MASK:
        # Lead from the shortest side suit, to be able to trump it later,
        # but not away from a lone honour.
        best = -1
        best_len = 99
        for suit in SIDE_SUITS:
            cards = side & SUIT_MASKS[suit]
            n = cards.bit_count()
            if n and n < best_len and not (n <= 2 and rank_of(highest_card(cards)) >= QUEEN):
                best, best_len = lowest_card(cards), n
        if best >= 0:
            return best
    longest = max(SIDE_SUITS, key=lambda s: (side & SUIT_MASKS[s]).bit_count())
    return lowest_card(side & SUIT_MASKS[longest])


def _follow_to_win(
    seat: int,
    partner: int,
    rivals: Sequence[int],
    legal: int,
    trick: Sequence[int],
    leader: int,
    possible: Sequence[int],
    urgent: bool,
) -> int:
    best, best_seat = winning(trick, leader)
    led_mask = SUIT_MASKS[suit_of(trick[0])]
    later_opponents = [s for s in _later_seats(seat, trick, leader) if s in rivals]
    beaters = legal & BEATERS[best]
    if best_seat == partner:
        if not may_beat(best, led_mask, later_opponents, possible):
            return _cheap_card(seat, legal, led_mask, possible)
        safe = _lowest_safe(beaters, led_mask, later_opponents, possible)
        if safe >= 0:
            return safe
        over_partner = beaters & led_mask
        if over_partner and len(trick) == 2:
            # Third hand high: the partner's card can be beaten, so make the
            # last opponent pay with its top card rather than let it win cheaply.
            return highest_card(over_partner)
        return _cheap_card(seat, legal, led_mask, possible)
    if beaters:
        if not later_opponents:
            return lowest_card(beaters)
        safe = _lowest_safe(beaters, led_mask, later_opponents, possible)
        if safe >= 0:
            return safe
        in_suit = beaters & led_mask
        if len(trick) == 2:
            # Third hand: make the last opponent pay with its top card.
            return highest_card(in_suit) if in_suit else lowest_card(beaters)
        if urgent:
            return lowest_card(beaters)
    return _cheap_card(seat, legal, led_mask, possible)


def _lowest_safe(cards: int, led_mask: int, seats: Sequence[int], possible: Sequence[int]) -> int:
    while cards:
        card = lowest_card(cards)
        if not may_beat(card, led_mask, seats, possible):
            return card
        cards &= cards - 1
    return -1


def _cheap_card(seat: int, legal: int, led_mask: int, possible: Sequence[int]) -> int:
    """The least useful card: the lowest of the suit led, else a low discard
    that is not a sure winner, keeping spades."""
    follow = legal & led_mask
    if follow:
        return lowest_card(follow)
    side = legal & NON_SPADE_MASK
    if not side:
        return lowest_card(legal)
    others = _others(seat, possible)
    winners = 0
    for suit in SIDE_SUITS:
        cards = side & SUIT_MASKS[suit]
        if cards:
            top = highest_card(cards)
            if _is_top(top, others):
                winners |= 1 << top
    return _lowest_rank_card(side, winners)


# -- a side that does not want the trick --------------------------------------


def _lead_to_lose(seat: int, legal: int, possible: Sequence[int]) -> int:
    """Lead the card most likely to be beaten."""
    others = _others(seat, possible)
    best = -1
    best_key = (-99, 0)
    for suit in range(4):
        cards = legal & SUIT_MASKS[suit]
        if cards:
            card = lowest_card(cards)
            key = ((others & ABOVE[card]).bit_count(), -rank_of(card))
            if suit == SPADES:
                key = (key[0] - 2, key[1])
            if key > best_key:
                best, best_key = card, key
    return best


def _follow_to_lose(
    seat: int,
    rivals: Sequence[int],
    legal: int,
    trick: Sequence[int],
    leader: int,
    possible: Sequence[int],
) -> int:
    best, _ = winning(trick, leader)
    led = suit_of(trick[0])
    led_mask = SUIT_MASKS[led]
    follow = legal & led_mask
    later_opponents = [s for s in _later_seats(seat, trick, leader) if s in rivals]
    if follow:
        if suit_of(best) != led:
            return highest_card(follow)  # trumped: nothing of the suit can win
        under = follow & BELOW[best]
        if under:
            return highest_card(under)
        low = lowest_card(follow)
        if later_opponents and may_beat(low, led_mask, later_opponents, possible):
            return low
        return highest_card(follow)  # the trick is ours anyway: shed the top card
    return _shed_card(legal, best)


def _shed_card(legal: int, best: int) -> int:
    """Out of the suit led: throw the most dangerous card that does not win."""
    if is_trump(best):
        under = legal & SPADE_MASK & BELOW[best]
        if under:
            return highest_card(under)
    side = legal & NON_SPADE_MASK
    if side:
        return _highest_rank_card(side)
    return lowest_card(legal)


# -- Nil ------------------------------------------------------------------


def _nil_card(
    seat: int, legal: int, trick: Sequence[int], leader: int, possible: Sequence[int]
) -> int:
    if not trick:
        return _lead_to_lose(seat, legal, possible)
    best, _ = winning(trick, leader)
    led = suit_of(trick[0])
    follow = legal & SUIT_MASKS[led]
    if follow:
        if suit_of(best) != led:
            return highest_card(follow)
        under = follow & BELOW[best]
        if under:
            return highest_card(under)
        if len(trick) < 3:
            return lowest_card(follow)
        return highest_card(follow)
    return _shed_card(legal, best)


def _cover_card(
    seat: int, partner: int, legal: int, trick: Sequence[int], leader: int, possible: Sequence[int]
) -> int | None:
    """Protect the partner's Nil; None when this trick does not endanger it."""
    others = _others(seat, possible)
    if not trick:
        side = legal & NON_SPADE_MASK
        partner_side = possible[partner] & NON_SPADE_MASK
        # Best, a suit the partner is out of while it holds other side cards:
        # it discards, shedding a danger, and no sure winner is spent.
        for suit in SIDE_SUITS:
            cards = side & SUIT_MASKS[suit]
            if cards and not partner_side & SUIT_MASKS[suit] and partner_side:
                return lowest_card(cards)
        for suit in range(4):
            cards = legal & SUIT_MASKS[suit]
            if cards and _is_top(highest_card(cards), others):
                return highest_card(cards)
        return _highest_rank_card(side or legal)
    best, best_seat = winning(trick, leader)
    led = suit_of(trick[0])
    follow = legal & SUIT_MASKS[led]
    beaters = legal & BEATERS[best]
    partner_played = (partner - leader) & 3 < len(trick)
    if partner_played:
        if best_seat == partner and beaters:
            return lowest_card(beaters)
        return None
    if _partner_safe(possible[partner], best, led):
        return None  # keep the winners for the tricks where the partner is not
    if follow:
        if suit_of(best) == led and follow & beaters:
            return highest_card(follow)
        return lowest_card(follow)
    if beaters & SPADE_MASK:
        return lowest_card(beaters & SPADE_MASK)
    return None


def _partner_safe(partner_held: int, best: int, led: int) -> bool:
    """Whether a Nil partner still to play this trick can surely stay under
    ``best``: every card of the suit led it may hold is lower, or it is out
    of the suit and may discard a side card rather than trump."""
    led_cards = partner_held & SUIT_MASKS[led]
    if led_cards:
        return suit_of(best) != led or not led_cards & ABOVE[best]
    if led == SPADES or partner_held & NON_SPADE_MASK:
        return True  # out of the suit led, it discards a side card
    return not partner_held & BEATERS[best]


def _break_card(
    seat: int,
    nil_seat: int,
    want: bool,
    legal: int,
    trick: Sequence[int],
    leader: int,
    possible: Sequence[int],
) -> int | None:
    """Try to make an opponent's Nil take a trick; None when this trick gives
    no chance to."""
    nil_held = possible[nil_seat]
    if not trick:
        best = -1
        best_key = (99, 0)
        for suit in range(4):
            cards = legal & SUIT_MASKS[suit]
            if cards and nil_held & SUIT_MASKS[suit]:
                card = lowest_card(cards)
                key = (rank_of(card), -(nil_held & ABOVE[card]).bit_count())
                if key < best_key:
                    best, best_key = card, key
        return best if best >= 0 else None
    best, best_seat = winning(trick, leader)
    led_mask = SUIT_MASKS[suit_of(trick[0])]
    nil_played = (nil_seat - leader) & 3 < len(trick)
    if nil_played:
        if best_seat != nil_seat:
            return None
        duck = legal & ~BEATERS[best]
        if not duck:
            return None
        return lowest_card(duck) if want else _highest_rank_card(duck)
    if suit_of(best) != suit_of(trick[0]) or not nil_held & led_mask & ABOVE[best]:
        return None  # the Nil can already play under the winning card
    follow = legal & led_mask
    if follow:
        # Keep the winning card as low as possible for the Nil to face.
        under = follow & BELOW[best]
        return _highest_rank_card(under) if under else lowest_card(follow)
    side = legal & NON_SPADE_MASK
    if not side:
        return None
    if want:
        return _cheap_card(seat, legal, led_mask, possible)
    return _highest_rank_card(side)
