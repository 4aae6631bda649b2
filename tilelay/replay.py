"""Recorded 18xx.games games: reading a record and stepping through it on a
:class:`~tilelay.board.Board`. The one place that knows the record format.

A record is the JSON of a game on 18xx.games: ``title`` names the game and ``actions`` lists
every move. The moves that shape the map are applied: ``lay_tile`` (``hex``, ``tile`` as
``"57-1"`` = tile 57, copy #1, ``rotation``) becomes a :class:`~tilelay.actions.TileLay` and
``place_token`` (``city`` as ``"57-1-0"`` = city #0 of that tile; a preprinted hex's tile is
named by its coordinate, ``"F20-0-0"``; the number after the copy is the city's place
among the tile's parts, as the engine counts them) a :class:`~tilelay.actions.TokenPlacement`.
Home tokens are not actions: the game places them when a corporation first acts, and so does
:func:`replay` (when the home city is unambiguous). Trains (``buy_train``,
``discard_train``, rusting) and phases are followed for the router; ``run_routes`` actions
carry the routes the players ran (:func:`recorded_routes`).

Private companies are followed too: who owns each (``buy_company``), what is assigned where
(``assign``), and what their abilities do — a token or tile a company places belongs to the
corporation owning it (a ``tokener`` in the record says whose). The record's optional rules
(``settings.optional_rules``) are kept. What one game does beyond the engine's base rules
(minors' first trains, mergers, events such as 18TN's Civil War) is its
:class:`~tilelay.rules.GameRules`' ``setup``, ``before_action``, ``after_action`` and
``event``; each :class:`ReplayStep` carries the :class:`~tilelay.rules.RunFacts` the game's
route rules ask about.

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

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tilelay.actions import TileLay, TokenPlacement
from tilelay.board import NEUTRAL, Board, BoardError
from tilelay.errors import GameDataError, TilelayError
from tilelay.files import read_bytes
from tilelay.games import UNLIMITED, Game, load_game
from tilelay.limits import MAX_AMOUNT, MAX_TRAINS, read_json, shown
from tilelay.rules import RunFacts, Start, rules_for
from tilelay.tile import NodeKind, Tile
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
    "record_game",
    "record_options",
    "recorded_routes",
    "replay",
    "replay_steps",
    "split_tile_id",
]

#: The most actions a record may hold (the longest public games have a few thousand).
MAX_ACTIONS = 200_000
#: What one step of a replay copies stays bounded, so a replay takes time linear in the
#: record's length: what replay took on trust (notes), the ids assigned to one hex or
#: corporation, and how many companies have owners and how many hexes and corporations have
#: something assigned (games make companies as they go: 18India's certificates).
_MAX_NOTES = 100
_MAX_ASSIGNED = 64
_MAX_OWNED = 1_000
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
    _check_actions(actions, source)
    return parsed


def _check_actions(actions: object, source: str) -> list[Mapping[str, Any]]:
    """A record's actions: a list of JSON objects, each with a ``type`` that is text and an
    ``id`` no other action has, an undo to an action id only to an earlier action's;
    :class:`RecordError` naming the first that is not."""
    if not isinstance(actions, list):
        raise RecordError(f"its 'actions' must be a list, not {shown(actions)}", source=source)
    #: the actions' ids so far, and where each is
    ids: dict[object, int] = {}
    for i, action in enumerate(actions):
        if not isinstance(action, Mapping):
            raise RecordError(f"action #{i + 1} is not a JSON object", source=source)
        named = f"action {shown(action['id'])}" if "id" in action else f"action #{i + 1}"
        kind = action.get("type")
        if not isinstance(kind, str):
            raise RecordError(
                f"{named}: its 'type' must be text (e.g. lay_tile), not {shown(kind)}",
                source=source,
            )
        if kind == "undo" and action.get("action_id") not in (None, 0):
            target = action["action_id"]
            if _id_key(target) not in ids:
                raise RecordError(
                    f"{named}: undoes to action_id {shown(target)}, which no earlier action has "
                    "(0 undoes every action)",
                    source=source,
                )
        if "id" in action:
            key = _id_key(action["id"])
            if key in ids:
                raise RecordError(
                    f"{named} (action #{i + 1}): action #{ids[key] + 1} has the same id; "
                    "each action's id must be its own",
                    source=source,
                )
            ids[key] = i
    return actions


def load_record(path: str | Path) -> dict[str, Any]:
    """Read a recorded game from a JSON file; :class:`RecordError` when it is not one."""
    p = Path(path)
    data = read_bytes(p, limit=MAX_RECORD_BYTES, what="record", error=RecordError)
    return read_record(data, source=str(p))


def actions_in_force(actions: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The actions still in force after applying ``undo`` / ``redo``, in order, the names of
    the corporations and companies they name as tilelay reads them (:func:`_plain_names`).

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
    return [_plain_names(action) for _, action in in_force]


#: The fields of an action that name a corporation or a company.
_NAME_FIELDS = ("entity", "corporation", "company", "minor", "target", "tokener")


def _plain_names(action: Mapping[str, Any]) -> Mapping[str, Any]:
    """``action`` with the corporations and companies it names (:data:`_NAME_FIELDS`)
    without spaces around them, as tilelay reads the engine's names (18Dixie's minors are
    ``' 1'`` … ``' 13'`` in the engine, the space sorting them first); ``action`` itself
    where no name has them."""
    if not any(isinstance(v := action.get(key), str) and v != v.strip() for key in _NAME_FIELDS):
        return action
    return {
        key: value.strip() if key in _NAME_FIELDS and isinstance(value, str) else value
        for key, value in action.items()
    }


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
    passes in order (joined from ``connections``, else the record's ``hexes``), and the
    revenue when the record gives it. ``precise`` says the hexes are the track's exact
    sequence (joined from ``connections``); old records have only the hexes the player
    clicked, which may repeat or skip hexes the route passes. ``stop_hexes`` are the hexes
    of the stops when the record says them (newer records' ``hexes`` beside
    ``connections``); ``chains`` the record's ``connections``: the hexes from stop to stop,
    each chain in either direction."""

    train: str
    hexes: tuple[str, ...]
    revenue: int | None = None
    precise: bool = False
    stop_hexes: tuple[str, ...] = ()
    chains: tuple[tuple[str, ...], ...] = ()


def _coord(text: object) -> str:
    # a connection names a hex, or "HEX a.b" for a path between two nodes of one hex
    return str(text).split(" ", 1)[0]


def _hexes_of(connection: list[Any]) -> list[str]:
    # a local train's route of one city is the connection ["local", HEX]
    return [_coord(h) for h in connection if h != "local"]


def _dedupe(hexes: list[str]) -> list[str]:
    out: list[str] = []
    for h in hexes:
        if not out or out[-1] != h:
            out.append(h)
    return out


def _hex_chain(route: Mapping[str, Any]) -> tuple[list[str], bool]:
    given = route.get("connections")
    conns = [_hexes_of(c) for c in given if isinstance(c, list)] if isinstance(given, list) else []
    conns = [c for c in conns if c]
    if not conns:
        hexes = route.get("hexes") or []
        return ([str(h) for h in hexes] if isinstance(hexes, list) else []), False
    seq = list(conns[0])
    if len(conns) > 1:
        joins = (conns[1][0], conns[1][-1])
        if seq[0] in joins and seq[-1] not in joins:
            seq.reverse()
    for c in conns[1:]:
        if c[0] == seq[-1]:
            seq += c[1:]
        elif c[-1] == seq[-1]:
            seq += c[::-1][1:]
        elif c[0] == seq[0] and len(seq) == len(conns[0]):
            seq = seq[::-1] + c[1:]
        else:
            seq += c  # connections that do not join: kept in order
    out: list[str] = []
    for h in seq:
        if not out or out[-1] != h:
            out.append(h)
    return out, True


def recorded_routes(action: Mapping[str, Any]) -> tuple[RecordedRoute, ...]:
    """The routes of a ``run_routes`` action (none for other actions); :class:`RecordError`
    naming the action where its ``routes`` are not a list of JSON objects."""
    routes = action.get("routes") if action.get("type") == "run_routes" else None
    if routes is None:
        return ()
    if not isinstance(routes, list) or not all(isinstance(r, Mapping) for r in routes):
        raise RecordError(
            f"action {shown(action.get('id'))}: its 'routes' must be a list of routes "
            f"(JSON objects), not {shown(routes)}"
        )
    if len(routes) > MAX_TRAINS:
        raise RecordError(
            f"action {shown(action.get('id'))}: runs {len(routes)} routes: at most {MAX_TRAINS} "
            "(a route a train)"
        )
    out: list[RecordedRoute] = []
    for i, r in enumerate(routes, 1):
        revenue = r.get("revenue")
        if revenue is not None and (
            isinstance(revenue, bool)
            or not isinstance(revenue, int)
            or not -MAX_AMOUNT <= revenue <= MAX_AMOUNT
        ):
            raise RecordError(
                f"action {shown(action.get('id'))}: route {i}'s revenue must be a whole number "
                f"from {-MAX_AMOUNT:,} to {MAX_AMOUNT:,}, not {shown(revenue)}"
            )
        hexes, precise = _hex_chain(r)
        stops = r.get("hexes") if precise else None
        given = r.get("connections")
        chains = tuple(
            tuple(_dedupe(_hexes_of(c)))
            for c in (given if isinstance(given, list) else ())
            if isinstance(c, list) and c
        )
        out.append(
            RecordedRoute(
                str(r.get("train", "")),
                tuple(hexes),
                revenue,
                precise,
                tuple(str(h) for h in stops) if isinstance(stops, list) else (),
                chains,
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


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """The game after one action in force: the ``board``, the current ``phase``, and each
    corporation's trains as ``{corporation: {train id: train type name}}`` (ids as the record
    names them, ``"3-0"``; the type is the card side bought, e.g. a variant). ``facts`` are
    what a game's route rules may ask besides (company owners, assignments, the record's
    optional rules); ``notes`` what replay had to take on trust so far (e.g. a train a
    corporation ran that replay did not see it get); ``operated`` the train ids that have run
    in this operating round (a corporation's payout ends its run; the round is over when a
    corporation runs again).

    Trains made obsolete (``obsolete_on``) run once more and go with their holder's next
    payout.

    Phases change as 18xx.games changes them: buying a train whose name (or id) the next
    phase's ``on`` names starts it. Trains rust when a train their ``rusts_on`` names is
    bought, leave with ``discard_train``, ``sell_train``, ``scrap_train`` and with
    ``exchange`` (traded in), and move between corporations when one buys a train from
    another (the same id).
    """

    action: Mapping[str, Any]
    board: Board
    phase: Phase
    trains: Mapping[str, Mapping[str, str]]
    facts: RunFacts = field(default_factory=RunFacts)
    notes: tuple[str, ...] = ()
    operated: frozenset[str] = frozenset()

    @property
    def action_id(self) -> int | None:
        """The id of the action (None when the record gives none)."""
        value = self.action.get("id")
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def train_names(self, corporation: str) -> list[str]:
        """The train type names ``corporation`` holds, in id order."""
        held = self.trains.get(corporation, {})
        return [held[k] for k in sorted(held, key=_train_order)]

    def runnable_names(self, corporation: str) -> list[str]:
        """The train type names ``corporation`` may run now: those it holds, less those that
        ran for another corporation in this operating round (18xx.games' ``operated``)."""
        held = self.trains.get(corporation, {})
        return [held[k] for k in sorted(held, key=_train_order) if k not in self.operated]


def _train_order(train_id: str) -> tuple[str, int, str]:
    name = train_id.rpartition("-")[0]
    number = _train_index(train_id)
    return (name, number, train_id) if number is not None else (train_id, -1, train_id)


def _train_index(train_id: str) -> int | None:
    """The copy number of a train id ``NAME-INDEX`` (``"3-0"``: 0); None without one."""
    index = train_id.rpartition("-")[2]
    return int(index) if index.isascii() and index.isdigit() and len(index) <= 6 else None


def _action_id(action: Mapping[str, Any]) -> int:
    """The action's id when it is a whole number (not ``true`` or ``false``), else 0."""
    value = action.get("id")
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _int_field(action: Mapping[str, Any], key: str, default: int | None = None) -> int:
    value = action.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{key} must be a whole number, not {shown(value)}")
    return value


class _Depot:
    """The trains' rules as 18xx.games applies them: each train name's type (``sym``, the
    first name of its card), what rusts it (``rusts_on``: train types) and what makes it
    obsolete (``obsolete_on``), and the phases with the trains that start them (``on``: types
    or train ids)."""

    def __init__(self, game: Game) -> None:
        manager = game.trains
        self.sym: dict[str, str] = {}
        self.rusts_on: dict[str, frozenset[str]] = {}
        self.obsolete_on: dict[str, frozenset[str]] = {}
        self.events: dict[str, list[tuple[str, int]]] = {}  # type -> (event, train index)
        self.on: list[frozenset[str]] = []
        #: the depot's train types in the order it sells them, with how many (None: unlimited)
        self.order: list[tuple[str, int | None]] = []
        #: the phase a type is sold from, where it is sold beside an unlimited type
        self.available_on: dict[str, str] = {}
        if game.train_data:
            for entry in game.train_data:
                base = str(entry.get("name"))
                num = entry.get("num")
                available = entry.get("available_on")
                if available is not None:
                    self.available_on[base] = str(available)
                self.order.append(
                    (base, num if isinstance(num, int) and not isinstance(num, bool) else None)
                )
                for event in entry.get("events") or []:
                    if isinstance(event, Mapping) and event.get("type"):
                        when = event.get("when", 1)
                        index = when - 1 if isinstance(when, int) else 0
                        self.events.setdefault(base, []).append((str(event["type"]), index))
                base_rust = _names(entry.get("rusts_on"))
                base_obsolete = _names(entry.get("obsolete_on"))
                self.sym[base] = base
                self.rusts_on[base] = base_rust
                self.obsolete_on[base] = base_obsolete
                for variant in entry.get("variants") or []:
                    if isinstance(variant, Mapping):
                        vname = str(variant.get("name"))
                        self.sym[vname] = base
                        own = variant.get("rusts_on")
                        self.rusts_on[vname] = base_rust if own is None else _names(own)
                        old = variant.get("obsolete_on")
                        self.obsolete_on[vname] = base_obsolete if old is None else _names(old)
            for entry in game.phase_data:
                self.on.append(_names(entry.get("on")))
        else:
            for card in manager.card_types:
                first = card.sides[0].name
                rusted_by = manager.rusted_by(card.name)
                for side in card.sides:
                    self.sym[side.name] = first
                    self.rusts_on[side.name] = frozenset(
                        () if rusted_by is None else (manager.card_type(rusted_by).sides[0].name,)
                    )
            for stage in manager.phases:
                trigger = manager.trigger_of(stage.name)
                if trigger is None:
                    self.on.append(frozenset())
                else:
                    card = manager.card_type(trigger[0])
                    first = card.sides[0].name
                    self.on.append(
                        frozenset({first if trigger[1] == 1 else f"{first}-{trigger[1] - 1}"})
                    )
        self.phases = manager.phases


def _city_index(tile: Tile, part: int) -> int:
    """The city index (among the tile's cities) of the engine's part index ``part``: a city
    that keeps its place among the tile string's parts (``("part", "N")`` in its extra),
    else the city at that index."""
    cities = [n for n in tile.nodes if n.kind is NodeKind.CITY]
    for i, node in enumerate(cities):
        if ("part", str(part)) in node.extra:
            return i
    return part


def _names(value: object) -> frozenset[str]:
    if value is None or value == "":
        return frozenset()
    if isinstance(value, list | tuple):
        return frozenset(str(v) for v in value if v not in (None, ""))
    return frozenset({str(value)})


class _Replayer:
    """Replay state: the board, the bookkeeping of :class:`ReplayResult`, phase, trains,
    companies and assignments; the game's rules (:class:`~tilelay.rules.GameRules`) are asked
    before and after each action."""

    def __init__(self, record: Mapping[str, Any], game: Game | None, home_tokens: bool) -> None:
        if game is None:
            game = record_game(record)
        players = record.get("players")
        if isinstance(players, list) and players:
            # the numbers of trains a game gives by the players (1846's 2-trains)
            game = game.for_players(len(players))
        rules = rules_for(game)
        # a game whose setup the record decides (18USA's seeded draws) plays a variant
        variant = rules.game_for(game, Start.of_record(record))
        if variant is not game:
            game = variant
            rules = rules_for(game)
        self.game = game
        self.rules = rules
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
        self.company_syms = {c.sym for c in game.companies}
        self.depot = _Depot(game)
        phases = game.trains.phases
        self.phase_index = 0
        self.phase: Phase = phases[0] if phases else Phase("1")
        self.trains: dict[str, dict[str, str]] = {}
        self.issued: dict[str, int] = {}  # train type -> next index
        self.obsolete: set[str] = set()  # train ids made obsolete: they run once more
        self.operated: dict[str, str] = {}  # train id -> who ran it in this operating round
        self.ran_this_round: set[str] = set()  # corporations that ran in it
        self.operator: str | None = None
        self.companies: dict[str, str] = {}
        self.assignments: dict[str, tuple[str, ...]] = {}
        settings = record.get("settings")
        if settings is not None and not isinstance(settings, Mapping):
            raise RecordError(
                f"its 'settings' must be a JSON object, not {shown(settings)}", source=self.source
            )
        optional = settings.get("optional_rules") if isinstance(settings, Mapping) else None
        if optional is not None and not (
            isinstance(optional, list) and all(isinstance(o, str) for o in optional)
        ):
            raise RecordError(
                f"its 'settings.optional_rules' must be a list of texts, not {shown(optional)}",
                source=self.source,
            )
        self.optional_rules = frozenset(optional or ())
        self.extra: dict[str, Any] = {}
        #: coord -> the corporations whose tokens a lay lifted there, to be placed again
        self.lifted: dict[str, list[str]] = {}
        self.notes: list[str] = []
        #: the actions in force, and the place of the one being applied
        self.actions: Sequence[Mapping[str, Any]] = ()
        self.position = 0
        self.rules.setup(self)

    # ------------------------------------------------------------------ helpers

    def fail(self, action: Mapping[str, Any], message: str) -> RecordError:
        return RecordError(f"action {shown(action.get('id'))}: {message}", source=self.source)

    def text(self, action: Mapping[str, Any], key: str) -> str:
        """The action's field ``key``, which must be text (a :class:`RecordError` naming the
        action and the field otherwise)."""
        value = action.get(key)
        if not isinstance(value, str):
            kind = str(action.get("type", "the action"))
            said = "has no" if value is None else f"has {shown(value)} for its"
            raise self.fail(action, f"{kind} {said} {key!r} (text expected)")
        return value

    def note(self, action: Mapping[str, Any], message: str) -> None:
        if len(self.notes) < _MAX_NOTES:
            self.notes.append(f"action {shown(action.get('id'))}: {message}")
        elif len(self.notes) == _MAX_NOTES:
            self.notes.append("and more taken on trust after these")

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

    def facts(self) -> RunFacts:
        return RunFacts(
            dict(self.companies),
            dict(self.assignments),
            self.optional_rules,
            dict(self.extra),
            {k: tuple(v.values()) for k, v in self.trains.items()},
        )

    def step(self, action: Mapping[str, Any]) -> ReplayStep:
        return ReplayStep(
            action,
            self.board,
            self.phase,
            {k: dict(v) for k, v in self.trains.items()},
            self.facts(),
            tuple(self.notes),
            frozenset(self.operated),
        )

    def owner_of(self, entity: str, entity_type: object = None) -> str:
        """The corporation acting for ``entity``: a company's owner (``entity_type``
        ``company``, or a company's symbol when the record does not say), else the entity."""
        if entity_type == "company" or (
            entity_type is None and entity in self.company_syms and entity not in self.corp_syms
        ):
            return self.companies.get(entity, entity)
        return entity

    def actor(self, action: Mapping[str, Any]) -> str:
        """The corporation (or player) an action is done for."""
        return self.owner_of(str(action.get("entity")), action.get("entity_type"))

    # ------------------------------------------------------------------ trains

    def train_sym(self, train_id: str) -> str:
        name = train_id.rpartition("-")[0] or train_id
        return self.depot.sym.get(name, name)

    def give_train(self, owner: str, name: str) -> str:
        """Give ``owner`` the next train of type ``name`` (as 18xx.games numbers them)."""
        sym = self.depot.sym.get(name, name)
        index = self.issued.get(sym, 0)
        train_id = f"{sym}-{index}"
        self.issued[sym] = index + 1
        self.trains.setdefault(owner, {})[train_id] = name
        return train_id

    def hold(self, action: Mapping[str, Any], owner: str, train_id: str, name: str) -> None:
        """``owner`` gets train ``train_id``: a corporation of the game, holding at most
        :data:`~tilelay.limits.MAX_TRAINS` trains (what a step copies stays small, so replay
        stays linear in the record's length)."""
        if owner not in self.corp_syms:
            raise self.fail(action, f"{shown(owner)} is not a corporation of {self.game.name}")
        held = self.trains.setdefault(owner, {})
        if train_id not in held and len(held) >= MAX_TRAINS:
            raise self.fail(
                action, f"{owner} would hold {len(held) + 1} trains: at most {MAX_TRAINS}"
            )
        held[train_id] = name

    def take_train(self, train_id: str) -> str | None:
        """Remove a train from whoever holds it; its name (None: nobody held it)."""
        for held in self.trains.values():
            if train_id in held:
                return held.pop(train_id)
        return None

    def bought(self, train_id: str, sym: str) -> None:
        """What buying a train of type ``sym`` does: phases start, older trains rust."""
        depot = self.depot
        while self.phase_index + 1 < len(depot.on) and (
            train_id in depot.on[self.phase_index + 1] or sym in depot.on[self.phase_index + 1]
        ):
            self.phase_index += 1
        if depot.phases and self.phase_index < len(depot.phases):
            self.phase = depot.phases[self.phase_index]
        for held in self.trains.values():
            for tid in [t for t, n in held.items() if sym in depot.rusts_on.get(n, ())]:
                del held[tid]
            for tid, n in held.items():
                if sym in depot.obsolete_on.get(n, ()):
                    self.obsolete.add(tid)

    def operate(self, action: Mapping[str, Any]) -> None:
        """A corporation runs or pays out: a new operating round when it already did in this
        one; after its payout its trains have run (a train sold on runs no more this round)
        and its obsolete trains are gone."""
        corp = self.actor(action)
        if corp != self.operator:
            if corp in self.ran_this_round:
                self.ran_this_round.clear()
                self.operated.clear()
            self.operator = corp
        if action.get("type") == "run_routes":
            # what it ran itself ran in an earlier round
            for tid in [t for t, who in self.operated.items() if who == corp]:
                del self.operated[tid]
        self.ran_this_round.add(corp)
        if action.get("type") == "dividend":
            self.paid_out(corp)

    def paid_out(self, corp: str) -> None:
        """After a corporation's run: its trains have run; its obsolete trains go."""
        held = self.trains.get(corp, {})
        self.operated.update(dict.fromkeys(held, corp))
        for tid in [t for t in held if t in self.obsolete]:
            del held[tid]
            self.obsolete.discard(tid)

    def after_run(self, action: Mapping[str, Any]) -> None:
        """What follows a run, once its position has been seen: the trains have run (the
        payout, which the record leaves out where there is no choice, e.g. for minors) and
        the game's rules."""
        self.paid_out(self.actor(action))
        self.rules.after_action(self, action)

    def buy_train(self, action: Mapping[str, Any]) -> None:
        manager = self.game.trains
        train_id = str(action.get("train"))
        buyer = self.actor(action)
        sym = self.train_sym(train_id)
        name = str(action.get("variant") or sym)
        try:
            manager.train_type(name)
        except TilelayError as err:
            raise self.fail(action, str(err)) from None
        previous = self.take_train(train_id)
        if previous is not None and not action.get("variant"):
            name = previous
        exchange = action.get("exchange")
        if exchange:
            self.take_train(str(exchange))
        index = _train_index(train_id)
        if index is not None:
            self.issued[sym] = max(self.issued.get(sym, 0), index + 1)
        self.hold(action, buyer, train_id, name)
        self.bought(train_id, sym)
        if previous is None and index is not None:
            for event, when in self.depot.events.get(sym, ()):
                if when == index:
                    self.event(event, action)

    def export_train(self, action: Mapping[str, Any]) -> str | None:
        """The depot's next train leaves the game (18xx.games' ``depot.export!``): phases
        start, older trains rust and its events happen as if it were bought. Its id (None:
        the depot is empty)."""
        return self.depot_sale(action, None)

    def in_depot(self) -> Iterator[tuple[str, int]]:
        """The trains still in the depot, as ``(type, index)`` in the order it sells them
        (of an unlimited type its next train only). A type sold out before a later type was
        sold is taken as gone (18xx.games sells in order; a game may have removed some)."""
        order = self.depot.order
        latest = -1
        for i, (sym, num) in enumerate(order):
            if self.issued.get(sym, 0):
                latest = i
            if num is None:
                break
        for i, (sym, num) in enumerate(order):
            first = self.issued.get(sym, 0)
            if i < latest:
                continue
            if num is None:
                yield sym, first
                continue
            for index in range(first, num):
                yield sym, index

    def next_in_depot(self) -> str | None:
        """The id of the depot's next train (None: the depot is empty)."""
        for sym, index in self.in_depot():
            return f"{sym}-{index}"
        return None

    def depot_sale(self, action: Mapping[str, Any], owner: str | None) -> str | None:
        """The depot's next train goes to ``owner`` (None: it leaves the game), with what
        buying it does (phases, rusting, its events); its id (None: the depot is empty).
        For the trains a game buys itself, without an action in the record."""
        for sym, index in self.in_depot():
            train_id = f"{sym}-{index}"
            self.issued[sym] = index + 1
            if owner is not None:
                self.hold(action, owner, train_id, sym)
            self.bought(train_id, sym)
            for event, when in self.depot.events.get(sym, ()):
                if when == index:
                    self.event(event, action)
            return train_id
        return None

    def depot_ahead(self, train_id: str) -> int | None:
        """How many of the depot's trains must go before ``train_id`` can be bought from it:
        those ahead of it in the depot's order, up to the first unlimited type; for a train
        sold beside an unlimited type, those whose purchase starts the phase it is available
        on (``available_on``). None when the train has left the depot already."""
        sym = self.train_sym(train_id)
        index = _train_index(train_id) or 0
        if index < self.issued.get(sym, 0):
            return None
        depot = self.depot
        limited = {s for s, num in depot.order if num is not None}
        for ahead, (s, i) in enumerate(self.in_depot()):
            if s == sym:
                return ahead + max(index - i, 0)
            if s not in limited:
                break
        phase = depot.available_on.get(sym)
        names = [p.name for p in depot.phases]
        if phase not in names or names.index(phase) <= self.phase_index:
            return 0
        trigger = depot.on[names.index(phase)]
        for ahead, (s, i) in enumerate(self.in_depot(), 1):
            if s in trigger or f"{s}-{i}" in trigger:
                return ahead
        return 0

    def upcoming(self) -> Sequence[Mapping[str, Any]]:
        """The actions in force after the one being applied (what a game's rules may look
        ahead to, to learn what the game did without an action: trains it bought itself)."""
        return self.actions[self.position + 1 :]

    def event(self, kind: str, action: Mapping[str, Any]) -> None:
        """A train's event: the game's rules, then the engine's own ``close_companies``
        (private companies close: no owner any more, unless one of their ``close``
        abilities says never)."""
        self.rules.event(self, kind, action)
        if kind == "close_companies":
            for company in self.game.companies:
                keep = any(a.get("on_phase") == "never" for a in company.abilities_of("close"))
                if not keep:
                    self.companies.pop(company.sym, None)

    # ------------------------------------------------------------------ the map

    def home(self, action: Mapping[str, Any], entity: str) -> None:
        self.started.add(entity)
        if not self.rules.home_tokens(self, entity):
            return
        city = self.game.home_city(entity)
        if self.game.corporation(entity).home is None or city is None:
            self.skipped.append(entity)
        # (a token in each of several home stations: Game.home_cities)
        for home, city in self.game.home_cities(entity):
            if entity in self.board.tokens.get((home, city), ()):
                continue
            token = TokenPlacement(home, entity, city)
            try:
                # 18xx.games reserves a home city's slot for its corporation from the start:
                # a token another placed there beyond the slots (a cheater, 1822's
                # destination tokens) leaves it free, so a full home city still takes its
                # home token
                self.board = self.board.place_token(home, city, entity, extra_slot=True)
            except BoardError as err:
                raise self.fail(action, f"home token of {entity}: {err.message}") from None
            self.placements.append(ReplayedToken(None, token, home=True))

    def lay_tile(self, action: Mapping[str, Any]) -> None:
        tile_id = self.text(action, "tile")
        coord = self.text(action, "hex")
        try:
            name, copy = split_tile_id(tile_id)
            rotation = _int_field(action, "rotation", 0)
            lay = TileLay(coord, name, rotation)
            old = self.board.tile_at(lay.coord)
            new_board = self.board.apply(lay)
        except (TilelayError, ValueError) as err:
            raise self.fail(action, str(err)) from None
        coord = lay.coord
        new = new_board.tile_at(coord)
        blocked = frozenset(e for e in new.exits() if not self.board.exit_allowed(coord, e))
        self.board = self.lift_tokens(coord, old, new, new_board)
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
        self.count_copy(coord, tile_id, action)

    def count_copy(self, coord: str, tile_id: str, action: Mapping[str, Any] | None) -> None:
        """Tile copy ``tile_id`` (``NAME-COPY``) now lies at ``coord`` (laid by ``action``, or
        by the game itself): where each copy lies, and how many of each tile are and were on
        the board at once. A copy already elsewhere on the board is refused."""
        name = split_tile_id(tile_id)[0]
        previous = self.at.pop(coord, None)
        if previous is not None:
            self.where.pop(previous, None)
            self.on_board[split_tile_id(previous)[0]] -= 1
        if tile_id in self.where:
            message = f"tile {tile_id} is already on the board at {self.where[tile_id]}"
            raise (
                self.fail(action, message)
                if action is not None
                else RecordError(message, source=self.source)
            )
        if tile_id in self.ever_laid:
            self.relaid.append(tile_id)
        self.ever_laid.add(tile_id)
        self.where[tile_id] = coord
        self.at[coord] = tile_id
        self.on_board[name] = self.on_board.get(name, 0) + 1
        self.max_on_board[name] = max(self.max_on_board.get(name, 0), self.on_board[name])

    def game_lays(self, coord: str, tile_id: str, rotation: int) -> None:
        """The game lays tile ``tile_id`` (``NAME-COPY``) at ``coord`` itself, without an
        action (18USA's metropolises at setup): on the board, where a record's city references
        find it, but not among the record's lays."""
        name, _ = split_tile_id(tile_id)
        self.board = self.board.apply(TileLay(coord, name, rotation))
        self.count_copy(coord, tile_id, None)

    def lift_tokens(self, coord: str, old: Tile, new: Tile, board: Board) -> Board:
        """The board after a lay: when track first comes to a tile of several cities (the old
        tile had no paths), which city each token goes to is the owner's choice (18xx.games'
        ``Tracker#update_token!``): the tokens leave the board, and the record's next
        ``place_token`` in the hex puts each back (see :meth:`place_token`)."""
        if old.paths or not new.paths or len(new.cities) < 2:
            return board
        lifted = [
            (city, corp)
            for (c, city), corps in board.tokens.items()
            if c == coord
            for corp in corps
            if corp != NEUTRAL
        ]
        for city, corp in lifted:
            board = board.remove_token(coord, city, corp)
        if lifted:
            self.lifted[coord] = [corp for _, corp in lifted]
        return board

    def city_of(self, action: Mapping[str, Any], city_ref: str) -> tuple[str, int]:
        """The ``(coord, city index)`` of a record's city reference ``TILE-COPY-CITY``."""
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
        return coord, _city_index(self.board.tile_at(coord), int(index))

    def place_token(self, action: Mapping[str, Any], entity: str) -> None:
        coord, index = self.city_of(action, self.text(action, "city"))
        tokener = action.get("tokener")
        owner = str(tokener) if isinstance(tokener, str) and tokener else self.actor(action)
        if action.get("token_type") == "neutral":
            owner = NEUTRAL
        lifted = self.lifted.get(coord)
        if lifted:
            # a token lifted by a lay goes back (whoever the record says places it)
            owner = owner if owner in lifted else lifted[0]
            lifted.remove(owner)
            if not lifted:
                del self.lifted[coord]
        # a company's token ability may put a token beyond the city's slots (cheater,
        # extra_slot), and a corporation's reserved slot is its own whatever took the others
        # (the engine counts reservations as taken, tilelay's board does not): the engine
        # checked it, so a full city takes it
        extra = (
            entity != owner
            or owner == NEUTRAL
            or self.reserved(owner, coord)
            or self.rules.extra_slot(self, action)
        )
        here = self.board.tokens.get((coord, index), ())
        self.check_slot(action, coord, index, len(here), extra)
        if not extra and NEUTRAL in here and owner != NEUTRAL:
            node = self.board.tile_at(coord).cities
            if index < len(node) and len(here) >= node[index].slots:
                # a full city: the token takes a neutral token's place (1882's homes)
                self.board = self.board.remove_token(coord, index, NEUTRAL)
        if owner != NEUTRAL:
            for (c, i), corps in self.board.tokens.items():
                if c == coord and i != index and owner in corps:
                    # one token per hex: the engine accepted this one, so the other is gone
                    self.board = self.board.remove_token(coord, i, owner)
                    self.note(
                        action,
                        f"{owner}'s token in {coord} city {i} goes: it places one in city {index}",
                    )
        try:
            token = TokenPlacement(coord, owner, index)
            self.board = self.board.place_token(coord, token.city, owner, extra_slot=extra)
        except TilelayError as err:
            raise self.fail(action, err.message) from None
        self.placements.append(ReplayedToken(_action_id(action), token))

    def check_slot(
        self, action: Mapping[str, Any], coord: str, index: int, held: int, extra: bool
    ) -> None:
        """A ``place_token``'s ``slot`` (where given) is one of the city's slots, or the one
        beyond its tokens where the token takes an extra slot."""
        slot = action.get("slot")
        if slot is None:
            return
        if not isinstance(slot, int) or isinstance(slot, bool) or slot < 0:
            raise self.fail(action, f"its 'slot' must be a whole number from 0, not {shown(slot)}")
        cities = self.board.tile_at(coord).cities
        slots = cities[index].slots if index < len(cities) else 0
        if slot >= (max(slots, held + 1) if extra else slots):
            raise self.fail(
                action,
                f"slot {slot}: the city in {coord} has {slots} slot{'s' if slots != 1 else ''} "
                f"(0 to {slots - 1})",
            )

    def reserved(self, corporation: str, coord: str) -> bool:
        """Whether ``corporation`` holds a reservation in ``coord`` (a ``reservation`` ability,
        18xx.games' ``{type: 'reservation', hex, remove}``, until the phase it names)."""
        try:
            corp = self.game.corporation(corporation)
        except TilelayError:
            return False
        return any(
            a.get("type") == "reservation"
            and a.get("hex") == coord
            and not self.phase_reached(a.get("remove"))
            for a in corp.abilities
        )

    def phase_reached(self, name: object) -> bool:
        """Whether the phase named ``name`` has started (False for no name)."""
        if not isinstance(name, str | int) or isinstance(name, bool):
            return False
        names = [p.name for p in self.depot.phases[: self.phase_index + 1]]
        return str(name) in names

    def remove_token(self, action: Mapping[str, Any], entity: str) -> None:
        coord, index = self.city_of(action, self.text(action, "city"))
        here = self.board.tokens.get((coord, index), ())
        owner = self.actor(action)
        slot = action.get("slot")
        if isinstance(slot, int) and 0 <= slot < len(here):
            victim = here[slot]
        else:
            victim = owner if owner in here else (here[-1] if here else owner)
        try:
            self.board = self.board.remove_token(coord, index, victim)
        except TilelayError as err:
            raise self.fail(action, err.message) from None

    # ------------------------------------------------------------------ actions

    def apply(self, action: Mapping[str, Any]) -> None:
        action = self.rules.translate(self, action)
        entity = action.get("entity")
        kind = action.get("type")
        self.rules.before_action(self, action)
        if (
            self.home_tokens
            and isinstance(entity, str)
            and entity in self.corp_syms
            and entity not in self.started
            and action.get("entity_type", "corporation") in ("corporation", "minor")
        ):
            self.home(action, entity)
        if kind == "lay_tile":
            self.lay_tile(action)
        elif kind == "place_token":
            self.place_token(action, str(entity))
        elif kind == "remove_token":
            self.remove_token(action, str(entity))
        elif kind == "buy_train":
            self.buy_train(action)
        elif kind in ("discard_train", "sell_train", "scrap_train"):
            self.take_train(str(action.get("train")))
        elif kind in ("buy_company", "corporate_buy_company", "acquire_company"):
            company = action.get("company")
            if isinstance(company, str):
                if company not in self.companies and len(self.companies) >= _MAX_OWNED:
                    raise self.fail(action, f"more than {_MAX_OWNED} companies owned at once")
                buyer = self.actor(action)
                self.companies[company] = buyer
                self.sold(company, buyer)
        elif kind == "assign":
            target = action.get("target")
            if isinstance(target, str) and isinstance(entity, str):
                if target not in self.assignments and len(self.assignments) >= _MAX_OWNED:
                    raise self.fail(
                        action,
                        f"more than {_MAX_OWNED} hexes and corporations with something assigned",
                    )
                here = self.assignments.get(target, ())
                if entity not in here and len(here) < _MAX_ASSIGNED:
                    self.assignments[target] = (*here, entity)
        elif kind == "run_routes":
            self.operate(action)
            self.ran(action)
        elif kind == "dividend":
            self.operate(action)
        if kind != "run_routes":
            self.rules.after_action(self, action)

    def merge_into(self, sources: Sequence[str], target: str) -> None:
        """Corporations merge into ``target``: their tokens become its tokens (one where a
        city would hold two), their trains and companies its own."""
        board = self.board
        for source in sources:
            if source == target:
                continue
            for (coord, city), corps in board.tokens.items():
                if source not in corps:
                    continue
                board = board.remove_token(coord, city, source)
                if target not in corps:
                    board = board.place_token(coord, city, target, extra_slot=True)
            trains = self.trains.pop(source, {})
            self.trains.setdefault(target, {}).update(trains)
            for company, owner in list(self.companies.items()):
                if owner == source:
                    self.companies[company] = target
        self.board = board

    def sold(self, company: str, buyer: str) -> None:
        """A company bought by a corporation: its ``assign_corporation`` ability ``when:
        sold`` assigns it to the buyer (1856's port)."""
        if buyer not in self.corp_syms:
            return
        for comp in self.game.companies:
            if comp.sym != company:
                continue
            for ability in comp.abilities_of("assign_corporation"):
                if ability.get("when") == "sold":
                    self.assignments[buyer] = (*self.assignments.get(buyer, ()), company)

    def ran(self, action: Mapping[str, Any]) -> None:
        """A corporation runs trains: a train it ran that replay did not see it get is taken
        on trust (and noted)."""
        corp = self.actor(action)
        if corp not in self.corp_syms:
            raise self.fail(action, f"{shown(corp)} is not a corporation of {self.game.name}")
        held = self.trains.setdefault(corp, {})
        try:
            routes = recorded_routes(action)
        except RecordError as err:
            raise RecordError(err.message, source=self.source) from None
        for route in routes:
            train_id = route.train
            if train_id and train_id not in held:
                previous = self.take_train(train_id)
                name = previous or self.train_sym(train_id)
                try:
                    self.game.trains.train_type(name)
                except TilelayError:
                    continue
                self.hold(action, corp, train_id, name)
                self.note(action, f"{corp} runs {train_id}, which replay did not see it get")


def replay(
    record: Mapping[str, Any], game: Game | None = None, *, home_tokens: bool = True
) -> ReplayResult:
    """Apply a record's tile lays and token placements (those in force) to a new board.

    ``game`` defaults to the game named by the record's ``title``. Raises
    :class:`RecordError` naming the action when a tile or city does not exist or a move is
    impossible on the board.
    """
    replayer = _Replayer(record, game, home_tokens)
    replayer.actions = actions = actions_in_force(
        _check_actions(record.get("actions", []), replayer.source)
    )
    for position, action in enumerate(actions):
        replayer.position = position
        replayer.apply(action)
        if action.get("type") == "run_routes":
            replayer.after_run(action)
    return replayer.result()


def replay_steps(
    record: Mapping[str, Any],
    game: Game | None = None,
    *,
    home_tokens: bool = True,
    on_error: Callable[[RecordError], None] | None = None,
) -> Iterator[ReplayStep]:
    """Replay a record action by action (those in force), yielding a :class:`ReplayStep`
        after each: the board, the phase, the corporations' trains and the facts the game's route
    rules may ask (a ``run_routes`` changes none of these: its step is the position the routes
    were run in). Errors as :func:`replay`; with ``on_error``, an action that cannot be
    replayed is given to it instead and the replay goes on without it (what the action did
    before failing stays done).
    """
    replayer = _Replayer(record, game, home_tokens)
    replayer.actions = actions = actions_in_force(
        _check_actions(record.get("actions", []), replayer.source)
    )
    for position, action in enumerate(actions):
        replayer.position = position
        try:
            replayer.apply(action)
        except RecordError as err:
            if on_error is None:
                raise
            on_error(err)
        yield replayer.step(action)
        if action.get("type") == "run_routes":
            # what a run does to the game (a token used up) follows the position it ran in
            replayer.after_run(action)


def over_manifest(result: ReplayResult) -> dict[str, tuple[int, int]]:
    """Tiles with more copies on the board at once than the manifest holds: (most, count)."""
    out: dict[str, tuple[int, int]] = {}
    for name, most in result.max_on_board.items():
        count = result.game.manifest.get(name, 0)
        if count != UNLIMITED and most > count:
            out[name] = (most, count)
    return out


def record_game(record: Mapping[str, Any]) -> Game:
    """The game a record was played on (its ``title``), with the record's optional rules
    that the game has in force (:meth:`~tilelay.games.Game.with_options`: what the game
    defines them to change). Raises :class:`RecordError` for a record naming no game, and
    :class:`~tilelay.errors.NotFoundError` for a game not known."""
    title = record.get("title")
    if title is None or title == "":
        raise RecordError("the record names no game (its 'title')")
    if not isinstance(title, str):
        raise RecordError(f"its 'title' must be a game's name, not {shown(title)}")
    game = load_game(title)
    known = {o.name for o in game.options}
    return game.with_options(o for o in record_options(record) if o in known)


def record_options(record: Mapping[str, Any]) -> tuple[str, ...]:
    """The optional rules a record's game was set up with (``settings.optional_rules``)."""
    settings = record.get("settings")
    rules = settings.get("optional_rules") if isinstance(settings, Mapping) else None
    if not isinstance(rules, list):
        return ()
    return tuple(str(r) for r in rules if isinstance(r, str) and r)
