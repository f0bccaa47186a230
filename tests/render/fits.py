"""The check that a message spec is one Discord accepts."""

from __future__ import annotations

from bot.render.spec import (
    BUTTON_LABEL,
    CONTENT,
    EMBED_DESCRIPTION,
    EMBED_TITLE,
    EMBED_TOTAL,
    FIELD_NAME,
    FIELD_VALUE,
    FIELDS,
    FOOTER,
    OPTION_LABEL,
    OPTIONS,
    PLACEHOLDER,
    EmbedSpec,
    MessageSpec,
    SelectSpec,
    embed_size,
)


def embed_problems(embed: EmbedSpec) -> list[str]:
    problems = []
    if len(embed.title) > EMBED_TITLE:
        problems.append(f"title of {len(embed.title)}")
    if len(embed.description) > EMBED_DESCRIPTION:
        problems.append(f"description of {len(embed.description)}")
    if len(embed.footer) > FOOTER:
        problems.append(f"footer of {len(embed.footer)}")
    if len(embed.fields) > FIELDS:
        problems.append(f"{len(embed.fields)} fields")
    for field in embed.fields:
        if not 0 < len(field.name) <= FIELD_NAME:
            problems.append(f"field name of {len(field.name)}")
        if not 0 < len(field.value) <= FIELD_VALUE:
            problems.append(f"field {field.name!r} of {len(field.value)}")
    if embed_size(embed) > EMBED_TOTAL:
        problems.append(f"embed of {embed_size(embed)} in all")
    return problems


def problems(spec: MessageSpec) -> list[str]:
    """What Discord would refuse in ``spec``; empty when it fits."""
    found = []
    if len(spec.content) > CONTENT:
        found.append(f"content of {len(spec.content)}")
    if spec.embed is not None:
        found += embed_problems(spec.embed)
    for button in spec.buttons:
        if len(button.label) > BUTTON_LABEL:
            found.append(f"button label of {len(button.label)}")
    for row in spec.rows:
        if isinstance(row, SelectSpec):
            if not 0 < len(row.options) <= OPTIONS:
                found.append(f"{len(row.options)} options")
            if len(row.placeholder) > PLACEHOLDER:
                found.append(f"placeholder of {len(row.placeholder)}")
            found += [
                f"option label of {len(o.label)}"
                for o in row.options
                if len(o.label) > OPTION_LABEL
            ]
    return found
