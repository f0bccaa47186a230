"""Speed of the exact check a computer opponent answers a claim of the rest
with: every turn to play of seeded hands (played by the heuristic player) is
taken as a claim by the seat on turn, from the first card to the last.

    python -m benchmarks.rest_claim [--hands 20] [--rules standard] [--seed 0] [--quick]

Prints one JSON line: the claims checked, how many held, and the p50, p95
and largest time of a check in milliseconds (target: p95 at most 200 ms, the
largest at most a few seconds; a check runs off the event loop).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from bot.ai.heuristic import HeuristicPlayer
from bot.ai.rest_claim import claim_holds
from bot.game.rules import PRESETS, preset
from bot.game.state import Game
from bot.game.types import Phase
from bot.game.view import view_of

from .coach import _percentile
from .quick import parse_args


def claim_figures(hands: int, rules_name: str, seed: int) -> dict[str, float]:
    rules = preset(rules_name)
    rng = random.Random(seed)
    player = HeuristicPlayer()
    times: list[float] = []
    held = 0
    for _ in range(hands):
        game = Game.new(rules, rng.randrange(2**32))
        while game.phase is not Phase.HAND_OVER:
            if game.phase is Phase.PLAYING:
                started = time.perf_counter()
                held += claim_holds(game, game.to_act)
                times.append(time.perf_counter() - started)
            game.apply(player.decide(view_of(game, game.to_act)))
    return {
        "claims": len(times),
        "held": held,
        "p50_ms": round(1000 * _percentile(times, 0.5), 2),
        "p95_ms": round(1000 * _percentile(times, 0.95), 2),
        "max_ms": round(1000 * max(times, default=0.0), 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.rest_claim", description=__doc__)
    parser.add_argument("--hands", type=int, default=20, help="hands played")
    parser.add_argument("--rules", default="standard", choices=sorted(PRESETS))
    parser.add_argument("--seed", type=int, default=0)
    args = parse_args(parser, argv, hands=1)
    sys.stdout.write(json.dumps(claim_figures(args.hands, args.rules, args.seed)) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
