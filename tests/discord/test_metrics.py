"""The Prometheus endpoint ([metrics] port), scraped while a game is played."""

from __future__ import annotations

import socket
import urllib.request
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.config import MetricsSettings, Settings
from tests.discord.conftest import fast_settings
from tests.discord.harness import World


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    metrics = MetricsSettings(port=free_port(), address="127.0.0.1")
    return fast_settings(tmp_path / "spades.db").model_copy(update={"metrics": metrics})


def scrape(port: int) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as answer:
        text = answer.read().decode()
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(
    samples: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str, **labels: str
) -> float:
    return samples.get((name, frozenset({"shard": "all", **labels}.items())), -1.0)


async def test_the_endpoint_counts_tables_actions_answers_requests_and_decisions(
    world: World, settings: Settings
) -> None:
    alice = world.user("alice")
    await world.new_table(alice, target=250)
    await world.click(alice, "Add computer players")
    await world.click(alice, "Start")
    table = await world.play_until(lambda t: t.game is not None and len(t.game.tricks) >= 1)

    samples = scrape(settings.metrics.port)
    assert value(samples, "spades_live_tables") == 1
    assert value(samples, "spades_actions_total", kind="start") == 1
    bids = value(samples, "spades_actions_total", kind="bid")
    assert bids == 4
    assert value(samples, "spades_actions_total", kind="play") >= 4
    # Every click and command was answered, each answer timed.
    answered = value(samples, "spades_interaction_answer_seconds_count")
    assert answered >= 4  # /spades new, two clicks, alice's own moves
    slow = answered - value(samples, "spades_interaction_answer_seconds_bucket", le="3.0")
    assert slow == 0, "SimCord answers at once"
    assert value(samples, "spades_interaction_answer_seconds_sum") >= 0
    route = "/interactions/{webhook_id}/{webhook_token}/callback"
    assert value(samples, "spades_rest_requests_total", method="POST", route=route) == answered
    # The table message is edited, here through the tokens of the presses on
    # it (off the global budget): both routes are counted.
    through_tokens = value(
        samples,
        "spades_rest_requests_total",
        method="PATCH",
        route="/webhooks/{webhook_id}/{webhook_token}/messages/@original",
    )
    assert through_tokens >= 1, "the table message is edited through a press's token"
    through_bot = value(
        samples,
        "spades_rest_requests_total",
        method="PATCH",
        route="/channels/{channel_id}/messages/{message_id}",
    )
    assert through_bot == -1.0, "no edit needed the bot's own token"
    # The three computer players decided their bids and cards.
    assert value(samples, "spades_computer_decision_seconds_count") >= 3 + 3
    assert value(samples, "spades_outbox_queue_length") == 0
    assert value(samples, "spades_rate_limited_responses_total") == 0
    assert value(samples, "spades_database_errors") == 0
    assert value(samples, "spades_database_reconnects") == 0
    assert table.version > 0
