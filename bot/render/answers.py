"""Short private answers whose length depends on the data, built to fit.

Discord refuses a message over 2,000 characters, and then the person gets
no answer at all; lists are cut with a count of what was left out.
"""

from __future__ import annotations

from collections.abc import Sequence

MESSAGE_LIMIT = 2000


def fit_list(head: str, items: Sequence[str], tail: str = "", limit: int = MESSAGE_LIMIT) -> str:
    """``head`` followed by as many ``items`` (comma separated) as fit, then
    "and N more" for the rest, then ``tail``; never longer than ``limit``."""
    shown: list[str] = []
    for index, item in enumerate(items):
        rest = len(items) - index - 1
        more = f" and {rest} more" if rest else ""
        candidate = head + ", ".join([*shown, item]) + more + tail
        if len(candidate) > limit:
            hidden = len(items) - len(shown)
            return head + ", ".join(shown) + f" and {hidden} more" + tail
        shown.append(item)
    return head + ", ".join(shown) + tail


def several_tables(channel_ids: Sequence[int]) -> str:
    """The refusal for a command that needs one table, from someone with several."""
    return fit_list(
        "You play at several tables: use this command in ",
        [f"<#{c}>" for c in channel_ids],
        ".",
    )
