"""Tournaments on Discord: their message, notices, match threads, standings and clicks."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.i18n import N_, resolve, tr
from bot.render import tournament_text as text
from bot.render.bracket import bracket_png
from bot.render.spec import MessageSpec
from bot.tournament.events import (
    ConfirmPartner,
    DeclinePartner,
    Event,
    ReadyPress,
    Register,
    Start,
    TournamentRefusal,
    Withdraw,
)
from bot.tournament.match_tables import Found
from bot.tournament.model import Match, Tournament
from bot.tournament.service import TournamentService
from bot.tournament.state import apply
from cogs.components import (
    SpadesComponent,
    handle_components,
    learn_language,
    message_fields,
    private_language,
)
from cogs.errors import refused, report
from cogs.guilds import GuildGate, first_missing, post_to
from cogs.outbox import EDIT, POST, Key, Outbox, Route, Spawn

log = logging.getLogger(__name__)

THREAD = "POST /channels/{channel_id}/threads"
#: The registration buttons (any other action: Leave): the event and its answer.
REGISTRATION: dict[str, tuple[Callable[[int], Event], str]] = {
    text.ALONE: (Register, N_("You are registered alone.")),
    text.CONFIRM: (ConfirmPartner, N_("You are registered as partners.")),
    text.DECLINE: (DeclinePartner, N_("You declined the partner request.")),
}
FETCH = "GET /channels/{channel_id}"


class MatchThreads:
    """Where a match's table opens: a new thread, or the channel where the bot may not start one.

    The choice is written down for good, so it waits until the server is known
    (:class:`~cogs.guilds.GuildGate`), never made on a just-started bot's empty cache."""

    def __init__(
        self, client: discord.Client, outbox: Outbox, guilds: GuildGate, spawn: Spawn
    ) -> None:
        self.client = client
        self.outbox = outbox
        self.guilds = guilds
        self.spawn = spawn
        self._asked: set[tuple[int, int]] = set()  # (tournament, match) under way

    def request(self, tournament: Tournament, match: Match, found: Found) -> None:
        asked = (tournament.id, match.number)
        if asked in self._asked:
            return
        self._asked.add(asked)
        key = ("match-thread", tournament.id, match.number)

        async def start() -> Route:
            try:
                channel_id, route = await self._thread(tournament, match)
                if channel_id is not None:
                    await found(channel_id)
            finally:
                self._asked.discard(asked)
            return route

        async def once_known() -> None:
            await self.guilds.wait(tournament.guild_id)
            self.outbox.put(key, start)

        self.spawn(once_known(), f"match-thread-{tournament.id}-{match.number}")

    async def _thread(self, tournament: Tournament, match: Match) -> tuple[int | None, Route]:
        """The match's channel and the request made; none if Discord did not say."""
        try:
            channel = await self.guilds.channel(tournament.guild_id, tournament.channel_id)
        except discord.HTTPException as exc:
            log.info("tournament %d: channel not fetched: %s", tournament.id, exc)
            return None, FETCH
        if not isinstance(channel, discord.TextChannel):
            return tournament.channel_id, None
        have = self.guilds.permissions(channel)
        if have is not None and not (have.create_public_threads and have.send_messages_in_threads):
            return tournament.channel_id, None
        name = f"{tournament.settings.name} · {match.number}"
        try:
            thread = await channel.create_thread(
                name=name[:100], type=discord.ChannelType.public_thread, auto_archive_duration=10080
            )
        except discord.HTTPException as exc:
            log.info("tournament %d match %d: no thread: %s", tournament.id, match.number, exc)
            return tournament.channel_id, THREAD
        return thread.id, THREAD


#: What a tournament's message needs here, with the names Discord's settings
#: show, in the order that counts (without View Channel nothing else does).
#: Registration is only through its buttons, and the bracket is a picture.
NEEDED = (
    ("view_channel", "View Channel"),
    ("send_messages", "Send Messages"),
    ("embed_links", "Embed Links"),
    ("attach_files", "Attach Files"),
)
#: In a thread, its own right to send stands for Send Messages.
NEEDED_IN_THREAD = (
    NEEDED[0],
    ("send_messages_in_threads", "Send Messages in Threads"),
    *NEEDED[2:],
)


def cannot_post(interaction: discord.Interaction[Any]) -> str | None:
    """The first permission the tournament's messages would lack here, as
    Discord's settings name it; None when the bot may post them."""
    in_thread = isinstance(interaction.channel, discord.Thread)
    return first_missing(interaction.app_permissions, NEEDED_IN_THREAD if in_thread else NEEDED)


class TournamentDesk:
    def __init__(
        self,
        client: discord.Client,
        service: TournamentService,
        outbox: Outbox,
        names: Callable[[int], str | None],
        remember: Callable[[discord.abc.User], None],
        admit: Callable[[discord.Interaction[Any]], Awaitable[bool]],
    ) -> None:
        self.client = client
        self.service = service
        self.outbox = outbox
        self.names = names
        #: Notes a seen member's name, so pictures and posts name them without asking Discord.
        self.remember = remember
        #: Whether to take a click at all (not while the bot is stopping).
        self.admit = admit
        self._seen: dict[int, Tournament] = {}  # the last state each tournament was shown in
        handle_components(client, self.on_component, text.PREFIX)
        service.subscribe(self.on_change)

    # -- what changed -----------------------------------------------------------------

    def on_change(self, tournament: Tournament) -> None:
        before = self._seen.get(tournament.id)
        self._seen[tournament.id] = tournament
        key = ("tournament", tournament.id)
        self.outbox.put(key, lambda: self._show(tournament.id), channel_id=tournament.channel_id)
        if before is None:
            return  # loaded at start: its notices went out before
        lang = self._lang(tournament.id)
        for match in tournament.matches:
            old = before.match(match.number)
            if match.state == "ready_check" and (old is None or old.state != "ready_check"):
                spec = text.ready_notice(tournament, match, lang)
                self._post(("ready", tournament.id, match.number), tournament, spec)
        drawn = tournament.phase == "running" and before.phase == "registering"
        if drawn and tournament.left_out:
            spec = MessageSpec(content=text.left_out_notice(tournament, lang))
            self._post(("left-out", tournament.id), tournament, spec)
        if tournament.phase == "over" and before.phase != "over":
            self.service.app.spawn(self._post_results(tournament), f"standings-{tournament.id}")

    def _lang(self, tournament_id: int) -> str:
        row = self.service.row(tournament_id)
        return str(row.settings.get("language", "en")) if row is not None else "en"

    async def _show(self, tournament_id: int) -> Route:
        tournament = self.service.get(tournament_id)
        row = self.service.row(tournament_id)
        if tournament is None or row is None:
            return None
        version = self.service.version(tournament_id)
        lang = self._lang(tournament_id)
        fields = message_fields(text.tournament_message(tournament, lang))
        picture = await self.picture(tournament, lang) if tournament.matches else None
        if picture is not None:
            fields["attachments" if row.message_id else "file"] = (
                [picture] if row.message_id else picture
            )
            fields["embed"].set_image(url="attachment://bracket.png")
        channel = self.client.get_partial_messageable(
            tournament.channel_id, guild_id=tournament.guild_id or None
        )
        try:
            if row.message_id is not None:
                try:
                    await channel.get_partial_message(row.message_id).edit(**fields)
                    await self.service.shown(tournament_id, version)
                    return EDIT
                except discord.NotFound:
                    log.info("tournament %d: its message is gone; posting it again", tournament.id)
                    if "attachments" in fields:
                        fields["file"] = fields.pop("attachments")[0]
            message = await channel.send(**fields)
            await self.service.set_message(tournament.id, message.id)
            await self.service.shown(tournament_id, version)
        except discord.HTTPException as exc:
            log.warning("tournament %d message not shown: %s", tournament.id, exc)
        return POST

    async def picture(self, tournament: Tournament, lang: str) -> discord.File:
        """The bracket as a PNG file, drawn off the event loop."""
        names = {
            t.id: " & ".join(self.names(u) or str(u) for u in t.players) for t in tournament.teams
        }
        png = await asyncio.to_thread(bracket_png, tournament, names, text.bracket_labels(lang))
        return discord.File(io.BytesIO(png), filename="bracket.png")

    def _post(
        self, key: Key, tournament: Tournament, spec: MessageSpec, channel_id: int | None = None
    ) -> None:
        """Post ``spec`` in the tournament's channel (or ``channel_id``) through the outbox."""

        async def send() -> Route:
            await self._send(key, tournament, spec, channel_id)
            return POST

        self.outbox.put(key, send)

    async def _send(
        self, key: Key, tournament: Tournament, spec: MessageSpec, channel_id: int | None
    ) -> None:
        posted = await post_to(
            self.client,
            channel_id or tournament.channel_id,
            tournament.guild_id,
            f"tournament {tournament.id}: {key!r}",
            **message_fields(spec),
            allowed_mentions=discord.AllowedMentions(users=True),
        )
        if not posted and key[0] == "ready" and len(key) == 3:
            # Unseen, the ready check loses both teams the match by no-show. The direct
            # message is a request of its own: it waits its turn in the outbox.
            match = key[2]
            told = ("ready-unseen", tournament.id, match)
            self.outbox.put(told, lambda: self._tell_organizer(tournament, match))

    async def _tell_organizer(self, tournament: Tournament, match: int) -> Route:
        """A direct message to the organizer: a ready check could not be posted."""
        chosen = await self.service.app.language_of(tournament.organizer_id)
        lang = resolve(chosen) if chosen else self._lang(tournament.id)
        said = tr(
            lang,
            "I could not post the ready check of match {match} of {name} in {channel}: I am"
            " not allowed to post there. A team not ready in time loses the match: ask a"
            " server admin to let me post there, or decide the match with /spades tournament"
            " decide.",
            match=match,
            name=tournament.settings.name,
            channel="<#" + str(tournament.channel_id) + ">",
        )
        organizer = tournament.organizer_id
        try:
            user = self.client.get_user(organizer) or await self.client.fetch_user(organizer)
            await user.send(said, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.warning(
                "tournament %d: organizer not told of match %d: %s", tournament.id, match, exc
            )
        return POST

    async def post_owed_standings(self) -> None:
        """Post the final standings a stop left unposted (after a restart)."""
        for tournament in await self.service.standings_owed():
            await self._post_results(tournament)

    async def _post_results(self, tournament: Tournament) -> None:
        """The final standings to the results channel, once: a restart posts only those owed."""
        settings = await self.service.app.servers.of(tournament.guild_id or None)
        channel_id = settings.results_channel
        if channel_id is None:
            await self.service.standings_posted(tournament.id)
            return
        spec = MessageSpec(content=text.results_post(tournament, self._lang(tournament.id)))
        key = ("tournament-results", tournament.id)

        async def send() -> Route:
            if not await self.service.owes_standings(tournament.id):
                return None  # posted already (found owed twice)
            await self._send(key, tournament, spec, channel_id)
            await self.service.standings_posted(tournament.id)
            return POST

        self.outbox.put(key, send)

    # -- clicks ---------------------------------------------------------------------------

    async def on_component(
        self, interaction: discord.Interaction[Any], rest: str, values: list[Any]
    ) -> None:
        if not await self.admit(interaction):
            return
        # A menu of the desk chooses people: its values are users.
        chosen = [v for v in values if isinstance(v, discord.abc.User)]
        for person in (interaction.user, *chosen):
            self.remember(person)
        try:
            await learn_language(interaction, self.service.app)
            await self._click(interaction, rest, [person.id for person in chosen])
        except Exception as exc:
            await report(interaction, exc)

    async def _click(
        self, interaction: discord.Interaction[Any], rest: str, values: list[int]
    ) -> None:
        lang = private_language(interaction)
        parsed = text.parse_id(rest)
        tournament = self.service.get(parsed.tournament) if parsed is not None else None
        if parsed is None or tournament is None or tournament.guild_id != interaction.guild_id:
            raise TournamentRefusal("unknown_tournament")
        user = interaction.user.id
        tid, action = tournament.id, parsed.action
        if action == text.REGISTER:
            await self._partner_menu(interaction, tournament, lang)
            return
        if action == text.START:
            missing = cannot_post(interaction)
            if missing is not None:
                # The core's refusals come first (who may start, enough teams); then
                # the ready checks, posted here: unseen, every team would lose by no-show.
                apply(tournament, Start(user, 0, {}, _manages(interaction)), self.service.app.now())
                raise refused(
                    interaction,
                    N_(
                        "I cannot post the ready checks in this channel: I need the {permission}"
                        " permission here. Ask a server admin to allow it, then press Start again."
                    ),
                    permission=missing,
                )
            await self.service.start_bracket(tid, user, _manages(interaction))
            answer = tr(lang, "The bracket is drawn: the first ready checks are open.")
        elif action == text.READY:
            number = parsed.arg if parsed.arg is not None else _my_match(tournament, user)
            await self.service.act(tid, ReadyPress(number, user))
            answer = tr(lang, "Your team is ready for match {match}.", match=number)
        elif action == text.PARTNER:
            # Only the partner menu chooses a partner: a button, or a menu of
            # anything but one user, chose nobody.
            if len(values) != 1:
                raise TournamentRefusal("no_partner")
            partner = values[0]
            await self.service.act(tid, Register(user, partner))
            asked = text.partner_asked(tournament, user, partner, self._lang(tid))
            self._post(("partner", tid, partner), tournament, MessageSpec(content=asked))
            answer = tr(
                lang,
                "You asked <@{partner}>: they press Confirm partner on the tournament message.",
                partner=partner,
            )
        else:
            kind, said = REGISTRATION.get(action, (Withdraw, N_("You left the tournament.")))
            await self.service.act(tid, kind(user))
            answer = tr(lang, said)
        await interaction.response.send_message(
            answer, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )

    async def _partner_menu(
        self, interaction: discord.Interaction[Any], tournament: Tournament, lang: str
    ) -> None:
        # The menu opens only for someone the core would register, else its refusal.
        apply(tournament, Register(interaction.user.id), self.service.app.now())
        custom_id = str(text.TourneyId(text.PARTNER, tournament.id))
        menu: discord.ui.UserSelect[Any] = discord.ui.UserSelect(
            custom_id=custom_id, placeholder=tr(lang, "Your partner")
        )
        view = discord.ui.View(timeout=None)
        view.add_item(SpadesComponent.of(menu, custom_id))
        await interaction.response.send_message(
            tr(lang, "Choose your partner: they confirm on the tournament message."),
            view=view,
            ephemeral=True,
        )
        view.stop()


def _my_match(tournament: Tournament, user: int) -> int:
    """The match the user's team is asked to be ready for."""
    match = tournament.match_to_ready(user)
    if match is None:
        raise TournamentRefusal("no_match_to_ready")
    return match.number


def _manages(interaction: discord.Interaction[Any]) -> bool:
    return bool(interaction.permissions.manage_guild)
