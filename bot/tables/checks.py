"""The checks every action shares: ids, versions, who is acting, the phase.

Each raises the :mod:`bot.refusals` refusal that explains itself to the
person who clicked; none changes anything.
"""

from __future__ import annotations

from bot import refusals
from bot.game.cards import CARD_COUNT, parse_card
from bot.tables.model import Table, TableStatus


def is_int(value: object) -> bool:
    return type(value) is int  # bool is not a number of anything here


def check_id(value: object, what: str) -> None:
    if not is_int(value) or not 0 <= value < 2**63:  # type: ignore[operator]
        raise refusals.Malformed(f"that is not a valid {what} id")


def check_version(table: Table, version: object) -> None:
    """Refuse a click made on a view of the table that the players' side of it
    has changed since: a spectator coming or going does not count, so any
    version from the last visible change up to the current one is accepted.
    ``table.visible_version`` must be known when ``version`` is older than the
    current one (``TableRegistry.run`` sees to it)."""
    check_not_ahead(table, version)
    assert isinstance(version, int)
    if version == table.version:
        return
    assert table.visible_version is not None
    if version < table.visible_version:
        raise refusals.StaleAction()


def check_not_ahead(table: Table, version: object) -> None:
    """The check of actions whose intent does not depend on what was shown
    (join, leave, look): any version will do, but it must be a version the
    table has had."""
    if not is_int(version):
        raise refusals.Malformed("the table version is missing or not a number")
    assert isinstance(version, int)
    if version > table.version:
        raise refusals.StaleAction()


def check_host(table: Table, user_id: int) -> None:
    if user_id != table.host_id:
        if table.seat_of(user_id) is None and user_id not in table.spectators:
            raise refusals.NotSeated()
        raise refusals.HostOnly()


def check_lobby(table: Table) -> None:
    if table.status is TableStatus.LOBBY:
        return
    if table.status is TableStatus.PLAYING:
        raise refusals.AlreadyStarted()
    raise refusals.TableClosed()


def check_member(table: Table, user_id: int) -> int:
    """The user's seat; Spectator or NotSeated if they have none."""
    seat = table.seat_of(user_id)
    if seat is None:
        if user_id in table.spectators:
            raise refusals.Spectator()
        raise refusals.NotSeated()
    return seat


def card_value(card: object, deck: str = "standard") -> int:
    """A card int, or a card's name in ``deck`` (the names of the jokers
    decks' top trumps mean other ints than in the standard deck)."""
    if is_int(card):
        assert isinstance(card, int)
        if not 0 <= card < CARD_COUNT:
            raise refusals.Malformed(f"{card} is not a card")
        return card
    if isinstance(card, str):
        try:
            return parse_card(card, deck)
        except ValueError:
            raise refusals.Malformed(f"{card[:10]!r} is not a card") from None
    raise refusals.Malformed("that is not a card")
