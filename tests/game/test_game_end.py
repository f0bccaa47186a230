"""When a game ends and who wins: target, losing score, ties.

Every hand is dealt so that one seat holds all 13 spades and takes every
trick, which makes each hand's score exact whatever the cards played.
"""

from __future__ import annotations

import pytest

from bot.game.refusals import IllegalAction
from bot.game.rules import preset
from bot.game.scoring import NIL
from bot.game.state import Game
from bot.game.types import Action, ActionKind, EndReason, GameResult, Phase

from .helpers import all_spades_deal, play_hand


def scripted_game(name: str, holders: list[int], **options: object) -> Game:
    rules = preset(name).with_options(**options) if options else preset(name)
    return Game.new(rules, 7, fixed_deals=[all_spades_deal(h) for h in holders])


def test_reaching_the_target_wins() -> None:
    game = scripted_game("standard", [1, 1, 1, 1])
    for hand in range(3):
        play_hand(game, {0: 1, 1: 7, 2: 1, 3: 6})
        assert game.phase is Phase.HAND_OVER, f"over after hand {hand + 1}"
    assert game.scores == [-60, 390]
    play_hand(game, {0: 1, 1: 7, 2: 1, 3: 6})
    assert game.scores == [-80, 520]
    assert game.over and game.result is not None
    assert (game.result.winner, game.result.reason) == (1, EndReason.TARGET)
    last = game.hand_records[-1]
    assert last.game_over and last.winner == 1
    assert not any(record.game_over for record in game.hand_records[:-1])


def test_the_host_may_choose_a_target_of_250() -> None:
    game = scripted_game("standard", [1, 1], target=250)
    play_hand(game, {0: 1, 1: 7, 2: 1, 3: 6})
    assert not game.over
    play_hand(game, {0: 1, 1: 7, 2: 1, 3: 6})
    assert game.over and game.result is not None and game.result.winner == 1


def test_both_past_the_target_the_higher_score_wins() -> None:
    game = scripted_game("standard", [1, 1], target=250)
    play_hand(game, {0: NIL, 1: 7, 2: NIL, 3: 6})  # 200 to 130
    play_hand(game, {0: NIL, 1: 7, 2: NIL, 3: 6})  # 400 to 260
    assert game.scores == [400, 260]
    assert game.result is not None and game.result.winner == 0


@pytest.mark.parametrize("name", ["standard", "cardgames", "blind-nil"])
def test_a_tie_past_the_target_plays_another_hand(name: str) -> None:
    game = scripted_game(name, [0, 1, 0], target=250, first_dealer="host")
    play_hand(game, {0: 7, 1: NIL, 2: 6, 3: NIL})  # 130 to 200
    play_hand(game, {0: NIL, 1: 7, 2: NIL, 3: 6})  # 330 to 330
    assert game.scores == [330, 330]
    assert game.phase is Phase.HAND_OVER and game.result is None
    assert not game.hand_records[-1].game_over
    play_hand(game, {0: 7, 1: 1, 2: 6, 3: 1})  # 460 to 310
    assert game.result is not None and game.result.winner == 0


def test_a_tie_past_the_target_is_a_draw_at_the_low_club_table() -> None:
    game = scripted_game("low-club", [0, 1], target=200)
    play_hand(game, {0: 7, 1: NIL, 2: 6, 3: NIL})  # 130 to 100
    play_hand(game, {0: NIL, 1: 7, 2: NIL, 3: 6})  # 230 to 230
    assert game.scores == [230, 230]
    assert game.over and game.result is not None
    assert (game.result.winner, game.result.reason) == (None, EndReason.TARGET)
    assert game.hand_records[-1].winner == "draw"


def test_a_team_at_minus_200_loses_on_the_spot() -> None:
    game = scripted_game("standard", [0])
    play_hand(game, {0: 1, 1: 10, 2: 1, 3: 10})
    assert game.scores == [20 + 11 - 100, -200]
    assert game.result is not None
    assert (game.result.winner, game.result.reason) == (0, EndReason.LOSING_SCORE)


def test_minus_190_is_not_the_end() -> None:
    game = scripted_game("standard", [0])
    play_hand(game, {0: 1, 1: 9, 2: 1, 3: 10})
    assert game.scores[1] == -190 and game.phase is Phase.HAND_OVER


def both_fall(second_hand_team0_bids: tuple[int, int]) -> Game:
    """Hand 1: seat 0 bids Nil and takes every trick, seat 2 bids 1: team 0
    ends on -197 (-100 for the Nil, +13 for its tricks as bags, -100 for ten
    bags, -10 for the set); team 1 bids 9 + 10 and takes none: -190. Hand 2:
    the same with the teams swapped, team 0 bidding ``second_hand_team0_bids``."""
    game = scripted_game("standard", [0, 1, 0])
    play_hand(game, {0: NIL, 1: 9, 2: 1, 3: 10})
    assert game.scores == [-197, -190] and not game.over
    a, b = second_hand_team0_bids
    play_hand(game, {0: a, 1: NIL, 2: b, 3: 1})
    return game


def test_both_teams_below_minus_200_the_higher_wins() -> None:
    game = both_fall((10, 10))
    assert game.scores == [-397, -387]
    assert game.result is not None
    assert (game.result.winner, game.result.reason) == (1, EndReason.LOSING_SCORE)


def test_both_teams_level_below_minus_200_play_another_hand() -> None:
    game = both_fall((9, 10))
    assert game.scores == [-387, -387]
    assert game.phase is Phase.HAND_OVER and game.result is None
    play_hand(game, {0: 1, 1: 1, 2: 1, 3: 1})
    # Team 0 takes 13 on a contract of 2 (20 + 11 bags, and 14 bags cost 100).
    assert game.scores == [-387 + 31 - 100, -387 - 20]
    assert game.result is not None and game.result.winner == 1


def test_a_game_never_ends_between_limits() -> None:
    # Each hand the holder's team makes 3 + 3 with 7 bags (+67), the other is
    # set (-60); every second hand of a team brings ten bags (-100).
    game = scripted_game("standard", [0, 1, 0, 1, 0, 1])
    expected = [([67, -60], [7, 0]), ([7, 7], [7, 7]), ([-26, -53], [4, 7])]
    expected += [([-86, -86], [4, 4]), ([-119, -146], [1, 4]), ([-179, -179], [1, 1])]
    for scores, bags in expected:
        play_hand(game, {0: 3, 1: 3, 2: 3, 3: 3})
        assert (game.scores, game.bags) == (scores, bags)
        assert game.phase is Phase.HAND_OVER


def test_a_moderator_ends_a_game_with_no_winner_and_a_replay_agrees() -> None:
    game = scripted_game("standard", [1, 1])
    play_hand(game, {0: 1, 1: 7, 2: 1, 3: 6})
    game.end_by_moderator("stuck", 5.0)
    assert game.over and game.result == GameResult(None, EndReason.MODERATOR, None, "stuck")
    assert game.actions[-1] == Action(ActionKind.MODERATOR_END, 0, 0, 5.0)
    with pytest.raises(IllegalAction):
        game.end_by_moderator("again", 6.0)
    # A replay of the log ends the same way (the reason lives in the log's payload).
    replayed = scripted_game("standard", [1, 1])
    for action in game.actions:
        replayed.apply(action)
    assert replayed.result == GameResult(None, EndReason.MODERATOR, None, None)
    assert replayed.scores == game.scores
