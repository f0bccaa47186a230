"""The statistics service: counts finished games and answers the queries.

A change that finishes a game (:func:`finished_by`) leads to :meth:`StatsService.record_game`,
run in the background so no click waits; :meth:`StatsService.catch_up` counts at start-up
what a crash left uncounted. A game is counted exactly once."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from typing import Any

from bot.game.rules import RuleSet
from bot.game.types import ENGINE_KINDS, Action, ActionKind, EndReason
from bot.refusals import SeasonNameTaken
from bot.stats.counting import RecordOutcome, SeasonSkills, SkillKey, plan_counting, skill_key
from bot.stats.history import export_bytes
from bot.stats.leaderboard import PAGE_SIZE, LeaderboardPage, SortKey, page_span
from bot.stats.ratings import Skill
from bot.stats.records import BadRecord, FinishedGame, SeatPlayer
from bot.stats.seasons import ALL_TIME, Season, named, season_name
from bot.stats.summary import PartnerRecord, PlayerStats, SeasonStanding
from bot.stats.tally import Tally
from bot.tables.model import Table, TableStatus
from db.seasons import SeasonStore
from db.stats_records import HistoryRow, StoredGame
from db.stats_store import StatsStore

log = logging.getLogger(__name__)

BEST_PARTNERS = 3
HISTORY_LENGTH = 10


class StatsService:
    """``owns``: the servers this process counts, so two processes never move one's ratings."""

    def __init__(
        self,
        store: StatsStore,
        page_size: int = PAGE_SIZE,
        *,
        owns: Callable[[int | None], bool] | None = None,
    ) -> None:
        self.store = store
        self.seasons_store = SeasonStore(store.store)
        self.page_size = page_size
        self.owns = owns
        # One batch at a time, so two games sharing a player both move their rating.
        self._counting = asyncio.Lock()

    # -- at the end of a game ---------------------------------------------------

    async def record_game(self, game: FinishedGame) -> RecordOutcome | None:
        """Count a finished game; None if counted before, BadRecord if unreadable."""
        return (await self.record_games([game]))[0]

    async def record_games(
        self, games: Sequence[FinishedGame], *, skip_bad: bool = False
    ) -> list[RecordOutcome | None]:
        """Count games in the order they ended, in one transaction; None for each counted or bad."""
        async with self._counting:
            store = self.store
            counted = await store.counted_ids([g.game_id for g in games])
            unique: dict[int, FinishedGame] = {}  # each game once, the first time given
            for game in games:
                if game.game_id not in counted:
                    unique.setdefault(game.game_id, game)
            fresh = list(unique.values())
            settings = await store.rate_settings(g.guild_id for g in fresh)
            skills, season = await self._skills(fresh)
            writes, outcomes = plan_counting(
                fresh, settings, skills, _log_bad_record if skip_bad else None, season
            )
            await store.write_games(writes)
        by_id = {g.game_id: o for g, o in zip(fresh, outcomes, strict=True)}
        return [by_id.pop(game.game_id, None) for game in games]

    async def _skills(
        self, games: Sequence[FinishedGame]
    ) -> tuple[dict[SkillKey, Skill], SeasonSkills]:
        """The skills the games start from, all time and in their running seasons."""
        store = self.store
        keys = {skill_key(g.guild_id, seat) for g in games for seat in g.seats}
        stored = await store.skills(keys)
        season_of = await self.seasons_store.running_seasons(g.guild_id for g in games)
        in_season = await self.seasons_store.season_skills(
            (guild, season_of[guild], who) for guild, who in keys if isinstance(who, int)
        )
        return {key: Skill(mu, sigma) for key, (mu, sigma) in stored.items()}, SeasonSkills(
            {(g, u): Skill(mu, sigma) for (g, _, u), (mu, sigma) in in_season.items()}, season_of
        )

    async def set_rate_computer_games(self, guild_id: int, rate: bool) -> None:
        await self.store.set_rate_computer_games(guild_id, rate)

    async def rate_computer_games(self, guild_id: int) -> bool:
        return await self.store.rate_computer_games(guild_id)

    # -- queries ----------------------------------------------------------------

    async def leaderboard(
        self, guild_id: int, sort: SortKey, page: int = 0, season: int | None = None
    ) -> LeaderboardPage:
        """A page of the running season's board, or of ``season`` (or :data:`ALL_TIME`)."""
        seasons = await self.seasons_store.seasons(guild_id)
        number = None
        shown = None
        if seasons:
            number = seasons[-1].number if season is None else season
            shown = next((s for s in seasons if s.number == number), None)
            if shown is None:
                number = ALL_TIME
        scope = number or None  # the store's None: all time
        total = await self.store.leaderboard_size(guild_id, sort, scope)
        span = page_span(page, total, self.page_size)
        rows = await self.store.leaderboard_rows(guild_id, sort, span.offset, span.limit, scope)
        return LeaderboardPage(
            sort=sort, span=span, total=total, rows=rows, season_no=number, season=shown
        )

    # -- seasons ----------------------------------------------------------------

    async def seasons(self, guild_id: int) -> list[Season]:
        """The server's seasons, oldest first (at least the first, running since its first game)."""
        stored = await self.seasons_store.seasons(guild_id)
        if stored:
            return stored
        return [Season(guild_id, 1, None, await self.seasons_store.first_game_at(guild_id), None)]

    async def season_named(self, guild_id: int, text: str) -> int:
        """The number of the season a ``season:`` option names (UnknownSeason if none)."""
        return named(await self.seasons(guild_id), text)

    async def start_season(self, guild_id: int, text: str, at: float) -> tuple[Season, str]:
        """Close the running season and start ``text``; returns the closed season and the new name.
        One step between two counting batches, so every game counts wholly in one season."""
        name, key = season_name(text)
        async with self._counting:
            closed = await self.seasons_store.start_season(guild_id, name, key, at)
        if closed is None:
            raise SeasonNameTaken(name=name)
        return closed, name

    async def seasons_owed(self) -> list[Season]:
        """Closed seasons of this process's servers whose post was never made."""
        return await self.seasons_store.seasons_owed(lambda g: self.owns is None or self.owns(g))

    async def owes_season_post(self, season: Season) -> bool:
        return await self.seasons_store.owes_season_post(season.guild_id, season.number)

    async def season_posted(self, season: Season, at: float) -> None:
        await self.seasons_store.season_posted(season.guild_id, season.number, at)

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats | None:
        """A player's statistics on one server; None if they never finished a game there."""
        row = await self.store.player(guild_id, user_id)
        if row is None:
            return None
        rank: int | None = None
        ranked = 0
        if row.rated_games:
            rank, ranked = await self.store.rating_rank(guild_id, row.rating)
        partners = [
            PartnerRecord(p.partner_id, p.games, p.wins, p.draws)
            for p in await self.store.partners(guild_id, user_id)
        ]
        partners.sort(key=lambda p: (-p.smoothed_win_rate, -p.games, p.partner_id))
        return PlayerStats(
            user_id=user_id,
            tally=Tally(**row.tally),
            rating=row.rating,
            rated_games=row.rated_games,
            rank=rank,
            ranked_players=ranked,
            best_partners=tuple(partners[:BEST_PARTNERS]),
            last_game=next(iter(await self.store.history(guild_id, user_id, 1)), None),
            season=await self._standing(guild_id, user_id),
        )

    async def _standing(self, guild_id: int, user_id: int) -> SeasonStanding | None:
        seasons = await self.seasons_store.seasons(guild_id)
        if not seasons:
            return None
        season = seasons[-1]
        row = await self.seasons_store.season_player(guild_id, season.number, user_id)
        if row is None or not row.rated_games:
            return SeasonStanding(season, row, None, 0)
        rank, ranked = await self.store.rating_rank(guild_id, row.rating, season.number)
        return SeasonStanding(season, row, rank, ranked)

    async def recent_games(
        self, guild_id: int, user_id: int, limit: int = HISTORY_LENGTH
    ) -> list[HistoryRow]:
        return await self.store.history(guild_id, user_id, limit)

    async def finished_game(self, game_id: int) -> tuple[FinishedGame, dict[str, Any]] | None:
        """A finished server game with its ``Game.to_json()`` form; None if there is none."""
        stored = await self.store.stored_game(game_id)
        if stored is None or stored.guild_id is None:
            return None
        actions = await self._engine_actions(stored)
        game = await self._finished_from_stored(stored, actions=actions)
        game_json = {
            "rules": stored.rules,
            "seed": stored.seed,
            "started_at": stored.started_at,
            "fixed_deals": [],
            "actions": [a.to_json() for a in actions],
        }
        return game, game_json

    async def _engine_actions(self, stored: StoredGame) -> list[Action]:
        logged = await self.store.game_actions(stored.table_id, stored.game_no)
        return [
            Action.from_logged(a.kind, a.payload, a.at) for a in logged if a.kind in ENGINE_KINDS
        ]

    async def _finished_from_stored(
        self,
        stored: StoredGame,
        *,
        actions: list[Action] | None = None,
    ) -> FinishedGame:
        if stored.guild_id is None:
            raise BadRecord(f"game {stored.game_id} was not played on a server")
        challenger = stored.challenger_seat
        reason = EndReason(stored.reason)
        if not stored.counted and reason in (EndReason.REVOKE, EndReason.FALSE_CLAIM):
            # Who called the revoke is only in the action log.
            if actions is None:
                actions = await self._engine_actions(stored)
            if actions and actions[-1].kind is ActionKind.CHALLENGE:
                challenger = actions[-1].seat
        seats = tuple(SeatPlayer(user_id=u, computer_level=c) for u, c in stored.seats)
        if len(seats) != 4:
            raise BadRecord(f"game {stored.game_id} has {len(seats)} seats")
        return FinishedGame(
            guild_id=stored.guild_id,
            game_id=stored.game_id,
            finished_at=stored.finished_at,
            rules=RuleSet.model_validate(stored.rules),
            seats=(seats[0], seats[1], seats[2], seats[3]),
            winner=stored.winner,
            reason=reason,
            reason_seat=stored.reason_seat,
            final_scores=stored.scores,
            hand_records=tuple(stored.hand_records),
            challenger_seat=challenger,
            hints=stored.hints,
        )

    async def export_history(self, guild_id: int, game_id: int) -> bytes | None:
        """The JSON history of a game played on this server, or None."""
        found = await self.finished_game(game_id)
        if found is None or found[0].guild_id != guild_id:
            return None
        return export_bytes(*found)

    async def catch_up(self, batch: int = 500) -> int:
        """Count, oldest first, every finished game a stop left uncounted; returns how many."""
        ids = await self.store.uncounted_game_ids()
        counted = 0
        for start in range(0, len(ids), batch):
            games = []
            for stored in await self.store.stored_games(ids[start : start + batch]):
                if self.owns is not None and not self.owns(stored.guild_id):
                    continue  # another shard's process counts it
                try:
                    games.append(await self._finished_from_stored(stored))
                except (BadRecord, ValueError) as exc:
                    log.error("finished game %d cannot be counted: %s", stored.game_id, exc)
            outcomes = await self.record_games(games, skip_bad=True)
            counted += sum(o is not None for o in outcomes)
        return counted


def finished_by(table: Table, event: str) -> FinishedGame | None:
    """The record of the game ``event`` finished at ``table``, else None; pure, for a subscriber."""
    return finished_from_table(table) if event in ENGINE_KINDS else None


def finished_from_table(table: Table) -> FinishedGame | None:
    """The record of the table's game if it has just finished on a server."""
    game = table.game
    if (
        game is None
        or not game.over
        or table.status is not TableStatus.FINISHED
        or table.guild_id is None
        or table.game_id is None
    ):
        return None
    seats = tuple(
        SeatPlayer(user_id=s.user_id, computer_level=s.computer_level) for s in table.seats
    )
    return FinishedGame.from_game(
        game,
        guild_id=table.guild_id,
        game_id=table.game_id,
        seats=seats,
        finished_at=game.actions[-1].at if game.actions else table.updated_at,
        hints=table.options.hints,
    )


def _log_bad_record(game: FinishedGame, exc: Exception) -> None:
    log.error("finished game %d cannot be counted: %s", game.game_id, exc)
