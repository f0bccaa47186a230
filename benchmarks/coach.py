"""Speed of the coach: a hint (the search from the seat's view, and its
reason) answered in at most 1 s at the 95th percentile, and a hand's review
well within the 2 s after the hand's end.

    python -m benchmarks.coach [--positions 200] [--rules standard]
                               [--house KEY=VALUE,...] [--seed 0] [--quick]

``benchmarks/ai.py`` calls :func:`coach_figures` too, so that its closing
line carries ``hint_p95_ms``.

The positions are the decisions of whole hands played by the heuristic
player from seeded deals: every bid and every card with a choice. ``--house``
deals and plays them under house rules on top of the preset (``deck=jokers``,
the text of ``python -m bot simulate --house``); the JSON line names them.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

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


def coach_figures(positions: int, rules: RuleSet, seed: int) -> dict[str, float]:
    """``hint_p95_ms`` over ``positions`` hints and ``review_p95_ms`` over the
    reviews of the hands they came from (each seat's), in milliseconds."""
    rng = random.Random(seed)
    player = HeuristicPlayer()
    hint_times: list[float] = []
    review_times: list[float] = []
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
            review_text(review_hand(rules, record, seat), 1)
            review_times.append(time.perf_counter() - started)
    hint_p95 = 1000 * _percentile(hint_times, 0.95)
    review_p95 = 1000 * _percentile(review_times, 0.95)
    print(
        f"coach: {len(hint_times)} hints p95 {hint_p95:.0f} ms (target 1000);"
        f" {len(review_times)} reviews p95 {review_p95:.0f} ms (target 2000)"
    )
    return {"hint_p95_ms": round(hint_p95, 1), "review_p95_ms": round(review_p95, 1)}


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
    figures: dict[str, float | str] = dict(coach_figures(args.positions, rules, args.seed))
    figures["house"] = house_text(rules)
    sys.stdout.write(json.dumps(figures) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
