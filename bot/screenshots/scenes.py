"""The game the pictures are taken from: four people play one game by clicking in SimCord.

Fixed seeds, SimCord's clock and fixed choices make every run reach the same screens with
the same cards; each key screen goes to ``take`` with the player who looks at it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol

import discord
import simcord
from simcord import MemberActor

from bot.ai.base import Player, make_player
from bot.app import SpadesApp
from bot.game.cards import parse_card
from bot.game.scoring import NIL
from bot.game.state import Game as GameState
from bot.game.types import Action, ActionKind, Phase
from bot.game.view import view_of
from bot.i18n import resolve, tr
from bot.render.decks import DECKS, DEFAULT_DECK
from bot.render.spec import PREFIX, Act, parse
from bot.tables.model import Table, TableStatus
from bot.tournament.service import TournamentService

Message = discord.Message | simcord.ResponseMessage

#: Seated in this order: South (the host), West, North, East.
PLAYERS = ("Maya", "Theo", "Priya", "Jonas")
NIL_SEAT = 2  # North bids Nil in the first hand; every other choice is a computer player's
ADVISER_LEVEL = "heuristic"
TARGET = 250  # a short game: a few hands
TRICK_SHOWN = 4  # the table is pictured in this trick of the first hand, two cards down
HAND_LIMIT = 40  # a game to 250 ends long before; a stop if it ever did not


@dataclass(frozen=True)
class Shot:
    """One screen: file, caption, viewer, message, channel (None: the game's), message alone."""

    name: str
    caption: str
    viewer: MemberActor
    message: Message
    channel: simcord.ChannelHandle | None = None
    layout: Literal["message", "channel"] = "message"


Take = Callable[[Shot], Awaitable[None]]


class PictureBot(Protocol):
    """What the scripted game reads of the bot: its core and its tournaments."""

    @property
    def app(self) -> SpadesApp: ...

    @property
    def tournaments(self) -> TournamentService: ...


class Game:
    """The channel, the players and the clicks of one scripted game."""

    def __init__(self, env: simcord.Env, bot: PictureBot, language: str | None, take: Take) -> None:
        self.env = env
        self.bot = bot
        # Our code for what was asked (``pt``, ``pt-BR`` and ``pt_BR`` alike).
        self.language = None if language is None else resolve(language)
        self.take = take
        self.guild = env.create_guild("Card Club")
        self.channel = self.guild.create_text_channel("spades")
        self.players = [self.guild.add_member(env.create_user(name)) for name in PLAYERS]
        self.table_id: int | None = None
        # Seeded per seat: the same choices every run.
        self.advisers: list[Player] = [make_player(ADVISER_LEVEL, seat) for seat in range(4)]

    async def play(self) -> None:
        host = self.players[0]
        await self.choose_language()
        # The album shows one channel, so the table plays in it, not in a thread.
        await host.slash(
            self.channel, "spades new", target=TARGET, thread=False, **self.table_language()
        )
        for player in self.players[1:]:
            await player.click(self.table_message(), label=self.label("Join"))
        await self.take(Shot("lobby", "The lobby: four seated", host, self.table_message()))
        await host.click(self.table_message(), label=self.label("Start"))
        await self.first_hand()
        await self.play_until(lambda table: table.status is TableStatus.FINISHED)
        await self.take(Shot("end", "The end of the game", host, self.table_message()))
        await self.take(Shot("end-picture", "The end-of-game picture", host, self.picture()))
        board = await host.slash(self.channel, "spades leaderboard", share=True)
        await self.take(Shot("leaderboard", "The leaderboard", host, self.response(board)))

    async def first_hand(self) -> None:
        table = await self.table()
        bidder = self.players[self.waited_on(table)]
        hand = await self.open_hand(bidder)
        await self.take(Shot("bid", "A bid: the first bidder's hand", bidder, hand))
        await self.play_until(self.mid_trick)
        await self.take(Shot("table", "A table mid-trick", self.players[0], self.table_message()))
        await self.play_until(self.hosts_turn_to_play)  # so the host's cards can be clicked
        await self.deck_designs(self.players[0])
        await self.play_until(lambda table: self.game_of(table).phase is Phase.HAND_OVER)
        await self.take(
            Shot("summary", "A hand summary with a Nil", self.players[0], self.table_message())
        )

    async def deck_designs(self, player: MemberActor) -> None:
        """The player's own hand in each deck design, then back to the usual one."""
        for deck in DECKS.values():
            await player.slash(self.channel, "spades deck", design=deck.name.value)
            hand = await self.open_hand(player)
            await self.take(Shot(f"hand-{deck.name.value}", f"A hand: {deck.title}", player, hand))
        await player.slash(self.channel, "spades deck", design=DEFAULT_DECK.value)

    # -- languages -----------------------------------------------------------------

    def label(self, text: str) -> str:
        """A button's label as the table's language prints it."""
        return tr(self.language or "en", text)

    def table_language(self) -> dict[str, str]:
        """The ``language`` option of /spades new, when a language is asked for."""
        return {} if self.language is None else {"language": self.language}

    async def choose_language(self) -> None:
        """Each player picks the language for their private text."""
        if self.language is not None:
            for player in self.players:
                await player.slash(self.channel, "spades language", language=self.language)

    def move_to(self, channel: simcord.ChannelHandle) -> None:
        """Go on at the table about to open in ``channel``."""
        self.channel = channel
        self.table_id = None

    # -- reading the table -----------------------------------------------------------

    async def table(self) -> Table:
        """The game's table, open or just finished."""
        if self.table_id is None:
            found = await self.bot.app.tables.in_channel(self.channel.id)
            assert found is not None, "no table was opened"
            self.table_id = found.id
        return await self.bot.app.tables.get(self.table_id)

    @staticmethod
    def game_of(table: Table) -> GameState:
        assert table.game is not None, "the table has no game"
        return table.game

    def waited_on(self, table: Table) -> int:
        seat = self.game_of(table).waited_on()
        assert seat is not None, "the table waits on nobody"
        return seat

    def mid_trick(self, table: Table) -> bool:
        game = self.game_of(table)
        return len(game.tricks) == TRICK_SHOWN - 1 and len(game.trick) == 2

    def hosts_turn_to_play(self, table: Table) -> bool:
        game = self.game_of(table)
        return game.phase is Phase.PLAYING and game.waited_on() == 0

    def table_message(self) -> discord.Message:
        return self.newest(lambda m: bool(m.embeds) and m.author.bot)

    def picture(self) -> discord.Message:
        return self.newest(lambda m: bool(m.attachments))

    def newest(self, wanted: Callable[[discord.Message], bool]) -> discord.Message:
        found = [m for m in self.channel.history() if wanted(m)]
        assert found, "the bot has not posted that message"
        return found[-1]

    def message_of(self, shown: simcord.ResponseMessage) -> simcord.ResponseMessage:
        """A message as it is now (an ephemeral one edited by clicks included)."""
        stored = self.env.backend.get_message(self.channel.id, shown.id)
        return simcord.ResponseMessage(self.env, stored)

    @staticmethod
    def response(result: simcord.InteractionResult) -> simcord.ResponseMessage:
        assert result.response is not None, result
        return result.response

    # -- playing -----------------------------------------------------------------------

    async def open_hand(self, player: MemberActor) -> simcord.ResponseMessage:
        """The hand My hand brings, as the deferred press's ephemeral follow-up."""
        pressed = await player.click(self.table_message(), label=self.label("My hand"))
        hand = pressed.followups[0] if pressed.followups else None
        assert hand is not None and hand.ephemeral, pressed
        return hand

    async def play_until(self, done: Callable[[Table], bool]) -> None:
        for _ in range(HAND_LIMIT * 60):
            table = await self.table()
            if done(table):
                return
            game = self.game_of(table)
            if game.phase is Phase.HAND_OVER:
                await self.players[0].click(self.table_message(), label=self.label("Next hand"))
            else:
                await self.act(table, game)
        raise AssertionError("the game did not reach the screen")

    async def act(self, table: Table, game: GameState) -> None:
        """The waited-on player clicks what a computer would (the first hand's Nil excepted)."""
        seat = self.waited_on(table)
        player = self.players[seat]
        hand = await self.open_hand(player)
        if game.phase is Phase.BIDDING and game.hand_number == 1 and seat == NIL_SEAT:
            wanted = Action(ActionKind.BID, seat, NIL)
        else:
            wanted = self.advisers[seat].decide(view_of(game, seat))
        await player.click(hand, custom_id=button_for(hand.components, wanted))


def button_for(rows: list[dict[str, Any]], action: Action) -> str:
    """The custom id of the hand message's button that makes ``action``."""
    act = Act.BID if action.kind is ActionKind.BID else Act.PLAY
    for row in rows:
        for item in row.get("components", []):
            custom_id = str(item.get("custom_id", ""))
            if item.get("type") != 2 or item.get("disabled") or not custom_id.startswith(PREFIX):
                continue
            found = parse(custom_id.removeprefix(f"{PREFIX}:"))
            value = found.arg and (int(found.arg) if act is Act.BID else parse_card(found.arg))
            if found.action is act and value == action.value:
                return custom_id
    raise AssertionError(f"no button for {action}")


def locale_of(language: str | None, locales: Mapping[str, str]) -> str:
    """The Discord locale a language is shown in: ``pt`` is ``pt-BR``, ``de`` is ``de``."""
    if language is None:
        return "en-US"
    language = language.replace("_", "-")
    for code in (language, *sorted(code for code in locales if code.startswith(language + "-"))):
        if code in locales:
            return code
    return "en-US"
