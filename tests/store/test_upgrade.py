"""Databases written by earlier versions of the bot open with today's code and
every table carries on exactly where it was: one of commit a9e2bba (schema
17, engine states written whole, tests/fixtures/make_upgrade_db.py), one
of commit d157f3f (schema 27, actions written by the view action_commits,
engine states stored at each trick's end,
tests/fixtures/make_upgrade_db_d157f3f.py) and one of commit 32ebf0a (schema
34, the last version that stored a game in other forms than its log: house
rules, a claim of the rest waiting, server settings;
tests/fixtures/make_upgrade_db_32ebf0a.py)."""

from __future__ import annotations

import json
import shutil
from collections.abc import AsyncIterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import pytest

from bot.game.house import apply
from bot.game.rules import preset
from bot.game.state import Game
from bot.game.types import Phase
from bot.servers import ServerSettings, ServerSettingsService
from bot.stats.service import StatsService
from bot.tables.model import Table
from bot.tables.service import TableService
from db.clock_store import ClockStore
from db.stats_store import StatsStore
from db.store import Store, find_migrations
from tests.backends import game_results
from tests.stats.games import play_out, store_finished_game

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@dataclass(frozen=True)
class Written:
    """A database written by the code of ``commit``, and what that code read back."""

    commit: str
    #: Table options added since the fixture was written: its tables read them as these.
    new_options: tuple[tuple[str, Any], ...] = ()
    #: Rules added since: its games read them as these, which play as before.
    new_rules: tuple[tuple[str, Any], ...] = ()
    #: Whether its games could hold a claim of the rest.
    had_rest_claims: bool = False

    @property
    def database(self) -> Path:
        return FIXTURES / f"upgrade_{self.commit}.db"

    @cached_property
    def expected(self) -> dict[str, Any]:
        text = (FIXTURES / f"upgrade_{self.commit}.json").read_text("utf-8")
        expected: dict[str, Any] = json.loads(text)
        return expected


#: Tables opened before there were watchers and threads to choose: watchers
#: welcome, and no thread (they keep playing in their channel).
SINCE_BOTH = (("watchers", True), ("thread", False))
#: Rules added since a9e2bba and d157f3f were written (the house rules).
NEW_RULES = (
    ("deck", "standard"),
    ("bidding", "open"),
    ("boston", None),
    ("ten_for_200", False),
    ("spades_lead", "broken"),
    ("min_team_bid", 0),
    ("nil_pass", None),
    ("blind_nil_pass", None),
    ("teams", "partners"),
)


#: Rules added since 32ebf0a: the Nil pass and solo.
PASS_AND_SOLO = (("nil_pass", None), ("blind_nil_pass", None), ("teams", "partners"))
A9E2BBA = Written("a9e2bba", new_options=(("hints", False), *SINCE_BOTH), new_rules=NEW_RULES)
D157F3F = Written("d157f3f", new_options=SINCE_BOTH, new_rules=NEW_RULES)
W32EBF0A = Written("32ebf0a", new_rules=PASS_AND_SOLO, had_rest_claims=True)


def as_json(value: Any) -> Any:
    """``value`` as the fixture's JSON holds it (tuples become lists, keys strings)."""
    return json.loads(json.dumps(value))


def resumed(table: Table, written: Written) -> dict[str, Any]:
    game = table.game
    options = table.options.model_dump(mode="json")
    for name, default in written.new_options:
        assert options.pop(name) == default
    stored = None if game is None else game.to_json()
    if stored is not None:
        for name, default in written.new_rules:
            assert stored["rules"].pop(name) == default
    observed = None if game is None else game.observable()
    if observed is not None:
        if not written.had_rest_claims:
            assert observed.pop("rest") == [-1, 0, 0]
        assert observed.pop("choosing") == []  # no version written had a Nil pass
    assert table.thread_id is None  # no earlier version started threads
    shown: dict[str, Any] = as_json(
        {
            "id": table.id,
            "guild_id": table.guild_id,
            "channel_id": table.channel_id,
            "message_id": table.message_id,
            "host_id": table.host_id,
            "options": options,
            "status": table.status.value,
            "version": table.version,
            "seats": [[s.user_id, s.computer_level] for s in table.seats],
            "spectators": list(table.spectators),
            "game_number": table.game_number,
            "game_id": table.game_id,
            "created_at": table.created_at,
            "updated_at": table.updated_at,
            "game": stored,
            "game_snapshot": observed,
        }
    )
    return shown


Upgraded = tuple[Store, TableService, Written]


@pytest.fixture(params=[A9E2BBA, D157F3F, W32EBF0A], ids=lambda w: w.commit)
def written(request: pytest.FixtureRequest) -> Written:
    param: Written = request.param
    return param


@pytest.fixture
async def upgraded(written: Written, tmp_path: Path) -> AsyncIterator[Upgraded]:
    """The fixture's database opened by this version: its stored engine
    states (written by versions that kept them) are left unread, every game
    is replayed from its log."""
    path = tmp_path / "spades.db"
    shutil.copyfile(written.database, path)
    store = await Store.open(path)
    try:
        yield store, await TableService.open(store), written
    finally:
        await store.close()


def test_the_a9e2bba_fixture_holds_what_its_script_promises() -> None:
    expected = A9E2BBA.expected
    assert expected["schema_version"] == 17
    statuses = {t["id"]: (t["status"], t["game_number"]) for t in expected["open_tables"]}
    names = expected["tables"]
    assert statuses == {
        names["lobby"]: ("lobby", 0),
        names["bidding"]: ("playing", 1),
        names["trick"]: ("playing", 1),
        names["rematch"]: ("playing", 2),
        names["computers"]: ("playing", 1),
    }
    games = {t["id"]: t["game_snapshot"] for t in expected["open_tables"] if t["game"]}
    assert games[names["bidding"]]["phase"] == "bidding"
    assert games[names["trick"]]["phase"] == "playing" and len(games[names["trick"]]["trick"]) == 2
    finished = expected["game_results"]
    assert [len(finished[str(names[n])]) for n in ("finished", "rematch")] == [1, 1]
    assert expected["uncounted_games"] == []
    assert {kind for _, kind, _, _ in expected["deadlines"]} == {"lobby", "turn", "computer"}


def test_the_d157f3f_fixture_holds_what_its_script_promises() -> None:
    expected = D157F3F.expected
    assert expected["schema_version"] == 27
    names = expected["tables"]
    games = {t["id"]: t["game_snapshot"] for t in expected["open_tables"] if t["game"]}
    assert {t["id"] for t in expected["open_tables"]} == {
        names[n]
        for n in ("lobby", "bidding", "trick", "second_hand", "hand_over", "rematch", "computers")
    }
    assert games[names["bidding"]]["phase"] == "bidding"
    trick = games[names["trick"]]
    assert trick["phase"] == "playing" and len(trick["trick"]) == 2
    second = games[names["second_hand"]]
    assert second["hand_number"] == 2 and len(second["trick"]) == 1
    assert games[names["hand_over"]]["phase"] == "hand_over"
    assert [len(expected["game_results"][str(names[n])]) for n in ("finished", "rematch")] == [1, 1]
    assert expected["uncounted_games"] == []
    assert {kind for _, kind, _, _ in expected["deadlines"]} == {"lobby", "turn", "computer"}
    assert expected["languages"]["1021"] == "fr" and expected["coach"]["1031"] is True


def test_the_32ebf0a_fixture_holds_what_its_script_promises() -> None:
    expected = W32EBF0A.expected
    assert expected["schema_version"] == 34
    names = expected["tables"]
    tables = {t["id"]: t for t in expected["open_tables"]}
    assert set(tables) == {
        names[n]
        for n in (
            "lobby",
            "bidding",
            "trick",
            "second_hand",
            "hand_over",
            "rematch",
            "computers",
            "house_rules",
            "claim",
        )
    }
    house = tables[names["house_rules"]]
    assert house["options"]["house"] == "deck=jokers,nil=50,spades_lead=any"
    assert house["game"]["rules"]["deck"] == "jokers"
    assert house["game_snapshot"]["phase"] == "playing"
    assert len(house["game_snapshot"]["trick"]) == 2
    claimer, accepted, _ = tables[names["claim"]]["game_snapshot"]["rest"]
    assert claimer >= 0 and bin(accepted).count("1") == 1  # one answer of two
    assert [len(expected["game_results"][str(names[n])]) for n in ("finished", "rematch")] == [1, 1]
    assert expected["uncounted_games"] == []
    assert expected["server_settings"]["channels"] == [101, 102, 103]


async def test_every_open_table_resumes_as_it_was(upgraded: Upgraded) -> None:
    store, service, written = upgraded
    expected = written.expected
    assert await store.schema_version() == find_migrations()[-1].number
    tables = sorted(await service.unfinished(), key=lambda t: t.id)
    assert [resumed(t, written) for t in tables] == expected["open_tables"]
    names = expected["tables"]
    for name in ("finished", "cancelled"):
        closed = await service.get(names[name])
        assert not closed.is_open and await service.in_channel(closed.channel_id) is None


async def test_deadlines_preferences_mentions_and_stats_are_kept(upgraded: Upgraded) -> None:
    store, service, written = upgraded
    expected = written.expected
    deadlines = [[d.owner, d.kind, d.due_at, dict(d.data)] for d in await store.load_deadlines()]
    assert deadlines == expected["deadlines"]
    prefs = {user: await store.get_user_prefs(int(user)) for user in expected["decks"]}
    assert {user: chosen and chosen.deck for user, chosen in prefs.items()} == expected["decks"]
    for user, language in expected.get("languages", {}).items():
        chosen = await store.get_user_prefs(int(user))
        assert (chosen and chosen.language) == language
    for user, coach in expected.get("coach", {}).items():
        chosen = await store.get_user_prefs(int(user))
        assert (chosen is not None and chosen.coach) is coach
    mentions = {}
    for table in await service.unfinished():
        mention = await store.turn_mention(table.id)
        mentions[str(table.id)] = None if mention is None else [mention.message_id, mention.turn]
    assert mentions == expected["turn_mentions"]
    clocks = await ClockStore(store).load_all()
    assert {
        str(table_id): {"stand_in": state.stand_in, "away_seats": sorted(state.away_seats)}
        for table_id, state in clocks.items()
    } == expected["clock"]
    results = {key: await game_results(store, int(key)) for key in expected["game_results"]}
    assert as_json(results) == expected["game_results"]
    stats = StatsStore(store)
    assert await stats.uncounted_game_ids() == []
    players = {}
    for user in expected["players"]:
        row = await stats.player(77, int(user))
        players[user] = row and {
            "rating": row.rating,
            "rated_games": row.rated_games,
            "tally": row.tally,
        }
    assert players == expected["players"]


async def test_the_resumed_games_go_on(upgraded: Upgraded) -> None:
    """Every resumed game that waits on a person takes that person's next
    move (the lowest legal bid or card, the next hand, or a refusal of the
    claim of the rest they are asked to answer), written after the last
    action the old code logged."""
    store, service, _ = upgraded
    moved = 0
    for table in await service.unfinished():
        game = table.game
        if game is None:
            continue
        seat = game.waited_on()
        user = table.seats[0 if seat is None else seat].user_id
        if user is None:
            continue  # a computer's turn: its deadline moves it
        if seat is None:
            after = await service.next_hand(table.id, user, table.version)
        elif game.rest.waiting:
            after = await service.answer_rest(table.id, user, table.version, accept=False)
        elif game.phase is Phase.BIDDING:
            bid = min(b for b in game.legal_bids(seat) if b >= 0)
            after = await service.bid(table.id, user, bid, table.version)
        else:
            card = (game.legal_play_mask(seat) & -game.legal_play_mask(seat)).bit_length() - 1
            after = await service.play(table.id, user, card, table.version)
            assert (await store.action_log(table.id))[-1].payload["value"] == card
        assert after.version == table.version + 1
        assert after.game is not None and len(after.game.actions) == len(game.actions) + 1
        log = await store.action_log(table.id)
        assert [e.seq for e in log] == list(range(1, after.version + 1))
        moved += 1
    assert moved >= 3


async def test_server_settings_start_empty_and_are_kept(upgraded: Upgraded) -> None:
    """The databases of earlier versions gain the servers' settings (migration
    029): none at first, which is how those versions behaved."""
    store, _, _ = upgraded
    assert "server_settings" in {t.name for t in await store.db.tables()}
    assert await store.server_settings(1001) == {}
    await store.set_server_settings(1001, {"channels": [5]}, 1.0)
    assert await store.server_settings(1001) == {"channels": [5]}


async def test_an_upgraded_database_stores_and_counts_a_solo_game(upgraded: Upgraded) -> None:
    """Migration 040 gives solo results columns of their own: a solo game
    finished after the upgrade is stored, counted on top of the players'
    earlier record, and the earlier games read as before."""
    store, _, written = upgraded
    expected = written.expected
    before = {key: await game_results(store, int(key)) for key in expected["game_results"]}
    users = [int(user) for user, row in expected["players"].items() if row][:4]
    assert len(users) == 4  # four players with a record from before
    game = play_out(Game.new(apply(preset("standard"), "teams=solo"), 11), 11, level="heuristic")
    game_id = await store_finished_game(store, game, users, channel=99_000, guild_id=77)
    stats = StatsService(StatsStore(store))
    assert await stats.catch_up() == 1
    assert game.result is not None
    for seat, user in enumerate(users):
        row = await StatsStore(store).player(77, user)
        earlier = expected["players"][str(user)]
        assert row is not None and row.tally["games"] == earlier["tally"]["games"] + 1
        won = int(seat == game.result.winner)
        assert row.tally["wins"] == earlier["tally"]["wins"] + won
    found = await stats.finished_game(game_id)
    assert found is not None and found[0].final_scores == tuple(game.scores)
    after = {key: await game_results(store, int(key)) for key in expected["game_results"]}
    assert after == before


@pytest.fixture
async def upgraded_32ebf0a(tmp_path: Path) -> AsyncIterator[tuple[Store, TableService]]:
    path = tmp_path / "spades.db"
    shutil.copyfile(W32EBF0A.database, path)
    store = await Store.open(path)
    try:
        yield store, await TableService.open(store)
    finally:
        await store.close()


async def test_a_claim_of_the_rest_written_by_32ebf0a_is_accepted_after_the_upgrade(
    upgraded_32ebf0a: tuple[Store, TableService],
) -> None:
    """The second opponent accepts the claim the old code left waiting: the
    hand ends there, the claimer's side taking every trick left."""
    _, service = upgraded_32ebf0a
    table = await service.get(W32EBF0A.expected["tables"]["claim"])
    game = table.game
    assert game is not None and game.rest.waiting
    claimer, answering = game.rest.claimer, game.rest.waiting_on()
    assert answering is not None
    user = table.seats[answering].user_id
    assert user is not None
    after = await service.answer_rest(table.id, user, table.version, accept=True)
    assert after.game is not None and after.game.phase is Phase.HAND_OVER
    record = after.game.hand_records[-1]
    # Claimed after nine tricks: the four left are the claimer's.
    assert len(record.tricks) == 9 and record.claim == (claimer, 4)
    taken = [sum(1 for trick in record.tricks if trick.winner == s) for s in range(4)]
    assert record.tricks_won == [n + 4 * (s == claimer) for s, n in enumerate(taken)]


async def test_the_server_settings_written_by_32ebf0a_are_read(
    upgraded_32ebf0a: tuple[Store, TableService],
) -> None:
    store, _ = upgraded_32ebf0a
    settings = await ServerSettingsService(store, lambda: 0.0).of(77)
    assert settings == ServerSettings(
        channels=(101, 102, 103),
        host_role=7001,
        results_channel=7002,
        defaults={"target": 250, "house": "spades_lead=any"},
        computer_level="heuristic",
    )
    options = settings.table_options()
    assert options.target == 250 and options.house.text == "spades_lead=any"
