"""Speed of the coach: a hint (the search from the seat's view, and its
reason) and a hand's review (its cards, its bid and, under a Nil pass, the
cards passed) each answered in at most 1 s at the 95th percentile.

    python -m benchmarks.coach [--positions 200] [--rules standard]
                               [--house KEY=VALUE,...] [--seed 0] [--quick]

``benchmarks/ai.py`` calls :func:`coach_figures` too, so that its closing
line carries ``hint_p95_ms``.

The positions are the decisions of whole hands played by the heuristic
player from seeded deals: every bid and every card with a choice. ``--house``
deals and plays them under house rules on top of the preset (``deck=jokers``,
``nil_pass=3``, ``teams=solo``: the text of ``python -m bot simulate --house``);
the JSON line names them, with how many hints and reviews were timed and how
many of the reviews judged a Nil pass.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass, field

from bot.ai.heuristic import HeuristicPlayer
from bot.coach.hint import can_hint, hint_for
from bot.coach.review import review_hand
from bot.game.house import HouseRuleError, apply, house_text
from bot.game.rules import PRESETS, RuleSet, preset
from bot.game.state import Game
from bot.game.types import Phase
from bot.game.view import view_of
from bot.render.coach_text import hint_text, review_text

from .quick import parse_args

NAMES = ("South", "West", "North", "East")


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


#: The p95 target of a hint and of a review, in milliseconds.
TARGET_MS = 1000


@dataclass
class CoachTimes:
    """Seconds per hint and per review, and the reviews that judged a Nil pass."""

    hints: list[float] = field(default_factory=list)
    reviews: list[float] = field(default_factory=list)
    pass_reviews: int = 0

    def figures(self) -> dict[str, float]:
        """``hint_p95_ms`` and ``review_p95_ms``, in milliseconds."""
        return {
            "hint_p95_ms": round(1000 * _percentile(self.hints, 0.95), 1),
            "review_p95_ms": round(1000 * _percentile(self.reviews, 0.95), 1),
        }


def coach_figures(positions: int, rules: RuleSet, seed: int) -> dict[str, float]:
    """``hint_p95_ms`` over ``positions`` hints and ``review_p95_ms`` over the
    reviews of the hands they came from (each seat's), in milliseconds."""
    times = time_coach(positions, rules, seed)
    print(summary_line(times))
    return times.figures()


def summary_line(times: CoachTimes) -> str:
    figures = times.figures()
    return (
        f"coach: {len(times.hints)} hints p95 {figures['hint_p95_ms']:.0f} ms"
        f" (target {TARGET_MS}); {len(times.reviews)} reviews"
        f" ({times.pass_reviews} of a Nil pass) p95 {figures['review_p95_ms']:.0f} ms"
        f" (target {TARGET_MS})"
    )


def time_coach(positions: int, rules: RuleSet, seed: int) -> CoachTimes:
    """Times ``positions`` hints, and the reviews of the hands they came from."""
    rng = random.Random(seed)
    player = HeuristicPlayer()
    times = CoachTimes()
    hint_times, review_times = times.hints, times.reviews
    while len(hint_times) < positions:
        game = Game.new(rules, rng.randrange(2**32))
        while game.phase is not Phase.HAND_OVER:
            view = view_of(game, game.to_act)
            choice = view.phase is Phase.BIDDING or view.legal_cards.bit_count() > 1
            if len(hint_times) < positions and can_hint(view) and choice:
                started = time.perf_counter()
                hint_text(hint_for(view).reason, NAMES)
                hint_times.append(time.perf_counter() - started)
            game.apply(player.decide(view))
        record = game.hand_records[-1]
        for seat in range(4):
            started = time.perf_counter()
            review = review_hand(rules, record, seat)
            review_text(review, 1)
            review_times.append(time.perf_counter() - started)
            times.pass_reviews += review.exchange is not None
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.coach", description=__doc__)
    parser.add_argument("--positions", type=int, default=200, help="positions hinted")
    parser.add_argument("--rules", default="standard", choices=sorted(PRESETS))
    parser.add_argument(
        "--house", default="", help="house rules on the preset: KEY=VALUE[,KEY=VALUE...]"
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parse_args(parser, argv, positions=3)
    try:
        rules = apply(preset(args.rules), args.house)
    except HouseRuleError as exc:
        print(f"--house: {exc}", file=sys.stderr)
        return 2
    times = time_coach(args.positions, rules, args.seed)
    print(summary_line(times))
    figures: dict[str, float | str] = dict(times.figures())
    figures["house"] = house_text(rules)
    figures.update(
        hints=len(times.hints),
        reviews=len(times.reviews),
        pass_reviews=times.pass_reviews,
        target_ms=TARGET_MS,
    )
    sys.stdout.write(json.dumps(figures) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
