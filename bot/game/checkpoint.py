"""Engine state checkpoints, so that a restart does not replay every game.

Replaying a half-played game costs a few milliseconds (hundreds of actions,
each validated again); ten thousand of them would keep the bot from starting
for a minute. So the service also stores the engine state, with every action
that ends a trick, the bidding, a hand or the game, or starts one (a
trick's first cards and the first bids are replayed on top of it), in two
parts:

* ``history``: the hand records and the action entries up to the end of the
  last finished hand. It changes once a hand, and is rewritten then;
* ``current``: everything else (the hand in play, scores, turn, and the
  entries since the history was written): about a kilobyte, rewritten with
  every state.

Both are ``marshal`` data of plain tuples, lists, numbers and packed arrays
(nothing that runs code when read): the game's public fields and its
:meth:`~bot.game.state.Game.log_entries`, decoded through
:meth:`~bot.game.state.Game.restore`, which derives the fields the engine
keeps for speed.

The action log stays the truth: a checkpoint is only used when its
fingerprint (its format plus the engine's field names) is one of
:data:`READ_FINGERPRINTS`, otherwise the game is replayed from the log (so a new format
replays the games stored in an older one). When the engine grows a field this
codec does not know, :data:`USABLE` is False and every game
is replayed (a test fails first, asking for this module to follow).
"""

from __future__ import annotations

import dataclasses
import hashlib
import marshal
import sys
from array import array
from collections.abc import Sequence
from functools import partial
from typing import Any

from bot.game.record import HandRecord
from bot.game.rest_claim import NO_CLAIM, RestClaim
from bot.game.rules import RuleSet
from bot.game.scoring import TeamHandResult
from bot.game.state import Game
from bot.game.trick import Trick
from bot.game.types import ActionKind, EndReason, GameResult, LogEntry, Phase

#: 4: the fields the engine keeps for speed are derived on decoding, not stored.
#: 5: the same encoding, no longer written with every action (see
#: :func:`bot.tables.game_rows.add_state`): the actions logged after a state
#: are replayed on top of it. A process of an earlier version reads only 4,
#: so it replays the games stored in 5 from their logs instead of taking a
#: state that may be behind them; this one reads both.
#: 6: the claim of the rest of the tricks (the game's ``rest``, a
#: hand record's ``claim``). The states of 5 and 4 are read as without one.
FORMAT = 6
READ_FORMATS = (6, 5, 4)

#: The engine's fields: the public ones this module stores (``rules`` comes
#: from the table's options), then the private ones ``Game.restore`` derives
#: (``_log`` is the log entries).
GAME_FIELDS = (
    "rules", "seed", "started_at", "fixed_deals", "phase", "hand_number", "dealer", "dealt",
    "hands", "looked", "bids", "bid_order", "to_act", "leader", "trick", "tricks", "tricks_won",
    "spades_broken", "revokes", "scores", "bags", "hand_records", "waiting_since", "result",
    "rest", "_log", "_actions", "_turn", "_led", "_led_mask", "_club_lead",
)  # fmt: skip
RECORD_FIELDS = (
    "hand", "dealer", "dealt", "bids", "tricks", "tricks_won", "score_before", "bags_before",
    "hand_score", "score_after", "bags_after", "results", "game_over", "winner", "claim",
)  # fmt: skip
#: The fields this codec knew before the claim of the rest: the layout of the
#: states written then, still read.
_FIELDS_BEFORE_CLAIM = (
    tuple(f for f in GAME_FIELDS if f != "rest"),
    RECORD_FIELDS[:-1],
)

_ACTUAL_GAME_FIELDS = tuple(f.name for f in dataclasses.fields(Game))
_ACTUAL_RECORD_FIELDS = tuple(f.name for f in dataclasses.fields(HandRecord))
#: Whether this codec knows exactly the running engine's fields.
USABLE = _ACTUAL_GAME_FIELDS == GAME_FIELDS and _ACTUAL_RECORD_FIELDS == RECORD_FIELDS
# Packed columns use the machine's byte order and C int size: a database moved
# to a different machine then replays its games rather than misread them.
_LAYOUT = (_ACTUAL_GAME_FIELDS, _ACTUAL_RECORD_FIELDS, sys.byteorder, array("i").itemsize)
_DIGEST = hashlib.sha256(repr(_LAYOUT).encode()).hexdigest()[:16]
FINGERPRINT = f"{FORMAT}:{_DIGEST}"
#: The fingerprints of the states this code decodes, the one it writes first.
_DIGEST_BEFORE_CLAIM = hashlib.sha256(
    repr((*_FIELDS_BEFORE_CLAIM, sys.byteorder, array("i").itemsize)).encode()
).hexdigest()[:16]
READ_FINGERPRINTS = (FINGERPRINT, *(f"{form}:{_DIGEST_BEFORE_CLAIM}" for form in READ_FORMATS[1:]))

_KINDS = tuple(ActionKind)  # stored by index
_KIND_INDEX = {kind: n for n, kind in enumerate(_KINDS)}
_PHASES = {phase.value: phase for phase in Phase}
# Decoding builds thousands of small tuples per table: C-level constructors
# (tuple.__new__ of the named tuple class, map and zip) keep that cheap.
_make_trick = partial(tuple.__new__, Trick)
_make_result = partial(tuple.__new__, TeamHandResult)
_NO_COLUMNS = (b"", b"", b"", b"")  # the packed columns of no log entries


class CheckpointError(ValueError):
    """A checkpoint that cannot be decoded (the caller replays the log instead)."""


def history_extent(game: Game) -> tuple[int, int]:
    """How much of the game the history part holds: (hand records, log entries)."""
    return len(game.hand_records), game.action_count


def encode_history(game: Game) -> bytes:
    """The hand records and every log entry so far (call when a hand ends)."""
    return encode_history_from(game, None)[0]


@dataclasses.dataclass(frozen=True, slots=True)
class PackedHistory:
    """A history part's contents before ``marshal``: its hand records as
    tuples and its log columns."""

    records: tuple[tuple[Any, ...], ...]
    columns: tuple[bytes, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class Packed:
    """What the last checkpoint of a game packed, kept with the game so that
    the next checkpoint packs only what is new: every action writes one, and
    packing a hand's entries (and at a hand's end the whole game) again with
    each of them was the costliest part of an action. The log only grows
    within a game, so what was packed stays the start of what is to pack;
    the caller gives None for any other game."""

    #: The history's extent (see :func:`history_extent`).
    extent: tuple[int, int]
    #: How many log entries after the extent ``columns`` holds.
    count: int
    columns: tuple[bytes, ...]
    #: The history up to the extent, if this process packed it.
    history: PackedHistory | None = None

    @classmethod
    def stored(cls, extent: tuple[int, int]) -> Packed:
        """A checkpoint read back from the store with this extent: nothing of
        it is packed in memory yet."""
        return cls(extent, 0, _NO_COLUMNS)


_NO_HISTORY = PackedHistory((), _NO_COLUMNS)


def encode_history_from(game: Game, packed: Packed | None) -> tuple[bytes, Packed]:
    """:func:`encode_history`, reusing what ``packed`` holds; and what this
    packed (the new extent, nothing after it yet)."""
    prior = None if packed is None else packed.history
    if prior is None and packed is not None and packed.extent == (0, 0):
        prior = _NO_HISTORY  # the game's first hand: nothing came before it
    if prior is None:
        records = tuple(_record_tuple(r) for r in game.hand_records)
        columns = _log_columns(game.log_entries())
    else:
        assert packed is not None
        old_records, old_entries = packed.extent
        tail = _join(packed.columns, _log_columns(game.log_entries(old_entries + packed.count)))
        records = prior.records + tuple(_record_tuple(r) for r in game.hand_records[old_records:])
        columns = _join(prior.columns, tail)
    history = marshal.dumps((FORMAT, list(records), columns))
    return history, Packed(history_extent(game), 0, _NO_COLUMNS, PackedHistory(records, columns))


def encode_current(game: Game, extent: tuple[int, int]) -> bytes:
    """Everything but the history, with the records and entries after ``extent``."""
    return encode_current_from(game, extent, None)[0]


def encode_current_from(
    game: Game, extent: tuple[int, int], packed: Packed | None
) -> tuple[bytes, Packed]:
    """:func:`encode_current`, packing only the log entries ``packed`` does
    not hold yet; and what this packed."""
    records, entries = extent
    if packed is None or packed.extent != extent or packed.count > game.action_count - entries:
        packed = Packed.stored(extent)
    columns = _join(packed.columns, _log_columns(game.log_entries(entries + packed.count)))
    result = game.result
    current = marshal.dumps(
        (
            FORMAT,
            records,
            entries,
            game.seed,
            game.started_at,
            game.fixed_deals,
            game.phase.value,
            game.hand_number,
            game.dealer,
            game.dealt,
            game.hands,
            game.looked,
            game.bids,
            game.bid_order,
            game.to_act,
            game.leader,
            game.trick,
            [tuple(t) for t in game.tricks],
            game.tricks_won,
            game.spades_broken,
            game.revokes,
            game.scores,
            game.bags,
            [_record_tuple(r) for r in game.hand_records[records:]],
            game.waiting_since,
            None if result is None else _result_tuple(result),
            columns,
            (game.rest.claimer, game.rest.accepted, game.rest.shown),
        )
    )
    return current, Packed(extent, game.action_count - entries, columns, packed.history)


def decode(rules: RuleSet, history: bytes | None, current: bytes) -> tuple[Game, tuple[int, int]]:
    """The game stored in the two parts (``history`` None: nothing finished
    yet), and the extent of the stored history (see :func:`history_extent`)."""
    try:
        return _decode(rules, history, current)
    except (ValueError, TypeError, KeyError, IndexError, EOFError) as exc:
        raise CheckpointError(f"unreadable checkpoint: {exc}") from exc


def _decode(rules: RuleSet, history: bytes | None, current: bytes) -> tuple[Game, tuple[int, int]]:
    if history is not None:
        form, old_records, old_log = marshal.loads(history)
        if form not in READ_FORMATS:
            raise CheckpointError(f"checkpoint format {form}, expected {FORMAT}")
    else:
        old_records, old_log = [], (b"", b"", b"", b"")
    fields = marshal.loads(current)
    # Formats before 6 end at the log: no claim of the rest was possible.
    rest = RestClaim(*fields[27]) if len(fields) > 27 else NO_CLAIM
    (
        form, records, entries, seed, started_at, fixed_deals, phase, hand_number, dealer,
        dealt, hands, looked, bids, bid_order, to_act, leader, trick, tricks, tricks_won,
        spades_broken, revokes, scores, bags, new_records, waiting_since, result, new_log,
    ) = fields[:27]  # fmt: skip
    if form not in READ_FORMATS or records != len(old_records) or entries != len(old_log[0]):
        raise CheckpointError("the two parts of the checkpoint do not belong together")
    log = _log_entries(old_log)
    log.extend(_log_entries(new_log))
    game = Game.restore(
        rules=rules,
        seed=seed,
        started_at=started_at,
        fixed_deals=fixed_deals,
        phase=_PHASES[phase],
        hand_number=hand_number,
        dealer=dealer,
        dealt=dealt,
        hands=hands,
        looked=looked,
        bids=bids,
        bid_order=bid_order,
        to_act=to_act,
        leader=leader,
        trick=trick,
        tricks=list(map(_make_trick, tricks)),
        tricks_won=tricks_won,
        spades_broken=spades_broken,
        revokes=revokes,
        scores=scores,
        bags=bags,
        hand_records=[_record(r) for r in old_records] + [_record(r) for r in new_records],
        waiting_since=waiting_since,
        result=None if result is None else _result(result),
        rest=rest,
        log=log,
    )
    return game, (records, entries)


def _log_columns(log: list[LogEntry]) -> tuple[bytes, ...]:
    """Log entries as four packed columns (kind index, seat, value, time): a
    handful of objects to read back instead of four per entry. (Written with
    every action: ``zip`` turns the rows into columns in C.)"""
    if not log:
        return _NO_COLUMNS
    kinds, seats, values, times = zip(*log, strict=True)
    return (
        bytes(map(_KIND_INDEX.__getitem__, kinds)),
        bytes(seats),
        array("i", values).tobytes(),
        array("d", times).tobytes(),
    )


def _join(first: tuple[bytes, ...], then: tuple[bytes, ...]) -> tuple[bytes, ...]:
    """Packed columns of consecutive entries, end to end."""
    if not then[0]:
        return first
    if not first[0]:
        return then
    return tuple(a + b for a, b in zip(first, then, strict=True))


def _log_entries(columns: tuple[bytes, ...]) -> list[LogEntry]:
    kinds, seats, values, times = columns
    return list(
        zip(
            map(_KINDS.__getitem__, kinds),
            seats,
            array("i", values).tolist(),
            array("d", times).tolist(),
            strict=True,
        )
    )


def _result_tuple(result: GameResult) -> tuple[Any, ...]:
    basic = (result.winner, result.reason.value, result.seat)
    # The note only when there is one: checkpoints of earlier versions have three.
    return basic if result.note is None else (*basic, result.note)


def _result(data: Sequence[Any]) -> GameResult:
    note = data[3] if len(data) > 3 else None
    return GameResult(data[0], EndReason(data[1]), data[2], note)


def _record_tuple(record: HandRecord) -> tuple[Any, ...]:
    return (
        record.hand,
        record.dealer,
        record.dealt,
        record.bids,
        [tuple(t) for t in record.tricks],
        record.tricks_won,
        record.score_before,
        record.bags_before,
        record.hand_score,
        record.score_after,
        record.bags_after,
        [tuple(r) for r in record.results],
        record.game_over,
        record.winner,
        record.claim,
    )


def _record(data: tuple[Any, ...]) -> HandRecord:
    (hand, dealer, dealt, bids, tricks, tricks_won, score_before, bags_before, hand_score,
     score_after, bags_after, results, game_over, winner) = data[:14]  # fmt: skip
    claim = data[14] if len(data) > 14 else None  # (records of formats before 6 have none)
    return HandRecord(
        hand,
        dealer,
        dealt,
        bids,
        list(map(_make_trick, tricks)),
        tricks_won,
        score_before,
        bags_before,
        hand_score,
        score_after,
        bags_after,
        (_make_result(results[0]), _make_result(results[1])),
        game_over,
        winner,
        None if claim is None else (claim[0], claim[1]),
    )
