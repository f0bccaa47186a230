"""Computer players decide from their seat's view alone: changing the hidden
cards of the other seats (consistently with everything played) changes no
decision."""

from __future__ import annotations

import random

import pytest

from bot.ai.base import Player
from bot.ai.heuristic import HeuristicPlayer
from bot.ai.search import SearchPlayer
from bot.game.cards import SUIT_MASKS, cards_of, mask_of
from bot.game.refusals import IllegalAction
from bot.game.rules import PRESETS, preset
from bot.game.state import Game
from bot.game.types import Phase
from bot.game.view import view_of


def hidden_swaps(game: Game, seat: int, rng: random.Random, swaps: int) -> list[int]:
    """The deal of the current hand with cards of the same suit swapped
    between the unplayed hands of the other seats: every seat held the same
    number of cards of each suit all along, so the same plays stay legal."""
    held = list(game.hands)
    others = [s for s in range(4) if s != seat]
    for _ in range(swaps):
        a, b = rng.sample(others, 2)
        suit = rng.randrange(4)
        mine, theirs = held[a] & SUIT_MASKS[suit], held[b] & SUIT_MASKS[suit]
        if not mine or not theirs:
            continue
        give, take = rng.choice(cards_of(mine)), rng.choice(cards_of(theirs))
        held[a] ^= (1 << give) | (1 << take)
        held[b] ^= (1 << give) | (1 << take)
    played = [game.dealt[s] & ~game.hands[s] for s in range(4)]
    return [played[s] | held[s] for s in range(4)]


def positions(rules_name: str, count: int, seed: int) -> list[tuple[Game, Game]]:
    """Pairs of games at the same point of hand 1 or 2 that differ only in
    the unplayed cards of the seats other than the one to act."""
    rules = preset(rules_name)
    rng = random.Random(seed)
    mover = HeuristicPlayer()
    pairs: list[tuple[Game, Game]] = []
    while len(pairs) < count:
        game_seed = rng.randrange(2**32)
        game = Game.new(rules, game_seed)
        stop_hand = rng.choice([1, 2])
        stop_after = rng.randrange(0, 56)
        steps = 0
        while not (game.hand_number == stop_hand and steps >= stop_after):
            if game.phase is Phase.HAND_OVER:
                game.next_hand(game.dealer)
                steps = 0
                continue
            if game.over:
                break
            game.apply(mover.decide(view_of(game, game.to_act)))
            steps += 1
        if game.phase not in (Phase.BIDDING, Phase.PLAYING):
            continue
        seat = game.to_act
        deals = [record_hands(game, h) for h in range(1, game.hand_number)]
        deals.append(hidden_swaps(game, seat, rng, swaps=40))
        try:
            twin = Game.replay(rules, game_seed, list(game.actions), fixed_deals=deals)
        except IllegalAction:
            continue  # a swap broke the lowest-club first lead: try another
        if twin.hands == game.hands:
            continue
        pairs.append((game, twin))
    return pairs


def record_hands(game: Game, hand_number: int) -> list[int]:
    return [mask_of(cards) for cards in game.hand_records[hand_number - 1].hands]


def players() -> list[Player]:
    return [HeuristicPlayer(), SearchPlayer(seed=5, time_budget=60.0, max_samples=3)]


@pytest.mark.parametrize("rules_name", sorted(PRESETS))
def test_decisions_depend_only_on_the_view(rules_name: str) -> None:
    checked = 0
    for game, twin in positions(rules_name, count=25, seed=17):
        seat = game.to_act
        view, twin_view = view_of(game, seat), view_of(twin, seat)
        assert view == twin_view
        for a, b in zip(players(), players(), strict=True):
            assert a.decide(view) == b.decide(twin_view)
        checked += 1
    assert checked == 25
