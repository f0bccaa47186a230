from __future__ import annotations

from tests.discord.harness import World, embed_text, labels_of


async def test_open_join_start(world: World) -> None:
    alice, bob, carol, dave = (world.user(n) for n in ("alice", "bob", "carol", "dave"))
    table = await world.new_table(alice)
    message = world.table_message()
    assert labels_of(message) == ["Join", "Leave", "Add computer players", "Start"]
    for user in (bob, carol, dave):
        await world.click(user, "Join")
    table = await world.table()
    assert table.seated_count == 4
    print(embed_text(world.table_message()))
    await world.click(alice, "Start")
    hand = await world.my_hand(bob)
    print(hand.content, labels_of(hand))
    print(embed_text(world.table_message()))
