"""Every screen fits Discord's limits, however large what it lists."""

from __future__ import annotations

import re
from dataclasses import replace

from bot.game.rules import preset
from bot.game.state import Game
from bot.game.types import EndReason, Phase
from bot.game.view import view_of
from bot.render.decks import DECKS
from bot.render.hand import hand_message
from bot.render.leaderboard import board_message, history_embed, stats_embed
from bot.render.refusal_text import several_tables_text
from bot.render.results import end_of_game_text, team_names
from bot.render.spec import (
    CONTENT,
    EMBED_TOTAL,
    EmbedSpec,
    Field,
    MessageSpec,
    clip,
    embed_size,
    fit_embed,
    fit_lines,
)
from bot.render.table import table_message
from bot.stats.counting import RatingChange, RecordOutcome
from bot.stats.leaderboard import LeaderboardPage, LeaderboardRow, SortKey, page_span
from bot.stats.records import FinishedGame
from bot.stats.summary import PartnerRecord, PlayerStats
from bot.stats.tally import Tally
from bot.tables.model import Seat, TableStatus
from db.stats_records import HistoryRow
from tests.stats.games import human

from .fits import embed_problems, problems
from .test_noticed import table_of

BIG_ID = 10**19 - 1  # the longest Discord id
LONG_NAME = "N" * 300


def test_fit_lines_keeps_what_fits_and_counts_the_rest() -> None:
    lines = [f"line {n}" for n in range(10)]
    assert fit_lines(lines, 1000) == "\n".join(lines)
    assert fit_lines(lines, 30) == "line 0\nline 1\n… and 8 more"
    assert len(fit_lines(lines, 30)) <= 30
    assert fit_lines(["x" * 50], 10) == "x" * 9 + "…"
    assert fit_lines(["x" * 50, "y"], 20) == "x" * 6 + "…\n… and 1 more"
    assert fit_lines(lines, 26, sep=", ", more="+{n}") == "line 0, line 1, line 2, +7"
    assert fit_lines([], 10) == ""
    assert clip("abc", 3) == "abc" and clip("abcd", 3) == "ab…"


def test_a_player_at_tables_in_a_hundred_channels_is_told_where() -> None:
    channels = [BIG_ID - n for n in range(100)]
    text = several_tables_text(channels)
    assert len(text) <= CONTENT
    shown = re.findall(r"<#(\d+)>", text)
    assert shown == [str(c) for c in channels[: len(shown)]] and len(shown) > 50
    assert text.endswith(f"… and {100 - len(shown)} more.")
    assert (
        several_tables_text([1, 2]) == "You play at several tables: use this command in <#1>, <#2>."
    )


def test_a_leaderboard_page_of_any_size_fits() -> None:
    rows = tuple(
        LeaderboardRow(
            rank=n + 1,
            user_id=BIG_ID - n,
            rating=2999,
            rated_games=99999,
            games=99999,
            wins=99998,
            losses=99997,
            draws=99996,
        )
        for n in range(500)
    )
    for sort in SortKey:
        page = LeaderboardPage(sort=sort, span=page_span(0, 10**6, 500), total=10**6, rows=rows)
        spec = board_message(page, LONG_NAME)
        assert problems(spec) == []
        assert spec.embed is not None and "more on this page" in spec.embed.description


def test_stats_and_history_fit() -> None:
    tally = Tally(*(10**12 for _ in range(15)))
    partners = tuple(PartnerRecord(BIG_ID - n, 10**9, 10**9, 0) for n in range(3))
    stats = PlayerStats(BIG_ID, tally, 2999, 10**9, 1, 10**9, partners)
    assert embed_problems(stats_embed(stats, LONG_NAME, LONG_NAME)) == []
    games = [
        HistoryRow(
            BIG_ID - n,
            1e12,
            n % 4,
            1,
            "timeout",
            (-99999, 99999),
            999,
            None,
            "heuristic",
            1000,
            2999,
        )
        for n in range(200)
    ]
    embed = history_embed(games, LONG_NAME)
    assert embed_problems(embed) == [] and embed.description.endswith("more")


def test_table_messages_fit_with_crowds_and_long_names() -> None:
    lobby = replace(
        table_of(None, TableStatus.LOBBY),
        spectators=tuple(BIG_ID - n for n in range(1000)),
        seats=(Seat(BIG_ID), Seat(BIG_ID - 1), Seat(BIG_ID - 2), Seat(BIG_ID - 3)),
    )
    spec = table_message(lobby, partner_names=[LONG_NAME] * 4)
    assert problems(spec) == []
    game = Game.new(preset("standard"), 4)
    while game.phase is Phase.BIDDING:
        game.bid(game.to_act, 3)
    playing = replace(lobby, status=TableStatus.PLAYING, game=game)
    assert problems(table_message(playing, claim_open=True, stand_in=True)) == []
    hand = hand_message(
        view_of(game, 0),
        table_id=BIG_ID,
        version=BIG_ID,
        names=[LONG_NAME] * 4,
        deck=DECKS[next(iter(DECKS))],
        note="n" * 3000,
    )
    assert problems(hand) == []


def test_the_end_of_game_post_fits_with_long_names() -> None:
    game = FinishedGame(
        guild_id=1,
        game_id=BIG_ID,
        finished_at=0.0,
        rules=preset("standard"),
        seats=(human(1), human(2), human(3), human(4)),
        winner=1,
        reason=EndReason.TARGET,
        reason_seat=None,
        final_scores=(-99999, 99999),
        hand_records=(),
    )
    names = team_names(game.seats, lambda user_id: "x" * 1000)
    changes = tuple(RatingChange(BIG_ID - n, 2999, 1000) for n in range(4))
    text = end_of_game_text(BIG_ID, game, names, RecordOutcome(rated=True, changes=changes))
    assert len(text) <= CONTENT


def test_fit_embed_is_the_last_guard() -> None:
    huge = EmbedSpec(
        title="t" * 999,
        description="d" * 9999,
        fields=tuple(Field("n" * 999, "v" * 9999) for _ in range(40)),
        footer="f" * 9999,
    )
    fitted = fit_embed(huge)
    assert embed_problems(fitted) == [] and embed_size(fitted) <= EMBED_TOTAL
    assert fitted.fields  # shortened, not emptied
    small = EmbedSpec(title="ok", description="fine", fields=(Field("a", "b"),))
    assert fit_embed(small) == small
    assert problems(MessageSpec(embed=fitted)) == []
