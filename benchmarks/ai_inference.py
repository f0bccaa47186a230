"""How much the clues of the cards chosen sharpen the search player's deals.

Plays heuristic games and, at each card play from the fifth trick on, draws
the same number of deals for the seat to act with and without the clues of
:mod:`bot.ai.inference` (the same random numbers for both), counting the
share of the unseen cards each puts in the hand that really holds them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.ai.heuristic import HeuristicPlayer
from bot.ai.inference import play_clues
from bot.ai.knowledge import knowledge_of
from bot.ai.sampling import DealSampler
from bot.game.rules import preset
from bot.game.state import Game
from bot.game.types import Phase
from bot.game.view import view_of

FIRST_TRICK = 4  # positions with a few finished tricks: clues to read
DEALS_PER_POSITION = 20


@dataclass
class Placement:
    positions: int = 0
    with_clues: int = 0  # positions where some clue was read
    hits_plain: int = 0  # unseen cards put in the right hand, without clues
    hits_read: int = 0  # ... and with them
    cards: int = 0  # unseen cards dealt, summed over the deals

    def rates(self) -> tuple[float, float]:
        if not self.cards:
            return 0.0, 0.0
        return self.hits_plain / self.cards, self.hits_read / self.cards


def measure(positions: int, rules_name: str, seed: int) -> Placement:
    """The placement counts over ``positions`` positions, only those where a
    clue was read (elsewhere both samplers are the same)."""
    rules = preset(rules_name)
    rng = random.Random(seed)
    player = HeuristicPlayer()
    result = Placement()
    seen = 0
    while result.with_clues < positions and seen < 50 * positions:
        game = Game.new(rules, rng.randrange(2**32))
        while not game.over and game.phase is not Phase.HAND_OVER:
            seat = game.to_act
            view = view_of(game, seat)
            if view.phase is Phase.PLAYING and len(view.tricks) >= FIRST_TRICK:
                seen += 1
                result.positions += 1
                _compare(game, seat, rng.randrange(2**32), result)
                if result.with_clues >= positions:
                    break
            game.apply(player.decide(view))
    return result


def _compare(game: Game, seat: int, seed: int, result: Placement) -> None:
    view = view_of(game, seat)
    knowledge = knowledge_of(view)
    clues = play_clues(view, knowledge.unseen)
    if not clues:
        return
    result.with_clues += 1
    others = [s for s in range(4) if s != seat]
    for clued, counter in ((False, "hits_plain"), (True, "hits_read")):
        sampler = DealSampler(knowledge, view.bids, clues if clued else [])
        rng = random.Random(seed)
        for _ in range(DEALS_PER_POSITION):
            hands = sampler.sample(rng)
            hits = sum((hands[s] & game.hands[s]).bit_count() for s in others)
            setattr(result, counter, getattr(result, counter) + hits)
    result.cards += DEALS_PER_POSITION * knowledge.unseen.bit_count()
