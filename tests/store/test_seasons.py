"""The seasons' storage on both databases: closing a season is one committed
step (also under SIGKILL), a name is taken once per server, games counted
before migration 036 belong to the first season, and a closed season's post
is owed until it is marked made."""

from __future__ import annotations

import itertools
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from db.seasons import SeasonStore
from db.store import Store
from tests.backends import Backend, table_rows
from tests.store.season_killer import GUILD

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = 20


async def test_starting_a_season_closes_the_running_one_once(backend: Backend) -> None:
    store = await backend.open()
    try:
        seasons = SeasonStore(store)
        assert await seasons.seasons(5) == []
        assert await seasons.running_seasons([5, 6]) == {5: 1, 6: 1}
        first = await seasons.start_season(5, "Spring", "spring", 100.0)
        assert first is not None
        assert (first.number, first.name, first.closed_at, first.posted_at) == (
            1,
            None,
            100.0,
            None,
        )
        again = await seasons.start_season(5, "SPRING", "spring", 200.0)
        assert again is None  # the name is taken: nothing written
        second = await seasons.start_season(5, "Summer", "summer", 300.0)
        assert second is not None and second.name == "Spring" and second.closed_at == 300.0
        assert await seasons.running_seasons([5, 6]) == {5: 3, 6: 1}
        listed = await seasons.seasons(5)
        assert [(s.number, s.name, s.started_at, s.closed_at) for s in listed] == [
            (1, None, None, 100.0),
            (2, "Spring", 100.0, 300.0),
            (3, "Summer", 300.0, None),
        ]
        # Another server may use the same name.
        assert await seasons.start_season(6, "Spring", "spring", 400.0) is not None

        owed = await seasons.seasons_owed(lambda guild: guild == 5)
        assert [(s.guild_id, s.number) for s in owed] == [(5, 1), (5, 2)]
        await seasons.season_posted(5, 1, 500.0)
        await seasons.season_posted(5, 1, 600.0)  # the first mark stays
        assert not await seasons.owes_season_post(5, 1)
        assert await seasons.owes_season_post(5, 2)
        assert not await seasons.owes_season_post(5, 3)  # running: nothing owed
        [posted] = [s for s in await seasons.seasons(5) if s.number == 1]
        assert posted.posted_at == 500.0
    finally:
        await store.close()


async def test_games_counted_before_seasons_belong_to_the_first(tmp_path: Path) -> None:
    """A database of the version before 036, with a counted game and its
    players, upgraded: the game is the first season's, and so are the
    players' ratings and records."""
    path = tmp_path / "old.db"
    store = await Store.open(path, upto=34)
    await store.close()
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO tables (id, guild_id, channel_id, host_id, options, status, version,"
            " game_no, created_at, updated_at) VALUES (1, 9, 10, 1, '{}', 'finished', 1, 1, 0, 0)"
        )
        db.execute(
            "INSERT INTO games (id, table_id, game_no, guild_id, channel_id, preset, options,"
            " seed, started_at, ended_at, winner, reason, score0, score1, hands_played, hands)"
            " VALUES (1, 1, 1, 9, 10, 'standard', '{}', 1, 0, 50, 0, 'target', 500, 100, 5, '[]')"
        )
        db.execute(
            "INSERT INTO stats_games (game_id, guild_id, finished_at, rated) VALUES (1, 9, 50, 1)"
        )
        db.execute(
            "INSERT INTO stats_players (guild_id, user_id, mu, sigma, rating, rated_games, games,"
            " wins) VALUES (9, 101, 27.0, 8.0, 1120, 1, 1, 1)"
        )
    store = await Store.open(path)
    try:
        assert await table_rows(store, "SELECT game_id, season_no FROM stats_games") == [(1, 1)]
        assert await table_rows(
            store,
            "SELECT guild_id, season_no, user_id, mu, sigma, rating, rated_games, games, wins"
            " FROM stats_season_players",
        ) == [(9, 1, 101, 27.0, 8.0, 1120, 1, 1, 1)]
        seasons = SeasonStore(store)
        assert await seasons.seasons(9) == []
        assert await seasons.first_game_at(9) == 50.0
        closed = await seasons.start_season(9, "Two", "two", 60.0)
        assert closed is not None and closed.started_at == 50.0
    finally:
        await store.close()


async def test_sigkill_while_closing_seasons_leaves_each_closed_once(backend: Backend) -> None:
    path = backend.target
    paths = [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    run = subprocess.run(
        [sys.executable, "-m", "tests.store.season_killer", path, str(ROUNDS), "5"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report["kills"] == ROUNDS
    acked = set(report["acked"])
    assert len(acked) > 20, "the writers should have closed plenty of seasons"

    store = await backend.open()
    try:
        rows = await SeasonStore(store).seasons(GUILD)
        # Numbered without a gap; every season closed but the last, which
        # runs; each name once, and every acknowledged one there.
        assert [s.number for s in rows] == list(range(1, len(rows) + 1))
        assert [s.closed_at is None for s in rows] == [False] * (len(rows) - 1) + [True]
        names = [s.name for s in rows[1:]]
        assert len(set(names)) == len(names) and acked <= set(names)
        for before, after in itertools.pairwise(rows):
            assert before.closed_at == after.started_at  # closed by the step that started it
    finally:
        await store.close()
