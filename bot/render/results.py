"""The words about a finished game: the end-of-game post, a game's record
answer, and the team names its picture is labelled with."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.game.types import EndReason
from bot.i18n import ENGLISH, ntr, tr
from bot.render.house_rules import rules_line
from bot.render.names import computer_label, computer_name
from bot.render.spec import CONTENT, clip, fit_lines
from bot.render.table import team_name
from bot.stats.counting import RecordOutcome
from bot.stats.records import FinishedGame, SeatPlayer

#: The display name of a user, as the caller found it.
UserName = Callable[[int], str]


def seat_name(
    seats: Sequence[SeatPlayer],
    seat: int,
    user_name: UserName,
    *,
    plain: bool,
    lang: str = ENGLISH,
) -> str:
    """A person's display name, or the seat's computer player; ``plain``
    leaves out the emoji (for the picture, whose font has none)."""
    player = seats[seat]
    if player.user_id is not None:
        return user_name(player.user_id)
    name = computer_name if plain else computer_label
    return name(seat, player.computer_level, lang)


def team_names(
    seats: Sequence[SeatPlayer], user_name: UserName, *, plain: bool = False, lang: str = ENGLISH
) -> tuple[str, str]:
    """``alice & 🤖 Nell (random)`` for each team (seats 0 and 2, then 1 and 3)."""

    def team(number: int) -> str:
        first, second = (
            seat_name(seats, s, user_name, plain=plain, lang=lang) for s in (number, number + 2)
        )
        return tr(lang, "{first} & {second}", first=first, second=second)

    return team(0), team(1)


def _scores(game: FinishedGame) -> dict[str, int]:
    """The final score, the winner's first: ``won`` and ``lost`` (written
    "250 to 120", never with a dash, which reads badly between negative scores)."""
    first = 0 if game.winner is None else game.winner
    return {"won": game.final_scores[first], "lost": game.final_scores[1 - first]}


def end_of_game_text(
    table_id: int,
    game: FinishedGame,
    names: tuple[str, str],
    outcome: RecordOutcome | None,
    lang: str = ENGLISH,
) -> str:
    """The words posted with the end-of-game picture, in the table's ``lang``.
    Without ``outcome`` (the game was counted before a restart) the rating
    changes are not repeated."""
    if game.reason is EndReason.MODERATOR:
        head = tr(
            lang,
            "Table {table}: ended by a moderator at {won} to {lost}: {why}",
            table=table_id,
            why=game.note or "-",
            **_scores(game),
        )
        # Nothing is rated, whoever played.
        return clip(f"{head} {tr(lang, 'Not rated.')}", CONTENT)
    if game.winner is None:
        head = tr(
            lang, "Table {table}: a draw at {won} to {lost}.", table=table_id, **_scores(game)
        )
    else:
        head = tr(
            lang,
            "Table {table}: {team} win {won} to {lost}.",
            table=table_id,
            team=names[game.winner],
            **_scores(game),
        )
    house = rules_line(game.rules, lang)
    if house:
        head = f"{head}\n{house}"
    if outcome is None:
        return clip(head, CONTENT)
    if not outcome.rated:
        return clip(f"{head} {unrated_text(game, lang)}", CONTENT)
    moves = [f"<@{c.user_id}> {c.after} ({c.after - c.before:+d})" for c in outcome.changes]
    budget = CONTENT - len(head) - len(tr(lang, "Ratings: {changes}.", changes="")) - 1
    more = tr(lang, "… and {n} more")
    changes = fit_lines(moves, budget, more, ", ")
    ratings = tr(lang, "Ratings: {changes}.", changes=changes)
    return clip(f"{head} {ratings}", CONTENT)


def unrated_text(game: FinishedGame, lang: str = ENGLISH) -> str:
    """Why a game left the ratings alone: computer players, the coach's
    hints, or both (a game of four people with hints is not a computer game)."""
    if game.has_computer and game.hints:
        return tr(lang, "Not rated (computer players took part, and hints were on).")
    if game.hints:
        return tr(lang, "Not rated (the table had hints on).")
    return tr(lang, "Not rated (computer players took part).")


def game_record_text(game: FinishedGame, lang: str = ENGLISH) -> str:
    """The answer that comes with a game's files, with its house rules."""
    hands = len(game.hand_records)
    if game.winner is None:
        text = ntr(
            lang,
            "Game {game}: {n} hand, a draw at {won} to {lost}.",
            "Game {game}: {n} hands, a draw at {won} to {lost}.",
            hands,
            game=game.game_id,
            **_scores(game),
        )
    else:
        text = ntr(
            lang,
            "Game {game}: {n} hand, {team} won {won} to {lost}.",
            "Game {game}: {n} hands, {team} won {won} to {lost}.",
            hands,
            game=game.game_id,
            team=team_name(game.winner, lang),
            **_scores(game),
        )
    house = rules_line(game.rules, lang)
    return f"{text}\n{house}" if house else text
