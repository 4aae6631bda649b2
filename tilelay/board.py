"""The board: a game's map with tiles laid and station tokens placed, and its track graph.

A :class:`Board` is immutable: :meth:`Board.lay` and :meth:`Board.place_token` return a new
board and leave the old one as it was, so a search can keep as many positions as it likes.

>>> from tilelay.games import load_game
>>> from tilelay.catalogue import get_tile
>>> board = Board(load_game("1889")).lay("K8", get_tile("57"), 1)
>>> sorted(board.tile_at("K8").exits())
[1, 4]

The track graph (:meth:`Board.track_graph`, a :class:`TrackGraph`) is what route finding walks:
it is built of small integers so that a walker can keep used track in bit sets.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace

from tilelay.actions import Action, TileLay
from tilelay.errors import TilelayError
from tilelay.games import Game
from tilelay.hexgeo import neighbour_edge
from tilelay.tile import (
    BorderType,
    Color,
    Edge,
    FutureLabel,
    Node,
    NodeKind,
    NodeRef,
    Path,
    Tile,
)
from tilelay.trains import Phase
from tilelay.upgrades import explain, legal_rotations

__all__ = ["FIXED_COLORS", "NEUTRAL", "Board", "BoardError", "TrackGraph"]

#: Hex colours that never take a tile: track may only run into them where their track faces.
FIXED_COLORS = frozenset({Color.RED, Color.GRAY, Color.BLUE})

TokenKey = tuple[str, int]

#: The owner of a neutral token (18xx.games' ``token_type: neutral``): it fills a slot but
#: belongs to no corporation, and a city holding one blocks nobody.
NEUTRAL = "(neutral)"


class BoardError(TilelayError, ValueError):
    """An impossible change to the board (a full city, a city that is not there, …)."""


@dataclass(frozen=True, slots=True, eq=False)
class TrackGraph:
    """The track on a board as integer tables, for route finding.

    Three kinds of thing are numbered from 0:

    * **nodes** — ``nodes[n] = (coord, node index on that hex's tile)``; ``node_kinds[n]`` says
      what it is (city, town, offboard, junction);
    * **paths** (track segments) — ``paths[p] = (coord, path index on that hex's tile)``;
      every path has two **ends**, numbered ``2 * p`` (the path's ``a``) and ``2 * p + 1``
      (its ``b``), so ``e ^ 1`` is the other end of end ``e`` and ``e >> 1`` its path;
    * **hex sides** — ``sides[s] = (coord, edge)``: one id per side shared by two hexes
      (``side_id`` maps both ``(coord, edge)`` and the neighbour's ``(coord', edge + 3)`` to
      it), and a side of its own for track that leads off the map or into a closed border.

    For each end ``e``: ``end_node[e]`` is the node id it touches or -1, ``end_side[e]`` the
    hex side id it touches or -1, and ``links[e]`` the ends of paths in the neighbouring hex
    that continue the track across that side (gauge compatible, lanes matching, no impassable
    border). ``node_ends[n]`` lists the ends touching node ``n``. ``end_lane[e]`` numbers the
    track an end at a side uses: one per side, or per lane of a side with lanes (-1
    elsewhere). ``terminal[p]`` marks paths a train may enter only to stop at their node.

    Walking: from node ``n`` take an end ``e`` in ``node_ends[n]``; the track leads to
    ``o = e ^ 1``; if ``end_node[o] >= 0`` the walk reaches that node, otherwise it continues
    with every ``f`` in ``links[o]`` from ``f ^ 1``, and so on. Record ``e >> 1`` (paths) or
    ``end_side`` values (sides) as bits to keep routes from sharing track. Junction nodes are
    not stops: walk through them. Paths marked ``ignore`` are left out, but for a terminal one
    that joins a node: 18xx.games only keeps a walk from *starting* at that node along it, so
    a route may still end there through it, as through any terminal path (1822's two tracks
    between Merthyr Tydfil and Pontypool); it stays in the graph as a terminal path.
    """

    nodes: tuple[TokenKey, ...]
    node_kinds: tuple[NodeKind, ...]
    paths: tuple[TokenKey, ...]
    sides: tuple[TokenKey, ...]
    end_node: tuple[int, ...]
    end_side: tuple[int, ...]
    links: tuple[tuple[int, ...], ...]
    node_ends: tuple[tuple[int, ...], ...]
    terminal: tuple[bool, ...]
    node_id: dict[TokenKey, int]
    path_id: dict[TokenKey, int]
    side_id: dict[TokenKey, int]
    end_lane: tuple[int, ...] = ()
    #: the tile of each hex with nodes, in the nodes' order (what the graph was built from)
    node_tiles: Mapping[str, Tile] = field(default_factory=dict)

    def neighbours(self, node: int) -> set[int]:
        """The nodes reachable from ``node`` along track without passing another stop."""
        out: set[int] = set()
        seen: set[int] = set()
        stack = [e ^ 1 for e in self.node_ends[node]]
        while stack:
            end = stack.pop()
            if end in seen:
                continue
            seen.add(end)
            target = self.end_node[end]
            if target >= 0:
                if target == node:
                    continue
                if self.node_kinds[target] is NodeKind.JUNCTION:
                    stack.extend(f ^ 1 for f in self.node_ends[target] if f != end)
                else:
                    out.add(target)
                continue
            stack.extend(f ^ 1 for f in self.links[end])
        return out

    def connected_nodes(self, start: Iterable[int]) -> set[int]:
        """Every node reachable along track from ``start`` (through any stops)."""
        end_node, links, node_ends = self.end_node, self.links, self.node_ends
        seen_ends = bytearray(len(end_node))
        nodes = set(start)
        todo = list(nodes)
        stack: list[int] = []
        push = stack.append
        while todo:
            for e in node_ends[todo.pop()]:
                push(e ^ 1)
            while stack:
                end = stack.pop()
                if seen_ends[end]:
                    continue
                seen_ends[end] = 1
                target = end_node[end]
                if target < 0:
                    for f in links[end]:
                        push(f ^ 1)
                elif target not in nodes:
                    nodes.add(target)
                    todo.append(target)
        return nodes


class Board:
    """A game's map with the tiles laid on it and the station tokens placed (immutable).

    ``laid`` maps coordinates to the tile lying there (already turned, named by its tile name,
    with the hex's location name). ``tokens`` maps ``(coord, city index)`` — the index among
    the tile's cities, as 18xx.games counts them — to the corporations' symbols in the order
    placed.
    """

    __slots__ = ("_graph", "_laid", "_memo", "_tokens", "game")

    def __init__(
        self,
        game: Game,
        laid: Mapping[str, Tile] | None = None,
        tokens: Mapping[TokenKey, tuple[str, ...]] | None = None,
    ) -> None:
        self.game = game
        self._laid: dict[str, Tile] = dict(laid or {})
        self._tokens: dict[TokenKey, tuple[str, ...]] = dict(tokens or {})
        self._graph: TrackGraph | None = None
        self._memo: dict[str, object] = {}

    def __repr__(self) -> str:
        return f"Board({self.game.name}, laid={len(self._laid)}, tokens={self.token_count()})"

    # ------------------------------------------------------------------ state

    @property
    def laid(self) -> dict[str, Tile]:
        """Coordinate -> laid tile (a copy)."""
        return dict(self._laid)

    @property
    def tokens(self) -> dict[TokenKey, tuple[str, ...]]:
        """``(coord, city index)`` -> corporations with a token there (a copy)."""
        return dict(self._tokens)

    def token_count(self) -> int:
        """How many tokens lie on the board."""
        return sum(len(v) for v in self._tokens.values())

    def tile_at(self, coord: str) -> Tile:
        """The tile at ``coord``: the laid tile, else the preprinted hex.

        Raises :class:`NotFoundError` (with close coordinates) off the map.
        """
        tile = self._laid.get(coord)
        return tile if tile is not None else self.game.hex_tile(coord)

    def tiles_at(self, coords: Iterable[str]) -> list[Tile]:
        """The tiles at ``coords``, as :meth:`tile_at` gives them, in order."""
        laid = self._laid
        printed = self.game.hexes
        hex_tile = self.game.hex_tile
        return [
            t
            if (t := laid.get(c)) is not None or (t := printed.get(c)) is not None
            else hex_tile(c)
            for c in coords
        ]

    def tokens_of(self, corporation: str) -> list[TokenKey]:
        """Where ``corporation`` has tokens, as ``(coord, city index)``."""
        return [key for key, corps in self._tokens.items() if corporation in corps]

    def token_nodes(self, corporation: str) -> list[TokenKey]:
        """Where ``corporation`` has tokens, as ``(coord, node index)`` (graph node keys)."""
        out: list[TokenKey] = []
        for coord, city in self.tokens_of(corporation):
            out.append((coord, _city_nodes(self.tile_at(coord))[city]))
        return out

    # ---------------------------------------------------------------- changes

    def lay(self, coord: str, tile: Tile, rotation: int = 0) -> Board:
        """A new board with ``tile`` turned ``rotation`` steps clockwise laid at ``coord``.

        Tokens on the replaced tile move to the city of the new tile that keeps their track
        (a city whose exits include the old city's exits — the same index when it qualifies,
        else the first free one; the only city when there is one); so do the cities' groups
        (a new city without groups of its own takes its old city's), and the old tile's
        sticky icons. Raises
        :class:`NotFoundError` off the map and :class:`BoardError` when the tokens cannot be
        kept. No game rule is checked here (see the upgrade rules for that).
        """
        hex_tile = self.game.hex_tile(coord)
        coord = hex_tile.name
        old = self.tile_at(coord)
        new = tile.rotated(rotation)
        new = replace(new, location_name=hex_tile.location_name)
        new = _carry_groups(coord, old, new)
        new = _carry_icons(old, new)
        laid = dict(self._laid)
        laid[coord] = new
        tokens = dict(self._tokens)
        moved = _carry_tokens(coord, old, new, tokens)
        return Board(self.game, laid, moved)

    def restored(self, coord: str) -> Board:
        """A new board with ``coord`` as the map prints it again: the tile laid there taken
        back to the supply and every token on it gone (18xx.games' ``lay_downgrade`` to the
        hex's original tile: 1849's Messina earthquake). Raises :class:`NotFoundError` off
        the map."""
        coord = self.game.hex_tile(coord).name
        laid = {c: t for c, t in self._laid.items() if c != coord}
        tokens = {key: corps for key, corps in self._tokens.items() if key[0] != coord}
        return Board(self.game, laid, tokens)

    def place_token(
        self,
        coord: str,
        city_index: int,
        corporation: str,
        *,
        slot: int | None = None,
        extra_slot: bool = False,
    ) -> Board:
        """A new board with ``corporation``'s token in city ``city_index`` at ``coord``.

        ``city_index`` counts the tile's cities (not all its nodes), as 18xx.games does.
        Raises :class:`BoardError` when the city does not exist, is full, or already holds
        the corporation; ``slot`` (if given) must be a slot of the city. ``extra_slot`` lets a
        token into a full city (18xx.games' ``cheater`` and ``extra_slot`` abilities).
        :data:`NEUTRAL` tokens may share a city with any number of others.
        """
        tile, node = self._city(coord, city_index)
        here = self._tokens.get((coord, city_index), ())
        if corporation in here and corporation != NEUTRAL:
            raise BoardError(f"{coord}: {corporation} already has a token in city {city_index}")
        if len(here) >= node.slots and not extra_slot:
            raise BoardError(
                f"{coord}: city {city_index} of tile {tile.name} is full "
                f"({node.slots} slot{'' if node.slots == 1 else 's'}: {', '.join(here)})"
            )
        if slot is not None and not 0 <= slot < node.slots:
            raise BoardError(f"{coord}: city {city_index} has no slot {slot}")
        tokens = dict(self._tokens)
        tokens[(coord, city_index)] = (*here, corporation)
        return Board(self.game, self._laid, tokens)

    def remove_token(self, coord: str, city_index: int, corporation: str) -> Board:
        """A new board without ``corporation``'s token in city ``city_index`` at ``coord``
        (:class:`BoardError` when it has none there)."""
        here = self._tokens.get((coord, city_index), ())
        if corporation not in here:
            raise BoardError(f"{coord}: {corporation} has no token in city {city_index}")
        tokens = dict(self._tokens)
        left = list(here)
        left.remove(corporation)
        if left:
            tokens[(coord, city_index)] = tuple(left)
        else:
            del tokens[(coord, city_index)]
        return Board(self.game, self._laid, tokens)

    def replace_tokens(self, old: str, new: str) -> Board:
        """A new board with every token of ``old`` turned into ``new``'s (a merger); where both
        already lie in one city, ``old``'s token goes."""
        tokens: dict[TokenKey, tuple[str, ...]] = {}
        for key, here in self._tokens.items():
            if old in here:
                here = tuple(c for c in here if c != old) + (() if new in here else (new,))
            if here:
                tokens[key] = here
        return Board(self.game, self._laid, tokens)

    def apply(self, action: Action) -> Board:
        """A new board with ``action`` (a :class:`~tilelay.actions.TileLay` of a manifest tile,
        or a :class:`~tilelay.actions.TokenPlacement`) done. Like :meth:`lay` and
        :meth:`place_token`, it checks what the board can hold, not the game's rules
        (:meth:`why_illegal` says those)."""
        if isinstance(action, TileLay):
            return self.lay(action.coord, self.game.tile(action.tile), action.rotation)
        if action.corporation != NEUTRAL:
            self.game.corporation(action.corporation)
        return self.place_token(
            action.coord, action.city, action.corporation, extra_slot=action.extra
        )

    def slots(self, coord: str, city_index: int) -> int:
        """How many token slots city ``city_index`` of the tile at ``coord`` has (tokens past
        them are in extra slots)."""
        return self._city(coord, city_index)[1].slots

    def _city(self, coord: str, city_index: int) -> tuple[Tile, Node]:
        """The tile at ``coord`` and its city ``city_index`` (counting the tile's cities);
        :class:`BoardError` when it has no such city."""
        tile = self.tile_at(coord)
        cities = _city_nodes(tile)
        if not 0 <= city_index < len(cities):
            raise BoardError(
                f"{coord}: tile {tile.name} has {len(cities)} "
                f"{'city' if len(cities) == 1 else 'cities'}, no city {city_index}"
            )
        return tile, tile.nodes[cities[city_index]]

    def with_home_tokens(self, corporations: Iterable[str] | None = None) -> Board:
        """A new board with the home tokens of ``corporations`` (default: all) placed.

        A corporation with several home stations gets a token in each
        (:meth:`~tilelay.games.Game.home_cities`); a home hex with several cities and no city
        index in the game definition is skipped (its owner chooses in play).
        """
        board = self
        syms = (
            [c.sym for c in self.game.corporations] if corporations is None else list(corporations)
        )
        for sym in syms:
            for coord, city in self.game.home_cities(sym):
                if sym not in board._tokens.get((coord, city), ()):
                    board = board.place_token(coord, city, sym)
        return board

    # ------------------------------------------------------------ neighbours

    def neighbour(self, coord: str, edge: int) -> str | None:
        """The coordinate across ``edge`` of ``coord``, or ``None`` off the map."""
        return self.game.neighbour(coord, edge)

    def neighbours(self, coord: str) -> dict[int, str]:
        """Edge -> neighbouring coordinate, for edges leading onto the map."""
        return self.game.neighbours(coord)

    def impassable(self, coord: str, edge: int) -> bool:
        """Whether an impassable border lies on ``edge`` of ``coord`` (seen from either side)."""
        for b in self.game.hexes[coord].borders:
            if b.edge == edge and b.type is BorderType.IMPASSABLE:
                return True
        other = self.game.neighbour(coord, edge)
        if other is not None:
            back = neighbour_edge(edge)
            for b in self.game.hexes[other].borders:
                if b.edge == back and b.type is BorderType.IMPASSABLE:
                    return True
        return False

    def connected_exits(self, coord: str, edge: int) -> bool:
        """Whether track at ``edge`` of ``coord`` meets track on the other side.

        True when a neighbour lies across the edge, no impassable border separates them, and
        the neighbour's tile has track at the facing edge (of a gauge that joins the track of
        ``coord`` at that edge, if ``coord`` has any there).
        """
        other = self.game.neighbour(coord, edge)
        if other is None or self.impassable(coord, edge):
            return False
        back = neighbour_edge(edge)
        theirs = [p for p in self.tile_at(other).paths if back in p.edges() and not p.ignore]
        if not theirs:
            return False
        mine = [p for p in self.tile_at(coord).paths if edge in p.edges() and not p.ignore]
        if not mine:
            return True
        return any(_joins(p, edge, q, back) for p in mine for q in theirs)

    def exit_allowed(self, coord: str, edge: int) -> bool:
        """Whether a tile at ``coord`` may have track leaving across ``edge``.

        Not when the track would run off the map, across an impassable border, or into a
        hex printed red, gray or blue without track facing back (as 18xx.games judges it, by
        the map as printed: track may run into the side of a gray tile laid later).
        """
        other = self.game.neighbour(coord, edge)
        if other is None or self.impassable(coord, edge):
            return False
        tile = self.game.hex_tile(other)
        if tile.color in FIXED_COLORS:
            return neighbour_edge(edge) in tile.exits()
        return True

    def allowed_exits(self, coord: str) -> frozenset[int]:
        """The edges of ``coord`` across which track may leave (see :meth:`exit_allowed`)."""
        return frozenset(e for e in range(6) if self.exit_allowed(coord, e))

    # ------------------------------------------------------------ laying tiles

    def copies_on_board(self, name: str) -> int:
        """How many copies of tile ``name`` lie on the board."""
        return sum(1 for tile in self._laid.values() if tile.name == name)

    def available(self, name: str) -> int | None:
        """Copies of manifest tile ``name`` left to lay (``None``: unlimited; 0 for a tile the
        game's manifest does not have). A tile replaced by an upgrade is back in the supply."""
        count = self.game.manifest.get(name)
        if count is None:
            return 0
        if count < 0:
            return None
        return max(count - self.copies_on_board(name), 0)

    def _tile(self, tile: Tile | str) -> Tile:
        return self.game.tile(tile) if isinstance(tile, str) else tile

    def _supply_reason(
        self, tile: Tile, phase: Phase | None, also: Collection[str] = ()
    ) -> str | None:
        if phase is not None and phase.tiles:
            allowed = {c.strip().lower().replace("grey", "gray") for c in (*phase.tiles, *also)}
            if tile.color.value not in allowed:
                return (
                    f"tile {tile.name} is {tile.color.value}: phase {phase.name} allows "
                    f"{', '.join(phase.tiles)} tiles"
                )
        if tile.name not in self.game.manifest:
            return f"tile {tile.name} is not in the manifest of {self.game.name}"
        if any(icon.blocks_lay for icon in tile.icons):
            return (
                f"tile {tile.name} is laid only by a private company's ability "
                "(its icon blocks an ordinary lay)"
            )
        if self.available(tile.name) == 0:
            return (
                f"no copy of tile {tile.name} is left "
                f"({self.copies_on_board(tile.name)} on the map)"
            )
        return None

    def future_label(self, coord: str) -> FutureLabel | None:
        """The future label in force at ``coord`` (as 18xx.games carries it over): the
        preprinted hex's (or the one the game's upgrade rules give the hex,
        :meth:`~tilelay.upgrades.UpgradeRules.hex_label`) until a tile of its colour is
        laid, then the tile's own."""
        hex_tile = self.game.hex_tile(coord)
        tile = self.tile_at(hex_tile.name)
        printed = hex_tile.future_label or self.game.upgrade_rules.hex_label(hex_tile.name)
        if tile is hex_tile or tile.name == hex_tile.name:
            return printed
        if (
            printed is not None
            and printed.color is not None
            and _rank(tile.color) < _rank(printed.color)
        ):
            return printed
        return tile.future_label

    def _tile_rotations(self, coord: str, tile: Tile, phase: Phase | None) -> tuple[int, ...]:
        old = self.tile_at(coord)
        hex_tile = self.game.hex_tile(coord)
        rotations = legal_rotations(
            old,
            tile,
            self.game.upgrade_rules.in_phase(phase),
            hex_label=hex_tile.label,
            future_label=self.future_label(coord),
        )
        allowed = self.allowed_exits(coord)
        old_exits = old.exits()
        stubs = (
            frozenset(s.edge for s in old.stubs)
            if self.game.upgrade_rules.stubs_restricted
            else frozenset()
        )
        return tuple(
            r
            for r in rotations
            if tile.rotated(r).exits() - old_exits <= allowed and stubs <= tile.rotated(r).exits()
        )

    def legal_rotations(
        self,
        coord: str,
        tile: Tile | str,
        *,
        phase: Phase | None = None,
        also: Collection[str] = (),
    ) -> tuple[int, ...]:
        """The rotations in which ``tile`` (a tile, or a manifest tile's name) may be laid at
        ``coord`` now.

        The tile rules of :mod:`tilelay.upgrades` against the tile lying there (with the
        preprinted hex's label, under the game's upgrade rules), then the map's: no new track
        off the map, across an impassable border or into a red, gray or blue hex without track
        facing back (:meth:`allowed_exits`); a colour ``phase`` allows; a copy left in the
        manifest (:meth:`available`); not a tile that only a company's ability lays (an icon
        with ``blocks_lay``, as 1889's port tile 437). ``also`` are colours laid beyond the
        phase's (a company's ability: 18USA's P11), the phase's rules otherwise in force.
        """
        new = self._tile(tile)
        if self._supply_reason(new, phase, also) is not None:
            return ()
        return self._tile_rotations(self.game.hex_tile(coord).name, new, phase)

    def legal_lays(
        self,
        coord: str,
        *,
        phase: Phase | None = None,
        corporation: str | None = None,
        also: Collection[str] = (),
    ) -> dict[str, tuple[int, ...]]:
        """Every manifest tile that may be laid at ``coord`` now, with its legal rotations
        (``also``: colours laid beyond the phase's, :meth:`legal_rotations`).

        With ``corporation``, only what it may lay where its track reaches, as the 18xx.games
        track step decides: ``coord`` must be in :meth:`reach`, and every rotation must have
        an exit on one of the edges reached there.
        """
        reached: frozenset[int] | None = None
        if corporation is not None:
            coord = self.game.hex_tile(coord).name
            reached = self.reach(corporation).get(coord)
            if reached is None:
                return {}
        out: dict[str, tuple[int, ...]] = {}
        for name in self.game.manifest:
            rotations = self.legal_rotations(coord, name, phase=phase, also=also)
            if reached is not None:
                tile = self.game.tile(name)
                rotations = tuple(r for r in rotations if tile.rotated(r).exits() & reached)
            if rotations:
                out[name] = rotations
        return self._most_exits(coord, out)

    def _max_exits_applies(self, coord: str) -> bool:
        kinds = self.game.upgrade_rules.max_exits
        if not kinds:
            return False
        tile = self.tile_at(self.game.hex_tile(coord).name)
        cities = bool(tile.cities)
        return (
            (cities and "cities" in kinds)
            or (cities and not tile.labels and "unlabeled_cities" in kinds)
            or (not cities and not tile.towns and "track" in kinds)
        )

    def _most_exits(
        self, coord: str, lays: dict[str, tuple[int, ...]]
    ) -> dict[str, tuple[int, ...]]:
        """``lays`` keeping, under the game's ``max_exits`` rule, only the tiles with the most
        exits of their colour (18xx.games' ``TILE_UPGRADES_MUST_USE_MAX_EXITS``)."""
        if not lays or not self._max_exits_applies(coord):
            return lays
        exits = {name: len(self.game.tile(name).exits()) for name in lays}
        most: dict[Color, int] = {}
        for name, n in exits.items():
            color = self.game.tile(name).color
            most[color] = max(most.get(color, 0), n)
        return {
            name: rotations
            for name, rotations in lays.items()
            if exits[name] == most[self.game.tile(name).color]
        }

    def reach(self, corporation: str) -> dict[str, frozenset[int]]:
        """Where ``corporation`` may lay track: hex -> the edges its track reaches there.

        As the 18xx.games engine's graph: every edge (leading onto the map) of a hex where it
        has a token, and every exit of each path it reaches from its tokens, on that hex and
        on the neighbour across it. Its trains' walk passes through towns, junctions and
        cities except a city whose slots are all taken by other corporations; it stops at
        offboards and at the end of terminal paths.
        """
        g = self.track_graph()
        tiles: dict[str, Tile] = {}

        def tile(coord: str) -> Tile:
            t = tiles.get(coord)
            if t is None:
                t = tiles[coord] = self.tile_at(coord)
            return t

        reach: dict[str, set[int]] = {}
        start: list[int] = []
        for coord, city in self.tokens_of(corporation):
            reach.setdefault(coord, set()).update(self.allowed_exits(coord))
            start.append(g.node_id[(coord, _city_nodes(tile(coord))[city])])
        blocked: set[int] = set()
        for (coord, city), corps in self._tokens.items():
            city_node = tile(coord).nodes[_city_nodes(tile(coord))[city]]
            if corporation not in corps and len(corps) >= city_node.slots:
                blocked.add(g.node_id[(coord, _city_nodes(tile(coord))[city])])
        seen_nodes = set(start)
        seen_paths: set[int] = set()
        todo = list(start)
        while todo:
            node = todo.pop()
            stack = list(g.node_ends[node])
            seen_ends: set[int] = set()
            while stack:
                end = stack.pop()
                if end in seen_ends:
                    continue
                seen_ends.add(end)
                p = end >> 1
                if p not in seen_paths:
                    seen_paths.add(p)
                    coord, j = g.paths[p]
                    for edge in tile(coord).paths[j].edges():
                        reach.setdefault(coord, set()).add(edge)
                        other = self.game.neighbour(coord, edge)
                        if other is not None and not self.impassable(coord, edge):
                            reach.setdefault(other, set()).add(neighbour_edge(edge))
                far = end ^ 1
                target = g.end_node[far]
                if target >= 0:
                    if g.terminal[p] or target in seen_nodes:
                        continue
                    kind = g.node_kinds[target]
                    if kind is NodeKind.JUNCTION:
                        stack.extend(g.node_ends[target])
                        continue
                    seen_nodes.add(target)
                    if kind is not NodeKind.OFFBOARD and target not in blocked:
                        todo.append(target)
                    continue
                stack.extend(g.links[far])
        return {coord: frozenset(edges) for coord, edges in reach.items()}

    def why_illegal(
        self, coord: str, tile: Tile | str, rotation: int, *, phase: Phase | None = None
    ) -> str | None:
        """Why laying ``tile`` at ``coord`` in ``rotation`` is not allowed now, naming the rule
        (``None`` when it is allowed)."""
        new = self._tile(tile)
        coord = self.game.hex_tile(coord).name
        why = self._supply_reason(new, phase)
        if why is not None:
            return why
        old = self.tile_at(coord)
        hex_tile = self.game.hex_tile(coord)
        why = explain(
            old,
            new,
            rotation,
            self.game.upgrade_rules.in_phase(phase),
            hex_label=hex_tile.label,
            future_label=self.future_label(coord),
        )
        if why is not None:
            return f"tile {new.name} in rotation {rotation % 6} cannot replace {old.name}: {why}"
        for edge in sorted(new.rotated(rotation).exits() - old.exits()):
            if not self.exit_allowed(coord, edge):
                why = self._exit_reason(coord, edge)
                return f"track would leave {coord} across edge {edge}: {why}"
        if self.game.upgrade_rules.stubs_restricted:
            missing = sorted({s.edge for s in old.stubs} - new.rotated(rotation).exits())
            if missing:
                return (
                    f"{coord} has track stubs at edge(s) {missing}: {self.game.name}'s tiles "
                    "must take them up"
                )
        if self._max_exits_applies(coord):
            lays = self.legal_lays(coord, phase=phase)
            if new.name not in lays:
                best = [n for n in lays if self.game.tile(n).color == new.color]
                return (
                    f"{self.game.name} lays only the tiles with the most exits here: "
                    f"{', '.join(best) or 'none'} rather than {new.name}"
                )
        return None

    def _exit_reason(self, coord: str, edge: int) -> str:
        other = self.game.neighbour(coord, edge)
        if other is None:
            return "off the map"
        if self.impassable(coord, edge):
            return "an impassable border"
        return (
            f"{other} is printed {self.game.hex_tile(other).color.value} with no track facing back"
        )

    # ------------------------------------------------------------ track graph

    def track_graph(self) -> TrackGraph:
        """The track graph of the board (built once per board; see :class:`TrackGraph`)."""
        if self._graph is None:
            self._graph = _build_graph(self)
        return self._graph

    @property
    def memo(self) -> dict[str, object]:
        """What searches derive from this board and keep with it (the board never changes):
        each under its own key."""
        return self._memo


# ---------------------------------------------------------------------- helpers


_RANKS = {Color.WHITE: 0, Color.YELLOW: 1, Color.GREEN: 2, Color.BROWN: 3, Color.GRAY: 4}


def _rank(color: Color) -> int:
    return _RANKS.get(color, 5)


def _city_nodes(tile: Tile) -> list[int]:
    return [i for i, n in enumerate(tile.nodes) if n.kind is NodeKind.CITY]


def _city_map(coord: str, old: Tile, new: Tile, needed: Iterable[int]) -> dict[int, int]:
    """Which city of ``new`` each of the ``needed`` cities of ``old`` becomes: one whose exits
    include the old city's (the same index when it qualifies, else the first free one; the
    only city when there is one)."""
    old_cities = _city_nodes(old)
    new_cities = _city_nodes(new)
    out: dict[int, int] = {}
    used: set[int] = set()
    for old_index in needed:
        if not new_cities:
            raise BoardError(f"{coord}: tile {new.name} has no city for city {old_index}")
        exits = old.node_exits(old_cities[old_index])
        choices = [j for j, n in enumerate(new_cities) if exits <= new.node_exits(n)]
        if len(new_cities) == 1:
            target = 0
        else:
            free = [j for j in choices if j not in used] or choices
            if not free:
                raise BoardError(
                    f"{coord}: no city of tile {new.name} keeps the track of city {old_index}"
                )
            target = old_index if old_index in free else free[0]
        used.add(target)
        out[old_index] = target
    return out


def _carry_groups(coord: str, old: Tile, new: Tile) -> Tile:
    """``new`` with the groups of ``old``'s cities on the cities they become (18xx.games
    keeps a city's groups through upgrades: Chicago's four cities stay one group)."""
    old_cities = _city_nodes(old)
    grouped = [i for i, n in enumerate(old_cities) if old.nodes[n].groups]
    if not grouped:
        return new
    try:
        mapping = _city_map(coord, old, new, grouped)
    except BoardError:
        return new
    nodes = list(new.nodes)
    new_cities = _city_nodes(new)
    for old_index, target in mapping.items():
        n = new_cities[target]
        if not nodes[n].groups:
            nodes[n] = replace(nodes[n], groups=old.nodes[old_cities[old_index]].groups)
    return replace(new, nodes=tuple(nodes))


def _carry_icons(old: Tile, new: Tile) -> Tile:
    """``new`` with ``old``'s sticky icons that it lacks (18xx.games keeps them on the hex:
    1846's port and Lake Shore Line marks)."""
    have = [i.image for i in new.icons]
    kept = []
    for icon in old.icons:
        if not icon.sticky:
            continue
        if icon.image in have:
            have.remove(icon.image)
            continue
        kept.append(icon)
    return replace(new, icons=(*new.icons, *kept)) if kept else new


def _carry_tokens(
    coord: str, old: Tile, new: Tile, tokens: dict[TokenKey, tuple[str, ...]]
) -> dict[TokenKey, tuple[str, ...]]:
    old_cities = _city_nodes(old)
    held = [(i, tokens.pop((coord, i))) for i in range(len(old_cities)) if (coord, i) in tokens]
    if not held:
        return tokens
    mapping = _city_map(coord, old, new, [i for i, _ in held])
    for old_index, corps in held:
        key = (coord, mapping[old_index])
        tokens[key] = (*tokens.get(key, ()), *corps)
    return tokens


def _lane_index(p: Path, edge: int) -> tuple[int, int]:
    if isinstance(p.a, Edge) and p.a.num == edge:
        return p.a_lane
    return p.b_lane


def _joins(p: Path, edge: int, q: Path, back: int) -> bool:
    """Whether path ``p`` leaving at ``edge`` continues into path ``q`` entering at ``back``."""
    if not p.track.connects(q.track):
        return False
    (w1, i1), (w2, i2) = _lane_index(p, edge), _lane_index(q, back)
    if w1 > 1 and w2 > 1:
        return w1 == w2 and i1 == w1 - 1 - i2
    return True


def _build_graph(board: Board) -> TrackGraph:
    game = board.game
    nodes: list[TokenKey] = []
    node_kinds: list[NodeKind] = []
    node_id: dict[TokenKey, int] = {}
    paths: list[TokenKey] = []
    path_objs: list[Path] = []
    path_id: dict[TokenKey, int] = {}
    end_node: list[int] = []
    end_edge: list[int] = []  # edge number at an edge end, -1 at a node end
    tiles = {coord: board.tile_at(coord) for coord in game.hexes}
    node_tiles: dict[str, Tile] = {}
    for coord, tile in tiles.items():
        base = len(nodes)
        if tile.nodes:
            node_tiles[coord] = tile
        for i, node in enumerate(tile.nodes):
            node_id[(coord, i)] = len(nodes)
            nodes.append((coord, i))
            node_kinds.append(node.kind)
        for j, p in enumerate(tile.paths):
            if p.ignore and not (
                p.terminal and (isinstance(p.a, NodeRef) or isinstance(p.b, NodeRef))
            ):
                continue
            path_id[(coord, j)] = len(paths)
            paths.append((coord, j))
            path_objs.append(p)
            for end in (p.a, p.b):
                if isinstance(end, NodeRef):
                    end_node.append(base + end.index)
                    end_edge.append(-1)
                else:
                    end_node.append(-1)
                    end_edge.append(end.num)
    # hex sides and links
    sides: list[TokenKey] = []
    side_id: dict[TokenKey, int] = {}
    at_side: dict[TokenKey, list[int]] = {}
    end_side: list[int] = [-1] * len(end_node)
    for e, edge in enumerate(end_edge):
        if edge < 0:
            continue
        coord = paths[e >> 1][0]
        key = (coord, edge)
        at_side.setdefault(key, []).append(e)
        sid = side_id.get(key)
        if sid is None:
            sid = len(sides)
            sides.append(key)
            side_id[key] = sid
            other = game.neighbour(coord, edge)
            if other is not None and not board.impassable(coord, edge):
                side_id[(other, neighbour_edge(edge))] = sid
        end_side[e] = sid
    links: list[tuple[int, ...]] = [()] * len(end_node)
    for (coord, edge), ends in at_side.items():
        other = game.neighbour(coord, edge)
        if other is None or side_id.get((other, neighbour_edge(edge))) != side_id[(coord, edge)]:
            continue
        back = neighbour_edge(edge)
        facing = at_side.get((other, back), [])
        for e in ends:
            p = path_objs[e >> 1]
            links[e] = tuple(f for f in facing if _joins(p, edge, path_objs[f >> 1], back))
    node_ends: list[list[int]] = [[] for _ in nodes]
    for e, n in enumerate(end_node):
        if n >= 0:
            node_ends[n].append(e)
    # one track per lane of a side: lane indices seen from the hex the side is numbered from
    lane_ids: dict[tuple[int, int], int] = {}
    end_lane: list[int] = [-1] * len(end_node)
    for e, sid in enumerate(end_side):
        if sid < 0:
            continue
        p = path_objs[e >> 1]
        width, index = p.a_lane if e & 1 == 0 else p.b_lane
        if width > 1 and sides[sid][0] != paths[e >> 1][0]:
            index = width - 1 - index
        end_lane[e] = lane_ids.setdefault((sid, index if width > 1 else 0), len(lane_ids))
    return TrackGraph(
        nodes=tuple(nodes),
        node_kinds=tuple(node_kinds),
        paths=tuple(paths),
        sides=tuple(sides),
        end_node=tuple(end_node),
        end_side=tuple(end_side),
        links=tuple(links),
        node_ends=tuple(tuple(x) for x in node_ends),
        terminal=tuple(p.terminal > 0 for p in path_objs),
        node_id=node_id,
        path_id=path_id,
        side_id=side_id,
        end_lane=tuple(end_lane),
        node_tiles=node_tiles,
    )
