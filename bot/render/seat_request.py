"""Taking over a computer's seat on the table message, between hands: the
menu where someone not seated asks for a seat, and, while a request waits,
what it asks and the host's Accept and Decline buttons."""

from __future__ import annotations

from collections.abc import Sequence

from bot.game.types import Phase
from bot.i18n import N_, tr
from bot.render.clock_text import ClockMessage
from bot.render.decks import Style
from bot.render.spec import (
    OPTION_LABEL,
    Act,
    ComponentId,
    Field,
    MakeButton,
    Row,
    SelectOption,
    SelectSpec,
    clip,
    computer_name,
)
from bot.tables.model import SeatRequest, Table, TableStatus

ACCEPT, DECLINE = "accept", "decline"


def between_hands(table: Table) -> bool:
    game = table.game
    playing = table.status is TableStatus.PLAYING
    return playing and game is not None and game.phase is Phase.HAND_OVER


def seat_request_field(
    table: Table, labels: Sequence[str], names: Sequence[str], lang: str
) -> Field | None:
    """The waiting request, in words (``labels``: how each seat's occupant is
    named; ``names``: the seats' names)."""
    request = table.seat_request
    if request is None or not between_hands(table):
        return None
    player = f"<@{request.user_id}>"
    text = tr(
        lang,
        "{player} asks to play {seat} in place of {holder} from the next hand. "
        "The host accepts or declines.",
        player=player,
        seat=names[request.seat],
        holder=labels[request.seat],
    )
    return Field(tr(lang, "Request for a seat"), text)


def answer_notice(request: SeatRequest, accepted: bool, seat: str, lang: str) -> ClockMessage:
    """The host's answer where the table talks, pinging the asker (``seat``:
    the seat's name)."""
    if accepted:
        text = N_("<@{user}> plays {seat} from the next hand: the host accepted.")
    else:
        text = N_("<@{user}>, the host declined your request for {seat}.")
    return ClockMessage(tr(lang, text, user=request.user_id, seat=seat), (request.user_id,))


def seat_request_rows(
    table: Table,
    away: frozenset[int],
    names: Sequence[str],
    button: MakeButton,
    lang: str,
) -> list[Row]:
    """Between hands, at a table open to watchers, the menu of the seats a
    computer holds (``away``: those where it plays for a late person); below
    it the host's two buttons while a request waits."""
    if not between_hands(table):
        return []
    rows: list[Row] = []
    menu = _seat_menu(table, away, names, lang) if table.options.watchers else None
    if menu is not None:
        rows.append(menu)
    if table.seat_request is not None:
        rows.append(
            (
                button(Act.SEAT_ANSWER, tr(lang, "Accept the request"), Style.GREEN, ACCEPT),
                button(Act.SEAT_ANSWER, tr(lang, "Decline the request"), Style.RED, DECLINE),
            )
        )
    return rows


def _seat_menu(
    table: Table, away: frozenset[int], names: Sequence[str], lang: str
) -> SelectSpec | None:
    options = []
    for seat, occupant in enumerate(table.seats):
        if occupant.is_computer:
            holder = computer_name(seat, occupant.computer_level, lang)
        elif seat in away:
            holder = tr(lang, "a computer plays for the late player")
        else:
            continue
        options.append(SelectOption(str(seat), clip(f"{names[seat]}: {holder}", OPTION_LABEL)))
    if not options:
        return None
    custom_id = str(ComponentId(Act.SEAT_ASK, table.id, table.version))
    placeholder = tr(lang, "Ask for a computer's seat")
    return SelectSpec(custom_id, placeholder, tuple(options))
