"""Computer players choose only legal actions, in positions of every preset."""

from __future__ import annotations

import random

import pytest

from bot.ai.base import Player, RandomPlayer
from bot.ai.heuristic import HeuristicPlayer
from bot.ai.search import SearchPlayer
from bot.game.playout import random_card
from bot.game.rules import PRESETS, preset
from bot.game.state import Game
from bot.game.types import Action, ActionKind, Phase
from bot.game.view import PlayerView, view_of


def check_legal(view: PlayerView, action: Action) -> None:
    assert action.seat == view.seat
    if action.kind is ActionKind.PLAY:
        assert view.phase is Phase.PLAYING
        assert view.legal_cards >> action.value & 1, "a card outside the legal ones (a revoke?)"
    elif action.kind is ActionKind.BID:
        assert view.phase is Phase.BIDDING
        assert action.value in view.legal_bids
    else:
        # Looking is the only other action a computer player takes: never a
        # challenge, and only while its cards are withheld.
        assert action.kind is ActionKind.LOOK
        assert view.phase is Phase.BIDDING and not view.hand and not view.looked


def walk(rules_name: str, player: Player, positions: int, seed: int) -> int:
    """Visit ``positions`` positions of random games (half the moves random,
    half the player's own, so both odd and sensible positions come up) and
    check the player's action in each. Some random moves revoke where the
    rules allow it. Returns the number of Blind Nil
    positions seen (hand withheld)."""
    rules = preset(rules_name)
    rng = random.Random(seed)
    wild = RandomPlayer(seed)
    withheld = 0
    seen = 0
    while seen < positions:
        game = Game.new(rules, rng.randrange(2**32))
        # Start some games far behind so Blind Nil is open.
        game.scores = [rng.choice([0, 0, -150, 120]), rng.choice([0, 0, 250, 400])]
        game.bags = [rng.randrange(10), rng.randrange(10)]
        while not game.over and seen < positions and game.hand_number < 30:
            if game.phase is Phase.HAND_OVER:
                game.next_hand(game.dealer)
                continue
            seat = game.to_act
            view = view_of(game, seat)
            action = player.decide(view)
            check_legal(view, action)
            seen += 1
            withheld += not view.hand
            roll = rng.random()
            if action.kind is ActionKind.LOOK or roll < 0.5:
                game.apply(action)
            elif roll < 0.55 and view.phase is Phase.PLAYING:
                # A human revoke where the table allows it: the voids the
                # players infer from it are false.
                game.play(seat, random_card(view.playable_cards, rng))
            else:
                game.apply(wild.decide(view))
    return withheld


@pytest.mark.parametrize("rules_name", sorted(PRESETS))
def test_heuristic_player_is_always_legal(rules_name: str) -> None:
    withheld = walk(rules_name, HeuristicPlayer(), positions=3000, seed=1)
    assert withheld > 0 or not preset(rules_name).blind_nil


@pytest.mark.parametrize("rules_name", sorted(PRESETS))
def test_search_player_is_always_legal(rules_name: str) -> None:
    # Few samples per decision, to visit many positions.
    walk(rules_name, SearchPlayer(seed=3, time_budget=10.0, max_samples=4), positions=150, seed=2)


@pytest.mark.parametrize("player", [HeuristicPlayer(), SearchPlayer(seed=1, max_samples=2)])
def test_a_seat_not_to_act_gets_a_clear_refusal(player: Player) -> None:
    game = Game.new(preset("standard"), 5)
    with pytest.raises(ValueError, match="not the one to act"):
        player.decide(view_of(game, 0))  # seat 1 bids first
