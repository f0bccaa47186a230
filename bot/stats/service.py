"""The statistics service: counts finished games and answers the queries.

No Discord here: the cog calls these methods and renders what they return.
:meth:`StatsService.on_table_event` subscribes to the table service and
counts each game when it ends; :meth:`StatsService.catch_up` (at start-up)
counts any finished game a crash left uncounted. Counting a game twice
changes nothing.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from bot.game.rules import RuleSet
from bot.game.state import Action, ActionKind, EndReason
from bot.stats.chart import score_chart_png
from bot.stats.history import export_bytes
from bot.stats.leaderboard import PAGE_SIZE, LeaderboardPage, SortKey
from bot.stats.ratings import Skill, is_rated, rate_teams
from bot.stats.records import BadRecord, FinishedGame, SeatPlayer
from bot.stats.summary import GameSummary, PartnerRecord, PlayerStats
from bot.stats.tally import Tally, game_tallies
from bot.tables.model import Table, TableStatus
from db.stats_store import GameWrite, SeatWrite, StatsStore

log = logging.getLogger(__name__)

#: Log kinds of the engine's actions (one of them ends a game).
ENGINE_KINDS = frozenset(kind.value for kind in ActionKind)

BEST_PARTNERS = 3
HISTORY_LENGTH = 10
NEWCOMER = Skill()


@dataclass(frozen=True, slots=True)
class RatingChange:
    user_id: int
    before: int
    after: int


@dataclass(frozen=True, slots=True)
class RecordOutcome:
    rated: bool
    changes: tuple[RatingChange, ...]  # humans only; empty for an unrated game


class StatsService:
    def __init__(self, store: StatsStore, page_size: int = PAGE_SIZE) -> None:
        self.store = store
        self.page_size = page_size

    # -- at the end of a game ---------------------------------------------------

    async def record_game(self, game: FinishedGame) -> RecordOutcome | None:
        """Fold a finished game into ratings and statistics.

        Returns None if the game was counted before.
        """
        store = self.store
        if await store.is_recorded(game.game_id):
            return None
        tallies = game_tallies(game)  # reads the hand records: fails before any write
        rated = is_rated(game, await store.rate_computer_games(game.guild_id))
        humans = [s.user_id for s in game.seats if s.user_id is not None]
        levels = [s.computer_level for s in game.seats if s.computer_level is not None]
        player_rows = await store.player_skills(game.guild_id, humans)
        computer_rows = await store.computer_skills(game.guild_id, levels)

        def skill_of(seat: SeatPlayer) -> Skill:
            row = (
                player_rows.get(seat.user_id)
                if seat.user_id is not None
                else computer_rows.get(seat.computer_level or "")
            )
            return Skill(row.mu, row.sigma) if row else Skill()

        before = [skill_of(s) for s in game.seats]
        after: list[Skill | None] = [None] * 4
        if rated:
            team0, team1 = rate_teams((before[0], before[2]), (before[1], before[3]), game.winner)
            after = [team0[0], team1[0], team0[1], team1[1]]
        seats = []
        computer_skills: dict[str, tuple[float, float]] = {}
        for index, player in enumerate(game.seats):
            new = after[index]
            seats.append(
                SeatWrite(
                    seat=index,
                    user_id=player.user_id,
                    computer_level=player.computer_level,
                    tally=tallies[index].as_dict(),
                    new_skill=(new.mu, new.sigma, new.display) if new else None,
                    rating_before=before[index].display if new else None,
                    start_skill=(NEWCOMER.mu, NEWCOMER.sigma, NEWCOMER.display),
                )
            )
            if new is not None and player.computer_level is not None:
                # Two seats of the same level: the second update wins, which
                # is as good as either for a level's rough strength.
                computer_skills[player.computer_level] = (new.mu, new.sigma)
        written = await store.write_game(
            GameWrite(
                game_id=game.game_id,
                guild_id=game.guild_id,
                finished_at=game.finished_at,
                rated=rated,
                challenger_seat=game.challenger_seat,
                seats=tuple(seats),
                partner_results=_partner_results(game),
                computer_skills=computer_skills,
            )
        )
        if not written:
            return None
        changes = tuple(
            RatingChange(player.user_id, before[i].display, new.display)
            for i, (player, new) in enumerate(zip(game.seats, after, strict=True))
            if player.user_id is not None and new is not None
        )
        return RecordOutcome(rated=rated, changes=changes)

    async def set_rate_computer_games(self, guild_id: int, rate: bool) -> None:
        await self.store.set_rate_computer_games(guild_id, rate)

    async def rate_computer_games(self, guild_id: int) -> bool:
        return await self.store.rate_computer_games(guild_id)

    # -- queries ----------------------------------------------------------------

    async def leaderboard(self, guild_id: int, sort: SortKey, page: int = 0) -> LeaderboardPage:
        return await self.store.leaderboard(guild_id, sort, page, self.page_size)

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
        )

    async def recent_games(
        self, guild_id: int, user_id: int, limit: int = HISTORY_LENGTH
    ) -> list[GameSummary]:
        return [
            GameSummary(
                game_id=r.game_id,
                finished_at=r.finished_at,
                seat=r.seat,
                winner=r.winner,
                reason=EndReason(r.reason),
                scores=r.scores,
                hands=r.hands,
                partner_id=r.partner_id,
                partner_level=r.partner_level,
                rating_before=r.rating_before,
                rating_after=r.rating_after,
            )
            for r in await self.store.history(guild_id, user_id, limit)
        ]

    async def finished_game(self, game_id: int) -> tuple[FinishedGame, dict[str, Any]] | None:
        """A finished game from the store, with its ``Game.to_json()`` form
        (seed and actions); None if there is no such finished game on a server."""
        stored = await self.store.stored_game(game_id)
        if stored is None or stored.guild_id is None:
            return None
        logged = await self.store.game_actions(stored.table_id, stored.game_no)
        actions = [
            Action(ActionKind(a.kind), int(a.payload["seat"]), int(a.payload.get("value", 0)), a.at)
            for a in logged
            if a.kind in ENGINE_KINDS
        ]
        game_json = {
            "rules": stored.rules,
            "seed": stored.seed,
            "started_at": stored.started_at,
            "fixed_deals": [],
            "actions": [a.to_json() for a in actions],
        }
        challenger = stored.challenger_seat
        if not stored.counted and actions and actions[-1].kind is ActionKind.CHALLENGE:
            challenger = actions[-1].seat
        seats = tuple(SeatPlayer(user_id=u, computer_level=c) for u, c in stored.seats)
        if len(seats) != 4:
            raise BadRecord(f"game {game_id} has {len(seats)} seats")
        game = FinishedGame(
            guild_id=stored.guild_id,
            game_id=stored.game_id,
            finished_at=stored.finished_at,
            rules=RuleSet.model_validate(stored.rules),
            seats=(seats[0], seats[1], seats[2], seats[3]),
            winner=stored.winner,
            reason=EndReason(stored.reason),
            reason_seat=stored.reason_seat,
            final_scores=stored.scores,
            hand_records=tuple(stored.hand_records),
            challenger_seat=challenger,
        )
        return game, game_json

    async def export_history(self, guild_id: int, game_id: int) -> bytes | None:
        """The JSON history of a game played on this server, or None."""
        found = await self.finished_game(game_id)
        if found is None or found[0].guild_id != guild_id:
            return None
        return export_bytes(*found)

    async def catch_up(self) -> int:
        """Count every finished game left uncounted (the bot stopped between a
        game's end and its counting); returns how many were counted."""
        counted = 0
        for game_id in await self.store.uncounted_game_ids():
            found = await self.finished_game(game_id)
            if found is None:  # pragma: no cover - listed as finished a moment ago
                continue
            try:
                if await self.record_game(found[0]) is not None:
                    counted += 1
            except BadRecord:
                log.exception("finished game %d cannot be counted", game_id)
        return counted

    async def recount(self, guild_id: int) -> dict[int, Tally]:
        """Every player's statistics counted afresh from the stored games
        (the aggregates must always equal this)."""
        totals: dict[int, Tally] = {}
        for game_id in await self.store.guild_game_ids(guild_id):
            found = await self.finished_game(game_id)
            if found is None:  # pragma: no cover - the store lost a counted game
                continue
            game = found[0]
            for seat, tally in enumerate(game_tallies(game)):
                user_id = game.seats[seat].user_id
                if user_id is not None:
                    totals.setdefault(user_id, Tally()).add(tally)
        return totals

    # -- the table service's subscriber -----------------------------------------

    async def on_table_event(self, table: Table, event: str) -> None:
        """Subscribe with ``table_service.subscribe(stats.on_table_event)``:
        counts the game when the action that ended it is committed."""
        record = finished_from_table(table)
        if record is not None and event in ENGINE_KINDS:
            await self.record_game(record)


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
    seats = tuple(SeatPlayer(user_id=s.user_id, computer_level=s.bot_level) for s in table.seats)
    return FinishedGame.from_game(
        game,
        guild_id=table.guild_id,
        game_id=table.game_id,
        seats=seats,
        finished_at=game.actions[-1].at if game.actions else table.updated_at,
    )


def _partner_results(game: FinishedGame) -> tuple[tuple[int, int, int, int], ...]:
    results: list[tuple[int, int, int, int]] = []
    for team in (0, 1):
        a, b = game.seats[team].user_id, game.seats[team + 2].user_id
        if a is None or b is None or a == b:
            continue
        win = int(game.winner == team)
        draw = int(game.winner is None)
        results += [(a, b, win, draw), (b, a, win, draw)]
    return tuple(results)


def chart_png(game: FinishedGame, team_names: tuple[str, str]) -> bytes:
    """The end-of-game picture of a recorded game."""
    rules = game.rules
    return score_chart_png(game.hands(), team_names, rules.target, rules.losing_score, game.winner)
