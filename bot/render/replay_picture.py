"""The picture of one replay frame, drawn with Pillow: the four hands face
up around the table, the trick on it, bids and tricks, the score and bags,
the house rules and the coach's note.

Suits are drawn as shapes rather than font glyphs, so the picture looks the
same wherever the bot runs, whatever fonts the machine has. The reader's deck
design picks the suits' colours (and large print, bigger cards).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.game.cards import BIG_JOKER, CLUBS, DIAMONDS, HEARTS, LITTLE_JOKER, SPADES
from bot.i18n import ENGLISH, N_, tr
from bot.render.decks import (
    SUIT_SYMBOLS,
    DeckName,
    by_suit,
    printed,
    rank_text,
)
from bot.stats.chart import fit, font, png

WIDTH, HEIGHT = 960, 700
FELT = (28, 92, 60)
FELT_DARK = (20, 70, 46)
PAPER = (252, 252, 248)
INK = (30, 32, 40)
LIGHT = (236, 240, 236)
GOLD = (242, 193, 46)
NOTE_BACK = (255, 244, 214)
NOTE_INK = (120, 53, 15)
#: Suit colours per deck design: spades, hearts, clubs, diamonds by suit int.
_CLASSIC = {SPADES: INK, HEARTS: (200, 30, 40), CLUBS: INK, DIAMONDS: (200, 30, 40)}
_FOUR = {SPADES: INK, HEARTS: (200, 30, 40), CLUBS: (22, 130, 60), DIAMONDS: (37, 90, 220)}
JOKER_INK = (124, 58, 237)
#: A joker's whole name: the picture has no joker emoji to go beside a word.
JOKER_NAMES = {BIG_JOKER: N_("Big Joker"), LITTLE_JOKER: N_("Little Joker")}


@dataclass(frozen=True, slots=True)
class Look:
    colours: dict[int, tuple[int, int, int]]
    size: int  # the rank text's size


LOOKS = {
    DeckName.CLASSIC: Look(_CLASSIC, 20),
    DeckName.FOUR_COLOUR: Look(_FOUR, 20),
    DeckName.LARGE_PRINT: Look(_CLASSIC, 26),
}


@dataclass(frozen=True, slots=True)
class Scene:
    """Everything the picture shows, as words and cards (made by bot.render.replay)."""

    title: str
    score_lines: tuple[str, ...]  # per side: two teams, or four players in solo
    seat_lines: tuple[str, str, str, str]  # name, bid and tricks of each seat
    hands: tuple[int, int, int, int]
    table: tuple[tuple[int, int], ...]  # (seat, card)
    winner: int | None
    centre_lines: tuple[str, ...]
    rules_line: str
    note: str


def _pip(
    draw: ImageDraw.ImageDraw, suit: int, x: float, y: float, r: float, colour: tuple[int, int, int]
) -> None:
    """A suit's shape of radius ``r`` centred at (x, y)."""
    if suit == DIAMONDS:
        draw.polygon([(x, y - r), (x + r * 0.75, y), (x, y + r), (x - r * 0.75, y)], fill=colour)
        return
    if suit == HEARTS:
        h = r * 0.55
        draw.ellipse((x - r, y - r * 0.8, x, y - r * 0.8 + 2 * h), fill=colour)
        draw.ellipse((x, y - r * 0.8, x + r, y - r * 0.8 + 2 * h), fill=colour)
        draw.polygon([(x - r, y - r * 0.25), (x + r, y - r * 0.25), (x, y + r)], fill=colour)
        return
    if suit == CLUBS:
        c = r * 0.45
        for cx, cy in ((x, y - r * 0.5), (x - r * 0.5, y + r * 0.1), (x + r * 0.5, y + r * 0.1)):
            draw.ellipse((cx - c, cy - c, cx + c, cy + c), fill=colour)
    else:  # spades
        h = r * 0.55
        draw.polygon([(x, y - r), (x + r, y + r * 0.2), (x - r, y + r * 0.2)], fill=colour)
        draw.ellipse((x - r, y - r * 0.1, x, y - r * 0.1 + 2 * h * 0.9), fill=colour)
        draw.ellipse((x, y - r * 0.1, x + r, y - r * 0.1 + 2 * h * 0.9), fill=colour)
    draw.polygon([(x, y + r * 0.1), (x + r * 0.35, y + r), (x - r * 0.35, y + r)], fill=colour)


def _card_face(
    draw: ImageDraw.ImageDraw, card: int, x: float, y: float, look: Look, lang: str
) -> float:
    """One card as rank and pip from (x, y) (the text's left middle); its width."""
    face_font = font(look.size)
    face = printed(card)
    if face is None:
        word = tr(lang, JOKER_NAMES[card])
        draw.text((x, y), word, fill=JOKER_INK, font=face_font, anchor="lm")
        return draw.textlength(word, font=face_font)
    suit, rank = face
    colour = look.colours[suit]
    text = rank_text(rank, lang)
    draw.text((x, y), text, fill=colour, font=face_font, anchor="lm")
    width = draw.textlength(text, font=face_font)
    r = look.size * 0.36
    _pip(draw, suit, x + width + r + 2, y, r, colour)
    return width + 2 * r + 4


def _hand(draw: ImageDraw.ImageDraw, mask: int, x: float, y: float, look: Look, lang: str) -> None:
    """A hand as up to four suit lines, each high to low, from (x, y)."""
    step = look.size + 8
    for row, cards in enumerate(by_suit(mask)):
        cx = x
        for card in cards:
            cx += _card_face(draw, card, cx, y + row * step, look, lang) + 6


def _trick_card(
    draw: ImageDraw.ImageDraw, card: int, x: float, y: float, look: Look, lang: str, won: bool
) -> None:
    w, h = look.size * 3.4, look.size * 2.2
    box = (x - w / 2, y - h / 2, x + w / 2, y + h / 2)
    draw.rounded_rectangle(
        box, radius=8, fill=PAPER, outline=GOLD if won else INK, width=4 if won else 1
    )
    face_font = font(look.size)
    face = printed(card)
    if face is None:
        width = draw.textlength(tr(lang, JOKER_NAMES[card]), font=face_font)
    else:
        width = draw.textlength(rank_text(face[1], lang), font=face_font) + look.size * 0.72 + 4
    _card_face(draw, card, x - width / 2, y, look, lang)


#: Where each seat's hand, label and trick card go: South, West, North, East.
_HANDS = ((330, 500), (24, 240), (330, 58), (700, 240))
_TRICK = ((480, 372), (392, 312), (480, 252), (568, 312))


def render_frame(scene: Scene, deck: DeckName, lang: str = ENGLISH) -> bytes:
    look = LOOKS[deck]
    image = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    draw = ImageDraw.Draw(image)
    small, text = font(15), font(17)
    draw.rectangle((0, 0, WIDTH, 30), fill=FELT_DARK)
    draw.text((12, 15), scene.title, fill=LIGHT, font=text, anchor="lm")
    draw.text((WIDTH - 12, 15), "   ".join(scene.score_lines), fill=LIGHT, font=small, anchor="rm")
    for seat, (x, y) in enumerate(_HANDS):
        draw.text((x, y), scene.seat_lines[seat], fill=GOLD, font=text, anchor="ls")
        lines = max(1, len(by_suit(scene.hands[seat])))
        height = lines * (look.size + 8) + 8
        width = 236 if seat in (1, 3) else 300
        draw.rounded_rectangle((x - 6, y + 6, x + width, y + 6 + height), radius=8, fill=PAPER)
        if scene.hands[seat]:
            _hand(draw, scene.hands[seat], x + 2, y + 10 + (look.size + 8) / 2, look, lang)
    for seat, card in scene.table:
        cx, cy = _TRICK[seat]
        _trick_card(draw, card, cx, cy, look, lang, won=seat == scene.winner)
    for index, line in enumerate(scene.centre_lines):
        draw.text((480, 418 + index * 20), line, fill=LIGHT, font=small, anchor="mm")
    bottom = HEIGHT - 10
    if scene.note:
        draw.rectangle((0, bottom - 44, WIDTH, bottom - 16), fill=NOTE_BACK)
        _symbols_text(draw, scene.note, 12, bottom - 30, WIDTH - 24)
    if scene.rules_line:
        rules = fit(scene.rules_line, 15, WIDTH - 24)
        draw.text((12, bottom), rules, fill=LIGHT, font=small, anchor="ls")
    return png(image)


_SUIT_OF_SYMBOL = {symbol: suit for suit, symbol in enumerate(SUIT_SYMBOLS)}


def _symbols_text(draw: ImageDraw.ImageDraw, line: str, x: float, y: float, room: int) -> None:
    """A line of the coach's words (in the 15-pixel font) with its suit symbols
    drawn as shapes (the font has none), cut where it leaves ``room``."""
    right, small = x + room, font(15)
    for piece in re.split(r"([♣♦♥♠])", line.replace("🃏 ", "").replace("\ufe0f", "")):
        if not piece:
            continue
        suit = _SUIT_OF_SYMBOL.get(piece)
        if suit is not None:
            _pip(draw, suit, x + 6, y, 6, NOTE_INK)
            x += 14
            continue
        cut = fit(piece, 15, int(right - x))
        draw.text((x, y), cut, fill=NOTE_INK, font=small, anchor="lm")
        x += draw.textlength(cut, font=small)
        if cut != piece or x >= right:
            return
