"""Random complete games under every deck and bidding format, checked card by
card against a plain restatement of the rules: the cards are conserved, every
hand has 13 tricks, only legal cards are played and every bid is one the
format allows."""

from __future__ import annotations

import itertools
import random

import pytest

from bot.game.bidding import spade_count
from bot.game.cards import DECK_MASKS, DECKS, SPADE_MASK, SUIT_MASKS, cards_of, suit_of
from bot.game.house import apply
from bot.game.refusals import IllegalAction
from bot.game.rules import Bidding, RuleSet, preset
from bot.game.scoring import BLIND_NIL, NIL
from bot.game.state import Game
from bot.game.types import Action, ActionKind, Phase

MAX_HANDS = 60
VARIANTS = [
    f"deck={deck},bidding={form}"
    for deck, form in itertools.product(DECKS, [b.value for b in Bidding])
] + [
    "deck=jjdd,spades_lead=any,min_team_bid=5",
    "deck=jokers,bidding=suicide,min_team_bid=6",
    "nil=off,min_team_bid=3,first_lead=lowclub,deck=jokers-deuce",
    # The Nil passes, with the other rules they may be played with.
    *(
        f"nil_pass={n},blind_nil_pass={4 - n},{text}"
        for n, text in zip(
            (1, 2, 3, 3),
            (
                "bidding=suicide,deck=jokers",
                "bidding=whiz,deck=jjdd,spades_lead=any",
                "min_team_bid=4,first_lead=lowclub,nil=50,nil_tricks=contract",
                "deck=jokers-deuce,boston=200,ten_for_200=on,bags=5:50",
            ),
            strict=True,
        )
    ),
    "nil_pass=2,blind_nil_pass=off,bidding=suicide",
    "nil_pass=off,blind_nil_pass=1",
]


def rules_of(text: str) -> RuleSet:
    # Short games, revokes refused so that every card played is a legal one;
    # Blind Nil where the format has a choice.
    base = (
        preset("blind-nil") if "mirror" not in text and "whiz" not in text else preset("standard")
    )
    return apply(base.with_options(revokes="blocked"), f"target=200,floor=-200,{text}")


def restated_legal(game: Game, seat: int) -> int:
    """The cards the seat may play, from the rules' text rather than the engine's tables."""
    hand = game.hands[seat]
    if game.trick:
        led = suit_of(game.trick[0])
        same = [c for c in cards_of(hand) if suit_of(c) == led]
        return sum(1 << c for c in same) or hand
    if not game.tricks and game.rules.first_lead.value == "lowest_club":
        clubs = [c for c in cards_of(hand) if suit_of(c) == 0]
        if clubs:
            return 1 << min(clubs)
        return sum(1 << c for c in cards_of(hand) if suit_of(c) != 3) or hand
    if game.spades_broken:
        return hand
    return sum(1 << c for c in cards_of(hand) if suit_of(c) != 3) or hand


def check_bids(rules: RuleSet, game: Game) -> None:
    """The four bids of the hand against the format."""
    bids = game.bids
    for seat in range(4):
        bid = bids[seat]
        assert bid is not None
        count = spade_count(game.dealt[seat])
        if rules.bidding is Bidding.MIRROR:
            assert bid == (count or NIL)
        elif rules.bidding is Bidding.WHIZ:
            assert bid in (NIL, count)
        else:
            assert bid in (BLIND_NIL, *(() if rules.nil_value is None else (NIL,)), *range(1, 14))
    for team in (0, 1):
        pair = (bids[team], bids[team + 2])
        zeros = sum(1 for b in pair if b is not None and b <= 0)
        numbers = sum(b for b in pair if b is not None and b > 0)
        if rules.bidding is Bidding.SUICIDE:
            assert zeros == 1 and numbers >= max(4, rules.min_team_bid)
        elif rules.min_team_bid:
            assert numbers >= rules.min_team_bid


def restated_counts(rules: RuleSet, bids: list[int | None]) -> list[int]:
    """Per seat, the cards it passes, from the rules' text: a side with one
    Nil passes that Nil's number of cards each way; two Nils pass nothing."""
    counts = [0, 0, 0, 0]
    for team in (0, 1):
        zeros = [s for s in (team, team + 2) if (bids[s] or 0) <= 0]
        if len(zeros) == 1:
            size = rules.blind_nil_pass if bids[zeros[0]] == BLIND_NIL else rules.nil_pass
            counts[team] = counts[team + 2] = size or 0
    return counts


def random_pass(rules: RuleSet, game: Game, rng: random.Random) -> None:
    """One seat's pass in the PASSING phase, after a refused one; the cards
    are conserved and play starts once every exchange is made."""
    counts = restated_counts(rules, game.bids)
    assert list(game.exchange.counts) == counts
    seat = game.to_act
    assert seat == game.exchange.choosing()[0]
    held = cards_of(game.hands[seat])
    before = game.observable()
    with pytest.raises(IllegalAction):
        game.apply(Action(ActionKind.PASS, seat, sum(1 << c for c in held[: counts[seat] + 1])))
    assert game.observable() == before
    union = game.hands[0] | game.hands[1] | game.hands[2] | game.hands[3]
    given = sum(1 << c for c in rng.sample(held, counts[seat]))
    game.apply(Action(ActionKind.PASS, seat, given))
    assert game.hands[0] | game.hands[1] | game.hands[2] | game.hands[3] == union
    assert [h.bit_count() for h in game.hands] == [13] * 4
    partner = seat ^ 2
    if game.exchange.chosen[partner]:  # the exchange is made
        assert game.hands[partner] & given == given
    assert (game.phase is Phase.PLAYING) == (not game.exchange.choosing())


def play_random_game(rules: RuleSet, seed: int) -> Game:
    rng = random.Random(seed)
    game = Game.new(rules, seed)
    deck = DECK_MASKS[rules.deck]
    while not game.over and game.hand_number <= MAX_HANDS:
        if game.phase is Phase.HAND_OVER:
            game.next_hand(0)
            continue
        if game.phase is Phase.BIDDING:
            if game.to_act == (game.dealer + 1) & 3 and not game.bid_order:
                assert [h.bit_count() for h in game.dealt] == [13] * 4
                assert game.dealt[0] | game.dealt[1] | game.dealt[2] | game.dealt[3] == deck
            seat = game.to_act
            offered = game.legal_bids(seat)
            assert offered
            # Mostly low bids, so that contracts are made and games last some hands.
            low = [b for b in offered if b <= 3]
            game.bid(seat, rng.choice(low if low and rng.random() < 0.8 else offered))
            if len(game.bid_order) == 4:
                check_bids(rules, game)
                passes = any(restated_counts(rules, game.bids))
                assert game.observable()["phase"] == ("passing" if passes else "playing")
            continue
        if game.phase is Phase.PASSING:
            random_pass(rules, game, rng)
            continue
        seat = game.to_act
        legal = game.legal_play_mask(seat)
        assert legal == restated_legal(game, seat)
        held = game.hands[seat]
        illegal = cards_of(held & ~legal)
        if illegal:
            before = game.observable()
            with pytest.raises(IllegalAction):
                game.play(seat, rng.choice(illegal))
            assert game.observable() == before
        records = len(game.hand_records)
        game.play(seat, rng.choice(cards_of(legal)))
        if len(game.hand_records) > records:  # the hand's last card
            record = game.hand_records[-1]
            assert len(record.tricks) == 13 and sum(record.tricks_won) == 13
            played = 0
            for trick in record.tricks:
                for c in trick.cards:
                    assert not played >> c & 1
                    played |= 1 << c
            assert played == deck
            assert game.hands == [0, 0, 0, 0]
    return game


@pytest.mark.parametrize("text", VARIANTS)
def test_random_games_keep_the_rules(text: str) -> None:
    rules = rules_of(text)
    finished = 0
    for seed in range(8):
        game = play_random_game(rules, seed)
        finished += game.over
        assert game.hand_records
    assert finished >= 6


# The jokers are spades, and in jjdd the two of diamonds too.
SPADES_IN = {"standard": 13, "jokers": 15, "jokers-deuce": 15, "jjdd": 16}


def test_spades_are_the_spade_mask_in_every_deck() -> None:
    for deck in DECKS:
        spades = [c for c in cards_of(DECK_MASKS[deck]) if suit_of(c) == 3]
        assert len(spades) == SPADES_IN[deck]
        assert sum(1 << c for c in spades) == DECK_MASKS[deck] & SPADE_MASK
        assert SUIT_MASKS[3] == SPADE_MASK
