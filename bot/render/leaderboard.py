"""The leaderboard, a player's statistics and their recent games, as message specs.

Lines are short on purpose (rank, player, one figure in bold, a short
record) so that a page of ten fits a phone screen without wrapping. Every
list is fitted to Discord's limits, however many rows it is given.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from bot.game.types import EndReason
from bot.i18n import ENGLISH, N_, ntr, tr
from bot.render.decks import Style
from bot.render.spec import (
    EMBED_DESCRIPTION,
    EMBED_TITLE,
    FIELD_VALUE,
    ButtonSpec,
    EmbedSpec,
    Field,
    MessageSpec,
    clip,
    computer_label,
    fit_embed,
    fit_lines,
    number_pattern,
)
from bot.stats.leaderboard import LeaderboardPage, LeaderboardRow, SortKey
from bot.stats.seasons import Season
from bot.stats.summary import PlayerStats, SeasonStanding
from db.stats_records import HistoryRow
from db.tournaments import GameMatch

COLOUR = 0x2B6CB0

# -- page buttons: ``spades-board:<sort>:<page>:<slot>[:<season>]`` -----------------

BOARD_PREFIX = "spades-board"
# The sort, the page the button leads to, and which button (ids must differ);
# on a server with seasons, which board (a season's number, 0 for all time).
_BOARD_SHAPE = re.compile(
    rf"(?P<sort>rating|wins):(?P<page>{number_pattern(6)}):(?P<slot>prev|next|sort)"
    rf"(?::(?P<season>{number_pattern(6)}))?"
)
MAX_PAGE = 999_999


def board_id(sort: SortKey, page: int, slot: str, season: int | None = None) -> str:
    board = "" if season is None else f":{season}"
    return f"{BOARD_PREFIX}:{sort.value}:{page}:{slot}{board}"


def parse_board_id(rest: str) -> tuple[SortKey, int, int | None] | None:
    """The sort, page and season a button asks for (what follows
    ``spades-board:``); None for an id the bot never sends."""
    shape = _BOARD_SHAPE.fullmatch(rest)
    if shape is None:
        return None
    season = None if shape["season"] is None else int(shape["season"])
    return SortKey(shape["sort"]), min(int(shape["page"]), MAX_PAGE), season


# -- leaderboard pages ------------------------------------------------------------------


def record_text(row: LeaderboardRow, lang: str = ENGLISH) -> str:
    """Wins and losses, and draws where there are any."""
    if row.draws:
        return _record(row.wins, row.losses, row.draws, lang)
    return tr(lang, "{wins}W {losses}L", wins=row.wins, losses=row.losses)


def _record(wins: int, losses: int, draws: int, lang: str) -> str:
    return tr(lang, "{wins}W {losses}L {draws}D", wins=wins, losses=losses, draws=draws)


def row_line(row: LeaderboardRow, sort: SortKey, lang: str = ENGLISH) -> str:
    who = f"<@{row.user_id}>"
    if sort is SortKey.RATING:
        return f"`{row.rank:>2}.` {who} **{row.rating}** · {record_text(row, lang)}"
    rate = (row.wins + row.draws / 2) / row.games if row.games else 0.0
    figures = tr(
        lang,
        "**{wins}** wins · {games} played · {rate}",
        wins=row.wins,
        games=row.games,
        rate=format(rate, ".0%"),
    )
    return f"`{row.rank:>2}.` {who} {figures}"


def page_text(page: LeaderboardPage, lang: str = ENGLISH) -> str:
    """The body of a leaderboard page (an embed description)."""
    if not page.rows:
        if page.sort is SortKey.RATING:
            return tr(
                lang,
                "Nobody has a rating on this server yet: ratings come from finished "
                "games between four people (games with computer players count only "
                "if the server rates them).",
            )
        return tr(lang, "No finished games on this server yet.")
    lines = [row_line(row, page.sort, lang) for row in page.rows]
    return fit_lines(lines, EMBED_DESCRIPTION, more=tr(lang, "… and {n} more on this page"))


def page_footer(page: LeaderboardPage, lang: str = ENGLISH) -> str:
    where = tr(lang, "Page {page}/{pages}", page=page.span.page + 1, pages=page.span.pages)
    players = ntr(lang, "{n} player", "{n} players", page.total)
    by = tr(lang, "by rating") if page.sort is SortKey.RATING else tr(lang, "by wins")
    return f"{where} · {players} · {by}"


def season_label(season: Season | None, lang: str = ENGLISH) -> str:
    """A season's name; the first one, never named, by its number; no season: all time."""
    if season is None:
        return tr(lang, "All time")
    return season.name or tr(lang, "Season {number}", number=season.number)


def board_message(page: LeaderboardPage, guild_name: str, lang: str = ENGLISH) -> MessageSpec:
    """One leaderboard page and its buttons: previous, next, the other sort."""
    title = tr(lang, "Ratings") if page.sort is SortKey.RATING else tr(lang, "Most wins")
    if page.season_no is not None:
        title = f"{title} · {season_label(page.season, lang)}"
    embed = EmbedSpec(
        title=clip(f"{title} · {guild_name}", EMBED_TITLE),
        description=page_text(page, lang),
        footer=page_footer(page, lang),
        colour=COLOUR,
    )
    at = page.span.page
    season = page.season_no
    other = SortKey.WINS if page.sort is SortKey.RATING else SortKey.RATING
    back = board_id(page.sort, max(at - 1, 0), "prev", season)
    ahead = board_id(page.sort, at + 1, "next", season)
    sort_by = tr(lang, "By rating") if other is SortKey.RATING else tr(lang, "By wins")
    buttons = (
        ButtonSpec(back, tr(lang, "◀ Prev"), Style.GREY, None, not page.has_previous),
        ButtonSpec(ahead, tr(lang, "Next ▶"), Style.GREY, None, not page.has_next),
        ButtonSpec(board_id(other, 0, "sort", season), sort_by, Style.GREY),
    )
    return MessageSpec(embed=fit_embed(embed), rows=(buttons,))


# -- a player's statistics --------------------------------------------------------------


def mention(user_id: int) -> str:
    return "<@" + str(user_id) + ">"


def percent(part: int, whole: int) -> str:
    return f"{part / whole:.0%}" if whole else "–"


def rating_text(rating: int, rank: int | None, players: int, lang: str) -> str:
    if rank is None:
        return tr(lang, "unrated")
    return tr(
        lang, "**{rating}** (#{rank} of {players})", rating=rating, rank=rank, players=players
    )


def stats_fields(stats: PlayerStats, lang: str = ENGLISH) -> list[Field]:
    """The fields of a stats embed, short enough for a phone."""
    t = stats.tally
    rating = rating_text(stats.rating, stats.rank, stats.ranked_players, lang)
    partners = [
        tr(
            lang,
            "{partner} {wins}W/{games} ({share})",
            partner=mention(p.partner_id),
            wins=p.wins,
            games=p.games,
            share=percent(p.wins, p.games),
        )
        for p in stats.best_partners
    ]
    record = _record(t.wins, t.losses, t.draws, lang)
    made = N_("{made}/{bid} made")
    revokes = tr(
        lang,
        "{proven} proven against · {caught} caught · {false} false claims",
        proven=t.revokes_proven,
        caught=t.revokes_caught,
        false=t.false_claims,
    )
    # (name, value, fits beside another field on a phone)
    fields = [
        (tr(lang, "Rating"), rating, True),
        (tr(lang, "Games"), f"{t.games} · {record} · {t.win_rate:.0%}", False),
        (
            tr(lang, "Points per hand"),
            ntr(
                lang,
                "{points} over {n} hand",
                "{points} over {n} hands",
                t.hands,
                points=format(t.points_per_hand, ".1f"),
            ),
            False,
        ),
        (tr(lang, "Nil"), tr(lang, made, made=t.nils_made, bid=t.nils_bid), True),
        (
            tr(lang, "Blind Nil"),
            tr(lang, made, made=t.blind_nils_made, bid=t.blind_nils_bid),
            True,
        ),
        (
            tr(lang, "Sets"),
            tr(lang, "{sets} ({share} of hands)", sets=t.sets, share=percent(t.sets, t.hands)),
            True,
        ),
        (tr(lang, "Bags"), str(t.bags), True),
        (tr(lang, "Revokes"), revokes, False),
        (
            tr(lang, "Best partners"),
            fit_lines(partners, FIELD_VALUE, tr(lang, "… and {n} more")) or "–",
            False,
        ),
    ]
    if stats.season is not None:
        fields[0] = (tr(lang, "Rating (all time)"), rating, True)
        fields.insert(0, season_field(stats.season, lang))
    if stats.last_game is not None:
        fields.append((tr(lang, "Last game"), history_line(stats.last_game, lang), False))
    return [Field(name, value, inline=inline) for name, value, inline in fields]


def season_field(standing: SeasonStanding, lang: str = ENGLISH) -> tuple[str, str, bool]:
    """The running season's rating and record, first among a player's stats."""
    name = season_label(standing.season, lang)
    row = standing.row
    if row is None or not row.games:
        return name, tr(lang, "no games yet this season"), True
    rating = rating_text(row.rating, standing.rank, standing.ranked_players, lang)
    return name, f"{rating} · {_record(row.wins, row.losses, row.draws, lang)}", True


def stats_embed(
    stats: PlayerStats, player_name: str, guild_name: str, lang: str = ENGLISH
) -> EmbedSpec:
    embed = EmbedSpec(
        title=clip(f"{player_name} · {guild_name}", EMBED_TITLE),
        fields=tuple(stats_fields(stats, lang)),
        colour=COLOUR,
    )
    return fit_embed(embed)


def no_games_text(player_id: int | None, lang: str = ENGLISH) -> str:
    """That a player has no finished games here; None: the reader."""
    if player_id is None:
        return tr(lang, "You have no finished games on this server yet.")
    return tr(lang, "<@{player}> has no finished games on this server yet.", player=player_id)


def rating_setting_text(rated: bool, lang: str = ENGLISH) -> str:
    if rated:
        return tr(
            lang, "Games with computer players or with hints on change ratings on this server."
        )
    return tr(
        lang,
        "Games with computer players or with hints on count in statistics but leave ratings alone.",
    )


# -- seasons ------------------------------------------------------------------------------


def seasons_text(seasons: Sequence[Season], lang: str = ENGLISH) -> str:
    """``/spades-admin season show``: each season with its dates, newest first."""
    lines = []
    for season in reversed(seasons):
        start = f"<t:{int(season.started_at)}:d>" if season.started_at else "–"
        end = None if season.closed_at is None else f"<t:{int(season.closed_at)}:d>"
        if end is None:
            when = tr(lang, "since {start} (running)", start=start)
        elif not season.started_at:  # a first season closed before any game: no start
            when = tr(lang, "until {end}", end=end)
        else:
            when = f"{start} – {end}"
        lines.append(f"**{season_label(season, lang)}** · {when}")
    title = tr(lang, "**Seasons of this server**")
    return (
        title
        + "\n"
        + fit_lines(lines, EMBED_DESCRIPTION - len(title) - 1, tr(lang, "… and {n} more"))
    )


def season_closed_message(
    season: Season, page: LeaderboardPage, guild_name: str, lang: str = ENGLISH
) -> MessageSpec:
    """The results channel's post when a season closes: its final leaderboard."""
    board = board_message(page, guild_name, lang)
    head = tr(
        lang, "**{season} is over.** Its final leaderboard:", season=season_label(season, lang)
    )
    return MessageSpec(content=head, embed=board.embed)


# -- recent games -------------------------------------------------------------------------

_REASONS = {
    EndReason.TARGET: N_("target"),
    EndReason.LOSING_SCORE: N_("losing score"),
    EndReason.REVOKE: N_("revoke"),
    EndReason.FALSE_CLAIM: N_("false claim"),
    EndReason.RESIGNATION: N_("resigned"),
    EndReason.TIMEOUT: N_("timeout"),
    EndReason.MODERATOR: N_("ended by a moderator"),
}


#: How much of a moderator's reason the list of games shows.
NOTE_LENGTH = 120


def outcome_word(game: HistoryRow, lang: str = ENGLISH) -> str:
    """``Won``, ``Lost``, ``Draw`` or ``No winner`` (a moderator ended the
    game), for the player of the row."""
    if game.reason == EndReason.MODERATOR:
        return tr(lang, "No winner")
    if game.winner is None:
        return tr(lang, "Draw")
    return tr(lang, "Won") if game.winner == game.side else tr(lang, "Lost")


def history_line(game: HistoryRow, lang: str = ENGLISH, match: GameMatch | None = None) -> str:
    """One game of a player's list; ``match`` names the tournament match it
    was played for, if any."""
    change = ""
    if game.rating_before is not None and game.rating_after is not None:
        change = f" · {game.rating_after - game.rating_before:+d}"
    line = _result_line(game, lang)
    if match is not None:
        label = tr(lang, "{name} · match {number}", name=match.name, number=match.match_no)
        line = f"{label} · {line}"
    return f"`#{game.game_id}` <t:{int(game.finished_at)}:d> {line}{change}"


def _result_line(game: HistoryRow, lang: str) -> str:
    """The outcome and score: against the other team with the partner, or
    in solo against the other three players' scores, from the player's left."""
    if game.solo:
        others = [game.scores[(game.seat + step) & 3] for step in (1, 2, 3)]
        return tr(
            lang,
            "**{outcome}** {us} to {others} ({reason}), each for themselves",
            outcome=outcome_word(game, lang),
            us=game.scores[game.seat],
            others=" / ".join(str(score) for score in others),
            reason=reason_text(game, lang),
        )
    team = game.side
    if game.partner_id is not None:
        partner = f"<@{game.partner_id}>"
    else:
        partner = computer_label(game.seat + 2, game.partner_level, lang)
    return tr(
        lang,
        "**{outcome}** {us} to {them} ({reason}) with {partner}",
        outcome=outcome_word(game, lang),
        us=game.scores[team],
        them=game.scores[1 - team],
        reason=reason_text(game, lang),
        partner=partner,
    )


def reason_text(game: HistoryRow, lang: str = ENGLISH) -> str:
    """How the game ended, with the moderator's reason where one ended it."""
    if game.reason == EndReason.MODERATOR and game.note:
        return tr(lang, "ended by a moderator: {note}", note=clip(game.note, NOTE_LENGTH))
    return tr(lang, _REASONS[EndReason(game.reason)])


def history_embed(
    games: Sequence[HistoryRow],
    player_name: str,
    lang: str = ENGLISH,
    matches: Mapping[int, GameMatch] | None = None,
) -> EmbedSpec:
    """``matches``: the tournament match of the games played for one, by game id."""
    found = matches or {}
    lines = [history_line(g, lang, found.get(g.game_id)) for g in games]
    embed = EmbedSpec(
        title=clip(tr(lang, "Recent games of {player}", player=player_name), EMBED_TITLE),
        description=fit_lines(lines, EMBED_DESCRIPTION, tr(lang, "… and {n} more")),
        footer=tr(lang, "/spades history game:<number> gives a game's full record"),
        colour=COLOUR,
    )
    return fit_embed(embed)
