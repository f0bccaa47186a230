"""Strength and speed of the computer players.

    python -m benchmarks.ai [--jobs 2] [--heuristic-pairs 100] [--search-pairs 100]
                            [--v1-pairs 100] [--expert-pairs 100]
                            [--time-budget SECONDS] [--expert-budget SECONDS]
                            [--inference-positions 300]
                            [--rules standard] [--house KEY=VALUE,...]
                            [--seed 0] [--quick]

Plays duplicate matches (every deal twice, the sides swapping seats, so each
level holds each set of cards once): heuristic against random, search
against heuristic, the heuristic against its frozen older rules
(``heuristic-v1``) and expert against search. Every decision is timed; the
report gives p50/p95/p99 per level, bids and card plays apart, the win rates
with 95% Wilson intervals and the stronger side's mean points-per-hand margin
with its 95% interval, and per level how its Nil bids fared, how often its
side was set and its bags per hand. ``--house`` plays every match under
house rules on top of the preset (``deck=jjdd,bidding=whiz``, the text of
``python -m bot simulate --house``). Under ``teams=solo`` a match is one
player of the level against three of the other, the deal played four times
with the level in each seat; a win is a first place (par 25%) and the margin
is the level's points per hand less the others' mean. It also measures
what the clues of the cards chosen add to the search player's deals
(:func:`measure_inference`). The last line is one JSON object with the
headline figures.
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
from bot.ai.heuristic import HeuristicPlayer
from bot.ai.intervals import mean_interval, wilson_interval
from bot.ai.knowledge import knowledge_of
from bot.ai.sampling import DealSampler, play_clues
from bot.ai.search import DEFAULT_TIME_BUDGET, EXPERT_TIME_BUDGET, SearchPlayer, expert_player
from bot.game.house import HouseRuleError, apply, house_text
from bot.game.record import HandRecord
from bot.game.rules import PRESETS, Deck, RuleSet, Teams, preset
from bot.game.state import Game
from bot.game.types import Action, ActionKind, Phase
from bot.game.view import PlayerView, view_of
from bot.simulate import play_game

from .baseline import BASELINE_LEVEL, heuristic_v1
from .coach import coach_figures
from .quick import parse_args


@dataclass
class PairResult:
    """One deal played twice: ``level`` against ``other``."""

    wins: float = 0.0  # games won by ``level`` (a draw counts half)
    games: int = 0
    margins: list[int] = field(default_factory=list)  # per hand: level's points minus other's
    times: dict[str, list[float]] = field(default_factory=dict)  # "level/kind" -> seconds
    outcomes: dict[str, LevelOutcomes] = field(default_factory=dict)  # per level


@dataclass
class LevelOutcomes:
    """How one level's bids fared over the hands it played."""

    hands: int = 0  # team hands: one per hand for each side the level held
    sets: int = 0  # hands its side's contract was set
    bags: int = 0  # overtricks its side took
    nil_bids: int = 0  # its Nil and Blind Nil bids ...
    nils_made: int = 0  # ... and those that took no trick

    def add(self, record: HandRecord, side: int, seats: tuple[int, ...]) -> None:
        """The hand's result for the level's ``side``, whose seats are ``seats``."""
        result = record.results[side]
        self.hands += 1
        self.sets += result.contract > 0 and not result.made
        self.bags += result.new_bags
        for seat, bid in record.bids:
            if seat in seats and bid <= 0:
                self.nil_bids += 1
                self.nils_made += record.tricks_won[seat] == 0

    def merge(self, other: LevelOutcomes) -> None:
        self.hands += other.hands
        self.sets += other.sets
        self.bags += other.bags
        self.nil_bids += other.nil_bids
        self.nils_made += other.nils_made

    def summary(self) -> dict[str, float | int]:
        return {
            "hands": self.hands,
            "nil_bids": self.nil_bids,
            "nil_made_rate": round(self.nils_made / self.nil_bids, 4) if self.nil_bids else 0.0,
            "set_rate": round(self.sets / self.hands, 4) if self.hands else 0.0,
            "bags_per_hand": round(self.bags / self.hands, 3) if self.hands else 0.0,
        }


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
        timed = (ActionKind.PLAY, ActionKind.PASS)  # (a look counts as part of the bid)
        kind = action.kind.value if action.kind in timed else "bid"
        self.times.setdefault(f"{self.level}/{kind}", []).append(elapsed)
        return action


#: Seconds per decision: the search level's and the expert's.
Budgets = tuple[float, float]


def _make(level: str, seed: int, budgets: Budgets) -> Player:
    if level == "search":
        return SearchPlayer(seed, time_budget=budgets[0])
    if level == "expert":
        return expert_player(seed, time_budget=budgets[1])
    if level == BASELINE_LEVEL:
        return heuristic_v1(seed)
    return make_player(level, seed)


def _timed_players(
    levels: list[str], deal_seed: int, budget: Budgets, result: PairResult
) -> list[Player]:
    """One player per seat at ``levels``, each timed into ``result``."""
    return [
        TimedPlayer(levels[s], _make(levels[s], deal_seed + s, budget), result.times)
        for s in range(4)
    ]


def play_pair(task: tuple[str, str, RuleSet, int, Budgets]) -> PairResult:
    level, other, rules, deal_seed, budget = task
    result = PairResult()
    for level_team in (0, 1):
        levels = [level if seat & 1 == level_team else other for seat in range(4)]
        game = Game.new(rules, deal_seed)
        play_game(game, _timed_players(levels, deal_seed, budget, result))
        result.games += 1
        if game.result is not None:
            if game.result.winner is None:
                result.wins += 0.5
            elif game.result.winner == level_team:
                result.wins += 1
        for hand in game.hand_records:
            mine, theirs = hand.hand_score[level_team], hand.hand_score[1 - level_team]
            result.margins.append(mine - theirs)
            for team, name in ((level_team, level), (1 - level_team, other)):
                result.outcomes.setdefault(name, LevelOutcomes()).add(hand, team, (team, team + 2))
    return result


def play_rotation(task: tuple[str, str, RuleSet, int, Budgets]) -> PairResult:
    """Solo: one ``level`` player against three ``other`` players on one
    deal, played four times with the level in each seat."""
    level, other, rules, deal_seed, budget = task
    result = PairResult()
    for mine in range(4):
        levels = [level if seat == mine else other for seat in range(4)]
        game = Game.new(rules, deal_seed)
        play_game(game, _timed_players(levels, deal_seed, budget, result))
        result.games += 1
        if game.result is not None and game.result.winner == mine:
            result.wins += 1
        for hand in game.hand_records:
            score = hand.hand_score
            result.margins.append(round(score[mine] - (sum(score) - score[mine]) / 3))
            for seat in range(4):
                name = levels[seat]
                result.outcomes.setdefault(name, LevelOutcomes()).add(hand, seat, (seat,))
    return result


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    k = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return ordered[k]


def run_match(
    level: str, other: str, pairs: int, rules: RuleSet, seed: int, budget: Budgets, jobs: int
) -> PairResult:
    master = random.Random(f"{seed}-{level}-{other}")
    tasks = [(level, other, rules, master.randrange(2**40), budget) for _ in range(pairs)]
    total = PairResult()
    play = play_rotation if rules.teams is Teams.SOLO else play_pair
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            results = list(pool.imap_unordered(play, tasks))
    else:
        results = [play(t) for t in tasks]
    for r in results:
        total.wins += r.wins
        total.games += r.games
        total.margins.extend(r.margins)
        for key, values in r.times.items():
            total.times.setdefault(key, []).extend(values)
        for name, outcomes in r.outcomes.items():
            total.outcomes.setdefault(name, LevelOutcomes()).merge(outcomes)
    return total


def outcome_figures(match: PairResult) -> dict[str, dict[str, float | int]]:
    """Each level's Nil made rate, set rate and bags per hand in ``match``."""
    figures = {name: o.summary() for name, o in sorted(match.outcomes.items())}
    for name, f in figures.items():
        print(
            f"  {name}: Nil made {f['nil_made_rate']:.3f} of {f['nil_bids']},"
            f" set {f['set_rate']:.3f}, bags {f['bags_per_hand']:.2f} per hand"
            f" over {f['hands']} hands"
        )
    return figures


def report_times(times: dict[str, list[float]]) -> None:
    for key in sorted(times):
        values = times[key]
        print(
            f"  {key:16s} n={len(values):6d}  p50={1000 * percentile(values, 0.5):7.2f} ms"
            f"  p95={1000 * percentile(values, 0.95):7.2f} ms"
            f"  p99={1000 * percentile(values, 0.99):7.2f} ms"
            f"  max={1000 * max(values):7.2f} ms"
        )


def _report_match(level: str, match: PairResult) -> float:
    """Print ``level``'s wins, margin and decision times; its win rate."""
    rate = match.wins / match.games if match.games else 0.0
    margin, margin_ci = mean_interval(match.margins, 2)
    print(
        f"  {level} won {match.wins:g}/{match.games} = {rate:.3f}"
        f" {wilson_interval(match.wins, match.games)};"
        f" margin per hand {margin:.2f} {margin_ci} over {len(match.margins)} hands"
    )
    report_times(match.times)
    return rate


FIRST_TRICK = 4  # positions with a few finished tricks: clues to read
DEALS_PER_POSITION = 20


@dataclass
class Placement:
    positions: int = 0
    with_clues: int = 0  # positions where some clue was read
    hits_plain: int = 0  # unseen cards put in the right hand, without clues
    hits_read: int = 0  # ... and with them
    cards: int = 0  # unseen cards dealt, summed over the deals

    def rates(self) -> tuple[float, float]:
        if not self.cards:
            return 0.0, 0.0
        return self.hits_plain / self.cards, self.hits_read / self.cards


def measure_inference(positions: int, rules: RuleSet, seed: int) -> Placement:
    """How much the clues of the cards chosen sharpen the search player's
    deals: heuristic games are played and, at card plays from the fifth trick
    on, the seat to act draws the same deals (the same random numbers) with
    and without the clues, counting the unseen cards each puts in the hand
    that really holds them; over ``positions`` positions where a clue was
    read (elsewhere both samplers are the same)."""
    rng = random.Random(seed)
    player = HeuristicPlayer()
    result = Placement()
    seen = 0
    while result.with_clues < positions and seen < 50 * positions:
        game = Game.new(rules, rng.randrange(2**32))
        while not game.over and game.phase is not Phase.HAND_OVER:
            seat = game.to_act
            view = view_of(game, seat)
            if view.phase is Phase.PLAYING and len(view.tricks) >= FIRST_TRICK:
                seen += 1
                result.positions += 1
                _compare(game, seat, rng.randrange(2**32), result)
                if result.with_clues >= positions:
                    break
            game.apply(player.decide(view))
    return result


def _compare(game: Game, seat: int, seed: int, result: Placement) -> None:
    view = view_of(game, seat)
    knowledge = knowledge_of(view)
    clues = play_clues(view, knowledge.unseen)
    if not clues:
        return
    result.with_clues += 1
    others = [s for s in range(4) if s != seat]
    for clued, counter in ((False, "hits_plain"), (True, "hits_read")):
        sampler = DealSampler(knowledge, view.bids, clues if clued else [])
        rng = random.Random(seed)
        for _ in range(DEALS_PER_POSITION):
            hands = sampler.sample(rng)
            hits = sum((hands[s] & game.hands[s]).bit_count() for s in others)
            setattr(result, counter, getattr(result, counter) + hits)
    result.cards += DEALS_PER_POSITION * knowledge.unseen.bit_count()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ai", description=__doc__)
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument(
        "--heuristic-pairs", type=int, default=100, help="duplicate deals of heuristic v random"
    )
    parser.add_argument(
        "--search-pairs", type=int, default=100, help="duplicate deals of search v heuristic"
    )
    parser.add_argument(
        "--v1-pairs", type=int, default=100, help="duplicate deals of heuristic v heuristic-v1"
    )
    parser.add_argument(
        "--expert-pairs", type=int, default=100, help="duplicate deals of expert v search"
    )
    parser.add_argument("--time-budget", type=float, default=DEFAULT_TIME_BUDGET)
    parser.add_argument("--expert-budget", type=float, default=EXPERT_TIME_BUDGET)
    parser.add_argument(
        "--inference-positions", type=int, default=300, help="positions with clues to measure"
    )
    parser.add_argument("--rules", default="standard", choices=sorted(PRESETS))
    parser.add_argument(
        "--house", default="", help="house rules on the preset: KEY=VALUE[,KEY=VALUE...]"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--hint-positions", type=int, default=200, help="positions the coach hints")
    args = parse_args(
        parser,
        argv,
        jobs=1,
        heuristic_pairs=2,
        search_pairs=1,
        v1_pairs=2,
        expert_pairs=1,
        time_budget=0.002,
        expert_budget=0.004,
        inference_positions=5,
        hint_positions=3,
    )
    budgets = (args.time_budget, args.expert_budget)
    try:
        rules = apply(preset(args.rules), args.house)
    except HouseRuleError as exc:
        print(f"--house: {exc}", file=sys.stderr)
        return 2
    house = house_text(rules)

    started = time.perf_counter()
    print(
        f"heuristic v random: {args.heuristic_pairs} duplicate deals,"
        f" rules {args.rules}, house {house or '(none)'}"
    )
    easy = run_match(
        "heuristic", "random", args.heuristic_pairs, rules, args.seed, budgets, args.jobs
    )
    easy_rate = easy.wins / easy.games if easy.games else 0.0
    easy_margin, easy_ci = mean_interval(easy.margins, 2)
    easy_ci95 = wilson_interval(easy.wins, easy.games)
    print(
        f"  heuristic won {easy.wins:g}/{easy.games} = {easy_rate:.3f} {easy_ci95};"
        f" margin per hand {easy_margin:.1f} {easy_ci} over {len(easy.margins)} hands"
    )
    report_times(easy.times)
    easy_outcomes = outcome_figures(easy)

    print(
        f"search v heuristic: {args.search_pairs} duplicate deals, budget {args.time_budget} s,"
        f" {args.jobs} jobs"
    )
    hard = run_match("search", "heuristic", args.search_pairs, rules, args.seed, budgets, args.jobs)
    hard_rate = hard.wins / hard.games if hard.games else 0.0
    margin, margin_ci = mean_interval(hard.margins, 2)
    hard_ci95 = wilson_interval(hard.wins, hard.games)
    print(
        f"  search won {hard.wins:g}/{hard.games} = {hard_rate:.3f} {hard_ci95};"
        f" margin per hand {margin:.2f} {margin_ci} over {len(hard.margins)} hands"
    )
    report_times(hard.times)
    hard_outcomes = outcome_figures(hard)
    search_times = [
        t for kind in ("bid", "pass", "play") for t in hard.times.get(f"search/{kind}", [])
    ]

    v1_pairs = args.v1_pairs
    if rules.deck is not Deck.STANDARD or rules.teams is Teams.SOLO:
        v1_pairs = 0  # the frozen older rules play partners with the standard deck only
    print(f"heuristic v heuristic-v1: {v1_pairs} duplicate deals")
    progress = run_match(
        "heuristic", "heuristic-v1", v1_pairs, rules, args.seed, budgets, args.jobs
    )
    progress_rate = _report_match("heuristic", progress)

    print(
        f"expert v search: {args.expert_pairs} duplicate deals, budgets {args.expert_budget} s"
        f" and {args.time_budget} s, {args.jobs} jobs"
    )
    expert = run_match("expert", "search", args.expert_pairs, rules, args.seed, budgets, args.jobs)
    expert_rate = _report_match("expert", expert)
    _, expert_margin_ci = mean_interval(expert.margins, 2)

    placement = measure_inference(args.inference_positions, rules, args.seed)
    plain, read = placement.rates()
    print(
        f"clues of the cards chosen: read in {placement.with_clues} of {placement.positions}"
        f" positions; unseen cards placed right {plain:.4f} without, {read:.4f} with them"
    )
    print(f"  wall time {time.perf_counter() - started:.0f} s")
    summary = {
        "heuristic_vs_random_win_rate": round(easy_rate, 4),
        "search_vs_heuristic_win_rate": round(hard_rate, 4),
        "search_vs_heuristic_games": hard.games,
        "search_margin_per_hand": round(margin, 2),
        "search_margin_ci95": margin_ci,
        "search_p95_ms": round(1000 * percentile(search_times, 0.95), 1),
        "search_p99_ms": round(1000 * percentile(search_times, 0.99), 1),
        "heuristic_vs_v1_win_rate": round(progress_rate, 4),
        "heuristic_vs_v1_games": progress.games,
        "expert_vs_search_win_rate": round(expert_rate, 4),
        "expert_vs_search_games": expert.games,
        "expert_margin_ci95": expert_margin_ci,
        "inference_placement_without": round(plain, 4),
        "inference_placement_with": round(read, 4),
        "house": house,
        "heuristic_vs_random_levels": easy_outcomes,
        "search_vs_heuristic_levels": hard_outcomes,
    }
    summary.update(coach_figures(args.hint_positions, rules, args.seed))
    # Under teams=solo a "win" is a first place, whose par is 25%.
    summary.update({"search_vs_heuristic_ci95": hard_ci95, "teams": rules.teams.value})
    sys.stdout.write(json.dumps(summary) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
