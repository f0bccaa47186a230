"""The public table message: everything everyone may see, and its buttons.

Drawn from a table snapshot. Only public facts appear: seats, bids, tricks
taken, cards already played, scores. No unplayed card is read here (the
``hands`` of the game are never touched), so nothing private can leak.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.game.durations import format_duration
from bot.game.record import HandRecord
from bot.game.scoring import BLIND_NIL, NIL, TeamHandResult
from bot.game.state import Game
from bot.game.types import EndReason, Phase, team_of
from bot.render.decks import Style
from bot.render.hand import bid_text, trick_line, tricks_over_bid
from bot.render.ids import Act, ComponentId
from bot.render.limits import FIELD_VALUE, OPTION_LABEL, clip, fit_embed, fit_lines
from bot.render.names import computer_label
from bot.render.spec import (
    ButtonSpec,
    EmbedSpec,
    Field,
    MessageSpec,
    Row,
    SelectOption,
    SelectSpec,
)
from bot.tables.model import Table, TableStatus

SEAT_NAMES = ("South", "West", "North", "East")
TEAM_NAMES = ("South & North", "West & East")
GREEN, BLUE, GOLD, GREY = 0x3BA55C, 0x5865F2, 0xF1C40F, 0x747F8D

#: Seat labels for text: a mention for people, a plain label for computers.


def seat_label(table: Table, seat: int) -> str:
    """How the seat is named in public text: ``<@id>`` or the seat's computer
    player, like ``🤖 Wren (random)``."""
    occupant = table.seats[seat]
    if occupant.user_id is not None:
        return f"<@{occupant.user_id}>"
    if occupant.computer_level is not None:
        return computer_label(seat, occupant.computer_level)
    return "(empty)"


def seat_labels(table: Table) -> list[str]:
    return [seat_label(table, s) for s in range(4)]


def options_line(table: Table, stand_in: bool = False) -> str:
    o = table.options
    revokes = "revokes allowed" if o.revokes == "allowed" else "revokes blocked"
    late = " (then a computer plays for the late player)" if stand_in else ""
    hints = " · hints on" if o.hints else ""
    return (
        f"Host <@{table.host_id}> · game to {o.target} · {revokes} · "
        f"{o.preset} rules · turn limit {format_duration(o.turn_limit_s)}{late}{hints}"
    )


def table_message(
    table: Table,
    *,
    claim_open: bool = False,
    stand_in: bool = False,
    partner_names: Sequence[str] | None = None,
) -> MessageSpec:
    """The whole public message. ``partner_names`` are plain-text names of
    the four seats for the host's partner menu (menus cannot show mentions);
    ``claim_open`` says the turn clock lets the other team claim the game, and
    ``stand_in`` that a computer takes late players' turns instead."""
    game = table.game
    title = f"Spades · table {table.id}"
    if table.game_number > 1:
        title += f" · game {table.game_number}"
    fields: list[Field] = []
    description = [options_line(table, stand_in)]
    colour = GREY
    if table.status is TableStatus.LOBBY:
        colour = BLUE
        description.append(_lobby_line(table))
        fields.append(Field("Seats", _lobby_seats(table)))
    elif table.status is TableStatus.CANCELLED:
        description.append("The host closed this table.")
        fields.append(Field("Seats", _lobby_seats(table)))
    elif game is not None:
        colour = GOLD if table.status is TableStatus.FINISHED else GREEN
        fields.extend(_game_fields(table, game, claim_open))
    if table.spectators:
        watching = [f"<@{u}>" for u in table.spectators]
        fields.append(Field("Watching", fit_lines(watching, FIELD_VALUE, sep=", ")))
    embed = fit_embed(
        EmbedSpec(
            title=title,
            description="\n".join(description),
            fields=tuple(fields),
            footer=_footer(table, game),
            colour=colour,
        )
    )
    return MessageSpec(embed=embed, rows=tuple(_rows(table, game, claim_open, partner_names)))


def _lobby_line(table: Table) -> str:
    seated = table.seated_count
    if seated < 4:
        return (
            f"**{seated} of 4 seated.** Press Join to take a seat; later arrivals watch. "
            "The host can fill empty seats with computer players."
        )
    return "**All four seated.** The host picks a partner, then starts the game."


def _lobby_seats(table: Table) -> str:
    lines = []
    for seat in range(4):
        host = " (host)" if seat == 0 else ""
        lines.append(f"**{SEAT_NAMES[seat]}** {seat_label(table, seat)}{host}")
    lines.append("South & North play against West & East.")
    return "\n".join(lines)


def _game_fields(table: Table, game: Game, claim_open: bool) -> list[Field]:
    fields = [_team_field(table, game, team) for team in (0, 1)]
    if game.phase is Phase.BIDDING or game.phase is Phase.PLAYING:
        fields.append(_play_field(table, game, claim_open))
    record = game.hand_records[-1] if game.hand_records else None
    hand_done = game.phase is Phase.HAND_OVER or (
        game.phase is Phase.GAME_OVER and record is not None and record.hand == game.hand_number
    )
    if hand_done and record is not None:
        fields.append(Field(f"Hand {record.hand} result", hand_summary(table, record)))
    if game.phase is Phase.HAND_OVER and table.rules.revokes == "allowed":
        fields.append(
            Field(
                "Next hand",
                "Anyone seated presses **Next hand** to deal. Until then, "
                "`/revoke player:@name` calls a revoke on an opponent.",
            )
        )
    if game.result is not None:
        fields.append(Field("Result", result_text(table, game)))
    return fields


def _team_field(table: Table, game: Game, team: int) -> Field:
    header = (
        f"{TEAM_NAMES[team]} · {game.scores[team]} points · "
        f"{game.bags[team]} bag{'s' if game.bags[team] != 1 else ''}"
    )
    lines = []
    showing_hand = game.phase is Phase.BIDDING or game.phase is Phase.PLAYING
    for seat in (team, team + 2):
        parts = [f"**{SEAT_NAMES[seat]}** {seat_label(table, seat)}"]
        if showing_hand:
            bid = game.bids[seat]
            parts.append(f"bid {bid_text(bid)}")
            if game.phase is Phase.PLAYING:
                parts.append(f"tricks {tricks_over_bid(game.tricks_won[seat], bid)}")
        if seat == game.dealer and showing_hand:
            parts.append("dealer")
        lines.append(" · ".join(parts))
    if game.phase is Phase.PLAYING:
        taken = game.tricks_won[team] + game.tricks_won[team + 2]
        lines.append(f"Team: {taken}/{game.contract(team)}")
    return Field(header, "\n".join(lines))


def _play_field(table: Table, game: Game, claim_open: bool) -> Field:
    labels = seat_labels(table)
    to_act = game.waited_on()
    lines = []
    if game.phase is Phase.BIDDING:
        name = f"Hand {game.hand_number} · bidding"
        verb = "bid"
    else:
        name = f"Hand {game.hand_number} · trick {len(game.tricks) + 1} of 13"
        verb = "play"
        lines.append(trick_line(game.leader, game.trick, labels))
        if game.tricks:
            last = game.tricks[-1]
            lines.append(
                f"Last trick: {trick_line(last.leader, last.cards, labels)} → {labels[last.winner]}"
            )
        lines.append("Spades are broken." if game.spades_broken else "Spades are not broken yet.")
    if to_act is not None:
        since = int(game.waiting_since)
        lines.append(f"**Turn:** {labels[to_act]} to {verb} (waiting since <t:{since}:R>)")
        if claim_open:
            lines.append(
                f"The turn limit has passed: {TEAM_NAMES[1 - team_of(to_act)]} may claim the game."
            )
    return Field(name, "\n".join(lines))


def hand_summary(table: Table, record: HandRecord) -> str:
    """Bids, tricks, points, bags, Nils and Bostons of a finished hand."""
    labels = seat_labels(table)
    bids = dict(record.bids)
    lines = []
    for team in (0, 1):
        result: TeamHandResult = record.results[team]
        seats = (team, team + 2)
        who = ", ".join(
            f"{labels[s]} bid {bid_text(bids.get(s))} took {record.tricks_won[s]}" for s in seats
        )
        parts = []
        if result.contract:  # a team whose two players bid Nil has no contract
            parts.append(f"contract {result.contract}: {'made' if result.made else 'set'}")
        parts.extend(_nil_results(record, bids, seats))
        if result.new_bags:
            parts.append(f"+{result.new_bags} bag{'s' if result.new_bags != 1 else ''}")
        if result.bag_penalty:
            parts.append(f"bag penalty {result.bag_penalty}")
        if result.boston:
            parts.append("Boston! (all 13 tricks)")
        sign = "+" if result.points >= 0 else ""
        lines.append(
            f"**{TEAM_NAMES[team]}** {sign}{result.points} → {record.score_after[team]} "
            f"({result.bags_after} bags) · {' · '.join(parts)}\n{who}"
        )
    return "\n".join(lines)


def _nil_results(record: HandRecord, bids: dict[int, int], seats: tuple[int, int]) -> list[str]:
    """``Nil made (North)``, ``Blind Nil failed (South)``: each Nil of the team."""
    results = []
    for seat in seats:
        bid = bids.get(seat)
        if bid in (NIL, BLIND_NIL):
            made = "made" if record.tricks_won[seat] == 0 else "failed"
            results.append(f"{bid_text(bid)} {made} ({SEAT_NAMES[seat]})")
    return results


def result_text(table: Table, game: Game) -> str:
    result = game.result
    assert result is not None
    labels = seat_labels(table)
    if result.winner is None:
        return f"**Draw** at {game.scores[0]} to {game.scores[1]}."
    # The winner first, in the words and in the score.
    won, lost = game.scores[result.winner], game.scores[1 - result.winner]
    winner = f"**{TEAM_NAMES[result.winner]} win** ({won} to {lost})"
    who = labels[result.seat] if result.seat is not None else "a player"
    reasons = {
        EndReason.TARGET: f"reached {table.rules.target}",
        EndReason.LOSING_SCORE: f"the other team fell to {table.rules.losing_score}",
        EndReason.REVOKE: f"revoke proven against {who}",
        EndReason.FALSE_CLAIM: f"{who} called a revoke that did not happen",
        EndReason.RESIGNATION: f"{who} resigned",
        EndReason.TIMEOUT: f"{who} let the turn limit pass",
    }
    return f"{winner}: {reasons[result.reason]}."


def _footer(table: Table, game: Game | None) -> str:
    if table.status is TableStatus.LOBBY:
        return "Play moves South → West → North → East."
    if table.status is TableStatus.FINISHED:
        return "Rematch keeps the teams or swaps the host's partner."
    if game is not None and table.status is TableStatus.PLAYING:
        return "Your cards: press My hand or use /spades hand. Only you see them."
    return ""


def _rows(
    table: Table, game: Game | None, claim_open: bool, partner_names: Sequence[str] | None
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
                button(Act.JOIN, "Join", Style.GREEN),
                button(Act.LEAVE, "Leave"),
                button(Act.COMPUTERS, "Add computer players", disabled=full),
                button(Act.START, "Start", Style.BLURPLE, disabled=not full),
            )
        ]
        if full:
            names = partner_names or [SEAT_NAMES[s] for s in range(4)]
            rows.append(
                SelectSpec(
                    str(ComponentId(Act.PARTNER, table.id, table.version)),
                    "Host: choose your partner",
                    tuple(
                        SelectOption(str(s), clip(f"{names[s]} ({SEAT_NAMES[s]})", OPTION_LABEL))
                        for s in (1, 2, 3)
                    ),
                )
            )
        return rows
    if status is TableStatus.PLAYING and game is not None:
        row = [button(Act.HAND, "My hand", Style.BLURPLE)]
        if game.phase is Phase.HAND_OVER:
            row.append(button(Act.NEXT_HAND, "Next hand", Style.GREEN))
        else:
            row.append(button(Act.JOIN, "Watch"))
        if claim_open and game.waited_on() is not None:
            row.append(button(Act.CLAIM, "Claim the win", Style.RED))
        return [tuple(row)]
    if status is TableStatus.FINISHED:
        return [
            (
                button(Act.REMATCH, "Rematch: same teams", Style.GREEN, "same"),
                button(Act.REMATCH, "Rematch: swap teams", Style.BLURPLE, "swap"),
            )
        ]
    return []
