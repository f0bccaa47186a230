"""What the statistics queries return, and how it reads in Discord."""

from __future__ import annotations

from dataclasses import dataclass

from bot.game.types import EndReason
from bot.stats.tally import Tally


@dataclass(frozen=True, slots=True)
class PartnerRecord:
    partner_id: int
    games: int
    wins: int
    draws: int

    @property
    def smoothed_win_rate(self) -> float:
        # One imaginary win and one loss keep a single lucky game from
        # outranking a long partnership.
        return (self.wins + self.draws / 2 + 1) / (self.games + 2)


@dataclass(frozen=True, slots=True)
class PlayerStats:
    user_id: int
    tally: Tally
    rating: int
    rated_games: int
    rank: int | None  # place on the rating leaderboard, None before a rated game
    ranked_players: int
    best_partners: tuple[PartnerRecord, ...]


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One line of a player's history."""

    game_id: int
    finished_at: float
    seat: int
    winner: int | None
    reason: EndReason
    scores: tuple[int, int]
    hands: int
    partner_id: int | None
    partner_level: str | None
    rating_before: int | None
    rating_after: int | None

    @property
    def team(self) -> int:
        return self.seat & 1

    @property
    def outcome(self) -> str:
        if self.winner is None:
            return "Draw"
        return "Won" if self.winner == self.team else "Lost"


def percent(part: int, whole: int) -> str:
    return f"{part / whole:.0%}" if whole else "–"


def stats_fields(stats: PlayerStats) -> list[tuple[str, str]]:
    """(title, value) pairs for a stats embed, short enough for a phone."""
    t = stats.tally
    if stats.rank is None:
        rating = "unrated"
    else:
        rating = f"**{stats.rating}** (#{stats.rank} of {stats.ranked_players})"
    partners = (
        "\n".join(
            f"<@{p.partner_id}> {p.wins}W/{p.games} ({percent(p.wins, p.games)})"
            for p in stats.best_partners
        )
        or "–"
    )
    return [
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
        ("Best partners", partners),
    ]


_REASONS = {
    EndReason.TARGET: "target",
    EndReason.LOSING_SCORE: "losing score",
    EndReason.REVOKE: "revoke",
    EndReason.FALSE_CLAIM: "false claim",
    EndReason.RESIGNATION: "resigned",
    EndReason.TIMEOUT: "timeout",
}


def history_line(game: GameSummary) -> str:
    us, them = game.scores[game.team], game.scores[1 - game.team]
    if game.partner_id is not None:
        partner = f"with <@{game.partner_id}>"
    else:
        partner = f"with a {game.partner_level} computer player"
    change = ""
    if game.rating_before is not None and game.rating_after is not None:
        change = f" · {game.rating_after - game.rating_before:+d}"
    return (
        f"`#{game.game_id}` <t:{int(game.finished_at)}:d> **{game.outcome}** {us}–{them} "
        f"({_REASONS[game.reason]}) {partner}{change}"
    )
