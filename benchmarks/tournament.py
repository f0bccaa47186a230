"""A whole tournament run by the bot: registration, ready checks, every table
opened in its own thread, every game played to its end, the bracket drawn.

    python -m benchmarks.tournament [--teams 64] [--format double] [--target 250] [--quick]

The real bot (default settings, its REST budget included) runs in SimCord's
simulated Discord over a SQLite file in a temporary folder. ``--teams``
pairs register by clicking (Register, the partner menu, Confirm partner),
the organizer presses Start, and then, for as long as the tournament runs,
a player of each team in a ready check presses Ready, the bot opens the
match's table (a thread, the table, its message), and nobody plays: past
the turn limit (5 minutes) the bot's computer players stand in for each
late player (``[clock] stand_in_default``, the ``heuristic`` level) and
play every game to its end, at once. Time moves on SimCord's fake clock,
a minute at a time; between two steps the ready checks are answered.

Measured:

* matches played (the grand final's second game counts when it is played);
* tables opened per fake second, at the peak (the first round opens them
  all at once: the outbox's budget spaces them);
* the bracket picture's drawing time (wall clock, p95), drawn after every
  step in which a match ended;
* 429s: requests on the bot's token beyond Discord's global 50 per fake
  second (counted at discord.py's HTTP layer, as ``benchmarks.bot`` does),
  plus any 429 answered.

The last line is one JSON object: ``{"teams", "matches",
"tables_opened_peak_per_s", "bracket_png_p95_ms", "rest_429"}``. On two
shared cores, 64 teams: 127 matches (the grand final played twice), 17
tables opened in the busiest fake second, the bracket picture drawn in 109 ms
(p95), no request beyond the global limit (the token routes' peak: 36 per
fake second), in 156 s of wall clock.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import tempfile
import time
from pathlib import Path

import simcord

from bot.clock.settings import ClockSettings
from bot.config import DatabaseSettings, Settings
from bot.render.bracket import bracket_png
from bot.tournament.model import Tournament
from tests.discord.harness import World
from tests.discord.tournament_harness import Cup

from .bot import (
    SETTLE_SETUP_S,
    TimedBot,
    Traffic,
    advance_in_steps,
    counted,
    patient,
    peak_per_second,
    statuses_of,
)
from .click import _ms
from .quick import parse_args

#: Fake seconds the clock moves at a time: ready checks are answered and
#: tables opened between two steps.
STEP_S = 60.0
TURN_LIMIT_MIN = 5


class TournamentBot(TimedBot):
    """The timed bot, whose tournament deadlines wait on SimCord's clock too."""

    def wait_on_fake_clock(self, env: simcord.Env) -> None:
        super().wait_on_fake_clock(env)
        # The turn clock's naps, declared on the fake clock: a ready check's
        # deadline is not waited out on the wall clock either.
        self.tournaments.scheduler.clock = self.app.clock.scheduler.clock


async def run(folder: Path, teams: int, fmt: str, target: int) -> dict[str, object]:
    seeds = itertools.count(1)
    # The defaults (the REST budget included), but for the computer players:
    # past the turn limit one plays for each late player at once.
    settings = Settings(
        database=DatabaseSettings(path=folder / "spades.db"),
        clock=ClockSettings(stand_in_default=True, computer_delay_s=0.0),
    )
    bot = TournamentBot(settings, seed_source=lambda: next(seeds))
    opened_at: dict[int, float] = {}  # match -> the fake instant its table opened
    drawn: list[float] = []
    try:
        async with simcord.run(bot, settle_timeout=SETTLE_SETUP_S) as env:
            bot.wait_on_fake_clock(env)
            traffic = Traffic(lambda: env.now().timestamp())
            with counted(traffic):
                traffic.recording = True
                world = World(env, lambda: bot)
                await world.sync()
                people = [world.user(f"p{n}") for n in range(teams * 2)]
                cup = Cup(world, people[0])
                await cup.open(name="Bench", format=fmt, target=target, turn_limit=TURN_LIMIT_MIN)
                for n in range(0, len(people), 2):
                    await cup.pair(people[n], people[n + 1])
                await cup.click(people[0], "Start")

                def seen(t: Tournament) -> None:
                    for m in t.matches:
                        if m.state == "playing" and m.number not in opened_at:
                            opened_at[m.number] = env.now().timestamp()

                bot.tournaments.subscribe(seen)
                started = time.perf_counter()
                while cup.state().phase == "running":
                    # People see the tournament message once the outbox has drawn it.
                    await advance_in_steps(env, STEP_S, step=STEP_S)
                    for match in cup.matches("ready_check"):
                        for team in (match.a or 0, match.b or 0):
                            if team not in match.ready:
                                await cup.click(cup.team_players(team)[0], "Ready")
                    state = cup.state()
                    if len(drawn) < len([m for m in state.matches if m.state == "done"]):
                        names = {t.id: f"p{t.players[0]}" for t in state.teams}
                        began = time.perf_counter()
                        bracket_png(state, names)
                        drawn.append(time.perf_counter() - began)
                print(
                    f"{len(opened_at)} tables opened; the tournament took"
                    f" {time.perf_counter() - started:.0f} s"
                )
                # What is still waiting for its REST turn goes out.
                with patient(env, SETTLE_SETUP_S):
                    await advance_in_steps(env, 30.0)
                final = cup.state()
                assert final.phase == "over", final.phase
                real_429, invalid, statuses = statuses_of(traffic.requests)
                token = [r.fake for r in traffic.requests if r.token]
                print(
                    f"token requests {len(token)}, peak {peak_per_second(token)} per fake second;"
                    f" answers: {dict(statuses)}; 4xx {invalid}"
                )
                figures: dict[str, object] = {
                    "teams": teams,
                    "matches": len([m for m in final.matches if m.how == "played"]),
                    "tables_opened_peak_per_s": peak_per_second(list(opened_at.values())),
                    "bracket_png_p95_ms": round(_ms(drawn, 0.95), 3),
                    "rest_429": traffic.modelled_429 + real_429,
                }
    finally:
        await bot.store.close()
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.tournament", description=__doc__)
    parser.add_argument("--teams", type=int, default=64, help="teams of two")
    parser.add_argument("--format", choices=("single", "double"), default="double")
    parser.add_argument("--target", type=int, choices=(250, 500), default=250)
    args = parse_args(parser, argv, teams=4)
    if not 2 <= args.teams <= 64:
        parser.error("--teams must be from 2 to 64")
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        figures = asyncio.run(run(Path(tmp), args.teams, args.format, args.target))
    print(f"wall {time.perf_counter() - started:.1f} s")
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
