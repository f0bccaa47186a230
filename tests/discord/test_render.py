"""Rendering without Discord: hand layouts, deck designs, the table text, button ids."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.game.cards import cards_of, mask_of, parse_card
from bot.game.rules import preset
from bot.game.state import Game
from bot.game.types import Action, ActionKind, Phase
from bot.game.view import view_of
from bot.render.decks import DECKS, DeckName, Style, by_suit, card_text, deck
from bot.render.hand import hand_message
from bot.render.spec import MAX_PER_ROW, MAX_ROWS, Act, BadComponentId, ComponentId, parse
from bot.render.table import table_message
from bot.tables.model import Seat, Table, TableOptions, TableStatus

NAMES = ["S", "W", "N", "E"]


def playing_game(seed: int = 3, plays: int = 0) -> Game:
    game = Game.new(preset("standard"), seed)
    while game.phase is Phase.BIDDING:
        game.bid(game.to_act, 3)
    rng = random.Random(seed)
    for _ in range(plays):
        seat = game.to_act
        options = cards_of(game.legal_play_mask(seat))
        game.play(seat, rng.choice(options))
    return game


def table_of(
    game: Game | None,
    status: TableStatus = TableStatus.PLAYING,
    seats: tuple[Seat, Seat, Seat, Seat] = (
        Seat(100),
        Seat(101),
        Seat(102),
        Seat(computer_level="random"),
    ),
) -> Table:
    return Table(
        id=7,
        guild_id=1,
        channel_id=2,
        message_id=3,
        host_id=100,
        options=TableOptions(target=250),
        status=status,
        version=42,
        seats=seats,
        spectators=(),
        game=game,
        game_number=1,
        game_id=1,
        created_at=0.0,
        updated_at=0.0,
    )


def test_custom_ids_round_trip_and_refuse_junk() -> None:
    cid = ComponentId(Act.PLAY, 12, 345, "QH")
    assert str(cid) == "spades:play:12:345:QH"
    assert parse(str(cid).removeprefix("spades:")) == cid
    assert parse("next:1:2") == ComponentId(Act.NEXT_HAND, 1, 2)
    for junk in (
        "",
        "play",
        "play:1",
        "dance:1:2",
        "play:a:2:QH",
        "play:1:2:Q:H",
        "play:1:2:" + "x" * 30,
    ):
        with pytest.raises(BadComponentId):
            parse(junk)
    assert len(str(ComponentId(Act.REMATCH, 10**17, 10**17, "swap"))) <= 100


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=1, max_size=13, unique=True))
def test_any_hand_fits_discords_rows_one_button_per_card_in_order(cards: list[int]) -> None:
    game = playing_game()
    game.hands[game.to_act] = mask_of(cards)
    view = view_of(game, game.to_act)
    for design in DECKS.values():
        spec = hand_message(view, table_id=1, version=1, names=NAMES, deck=design)
        assert len(spec.rows) <= MAX_ROWS
        assert all(len(row) <= MAX_PER_ROW for row in spec.rows if isinstance(row, tuple))
        ids = [b.custom_id.rsplit(":", 1)[1] for b in spec.buttons]
        shown = [c for suit in by_suit(mask_of(cards)) for c in suit]
        assert len(ids) == len(cards)
        assert [parse_name(i) for i in ids] == shown


def parse_name(name: str) -> int:
    return parse_card(name)


def test_display_order_is_by_suit_then_high_to_low() -> None:
    mask = mask_of([39, 51, 0, 12, 26, 13])  # 2S AS 2C AC 2H 2D
    assert [[card_text(c) for c in suit] for suit in by_suit(mask)] == [
        ["A♠", "2♠"],
        ["2♥"],
        ["A♣", "2♣"],
        ["2♦"],
    ]


def test_deck_designs_differ_in_look_only() -> None:
    game = playing_game()
    view = view_of(game, game.to_act)
    specs = {
        name: hand_message(view, table_id=1, version=1, names=NAMES, deck=design)
        for name, design in DECKS.items()
    }
    ids = {name: [b.custom_id for b in spec.buttons] for name, spec in specs.items()}
    assert ids[DeckName.CLASSIC] == ids[DeckName.FOUR_COLOUR] == ids[DeckName.LARGE_PRINT]
    enabled = {name: [b.disabled for b in spec.buttons] for name, spec in specs.items()}
    assert enabled[DeckName.CLASSIC] == enabled[DeckName.FOUR_COLOUR]
    four = DECKS[DeckName.FOUR_COLOUR]
    assert {four.face(s * 13).style for s in range(4)} == set(Style)
    assert DECKS[DeckName.LARGE_PRINT].face(12).emoji == "🇦"
    assert deck("no-such-deck").name is DeckName.CLASSIC and deck(None).name is DeckName.CLASSIC


def test_revokes_blocked_disable_off_suit_cards_and_allowed_do_not() -> None:
    for revokes in ("blocked", "allowed"):
        rules = preset("standard").with_options(revokes=revokes)
        game = Game.new(rules, 11)
        while game.phase is Phase.BIDDING:
            game.bid(game.to_act, 3)
        rng = random.Random(1)
        while True:
            seat = game.to_act
            led = game.trick[0] // 13 if game.trick else None
            hand = game.hands[seat]
            if led is not None and hand & (8191 << 13 * led) and hand & ~(8191 << 13 * led):
                break
            game.play(seat, rng.choice(cards_of(game.legal_play_mask(seat))))
        spec = hand_message(
            view_of(game, seat), table_id=1, version=1, names=NAMES, deck=DECKS[DeckName.CLASSIC]
        )
        off_suit = [b for b in spec.buttons if "CDHS".index(b.custom_id[-1]) != led]
        assert off_suit
        assert all(b.disabled for b in off_suit) == (revokes == "blocked")


def test_the_table_message_shows_the_public_state_only() -> None:
    game = playing_game(plays=6)
    table = table_of(game)
    spec = table_message(table)
    assert spec.embed is not None
    text = "\n".join(
        [spec.embed.title, spec.embed.description] + [f.name + f.value for f in spec.embed.fields]
    )
    for seat in range(4):
        bid = game.bids[seat]
        assert f"tricks {game.tricks_won[seat]}/{bid}" in text
    assert "dealer" in text and "trick 2 of 13" in text
    assert "Spades are broken." in text or "Spades are not broken yet." in text
    assert "0 points · 0 bags" in text
    assert "**Turn:** " in text and "to play" in text
    played = {c for t in game.tricks for c in t.cards} | set(game.trick)
    shown = {c for c in range(52) if card_text(c) in text}
    assert shown <= played
    # The person on turn to play may claim the rest of the tricks.
    assert [b.label for b in spec.buttons] == ["My hand", "Watch", "Claim the rest"]


def test_a_claim_of_the_rest_shows_the_claimers_cards_only() -> None:
    game = playing_game(plays=6)
    claimer = game.to_act
    game.apply(Action(ActionKind.CLAIM_REST, claimer))
    spec = table_message(table_of(game))
    assert spec.embed is not None
    text = "\n".join(f.name + f.value for f in spec.embed.fields)
    played = {c for t in game.tricks for c in t.cards} | set(game.trick)
    held = {c for c in range(52) if game.hands[claimer] >> c & 1}
    shown = {c for c in range(52) if card_text(c) in text}
    assert shown == played | held
    assert "12 remaining tricks" in text and "to answer the claim" in text
    labels = [b.label for b in spec.buttons]
    assert labels == ["My hand", "Watch", "Accept the claim", "Refuse the claim"]
    # The hands say who answers, and no card can be played meanwhile.
    deck = DECKS[DeckName.CLASSIC]
    for seat in range(4):
        hand = hand_message(view_of(game, seat), table_id=1, version=1, names=NAMES, deck=deck)
        answering = seat == (claimer + 1) & 3
        assert ("Answer the claim of the rest" in hand.content) == answering
        assert ("Waiting for the answers to" in hand.content) == (not answering)
        cards = [b for b in hand.buttons if ":play:" in b.custom_id]
        assert cards and all(b.disabled for b in cards)


def test_hand_summary_shows_nils_and_a_boston() -> None:
    others = [c for c in range(39)]
    deal = [mask_of(others[0:13]), mask_of(range(39, 52)), mask_of(others[13:26])]
    deal.append(mask_of(others[26:39]))
    game = Game.new(preset("standard"), 5, fixed_deals=[deal])
    for seat, bid in ((1, 13), (2, 0), (3, 0), (0, 0)):
        game.bid(seat, bid)
    while game.phase is Phase.PLAYING:
        seat = game.to_act
        game.play(seat, cards_of(game.legal_play_mask(seat))[0])
    assert game.phase is Phase.HAND_OVER
    spec = table_message(table_of(game))
    assert spec.embed is not None
    summary = next(f.value for f in spec.embed.fields if f.name == "Hand 1 result")
    south_north, _, west_east, _ = summary.splitlines()
    # Both South and North bid Nil: each Nil's result, and no contract line.
    assert "Nil made (South) · Nil made (North)" in south_north and "contract" not in south_north
    assert "contract 13: made · Nil made (East)" in west_east
    assert "Boston! (all 13 tricks)" in west_east
    assert [b.label for b in spec.buttons] == ["My hand", "Next hand"]
    next_hand = next(f.value for f in spec.embed.fields if f.name == "Next hand")
    assert "/revoke" in next_hand


def test_lobby_message_offers_join_and_the_host_menu_when_full() -> None:
    lobby = table_of(None, TableStatus.LOBBY)
    spec = table_message(lobby, partner_names=["a", "b", "c", "d"])
    assert [b.label for b in spec.buttons] == [
        "Join",
        "Leave",
        "Add computer players",
        "Start",
        "House rules",
    ]
    menus = [row for row in spec.rows if not isinstance(row, tuple)]
    assert [o.label for o in menus[0].options] == ["b (West)", "c (North)", "d (East)"]


def test_blind_nil_is_offered_face_down_and_only_when_allowed() -> None:
    game = Game.new(preset("blind-nil"), 9)
    seat = game.to_act
    classic = DECKS[DeckName.CLASSIC]
    spec = hand_message(view_of(game, seat), table_id=1, version=1, names=NAMES, deck=classic)
    assert [b.label for b in spec.buttons] == ["Show my cards", "Blind Nil"]
    assert [b.disabled for b in spec.buttons] == [False, True]  # 0 to 0: nobody trails
    assert not any(card_text(c) in spec.content for c in range(52))  # face down
    game.scores[seat & 1 ^ 1] = 150  # the seat's team now trails by 150
    spec = hand_message(view_of(game, seat), table_id=1, version=1, names=NAMES, deck=classic)
    assert [b.disabled for b in spec.buttons] == [False, False]
    game.look(seat)
    spec = hand_message(view_of(game, seat), table_id=1, version=2, names=NAMES, deck=classic)
    assert "Blind Nil" not in [b.label for b in spec.buttons]
    assert [b.label for b in spec.buttons][:2] == ["Nil", "1"]
