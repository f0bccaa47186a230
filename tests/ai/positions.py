"""Building exact positions for the computer-player tests."""

from __future__ import annotations

from collections.abc import Sequence

from bot.game.cards import DECK_MASK, cards_of, mask_of, parse_card, parse_cards
from bot.game.rules import RuleSet, preset
from bot.game.state import Game

STANDARD = preset("standard")


def deal(fixed: dict[int, str]) -> list[int]:
    """Four hands: the given cards for some seats, the rest of the deck dealt
    in order to fill every hand to 13."""
    hands = [mask_of(parse_cards(fixed.get(seat, ""))) for seat in range(4)]
    used = 0
    for hand in hands:
        assert not used & hand, "a card is given to two seats"
        used |= hand
    seat = 0
    for card in cards_of(DECK_MASK & ~used):
        while hands[seat].bit_count() >= 13:
            seat = (seat + 1) % 4
        hands[seat] |= 1 << card
        seat = (seat + 1) % 4
    assert all(h.bit_count() == 13 for h in hands), [h.bit_count() for h in hands]
    return hands


def position(
    hands: dict[int, str] | list[int],
    bids: Sequence[int] = (),
    plays: str = "",
    rules: RuleSet = STANDARD,
    scores: tuple[int, int] = (0, 0),
    bags: tuple[int, int] = (0, 0),
    revokes: bool = False,
) -> Game:
    """A game of hand 1 (seat 0 deals, seat 1 bids and leads first) after the
    bids (in bidding order) and the card plays (in play order); the plays
    may revoke only when ``revokes`` says so."""
    dealt = deal(hands) if isinstance(hands, dict) else list(hands)
    game = Game.new(rules, 1, fixed_deals=[dealt])
    game.scores = list(scores)
    game.bags = list(bags)
    for bid in bids:
        game.bid(game.to_act, bid)
    for name in plays.split():
        game.play(game.to_act, parse_card(name))
    assert revokes or not game.revokes, "the scripted plays revoke"
    return game
