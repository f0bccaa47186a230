"""Everything about a house rule comes from its one declaration: a rule
declared here, for the tests only, is read and written as text, played by
the rule set, checked against the rules it conflicts with, and given menus
that fit a message; and every declared rule is in the menus in every
language."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest

from bot.game.house import (
    HOUSE_RULES,
    ON,
    Conflict,
    HouseRule,
    HouseRuleError,
    Menu,
    apply,
    field,
    house_text,
    parse_house,
    resolved,
)
from bot.game.house_values import Choice, Number
from bot.game.rules import PRESETS, Teams, TieRule
from bot.i18n import ENGLISH, TRANSLATED, tr
from bot.i18n_catalogs import read_catalog
from bot.render.house_rules import PAGES, Page, house_panel, menu_pages, page_of, value_words
from bot.render.spec import MAX_ROWS, SelectSpec, parse
from bot.tables.model import EMPTY_SEAT, Seat, Table, TableOptions, TableStatus
from tests.render.fits import problems

LANGUAGES = [ENGLISH, *TRANSLATED]
STANDARD = PRESETS["standard"]

#: A rule the game has as a field but not (yet) as a house rule, declared
#: as any rule is; its words are messages the catalogs already hold.
TIE = HouseRule(
    "tie",
    "Target",
    Choice({"another_hand": "open", "draw": "standard"}),
    Menu.END,
    *field("tie"),
    conflicts=(Conflict(("draw",), "floor", ON, "a tie cannot be {tie} with a floor of {floor}"),),
)
WITH_TIE = (*HOUSE_RULES, TIE)


def _lobby(options: TableOptions | None = None) -> Table:
    return Table(
        id=4,
        guild_id=1,
        channel_id=2,
        message_id=3,
        host_id=10,
        options=options or TableOptions(),
        status=TableStatus.LOBBY,
        version=9,
        seats=(Seat(user_id=10), EMPTY_SEAT, EMPTY_SEAT, EMPTY_SEAT),
        spectators=(),
        game=None,
        game_number=0,
        game_id=None,
        created_at=0.0,
        updated_at=0.0,
    )


def _menus(table: Table, pages: Sequence[Page] = PAGES, lang: str = ENGLISH) -> list[SelectSpec]:
    found = []
    for page in range(len(pages)):
        spec = house_panel(table, page, lang, pages=pages)
        assert problems(spec) == []
        found += [row for row in spec.rows if isinstance(row, SelectSpec)]
    return found


def test_a_declared_rule_is_read_written_and_played() -> None:
    assert parse_house("tie=draw,deck=jokers", WITH_TIE) == {"tie": "draw", "deck": "jokers"}
    rules = apply(STANDARD, "tie=draw,floor=off", WITH_TIE)
    assert rules.tie is TieRule.DRAW
    assert house_text(rules, ("tie", "floor"), WITH_TIE) == "tie=draw,floor=off"
    assert resolved(rules, WITH_TIE)["tie"] == "draw"
    assert apply(STANDARD, house_text(rules, declared=WITH_TIE), WITH_TIE) == rules
    with pytest.raises(HouseRuleError) as bad:
        parse_house("tie=never", WITH_TIE)
    assert str(bad.value) == "bad value tie=never: expected another_hand|draw"
    with pytest.raises(HouseRuleError, match="unknown house rule 'tie'"):
        parse_house("tie=draw")  # only where it is declared


def test_a_declared_conflict_is_refused_with_both_values() -> None:
    with pytest.raises(HouseRuleError) as refused:
        apply(STANDARD, "tie=draw", WITH_TIE)  # the standard floor is -200: on
    assert str(refused.value) == "a tie cannot be draw with a floor of -200"
    assert refused.value.params == {"tie": "draw", "floor": "-200"}
    assert apply(STANDARD, "tie=draw,floor=off", WITH_TIE).tie is TieRule.DRAW


def test_a_declared_rule_gets_a_menu_of_its_section() -> None:
    pages = menu_pages(WITH_TIE)
    page = page_of("tie", pages)
    assert page is not None and pages[page].menu is Menu.END
    table = _lobby()
    menus = {
        parse(menu.custom_id.removeprefix("spades:")).arg: menu for menu in _menus(table, pages)
    }
    assert set(menus) == {rule.key for rule in WITH_TIE}
    tie = menus["tie"]
    assert [(o.value, o.label, o.default) for o in tie.options] == [
        ("another_hand", "open (preset)", True),
        ("draw", "standard", False),
    ]


@pytest.mark.parametrize("extra", [1, 6, 12])
def test_many_more_rules_still_get_menus_that_fit(extra: int) -> None:
    more = tuple(replace(TIE, key=f"tie{n}", menu=Menu.SCORING) for n in range(extra))
    declared = (*HOUSE_RULES, *more)
    pages = menu_pages(declared)
    keys = [rule.key for page in pages for rule in page.rules]
    assert sorted(keys) == sorted(rule.key for rule in declared)
    table = _lobby()
    for page in range(len(pages)):
        rows = house_panel(table, page, pages=pages).rows
        assert len(rows) <= MAX_ROWS
    labels = [page.label(ENGLISH) for page in pages]
    assert len(set(labels)) == len(labels)  # every page button says where it goes


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_declared_rule_is_in_the_menus_in_every_language(lang: str) -> None:
    table = _lobby(TableOptions(house="deck=jjdd,bags=5:50,boston=200"))
    menus = _menus(table, lang=lang)
    assert sorted(parse(m.custom_id.removeprefix("spades:")).arg or "" for m in menus) == sorted(
        rule.key for rule in HOUSE_RULES
    )
    catalog = read_catalog(lang) if lang != ENGLISH else None
    for rule, menu in zip(
        sorted(HOUSE_RULES, key=lambda r: r.key),
        sorted(menus, key=lambda m: m.custom_id.rsplit(":", 1)[1]),
        strict=True,
    ):
        assert menu.placeholder == tr(lang, rule.name)
        said = [rule.name] + [rule.values.said(v)[0] for v in rule.values.offered]
        for message in said:
            if catalog is not None:  # each word is translated, none left empty
                entry = catalog.get(message)
                assert entry is not None and entry.string and not entry.fuzzy, message
        options = {o.value: o.label for o in menu.options}
        for value in rule.values.offered:
            assert value_words(rule, value, lang) in options[rule.values.text(value)]


def test_every_section_name_is_translated() -> None:
    for lang in TRANSLATED:
        catalog = read_catalog(lang)
        for menu in Menu:
            entry = catalog.get(menu.value)
            assert entry is not None and entry.string and not entry.fuzzy, (lang, menu)


def test_a_number_rule_reads_only_its_numbers() -> None:
    nil = next(rule for rule in HOUSE_RULES if rule.key == "nil")
    assert isinstance(nil.values, Number)
    assert [nil.values.read(text) for text in ("off", "50", "100")] == [None, 50, 100]
    with pytest.raises(ValueError):
        nil.values.read("75")


def test_the_variants_rules_are_read_refused_together_and_kept_from_the_menus() -> None:
    assert parse_house("nil_pass=3,teams=solo") == {"nil_pass": 3, "teams": "solo"}
    assert parse_house("blind_nil_pass=off") == {"blind_nil_pass": None}
    with pytest.raises(HouseRuleError, match=r"^bad value nil_pass=4: expected off\|1\|2\|3$"):
        parse_house("nil_pass=4")
    assert apply(STANDARD, "teams=solo").teams is Teams.SOLO
    assert apply(STANDARD, "nil_pass=3,blind_nil_pass=2").nil_pass == 3
    refused = {
        "teams=solo,bidding=suicide": "suicide bidding needs partners: it cannot be played solo",
        "min_team_bid=3,teams=solo": "min_team_bid must be 0 when playing solo: there are no teams",
        "teams=solo,nil_tricks=contract": (
            "a failed Nil's tricks count for no partner when playing solo"
        ),
        "nil_pass=2,bidding=mirror": "there is no Nil pass with mirror bidding",
        "teams=solo,nil_pass=1": "the Nil pass needs partners: it cannot be played solo",
        "blind_nil_pass=3,teams=solo": (
            "the Blind Nil pass needs partners: it cannot be played solo"
        ),
    }
    for text, line in refused.items():
        with pytest.raises(HouseRuleError) as caught:
            apply(STANDARD, text)
        assert str(caught.value) == line
    assert apply(STANDARD, "teams=solo,min_team_bid=0,nil_tricks=bags,nil_pass=off")
    assert apply(STANDARD, "nil_pass=off,bidding=mirror").bidding.value == "mirror"
    # Tables offer every rule: each is in a menu.
    offered = {rule.key for page in menu_pages() for rule in page.rules}
    assert {"teams", "nil_pass", "blind_nil_pass"} <= offered


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_menus_offer_the_nil_passes_in_every_language(lang: str) -> None:
    table = _lobby(TableOptions(house="nil_pass=2"))
    menus = {parse(m.custom_id.removeprefix("spades:")).arg: m for m in _menus(table, lang=lang)}
    for key, name, chosen in (
        ("nil_pass", "Nil pass", "2"),
        ("blind_nil_pass", "Blind Nil pass", "off"),
    ):
        menu = menus[key]
        assert menu.placeholder == tr(lang, name)
        assert [o.value for o in menu.options] == ["off", "1", "2", "3"]
        assert [o.value for o in menu.options if o.default] == [chosen]
        three = next(o.label for o in menu.options if o.value == "3")
        assert tr(lang, "{n} cards each way", n=3) in three
        if lang != ENGLISH:
            assert "cards each way" not in three


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("house", ["teams=solo,nil_pass=2", "blind_nil_pass=1,teams=solo"])
def test_a_nil_pass_with_solo_is_refused_in_one_translated_line(lang: str, house: str) -> None:
    with pytest.raises(HouseRuleError) as caught:
        apply(STANDARD, house)
    english = str(caught.value)
    said = tr(lang, caught.value.template, **caught.value.params)
    assert "\n" not in said and said != english and "solo" in said
