"""Which private hand message a person sees at a table: a pure function of the
table snapshot and the viewer.

Only a seated player has a hand; the message is drawn from that seat's
:class:`~bot.game.view.PlayerView`, which holds nobody else's cards.
"""

from __future__ import annotations

from bot import refusals
from bot.game.view import view_of
from bot.i18n import ENGLISH, N_
from bot.render.decks import Deck
from bot.render.hand import hand_message
from bot.render.hint_button import with_hint_button
from bot.render.spec import MessageSpec
from bot.render.table import seat_labels
from bot.tables.model import Table


def hand_screen(
    table: Table, user_id: int, deck: Deck, note: str | None = None, lang: str = ENGLISH
) -> MessageSpec:
    """The private hand message of ``user_id`` in their ``lang``; a refusal
    for anyone without a hand."""
    seat = table.seat_of(user_id)
    if seat is None:
        if table.is_spectator(user_id):
            raise refusals.Spectator(N_("you are watching: only players have a hand"))
        raise refusals.NotSeated()
    if table.game is None:
        raise refusals.NotStarted()
    view = view_of(table.game, seat)
    spec = hand_message(
        view,
        table_id=table.id,
        version=table.version,
        names=seat_labels(table, lang),
        deck=deck,
        note=note,
        lang=lang,
    )
    if table.options.hints:
        stamp = table.game.action_count
        spec = with_hint_button(spec, view, table.id, table.version, stamp, lang)
    return spec


def hand_moment(table: Table, user_id: int) -> tuple[object, ...]:
    """What decides the buttons of a hand: the hand, the phase, whose turn.

    An editable hand is redrawn when this changes: when the owner's turn comes or
    goes, or a hand starts or ends. In between, the owner's buttons are all
    disabled, so the message may show an older trick without harm.
    """
    game = table.game
    seat = table.seat_of(user_id)
    if game is None or seat is None:
        return (table.status,)
    return (table.status, game.hand_number, game.phase, game.waited_on() == seat)
