"""Short answers to commands whose text lists things that can be many."""

from __future__ import annotations

from collections.abc import Sequence

from bot.render.limits import CONTENT, fit_lines


def several_tables_text(channel_ids: Sequence[int]) -> str:
    """Why a command for "your table" cannot pick one: the user plays at
    several, so it names their channels (as many as fit in one message)."""
    head = "You play at several tables: use this command in "
    channels = fit_lines([f"<#{c}>" for c in channel_ids], CONTENT - len(head) - 1, sep=", ")
    return f"{head}{channels}."
