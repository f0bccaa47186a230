"""Figures for operators, served to Prometheus when ``[metrics] port`` is set.

Every metric carries a ``shard`` label (this process's shards, ``all``
unsharded), so that the processes of a sharded bot add up in one Prometheus.
What is counted where:

* actions by kind, from the application's published changes;
* REST requests by route and interaction answer latency, from discord.py's
  HTTP client and its interaction webhook adapter (the answer is the
  interaction's callback request; its latency runs from Discord's creation of
  the interaction, read from its id, so it includes the way to the bot);
* rate-limited answers (status 429, retried or not), from aiohttp's tracing;
* open tables and the outbox's queue length, read when scraped;
* database errors and reconnects, from the store's own counts;
* computer decision time, around the decision.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import aiohttp
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server
from prometheus_client.metrics import MetricWrapperBase

M = TypeVar("M", bound=MetricWrapperBase)

REGISTRY = CollectorRegistry()
_SHARD = ("shard",)
#: The label of this process's figures; set by :func:`serve`.
shard = "all"


def _metric(kind: type[M], name: str, text: str, *labels: str, **options: Any) -> M:
    """A metric of this process, labelled by its ``shard`` and then ``labels``."""
    return kind(name, text, (*_SHARD, *labels), registry=REGISTRY, **options)


# The metric's name stays what dashboards already read.
OPEN_TABLES = _metric(
    Gauge, "spades_live_tables", "Open tables (lobby or playing) this process serves"
)
ACTIONS = _metric(
    Counter, "spades_actions", "Committed actions, by kind (bid, play, join...)", "kind"
)
ANSWER_SECONDS = _metric(
    Histogram,
    "spades_interaction_answer_seconds",
    "From an interaction's creation to the bot's first answer to it",
    buckets=(0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0),
)
OUTBOX = _metric(Gauge, "spades_outbox_queue_length", "Messages waiting to be sent or edited")
REST_REQUESTS = _metric(
    Counter,
    "spades_rest_requests",
    "REST requests to Discord, by method and route",
    "method",
    "route",
)
RATE_LIMITED = _metric(
    Counter, "spades_rate_limited_responses", "Discord's answers with status 429"
)
DATABASE_ERRORS = _metric(
    Gauge, "spades_database_errors", "Calls the database failed since start (it was away)"
)
DATABASE_RECONNECTS = _metric(
    Gauge, "spades_database_reconnects", "Times the database answered again after being away"
)
DECISION_SECONDS = _metric(
    Histogram,
    "spades_computer_decision_seconds",
    "How long a computer player takes to choose its move",
    buckets=(0.001, 0.005, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)
ANSWER_ROUTE = "/interactions/{webhook_id}/{webhook_token}/callback"
DISCORD_EPOCH_S = 1_420_070_400  # the time of a Discord id's zero


def serve(
    port: int,
    shards: str,
    *,
    open_tables: Callable[[], int],
    outbox: Callable[[], int],
    database_errors: Callable[[], int],
    database_reconnects: Callable[[], int],
    address: str = "0.0.0.0",
) -> None:
    """Serve the metrics on ``port`` (a thread of prometheus_client's own);
    the callables are read at each scrape."""
    global shard
    shard = shards
    for metric in (ANSWER_SECONDS, RATE_LIMITED, DECISION_SECONDS):
        metric.labels(shard)  # shown as 0 before the first one
    OPEN_TABLES.labels(shard).set_function(open_tables)
    OUTBOX.labels(shard).set_function(outbox)
    DATABASE_ERRORS.labels(shard).set_function(database_errors)
    DATABASE_RECONNECTS.labels(shard).set_function(database_reconnects)
    start_http_server(port, address, registry=REGISTRY)


def committed(kind: str) -> None:
    ACTIONS.labels(shard, kind).inc()


@contextmanager
def deciding() -> Iterator[None]:
    started = time.perf_counter()
    try:
        yield
    finally:
        DECISION_SECONDS.labels(shard).observe(time.perf_counter() - started)


def watch_requests(http: Any, answers: Any, now: Callable[[], float]) -> None:
    """Count the REST requests of ``http`` (discord.py's HTTPClient) and of
    ``answers`` (its webhook adapter, which sends every interaction response)
    by route, and time the interaction answers; ``now`` in epoch seconds."""
    http.request = _counted(http.request, now)
    answers.request = _counted(answers.request, now)


def _counted(
    request: Callable[..., Awaitable[Any]], now: Callable[[], float]
) -> Callable[..., Awaitable[Any]]:
    async def counted(route: Any, *args: Any, **kwargs: Any) -> Any:
        REST_REQUESTS.labels(shard, route.method, route.path).inc()
        if route.path == ANSWER_ROUTE:
            created = (int(route.webhook_id) >> 22) / 1000 + DISCORD_EPOCH_S  # from its id
            ANSWER_SECONDS.labels(shard).observe(now() - created)
        return await request(route, *args, **kwargs)

    return counted


def count_rate_limits(trace: aiohttp.TraceConfig) -> None:
    """Have ``trace`` count every 429 answer, including those discord.py
    waits out and retries by itself."""

    async def on_request_end(
        _session: aiohttp.ClientSession, _context: Any, params: aiohttp.TraceRequestEndParams
    ) -> None:
        if params.response.status == 429:
            RATE_LIMITED.labels(shard).inc()

    trace.on_request_end.append(on_request_end)
