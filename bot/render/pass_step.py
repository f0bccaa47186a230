"""The Nil pass in the private hand: choosing the cards, then what changed hands.

While its seat chooses (bot.game.passing), the hand shows each card as a
button that toggles it and a Pass button, enabled once the exchange's number
of cards is chosen. The choice so far lives in the buttons' ids: a card's
button carries the selection its click makes, Pass the selection it passes
(``spades:pass_pick:<table>:<version>:<mask>-<hand>``, the mask in hex), so
the server keeps nothing and a restart in the middle of a choice loses
nothing. The hand number names the exchange: a choice holds through the
partner's pass, which moves the table's version on, but never into another
hand. Once the cards have changed hands, each hand shows what it gave and
received, nobody else's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.game.types import Phase
from bot.game.view import PlayerView
from bot.i18n import ENGLISH, ntr, tr
from bot.render.decks import Deck, Style, by_suit, cards_text
from bot.render.spec import MAX_ROWS, Act, ButtonSpec, grouped_rows
from bot.tables.model import Table

#: Marks a chosen card's button (with its colour), whatever the deck.
CHOSEN_MARK = "✓ "
_HEX = frozenset("0123456789abcdef")


def pass_arg(selection: int, hand: int) -> str:
    """The argument of a pass button: a selection of cards in hand ``hand``."""
    return f"{selection:x}-{hand}"


def read_pass_arg(arg: str | None) -> tuple[int, int]:
    """The (selection, hand) of a pass button's argument; ValueError for
    one the bot never draws."""
    mask, _, hand = (arg or "").partition("-")
    if not mask or not set(mask) <= _HEX or not hand.isdigit():
        raise ValueError(f"not a pass selection: {arg!r}")
    return int(mask, 16), int(hand)


def choosing(view: PlayerView) -> bool:
    """Whether the seat is still to choose the cards it passes."""
    return view.phase is Phase.PASSING and bool(view.pass_count) and not view.passed


def still_choosing(table: Table, user_id: int, hand: int) -> bool:
    """Whether ``user_id`` is still to choose the cards they pass in hand ``hand``."""
    game, seat = table.game, table.seat_of(user_id)
    if game is None or seat is None or game.hand_number != hand:
        return False
    return game.phase is Phase.PASSING and seat in game.exchange.choosing()


def drawn_in_exchange(table: Table, user_id: int, version: int) -> bool:
    """Whether a hand drawn at ``version`` shows its owner's choice in the
    exchange going on at ``table``: they still choose, and nothing but this
    exchange's passes came since (the last bid began it)."""
    game = table.game
    if game is None or not still_choosing(table, user_id, game.hand_number):
        return False
    passes = sum(1 for cards in game.exchange.chosen if cards)
    return 0 <= table.version - version <= passes


def chosen(view: PlayerView, selection: int) -> int:
    """The cards of ``selection`` the seat may pass: its own, no more than the
    exchange's number (a forged larger selection counts as none)."""
    picked = selection & view.hand
    return picked if picked.bit_count() <= view.pass_count else 0


def pass_lines(view: PlayerView, names: Sequence[str], selection: int, lang: str) -> list[str]:
    """What the hand says of the exchange: the choice to make (and made so
    far), the cards passed or exchanged, and who is still choosing."""
    partner = names[view.seat ^ 2]
    lines = []
    if choosing(view):
        n = view.pass_count
        lines.append(
            ntr(
                lang,
                "**Choose {n} card to pass to {partner}**, then press Pass.",
                "**Choose {n} cards to pass to {partner}**, then press Pass.",
                n,
                partner=partner,
            )
        )
        picked = chosen(view, selection)
        count = tr(lang, "{k} of {n} chosen", k=picked.bit_count(), n=n)
        lines.append(f"{count}: {cards_text(picked, lang)}" if picked else count)
    elif view.passed and not view.received:
        cards = cards_text(view.passed, lang)
        lines.append(tr(lang, "You pass {cards} to {partner}.", cards=cards, partner=partner))
    line = exchange_line(view, names, lang)
    if line:
        lines.append(line)
    others = [names[s] for s in view.choosing if s != view.seat]
    if view.phase is Phase.PASSING and others:
        lines.append(
            tr(lang, "Still choosing the cards they pass: {players}", players=", ".join(others))
        )
    return lines


def exchange_line(view: PlayerView, names: Sequence[str], lang: str) -> str:
    """The cards the seat gave and received in this hand's exchange ("" before it)."""
    if not view.received:
        return ""
    return tr(
        lang,
        "You gave {gave} to {partner} and received {received}.",
        gave=cards_text(view.passed, lang),
        partner=names[view.seat ^ 2],
        received=cards_text(view.received, lang),
    )


def pass_rows(
    view: PlayerView,
    selection: int,
    deck: Deck,
    button: Callable[..., ButtonSpec],
    lang: str = ENGLISH,
) -> list[tuple[ButtonSpec, ...]]:
    """A toggle per card, chosen ones marked, and Pass on a row of its own,
    enabled at the exchange's number of cards. Once that many are chosen the
    others are greyed out until one is put back."""
    picked = chosen(view, selection)
    full = picked.bit_count() == view.pass_count
    hand = view.hand_number

    def toggle(card: int) -> ButtonSpec:
        face = deck.face(card, lang)
        on = bool(picked >> card & 1)
        return button(
            Act.PASS_PICK,
            pass_arg(picked ^ 1 << card, hand),
            CHOSEN_MARK + face.label if on else face.label,
            style=Style.GREEN if on else face.style,
            emoji=face.emoji,
            disabled=full and not on,
        )

    label = ntr(lang, "Pass {n} card", "Pass {n} cards", view.pass_count)
    done = button(Act.PASS, pass_arg(picked, hand), label, style=Style.BLURPLE, disabled=not full)
    cards = grouped_rows([[toggle(c) for c in suit] for suit in by_suit(view.hand)], MAX_ROWS - 1)
    return [*cards, (done,)]
