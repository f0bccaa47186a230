"""The Nil pass in the private hand: toggles that carry the selection, the
Pass button at the right count, within Discord's limits in every language
and deck, and what each seat's hand says of the exchange."""

from __future__ import annotations

import pytest

from bot.game.cards import cards_of, mask_of
from bot.game.state import Game
from bot.game.types import Action, ActionKind
from bot.game.view import view_of
from bot.i18n import ENGLISH, TRANSLATED, tr
from bot.render.decks import DECKS, Deck, DeckName, card_text
from bot.render.hand import CHOSEN_MARK, hand_message, pass_arg, read_pass_arg, with_hint_button
from bot.render.my_games import my_game_line
from bot.render.spec import MessageSpec, parse
from bot.render.table import table_message
from bot.tables.model import Seat, Table, TableOptions, TableStatus
from tests.coach.test_pass_hints import _passing
from tests.discord.privacy import cards_in_text
from tests.render.fits import problems

NAMES = ["Ann", "Bob", "Cat", "Dan"]
NIL_SEAT, PARTNER = 1, 3  # of the game tests.coach.test_pass_hints plays
CLASSIC = DECKS[DeckName.CLASSIC]


def _hand(
    game: Game, seat: int, selection: int = 0, deck: Deck = CLASSIC, lang: str = ENGLISH
) -> MessageSpec:
    view = view_of(game, seat)
    spec = hand_message(
        view, table_id=9, version=4, names=NAMES, deck=deck, lang=lang, selection=selection
    )
    return with_hint_button(spec, view, 9, 4, 0, lang)


def _ids(spec: MessageSpec, act: str) -> list[str]:
    return [b.custom_id for b in spec.buttons if b.custom_id.startswith(f"spades:{act}:")]


def test_each_card_toggles_and_pass_waits_for_the_count() -> None:
    game = _passing()
    hand = cards_of(game.hands[NIL_SEAT])
    spec = _hand(game, NIL_SEAT)
    toggles = [parse(i.removeprefix("spades:")) for i in _ids(spec, "pass_pick")]
    # Each card's button carries the selection its click makes: that card alone.
    assert sorted(read_pass_arg(t.arg)[0] for t in toggles) == sorted(1 << c for c in hand)
    (done,) = [b for b in spec.buttons if b.custom_id.startswith("spades:pass:")]
    assert done.disabled and done.label == "Pass 3 cards"
    assert "0 of 3 chosen" in spec.content
    two = mask_of(hand[:2])
    spec = _hand(game, NIL_SEAT, two)
    marked = [b for b in spec.buttons if b.label.startswith(CHOSEN_MARK)]
    assert len(marked) == 2 and "2 of 3 chosen: " in spec.content
    three = mask_of(hand[:3])
    spec = _hand(game, NIL_SEAT, three)
    (done,) = [b for b in spec.buttons if b.custom_id.startswith("spades:pass:")]
    assert not done.disabled and read_pass_arg(parse(done.custom_id[7:]).arg) == (three, 1)
    # Full: the other cards wait until one is put back; the chosen ones put back.
    for button in spec.buttons:
        if button.custom_id.startswith("spades:pass_pick:"):
            assert button.disabled is not button.label.startswith(CHOSEN_MARK)
    assert all(card_text(c) in spec.content for c in hand[:3])


def test_a_forged_selection_counts_as_none() -> None:
    game = _passing()
    hand = cards_of(game.hands[NIL_SEAT])
    for forged in (mask_of(hand[:4]), game.hands[PARTNER]):
        spec = _hand(game, NIL_SEAT, forged)
        assert "0 of 3 chosen" in spec.content
        assert not [b for b in spec.buttons if b.label.startswith(CHOSEN_MARK)]


@pytest.mark.parametrize("arg", [None, "", "12", "-1", "zz-1", "1f-", "1F-2", "1f-x"])
def test_a_pass_argument_the_bot_never_draws_is_refused(arg: str | None) -> None:
    with pytest.raises(ValueError):
        read_pass_arg(arg)


def test_the_ids_fit_discord_for_a_whole_deck_and_long_games() -> None:
    everything = (1 << 52) - 1
    assert read_pass_arg(pass_arg(everything, 99999)) == (everything, 99999)
    big = 10**17  # table ids and versions take up to 18 digits
    assert parse(f"pass:{big}:{big}:{pass_arg(everything, 99999)}").arg is not None


@pytest.mark.parametrize("lang", [ENGLISH, *TRANSLATED])
@pytest.mark.parametrize("deck", sorted(DECKS))
def test_the_pass_step_fits_in_every_language_and_deck(lang: str, deck: DeckName) -> None:
    game = _passing()
    for seat in range(4):
        selection = mask_of(cards_of(game.hands[seat])[:3])
        spec = _hand(game, seat, selection, DECKS[deck], lang)
        assert problems(spec) == []
        hint = [b for b in spec.buttons if b.custom_id.startswith("spades:hint:")]
        # The partners' Hint buttons are live at once; the others' have nothing to hint.
        assert [b.disabled for b in hint] == [seat not in (NIL_SEAT, PARTNER)]


def test_each_hand_says_what_it_gave_and_received_and_no_one_else_s() -> None:
    game = _passing()
    gave = mask_of(cards_of(game.hands[NIL_SEAT])[-3:])
    took = mask_of(cards_of(game.hands[PARTNER])[:3])
    game.apply(Action(ActionKind.PASS, NIL_SEAT, gave, 11.0))
    waiting = _hand(game, NIL_SEAT).content
    assert "You pass " in waiting and "Still choosing the cards they pass: Dan" in waiting
    assert not _ids(_hand(game, NIL_SEAT), "pass_pick")
    # The partner, still choosing, sees nothing of it yet.
    assert "You gave" not in _hand(game, PARTNER).content
    game.apply(Action(ActionKind.PASS, PARTNER, took, 12.0))
    for seat, given, received in ((NIL_SEAT, gave, took), (PARTNER, took, gave)):
        line = next(x for x in _hand(game, seat).content.splitlines() if x.startswith("You gave"))
        assert all(card_text(c) in line.split(" and received ")[0] for c in cards_of(given))
        assert all(card_text(c) in line.split(" and received ")[1] for c in cards_of(received))
    for seat in (0, 2):
        assert "You gave" not in _hand(game, seat).content


@pytest.mark.parametrize("claim_open", [False, True])
def test_the_table_message_names_who_is_choosing_never_the_cards(claim_open: bool) -> None:
    game = _passing()
    began = int(game.waiting_since)
    game.apply(Action(ActionKind.PASS, NIL_SEAT, mask_of(cards_of(game.hands[NIL_SEAT])[:3]), 11.0))
    table = _table(game)
    spec = table_message(table, claim_open=claim_open)
    assert spec.embed is not None
    (field,) = [f for f in spec.embed.fields if f.name == "Hand 1 · the Nil pass"]
    # The partner has waited since the pass began, not since the Nil bidder passed.
    assert began < 11 and field.value.startswith(
        f"Still choosing the cards they pass: <@13> (waiting since <t:{began}:R>)"
    )
    assert ("may claim the game" in field.value) is claim_open
    shown = "\n".join(f.value for f in spec.embed.fields)
    assert cards_in_text(shown) == set()


@pytest.mark.parametrize("lang", [ENGLISH, *TRANSLATED])
def test_the_list_of_ones_games_says_cards_are_being_passed(lang: str) -> None:
    line = my_game_line(_table(_passing()), 11, lang)
    assert tr(lang, "passing cards") in line


def _table(game: Game) -> Table:
    return Table(
        id=4,
        guild_id=1,
        channel_id=2,
        message_id=3,
        host_id=10,
        options=TableOptions(house="nil_pass=3"),
        status=TableStatus.PLAYING,
        version=30,
        seats=(Seat(user_id=10), Seat(user_id=11), Seat(user_id=12), Seat(user_id=13)),
        spectators=(),
        game=game,
        game_number=1,
        game_id=None,
        created_at=0.0,
        updated_at=0.0,
    )
