"""A sandbox board: a board's state as a value, changed by edits that can be undone.

A :class:`BoardState` is everything a player sets up on a board to try lays before making
them: the game and its options (and, for a game that draws its setup when it starts, the
seed and number of players it is drawn for: 18USA's red hexes and metropolises, see
:attr:`BoardState.seed`), the phase, the actions done (tile lays and token placements
as their text forms, ``K4=57-1`` and ``K4=KO@0``), the corporation and trains whose best
routes are shown, and the history of edits (:class:`Edit`) for undo and redo. It is immutable
and has a JSON form (:meth:`BoardState.to_json`, :meth:`BoardState.from_json`), so saving,
undo and redo, and sending it between a page and a server are simple.

>>> state = BoardState("1889").lay("K8", "57", 1)
>>> state.actions
('K8=57-1',)
>>> state = state.rotate("K8")          # the next legal rotation of the tile laid last there
>>> state.actions, state.undo().actions
(('K8=57-4',), ('K8=57-1',))
>>> BoardState.from_json(state.to_json()) == state
True

Every edit checks the game's rules as :class:`~tilelay.board.Board` states them
(:meth:`~tilelay.board.Board.why_illegal`: upgrades, the phase's colours, the manifest) and
raises :class:`IllegalEdit` naming the rule that forbids it; the board itself is rebuilt from
the actions (:meth:`BoardState.board`) without checking rules again, so a state once made is
always drawn as it was.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from tilelay.actions import Action, ActionError, TileLay, TokenPlacement, parse_action
from tilelay.board import Board, BoardError
from tilelay.errors import NotFoundError, TilelayError
from tilelay.games import Game, load_game
from tilelay.limits import MAX_PLAYERS, MAX_TRAINS, read_json, shown
from tilelay.rules import Start, corporation_lays, rules_for
from tilelay.trains import Phase

__all__ = [
    "MAX_ACTIONS",
    "MAX_HISTORY",
    "BoardState",
    "Edit",
    "IllegalEdit",
    "StateError",
    "board_actions",
    "game_key",
    "player_range",
    "setup_problem",
]

#: The most actions a board holds (a long game lays a few hundred tiles).
MAX_ACTIONS = 5_000
#: The most edits kept for undo (older ones are forgotten; the board stays as it is).
MAX_HISTORY = 500

#: ``Edit.index`` of a change of phase.
PHASE = -1
#: The largest seed a board takes (the engine's seeds are far smaller).
MAX_SEED = 2**63 - 1


def game_key(game: Game) -> str:
    """The name that loads ``game`` (:func:`~tilelay.games.load_game`): its title, or
    ``TITLE@FORMAT`` when the title belongs to another source's game (the first registered)."""
    base = game.with_options(())
    try:
        if load_game(base.name) is base:
            return base.name
    except TilelayError:
        pass
    return f"{base.name}@{base.format}"


class StateError(TilelayError, ValueError):
    """A board state that cannot be read (naming the field) or replayed (naming the action)."""


class IllegalEdit(TilelayError, ValueError):
    """An edit the game's rules forbid; the message names the rule."""


@dataclass(frozen=True, slots=True)
class Edit:
    """One undoable change: at ``index`` of the actions, ``old`` becomes ``new``.

    ``old`` None is an insertion, ``new`` None a removal; ``index`` -1 is the phase (``old``
    and ``new`` phase names, None for the first phase). The text form: ``+3 K4=57-1``
    (insert), ``-3 K4=KO@0`` (remove), ``3 K4=57-1>K4=57-2`` (replace), ``phase 2>3``.
    """

    index: int
    old: str | None
    new: str | None

    def __str__(self) -> str:
        if self.index == PHASE:
            return f"phase {self.old or ''}>{self.new or ''}"
        if self.old is None:
            return f"+{self.index} {self.new}"
        if self.new is None:
            return f"-{self.index} {self.old}"
        return f"{self.index} {self.old}>{self.new}"

    @classmethod
    def parse(cls, text: str) -> Edit:
        """Read the text form (see the class); :class:`StateError` when malformed."""
        head, _, rest = text.strip().partition(" ")
        try:
            if head == "phase":
                old, sep, new = rest.partition(">")
                if not sep:
                    raise ValueError
                return cls(PHASE, old or None, new or None)
            if head[:1] in "+-":
                index = int(head[1:])
                if index < 0 or not rest:
                    raise ValueError
                return cls(index, None, rest) if head[0] == "+" else cls(index, rest, None)
            old, sep, new = rest.partition(">")
            index = int(head)
            if not sep or not old or not new or index < 0:
                raise ValueError
            return cls(index, old, new)
        except ValueError:
            raise StateError(
                f"bad edit {text[:80]!r}: expected '+N ACTION', '-N ACTION', 'N OLD>NEW' or "
                "'phase OLD>NEW'"
            ) from None

    def inverse(self) -> Edit:
        """The edit that takes this one back."""
        return Edit(self.index, self.new, self.old)

    def describe(self) -> str:
        """The edit in words, for a person (``tile 57 on K4, rotation 1``; ``KO's token
        in K4 taken off``; ``the phase 2 → 3``)."""
        if self.index == PHASE:
            return f"the phase {self.old or 'first'} → {self.new or 'first'}"
        if self.old is None:
            return _action_words(self.new or "")
        if self.new is None:
            return _action_words(self.old) + " taken off"
        return f"{_action_words(self.old)} → {_action_words(self.new)}"


def _action_words(action: str) -> str:
    """A board action (``K4=57-1``, ``K4=KO@0``) in words."""
    coord, _, what = action.partition("=")
    if "@" in what:
        corporation, _, city = what.partition("@")
        return f"{corporation}'s token in {coord}" + (f" (city {city})" if city != "0" else "")
    tile, _, rotation = what.rpartition("-")
    return f"tile {tile or what} on {coord}, rotation {rotation}" if tile else f"{what} on {coord}"


_BOARDS: OrderedDict[tuple[Game, tuple[str, ...]], Board] = OrderedDict()
_BOARDS_LOCK = threading.Lock()
_BOARDS_KEPT = 256


def _board(game: Game, actions: tuple[str, ...]) -> Board:
    """The board of ``actions`` on ``game`` (kept: an edit usually adds one action to a
    board built just before, so only that action is applied), after the tiles the game lays
    before play (:meth:`~tilelay.rules.GameRules.opening_lays`)."""
    with _BOARDS_LOCK:
        board = _BOARDS.get((game, actions))
        start = len(actions)
        if board is None and actions:
            board = _BOARDS.get((game, actions[:-1]))
            start = len(actions) - 1
        if board is None:
            board, start = Board(game), 0
            for lay in rules_for(game).opening_lays(game):
                board = board.apply(lay)
    for i in range(start, len(actions)):
        try:
            board = board.apply(parse_action(actions[i]))
        except TilelayError as err:
            raise StateError(f"action {i + 1} ({actions[i]}): {err.message}") from None
    with _BOARDS_LOCK:
        _BOARDS[(game, actions)] = board
        _BOARDS.move_to_end((game, actions))
        while len(_BOARDS) > _BOARDS_KEPT:
            _BOARDS.popitem(last=False)
    return board


@dataclass(frozen=True, slots=True)
class BoardState:
    """A board's state (immutable): game, options, phase, actions, routes' choice, history.

    ``phase`` None is the game's first phase. ``actions`` are text forms of
    :class:`~tilelay.actions.TileLay` and :class:`~tilelay.actions.TokenPlacement` in the
    order done. ``corporation`` and ``trains`` (train type names) say whose best routes to
    show. ``done`` are the edits that made the state (the last one is undone first) and
    ``undone`` those undone that a redo restores (the last one first).

    ``players`` (None: not said) plays the game with that many players' numbers of trains
    (:meth:`~tilelay.games.Game.for_players`). A game that draws its setup when it starts
    (:attr:`~tilelay.rules.GameRules.seeded`) draws it from ``seed`` for ``players``
    players (:meth:`~tilelay.rules.GameRules.game_for`, and the tiles it lays before play),
    as a record of it with that seed starts: without a seed its map is the one its data
    has (18USA's without its red hexes). Another game takes no seed.
    """

    game: str
    options: tuple[str, ...] = ()
    phase: str | None = None
    actions: tuple[str, ...] = ()
    corporation: str | None = None
    trains: tuple[str, ...] = ()
    done: tuple[Edit, ...] = ()
    undone: tuple[Edit, ...] = ()
    seed: int | None = None
    players: int | None = None

    # ---------------------------------------------------------------- reading

    def resolve(self) -> Game:
        """The game with the state's options, players and seed (:class:`NotFoundError` for
        an unknown game or option)."""
        game = load_game(self.game).with_options(self.options)
        if self.players is not None:
            game = game.for_players(self.players)
        if self.seed is not None:
            start = Start(self.seed, self.players or 0, self.options)
            game = rules_for(game).game_for(game, start)
        return game

    def board(self) -> Board:
        """The board: the actions done on the game's map, in order (rules are not checked
        again). :class:`StateError` names an action that the board cannot hold."""
        return _board(self.resolve(), self.actions)

    def current_phase(self) -> Phase:
        """The phase in force (the game's first when none is set)."""
        game = self.resolve()
        if self.phase is None:
            if not game.phases:
                return Phase("1")
            return game.phases[0]
        return _phase(game, self.phase)

    def legal_lays(self, coord: str, *, reach: bool = False) -> dict[str, tuple[int, ...]]:
        """The tiles that may be laid at ``coord`` now with their legal rotations: the
        upgrades of the tile there, the manifest minus the tiles on the map, the colours of
        the phase; with ``reach``, only where the state's corporation reaches."""
        board = self.board()
        corp = self.corporation if reach else None
        if reach and corp is None:
            raise IllegalEdit("choose a corporation to see only what it may lay where it reaches")
        legal = board.legal_lays(coord, phase=self.current_phase(), corporation=corp)
        if corp is None or not legal:
            return legal
        # the game's own test of the corporation's lays (1849's gauges)
        return corporation_lays(board, corp, coord, legal)

    def laid_by(self, coord: str) -> int | None:
        """The index of the action that laid the tile now at ``coord`` (None: preprinted)."""
        coord = coord.strip().upper()
        for i in range(len(self.actions) - 1, -1, -1):
            action = parse_action(self.actions[i])
            if isinstance(action, TileLay) and action.coord == coord:
                return i
        return None

    # ---------------------------------------------------------------- edits

    def _edit(self, edit: Edit) -> BoardState:
        state = _apply(self, edit)
        state.board()  # every action still fits the board
        done = (*self.done, edit)[-MAX_HISTORY:]
        return replace(state, done=done, undone=())

    def lay(self, coord: str, tile: str, rotation: int = 0) -> BoardState:
        """Lay ``tile`` at ``coord`` turned ``rotation`` (an upgrade of what lies there).

        Raises :class:`IllegalEdit` naming the rule that forbids it."""
        board = self.board()
        game = board.game
        coord = game.hex_tile(coord).name
        lay = TileLay(coord, game.tile(tile).name, rotation)
        why = board.why_illegal(coord, lay.tile, rotation, phase=self.current_phase())
        if why is not None:
            raise IllegalEdit(f"{lay}: {why}")
        self._room()
        return self._edit(Edit(len(self.actions), None, str(lay)))

    def replace_tile(self, coord: str, tile: str, rotation: int = 0) -> BoardState:
        """Replace the tile laid last at ``coord`` by ``tile`` in ``rotation``: legal as a lay
        on the board as it was before that tile came (a different choice of tile or
        rotation). The actions after it are kept (tokens move to the new tile's cities)."""
        index = self.laid_by(coord)
        if index is None:
            raise IllegalEdit(f"no tile has been laid at {coord.strip().upper()}: lay one first")
        before = replace(self, actions=self.actions[:index])
        board = before.board()
        lay = TileLay(board.game.hex_tile(coord).name, board.game.tile(tile).name, rotation)
        why = board.why_illegal(lay.coord, lay.tile, rotation, phase=self.current_phase())
        if why is not None:
            raise IllegalEdit(f"{lay}: {why}")
        if str(lay) == self.actions[index]:
            return self
        return self._edit(Edit(index, self.actions[index], str(lay)))

    def rotate(self, coord: str, step: int = 1) -> BoardState:
        """Turn the tile laid last at ``coord`` to its next legal rotation (``step`` -1: the
        previous one). Raises :class:`IllegalEdit` when it has no other."""
        index = self.laid_by(coord)
        if index is None:
            raise IllegalEdit(f"no tile has been laid at {coord.strip().upper()}: lay one first")
        lay = TileLay.parse(self.actions[index])
        before = replace(self, actions=self.actions[:index])
        legal = before.board().legal_rotations(lay.coord, lay.tile, phase=self.current_phase())
        others = [r for r in _turns(lay.rotation, step) if r in legal]
        if not others:
            raise IllegalEdit(f"tile {lay.tile} has no other legal rotation at {lay.coord}")
        return self.replace_tile(lay.coord, lay.tile, others[0])

    def place_token(self, coord: str, corporation: str, city: int = 0) -> BoardState:
        """Place ``corporation``'s station token in city ``city`` of ``coord``.

        Refused (:class:`IllegalEdit`, naming the rule) for a corporation the game does not
        have, a hex or city that is not there, a full city, a second token of a corporation
        in one hex, or a corporation whose tokens are all on the map."""
        board = self.board()
        game = board.game
        coord = game.hex_tile(coord).name
        corp = game.corporation(corporation)
        token = TokenPlacement(coord, corp.sym, city)
        here = [c for (h, _), corps in board.tokens.items() if h == coord for c in corps]
        if corp.sym in here:
            raise IllegalEdit(f"{token}: {corp.sym} already has a token in {coord}")
        placed = len(board.tokens_of(corp.sym))
        if corp.tokens and placed >= len(corp.tokens):
            raise IllegalEdit(
                f"{token}: {corp.sym} has {len(corp.tokens)} token(s), all on the map"
            )
        try:
            board.place_token(coord, city, corp.sym)
        except BoardError as err:
            raise IllegalEdit(f"{token}: {err.message}") from None
        self._room()
        return self._edit(Edit(len(self.actions), None, str(token)))

    def remove_token(self, coord: str, corporation: str) -> BoardState:
        """Take ``corporation``'s token off ``coord`` (the placement is taken out of the
        actions; the actions after it are kept)."""
        coord = coord.strip().upper()
        for i in range(len(self.actions) - 1, -1, -1):
            action = parse_action(self.actions[i])
            if (
                isinstance(action, TokenPlacement)
                and action.coord == coord
                and action.corporation == corporation
            ):
                return self._edit(Edit(i, self.actions[i], None))
        raise IllegalEdit(f"{corporation} has no token at {coord}")

    def set_phase(self, phase: str) -> BoardState:
        """Set the phase (a phase name of the game)."""
        game = self.resolve()
        name = _phase(game, phase).name
        first = game.phases[0].name if game.phases else None
        new = None if name == first else name
        if new == self.phase:
            return self
        return self._edit(Edit(PHASE, self.phase, new))

    def with_routes(self, corporation: str | None, trains: Iterable[str] = ()) -> BoardState:
        """Choose whose best routes are shown: a corporation of the game and its trains
        (train type names). Not an edit (undo leaves it)."""
        game = self.resolve()
        trains = tuple(trains)
        if corporation is not None:
            corporation = game.corporation(corporation).sym
        if len(trains) > MAX_TRAINS:
            raise StateError(
                f"a board's routes are those of {MAX_TRAINS} trains at most, not {len(trains)}"
            )
        for name in trains:
            game.trains.train_type(name)
        return replace(self, corporation=corporation, trains=trains)

    def with_options(self, options: Iterable[str]) -> BoardState:
        """The same board with other game options (refused when an action no longer fits,
        e.g. a tile an option adds is on the map). Not an edit: the history is cleared."""
        chosen = tuple(sorted(set(options)))
        load_game(self.game).with_options(chosen)
        state = replace(self, options=chosen, done=(), undone=())
        try:
            state.board()
            for text in state.actions:
                action = parse_action(text)
                if isinstance(action, TileLay) and action.tile not in state.resolve().manifest:
                    raise IllegalEdit(
                        f"tile {action.tile} is on the map and not in the manifest with "
                        f"options {', '.join(chosen) or 'none'}"
                    )
        except StateError as err:
            raise IllegalEdit(str(err)) from None
        return state

    def with_setup(self, seed: int | None, players: int | None) -> BoardState:
        """The same board on the game started from ``seed`` with ``players`` players (see
        the class; refused, naming why, for a seed of a game that draws nothing from one, a
        seed without players, numbers out of range, or an action the board so started no
        longer holds). Not an edit: the history is cleared."""
        _check_setup(load_game(self.game), seed, players)
        state = replace(self, seed=seed, players=players, done=(), undone=())
        try:
            state.board()
        except StateError as err:
            raise IllegalEdit(str(err)) from None
        return state

    def undo(self) -> BoardState:
        """The state before the last edit (the same state when there is none)."""
        if not self.done:
            return self
        edit = self.done[-1]
        state = _apply(self, edit.inverse())
        return replace(state, done=self.done[:-1], undone=(*self.undone, edit))

    def redo(self) -> BoardState:
        """The state with the last undone edit done again (the same state when none)."""
        if not self.undone:
            return self
        edit = self.undone[-1]
        state = _apply(self, edit)
        return replace(state, done=(*self.done, edit), undone=self.undone[:-1])

    def _room(self) -> None:
        if len(self.actions) >= MAX_ACTIONS:
            raise IllegalEdit(f"the board holds at most {MAX_ACTIONS} actions")

    # ---------------------------------------------------------------- JSON

    def to_json(self) -> dict[str, Any]:
        """The state as JSON data (:meth:`from_json` reads it back)."""
        return {
            "game": self.game,
            "options": list(self.options),
            "phase": self.phase,
            "actions": list(self.actions),
            "corporation": self.corporation,
            "trains": list(self.trains),
            "done": [str(e) for e in self.done],
            "undone": [str(e) for e in self.undone],
            "seed": self.seed,
            "players": self.players,
        }

    def dumps(self) -> str:
        """The state as JSON text."""
        return json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, data: object) -> BoardState:
        """Read a state from JSON data; :class:`StateError` names the field that is wrong.

        The game, its options, the phase and the corporation must exist, and every action
        must be well formed and fit the board (the rules are not checked again)."""
        if not isinstance(data, Mapping):
            raise StateError("a board state must be a JSON object")
        unknown = set(data) - {
            "game",
            "options",
            "phase",
            "actions",
            "corporation",
            "trains",
            "done",
            "undone",
            "seed",
            "players",
        }
        if unknown:
            raise StateError(f"unknown field(s) in a board state: {', '.join(sorted(unknown))}")
        game = data.get("game")
        if not isinstance(game, str) or not game.strip() or len(game) > 80:
            raise StateError("'game' must name a game")
        state = cls(
            game=game_key(load_game(game)),
            options=_strings(data, "options", 50),
            phase=_optional_str(data, "phase"),
            actions=_strings(data, "actions", MAX_ACTIONS),
            corporation=_optional_str(data, "corporation"),
            trains=_strings(data, "trains", 50),
            done=tuple(Edit.parse(t) for t in _strings(data, "done", MAX_HISTORY)),
            undone=tuple(Edit.parse(t) for t in _strings(data, "undone", MAX_HISTORY)),
            seed=_optional_int(data, "seed", MAX_SEED),
            players=_optional_int(data, "players", MAX_PLAYERS),
        )
        try:
            _check_setup(load_game(state.game), state.seed, state.players)
        except IllegalEdit as err:
            raise StateError(str(err)) from None
        resolved = state.resolve()
        actions: list[str] = []
        for i, text in enumerate(state.actions):
            try:
                actions.append(str(parse_action(text)))
            except ActionError as err:
                raise StateError(f"action {i + 1}: {err.message}") from None
        state = replace(state, actions=tuple(actions))
        if state.phase is not None:
            _phase(resolved, state.phase)
        state = state.with_routes(state.corporation, state.trains)
        state.board()
        _check_history(state)
        return state

    @classmethod
    def loads(cls, text: str | bytes) -> BoardState:
        """Read a state from JSON text."""
        try:
            data = read_json(text)
        except TilelayError as err:  # not JSON, or numbers or nesting past the limits
            raise StateError(f"a board state must be JSON: {err.message}") from None
        return cls.from_json(data)


# ------------------------------------------------------------------------------ helpers


def _apply(state: BoardState, edit: Edit) -> BoardState:
    if edit.index == PHASE:
        return replace(state, phase=edit.new)
    actions = list(state.actions)
    if edit.old is None:
        if edit.new is None or edit.index > len(actions):
            raise StateError(f"edit {edit} does not fit the actions")
        actions.insert(edit.index, edit.new)
    else:
        if edit.index >= len(actions) or actions[edit.index] != edit.old:
            raise StateError(f"edit {edit} does not fit the actions")
        if edit.new is None:
            del actions[edit.index]
        else:
            actions[edit.index] = edit.new
    return replace(state, actions=tuple(actions))


def _check_history(state: BoardState) -> None:
    """Refuse (:class:`StateError`) a history that does not fit the actions: every edit
    done must undo, the last first, and every edit undone redo, so that the undo and redo
    buttons of a state read back work."""
    back = state
    for edit in reversed(state.done):
        try:
            back = _apply(back, edit.inverse())
        except StateError:
            raise StateError(f"'done': edit {edit} does not undo on the actions") from None
    ahead = state
    for edit in reversed(state.undone):
        try:
            ahead = _apply(ahead, edit)
        except StateError:
            raise StateError(f"'undone': edit {edit} does not redo on the actions") from None


def _turns(rotation: int, step: int) -> list[int]:
    direction = 1 if step >= 0 else -1
    return [(rotation + direction * k) % 6 for k in range(1, 6)]


def _phase(game: Game, name: str) -> Phase:
    for phase in game.phases:
        if phase.name == name:
            return phase
    raise NotFoundError(
        f"game {game.name} has no phase {shown(name)}", suggestions=[p.name for p in game.phases]
    )


def _strings(data: Mapping[str, Any], key: str, most: int) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and len(v) <= 200 for v in value):
        raise StateError(f"{key!r} must be a list of strings")
    if len(value) > most:
        raise StateError(f"{key!r} has {len(value)} entries: at most {most}")
    return tuple(value)


def _optional_int(data: Mapping[str, Any], key: str, most: int) -> int | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
        raise StateError(f"{key!r} must be null or a whole number from 0 to {most}")
    return value


def player_range(game: Game) -> tuple[int, int]:
    """The least and most players ``game`` is played by (1 to :data:`MAX_PLAYERS` where
    the game does not say)."""
    return game.players or (1, MAX_PLAYERS)


def setup_problem(game: Game, seed: int | None, players: int | None) -> str | None:
    """Why ``game`` cannot start with ``seed`` and ``players`` (see :class:`BoardState`);
    None when it can."""
    if players is not None:
        low, high = player_range(game)
        if not low <= players <= high:
            return f"game {game.name} is played by {low} to {high} players, not {players}"
    if seed is None:
        return None
    if not rules_for(game).seeded:
        return f"game {game.name} draws nothing from a seed: it takes none"
    if not 0 <= seed <= MAX_SEED:
        return f"a seed is a whole number from 0 to {MAX_SEED}, not {seed}"
    if players is None:
        return f"game {game.name} draws its setup for a number of players: give one"
    return None


def _check_setup(game: Game, seed: int | None, players: int | None) -> None:
    """Refuse (:class:`IllegalEdit`) what :func:`setup_problem` finds."""
    why = setup_problem(game, seed, players)
    if why is not None:
        raise IllegalEdit(why)


def _optional_str(data: Mapping[str, Any], key: str) -> str | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > 80:
        raise StateError(f"{key!r} must be a string or null")
    return value or None


def board_actions(board: Board) -> list[Action]:
    """Actions that rebuild ``board`` on an empty map: every tile laid (as it lies now),
    then every token in the order placed in its city (those past the city's slots in extra
    slots; neutral tokens as :data:`~tilelay.board.NEUTRAL`'s).

    >>> from tilelay.games import load_game
    >>> board = Board(load_game("1889")).with_home_tokens(["KO"])
    >>> [str(a) for a in board_actions(board.lay("K8", board.game.tile("57"), 1))]
    ['K8=57-1', 'K4=KO@0']
    """
    out: list[Action] = []
    for coord, tile in board.laid.items():
        out.append(TileLay(coord, tile.name, tile.rotation % 6))
    for (coord, city), corps in board.tokens.items():
        slots = board.slots(coord, city)
        for i, corp in enumerate(corps):
            out.append(TokenPlacement(coord, corp, city, extra=i >= slots))
    return out
