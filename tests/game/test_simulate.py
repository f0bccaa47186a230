"""The simulator command, run in-process: its summary and its hand records."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from bot.game.cards import deck_cards, parse_card
from bot.game.house import KEYS, apply, resolved
from bot.game.rules import PRESETS, RuleSet
from bot.simulate import main

RECORD_FIELDS = {
    "game",
    "hand",
    "preset",
    "dealer",
    "hands",
    "bids",
    "tricks",
    "tricks_won",
    "score_before",
    "bags_before",
    "hand_score",
    "score_after",
    "bags_after",
    "game_over",
    "winner",
    "rules",
}
SUMMARY_KEYS = {"games", "hands", "wins", "draws", "mean_hands_per_game", "seconds"}


def check_record(line: dict[str, object], preset_name: str, rules: RuleSet | None = None) -> None:
    rules = rules or PRESETS[preset_name]
    deck = rules.deck.value
    assert set(line) - {"passes"} == RECORD_FIELDS
    assert line["preset"] == preset_name
    assert line["rules"] == resolved(rules)
    assert list(line["rules"]) == list(KEYS)
    assert isinstance(line["game"], str)
    assert isinstance(line["hand"], int) and line["hand"] >= 1
    assert line["dealer"] in range(4)
    hands = line["hands"]
    assert isinstance(hands, list) and len(hands) == 4
    dealt = [parse_card(c, deck) for hand in hands for c in hand]
    assert all(len(hand) == 13 for hand in hands)
    assert sorted(dealt) == list(deck_cards(deck))
    bids = line["bids"]
    assert isinstance(bids, list)
    assert [b["seat"] for b in bids] == [(line["dealer"] + 1 + k) % 4 for k in range(4)]  # type: ignore[operator]
    assert all(b["bid"] in ("nil", "blind_nil") or 1 <= b["bid"] <= 13 for b in bids)
    tricks = line["tricks"]
    assert isinstance(tricks, list) and len(tricks) == 13
    played = []
    for trick in tricks:
        assert set(trick) == {"leader", "cards", "winner"}
        assert len(trick["cards"]) == 4
        played += [parse_card(c, deck) for c in trick["cards"]]
    assert sorted(played) == list(deck_cards(deck))
    if "passes" in line:
        check_passes(line, rules)
    tricks_won = line["tricks_won"]
    assert isinstance(tricks_won, list) and sum(tricks_won) == 13
    assert tricks_won == [sum(t["winner"] == s for t in tricks) for s in range(4)]
    for team in (0, 1):
        before = line["score_before"][team]  # type: ignore[index]
        assert line["score_after"][team] == before + line["hand_score"][team]  # type: ignore[index]
        bags = line["bags_after"][team]  # type: ignore[index]
        assert bags >= 0 and (bags < rules.bag_limit or not rules.bag_penalty)
    assert isinstance(line["game_over"], bool)
    assert line["winner"] in (0, 1, "draw", None)
    assert (line["winner"] is None) != line["game_over"]


def check_passes(line: dict[str, Any], rules: RuleSet) -> None:
    """A hand's exchanges: each Nil's side, both ways, the rule's number of
    cards from the giver's dealt hand."""
    deck = rules.deck.value
    bids = {b["seat"]: b["bid"] for b in line["bids"]}
    passes = line["passes"]
    assert passes and len(passes) % 2 == 0
    for given in passes:
        assert set(given) == {"seat", "to", "cards"}
        seat, to = given["seat"], given["to"]
        assert to == seat ^ 2 and {"seat": to, "to": seat} in [
            {"seat": p["seat"], "to": p["to"]} for p in passes
        ]
        nil = next(s for s in (seat, to) if bids[s] in ("nil", "blind_nil"))
        assert bids[nil ^ 2] not in ("nil", "blind_nil")
        count = rules.blind_nil_pass if bids[nil] == "blind_nil" else rules.nil_pass
        assert len(given["cards"]) == count
        dealt = {parse_card(c, deck) for c in line["hands"][seat]}
        assert {parse_card(c, deck) for c in given["cards"]} <= dealt


@pytest.mark.parametrize("preset_name", sorted(PRESETS))
def test_simulate_prints_a_summary_and_records_every_hand(
    preset_name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "hands.jsonl"
    argv = ["--games", "5", "--rules", preset_name, "--seed", "3", "--record", str(record)]
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert set(summary) >= SUMMARY_KEYS
    assert summary["games"] == 5
    assert sum(summary["wins"]) + summary["draws"] == 5
    lines = [json.loads(text) for text in record.read_text().splitlines()]
    assert len(lines) == summary["hands"]
    assert summary["mean_hands_per_game"] == pytest.approx(len(lines) / 5, abs=1e-3)
    for line in lines:
        check_record(line, preset_name)
    games: dict[str, list[dict[str, object]]] = {}
    for line in lines:
        games.setdefault(line["game"], []).append(line)
    assert len(games) == 5
    for hands in games.values():
        assert [h["hand"] for h in hands] == list(range(1, len(hands) + 1))
        assert hands[-1]["game_over"] and not any(h["game_over"] for h in hands[:-1])
        for earlier, later in itertools.pairwise(hands):
            assert later["score_before"] == earlier["score_after"]
            assert later["bags_before"] == earlier["bags_after"]
            assert later["dealer"] == (earlier["dealer"] + 1) % 4  # type: ignore[operator]
        assert hands[0]["score_before"] == [0, 0]


def test_the_same_seed_plays_the_same_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    main(["--games", "3", "--seed", "9", "--record", str(first)])
    main(["--games", "3", "--seed", "9", "--record", str(second)])
    capsys.readouterr()
    assert first.read_text() == second.read_text()


def test_simulate_refuses_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (
        ["--games", "0"],
        ["--games", "2", "--rules", "nope"],
        ["--games", "1", "--ns", "x"],
    ):
        with pytest.raises(SystemExit) as stopped:
            main(argv)
        assert stopped.value.code == 2
    assert "usage" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("preset_name", "house"),
    [
        ("standard", "deck=jokers,bidding=whiz"),
        ("low-club", "deck=jjdd,bidding=suicide,min_team_bid=5,boston=200"),
        ("blind-nil", "deck=jokers-deuce,blind_nil=off,bidding=mirror,bags=off,floor=off"),
        ("cardgames", "ten_for_200=on,spades_lead=any,bags=5:50,target=300"),
        ("standard", "nil_pass=3,blind_nil_pass=2"),
        ("blind-nil", "nil_pass=1,blind_nil_pass=3,bidding=suicide,deck=jokers"),
        ("low-club", "nil_pass=2,bidding=whiz,deck=jjdd"),
    ],
)
def test_simulate_plays_under_house_rules(
    preset_name: str, house: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "hands.jsonl"
    argv = ["--games", "3", "--rules", preset_name, "--house", house, "--record", str(record)]
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["house"] == house
    rules = apply(PRESETS[preset_name], house)
    lines = [json.loads(text) for text in record.read_text().splitlines()]
    assert len(lines) == summary["hands"]
    for line in lines:
        check_record(line, preset_name, rules)
    if rules.deck.value != "standard":
        named = {c for line in lines for hand in line["hands"] for c in hand}
        assert {"BJ", "LJ"} <= named


@pytest.mark.parametrize(
    ("house", "error"),
    [
        ("decks=jjdd", "unknown house rule 'decks'"),
        ("bags=5", "bad value bags=5: expected off or L:P"),
        ("bidding=mirror,min_team_bid=3", "min_team_bid must be 0 with mirror bidding"),
        ("nil_pass=4", "bad value nil_pass=4: expected off|1|2|3"),
        ("blind_nil_pass=0", "bad value blind_nil_pass=0: expected off|1|2|3"),
        ("nil_pass=2,bidding=mirror", "there is no Nil pass with mirror bidding"),
        ("bidding=mirror,blind_nil_pass=1", "there is no Nil pass with mirror bidding"),
    ],
)
def test_a_bad_house_rule_stops_the_simulator_with_one_line(
    house: str, error: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--games", "1", "--house", house])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and error in err


def test_the_records_of_a_nil_pass_game_name_the_rules_and_the_exchanges(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "hands.jsonl"
    house = "nil_pass=3,blind_nil_pass=2"
    argv = ["--games", "3", "--ns", "heuristic", "--ew", "heuristic", "--house", house]
    assert main([*argv, "--record", str(record)]) == 0
    capsys.readouterr()
    lines = [json.loads(text) for text in record.read_text().splitlines()]
    rules = apply(PRESETS["standard"], house)
    for line in lines:
        check_record(line, "standard", rules)
        assert (line["rules"]["nil_pass"], line["rules"]["blind_nil_pass"]) == (3, 2)
        nils = [b["seat"] for b in line["bids"] if b["bid"] == "nil"]
        lone = [s for s in nils if s ^ 2 not in nils]
        # A hand with a lone Nil has its exchange; any other hand no "passes".
        assert sorted(p["seat"] for p in line.get("passes", [])) == sorted(
            s for nil in lone for s in (nil, nil ^ 2)
        )
    assert any("passes" in line for line in lines)


def test_a_game_without_nil_passes_records_them_as_null(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "hands.jsonl"
    assert main(["--games", "1", "--record", str(record)]) == 0
    capsys.readouterr()
    for text in record.read_text().splitlines():
        line = json.loads(text)
        assert line["rules"]["nil_pass"] is None and line["rules"]["blind_nil_pass"] is None
        assert "passes" not in line
