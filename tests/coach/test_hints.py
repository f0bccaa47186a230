"""Hints: the search player's choice for the seat on turn, with a reason a
beginner understands, from that seat's view only."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.ai.search import SearchPlayer
from bot.coach.hint import HINT_SAMPLES, HINT_SEED, hint_for
from bot.coach.reasons import Count, Reason, Why, count_of, reason_for, sure_tricks
from bot.game.cards import BIG_JOKER, DIAMONDS, LITTLE_JOKER, mask_of, parse_card, parse_cards
from bot.game.house import apply
from bot.game.rules import PRESETS
from bot.game.types import Action, ActionKind
from bot.game.view import view_of
from bot.render.coach_text import hint_text, reason_text
from tests.ai.positions import position
from tests.ai.test_view_only import positions
from tests.coach.scenarios import (
    Scenario,
    count_sure_tricks,
    cover_partner_nil,
    lead_low_into_nil,
    stop_once_made,
)

NAMES = ["Ann", "Bob", "Cat", "Dan"]

#: Per tip: the scenario, the reason the hint must give, and its sentence.
TIPS: list[tuple[Callable[[], Scenario], Why, str]] = [
    (cover_partner_nil, Why.COVER_NIL, "💡 Your partner bid Nil: cover with A♥."),
    (
        lead_low_into_nil,
        Why.NIL_LEAD_LOW,
        "💡 Cat bid Nil: lead your low 2♦, so that they may have to win it.",
    ),
    (
        stop_once_made,
        Why.DUCK_MADE,
        "💡 Your team has made its 2: duck with 3♦ to avoid a bag.",
    ),
    (
        count_sure_tricks,
        Why.BID_COUNT,
        "💡 Bid 4: A♥, A♠, K♠ guarded, a void in diamonds with spades to trump.",
    ),
]


@pytest.mark.parametrize(("make", "why", "text"), TIPS, ids=lambda t: getattr(t, "__name__", ""))
def test_the_hint_follows_each_tip(make: Callable[[], Scenario], why: Why, text: str) -> None:
    scenario = make()
    game = scenario.game
    seat = game.to_act
    hint = hint_for(view_of(game, seat))
    assert hint.action.seat == seat
    assert hint.action.value in scenario.right
    assert hint.action.value != scenario.wrong
    assert hint.reason.why is why
    assert hint_text(hint.reason, NAMES) == text


def test_a_bid_hint_lists_the_sure_tricks_it_counts() -> None:
    game = count_sure_tricks().game
    hint = hint_for(view_of(game, game.to_act))
    assert hint.action.kind is ActionKind.BID
    items = {(i.kind, i.card, i.suit) for i in hint.reason.items}
    assert items == {
        (Count.ACE, parse_card("AH"), None),
        (Count.TOP_SPADE, parse_card("AS"), None),
        (Count.TOP_SPADE, parse_card("KS"), None),
        (Count.VOID, None, DIAMONDS),
    }


@pytest.mark.parametrize("rules_name", sorted(PRESETS))
def test_the_hint_does_not_change_with_the_hidden_cards(rules_name: str) -> None:
    checked = 0
    for game, twin in positions(rules_name, count=12, seed=23):
        seat = game.to_act
        view, twin_view = view_of(game, seat), view_of(twin, seat)
        assert view == twin_view and game.hands != twin.hands
        # A sample limit instead of a deadline: the same view, the same search.
        hint = hint_for(view, SearchPlayer(seed=5, time_budget=60.0, max_samples=4))
        twin_hint = hint_for(twin_view, SearchPlayer(seed=5, time_budget=60.0, max_samples=4))
        assert hint == twin_hint
        assert hint_text(hint.reason, NAMES) == hint_text(twin_hint.reason, NAMES)
        checked += 1
    assert checked == 12


@pytest.mark.parametrize("make", [cover_partner_nil, lead_low_into_nil, stop_once_made])
def test_the_scenarios_hints_do_not_change_with_the_hidden_cards(
    make: Callable[[], Scenario],
) -> None:
    """The tip's position with the other seats' unplayed cards of one suit
    exchanged: the same hint, for the same reason."""
    game = make().game
    seat = game.to_act
    twin_deal = _swap_hidden(game.dealt, game.hands, seat)
    replayed = type(game).replay(game.rules, game.seed, list(game.actions), fixed_deals=[twin_deal])
    assert view_of(replayed, seat) == view_of(game, seat)
    assert replayed.hands != game.hands
    # The hint's sample count, not its wall-clock limit, must end the search
    # here: on a loaded machine the limit comes first and the hint varies.
    patient = SearchPlayer(seed=HINT_SEED, time_budget=60.0, max_samples=HINT_SAMPLES)
    assert hint_for(view_of(replayed, seat), patient) == hint_for(view_of(game, seat), patient)


def _swap_hidden(dealt: list[int], hands: list[int], seat: int) -> list[int]:
    """The deal with one unplayed card of the same suit exchanged between two
    other seats (the first such pair found)."""
    others = [s for s in range(4) if s != seat]
    for a in others:
        for b in others:
            if a >= b:
                continue
            for suit in range(4):
                mask = ((1 << 13) - 1) << (13 * suit)
                mine, theirs = hands[a] & mask, hands[b] & mask
                if mine and theirs:
                    give, take = mine & -mine, theirs & -theirs
                    swapped = list(dealt)
                    swapped[a] ^= give | take
                    swapped[b] ^= give | take
                    return swapped
    raise AssertionError("no card to exchange")


def test_no_hint_for_a_seat_not_on_turn() -> None:
    game = stop_once_made().game
    with pytest.raises(ValueError, match="nothing to decide"):
        hint_for(view_of(game, (game.to_act + 1) & 3))


def test_every_reason_has_its_sentence() -> None:
    for why in Why:
        cards = 1 << parse_card("AS") | 1 << parse_card("KH")
        reason = Reason(why, parse_card("7H"), parse_card("9H"), seat=1, number=2, cards=cards)
        text = reason_text(reason, NAMES)
        assert text.endswith(".") and "{" not in text


def test_a_bid_far_below_the_count_names_the_partners_bid() -> None:
    # Seat 1 (Bob) bid 10; seat 3 counts four sure tricks, and its side's
    # two bids must fit in 13: the reason is Bob's bid, not "a little low".
    hand = "AS KS 5S AH 7H 4H 2H 9C 8C 6C 5C 3C 2C"
    game = position({3: hand}, bids=[10, 1])
    view = view_of(game, 3)
    reason = reason_for(view, Action(ActionKind.BID, 3, 1))
    assert reason.why is Why.BID_UNDER_PARTNER
    assert (reason.seat, reason.claimed) == (1, 10)
    text = reason_text(reason, NAMES)
    assert text == (
        "Bid 1: you count 4 tricks (A♥, A♠, K♠ guarded, a void in diamonds with spades"
        " to trump), but Bob bid 10, and your side's two bids must fit in the 13 tricks"
        " of the hand."
    )
    assert "a little low" not in text
    # One below the count is still "a little low".
    close = reason_for(view, Action(ActionKind.BID, 3, 3))
    assert close.why is Why.BID_COUNT
    assert "a little low" in reason_text(close, NAMES)


def test_a_bid_far_below_the_count_after_the_others_bid_names_their_bids() -> None:
    hand = "AS KS 5S AH 7H 4H 2H 9C 8C 6C 5C 3C 2C"
    game = position({0: hand}, bids=[5, 5, 1])  # seats 1, 2 and 3 have bid
    reason = reason_for(view_of(game, 0), Action(ActionKind.BID, 0, 1))
    assert reason.why is Why.BID_UNDER_TABLE
    assert reason.claimed == 11
    assert "the others have bid 11 tricks" in reason_text(reason, NAMES)


def test_a_counted_bid_says_the_table_bids_the_spades() -> None:
    rules = apply(PRESETS["standard"], "bidding=mirror")
    game = position({1: "AS KS 5S AH 7H 4H 2H 9C 8C 6C 5C 3C 2C"}, rules=rules)
    hint = hint_for(view_of(game, 1))
    assert hint.action.value == 3
    assert hint.reason.why is Why.BID_SPADES
    assert hint_text(hint.reason, NAMES) == (
        "💡 Bid 3: at this table a bid is the number of spades you hold."
    )


def test_the_bid_count_reads_the_jokers_as_the_top_trumps() -> None:
    hand = mask_of(parse_cards("BJ LJ AS 4S JH 3C 4C 5C 6C 7C 8C 9C TC", "jokers"))
    tops = [(i.card, i.number) for i in sure_tricks(hand, "jokers") if i.kind is Count.TOP_SPADE]
    # The Big Joker needs no guard, the Little Joker one, the ace of spades two.
    assert tops == [(BIG_JOKER, 0), (LITTLE_JOKER, 1), (parse_card("AS"), 2)]
    assert count_of(sure_tricks(hand, "jokers")) == 4  # and a fourth spade
