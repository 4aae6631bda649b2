"""Recorded 18xx.games games: reading a record and stepping through it on a
:class:`~tilelay.board.Board`. The one place that knows the record format.

A record is the JSON of a game on 18xx.games: ``title`` names the game and ``actions`` lists
every move. The moves that shape the map are applied: ``lay_tile`` (``hex``, ``tile`` as
``"57-1"`` = tile 57, copy #1, ``rotation``) becomes a :class:`~tilelay.actions.TileLay` and
``place_token`` (``city`` as ``"57-1-0"`` = city #0 of that tile; a preprinted hex's tile is
named by its coordinate, ``"F20-0-0"``) a :class:`~tilelay.actions.TokenPlacement`. Home
tokens are not actions: the game places them when a corporation first acts, and so does
:func:`replay` (when the home city is unambiguous). Trains (``buy_train``,
``discard_train``, rusting) and phases are followed for the router; ``run_routes`` actions
carry the routes the players ran (:func:`recorded_routes`).

Undo and redo follow the record format: an ``undo`` without ``action_id`` takes back the latest
action still in force (messages are never taken back); ``undo`` with ``action_id: N`` takes back
every action after the one whose ``id`` is N (0: all); ``redo`` restores what the latest undo
took back; any other action forgets what could be redone. :func:`actions_in_force` works this
out in time linear in the record's length (times a logarithm), whatever its undos.

In 18xx.games a tile replaced by an upgrade goes back to the supply and may be laid again, so
the number of copies *on the board* never exceeds the manifest; :class:`ReplayResult` records
the most copies of each tile on the board at once and the copies laid a second time.

Bad records give a :class:`RecordError` naming the record and the action id.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tilelay.actions import TileLay, TokenPlacement
from tilelay.board import Board, BoardError
from tilelay.errors import GameDataError, TilelayError
from tilelay.files import read_bytes
from tilelay.games import UNLIMITED, Game, load_game
from tilelay.limits import read_json, shown
from tilelay.trains import Phase

__all__ = [
    "MAX_ACTIONS",
    "MAX_RECORD_BYTES",
    "RecordError",
    "RecordedRoute",
    "ReplayResult",
    "ReplayStep",
    "ReplayedLay",
    "ReplayedToken",
    "actions_in_force",
    "load_record",
    "over_manifest",
    "read_record",
    "record_options",
    "recorded_routes",
    "replay",
    "replay_steps",
    "split_tile_id",
]

#: The most actions a record may hold (the longest public games have a few thousand).
MAX_ACTIONS = 200_000
#: The largest record read (bytes).
MAX_RECORD_BYTES = 64 * 1024 * 1024


class RecordError(GameDataError):
    """A recorded game that cannot be read or replayed (naming the action)."""


# ------------------------------------------------------------------------------ reading


def read_record(data: bytes | str, *, source: str = "record") -> dict[str, Any]:
    """The record in ``data`` (JSON text); :class:`RecordError` when it is not a record."""
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(
            f"the record is too large ({len(data)} bytes): at most {MAX_RECORD_BYTES}",
            source=source,
        )
    parsed = read_json(data, source=source, error=RecordError)
    if not isinstance(parsed, dict) or not isinstance(parsed.get("actions"), list):
        raise RecordError(
            "not a game record: expected a JSON object with a list 'actions'", source=source
        )
    actions = parsed["actions"]
    if len(actions) > MAX_ACTIONS:
        raise RecordError(
            f"the record has {len(actions)} actions: at most {MAX_ACTIONS}", source=source
        )
    for i, action in enumerate(actions):
        if not isinstance(action, dict):
            raise RecordError(f"action #{i + 1} is not a JSON object", source=source)
    return parsed


def load_record(path: str | Path) -> dict[str, Any]:
    """Read a recorded game from a JSON file; :class:`RecordError` when it is not one."""
    p = Path(path)
    data = read_bytes(p, limit=MAX_RECORD_BYTES, what="record", error=RecordError)
    return read_record(data, source=str(p))


def actions_in_force(actions: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The actions still in force after applying ``undo`` / ``redo``, in order.

    The actions in force are kept as a prefix (``length``) of one array, so an undo only moves
    the end of the prefix back and a redo moves it forward again; an ordinary action
    overwrites what could have been redone. Messages are never taken back: they are kept
    apart and put back in their places at the end.
    """
    done: list[tuple[int, Mapping[str, Any]]] = []  # (sequence number, action)
    length = 0
    redo: list[int] = []  # the lengths the undos moved away from
    messages: list[tuple[int, Mapping[str, Any]]] = []
    message_seqs: set[int] = set()
    seq_of_id: dict[object, int] = {}
    for seq, action in enumerate(actions):
        kind = action.get("type")
        if kind == "undo":
            target = action.get("action_id")
            if target is None:
                if length:
                    redo.append(length)
                    length -= 1
                continue
            redo.append(length)
            if target == 0:
                length = 0
                continue
            target_seq = seq_of_id.get(_id_key(target))
            if target_seq is not None:
                keep = _bisect_prefix(done, length, target_seq)
                # a message is always in force; another action only if not taken back
                if target_seq in message_seqs or (keep and done[keep - 1][0] == target_seq):
                    length = keep
            continue
        if kind == "redo":
            if redo:
                length = redo.pop()
            continue
        if "id" in action:
            seq_of_id[_id_key(action["id"])] = seq
        if kind == "message":
            messages.append((seq, action))
            message_seqs.add(seq)
            continue
        redo.clear()
        del done[length:]
        done.append((seq, action))
        length += 1
    in_force = done[:length]
    if messages:
        in_force = sorted(in_force + messages, key=lambda pair: pair[0])
    return [action for _, action in in_force]


def _id_key(value: object) -> object:
    return value if isinstance(value, int | str) and not isinstance(value, bool) else repr(value)


def _bisect_prefix(done: list[tuple[int, Mapping[str, Any]]], length: int, seq: int) -> int:
    """How many of ``done[:length]`` have a sequence number at or below ``seq``."""
    lo, hi = 0, length
    while lo < hi:
        mid = (lo + hi) // 2
        if done[mid][0] <= seq:
            lo = mid + 1
        else:
            hi = mid
    return lo


def split_tile_id(tile_id: str) -> tuple[str, int]:
    """``"57-1"`` -> ``("57", 1)``; raises :class:`ValueError` without a copy number."""
    name, sep, copy = tile_id.rpartition("-")
    if not sep or not name or not copy.isascii() or not copy.isdigit() or len(copy) > 6:
        raise ValueError(f"bad tile id {shown(tile_id)}: expected NAME-COPY, e.g. 57-1")
    return name, int(copy)


@dataclass(frozen=True, slots=True)
class RecordedRoute:
    """A route a player ran, as the record has it: the train id (``"3-0"``), the hexes it
    passes in order (from ``hexes``, or joined from ``connections``) and the revenue when the
    record gives it."""

    train: str
    hexes: tuple[str, ...]
    revenue: int | None = None


def _hex_chain(route: Mapping[str, Any]) -> list[str]:
    given = route.get("connections")
    conns = (
        [[str(h) for h in c] for c in given if isinstance(c, list)]
        if isinstance(given, list)
        else []
    )
    conns = [c for c in conns if c]
    if not conns:
        hexes = route.get("hexes") or []
        return [str(h) for h in hexes] if isinstance(hexes, list) else []
    seq = conns[0]
    if len(conns) > 1 and seq[0] in (conns[1][0], conns[1][-1]):
        seq = seq[::-1]
    for c in conns[1:]:
        seq = seq + (c[1:] if c[0] == seq[-1] else c[::-1][1:])
    out: list[str] = []
    for h in seq:
        if not out or out[-1] != h:
            out.append(h)
    return out


def recorded_routes(action: Mapping[str, Any]) -> tuple[RecordedRoute, ...]:
    """The routes of a ``run_routes`` action (none for other actions)."""
    routes = action.get("routes") if action.get("type") == "run_routes" else None
    if not isinstance(routes, list):
        return ()
    out: list[RecordedRoute] = []
    for r in routes:
        if not isinstance(r, dict):
            continue
        revenue = r.get("revenue")
        out.append(
            RecordedRoute(
                str(r.get("train", "")),
                tuple(_hex_chain(r)),
                revenue if isinstance(revenue, int) and not isinstance(revenue, bool) else None,
            )
        )
    return tuple(out)


# ------------------------------------------------------------------------------ replay


@dataclass(frozen=True, slots=True)
class ReplayedLay:
    """One tile lay of a record: the action id, the :class:`~tilelay.actions.TileLay`, the
    copy of the tile, the tile it replaced and the exits before and after.

    ``blocked_exits`` are the new tile's exits that the board did not allow when it was laid
    (off the map, across an impassable border, or into a red/gray/blue hex without track
    facing back; see :meth:`Board.exit_allowed`).
    """

    action_id: int
    lay: TileLay
    copy: int
    old_tile: str
    old_exits: frozenset[int]
    new_exits: frozenset[int]
    blocked_exits: frozenset[int] = frozenset()

    @property
    def lost_exits(self) -> frozenset[int]:
        """Exits the old tile had that the new tile lacks (empty for a legal upgrade)."""
        return self.old_exits - self.new_exits


@dataclass(frozen=True, slots=True)
class ReplayedToken:
    """One station token of a record (``action_id`` None: a home token the game placed)."""

    action_id: int | None
    token: TokenPlacement
    home: bool = False


@dataclass(frozen=True, slots=True)
class ReplayResult:
    """The final board and what happened on the way.

    ``max_on_board`` is the largest number of copies of each tile on the board at one time;
    ``relaid`` lists tile copies (``"57-1"``) laid again after an upgrade returned them.
    ``skipped_homes`` lists corporations whose home city was ambiguous (not placed).
    """

    game: Game
    board: Board
    lays: tuple[ReplayedLay, ...]
    tokens: tuple[ReplayedToken, ...]
    max_on_board: dict[str, int] = field(default_factory=dict)
    relaid: tuple[str, ...] = ()
    skipped_homes: tuple[str, ...] = ()


class TrainsAt(Mapping[str, Mapping[str, str]]):
    """The corporations' trains after one step of a replay, as ``{corporation: {train id:
    train type name}}``: built from the replay's log of train changes when first looked at,
    so that a replay does not copy every corporation's trains at every step (which made a
    record of many train purchases quadratic)."""

    __slots__ = ("_built", "_length", "_log")

    def __init__(self, log: Sequence[tuple[str, str, str | None]], length: int) -> None:
        self._log = log
        self._length = length
        self._built: dict[str, dict[str, str]] | None = None

    def _trains(self) -> dict[str, dict[str, str]]:
        if self._built is None:
            out: dict[str, dict[str, str]] = {}
            for corporation, train_id, name in itertools.islice(self._log, self._length):
                if name is None:
                    out[corporation].pop(train_id, None)
                else:
                    out.setdefault(corporation, {})[train_id] = name
            self._built = out
        return self._built

    def __getitem__(self, corporation: str) -> Mapping[str, str]:
        return self._trains()[corporation]

    def __iter__(self) -> Iterator[str]:
        return iter(self._trains())

    def __len__(self) -> int:
        return len(self._trains())

    def __repr__(self) -> str:
        return repr(self._trains())


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """The game after one action in force: the ``board``, the current ``phase``, and each
    corporation's trains as ``{corporation: {train id: train type name}}`` (ids as the record
    names them, ``"3-0"``; the type is the card side bought, e.g. a variant).

    Phases change when the first train of a type is bought (the game's PHASES ``on``); trains
    rust as the train data says, leave with ``discard_train`` and with ``exchange`` (traded in),
    and move between corporations when one buys a train from another (the same id).
    """

    action: Mapping[str, Any]
    board: Board
    phase: Phase
    trains: Mapping[str, Mapping[str, str]]

    @property
    def action_id(self) -> int | None:
        """The id of the action (None when the record gives none)."""
        value = self.action.get("id")
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def train_names(self, corporation: str) -> list[str]:
        """The train type names ``corporation`` holds, in id order."""
        held = self.trains.get(corporation, {})
        return [held[k] for k in sorted(held)]


def _action_id(action: Mapping[str, Any]) -> int:
    """The action's id when it is a whole number (not ``true`` or ``false``), else 0."""
    value = action.get("id")
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _int_field(action: Mapping[str, Any], key: str, default: int | None = None) -> int:
    value = action.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{key} must be a whole number, not {shown(value)}")
    return value


class _Replayer:
    """Replay state: the board, the bookkeeping of :class:`ReplayResult`, phase and trains."""

    def __init__(self, record: Mapping[str, Any], game: Game | None, home_tokens: bool) -> None:
        if game is None:
            title = record.get("title")
            if not isinstance(title, str) or not title:
                raise RecordError("the record names no game (its 'title')")
            game = load_game(title)
        self.game = game
        self.home_tokens = home_tokens
        record_id = record.get("id")
        self.source = (
            f"record {shown(record_id)} ({game.name})"
            if record_id is not None
            else f"the record ({game.name})"
        )
        self.board = Board(game)
        self.lays: list[ReplayedLay] = []
        self.placements: list[ReplayedToken] = []
        self.where: dict[str, str] = {}  # tile id on the board -> coord
        self.at: dict[str, str] = {}  # coord -> tile id laid there
        self.on_board: dict[str, int] = {}
        self.max_on_board: dict[str, int] = {}
        self.ever_laid: set[str] = set()
        self.relaid: list[str] = []
        self.started: set[str] = set()
        self.skipped: list[str] = []
        self.corp_syms = {c.sym for c in game.corporations}
        phases = game.trains.phases
        self.phase: Phase = phases[0] if phases else Phase("1")
        self.trains: dict[str, dict[str, str]] = {}
        self.owner: dict[str, str] = {}  # train id -> the corporation holding it
        self.log: list[tuple[str, str, str | None]] = []  # every change: (corp, train, name)
        self.bought_types: set[str] = set()

    def fail(self, action: Mapping[str, Any], message: str) -> RecordError:
        return RecordError(f"action {shown(action.get('id'))}: {message}", source=self.source)

    def result(self) -> ReplayResult:
        return ReplayResult(
            self.game,
            self.board,
            tuple(self.lays),
            tuple(self.placements),
            self.max_on_board,
            tuple(self.relaid),
            tuple(self.skipped),
        )

    def step(self, action: Mapping[str, Any]) -> ReplayStep:
        return ReplayStep(action, self.board, self.phase, TrainsAt(self.log, len(self.log)))

    def add_train(self, corporation: str, train_id: str, name: str) -> None:
        self.remove_train(train_id)
        self.trains.setdefault(corporation, {})[train_id] = name
        self.owner[train_id] = corporation
        self.log.append((corporation, train_id, name))

    def remove_train(self, train_id: str, holder: str | None = None) -> None:
        """Take ``train_id`` from whoever holds it (only from ``holder`` when given)."""
        corporation = self.owner.get(train_id)
        if corporation is None or (holder is not None and corporation != holder):
            return
        del self.owner[train_id]
        del self.trains[corporation][train_id]
        self.log.append((corporation, train_id, None))

    def buy_train(self, action: Mapping[str, Any]) -> None:
        manager = self.game.trains
        train_id = str(action.get("train"))
        buyer = str(action.get("entity"))
        name = str(action.get("variant") or train_id.rpartition("-")[0] or train_id)
        try:
            card = manager.card_type_of(name)
        except TilelayError as err:
            raise self.fail(action, str(err)) from None
        self.remove_train(train_id)
        exchange = action.get("exchange")
        if exchange:
            self.remove_train(str(exchange), buyer)
        if card.name not in self.bought_types:
            self.bought_types.add(card.name)
            rusted = set(card.rusts)
            started = manager.phase_started_by(card.name)
            if started is not None:
                self.phase = manager.phase(started)
                rusted |= set(self.phase.rusts)
            if rusted:
                for held in list(self.trains.values()):
                    for tid in [
                        t for t, n in held.items() if manager.card_type_of(n).name in rusted
                    ]:
                        self.remove_train(tid)
        self.add_train(buyer, train_id, name)

    def home(self, action: Mapping[str, Any], entity: str) -> None:
        self.started.add(entity)
        city = self.game.home_city(entity)
        home = self.game.corporation(entity).home
        if home is None or city is None:
            self.skipped.append(entity)
            return
        token = TokenPlacement(home, entity, city)
        try:
            self.board = self.board.apply(token)
        except BoardError as err:
            raise self.fail(action, f"home token of {entity}: {err.message}") from None
        self.placements.append(ReplayedToken(None, token, home=True))

    def lay_tile(self, action: Mapping[str, Any]) -> None:
        tile_id = str(action.get("tile"))
        try:
            name, copy = split_tile_id(tile_id)
            rotation = _int_field(action, "rotation", 0)
            lay = TileLay(str(action.get("hex")), name, rotation)
            old = self.board.tile_at(lay.coord)
            new_board = self.board.apply(lay)
        except (TilelayError, ValueError) as err:
            raise self.fail(action, str(err)) from None
        coord = lay.coord
        new = new_board.tile_at(coord)
        blocked = frozenset(e for e in new.exits() if not self.board.exit_allowed(coord, e))
        self.board = new_board
        self.lays.append(
            ReplayedLay(
                _action_id(action),
                lay,
                copy,
                old.name,
                old.exits(),
                new.exits(),
                blocked,
            )
        )
        previous = self.at.pop(coord, None)
        if previous is not None:
            self.where.pop(previous, None)
            self.on_board[split_tile_id(previous)[0]] -= 1
        if tile_id in self.where:
            raise self.fail(
                action, f"tile {tile_id} is already on the board at {self.where[tile_id]}"
            )
        if tile_id in self.ever_laid:
            self.relaid.append(tile_id)
        self.ever_laid.add(tile_id)
        self.where[tile_id] = coord
        self.at[coord] = tile_id
        self.on_board[name] = self.on_board.get(name, 0) + 1
        self.max_on_board[name] = max(self.max_on_board.get(name, 0), self.on_board[name])

    def place_token(self, action: Mapping[str, Any], entity: str) -> None:
        city_ref = str(action.get("city"))
        tile_id, _, index = city_ref.rpartition("-")
        if not (index.isascii() and index.isdigit() and len(index) <= 2):
            raise self.fail(action, f"bad city {shown(city_ref)}: expected TILE-COPY-CITY")
        coord = self.where.get(tile_id)
        if coord is None:
            hex_name = tile_id.rpartition("-")[0]
            if hex_name in self.game.hexes and hex_name not in self.at:
                coord = hex_name
        if coord is None:
            raise self.fail(
                action, f"city {shown(city_ref)}: tile {tile_id[:40]} is not on the board"
            )
        try:
            token = TokenPlacement(coord, entity, int(index))
            self.board = self.board.place_token(coord, token.city, entity)
        except TilelayError as err:
            raise self.fail(action, err.message) from None
        self.placements.append(ReplayedToken(_action_id(action), token))

    def apply(self, action: Mapping[str, Any]) -> None:
        entity = action.get("entity")
        if (
            self.home_tokens
            and isinstance(entity, str)
            and entity in self.corp_syms
            and entity not in self.started
        ):
            self.home(action, entity)
        kind = action.get("type")
        if kind == "lay_tile":
            self.lay_tile(action)
        elif kind == "place_token":
            self.place_token(action, str(entity))
        elif kind == "buy_train":
            self.buy_train(action)
        elif kind == "discard_train":
            self.remove_train(str(action.get("train")), str(entity))


def replay(
    record: Mapping[str, Any], game: Game | None = None, *, home_tokens: bool = True
) -> ReplayResult:
    """Apply a record's tile lays and token placements (those in force) to a new board.

    ``game`` defaults to the game named by the record's ``title``. Raises
    :class:`RecordError` naming the action when a tile or city does not exist or a move is
    impossible on the board.
    """
    replayer = _Replayer(record, game, home_tokens)
    for action in actions_in_force(record.get("actions", [])):
        replayer.apply(action)
    return replayer.result()


def replay_steps(
    record: Mapping[str, Any],
    game: Game | None = None,
    *,
    home_tokens: bool = True,
    on_error: Callable[[RecordError], None] | None = None,
) -> Iterator[ReplayStep]:
    """Replay a record action by action (those in force), yielding a :class:`ReplayStep`
    after each: the board, the phase and the corporations' trains. Errors as :func:`replay`;
    with ``on_error``, an action that cannot be replayed is given to it instead and the
    replay goes on without it (what the action did before failing stays done).
    """
    replayer = _Replayer(record, game, home_tokens)
    for action in actions_in_force(record.get("actions", [])):
        try:
            replayer.apply(action)
        except RecordError as err:
            if on_error is None:
                raise
            on_error(err)
        yield replayer.step(action)


def over_manifest(result: ReplayResult) -> dict[str, tuple[int, int]]:
    """Tiles with more copies on the board at once than the manifest holds: (most, count)."""
    out: dict[str, tuple[int, int]] = {}
    for name, most in result.max_on_board.items():
        count = result.game.manifest.get(name, 0)
        if count != UNLIMITED and most > count:
            out[name] = (most, count)
    return out


def record_options(record: Mapping[str, Any]) -> tuple[str, ...]:
    """The optional rules a record's game was set up with (``settings.optional_rules``)."""
    settings = record.get("settings")
    rules = settings.get("optional_rules") if isinstance(settings, Mapping) else None
    if not isinstance(rules, list):
        return ()
    return tuple(str(r) for r in rules if isinstance(r, str) and r)
