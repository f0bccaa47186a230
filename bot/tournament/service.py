"""The tournament service: runs every tournament's bracket by itself.

Each step is one event checked by :func:`bot.tournament.state.apply` and committed with a
version check and its deadline in one transaction. What a step leads to (a ready match's
table, a finished table's winner advancing, a ready check running out) follows from the
committed state, so a restart does it again if the process stopped before it.
Listeners are told of every committed step and must return at once."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Callable
from typing import Any

from bot.app import Change, Snapshot, SpadesApp
from bot.clock import Deadline, Scheduler, SystemClock
from bot.game.house import parse_house
from bot.game.rules import Teams
from bot.refusals import TableClosed
from bot.tables.model import TableStatus
from bot.tournament.events import (
    Cancel,
    Decide,
    Event,
    MatchEnded,
    ReadyExpired,
    Start,
    TableOpened,
    TournamentRefusal,
    event_to_json,
)
from bot.tournament.match_tables import MatchChannels, MatchTables
from bot.tournament.model import Match, Settings, Tournament
from bot.tournament.results import rebuild
from bot.tournament.state import apply
from db.store import VersionConflict
from db.tournaments import TournamentEvent, TournamentRow, TournamentStore

log = logging.getLogger(__name__)

#: The kind of a tournament's one deadline: its next ready check to run out.
READY = "ready"
#: The first event of every tournament's log: its settings.
NEW = "new"

Listener = Callable[[Tournament], None]


class TournamentService:
    def __init__(self, app: SpadesApp, channels: MatchChannels) -> None:
        self.app = app
        self.store = TournamentStore(app.store)
        self.tables = MatchTables(app, self.store, channels)
        self.scheduler = Scheduler(self.store, SystemClock(app.now), serves=self._serves)
        self.scheduler.on(READY, self._ready_ran_out)
        self._tournaments: dict[int, Tournament] = {}
        self._versions: dict[int, int] = {}  # the stored version of each tournament
        self._rows: dict[int, TournamentRow] = {}
        self._locks: dict[int, asyncio.Lock] = {}  # one step at a time
        self._following: dict[int, asyncio.Lock] = {}  # one follow-up at a time
        # One tournament opened at a time, so two can never both find a channel free.
        self._opening = asyncio.Lock()
        self._listeners: list[Listener] = []
        app.subscribe(self._on_table, Change.FINISHED)

    # -- start and stop ---------------------------------------------------------------

    async def start(self) -> None:
        """Load open tournaments (and finished ones shown behind), start deadlines and catch up."""
        for row in [*await self.store.open_ones(), *await self.store.unshown()]:
            # A process of a sharded bot runs its own servers' tournaments.
            if self.app.shards.owns(row.guild_id):
                await self._load(row)
        await self.scheduler.start()
        for tournament_id in list(self._tournaments):
            await self._follow_up(tournament_id)

    async def _serves(self, tournament_id: int) -> bool:
        """Whether this process runs the tournament (loaded by :meth:`start`)."""
        return tournament_id in self._tournaments

    async def stop(self) -> None:
        await self.scheduler.stop()

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    # -- reading ----------------------------------------------------------------------

    def get(self, tournament_id: int) -> Tournament | None:
        return self._tournaments.get(tournament_id)

    def loaded(self) -> list[Tournament]:
        """Open tournaments, those finished since the start, and those whose message is behind."""
        return list(self._tournaments.values())

    def version(self, tournament_id: int) -> int:
        """The stored version of a loaded tournament (as :meth:`get` has it)."""
        return self._versions[tournament_id]

    async def shown(self, tournament_id: int, version: int) -> None:
        """Its message shows the tournament at ``version``: a restart need not draw it."""
        await self.store.shown(tournament_id, version)

    async def standings_owed(self) -> list[Tournament]:
        """This process's finished tournaments whose final standings were never posted."""
        rows = await self.store.standings_owed()
        return [await self._current(row) for row in rows if self.app.shards.owns(row.guild_id)]

    async def owes_standings(self, tournament_id: int) -> bool:
        return await self.store.owes_standings(tournament_id)

    async def standings_posted(self, tournament_id: int) -> None:
        await self.store.standings_posted(tournament_id, self.app.now())

    def row(self, tournament_id: int) -> TournamentRow | None:
        return self._rows.get(tournament_id)

    def in_channel(self, channel_id: int | None) -> Tournament | None:
        """The channel's newest open tournament, else its newest ended since the start."""
        found = [t for t in self._tournaments.values() if t.channel_id == channel_id]
        return max(found, key=lambda t: (t.phase in ("registering", "running"), t.id), default=None)

    async def latest_in_channel(self, channel_id: int | None) -> Tournament | None:
        """The channel's newest open tournament, else its newest finished one."""
        row = None if channel_id is None else await self.store.latest_in_channel(channel_id)
        return None if row is None else await self._current(row)

    async def _current(self, row: TournamentRow) -> Tournament:
        """The tournament of ``row``: loaded, else rebuilt from its events."""
        known = self._tournaments.get(row.id)
        return known or rebuild(row, await self.store.events(row.id))

    def of_table(self, table_id: int) -> tuple[Tournament, Match] | None:
        """The tournament and match a table is played for."""
        for tournament in self._tournaments.values():
            for match in tournament.matches:
                if match.table_id == table_id:
                    return tournament, match
        return None

    # -- steps ------------------------------------------------------------------------

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        organizer_id: int,
        settings: Settings,
        language: str = "en",
    ) -> Tournament:
        """Open a tournament for registration; its tables talk in ``language``.

        TournamentRefusal ``channel_busy`` while another is open in the channel:
        its commands (cancel, decide, show) name no tournament, they act on the
        channel's, so a channel runs one at a time."""
        check_partnership(settings)
        data = {**dataclasses.asdict(settings), "language": language}
        async with self._opening:
            # Every open tournament of this process's servers is loaded (start).
            here = self.in_channel(channel_id)
            if here is not None and here.phase in ("registering", "running"):
                raise TournamentRefusal("channel_busy")
            at = self.app.now()
            tournament_id = await self.store.create(
                guild_id=guild_id,
                channel_id=channel_id,
                organizer_id=organizer_id,
                name=settings.name,
                settings=data,
                first=TournamentEvent(NEW, organizer_id, data, at),
            )
            row = await self.store.get(tournament_id)
            assert row is not None
            tournament = await self._load(row)
        self._publish(tournament)
        return tournament

    async def act(self, tournament_id: int, event: Event) -> Tournament:
        """Apply and commit one step; raises TournamentRefusal with nothing written."""
        if isinstance(event, Decide | Cancel):
            await self._end_tables(tournament_id, event)
        tournament = await self._commit(tournament_id, event)
        self.app.spawn(self._follow_up(tournament_id), f"tournament-{tournament_id}")
        return tournament

    async def start_bracket(self, tournament_id: int, by: int, manages_server: bool) -> Tournament:
        """Close registration and draw the bracket, seeded by the players' server ratings."""
        tournament = self._tournaments.get(tournament_id)
        if tournament is None:
            raise TournamentRefusal("unknown_tournament")
        ratings: dict[int, float] = {}
        for user in tournament.registrations.users():
            stats = await self.app.stats.player_stats(tournament.guild_id, user)
            if stats is not None and stats.rated_games:
                ratings[user] = float(stats.rating)
        seed = self.app.tables.seed_source()
        return await self.act(tournament_id, Start(by, seed, ratings, manages_server))

    async def _end_tables(self, tournament_id: int, event: Decide | Cancel) -> None:
        """End the tables whose games ``event`` takes away, so no game is played for nothing.

        Done before the event is committed: a stop in between leaves the match waiting for the
        decision, not a table played for nothing (an ended game advances nobody)."""
        tournament = self._tournaments.get(tournament_id)
        if tournament is None:
            raise TournamentRefusal("unknown_tournament")
        apply(tournament, event, self.app.now())  # raises TournamentRefusal
        note = event.reason
        for match_table in await self.store.match_tables(tournament_id):
            if match_table.table_id is None:
                continue
            if isinstance(event, Decide) and match_table.match_no != event.match:
                continue
            table = await self.app.tables.get(match_table.table_id)
            if not table.is_open:
                continue
            with contextlib.suppress(TableClosed):  # its game ended meanwhile
                await self.app.tables.end_by_moderator(table.id, event.by, note)

    async def set_message(self, tournament_id: int, message_id: int) -> None:
        await self.store.set_message(tournament_id, message_id)
        row = self._rows.get(tournament_id)
        if row is not None:
            self._rows[tournament_id] = dataclasses.replace(row, message_id=message_id)

    async def _commit(self, tournament_id: int, event: Event) -> Tournament:
        lock = self._locks.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            tournament = self._tournaments.get(tournament_id)
            if tournament is None:
                raise TournamentRefusal("unknown_tournament")
            at = self.app.now()
            after = apply(tournament, event, at)
            data = event_to_json(event)
            kind = data.pop("kind")
            entry = TournamentEvent(kind, _actor(event), data, at)
            try:
                version = await self.store.commit_event(
                    tournament_id,
                    self._versions[tournament_id],
                    entry,
                    status=after.phase if after.phase != tournament.phase else None,
                    deadlines=_deadlines(after),
                )
            except VersionConflict:
                # Another process of the bot moved it on: read it again.
                await self._reload(tournament_id)
                raise TournamentRefusal("try_again") from None
            self._versions[tournament_id] = version
            self.scheduler.adopt(tournament_id, tuple(_deadlines(after)))
            self._tournaments[tournament_id] = after
        self._publish(after)
        return after

    # -- what follows -----------------------------------------------------------------

    async def _follow_up(self, tournament_id: int) -> None:
        """Open ready matches' tables and take finished games' results, one tournament at a time."""
        lock = self._following.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            tournament = self._tournaments.get(tournament_id)
            for number in range(1, len(tournament.matches) + 1 if tournament else 1):
                current = self._tournaments.get(tournament_id)
                match = current.match(number) if current is not None else None
                if current is None or match is None or current.phase != "running":
                    return
                try:
                    await self._follow_match(current, match)
                except TournamentRefusal as refusal:
                    # The state moved on meanwhile (another process, a decision).
                    log.info("tournament %d match %d: %s", tournament_id, number, refusal.code)

    async def _follow_match(self, tournament: Tournament, match: Match) -> None:
        if match.all_ready:

            async def channel_found(_channel_id: int) -> None:
                self.app.spawn(self._follow_up(tournament.id), f"tournament-{tournament.id}")

            table_id = await self.tables.open(tournament, match, channel_found)
            if table_id is not None:
                await self._commit(tournament.id, TableOpened(match.number, table_id))
        elif match.state == "playing" and match.table_id is not None:
            await self._take_result(tournament.id, match.table_id)

    def _on_table(self, snapshot: Snapshot, _event: str) -> None:
        table = snapshot.table
        if table.status is TableStatus.FINISHED and self.of_table(table.id) is not None:
            self.app.spawn(self._after_game(table.id), f"tournament-table-{table.id}")

    async def _after_game(self, table_id: int) -> None:
        found = self.of_table(table_id)
        if found is None:
            return
        await self._take_result(found[0].id, table_id)
        await self._follow_up(found[0].id)

    async def _take_result(self, tournament_id: int, table_id: int) -> None:
        """Advance the match's winner once its game is over (a draw awaits a decision)."""
        found = self.of_table(table_id)
        if found is None:
            return
        _, match = found
        table = await self.app.tables.get(table_id)
        result = table.result
        if table.status is TableStatus.PLAYING or result is None or result.winner is None:
            return
        if match.a is None or match.b is None or table.game is None:
            return
        # Team a sits at seats 0 and 2 (the engine's team 0).
        winner = match.a if result.winner == 0 else match.b
        scores = (table.game.scores[0], table.game.scores[1])
        try:
            await self._commit(tournament_id, MatchEnded(match.number, table_id, winner, scores))
        except TournamentRefusal as refusal:
            log.info("tournament %d: result of table %d: %s", tournament_id, table_id, refusal.code)

    async def _ready_ran_out(self, deadline: Deadline) -> None:
        tournament_id = deadline.owner
        tournament = self._tournaments.get(tournament_id)
        if tournament is None:
            return
        now = self.app.now()
        for number in range(1, len(tournament.matches) + 1):
            # Each match as it is now: a deadline adopted meanwhile may have run this already.
            current = self._tournaments.get(tournament_id)
            match = current.match(number) if current is not None else None
            due = match.deadline if match is not None else None
            if match is None or match.state != "ready_check" or match.all_ready:
                continue
            if due is None or due > now:
                continue
            try:
                await self._commit(tournament_id, ReadyExpired(match.number, due))
            except TournamentRefusal as refusal:
                log.info("tournament %d match %d: %s", tournament_id, number, refusal.code)
        await self._follow_up(tournament_id)

    # -- loading ----------------------------------------------------------------------

    async def _load(self, row: TournamentRow) -> Tournament:
        tournament = rebuild(row, await self.store.events(row.id))
        self._tournaments[row.id] = tournament
        self._versions[row.id] = row.version
        self._rows[row.id] = row
        return tournament

    async def _reload(self, tournament_id: int) -> None:
        row = await self.store.get(tournament_id)
        if row is None or row.status not in ("registering", "running"):
            self._tournaments.pop(tournament_id, None)
            self._versions.pop(tournament_id, None)
        else:
            await self._load(row)

    def _publish(self, tournament: Tournament) -> None:
        for listener in list(self._listeners):
            try:
                listener(tournament)
            except Exception:
                log.exception("a tournament listener failed on tournament %d", tournament.id)


def _deadlines(tournament: Tournament) -> list[Deadline]:
    """The tournament's one deadline: when its next ready check runs out."""
    due = [
        m.deadline
        for m in tournament.matches
        if m.state == "ready_check" and m.deadline is not None and not m.all_ready
    ]
    if not due or tournament.phase != "running":
        return []
    return [Deadline(tournament.id, READY, min(due), {})]


def _actor(event: Event) -> int | None:
    for name in ("user", "by"):
        value: Any = getattr(event, name, None)
        if isinstance(value, int):
            return value
    return None


def check_partnership(settings: Settings) -> None:
    """Tournaments are partnership play for good (a bracket pairs teams of
    two): TournamentRefusal ``partners_only`` for house rules playing solo."""
    teams = parse_house(settings.house).get("teams", Teams.PARTNERS.value)
    if teams != Teams.PARTNERS.value:
        raise TournamentRefusal("partners_only")
