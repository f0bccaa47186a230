"""Registration, the start, ready checks, results and decisions: each step
one event, each bad one refused with its code and the tournament unchanged."""

from __future__ import annotations

import json

import pytest

from bot.tournament.events import (
    Cancel,
    ConfirmPartner,
    Decide,
    DeclinePartner,
    Event,
    MatchEnded,
    ReadyExpired,
    ReadyPress,
    Register,
    Start,
    TableOpened,
    TournamentRefusal,
    Withdraw,
    event_from_json,
    event_to_json,
)
from bot.tournament.model import MAX_TEAMS, Registrations, Settings, Tournament
from bot.tournament.state import apply
from tests.tournament.play import (
    ORGANIZER,
    changed_matches,
    play_out,
    players,
    ready_checks,
    run,
    started,
    tables_to_open,
)

STRANGER = 999


def fresh(teams: str = "pairs", ready_s: int = 900) -> Tournament:
    settings = Settings("Cup", teams=teams, ready_s=ready_s)  # type: ignore[arg-type]
    return Tournament(1, 2, 3, ORGANIZER, settings)


def refused(t: Tournament, event: Event, code: str, now: float = 0.0) -> None:
    with pytest.raises(TournamentRefusal) as caught:
        apply(t, event, now)
    assert caught.value.code == code


def test_partners_register_and_confirm() -> None:
    t = run(fresh(), [Register(10, 11), Register(20, 21), ConfirmPartner(11), Register(30)])
    assert t.registrations == Registrations(pending=((20, 21),), pairs=((10, 11),), solo=(30,))
    t = run(t, [DeclinePartner(21), Withdraw(30), Withdraw(11)])
    assert t.registrations == Registrations()
    assert t.version == 7


def test_registration_refusals() -> None:
    t = run(fresh(), [Register(10, 11), Register(30)])
    refused(t, Register(10), "already_registered")
    refused(t, Register(11, 40), "already_registered")  # named by someone's request
    refused(t, Register(30, 40), "already_registered")
    refused(t, Register(40, 30), "partner_registered")
    refused(t, Register(40, 11), "partner_registered")
    refused(t, Register(40, 40), "partner_is_self")
    refused(t, ConfirmPartner(40), "no_partner_request")
    refused(t, DeclinePartner(10), "no_partner_request")  # the asker cannot answer
    refused(t, Withdraw(40), "not_registered")
    refused(t, Withdraw(11), "not_registered")  # the one asked declines instead
    refused(run(fresh("draw"), []), Register(40, 41), "partners_are_drawn")


def test_a_partner_who_is_no_user_is_refused() -> None:
    """Discord user ids are positive: 0 or less names nobody, and is never asked."""
    t = run(fresh(), [Register(10)])
    for nobody in (0, -1):
        refused(t, Register(40, nobody), "no_partner")


def test_a_tournament_is_full_at_sixty_four_teams() -> None:
    t = fresh()
    for k in range(1, MAX_TEAMS + 1):
        t = apply(t, Register(*players(k)), 0)
    refused(t, Register(1, 2), "full")
    refused(t, Register(1), "full")
    t = apply(t, Withdraw(players(1)[0]), 0)
    t = run(t, [Register(1), Register(2)])
    refused(t, Register(3), "full")


def test_only_the_organizer_or_a_server_manager_starts() -> None:
    t = run(fresh(), [Register(10, 11), ConfirmPartner(11), Register(20, 21), ConfirmPartner(21)])
    refused(t, Start(STRANGER, 1), "not_organizer")
    assert apply(t, Start(STRANGER, 1, manages_server=True), 0).phase == "running"
    assert apply(t, Start(ORGANIZER, 1), 0).phase == "running"


def test_a_bracket_needs_two_teams() -> None:
    # A pending request and an odd solo registrant make no team.
    t = run(fresh(), [Register(10, 11), ConfirmPartner(11), Register(20, 21), Register(30)])
    refused(t, Start(ORGANIZER, 1), "too_few_teams")


def test_solo_registrants_are_paired_and_the_odd_one_left_out() -> None:
    events: list[Event] = [Register(10, 11), ConfirmPartner(11), Register(40, 41)]
    events += [Register(u) for u in (20, 21, 22, 23, 24)]
    t = run(fresh(), [*events, Start(ORGANIZER, seed=4)])
    assert len(t.teams) == 3
    assert (10, 11) in [team.players for team in t.teams]
    drawn = sorted(u for team in t.teams for u in team.players if u >= 20)
    assert len(drawn) == 4 and set(drawn) <= {20, 21, 22, 23, 24}
    assert sorted(t.left_out) == [*sorted({20, 21, 22, 23, 24} - set(drawn)), 40, 41]


def test_with_draw_everyone_comes_alone_and_the_seed_decides_partners() -> None:
    joined = [Register(u) for u in range(10, 18)]
    one = run(fresh("draw"), [*joined, Start(ORGANIZER, seed=1)])
    again = run(fresh("draw"), [*joined, Start(ORGANIZER, seed=1)])
    other = run(fresh("draw"), [*joined, Start(ORGANIZER, seed=2)])
    assert one == again
    assert len(one.teams) == 4 and not one.left_out
    assert one.teams != other.teams


def test_no_registration_after_the_start() -> None:
    t = started(4)
    refused(t, Withdraw(players(1)[0]), "already_started")
    refused(t, Register(5000), "already_started")
    refused(t, Start(ORGANIZER, 1), "already_started")


def test_ready_checks_open_when_both_teams_are_known() -> None:
    t = started(3, "single")  # seed 1 has a bye; 2 v 3 first
    first, final = t.matches
    assert (first.state, first.a, first.b, first.deadline) == ("ready_check", 2, 3, 900.0)
    assert (final.state, final.a, final.b) == ("waiting", 1, None)
    assert ready_checks(t) == (first,)
    t = run(t, [ReadyPress(1, players(2)[1])], now=10)
    assert t.matches[0].ready == {2} and not tables_to_open(t)
    refused(t, ReadyPress(1, players(2)[0]), "already_ready")  # one of the team is enough
    refused(t, ReadyPress(1, players(1)[0]), "not_in_match")
    refused(t, ReadyPress(1, STRANGER), "not_in_match")
    refused(t, ReadyPress(2, players(1)[0]), "not_ready_check")
    refused(t, ReadyPress(3, players(1)[0]), "no_such_match")
    refused(t, ReadyPress(1, players(3)[0]), "too_late", now=900)
    refused(t, TableOpened(1, 55), "not_all_ready")
    refused(t, ReadyExpired(1, 900), "deadline_not_reached", now=899)
    before = t
    t = run(t, [ReadyPress(1, players(3)[0]), TableOpened(1, 55)], now=20)
    assert t.matches[0].state == "playing" and t.matches[0].table_id == 55
    assert changed_matches(before, t) == (t.matches[0],)
    refused(t, ReadyExpired(1, 900), "not_ready_check", now=900)
    refused(t, MatchEnded(1, 54, 2, (500, 100)), "not_playing")
    refused(t, MatchEnded(1, 55, 1, (500, 100)), "team_not_in_match")
    t = apply(t, MatchEnded(1, 55, 3, (200, 510)), now=3000)
    done, final = t.matches
    assert (done.state, done.winner, done.scores, done.how) == ("done", 3, (200, 510), "played")
    assert (final.state, final.a, final.b, final.deadline) == ("ready_check", 1, 3, 3900.0)
    refused(t, MatchEnded(1, 55, 3, (200, 510)), "match_over")


@pytest.mark.parametrize(("pressed", "winner"), [((), 2), ((2,), 2), ((3,), 3)])
def test_at_the_deadline_a_team_not_ready_loses(pressed: tuple[int, ...], winner: int) -> None:
    t = started(3, "single")
    t = run(t, [ReadyPress(1, players(team)[0]) for team in pressed], now=5)
    t = apply(t, ReadyExpired(1, 900), now=900)
    match = t.matches[0]
    assert (match.state, match.winner, match.how, match.scores) == ("done", winner, "no_show", None)
    assert t.matches[1].b == winner


def test_the_organizer_decides_a_stuck_match() -> None:
    t = started(3, "single")
    refused(t, Decide(2, 1, ORGANIZER, "stuck"), "teams_unknown")
    refused(t, Decide(1, 2, STRANGER, "stuck"), "not_organizer")
    refused(t, Decide(1, 1, ORGANIZER, "stuck"), "team_not_in_match")
    t = apply(t, Decide(1, 3, STRANGER, "table lost", manages_server=True), now=1)
    assert (t.matches[0].how, t.matches[0].winner, t.matches[0].reason) == (
        "decided",
        3,
        "table lost",
    )
    t = run(t, [ReadyPress(2, players(1)[0]), ReadyPress(2, players(3)[0]), TableOpened(2, 8)])
    t = apply(t, Decide(2, 1, ORGANIZER, "a player left"), now=2)  # even while playing
    assert t.phase == "over" and t.champion == 1
    refused(t, Decide(2, 3, ORGANIZER, "again"), "tournament_over")


def test_cancel() -> None:
    t = started(4)
    refused(t, Cancel(STRANGER), "not_organizer")
    t = apply(t, Cancel(ORGANIZER), 0)
    assert t.phase == "cancelled" and not t.standings
    refused(t, ReadyPress(1, players(1)[0]), "tournament_over")
    refused(t, Cancel(ORGANIZER), "tournament_over")
    assert apply(fresh(), Cancel(STRANGER, manages_server=True), 0).phase == "cancelled"


def test_results_need_a_running_tournament() -> None:
    refused(fresh(), ReadyPress(1, 10), "not_started")


def test_a_refusal_leaves_the_tournament_as_it_was() -> None:
    t = started(4)
    refused(t, Decide(1, 4, STRANGER), "not_organizer")
    refused(t, ReadyExpired(1, 900), "deadline_not_reached")
    assert t == started(4)


@pytest.mark.parametrize("fmt", ["single", "double"])
def test_replaying_the_events_gives_the_same_tournament(fmt: str) -> None:
    t = started(13, fmt)  # type: ignore[arg-type]
    end, log = play_out(t, lambda m: max(m.teams), now=50.0)
    again = run(t, log, now=50.0)
    assert again == end
    stored = [event_from_json(event_to_json(e)) for e in log]
    assert stored == log
    assert run(t, stored, now=50.0) == end
    assert end.version == t.version + len(log)


def test_every_event_kind_survives_its_stored_form() -> None:
    events: list[Event] = [
        Register(1, 2),
        Register(3),
        ConfirmPartner(2),
        DeclinePartner(2),
        Withdraw(1),
        Start(1, 42, {10: 1510.5, 11: 1490.0}, manages_server=True),
        ReadyPress(3, 10),
        ReadyExpired(3, 1234.5),
        TableOpened(3, 77),
        MatchEnded(3, 77, 2, (510, -40)),
        Decide(4, 1, 9, "no show at the table", manages_server=True),
        Cancel(9),
    ]
    for event in events:
        assert event_from_json(json.loads(json.dumps(event_to_json(event)))) == event
