"""Every kind of refused action: a specific error with a player-readable message,
and the game exactly as it was."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.game import refusals
from bot.game.cards import parse_card
from bot.game.rules import preset
from bot.game.scoring import BLIND_NIL, NIL
from bot.game.state import Game
from bot.game.types import Action, ActionKind, EndReason, Phase

from .helpers import (
    MIXED_DEAL,
    all_spades_deal,
    bid_round,
    new_game,
    play_out_lowest,
    timeout_claimable,
)

C = parse_card
DAY = 24 * 3600


def bidding(name: str = "standard", **options: object) -> Game:
    rules = preset(name).with_options(first_dealer="host", **options)
    return Game.new(rules, 3, started_at=1000.0, fixed_deals=[MIXED_DEAL, MIXED_DEAL])


def leading(name: str = "standard", **options: object) -> Game:
    game = bidding(name, **options)
    bid_round(game, {0: 1, 1: 1, 2: 1, 3: 1}, at=1000.0)
    return game  # seat 1 leads the first trick


def following(name: str = "standard", **options: object) -> Game:
    game = leading(name, **options)
    game.play(1, C("2C"), at=1000.0)
    return game  # seat 2, holding clubs, plays next


def hand_over(name: str = "standard") -> Game:
    game = new_game(name, [all_spades_deal(1), all_spades_deal(1)])
    bid_round(game, {0: 1, 1: 4, 2: 1, 3: 4})
    play_out_lowest(game)
    assert game.phase is Phase.HAND_OVER
    return game


def game_over() -> Game:
    game = leading()
    game.resign(0)
    return game


def blind_nil_table_trailing() -> Game:
    """A blind-nil game in hand 2 where team 0 trails by 150 and seat 2 bids first."""
    game = new_game("blind-nil", [all_spades_deal(1), all_spades_deal(0)])
    bid_round(game, {0: 1, 1: 10, 2: 1, 3: 3})  # team 1 +130, team 0 -20
    play_out_lowest(game)
    game.next_hand(0)
    assert game.scores == [-20, 130] and game.to_act == 2
    return game


def looked(game: Game, seat: int) -> Game:
    game.look(seat)
    return game


def bid_resigned() -> Game:
    game = bidding()
    game.resign(3)
    return game


def after_bid(game: Game, seat: int, bid: int) -> Game:
    game.bid(seat, bid)
    return game


Refusal = tuple[str, Callable[[], Game], Callable[[Game], object], type[refusals.IllegalAction]]

REFUSALS: list[Refusal] = [
    ("bid out of turn", bidding, lambda g: g.bid(2, 3), refusals.NotYourTurn),
    ("play out of turn", leading, lambda g: g.play(0, C("AS")), refusals.NotYourTurn),
    ("follow out of turn", following, lambda g: g.play(3, C("2D")), refusals.NotYourTurn),
    ("card not in hand", leading, lambda g: g.play(1, C("AS")), refusals.CardNotInHand),
    ("card already played", following, lambda g: g.play(2, C("2C")), refusals.CardNotInHand),
    ("not a card", leading, lambda g: g.play(1, 52), refusals.MalformedAction),
    ("negative card", leading, lambda g: g.play(1, -1), refusals.MalformedAction),
    (
        "revoke at a blocked table",
        lambda: following(revokes="blocked"),
        lambda g: g.play(2, C("AH")),
        refusals.MustFollowSuit,
    ),
    ("lead an unbroken spade", leading, lambda g: g.play(1, C("7S")), refusals.SpadesNotBroken),
    (
        "first lead not the lowest club",
        lambda: leading("low-club"),
        lambda g: g.play(1, C("8C")),
        refusals.FirstLeadRule,
    ),
    (
        "first lead a spade at the no-spade table",
        lambda: leading("cardgames"),
        lambda g: g.play(1, C("7S")),
        refusals.FirstLeadRule,
    ),
    ("bid 14", bidding, lambda g: g.bid(1, 14), refusals.BidOutOfRange),
    ("bid -2", bidding, lambda g: g.bid(1, -2), refusals.BidOutOfRange),
    ("bid not a number", bidding, lambda g: g.bid(1, "3"), refusals.BidOutOfRange),
    ("bid a float", bidding, lambda g: g.bid(1, 3.0), refusals.BidOutOfRange),
    ("bid True", bidding, lambda g: g.bid(1, True), refusals.BidOutOfRange),
    (
        "blind nil not played here",
        bidding,
        lambda g: g.bid(1, BLIND_NIL),
        refusals.BlindNilNotAllowed,
    ),
    (
        "blind nil when not trailing",
        lambda: bidding("blind-nil"),
        lambda g: g.bid(1, BLIND_NIL),
        refusals.BlindNilNotAllowed,
    ),
    (
        "blind nil after looking",
        lambda: looked(blind_nil_table_trailing(), 2),
        lambda g: g.bid(2, BLIND_NIL),
        refusals.BlindNilNotAllowed,
    ),
    (
        "blind nil by the leading team",
        lambda: after_bid(blind_nil_table_trailing(), 2, 1),
        lambda g: g.bid(3, BLIND_NIL),
        refusals.BlindNilNotAllowed,
    ),
    ("look twice", lambda: looked(bidding(), 1), lambda g: g.look(1), refusals.AlreadyLooked),
    ("play while bidding", bidding, lambda g: g.play(1, C("2C")), refusals.WrongPhase),
    ("bid while playing", leading, lambda g: g.bid(1, 3), refusals.WrongPhase),
    ("next hand during the hand", leading, lambda g: g.next_hand(0), refusals.WrongPhase),
    ("play after the hand", hand_over, lambda g: g.play(1, C("2S")), refusals.WrongPhase),
    ("bid after the hand", hand_over, lambda g: g.bid(1, 3), refusals.WrongPhase),
    ("play after the game", game_over, lambda g: g.play(1, C("2C")), refusals.GameIsOver),
    ("bid after the game", bid_resigned, lambda g: g.bid(1, 1), refusals.GameIsOver),
    ("next hand after the game", game_over, lambda g: g.next_hand(0), refusals.GameIsOver),
    ("look after the game", game_over, lambda g: g.look(2), refusals.GameIsOver),
    ("resign after the game", game_over, lambda g: g.resign(1), refusals.GameIsOver),
    (
        "claim after the game",
        game_over,
        lambda g: g.claim_timeout(0, 10 * DAY),
        refusals.GameIsOver,
    ),
    ("challenge after the game", game_over, lambda g: g.challenge(1, 0), refusals.GameIsOver),
    ("bid by a non-seat", bidding, lambda g: g.bid(4, 3), refusals.NotSeated),
    ("play by a non-seat", leading, lambda g: g.play(-1, C("2C")), refusals.NotSeated),
    # -1 is also the engine's "nobody's turn": it must not pass for a seat.
    ("play by seat -1 while bidding", bidding, lambda g: g.play(-1, C("2C")), refusals.NotSeated),
    ("play by seat -1 between hands", hand_over, lambda g: g.play(-1, C("2C")), refusals.NotSeated),
    ("resign by a non-seat", leading, lambda g: g.resign(7), refusals.NotSeated),
    ("look by a non-seat", bidding, lambda g: g.look(4), refusals.NotSeated),
    (
        "claim before the limit",
        bidding,
        lambda g: g.claim_timeout(0, 1000.0 + 2 * DAY),
        refusals.ClaimRefused,
    ),
    (
        "claim by the waiting seat's partner",
        bidding,
        lambda g: g.claim_timeout(3, 1000.0 + 3 * DAY),
        refusals.ClaimRefused,
    ),
    (
        "claim by the waiting seat",
        bidding,
        lambda g: g.claim_timeout(1, 1000.0 + 3 * DAY),
        refusals.ClaimRefused,
    ),
    (
        "claim between hands",
        hand_over,
        lambda g: g.claim_timeout(0, 10 * DAY),
        refusals.ClaimRefused,
    ),
]


@pytest.mark.parametrize(
    ("setup", "action", "error"),
    [r[1:] for r in REFUSALS],
    ids=[r[0] for r in REFUSALS],
)
def test_refused_action_changes_nothing(
    setup: Callable[[], Game],
    action: Callable[[Game], object],
    error: type[refusals.IllegalAction],
) -> None:
    game = setup()
    before = game.observable()
    saved = game.to_json()
    with pytest.raises(error) as refused:
        action(game)
    assert refused.value.code == error.code
    assert refused.value.message and refused.value.message == str(refused.value)
    assert game.observable() == before
    assert game.to_json() == saved


def test_refusal_messages_name_the_rule() -> None:
    game = following(revokes="blocked")
    with pytest.raises(refusals.MustFollowSuit, match="follow clubs"):
        game.play(2, C("AH"))
    with pytest.raises(refusals.CardNotInHand, match="AS"):
        game.play(2, C("AS"))
    game = leading("low-club")
    with pytest.raises(refusals.FirstLeadRule, match="2C"):
        game.play(1, C("3C"))
    with pytest.raises(refusals.NotYourTurn, match="seat 1"):
        game.play(2, C("9C"))


def test_nil_and_every_bid_from_1_to_13_are_accepted() -> None:
    for bid in (NIL, *range(1, 14)):
        game = bidding()
        game.bid(1, bid)
        assert game.bids[1] == bid


def test_blind_nil_is_offered_and_accepted_before_looking_when_trailing() -> None:
    game = blind_nil_table_trailing()
    assert game.legal_bids(2)[0] == BLIND_NIL
    game.bid(2, BLIND_NIL)
    assert game.bid_order[-1] == (2, BLIND_NIL)


def test_a_timeout_claim_after_the_limit_ends_the_game() -> None:
    game = bidding()
    assert not timeout_claimable(game, 0, 1000.0 + 2 * DAY)
    assert timeout_claimable(game, 0, 1000.0 + 2 * DAY + 1)
    assert not timeout_claimable(game, 3, 1000.0 + 2 * DAY + 1)
    game.claim_timeout(0, 1000.0 + 2 * DAY + 1)
    assert game.result is not None
    assert (game.result.winner, game.result.reason, game.result.seat) == (0, EndReason.TIMEOUT, 1)


def test_the_turn_clock_restarts_at_every_bid_and_card() -> None:
    game = bidding(turn_limit_s=3600)
    game.bid(1, 2, at=5000.0)  # seat 2 is now waited on since 5000
    with pytest.raises(refusals.ClaimRefused, match="to go"):
        game.claim_timeout(1, 5000.0 + 3600)
    game.claim_timeout(1, 5000.0 + 3601)
    assert game.result is not None and game.result.winner == 1 and game.result.seat == 2


def test_a_resigning_player_loses_the_game_for_the_team() -> None:
    for seat in range(4):
        game = leading()
        game.resign(seat)
        assert game.result is not None
        assert (game.result.winner, game.result.reason, game.result.seat) == (
            1 - seat % 2,
            EndReason.RESIGNATION,
            seat,
        )
        assert game.phase is Phase.GAME_OVER
        assert game.actions[-1] == Action(ActionKind.RESIGN, seat, 0, 0.0)


@pytest.mark.parametrize("setup", [bidding, leading, following, hand_over, game_over])
def test_no_cards_are_listed_for_a_seat_outside_the_table(setup: Callable[[], Game]) -> None:
    game = setup()
    for seat in (-1, -4, 4):
        assert game.legal_cards(seat) == ()
        assert game.legal_play_mask(seat) == 0
