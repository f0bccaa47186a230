"""The Hint button of a hand at a table with hints on: live on the owner's
turn, greyed out otherwise, and always within Discord's five rows."""

from __future__ import annotations

from bot.game.types import Phase
from bot.game.view import view_of
from bot.render.decks import DECKS, DeckName
from bot.render.hand import hand_message, with_hint_button
from bot.render.spec import Act, parse
from tests.ai.positions import position

DECK = DECKS[DeckName.CLASSIC]
NAMES = ["Ann", "Bob", "Cat", "Dan"]


def hints(
    view_seat: int, game_plays: str = "", bids: tuple[int, ...] = ()
) -> tuple[list[bool], int]:
    game = position(
        {1: "AS KS QS JS TS 9S 8S AH KH QH AD KD AC"}, bids=list(bids), plays=game_plays
    )
    view = view_of(game, view_seat)
    spec = hand_message(view, table_id=9, version=4, names=NAMES, deck=DECK)
    drawn = with_hint_button(spec, view, 9, 4, game.action_count)
    found = [b for b in drawn.buttons if b.label == "Hint"]
    assert len(drawn.rows) <= 5
    if found:
        cid = parse(found[0].custom_id.removeprefix("spades:"))
        assert (cid.action, cid.table, cid.version, cid.arg) == (
            Act.HINT,
            9,
            4,
            str(game.action_count),
        )
    return [b.disabled for b in found], len(spec.rows)


def test_the_hint_button_is_live_on_turn_only() -> None:
    assert hints(1)[0] == [False]  # seat 1 bids first
    assert hints(2)[0] == [True]


def test_the_hint_button_fits_beside_five_rows_of_cards() -> None:
    # Seven spades take two rows: with hearts, diamonds and clubs, five rows.
    assert hints(1, bids=(3, 3, 3, 3)) == ([False], 5)


def test_no_hint_button_once_the_hand_is_over() -> None:
    game = position({}, bids=[3, 3, 3, 3])
    while game.phase is Phase.PLAYING:
        seat = game.to_act
        legal = game.legal_play_mask(seat)
        game.play(seat, (legal & -legal).bit_length() - 1)
    view = view_of(game, 0)
    spec = hand_message(view, table_id=9, version=60, names=NAMES, deck=DECK)
    assert with_hint_button(spec, view, 9, 60, game.action_count) == spec
