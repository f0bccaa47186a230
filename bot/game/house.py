"""House rules: the rules a host changes on top of a preset, by name, as text.

One vocabulary for every place that reads or writes them (the simulator's
``--house``, the benchmarks, server defaults, tournaments, the hand records):
``KEY=VALUE[,KEY=VALUE...]`` with these keys and values::

    deck=standard|jokers|jokers-deuce|jjdd   bidding=open|suicide|mirror|whiz
    nil=off|50|100                           nil_tricks=bags|contract
    blind_nil=off|T:V (trailing by T, +/-V)  bags=off|L:P (every L bags cost P)
    set=bid|short                            boston=off|B
    ten_for_200=on|off                       spades_lead=broken|any
    first_lead=any|lowclub                   min_team_bid=N (0, 2..6)
    target=N (100..1000, steps of 50)        floor=off|-N (-100..-1000, steps of 50)

:func:`parse_house` reads the text into values by key, :func:`apply` makes
them fields of a validated :class:`~bot.game.rules.RuleSet`, and
:func:`resolved` gives every key's value of a rule set (the ``"rules"`` of a
hand record). Every mistake is a :class:`HouseRuleError` of one line.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from pydantic import ValidationError

from bot.game.rules import (
    Bidding,
    Deck,
    FirstLead,
    RuleSet,
    SetPenalty,
    SpadesLead,
)

#: The keys in the order the rules are listed.
KEYS: Final = (
    "deck",
    "bidding",
    "nil",
    "nil_tricks",
    "blind_nil",
    "bags",
    "set",
    "boston",
    "ten_for_200",
    "spades_lead",
    "first_lead",
    "min_team_bid",
    "target",
    "floor",
)


class HouseRuleError(ValueError):
    """A house rule that cannot be played, said in one line."""


# -- reading the text --------------------------------------------------------------


def _number(text: str) -> int:
    if not text.lstrip("-").isdigit():
        raise ValueError
    return int(text)


def _choice(*words: str) -> Callable[[str], str]:
    def read(text: str) -> str:
        if text not in words:
            raise ValueError
        return text

    return read


def _off_or(read: Callable[[str], Any]) -> Callable[[str], Any]:
    def read_or_off(text: str) -> Any:
        return None if text == "off" else read(text)

    return read_or_off


def _pair(text: str) -> tuple[int, int]:
    first, sep, second = text.partition(":")
    if not sep:
        raise ValueError
    return _number(first), _number(second)


def _on_off(text: str) -> bool:
    return _choice("on", "off")(text) == "on"


def _nil_value(text: str) -> int:
    value = _number(text)
    if value not in (50, 100):
        raise ValueError
    return value


#: Per key: how its value is read, and how it is written in the error line.
_READERS: Final[dict[str, tuple[Callable[[str], Any], str]]] = {
    "deck": (_choice(*(d.value for d in Deck)), "|".join(d.value for d in Deck)),
    "bidding": (_choice(*(b.value for b in Bidding)), "|".join(b.value for b in Bidding)),
    "nil": (_off_or(_nil_value), "off|50|100"),
    "nil_tricks": (_choice("bags", "contract"), "bags|contract"),
    "blind_nil": (_off_or(_pair), "off or T:V, like 100:200"),
    "bags": (_off_or(_pair), "off or L:P, like 10:100"),
    "set": (_choice("bid", "short"), "bid|short"),
    "boston": (_off_or(_number), "off or a number of points"),
    "ten_for_200": (_on_off, "on|off"),
    "spades_lead": (_choice("broken", "any"), "broken|any"),
    "first_lead": (_choice("any", "lowclub"), "any|lowclub"),
    "min_team_bid": (_number, "0 or 2 to 6"),
    "target": (_number, "100 to 1000 in steps of 50"),
    "floor": (_off_or(_number), "off or -100 to -1000 in steps of 50"),
}


def parse_house(text: str) -> dict[str, Any]:
    """The house rules of ``KEY=VALUE[,KEY=VALUE...]``, as values by key
    (None for ``off``; ``blind_nil`` and ``bags`` as pairs; ``ten_for_200`` a
    bool). The values are read here; whether they go together is checked by
    :func:`apply`."""
    chosen: dict[str, Any] = {}
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        key, sep, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if key not in _READERS:
            raise HouseRuleError(f"unknown house rule {key!r}: choose from {', '.join(KEYS)}")
        if not sep:
            raise HouseRuleError(f"house rule {key} needs a value: {key}=VALUE")
        if key in chosen:
            raise HouseRuleError(f"house rule {key} is given twice")
        read, expected = _READERS[key]
        try:
            chosen[key] = read(value)
        except ValueError:
            raise HouseRuleError(f"bad value {key}={value}: expected {expected}") from None
    return chosen


# -- the rule set's fields ---------------------------------------------------------


def _fields(rules: RuleSet, chosen: Mapping[str, Any]) -> dict[str, Any]:
    """The rule set's fields that carry the chosen house rules."""
    fields: dict[str, Any] = {}
    for key, value in chosen.items():
        if key == "deck":
            fields["deck"] = Deck(value)
        elif key == "bidding":
            fields["bidding"] = Bidding(value)
        elif key == "nil":
            fields["nil_value"] = value
        elif key == "nil_tricks":
            fields["failed_nil_tricks_count_for_partner"] = value == "contract"
        elif key == "blind_nil":
            fields["blind_nil"] = value is not None
            if value is not None:
                fields["blind_nil_min_deficit"], fields["blind_nil_value"] = value
        elif key == "bags":
            if value is None:
                fields["bag_penalty"] = 0
            else:
                fields["bag_limit"], fields["bag_penalty"] = value
                if not (value[0] > 0 and value[1] > 0):
                    raise HouseRuleError("bags must be off or L:P with L and P above 0")
        elif key == "set":
            fields["set_penalty"] = (
                SetPenalty.PER_TRICK_BID if value == "bid" else SetPenalty.PER_TRICK_SHORT
            )
        elif key == "boston":
            fields["boston"] = value
        elif key == "ten_for_200":
            fields["ten_for_200"] = value
        elif key == "spades_lead":
            fields["spades_lead"] = SpadesLead(value)
        elif key == "first_lead":
            # "any" keeps a preset's own rule for a first lead that is not the
            # lowest club (no spade: the same play while spades are unbroken).
            if value == "lowclub":
                fields["first_lead"] = FirstLead.LOWEST_CLUB
            elif rules.first_lead is FirstLead.LOWEST_CLUB:
                fields["first_lead"] = FirstLead.ANY_BUT_UNBROKEN_SPADE
        elif key == "min_team_bid":
            fields["min_team_bid"] = value
        elif key == "target":
            fields["target"] = value
        elif key == "floor":
            fields["losing_score"] = value
    return fields


def apply(rules: RuleSet, text: str | Mapping[str, Any]) -> RuleSet:
    """``rules`` with the house rules of ``text`` (or of a :func:`parse_house`
    result), validated as a whole."""
    chosen = parse_house(text) if isinstance(text, str) else text
    changes = _fields(rules, chosen)
    try:
        return RuleSet.model_validate({**rules.model_dump(), **changes})
    except ValidationError as exc:
        raise HouseRuleError(_one_line(exc)) from None


#: The house rule each field of a rule set carries, for the error lines.
_KEY_OF_FIELD: Final = {
    "nil_value": "nil",
    "failed_nil_tricks_count_for_partner": "nil_tricks",
    "blind_nil_min_deficit": "blind_nil",
    "blind_nil_value": "blind_nil",
    "bag_limit": "bags",
    "bag_penalty": "bags",
    "set_penalty": "set",
    "losing_score": "floor",
}


def _one_line(exc: ValidationError) -> str:
    error = exc.errors()[0]
    message = str(error["msg"]).removeprefix("Value error, ")
    where = ".".join(str(_KEY_OF_FIELD.get(str(part), part)) for part in error["loc"])
    return f"{where}: {message}" if where else message


# -- every key's value of a rule set -----------------------------------------------


def resolved(rules: RuleSet) -> dict[str, Any]:
    """Every house rule of ``rules`` by key, as JSON values: ``None`` where
    a rule is off, ``[T, V]`` and ``[L, P]`` for Blind Nil and bags."""
    return {
        "deck": rules.deck.value,
        "bidding": rules.bidding.value,
        "nil": rules.nil_value,
        "nil_tricks": "contract" if rules.failed_nil_tricks_count_for_partner else "bags",
        "blind_nil": (
            [rules.blind_nil_min_deficit, rules.blind_nil_value] if rules.blind_nil else None
        ),
        "bags": [rules.bag_limit, rules.bag_penalty] if rules.bag_penalty else None,
        "set": "bid" if rules.set_penalty is SetPenalty.PER_TRICK_BID else "short",
        "boston": rules.boston,
        "ten_for_200": rules.ten_for_200,
        "spades_lead": rules.spades_lead.value,
        "first_lead": "lowclub" if rules.first_lead is FirstLead.LOWEST_CLUB else "any",
        "min_team_bid": rules.min_team_bid,
        "target": rules.target,
        "floor": rules.losing_score,
    }


def house_text(rules: RuleSet, keys: tuple[str, ...] = KEYS) -> str:
    """The ``KEY=VALUE,...`` text of ``keys`` of ``rules``, which
    :func:`apply` reads back."""
    values = resolved(rules)
    return ",".join(f"{key}={_value_text(values[key])}" for key in keys)


def _value_text(value: Any) -> str:
    if value is None:
        return "off"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, list):
        return f"{value[0]}:{value[1]}"
    return str(value)


def changed_keys(rules: RuleSet, base: RuleSet) -> tuple[str, ...]:
    """The keys whose rule differs between ``rules`` and ``base`` (its preset)."""
    ours, theirs = resolved(rules), resolved(base)
    return tuple(key for key in KEYS if ours[key] != theirs[key])
