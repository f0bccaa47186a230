"""Whether a claim of the rest of the tricks holds on the real deal.

A computer opponent accepts a claim exactly when the claimer takes every
remaining trick whatever the opponents play, the claimer and its partner
(none in solo) choosing their cards to make it so. This is an exact AND/OR search over the
legal plays (one card of each run of equivalent cards, as in
:mod:`bot.ai.solver`), cut short as soon as a trick goes to another seat, and
shortened by a sure-win test at each of the claimer's leads: when every card
it holds is the highest left in its suit and no other seat can ruff once its
trumps are drawn, the rest is the claimer's.

A claim made on the hand's first lead keeps the table's first-lead rule
(``first_lead=lowclub``: the claimer must open with its lowest club). Like
the solver, it ignores revokes (only legal plays count).
"""

from __future__ import annotations

from bot.ai.solver import distinct_moves, others_held
from bot.game.cards import SUIT_MASKS, TRUMP, suit_of
from bot.game.rules import FirstLead, SpadesBreak
from bot.game.sides import side_of
from bot.game.state import Game
from bot.game.trick import breaks_spades, legal_mask, winning


def claim_holds(game: Game, claimer: int) -> bool:
    """Whether ``claimer`` takes every trick left in ``game``'s hand (the
    game in its play phase, real hands) against any legal play."""
    side = side_of(game.rules, claimer)
    ours = tuple(side_of(game.rules, seat) == side for seat in range(4))
    search = _ClaimSearch(claimer, game.rules.spades_break, ours)
    lowest_club = game.rules.first_lead is FirstLead.LOWEST_CLUB and not (game.tricks or game.trick)
    hands, trick = list(game.hands), list(game.trick)
    return search.holds(hands, trick, game.leader, game.spades_broken, lowest_club)


def sure_win(hands: list[int], claimer: int, broken: bool) -> bool:
    """The simple sufficient test, the claimer on lead: each of its cards is
    above every other seat's card of that suit, and it can draw the trumps of
    every other seat first (or nobody else has any)."""
    hand = hands[claimer]
    others = others_held(hands, claimer)
    for mask in SUIT_MASKS:
        mine, theirs = hand & mask, others & mask
        if mine and theirs and (mine & -mine).bit_length() < theirs.bit_length():
            return False
    trumps = SUIT_MASKS[TRUMP]
    if not others & trumps:
        return True
    if hand & ~trumps and not broken:
        return False  # it could not lead its trumps first
    mine = (hand & trumps).bit_count()
    return all((hands[seat] & trumps).bit_count() <= mine for seat in range(4) if seat != claimer)


class _ClaimSearch:
    def __init__(self, claimer: int, spades_break: SpadesBreak, ours: tuple[bool, ...]) -> None:
        self.claimer = claimer
        #: Per seat: whether it plays for the claim (the claimer and its partner).
        self.ours = ours
        self.spades_break = spades_break
        #: Positions at a trick's start already decided: (hands, broken) -> holds.
        self.known: dict[tuple[int, ...], bool] = {}
        self.nodes = 0

    def holds(
        self,
        hands: list[int],
        trick: list[int],
        leader: int,
        broken: bool,
        lowest_club: bool = False,
    ) -> bool:
        """``lowest_club``: this is the hand's first lead, which must be the
        leader's lowest club (the sure-win test knows no such rule)."""
        self.nodes += 1
        claimer = self.claimer
        key: tuple[int, ...] | None = None
        if not trick:
            if not hands[claimer]:
                return True
            if leader == claimer and not lowest_club and sure_win(hands, claimer, broken):
                return True
            key = (*hands, leader, broken)
            known = self.known.get(key)
            if known is not None:
                return known
        seat = (leader + len(trick)) & 3
        hand = hands[seat]
        in_play = others_held(hands, seat)
        for card in trick:
            in_play |= 1 << card
        moves = distinct_moves(legal_mask(hand, trick, broken, lowest_club), in_play)
        ours = self.ours[seat]
        result = not ours  # OR for the claimer's side, AND for the opponents
        for card in reversed(moves):
            hands[seat] = hand ^ (1 << card)
            trick.append(card)
            now_broken = broken or breaks_spades(card, suit_of(trick[0]), self.spades_break)
            if len(trick) == 4:
                winner = winning(trick, leader)[1]
                holds = winner == claimer and self.holds(hands, [], winner, now_broken)
            else:
                holds = self.holds(hands, trick, leader, now_broken)
            trick.pop()
            hands[seat] = hand
            if holds == ours:
                result = ours
                break
        if key is not None:
            self.known[key] = result
        return result
