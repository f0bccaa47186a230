"""Rules engine speed: complete random hands and play-only random play-outs per second.

    python -m benchmarks.engine [--seconds 3] [--repeats 15] [--seed 0] [--quick]

1. Hands: through the engine's public API, ``Game.new`` deals a hand, four
   random legal bids (``legal_bids``), then 52 random legal cards
   (``legal_play_mask``, each checked again by ``Game.play``) and the scoring.
2. Play-outs: from a dealt and bid position (a pool of 16 deals), the 52 cards
   played at random among the legal ones by ``bot.game.playout``, the fast
   bitmask play-out the computer players use for rollouts.

The engine is measured as installed: compiled by mypyc (what ``pip install``
builds where a C compiler is at hand) or, with ``SPADES_PURE_PYTHON=1`` or
without a build, as plain Python; the output says which.

When OpenSpiel imports (``pyspiel``, the optional ``bench`` extra), its C++
``spades`` game is measured the same way through its Python binding: a new
initial state, 52 chance actions for the deal, 4 bids and 52 plays; and
play-outs from clones of bid states. The engine's and OpenSpiel's slices are
interleaved, so a busy machine slows both alike; each figure is the median of
``--repeats`` slices sharing ``--seconds``.

The last line is one JSON object:
``{"hands_per_s": ..., "playouts_per_s": ..., "openspiel_hands_per_s": ... or null,
"openspiel_playouts_per_s": ... or null, "engine_build": "compiled" or "python"}``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from bot.game.native import engine_build
from bot.game.playout import Position, random_play_out
from bot.game.rules import preset
from bot.game.state import Game
from bot.game.types import Phase

from .quick import parse_args

POOL = 16  # bid positions the play-outs cycle through
BATCH = 50  # units of work between two looks at the clock

Work = Callable[[int], None]  # does ``n`` units of work


def engine_hands(rules_name: str, seed: int) -> Work:
    rules = preset(rules_name)
    rng = random.Random(seed)
    rnd = rng.random
    counter = [seed]

    def run(n: int) -> None:
        for _ in range(n):
            counter[0] += 1
            game = Game.new(rules, counter[0])
            for _bid in range(4):
                seat = game.to_act
                bids = game.legal_bids(seat)
                game.bid(seat, bids[int(rnd() * len(bids))], 0.0)
            for _card in range(52):
                seat = game.to_act
                cards = game.legal_cards(seat)
                game.play(seat, cards[int(rnd() * len(cards))], 0.0)
            if game.phase is Phase.BIDDING or game.phase is Phase.PLAYING:
                raise AssertionError("the hand did not end after 52 cards")

    return run


def bid_positions(rules_name: str, seed: int) -> list[Position]:
    rules = preset(rules_name)
    rng = random.Random(seed)
    positions = []
    for k in range(POOL):
        game = Game.new(rules, seed + k)
        for _bid in range(4):
            game.bid(game.to_act, 1 + int(rng.random() * 13))
        positions.append(Position.from_game(game))
    return positions


def engine_playouts(rules_name: str, seed: int) -> Work:
    positions = bid_positions(rules_name, seed)
    rng = random.Random(seed)
    counter = [0]

    def run(n: int) -> None:
        for _ in range(n):
            counter[0] += 1
            p = positions[counter[0] % POOL]
            won = random_play_out(
                p.hands, p.trick, p.leader, p.spades_broken, p.tricks_won, rng, p.first_lead
            )
            if sum(won) != 13:
                raise AssertionError("a play-out did not take 13 tricks")

    return run


def openspiel_game() -> Any | None:
    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    # One hand of OpenSpiel's spades; no mercy rule, the same 500 target as ours
    # (both only change the returns, never the play).
    return pyspiel.load_game("spades", {"use_mercy_rule": False, "win_threshold": 500})


def openspiel_hands(game: Any, seed: int) -> Work:
    rnd = random.Random(seed).random

    def run(n: int) -> None:
        for _ in range(n):
            state = game.new_initial_state()
            for _step in range(52 + 4 + 52):  # the deal, the bids, the cards
                actions = state.legal_actions()
                state.apply_action(actions[int(rnd() * len(actions))])
            if not state.is_terminal():
                raise AssertionError("OpenSpiel's hand did not end after 52 cards")

    return run


def openspiel_playouts(game: Any, seed: int) -> Work:
    rnd = random.Random(seed).random
    positions = []
    for _k in range(POOL):
        state = game.new_initial_state()
        for _step in range(52 + 4):
            actions = state.legal_actions()
            state.apply_action(actions[int(rnd() * len(actions))])
        positions.append(state)
    counter = [0]

    def run(n: int) -> None:
        for _ in range(n):
            counter[0] += 1
            state = positions[counter[0] % POOL].clone()
            for _card in range(52):
                actions = state.legal_actions()
                state.apply_action(actions[int(rnd() * len(actions))])
            if not state.is_terminal():
                raise AssertionError("OpenSpiel's play-out did not end after 52 cards")

    return run


def rate(work: Work, seconds: float) -> float:
    """Units of work per second over a slice of about ``seconds``."""
    done = 0
    started = time.perf_counter()
    deadline = started + seconds
    while True:
        work(BATCH)
        done += BATCH
        now = time.perf_counter()
        if now >= deadline:
            return done / (now - started)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.engine", description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--repeats", type=int, default=15, help="slices per measurement")
    parser.add_argument("--rules", default="standard", help="preset of the engine's hands")
    parser.add_argument("--seed", type=int, default=0)
    args = parse_args(parser, argv, seconds=0.2, repeats=2)
    if args.seconds <= 0 or args.repeats < 1:
        parser.error("--seconds must be positive and --repeats at least 1")

    measures: dict[str, Work] = {
        "hands_per_s": engine_hands(args.rules, args.seed),
        "playouts_per_s": engine_playouts(args.rules, args.seed),
    }
    spiel = openspiel_game()
    if spiel is not None:
        measures["openspiel_hands_per_s"] = openspiel_hands(spiel, args.seed)
        measures["openspiel_playouts_per_s"] = openspiel_playouts(spiel, args.seed)
    for work in measures.values():  # warm up: tables, caches, first allocations
        work(BATCH)

    slice_s = args.seconds / args.repeats
    rates: dict[str, list[float]] = {name: [] for name in measures}
    for _repeat in range(args.repeats):
        for name, work in measures.items():
            rates[name].append(rate(work, slice_s))

    figures: dict[str, float | str | None] = {
        "hands_per_s": None,
        "playouts_per_s": None,
        "openspiel_hands_per_s": None,
        "openspiel_playouts_per_s": None,
    }
    medians: dict[str, float] = {}
    for name, values in rates.items():
        medians[name] = figures[name] = round(statistics.median(values), 1)
        spread = f"{min(values):,.0f} to {max(values):,.0f}"
        print(f"{name}: median {medians[name]:,.1f} over {len(values)} slices ({spread})")
    for ours, theirs in (
        ("hands_per_s", "openspiel_hands_per_s"),
        ("playouts_per_s", "openspiel_playouts_per_s"),
    ):
        if theirs in medians:
            print(f"{ours}: {medians[ours] / medians[theirs]:.2f}x OpenSpiel")
    figures["engine_build"] = engine_build()
    print(f"engine: {figures['engine_build']}")
    if spiel is None:
        print("OpenSpiel is not installed (pip install '.[bench]'): no comparison")
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
