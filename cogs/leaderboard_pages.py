"""The page buttons of the leaderboard: ``spades-board:<sort>:<page>:<slot>[:<season>]``.

Each button carries its whole request, so it works on any leaderboard message after a restart."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.i18n import resolve, tr
from bot.render import leaderboard as screens
from bot.stats.leaderboard import LeaderboardPage, SortKey
from cogs.components import LANGUAGE_KEY, ComponentHandler, message_fields, private_language
from cogs.errors import InteractionRefused, report

#: What a page button asks for: (guild id, sort, page, season) -> the page.
PageSource = Callable[[int, SortKey, int, int | None], Awaitable[LeaderboardPage]]
#: The language a user chose (None: their Discord app's).
LanguageSource = Callable[[int], Awaitable[str | None]]


def page_buttons(source: PageSource, languages: LanguageSource) -> ComponentHandler:
    """The handler of the ``spades-board:`` page buttons; a bad id is answered."""

    async def on_click(interaction: discord.Interaction[Any], rest: str, _: list[Any]) -> None:
        try:
            chosen = await languages(interaction.user.id)
            interaction.extras[LANGUAGE_KEY] = resolve(chosen or interaction.locale)
            lang = private_language(interaction)
            wanted = screens.parse_board_id(rest)
            if wanted is None:
                raise InteractionRefused(tr(lang, "That button is not valid."))
            guild = guild_of(interaction)
            page = await source(guild.id, *wanted)
            await interaction.response.edit_message(**board_fields(page, guild.name, lang))
        except Exception as exc:
            await report(interaction, exc)

    return on_click


def board_fields(page: LeaderboardPage, guild_name: str, lang: str) -> dict[str, Any]:
    fields = message_fields(screens.board_message(page, guild_name, lang))
    del fields["content"]
    return fields


def guild_of(interaction: discord.Interaction[Any]) -> discord.Guild:
    if interaction.guild is None:
        lang = private_language(interaction)
        raise InteractionRefused(
            tr(lang, "The leaderboard belongs to a server: use it in a server channel.")
        )
    return interaction.guild
