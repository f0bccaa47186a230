"""One error path: refusals become short private answers, surprises get logged.

Slash commands arrive through ``CommandTree.on_error``; components call :func:`report`
from their dispatcher (discord.py swallows a DynamicItem's own exceptions)."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.i18n import ENGLISH, N_, tr
from bot.refusals import ServerNotKnown, as_refusal
from bot.render.refusal_text import refusal_text
from bot.render.spec import CONTENT, clip
from bot.render.tournament_text import refusal as tournament_refusal
from bot.tournament.events import TournamentRefusal
from cogs.components import private_language

log = logging.getLogger(__name__)

UNKNOWN_COMMAND = N_(
    "That command has changed since Discord last heard of it: an admin can publish "
    "the current ones with `python -m bot sync`."
)
SORRY = N_("Something went wrong on my side; nothing was changed by it. Please try again.")
NOT_HERE = N_("You cannot use that command here.")


class InteractionRefused(Exception):
    """A refusal decided in the cog, in the reader's language (the core's: :mod:`bot.refusals`)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def refused(
    interaction: discord.Interaction[Any], text: str, **values: object
) -> InteractionRefused:
    """A refusal of ``text`` (marked with ``N_``) in the caller's language."""
    return InteractionRefused(tr(private_language(interaction), text, **values))


def explain(error: BaseException, lang: str = ENGLISH) -> str | None:
    """The answer for a refusal in ``lang``, or None for an unexpected error."""
    if isinstance(error, InteractionRefused):
        return error.message
    if isinstance(error, TournamentRefusal):
        return tournament_refusal(error.code, lang)
    return refusal_text(error, lang)


def unwrap(error: BaseException) -> BaseException:
    while isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    return error


async def say(interaction: discord.Interaction[Any], text: str) -> None:
    """A private answer, whether or not the interaction was answered already."""
    # A refusal may quote what the person typed: Discord refuses an answer over
    # its limit, and the person would be left with no answer at all.
    text = clip(text, CONTENT)
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def answer(interaction: discord.Interaction[Any], text: str, **values: object) -> None:
    """A private answer of ``text`` (marked with ``N_``) in the caller's language."""
    await say(interaction, tr(private_language(interaction), text, **values))


async def report(interaction: discord.Interaction[Any], error: BaseException) -> None:
    error = as_refusal(unwrap(error))
    lang = private_language(interaction)
    text = explain(error, lang)
    if text is None:
        log.error(
            "unexpected error in %s by user %s",
            _what(interaction),
            interaction.user.id,
            exc_info=error,
        )
        text = tr(lang, SORRY)
    else:
        log.debug("refused %s for user %s: %s", _what(interaction), interaction.user.id, text)
    try:
        await say(interaction, text)
    except discord.HTTPException as exc:
        # The interaction may have expired; there is nobody left to tell.
        log.warning("could not answer %s: %s", _what(interaction), exc)


async def on_tree_error(
    interaction: discord.Interaction[Any], error: app_commands.AppCommandError
) -> None:
    lang = private_language(interaction)
    if isinstance(error, app_commands.CheckFailure) and not isinstance(
        error, app_commands.CommandInvokeError
    ):
        # discord.py's own checks say why, in English only.
        why = str(error) if lang == ENGLISH and str(error) else tr(lang, NOT_HERE)
        await report(interaction, InteractionRefused(why))
        return
    guild = interaction.guild
    if isinstance(error, app_commands.TransformerError) and guild and guild.unavailable:
        # A channel or role option of a server not yet known (just started): discord.py has none.
        await report(interaction, ServerNotKnown())
        return
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        # Discord still shows a command this bot no longer has in that shape.
        await report(interaction, InteractionRefused(tr(lang, UNKNOWN_COMMAND)))
        return
    await report(interaction, error)


def _what(interaction: discord.Interaction[Any]) -> str:
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    data: dict[str, Any] = dict(interaction.data or {})
    # Without the argument: a card button's argument is a card still in a hand.
    custom_id = str(data.get("custom_id", "?"))
    return "component " + ":".join(custom_id.split(":")[:4])
