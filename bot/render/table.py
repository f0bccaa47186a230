"""The public table message: everything everyone may see, and its buttons.

Drawn from a table snapshot. Only public facts appear: seats, bids, tricks
taken, cards already played, scores. No unplayed card is read here (the
``hands`` of the game are never touched), so nothing private can leak; the
one exception, the cards a player shows by claiming the rest of the tricks,
is drawn by :mod:`bot.render.rest_claim`.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.game.record import HandRecord
from bot.game.scoring import BLIND_NIL, NIL, TeamHandResult
from bot.game.state import Game
from bot.game.types import EndReason, Phase, team_of
from bot.i18n import ENGLISH, N_, ntr, tr
from bot.render.decks import Style
from bot.render.durations import duration_text
from bot.render.hand import bid_text, trick_line, tricks_over_bid
from bot.render.house_rules import rules_line
from bot.render.names import computer_label
from bot.render.rest_claim import rest_claim_buttons, rest_claim_field
from bot.render.seat_request import seat_request_field, seat_request_rows
from bot.render.spec import (
    FIELD_VALUE,
    OPTION_LABEL,
    Act,
    ButtonSpec,
    ComponentId,
    EmbedSpec,
    Field,
    MessageSpec,
    Row,
    SelectOption,
    SelectSpec,
    clip,
    fit_embed,
    fit_lines,
)
from bot.tables.model import Table, TableStatus

SEAT_NAMES = (N_("South"), N_("West"), N_("North"), N_("East"))
TEAM_NAMES = (N_("South & North"), N_("West & East"))
GREEN, BLUE, GOLD, GREY = 0x3BA55C, 0x5865F2, 0xF1C40F, 0x747F8D


def seat_name(seat: int, lang: str = ENGLISH) -> str:
    """``South``, ``West``, ``North``, ``East`` in ``lang``."""
    return tr(lang, SEAT_NAMES[seat])


def seat_names(lang: str = ENGLISH) -> list[str]:
    return [seat_name(seat, lang) for seat in range(4)]


def team_name(team: int, lang: str = ENGLISH) -> str:
    """``South & North`` (team 0) or ``West & East`` (team 1) in ``lang``."""
    return tr(lang, TEAM_NAMES[team])


def seat_label(table: Table, seat: int, lang: str = ENGLISH) -> str:
    """How the seat is named in public text: ``<@id>`` or the seat's computer
    player, like ``🤖 Wren (random)``."""
    occupant = table.seats[seat]
    if occupant.user_id is not None:
        return f"<@{occupant.user_id}>"
    if occupant.computer_level is not None:
        return computer_label(seat, occupant.computer_level, lang)
    return tr(lang, "(empty)")


def seat_labels(table: Table, lang: str = ENGLISH) -> list[str]:
    return [seat_label(table, s, lang) for s in range(4)]


def options_line(table: Table, stand_in: bool = False, lang: str = ENGLISH) -> str:
    o = table.options
    limit = duration_text(lang, o.turn_limit_s)
    parts = [
        tr(lang, "Host <@{host}>", host=table.host_id),
        tr(lang, "game to {target}", target=table.rules.target),
        tr(lang, "revokes allowed") if o.revokes == "allowed" else tr(lang, "revokes blocked"),
        tr(lang, "{preset} rules", preset=o.preset),
        tr(lang, "turn limit {limit} (then a computer plays for the late player)", limit=limit)
        if stand_in
        else tr(lang, "turn limit {limit}", limit=limit),
    ]
    if o.hints:
        parts.append(tr(lang, "hints on"))
    line = " · ".join(parts)
    house = rules_line(table.rules, lang)
    return f"{line}\n{house}" if house else line


def table_message(
    table: Table,
    *,
    claim_open: bool = False,
    stand_in: bool = False,
    partner_names: Sequence[str] | None = None,
    lang: str | None = None,
    away_seats: frozenset[int] = frozenset(),
) -> MessageSpec:
    """The whole public message, in ``lang`` (the table's language when left
    out). ``partner_names`` are plain-text names of the four seats for the
    host's partner menu (menus cannot show mentions); ``claim_open`` says the
    turn clock lets the other team claim the game, and ``stand_in`` that a
    computer takes late players' turns instead (``away_seats``: where it does now)."""
    lang = table.language if lang is None else lang
    game = table.game
    if table.game_number > 1:
        title = tr(
            lang, "Spades · table {table} · game {game}", table=table.id, game=table.game_number
        )
    else:
        title = tr(lang, "Spades · table {table}", table=table.id)
    fields: list[Field] = []
    description = [options_line(table, stand_in, lang)]
    colour = GREY
    if table.status is TableStatus.LOBBY:
        colour = BLUE
        description.append(_lobby_line(table, lang))
        fields.append(Field(tr(lang, "Seats"), _lobby_seats(table, lang)))
    elif table.status is TableStatus.CANCELLED:
        description.append(_closed_line(table, lang))
        fields.append(Field(tr(lang, "Seats"), _lobby_seats(table, lang)))
    elif game is not None:
        colour = GOLD if table.status is TableStatus.FINISHED else GREEN
        fields.extend(_game_fields(table, game, claim_open, lang))
    if table.spectators:
        watching = [f"<@{u}>" for u in table.spectators]
        more = tr(lang, "… and {n} more")
        fields.append(Field(tr(lang, "Watching"), fit_lines(watching, FIELD_VALUE, more, ", ")))
    embed = fit_embed(
        EmbedSpec(
            title=title,
            description="\n".join(description),
            fields=tuple(fields),
            footer=_footer(table, game, lang),
            colour=colour,
        )
    )
    rows = _rows(table, game, claim_open, partner_names, lang, away_seats)
    return MessageSpec(embed=embed, rows=tuple(rows))


def _closed_line(table: Table, lang: str) -> str:
    """Who closed the table before its game began: the host, or a moderator
    (then with their reason, as a game a moderator ends shows it)."""
    if table.closing_note is None:
        return tr(lang, "The host closed this table.")
    ended = tr(lang, "**Ended by a moderator** before the game began.")
    return f"{ended} {table.closing_note}"


def _lobby_line(table: Table, lang: str) -> str:
    seated = table.seated_count
    if seated < 4:
        return ntr(
            lang,
            "**{n} of 4 seated.** Press Join to take a seat; later arrivals watch. "
            "The host can fill empty seats with computer players.",
            "**{n} of 4 seated.** Press Join to take a seat; later arrivals watch. "
            "The host can fill empty seats with computer players.",
            seated,
        )
    return tr(lang, "**All four seated.** The host picks a partner, then starts the game.")


def _lobby_seats(table: Table, lang: str) -> str:
    lines = []
    for seat in range(4):
        name, label = seat_name(seat, lang), seat_label(table, seat, lang)
        if seat == 0:
            lines.append(tr(lang, "**{seat}** {player} (host)", seat=name, player=label))
        else:
            lines.append(f"**{name}** {label}")
    lines.append(tr(lang, "South & North play against West & East."))
    return "\n".join(lines)


def _game_fields(table: Table, game: Game, claim_open: bool, lang: str) -> list[Field]:
    fields = [_team_field(table, game, team, lang) for team in (0, 1)]
    if game.phase is Phase.BIDDING or game.phase is Phase.PLAYING:
        fields.append(_play_field(table, game, claim_open, lang))
    rest_claim = rest_claim_field(game, seat_labels(table, lang), lang)
    if rest_claim is not None:
        fields.append(rest_claim)
    record = game.hand_records[-1] if game.hand_records else None
    hand_done = game.phase is Phase.HAND_OVER or (
        game.phase is Phase.GAME_OVER and record is not None and record.hand == game.hand_number
    )
    if hand_done and record is not None:
        fields.append(
            Field(
                tr(lang, "Hand {hand} result", hand=record.hand),
                hand_summary(table, record, lang),
            )
        )
    if game.phase is Phase.HAND_OVER and table.rules.revokes == "allowed":
        fields.append(
            Field(
                tr(lang, "Next hand"),
                tr(
                    lang,
                    "Anyone seated presses **Next hand** to deal. Until then, "
                    "`/revoke player:@name` calls a revoke on an opponent.",
                ),
            )
        )
    request = seat_request_field(table, seat_labels(table, lang), seat_names(lang), lang)
    if request is not None:
        fields.append(request)
    if game.result is not None:
        fields.append(Field(tr(lang, "Result"), result_text(table, game, lang)))
    return fields


def _team_field(table: Table, game: Game, team: int, lang: str) -> Field:
    header = " · ".join(
        (
            team_name(team, lang),
            ntr(lang, "{n} point", "{n} points", game.scores[team]),
            ntr(lang, "{n} bag", "{n} bags", game.bags[team]),
        )
    )
    lines = []
    showing_hand = game.phase is Phase.BIDDING or game.phase is Phase.PLAYING
    for seat in (team, team + 2):
        parts = [f"**{seat_name(seat, lang)}** {seat_label(table, seat, lang)}"]
        if showing_hand:
            bid = game.bids[seat]
            parts.append(tr(lang, "bid {bid}", bid=bid_text(bid, lang)))
            if game.phase is Phase.PLAYING:
                over = tricks_over_bid(game.tricks_won[seat], bid)
                parts.append(tr(lang, "tricks {taken}", taken=over))
        if seat == game.dealer and showing_hand:
            parts.append(tr(lang, "dealer"))
        lines.append(" · ".join(parts))
    if game.phase is Phase.PLAYING:
        taken = game.tricks_won[team] + game.tricks_won[team + 2]
        lines.append(
            tr(lang, "Team: {taken}/{contract}", taken=taken, contract=game.contract(team))
        )
    return Field(header, "\n".join(lines))


def _play_field(table: Table, game: Game, claim_open: bool, lang: str) -> Field:
    labels = seat_labels(table, lang)
    to_act = game.waited_on()
    lines = []
    bidding = game.phase is Phase.BIDDING
    if bidding:
        name = tr(lang, "Hand {hand} · bidding", hand=game.hand_number)
    else:
        name = tr(
            lang,
            "Hand {hand} · trick {trick} of 13",
            hand=game.hand_number,
            trick=len(game.tricks) + 1,
        )
        lines.append(trick_line(game.leader, game.trick, labels, lang))
        if game.tricks:
            last = game.tricks[-1]
            lines.append(
                tr(
                    lang,
                    "Last trick: {trick} → {winner}",
                    trick=trick_line(last.leader, last.cards, labels, lang),
                    winner=labels[last.winner],
                )
            )
        if game.spades_broken:
            lines.append(tr(lang, "Spades are broken."))
        else:
            lines.append(tr(lang, "Spades are not broken yet."))
    if to_act is not None:
        since = f"<t:{int(game.waiting_since)}:R>"
        player = labels[to_act]
        if bidding:
            turn = N_("**Turn:** {player} to bid (waiting since {since})")
            lines.append(tr(lang, turn, player=player, since=since))
        elif game.rest.waiting:
            turn = N_("**Turn:** {player} to answer the claim (waiting since {since})")
            lines.append(tr(lang, turn, player=player, since=since))
        else:
            turn = N_("**Turn:** {player} to play (waiting since {since})")
            lines.append(tr(lang, turn, player=player, since=since))
        if claim_open:
            lines.append(
                tr(
                    lang,
                    "The turn limit has passed: {team} may claim the game.",
                    team=team_name(1 - team_of(to_act), lang),
                )
            )
    return Field(name, "\n".join(lines))


def hand_summary(table: Table, record: HandRecord, lang: str = ENGLISH) -> str:
    """Bids, tricks, points, bags, Nils and Bostons of a finished hand."""
    labels = seat_labels(table, lang)
    bids = dict(record.bids)
    lines = []
    for team in (0, 1):
        result: TeamHandResult = record.results[team]
        seats = (team, team + 2)
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
        if result.contract:  # a team whose two players bid Nil has no contract
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
            team=team_name(team, lang),
            points=format(result.points, "+d"),
            score=record.score_after[team],
        )
        lines.append(f"{head} · {' · '.join(parts)}\n{who}")
    return "\n".join(lines)


def _nil_results(
    record: HandRecord, bids: dict[int, int], seats: tuple[int, int], lang: str
) -> list[str]:
    """``Nil made (North)``, ``Blind Nil failed (South)``: each Nil of the team."""
    results = []
    for seat in seats:
        bid = bids.get(seat)
        made = record.tricks_won[seat] == 0
        where = seat_name(seat, lang)
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


def result_text(table: Table, game: Game, lang: str = ENGLISH) -> str:
    result = game.result
    assert result is not None
    labels = seat_labels(table, lang)
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


def _footer(table: Table, game: Game | None, lang: str) -> str:
    if table.status is TableStatus.LOBBY:
        return tr(lang, "Play moves South → West → North → East.")
    if table.status is TableStatus.FINISHED and not table.options.rematch:
        return tr(lang, "A tournament match: its result goes to the bracket.")
    if table.status is TableStatus.FINISHED:
        return tr(lang, "Rematch keeps the teams or swaps the host's partner.")
    if game is not None and table.status is TableStatus.PLAYING:
        return tr(lang, "Your cards: press My hand or use /spades hand. Only you see them.")
    return ""


def _rows(
    table: Table,
    game: Game | None,
    claim_open: bool,
    partner_names: Sequence[str] | None,
    lang: str,
    away_seats: frozenset[int],
) -> list[Row]:
    def button(
        act: Act,
        label: str,
        style: Style = Style.GREY,
        arg: str | None = None,
        disabled: bool = False,
    ) -> ButtonSpec:
        custom_id = str(ComponentId(act, table.id, table.version, arg))
        return ButtonSpec(custom_id, label, style, None, disabled)

    status = table.status
    if status is TableStatus.LOBBY:
        full = table.seated_count == 4
        rows: list[Row] = [
            (
                button(Act.JOIN, tr(lang, "Join"), Style.GREEN),
                button(Act.LEAVE, tr(lang, "Leave")),
                button(Act.COMPUTERS, tr(lang, "Add computer players"), disabled=full),
                button(Act.START, tr(lang, "Start"), Style.BLURPLE, disabled=not full),
                house_rules_button(table, lang),
            )
        ]
        if full:
            names = partner_names or [seat_name(s, lang) for s in range(4)]
            rows.append(
                SelectSpec(
                    str(ComponentId(Act.PARTNER, table.id, table.version)),
                    tr(lang, "Host: choose your partner"),
                    tuple(
                        SelectOption(
                            str(s), clip(f"{names[s]} ({seat_name(s, lang)})", OPTION_LABEL)
                        )
                        for s in (1, 2, 3)
                    ),
                )
            )
        return rows
    if status is TableStatus.PLAYING and game is not None:
        row = [button(Act.HAND, tr(lang, "My hand"), Style.BLURPLE)]
        if game.phase is Phase.HAND_OVER:
            row.append(button(Act.NEXT_HAND, tr(lang, "Next hand"), Style.GREEN))
        else:
            row.append(button(Act.JOIN, tr(lang, "Watch")))
        if claim_open and game.waited_on() is not None:
            row.append(button(Act.CLAIM, tr(lang, "Claim the win"), Style.RED))
        rest_claim = rest_claim_buttons(table, game, button, lang)
        seats = seat_request_rows(table, away_seats, seat_names(lang), button, lang)
        return [tuple(row), *([tuple(rest_claim)] if rest_claim else []), *seats]
    if status is TableStatus.FINISHED and table.options.rematch:
        return [
            (
                button(Act.REMATCH, tr(lang, "Rematch: same teams"), Style.GREEN, "same"),
                button(Act.REMATCH, tr(lang, "Rematch: swap teams"), Style.BLURPLE, "swap"),
            )
        ]
    return []


def house_rules_button(table: Table, lang: str) -> ButtonSpec:
    """The lobby's button that opens the host's house rules menus."""
    return ButtonSpec(str(ComponentId(Act.HOUSE, table.id, table.version)), tr(lang, "House rules"))
