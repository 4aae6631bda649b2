"""Replaying the map of a recorded 18xx.games game onto a :class:`~tilelay.board.Board`.

A record is the JSON of a game on 18xx.games: ``title`` names the game and ``actions`` lists
every move. Only the moves that shape the map are applied: ``lay_tile`` (``hex``, ``tile`` as
``"57-1"`` = tile 57, copy #1, ``rotation``) and ``place_token`` (``city`` as ``"57-1-0"`` =
city #0 of that tile; a preprinted hex's tile is named by its coordinate, ``"F20-0-0"``). Home
tokens are not actions: the game places them when a corporation first acts, and so does
:func:`replay` (when the home city is unambiguous).

Undo and redo follow the record format: an ``undo`` without ``action_id`` takes back the latest
action still in force (messages are never taken back); ``undo`` with ``action_id: N`` takes back
every action after the one whose ``id`` is N (0: all); ``redo`` restores what the latest undo
took back; any other action forgets what could be redone.

In 18xx.games a tile replaced by an upgrade goes back to the supply and may be laid again, so
the number of copies *on the board* never exceeds the manifest; :class:`ReplayResult` records
the most copies of each tile on the board at once and the copies laid a second time.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tilelay.board import Board, BoardError
from tilelay.errors import GameDataError, TilelayError
from tilelay.games import UNLIMITED, Game, load_game
from tilelay.trains import Phase

__all__ = [
    "ReplayResult",
    "ReplayStep",
    "TileLay",
    "TokenPlacement",
    "actions_in_force",
    "load_record",
    "over_manifest",
    "replay",
    "replay_steps",
    "split_tile_id",
]


@dataclass(frozen=True, slots=True)
class TileLay:
    """One tile lay: where, which tile (name and copy), rotation, and the exits before/after.

    ``blocked_exits`` are the new tile's exits that the board did not allow when it was laid
    (off the map, across an impassable border, or into a red/gray/blue hex without track
    facing back; see :meth:`Board.exit_allowed`).
    """

    action_id: int
    coord: str
    tile: str
    copy: int
    rotation: int
    old_tile: str
    old_exits: frozenset[int]
    new_exits: frozenset[int]
    blocked_exits: frozenset[int] = frozenset()

    @property
    def lost_exits(self) -> frozenset[int]:
        """Exits the old tile had that the new tile lacks (empty for a legal upgrade)."""
        return self.old_exits - self.new_exits


@dataclass(frozen=True, slots=True)
class TokenPlacement:
    """One station token: the corporation, the hex and the city index (home: not an action)."""

    action_id: int | None
    corporation: str
    coord: str
    city: int
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
    lays: tuple[TileLay, ...]
    tokens: tuple[TokenPlacement, ...]
    max_on_board: dict[str, int] = field(default_factory=dict)
    relaid: tuple[str, ...] = ()
    skipped_homes: tuple[str, ...] = ()


def load_record(path: str | Path) -> dict[str, Any]:
    """Read a recorded game (JSON); :class:`GameDataError` when it is not one."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except OSError as err:
        raise GameDataError(f"cannot read record: {err.strerror}", source=str(p)) from None
    except json.JSONDecodeError as err:
        raise GameDataError(
            f"malformed JSON: {err.msg}", source=str(p), line=err.lineno, column=err.colno
        ) from None
    if not isinstance(data, dict) or not isinstance(data.get("actions"), list):
        raise GameDataError("not a game record: expected an object with 'actions'", source=str(p))
    return data


def actions_in_force(actions: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The actions still in force after applying ``undo`` / ``redo`` (in order)."""
    done: list[Mapping[str, Any]] = []
    undone: list[list[Mapping[str, Any]]] = []  # stack of what each undo took back
    for action in actions:
        kind = action.get("type")
        if kind == "undo":
            target = action.get("action_id")
            if target is None:
                for i in range(len(done) - 1, -1, -1):
                    if done[i].get("type") != "message":
                        undone.append([done.pop(i)])
                        break
            else:
                keep = 0
                if target != 0:
                    for i, a in enumerate(done):
                        if a.get("id") == target:
                            keep = i + 1
                            break
                    else:
                        keep = len(done)
                taken = [a for a in done[keep:] if a.get("type") != "message"]
                done = done[:keep] + [a for a in done[keep:] if a.get("type") == "message"]
                undone.append(taken)
        elif kind == "redo":
            if undone:
                done.extend(undone.pop())
        else:
            if kind != "message":
                undone.clear()
            done.append(action)
    return done


def split_tile_id(tile_id: str) -> tuple[str, int]:
    """``"57-1"`` -> ``("57", 1)``; raises :class:`ValueError` without a copy number."""
    name, sep, copy = tile_id.rpartition("-")
    if not sep or not name or not copy.isdigit():
        raise ValueError(f"bad tile id {tile_id!r}: expected NAME-COPY, e.g. 57-1")
    return name, int(copy)


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

    def train_names(self, corporation: str) -> list[str]:
        """The train type names ``corporation`` holds, in id order."""
        held = self.trains.get(corporation, {})
        return [held[k] for k in sorted(held)]


class _Replayer:
    """Replay state: the board, the bookkeeping of :class:`ReplayResult`, phase and trains."""

    def __init__(self, record: Mapping[str, Any], game: Game | None, home_tokens: bool) -> None:
        if game is None:
            game = load_game(str(record.get("title", "")))
        self.game = game
        self.home_tokens = home_tokens
        self.source = f"record {record.get('id', '?')} ({game.name})"
        self.board = Board(game)
        self.lays: list[TileLay] = []
        self.placements: list[TokenPlacement] = []
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
        self.bought_types: set[str] = set()

    def fail(self, action: Mapping[str, Any], message: str) -> GameDataError:
        return GameDataError(f"action {action.get('id')}: {message}", source=self.source)

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
        return ReplayStep(
            action, self.board, self.phase, {k: dict(v) for k, v in self.trains.items()}
        )

    def buy_train(self, action: Mapping[str, Any]) -> None:
        manager = self.game.trains
        train_id = str(action.get("train"))
        buyer = str(action.get("entity"))
        name = str(action.get("variant") or train_id.rpartition("-")[0] or train_id)
        try:
            card = manager.card_type_of(name)
        except TilelayError as err:
            raise self.fail(action, str(err)) from None
        for held in self.trains.values():
            held.pop(train_id, None)
        exchange = action.get("exchange")
        if exchange:
            self.trains.get(buyer, {}).pop(str(exchange), None)
        if card.name not in self.bought_types:
            self.bought_types.add(card.name)
            rusted = set(card.rusts)
            started = manager.phase_started_by(card.name)
            if started is not None:
                self.phase = manager.phase(started)
                rusted |= set(self.phase.rusts)
            if rusted:
                for held in self.trains.values():
                    for tid in [
                        t for t, n in held.items() if manager.card_type_of(n).name in rusted
                    ]:
                        del held[tid]
        self.trains.setdefault(buyer, {})[train_id] = name

    def apply(self, action: Mapping[str, Any]) -> None:
        game = self.game
        board = self.board
        fail = self.fail
        entity = action.get("entity")
        if (
            self.home_tokens
            and isinstance(entity, str)
            and entity in self.corp_syms
            and entity not in self.started
        ):
            self.started.add(entity)
            city = game.home_city(entity)
            home = game.corporation(entity).home
            if home is None or city is None:
                self.skipped.append(entity)
            else:
                try:
                    board = board.place_token(home, city, entity)
                except BoardError as err:
                    raise fail(action, f"home token of {entity}: {err.message}") from None
                self.placements.append(TokenPlacement(None, entity, home, city, home=True))
        kind = action.get("type")
        if kind == "lay_tile":
            coord = str(action.get("hex"))
            tile_id = str(action.get("tile"))
            try:
                name, copy = split_tile_id(tile_id)
                tile = game.tile(name)
                old = board.tile_at(coord)
            except (TilelayError, ValueError) as err:
                raise fail(action, str(err)) from None
            rotation = int(action.get("rotation", 0))
            before = board
            try:
                board = board.lay(coord, tile, rotation)
            except BoardError as err:
                raise fail(action, err.message) from None
            new = board.tile_at(coord)
            blocked = frozenset(e for e in new.exits() if not before.exit_allowed(coord, e))
            self.lays.append(
                TileLay(
                    int(action.get("id", 0)),
                    coord,
                    name,
                    copy,
                    rotation,
                    old.name,
                    old.exits(),
                    new.exits(),
                    blocked,
                )
            )
            previous = self.at.pop(coord, None)
            if previous is not None:
                self.where.pop(previous, None)
                prev_name = split_tile_id(previous)[0]
                self.on_board[prev_name] -= 1
            if tile_id in self.where:
                raise fail(
                    action, f"tile {tile_id} is already on the board at {self.where[tile_id]}"
                )
            if tile_id in self.ever_laid:
                self.relaid.append(tile_id)
            self.ever_laid.add(tile_id)
            self.where[tile_id] = coord
            self.at[coord] = tile_id
            self.on_board[name] = self.on_board.get(name, 0) + 1
            self.max_on_board[name] = max(self.max_on_board.get(name, 0), self.on_board[name])
        elif kind == "place_token":
            city_ref = str(action.get("city"))
            corp = str(entity)
            tile_id, _, index = city_ref.rpartition("-")
            if not index.isdigit():
                raise fail(action, f"bad city {city_ref!r}: expected TILE-COPY-CITY")
            coord_or_none = self.where.get(tile_id)
            if coord_or_none is None:
                hex_name = tile_id.rpartition("-")[0]
                if hex_name in game.hexes and hex_name not in self.at:
                    coord_or_none = hex_name
            if coord_or_none is None:
                raise fail(action, f"city {city_ref!r}: tile {tile_id} is not on the board")
            try:
                board = board.place_token(coord_or_none, int(index), corp)
            except BoardError as err:
                raise fail(action, err.message) from None
            self.placements.append(
                TokenPlacement(int(action.get("id", 0)), corp, coord_or_none, int(index))
            )
        elif kind == "buy_train":
            self.buy_train(action)
        elif kind == "discard_train":
            self.trains.get(str(entity), {}).pop(str(action.get("train")), None)
        self.board = board


def replay(
    record: Mapping[str, Any], game: Game | None = None, *, home_tokens: bool = True
) -> ReplayResult:
    """Apply a record's tile lays and token placements (those in force) to a new board.

    ``game`` defaults to the game named by the record's ``title``. Raises
    :class:`GameDataError` naming the action when a tile or city does not exist or a move is
    impossible on the board.
    """
    replayer = _Replayer(record, game, home_tokens)
    for action in actions_in_force(record.get("actions", [])):
        replayer.apply(action)
    return replayer.result()


def replay_steps(
    record: Mapping[str, Any], game: Game | None = None, *, home_tokens: bool = True
) -> Iterator[ReplayStep]:
    """Replay a record action by action (those in force), yielding a :class:`ReplayStep`
    after each: the board, the phase and the corporations' trains. Errors as :func:`replay`.
    """
    replayer = _Replayer(record, game, home_tokens)
    for action in actions_in_force(record.get("actions", [])):
        replayer.apply(action)
        yield replayer.step(action)


def over_manifest(result: ReplayResult) -> dict[str, tuple[int, int]]:
    """Tiles with more copies on the board at once than the manifest holds: (most, count)."""
    out: dict[str, tuple[int, int]] = {}
    for name, most in result.max_on_board.items():
        count = result.game.manifest.get(name, 0)
        if count != UNLIMITED and most > count:
            out[name] = (most, count)
    return out
