"""The Nil pass (house rules ``nil_pass`` and ``blind_nil_pass``): who
passes how many cards, every refused pass, the exchange, the hand's record,
what each seat's view shows of it, and a replay from the log in the middle
of it."""

from __future__ import annotations

from dataclasses import asdict

import pytest

from bot.game import refusals
from bot.game.house import apply
from bot.game.passing import counts_for
from bot.game.rules import RuleSet, preset
from bot.game.scoring import BLIND_NIL, NIL
from bot.game.state import Game
from bot.game.types import Action, ActionKind, Phase
from bot.game.view import view_of

from .helpers import MIXED_DEAL, bid_round, mask, new_game, play_out_lowest

# MIXED_DEAL, dealer seat 0: seat 1 holds clubs 2-8 and spades 2-7, seat 3
# all the diamonds, seat 0 the top spades and low hearts, seat 2 high clubs
# and hearts. Seat 1 bids first and leads first.
ONE_NIL = {1: NIL, 2: 3, 3: 4, 0: 5}


def rules_of(house: str, base: str = "standard") -> RuleSet:
    # Blind Nil open from the first hand, so that it can be bid in a test.
    return apply(preset(base).with_options(blind_nil_min_deficit=0), house)


def passing(house: str = "nil_pass=2", bids: dict[int, int] | None = None) -> Game:
    game = new_game(rules_of(house, "blind-nil"), [MIXED_DEAL, MIXED_DEAL], seed=3)
    bid_round(game, bids or ONE_NIL, at=10.0)
    return game


def phase(game: Game) -> Phase:
    """The game's phase (read through a call: an action changes it)."""
    return game.phase


def give(game: Game, seat: int, cards: str | int, at: float = 20.0) -> None:
    value = mask(cards) if isinstance(cards, str) else cards
    game.apply(Action(ActionKind.PASS, seat, value, at))


# -- who passes --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("house", "bids", "counts"),
    [
        ("nil_pass=2", [5, NIL, 3, 4], (0, 2, 0, 2)),
        ("nil_pass=3", [NIL, 2, 4, NIL], (3, 3, 3, 3)),
        ("nil_pass=1", [NIL, 2, NIL, 4], (0, 0, 0, 0)),  # both partners Nil
        ("nil_pass=1,blind_nil_pass=3", [BLIND_NIL, 2, NIL, 4], (0, 0, 0, 0)),
        ("nil_pass=1,blind_nil_pass=3", [BLIND_NIL, 2, 5, 4], (3, 0, 3, 0)),
        ("nil_pass=1,blind_nil_pass=3", [BLIND_NIL, NIL, 5, 4], (3, 1, 3, 1)),
        ("nil_pass=2", [BLIND_NIL, 2, 5, 4], (0, 0, 0, 0)),  # no pass for a Blind Nil
        ("blind_nil_pass=2", [NIL, 2, 5, 4], (0, 0, 0, 0)),  # nor for a Nil
        ("nil_pass=off", [NIL, 2, 5, 4], (0, 0, 0, 0)),
        ("nil_pass=3", [1, 2, 5, 4], (0, 0, 0, 0)),
    ],
)
def test_who_passes_how_many(house: str, bids: list[int | None], counts: tuple[int, ...]) -> None:
    assert counts_for(rules_of(house), bids) == counts


def test_without_an_exchange_play_starts_after_the_bids() -> None:
    for house, bids in (
        ("nil_pass=3", {1: NIL, 2: 3, 3: NIL, 0: 5}),  # the side's two Nils
        ("nil_pass=3", {1: 2, 2: 3, 3: 4, 0: 5}),
        ("nil_pass=3", {1: BLIND_NIL, 2: 3, 3: 4, 0: 5}),  # blind_nil_pass is off
    ):
        game = passing(house, bids)
        assert phase(game) is Phase.PLAYING and game.to_act == 1
        assert game.exchange.choosing() == ()


def test_the_pass_applies_under_suicide_and_whiz() -> None:
    game = new_game(apply(preset("standard"), "bidding=suicide,nil_pass=1"), [MIXED_DEAL])
    bid_round(game, {1: NIL, 2: NIL, 3: 4, 0: 4})
    assert phase(game) is Phase.PASSING and game.exchange.counts == (1, 1, 1, 1)
    game = new_game(apply(preset("standard"), "bidding=whiz,nil_pass=2"), [MIXED_DEAL])
    bid_round(game, {1: 6, 2: NIL, 3: NIL, 0: 7})  # seat 1 holds six spades, seat 0 seven
    assert phase(game) is Phase.PASSING and game.exchange.counts == (2, 2, 2, 2)


# -- refused passes -----------------------------------------------------------------


def _bidding() -> Game:
    game = new_game(rules_of("nil_pass=2", "blind-nil"), [MIXED_DEAL], seed=3)
    for seat, bid in ((1, NIL), (2, 3), (3, 4)):  # seat 0 still to bid
        game.bid(seat, bid, 10.0)
    return game


def _passed() -> Game:
    game = passing()
    give(game, 1, "2C 3C")
    return game


def _playing() -> Game:
    game = _passed()
    give(game, 3, "2D 3D")
    return game


def _over() -> Game:
    game = passing()
    game.resign(2, 30.0)
    return game


STATES = {
    "bidding": _bidding,
    "choosing": passing,
    "passed": _passed,
    "playing": _playing,
    "over": _over,
}


@pytest.mark.parametrize(
    ("state", "seat", "cards", "refusal", "message"),
    [
        ("choosing", 1, "2C", refusals.WrongPassCount, "pass exactly 2 cards"),
        ("choosing", 1, "2C 3C 4C", refusals.WrongPassCount, "pass exactly 2 cards"),
        ("choosing", 1, 0, refusals.WrongPassCount, "pass exactly 2 cards"),
        ("choosing", 1, -3, refusals.WrongPassCount, "pass exactly 2 cards"),
        ("choosing", 1, "2D 2C", refusals.CardNotInHand, "you can only pass cards from your hand"),
        ("choosing", 0, "AS KS", refusals.NotYourPass, "you pass no cards in this hand"),
        ("choosing", 2, "AC KC", refusals.NotYourPass, "you pass no cards in this hand"),
        ("choosing", 4, "2C 3C", refusals.NotSeated, "you are not seated at this table"),
        ("passed", 1, "4C 5C", refusals.AlreadyPassed, "you have already passed your cards"),
        ("bidding", 1, "2C 3C", refusals.WrongPhase, "no cards are passed now"),
        ("playing", 3, "2D 3D", refusals.WrongPhase, "no cards are passed now"),
        ("over", 1, "2C 3C", refusals.GameIsOver, "the game is over"),
    ],
)
def test_a_refused_pass_changes_nothing(
    state: str,
    seat: int,
    cards: str | int,
    refusal: type[refusals.IllegalAction],
    message: str,
) -> None:
    game = STATES[state]()
    before, exchange, actions = game.observable(), game.exchange, game.action_count
    hands = list(game.hands)
    with pytest.raises(refusal) as refused:
        give(game, seat, cards)
    assert type(refused.value) is refusal and refused.value.message == message
    assert game.observable() == before and game.exchange == exchange
    assert game.action_count == actions and game.hands == hands


@pytest.mark.parametrize("value", [0, -1, -(1 << 52)])
def test_a_pass_that_is_not_a_mask_is_refused(value: int) -> None:
    # A logged action's value is always an int (Action.from_logged): one
    # that names no cards, or is negative, is not a pass.
    game = passing()
    with pytest.raises(refusals.WrongPassCount):
        game.apply(Action(ActionKind.PASS, 1, value))
    assert game.exchange.choosing() == (1, 3)


def test_no_card_is_played_or_bid_while_the_cards_are_passed() -> None:
    game = passing()
    with pytest.raises(refusals.WrongPhase, match="play starts once the cards are passed"):
        game.play(1, mask("2C").bit_length() - 1)
    with pytest.raises(refusals.WrongPhase, match="bidding is over"):
        game.bid(1, 3)
    assert game.exchange.choosing() == (1, 3) and game.action_count == 4


# -- the exchange -------------------------------------------------------------------


def test_the_cards_change_hands_once_both_partners_have_chosen() -> None:
    game = passing()
    seat1, seat3 = game.hands[1], game.hands[3]
    assert phase(game) is Phase.PASSING and game.to_act == 1 and game.waited_on() == 1
    began = game.waiting_since
    give(game, 1, "7S 8C", at=21.0)
    assert game.hands[1] == seat1 and game.hands[3] == seat3  # face down until both chose
    assert game.exchange.choosing() == (3,) and game.to_act == 3
    assert game.waiting_since == began < 21.0  # one wait for the whole pass
    give(game, 3, "2D 3D", at=22.0)
    assert game.hands[1] == seat1 & ~mask("7S 8C") | mask("2D 3D")
    assert game.hands[3] == seat3 & ~mask("2D 3D") | mask("7S 8C")
    assert game.exchange.given == ((1, 3, mask("7S 8C")), (3, 1, mask("2D 3D")))
    assert phase(game) is Phase.PLAYING and game.to_act == game.leader == 1
    assert game.legal_play_mask(1)
    assert [a.kind for a in game.actions[-2:]] == [ActionKind.PASS, ActionKind.PASS]


def test_play_starts_after_every_exchange() -> None:
    game = passing("nil_pass=1", {1: NIL, 2: NIL, 3: 4, 0: 5})
    assert game.exchange.choosing() == (0, 1, 2, 3)
    give(game, 3, "AD")
    give(game, 1, "8C")
    assert game.hands[1] >> (mask("AD").bit_length() - 1) & 1  # the side 1-3 has exchanged
    assert phase(game) is Phase.PASSING and game.exchange.choosing() == (0, 2)
    assert game.to_act == 0
    give(game, 2, "AH")
    give(game, 0, "2H")
    assert phase(game) is Phase.PLAYING
    assert [g[:2] for g in game.exchange.given] == [(1, 3), (3, 1), (0, 2), (2, 0)]


def test_a_blind_nil_passes_the_blind_number() -> None:
    game = passing("nil_pass=1,blind_nil_pass=3", {1: BLIND_NIL, 2: 3, 3: 4, 0: 5})
    assert game.exchange.counts == (0, 3, 0, 3)
    give(game, 1, "2S 3S 4S")
    give(game, 3, "AD KD QD")
    assert phase(game) is Phase.PLAYING


def test_the_hand_s_record_lists_the_exchange() -> None:
    game = passing()
    give(game, 1, "7S 8C")
    give(game, 3, "2D 3D")
    play_out_lowest(game)
    record = game.hand_records[-1]
    assert record.dealt == MIXED_DEAL  # the hands as dealt, before the pass
    data = record.to_json("g", game.rules)
    assert data["passes"] == [
        {"seat": 1, "to": 3, "cards": ["8C", "7S"]},
        {"seat": 3, "to": 1, "cards": ["2D", "3D"]},
    ]
    assert (data["rules"]["nil_pass"], data["rules"]["blind_nil_pass"]) == (2, None)
    game.next_hand(0)
    assert game.exchange.given == () and phase(game) is Phase.BIDDING


# -- what each seat sees ------------------------------------------------------------


def _views(game: Game) -> list[dict[str, object]]:
    return [asdict(view_of(game, seat)) for seat in range(4)]


def test_nobody_but_the_partners_sees_the_cards_passed() -> None:
    # Two games where seat 1 passes different cards: what the others see
    # cannot depend on which.
    first, second = passing(), passing()
    give(first, 1, "2C 3C")
    give(second, 1, "7S 6S")
    one, two = _views(first), _views(second)
    assert first.observable() == second.observable()  # it says who chose, not what
    assert first.observable()["choosing"] == [3]
    for seat in (0, 2, 3):  # the partner too, until it has chosen
        assert one[seat] == two[seat]
        assert one[seat]["choosing"] == (3,) and one[seat]["passed"] == 0
    assert (one[1]["passed"], two[1]["passed"]) == (mask("2C 3C"), mask("7S 6S"))
    give(first, 3, "2D 3D")
    give(second, 3, "2D 3D")
    one, two = _views(first), _views(second)
    for seat in (0, 2):  # the opponents, once the cards changed hands
        assert one[seat] == two[seat]
        assert one[seat]["passed"] == one[seat]["received"] == 0
    assert one[3]["received"] == mask("2C 3C") and two[3]["received"] == mask("7S 6S")
    assert one[1]["received"] == mask("2D 3D") and one[1]["passed"] == mask("2C 3C")
    assert view_of(first, 3).hand & mask("2C 3C") == mask("2C 3C")


def test_every_seat_sees_who_is_still_choosing() -> None:
    game = passing()
    views = [view_of(game, seat) for seat in range(4)]
    assert all(v.choosing == (1, 3) and v.phase is Phase.PASSING for v in views)
    assert [v.pass_count for v in views] == [0, 2, 0, 2]
    assert views[1].my_turn and not views[3].my_turn


# -- the log --------------------------------------------------------------------------


def test_a_restart_in_the_middle_of_a_pass_replays_to_the_same_state() -> None:
    game = passing("nil_pass=1", {1: NIL, 2: NIL, 3: 4, 0: 5})
    give(game, 3, "AD")
    give(game, 1, "8C")
    give(game, 2, "AH")  # seat 0 still to choose
    # The store keeps each action as its kind and payload (bot.tables.registry).
    logged = [(a.kind.value, {"seat": a.seat, "value": a.value}, a.at) for a in game.actions]
    actions = [Action.from_logged(kind, payload, at) for kind, payload, at in logged]
    restarted = Game.replay(game.rules, game.seed, actions, fixed_deals=game.fixed_deals)
    assert restarted.observable() == game.observable()
    assert restarted.exchange == game.exchange and restarted.hands == game.hands
    from_json = Game.from_json(game.to_json())
    assert from_json.exchange == game.exchange and from_json.hands == game.hands
    for copy in (game, restarted, from_json):
        with pytest.raises(refusals.AlreadyPassed):
            give(copy, 2, "KH")
        give(copy, 0, "2H")
        play_out_lowest(copy)
    assert restarted.observable() == game.observable() == from_json.observable()
    assert restarted.hand_records[-1].to_json("g", game.rules) == game.hand_records[-1].to_json(
        "g", game.rules
    )
