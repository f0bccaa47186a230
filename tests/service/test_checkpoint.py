"""Engine checkpoints: decoding what was encoded gives the same game at every
step, and a missing, foreign or broken checkpoint falls back to the log."""

from __future__ import annotations

import dataclasses
import random
import sqlite3
from pathlib import Path

import pytest

from bot.game import checkpoint
from bot.game.house import apply
from bot.game.random_play import random_card
from bot.game.record import HandRecord
from bot.game.rules import PRESETS
from bot.game.state import Game
from bot.game.types import Phase
from bot.game.view import view_of
from bot.tables.model import TableStatus
from bot.tables.service import TableService
from db.store import Store
from tests.service.driver import HOST, Chooser, FakeClock, seated_table, seed_counter


def test_the_codec_knows_every_engine_field() -> None:
    """Fails when the engine gains or renames a field: update the codec."""
    assert tuple(f.name for f in dataclasses.fields(Game)) == checkpoint.GAME_FIELDS
    assert tuple(f.name for f in dataclasses.fields(HandRecord)) == checkpoint.RECORD_FIELDS
    assert checkpoint.USABLE


def _step(game: Game, rng: random.Random) -> None:
    seat = game.waited_on()
    if seat is None:
        game.next_hand(0, game.waiting_since + 1)
        return
    view = view_of(game, seat)
    at = game.waiting_since + 1
    if game.phase is Phase.BIDDING:
        if game.rules.blind_nil and not game.looked[seat] and rng.random() < 0.3:
            game.look(seat, at)
            return
        game.bid(seat, rng.choice(list(view.legal_bids)), at)
    else:
        mask = view.playable_cards if rng.random() < 0.1 else view.legal_cards
        game.play(seat, random_card(mask, rng), at)


@pytest.mark.parametrize(
    ("preset", "house"),
    [(name, "") for name in sorted(PRESETS)]
    + [("standard", "deck=jjdd,bidding=suicide"), ("blind-nil", "deck=jokers-deuce,boston=200")],
)
def test_decode_of_encode_is_the_same_game_at_every_step(preset: str, house: str) -> None:
    rules = apply(PRESETS[preset].with_options(target=250), house)
    for seed in range(3):
        game = Game.new(rules, seed, started_at=100.0)
        extent = (0, 0)
        history: bytes | None = None
        while True:
            if len(game.hand_records) != extent[0]:
                history = checkpoint.encode_history(game)
                extent = checkpoint.history_extent(game)
            current = checkpoint.encode_current(game, extent)
            restored, restored_marks = checkpoint.decode(rules, history, current)
            assert restored_marks == extent
            assert restored.observable() == game.observable()
            assert restored.actions == game.actions
            assert [r.to_json("g", rules) for r in restored.hand_records] == [
                r.to_json("g", rules) for r in game.hand_records
            ]
            if game.over:
                break
            # The restored game goes on exactly like the original.
            twin = random.Random(len(game.actions))
            probe = random.Random(len(game.actions))
            _step(game, twin)
            _step(restored, probe)
            assert restored.observable() == game.observable()


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_packing_on_from_the_last_checkpoint_writes_the_same_bytes(preset: str) -> None:
    """Each checkpoint packs only what the one before it did not: the bytes
    are those of packing everything again, whether or not what was packed is
    still known (None after a restart), and through the hand ends."""
    rules = PRESETS[preset].with_options(target=250)
    for seed in range(3):
        rng = random.Random(seed)
        game = Game.new(rules, seed, started_at=100.0)
        extent = (0, 0)
        packed: checkpoint.Packed | None = None
        while not game.over:
            _step(game, rng)
            if rng.random() < 0.05:
                packed = None  # as after a restart
            if len(game.hand_records) != extent[0]:
                history, packed = checkpoint.encode_history_from(game, packed)
                assert history == checkpoint.encode_history(game)
                extent = packed.extent
                assert extent == checkpoint.history_extent(game)
            current, packed = checkpoint.encode_current_from(game, extent, packed)
            assert current == checkpoint.encode_current(game, extent)


def test_a_packing_that_holds_more_than_the_game_is_not_used() -> None:
    rules = PRESETS["standard"]
    rng = random.Random(3)
    longer = Game.new(rules, 3)
    for _ in range(9):
        _step(longer, rng)
    _, packed = checkpoint.encode_current_from(longer, (0, 0), None)
    shorter = Game.new(rules, 4)
    _step(shorter, random.Random(4))
    current, _ = checkpoint.encode_current_from(shorter, (0, 0), packed)
    assert current == checkpoint.encode_current(shorter, (0, 0))


def test_parts_that_do_not_belong_together_are_refused() -> None:
    rules = PRESETS["standard"]
    game = Game.new(rules, 1)
    rng = random.Random(1)
    while not game.hand_records:
        _step(game, rng)
    history = checkpoint.encode_history(game)
    current = checkpoint.encode_current(game, checkpoint.history_extent(game))
    with pytest.raises(checkpoint.CheckpointError):
        checkpoint.decode(rules, None, current)
    with pytest.raises(checkpoint.CheckpointError):
        checkpoint.decode(rules, history, b"\x00garbage")


async def _tables_after_play(path: Path) -> dict[int, dict[str, object]]:
    store = await Store.open(path)
    try:
        service = await TableService.open(store, now=FakeClock(), seed_source=seed_counter())
        chooser = Chooser(21, revoke_rate=0.05)
        for n in range(3):
            table = await seated_table(service, channel=800 + n, humans=2)
            table = await service.start(table.id, HOST, table.version)
            for _ in range(70 + 40 * n):
                if table.status is not TableStatus.PLAYING:
                    break
                table = await chooser.step(service, table)
        return {t.id: t.game.observable() for t in await service.unfinished() if t.game is not None}
    finally:
        await store.close()


async def _resumed(path: Path) -> dict[int, dict[str, object]]:
    store = await Store.open(path)
    try:
        service = await TableService.open(store)
        return {t.id: t.game.observable() for t in await service.unfinished() if t.game is not None}
    finally:
        await store.close()


async def test_tables_resume_as_played_through_game_ends_and_rematches(tmp_path: Path) -> None:
    """The service packs each checkpoint on from the last: through hands,
    the end of a game and the rematch after it, what it stored resumes as
    the game it played."""
    path = tmp_path / "rematches.db"
    store = await Store.open(path)
    rematches = 0
    try:
        service = await TableService.open(store, now=FakeClock(), seed_source=seed_counter())
        chooser = Chooser(8)
        table = await seated_table(service, channel=900, humans=4, target=250)
        table = await service.start(table.id, HOST, table.version)
        for _ in range(3000):
            if table.status is TableStatus.FINISHED:
                table = await service.rematch(table.id, HOST, table.version)
                rematches += 1
            else:
                table = await chooser.step(service, table)
            if rematches == 2 and table.game is not None and table.game.hand_records:
                break
        assert table.game is not None
        played = table.game.observable()
    finally:
        await store.close()
    assert rematches == 2
    resumed = await _resumed(path)
    assert resumed == {table.id: played}


def _mid_trick(game: Game | None) -> bool:
    """Whether the last action left a trick or the bidding unfinished."""
    assert game is not None
    return bool(game.trick) or game.phase is Phase.BIDDING


async def test_foreign_or_broken_checkpoints_fall_back_to_the_log(tmp_path: Path) -> None:
    path = tmp_path / "fallback.db"
    played = await _tables_after_play(path)
    assert played
    assert await _resumed(path) == played
    first, second, *_ = sorted(played)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE table_states SET format = 'older' WHERE table_id = ?", (first,))
        db.execute("UPDATE table_states SET current = x'00' WHERE table_id = ?", (second,))
    assert await _resumed(path) == played
    # Play on from the replayed tables: a full checkpoint is stored again.
    store = await Store.open(path)
    try:
        service = await TableService.open(store)
        chooser = Chooser(5)
        stepped = []
        for table_id in (first, second):
            table = await service.get(table_id)
            if table.status is TableStatus.PLAYING:
                # On to the end of a trick (or of the bidding): that stores the state.
                table = await chooser.step(service, table)
                while table.status is TableStatus.PLAYING and _mid_trick(table.game):
                    table = await chooser.step(service, table)
                stepped.append(table_id)
        expected = {t.id: t.game.observable() for t in await service.unfinished() if t.game}
    finally:
        await store.close()
    assert stepped
    with sqlite3.connect(path) as db:
        for table_id in stepped:
            (stored,) = db.execute(
                "SELECT format FROM table_states WHERE table_id = ?", (table_id,)
            ).fetchone()
            assert stored == checkpoint.FINGERPRINT
    assert await _resumed(path) == expected


def test_a_moderators_reason_is_kept_in_the_checkpoint() -> None:
    rules = PRESETS["standard"]
    game = Game.new(rules, 1, started_at=100.0)
    game.end_by_moderator("stuck for days", 101.0)
    current = checkpoint.encode_current(game, (0, 0))
    restored, _ = checkpoint.decode(rules, None, current)
    assert restored.result is not None and restored.result.note == "stuck for days"
    assert restored.result == game.result
