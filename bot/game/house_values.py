"""The kinds of values a house rule takes (see :mod:`bot.game.house`): how
each is read from and written as text, which values the menus offer, which
mean ``off``, and the catalog message that says a value."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Final

from bot.game.refusals import N_

#: One rule's value: a word, a number, on/off, a pair of numbers, None for off.
Value = str | int | bool | tuple[int, int] | None
#: A catalog message id and its placeholders' values.
Words = tuple[str, dict[str, object]]

OFF: Final = N_("off")


@dataclass(frozen=True)
class Choice:
    """One of a few words. Each value's words in the menus and ``/spades
    rules``, and shorter ones for the rules line (the same when left out)."""

    words: Mapping[str, str]
    short: Mapping[str, str] | None = None
    off_value: tuple[Value, ...] = ()

    @property
    def offered(self) -> tuple[Value, ...]:
        return tuple(self.words)

    @property
    def expected(self) -> str:
        return "|".join(self.words)

    def read(self, text: str) -> Value:
        if text not in self.words:
            raise ValueError
        return text

    def text(self, value: Value) -> str:
        return str(value)

    def said(self, value: Value, *, short: bool = False) -> Words:
        words = self.short if short and self.short else self.words
        return words[str(value)], {}


@dataclass(frozen=True)
class Switch:
    """``on`` or ``off`` (True or False)."""

    on_words: str
    offered: tuple[Value, ...] = (False, True)
    expected: str = "on|off"
    off_value: tuple[Value, ...] = (False,)

    def read(self, text: str) -> Value:
        if text not in ("on", "off"):
            raise ValueError
        return text == "on"

    def text(self, value: Value) -> str:
        return "on" if value else "off"

    def said(self, value: Value, *, short: bool = False) -> Words:
        return (self.on_words, {}) if value else (OFF, {})


@dataclass(frozen=True)
class Number:
    """A whole number (``{n}`` in its words), or ``off`` (None) where the
    menus offer None. ``allowed``: the only numbers read (any when empty);
    a number in ``off_value`` is said ``off``."""

    said_as: str
    offered: tuple[Value, ...]
    expected: str
    allowed: tuple[int, ...] = ()
    off_value: tuple[Value, ...] = (None,)

    def read(self, text: str) -> Value:
        if text == "off" and None in self.offered:
            return None
        number = _number(text)
        if self.allowed and number not in self.allowed:
            raise ValueError
        return number

    def text(self, value: Value) -> str:
        return "off" if value is None else str(value)

    def said(self, value: Value, *, short: bool = False) -> Words:
        return (OFF, {}) if value in self.off_value else (self.said_as, {"n": value})


@dataclass(frozen=True)
class Pair:
    """``off`` (None) or two numbers ``A:B``, said with the placeholders ``names``."""

    said_as: str
    names: tuple[str, str]
    offered: tuple[Value, ...]
    expected: str
    off_words: str = OFF
    off_value: tuple[Value, ...] = (None,)

    def read(self, text: str) -> Value:
        if text == "off":
            return None
        first, sep, second = text.partition(":")
        if not sep:
            raise ValueError
        return _number(first), _number(second)

    def text(self, value: Value) -> str:
        if not isinstance(value, tuple):
            return "off"
        return f"{value[0]}:{value[1]}"

    def said(self, value: Value, *, short: bool = False) -> Words:
        if not isinstance(value, tuple):
            return self.off_words, {}
        return self.said_as, dict(zip(self.names, value, strict=True))


Kind = Choice | Switch | Number | Pair


# -- values in a conflict of two rules (bot.game.house) ---------------------------------


class Some(Enum):
    """Values of a rule named by what they are, in a :class:`Conflict`."""

    #: Every value but the rule's ``off``.
    ON = "on"


ON: Final = Some.ON
#: Values of a rule in a :class:`Conflict`: these, or :data:`ON`.
Values = tuple[Value, ...] | Some


@dataclass(frozen=True)
class Conflict:
    """The rule at ``values`` cannot be played with the rule ``other`` at
    ``other_values``. ``line`` says so; its placeholders named like the two
    rules' keys are filled with their values."""

    values: Values
    other: str
    other_values: Values
    line: str


def _number(text: str) -> int:
    if not text.lstrip("-").isdigit():
        raise ValueError
    return int(text)
