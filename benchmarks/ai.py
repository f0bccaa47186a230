"""Strength and speed of the computer players.

    python -m benchmarks.ai [--jobs 2] [--heuristic-pairs 100] [--search-pairs 100]
                            [--time-budget SECONDS] [--rules standard] [--seed 0] [--quick]

Plays duplicate matches (every deal twice, the sides swapping seats, so each
level holds each set of cards once): heuristic against random, then search
against heuristic. Every decision is timed; the report gives p50/p95/p99 per
level, bids and card plays apart, the win rates with 95% Wilson intervals and
the search side's mean points-per-hand margin with its 95% interval. The last
line is one JSON object with the headline figures.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
import time
from dataclasses import dataclass, field

from bot.ai.base import Player, make_player
from bot.ai.intervals import mean_interval, wilson_interval
from bot.ai.search import DEFAULT_TIME_BUDGET, SearchPlayer
from bot.game.rules import PRESETS, preset
from bot.game.state import Game
from bot.game.types import Action, ActionKind
from bot.game.view import PlayerView
from bot.simulate import play_game

from .coach import coach_figures
from .quick import parse_args


@dataclass
class PairResult:
    """One deal played twice: ``level`` against ``other``."""

    wins: float = 0.0  # games won by ``level`` (a draw counts half)
    games: int = 0
    margins: list[int] = field(default_factory=list)  # per hand: level's points minus other's
    times: dict[str, list[float]] = field(default_factory=dict)  # "level/kind" -> seconds


class TimedPlayer:
    """Wraps a player and records how long each of its decisions takes."""

    def __init__(self, level: str, player: Player, times: dict[str, list[float]]) -> None:
        self.level = level
        self.player = player
        self.times = times

    def decide(self, view: PlayerView) -> Action:
        started = time.perf_counter()
        action = self.player.decide(view)
        elapsed = time.perf_counter() - started
        kind = "play" if action.kind is ActionKind.PLAY else "bid"
        self.times.setdefault(f"{self.level}/{kind}", []).append(elapsed)
        return action


def _make(level: str, seed: int, budget: float) -> Player:
    if level == "search":
        return SearchPlayer(seed, time_budget=budget)
    return make_player(level, seed)


def play_pair(task: tuple[str, str, str, int, float]) -> PairResult:
    level, other, rules_name, deal_seed, budget = task
    rules = preset(rules_name)
    result = PairResult()
    for level_team in (0, 1):
        levels = [level if seat & 1 == level_team else other for seat in range(4)]
        players: list[Player] = [
            TimedPlayer(levels[s], _make(levels[s], deal_seed + s, budget), result.times)
            for s in range(4)
        ]
        game = Game.new(rules, deal_seed)
        play_game(game, players)
        result.games += 1
        if game.result is not None:
            if game.result.winner is None:
                result.wins += 0.5
            elif game.result.winner == level_team:
                result.wins += 1
        for hand in game.hand_records:
            mine, theirs = hand.hand_score[level_team], hand.hand_score[1 - level_team]
            result.margins.append(mine - theirs)
    return result


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    k = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return ordered[k]


def run_match(
    level: str, other: str, pairs: int, rules: str, seed: int, budget: float, jobs: int
) -> PairResult:
    master = random.Random(f"{seed}-{level}-{other}")
    tasks = [(level, other, rules, master.randrange(2**40), budget) for _ in range(pairs)]
    total = PairResult()
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            results = list(pool.imap_unordered(play_pair, tasks))
    else:
        results = [play_pair(t) for t in tasks]
    for r in results:
        total.wins += r.wins
        total.games += r.games
        total.margins.extend(r.margins)
        for key, values in r.times.items():
            total.times.setdefault(key, []).extend(values)
    return total


def report_times(times: dict[str, list[float]]) -> None:
    for key in sorted(times):
        values = times[key]
        print(
            f"  {key:16s} n={len(values):6d}  p50={1000 * percentile(values, 0.5):7.2f} ms"
            f"  p95={1000 * percentile(values, 0.95):7.2f} ms"
            f"  p99={1000 * percentile(values, 0.99):7.2f} ms"
            f"  max={1000 * max(values):7.2f} ms"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ai", description=__doc__)
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument(
        "--heuristic-pairs", type=int, default=100, help="duplicate deals of heuristic v random"
    )
    parser.add_argument(
        "--search-pairs", type=int, default=100, help="duplicate deals of search v heuristic"
    )
    parser.add_argument("--time-budget", type=float, default=DEFAULT_TIME_BUDGET)
    parser.add_argument("--rules", default="standard", choices=sorted(PRESETS))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--hint-positions", type=int, default=200, help="positions the coach hints")
    args = parse_args(
        parser,
        argv,
        jobs=1,
        heuristic_pairs=2,
        search_pairs=1,
        time_budget=0.002,
        hint_positions=3,
    )

    started = time.perf_counter()
    print(f"heuristic v random: {args.heuristic_pairs} duplicate deals, rules {args.rules}")
    easy = run_match(
        "heuristic", "random", args.heuristic_pairs, args.rules, args.seed, 0.0, args.jobs
    )
    easy_rate = easy.wins / easy.games if easy.games else 0.0
    easy_margin, easy_ci = mean_interval(easy.margins, 2)
    easy_ci95 = wilson_interval(easy.wins, easy.games)
    print(
        f"  heuristic won {easy.wins:g}/{easy.games} = {easy_rate:.3f} {easy_ci95};"
        f" margin per hand {easy_margin:.1f} {easy_ci} over {len(easy.margins)} hands"
    )
    report_times(easy.times)

    print(
        f"search v heuristic: {args.search_pairs} duplicate deals, budget {args.time_budget} s,"
        f" {args.jobs} jobs"
    )
    hard = run_match(
        "search", "heuristic", args.search_pairs, args.rules, args.seed, args.time_budget, args.jobs
    )
    hard_rate = hard.wins / hard.games if hard.games else 0.0
    margin, margin_ci = mean_interval(hard.margins, 2)
    hard_ci95 = wilson_interval(hard.wins, hard.games)
    print(
        f"  search won {hard.wins:g}/{hard.games} = {hard_rate:.3f} {hard_ci95};"
        f" margin per hand {margin:.2f} {margin_ci} over {len(hard.margins)} hands"
    )
    report_times(hard.times)
    search_times = hard.times.get("search/bid", []) + hard.times.get("search/play", [])
    print(f"  wall time {time.perf_counter() - started:.0f} s")
    summary = {
        "heuristic_vs_random_win_rate": round(easy_rate, 4),
        "search_vs_heuristic_win_rate": round(hard_rate, 4),
        "search_vs_heuristic_games": hard.games,
        "search_margin_per_hand": round(margin, 2),
        "search_margin_ci95": margin_ci,
        "search_p95_ms": round(1000 * percentile(search_times, 0.95), 1),
        "search_p99_ms": round(1000 * percentile(search_times, 0.99), 1),
    }
    summary.update(coach_figures(args.hint_positions, args.rules, args.seed))
    sys.stdout.write(json.dumps(summary) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
