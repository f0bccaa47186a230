"""House rules in words: the short line, every rule for /spades rules, the
host's menus, the game's record and picture, and the jokers' faces."""

from __future__ import annotations

import pytest

from bot.game.cards import BIG_JOKER, DECK_MASKS, LITTLE_JOKER, cards_of
from bot.game.house import HOUSE_RULES, apply, house_text
from bot.game.rules import PRESETS
from bot.game.types import EndReason
from bot.i18n import ENGLISH, TRANSLATED, tr
from bot.render.decks import DECKS, card_text
from bot.render.house_rules import (
    PAGES,
    all_rules_text,
    changed_from_preset,
    house_panel,
    page_of,
    rules_line,
)
from bot.render.results import end_of_game_text, game_record_text
from bot.render.rules_text import rules_text
from bot.render.spec import Act, SelectSpec, parse
from bot.stats.history import export_document
from bot.stats.records import FinishedGame, SeatPlayer
from bot.tables.model import EMPTY_SEAT, Seat, Table, TableOptions, TableStatus
from tests.render.fits import problems

LANGUAGES = [ENGLISH, *TRANSLATED]
HOUSE = "deck=jokers,bidding=suicide,bags=off"


def test_the_rules_line_names_only_what_differs_from_the_preset() -> None:
    assert rules_line(PRESETS["low-club"]) == ""
    rules = apply(PRESETS["low-club"], HOUSE + ",nil=50")  # low-club's Nil is 50 already
    assert rules_line(rules) == (
        "House rules: Deck: jokers · Bidding: suicide · Bags: never cost points"
    )
    assert rules_line(rules, "de") == (
        "Hausregeln: Kartenspiel: Joker · Reizen: Suizid · Überstiche: kosten nie Punkte"
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_rule_in_play_is_said_in_every_language(lang: str) -> None:
    rules = apply(PRESETS["standard"], HOUSE)
    lines = all_rules_text(rules, lang).splitlines()[1:]
    keys = changed_from_preset(rules)
    in_play = [r for r in HOUSE_RULES if r.key in keys or not r.is_off(r.read(rules))]
    assert {"deck", "bidding", "bags"} <= {rule.key for rule in in_play}
    assert {"nil_pass", "teams"}.isdisjoint(rule.key for rule in in_play)  # off: not said
    assert len(lines) == len(in_play)
    for rule, line in zip(in_play, lines, strict=True):
        assert line.startswith(f"- {tr(lang, rule.name)}: ") or line.startswith(
            f"- **{tr(lang, rule.name)}: "
        )
    changed = [line for line in lines if line.startswith("- **")]
    assert len(changed) == 3  # deck, bidding, bags


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rules_answer_fits_a_message(lang: str) -> None:
    rules = apply(PRESETS["blind-nil"], "deck=jjdd,boston=200,ten_for_200=on,floor=-500")
    assert len(rules_text(rules, lang)) <= 2000


def _lobby(options: TableOptions) -> Table:
    return Table(
        id=4,
        guild_id=1,
        channel_id=2,
        message_id=3,
        host_id=10,
        options=options,
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


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_menus_hold_every_rule_once_with_its_value_chosen(lang: str) -> None:
    table = _lobby(TableOptions(preset="blind-nil", house="bags=5:50,target=300"))
    current = dict(item.split("=") for item in house_text(table.rules).split(","))
    seen: list[str] = []
    for page in range(len(PAGES)):
        spec = house_panel(table, page, lang)
        assert problems(spec) == []
        for menu in (row for row in spec.rows if isinstance(row, SelectSpec)):
            cid = parse(menu.custom_id.removeprefix("spades:"))
            assert (cid.action, cid.table, cid.version) == (Act.HOUSE_RULE, 4, 9)
            assert cid.arg is not None
            seen.append(cid.arg)
            assert [o.value for o in menu.options if o.default] == [current[cid.arg]]
        pages = [b for row in spec.rows if isinstance(row, tuple) for b in row]
        assert [b.disabled for b in pages] == [n == page for n in range(len(PAGES))]
        assert {parse(b.custom_id.removeprefix("spades:")).action for b in pages} == {Act.HOUSE}
    assert sorted(seen) == sorted(rule.key for rule in HOUSE_RULES)  # each once
    bags = next(
        row
        for row in house_panel(table, page_of("bags") or 0).rows
        if isinstance(row, SelectSpec) and row.custom_id.endswith(":bags")
    )
    assert [o.label for o in bags.options if "(preset)" in o.label] == [
        "every 10 cost 100 (preset)"
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("design", sorted(DECKS))
def test_the_jokers_have_faces_of_their_own(design: str, lang: str) -> None:
    deck = DECKS[design]  # type: ignore[index]
    faces = {card: deck.face(card, lang) for card in cards_of(DECK_MASKS["jjdd"])}
    big, little = faces[BIG_JOKER], faces[LITTLE_JOKER]
    assert "🃏" in big.label + (big.emoji or "") and "🃏" in little.label + (little.emoji or "")
    drawn = [(f.label, f.emoji) for f in faces.values()]
    assert len(set(drawn)) == len(drawn)  # no two cards look alike
    text = deck.hand_text(1 << BIG_JOKER | 1 << LITTLE_JOKER, lang)
    assert card_text(BIG_JOKER, lang) in text and card_text(LITTLE_JOKER, lang) in text
    assert card_text(BIG_JOKER, lang) != card_text(LITTLE_JOKER, lang)


def _finished(house: str) -> FinishedGame:
    seat = SeatPlayer(user_id=None, computer_level="random")
    return FinishedGame(
        guild_id=1,
        game_id=7,
        finished_at=0.0,
        rules=apply(PRESETS["standard"], house) if house else PRESETS["standard"],
        seats=(seat, seat, seat, seat),
        winner=0,
        reason=EndReason.TARGET,
        reason_seat=None,
        final_scores=(510, 200),
        hand_records=(),
    )


def test_the_game_record_the_history_and_the_end_of_game_post_carry_the_line() -> None:
    game = _finished(HOUSE)
    line = "House rules: Deck: jokers · Bidding: suicide · Bags: never cost points"
    assert game_record_text(game).endswith("\n" + line)
    assert line in end_of_game_text(3, game, ("A", "B"), None)
    assert export_document(game)["house"] == HOUSE
    plain = _finished("")
    assert "House rules" not in game_record_text(plain) + end_of_game_text(
        3, plain, ("A", "B"), None
    )
    assert export_document(plain)["house"] == ""
