"""Tournaments driven by random steps: ready presses, no-shows, tables,
results and decisions in any order the rules allow, with stray events
thrown in. Whatever happens, each team plays one match at a time, every
match starts with two teams, refused events change nothing, the end
knocks out every team as the format says and replaying the log rebuilds it."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament.events import (
    Decide,
    Event,
    MatchEnded,
    ReadyExpired,
    ReadyPress,
    TableOpened,
    TournamentRefusal,
)
from bot.tournament.model import Format, Tournament
from bot.tournament.state import apply
from tests.tournament.play import ORGANIZER, players, started


def possible(t: Tournament, rng: random.Random, now: float) -> Event:
    """One event: usually one the rules allow now, sometimes a stray one."""
    live = [m for m in t.matches if m.state in ("ready_check", "playing")]
    match = rng.choice(live)
    if rng.random() < 0.1:
        strays: list[Event] = [
            ReadyPress(rng.randint(0, len(t.matches) + 1), rng.choice(players(1))),
            MatchEnded(match.number, 12345, rng.choice(match.teams), (1, 2)),
            Decide(match.number, rng.randint(1, len(t.teams)), 4242),
            TableOpened(rng.choice(t.matches).number, 1),
        ]
        return rng.choice(strays)
    team = rng.choice(match.teams)
    if rng.random() < 0.05:
        return Decide(match.number, team, ORGANIZER, "stuck")
    if match.state == "playing":
        assert match.table_id is not None
        return MatchEnded(match.number, match.table_id, team, (500, 100))
    if match.all_ready:
        return TableOpened(match.number, 1000 + match.number)
    assert match.deadline is not None
    if rng.random() < 0.15 or now >= match.deadline:
        return ReadyExpired(match.number, match.deadline)
    found = t.team(team)
    assert found is not None
    return ReadyPress(match.number, rng.choice(found.players))


def check(t: Tournament) -> None:
    busy: Counter[int] = Counter()
    for m in t.matches:
        if m.state != "waiting":
            assert m.a is not None and m.b is not None and m.a != m.b
        if m.state != "done":
            busy.update(m.teams)
    assert all(count == 1 for count in busy.values()), "a team in two matches at once"


@settings(max_examples=150, deadline=None)
@given(
    teams=st.integers(2, 24),
    fmt=st.sampled_from(["single", "double"]),
    seed=st.integers(0, 2**32),
)
def test_random_tournaments_end_as_the_format_says(teams: int, fmt: Format, seed: int) -> None:
    rng = random.Random(seed)
    start = started(teams, fmt, seed=seed)
    t = start
    log: list[tuple[Event, float]] = []
    now = 0.0
    while t.phase == "running":
        check(t)
        event = possible(t, rng, now)
        if isinstance(event, ReadyExpired):
            now = max(now, event.at)
        try:
            after = apply(t, event, now)
        except TournamentRefusal:
            continue  # t is a value: nothing to undo
        log.append((event, now))
        assert after.version == t.version + 1
        t = after
        now += rng.choice([0.0, 1.0, 60.0])
    assert t.phase == "over"
    lost = Counter(m.loser for m in t.matches if m.loser is not None)
    champion = t.champion
    assert champion is not None
    second_final = sum(m.bracket == "GF2" for m in t.matches)
    expected = 1 if fmt == "single" else 2
    assert lost[champion] == (0 if fmt == "single" else second_final)
    assert all(lost[k] == expected for k in range(1, teams + 1) if k != champion)
    assert sorted(s.team for s in t.standings) == list(range(1, teams + 1))
    assert [s.place for s in t.standings] == sorted(s.place for s in t.standings)
    replayed = start
    for event, at in log:
        replayed = apply(replayed, event, at)
    assert replayed == t
