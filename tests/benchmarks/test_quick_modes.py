"""Every benchmark still runs: its quick mode exits 0 and ends with its JSON line.

The figures themselves are not judged here (targets live in the benchmarks'
output, never in timed tests); the keys are a contract other tools read.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

CLOSING_KEYS = {
    "engine": [
        "hands_per_s",
        "playouts_per_s",
        "openspiel_hands_per_s",
        "openspiel_playouts_per_s",
        "engine_build",
    ],
    "ai": [
        "heuristic_vs_random_win_rate",
        "search_vs_heuristic_win_rate",
        "search_vs_heuristic_games",
        "search_margin_per_hand",
        "search_margin_ci95",
        "search_p95_ms",
        "search_p99_ms",
        "heuristic_vs_v1_win_rate",
        "heuristic_vs_v1_games",
        "expert_vs_search_win_rate",
        "expert_vs_search_games",
        "expert_margin_ci95",
        "inference_placement_without",
        "inference_placement_with",
        "house",
        "heuristic_vs_random_levels",
        "search_vs_heuristic_levels",
        "hint_p95_ms",
        "review_p95_ms",
        "search_vs_heuristic_ci95",
        "teams",
    ],
    "coach": [
        "hint_p95_ms",
        "review_p95_ms",
        "house",
        "hints",
        "reviews",
        "pass_reviews",
        "target_ms",
    ],
    "rest_claim": ["claims", "held", "p50_ms", "p95_ms", "max_ms"],
    "clock": ["load_10000_s", "fire_delay_p50_ms", "fire_delay_p99_ms"],
    "leaderboard": [
        "leaderboard_p50_ms",
        "leaderboard_p99_ms",
        "stats_p50_ms",
        "stats_p99_ms",
        "seasons",
        "season_leaderboard_p50_ms",
        "season_leaderboard_p99_ms",
        "season_start_p50_ms",
        "season_start_p99_ms",
    ],
    "store": [
        "actions_per_s_one_table",
        "actions_per_s_100_tables",
        "p50_ms",
        "p99_ms",
        "resume_10000_s",
        "tables_p50_ms",
        "tables_p99_ms",
        "backend",
        "tables",
        "first_touch_actions",
        "first_touch_p50_ms",
        "first_touch_p99_ms",
    ],
    "click": [
        "clicks",
        "answer_p50_ms",
        "answer_p99_ms",
        "result_p50_ms",
        "result_p99_ms",
        "writes_per_card_play",
        "engine_build",
        "reads_per_card_play",
        "prefs_reads_per_card_play",
    ],
    "shards": [
        "backend",
        "tables_per_process",
        "one_process_actions_per_s",
        "two_processes_actions_per_s",
        "speedup",
        "p99_ms_two_processes",
        "one_process_client_cpu_ms",
        "one_process_server_cpu_ms",
        "two_processes_client_cpu_ms",
        "two_processes_server_cpu_ms",
        "cpu_bound_speedup",
    ],
    "replay": [
        "games",
        "frames",
        "frame_p50_ms",
        "frame_p95_ms",
        "first_frame_p95_ms",
        "step_p95_ms",
        "png_mean_kb",
        "png_max_kb",
        "review_per_game_mean_ms",
        "review_per_game_p95_ms",
        "review_per_hand_mean_ms",
    ],
    "tournament": [
        "teams",
        "matches",
        "tables_opened_peak_per_s",
        "bracket_png_p95_ms",
        "rest_429",
    ],
    "bot": [
        "tables",
        "active",
        "actions",
        "response_p50_ms",
        "response_p99_ms",
        "shown_p99_ms",
        "rest_per_action",
        "peak_rest_per_s",
        "rate_limited",
        "invalid_requests",
        "cpu_ms_per_action",
        "rss_mb",
        "resume_s",
        "invalid_per_10min",
        "processes",
        "budget_per_s",
        "global_per_s_peak",
        "interaction_per_s_peak",
        "global_per_active_table_s",
        "table_edits_via_tokens",
    ],
    "edit_cap": [
        "cap_status",
        "moves",
        "lag_p99_s",
        "lag_max_s",
        "not_shown",
        "refused",
        "waited_out",
        "my_hand_presses",
        "hands_dealt",
        "stuck",
    ],
}


def test_every_benchmark_is_listed() -> None:
    helpers = {"__init__", "quick", "processes"}  # parts of the benchmarks, not ones
    found = {p.stem for p in (ROOT / "benchmarks").glob("*.py")} - helpers
    assert found == set(CLOSING_KEYS)


def quick_run(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m benchmarks.NAME --quick ARGS...``, its output captured."""
    return subprocess.run(
        [sys.executable, "-m", f"benchmarks.{name}", "--quick", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize("name", sorted(CLOSING_KEYS))
def test_the_quick_mode_runs_and_closes_with_its_json_line(name: str) -> None:
    run = quick_run(name)
    assert run.returncode == 0, run.stderr[-3000:]
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    assert list(figures) == CLOSING_KEYS[name]
    # Every figure is a number, but for the names of what was measured;
    # figures per level are numbers by level.
    labels = {"engine_build", "backend", "house", "teams"}
    numbers = [v for k, v in figures.items() if k not in labels and v is not None]
    numbers += [n for v in numbers if isinstance(v, dict) for f in v.values() for n in f.values()]
    numbers = [v for v in numbers if not isinstance(v, dict)]
    assert all(isinstance(v, int | float | list) for v in numbers), figures
    if "backend" in figures:
        assert figures["backend"] in ("sqlite", "postgresql")


def test_the_ai_benchmark_plays_under_house_rules() -> None:
    run = quick_run("ai", "--house", "bidding=suicide,bags=off")
    assert run.returncode == 0, run.stderr[-3000:]
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    assert "bidding=suicide" in figures["house"] and "bags=off" in figures["house"]
    levels = figures["heuristic_vs_random_levels"]
    assert set(levels) == {"heuristic", "random"}
    # Under Suicide each side bids exactly one Nil a hand.
    for level in levels.values():
        assert level["nil_bids"] == level["hands"]
        assert set(level) == {"hands", "nil_bids", "nil_made_rate", "set_rate", "bags_per_hand"}


def test_the_ai_benchmark_plays_and_times_nil_passes() -> None:
    run = quick_run("ai", "--house", "nil_pass=3,blind_nil_pass=2")
    assert run.returncode == 0, run.stderr[-3000:]
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    assert list(figures) == CLOSING_KEYS["ai"]
    assert "nil_pass=3" in figures["house"] and "blind_nil_pass=2" in figures["house"]
    assert "search/pass" in run.stdout  # the passes are timed apart


def test_a_refused_combination_stops_the_ai_benchmark_in_one_line() -> None:
    run = quick_run("ai", "--house", "nil_pass=2,bidding=mirror")
    assert run.returncode == 2
    assert run.stderr.strip() == "--house: there is no Nil pass with mirror bidding"


def test_the_ai_benchmark_rotates_one_player_through_the_seats_in_solo() -> None:
    run = quick_run("ai", "--house", "teams=solo")
    assert run.returncode == 0, run.stderr[-3000:]
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    assert figures["teams"] == "solo" and "teams=solo" in figures["house"]
    # One deal, the search player in each of the four seats: four games.
    assert figures["search_vs_heuristic_games"] == 4
    low, high = figures["search_vs_heuristic_ci95"]
    assert 0.0 <= low <= figures["search_vs_heuristic_win_rate"] <= high <= 1.0
    levels = figures["search_vs_heuristic_levels"]
    # Every hand counts once per seat: three heuristic seats to one search seat.
    assert levels["heuristic"]["hands"] == 3 * levels["search"]["hands"]


def test_a_refused_combination_with_solo_is_one_line_and_exit_2() -> None:
    run = quick_run("ai", "--house", "teams=solo,min_team_bid=4")
    assert run.returncode == 2
    assert len(run.stderr.strip().splitlines()) == 1 and "min_team_bid" in run.stderr


def test_an_unknown_house_rule_is_one_line_and_exit_2() -> None:
    run = quick_run("ai", "--house", "jokers=yes")
    assert run.returncode == 2
    assert len(run.stderr.strip().splitlines()) == 1 and "jokers" in run.stderr


def test_the_bot_benchmark_runs_with_old_messages_under_the_cap() -> None:
    run = quick_run("bot", "--old-messages", "--cap-status", "400")
    assert run.returncode == 0, run.stderr[-3000:]
    assert "old messages:" in run.stdout  # the cap was modelled
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    assert list(figures) == CLOSING_KEYS["bot"]


def test_the_bot_benchmark_runs_with_outboxes_sharing_one_budget() -> None:
    run = quick_run("bot", "--processes", "2")
    assert run.returncode == 0, run.stderr[-3000:]
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    assert figures["processes"] == 2


@pytest.mark.parametrize("house", ["nil_pass=3", "teams=solo"])
def test_the_coach_benchmark_times_the_new_variants(house: str) -> None:
    run = quick_run("coach", "--house", house)
    assert run.returncode == 0, run.stderr[-3000:]
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    assert house in figures["house"]
    assert figures["hints"] >= 3 and figures["reviews"] >= 4
    assert figures["pass_reviews"] <= figures["reviews"]
    if house == "teams=solo":
        assert figures["pass_reviews"] == 0  # no Nil pass without partners
