"""Discord's size limits, and helpers that make any text fit them.

Discord refuses a whole message when one part is too long, and the user then
gets no answer at all. Everything that can grow (lists of channels, players,
games) goes through these helpers, which shorten it and say how much is left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.render.spec import EmbedSpec, Field

CONTENT = 2000
EMBED_TOTAL = 6000
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
FIELDS = 25
BUTTON_LABEL = 80
OPTION_LABEL = 100
OPTIONS = 25
PLACEHOLDER = 150

ELLIPSIS = "…"
MORE = "… and {n} more"


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, ending in an ellipsis when cut."""
    if len(text) <= limit:
        return text
    return text[: max(limit - len(ELLIPSIS), 0)] + ELLIPSIS


def fit_lines(lines: Sequence[str], limit: int, more: str = MORE, sep: str = "\n") -> str:
    """As many of ``lines`` as fit in ``limit`` characters joined by ``sep``,
    then ``more`` (its ``{n}`` the number left out) if some had to go.

    A single line longer than the limit is clipped rather than dropped, so the
    reader always sees something.
    """
    joined = sep.join(lines)
    if len(joined) <= limit:
        return joined
    kept: list[str] = []
    size = 0
    for index, line in enumerate(lines):
        tail = sep + more.format(n=len(lines) - index - 1) if index + 1 < len(lines) else ""
        added = len(line) + (len(sep) if kept else 0)
        if size + added + len(tail) > limit:
            break
        kept.append(line)
        size += added
    left_out = len(lines) - len(kept)
    if not kept:  # even the first line is too long: it is clipped
        tail = sep + more.format(n=left_out - 1) if left_out > 1 else ""
        return clip(lines[0], limit - len(tail)) + tail
    return sep.join(kept) + sep + more.format(n=left_out)


def embed_size(embed: EmbedSpec) -> int:
    """The characters Discord counts against an embed's 6,000."""
    fields = sum(len(f.name) + len(f.value) for f in embed.fields)
    return len(embed.title) + len(embed.description) + len(embed.footer) + fields


def fit_embed(embed: EmbedSpec) -> EmbedSpec:
    """``embed`` with every part within its limit and the whole within 6,000.

    Parts that are built to fit are left as they are; this is the last guard.
    Should the total still be too long, the last fields are the ones shortened.
    """
    fields = [
        Field(clip(f.name, FIELD_NAME) or "-", clip(f.value, FIELD_VALUE) or "-", f.inline)
        for f in embed.fields[:FIELDS]
    ]
    fitted = replace(
        embed,
        title=clip(embed.title, EMBED_TITLE),
        description=clip(embed.description, EMBED_DESCRIPTION),
        footer=clip(embed.footer, FOOTER),
        fields=tuple(fields),
    )
    excess = embed_size(fitted) - EMBED_TOTAL
    if excess > 0 and fitted.description:
        keep = max(len(fitted.description) - excess, 0)
        fitted = replace(fitted, description=clip(fitted.description, keep))
    while embed_size(fitted) > EMBED_TOTAL and fitted.fields:
        fitted = replace(fitted, fields=fitted.fields[:-1])
    return fitted
