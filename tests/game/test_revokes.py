"""Revokes: accepted and remembered where allowed; every challenge outcome."""

from __future__ import annotations

import pytest

from bot.game import refusals
from bot.game.cards import parse_card
from bot.game.rules import preset
from bot.game.state import Game
from bot.game.types import EndReason, Phase

from .helpers import MIXED_DEAL, bid_round, play_out_lowest

C = parse_card


def after_revoke(revokes: str = "allowed") -> Game:
    """Seat 1 leads 2C; seat 2 holds clubs but plays AH."""
    rules = preset("standard").with_options(revokes=revokes)
    game = Game.new(rules, 5, fixed_deals=[MIXED_DEAL, MIXED_DEAL])
    bid_round(game, {0: 1, 1: 1, 2: 1, 3: 1})
    game.play(1, C("2C"))
    if revokes == "allowed":
        game.play(2, C("AH"))
    return game


def test_a_revoke_is_accepted_and_remembered_where_allowed() -> None:
    game = after_revoke()
    assert game.revokes == [(2, 0)]
    assert game.trick == [C("2C"), C("AH")]
    assert game.legal_play_mask(3) == game.hands[3]  # no clubs: anything goes
    game.play(3, C("2D"))
    game.play(0, C("AS"))  # a void seat trumps: no revoke
    assert game.revokes == [(2, 0)]
    assert game.tricks[0].winner == 0


def test_playable_and_legal_masks_differ_only_by_revokes() -> None:
    rules = preset("standard")
    game = Game.new(rules, 5, fixed_deals=[MIXED_DEAL])
    bid_round(game, {0: 1, 1: 1, 2: 1, 3: 1})
    game.play(1, C("2C"))
    clubs = sum(1 << c for c in range(13))
    assert game.legal_play_mask(2) == game.hands[2] & clubs
    assert game.playable_mask(2) == game.hands[2]
    assert game.playable_mask(3) == game.legal_play_mask(3) == 0  # not seat 3's turn
    game.play(2, C("9C"))
    assert game.playable_mask(3) == game.legal_play_mask(3) == game.hands[3]  # no clubs
    blocked = Game.new(rules.with_options(revokes="blocked"), 5, fixed_deals=[MIXED_DEAL])
    bid_round(blocked, {0: 1, 1: 1, 2: 1, 3: 1})
    blocked.play(1, C("2C"))
    assert blocked.playable_mask(2) == blocked.legal_play_mask(2)


@pytest.mark.parametrize("accuser", [1, 3])
def test_a_proven_revoke_loses_the_game_for_the_revoker(accuser: int) -> None:
    game = after_revoke()
    game.challenge(accuser, 2)
    assert game.phase is Phase.GAME_OVER and game.result is not None
    assert (game.result.winner, game.result.reason, game.result.seat) == (1, EndReason.REVOKE, 2)


def test_an_unproven_challenge_loses_the_game_for_the_accuser() -> None:
    game = after_revoke()
    game.challenge(1, 0)  # seat 0 has not revoked
    assert game.result is not None
    assert (game.result.winner, game.result.reason, game.result.seat) == (
        0,
        EndReason.FALSE_CLAIM,
        1,
    )


def test_a_revoke_on_an_earlier_trick_is_proven() -> None:
    game = after_revoke()
    game.play(3, C("2D"))
    game.play(0, C("2H"))
    assert len(game.tricks) == 1
    game.challenge(3, 2)
    assert game.result is not None and game.result.reason is EndReason.REVOKE


def test_a_challenge_after_the_last_trick_is_allowed_until_the_next_hand() -> None:
    game = after_revoke()
    play_out_lowest(game)
    assert game.phase is Phase.HAND_OVER
    game.challenge(1, 2)
    assert game.result is not None
    assert (game.result.winner, game.result.reason) == (1, EndReason.REVOKE)


def refused(game: Game, seat: int, accused: int, error: type[refusals.IllegalAction]) -> None:
    before = game.observable()
    with pytest.raises(error):
        game.challenge(seat, accused)
    assert game.observable() == before


def test_a_challenge_against_a_partner_is_refused() -> None:
    refused(after_revoke(), 0, 2, refusals.ChallengeRefused)


def test_a_challenge_against_oneself_is_refused() -> None:
    refused(after_revoke(), 2, 2, refusals.ChallengeRefused)


@pytest.mark.parametrize("seat", [-1, 4, 9])
def test_a_challenge_by_someone_not_seated_is_refused(seat: int) -> None:
    refused(after_revoke(), seat, 2, refusals.NotSeated)


@pytest.mark.parametrize("accused", [-1, 4])
def test_a_challenge_against_someone_not_seated_is_refused(accused: int) -> None:
    refused(after_revoke(), 1, accused, refusals.ChallengeRefused)


def test_a_challenge_at_a_table_with_revokes_blocked_is_refused() -> None:
    refused(after_revoke("blocked"), 1, 2, refusals.ChallengeRefused)


def test_a_challenge_before_any_card_of_the_hand_is_refused() -> None:
    rules = preset("standard")
    game = Game.new(rules, 5, fixed_deals=[MIXED_DEAL])
    refused(game, 1, 2, refusals.ChallengeRefused)  # bidding
    bid_round(game, {0: 1, 1: 1, 2: 1, 3: 1})
    refused(game, 1, 2, refusals.ChallengeRefused)  # no card played yet


def test_a_challenge_after_the_next_hand_began_is_refused() -> None:
    game = after_revoke()
    play_out_lowest(game)
    game.next_hand(3)
    refused(game, 1, 2, refusals.ChallengeRefused)
    # Once the new hand's cards are played, the old revoke is out of reach:
    # a challenge now concerns this hand, where seat 2 has not revoked.
    bid_round(game, {0: 1, 1: 1, 2: 1, 3: 1})
    game.play(game.to_act, game.legal_cards(game.to_act)[0])
    game.challenge(1, 2)
    assert game.result is not None and game.result.reason is EndReason.FALSE_CLAIM


def test_a_challenge_after_the_game_ended_is_refused() -> None:
    game = after_revoke()
    game.resign(0)
    refused(game, 1, 2, refusals.GameIsOver)
