"""Speed of the leaderboard and stats queries over a large database.

    python -m benchmarks.leaderboard [--games 100000] [--guilds 50] [--queries 2000]
                                     [--seasons 1] [--seed 0] [--db PATH] [--quick]

Fills a SQLite file (a temporary one unless ``--db``) with finished games
spread over servers of very different sizes, as the table service stores
them (the ``games`` and ``game_seats`` rows with the hand records, written
in bulk rather than action by action), then counts them all with the stats
service's start-up catch-up, the same code that counts a game when it ends.
The games' hand records come from a pool of games played by computer
players. Then it times what ``/spades leaderboard`` and ``/spades stats``
ask of the stats service, on random servers, pages and players, and prints
p50 and p99 of each. The last line is one JSON object with those figures.

With ``--seasons N`` the games are played in N seasons of equal length: each
season's games are counted, then every server starts the next season (timed:
``season_start_*``), and ``/spades leaderboard`` opens the running season
(the ``leaderboard_*`` figures), a closed season or all time (the
``season_leaderboard_*`` figures, one of the two at random per query).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from bot.ai.base import make_player
from bot.game.rules import preset
from bot.game.state import Game
from bot.game.types import Action, Phase
from bot.game.view import view_of
from bot.render.leaderboard import page_text, stats_fields
from bot.stats.leaderboard import SortKey
from bot.stats.records import FinishedGame, SeatPlayer
from bot.stats.seasons import ALL_TIME
from bot.stats.service import StatsService
from db.stats_store import StatsStore
from db.store import Store

from .quick import parse_args

PRESETS = ("standard", "low-club", "cardgames", "blind-nil")
FIRST_USER = 10**17  # Discord-sized ids
FIRST_GUILD = 9 * 10**17


@dataclass(frozen=True, slots=True)
class PoolGame:
    """A played game whose result and hand records many stored games reuse."""

    preset: str
    options: str
    seed: int
    winner: int | None
    reason: str
    reason_seat: int | None
    scores: tuple[int, int]
    hands: str  # JSON of the hand records
    hand_count: int


def play_pool(size: int, seed: int) -> list[PoolGame]:
    """Games of random and (one in five) heuristic players under every preset."""
    pool = []
    for index in range(size):
        rules = preset(PRESETS[index % len(PRESETS)])
        level = "heuristic" if index % 5 == 0 else "random"
        game_seed = seed * 100_003 + index
        game = Game.new(rules, game_seed)
        players = [make_player(level, game_seed + s) for s in range(4)]
        at = 0.0
        while not game.over:
            at += 20.0
            if game.phase is Phase.HAND_OVER:
                game.next_hand(game.dealer, at)
                continue
            turn = game.to_act
            action = players[turn].decide(view_of(game, turn))
            game.apply(Action(action.kind, action.seat, action.value, at))
        assert game.result is not None
        records = [h.to_json(str(index), rules) for h in game.hand_records]
        pool.append(
            PoolGame(
                preset=rules.preset,
                options=json.dumps(rules.model_dump(mode="json")),
                seed=game_seed,
                winner=game.result.winner,
                reason=game.result.reason.value,
                reason_seat=game.result.seat,
                scores=(game.scores[0], game.scores[1]),
                hands=json.dumps(records, separators=(",", ":")),
                hand_count=len(records),
            )
        )
    return pool


@dataclass
class Server:
    guild_id: int
    players: list[int]
    weights: list[float]  # how often each player plays: a few play a lot


def make_servers(guilds: int, rng: random.Random) -> list[Server]:
    """Servers from 20 to 2,000 players (sizes spread on a square curve)."""
    servers = []
    next_user = FIRST_USER
    for k in range(guilds):
        size = 20 + round(1980 * (k / max(guilds - 1, 1)) ** 2)
        players = list(range(next_user, next_user + size))
        next_user += size
        rng.shuffle(players)
        weights = [1 / (rank + 1) ** 0.8 for rank in range(size)]
        servers.append(Server(FIRST_GUILD + k, players, weights))
    return servers


async def fill(
    store: Store,
    servers: list[Server],
    pool: list[PoolGame],
    games: int,
    rng: random.Random,
    first_game: int = 1,
) -> int:
    """Write ``games`` finished games as the table service stores them, the
    first numbered ``first_game`` (the servers' tables come with the first)."""
    sizes = [len(s.players) for s in servers]
    chosen = rng.choices(range(len(servers)), weights=sizes, k=games)
    tables_of: dict[int, list[int]] = {}
    table_rows = []
    table_id = 0
    for index, server in enumerate(servers):
        tables_of[index] = []
        for channel in range(4):
            table_id += 1
            tables_of[index].append(table_id)
            table_rows.append(
                (table_id, server.guild_id, server.guild_id + 1000 + channel, server.players[0])
            )
    game_no = await _games_per_table(store, table_id)
    game_rows = []
    seat_rows = []
    hands_total = 0
    ended = 1_700_000_000.0 + first_game * 120
    for game_id, server_index in enumerate(chosen, start=first_game):
        server = servers[server_index]
        table = rng.choice(tables_of[server_index])
        game_no[table] += 1
        played = pool[rng.randrange(len(pool))]
        ended += rng.uniform(5, 120)
        people = _distinct(rng, server.players, server.weights, 4)
        seats: list[tuple[int | None, str | None]] = [(u, None) for u in people]
        if rng.random() < 0.15:  # computer players sat in: an unrated game
            seats[1] = seats[3] = (None, "heuristic")
        hands_total += played.hand_count
        game_rows.append(
            (
                game_id,
                table,
                game_no[table],
                server.guild_id,
                server.guild_id + 1000,
                played.preset,
                played.options,
                played.seed,
                ended - 600,
                ended,
                played.winner,
                played.reason,
                played.reason_seat,
                played.scores[0],
                played.scores[1],
                played.hand_count,
                played.hands,
            )
        )
        for seat, (user, level) in enumerate(seats):
            team = seat & 1
            outcome = (
                "draw" if played.winner is None else "won" if played.winner == team else "lost"
            )
            seat_rows.append(
                (
                    game_id,
                    seat,
                    user,
                    level,
                    team,
                    outcome,
                    played.scores[team],
                    played.scores[1 - team],
                )
            )
    async with store.transaction() as db:
        await db.executemany(
            "INSERT INTO tables (id, guild_id, channel_id, host_id, options, status, version,"
            " game_no, created_at, updated_at) VALUES (?, ?, ?, ?, '{}', 'finished', 1, 0, 0, 0)"
            " ON CONFLICT (id) DO NOTHING",
            table_rows,
        )
        await db.executemany(
            "INSERT INTO games (id, table_id, game_no, guild_id, channel_id, preset, options,"
            " seed, started_at, ended_at, winner, reason, reason_seat, score0, score1,"
            " hands_played, hands) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            game_rows,
        )
        await db.executemany(
            "INSERT INTO game_seats (game_id, seat, user_id, bot_level, team, outcome, points,"
            " opponent_points) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            seat_rows,
        )
    return hands_total


async def _games_per_table(store: Store, tables: int) -> dict[int, int]:
    """How many games each table has stored (its next game's number less one)."""
    counts = dict.fromkeys(range(1, tables + 1), 0)
    for table, count in await store.db.fetchall(
        "SELECT table_id, MAX(game_no) FROM games GROUP BY table_id"
    ):
        counts[table] = count
    return counts


def _distinct(rng: random.Random, people: list[int], weights: list[float], k: int) -> list[int]:
    chosen: list[int] = []
    while len(chosen) < k:
        person = rng.choices(people, weights=weights)[0]
        if person not in chosen:
            chosen.append(person)
    return chosen


async def timed(calls: list[Callable[[], Awaitable[Any]]]) -> list[float]:
    """Milliseconds of each call, run one after another."""
    times = []
    for call in calls:
        started = time.perf_counter()
        await call()
        times.append((time.perf_counter() - started) * 1000)
    return times


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


async def run(args: argparse.Namespace, path: Path) -> dict[str, float]:
    rng = random.Random(args.seed)
    started = time.perf_counter()
    pool = play_pool(args.pool, args.seed)
    print(f"pool: {len(pool)} games played in {time.perf_counter() - started:.1f} s")
    store = await Store.open(path)
    try:
        stats = StatsService(StatsStore(store))
        servers = make_servers(args.guilds, rng)
        season_starts: list[float] = []
        per_season = args.games // args.seasons
        for season in range(args.seasons):
            first = 1 + season * per_season
            games = per_season if season + 1 < args.seasons else args.games - first + 1
            started = time.perf_counter()
            hands = await fill(store, servers, pool, games, rng, first)
            print(
                f"season {season + 1}: stored {games} games ({hands} hands) on {len(servers)} "
                f"servers with {sum(len(s.players) for s in servers)} players in "
                f"{time.perf_counter() - started:.1f} s"
            )
            started = time.perf_counter()
            counted = await stats.catch_up()
            seconds = time.perf_counter() - started
            print(f"counted {counted} games in {seconds:.1f} s ({counted / seconds:.0f} games/s)")
            assert counted == games
            if season + 1 < args.seasons:
                closing = 1_700_000_000.0 + (first + games) * 120  # after its last game
                season_starts += await timed(
                    [
                        partial(stats.start_season, s.guild_id, f"Season {season + 2}", closing)
                        for s in servers
                    ]
                )

        async def leaderboard(
            guild_id: int, sort: SortKey, page: int, season: int | None = None
        ) -> None:
            page_text(await stats.leaderboard(guild_id, sort, page, season))

        async def player(guild_id: int, user_id: int) -> None:
            found = await stats.player_stats(guild_id, user_id)
            if found is not None:  # someone who never played gets a short answer
                stats_fields(found)

        board_calls: list[Callable[[], Awaitable[Any]]] = []
        season_calls: list[Callable[[], Awaitable[Any]]] = []
        stats_calls: list[Callable[[], Awaitable[Any]]] = []
        for _ in range(args.queries):
            server = rng.choice(servers)
            sort = rng.choice(list(SortKey))
            page = 0 if rng.random() < 0.6 else rng.randrange(len(server.players) // 10 + 1)
            board_calls.append(partial(leaderboard, server.guild_id, sort, page))
            if args.seasons > 1:
                # A closed season, or all time (0), at random.
                season = rng.choice([ALL_TIME, rng.randrange(1, args.seasons)])
                season_calls.append(partial(leaderboard, server.guild_id, sort, page, season))
            server = rng.choice(servers)
            # Those who play most look most often at their statistics.
            user = rng.choices(server.players, weights=server.weights)[0]
            stats_calls.append(partial(player, server.guild_id, user))
        await timed(board_calls[:50] + stats_calls[:50])  # warm the page cache
        board = await timed(board_calls)
        seasons_board = await timed(season_calls)
        personal = await timed(stats_calls)

        game = await stats.finished_game(args.games)
        assert game is not None
        ends = await _time_game_ends(stats, store, game[0], args.games, 300)
        print(
            f"counting one game at its end: p50 {percentile(ends, 0.5):.2f} ms, "
            f"p99 {percentile(ends, 0.99):.2f} ms"
        )
        history = await timed(
            [
                partial(stats.recent_games, s.guild_id, s.players[0])
                for s in rng.choices(servers, k=300)
            ]
        )
        print(
            f"history: p50 {percentile(history, 0.5):.2f} ms, "
            f"p99 {percentile(history, 0.99):.2f} ms"
        )
        print(
            f"leaderboard: mean {statistics.fmean(board):.2f} ms over {len(board)} queries; "
            f"stats: mean {statistics.fmean(personal):.2f} ms over {len(personal)} queries"
        )
        figures: dict[str, float] = {
            "leaderboard_p50_ms": round(percentile(board, 0.5), 3),
            "leaderboard_p99_ms": round(percentile(board, 0.99), 3),
            "stats_p50_ms": round(percentile(personal, 0.5), 3),
            "stats_p99_ms": round(percentile(personal, 0.99), 3),
            "seasons": args.seasons,
        }
        if args.seasons > 1:
            figures |= {
                "season_leaderboard_p50_ms": round(percentile(seasons_board, 0.5), 3),
                "season_leaderboard_p99_ms": round(percentile(seasons_board, 0.99), 3),
                "season_start_p50_ms": round(percentile(season_starts, 0.5), 3),
                "season_start_p99_ms": round(percentile(season_starts, 0.99), 3),
            }
        return figures
    finally:
        await store.close()


async def _time_game_ends(
    stats: StatsService, store: Store, template: FinishedGame, last_id: int, count: int
) -> list[float]:
    """Time counting single games as they end (stored first, as the service does)."""
    times = []
    async with store.transaction() as db:
        await db.executemany(
            "INSERT INTO games (id, table_id, game_no, guild_id, channel_id, preset, options,"
            " seed, started_at, ended_at, winner, reason, reason_seat, score0, score1,"
            " hands_played, hands) SELECT ?, table_id, game_no + ?, guild_id, channel_id, preset,"
            " options, seed, started_at, ended_at, winner, reason, reason_seat, score0, score1,"
            " hands_played, hands FROM games WHERE id = ?",
            [(last_id + n, 1_000_000 + n, last_id) for n in range(1, count + 1)],
        )
    for n in range(1, count + 1):
        seats = tuple(
            SeatPlayer(user_id=s.user_id + n, computer_level=None) if s.user_id else s
            for s in template.seats
        )
        game = FinishedGame(
            guild_id=template.guild_id,
            game_id=last_id + n,
            finished_at=template.finished_at + n,
            rules=template.rules,
            seats=(seats[0], seats[1], seats[2], seats[3]),
            winner=template.winner,
            reason=template.reason,
            reason_seat=template.reason_seat,
            final_scores=template.final_scores,
            hand_records=template.hand_records,
        )
        started = time.perf_counter()
        await stats.record_game(game)
        times.append((time.perf_counter() - started) * 1000)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.leaderboard")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--guilds", type=int, default=50)
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--pool", type=int, default=400, help="distinct games played")
    parser.add_argument(
        "--seasons", type=int, default=1, help="seasons the games are played in (1: none started)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--db", type=Path, help="database file (default: a temporary one)")
    args = parse_args(parser, argv, games=300, guilds=3, queries=60, pool=8, seasons=3)
    if not 1 <= args.seasons <= args.games:
        parser.error("--seasons must be from 1 to the number of games")
    if args.db is not None:
        if args.db.exists():
            parser.error(f"{args.db} exists: give a new file")
        figures = asyncio.run(run(args, args.db))
    else:
        with tempfile.TemporaryDirectory() as folder:
            figures = asyncio.run(run(args, Path(folder) / "leaderboard.db"))
    sys.stdout.write(json.dumps(figures) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
