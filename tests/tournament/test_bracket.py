"""Brackets of every size from 2 to 64 teams, single and double
elimination: byes, seeding, the losers' bracket, the grand final and its
second game, and the final standings."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.tournament.bracket import (
    bracket_size,
    build_matches,
    full_round_size,
    seed_order,
    seed_teams,
)
from bot.tournament.model import Format, Tournament
from tests.tournament.play import higher_seed, play_out, started, upset_in_the_final

SIZES = range(2, 65)


def losses(t: Tournament) -> Counter[int]:
    return Counter(m.loser for m in t.matches if m.loser is not None)


def random_winner(seed: int):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    return lambda match: rng.choice(match.teams)


def test_the_seeding_order_puts_the_top_seeds_furthest_apart() -> None:
    assert seed_order(2) == [1, 2]
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    for size in (4, 16, 64):
        order = seed_order(size)
        assert sorted(order) == list(range(1, size + 1))
        # Each first-round pair adds up to size + 1: 1 v N, 2 v N-1 ...
        assert all(order[i] + order[i + 1] == size + 1 for i in range(0, size, 2))
        half = size // 2
        assert 1 in order[:half] and 2 in order[half:]


@pytest.mark.parametrize("fmt", ["single", "double"])
@pytest.mark.parametrize("teams", SIZES)
def test_byes_go_to_the_top_seeds_and_every_match_has_two_teams(fmt: Format, teams: int) -> None:
    matches = build_matches(teams, fmt)
    byes = bracket_size(teams) - teams
    first_round = [m for m in matches if m.bracket == "W" and m.round == 1]
    in_first = sorted(s for m in first_round for s in m.teams)
    assert in_first == list(range(byes + 1, teams + 1))
    # The seeds with a bye already sit in a second-round match.
    later = sorted(s for m in matches if m.bracket == "W" and m.round == 2 for s in m.teams)
    assert later == list(range(1, byes + 1))
    assert [m.number for m in matches] == list(range(1, len(matches) + 1))
    for m in matches:
        assert m.position < full_round_size(teams, m.bracket, m.round)
    # Every match is fed twice: by seeds placed in it or by earlier matches.
    fed = Counter(m.number for m in matches for _ in m.teams)
    for m in matches:
        for to in (m.winner_to, m.loser_to):
            if to is not None:
                assert to.match > m.number
                fed[to.match] += 1
    assert all(fed[m.number] == 2 for m in matches)


@pytest.mark.parametrize("teams", SIZES)
def test_single_elimination_plays_n_minus_one_matches(teams: int) -> None:
    t = started(teams, "single")
    assert len(t.matches) == teams - 1
    end, _ = play_out(t, random_winner(teams))
    assert end.phase == "over"
    assert all(m.state == "done" and m.how == "played" for m in end.matches)
    lost = losses(end)
    champion = end.champion
    assert champion is not None and champion not in lost
    assert set(lost) == set(range(1, teams + 1)) - {champion}
    assert set(lost.values()) == {1}


@pytest.mark.parametrize("teams", SIZES)
@pytest.mark.parametrize("seed", [1, 2])
def test_double_elimination_knocks_out_on_the_second_loss(teams: int, seed: int) -> None:
    t = started(teams, "double")
    end, _ = play_out(t, random_winner(seed * 100 + teams))
    assert end.phase == "over"
    lost = losses(end)
    champion = end.champion
    assert champion is not None
    second_final = [m for m in end.matches if m.bracket == "GF2"]
    # The champion lost once only if a second final was needed.
    assert lost[champion] == len(second_final)
    assert all(lost[team] == 2 for team in range(1, teams + 1) if team != champion)
    assert len(end.matches) == 2 * (teams - 1) + len(second_final)
    # Nobody is knocked out of the winners' bracket: its losers drop.
    for m in end.matches:
        if m.bracket == "W":
            assert m.loser_to is not None


@pytest.mark.parametrize("fmt", ["single", "double"])
def test_the_better_seeds_win_when_they_always_win(fmt: Format) -> None:
    end, _ = play_out(started(8, fmt), higher_seed)
    places = {s.team: s.place for s in end.standings}
    if fmt == "single":
        semis = [m for m in end.matches if m.round == 2]
        assert sorted(tuple(m.teams) for m in semis) == [(1, 4), (2, 3)]
        assert places == {1: 1, 2: 2, 3: 3, 4: 3, 5: 5, 6: 5, 7: 5, 8: 5}
    else:
        assert places == {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 5, 7: 7, 8: 7}
        final = end.matches[-1]
        assert (final.bracket, final.a, final.b, final.winner) == ("GF", 1, 2, 1)


def test_the_losers_champion_forces_a_second_final() -> None:
    end, _ = play_out(started(4, "double"), upset_in_the_final)
    gf, gf2 = end.matches[-2:]
    assert (gf.bracket, gf2.bracket) == ("GF", "GF2")
    assert gf.winner == 2 and (gf2.a, gf2.b) == (1, 2)
    assert gf2.number == gf.number + 1
    assert end.champion == 1
    assert [s.team for s in end.standings[:2]] == [1, 2]


@pytest.mark.parametrize("teams", [8, 16, 32, 64])
def test_the_losers_of_each_winners_round_drop_to_their_losers_round(teams: int) -> None:
    matches = build_matches(teams, "double")
    by_number = {m.number: m for m in matches}
    for m in matches:
        if m.bracket != "W":
            continue
        assert m.loser_to is not None
        target = by_number[m.loser_to.match]
        assert target.bracket == "L"
        # Round 1 losers meet each other; round r's drop into losers' round 2(r - 1).
        assert target.round == (1 if m.round == 1 else 2 * (m.round - 1))
        if m.round > 1:
            assert m.loser_to.slot == "b"
    # A team dropping from the second winners' round never meets at once
    # the survivor of the first-round matches that led to it.
    feeders: dict[int, set[int]] = {}  # match -> the matches whose teams fill it
    for m in matches:
        for to in (m.winner_to, m.loser_to):
            if to is not None:
                feeders.setdefault(to.match, set()).add(m.number)
    for m in matches:
        if m.bracket == "L" and m.round == 2:
            survivor, dropped = sorted(feeders[m.number], key=lambda n: by_number[n].bracket)
            assert by_number[survivor].bracket == "L" and by_number[dropped].bracket == "W"
            assert not feeders[survivor] & feeders[dropped]


def test_two_teams_double_elimination() -> None:
    end, _ = play_out(started(2, "double"), higher_seed)
    assert [(m.bracket, m.a, m.b, m.winner) for m in end.matches] == [
        ("W", 1, 2, 1),
        ("GF", 1, 2, 1),
    ]


def test_seeds_follow_the_ratings_and_the_draw_among_the_unrated() -> None:
    groups = [(10, 11), (20, 21), (30, 31), (40, 41), (50, 51)]
    ratings = {10: 1400.0, 11: 1600.0, 30: 1700.0, 40: 1200.0}
    teams = seed_teams(groups, ratings, random.Random(5))
    assert [t.players for t in teams[:3]] == [(30, 31), (10, 11), (40, 41)]
    assert teams[1].rating == 1500.0  # the mean of its rated players
    assert {t.players for t in teams[3:]} == {(20, 21), (50, 51)}
    assert all(t.rating is None for t in teams[3:])
    assert [t.id for t in teams] == [t.seed for t in teams] == [1, 2, 3, 4, 5]
    orders = {tuple(t.players for t in seed_teams(groups, {}, random.Random(s))) for s in range(20)}
    assert len(orders) > 1  # unrated teams are drawn, not listed
    same = seed_teams(groups, {}, random.Random(3)) == seed_teams(groups, {}, random.Random(3))
    assert same


@pytest.mark.parametrize("count", [0, 1, 65])
def test_a_bracket_needs_two_to_sixty_four_teams(count: int) -> None:
    with pytest.raises(ValueError):
        build_matches(count, "single")
