"""What people read of a tournament: its message, its notices, its refusals.

Pure functions of the tournament (a :class:`~bot.tournament.model.Tournament`)
and the reader's language. Buttons carry ids, not state:
``tourney:<action>:<tournament>[:<arg>]``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields

from bot.i18n import N_, tr
from bot.render.bracket import BracketLabels
from bot.render.decks import Style
from bot.render.house_rules import rules_line
from bot.render.spec import ButtonSpec, EmbedSpec, Field, MessageSpec, number_pattern
from bot.tables.model import TableOptions
from bot.tournament.model import Match, Team, Tournament
from bot.tournament.results import Placing

PREFIX = "tourney"
_SHAPE = re.compile(
    rf"(?P<action>[a-z_]+):(?P<tournament>{number_pattern(18)})(?::(?P<arg>{number_pattern(18)}))?"
)
TITLE = "Spades · tournament"
#: Embed fields hold at most 1024 characters; longer lists are cut.
FIELD_LIMIT = 1000

REGISTER = "register"  # opens the partner menu
PARTNER = "partner"  # the partner menu (a user select)
ALONE = "alone"
WITHDRAW = "withdraw"
CONFIRM = "confirm"
DECLINE = "decline"
START = "start"
READY = "ready"  # arg: the match; none on the tournament message (the presser's match)
ACTIONS = (REGISTER, PARTNER, ALONE, WITHDRAW, CONFIRM, DECLINE, START, READY)


@dataclass(frozen=True, slots=True)
class TourneyId:
    action: str
    tournament: int
    arg: int | None = None

    def __str__(self) -> str:
        text = f"{PREFIX}:{self.action}:{self.tournament}"
        return text if self.arg is None else f"{text}:{self.arg}"


def parse_id(rest: str) -> TourneyId | None:
    """What follows ``tourney:``; None for an id the bot never sends."""
    match = _SHAPE.fullmatch(rest)
    if match is None or match["action"] not in ACTIONS:
        return None
    arg = match["arg"]
    return TourneyId(match["action"], int(match["tournament"]), None if arg is None else int(arg))


#: Every refusal of the tournament core, by its code, and those of the Discord layer.
REFUSALS = {
    "already_registered": N_("You are already registered in this tournament."),
    "partner_registered": N_("That partner is already registered or asked by someone else."),
    "partner_is_self": N_("Choose someone else as your partner."),
    "no_partner": N_("Choose a partner."),
    "partners_are_drawn": N_("Partners are drawn at the start here: press Register alone."),
    "full": N_("The tournament is full."),
    "no_partner_request": N_("Nobody has asked you to be their partner."),
    "not_registered": N_("You are not registered in this tournament."),
    "already_started": N_("The tournament has already started."),
    "not_organizer": N_("Only the organizer (or a member who manages the server) may do that."),
    "too_few_teams": N_("A tournament needs at least two teams to start."),
    "not_started": N_("The tournament has not started yet."),
    "tournament_over": N_("The tournament is over."),
    "no_such_match": N_("There is no such match in this tournament."),
    "match_over": N_("That match is already over."),
    "not_ready_check": N_("That match is not waiting for its teams to be ready."),
    "not_in_match": N_("Your team does not play in that match."),
    "already_ready": N_("Your team is already marked ready."),
    "too_late": N_("The ready check of that match is over."),
    "team_not_in_match": N_("That team does not play in that match."),
    "teams_unknown": N_("That match does not know both its teams yet."),
    "not_all_ready": N_("That match is not ready to be played."),
    "not_playing": N_("That match is not being played."),
    "deadline_not_reached": N_("The ready check of that match is still running."),
    "unknown_tournament": N_("That tournament is no longer running."),
    "try_again": N_("The tournament changed meanwhile: please try again."),
    "no_tournament_here": N_("There is no tournament in this channel."),
    "channel_busy": N_(
        "A tournament is already open in this channel: open yours once it is over, or in "
        "another channel."
    ),
    "no_match_to_ready": N_("Your team has no match waiting for its ready check."),
    "partners_only": N_("Tournaments are played by partners: leave out teams=solo."),
}


def refusal(code: str, lang: str) -> str:
    return tr(lang, REFUSALS.get(code, N_("That is not possible now.")))


def team_text(team: Team) -> str:
    return " & ".join(f"<@{u}>" for u in team.players)


def team_label(tournament: Tournament, team_id: int | None, lang: str) -> str:
    team = tournament.team(team_id or 0)
    if team is None:
        return tr(lang, "to be decided")
    return tr(lang, "Team {team}", team=team.id) + f" ({team_text(team)})"


def match_line(tournament: Tournament, match: Match, lang: str) -> str:
    a = team_label(tournament, match.a, lang)
    b = team_label(tournament, match.b, lang)
    line = tr(lang, "Match {match}: {a} vs {b}", match=match.number, a=a, b=b)
    if match.state == "ready_check":
        ready = ", ".join(tr(lang, "Team {team}", team=t) for t in sorted(match.ready))
        line += " · " + tr(lang, "ready check until <t:{at}:t>", at=int(match.deadline or 0))
        if ready:
            line += " · " + tr(lang, "ready: {teams}", teams=ready)
    elif match.state == "playing":
        line += " · " + tr(lang, "playing at table {table}", table=match.table_id)
    return line


def _cut(lines: list[str], lang: str) -> str:
    text = ""
    for shown, line in enumerate(lines):
        if len(text) + len(line) + 1 > FIELD_LIMIT:
            return text + tr(lang, "… and {n} more", n=len(lines) - shown)
        text += line + "\n"
    return text or "-"


def _house_line(house: str, lang: str) -> str:
    """The tournament's house rules in words, as its tables say them; text
    this version cannot read (stored by a later one) is quoted as it is."""
    try:
        rules = TableOptions(house=house).rules()
    except ValueError:  # pydantic's ValidationError, or HouseRuleError
        return tr(lang, "House rules: {house}", house=house)
    return rules_line(rules, lang)


def tournament_message(tournament: Tournament, lang: str) -> MessageSpec:
    """The tournament's public message: its settings, registrations or
    matches under way, the standings once over, and the buttons of its phase."""
    s = tournament.settings
    fmt = tr(lang, "double elimination") if s.format == "double" else tr(lang, "single elimination")
    description = tr(
        lang,
        "{format}, games to {target} points. Organizer: <@{organizer}>.",
        format=fmt,
        target=s.target,
        organizer=tournament.organizer_id,
    )
    if s.house:
        description += "\n" + _house_line(s.house, lang)
    fields: list[Field] = []
    rows: tuple[tuple[ButtonSpec, ...], ...] = ()
    tid = tournament.id
    if tournament.phase == "registering":
        regs = tournament.registrations
        teams = [f"<@{a}> & <@{b}>" for a, b in regs.pairs]
        asked = [
            tr(lang, "<@{user}> asks <@{partner}>", user=a, partner=b) for a, b in regs.pending
        ]
        alone = [f"<@{u}>" for u in regs.solo]
        fields.append(Field(tr(lang, "Teams ({n})", n=len(teams)), _cut(teams, lang)))
        if asked:
            fields.append(Field(tr(lang, "Waiting for a partner"), _cut(asked, lang)))
        if alone:
            fields.append(Field(tr(lang, "Registered alone"), _cut(alone, lang)))
        first = [_button(tid, ALONE, tr(lang, "Register alone"), Style.BLURPLE)]
        if s.teams == "pairs":
            first.insert(0, _button(tid, REGISTER, tr(lang, "Register"), Style.GREEN))
            first.append(_button(tid, CONFIRM, tr(lang, "Confirm partner")))
            first.append(_button(tid, DECLINE, tr(lang, "Decline partner")))
        first.append(_button(tid, WITHDRAW, tr(lang, "Withdraw"), Style.RED))
        rows = (tuple(first), (_button(tid, START, tr(lang, "Start"), Style.GREEN),))
    elif tournament.phase == "running":
        under_way = [m for m in tournament.matches if m.state in ("ready_check", "playing")]
        fields.append(
            Field(
                tr(lang, "Matches under way"),
                _cut([match_line(tournament, m, lang) for m in under_way], lang),
            )
        )
        rows = ((_button(tid, READY, tr(lang, "Ready"), Style.GREEN),),)
    elif tournament.phase == "over":
        fields.append(Field(tr(lang, "Final standings"), standings_text(tournament, lang)))
    else:
        description += "\n" + tr(lang, "The tournament was cancelled.")
    if tournament.phase != "registering" and tournament.teams:
        teams = [f"{t.id}. {team_text(t)}" for t in tournament.teams]
        fields.append(Field(tr(lang, "Teams by seed"), _cut(teams, lang)))
    title = bracket_heading(tournament, lang).title
    return MessageSpec(embed=EmbedSpec(title, description, tuple(fields)), rows=rows)


def _button(tournament: int, action: str, label: str, style: Style = Style.GREY) -> ButtonSpec:
    """A button of the tournament's message (its id names no match)."""
    return ButtonSpec(str(TourneyId(action, tournament)), label, style)


def bracket_heading(tournament: Tournament, lang: str) -> EmbedSpec:
    """What ``/spades tournament show`` puts above the bracket: the title,
    and once the tournament has ended, how (its final standings, or that it
    was cancelled)."""
    title = f"{TITLE} {tournament.id} · {tournament.settings.name}"
    if tournament.phase == "over":
        standings = Field(tr(lang, "Final standings"), standings_text(tournament, lang))
        return EmbedSpec(title, fields=(standings,))
    if tournament.phase == "cancelled":
        return EmbedSpec(title, tr(lang, "The tournament was cancelled."))
    return EmbedSpec(title)


def standings_text(tournament: Tournament, lang: str) -> str:
    lines = []
    for standing in tournament.standings:
        team = tournament.team(standing.team)
        if team is not None:
            lines.append(
                tr(
                    lang,
                    "{place}. Team {team}: {players}",
                    place=standing.place,
                    team=team.id,
                    players=team_text(team),
                )
            )
    return _cut(lines, lang)


def results_post(tournament: Tournament, lang: str) -> str:
    """The final standings as the results channel shows them."""
    head = tr(lang, "Tournament {name} is over. Final standings:", name=tournament.settings.name)
    return head + "\n" + standings_text(tournament, lang)


def placings_text(placings: list[Placing], lang: str) -> str:
    """A player's final places in tournaments, for their statistics."""
    lines = [
        tr(
            lang,
            "{name}: place {place} of {teams} teams",
            name=p.name,
            place=p.place,
            teams=p.teams,
        )
        for p in placings
    ]
    return _cut(lines, lang)


def partner_asked(tournament: Tournament, user: int, partner: int, lang: str) -> str:
    return tr(
        lang,
        "<@{partner}>: <@{user}> asks you to be their partner in {name}. Press Confirm "
        "partner (or Decline partner) on the tournament message.",
        partner=partner,
        user=user,
        name=tournament.settings.name,
    )


def left_out_notice(tournament: Tournament, lang: str) -> str:
    """Registrants who got no team at the draw (an odd one alone, partners
    who never confirmed)."""
    return tr(
        lang,
        "{players}: registration is closed and you got no team in {name} (alone without "
        "a partner, or a partner request never confirmed).",
        players=" ".join(f"<@{u}>" for u in tournament.left_out),
        name=tournament.settings.name,
    )


def ready_notice(tournament: Tournament, match: Match, lang: str) -> MessageSpec:
    """The ready check of a match, to its four players, with its Ready button."""
    players = [u for t in (match.a, match.b) for u in (tournament.team(t or 0) or _NOBODY).players]
    text = tr(
        lang,
        "{players}: match {match} of {name} is yours. Each team presses Ready before "
        "<t:{at}:t>; a team not ready loses the match.",
        players=" ".join(f"<@{u}>" for u in players),
        match=match.number,
        name=tournament.settings.name,
        at=int(match.deadline or 0),
    )
    ready = ButtonSpec(
        str(TourneyId(READY, tournament.id, match.number)),
        tr(lang, "Ready · match {match}", match=match.number),
        Style.GREEN,
    )
    return MessageSpec(content=text, rows=((ready,),))


_NOBODY = Team(0, (), 0)


def bracket_labels(lang: str) -> BracketLabels:
    """The words of the bracket picture in ``lang`` (``{match}`` stays, for the picture)."""
    words = {f.name: tr(lang, str(f.default), match="{match}") for f in fields(BracketLabels)}
    return BracketLabels(**words)
