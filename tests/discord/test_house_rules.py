"""House rules at the table: the host sets them in the lobby with private
menus, everyone sees them, and the game is played under them to the end."""

from __future__ import annotations

from typing import Any

import pytest
from simcord import MemberActor, assert_error

from bot.game.bidding import spade_count
from bot.game.cards import BIG_JOKER, LITTLE_JOKER, card_name
from bot.game.rules import Bidding, Deck
from bot.game.scoring import NIL
from bot.game.view import view_of
from bot.refusals import BadHouseRule, HostOnly
from bot.render.hand import bid_text
from bot.tables.model import Table
from tests.discord.harness import World, components_of, embed_text, finished, labels_of
from tests.discord.test_access import forged
from tests.discord.test_languages import locales  # noqa: F401 (a fixture)


def _menu(message: Any, key: str) -> dict[str, Any]:
    for row in components_of(message):
        for item in row["components"]:
            if item["type"] == 3 and str(item["custom_id"]).split(":")[4] == key:
                return dict(item)
    raise AssertionError(f"no menu for {key}")


def chosen(message: Any, key: str) -> list[str]:
    """The values the menu of ``key`` shows as chosen."""
    return [o["value"] for o in _menu(message, key)["options"] if o.get("default")]


async def open_menus(world: World, host: MemberActor) -> Any:
    result = await world.click(host, "House rules")
    assert result.ephemeral and result.response is not None, result
    return result.response


async def choose(world: World, host: MemberActor, panel: Any, key: str, value: str) -> Any:
    """Pick ``value`` in the menu of ``key``; the menus as redrawn."""
    await host.select(panel, [value], custom_id=_menu(panel, key)["custom_id"])
    return world.message(panel.id)


async def turn_to(world: World, host: MemberActor, panel: Any, section: str) -> Any:
    """The menus at the page of ``section`` (its button's label)."""
    await host.click(panel, label=section)
    return world.message(panel.id)


def largest_legal_bid(table: Table, seat: int) -> str:
    assert table.game is not None
    return bid_text(max(view_of(table.game, seat).legal_bids), "en")


async def test_the_host_sets_house_rules_and_the_game_is_played_under_them(world: World) -> None:
    alice = world.user("alice")
    await world.new_table(alice, target=250)
    panel = await open_menus(world, alice)
    assert chosen(panel, "deck") == ["standard"]
    panel = await choose(world, alice, panel, "deck", "jokers")
    assert chosen(panel, "deck") == ["jokers"]
    panel = await turn_to(world, alice, panel, "Bidding (1 of 2)")
    panel = await choose(world, alice, panel, "bidding", "whiz")
    assert chosen(panel, "bidding") == ["whiz"]
    panel = await turn_to(world, alice, panel, "Scoring (1 of 2)")
    panel = await choose(world, alice, panel, "bags", "off")
    assert chosen(panel, "bags") == ["off"]

    table = await world.table()
    assert table.rules.deck is Deck.JOKERS
    assert table.rules.bidding is Bidding.WHIZ
    assert table.rules.bag_penalty == 0
    line = "House rules: Deck: jokers · Bidding: whiz · Bags: never cost points"
    assert line in embed_text(world.table_message())

    await world.click(alice, "Add computer players")
    await world.click(alice, "Start")
    table = await world.play_until(finished, bid=largest_legal_bid)
    game = table.game
    assert game is not None and game.result is not None
    assert game.rules == table.rules
    assert len(game.hand_records) >= 2
    for record in game.hand_records:
        for seat, bid in record.bids:  # whiz: Nil or exactly the spades held
            assert bid in (NIL, spade_count(record.dealt[seat]))
        assert record.bags_after == [0, 0] or game.rules.bag_penalty == 0
        dealt = 0
        for hand in record.dealt:
            dealt |= hand
        assert dealt >> BIG_JOKER & 1 and dealt >> LITTLE_JOKER & 1
    assert line in embed_text(world.table_message())
    # The jokers' buttons read as jokers, the Big and the Little apart.
    faces = {b.custom_id.split(":")[-1]: b.label for b in world.cards_offered}
    jokers = {name: faces[name] for name in ("BJ", "LJ") if name in faces}
    assert jokers, "the person never held a joker"
    assert {"BJ": "🃏 Big", "LJ": "🃏 Little"}.items() >= jokers.items()
    assert card_name(BIG_JOKER) == "BJ"


async def test_mirror_bids_are_made_for_the_players(world: World) -> None:
    alice = world.user("alice")
    await world.new_table(alice, target=250)
    panel = await turn_to(world, alice, await open_menus(world, alice), "Bidding (1 of 2)")
    await choose(world, alice, panel, "bidding", "mirror")
    await world.click(alice, "Add computer players")
    await world.click(alice, "Start")

    def no_bid_asked(table: Table, seat: int) -> str:
        raise AssertionError("a Mirror bid was asked of a person")

    table = await world.play_until(finished, bid=no_bid_asked)
    assert table.game is not None
    for record in table.game.hand_records:
        assert [seat for seat, _ in record.bids] == [(record.dealer + 1 + n) & 3 for n in range(4)]
        for seat, bid in record.bids:
            assert bid == spade_count(record.dealt[seat])


async def test_only_the_host_opens_the_house_rules(
    world: World,
    locales: dict[int, str],  # noqa: F811 (the fixture imported above)
) -> None:
    alice, bob, carol = world.user("alice"), world.user("bob"), world.user("carol")
    locales[carol.id] = "de"
    await world.seat_four(alice, bob, carol)
    refused = await world.click(bob, "House rules")
    assert refused.ephemeral and refused.response is not None
    assert refused.response.content == "Only the host can do that."
    refused = await world.click(carol, "House rules")
    assert refused.response is not None
    assert refused.response.content == "Das kann nur der Gastgeber."
    # The menus are the host's alone: their ids do nothing for anyone else.
    table = await world.table()
    with pytest.raises(HostOnly):
        await world.bot.app.house_rule(table, bob.id, table.version, "deck", "jokers")
    assert (await world.table()).rules.deck is Deck.STANDARD


@pytest.mark.parametrize(
    ("locale", "line"),
    [
        ("en-US", "Nil cannot be off with suicide bidding."),
        ("fr", "Le Nil ne peut pas être désactivé avec les annonces « suicide »."),
    ],
)
async def test_a_combination_the_rules_refuse_changes_nothing(
    world: World,
    locales: dict[int, str],  # noqa: F811 (the fixture imported above)
    locale: str,
    line: str,
) -> None:
    alice = world.user("alice")
    locales[alice.id] = locale
    await world.new_table(alice)
    panel = await open_menus(world, alice)
    section = "Bidding (1 of 2)" if locale == "en-US" else "Annonces (1 sur 2)"
    panel = await turn_to(world, alice, panel, section)
    panel = await choose(world, alice, panel, "bidding", "suicide")
    version = (await world.table()).version
    panel = await choose(world, alice, panel, "nil", "off")
    assert panel.content.endswith("\n" + line)
    table = await world.table()
    assert table.version == version  # nothing was written
    assert table.rules.bidding is Bidding.SUICIDE and table.rules.nil_value == 100
    assert chosen(panel, "nil") == ["100"]


async def test_menus_drawn_before_a_change_of_the_table_set_nothing(world: World) -> None:
    alice, bob = world.user("alice"), world.user("bob")
    await world.new_table(alice)
    panel = await open_menus(world, alice)
    await world.click(bob, "Join")  # the table moves on under the menus
    panel = await choose(world, alice, panel, "deck", "jokers")
    assert "nothing was set" in panel.content
    assert (await world.table()).rules.deck is Deck.STANDARD
    # The menus are drawn again at the table's version: now the choice holds.
    panel = await choose(world, alice, panel, "deck", "jokers")
    assert (await world.table()).rules.deck is Deck.JOKERS


async def test_the_rules_command_says_every_house_rule(world: World) -> None:
    alice = world.user("alice")
    answer = await alice.slash(world.channel, "spades rules")
    assert answer.response is not None
    assert "- Deck: standard, 52 cards" in answer.response.content
    await world.new_table(alice)
    panel = await open_menus(world, alice)
    await choose(world, alice, panel, "deck", "jjdd")
    answer = await alice.slash(world.channel, "spades rules")
    assert answer.response is not None
    text = answer.response.content
    assert "- **Deck: 🃏 Big and Little Joker, then 2♦ and 2♠, no 2♣ or 2♥**" in text
    assert "- Bidding: open: 1 to 13 or Nil" in text


async def test_the_menus_close_with_the_lobby(world: World) -> None:
    alice = world.user("alice")
    await world.new_table(alice)
    panel = await open_menus(world, alice)
    await world.click(alice, "Add computer players")
    await world.click(alice, "Start")
    assert "House rules" not in labels_of(world.table_message())
    # Menus drawn in the lobby get the short answers of a started game.
    page = await alice.click(panel, label="Scoring (1 of 2)")
    assert page.response is not None
    assert page.response.content == "The game has already started."
    pick = await alice.select(panel, ["jokers"], custom_id=_menu(panel, "deck")["custom_id"])
    assert [m.content for m in pick.followups] == ["The game has already started."]
    assert (await world.table()).rules.deck is Deck.STANDARD


async def test_a_table_opened_with_house_rules_plays_them(
    world: World,
    locales: dict[int, str],  # noqa: F811 (the fixture imported above)
) -> None:
    alice, bob = world.user("alice"), world.user("bob")
    table = await world.new_table(alice, house="bags=5:50, deck=jokers, set=bid")
    assert table.options.house.text == "deck=jokers,bags=5:50"  # as the menus write it
    assert table.rules.deck is Deck.JOKERS
    assert (table.rules.bag_limit, table.rules.bag_penalty) == (5, 50)
    text = embed_text(world.table_message())
    assert "House rules: Deck: jokers · Bags: every 5 cost 50\n" in text

    locales[bob.id] = "fr"
    elsewhere = world.guild.create_text_channel("elsewhere")
    refused = await bob.slash(elsewhere, "spades new", house="bags=5:50,deck=foo")
    assert_error(world.env, BadHouseRule)
    assert refused.ephemeral and refused.response is not None
    assert refused.response.content == (
        "Cette règle maison ne peut pas être jouée : bad value deck=foo: "
        "expected standard|jokers|jokers-deuce|jjdd."
    )
    assert await world.bot.app.tables.in_channel(elsewhere.id) is None


async def test_page_buttons_drawn_before_the_sections_still_open_menus(world: World) -> None:
    """The page buttons of the menus' earlier layout (pages 0 to 3) keep
    opening a page of menus; a page that never was gets the short answer."""
    alice = world.user("alice")
    table = await world.new_table(alice)
    ids = [f"spades:house:{table.id}:{table.version}:{page}" for page in ("0", "1", "2", "3", "9")]
    old = await forged(world, *ids)
    for index in range(4):
        opened = await alice.click(old, label=f"forged {index}")
        assert opened.ephemeral and opened.response is not None
        menus = [item for row in components_of(opened.response) for item in row["components"]]
        assert any(item["type"] == 3 for item in menus)
    refused = await alice.click(old, label="forged 4")
    assert refused.response is not None and refused.response.content == "That button is not valid."
    assert (await world.table()).version == table.version
