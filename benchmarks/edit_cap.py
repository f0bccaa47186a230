"""One person and three computer players under Discord's cap on edits of old
messages: how far the table message lags, how many edits are refused, and
how often the person must press My hand.

    python -m benchmarks.edit_cap [--hands 2] [--seed 1] [--old-message-edits N] [--quick]

The real bot (default settings, computer players without delay) runs in
SimCord with the cap modelled (tests/discord/edit_cap.py: 3 edits per 6 s per
channel of a message older than an hour, answered with a 429 and code 30046,
then with a 400). The table message is posted two hours before the game.
The person plays by clicking their hand, pressing My hand only when the hand
they have shows nothing to press; after every move the fake clock moves on
in half seconds until the table message shows the table's latest version
(at most ``LIMIT_S``), and at a hand's end they press Next hand on it.
``--old-message-edits 0`` turns the bot's pacing of old messages' edits
off, so that the cap refuses some of them.

One JSON line per answer of the cap: ``{"cap_status", "moves", "lag_p99_s",
"lag_max_s", "not_shown", "refused", "waited_out", "my_hand_presses",
"hands_dealt", "stuck"}``; ``not_shown`` counts moves the table message did
not show within ``LIMIT_S`` (their lag counts as ``LIMIT_S``: at least that),
``refused`` the edits the cap refused (``waited_out``: of them, those waited
out and sent again, as discord.py does with a 429), ``stuck`` says whether the game stopped at a
hand's end the table message never showed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
from pathlib import Path
from typing import Any

import simcord

from bot.config import DiscordSettings
from bot.discord_app import SpadesBot
from tests.discord.conftest import fast_settings, seeds
from tests.discord.edit_cap import EditCap, play_hands, solo_table
from tests.discord.harness import World

from .quick import parse_args

#: Fake seconds a move waits for the table message to show it, at most.
LIMIT_S = 30.0
#: SimCord waits this long for the bot's work; longer sleeps wait for the clock.
SETTLE_S = 0.5


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] if ordered else 0.0


async def under_cap(
    folder: Path, status: int, hands: int, seed: int, discord: DiscordSettings
) -> dict[str, Any]:
    settings = fast_settings(folder / "spades.db").model_copy(update={"discord": discord})
    source = seeds(seed)

    def make_bot() -> SpadesBot:
        return SpadesBot(settings, seed_source=source)

    async with simcord.run(make_bot(), settle_timeout=SETTLE_S) as env:
        world = World(env, make_bot)
        await world.sync()
        cap = EditCap(env, status=status)
        with cap.applied():
            table = await solo_table(world)
            play = await play_hands(world, table.id, hands, LIMIT_S)
        await world.bot.store.close()
    lags = [LIMIT_S if lag is None else lag for lag in play.lags]
    return {
        "cap_status": status,
        "moves": len(play.lags),
        "lag_p99_s": p99(lags),
        "lag_max_s": max(lags, default=0.0),
        "not_shown": play.lags.count(None),
        "refused": cap.refused,
        "waited_out": cap.waited_out,
        "my_hand_presses": play.extra_hand_presses,
        "hands_dealt": play.hands_dealt,
        "stuck": play.stuck,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.edit_cap", description=__doc__)
    parser.add_argument(
        "--hands", type=int, default=2, help="hands to play (fewer if the game ends)"
    )
    parser.add_argument("--seed", type=int, default=1, help="the deals")
    parser.add_argument(
        "--old-message-edits",
        type=int,
        default=None,
        help="[discord] old_message_edits (default: the setting's default)",
    )
    args = parse_args(parser, argv, hands=1)
    # The budgets a real bot runs with, but for the pacing asked for.
    paced = {} if args.old_message_edits is None else {"old_message_edits": args.old_message_edits}
    discord = DiscordSettings(**paced)
    for status in (429, 400):
        with tempfile.TemporaryDirectory() as tmp:
            figures = asyncio.run(under_cap(Path(tmp), status, args.hands, args.seed, discord))
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
