"""Applying one event to a tournament: every rule of registration, ready checks and advancing.

``apply(t, event, now)`` returns the next tournament or raises ``TournamentRefusal``; it
reads only its arguments, so replaying the stored events rebuilds the same tournament.
A match's ready check opens as soon as both its teams are known."""

from __future__ import annotations

import random
from dataclasses import replace

from bot.tournament.bracket import build_matches, final_standings, seed_teams, with_team
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
)
from bot.tournament.model import MAX_TEAMS, TEAM_SIZE, How, Match, Registrations, Tournament


def apply(t: Tournament, event: Event, now: float) -> Tournament:
    """The tournament after ``event``, at ``now`` (seconds since the epoch)."""
    if t.phase in ("over", "cancelled"):
        raise TournamentRefusal("tournament_over")
    if isinstance(event, Cancel):
        _check_organizer(t, event.by, event.manages_server)
        after = replace(t, phase="cancelled")
    elif isinstance(event, Register | ConfirmPartner | DeclinePartner | Withdraw):
        if t.phase != "registering":
            raise TournamentRefusal("already_started")
        after = replace(t, registrations=_register(t, event))
    elif isinstance(event, Start):
        if t.phase != "registering":
            raise TournamentRefusal("already_started")
        after = _start(t, event, now)
    else:
        after = _play(t, event, now)
    return replace(after, version=t.version + 1)


def _check_organizer(t: Tournament, by: int, manages_server: bool) -> None:
    if by != t.organizer_id and not manages_server:
        raise TournamentRefusal("not_organizer")


def _register(
    t: Tournament, event: Register | ConfirmPartner | DeclinePartner | Withdraw
) -> Registrations:
    regs = t.registrations
    user = event.user
    if isinstance(event, Register):
        taken = regs.users()
        if user in taken:
            raise TournamentRefusal("already_registered")
        if event.partner is None:
            if len(taken) + 1 > MAX_TEAMS * TEAM_SIZE:
                raise TournamentRefusal("full")
            return replace(regs, solo=(*regs.solo, user))
        if t.settings.teams == "draw":
            raise TournamentRefusal("partners_are_drawn")
        if event.partner <= 0:  # no Discord user has such an id
            raise TournamentRefusal("no_partner")
        if event.partner == user:
            raise TournamentRefusal("partner_is_self")
        if event.partner in taken:
            raise TournamentRefusal("partner_registered")
        if len(taken) + TEAM_SIZE > MAX_TEAMS * TEAM_SIZE:
            raise TournamentRefusal("full")
        return replace(regs, pending=(*regs.pending, (user, event.partner)))
    if isinstance(event, ConfirmPartner | DeclinePartner):
        request = next((p for p in regs.pending if p[1] == user), None)
        if request is None:
            raise TournamentRefusal("no_partner_request")
        pending = tuple(p for p in regs.pending if p != request)
        if isinstance(event, DeclinePartner):
            return replace(regs, pending=pending)
        return replace(regs, pending=pending, pairs=(*regs.pairs, request))
    if user in regs.solo:
        return replace(regs, solo=tuple(u for u in regs.solo if u != user))
    pair = next((p for p in regs.pairs if user in p), None)
    if pair is not None:
        return replace(regs, pairs=tuple(p for p in regs.pairs if p != pair))
    request = next((p for p in regs.pending if p[0] == user), None)
    if request is None:
        raise TournamentRefusal("not_registered")
    return replace(regs, pending=tuple(p for p in regs.pending if p != request))


def _start(t: Tournament, event: Start, now: float) -> Tournament:
    _check_organizer(t, event.by, event.manages_server)
    regs = t.registrations
    rng = random.Random(event.seed)
    solo = list(regs.solo)
    rng.shuffle(solo)
    paired = len(solo) - len(solo) % TEAM_SIZE
    groups = list(regs.pairs) + [(solo[i], solo[i + 1]) for i in range(0, paired, TEAM_SIZE)]
    if len(groups) < 2:
        raise TournamentRefusal("too_few_teams")
    teams = seed_teams(groups, event.ratings, rng)
    left_out = tuple(solo[paired:]) + tuple(u for pair in regs.pending for u in pair)
    started = replace(
        t,
        phase="running",
        teams=teams,
        matches=build_matches(len(teams), t.settings.format),
        left_out=left_out,
    )
    return _open_ready_checks(started, now)


def _play(t: Tournament, event: Event, now: float) -> Tournament:
    if t.phase != "running":
        raise TournamentRefusal("not_started")
    assert isinstance(event, ReadyPress | ReadyExpired | TableOpened | MatchEnded | Decide)
    match = t.match(event.match)
    if match is None:
        raise TournamentRefusal("no_such_match", match=event.match)
    if match.state == "done":
        raise TournamentRefusal("match_over", match=match.number)
    if isinstance(event, ReadyPress):
        return _ready(t, match, event.user, now)
    if isinstance(event, ReadyExpired):
        if match.state != "ready_check" or match.all_ready:
            raise TournamentRefusal("not_ready_check", match=match.number)
        assert match.deadline is not None
        if now < match.deadline:
            raise TournamentRefusal("deadline_not_reached", match=match.number)
        # A team that pressed goes on; with neither, the higher seed (the lower number).
        winner = min(match.ready) if match.ready else min(match.teams)
        return _finish(t, match, winner, None, "no_show", "", now)
    if isinstance(event, TableOpened):
        if not match.all_ready:
            raise TournamentRefusal("not_all_ready", match=match.number)
        return _put(t, replace(match, state="playing", table_id=event.table_id))
    if isinstance(event, MatchEnded):
        if match.state != "playing" or match.table_id != event.table_id:
            raise TournamentRefusal("not_playing", match=match.number)
        _check_team(match, event.winner_team)
        return _finish(t, match, event.winner_team, event.scores, "played", "", now)
    _check_organizer(t, event.by, event.manages_server)
    if match.state == "waiting":
        raise TournamentRefusal("teams_unknown", match=match.number)
    _check_team(match, event.winner_team)
    return _finish(t, match, event.winner_team, None, "decided", event.reason, now)


def _check_team(match: Match, team: int) -> None:
    if team not in match.teams:
        raise TournamentRefusal("team_not_in_match", match=match.number, team=team)


def _ready(t: Tournament, match: Match, user: int, now: float) -> Tournament:
    if match.state != "ready_check":
        raise TournamentRefusal("not_ready_check", match=match.number)
    team = t.team_of(user)
    if team is None or team.id not in match.teams:
        raise TournamentRefusal("not_in_match", match=match.number)
    if team.id in match.ready:
        raise TournamentRefusal("already_ready", match=match.number)
    assert match.deadline is not None
    if now >= match.deadline:
        raise TournamentRefusal("too_late", match=match.number)
    return _put(t, replace(match, ready=match.ready | {team.id}))


def _put(t: Tournament, match: Match) -> Tournament:
    matches = list(t.matches)
    if match.number > len(matches):
        matches.append(match)
    else:
        matches[match.number - 1] = match
    return replace(t, matches=tuple(matches))


def _finish(
    t: Tournament,
    match: Match,
    winner: int,
    scores: tuple[int, int] | None,
    how: How,
    reason: str,
    now: float,
) -> Tournament:
    """The match done, its teams sent on, the next ready checks opened."""
    done = replace(
        match, state="done", winner=winner, scores=scores, how=how, reason=reason, deadline=None
    )
    t = _put(t, done)
    loser = done.loser
    assert loser is not None
    if done.bracket == "GF" and winner == done.b:
        # The losers' champion won the final: a second one, each team having lost once.
        second = Match(number=len(t.matches) + 1, bracket="GF2", round=1, a=done.a, b=done.b)
        return _open_ready_checks(_put(t, second), now)
    for team, to in ((winner, done.winner_to), (loser, done.loser_to)):
        if to is not None:
            target = t.match(to.match)
            assert target is not None
            t = _put(t, with_team(target, to.slot, team))
    if done.winner_to is None:
        return replace(
            t, phase="over", standings=final_standings(t.matches, [team.id for team in t.teams])
        )
    return _open_ready_checks(t, now)


def _open_ready_checks(t: Tournament, now: float) -> Tournament:
    """Every waiting match whose two teams are known starts its ready check."""
    for m in t.matches:
        if m.state == "waiting" and m.a is not None and m.b is not None:
            t = _put(t, replace(m, state="ready_check", deadline=now + t.settings.ready_s))
    return t
