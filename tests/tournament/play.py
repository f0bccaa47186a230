"""Building and playing tournaments through their events, for the tests."""

from __future__ import annotations

from collections.abc import Callable

from bot.tournament.events import (
    ConfirmPartner,
    Event,
    MatchEnded,
    ReadyPress,
    Register,
    Start,
    TableOpened,
)
from bot.tournament.model import Format, Match, Settings, Tournament
from bot.tournament.state import apply

ORGANIZER = 1
#: Team k registers as users 100k (who asks) and 100k + 1 (the partner).
Pick = Callable[[Match], int]


def players(k: int) -> tuple[int, int]:
    return 100 * k, 100 * k + 1


def registration(teams: int) -> list[Event]:
    events: list[Event] = []
    for k in range(1, teams + 1):
        user, partner = players(k)
        events += [Register(user, partner), ConfirmPartner(partner)]
    return events


def run(t: Tournament, events: list[Event], now: float = 0.0) -> Tournament:
    for event in events:
        t = apply(t, event, now)
    return t


def started(
    teams: int, fmt: Format = "single", ratings: dict[int, float] | None = None, seed: int = 7
) -> Tournament:
    """A drawn bracket of ``teams`` pairs; by default team k (users 100k,
    100k+1) is rated 2000 - k, so that its seed is k."""
    if ratings is None:
        ratings = {players(k)[0]: 2000.0 - k for k in range(1, teams + 1)}
    t = Tournament(1, 2, 3, ORGANIZER, Settings("Cup", format=fmt))
    t = run(t, registration(teams))
    return apply(t, Start(ORGANIZER, seed, ratings), 0.0)


def higher_seed(match: Match) -> int:
    return min(match.teams)


def upset_in_the_final(match: Match) -> int:
    """The higher seed wins, except the losers' champion in the grand final."""
    if match.bracket == "GF":
        assert match.b is not None
        return match.b
    return min(match.teams)


def play_out(
    t: Tournament, pick: Pick = higher_seed, now: float = 0.0
) -> tuple[Tournament, list[Event]]:
    """Every match played to the end: both teams press Ready, the table
    opens, ``pick`` says who wins. Returns the end and the events."""
    log: list[Event] = []
    table = 0

    def step(event: Event) -> None:
        nonlocal t
        t = apply(t, event, now)
        log.append(event)

    while t.phase == "running":
        waiting = ready_checks(t)
        opening = tables_to_open(t)
        if waiting:
            match = waiting[0]
            for team in match.teams:
                if team not in match.ready:
                    found = t.team(team)
                    assert found is not None
                    step(ReadyPress(match.number, found.players[-1]))
        elif opening:
            table += 1
            step(TableOpened(opening[0].number, table))
        else:
            playing = [m for m in t.matches if m.state == "playing"]
            assert playing, "a running tournament with nothing to do"
            match = playing[0]
            assert match.table_id is not None
            winner = pick(match)
            scores = (500, 310) if winner == match.a else (310, 500)
            step(MatchEnded(match.number, match.table_id, winner, scores))
    return t, log


def ready_checks(t: Tournament) -> tuple[Match, ...]:
    """The matches whose ready check is running (both teams known, the
    table not open): as the game layer would post their Ready buttons."""
    return tuple(m for m in t.matches if m.state == "ready_check" and not m.all_ready)


def tables_to_open(t: Tournament) -> tuple[Match, ...]:
    """The matches whose teams are both ready and whose table is not open yet."""
    return tuple(m for m in t.matches if m.all_ready)


def changed_matches(before: Tournament, after: Tournament) -> tuple[Match, ...]:
    """The matches of ``after`` that an event created or changed."""
    old = {m.number: m for m in before.matches}
    return tuple(m for m in after.matches if old.get(m.number) != m)
