"""The levels above and below the search player, and reading card choices."""

from __future__ import annotations

import random

from bot.ai import bidding, policy
from bot.ai.base import make_player, player_levels
from bot.ai.heuristic import HeuristicPlayer
from bot.ai.knowledge import knowledge_of
from bot.ai.sampling import DUCK_WEIGHT, DealSampler, play_clues
from bot.ai.search import (
    DEFAULT_TIME_BUDGET,
    EXACT_TRICKS,
    EXPERT_TIME_BUDGET,
    STABLE_AFTER,
    SearchPlayer,
)
from bot.config import Settings
from bot.game.cards import mask_of, parse_cards
from bot.game.scoring import NIL
from bot.game.view import view_of
from tests.ai.positions import STANDARD, position


def test_the_levels_players_can_meet() -> None:
    levels = player_levels()
    assert {"random", "heuristic", "search", "expert"} <= set(levels)
    assert levels.index("expert") > levels.index("search")
    # The frozen heuristic the benchmark plays against is not one of them.
    assert "heuristic-v1" not in levels


def test_a_retired_level_stored_or_configured_still_loads() -> None:
    """A seat stored with ``heuristic-v1``, or a settings file naming it,
    gets the heuristic player."""
    player = make_player("heuristic-v1", 1)
    assert type(player) is HeuristicPlayer
    assert player.choose_card is policy.choose_card
    assert player.choose_bid is bidding.choose_bid
    settings = Settings(tables={"computer_level": "heuristic-v1"})
    assert settings.tables.computer_level == "heuristic"


def test_expert_thinks_longer_and_its_budget_is_configurable() -> None:
    expert = make_player("expert", 3)
    assert isinstance(expert, SearchPlayer)
    assert expert.time_budget == EXPERT_TIME_BUDGET > DEFAULT_TIME_BUDGET
    assert expert.stable_after > STABLE_AFTER
    assert expert.exact_tricks > EXACT_TRICKS
    configured = make_player("expert", 3, time_budget=2.5)
    assert isinstance(configured, SearchPlayer) and configured.time_budget == 2.5
    # The budget setting is the expert's: the search level keeps its pace.
    search = make_player("search", 3, time_budget=2.5)
    assert isinstance(search, SearchPlayer) and search.time_budget == DEFAULT_TIME_BUDGET


def test_no_decision_outlasts_the_share_of_the_tables_turn_limit() -> None:
    quick_table = STANDARD.with_options(turn_limit_s=20)
    view = view_of(position({}, rules=quick_table), 1)
    expert = make_player("expert", 1, time_budget=5.0)
    assert isinstance(expert, SearchPlayer) and expert.budget_for(view) == 0.2
    slow_table = view_of(position({}), 1)
    assert SearchPlayer(1, time_budget=5.0).budget_for(slow_table) == 5.0


def test_settings_offer_the_expert_and_its_budget() -> None:
    settings = Settings(tables={"computer_level": "expert"}, clock={"expert_time_budget_s": 1.5})
    assert settings.tables.computer_level == "expert"
    assert settings.clock.expert_time_budget_s == 1.5


def test_clues_weigh_the_deals_that_give_the_ducker_a_winner() -> None:
    hands = {
        1: "2H 3H 5C 6C 7C 8C 9C TC JC QC KC 2D 3D",
        2: "4H 4D 5D 6D 7D 8D 9D TD JD QD KD AD 4C",
        3: "KH 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS",
        0: "5H AH",
    }
    # Seat 0 plays last on seat 3's king and ducks with the five although its
    # side needs tricks: it likely holds no higher heart (it does: the ace).
    game = position(hands, bids=[4, 3, 4, 2], plays="2H 4H KH 5H")
    view = view_of(game, 1)
    knowledge = knowledge_of(view)
    clues = play_clues(view, knowledge.unseen)
    assert [(c.seat, c.weight) for c in clues] == [(0, DUCK_WEIGHT)]
    assert clues[0].cards == mask_of(parse_cards("AH"))
    rng = random.Random(5)
    counts = []
    for used in ([], clues):
        sampler = DealSampler(knowledge, view.bids, used)
        counts.append(sum(bool(sampler.sample(rng)[0] & clues[0].cards) for _ in range(300)))
    assert counts[1] < 0.7 * counts[0]
    # A Nil bidder ducks on purpose: no clue.
    nil = position(hands, bids=[4, 3, 4, NIL], plays="2H 4H KH 5H")
    assert play_clues(view_of(nil, 1), knowledge.unseen) == []
