"""Speed of the replay viewer: a frame ready in under 500 ms at the 95th
percentile, and the coach's review of a whole game (computed once per game).

    python -m benchmarks.replay [--games 40] [--frames 400] [--seed 0] [--quick]

Plays a pool of games (every preset, computer players), writes them to a
SQLite file as the table service stores finished games, reviews each game
once (the time of :func:`bot.replay.review.review_game` per game) and
stores the review, then times what a viewer's clicks ask for: the first
frame of a game not read yet (the game and its review from the store, its
frames built) and steps to random frames of games already open, each the
frame's scene and its picture drawn in a worker thread, as the cog does.
The last line is one JSON object with those figures and the pictures' size.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path

from bot.render.decks import DeckName
from bot.render.replay import coach_lines, frame_scene
from bot.render.replay_picture import render_frame
from bot.replay.review import review_game, review_json
from bot.replay.service import ReplayService
from bot.servers import ServerSettingsService
from bot.stats.service import StatsService
from db.stats_store import StatsStore
from db.store import Store

from .leaderboard import fill, make_servers, percentile, play_pool
from .quick import parse_args

NAMES = ("alice", "bob", "carol", "dave")


def _no_spawn(coro: object, name: str) -> None:
    raise AssertionError(f"every review is stored before the clicks: {name}")


async def _frame(
    service: ReplayService, guild: int, game: int, index: int | None, lang: str
) -> int:
    """One click's work: the replay, the coach's marks, the scene and the PNG."""
    replay = await service.replay(guild, game)
    review = await service.review(replay)
    assert review is not None, "every review is stored before the clicks"
    at = index if index is not None else 0
    notes = coach_lines(replay.frames[at], review, NAMES, lang)
    scene = frame_scene(replay, at, NAMES, notes[0] if notes else "", lang)
    png = await asyncio.to_thread(render_frame, scene, DeckName.CLASSIC, lang)
    return len(png)


async def run(args: argparse.Namespace, path: Path) -> dict[str, float]:
    rng = random.Random(args.seed)
    pool = play_pool(args.games, args.seed)
    store = await Store.open(path)
    try:
        servers = make_servers(1, rng)
        await fill(store, servers, pool, args.games, rng)
        guild = servers[0].guild_id
        stats = StatsService(StatsStore(store))
        service = ReplayService(
            store, stats, ServerSettingsService(store, time.time), time.time, _no_spawn
        )
        review_ms = []
        hands = 0
        for game in range(1, args.games + 1):
            replay = await service.replay(guild, game)
            started = time.perf_counter()
            review = review_game(replay.rules, replay.records)
            review_ms.append((time.perf_counter() - started) * 1000)
            hands += len(replay.records)
            await store.set_game_review(game, review_json(review), time.time())
        cold_ms, step_ms, sizes = [], [], []
        for game in range(1, args.games + 1):
            fresh = ReplayService(
                store, stats, ServerSettingsService(store, time.time), time.time, _no_spawn
            )
            started = time.perf_counter()
            sizes.append(await _frame(fresh, guild, game, None, "en"))
            cold_ms.append((time.perf_counter() - started) * 1000)
        for _ in range(args.frames):
            game = rng.randrange(1, args.games + 1)
            replay = await service.replay(guild, game)
            index = rng.randrange(len(replay.frames))
            lang = rng.choice(("en", "de", "fr"))
            started = time.perf_counter()
            sizes.append(await _frame(service, guild, game, index, lang))
            step_ms.append((time.perf_counter() - started) * 1000)
    finally:
        await store.close()
    every = cold_ms + step_ms
    return {
        "games": args.games,
        "frames": len(every),
        "frame_p50_ms": round(percentile(every, 0.50), 1),
        "frame_p95_ms": round(percentile(every, 0.95), 1),
        "first_frame_p95_ms": round(percentile(cold_ms, 0.95), 1),
        "step_p95_ms": round(percentile(step_ms, 0.95), 1),
        "png_mean_kb": round(sum(sizes) / len(sizes) / 1024, 1),
        "png_max_kb": round(max(sizes) / 1024, 1),
        "review_per_game_mean_ms": round(sum(review_ms) / len(review_ms), 1),
        "review_per_game_p95_ms": round(percentile(review_ms, 0.95), 1),
        "review_per_hand_mean_ms": round(sum(review_ms) / max(hands, 1), 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.replay")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--frames", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    args = parse_args(parser, argv, games=2, frames=20)
    with tempfile.TemporaryDirectory() as folder:
        figures = asyncio.run(run(args, Path(folder) / "replay.db"))
    for name, value in figures.items():
        print(f"{name:>26}: {value}", file=sys.stderr)
    sys.stdout.write(json.dumps(figures) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
