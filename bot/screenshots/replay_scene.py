"""The screen of a replay: the host's viewer at the first trick the coach marked."""

from __future__ import annotations

from bot.render.replay import marks_at
from bot.screenshots.scenes import Game, Shot

#: Clicks on ▶ at most, to reach the marked trick.
STEPS = 14


async def replay_screen(game: Game) -> None:
    host = game.players[0]
    table = await game.table()
    assert table.game_id is not None and table.guild_id is not None, "no finished game"
    opened = game.response(await host.slash(game.channel, "spades replay", game=table.game_id))
    # The first viewer starts the coach's review; the shot waits for its notes.
    await game.bot.app.wait_background()
    replays = game.bot.app.replays
    replay = await replays.replay(table.guild_id, table.game_id)
    review = await replays.review(replay)
    marks = [] if review is None else review.cards
    marked = next(
        (i for i, frame in enumerate(replay.frames) if marks_at(frame, marks)), STEPS // 2
    )
    start = max(s for s in replay.hand_starts() if s <= marked)
    viewer = opened
    if start:
        menu = next(
            item
            for row in viewer.components
            for item in row.get("components", [])
            if item.get("type") == 3
        )
        await host.select(viewer, [str(start)], custom_id=menu["custom_id"])
        viewer = game.message_of(viewer)
    for _ in range(min(marked - start, STEPS)):
        await host.click(viewer, label="▶")
    viewer = game.message_of(viewer)
    caption = "A replay: every hand face up, the trick, and the coach's note"
    await game.take(Shot("replay", caption, host, viewer))
