"""Solo tables (``teams=solo``) by clicks: the host picks solo in the house
menus, the lobby seats four without partners, the table shows each player's
own score, a whole game survives a restart in the middle of a hand, the end
ranks the four, the rematch keeps the seats, and a claim of the rest is
answered by the claimer's three opponents. No hand is seen by anyone but its
owner until played."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest
from simcord import InteractionResult, MemberActor

from bot.ai.rest_claim import claim_holds
from bot.game.rest_claim import tricks_left
from bot.game.rules import Teams
from bot.game.sides import places
from bot.game.types import ActionKind, Phase
from bot.render.spec import Act, ComponentId
from bot.tables.model import Table
from tests.discord.harness import World, components_of, embed_text, finished, labels_of
from tests.discord.privacy import PrivacyWatch, Sent
from tests.discord.test_house_rules import choose, chosen, open_menus
from tests.discord.test_replay import picture_of
from tests.discord.test_rest_claim import alice_to_play

# A finished game's replay has the coach review it in a worker thread, which
# the bot must finish before it settles; a loaded machine needs more than 5 s.
pytestmark = pytest.mark.simcord(settle_timeout=30.0)

ORDINALS = ("1st", "2nd", "3rd", "4th")
SOLO_LOBBY = "Solo: each player plays on their own."
PARTNER_WORDS = ("South & North", "West & East", "Team:", "partner")


async def solo_lobby(world: World, host: MemberActor, *others: MemberActor) -> Table:
    """A lobby the host turned solo in the house menus, ``others`` seated."""
    await world.new_table(host, target=250)
    panel = await open_menus(world, host)
    assert chosen(panel, "teams") == ["partners"]
    panel = await choose(world, host, panel, "teams", "solo")
    assert chosen(panel, "teams") == ["solo"]
    for user in others:
        await world.click(user, "Join")
    table = await world.table()
    assert table.rules.teams is Teams.SOLO
    return table


class PlayWatch(PrivacyWatch):
    """The privacy check over what is sent from its creation on (the house
    menus before it name cards in their words: "no 2♣ or 2♦"), following the
    table service across restarts (:meth:`restarted`)."""

    def __init__(self, world: World) -> None:
        super().__init__(world.env)
        self.first = len(world.env.http_requests)
        self.watch(world.bot.app.tables)

    def restarted(self, world: World) -> None:
        self.watch(world.bot.app.tables)

    def sent(self) -> list[Sent]:
        return [sent for sent in super().sent() if sent.index >= self.first]


def menus(message: Any) -> list[dict[str, Any]]:
    return [
        item for row in components_of(message) for item in row["components"] if item["type"] == 3
    ]


def answer(result: InteractionResult) -> str:
    """The private line a click was answered with."""
    if result.followups:
        return result.followups[0].content
    assert result.response is not None and result.response.ephemeral, result
    return result.response.content


async def forged_partner_menu(world: World, table: Table) -> discord.Message:
    """The host's partner menu on a crafted message (a solo lobby draws none)."""
    view = discord.ui.View(timeout=None)
    custom_id = str(ComponentId(Act.PARTNER, table.id, table.version))
    options = [discord.SelectOption(label=str(s), value=str(s)) for s in (1, 2, 3)]
    view.add_item(discord.ui.Select(custom_id=custom_id, options=options))
    channel = world.bot.get_partial_messageable(world.channel.id, guild_id=world.guild.id)
    message = await channel.send("a crafted menu", view=view)
    view.stop()
    return message


def player_fields(message: discord.Message) -> list[tuple[str, str]]:
    return [(f.name or "", f.value or "") for f in message.embeds[0].fields[:4]]


def assert_four_players_shown(world: World, table: Table) -> None:
    """Each player's own score and bags, bid and tricks; no team anywhere."""
    message = world.table_message()
    text = embed_text(message)
    assert not any(word in text for word in PARTNER_WORDS), text
    game = table.game
    assert game is not None
    for seat, (name, value) in enumerate(player_fields(message)):
        assert name.startswith(("South", "West", "North", "East")[seat])
        assert f" · {game.scores[seat]} point" in name and f" · {game.bags[seat]} bag" in name
        bid = game.bids[seat]
        if bid is not None and game.phase is Phase.PLAYING:
            assert f"tricks {game.tricks_won[seat]}/{max(bid, 0)}" in value


def mid_hand(table: Table) -> bool:
    game = table.game
    return game is not None and game.phase is Phase.PLAYING and len(game.tricks) == 5


async def test_a_solo_game_by_clicks_survives_a_restart_ranks_four_and_keeps_its_seats(
    world: World,
) -> None:
    alice, bob, carol = (world.user(n) for n in ("alice", "bob", "carol"))
    await solo_lobby(world, alice, bob, carol)
    watch = PlayWatch(world)
    text = embed_text(world.table_message())
    assert SOLO_LOBBY in text and "South & North play against West & East." not in text
    await world.click(alice, "Add computer players")
    table = await world.table()
    assert [s.is_computer for s in table.seats] == [False, False, False, True]
    message = world.table_message()
    assert menus(message) == []  # no partner to choose
    assert "**All four seated.** The host starts the game." in embed_text(message)
    refused = await alice.select(
        await forged_partner_menu(world, table),
        ["2"],
        custom_id=str(ComponentId(Act.PARTNER, table.id, table.version)),
    )
    # A menu off the table message is refused like any forged one (the service
    # refuses a partner at a solo table too: tests/service/test_solo_tables.py).
    assert answer(refused) == "That table does not exist any more."
    assert (await world.table()).seats == table.seats
    seats = table.seats

    await world.click(alice, "Start")
    table = await world.table()
    assert table.game is not None and len(table.game.scores) == 4
    assert_four_players_shown(world, table)
    hand = await world.my_hand(bob)
    assert "solo: you play on your own" in hand.content and "partner" not in hand.content

    table = await world.play_until(mid_hand)
    before = table.game
    assert before is not None
    await world.restart()  # in the middle of the first hand
    watch.restarted(world)
    table = await world.table()
    assert table.game is not None and table.game.actions == before.actions
    assert_four_players_shown(world, table)
    table = await world.play_until(finished)

    game = table.game
    assert game is not None and game.result is not None and game.result.winner is not None
    assert game.scores[game.result.winner] == max(game.scores)
    message = world.table_message()
    result = next(f.value or "" for f in message.embeds[0].fields if f.name == "Result")
    lines = result.splitlines()
    assert len(lines) == 5 and " wins**: " in lines[0]
    placed = places(game.scores, game.result.winner)
    order = sorted(range(4), key=lambda s: (placed[s], s))
    for line, seat in zip(lines[1:], order, strict=True):
        assert line.startswith(f"**{ORDINALS[placed[seat] - 1]}** ")
        assert f" · {game.scores[seat]} point" in line
    assert labels_of(message) == ["Rematch"]
    assert message.embeds[0].footer.text == "Rematch keeps every player in their seat."
    # The end of the game is posted with its picture, the four ranked.
    posts = [m for m in world.talk().history() if m.attachments]
    assert posts, "no end-of-game post"
    post = posts[-1].content
    assert post.startswith(f"Table {table.id}: **") and "**1st**" in post
    for seat in range(4):
        assert f"**{ORDINALS[placed[seat] - 1]}**" in post
        assert re.search(rf"· {game.scores[seat]} points?", post)

    # The replay of the game opens and draws its frames (four scores each:
    # tests/render/test_solo_table.py).
    opened = await alice.slash(world.channel, "spades replay", game=table.game_id)
    assert opened.ephemeral and opened.response is not None
    step = await alice.click(opened.response, label="▶")
    assert "· trick 1**" in step.response.content  # type: ignore[union-attr]
    assert (await picture_of(step)).format == "PNG"

    await world.click(bob, "Rematch")
    again = await world.table()
    assert again.id == table.id and again.game_number == 2 and again.seats == seats
    assert again.rules.teams is Teams.SOLO and again.game is not None
    assert_four_players_shown(world, again)
    # Nobody saw a card that was neither theirs nor played, over the whole game.
    assert watch.violations() == []
    assert len(watch.sent()) > 300


async def test_a_claim_of_the_rest_is_answered_by_the_other_three(world: World) -> None:
    alice, bob, carol, dave = (world.user(n) for n in ("alice", "bob", "carol", "dave"))
    await solo_lobby(world, alice, bob, carol, dave)
    watch = PlayWatch(world)
    await world.click(alice, "Start")
    table = await world.play_until(lambda t: alice_to_play(t, 9))
    await world.click(alice, "Claim the rest")
    game = (await world.table()).game
    assert game is not None and game.rest.claimer == 0
    left = tricks_left(game)
    text = embed_text(world.table_message())
    opponents = ", ".join(f"<@{u.id}>" for u in (bob, carol, dave))
    assert (
        f"<@{alice.id}> claims the {left} remaining tricks. {opponents}: accept or refuse." in text
    )
    refused = await world.click(alice, "Accept the claim")
    assert answer(refused) == "Only the claimer's opponents answer a claim."
    await world.click(carol, "Accept the claim")  # across the table: no partner in solo
    await world.click(bob, "Accept the claim")
    refused = await world.click(bob, "Accept the claim")
    assert answer(refused) == "You have already accepted this claim."
    await world.restart()  # the claim and its two answers are kept
    watch.restarted(world)
    table = await world.table()
    assert table.game is not None and table.game.phase is Phase.PLAYING
    assert f"<@{dave.id}> to answer the claim" in embed_text(world.table_message())
    await world.click(dave, "Accept the claim")

    game = (await world.table()).game
    assert game is not None and game.phase is Phase.HAND_OVER
    record = game.hand_records[-1]
    assert record.claim == (0, left)
    assert record.tricks_won[0] == sum(t.winner == 0 for t in record.tricks) + left
    assert len(record.score_after) == 4
    summary = embed_text(world.table_message())
    assert summary.count("→") == 4 and not any(w in summary for w in PARTNER_WORDS)
    assert watch.violations() == []  # only alice's claimed cards were shown


async def test_computer_opponents_judge_a_solo_claim_on_the_real_deal(world: World) -> None:
    alice = world.user("alice")
    await solo_lobby(world, alice)
    await world.click(alice, "Add computer players")
    await world.click(alice, "Start")
    table = await world.play_until(lambda t: alice_to_play(t, 0))
    game = table.game
    assert game is not None
    holds = claim_holds(game, 0)
    await world.click(alice, "Claim the rest")
    game = (await world.table()).game
    assert game is not None
    answers = [
        a.kind for a in game.actions if a.kind in (ActionKind.ACCEPT_REST, ActionKind.REFUSE_REST)
    ]
    if holds:  # all three accept
        assert answers == [ActionKind.ACCEPT_REST] * 3 and game.phase is Phase.HAND_OVER
    else:  # the first to see it fail refuses; play goes on
        assert answers[-1] is ActionKind.REFUSE_REST and len(answers) <= 3
        assert game.phase is Phase.PLAYING and game.waited_on() == 0
