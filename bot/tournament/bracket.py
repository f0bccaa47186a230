"""Drawing the bracket: seeds, byes, the winners' and losers' brackets.

Laid out for the next power of two in the usual seeding order (top seeds meet last), the
extra seeds being byes; a match that can receive only one team is removed and its team
sent on. In double elimination each later winners' round drops its losers into every
other losers' round, reversed every other time so teams who just met are kept apart."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from statistics import fmean
from typing import Literal

from bot.tournament.model import (
    MAX_TEAMS,
    Bracket,
    Destination,
    Format,
    Match,
    Slot,
    Standing,
    Team,
)

#: Where a slot's team comes from: a seed, or the winner or loser of an earlier node.
Source = tuple[Literal["seed", "winner", "loser"], int]

#: The order of the stages, for standings: later stages rank higher.
STAGE_ORDER: dict[Bracket, int] = {"W": 0, "L": 1, "GF": 2, "GF2": 3}


def seed_order(size: int) -> list[int]:
    """The seeds of a full bracket of ``size`` top to bottom (8: 1, 8, 4, 5, 2, 7, 3, 6)."""
    order = [1]
    while len(order) < size:
        count = len(order) * 2
        order = [s for seed in order for s in (seed, count + 1 - seed)]
    return order


def bracket_size(teams: int) -> int:
    """The full bracket's size: the power of two the byes fill up to."""
    size = 2
    while size < teams:
        size *= 2
    return size


def full_round_size(teams: int, bracket: Bracket, round_no: int) -> int:
    """How many matches a round has in the full bracket (the range of ``Match.position``)."""
    size = bracket_size(teams)
    if bracket == "W":
        return size >> round_no
    if bracket == "L":
        return max(size >> ((round_no + 1) // 2 + 1), 1)
    return 1


def team_rating(players: Sequence[int], ratings: Mapping[int, float]) -> float | None:
    """The mean rating of a team's rated players; None when none is rated."""
    known = [ratings[p] for p in players if p in ratings]
    return fmean(known) if known else None


def seed_teams(
    groups: Sequence[tuple[int, ...]], ratings: Mapping[int, float], rng: random.Random
) -> tuple[Team, ...]:
    """Teams seeded by rating, the unrated last; ties ordered with ``rng``."""
    rated = [(players, team_rating(players, ratings)) for players in groups]
    rng.shuffle(rated)
    rated.sort(key=lambda item: (item[1] is None, -(item[1] or 0.0)))
    return tuple(
        Team(id=seed, players=players, seed=seed, rating=rating)
        for seed, (players, rating) in enumerate(rated, start=1)
    )


@dataclass(slots=True)
class _Node:
    bracket: Bracket
    round: int
    position: int
    sources: tuple[Source, Source]


def _layout(size: int, fmt: Format) -> list[_Node]:
    """Every match of a full bracket of ``size`` teams, each after those that feed it."""
    nodes: list[_Node] = []
    order = seed_order(size)
    winners: list[list[int]] = []  # node indexes per winners' round
    feed: list[Source] = [("seed", s) for s in order]
    round_no = 1
    while len(feed) > 1:
        feed = _round(nodes, "W", round_no, _pairs(feed))
        winners.append([ref for _, ref in feed])
        round_no += 1
    if fmt == "single":
        return nodes
    champion_w = feed[0]
    if len(winners) == 1:  # two teams: the loser of the only match is the losers' champion
        champion_l: Source = ("loser", winners[0][0])
    else:
        first: list[Source] = [("loser", n) for n in winners[0]]
        survivors = _round(nodes, "L", 1, _pairs(first))
        l_round = 2
        for w_round in range(1, len(winners)):
            dropped: list[Source] = [("loser", n) for n in winners[w_round]]
            if w_round % 2 == 1:
                dropped.reverse()
            survivors = _round(nodes, "L", l_round, list(zip(survivors, dropped, strict=True)))
            l_round += 1
            if len(survivors) > 1:
                survivors = _round(nodes, "L", l_round, _pairs(survivors))
                l_round += 1
        champion_l = survivors[0]
    nodes.append(_Node("GF", 1, 0, (champion_w, champion_l)))
    return nodes


def _pairs(sources: list[Source]) -> list[tuple[Source, Source]]:
    return [(sources[i], sources[i + 1]) for i in range(0, len(sources), 2)]


def _round(
    nodes: list[_Node], bracket: Bracket, round_no: int, pairs: list[tuple[Source, Source]]
) -> list[Source]:
    """A round of matches between ``pairs``; their winners, in order."""
    start = len(nodes)
    nodes.extend(_Node(bracket, round_no, i, pair) for i, pair in enumerate(pairs))
    return [("winner", n) for n in range(start, len(nodes))]


def build_matches(team_count: int, fmt: Format) -> tuple[Match, ...]:
    """The bracket of ``team_count`` teams (2 to 64), byes resolved, every match waiting."""
    if not 2 <= team_count <= MAX_TEAMS:
        raise ValueError(f"a bracket takes 2 to {MAX_TEAMS} teams, not {team_count}")
    nodes = _layout(bracket_size(team_count), fmt)
    teams_in: list[int] = []

    def brings_team(source: Source) -> bool:
        kind, ref = source
        if kind == "seed":
            return ref <= team_count
        if kind == "winner":
            return teams_in[ref] > 0
        return teams_in[ref] == 2

    for node in nodes:
        teams_in.append(sum(brings_team(s) for s in node.sources))

    def resolve(source: Source) -> Source:
        """The source a slot really takes its team from, past the byes."""
        kind, ref = source
        if kind == "winner" and teams_in[ref] == 1:
            return resolve(next(s for s in nodes[ref].sources if brings_team(s)))
        return source

    real = [i for i, count in enumerate(teams_in) if count == 2]
    number = {node: n for n, node in enumerate(real, start=1)}
    matches = {
        n: Match(n, nodes[i].bracket, nodes[i].round, nodes[i].position) for i, n in number.items()
    }
    for i in real:
        target = number[i]
        slots: tuple[Slot, Slot] = ("a", "b")
        for slot, source in zip(slots, nodes[i].sources, strict=True):
            kind, ref = resolve(source)
            here = Destination(target, slot)
            if kind == "seed":
                matches[target] = with_team(matches[target], slot, ref)
            elif kind == "winner":
                matches[number[ref]] = replace(matches[number[ref]], winner_to=here)
            else:
                matches[number[ref]] = replace(matches[number[ref]], loser_to=here)
    return tuple(matches[n] for n in sorted(matches))


def with_team(match: Match, slot: Slot, team: int) -> Match:
    """``match`` with ``team`` in ``slot``."""
    return replace(match, a=team) if slot == "a" else replace(match, b=team)


def final_standings(matches: Sequence[Match], team_ids: Sequence[int]) -> tuple[Standing, ...]:
    """Places: the champion first, then by the stage of elimination; one stage shares a place."""
    last: dict[int, Match] = {}
    for m in matches:
        if m.state == "done":
            for team in m.teams:
                last[team] = m  # matches are numbered in playing order
    key: dict[int, tuple[int, int]] = {}
    for team in team_ids:
        m = last[team]
        key[team] = (1_000, 0) if m.winner == team else (STAGE_ORDER[m.bracket], m.round)
    ranked = sorted(team_ids, key=lambda t: (key[t], -t), reverse=True)
    standings: list[Standing] = []
    for index, team in enumerate(ranked):
        same = index > 0 and key[ranked[index - 1]] == key[team]
        standings.append(Standing(standings[-1].place if same else index + 1, team))
    return tuple(standings)
