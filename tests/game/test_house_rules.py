"""House rules: the decks with jokers, the bidding formats, the scoring
options, the KEY=VALUE text and the rule sets stored before they existed."""

from __future__ import annotations

import itertools

import pytest

from bot.game import refusals
from bot.game.bidding import legal_bids, spade_count
from bot.game.cards import (
    BIG_JOKER,
    DECK_MASKS,
    DECKS,
    HIGH_TWO_OF_SPADES,
    LITTLE_JOKER,
    SPADES,
    TRUMP_TWO_OF_DIAMONDS,
    card_name,
    cards_of,
    deck_cards,
    parse_card,
    parse_cards,
    rank_of,
    suit_cards,
    suit_of,
)
from bot.game.deal import deal
from bot.game.house import (
    KEYS,
    HouseRuleError,
    apply,
    changed_keys,
    house_text,
    parse_house,
    resolved,
)
from bot.game.rules import PRESETS, Bidding, Deck, RuleSet, SpadesLead, preset
from bot.game.scoring import BLIND_NIL, NIL, score_team
from bot.game.state import Game
from bot.game.trick import BEATERS, Trick, breaks_spades, lead_mask, legal_mask, winning_index
from bot.game.types import Phase
from bot.game.view import view_of

STANDARD = preset("standard")
FORMATS = [b.value for b in Bidding]


def house(text: str, base: str = "standard") -> RuleSet:
    return apply(preset(base), text)


def cards(text: str, deck: str) -> list[int]:
    return parse_cards(text, deck)


def hand_of(text: str, deck: str) -> int:
    mask = 0
    for card in cards(text, deck):
        mask |= 1 << card
    return mask


# -- stored rule sets ----------------------------------------------------------


NEW_FIELDS = {"deck", "bidding", "boston", "ten_for_200", "spades_lead", "min_team_bid"}


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_rule_set_stored_before_house_rules_loads_as_before(name: str) -> None:
    stored = {k: v for k, v in PRESETS[name].model_dump(mode="json").items()}
    for field in NEW_FIELDS:
        del stored[field]
    loaded = RuleSet.model_validate(stored)
    assert loaded == PRESETS[name]
    assert resolved(loaded)["deck"] == "standard" and resolved(loaded)["bidding"] == "open"


def test_a_stored_rule_set_with_its_own_options_keeps_them() -> None:
    stored = {"preset": "standard", "target": 250, "revokes": "blocked", "nil_value": 50}
    rules = RuleSet.model_validate(stored)
    assert (rules.target, rules.revokes.value, rules.nil_value) == (250, "blocked", 50)
    assert rules.deck is Deck.STANDARD and rules.min_team_bid == 0


# -- the KEY=VALUE text ----------------------------------------------------------


def test_every_key_s_value_syntax() -> None:
    text = (
        "teams=partners,deck=jjdd,bidding=suicide,nil=50,nil_tricks=contract,blind_nil=100:200,"
        "bags=5:50,set=short,boston=200,ten_for_200=on,spades_lead=any,"
        "first_lead=lowclub,min_team_bid=5,target=300,floor=-500,nil_pass=3,blind_nil_pass=1"
    )
    assert list(parse_house(text)) == list(KEYS)
    rules = house(text)
    assert resolved(rules) == {
        "teams": "partners",
        "deck": "jjdd",
        "bidding": "suicide",
        "nil": 50,
        "nil_tricks": "contract",
        "blind_nil": [100, 200],
        "bags": [5, 50],
        "set": "short",
        "boston": 200,
        "ten_for_200": True,
        "spades_lead": "any",
        "first_lead": "lowclub",
        "min_team_bid": 5,
        "target": 300,
        "floor": -500,
        "nil_pass": 3,
        "blind_nil_pass": 1,
    }
    assert house(house_text(rules)) == rules
    assert set(changed_keys(rules, STANDARD)) == set(KEYS) - {"teams"}  # partners: the default
    assert changed_keys(house("nil=100,deck=jokers"), STANDARD) == ("deck",)


def test_off_values() -> None:
    rules = house(
        "nil=off,blind_nil=off,bags=off,boston=off,ten_for_200=off,floor=off,"
        "nil_pass=off,blind_nil_pass=off",
        "blind-nil",
    )
    values = resolved(rules)
    off = ("nil", "blind_nil", "bags", "boston", "floor", "nil_pass", "blind_nil_pass")
    assert [values[k] for k in off] == [None] * 7
    assert values["ten_for_200"] is False
    assert rules.nil_value is None and rules.bag_penalty == 0 and rules.losing_score is None


def test_first_lead_any_keeps_a_preset_s_own_rule() -> None:
    assert house("first_lead=any", "cardgames").first_lead is PRESETS["cardgames"].first_lead
    assert house("first_lead=any", "low-club").first_lead is STANDARD.first_lead
    assert resolved(house("first_lead=lowclub", "cardgames"))["first_lead"] == "lowclub"


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("colour=red", "unknown house rule 'colour'"),
        ("deck=tarot", "bad value deck=tarot: expected standard|jokers|jokers-deuce|jjdd"),
        ("nil=75", "bad value nil=75: expected off|50|100"),
        ("blind_nil=100", "bad value blind_nil=100: expected off or T:V"),
        ("bags=x:1", "bad value bags=x:1"),
        ("ten_for_200=yes", "bad value ten_for_200=yes: expected on|off"),
        ("target", "house rule target needs a value"),
        ("target=500,target=300", "house rule target is given twice"),
        ("target=125", "target must be 100 to 1000 in steps of 50"),
        ("target=1050", "target must be 100 to 1000 in steps of 50"),
        ("floor=-75", "floor must be off or -100 to -1000 in steps of 50"),
        ("floor=100", "floor must be off or -100 to -1000 in steps of 50"),
        ("nil=off,bidding=suicide", "nil cannot be off with suicide bidding"),
        ("nil=off,bidding=whiz", "nil cannot be off with whiz bidding"),
        ("min_team_bid=4,bidding=mirror", "min_team_bid must be 0 with mirror bidding"),
        ("min_team_bid=4,bidding=whiz", "min_team_bid must be 0 with whiz bidding"),
        ("min_team_bid=7", "min_team_bid must be 0 (off) or 2 to 6"),
        ("min_team_bid=1", "min_team_bid must be 0 (off) or 2 to 6"),
        ("blind_nil=100:200,bidding=mirror", "blind_nil must be off with mirror bidding"),
        ("boston=0", "boston: Input should be greater than 0"),
        ("bags=0:50", "bags must be off or L:P with L and P above 0"),
    ],
)
def test_a_bad_house_rule_is_one_clear_line(text: str, error: str) -> None:
    with pytest.raises(HouseRuleError) as caught:
        house(text)
    message = str(caught.value)
    assert error in message
    assert "\n" not in message


# -- decks -------------------------------------------------------------------


def test_every_deck_deals_52_cards_13_a_seat() -> None:
    for name in DECKS:
        mask = DECK_MASKS[name]
        assert mask.bit_count() == 52
        names = [card_name(c) for c in deck_cards(name)]
        assert len(set(names)) == 52
        assert [parse_card(n, name) for n in names] == list(deck_cards(name))
        for seed in range(5):
            hands = deal(seed, 1, seed % 4, Deck(name))
            assert [h.bit_count() for h in hands] == [13] * 4
            assert hands[0] | hands[1] | hands[2] | hands[3] == mask


def test_the_standard_deal_is_unchanged() -> None:
    # The standard deck deals from its card positions as before the decks came.
    assert deal(7, 3, 2, Deck.STANDARD) == deal(7, 3, 2)
    assert sorted(cards_of(deal(7, 3, 2)[0])) == cards_of(deal(7, 3, 2)[0])


@pytest.mark.parametrize(
    ("deck", "missing", "added"),
    [
        ("jokers", "2C 2D", "LJ BJ"),
        ("jokers-deuce", "2C 2D", "LJ BJ"),
        ("jjdd", "2C 2H", "LJ BJ"),
    ],
)
def test_what_each_deck_trades(deck: str, missing: str, added: str) -> None:
    names = {card_name(c) for c in deck_cards(deck)}
    standard = {card_name(c) for c in deck_cards("standard")}
    assert standard - names == set(missing.split())
    assert names - standard == set(added.split())


@pytest.mark.parametrize(
    ("deck", "order"),
    [
        ("standard", "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"),
        ("jokers", "BJ LJ AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"),
        ("jokers-deuce", "BJ LJ 2S AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S"),
        ("jjdd", "BJ LJ 2D 2S AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S"),
    ],
)
def test_trump_order(deck: str, order: str) -> None:
    trumps = cards(order, deck)
    assert [suit_of(c) for c in trumps] == [SPADES] * len(trumps)
    assert list(suit_cards(DECK_MASKS[deck], SPADES)) == trumps[::-1]
    for higher, lower in itertools.pairwise(trumps):
        # led by the lower trump, the higher one takes the trick, and the other way round
        assert winning_index([lower, higher]) == 1
        assert winning_index([higher, lower]) == 0
        assert BEATERS[lower] >> higher & 1 and not BEATERS[higher] >> lower & 1


def test_the_jokers_names_and_ints() -> None:
    assert (card_name(LITTLE_JOKER), card_name(BIG_JOKER)) == ("LJ", "BJ")
    assert card_name(HIGH_TWO_OF_SPADES) == "2S" and card_name(TRUMP_TWO_OF_DIAMONDS) == "2D"
    assert parse_card("2S", "jokers-deuce") == HIGH_TWO_OF_SPADES
    assert parse_card("2S", "jokers") == parse_card("2S")
    assert parse_card("2D", "jjdd") == TRUMP_TWO_OF_DIAMONDS
    assert rank_of(BIG_JOKER) > rank_of(LITTLE_JOKER) > rank_of(parse_card("AS"))
    with pytest.raises(ValueError, match="not a card of the standard deck"):
        parse_card("BJ")
    with pytest.raises(ValueError, match="not a card of the jjdd deck"):
        parse_card("2C", "jjdd")


# Each row: deck, the trick so far, the hand, the cards it may play
# (``legal_mask`` with spades unbroken and no first-lead rule).
FOLLOWING = [
    # a joker follows a spade lead, and must when it is the only spade held
    ("jokers", "AS", "LJ 3H 4H", "LJ"),
    ("jokers", "KS", "BJ 2S 3H", "BJ 2S"),
    # a joker is no heart: with no heart it may be played, but it need not be
    ("jokers", "3H", "LJ 3D", "LJ 3D"),
    ("jokers", "3H", "LJ 4H", "4H"),
    # the jjdd two of diamonds is a spade, not a diamond
    ("jjdd", "3D", "2D 4C", "2D 4C"),
    ("jjdd", "3D", "2D 5D", "5D"),
    ("jjdd", "3S", "2D 5D", "2D"),
    ("jjdd", "BJ", "2D 2S AH", "2D 2S"),
    # leading, spades unbroken: no joker nor trump two while another suit is held
    ("jokers", "", "BJ LJ 5H", "5H"),
    ("jjdd", "", "2D 5H", "5H"),
    ("jjdd", "", "2D BJ", "2D BJ"),
    ("jokers-deuce", "", "2S 3S", "2S 3S"),
]


@pytest.mark.parametrize(("deck", "trick", "hand", "legal"), FOLLOWING)
def test_following_and_leading(deck: str, trick: str, hand: str, legal: str) -> None:
    played = cards(trick, deck)
    assert legal_mask(hand_of(hand, deck), played, False, False) == hand_of(legal, deck)


# Each row: deck, trick in play order from the leader, the index that takes it.
WINNERS = [
    ("jokers", "AS LJ KS BJ", 3),
    ("jokers", "AH LJ KH 2H", 1),  # a joker trumps a heart
    ("jokers", "LJ AH AD AC", 0),
    ("jokers-deuce", "AS 2S KS 3S", 1),
    ("jokers-deuce", "AH 2S KH LJ", 3),
    ("jjdd", "AD 2D KD QD", 1),  # the two of diamonds trumps the diamonds
    ("jjdd", "2S AS 2D KS", 2),
    ("jjdd", "3D 4D 5D 6D", 3),
]


@pytest.mark.parametrize(("deck", "trick", "taker"), WINNERS)
def test_who_takes_the_trick(deck: str, trick: str, taker: int) -> None:
    played = cards(trick, deck)
    assert winning_index(played) == taker
    assert Trick.taken(1, played).winner == (1 + taker) & 3


def test_jokers_and_the_trump_two_break_spades() -> None:
    rule = STANDARD.spades_break
    for deck, card in (("jokers", "LJ"), ("jokers", "BJ"), ("jjdd", "2D"), ("jokers-deuce", "2S")):
        played = parse_card(card, deck)
        assert breaks_spades(played, 2, rule)  # played on a heart lead
    assert not breaks_spades(parse_card("2D"), 2, rule)  # the standard two of diamonds
    # and once broken, a joker may lead
    assert lead_mask(hand_of("BJ 5H", "jokers"), True, False) == hand_of("BJ 5H", "jokers")


def test_a_game_breaks_spades_with_a_joker() -> None:
    rules = house("deck=jokers")
    hands = [
        hand_of("BJ AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H", "jokers"),
        hand_of("AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C LJ", "jokers"),
        hand_of("AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2H", "jokers"),
        hand_of("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S", "jokers"),
    ]
    game = Game.new(rules, 1, fixed_deals=[hands])
    for seat in (1, 2, 3, 0):
        game.bid(seat, 3)
    game.play(1, parse_card("AC"))
    game.play(2, parse_card("AD"))
    game.play(3, parse_card("AS"))
    assert game.spades_broken
    game.play(0, parse_card("BJ", "jokers"))  # trumps the spade: a joker is the top trump
    assert game.tricks[-1].winner == 0


# -- bidding formats ----------------------------------------------------------


NUMBERS = tuple(range(1, 14))

# Each row: house rules, hand, the partner's bid (None: not yet), Blind Nil
# open, the bids offered.
BIDS = [
    ("", "AS KS", None, False, (NIL, *NUMBERS)),
    ("", "AS KS", None, True, (BLIND_NIL, NIL, *NUMBERS)),
    ("nil=off", "AS", None, False, NUMBERS),
    ("bidding=suicide", "AS", None, False, (NIL, *range(4, 14))),
    ("bidding=suicide", "AS", None, True, (BLIND_NIL, NIL, *range(4, 14))),
    ("bidding=suicide", "AS", NIL, False, tuple(range(4, 14))),
    ("bidding=suicide", "AS", BLIND_NIL, False, tuple(range(4, 14))),
    ("bidding=suicide", "AS", 5, False, (NIL,)),
    ("bidding=suicide", "AS", 5, True, (BLIND_NIL, NIL)),
    ("bidding=suicide,min_team_bid=6", "AS", None, False, (NIL, *range(6, 14))),
    ("bidding=suicide,min_team_bid=6", "AS", NIL, False, tuple(range(6, 14))),
    ("bidding=mirror", "AS KS 2H", None, False, (2,)),
    ("bidding=mirror", "2H 3H", 4, False, (NIL,)),
    ("bidding=mirror,deck=jjdd", "BJ LJ 2D 2S AS 3H", None, False, (5,)),
    ("bidding=whiz", "AS KS QS 2H", None, False, (NIL, 3)),
    ("bidding=whiz", "2H", 3, False, (NIL,)),
    ("bidding=whiz,deck=jokers", "BJ 2H", None, False, (NIL, 1)),
    ("min_team_bid=4", "AS", None, False, (NIL, *NUMBERS)),
    ("min_team_bid=4", "AS", 1, False, tuple(range(3, 14))),
    ("min_team_bid=4", "AS", 4, False, (NIL, *NUMBERS)),
    ("min_team_bid=4", "AS", NIL, False, tuple(range(4, 14))),
    ("min_team_bid=4", "AS", BLIND_NIL, True, tuple(range(4, 14))),
    ("min_team_bid=4", "AS", 6, True, (BLIND_NIL, NIL, *NUMBERS)),
]


@pytest.mark.parametrize(("text", "hand", "partner", "blind", "offered"), BIDS)
def test_legal_bids(
    text: str, hand: str, partner: int | None, blind: bool, offered: tuple[int, ...]
) -> None:
    rules = house(text, "blind-nil" if blind else "standard")
    assert legal_bids(rules, hand_of(hand, rules.deck.value), partner, blind) == offered


def test_spade_count_counts_jokers_and_the_trump_two() -> None:
    assert spade_count(hand_of("BJ LJ 2D 2S AS 3H", "jjdd")) == 5
    assert spade_count(hand_of("2D 3H", "standard")) == 0


def test_mirror_bids_are_forced_and_made_in_turn() -> None:
    game = Game.new(house("bidding=mirror,deck=jokers"), 5)
    while game.phase is Phase.BIDDING:
        seat = game.to_act
        forced = game.forced_bid(seat)
        assert forced == (spade_count(game.hands[seat]) or NIL)
        assert game.legal_bids(seat) == [forced]
        assert view_of(game, seat).forced_bid == forced
        other = NIL if forced else 1
        with pytest.raises(refusals.BidOutOfRange, match="leave you these bids"):
            game.bid(seat, other)
        game.bid(seat, forced)
    assert game.phase is Phase.PLAYING
    assert [b for _, b in game.bid_order] == [
        spade_count(h) or NIL for h in [game.dealt[(game.dealer + 1 + k) & 3] for k in range(4)]
    ]


def test_an_open_table_bids_by_choice() -> None:
    game = Game.new(STANDARD, 5)
    assert game.forced_bid(game.to_act) is None
    with pytest.raises(refusals.BidOutOfRange, match="bid from 1 to 13 tricks, or Nil"):
        game.bid(game.to_act, 14)


def test_the_second_partner_is_held_to_the_team_minimum() -> None:
    game = Game.new(house("min_team_bid=5"), 5)
    first = game.to_act
    game.bid(first, 2)
    game.bid(game.to_act, 3)  # the other team's first bid
    partner = game.to_act
    assert partner == (first + 2) & 3
    with pytest.raises(refusals.BidOutOfRange, match="3, 4, 5"):
        game.bid(partner, 2)
    game.bid(partner, 3)


# -- spades led at any time, the lowest club ----------------------------------


def test_spades_may_be_led_at_any_time() -> None:
    game = Game.new(house("spades_lead=any"), 11)
    assert game.spades_broken
    for _ in range(4):
        game.bid(game.to_act, 2)
    seat = game.to_act
    assert game.legal_play_mask(seat) == game.hands[seat]


def test_lowclub_under_spades_lead_any_still_holds_back_spades() -> None:
    # Text 001's first lead: without a club, a heart or a diamond, a spade
    # only from a hand of nothing else, wherever spades may be led.
    assert lead_mask(hand_of("AS 3H", "standard"), True, True) == hand_of("3H", "standard")
    assert lead_mask(hand_of("AS 3C 2C", "standard"), True, True) == hand_of("2C", "standard")
    assert lead_mask(hand_of("AS KS", "standard"), True, True) == hand_of("AS KS", "standard")


# -- scoring ------------------------------------------------------------------

# Each row: house rules, the team's two bids, their tricks, bags before, then
# the hand's points and the bags after.
SCORES = [
    # Boston: all 13 tricks pay B on top of the bids
    ("boston=200", (4, 5), (7, 6), 0, 90 + 4 + 200, 4),
    ("boston=200", (4, 5), (7, 5), 0, 90 + 3, 3),
    ("", (4, 5), (7, 6), 0, 90 + 4, 4),
    ("boston=250", (NIL, 6), (0, 13), 0, 100 + 60 + 7 + 250, 7),
    # 10-for-200: 20 a trick bid, made or set (whatever set says); overtricks 1
    ("ten_for_200=on", (6, 4), (6, 5), 0, 200 + 1, 1),
    ("ten_for_200=on", (6, 4), (6, 3), 0, -200, 0),
    ("ten_for_200=on,set=short", (6, 4), (6, 3), 0, -200, 0),
    ("ten_for_200=on", (5, 4), (5, 4), 0, 90, 0),  # a 9 contract scores as usual
    ("ten_for_200=off", (6, 4), (6, 4), 0, 100, 0),
    ("ten_for_200=on,boston=200", (7, 6), (7, 6), 0, 260 + 200, 0),
    # set: per trick bid or per trick short
    ("set=bid", (4, 4), (3, 3), 0, -80, 0),
    ("set=short", (4, 4), (3, 3), 0, -20, 0),
    # bags: every L cost P; off: counted, never costing
    ("bags=5:50", (3, 3), (5, 4), 2, 60 + 3 - 50, 0),
    ("bags=off", (3, 3), (5, 4), 9, 63, 12),
    ("", (3, 3), (5, 4), 9, 63 - 100, 2),
    # Nil values, and its tricks as bags or for the contract
    ("nil=50", (NIL, 4), (0, 4), 0, 50 + 40, 0),
    ("nil=50,nil_tricks=contract", (NIL, 4), (2, 2), 0, -50 + 40, 0),
    ("nil=50,nil_tricks=bags", (NIL, 4), (2, 2), 0, -50 - 40 + 2, 2),
    # Mirror without Nil: the zero bid scores nothing itself, its tricks are bags
    ("nil=off,bidding=mirror", (NIL, 4), (1, 4), 0, 40 + 1, 1),
    ("blind_nil=100:300", (BLIND_NIL, 4), (0, 4), 0, 300 + 40, 0),
]


@pytest.mark.parametrize(("text", "bids", "tricks", "bags", "points", "bags_after"), SCORES)
def test_scoring(
    text: str,
    bids: tuple[int, int],
    tricks: tuple[int, int],
    bags: int,
    points: int,
    bags_after: int,
) -> None:
    result = score_team(house(text), bids, tricks, bags)
    assert (result.points, result.bags_after) == (points, bags_after)
    assert result.boston == (sum(tricks) == 13)


def test_spades_lead_field() -> None:
    assert house("spades_lead=any").spades_lead is SpadesLead.ANY
    assert STANDARD.spades_lead is SpadesLead.BROKEN
