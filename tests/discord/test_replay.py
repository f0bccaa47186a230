"""``/spades replay`` through SimCord: refused while the game is played (and
no frame sent before its end, over every message of the game), refused for
another server's game, stepped and jumped, shared or refused, and used
across a restart."""

from __future__ import annotations

import io
from typing import Any

import pytest
import simcord
from PIL import Image

from bot.game.types import Phase
from bot.refusals import GameNotOver, NoFinishedGame
from bot.render.replay_picture import HEIGHT, WIDTH
from bot.tables.model import Table, TableStatus
from tests.discord.at_once import together
from tests.discord.harness import World, buttons_of, components_of, finished
from tests.discord.privacy import PrivacyWatch
from tests.discord.test_admin import moderator
from tests.discord.test_languages import locales  # noqa: F401 (a fixture)

# A finished game's replay has the coach review it in a worker thread, which
# the bot must finish before it settles; a loaded machine needs more than 5 s.
pytestmark = pytest.mark.simcord(settle_timeout=30.0)

REPLAY = "spades-replay"


async def open_table(world: World) -> Table:
    alice = world.user("alice")
    await world.new_table(alice, target=250)
    await world.click(alice, "Add computer players")
    await world.click(alice, "Start")
    return await world.table()


async def finish(world: World) -> Table:
    await open_table(world)
    return await world.play_until(finished)


async def picture_of(result: simcord.InteractionResult) -> Image.Image:
    assert result.response is not None
    [attachment] = result.response.attachments
    assert attachment.filename.startswith(f"{REPLAY}-")
    return Image.open(io.BytesIO(await attachment.read()))


def menu_of(message: simcord.ResponseMessage) -> dict[str, Any]:
    return next(
        item
        for row in components_of(message)
        for item in row.get("components", [])
        if item.get("type") == 3
    )


async def test_no_frame_of_a_game_is_sent_before_it_is_over(world: World) -> None:
    watch = PrivacyWatch(world.env)
    watch.watch(world.bot.app.tables)
    alice, erin = world.user("alice"), world.user("erin")
    table = await open_table(world)
    game_id = table.game_id
    assert game_id is not None
    asked = 0
    for _ in range(5000):
        table = await world.table_any()
        if finished(table):
            break
        game = table.game
        assert game is not None and table.status is TableStatus.PLAYING
        if game.phase is Phase.HAND_OVER:
            await world.click(alice, "Next hand")
            continue
        if not game.trick:  # at every trick's start, the player and a stranger ask
            for who in (alice, erin):
                refused = await who.slash(world.channel, "spades replay", game=game_id)
                assert refused.ephemeral and refused.response is not None
                assert refused.response.content == (
                    f"Game {game_id} is still being played: its replay opens once it is over."
                )
                simcord.assert_error(world.env, GameNotOver)
                asked += 1
        await world.act(table)
    assert finished(table) and asked >= 10
    over = next(i for i, t in enumerate(watch.tables) if t.game is not None and t.game.over)
    end = watch.positions[over]
    before = [sent for sent in watch.sent() if sent.index < end]
    assert before and all(REPLAY not in sent.text for sent in before)
    assert watch.violations() == []
    # Once it is over: the Replay button of the end-of-game post opens the viewer.
    await world.bot.app.wait_background()
    await world.env.settle()
    post = next(
        m for m in world.talk().history() if any(REPLAY in b.custom_id for b in buttons_of(m))
    )
    viewer = await erin.click(post, label="Replay")
    assert viewer.response is not None, viewer
    assert viewer.ephemeral, viewer.response.content
    assert (await picture_of(viewer)).size == (WIDTH, HEIGHT)
    assert viewer.response is not None
    assert viewer.response.content.startswith(f"**Game {game_id} · hand 1 · bidding**")


async def test_another_servers_game_and_an_unknown_game_are_refused(world: World) -> None:
    table = await finish(world)
    other = world.env.create_guild("Other Club")
    channel = other.create_text_channel("cards")
    stranger = other.add_member(world.env.create_user("stranger"))
    for game in (table.game_id, 999):
        answer = await stranger.slash(channel, "spades replay", game=game)
        assert answer.response is not None
        assert answer.response.content == f"There is no finished game {game} on this server."
        simcord.assert_error(world.env, NoFinishedGame)


async def test_the_viewer_steps_jumps_and_works_after_a_restart(world: World) -> None:
    table = await finish(world)
    alice = world.user("alice")
    opened = await alice.slash(world.channel, "spades replay", game=table.game_id)
    assert opened.ephemeral and opened.response is not None
    viewer = opened.response
    labels = [b.label for b in buttons_of(viewer)]
    assert labels == ["◀", "▶", "Share"]
    assert buttons_of(viewer)[0].disabled
    step = await alice.click(viewer, label="▶")
    assert step.response is not None and step.response.id == viewer.id
    assert "· trick 1**" in step.response.content
    viewer = world.message(viewer.id)
    menu = menu_of(viewer)
    hands = [option["value"] for option in menu["options"]]
    assert len(hands) >= 2
    jump = await alice.select(viewer, [hands[1]], custom_id=str(menu["custom_id"]))
    assert jump.response is not None and "hand 2 · bidding" in jump.response.content
    await world.restart()
    viewer = world.message(viewer.id)
    after = await alice.click(viewer, label="▶")
    assert after.response is not None and "hand 2 · trick 1**" in after.response.content
    assert (await picture_of(after)).format == "PNG"


async def test_share_is_for_the_players_unless_the_server_allows_anyone(world: World) -> None:
    table = await finish(world)
    alice, erin = world.user("alice"), world.user("erin")
    erin_view = await erin.slash(world.channel, "spades replay", game=table.game_id)
    assert erin_view.response is not None
    refused = await erin.click(erin_view.response, label="Share")
    assert refused.response is not None
    assert refused.response.content == (
        f"Only the players of game {table.game_id} may share its replay on this server."
    )
    posts = len(world.channel.history())
    viewer = await alice.slash(world.channel, "spades replay", game=table.game_id)
    assert viewer.response is not None
    shared = await alice.click(viewer.response, label="Share")
    assert shared.ephemeral and shared.response is not None
    await world.env.settle()
    history = world.channel.history()
    assert len(history) == posts + 1
    post = history[-1]
    assert not post.flags.ephemeral and f"<@{alice.id}> shares a moment of game" in post.content
    assert post.attachments[0].filename.startswith(f"{REPLAY}-{table.game_id}-")
    # A moderator lets anyone share: erin's click now posts.
    allowed = await moderator(world).slash(
        world.channel, "spades-admin defaults", share_replays=True
    )
    assert allowed.response is not None and "share_replays=True" in allowed.response.content
    again = await erin.click(erin_view.response, label="Share")
    assert again.response is not None and "is shared in the channel" in again.response.content
    await world.env.settle()
    assert len(world.channel.history()) == posts + 2


async def test_history_has_a_replay_button_per_game(world: World) -> None:
    table = await finish(world)
    alice = world.user("alice")
    listing = await alice.slash(world.channel, "spades history")
    assert listing.response is not None
    [button] = [b for b in buttons_of(listing.response) if b.custom_id.startswith(REPLAY)]
    assert button.label == f"Replay {table.game_id}"
    viewer = await alice.click(listing.response, custom_id=button.custom_id)
    assert viewer.ephemeral and (await picture_of(viewer)).format == "PNG"


def answer_of(result: simcord.InteractionResult) -> str:
    message = result.followups[-1] if result.followups else result.response
    assert message is not None and message.ephemeral
    return message.content


async def test_a_double_click_on_share_posts_the_moment_once(
    world: World,
    locales: dict[int, str],  # noqa: F811 (the fixture)
) -> None:
    """Two clicks on Share reaching the bot together, then a third: one post;
    the others are told, in the sharer's language, that it is shared already.
    Another moment is still shared."""
    locales[world.user("alice").id] = "fr"
    table = await finish(world)
    alice = world.user("alice")
    viewer = await alice.slash(world.channel, "spades replay", game=table.game_id)
    assert viewer.response is not None
    share = next(b.custom_id for b in buttons_of(viewer.response) if ":share:" in b.custom_id)
    posts = len(world.channel.history())
    clicks = await together(world, [(alice, viewer.response, share)] * 2)
    clicks.append(await alice.click(viewer.response, custom_id=share))
    await world.env.settle()
    assert len(world.channel.history()) == posts + 1
    said = sorted(answer_of(r) for r in clicks)
    game = table.game_id
    assert said == [
        f"Ce moment de la partie {game} est déjà partagé dans le salon.",
        f"Ce moment de la partie {game} est déjà partagé dans le salon.",
        f"Ce moment de la partie {game} est partagé dans le salon.",
    ]
    step = await alice.click(viewer.response, custom_id=buttons_of(viewer.response)[1].custom_id)
    assert step.response is not None
    later = next(b.custom_id for b in buttons_of(step.response) if ":share:" in b.custom_id)
    await alice.click(step.response, custom_id=later)
    await world.env.settle()
    assert len(world.channel.history()) == posts + 2
