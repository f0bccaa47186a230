"""``/spades tournament ...``: open, show, decide and cancel a tournament."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice

from bot.i18n import N_
from bot.render import tournament_text as text
from bot.tournament.events import Cancel, Decide, TournamentRefusal
from bot.tournament.model import Settings, Tournament
from cogs.components import private_language, server_language, to_embed
from cogs.errors import answer, refused
from cogs.server_rules import opening_options
from cogs.spades import HOUSE_LENGTH, NEW_TABLE_NUMBERS
from cogs.tournament_desk import TournamentDesk, _manages, cannot_post


class TournamentGroup(
    app_commands.Group, name="tournament", description=N_("Brackets that run themselves")
):
    def __init__(self, desk: TournamentDesk) -> None:
        super().__init__()
        self.desk = desk

    async def _here(self, interaction: discord.Interaction[Any]) -> Tournament:
        """The channel's open tournament, else its latest one (over or cancelled)."""
        found = await self.desk.service.latest_in_channel(interaction.channel_id)
        if found is None or found.guild_id != interaction.guild_id:
            raise TournamentRefusal("no_tournament_here")
        return found

    @app_commands.command(name="new", description=N_("Open a tournament in this channel"))
    @app_commands.describe(
        name=N_("The tournament's name"),
        format=N_("Single or double elimination"),
        target=N_("Points to win each game"),
        house=N_("House rules of every game, as KEY=VALUE,..."),
        turn_limit=N_("How long a table waits on one player before the others may claim"),
        teams=N_("Register with a partner, or have partners drawn at the start"),
        ready_minutes=N_("Minutes each team has to press Ready before a match"),
    )
    @app_commands.choices(
        target=NEW_TABLE_NUMBERS["target"],
        turn_limit=NEW_TABLE_NUMBERS["turn_limit"],
    )
    @app_commands.choices(
        format=[
            Choice(name=N_("single elimination"), value="single"),
            Choice(name=N_("double elimination"), value="double"),
        ],
        teams=[
            Choice(name=N_("pairs"), value="pairs"),
            Choice(name=N_("draw"), value="draw"),
        ],
    )
    async def new(
        self,
        interaction: discord.Interaction[Any],
        name: app_commands.Range[str, 1, 60],
        format: str = "single",
        target: int = 500,
        house: app_commands.Range[str, 1, HOUSE_LENGTH] | None = None,
        turn_limit: int | None = None,
        teams: str = "pairs",
        ready_minutes: app_commands.Range[int, 1, 1440] = 15,
    ) -> None:
        # Who may open tables here may open a tournament, its options checked as a table's.
        options = await opening_options(
            interaction,
            self.desk.service.app,
            target=target,
            house=house or None,
            turn_limit_s=None if turn_limit is None else turn_limit * 60,
        )
        missing = cannot_post(interaction)
        if missing is not None:
            # Refused before anything is written: a tournament whose message
            # cannot be posted could never be registered for.
            raise refused(
                interaction,
                N_(
                    "I cannot post a tournament in this channel: I need the {permission} "
                    "permission here. Ask a server admin to allow it, or open the tournament "
                    "in another channel."
                ),
                permission=missing,
            )
        settings = Settings(
            name=name,
            format="double" if format == "double" else "single",
            target=options.target,
            house=options.house.text,
            turn_limit=turn_limit or "",
            teams="draw" if teams == "draw" else "pairs",
            ready_s=ready_minutes * 60,
        )
        assert interaction.guild_id is not None and interaction.channel_id is not None
        tournament = await self.desk.service.create(
            interaction.guild_id,
            interaction.channel_id,
            interaction.user.id,
            settings,
            server_language(interaction),
        )
        await answer(
            interaction,
            N_(
                "Tournament {tournament} is open for registration: press Start on its "
                "message once the teams are in."
            ),
            tournament=tournament.id,
        )

    @app_commands.command(name="show", description=N_("The bracket of this channel's tournament"))
    async def show(self, interaction: discord.Interaction[Any]) -> None:
        tournament = await self._here(interaction)
        lang = private_language(interaction)
        if not tournament.matches:
            if tournament.phase == "cancelled":
                never = N_("The tournament was cancelled.")
            else:
                never = N_("The bracket is drawn when the organizer starts the tournament.")
            await answer(interaction, never)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        embed = to_embed(text.bracket_heading(tournament, lang))
        embed.set_image(url="attachment://bracket.png")
        await interaction.followup.send(
            embed=embed, file=await self.desk.picture(tournament, lang), ephemeral=True
        )

    @app_commands.command(name="decide", description=N_("Settle a stuck match (organizer)"))
    @app_commands.describe(
        match=N_("The match's number"),
        winner=N_("The winning team's number"),
        reason=N_("Why, for everyone to read"),
    )
    async def decide(
        self,
        interaction: discord.Interaction[Any],
        match: int,
        winner: int,
        reason: app_commands.Range[str, 1, 200],
    ) -> None:
        tournament = await self._here(interaction)
        event = Decide(match, winner, interaction.user.id, reason, _manages(interaction))
        await self.desk.service.act(tournament.id, event)
        await answer(
            interaction, N_("Match {match} goes to team {team}."), match=match, team=winner
        )

    @app_commands.command(name="cancel", description=N_("Cancel this channel's tournament"))
    @app_commands.describe(reason=N_("Why, for the players of the tables it ends"))
    async def cancel(
        self,
        interaction: discord.Interaction[Any],
        reason: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        tournament = await self._here(interaction)
        event = Cancel(interaction.user.id, _manages(interaction), reason or "")
        await self.desk.service.act(tournament.id, event)
        await answer(interaction, N_("The tournament is cancelled."))
