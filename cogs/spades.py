"""The slash commands: ``/spades ...`` and ``/revoke``.

Each command finds the table, calls the application, and answers; refusals
are raised and answered by the one error path (cogs.errors).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.app import PRESET_NAMES, Origin, SpadesApp
from bot.i18n import LANGUAGES, N_, tr
from bot.render import clock_text
from bot.render.clock_text import duration_text
from bot.render.coach_text import coach_set_text, coach_status_text, hints_table_text
from bot.render.decks import DECKS, DeckName, Style
from bot.render.my_games import my_games_text
from bot.render.refusal_text import NO_GAME_TO_RESIGN, joined_text, resign_question
from bot.render.rules_text import rules_text
from bot.render.spec import Act, ButtonSpec, ComponentId, MessageSpec
from bot.tables.model import Table
from cogs.components import learn_language, private_language, send_private, server_language
from cogs.errors import answer, refused
from cogs.hands import HandScreens
from cogs.outbox import POST, Route
from cogs.presenter import TablePresenter
from cogs.server_rules import announce_table, opening_options
from cogs.translator import SECONDS

log = logging.getLogger(__name__)

# Minutes: quick tables for people playing together, up to a week for
# tables played over days.
TURN_LIMIT_MINUTES = (5, 60, 720, 1440, 2880, 4320, 10080)
PRESET_CHOICES: list[Choice[str]] = [Choice(name=name, value=name) for name in PRESET_NAMES]
#: Each language by its own name; "auto" goes back to the Discord app's.
AUTO = "auto"
LANGUAGE_CHOICES = [Choice(name=name, value=code) for code, name in LANGUAGES.items()]


def _limit_choice(minutes: int) -> Choice[int]:
    seconds = minutes * 60
    name = app_commands.locale_str(duration_text("en", seconds), **{SECONDS: seconds})
    return Choice(name=name, value=minutes)


#: The options of a new table, on ``/spades new`` and, as the server's
#: defaults, on ``/spades-admin defaults``: their help, then their choices
#: (those with numbers apart from those with words, as discord.py asks).
NEW_TABLE_HELP = {
    "target": N_("Points to win"),
    "revokes": N_("Allow revokes (at the player's risk, /revoke catches them) or block them"),
    "preset": N_("Rules preset"),
    "turn_limit": N_("How long the table waits on one player before the others may claim"),
    "stand_in": N_("Past the turn limit, a computer plays for the late player (else: a claim)"),
    "hints": N_("A Hint button on the players' hands (such games leave ratings alone)"),
    "language": N_("The language of the table message (the server's by default)"),
    "house": N_("House rules as KEY=VALUE,... (as the simulator's --house); - for none"),
    "thread": N_("Turn notices and the end of the game in a thread of the table message"),
    "watchers": N_("Let people watch once every seat is taken"),
}
#: House rules' text: a dozen rules with their values fit.
HOUSE_LENGTH = 300
NEW_TABLE_NUMBERS: dict[str, list[Choice[int]]] = {
    "target": [
        Choice(name=N_("500 points"), value=500),
        Choice(name=N_("250 points"), value=250),
    ],
    "turn_limit": [_limit_choice(m) for m in TURN_LIMIT_MINUTES],
}
NEW_TABLE_WORDS: dict[str, list[Choice[str]]] = {
    "revokes": [
        Choice(name=N_("allow"), value="allowed"),
        Choice(name=N_("block"), value="blocked"),
    ],
    "preset": PRESET_CHOICES,
    "language": LANGUAGE_CHOICES,
}


def house_option(text: str | None) -> str | None:
    """The house rules' option as TableOptions reads it: None when left out,
    empty for ``-`` (none, whatever the server's default)."""
    return None if text is None else text.strip().removeprefix("-").strip()


#: A command added to ``/spades`` from elsewhere: a command, or a group of them.
Subcommand = app_commands.Command[Any, ..., None] | app_commands.Group


@app_commands.guild_only()
class SpadesGroup(app_commands.Group, name="spades", description=N_("Partnership Spades tables")):
    """Every ``/spades`` command: those of the tables here, then ``more``
    (the statistics' commands, made by :mod:`cogs.leaderboard`)."""

    def __init__(self, cog: SpadesCog, more: Sequence[Subcommand]) -> None:
        super().__init__()
        self.cog = cog
        for command in more:
            self.add_command(command)

    @property
    def app(self) -> SpadesApp:
        return self.cog.app

    @app_commands.command(name="new", description=N_("Open a Spades table in this channel"))
    @app_commands.describe(**NEW_TABLE_HELP)
    @app_commands.choices(**NEW_TABLE_NUMBERS)
    @app_commands.choices(**NEW_TABLE_WORDS)
    async def new(
        self,
        interaction: discord.Interaction[Any],
        target: int | None = None,
        revokes: str | None = None,
        preset: str | None = None,
        turn_limit: int | None = None,
        stand_in: bool | None = None,
        hints: bool | None = None,
        language: str | None = None,
        house: app_commands.Range[str, 1, HOUSE_LENGTH] | None = None,
        thread: bool | None = None,
        watchers: bool | None = None,
    ) -> None:
        # Posting the table message may wait on Discord's rate limits.
        await interaction.response.defer(ephemeral=True, thinking=True)
        presenter = self.cog.presenter
        presenter.remember_name(interaction.user)
        lang = private_language(interaction)
        # A missing permission is also told by direct message, outside this interaction.
        presenter.remember_language(interaction.user.id, lang)
        # Left out: the server's default (/spades-admin defaults), else the form's.
        options = await opening_options(
            interaction,
            self.app,
            target=target,
            revokes=revokes,
            preset=preset,
            turn_limit_s=None if turn_limit is None else turn_limit * 60,
            stand_in=stand_in,
            hints=hints,
            language=language,
            house=house_option(house),
            thread=thread,
            watchers=watchers,
        )
        if "language" not in options.model_fields_set:
            options = options.model_copy(update={"language": server_language(interaction)})
        origin = Origin(interaction.guild_id, interaction.channel_id)
        snapshot = await self.app.create(origin, interaction.user.id, options)
        table = snapshot.table
        await presenter.wait_shown(table.id)
        await announce_table(self.app, presenter.outbox, interaction.client, table)
        problem = presenter.problem(table.id, lang)
        if problem is not None:
            await interaction.followup.send(problem, ephemeral=True)
            return
        opened = tr(
            lang,
            "Table {table} is open: you sit South. Others press Join on the table message.",
            table=table.id,
        )
        if table.options.hints:
            opened += " " + hints_table_text(lang)
        if table.options.thread:
            no_thread = await presenter.threads.start(table, lang)
            if no_thread is not None:
                opened += "\n" + no_thread
        await interaction.followup.send(opened, ephemeral=True)

    @app_commands.command(
        name="mygames", description=N_("Your open tables on this server, your turns first")
    )
    async def mygames(self, interaction: discord.Interaction[Any]) -> None:
        user = interaction.user.id
        tables = await self.app.my_games(user, interaction.guild_id)
        text = my_games_text(tables, user, private_language(interaction))
        await interaction.response.send_message(
            text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )

    @app_commands.command(
        name="join", description=N_("Take a seat at this channel's table, or watch")
    )
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        table = await self.app.channel_table(interaction.channel_id)
        self.cog.presenter.remember_name(interaction.user)
        table = await self.app.join(table, interaction.user.id)
        text = joined_text(
            private_language(interaction), table.seat_of(interaction.user.id), table.id
        )
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(
        name="leave", description=N_("Leave your seat before the start, or stop watching")
    )
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        table = await self.app.channel_table(interaction.channel_id)
        await self.app.leave(table, interaction.user.id)
        await answer(interaction, N_("You left table {table}."), table=table.id)

    @app_commands.command(name="hand", description=N_("Show your cards (only you see them)"))
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        table = await self.app.my_table(interaction.user.id, interaction.channel_id)
        await self.cog.hands.open(interaction, table)

    @app_commands.command(name="resign", description=N_("Give up the game: your team loses"))
    async def resign(self, interaction: discord.Interaction[Any]) -> None:
        lang = private_language(interaction)
        table = await self.app.my_table(interaction.user.id, interaction.channel_id)
        if table.game is None or table.game.over:
            raise refused(interaction, NO_GAME_TO_RESIGN)
        confirm = ButtonSpec(
            str(ComponentId(Act.RESIGN, table.id, table.version)),
            tr(lang, "Yes, resign"),
            Style.RED,
        )
        spec = MessageSpec(
            content=resign_question(table, lang),
            rows=((confirm,),),
        )
        await send_private(interaction, spec)

    @app_commands.command(name="cancel", description=N_("Close your table before it starts (host)"))
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        table = await self.app.channel_table(interaction.channel_id)
        await self.app.cancel(table, interaction.user.id)
        await answer(interaction, N_("Table {table} is closed."), table=table.id)

    @app_commands.command(name="deck", description=N_("Choose how your own cards look"))
    @app_commands.describe(design=N_("The deck design; leave it out to see the designs"))
    @app_commands.choices(design=[Choice(name=d.title, value=d.name.value) for d in DECKS.values()])
    async def deck_command(
        self, interaction: discord.Interaction[Any], design: str | None = None
    ) -> None:
        lang = private_language(interaction)
        if design is None:
            current = await self.cog.hands.deck_of(interaction.user.id)
            lines = [tr(lang, "Your deck: **{deck}**.", deck=tr(lang, current.title))]
            lines += [
                f"- **{tr(lang, d.title)}** (`{d.name.value}`): {tr(lang, d.description)}"
                for d in DECKS.values()
            ]
            await interaction.response.send_message("\n".join(lines), ephemeral=True)
            return
        chosen = DECKS[DeckName(design)]
        await self.cog.hands.set_deck(interaction.user.id, chosen)
        text = N_("Your cards now use the **{deck}** deck. Only you see it.")
        await answer(interaction, text, deck=tr(lang, chosen.title))

    @app_commands.command(
        name="language", description=N_("Choose the language of your own messages")
    )
    @app_commands.describe(
        language=N_("Your language; leave it out to see it, or pick Discord's to follow your app")
    )
    @app_commands.choices(
        language=[*LANGUAGE_CHOICES, Choice(name=N_("Discord's language"), value=AUTO)]
    )
    async def language_command(
        self, interaction: discord.Interaction[Any], language: str | None = None
    ) -> None:
        user = interaction.user.id
        if language is not None:
            await self.app.set_language(user, None if language == AUTO else language)
        lang = await learn_language(interaction, self.app)
        if await self.app.language_of(user) is None:
            text = N_(
                "Your own messages (hands, answers) follow your Discord app: {language}. "
                "Tables speak their own language."
            )
        else:
            text = N_(
                "Your own messages (hands, answers) are in {language}. "
                "Tables speak their own language."
            )
        await answer(interaction, text, language=LANGUAGES[lang])

    @app_commands.command(name="rules", description=N_("The rules of this channel's table"))
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        rules = await self.app.rules_in(interaction.channel_id)
        text = rules_text(rules, private_language(interaction))
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(
        name="coach", description=N_("A private review of your play after each hand (on or off)")
    )
    @app_commands.describe(mode=N_("on or off; leave it out to see your choice"))
    @app_commands.choices(
        mode=[Choice(name=N_("on"), value="on"), Choice(name=N_("off"), value="off")]
    )
    async def coach(self, interaction: discord.Interaction[Any], mode: str | None = None) -> None:
        user = interaction.user.id
        lang = private_language(interaction)
        if mode is None:
            text = coach_status_text(await self.app.coach.coach_on(user), lang)
        else:
            await self.app.coach.set_coach(user, mode == "on")
            text = coach_set_text(mode == "on", lang)
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(
        name="claim",
        description=N_("Win the game: the other team kept the table waiting too long"),
    )
    async def claim(self, interaction: discord.Interaction[Any]) -> None:
        table = await self.app.my_table(interaction.user.id, interaction.channel_id)
        done = await self.app.claim(table, interaction.user.id, table.version)
        await interaction.response.send_message(
            clock_text.claimed(done, interaction.user.id),
            allowed_mentions=discord.AllowedMentions.none(),
        )


class SpadesCog(commands.Cog):
    def __init__(
        self,
        tree: app_commands.CommandTree[Any],
        app: SpadesApp,
        hands: HandScreens,
        presenter: TablePresenter,
        more: Sequence[Subcommand] = (),
    ) -> None:
        self.tree = tree
        self.app = app
        self.hands = hands
        self.presenter = presenter
        self.group = SpadesGroup(self, more)

    async def cog_load(self) -> None:
        self.tree.add_command(self.group)

    async def cog_unload(self) -> None:
        self.tree.remove_command(self.group.name)

    @app_commands.command(name="revoke", description=N_("Call a revoke on an opponent"))
    @app_commands.describe(player=N_("The opponent you say revoked in this hand"))
    @app_commands.guild_only()
    async def revoke(self, interaction: discord.Interaction[Any], player: discord.User) -> None:
        table = await self.app.my_table(interaction.user.id, interaction.channel_id)
        done = await self.app.challenge(table, interaction.user.id, player.id)
        result = done.result
        assert result is not None
        # A public answer: in the table's language.
        if result.reason.value == "revoke":
            template = N_(
                "{caller} called a revoke on {player}: the plays of the hand show it. "
                "{player}'s team loses the game."
            )
        else:
            template = N_(
                "{caller} called a revoke on {player}, but the plays of the hand show none. "
                "{caller}'s team loses the game."
            )
        text = tr(done.language, template, caller=interaction.user.mention, player=player.mention)
        await self._announce_revoke(interaction, done, text)

    async def _announce_revoke(
        self, interaction: discord.Interaction[Any], table: Table, text: str
    ) -> None:
        """The call is public where the table talks: an answer where it was
        typed, or (typed anywhere but the table's thread) a message in the
        thread and a private copy for the caller."""
        if table.thread_id is None or interaction.channel_id == table.thread_id:
            await interaction.response.send_message(text)
            return
        threads = self.presenter.threads

        async def post() -> Route:
            try:
                await threads.send(table, content=text)
            except discord.HTTPException as exc:
                log.info("revoke call at table %d not posted: %s", table.id, exc)
            return POST

        threads.outbox.put(("revoke", table.id), post)
        await interaction.response.send_message(text, ephemeral=True)
