"""The Hint button of a private hand at a table with hints on."""

from __future__ import annotations

from dataclasses import replace

from bot.coach.hint import can_hint
from bot.game.types import Phase
from bot.game.view import PlayerView
from bot.i18n import ENGLISH
from bot.render.coach_text import HINT_EMOJI, hint_button_label
from bot.render.decks import Style
from bot.render.spec import MAX_PER_ROW, MAX_ROWS, Act, ButtonSpec, ComponentId, MessageSpec, Row


def with_hint_button(
    spec: MessageSpec,
    view: PlayerView,
    table_id: int,
    version: int,
    stamp: int,
    lang: str = ENGLISH,
) -> MessageSpec:
    """``spec`` with a Hint button while the hand is bid or played: enabled
    on the owner's turn, greyed out otherwise. ``stamp`` (the game's action
    count) names the decision it was drawn for. It takes a row of its own,
    or, when the cards fill every row, the last row with room. Its label is
    in the owner's ``lang``."""
    if view.phase not in (Phase.BIDDING, Phase.PLAYING):
        return spec
    button = ButtonSpec(
        str(ComponentId(Act.HINT, table_id, version, str(stamp))),
        hint_button_label(lang),
        Style.GREEN,
        HINT_EMOJI,
        disabled=not can_hint(view),
    )
    rows: list[Row] = list(spec.rows)
    if len(rows) < MAX_ROWS:
        rows.append((button,))
        return replace(spec, rows=tuple(rows))
    for index in range(len(rows) - 1, -1, -1):
        row = rows[index]
        if isinstance(row, tuple) and len(row) < MAX_PER_ROW:
            rows[index] = (*row, button)
            return replace(spec, rows=tuple(rows))
    return spec
