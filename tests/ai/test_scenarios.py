"""The issue's scenarios with fixed hands, for both computer player levels."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.ai.base import Player
from bot.ai.heuristic import HeuristicPlayer
from bot.ai.search import SearchPlayer
from bot.game.cards import card_name, parse_card
from bot.game.rules import preset
from bot.game.scoring import BLIND_NIL, NIL
from bot.game.state import Game
from bot.game.types import Action, ActionKind
from bot.game.view import view_of
from tests.ai.positions import STANDARD, position


def heuristic() -> Player:
    return HeuristicPlayer()


def search() -> Player:
    # A sample limit instead of a deadline keeps the test reproducible.
    return SearchPlayer(seed=11, time_budget=30.0, max_samples=40)


PLAYERS = [pytest.param(heuristic, id="heuristic"), pytest.param(search, id="search")]
MakePlayer = Callable[[], Player]


def decide(make: MakePlayer, game: Game) -> Action:
    return make().decide(view_of(game, game.to_act))


def played(make: MakePlayer, game: Game) -> str:
    action = decide(make, game)
    assert action.kind is ActionKind.PLAY
    assert game.legal_play_mask(game.to_act) >> action.value & 1
    return card_name(action.value)


NIL_HAND = "2C 3C 4C 5C 2D 3D 4D 5D 2H 3H 4H 5H 2S"


@pytest.mark.parametrize("make", PLAYERS)
def test_bids_nil_with_low_cards(make: MakePlayer) -> None:
    game = position({3: NIL_HAND}, bids=[3, 4])
    action = decide(make, game)
    assert (action.kind, action.value) == (ActionKind.BID, NIL)


@pytest.mark.parametrize("make", PLAYERS)
def test_no_nil_after_partners_nil(make: MakePlayer) -> None:
    game = position({3: NIL_HAND}, bids=[NIL, 4])
    action = decide(make, game)
    assert action.kind is ActionKind.BID
    assert action.value >= 1


COVER_HANDS = {
    1: "2C 9D",
    2: "AC 2H 3D",
    3: "3C AH 4H KD 2D 4D 5C 6C 7C 6D 7D 2S 3S",
    0: "4C",
}


@pytest.mark.parametrize("make", PLAYERS)
def test_covers_partners_nil_when_second(make: MakePlayer) -> None:
    # Seat 1 bid Nil; seat 2 won the first trick and leads the two of
    # hearts; seat 3 plays before its partner and takes the trick high.
    game = position(COVER_HANDS, bids=[NIL, 3, 4, 4], plays="2C AC 3C 4C 2H")
    assert played(make, game) == "AH"


@pytest.mark.parametrize("make", PLAYERS)
def test_covers_partners_nil_when_third(make: MakePlayer) -> None:
    # The Nil bidder leads the nine of diamonds: its partner overtakes it.
    game = position(COVER_HANDS, bids=[NIL, 3, 4, 4], plays="9D 3D")
    card = played(make, game)
    assert parse_card(card) > parse_card("9D") and card.endswith("D")


BREAK_HANDS = {
    1: "AC KC QC 2H 7H 9H AD 5D 6D 3S 8S JS AS",
    2: "3D",
    3: "8D",
    0: "4D KD 2C 3C 4C 5C 6C 7C 2S 4S 5S 6S 7S",
}


@pytest.mark.parametrize("make", PLAYERS)
def test_leads_low_into_an_opponents_nil(make: MakePlayer) -> None:
    game = position(BREAK_HANDS, bids=[4, NIL, 3, 4])
    assert played(make, game) == "2H"


def test_leads_a_winner_without_an_opponents_nil() -> None:
    game = position(BREAK_HANDS, bids=[4, 2, 3, 4])
    assert played(heuristic, game) in ("AC", "AD")


@pytest.mark.parametrize("make", PLAYERS)
def test_ducks_under_an_opponents_nil(make: MakePlayer) -> None:
    # Seat 3 bid Nil and is winning the trick with the eight after its
    # partner: seat 0, last to play, stays under it though its side needs
    # tricks.
    game = position(BREAK_HANDS, bids=[4, 3, NIL, 4], plays="5D 3D 8D")
    assert played(make, game) == "4D"


def void_game(partner_follows: bool) -> Game:
    partner_card = "2H" if partner_follows else "2C"
    hands = {
        1: "AH 5H 6H 7H 8H 7C 8C 9D TD 4S 6S 7S 9S",
        2: "3H",
        3: f"{partner_card} 3C 4C 5C 6C 2D 3D 4D 5D 6D 2S 3S 5S",
        0: "4H",
    }
    return position(hands, bids=[3, 3, 3, 3], plays=f"AH 3H {partner_card} 4H")


def test_leads_the_suit_its_partner_is_out_of() -> None:
    assert played(heuristic, void_game(partner_follows=False)) == "5H"
    assert played(heuristic, void_game(partner_follows=True)) != "5H"


def spade_void_game(opponent_has_spades: bool) -> Game:
    seat2 = "2C 3C 4C 5C 6C TC JC QC KC AC TH JH QH"
    if opponent_has_spades:
        seat2, third_trick = "2C 2S 4C 5C 6C TC JC QC KC AC TH JH QH", "2S"
    else:
        third_trick = "3C"
    hands = {
        1: "3D AD 5S 7D 8D 9D TD JD 6H 7H 8H 9H 2D",
        2: seat2,
        3: "5D 6D 3S KS QS JS TS 2H 3H 4H 5H KH AH",
        0: "4D 6S 4S",
    }
    # Seat 1 holds no clubs: with some, leading one for its partner to trump
    # (likely short in them, given the unseen cards) rivals cashing the ace.
    # Trick 1: seat 2 shows out of diamonds and seat 3 wins. Trick 2: seat 0
    # trumps a heart. Trick 3: seat 2 shows out of spades too, or follows.
    return position(
        hands, bids=[3, 2, 5, 3], plays=f"3D 2C 5D 4D 4H 6S 6H TH 4S 5S {third_trick} 3S"
    )


@pytest.mark.parametrize("make", PLAYERS)
def test_cashes_an_ace_when_the_opponent_out_of_the_suit_has_no_spades(make: MakePlayer) -> None:
    assert played(make, spade_void_game(opponent_has_spades=False)) == "AD"


def test_keeps_an_ace_an_opponent_could_trump() -> None:
    assert played(heuristic, spade_void_game(opponent_has_spades=True)) != "AD"


BAG_HANDS = {
    1: "AC AD 2H",
    2: "2C 2D 9H",
    3: "3C 3D AH 3H 5C 6C 7C 5D 6D 7D 2S 5S 8S",
    0: "4C 4D",
}
BAG_PLAYS = "AC 2C 3C 4C AD 2D 3D 4D 2H 9H"


@pytest.mark.parametrize("make", PLAYERS)
def test_avoids_the_tenth_bag_once_the_contract_is_made(make: MakePlayer) -> None:
    # Seats 1 and 3 bid 1 each and have taken two tricks; nine bags already.
    game = position(BAG_HANDS, bids=[1, 3, 1, 3], plays=BAG_PLAYS, bags=(0, 9))
    assert played(make, game) == "3H"


@pytest.mark.parametrize("make", PLAYERS)
def test_takes_the_trick_that_sets_the_opponents(make: MakePlayer) -> None:
    # The opponents bid 11 and need every trick left: setting them (a swing
    # of 220) is worth the tenth bag (100).
    game = position(BAG_HANDS, bids=[1, 5, 1, 6], plays=BAG_PLAYS, bags=(0, 9))
    assert played(make, game) == "AH"


def test_lets_the_set_go_when_the_bag_costs_more() -> None:
    rules = STANDARD.with_options(bag_penalty=300)
    game = position(BAG_HANDS, bids=[1, 5, 1, 6], plays=BAG_PLAYS, bags=(0, 9), rules=rules)
    assert played(heuristic, game) == "3H"


def test_sets_at_any_cost_when_the_opponents_contract_wins_them_the_game() -> None:
    # As above, but the opponents stand at 450: making 11 takes them past 500.
    rules = STANDARD.with_options(bag_penalty=300)
    game = position(
        BAG_HANDS, bids=[1, 5, 1, 6], plays=BAG_PLAYS, bags=(0, 9), rules=rules, scores=(450, 300)
    )
    assert played(heuristic, game) == "AH"


BLIND_NIL_RULES = preset("blind-nil")


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        # Seat 1 bids first; its side's score is the second.
        ((50, 0), ActionKind.LOOK),  # Blind Nil is not open: less than 100 behind
        ((120, 0), ActionKind.LOOK),  # open, but not worth the gamble yet
        ((300, -50), ActionKind.BID),  # far behind: Blind Nil
        ((400, 250), ActionKind.BID),  # behind and the other side is near the target
    ],
)
def test_heuristic_blind_nil_only_when_far_behind(
    scores: tuple[int, int], expected: ActionKind
) -> None:
    game = position({}, rules=BLIND_NIL_RULES, scores=scores)
    view = view_of(game, 1)
    assert view.hand == 0  # withheld until the seat looks
    action = heuristic().decide(view)
    assert action.kind is expected
    if expected is ActionKind.BID:
        assert action.value == BLIND_NIL


@pytest.mark.parametrize("make", PLAYERS)
def test_looks_before_bidding_at_a_blind_nil_table(make: MakePlayer) -> None:
    game = position({}, rules=BLIND_NIL_RULES, scores=(0, 0))
    assert decide(make, game).kind is ActionKind.LOOK
    game.look(1)
    assert decide(make, game).kind is ActionKind.BID


def test_search_weighs_blind_nil_when_far_behind() -> None:
    # 300 behind with the other side 60 from the target: a sure loss
    # without a big swing, so Blind Nil is worth its risk.
    game = position({}, rules=BLIND_NIL_RULES, scores=(440, 140))
    action = search().decide(view_of(game, 1))
    assert (action.kind, action.value) == (ActionKind.BID, BLIND_NIL)
