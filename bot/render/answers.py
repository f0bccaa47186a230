"""Short answers to commands whose text lists things that can be many."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import ENGLISH, tr
from bot.render.spec import CONTENT, fit_lines, seat_name
from bot.tables.model import Table


def several_tables_text(channel_ids: Sequence[int], lang: str = ENGLISH) -> str:
    """Why a command for "your table" cannot pick one: the user plays at
    several, so it names their channels (as many as fit in one message)."""
    empty = tr(lang, "You play at several tables: use this command in {channels}.", channels="")
    more = tr(lang, "… and {n} more")
    channels = fit_lines([f"<#{c}>" for c in channel_ids], CONTENT - len(empty), more, ", ")
    return tr(
        lang, "You play at several tables: use this command in {channels}.", channels=channels
    )


def resign_question(table: Table, lang: str = ENGLISH) -> str:
    """The question before resigning: the player's team loses, or in solo the player."""
    if table.solo:
        return tr(lang, "Resign at table {table}? You lose the game at once.", table=table.id)
    return tr(lang, "Resign at table {table}? Your team loses the game at once.", table=table.id)


def joined_text(lang: str, seat: int | None, table_id: int) -> str:
    """The private answer to joining: the seat taken, or watching."""
    if seat is None:
        return tr(lang, "You are watching table {table}.", table=table_id)
    return tr(lang, "You sit {seat} at table {table}.", seat=seat_name(seat, lang), table=table_id)
