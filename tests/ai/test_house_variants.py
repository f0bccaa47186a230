"""Every computer player level finishes games under every deck and bidding
format: it only ever makes the bids and plays the cards the house rules
allow (the engine refuses anything else), whatever the cards are."""

from __future__ import annotations

import pytest

from bot.ai.base import make_player, player_levels
from bot.game.house import apply
from bot.game.rules import preset
from bot.game.state import Game
from bot.simulate import play_game

VARIANTS = [
    "deck=jokers",
    "deck=jokers-deuce",
    "deck=jjdd",
    "bidding=suicide",
    "bidding=mirror,deck=jjdd",
    "bidding=whiz,deck=jokers",
    "bags=5:50,boston=200,ten_for_200=on,spades_lead=any",
    "min_team_bid=4,nil=off,first_lead=lowclub",
]
#: Seconds per decision for the levels that take a budget (the expert):
#: enough to run its search, short enough for a test.
BUDGET = 0.02


@pytest.mark.parametrize("level", player_levels())
@pytest.mark.parametrize("house", VARIANTS)
def test_every_level_finishes_a_game_under_house_rules(level: str, house: str) -> None:
    # Blind Nil where the format leaves a choice of bids.
    base = "standard" if "mirror" in house or "whiz" in house else "blind-nil"
    rules = apply(preset(base), f"target=100,floor=-100,{house}")
    game = Game.new(rules, 17)
    # The level holds one side, the heuristic the other.
    players = [
        make_player(level, seat, BUDGET) if seat % 2 == 0 else make_player("heuristic", seat)
        for seat in range(4)
    ]
    play_game(game, players)
    assert game.over and game.result is not None
    assert game.hand_records
