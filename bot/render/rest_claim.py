"""A claim of the rest of the tricks on the table message: the claimer's
cards, who answers, and the buttons to claim and to answer.

The only unplayed cards the public message shows: those of a seat that
claimed the rest in this hand (they stay shown after a refusal). Not the
turn clock's claim of the game (``Claim the win``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.game.rest_claim import claimable, refused_this_turn, tricks_left
from bot.game.state import Game
from bot.game.types import Phase
from bot.i18n import ntr, tr
from bot.render.decks import Style, by_suit, card_text
from bot.render.spec import Act, ButtonSpec, Field
from bot.tables.model import Table

#: ``button(act, label, style, arg)``: a button of the table message.
MakeButton = Callable[[Act, str, Style, str | None], ButtonSpec]
ACCEPT, REFUSE = "accept", "refuse"


def shown_cards_text(mask: int, lang: str) -> str:
    """A hand's cards by suit, high to low: ``A♠ K♠ · Q♥``."""
    return " · ".join(" ".join(card_text(c, lang) for c in suit) for suit in by_suit(mask))


def rest_claim_field(game: Game, labels: Sequence[str], lang: str) -> Field | None:
    """The claim waiting for answers and the cards claims showed, during play."""
    rest = game.rest
    if game.phase is not Phase.PLAYING or not rest.shown:
        return None
    lines = []
    if rest.waiting:
        answering = [labels[seat] for seat in rest.opponents() if not rest.accepted >> seat & 1]
        lines.append(
            ntr(
                lang,
                "{player} claims the {n} remaining trick. {opponents}: accept or refuse.",
                "{player} claims the {n} remaining tricks. {opponents}: accept or refuse.",
                tricks_left(game),
                player=labels[rest.claimer],
                opponents=", ".join(answering),
            )
        )
    for seat in range(4):
        if rest.shows(seat) and game.hands[seat]:
            cards = shown_cards_text(game.hands[seat], lang)
            lines.append(tr(lang, "{player}'s cards: {cards}", player=labels[seat], cards=cards))
    if not rest.waiting:
        lines.append(tr(lang, "The claim was refused: play goes on."))
        on_turn = game.waited_on()
        if on_turn is not None and refused_this_turn(game, on_turn):
            lines.append(
                tr(lang, "{player} may claim again on their next turn.", player=labels[on_turn])
            )
    return Field(tr(lang, "Claim of the rest"), "\n".join(lines))


def rest_claim_buttons(table: Table, game: Game, button: MakeButton, lang: str) -> list[ButtonSpec]:
    """Accept and Refuse while a claim waits; else **Claim the rest** when a
    person is on turn to play (computer players never claim)."""
    if game.phase is not Phase.PLAYING:
        return []
    if game.rest.waiting:
        return [
            button(Act.ANSWER_REST, tr(lang, "Accept the claim"), Style.GREEN, ACCEPT),
            button(Act.ANSWER_REST, tr(lang, "Refuse the claim"), Style.RED, REFUSE),
        ]
    seat = game.waited_on()
    if seat is not None and claimable(game, seat) and not table.seats[seat].is_computer:
        return [button(Act.CLAIM_REST, tr(lang, "Claim the rest"), Style.GREY, None)]
    return []
