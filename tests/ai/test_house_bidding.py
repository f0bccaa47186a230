"""The computer players bid by the table's house rules: trumps counted in
the deck's order (jokers, the jjdd two of diamonds), who bids Nil under
Suicide, Nil or the count under Whiz, a contract stretched to 10 at a
10-for-200 table; and they read a spade lead where spades lead at any time."""

from __future__ import annotations

import random
from dataclasses import replace

from bot.ai.bidding import as_standard, estimate_tricks, nil_danger, sure_spade_tricks
from bot.ai.heuristic import HeuristicPlayer
from bot.ai.knowledge import knowledge_of
from bot.ai.sampling import DealSampler
from bot.game.bidding import spade_count
from bot.game.cards import (
    DECK_MASKS,
    NON_SPADE_MASK,
    SPADES,
    cards_of,
    mask_of,
    parse_cards,
    suit_pattern,
)
from bot.game.house import apply
from bot.game.rules import RuleSet, preset
from bot.game.scoring import NIL
from bot.game.state import Game
from bot.game.view import view_of
from tests.ai.positions import position

SIDE = "JH 3C 4C 5C 6C 7C 8C 9C TC"  # nine side cards, no sure trick


def rules(house: str) -> RuleSet:
    return apply(preset("standard"), house)


def hand(text: str, deck: str = "standard") -> int:
    return mask_of(parse_cards(text, deck))


def heuristic_bid(house: str, hands: dict[int, str], bids: list[int]) -> int:
    game = position(hands, bids=bids, rules=rules(house))
    action = HeuristicPlayer().decide(view_of(game, game.to_act))
    return action.value


def test_both_jokers_count_as_the_two_top_sure_trump_tricks() -> None:
    jokers = hand(f"BJ LJ 3S 4S {SIDE}", "jokers")
    top = hand(f"AS KS 3S 4S {SIDE}")
    spades = suit_pattern(as_standard(jokers, "jokers"), SPADES)
    assert sure_spade_tricks(spades, 15) == 2
    assert estimate_tricks(jokers, "jokers") == estimate_tricks(top)
    # In the jokers deck the ace and king of spades are third and fourth.
    assert estimate_tricks(top, "jokers") < estimate_tricks(top) - 0.5
    assert nil_danger(jokers, "jokers") >= 9  # never a Nil with a joker


def test_the_jjdd_two_of_diamonds_is_a_spade_of_the_count() -> None:
    four = hand(f"BJ LJ 2D 2S {SIDE}", "jjdd")
    assert four & NON_SPADE_MASK == hand(SIDE)  # the 2D is no diamond
    spades = suit_pattern(as_standard(four, "jjdd"), SPADES)
    assert sure_spade_tricks(spades, 16) == 4
    others = _rest(four, "jjdd")
    game = position([others[0], four, others[1], others[2]], rules=rules("deck=jjdd"))
    assert game.to_act == 1
    assert HeuristicPlayer().decide(view_of(game, 1)).value >= 4


def _rest(first: int, deck: str) -> list[int]:
    """The rest of ``deck`` in three hands."""
    others = cards_of(DECK_MASKS[deck] & ~first)
    return [mask_of(others[i * 13 : i * 13 + 13]) for i in range(3)]


WEAK = "2S 3S 2H 3H 4H 5H 6H 2D 3D 4D 5D 6D 7D"
STRONG = "AS KS QS 5S AH KH 4H AD KD 3D 2C 3C 4C"


def test_suicide_the_first_partner_with_the_weak_hand_bids_nil() -> None:
    assert heuristic_bid("bidding=suicide", {1: WEAK}, []) == NIL
    strong = heuristic_bid("bidding=suicide", {1: STRONG}, [])
    assert strong >= 4
    # The partner completes the format: Nil behind a number, 4+ behind a Nil.
    assert heuristic_bid("bidding=suicide", {3: STRONG}, [NIL, 4]) >= 4
    assert heuristic_bid("bidding=suicide", {3: STRONG}, [strong, 4]) == NIL


def test_whiz_bids_nil_with_low_cards_and_the_count_with_high_spades() -> None:
    assert heuristic_bid("bidding=whiz", {1: WEAK}, []) == NIL
    assert heuristic_bid("bidding=whiz", {1: STRONG}, []) == 4  # its four spades
    no_spade = "AH KH QH JH TH 9H 8H AD KD QD JD AC KC"
    assert heuristic_bid("bidding=whiz", {1: no_spade}, []) == NIL  # the only bid


def test_ten_for_200_stretches_the_contract_to_ten() -> None:
    partner, second = 6, "AS QS 5S 4S AH 4H 3H 3D 2D 3C 2C 5C 6C"  # counts 3.77
    plain = heuristic_bid("ten_for_200=off", {3: second}, [partner, 2])
    stretched = heuristic_bid("ten_for_200=on", {3: second}, [partner, 2])
    assert plain < 4 and stretched == 4


def test_a_spade_lead_says_nothing_of_other_suits_where_spades_lead_any_time() -> None:
    # Spades unbroken, a spade lead comes from a hand of nothing else ...
    only_spades = {1: "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"}
    game = position(only_spades, bids=[13, NIL, NIL, NIL], plays="2S", rules=rules(""))
    forbidden = knowledge_of(view_of(game, game.to_act)).forbidden[1]
    assert forbidden & NON_SPADE_MASK == NON_SPADE_MASK
    # ... where spades lead at any time, it says nothing of the other suits.
    mixed = {1: "2S 3S 2H 3H 4H 5H 6H 2D 3D 4D 5D 6D 7D"}
    game = position(mixed, bids=[1, 3, 3, 3], plays="2S", rules=rules("spades_lead=any"))
    assert not knowledge_of(view_of(game, game.to_act)).forbidden[1] & NON_SPADE_MASK


def _sampled(house: str, seed: int, deals: int, aware: bool = True) -> tuple[Game, list[list[int]]]:
    """The hands the search player imagines for seat 0, bidding last (read
    as under the standard rules unless ``aware``)."""
    game = Game.new(rules(house), seed)
    player = HeuristicPlayer()
    while game.to_act != 0:
        game.apply(player.decide(view_of(game, game.to_act)))
    knowledge = knowledge_of(view_of(game, 0))
    if not aware:
        knowledge = replace(knowledge, rules=preset("standard"))
    sampler = DealSampler(knowledge, view_of(game, 0).bids)
    rng = random.Random(seed)
    return game, [sampler.sample(rng) for _ in range(deals)]


def test_the_search_deals_the_unseen_cards_of_the_tables_deck() -> None:
    for deck in ("jokers", "jokers-deuce", "jjdd"):
        game, deals = _sampled(f"deck={deck}", 3, 20)
        for hands in deals:
            assert hands[0] == game.hands[0]
            assert hands[0] | hands[1] | hands[2] | hands[3] == DECK_MASKS[deck]
            assert [h.bit_count() for h in hands] == [13] * 4


def test_under_mirror_the_search_deals_each_bidder_its_count_of_spades() -> None:
    def fitting(aware: bool) -> int:
        game, deals = _sampled("bidding=mirror", 8, 60, aware)
        bids = view_of(game, 0).bids
        return sum(
            all(spade_count(hands[s]) == max(bids[s] or 0, 0) for s in (1, 2, 3)) for hands in deals
        )

    # The same deals drawn reading the bids as counts of spades, or not.
    assert fitting(True) >= 2 * fitting(False) + 5
