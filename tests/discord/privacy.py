"""Who saw which card: a check over everything the bot sent to Discord.

Every REST request the bot made is in SimCord's log. Each is sorted by
audience (the whole channel, or the one user an ephemeral message belongs
to) and searched for cards, both as text (``10♥``) and as card button ids
(``spades:play:...:TH``, and the masks of the Nil pass's buttons). A card may
reach the channel only once it has been played in the current hand; a user
may also see the cards dealt to their own seat, and those their partner
passed them once the exchange is made. The state to compare with is
recorded from the table service at every commit, with the position in the
request log at that moment.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import simcord

from bot.game.cards import RANKS, SUITS, cards_of
from bot.render.decks import RANK_TEXT, SUIT_SYMBOLS
from bot.tables.model import Table
from bot.tables.service import TableService

EPHEMERAL = 64
PUBLIC = 0

_TEXT_CARD = re.compile(r"(10|[2-9JQKA])([♣♦♥♠])")
_ID_CARD = re.compile(r"spades:play:\d+:\d+:([2-9TJQKA][CDHS])")
#: The Nil pass's buttons carry a selection of cards as a hex mask (bot.render.hand).
_ID_PASS = re.compile(r"spades:pass(?:_pick)?:\d+:\d+:([0-9a-f]+)-\d+")
_LOG_CARD = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][CDHS])(?![A-Za-z0-9])|(10|[2-9JQKA])[♣♦♥♠]")


def cards_in_text(text: str) -> set[int]:
    found = set()
    for rank, suit in _TEXT_CARD.findall(text):
        found.add(SUIT_SYMBOLS.index(suit) * 13 + RANK_TEXT.index(rank))
    for name in _ID_CARD.findall(text):
        found.add(SUITS.index(name[1]) * 13 + RANKS.index(name[0]))
    for mask in _ID_PASS.findall(text):
        found.update(cards_of(int(mask, 16)))
    return found


def looks_like_a_card(text: str) -> bool:
    return _LOG_CARD.search(text) is not None


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


@dataclass(frozen=True)
class Sent:
    index: int
    audience: int  # PUBLIC or the user id of an ephemeral message's owner
    text: str


class PrivacyWatch:
    """Subscribe before the game; :meth:`violations` after it."""

    def __init__(self, env: simcord.Env) -> None:
        self.env = env
        self.positions: list[int] = []
        self.tables: list[Table] = []

    def watch(self, service: TableService) -> None:
        # First in line: a listener that awaits (the turn clock writes its
        # deadlines) lets the table message be redrawn before later listeners
        # run, and the record must precede anything drawn from the commit.
        service.subscribe(self._on_change)
        listeners = service._listeners
        listeners.insert(0, listeners.pop())

    async def _on_change(self, table: Table, event: str) -> None:
        self.positions.append(len(self.env.http_requests))
        self.tables.append(table)

    def sent(self) -> list[Sent]:
        backend = self.env.backend
        by_token = {i.token: i for i in backend.interactions.values()}
        by_id = {str(i.id): i for i in backend.interactions.values()}
        out = []
        for index, request in enumerate(self.env.http_requests):
            audience = self._audience(request, by_token, by_id)
            if audience is None:
                continue
            out.append(Sent(index, audience, "\n".join(_strings(request.json))))
        return out

    def _audience(
        self, request: Any, by_token: dict[str, Any], by_id: dict[str, Any]
    ) -> int | None:
        parts = request.path.strip("/").split("/")
        body = request.json if isinstance(request.json, dict) else {}
        if request.method == "DELETE" or not body:
            return None
        if parts[0] == "channels":
            return PUBLIC  # the bot's own channel messages are all public
        if parts[0] == "interactions":
            interaction = by_id[parts[1]]
            data = body.get("data") or {}
            if body.get("type") == 7:  # an edit of the clicked message
                return self._owner(interaction, interaction.source_message_id)
            return interaction.user_id if int(data.get("flags") or 0) & EPHEMERAL else PUBLIC
        if parts[0] == "webhooks":
            interaction = by_token[parts[2]]
            if request.method == "POST":
                return interaction.user_id if int(body.get("flags") or 0) & EPHEMERAL else PUBLIC
            # PATCH .../messages/@original: the answer to the interaction (for a
            # deferred click on a message, that message itself); else a followup.
            target = parts[-1]
            if target == "@original":
                return self._owner(
                    interaction, interaction.message_id or interaction.source_message_id
                )
            return self._owner(interaction, int(target))
        raise AssertionError(f"unclassified request {request.method} {request.path}")

    def _owner(self, interaction: Any, message_id: int) -> int:
        """Who sees that message: its owner if ephemeral, else the channel."""
        message = self.env.backend.get_message(interaction.channel_id, message_id)
        return interaction.user_id if message.flags & EPHEMERAL else PUBLIC

    def violations(self) -> list[str]:
        problems = []
        for sent in self.sent():
            cards = cards_in_text(sent.text)
            if not cards:
                continue
            at = bisect_right(self.positions, sent.index) - 1
            if at < 0:
                problems.append(f"request {sent.index} shows cards before any game: {cards}")
                continue
            allowed = self._allowed(self.tables[at], sent.audience)
            leaked = cards - allowed
            if leaked:
                who = "the channel" if sent.audience == PUBLIC else f"user {sent.audience}"
                problems.append(f"request {sent.index} showed {sorted(leaked)} to {who}")
        return problems

    @staticmethod
    def _allowed(table: Table, audience: int) -> set[int]:
        game = table.game
        if game is None:
            return set()
        allowed = {card for trick in game.tricks for card in trick.cards} | set(game.trick)
        for shown in range(4):  # a claim of the rest shows the claimer's cards
            if game.rest.shows(shown):
                allowed |= {card for card in range(52) if game.hands[shown] >> card & 1}
        seat = table.seat_of(audience) if audience != PUBLIC else None
        if seat is not None:  # its own cards, and those its partner passed it once exchanged
            dealt = game.dealt[seat] | game.exchange.received(seat)
            allowed |= {card for card in range(52) if dealt >> card & 1}
        return allowed
