"""The public table message: everything everyone may see, and its buttons.

Drawn from a table snapshot. Only public facts appear: seats, bids, tricks
taken, cards already played, scores. No unplayed card is read here (the
``hands`` of the game are never touched), so nothing private can leak; the
one exception: the cards a player shows by claiming the rest of the tricks
(in this hand; they stay shown after a refusal), with who answers the claim
and the buttons to claim and to answer (not the turn clock's claim of the
game, ``Claim the win``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from bot.game.rest_claim import claimable, refused_this_turn, tricks_left
from bot.game.rules import RuleSet
from bot.game.sides import side_of, solo
from bot.game.state import Game
from bot.game.types import Phase
from bot.i18n import N_, ntr, tr
from bot.render.clock_text import duration_text
from bot.render.decks import Style, cards_text
from bot.render.hand import bid_text, trick_line, tricks_over_bid
from bot.render.house_rules import rules_line
from bot.render.results import hand_summary, result_text
from bot.render.seat_request import seat_request_field, seat_request_rows
from bot.render.spec import (
    FIELD_VALUE,
    OPTION_LABEL,
    Act,
    ButtonSpec,
    ComponentId,
    EmbedSpec,
    Field,
    MakeButton,
    MessageSpec,
    Row,
    SelectOption,
    SelectSpec,
    clip,
    fit_embed,
    fit_lines,
    seat_label,
    seat_labels,
    seat_name,
    seat_names,
    team_name,
)
from bot.tables.model import Table, TableOptions, TableStatus

GREEN, BLUE, GOLD, GREY = 0x3BA55C, 0x5865F2, 0xF1C40F, 0x747F8D
#: The answers to a claim of the rest (the argument of its buttons).
ACCEPT, REFUSE = "accept", "refuse"


@lru_cache(maxsize=1024)
def _settings_line(host_id: int, o: TableOptions, rules: RuleSet, stand_in: bool, lang: str) -> str:
    """The table's settings in words, its house rules on a line of their own.
    Kept for each set of settings: they change in the lobby only, so every
    message of a game reuses their words (the house rules' are the costly ones)."""
    limit = duration_text(lang, o.turn_limit_s)
    parts = [
        tr(lang, "Host <@{host}>", host=host_id),
        tr(lang, "game to {target}", target=rules.target),
        tr(lang, "revokes allowed") if o.revokes == "allowed" else tr(lang, "revokes blocked"),
        tr(lang, "{preset} rules", preset=o.preset),
        tr(lang, "turn limit {limit} (then a computer plays for the late player)", limit=limit)
        if stand_in
        else tr(lang, "turn limit {limit}", limit=limit),
    ]
    if o.hints:
        parts.append(tr(lang, "hints on"))
    line = " · ".join(parts)
    house = rules_line(rules, lang)
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
    settings = _settings_line(table.host_id, table.options, table.rules, stand_in, lang)
    description = [settings]
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
    if table.solo:
        return tr(lang, "**All four seated.** The host starts the game.")
    return tr(lang, "**All four seated.** The host picks a partner, then starts the game.")


def _lobby_seats(table: Table, lang: str) -> str:
    lines = []
    for seat in range(4):
        name, label = seat_name(seat, lang), seat_label(table, seat, lang)
        if seat == 0:
            lines.append(tr(lang, "**{seat}** {player} (host)", seat=name, player=label))
        else:
            lines.append(f"**{name}** {label}")
    if table.solo:
        lines.append(tr(lang, "Solo: each player plays on their own."))
    else:
        lines.append(tr(lang, "South & North play against West & East."))
    return "\n".join(lines)


def _game_fields(table: Table, game: Game, claim_open: bool, lang: str) -> list[Field]:
    if solo(game.rules):
        fields = [_player_field(table, game, seat, lang) for seat in range(4)]
    else:
        fields = [_team_field(table, game, team, lang) for team in (0, 1)]
    if game.phase is Phase.BIDDING or game.phase is Phase.PLAYING:
        fields.append(_play_field(table, game, claim_open, lang))
    if game.phase is Phase.PASSING:
        fields.append(_pass_field(table, game, claim_open, lang))
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
    if game.phase is Phase.HAND_OVER:  # seat requests are made between hands
        request = seat_request_field(table, seat_labels(table, lang), seat_names(lang), lang)
        if request is not None:
            fields.append(request)
    if game.result is not None:
        fields.append(Field(tr(lang, "Result"), result_text(table, game, lang)))
    return fields


def _score_header(name: str, game: Game, side: int, lang: str) -> str:
    """``South & North · 120 points · 3 bags``: a side's name and standing."""
    return " · ".join(
        (
            name,
            ntr(lang, "{n} point", "{n} points", game.scores[side]),
            ntr(lang, "{n} bag", "{n} bags", game.bags[side]),
        )
    )


def _seat_line(table: Table, game: Game, seat: int, lang: str) -> str:
    """A player, with their bid and tricks (taken/bid) while a hand is on."""
    parts = [f"**{seat_name(seat, lang)}** {seat_label(table, seat, lang)}"]
    showing_hand = game.phase in (Phase.BIDDING, Phase.PASSING, Phase.PLAYING)
    if showing_hand:
        bid = game.bids[seat]
        parts.append(tr(lang, "bid {bid}", bid=bid_text(bid, lang)))
        if game.phase is Phase.PLAYING:
            over = tricks_over_bid(game.tricks_won[seat], bid)
            parts.append(tr(lang, "tricks {taken}", taken=over))
        if seat == game.dealer:
            parts.append(tr(lang, "dealer"))
    return " · ".join(parts)


def _player_field(table: Table, game: Game, seat: int, lang: str) -> Field:
    """A solo player's field: their own score and bags, bid and tricks."""
    header = _score_header(seat_name(seat, lang), game, seat, lang)
    return Field(header, _seat_line(table, game, seat, lang))


def _team_field(table: Table, game: Game, team: int, lang: str) -> Field:
    header = _score_header(team_name(team, lang), game, team, lang)
    lines = [_seat_line(table, game, seat, lang) for seat in (team, team + 2)]
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
            lines.append(_claim_line(game, to_act, lang))
    return Field(name, "\n".join(lines))


def _claim_line(game: Game, late: int, lang: str) -> str:
    """Who may claim the game from the late seat ``late``."""
    if solo(game.rules):
        return tr(lang, "The turn limit has passed: another player may claim the game.")
    team = team_name(1 - side_of(game.rules, late), lang)
    return tr(lang, "The turn limit has passed: {team} may claim the game.", team=team)


def _pass_field(table: Table, game: Game, claim_open: bool, lang: str) -> Field:
    """Who is still choosing the cards they pass: names, never cards."""
    labels = seat_labels(table, lang)
    players = ", ".join(labels[s] for s in game.exchange.choosing())
    since = f"<t:{int(game.waiting_since)}:R>"
    line = N_("Still choosing the cards they pass: {players} (waiting since {since})")
    lines = [tr(lang, line, players=players, since=since)]
    late = game.waited_on()
    if claim_open and late is not None:
        lines.append(_claim_line(game, late, lang))
    name = tr(lang, "Hand {hand} · the Nil pass", hand=game.hand_number)
    return Field(name, "\n".join(lines))


def rest_claim_field(game: Game, labels: Sequence[str], lang: str) -> Field | None:
    """The claim waiting for answers and the cards claims showed, during play."""
    rest = game.rest
    if game.phase is not Phase.PLAYING or not rest.shown:
        return None
    lines = []
    if rest.waiting:
        answering = [labels[seat] for seat in rest.opponents() if not rest.accepted >> seat & 1]
        lines.append(
            ntr(
                lang,
                "{player} claims the {n} remaining trick. {opponents}: accept or refuse.",
                "{player} claims the {n} remaining tricks. {opponents}: accept or refuse.",
                tricks_left(game),
                player=labels[rest.claimer],
                opponents=", ".join(answering),
            )
        )
    for seat in range(4):
        if rest.shows(seat) and game.hands[seat]:
            cards = cards_text(game.hands[seat], lang)
            lines.append(tr(lang, "{player}'s cards: {cards}", player=labels[seat], cards=cards))
    if not rest.waiting:
        lines.append(tr(lang, "The claim was refused: play goes on."))
        on_turn = game.waited_on()
        if on_turn is not None and refused_this_turn(game, on_turn):
            lines.append(
                tr(lang, "{player} may claim again on their next turn.", player=labels[on_turn])
            )
    return Field(tr(lang, "Claim of the rest"), "\n".join(lines))


def rest_claim_buttons(table: Table, game: Game, button: MakeButton, lang: str) -> list[ButtonSpec]:
    """Accept and Refuse while a claim waits; else **Claim the rest** when a
    person is on turn to play (computer players never claim)."""
    if game.phase is not Phase.PLAYING:
        return []
    if game.rest.waiting:
        return [
            button(Act.ANSWER_REST, tr(lang, "Accept the claim"), Style.GREEN, ACCEPT),
            button(Act.ANSWER_REST, tr(lang, "Refuse the claim"), Style.RED, REFUSE),
        ]
    seat = game.waited_on()
    if seat is not None and claimable(game, seat) and not table.seats[seat].is_computer:
        return [button(Act.CLAIM_REST, tr(lang, "Claim the rest"), Style.GREY, None)]
    return []


def _footer(table: Table, game: Game | None, lang: str) -> str:
    if table.status is TableStatus.LOBBY:
        return tr(lang, "Play moves South → West → North → East.")
    if table.status is TableStatus.FINISHED and not table.options.rematch:
        return tr(lang, "A tournament match: its result goes to the bracket.")
    if table.status is TableStatus.FINISHED and table.solo:
        return tr(lang, "Rematch keeps every player in their seat.")
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
        if full and not table.solo:  # solo: nobody has a partner
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
        if game.phase is Phase.HAND_OVER:  # seat requests are made between hands
            seats = seat_request_rows(table, away_seats, seat_names(lang), button, lang)
            return [tuple(row), *seats]
        rest_claim = rest_claim_buttons(table, game, button, lang)
        return [tuple(row), *([tuple(rest_claim)] if rest_claim else [])]
    if status is TableStatus.FINISHED and table.options.rematch and table.solo:
        return [(button(Act.REMATCH, tr(lang, "Rematch"), Style.GREEN, "same"),)]
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
