"""The leaderboard, a player's statistics and their recent games, as message specs.

Lines are short on purpose (rank, player, one figure in bold, a short
record) so that a page of ten fits a phone screen without wrapping. Every
list is fitted to Discord's limits, however many rows it is given.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.game.types import EndReason
from bot.render.decks import Style
from bot.render.limits import (
    EMBED_DESCRIPTION,
    EMBED_TITLE,
    FIELD_VALUE,
    clip,
    fit_embed,
    fit_lines,
)
from bot.render.names import computer_label
from bot.render.spec import ButtonSpec, EmbedSpec, Field, MessageSpec
from bot.stats.leaderboard import LeaderboardPage, LeaderboardRow, SortKey
from bot.stats.summary import PlayerStats
from db.stats_store import HistoryRow

COLOUR = 0x2B6CB0

# -- page buttons: ``spades-board:<sort>:<page>:<slot>`` ------------------------------

BOARD_PREFIX = "spades-board"
BOARD_TEMPLATE = rf"{BOARD_PREFIX}:(?P<rest>.*)"
#: Newlines included, so that every id starting so is answered by the button.
BOARD_PATTERN = re.compile(BOARD_TEMPLATE, re.DOTALL)
# The sort, the page the button leads to, and which button (ids must differ).
_BOARD_SHAPE = re.compile(r"(?P<sort>rating|wins):(?P<page>\d{1,6}):(?P<slot>prev|next|sort)")
MAX_PAGE = 999_999


def board_id(sort: SortKey, page: int, slot: str) -> str:
    return f"{BOARD_PREFIX}:{sort.value}:{page}:{slot}"


def parse_board_id(rest: str) -> tuple[SortKey, int] | None:
    """The sort and page a button asks for (what follows ``spades-board:``);
    None for an id the bot never sends."""
    shape = _BOARD_SHAPE.fullmatch(rest)
    if shape is None:
        return None
    return SortKey(shape["sort"]), min(int(shape["page"]), MAX_PAGE)


# -- leaderboard pages ------------------------------------------------------------------


def record_text(row: LeaderboardRow) -> str:
    text = f"{row.wins}W {row.losses}L"
    return f"{text} {row.draws}D" if row.draws else text


def row_line(row: LeaderboardRow, sort: SortKey) -> str:
    who = f"<@{row.user_id}>"
    if sort is SortKey.RATING:
        return f"`{row.rank:>2}.` {who} **{row.rating}** · {record_text(row)}"
    rate = (row.wins + row.draws / 2) / row.games if row.games else 0.0
    return f"`{row.rank:>2}.` {who} **{row.wins}** wins · {row.games} played · {rate:.0%}"


def page_text(page: LeaderboardPage) -> str:
    """The body of a leaderboard page (an embed description)."""
    if not page.rows:
        if page.sort is SortKey.RATING:
            return (
                "Nobody has a rating on this server yet: ratings come from finished "
                "games between four people (games with computer players count only "
                "if the server rates them)."
            )
        return "No finished games on this server yet."
    lines = [row_line(row, page.sort) for row in page.rows]
    return fit_lines(lines, EMBED_DESCRIPTION, more="… and {n} more on this page")


def page_footer(page: LeaderboardPage) -> str:
    noun = "player" if page.total == 1 else "players"
    by = "rating" if page.sort is SortKey.RATING else "wins"
    return f"Page {page.span.page + 1}/{page.span.pages} · {page.total} {noun} · by {by}"


def board_message(page: LeaderboardPage, guild_name: str) -> MessageSpec:
    """One leaderboard page and its buttons: previous, next, the other sort."""
    title = "Ratings" if page.sort is SortKey.RATING else "Most wins"
    embed = EmbedSpec(
        title=clip(f"{title} · {guild_name}", EMBED_TITLE),
        description=page_text(page),
        footer=page_footer(page),
        colour=COLOUR,
    )
    at = page.span.page
    other = SortKey.WINS if page.sort is SortKey.RATING else SortKey.RATING
    buttons = (
        ButtonSpec(
            board_id(page.sort, max(at - 1, 0), "prev"),
            "◀ Prev",
            Style.GREY,
            None,
            not page.has_previous,
        ),
        ButtonSpec(
            board_id(page.sort, at + 1, "next"), "Next ▶", Style.GREY, None, not page.has_next
        ),
        ButtonSpec(board_id(other, 0, "sort"), f"By {other.value}", Style.GREY),
    )
    return MessageSpec(embed=fit_embed(embed), rows=(buttons,))


# -- a player's statistics --------------------------------------------------------------


def percent(part: int, whole: int) -> str:
    return f"{part / whole:.0%}" if whole else "–"


#: Fields too wide to sit beside another on a phone.
_WIDE_FIELDS = {"Revokes", "Best partners", "Games", "Points per hand"}


def stats_fields(stats: PlayerStats) -> list[Field]:
    """The fields of a stats embed, short enough for a phone."""
    t = stats.tally
    if stats.rank is None:
        rating = "unrated"
    else:
        rating = f"**{stats.rating}** (#{stats.rank} of {stats.ranked_players})"
    partners = [
        f"<@{p.partner_id}> {p.wins}W/{p.games} ({percent(p.wins, p.games)})"
        for p in stats.best_partners
    ]
    pairs = [
        ("Rating", rating),
        ("Games", f"{t.games} · {t.wins}W {t.losses}L {t.draws}D · {t.win_rate:.0%}"),
        ("Points per hand", f"{t.points_per_hand:.1f} over {t.hands} hands"),
        ("Nil", f"{t.nils_made}/{t.nils_bid} made"),
        ("Blind Nil", f"{t.blind_nils_made}/{t.blind_nils_bid} made"),
        ("Sets", f"{t.sets} ({percent(t.sets, t.hands)} of hands)"),
        ("Bags", str(t.bags)),
        (
            "Revokes",
            f"{t.revokes_proven} proven against · {t.revokes_caught} caught · "
            f"{t.false_claims} false claims",
        ),
        ("Best partners", fit_lines(partners, FIELD_VALUE) or "–"),
    ]
    return [Field(name, value, inline=name not in _WIDE_FIELDS) for name, value in pairs]


def stats_embed(stats: PlayerStats, player_name: str, guild_name: str) -> EmbedSpec:
    embed = EmbedSpec(
        title=clip(f"{player_name} · {guild_name}", EMBED_TITLE),
        fields=tuple(stats_fields(stats)),
        colour=COLOUR,
    )
    return fit_embed(embed)


def no_games_text(whose: str) -> str:
    """``whose`` is ``You have`` or ``<@id> has``."""
    return f"{whose} no finished games on this server yet."


def rating_setting_text(rated: bool) -> str:
    if rated:
        return "Games with computer players or with hints on change ratings on this server."
    return (
        "Games with computer players or with hints on count in statistics but leave ratings alone."
    )


# -- recent games -------------------------------------------------------------------------

_REASONS = {
    EndReason.TARGET: "target",
    EndReason.LOSING_SCORE: "losing score",
    EndReason.REVOKE: "revoke",
    EndReason.FALSE_CLAIM: "false claim",
    EndReason.RESIGNATION: "resigned",
    EndReason.TIMEOUT: "timeout",
}


def outcome_word(game: HistoryRow) -> str:
    """``Won``, ``Lost`` or ``Draw``, for the player of the row."""
    if game.winner is None:
        return "Draw"
    return "Won" if game.winner == game.seat & 1 else "Lost"


def history_line(game: HistoryRow) -> str:
    team = game.seat & 1
    us, them = game.scores[team], game.scores[1 - team]
    if game.partner_id is not None:
        partner = f"with <@{game.partner_id}>"
    else:
        partner = f"with {computer_label(game.seat + 2, game.partner_level)}"
    change = ""
    if game.rating_before is not None and game.rating_after is not None:
        change = f" · {game.rating_after - game.rating_before:+d}"
    return (
        f"`#{game.game_id}` <t:{int(game.finished_at)}:d> **{outcome_word(game)}** "
        f"{us} to {them} ({_REASONS[EndReason(game.reason)]}) {partner}{change}"
    )


def history_embed(games: Sequence[HistoryRow], player_name: str) -> EmbedSpec:
    embed = EmbedSpec(
        title=clip(f"Recent games of {player_name}", EMBED_TITLE),
        description=fit_lines([history_line(g) for g in games], EMBED_DESCRIPTION),
        footer="/spades history game:<number> gives a game's full record",
        colour=COLOUR,
    )
    return fit_embed(embed)
