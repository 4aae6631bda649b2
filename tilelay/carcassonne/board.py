"""The Carcassonne board: legal placements, followers, regions and scoring.

Everything is kept incrementally, so that a turn costs the same early and late in a game:

- positions are ints (``(y + 128) * 256 + (x + 128)``; ``y`` grows southwards), so the
  neighbour across side ``s`` is ``key + DELTA[s]``;
- the open frontier is a dict ``position -> required edge pattern``: 2 bits per side
  (0 = no neighbour there, else the :class:`~tilelay.carcassonne.tile.Edge` that must face it);
- which rotations of which tile type fit a pattern is a table computed once per tile set
  (:class:`Compiled`), so enumerating placements is one dict walk and one table look-up per spot;
- every feature of every placed tile is a node of a union-find (path halving) whose roots carry
  the region's open side count, tiles (an int bitmask of tile numbers, so a tile counts once
  even when a feature passes through it twice), pennants, followers and, for farms, the city
  nodes they touch (resolved to the cities' current roots only when scoring). A city or road is
  complete when its open side count reaches 0, which also closes road loops.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cache

from tilelay.carcassonne.errors import CarcassonneError, IllegalMoveError, TurnOrderError
from tilelay.carcassonne.tile import OPPOSITE_HALF, Kind, TileType
from tilelay.carcassonne.tileset import TileSet, base_tileset

STRIDE = 256
OFFSET = 128
#: Position offsets to the neighbour across sides N, E, S, W.
DELTA: tuple[int, int, int, int] = (-STRIDE, 1, STRIDE, -1)
#: Position offsets of the 8 tiles around a position.
AROUND: tuple[int, ...] = (
    -STRIDE - 1,
    -STRIDE,
    -STRIDE + 1,
    -1,
    1,
    STRIDE - 1,
    STRIDE,
    STRIDE + 1,
)

CITY = int(Kind.CITY)
ROAD = int(Kind.ROAD)
MONASTERY = int(Kind.MONASTERY)
FARM = int(Kind.FARM)

#: Turn phases: a tile may be placed; a follower may go on the tile just placed; a follower went.
TILE, FOLLOWER, PLACED = 0, 1, 2


def key_of(x: int, y: int) -> int:
    """The int position of square ``(x, y)``."""
    if not (-OFFSET < x < OFFSET and -OFFSET < y < OFFSET):
        raise CarcassonneError(f"position ({x}, {y}) is off the board (|x|, |y| < {OFFSET})")
    return (y + OFFSET) * STRIDE + (x + OFFSET)


def xy_of(key: int) -> tuple[int, int]:
    """The ``(x, y)`` of an int position."""
    return key % STRIDE - OFFSET, key // STRIDE - OFFSET


class FarmScoring(Enum):
    """How farms score at the end of the game."""

    #: 2nd/3rd edition: each farm scores 3 per completed city it touches, to the player(s)
    #: with the most farmers in that farm.
    THIRD_EDITION = "third"
    #: 1st edition: each completed city scores 4 to the player(s) with the most farmers in all
    #: the farms that touch it, counted together.
    FIRST_EDITION = "first"


@dataclass(frozen=True, slots=True)
class Rules:
    """Rule options. The defaults are the 2nd/3rd edition base game."""

    followers: int = 7
    #: 1st edition: a completed city of only two tiles scores 1 per tile and pennant, not 2.
    first_edition_small_city: bool = False
    farm_scoring: FarmScoring = FarmScoring.THIRD_EDITION


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a tile goes: square ``(x, y)`` (``y`` grows southwards), turned ``rotation``
    quarter turns clockwise."""

    x: int
    y: int
    rotation: int


@dataclass(frozen=True, slots=True)
class ScoreEvent:
    """Points given for one feature: which kind, whether it was complete, its size in tiles,
    the points, and the players who scored them (each scores the full points)."""

    kind: Kind
    complete: bool
    tiles: int
    points: int
    players: tuple[int, ...]


class RotTile:
    """Look-up tables of one tile type turned one way (built once per tile set)."""

    __slots__ = (
        "conns",
        "edges",
        "features",
        "kinds",
        "monastery",
        "opens",
        "pennants",
        "slots",
        "touches",
        "type_index",
    )

    def __init__(self, type_index: int, tile: TileType, rotation: int) -> None:
        feats = tile.rotated_features(rotation)
        self.type_index = type_index
        self.features = feats
        self.kinds: tuple[int, ...] = tuple(int(f.kind) for f in feats)
        self.opens: tuple[int, ...] = tuple(f.sides.bit_count() for f in feats)
        self.pennants: tuple[int, ...] = tuple(f.pennants for f in feats)
        self.touches: tuple[tuple[int, ...], ...] = tuple(f.touches for f in feats)
        edges = tile.edges(rotation)
        self.edges = sum(int(e) << (2 * s) for s, e in enumerate(edges))
        slots = [-1] * 12
        self.monastery = -1
        for i, f in enumerate(feats):
            for s in range(4):
                if f.sides >> s & 1:
                    slots[s] = i
            for h in range(8):
                if f.halves >> h & 1:
                    slots[4 + h] = i
            if f.kind is Kind.MONASTERY:
                self.monastery = i
        self.slots: tuple[int, ...] = tuple(slots)
        conns: list[tuple[tuple[int, int, bool], ...]] = []
        for s in range(4):
            side: list[tuple[int, int, bool]] = []
            if slots[s] >= 0:
                side.append((slots[s], (s + 2) % 4, True))
            for h in (2 * s, 2 * s + 1):
                if slots[4 + h] >= 0:
                    side.append((slots[4 + h], 4 + OPPOSITE_HALF[h], False))
            conns.append(tuple(side))
        self.conns: tuple[tuple[tuple[int, int, bool], ...], ...] = tuple(conns)


class Compiled:
    """A tile set's rotated tiles and the table of which rotations fit which edge pattern."""

    __slots__ = ("fits", "rot", "tileset")

    def __init__(self, tileset: TileSet) -> None:
        self.tileset = tileset
        self.rot: tuple[tuple[RotTile, ...], ...] = tuple(
            tuple(RotTile(i, t, r) for r in range(4)) for i, t in enumerate(tileset.types)
        )
        fits: list[tuple[tuple[int, ...], ...]] = []
        for code in range(256):
            mask = 0
            for s in range(4):
                if code >> (2 * s) & 3:
                    mask |= 3 << (2 * s)
            fits.append(
                tuple(
                    tuple(r for r in range(4) if rots[r].edges & mask == code) for rots in self.rot
                )
            )
        self.fits: tuple[tuple[tuple[int, ...], ...], ...] = tuple(fits)


@cache
def compile_tileset(tileset: TileSet) -> Compiled:
    """The (cached) look-up tables of a tile set."""
    return Compiled(tileset)


class Board:
    """A Carcassonne board with the start tile placed, and the players' scores and followers.

    A turn is :meth:`place` (or :meth:`place_at`), then optionally one :meth:`place_follower` on
    one of :meth:`follower_options`, then :meth:`score_turn`. :meth:`final_scoring` ends the game.
    Steps out of this order raise :class:`~tilelay.carcassonne.errors.TurnOrderError`.
    """

    __slots__ = (
        "_last",
        "_mon_count",
        "_monasteries",
        "_phase",
        "_slot_cache",
        "cities",
        "compiled",
        "done",
        "finished",
        "follower_log",
        "followers",
        "frontier",
        "grid",
        "kind",
        "meeples",
        "opens",
        "parent",
        "pennants",
        "placed",
        "rules",
        "scores",
        "tilemask",
        "tileset",
    )

    def __init__(
        self, tileset: TileSet | None = None, *, players: int = 2, rules: Rules | None = None
    ) -> None:
        self.tileset = tileset or base_tileset()
        self.compiled = compile_tileset(self.tileset)
        self.rules = rules or Rules()
        if players < 1:
            raise CarcassonneError("a game needs at least one player")
        self.scores = [0] * players
        self.meeples = [self.rules.followers] * players
        self.grid: dict[int, int] = {}
        #: (type index, rotation, position, first node) of every placed tile, in order.
        self.placed: list[tuple[int, int, int, int]] = []
        self.frontier: dict[int, int] = {}
        self.parent: list[int] = []
        self.kind: list[int] = []
        self.opens: list[int] = []
        self.tilemask: list[int] = []
        self.pennants: list[int] = []
        self.followers: list[tuple[tuple[int, int], ...]] = []
        self.cities: list[int] = []
        self.done: list[bool] = []
        #: (player, node, tile number, feature index) of every follower ever placed.
        self.follower_log: list[tuple[int, int, int, int]] = []
        self._monasteries: dict[int, int] = {}
        self._mon_count: dict[int, int] = {}
        self._last = -1
        self._slot_cache: dict[int, list[int]] = {}
        #: Where the turn is: TILE (a tile may be placed), FOLLOWER (the tile is placed, a
        #: follower may go on it), PLACED (a follower went on it); :meth:`score_turn` ends it.
        self._phase = TILE
        #: Whether :meth:`final_scoring` has been done.
        self.finished = False
        self.place(self.tileset.index(self.tileset.start), key_of(0, 0), 0)
        self._phase = TILE

    # --- copying ---------------------------------------------------------------------------

    def clone(self) -> Board:
        """An independent copy of the board (for players that look ahead)."""
        new = Board.__new__(Board)
        new.tileset = self.tileset
        new.compiled = self.compiled
        new.rules = self.rules
        for name in (
            "scores",
            "meeples",
            "placed",
            "parent",
            "kind",
            "opens",
            "tilemask",
            "pennants",
            "followers",
            "cities",
            "done",
            "follower_log",
        ):
            setattr(new, name, list(getattr(self, name)))
        new.grid = dict(self.grid)
        new.frontier = dict(self.frontier)
        new._monasteries = dict(self._monasteries)
        new._mon_count = dict(self._mon_count)
        new._last = self._last
        new._slot_cache = {}
        new._phase = self._phase
        new.finished = self.finished
        return new

    # --- placement ---------------------------------------------------------------------------

    def legal_keys(self, type_index: int) -> list[tuple[int, int]]:
        """Every legal ``(position, rotation)`` for a tile type (fast form)."""
        fits = self.compiled.fits
        return [(k, r) for k, code in self.frontier.items() for r in fits[code][type_index]]

    def legal_placements(self, name: str) -> list[Placement]:
        """Every legal placement of the tile type called ``name``."""
        out = []
        for k, r in self.legal_keys(self.tileset.index(name)):
            x, y = xy_of(k)
            out.append(Placement(x, y, r))
        return out

    def is_legal(self, type_index: int, key: int, rotation: int) -> bool:
        """Whether the tile may go at ``key`` turned ``rotation`` times."""
        code = self.frontier.get(key)
        return code is not None and rotation in self.compiled.fits[code][type_index]

    def place_at(self, name: str, x: int, y: int, rotation: int) -> int:
        """Place tile type ``name`` at ``(x, y)`` after checking it is legal; returns the tile
        number."""
        index = self.tileset.index(name)
        key = key_of(x, y)
        if not 0 <= rotation < 4:
            raise CarcassonneError(f"rotation {rotation}: expected 0, 1, 2 or 3")
        self._check_tile_turn()
        if not self.is_legal(index, key, rotation):
            raise IllegalMoveError(f"tile {name} cannot go at ({x}, {y}) turned {rotation}")
        return self.place(index, key, rotation)

    def _check_tile_turn(self) -> None:
        if self.finished:
            raise TurnOrderError("the game is over (final scoring is done)")
        if self._phase != TILE:
            raise TurnOrderError(
                f"tile {self._last} is placed but its turn is not scored: call score_turn() first"
            )

    def place(self, type_index: int, key: int, rotation: int) -> int:
        """Place a tile without checking that it fits (see :meth:`is_legal`); returns its
        number. Raises :class:`TurnOrderError` if the last turn is not scored yet."""
        if self._phase != TILE or self.finished:
            self._check_tile_turn()
        self._phase = FOLLOWER
        rt = self.compiled.rot[type_index][rotation]
        parent = self.parent
        base = len(parent)
        number = len(self.placed)
        bit = 1 << number
        n = len(rt.kinds)
        parent.extend(range(base, base + n))
        self.kind.extend(rt.kinds)
        self.opens.extend(rt.opens)
        self.tilemask.extend([bit] * n)
        self.pennants.extend(rt.pennants)
        self.followers.extend([()] * n)
        self.done.extend([False] * n)
        cities = self.cities
        for touches in rt.touches:
            mask = 0
            for t in touches:
                mask |= 1 << (base + t)
            cities.append(mask)
        grid = self.grid
        frontier = self.frontier
        placed = self.placed
        opens = self.opens
        edges = rt.edges
        compiled_rot = self.compiled.rot
        for s in range(4):
            nkey = key + DELTA[s]
            other = grid.get(nkey)
            if other is None:
                frontier[nkey] = frontier.get(nkey, 0) | (
                    (edges >> (2 * s) & 3) << (2 * ((s + 2) & 3))
                )
                continue
            ntype, nrot, _nkey, nbase = placed[other]
            nslots = compiled_rot[ntype][nrot].slots
            for local, nslot, is_edge in rt.conns[s]:
                root = self._union(base + local, nbase + nslots[nslot])
                if is_edge:
                    opens[root] -= 2
        frontier.pop(key, None)
        grid[key] = number
        placed.append((type_index, rotation, key, base))
        monasteries = self._monasteries
        if monasteries:
            counts = self._mon_count
            for d in AROUND:
                node = monasteries.get(key + d)
                if node is not None:
                    counts[node] += 1
        if rt.monastery >= 0:
            node = base + rt.monastery
            monasteries[key] = node
            self._mon_count[node] = 1 + sum(1 for d in AROUND if key + d in grid)
        self._last = number
        if self._slot_cache:
            self._slot_cache = {}
        return number

    def find(self, node: int) -> int:
        """The root node of a feature's region."""
        parent = self.parent
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    def _union(self, a: int, b: int) -> int:
        ra = self.find(a)
        rb = self.find(b)
        if ra == rb:
            return ra
        self.parent[ra] = rb
        self.opens[rb] += self.opens[ra]
        self.tilemask[rb] |= self.tilemask[ra]
        self.pennants[rb] += self.pennants[ra]
        if self.followers[ra]:
            self.followers[rb] = self.followers[rb] + self.followers[ra]
            self.followers[ra] = ()
        self.cities[rb] |= self.cities[ra]
        return rb

    # --- followers ---------------------------------------------------------------------------

    def free_features(self) -> list[int]:
        """Features (indices into the tile type's list) of the last placed tile whose region has
        no follower yet and is not scored, whatever the players' supplies and the turn."""
        _t, _r, _k, base = self.placed[self._last]
        followers = self.followers
        done = self.done
        find = self.find
        n = len(self.parent) - base
        out = []
        for i in range(n):
            root = find(base + i)
            if not followers[root] and not done[root]:
                out.append(i)
        return out

    def follower_options(self, player: int) -> list[int]:
        """Features of the last placed tile where ``player`` may put a follower now: none when
        the player has no follower left, or once a follower is placed or the turn scored."""
        if self.meeples[player] <= 0 or self._phase != FOLLOWER:
            return []
        return self.free_features()

    def _slot_roots(self, key: int) -> list[int]:
        """For an empty square: the region roots its 12 slots (4 sides, 8 half-edges) would
        join, or -1; cached until the next tile is placed."""
        cached = self._slot_cache.get(key)
        if cached is not None:
            return cached
        out = [-1] * 12
        grid = self.grid
        placed = self.placed
        rot = self.compiled.rot
        find = self.find
        for s in range(4):
            other = grid.get(key + DELTA[s])
            if other is None:
                continue
            ntype, nrot, _nkey, nbase = placed[other]
            nslots = rot[ntype][nrot].slots
            opposite = nslots[(s + 2) & 3]
            if opposite >= 0:
                out[s] = find(nbase + opposite)
            for h in (2 * s, 2 * s + 1):
                local = nslots[4 + OPPOSITE_HALF[h]]
                if local >= 0:
                    out[4 + h] = find(nbase + local)
        self._slot_cache[key] = out
        return out

    def free_features_if(self, type_index: int, key: int, rotation: int) -> list[int]:
        """What :meth:`free_features` would give after placing this tile here, without placing
        it."""
        rt = self.compiled.rot[type_index][rotation]
        n = len(rt.kinds)
        roots = self._slot_roots(key)
        followers = self.followers
        group = list(range(n))
        owner: dict[int, int] = {}
        busy: list[int] = []
        for j, local in enumerate(rt.slots):
            root = roots[j]
            if local < 0 or root < 0:
                continue
            first = owner.setdefault(root, local)
            if first != local:
                # two features of the new tile reach one region: they join through it
                a, b = group[first], group[local]
                while group[a] != a:
                    a = group[a]
                while group[b] != b:
                    b = group[b]
                group[b] = a
            if followers[root]:
                busy.append(local)
        if not busy:
            return list(range(n))
        bad = set()
        for local in busy:
            while group[local] != local:
                local = group[local]
            bad.add(local)
        out = []
        for i in range(n):
            g = i
            while group[g] != g:
                g = group[g]
            if g not in bad:
                out.append(i)
        return out

    def place_follower(self, player: int, feature: int) -> None:
        """Put a follower of ``player`` on feature ``feature`` of the last placed tile.

        Raises :class:`TurnOrderError` when this turn already placed a follower or is scored,
        and :class:`IllegalMoveError` when the feature is taken or the supply is empty."""
        if self._phase != FOLLOWER:
            if self._phase == PLACED:
                raise TurnOrderError(f"this turn already placed a follower on tile {self._last}")
            raise TurnOrderError(
                f"tile {self._last}'s turn is scored: a follower can only go on the tile just "
                "placed, before score_turn()"
            )
        if self.meeples[player] <= 0:
            raise IllegalMoveError(f"player {player + 1} has no follower left")
        if feature not in self.free_features():
            raise IllegalMoveError(f"feature {feature} of the last tile cannot take a follower")
        _t, _r, _k, base = self.placed[self._last]
        node = base + feature
        root = self.find(node)
        self.followers[root] = (*self.followers[root], (player, node))
        self.meeples[player] -= 1
        self.follower_log.append((player, node, self._last, feature))
        self._phase = PLACED

    # --- scoring -----------------------------------------------------------------------------

    def _winners(self, followers: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
        counts = [0] * len(self.scores)
        for player, _node in followers:
            counts[player] += 1
        best = max(counts)
        return tuple(p for p, c in enumerate(counts) if c == best) if best else ()

    def _give(
        self,
        kind: int,
        complete: bool,
        tiles: int,
        points: int,
        root: int,
        events: list[ScoreEvent],
    ) -> None:
        followers = self.followers[root]
        winners = self._winners(followers) if followers else ()
        for p in winners:
            self.scores[p] += points
        events.append(ScoreEvent(Kind(kind), complete, tiles, points, winners))

    def score_turn(self) -> list[ScoreEvent]:
        """Score the features the last placed tile completed (city, road, monastery) and give
        their followers back. Completed features without followers give an event with no
        players. Raises :class:`TurnOrderError` when the last turn is already scored."""
        if self._phase == TILE:
            raise TurnOrderError(
                "no tile placed since the last score_turn(): this turn is already scored"
            )
        self._phase = TILE
        events: list[ScoreEvent] = []
        _t, _r, key, base = self.placed[self._last]
        kinds = self.kind
        done = self.done
        opens = self.opens
        n = len(self.parent) - base
        for i in range(n):
            kind = kinds[base + i]
            if kind > ROAD:
                continue
            root = self.find(base + i)
            if done[root] or opens[root]:
                continue
            tiles = self.tilemask[root].bit_count()
            if kind == CITY:
                weight = 1 if tiles == 2 and self.rules.first_edition_small_city else 2
                points = weight * (tiles + self.pennants[root])
            else:
                points = tiles
            self._complete(kind, tiles, points, root, events)
        counts = self._mon_count
        if counts:
            for d in (0, *AROUND):
                node = self._monasteries.get(key + d)
                if node is not None and counts[node] == 9 and not done[node]:
                    self._complete(MONASTERY, 9, 9, node, events)
        return events

    def _complete(
        self, kind: int, tiles: int, points: int, root: int, events: list[ScoreEvent]
    ) -> None:
        self._give(kind, True, tiles, points, root, events)
        for player, _node in self.followers[root]:
            self.meeples[player] += 1
        self.followers[root] = ()
        self.done[root] = True

    def city_complete(self, node: int) -> bool:
        """Whether the city region of ``node`` is complete."""
        return self.opens[self.find(node)] == 0

    def final_scoring(self) -> list[ScoreEvent]:
        """Score every incomplete road, city and monastery, and the farms (end of the game).

        Raises :class:`TurnOrderError` when the end is already scored or the last turn is not."""
        if self.finished:
            raise TurnOrderError("the end of the game is already scored")
        if self._phase != TILE:
            self._check_tile_turn()
        self.finished = True
        events: list[ScoreEvent] = []
        parent = self.parent
        first = self.rules.farm_scoring is FarmScoring.FIRST_EDITION
        city_farmers: dict[int, list[tuple[int, int]]] = {}
        for node in range(len(parent)):
            if parent[node] != node or self.done[node]:
                continue
            kind = self.kind[node]
            if kind == FARM:
                if not self.followers[node]:
                    continue
                cities = self.farm_cities(node)
                complete = [c for c in cities if self.opens[c] == 0]
                if first:
                    for c in complete:
                        city_farmers.setdefault(c, []).extend(self.followers[node])
                else:
                    self._give(
                        FARM,
                        False,
                        self.tilemask[node].bit_count(),
                        3 * len(complete),
                        node,
                        events,
                    )
                continue
            if not self.followers[node]:
                continue
            tiles = self.tilemask[node].bit_count()
            if kind == MONASTERY:
                count = self._mon_count[node]
                self._give(MONASTERY, False, count, count, node, events)
            elif kind == CITY:
                self._give(CITY, False, tiles, tiles + self.pennants[node], node, events)
            else:
                self._give(ROAD, False, tiles, tiles, node, events)
        for c in sorted(city_farmers):
            winners = self._winners(tuple(city_farmers[c]))
            for p in winners:
                self.scores[p] += 4
            events.append(ScoreEvent(Kind.FARM, False, self.tilemask[c].bit_count(), 4, winners))
        return events

    def monastery_count(self, node: int) -> int:
        """How many of the 9 squares around (and under) a monastery hold tiles."""
        return self._mon_count[node]

    def farm_cities(self, node: int) -> list[int]:
        """The current roots of the cities a farm region touches, each once, sorted."""
        mask = self.cities[self.find(node)]
        out = set()
        while mask:
            low = mask & -mask
            out.add(self.find(low.bit_length() - 1))
            mask ^= low
        return sorted(out)

    # --- looking at the board ----------------------------------------------------------------

    def tile_at(self, x: int, y: int) -> tuple[str, int] | None:
        """The tile type name and rotation at ``(x, y)``, or ``None``."""
        number = self.grid.get(key_of(x, y))
        if number is None:
            return None
        t, r, _k, _b = self.placed[number]
        return self.tileset.types[t].name, r

    def placements_made(self) -> list[tuple[str, Placement]]:
        """Every placed tile in order: type name and placement."""
        out = []
        for t, r, k, _b in self.placed:
            x, y = xy_of(k)
            out.append((self.tileset.types[t].name, Placement(x, y, r)))
        return out

    def followers_on_board(self) -> list[tuple[int, int, int]]:
        """``(player, tile number, feature index)`` of every follower now on the board."""
        out = []
        parent = self.parent
        for root in range(len(parent)):
            if parent[root] != root:
                continue
            for player, node in self.followers[root]:
                number = self._tile_of_node(node)
                out.append((player, number, node - self.placed[number][3]))
        return sorted(out, key=lambda f: (f[1], f[2]))

    def _tile_of_node(self, node: int) -> int:
        lo, hi = 0, len(self.placed) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.placed[mid][3] <= node:
                lo = mid
            else:
                hi = mid - 1
        return lo

    @property
    def last_tile(self) -> int:
        """Number of the last placed tile."""
        return self._last
