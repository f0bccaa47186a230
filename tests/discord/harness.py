"""Helpers for driving the bot through SimCord the way people would: by clicking.

The tests read the table service to know whose turn it is (what a player
would read on the table message), but every action goes through a slash
command, a button or a menu.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord
import simcord
from simcord import MemberActor

from bot.config import DiscordSettings
from bot.discord_app import SpadesBot
from bot.game.cards import parse_card
from bot.game.types import Phase
from bot.render.hand import CHOSEN_MARK
from bot.tables.model import Table, TableStatus

TABLE_TITLE = "Spades · table"

#: No edit budgets: SimCord's clock stands still between the tests' clicks, so
#: a paced edit would wait for real time. tests/discord/test_coalescing.py
#: turns them on and moves the clock itself.
UNPACED = DiscordSettings(table_edits_per_channel_s=0, rest_per_s=0, old_message_edits=0)

Message = discord.Message | simcord.ResponseMessage
#: The custom_id starts of the Nil pass's buttons (bot.render.hand).
PASS_PICK, PASS_DONE = "spades:pass_pick:", "spades:pass:"


@dataclass(frozen=True)
class Button:
    label: str
    custom_id: str
    disabled: bool
    style: int
    emoji: str | None


def components_of(message: Message) -> list[dict[str, Any]]:
    if isinstance(message, simcord.ResponseMessage):
        return message.components
    return [dict(row.to_dict()) for row in message.components]


def buttons_of(message: Message) -> list[Button]:
    found = []
    for row in components_of(message):
        for item in row.get("components", []):
            if item.get("type") == 2:
                emoji = item.get("emoji") or {}
                found.append(
                    Button(
                        item.get("label") or "",
                        item["custom_id"],
                        bool(item.get("disabled")),
                        int(item["style"]),
                        emoji.get("name"),
                    )
                )
    return found


def labels_of(message: Message) -> list[str]:
    return [b.label for b in buttons_of(message)]


def embed_text(message: Message) -> str:
    parts = []
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or "", embed.footer.text or ""]
        for field in embed.fields:
            parts += [field.name or "", field.value or ""]
    return "\n".join(parts)


class World:
    """One server with one channel, some users, and the bot."""

    def __init__(self, env: simcord.Env, make_bot: Callable[[], SpadesBot]) -> None:
        self.env = env
        self.make_bot = make_bot
        self.guild = env.create_guild("Card Club")
        self.channel = self.guild.create_text_channel("spades")
        self.users: dict[str, MemberActor] = {}
        self.hand_ids: dict[int, int] = {}  # user id -> their latest hand message
        self.hands_opened = 0
        #: Every card button a player could click when the harness played.
        self.cards_offered: list[Button] = []

    @property
    def bot(self) -> SpadesBot:
        bot = self.env.bot
        assert isinstance(bot, SpadesBot)
        return bot

    async def sync(self) -> None:
        await self.bot.sync_commands()

    async def restart(self, *, servers_after_s: float | None = None) -> None:
        """Stop the bot the way a crash would, and start a new one on the same
        database. With ``servers_after_s``, the servers (GUILD_CREATE) reach
        the new bot that many seconds after its connection, as on a real
        Discord busy sending them, not at once."""
        if servers_after_s is None:
            await self.env.restart_bot(self.make_bot())
        else:
            servers = await self.restart_without_servers()
            await self.env.advance_time(servers_after_s)
            await servers.arrive()
        await self.sync()

    async def restart_without_servers(self) -> HeldServers:
        """Restart; the servers reach the new bot only at ``arrive()``."""
        held = HeldServers(self.env)
        held.backend.emit = held.hold  # type: ignore[method-assign]
        try:
            await self.env.restart_bot(self.make_bot())
        finally:
            del held.backend.emit
        assert held.events, "no server was held back"
        return held

    def user(self, name: str) -> MemberActor:
        if name not in self.users:
            self.users[name] = self.guild.add_member(self.env.create_user(name))
        return self.users[name]

    def by_id(self, user_id: int) -> MemberActor:
        return next(u for u in self.users.values() if u.id == user_id)

    # -- the table -----------------------------------------------------------------

    async def table(self, table_id: int | None = None) -> Table:
        if table_id is None:
            found = await self.bot.app.tables.in_channel(self.channel.id)
            assert found is not None, "no open table in the channel"
            return found
        return await self.bot.app.tables.get(table_id)

    def table_message(self, channel: simcord.ChannelHandle | None = None) -> discord.Message:
        """The newest table message in the channel (public)."""
        messages = [
            m
            for m in (channel or self.channel).history()
            if m.embeds and (m.embeds[0].title or "").startswith(TABLE_TITLE)
        ]
        assert messages, "no table message in the channel"
        return messages[-1]

    def talk(self) -> simcord.ChannelHandle:
        """Where the channel's newest table talks: its thread, else the channel."""
        threads = self.channel.threads
        return threads[-1] if threads else self.channel

    async def new_table(self, host: MemberActor, **options: Any) -> Table:
        result = await host.slash(self.channel, "spades new", **options)
        assert result.ephemeral, result
        return await self.table()

    async def seat_four(self, host: MemberActor, *others: MemberActor, **options: Any) -> Table:
        """Open a table and seat ``others`` by clicking Join (they sit in order)."""
        await self.new_table(host, **options)
        for user in others:
            await self.click(user, "Join")
        return await self.table()

    async def click(
        self, user: MemberActor, label: str, message: Message | None = None
    ) -> simcord.InteractionResult:
        message = message if message is not None else self.table_message()
        return await user.click(message, label=label)

    async def my_hand(self, user: MemberActor) -> simcord.ResponseMessage:
        """Click My hand: a fresh private hand message, the ephemeral
        follow-up of a deferred update of the table message."""
        result = await self.click(user, "My hand")
        hand = my_hand_of(result)
        self.hand_ids[user.id] = hand.id
        self.hands_opened += 1
        return hand

    def message(self, message_id: int) -> simcord.ResponseMessage:
        """The current state of any message by id (ephemeral ones included)."""
        stored = self.env.backend.get_message(self.channel.id, message_id)
        return simcord.ResponseMessage(self.env, stored)

    async def editable_hand(self, user: MemberActor) -> simcord.ResponseMessage:
        """The user's last hand message if the bot kept it editable and it has
        something to click, else a fresh one."""
        known = self.hand_ids.get(user.id)
        if known is not None:
            hand = self.message(known)
            if any(not b.disabled for b in buttons_of(hand)):
                return hand
        return await self.my_hand(user)

    # -- playing by clicking -------------------------------------------------------

    async def act(
        self,
        table: Table,
        bid: Callable[[Table, int], str] | None = None,
        card: Callable[[list[Button]], Button] | None = None,
    ) -> simcord.InteractionResult:
        """The player the table waits on opens their hand and clicks a bid or a card."""
        game = table.game
        assert game is not None
        seat = game.waited_on()
        assert seat is not None
        user_id = table.seats[seat].user_id
        assert user_id is not None, "the table waits on a computer player"
        user = self.by_id(user_id)
        if game.phase is Phase.PASSING:
            return await self.pass_cards(user)
        hand = await self.editable_hand(user)
        enabled = [b for b in buttons_of(hand) if not b.disabled]
        if game.phase is Phase.BIDDING:
            label = bid(table, seat) if bid else "3"
            if label != "Blind Nil" and "Show my cards" in [b.label for b in enabled]:
                # A Blind Nil table deals face down: look before bidding.
                await user.click(hand, label="Show my cards")
                hand = self.message(hand.id)
            return await user.click(hand, label=label)
        self.cards_offered.extend(enabled)
        if card is not None:
            chosen = card(enabled)
        else:
            # Follow suit: with revokes allowed every card is enabled, and a
            # test revokes only on purpose.
            legal = game.legal_play_mask(seat)
            deck = game.rules.deck.value
            chosen = next(
                b for b in enabled if legal >> parse_card(b.custom_id.split(":")[-1], deck) & 1
            )
        return await user.click(hand, custom_id=chosen.custom_id)

    async def pass_cards(
        self, user: MemberActor, picks: int | None = None, *, press: bool = True
    ) -> simcord.InteractionResult:
        """The user toggles cards of their hand (the first ones not chosen)
        until ``picks`` are chosen (default: as many as the pass asks), each
        click redrawing the hand, then presses Pass (unless ``press`` is False)."""
        hand = await self.editable_hand(user)
        result: simcord.InteractionResult | None = None
        while True:
            toggles = [b for b in buttons_of(hand) if b.custom_id.startswith(PASS_PICK)]
            done = next(b for b in buttons_of(hand) if b.custom_id.startswith(PASS_DONE))
            chosen = [b for b in toggles if b.label.startswith(CHOSEN_MARK)]
            if len(chosen) == picks or (picks is None and not done.disabled):
                break
            free = next(b for b in toggles if not b.disabled and b not in chosen)
            result = await user.click(hand, custom_id=free.custom_id)
            hand = self.message(hand.id)
        if press:
            result = await user.click(hand, custom_id=done.custom_id)
        assert result is not None
        return result

    async def play_until(
        self,
        done: Callable[[Table], bool],
        *,
        bid: Callable[[Table, int], str] | None = None,
        card: Callable[[list[Button]], Button] | None = None,
        next_hand: bool = True,
        limit: int = 5000,
    ) -> Table:
        """Click through the game until ``done(table)``; Next hand is pressed by
        the first seated person."""
        for _ in range(limit):
            table = await self.table_any()
            if done(table):
                return table
            game = table.game
            assert game is not None and table.status is TableStatus.PLAYING, table.status
            if game.phase is Phase.HAND_OVER:
                assert next_hand, "the hand is over"
                first = next(s.user_id for s in table.seats if s.user_id is not None)
                await self.click(self.by_id(first), "Next hand")
                continue
            await self.act(table, bid, card)
        raise AssertionError("the game did not finish")

    async def table_any(self) -> Table:
        """The channel's table, open or just finished."""
        found = await self.bot.app.tables.in_channel(self.channel.id)
        if found is not None:
            return found
        return await self.bot.app.tables.get(self._last_table_id())

    def _last_table_id(self) -> int:
        title = self.table_message().embeds[0].title or ""
        return int(title.removeprefix(TABLE_TITLE).split("·")[0])


class HeldServers:
    """The servers' GUILD_CREATE events a restart held back."""

    def __init__(self, env: simcord.Env) -> None:
        self.env = env
        self.backend = env.backend
        self.events: list[tuple[str, Any]] = []

    def hold(self, event: str, payload: Any) -> None:
        if event == "GUILD_CREATE":
            self.events.append((event, payload))
        else:
            type(self.backend).emit(self.backend, event, payload)

    async def arrive(self) -> None:
        for event, payload in self.events:
            self.backend.emit(event, payload)
        await self.env.settle()


def finished(table: Table) -> bool:
    return table.status is TableStatus.FINISHED


def my_hand_of(result: simcord.InteractionResult) -> simcord.ResponseMessage:
    """The hand a My hand press brought: the press is answered as a deferred
    update (its answer is the public table message, left as it was) and the
    hand is its first follow-up, ephemeral."""
    assert result.response is not None and not result.response.ephemeral, result
    follow_ups = result.followups
    assert follow_ups and follow_ups[0].ephemeral, result
    return follow_ups[0]
