"""Deck designs: how one user's own cards look. They change the look only.

Each design gives a card button its label, emoji and colour, and writes a set
of cards as message text. Cards are shown by suit (spades, hearts, clubs,
diamonds, so the colours alternate) and from high to low within a suit.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from bot.game.cards import (
    BIG_JOKER,
    CLUBS,
    DECK_SIZE,
    DIAMONDS,
    HEARTS,
    HIGH_TWO_OF_SPADES,
    LITTLE_JOKER,
    SPADES,
    cards_of,
    rank_of,
    suit_of,
)
from bot.i18n import ENGLISH, N_, tr

SUIT_SYMBOLS = ("♣", "♦", "♥", "♠")
RANK_TEXT = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
#: Jack, queen, king and ace as the decks sold in each language print them:
#: German decks B (Bube), D (Dame), K (König), A (Ass); French ones V (valet),
#: D (dame), R (roi), A (as). Brazilian and Spanish poker decks print J Q K A.
#: Suits are symbols everywhere.
COURT_LETTERS = {"de": "BDKA", "fr": "VDRA"}
# Spades first, then alternating colours.
DISPLAY_SUIT_ORDER = (SPADES, HEARTS, CLUBS, DIAMONDS)


class Style(StrEnum):
    """Button colours, named like Discord's (mapped to discord.ButtonStyle in cogs)."""

    BLURPLE = "primary"
    GREY = "secondary"
    GREEN = "success"
    RED = "danger"


class DeckName(StrEnum):
    CLASSIC = "classic"
    FOUR_COLOUR = "four-colour"
    LARGE_PRINT = "large-print"


DEFAULT_DECK = DeckName.CLASSIC


def rank_text(rank: int, lang: str = ENGLISH) -> str:
    """A rank as decks in ``lang`` print it: ``10``, ``Q`` (``D`` in German)."""
    letters = COURT_LETTERS.get(lang)
    if letters is not None and rank >= 9:
        return letters[rank - 9]
    return RANK_TEXT[rank]


#: The jokers as words: a joker emoji and which of the two it is.
JOKER_TEXT = {BIG_JOKER: N_("🃏 Big"), LITTLE_JOKER: N_("🃏 Little")}
#: The same word alone, beside a joker emoji (large print).
JOKER_WORD = {BIG_JOKER: N_("Big"), LITTLE_JOKER: N_("Little")}


def printed(card: int) -> tuple[int, int] | None:
    """The suit and rank printed on a card, None for a joker. The top trumps
    of the jokers decks (bot.game.cards) are spades in play but keep their
    print: the high two of spades reads 2♠, the trump two of diamonds 2♦."""
    if card < DECK_SIZE:
        return suit_of(card), rank_of(card)
    if card in JOKER_TEXT:
        return None
    return (SPADES if card == HIGH_TWO_OF_SPADES else DIAMONDS), 0


def card_text(card: int, lang: str = ENGLISH) -> str:
    """The one public spelling of a played card: ``A♠``, ``10♥``, ``🃏 Big``."""
    face = printed(card)
    if face is None:
        return tr(lang, JOKER_TEXT[card])
    return rank_text(face[1], lang) + SUIT_SYMBOLS[face[0]]


def is_red(card: int) -> bool:
    """Printed in red: hearts, diamonds and the Big Joker."""
    face = printed(card)
    return card == BIG_JOKER if face is None else face[0] in (DIAMONDS, HEARTS)


def _in_suit_line(card: int, lang: str) -> str:
    """A card on its suit's line: the rank, or the whole face of a card
    printed otherwise (a joker, the trump 2♦ on the spades' line)."""
    face = printed(card)
    if face is not None and face[0] == suit_of(card):
        return rank_text(face[1], lang)
    return card_text(card, lang)


def display_order(cards: Iterable[int]) -> list[int]:
    """Cards by display suit order, high to low within a suit."""
    rank_of_suit = {suit: i for i, suit in enumerate(DISPLAY_SUIT_ORDER)}
    return sorted(cards, key=lambda c: (rank_of_suit[suit_of(c)], -rank_of(c)))


def by_suit(mask: int) -> list[list[int]]:
    """The non-empty suits of a hand, each high to low, in display order."""
    cards = cards_of(mask)
    suits = [[c for c in display_order(cards) if suit_of(c) == suit] for suit in DISPLAY_SUIT_ORDER]
    return [suit for suit in suits if suit]


def cards_text(mask: int, lang: str = ENGLISH) -> str:
    """Cards by suit, high to low: ``A♠ K♠ · Q♥``."""
    return " · ".join(" ".join(card_text(c, lang) for c in suit) for suit in by_suit(mask))


#: Put after a suit symbol, it asks for the symbol as text, drawn in the
#: button's own colour. Discord and phones otherwise draw the suits as emoji:
#: a black ♠ or ♣ that vanishes on a dark grey button, a red ♥ on a red one.
TEXT_PRESENTATION = "\ufe0e"
_SUITS_AS_TEXT = {ord(symbol): symbol + TEXT_PRESENTATION for symbol in SUIT_SYMBOLS}


def button_text(text: str) -> str:
    """``text`` for a button label: its suit symbols drawn as text."""
    return text.translate(_SUITS_AS_TEXT)


@dataclass(frozen=True, slots=True)
class CardFace:
    label: str
    emoji: str | None
    style: Style


class Deck:
    name: DeckName
    title: str
    description: str

    def face(self, card: int, lang: str = ENGLISH) -> CardFace:
        raise NotImplementedError

    def hand_text(self, mask: int, lang: str = ENGLISH) -> str:
        """The cards of a mask as message text, one suit per line."""
        if not mask:
            return tr(lang, "(no cards)")
        return "\n".join(self.card_line(self.suit_line(suit, lang)) for suit in by_suit(mask))

    def card_line(self, line: str) -> str:
        """A line of message text that shows cards; large print makes it a heading."""
        return line

    def suit_line(self, cards: list[int], lang: str = ENGLISH) -> str:
        ranks = " ".join(_in_suit_line(c, lang) for c in cards)
        return f"{SUIT_SYMBOLS[suit_of(cards[0])]}  {ranks}"


class ClassicDeck(Deck):
    name = DeckName.CLASSIC
    title = N_("Classic")
    description = N_("Red hearts and diamonds, grey clubs and spades.")

    def face(self, card: int, lang: str = ENGLISH) -> CardFace:
        style = Style.RED if is_red(card) else Style.GREY
        return CardFace(button_text(card_text(card, lang)), None, style)


class FourColourDeck(Deck):
    name = DeckName.FOUR_COLOUR
    title = N_("Four colours")
    description = N_(
        "Every suit its own colour: spades grey, hearts red, clubs green, diamonds blue."
    )

    STYLES = (Style.GREEN, Style.BLURPLE, Style.RED, Style.GREY)
    MARKS = ("🟩", "🟦", "🟥", "⬛")

    def face(self, card: int, lang: str = ENGLISH) -> CardFace:
        face = printed(card)
        style = self.STYLES[SPADES if face is None else face[0]]
        return CardFace(button_text(card_text(card, lang)), None, style)

    def suit_line(self, cards: list[int], lang: str = ENGLISH) -> str:
        return f"{self.MARKS[suit_of(cards[0])]} {super().suit_line(cards, lang)}"


class LargePrintDeck(Deck):
    name = DeckName.LARGE_PRINT
    title = N_("Large print")
    description = N_("Ranks drawn as big emoji and your cards written as headings.")

    # Keycap digits and boxed letters are drawn larger than button text.
    RANK_EMOJI = (
        "2️⃣",
        "3️⃣",
        "4️⃣",
        "5️⃣",
        "6️⃣",
        "7️⃣",
        "8️⃣",
        "9️⃣",
        "🔟",
        "🇯",
        "🇶",
        "🇰",
        "🇦",
    )

    def face(self, card: int, lang: str = ENGLISH) -> CardFace:
        style = Style.RED if is_red(card) else Style.GREY
        face = printed(card)
        if face is None:
            return CardFace(tr(lang, JOKER_WORD[card]), "🃏", style)
        suit, rank = face
        letters = COURT_LETTERS.get(lang)
        if letters is not None and rank >= 9:  # the letter's regional indicator
            emoji = chr(0x1F1E6 + ord(letters[rank - 9]) - ord("A"))
        else:
            emoji = self.RANK_EMOJI[rank]
        return CardFace(button_text(SUIT_SYMBOLS[suit]), emoji, style)

    def card_line(self, line: str) -> str:
        # Discord's heading mark applies to its own line only: the cards
        # are large, the words around them stay ordinary text.
        return f"## {line}"


DECKS: dict[DeckName, Deck] = {
    deck.name: deck for deck in (ClassicDeck(), FourColourDeck(), LargePrintDeck())
}


def deck(name: str | None) -> Deck:
    """The design called ``name``; unknown or missing names get the default."""
    try:
        return DECKS[DeckName(name or DEFAULT_DECK)]
    except ValueError:
        return DECKS[DEFAULT_DECK]
