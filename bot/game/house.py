"""House rules: the rules a host changes on top of a preset, each declared once.

A :class:`HouseRule` says everything about one rule: its key, its values
(how they are written, read and said), the rule set's fields that carry it,
what it cannot be played with, and the section of the host's menus it is
in. Everything else is derived from :data:`HOUSE_RULES`: the text every
place reads and writes (the simulator's ``--house``, the benchmarks, server
defaults, tournaments, the stored lobby choices)::

    KEY=VALUE[,KEY=VALUE...]

with :func:`parse_house` and :func:`house_text`; :func:`apply` (a validated
:class:`~bot.game.rules.RuleSet`, conflicts checked); :func:`resolved` (the
``"rules"`` of a hand record); and the lobby's menus, ``/spades rules`` and
the rules line (:mod:`bot.render.house_rules`). Every mistake is a
:class:`HouseRuleError` of one line. Names and words are catalog message
ids (the Discord layer translates them); the values of a rule are plain:
``str``, ``int``, ``bool``, ``(int, int)``, or ``None`` for ``off``.

A new rule is a field of the rule set (and the engine code that plays it),
one :class:`HouseRule` in :data:`HOUSE_RULES`, and its messages in the
catalogs; its menu, text, record value and refusals follow.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from pydantic import ValidationError

from bot.game import house_conflicts as conflicts
from bot.game.house_values import ON as ON  # (declared with the values; named here too)
from bot.game.house_values import Choice, Kind, Number, Pair, Switch, Value, Values
from bot.game.house_values import Conflict as Conflict
from bot.game.refusals import N_
from bot.game.rules import (
    FLOORS,
    MIN_TEAM_BIDS,
    TARGETS,
    Bidding,
    Deck,
    FirstLead,
    RuleSet,
    SetPenalty,
    Teams,
)


class HouseRuleError(ValueError):
    """A house rule that cannot be played, said in one line. ``template``
    and ``params`` say it again for the catalog (see bot.game.refusals)."""

    def __init__(self, template: str, **params: object) -> None:
        super().__init__(template.format(**params) if params else template)
        self.template = template
        self.params = params


class Menu(Enum):
    """The sections of the host's menus, in their order; the value is the
    section's name (a catalog message id)."""

    PLAY = N_("Cards and play")
    BIDDING = N_("Bidding")
    SCORING = N_("Scoring")
    END = N_("End of the game")


# -- the declaration -------------------------------------------------------------------


@dataclass(frozen=True)
class HouseRule:
    """One house rule: ``key`` in the text, ``name`` (a catalog message id)
    in the menus and the rules, its values, the section of the menus it is
    in, how it is read from a rule set and which fields carry it, and what
    it cannot be played with."""

    key: str
    name: str
    values: Kind
    menu: Menu
    #: The rule's value in a rule set.
    read: Reader
    #: The rule set's fields that carry a value, given the rule set it changes.
    fields: Carrier
    conflicts: tuple[Conflict, ...] = ()

    def is_off(self, value: Value) -> bool:
        return value in self.values.off_value

    def is_among(self, value: Value, values: Values) -> bool:
        return not self.is_off(value) if values is ON else value in values


Reader = Callable[[RuleSet], Value]
Carrier = Callable[[Value, RuleSet], dict[str, Any]]


def field(name: str) -> tuple[Reader, Carrier]:
    """``read`` and ``fields`` of a rule that is one field of the rule set,
    with the same values (an enum field: its values' text)."""

    def read(rules: RuleSet) -> Value:
        value = getattr(rules, name)
        return value.value if isinstance(value, Enum) else value  # type: ignore[no-any-return]

    def fields(value: Value, _: RuleSet) -> dict[str, Any]:
        return {name: value}

    return read, fields


def _bags(value: Value, _: RuleSet) -> dict[str, Any]:
    if not isinstance(value, tuple):
        return {"bag_penalty": 0}
    if not (value[0] > 0 and value[1] > 0):
        raise HouseRuleError("bags must be off or L:P with L and P above 0")
    return {"bag_limit": value[0], "bag_penalty": value[1]}


def _blind_nil(value: Value, _: RuleSet) -> dict[str, Any]:
    if not isinstance(value, tuple):
        return {"blind_nil": False}
    return {"blind_nil": True, "blind_nil_min_deficit": value[0], "blind_nil_value": value[1]}


def _first_lead(value: Value, rules: RuleSet) -> dict[str, Any]:
    # "any" keeps a preset's own rule for a first lead that is not the
    # lowest club (no spade: the same play while spades are unbroken).
    if value == "lowclub":
        return {"first_lead": FirstLead.LOWEST_CLUB}
    if rules.first_lead is FirstLead.LOWEST_CLUB:
        return {"first_lead": FirstLead.ANY_BUT_UNBROKEN_SPADE}
    return {}


_SET_PENALTIES: Final = {"bid": SetPenalty.PER_TRICK_BID, "short": SetPenalty.PER_TRICK_SHORT}
#: Every house rule, in the order the rules are listed and written.
HOUSE_RULES: Final[tuple[HouseRule, ...]] = (
    HouseRule(
        "teams",
        N_("Teams"),
        Choice(
            {
                Teams.PARTNERS.value: N_("partners: seats across the table play together"),
                Teams.SOLO.value: N_("solo: four players, each on their own"),
            },
            short={Teams.PARTNERS.value: N_("partners"), Teams.SOLO.value: N_("solo")},
            off_value=(Teams.PARTNERS.value,),
        ),
        Menu.PLAY,
        *field("teams"),
        # Tournaments are partnership play for good (bot.tournament refuses solo).
        conflicts=conflicts.SOLO,
    ),
    HouseRule(
        "deck",
        N_("Deck"),
        Choice(
            {
                Deck.STANDARD.value: N_("standard, 52 cards"),
                Deck.JOKERS.value: N_("🃏 Big and Little Joker on top, no 2♣ or 2♦"),
                Deck.JOKERS_DEUCE.value: N_("🃏 Big and Little Joker, then 2♠, no 2♣ or 2♦"),
                Deck.JJDD.value: N_("🃏 Big and Little Joker, then 2♦ and 2♠, no 2♣ or 2♥"),
            },
            short={
                Deck.STANDARD.value: N_("standard"),
                Deck.JOKERS.value: N_("jokers"),
                Deck.JOKERS_DEUCE.value: N_("jokers, 2♠ high"),
                Deck.JJDD.value: N_("jokers, 2♦ 2♠ high"),
            },
        ),
        Menu.PLAY,
        *field("deck"),
    ),
    HouseRule(
        "bidding",
        N_("Bidding"),
        Choice(
            {
                Bidding.OPEN.value: N_("open: 1 to 13 or Nil"),
                Bidding.SUICIDE.value: N_("suicide: one partner Nil, the other 4 or more"),
                Bidding.MIRROR.value: N_("mirror: everyone bids their spades"),
                Bidding.WHIZ.value: N_("whiz: Nil or your number of spades"),
            },
            short={
                Bidding.OPEN.value: N_("open"),
                Bidding.SUICIDE.value: N_("suicide"),
                Bidding.MIRROR.value: N_("mirror"),
                Bidding.WHIZ.value: N_("whiz"),
            },
        ),
        Menu.BIDDING,
        *field("bidding"),
    ),
    HouseRule(
        "nil",
        N_("Nil"),
        Number(N_("±{n} points"), (None, 50, 100), "off|50|100", allowed=(50, 100)),
        Menu.BIDDING,
        *field("nil_value"),
        conflicts=conflicts.NIL_OFF,
    ),
    HouseRule(
        "nil_tricks",
        N_("A failed Nil's tricks"),
        Choice({"bags": N_("bags for the team"), "contract": N_("count toward the contract")}),
        Menu.SCORING,
        lambda rules: "contract" if rules.failed_nil_tricks_count_for_partner else "bags",
        lambda value, _: {"failed_nil_tricks_count_for_partner": value == "contract"},
    ),
    HouseRule(
        "blind_nil",
        N_("Blind Nil"),
        Pair(
            N_("trailing by {t}, ±{v}"),
            ("t", "v"),
            (None, (100, 100), (100, 200), (200, 200), (200, 300)),
            "off or T:V, like 100:200",
        ),
        Menu.BIDDING,
        lambda r: (r.blind_nil_min_deficit, r.blind_nil_value) if r.blind_nil else None,
        _blind_nil,
        conflicts=conflicts.BLIND_NIL,
    ),
    HouseRule(
        "bags",
        N_("Bags"),
        Pair(
            N_("every {limit} cost {points}"),
            ("limit", "points"),
            (None, (10, 100), (10, 50), (5, 50), (5, 100)),
            "off or L:P, like 10:100",
            off_words=N_("never cost points"),
        ),
        Menu.SCORING,
        lambda r: (r.bag_limit, r.bag_penalty) if r.bag_penalty else None,
        _bags,
    ),
    HouseRule(
        "set",
        N_("A set costs"),
        Choice({"bid": N_("10 a trick bid"), "short": N_("10 a missing trick")}),
        Menu.SCORING,
        lambda r: "bid" if r.set_penalty is SetPenalty.PER_TRICK_BID else "short",
        lambda value, _: {"set_penalty": _SET_PENALTIES[str(value)]},
    ),
    HouseRule(
        "boston",
        N_("Boston (all 13 tricks)"),
        Number(N_("+{n} points"), (None, 100, 200, 250, 500), "off or a number of points"),
        Menu.SCORING,
        *field("boston"),
    ),
    HouseRule(
        "ten_for_200",
        N_("10 for 200"),
        Switch(N_("on: a contract of 10+ scores 20 a trick")),
        Menu.SCORING,
        *field("ten_for_200"),
    ),
    HouseRule(
        "spades_lead",
        N_("Leading spades"),
        Choice({"broken": N_("once spades are broken"), "any": N_("at any time")}),
        Menu.PLAY,
        *field("spades_lead"),
    ),
    HouseRule(
        "first_lead",
        N_("First lead"),
        Choice({"any": N_("any card"), "lowclub": N_("the lowest club")}),
        Menu.PLAY,
        lambda r: "lowclub" if r.first_lead is FirstLead.LOWEST_CLUB else "any",
        _first_lead,
    ),
    HouseRule(
        "min_team_bid",
        N_("Team's least bid"),
        Number(N_("{n} tricks"), (0, *MIN_TEAM_BIDS), "0 or 2 to 6", off_value=(0,)),
        Menu.BIDDING,
        *field("min_team_bid"),
        conflicts=conflicts.MIN_TEAM_BID,
    ),
    HouseRule(
        "target",
        N_("Target"),
        Number(N_("{n} points"), tuple(TARGETS), "100 to 1000 in steps of 50"),
        Menu.END,
        *field("target"),
    ),
    HouseRule(
        "floor",
        N_("Losing score"),
        Number(N_("{n} points"), (None, *FLOORS), "off or -100 to -1000 in steps of 50"),
        Menu.END,
        *field("losing_score"),
    ),
    # The Nil passes (bot.game.passing): no bid is chosen under Mirror.
    *(
        HouseRule(
            key,
            name,
            Number(N_("{n} cards each way"), (None, 1, 2, 3), "off|1|2|3", allowed=(1, 2, 3)),
            Menu.BIDDING,
            *field(key),
            conflicts=conflicts.NIL_PASS,
        )
        for key, name in (("nil_pass", N_("Nil pass")), ("blind_nil_pass", N_("Blind Nil pass")))
    ),
)

#: The keys in the order the rules are listed.
KEYS: Final = tuple(rule.key for rule in HOUSE_RULES)


def by_key(declared: Sequence[HouseRule] = HOUSE_RULES) -> dict[str, HouseRule]:
    return {rule.key: rule for rule in declared}


_BY_KEY: Final = by_key()


def _declared(declared: Sequence[HouseRule]) -> dict[str, HouseRule]:
    return _BY_KEY if declared is HOUSE_RULES else by_key(declared)


# -- the text ------------------------------------------------------------------------


def parse_house(text: str, declared: Sequence[HouseRule] = HOUSE_RULES) -> dict[str, Value]:
    """The house rules of ``KEY=VALUE[,KEY=VALUE...]``, as values by key.
    The values are read here; whether they go together is checked by
    :func:`apply`."""
    rules = _declared(declared)
    chosen: dict[str, Value] = {}
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        key, sep, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if key not in rules:
            raise HouseRuleError(f"unknown house rule {key!r}: choose from {', '.join(rules)}")
        if not sep:
            raise HouseRuleError(f"house rule {key} needs a value: {key}=VALUE")
        if key in chosen:
            raise HouseRuleError(f"house rule {key} is given twice")
        chosen[key] = read_value(rules[key], value)
    return chosen


def read_value(rule: HouseRule, text: str) -> Value:
    """One value of ``rule`` read from its text."""
    try:
        return rule.values.read(text)
    except ValueError:
        raise HouseRuleError(
            f"bad value {rule.key}={text}: expected {rule.values.expected}"
        ) from None


def house_text(
    rules: RuleSet, keys: Sequence[str] | None = None, declared: Sequence[HouseRule] = HOUSE_RULES
) -> str:
    """The ``KEY=VALUE,...`` text of ``keys`` of ``rules`` (every rule's when
    None), which :func:`apply` reads back."""
    by = _declared(declared)
    chosen = [by[key] for key in keys] if keys is not None else declared
    return ",".join(f"{rule.key}={rule.values.text(rule.read(rules))}" for rule in chosen)


@dataclass(frozen=True)
class HouseChoices:
    """House rules chosen on top of the other rules of a table: values by
    key, in the declared order. A table keeps them as this value; they are
    written (and stored) as their :attr:`text`."""

    values: tuple[tuple[str, Value], ...] = ()

    @classmethod
    def of(cls, chosen: Mapping[str, Value]) -> HouseChoices:
        return cls(tuple((key, chosen[key]) for key in KEYS if key in chosen))

    @classmethod
    def parse(cls, text: str) -> HouseChoices:
        return cls.of(parse_house(text))

    @classmethod
    def changed(cls, rules: RuleSet, base: RuleSet) -> HouseChoices:
        """The choices that make ``base`` into ``rules``."""
        return cls.of({key: _BY_KEY[key].read(rules) for key in changed_keys(rules, base)})

    def with_value(self, key: str, value: Value) -> HouseChoices:
        return HouseChoices.of({**dict(self.values), key: value})

    @property
    def text(self) -> str:
        return ",".join(f"{key}={_BY_KEY[key].values.text(value)}" for key, value in self.values)

    def __bool__(self) -> bool:
        return bool(self.values)


# -- the rule set ----------------------------------------------------------------------


def apply(
    rules: RuleSet,
    text: str | Mapping[str, Value] | HouseChoices,
    declared: Sequence[HouseRule] = HOUSE_RULES,
) -> RuleSet:
    """``rules`` with the house rules of ``text`` (or of a :func:`parse_house`
    result, or chosen), validated as a whole."""
    by = _declared(declared)
    if isinstance(text, HouseChoices):
        text = dict(text.values)
    chosen = parse_house(text, declared) if isinstance(text, str) else text
    carried = {key: by[key].fields(value, rules) for key, value in chosen.items()}
    changes = {name: v for fields in carried.values() for name, v in fields.items()}
    try:
        result = RuleSet.model_validate({**rules.model_dump(), **changes})
    except ValidationError as exc:
        raise HouseRuleError(_one_line(exc, carried)) from None
    check_conflicts(result, declared)
    return result


def check_conflicts(rules: RuleSet, declared: Sequence[HouseRule] = HOUSE_RULES) -> None:
    """Raises HouseRuleError, the line of the first conflict, if ``rules``
    has two house rules that cannot be played together."""
    by = _declared(declared)
    for rule in declared:
        value = rule.read(rules)
        for conflict in rule.conflicts:
            other = by[conflict.other]
            other_value = other.read(rules)
            if rule.is_among(value, conflict.values) and other.is_among(
                other_value, conflict.other_values
            ):
                values = {rule.key: rule.values.text(value)}
                values[other.key] = other.values.text(other_value)
                raise HouseRuleError(conflict.line, **values)


def _one_line(exc: ValidationError, carried: Mapping[str, Mapping[str, Any]]) -> str:
    """The rule set's refusal, naming the house rule whose field it is."""
    error = exc.errors()[0]
    message = str(error["msg"]).removeprefix("Value error, ")
    key_of = {name: key for key, fields in carried.items() for name in fields}
    where = ".".join(str(key_of.get(str(part), part)) for part in error["loc"])
    return f"{where}: {message}" if where else message


def resolved(rules: RuleSet, declared: Sequence[HouseRule] = HOUSE_RULES) -> dict[str, Any]:
    """Every house rule of ``rules`` by key, as JSON values: ``None`` where
    a rule is off, ``[T, V]`` and ``[L, P]`` for Blind Nil and bags."""
    values = {rule.key: rule.read(rules) for rule in declared}
    return {key: list(v) if isinstance(v, tuple) else v for key, v in values.items()}


def changed_keys(
    rules: RuleSet, base: RuleSet, declared: Sequence[HouseRule] = HOUSE_RULES
) -> tuple[str, ...]:
    """The keys whose rule differs between ``rules`` and ``base`` (its preset)."""
    return tuple(rule.key for rule in declared if rule.read(rules) != rule.read(base))
