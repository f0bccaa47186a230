"""A table as a value: what the table service holds and hands out.

A :class:`Table` is one table at one version and never changes: an action
makes the next value (:func:`bot.tables.step.step`). Its ``game`` is the
engine state at that version, which nobody mutates (an action works on the
engine's copy of it, :meth:`~bot.game.state.Game.copy`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property, lru_cache
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    SerializerFunctionWrapHandler,
    ValidationError,
    field_validator,
    model_serializer,
    model_validator,
)

from bot import refusals
from bot.game.house import (
    HouseChoices,
    HouseRuleError,
    apply,
    by_key,
    read_value,
)
from bot.game.rules import DEFAULT_TURN_LIMIT_S, PRESETS, RuleSet, preset
from bot.game.sides import solo
from bot.game.state import Game
from bot.game.types import GameResult

__all__ = [
    "DEFAULT_TURN_LIMIT_S",
    "EMPTY_SEAT",
    "TARGETS",
    "OpenTable",
    "Seat",
    "SeatRequest",
    "Table",
    "TableOptions",
    "TableStatus",
]

#: The targets a host can choose from (rules text 000).
TARGETS = (500, 250)
MAX_TURN_LIMIT_S = 30 * 24 * 3600


class TableStatus(StrEnum):
    LOBBY = "lobby"  # seats are being taken; nothing is dealt yet
    PLAYING = "playing"
    FINISHED = "finished"  # the game is over; a rematch starts the next one
    CANCELLED = "cancelled"  # the host (or a moderator) closed the table before it started

    @property
    def is_open(self) -> bool:
        """An open table holds its channel and is resumed after a restart."""
        return self in (TableStatus.LOBBY, TableStatus.PLAYING)


def _chosen(house: object) -> object:
    return HouseChoices.parse(house) if isinstance(house, str) else house


#: House rules as a table keeps them; read from and stored as their text.
House = Annotated[HouseChoices, BeforeValidator(_chosen), PlainSerializer(lambda house: house.text)]


class TableOptions(BaseModel):
    """The host's choices when opening a table: the ``/spades new`` form
    builds this value, and it reaches the store unchanged. A new choice is a
    field here (and on the form); nothing in between names it.

    Stored as the table's ``options`` (JSON), except the two fields marked
    ``exclude``, which are kept where earlier versions keep them: the language
    in the table's own column, the stand-in choice in the turn clock's state.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    target: int = 500
    revokes: Literal["allowed", "blocked"] = "allowed"
    preset: str = "standard"
    turn_limit_s: int = Field(DEFAULT_TURN_LIMIT_S, gt=0, le=MAX_TURN_LIMIT_S)
    #: The coach's Hint button on the private hands (tables from before read False).
    hints: bool = False
    #: Whether people who find every seat taken may watch (tables from
    #: before read True).
    watchers: bool = True
    #: Whether the table talks in a thread started from its message, where
    #: the bot may start one (tables from before read False: their channel).
    thread: bool = False
    #: The language of the public messages (bot.i18n code); English for
    #: tables opened before there was a choice.
    language: str = Field("en", exclude=True)
    #: Past the turn limit a computer plays for a late player (None: the
    #: clock's default). Handed to the turn clock when the table opens, which
    #: keeps it (:attr:`bot.app.Snapshot.stand_in` says what holds); tables
    #: read back from the store have None here.
    stand_in: bool | None = Field(None, exclude=True)
    #: The house rules the host set in the lobby, applied over the preset and
    #: the choices above; stored as ``KEY=VALUE,...`` text (bot.game.house),
    #: empty for the preset's rules (and for every table stored before them).
    house: House = HouseChoices()
    #: Whether the players may start the next game once this one is over:
    #: not at a tournament's match table, whose one game counts for the
    #: bracket (stored only when False, so every version reads the rest).
    rematch: bool = True

    @classmethod
    def chosen(cls, **choices: Any) -> TableOptions:
        """The options of a new table; Malformed saying what is wrong, or
        BadHouseRule with the house rules' one line."""
        try:
            options = cls.model_validate(choices)
        except ValidationError as exc:
            first = exc.errors()[0]
            cause = first.get("ctx", {}).get("error")
            if isinstance(cause, HouseRuleError):
                raise refusals.house_refusal(cause) from None
            where = ".".join(str(p) for p in first.get("loc", ()))
            message = str(first.get("msg", "invalid")).removeprefix("Value error, ")
            raise refusals.Malformed(f"{where}: {message}" if where else message) from None
        return options._with_house_of(options.rules()) if options.house else options

    @model_serializer(mode="wrap")
    def _stored_shape(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # A table without house rules (or with rematches) is stored as
        # before those choices existed, so every version reads it.
        data: dict[str, Any] = handler(self)
        if not self.house:
            data.pop("house", None)
        if self.rematch:
            data.pop("rematch", None)
        return data

    @field_validator("target")
    @classmethod
    def _known_target(cls, target: int) -> int:
        if target not in TARGETS:
            raise ValueError(f"the game goes to {' or '.join(map(str, TARGETS))} points")
        return target

    @field_validator("preset")
    @classmethod
    def _known_preset(cls, name: str) -> str:
        if name not in PRESETS:
            raise ValueError(f"unknown rules preset {name!r}: choose one of {', '.join(PRESETS)}")
        return name

    @model_validator(mode="after")
    def _rules_accept(self) -> TableOptions:
        self.rules()  # the preset must accept the other choices (ValueError)
        return self

    def rules(self) -> RuleSet:
        """The engine's rules for these choices."""
        return _rules(tuple(getattr(self, name) for name in RULE_CHOICES), self.house)

    def with_house_rule(self, key: str, value: str) -> TableOptions:
        """These options with one house rule set (``key=value`` as
        bot.game.house writes it). Raises HouseRuleError, one line, when the
        value or the rules it makes cannot be played. Only the rules that
        differ from the table's other choices are kept."""
        chosen = self.house.with_value(key, read_value(by_key()[key], value))
        return self._with_house_of(apply(self.rules(), chosen))

    def _with_house_of(self, rules: RuleSet) -> TableOptions:
        """These options with the house rules that make ``rules``: the rules
        that differ from the table's other choices."""
        base = self.model_copy(update={"house": HouseChoices()}).rules()
        return self.model_copy(update={"house": HouseChoices.changed(rules, base)})


#: The options that are rules too: named like a field of RuleSet.
RULE_CHOICES = tuple(name for name in TableOptions.model_fields if name in RuleSet.model_fields)


@lru_cache(maxsize=256)
def _rules(values: tuple[object, ...], house: HouseChoices) -> RuleSet:
    # Validating a RuleSet costs more than the rest of starting a game; rule
    # sets are frozen, so the tables with the same choices share one.
    chosen = dict(zip(RULE_CHOICES, values, strict=True))
    rules = preset(str(chosen["preset"])).with_options(**chosen)
    return apply(rules, house) if house else rules


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat holds a Discord user, a computer player of some level, or nobody."""

    user_id: int | None = None
    computer_level: str | None = None

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and self.computer_level is None

    @property
    def is_computer(self) -> bool:
        return self.computer_level is not None

    @property
    def is_human(self) -> bool:
        return self.user_id is not None


EMPTY_SEAT = Seat()


@dataclass(frozen=True, slots=True)
class SeatRequest:
    """Someone not seated asks, between hands, to play a seat a computer
    holds; it waits for the host's answer until the next hand is dealt."""

    user_id: int
    seat: int


@dataclass(frozen=True, slots=True)
class OpenTable:
    """An open table as its stored rows tell without its game: enough to find
    it (by server, thread or player) without bringing it into memory."""

    id: int
    guild_id: int | None
    thread_id: int | None
    user_ids: tuple[int | None, ...]  # of its four seats (None: empty or a computer)
    game_number: int


@dataclass(frozen=True)
class Table:
    """One table at one version.

    ``seats`` are in engine seat order: seat 0 is the host, seat 2 the host's
    partner, seats 1 and 3 the other team (before the start, the partner is
    whoever sits at seat 2: choosing a partner moves players). ``game`` is
    None until the first start; after a game ends it stays, over, until a
    rematch replaces it.
    """

    id: int
    guild_id: int | None
    channel_id: int
    message_id: int | None
    host_id: int
    options: TableOptions
    status: TableStatus
    version: int
    seats: tuple[Seat, Seat, Seat, Seat]
    spectators: tuple[int, ...]
    game: Game | None
    game_number: int  # 0 before the first start; a rematch adds one
    game_id: int | None  # the stored id of the current game (hand records, leaderboard)
    created_at: float
    updated_at: float
    #: The thread started from the table message that carries everything
    #: else the table says (None: it all goes to the channel).
    thread_id: int | None = None
    #: The request for a computer's seat waiting for the host's answer.
    seat_request: SeatRequest | None = None
    #: A moderator closed the table in its lobby: their reason (a game they
    #: end keeps it in its result instead).
    closing_note: str | None = None
    #: The version whose action started the current game (0: none yet).
    game_version: int = 0
    #: The version of the last change the players can see (anything but a
    #: spectator coming or going); None after a resume until a click needs
    #: it, when it is read from the log (see ``TableRegistry.run``).
    visible_version: int | None = None
    #: The version whose action made the current game's last claim of the
    #: rest (None: no claim yet): its opponents' answers hold from there on.
    claim_version: int | None = None

    @cached_property
    def rules(self) -> RuleSet:
        return self.options.rules()

    @property
    def solo(self) -> bool:
        """Whether everyone plays on their own (``teams=solo``): no partners."""
        return solo(self.rules)

    @property
    def language(self) -> str:
        """The language of the table's public messages."""
        return self.options.language

    @property
    def result(self) -> GameResult | None:
        return self.game.result if self.game is not None else None

    @property
    def is_open(self) -> bool:
        return self.status.is_open

    @property
    def talk_channel_id(self) -> int:
        """Where the table's notices, clock messages and end of game go: its
        thread, else its channel."""
        return self.thread_id if self.thread_id is not None else self.channel_id

    def seat_of(self, user_id: int) -> int | None:
        """The user's seat number, or None if they are not seated."""
        for number, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return number
        return None

    @property
    def waited_on(self) -> int | None:
        """The seat the open table waits on to bid or play, if any."""
        if self.game is None or not self.is_open:
            return None
        return self.game.waited_on()

    def waits_on(self, user_id: int) -> bool:
        seat = self.waited_on
        return seat is not None and self.seats[seat].user_id == user_id

    def is_seated(self, user_id: int) -> bool:
        return self.seat_of(user_id) is not None

    def is_spectator(self, user_id: int) -> bool:
        return user_id in self.spectators

    @property
    def seated_count(self) -> int:
        return sum(1 for seat in self.seats if not seat.is_empty)
