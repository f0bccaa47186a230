"""Building exact positions for engine tests: deals written as text, scripted hands."""

from __future__ import annotations

import random

from bot.game import refusals
from bot.game.cards import SUIT_MASKS, cards_of, parse_cards
from bot.game.checks import check_timeout_claim
from bot.game.playout import random_card
from bot.game.rules import RuleSet, preset
from bot.game.state import Game
from bot.game.types import Action, ActionKind, Phase


def mask(text: str) -> int:
    """The mask of cards written like ``"AS KS 2C"``."""
    result = 0
    for card in parse_cards(text):
        result |= 1 << card
    return result


def make_deal(seats: dict[int, str]) -> list[int]:
    """Four hands: the cards written for each seat, then the remaining cards
    handed out in card order to the seats still short of 13."""
    hands = [mask(seats.get(seat, "")) for seat in range(4)]
    taken = 0
    for hand in hands:
        assert not hand & taken, "a card is written for two seats"
        assert hand.bit_count() <= 13
        taken |= hand
    rest = [c for c in range(52) if not taken >> c & 1]
    for seat in range(4):
        while hands[seat].bit_count() < 13:
            hands[seat] |= 1 << rest.pop(0)
    return hands


def all_spades_deal(holder: int) -> list[int]:
    """``holder`` gets all 13 spades and the three other seats one full suit
    each: whatever anyone plays, ``holder`` takes all 13 tricks."""
    others = [seat for seat in range(4) if seat != holder]
    hands = [0, 0, 0, 0]
    hands[holder] = SUIT_MASKS[3]
    for suit, seat in enumerate(others):
        hands[seat] = SUIT_MASKS[suit]
    return hands


# A deal for refusal and revoke tests (dealer seat 0, so seat 1 bids and leads first):
# seat 0: seven top spades and six low hearts; seat 1: seven low clubs and six
# low spades; seat 2: six high clubs and seven high hearts; seat 3: all diamonds.
MIXED_DEAL = make_deal(
    {
        0: "AS KS QS JS TS 9S 8S 2H 3H 4H 5H 6H 7H",
        1: "2C 3C 4C 5C 6C 7C 8C 2S 3S 4S 5S 6S 7S",
        2: "9C TC JC QC KC AC 8H 9H TH JH QH KH AH",
        3: "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    }
)


def new_game(
    rules: RuleSet | str = "standard",
    deals: list[list[int]] | None = None,
    seed: int = 1,
    started_at: float = 0.0,
) -> Game:
    if isinstance(rules, str):
        rules = preset(rules)
    return Game.new(rules, seed, started_at=started_at, fixed_deals=deals)


def bid_round(game: Game, bids: dict[int, int], at: float = 0.0) -> None:
    """The seats still to bid bid their entry of ``bids``, in the engine's order."""
    while game.phase is Phase.BIDDING:
        seat = game.to_act
        game.bid(seat, bids[seat], at)


def lowest_legal(game: Game) -> int:
    seat = game.to_act
    return cards_of(game.legal_play_mask(seat))[0]


def play_out_lowest(game: Game, at: float = 0.0) -> None:
    """Play the hand to its end, every seat playing its lowest legal card."""
    while game.phase is Phase.PLAYING:
        seat = game.to_act
        game.play(seat, lowest_legal(game), at)


def play_hand(game: Game, bids: dict[int, int], at: float = 0.0) -> None:
    """Deal the next hand if one is over, bid ``bids`` and play it out."""
    if game.phase is Phase.HAND_OVER:
        game.next_hand(0, at)
    bid_round(game, bids, at)
    play_out_lowest(game, at)


def timeout_claimable(game: Game, seat: int, at: float) -> bool:
    """Whether the engine's own check lets ``seat`` claim the turn clock's win at ``at``."""
    try:
        check_timeout_claim(game, seat, at)
    except refusals.ClaimRefused:
        return False
    return True


def random_pass(game: Game, rng: random.Random) -> None:
    """The seat waited on in a Nil pass passes as many cards as it must, at random."""
    seat = game.to_act
    cards = rng.sample(cards_of(game.hands[seat]), game.exchange.counts[seat])
    game.apply(Action(ActionKind.PASS, seat, sum(1 << c for c in cards)))


def play_random_hand(game: Game, rng: random.Random) -> None:
    """Bid (Nil to 13, uniformly), pass where a Nil calls for it and play
    the current hand to its end at random."""
    while game.phase is Phase.BIDDING:
        seat = game.to_act
        game.bid(seat, int(rng.random() * 14))
    while game.phase is Phase.PASSING:
        random_pass(game, rng)
    while game.phase is Phase.PLAYING:
        seat = game.to_act
        game.play(seat, random_card(game.legal_play_mask(seat), rng))


def play_random_game(game: Game, rng: random.Random, max_hands: int = 1000) -> None:
    """Random legal actions to the game's end (or ``max_hands``)."""
    while not game.over:
        if game.phase is Phase.HAND_OVER:
            game.next_hand(game.dealer)
        play_random_hand(game, rng)
        if game.hand_number >= max_hands:
            break
