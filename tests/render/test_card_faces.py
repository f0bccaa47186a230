"""Card buttons draw their suits as text, in the button's own colour."""

from __future__ import annotations

import pytest

from bot.game.cards import DECK_MASK, cards_of
from bot.game.rules import preset
from bot.game.state import Game
from bot.game.view import view_of
from bot.i18n import ENGLISH, TRANSLATED
from bot.render.decks import DECKS, SUIT_SYMBOLS, TEXT_PRESENTATION, DeckName, card_text
from bot.render.hand import hand_message

CLASSIC = DeckName.CLASSIC


def _suits_as_text(label: str) -> bool:
    """Every suit symbol of ``label`` is followed by the text presentation
    selector (without it, Discord and phones draw an emoji: a black ♠ on a
    dark grey button)."""
    found = [n for n, char in enumerate(label) if char in SUIT_SYMBOLS]
    return bool(found) and all(label[n + 1 : n + 2] == TEXT_PRESENTATION for n in found)


@pytest.mark.parametrize("lang", [ENGLISH, *TRANSLATED])
@pytest.mark.parametrize("name", sorted(DECKS))
def test_every_card_face_draws_its_suit_as_text(name: DeckName, lang: str) -> None:
    deck = DECKS[name]
    for card in cards_of(DECK_MASK):
        face = deck.face(card, lang)
        assert _suits_as_text(face.label), (card, face.label)
        # Nothing else changes: without the selectors it is the card's text
        # (or, with the rank drawn as an emoji, its suit).
        plain = face.label.replace(TEXT_PRESENTATION, "")
        assert plain in (card_text(card, lang), SUIT_SYMBOLS[card // 13])


def test_the_hand_s_card_buttons_carry_them_and_the_messages_do_not() -> None:
    game = Game.new(preset("standard"), 3)
    for seat in (1, 2, 3, 0):
        game.bid(seat, 3)
    hand = view_of(game, 1)
    message = hand_message(hand, table_id=7, version=1, names=["a"] * 4, deck=DECKS[CLASSIC])
    labels = [button.label for button in message.buttons]
    assert len(labels) == 13 and all(_suits_as_text(label) for label in labels)
    # Written cards in message text keep the plain symbols.
    assert TEXT_PRESENTATION not in card_text(0)
    assert TEXT_PRESENTATION not in (message.content or "")
