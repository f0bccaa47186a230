"""``python -m bot simulate``: computer players play complete games.

Prints one JSON summary on stdout; ``--record FILE`` writes one JSON line per
finished hand in the hand-record format (the same records players get as a
game's history).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any, TextIO

from bot.ai.base import Player, make_player, player_levels
from bot.ai.intervals import mean_interval, wilson_interval
from bot.game.house import HouseRuleError, apply
from bot.game.rules import PRESETS, RuleSet, preset
from bot.game.state import Game
from bot.game.types import Phase
from bot.game.view import view_of

MAX_HANDS_PER_GAME = 500  # a safety stop for players that never reach a score limit


@dataclass
class Tally:
    games: int = 0
    hands: int = 0
    #: By level: NS (seats 0, 2), EW; in solo the wins of the seats each level holds.
    wins: list[int] = field(default_factory=lambda: [0, 0])
    draws: int = 0
    unfinished: int = 0
    points_diff: list[int] = field(default_factory=list)  # NS minus EW, per hand


def play_game(
    game: Game,
    players: list[Player],
    record: TextIO | None = None,
    game_id: str = "",
) -> None:
    """Play ``game`` to its end; ``players`` are per seat."""
    written = 0
    while not game.over and game.hand_number <= MAX_HANDS_PER_GAME:
        if game.phase is Phase.HAND_OVER:
            game.next_hand(game.dealer)
            continue
        seat = game.to_act
        game.apply(players[seat].decide(view_of(game, seat)))
        while record is not None and written < len(game.hand_records):
            hand = game.hand_records[written]
            record.write(json.dumps(hand.to_json(game_id, game.rules)) + "\n")
            written += 1


def simulate(
    games: int,
    rules_name: str,
    seed: int,
    ns: str = "random",
    ew: str = "random",
    duplicate: bool = False,
    record: TextIO | None = None,
    house: str = "",
) -> dict[str, Any]:
    rules = _rules(rules_name, house)
    master = random.Random(seed)
    tally = Tally()
    started = time.perf_counter()
    for index in range(games):
        game_seed = master.randrange(2**62)
        # With --duplicate, every deal is played twice, the sides swapping
        # seats, so each level holds each set of cards once.
        swaps = (False, True) if duplicate else (False,)
        for swapped in swaps:
            levels = (ew, ns) if swapped else (ns, ew)
            players = [make_player(levels[seat & 1], game_seed + seat) for seat in range(4)]
            game = Game.new(rules, game_seed)
            game_id = f"{seed}-{index}{'-swapped' if swapped else ''}"
            play_game(game, players, record, game_id)
            _count(tally, game, swapped)
    seconds = time.perf_counter() - started
    summary = _summary(tally, rules_name, ns, ew, duplicate, seconds)
    if house:
        summary["house"] = house
    return summary


def _rules(rules_name: str, house: str) -> RuleSet:
    """The preset with the house rules of ``house`` (``KEY=VALUE,...``)."""
    rules = preset(rules_name)
    return apply(rules, house) if house else rules


def _count(tally: Tally, game: Game, swapped: bool) -> None:
    tally.games += 1
    tally.hands += len(game.hand_records)
    for hand in game.hand_records:
        # Per side: the teams, or in solo the seats (NS holds the even ones).
        score = hand.hand_score
        diff = sum(score[0::2]) - sum(score[1::2])
        tally.points_diff.append(-diff if swapped else diff)
    if game.result is None:
        tally.unfinished += 1
    elif game.result.winner is None:
        tally.draws += 1
    else:
        # The winner is a team, or a seat in solo: either way its parity says
        # which level holds it.
        side = (game.result.winner & 1) ^ (1 if swapped else 0)
        tally.wins[side] += 1


def _summary(
    tally: Tally, rules_name: str, ns: str, ew: str, duplicate: bool, seconds: float
) -> dict[str, Any]:
    finished = tally.games - tally.unfinished
    margin, margin_ci = mean_interval(tally.points_diff, 3)
    return {
        "games": tally.games,
        "hands": tally.hands,
        "preset": rules_name,
        "ns": ns,
        "ew": ew,
        "duplicate": duplicate,
        "wins": list(tally.wins),  # [team 0 (seats 0, 2), team 1 (seats 1, 3)]
        "draws": tally.draws,
        "unfinished": tally.unfinished,
        "mean_hands_per_game": round(tally.hands / tally.games, 3) if tally.games else 0.0,
        "ns_win_rate": round((tally.wins[0] + tally.draws / 2) / finished, 4) if finished else 0.0,
        "ns_win_rate_ci95": wilson_interval(tally.wins[0] + tally.draws / 2, finished),
        "ew_win_rate": round((tally.wins[1] + tally.draws / 2) / finished, 4) if finished else 0.0,
        "ew_win_rate_ci95": wilson_interval(tally.wins[1] + tally.draws / 2, finished),
        "ns_margin_per_hand": round(margin, 3),
        "ns_margin_per_hand_ci95": margin_ci,
        "seconds": round(seconds, 3),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot simulate", description="Computer players play complete games."
    )
    parser.add_argument("--games", type=int, required=True, help="number of games (deals)")
    parser.add_argument("--rules", default="standard", choices=sorted(PRESETS))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--record", help="write one JSON line per hand to this file")
    parser.add_argument("--ns", default="random", help="level of seats 0 and 2")
    parser.add_argument("--ew", default="random", help="level of seats 1 and 3")
    parser.add_argument(
        "--duplicate", action="store_true", help="play every deal twice with the sides swapped"
    )
    parser.add_argument(
        "--house", default="", help="house rules on top of the preset: KEY=VALUE[,KEY=VALUE...]"
    )
    args = parser.parse_args(argv)
    try:
        _rules(args.rules, args.house)
    except HouseRuleError as exc:
        parser.exit(2, f"{parser.prog}: error: {exc}\n")
    levels = player_levels()
    for level in (args.ns, args.ew):
        if level not in levels:
            parser.error(f"unknown level {level!r}: choose one of {', '.join(levels)}")
    if args.games < 1:
        parser.error("--games must be at least 1")
    with open(args.record, "w", encoding="utf-8") if args.record else nullcontext() as out:
        summary = simulate(
            args.games, args.rules, args.seed, args.ns, args.ew, args.duplicate, out, args.house
        )
    json.dump(summary, sys.stdout)
    sys.stdout.write("\n")
    return 0
