"""What counting finished games writes, worked out purely, each game moving skills on."""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field

from bot.stats.ratings import Skill, is_rated, rate_ranking, rate_teams
from bot.stats.records import FinishedGame, SeatPlayer
from bot.stats.tally import Tally, game_tallies
from db.stats_records import GameWrite, SeatWrite

NEWCOMER = Skill()

#: A player's skill is kept per server: (guild, user id) or (guild, level).
SkillKey = tuple[int, int | str]


def skill_key(guild_id: int, seat: SeatPlayer) -> SkillKey:
    if seat.user_id is not None:
        return (guild_id, seat.user_id)
    assert seat.computer_level is not None
    return (guild_id, seat.computer_level)


@dataclass(frozen=True, slots=True)
class RatingChange:
    user_id: int
    before: int
    after: int


@dataclass(frozen=True, slots=True)
class RecordOutcome:
    rated: bool
    changes: tuple[RatingChange, ...]  # people only; empty for an unrated game


@dataclass(frozen=True, slots=True)
class SeasonSkills:
    """People's skills in each server's running season, where they start afresh."""

    skills: MutableMapping[SkillKey, Skill] = field(default_factory=dict)
    season_of: Mapping[int, int] = field(default_factory=dict)


def _rated(game: FinishedGame, before: Sequence[Skill]) -> list[Skill]:
    """Skills after ``game``: partners win or lose as a team; in solo the
    four seats are ranked by their places."""
    if game.solo:
        return rate_ranking(before, game.places())
    team0, team1 = rate_teams((before[0], before[2]), (before[1], before[3]), game.winner)
    return [team0[0], team1[0], team0[1], team1[1]]


def plan_game(
    game: FinishedGame,
    tallies: Sequence[Tally],
    rated: bool,
    skills: MutableMapping[SkillKey, Skill],
    season: SeasonSkills,
) -> tuple[GameWrite, RecordOutcome]:
    """The rows one game writes; ``skills`` and ``season`` move on to after the game."""
    keys = [skill_key(game.guild_id, s) for s in game.seats]
    before = [skills.get(k, NEWCOMER) for k in keys]
    # A computer level's all-time skill stands in every season.
    season_before = [
        season.skills.get(k, NEWCOMER) if s.user_id is not None else before[i]
        for i, (k, s) in enumerate(zip(keys, game.seats, strict=True))
    ]
    after: list[Skill | None] = [None] * 4
    season_after: list[Skill | None] = [None] * 4
    if rated:
        after = list(_rated(game, before))
        season_after = list(_rated(game, season_before))
    seats = []
    computer_skills: dict[str, tuple[float, float]] = {}
    for index, player in enumerate(game.seats):
        new = after[index]
        season_new = season_after[index]
        if new is not None:
            skills[keys[index]] = new
        if season_new is not None and player.user_id is not None:
            season.skills[keys[index]] = season_new
        seats.append(
            SeatWrite(
                seat=index,
                user_id=player.user_id,
                computer_level=player.computer_level,
                tally=tallies[index].as_dict(),
                new_skill=(new.mu, new.sigma, new.display) if new else None,
                rating_before=before[index].display if new else None,
                start_skill=(NEWCOMER.mu, NEWCOMER.sigma, NEWCOMER.display),
                season_skill=(
                    (season_new.mu, season_new.sigma, season_new.display) if season_new else None
                ),
            )
        )
        if new is not None and player.computer_level is not None:
            # Two seats of one level: the second wins, as good as either for a rough strength.
            computer_skills[player.computer_level] = (new.mu, new.sigma)
    write = GameWrite(
        game_id=game.game_id,
        guild_id=game.guild_id,
        finished_at=game.finished_at,
        rated=rated,
        challenger_seat=game.challenger_seat,
        seats=tuple(seats),
        partner_results=partner_results(game),
        computer_skills=computer_skills,
        season_no=season.season_of.get(game.guild_id, 1),
    )
    changes = tuple(
        RatingChange(player.user_id, before[i].display, new.display)
        for i, (player, new) in enumerate(zip(game.seats, after, strict=True))
        if player.user_id is not None and new is not None
    )
    return write, RecordOutcome(rated=rated, changes=changes)


def plan_counting(
    games: Sequence[FinishedGame],
    rate_computer_games: Mapping[int, bool],
    skills: MutableMapping[SkillKey, Skill],
    on_bad_record: Callable[[FinishedGame, Exception], None] | None = None,
    season: SeasonSkills | None = None,
) -> tuple[list[GameWrite], list[RecordOutcome | None]]:
    """Rows for every game in order; an unreadable one raises, or goes to ``on_bad_record``."""
    season = season or SeasonSkills()
    writes: list[GameWrite] = []
    outcomes: list[RecordOutcome | None] = []
    for game in games:
        try:
            tallies = game_tallies(game)
        except ValueError as exc:
            if on_bad_record is None:
                raise
            on_bad_record(game, exc)
            outcomes.append(None)
            continue
        rated = is_rated(game, rate_computer_games.get(game.guild_id, False))
        write, outcome = plan_game(game, tallies, rated, skills, season)
        writes.append(write)
        outcomes.append(outcome)
    return writes, outcomes


def partner_results(game: FinishedGame) -> tuple[tuple[int, int, int, int], ...]:
    """(user, partner, won, drew) both ways for each team of two people (none in solo)."""
    results: list[tuple[int, int, int, int]] = []
    if game.solo:
        return ()
    for team in (0, 1):
        a, b = game.seats[team].user_id, game.seats[team + 2].user_id
        if a is None or b is None or a == b:
            continue
        win = int(game.winner == team)
        draw = int(game.winner is None)
        results += [(a, b, win, draw), (b, a, win, draw)]
    return tuple(results)
