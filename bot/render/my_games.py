"""``/spades mygames``: a player's open tables on one server, one line each,
with where the table talks, its phase, whose turn it is and a link to its
message. Private, so mentions in it ping nobody."""

from __future__ import annotations

from collections.abc import Sequence

from bot.game.types import Phase
from bot.i18n import ENGLISH, N_, tr
from bot.render.spec import CONTENT, computer_label, fit_lines
from bot.tables.model import Table, TableStatus

PHASES = {
    Phase.BIDDING: N_("bidding"),
    Phase.PASSING: N_("passing cards"),
    Phase.PLAYING: N_("playing"),
    Phase.HAND_OVER: N_("between hands"),
    Phase.GAME_OVER: N_("game over"),
}


def message_link(table: Table) -> str | None:
    """The address of the table message, which Discord shows as a link."""
    if table.message_id is None:
        return None
    guild = table.guild_id if table.guild_id is not None else "@me"
    return f"https://discord.com/channels/{guild}/{table.channel_id}/{table.message_id}"


def _phase(table: Table, lang: str) -> str:
    if table.status is TableStatus.LOBBY or table.game is None:
        return tr(lang, "waiting for players")
    return tr(lang, PHASES[table.game.phase])


def _turn(table: Table, user_id: int, lang: str) -> str | None:
    seat = table.waited_on
    if seat is None:
        return None
    if table.waits_on(user_id):
        return tr(lang, "**your turn**")
    occupant = table.seats[seat]
    who = (
        f"<@{occupant.user_id}>"
        if occupant.user_id is not None
        else computer_label(seat, occupant.computer_level, lang)
    )
    return tr(lang, "{player}'s turn", player=who)


def my_game_line(table: Table, user_id: int, lang: str = ENGLISH) -> str:
    where = f"<#{table.talk_channel_id}>"
    parts = [tr(lang, "Table {table} in {where}", table=table.id, where=where)]
    parts.append(_phase(table, lang))
    turn = _turn(table, user_id, lang)
    if turn is not None:
        parts.append(turn)
    link = message_link(table)
    if link is not None:
        parts.append(tr(lang, "[table message]({link})", link=link))
    return "- " + ", ".join(parts)


def my_games_text(tables: Sequence[Table], user_id: int, lang: str = ENGLISH) -> str:
    """The answer to ``/spades mygames``: ``tables`` in the order given."""
    if not tables:
        return tr(lang, "You have no open table on this server.")
    head = tr(lang, "Your open tables here:")
    lines = [my_game_line(t, user_id, lang) for t in tables]
    return head + "\n" + fit_lines(lines, CONTENT - len(head) - 1, tr(lang, "… and {n} more"))
