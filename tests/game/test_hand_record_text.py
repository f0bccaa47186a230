"""A hand record's JSON text is exactly its JSON form as the store writes it
(compact, keys sorted), for every preset's hands: Nils, Blind Nils, sets,
bags, the game's last hand and its winner."""

from __future__ import annotations

import json
import random

import pytest

from bot.game.random_play import random_card
from bot.game.rules import PRESETS
from bot.game.state import Game
from bot.game.types import Phase


def _random_game(preset: str, seed: int) -> Game:
    """A complete game of random legal bids (Blind Nil among them) and cards."""
    rng = random.Random(seed)
    game = Game.new(PRESETS[preset], seed)
    while not game.over:
        if game.phase is Phase.HAND_OVER:
            game.next_hand(game.dealer)
        elif game.phase is Phase.BIDDING:
            seat = game.to_act
            game.bid(seat, rng.choice(game.legal_bids(seat)))
        else:
            seat = game.to_act
            game.play(seat, random_card(game.legal_play_mask(seat), rng))
    return game


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_text_is_the_records_json(preset: str) -> None:
    bids: set[int] = set()
    for seed in range(6):
        game = _random_game(preset, seed)
        assert game.hand_records and game.hand_records[-1].game_over
        for record in game.hand_records:
            expected = json.dumps(
                record.to_json(str(seed), game.rules), separators=(",", ":"), sort_keys=True
            )
            assert record.json_text(str(seed), game.rules) == expected
            bids.update(bid for _, bid in record.bids)
    assert min(bids) < 0 or not PRESETS[preset].blind_nil  # Nils were among them
