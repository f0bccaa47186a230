"""How many write transactions one accepted card play costs the store, clicked
through the real bot, and that it reads no preference of the players (their
language and deck are kept between clicks): the figures the click benchmark
reports, pinned here so that a change to them is deliberate."""

from __future__ import annotations

from benchmarks.click import PEOPLE, WriteCounter
from bot.game.types import ActionKind, Phase
from bot.tables.model import Table
from tests.discord.harness import World

# One transaction: the action, its engine state and the deadlines it re-arms.
WRITES_PER_CARD_PLAY = 1


def playing(table: Table) -> bool:
    return table.game is not None and table.game.phase is Phase.PLAYING


async def test_one_card_play_makes_the_known_number_of_write_transactions(world: World) -> None:
    host, *others = (world.user(name) for name in PEOPLE)
    await world.seat_four(host, *others)
    await world.click(host, "Start")
    table = await world.play_until(playing)
    assert table.game is not None
    played = len(table.game.actions)
    opened = world.hands_opened
    writes = WriteCounter()
    await writes.attach(world.bot.app.store)

    await world.act(table)

    after = await world.table()
    assert after.game is not None
    assert len(after.game.actions) == played + 1
    assert after.game.actions[-1].kind is ActionKind.PLAY
    assert world.hands_opened == opened, "only the card was clicked"
    assert writes.transactions == WRITES_PER_CARD_PLAY
    assert writes.prefs_reads == 0
