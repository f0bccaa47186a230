"""The words about a finished hand or game: a hand's summary and a game's
result on the table message, the end-of-game post, a game's record answer,
and the team names its picture is labelled with."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.game.record import HandRecord
from bot.game.scoring import BLIND_NIL, NIL, TeamHandResult
from bot.game.sides import places, sides, solo
from bot.game.state import Game
from bot.game.types import EndReason, GameResult
from bot.i18n import ENGLISH, N_, ntr, tr
from bot.render.hand import bid_text
from bot.render.house_rules import rules_line
from bot.render.spec import (
    CONTENT,
    SEAT_NAMES,
    clip,
    computer_label,
    computer_name,
    fit_lines,
    seat_labels,
    seat_names,
    side_name,
    team_name,
)
from bot.stats.counting import RecordOutcome
from bot.stats.records import FinishedGame, SeatPlayer
from bot.tables.model import Table

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


def side_names(
    game: FinishedGame, user_name: UserName, *, plain: bool = False, lang: str = ENGLISH
) -> tuple[str, ...]:
    """The names of the game's sides: its two teams (:func:`team_names`),
    or in solo its four players."""
    if solo(game.rules):
        return tuple(seat_name(game.seats, s, user_name, plain=plain, lang=lang) for s in range(4))
    return team_names(game.seats, user_name, plain=plain, lang=lang)


def hand_summary(table: Table, record: HandRecord, lang: str = ENGLISH) -> str:
    """Bids, tricks, points, bags, Nils and Bostons of a finished hand."""
    labels = seat_labels(table, lang)
    bids = dict(record.bids)
    lines = []
    for side, seats in enumerate(sides(table.rules)):
        result: TeamHandResult = record.results[side]
        who = ", ".join(
            tr(
                lang,
                "{player} bid {bid} took {taken}",
                player=labels[s],
                bid=bid_text(bids.get(s), lang),
                taken=record.tricks_won[s],
            )
            for s in seats
        )
        parts = []
        if result.contract:  # a side whose players all bid Nil has no contract
            if result.made:
                parts.append(tr(lang, "contract {contract}: made", contract=result.contract))
            else:
                parts.append(tr(lang, "contract {contract}: set", contract=result.contract))
        parts.extend(_nil_results(record, bids, seats, lang))
        if result.new_bags:
            parts.append(ntr(lang, "+{n} bag", "+{n} bags", result.new_bags))
        if result.bag_penalty:
            parts.append(tr(lang, "bag penalty {points}", points=result.bag_penalty))
        if result.boston:
            parts.append(tr(lang, "Boston! (all 13 tricks)"))
        head = ntr(
            lang,
            "**{team}** {points} → {score} ({n} bag)",
            "**{team}** {points} → {score} ({n} bags)",
            result.bags_after,
            team=side_name(table.rules, side, lang),
            points=format(result.points, "+d"),
            score=record.score_after[side],
        )
        lines.append(f"{head} · {' · '.join(parts)}\n{who}")
    return "\n".join(lines)


def _nil_results(
    record: HandRecord, bids: dict[int, int], seats: tuple[int, ...], lang: str
) -> list[str]:
    """``Nil made (North)``, ``Blind Nil failed (South)``: each Nil of the side."""
    results = []
    for seat in seats:
        bid = bids.get(seat)
        made = record.tricks_won[seat] == 0
        where = tr(lang, SEAT_NAMES[seat])
        if bid == NIL:
            text = N_("Nil made ({seat})") if made else N_("Nil failed ({seat})")
            results.append(tr(lang, text, seat=where))
        elif bid == BLIND_NIL:
            text = N_("Blind Nil made ({seat})") if made else N_("Blind Nil failed ({seat})")
            results.append(tr(lang, text, seat=where))
    return results


#: Why a game ended, after the winner and the score.
_END_REASONS = {
    EndReason.TARGET: N_("**{team} win** ({won} to {lost}): reached {target}."),
    EndReason.LOSING_SCORE: N_(
        "**{team} win** ({won} to {lost}): the other team fell to {losing}."
    ),
    EndReason.REVOKE: N_("**{team} win** ({won} to {lost}): revoke proven against {player}."),
    EndReason.FALSE_CLAIM: N_(
        "**{team} win** ({won} to {lost}): {player} called a revoke that did not happen."
    ),
    EndReason.RESIGNATION: N_("**{team} win** ({won} to {lost}): {player} resigned."),
    EndReason.TIMEOUT: N_("**{team} win** ({won} to {lost}): {player} let the turn limit pass."),
}


#: The same for a solo game: one player wins.
_SOLO_END_REASONS = {
    EndReason.TARGET: N_("**{player} wins**: reached {target}."),
    EndReason.LOSING_SCORE: N_("**{player} wins**: a player fell to {losing}."),
    EndReason.REVOKE: N_("**{player} wins**: revoke proven against {culprit}."),
    EndReason.FALSE_CLAIM: N_("**{player} wins**: {culprit} called a revoke that did not happen."),
    EndReason.RESIGNATION: N_("**{player} wins**: {culprit} resigned."),
    EndReason.TIMEOUT: N_("**{player} wins**: {culprit} let the turn limit pass."),
}
#: A solo game's places, by place (1 to 4).
_PLACES = (N_("1st"), N_("2nd"), N_("3rd"), N_("4th"))


def standings(
    names: Sequence[str], scores: Sequence[int], winner: int | None, last: int | None, lang: str
) -> list[str]:
    """A solo game's four players by place: ``**1st** alice · 520 points``
    (bot.game.sides.places: the winner first, who lost the game outright last)."""
    placed = places(scores, winner, last)
    return [
        f"**{tr(lang, _PLACES[placed[seat] - 1])}** {names[seat]} · "
        + ntr(lang, "{n} point", "{n} points", scores[seat])
        for seat in sorted(range(len(scores)), key=lambda s: (placed[s], s))
    ]


def _solo_head(
    result: GameResult, names: Sequence[str], target: int, losing: int | None, lang: str
) -> str:
    """Who won a solo game, and why."""
    if result.reason is EndReason.MODERATOR:
        ended = tr(lang, "**Ended by a moderator.**")
        return f"{ended} {result.note}" if result.note else ended
    assert result.winner is not None  # a solo game only ends level when a moderator ends it
    culprit = names[result.seat] if result.seat is not None else tr(lang, "a player")
    return tr(
        lang,
        _SOLO_END_REASONS[result.reason],
        player=names[result.winner],
        culprit=culprit,
        target=target,
        losing=losing,
    )


def _lost_outright(result: GameResult) -> int | None:
    """The seat that lost the game by its own act (it is placed last)."""
    return None if result.reason in (EndReason.TARGET, EndReason.LOSING_SCORE) else result.seat


def result_text(table: Table, game: Game, lang: str = ENGLISH) -> str:
    result = game.result
    assert result is not None
    labels = seat_labels(table, lang)
    if solo(game.rules):
        rules = game.rules
        head = _solo_head(result, labels, rules.target, rules.losing_score, lang)
        ranks = standings(labels, game.scores, result.winner, _lost_outright(result), lang)
        return "\n".join((head, *ranks))
    if result.reason is EndReason.MODERATOR:
        ended = tr(
            lang,
            "**Ended by a moderator** at {first} to {second}.",
            first=game.scores[0],
            second=game.scores[1],
        )
        return f"{ended} {result.note}" if result.note else ended
    if result.winner is None:
        return tr(
            lang, "**Draw** at {first} to {second}.", first=game.scores[0], second=game.scores[1]
        )
    # The winner first, in the words and in the score.
    who = labels[result.seat] if result.seat is not None else tr(lang, "a player")
    return tr(
        lang,
        _END_REASONS[result.reason],
        team=team_name(result.winner, lang),
        won=game.scores[result.winner],
        lost=game.scores[1 - result.winner],
        target=table.rules.target,
        losing=table.rules.losing_score,
        player=who,
    )


def _scores(game: FinishedGame) -> dict[str, int]:
    """The final score, the winner's first: ``won`` and ``lost`` (written
    "250 to 120", never with a dash, which reads badly between negative scores)."""
    first = 0 if game.winner is None else game.winner
    return {"won": game.final_scores[first], "lost": game.final_scores[1 - first]}


def _solo_ranking(game: FinishedGame, names: Sequence[str], lang: str) -> tuple[str, str]:
    """Who won a finished solo game and why, and its four players by place."""
    result = GameResult(game.winner, game.reason, game.reason_seat, game.note)
    head = _solo_head(result, names, game.rules.target, game.rules.losing_score, lang)
    ranks = standings(names, game.final_scores, game.winner, _lost_outright(result), lang)
    return head, " · ".join(ranks)


def end_of_game_text(
    table_id: int,
    game: FinishedGame,
    names: Sequence[str],
    outcome: RecordOutcome | None,
    lang: str = ENGLISH,
) -> str:
    """The words posted with the end-of-game picture, in the table's
    ``lang``; ``names`` are the sides' (:func:`side_names`). Without
    ``outcome`` (the game was counted before a restart) the rating changes
    are not repeated."""
    if solo(game.rules):
        won, ranks = _solo_ranking(game, names, lang)
        where = tr(lang, "Table {table}:", table=table_id)
        head = f"{where} {won} {ranks}"
    elif game.reason is EndReason.MODERATOR:
        head = tr(
            lang,
            "Table {table}: ended by a moderator at {won} to {lost}: {why}",
            table=table_id,
            why=game.note or "-",
            **_scores(game),
        )
    elif game.winner is None:
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
    if game.reason is EndReason.MODERATOR:  # nothing is rated, whoever played
        return clip(f"{head} {tr(lang, 'Not rated.')}", CONTENT)
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
    if solo(game.rules):
        played = ntr(
            lang, "Game {game}: {n} hand.", "Game {game}: {n} hands.", hands, game=game.game_id
        )
        won, ranks = _solo_ranking(game, seat_names(lang), lang)
        text = f"{played} {won}\n{ranks}"
    elif game.winner is None:
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
