"""The numbers in buttons' and menus' ids are read only as the bot writes them
(``str(n)``): ASCII digits, no leading zero, a '-' only in a bid (Blind Nil
is ``-1``). int() and ``\\d`` would also take ``1_0``, ``-0``, ``+3``, `` 3``
and other scripts' digits, ids the bot never sends."""

from __future__ import annotations

import pytest

from bot.render.hand import pass_arg, read_pass_arg
from bot.render.leaderboard import parse_board_id
from bot.render.replay import parse_replay_id
from bot.render.spec import BadComponentId, parse, read_number
from bot.render.tournament_text import parse_id
from bot.stats.leaderboard import SortKey

ARABIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
#: Ways to write 3, 10, 0 or 12 that the bot never writes.
NEVER_WRITTEN = ["1_0", "0_3", "03", "00", "+3", " 3", "3 ", "٣", "12".translate(ARABIC), "³", ""]


@pytest.mark.parametrize("number", [0, 3, 10, 13, 2**62])
def test_a_number_as_the_bot_writes_it_is_read(number: int) -> None:
    assert read_number(str(number)) == number
    assert read_number(str(number), negative=True) == number


@pytest.mark.parametrize("text", [*NEVER_WRITTEN, "-0", "-03", "-", "-1_0"])
def test_a_number_written_otherwise_is_not_read(text: str) -> None:
    assert read_number(text, negative=True) is None


def test_a_minus_only_where_the_bot_writes_one() -> None:
    assert read_number("-1", negative=True) == -1
    assert read_number("-1") is None


@pytest.mark.parametrize("text", ["03", "00", "٣", "12".translate(ARABIC)])
def test_ids_with_a_number_written_otherwise_are_refused(text: str) -> None:
    assert parse("bid:1:5:3").table == 1
    with pytest.raises(BadComponentId):
        parse(f"bid:{text}:5:3")
    with pytest.raises(BadComponentId):
        parse(f"bid:1:{text}:3")
    assert parse_replay_id("next:1:5") is not None
    assert parse_replay_id(f"next:{text}:5") is None
    assert parse_replay_id(f"next:1:{text}") is None
    assert parse_board_id("wins:2:next:1") == (SortKey.WINS, 2, 1)
    assert parse_board_id(f"wins:{text}:next") is None
    assert parse_board_id(f"wins:2:next:{text}") is None
    assert parse_id("ready:7:2") is not None
    assert parse_id(f"ready:{text}") is None
    assert parse_id(f"ready:7:{text}") is None


def test_a_pass_selection_is_read_as_the_bot_writes_it() -> None:
    assert read_pass_arg(pass_arg(0xA0, 2)) == (0xA0, 2)
    assert read_pass_arg(pass_arg(0, 1)) == (0, 1)
    for forged in ("0a0-2", "a0-02", "a0-2_0", "A0-2", "a0-", "-2"):
        with pytest.raises(ValueError):
            read_pass_arg(forged)
