"""Which language a person reads, on Discord.

Private answers (hands, refusals, hints) are in the language the person
chose with ``/spades language``, else their Discord app's
(``interaction.locale``). Public ones (the table message, its mentions, the
clock's messages, the end-of-game picture) are in the table's language
(``Table.language``, chosen with ``/spades new``, by default the server's).

The language of an interaction is learnt once, when it arrives
(:func:`learn_language`: the command tree's check and the component
dispatchers call it), and kept in ``interaction.extras``, so that every
answer to it, the error path included, reads it without the database.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.app import SpadesApp
from bot.i18n import resolve

KEY = "spades_language"


async def learn_language(interaction: discord.Interaction[Any], app: SpadesApp) -> str:
    """The reader's language for the answers to ``interaction``, now known to
    :func:`private_language` too."""
    chosen = await app.language_of(interaction.user.id)
    language = resolve(chosen or interaction.locale)
    interaction.extras[KEY] = language
    return language


def private_language(interaction: discord.Interaction[Any]) -> str:
    """The language of a private answer to ``interaction``."""
    known = interaction.extras.get(KEY)
    return known if isinstance(known, str) else resolve(interaction.locale)


def server_language(interaction: discord.Interaction[Any]) -> str:
    """The server's preferred language (a new table's default), else English."""
    return resolve(interaction.guild_locale)
