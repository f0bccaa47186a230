"""Slash commands' descriptions and choices in every language (names stay, to be shared)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Location

from bot.i18n import ENGLISH, resolve, tr
from bot.render.clock_text import duration_text

#: Names stay as they are in every language.
NAMES = frozenset({Location.command_name, Location.group_name, Location.parameter_name})
#: A choice whose name is a duration carries its seconds in this extra.
SECONDS = "seconds"


class CatalogTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if context.location in NAMES:
            return None
        lang = resolve(locale.value)
        return None if lang == ENGLISH else translated(string, lang)


def translated(string: app_commands.locale_str, lang: str) -> str | None:
    """``string`` in ``lang``; None when it reads the same as in English."""
    extras: dict[str, Any] = string.extras
    seconds = extras.get(SECONDS)
    text = tr(lang, string.message) if seconds is None else duration_text(lang, seconds)
    return None if text == string.message else text
