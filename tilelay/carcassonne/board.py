"""The Carcassonne board: legal placements, followers, regions and scoring.

Everything is kept incrementally, so that a turn costs the same early and late in a game:

- positions are ints (``(y + 128) * 256 + (x + 128)``; ``y`` grows southwards), so the
  neighbour across side ``s`` is ``key + DELTA[s]``;
- the open frontier is a dict ``position -> required edge pattern``: 3 bits per side
  (0 = no neighbour there, else the :class:`~tilelay.carcassonne.tile.Edge` that must face it);
- which rotations of which tile type fit a pattern is a table computed once per tile set
  (:class:`Compiled`), so enumerating placements is one dict walk and one table look-up per spot;
- every feature of every placed tile is a node of a union-find (path halving) whose roots carry
  the region's open side count, tiles (an int bitmask of tile numbers, so a tile counts once
  even when a feature passes through it twice), pennants, followers and, for farms, the city
  nodes they touch (resolved to the cities' current roots only when scoring). A city or road is
  complete when its open side count reaches 0, which also closes road loops.

The River (the official rule): a river tile may only go at the river's open end
(:attr:`Board.river_end`), and a curve may not turn the same way as the river tile just before
it, if that was a curve too (no U-turn: two curves in a row never turn the same way); a straight
river tile between two curves lets the second turn either way. Placement legality still applies
to river tiles: every side must match what it touches, so the river can never run into a placed
tile or join itself (every river side but the open end's is matched already). A river tile that
fits nowhere (the open end hemmed in) is put aside like any other tile, the lake too.

The Abbot (``Rules(abbot=True)``): each player also has an abbot, who may go
on the monastery or garden of the tile just placed (gardens take nobody else), and instead of
placing a follower a player may take the abbot back, scoring its monastery or garden as at the
end of the game.

A turn's follower choice is an *action* int: :data:`NO_FOLLOWER`, a feature index (a follower),
``ABBOT + feature`` (the abbot) or :data:`RETURN_ABBOT`; :meth:`Board.actions` lists the legal
ones and :meth:`Board.act` does one.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from enum import Enum
from functools import cache

from tilelay.carcassonne.errors import CarcassonneError, IllegalMoveError, TurnOrderError
from tilelay.carcassonne.tile import OPPOSITE_HALF, Kind, TileType
from tilelay.carcassonne.tileset import TileSet, game_tileset
from tilelay.limits import shown

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
GARDEN = int(Kind.GARDEN)
RIVER = int(Kind.RIVER)

#: Follower actions: no follower; take the abbot back; ``ABBOT + i``: the abbot on feature i.
NO_FOLLOWER = -1
RETURN_ABBOT = -2
ABBOT = 64

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


#: The most followers a player may have: more than the tiles of any game (a player places
#: at most one a turn).
MAX_FOLLOWERS = 100


@dataclass(frozen=True, slots=True)
class Rules:
    """Rule options. The defaults are the 2nd/3rd edition base game."""

    followers: int = 7
    #: 1st edition: a completed city of only two tiles scores 1 per tile and pennant, not 2.
    first_edition_small_city: bool = False
    farm_scoring: FarmScoring = FarmScoring.THIRD_EDITION
    #: The River: its 12 tiles are placed first, from the spring (the start tile) to the lake.
    river: bool = False
    #: The Abbot: one abbot per player, for monasteries and gardens (the tiles with gardens).
    abbot: bool = False

    def to_dict(self) -> dict[str, object]:
        """The options as plain JSON values (see :meth:`from_dict`)."""
        return {
            "followers": self.followers,
            "first_edition_small_city": self.first_edition_small_city,
            "farm_scoring": self.farm_scoring.value,
            "river": self.river,
            "abbot": self.abbot,
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Rules:
        """Options from :meth:`to_dict`'s form; missing keys take their defaults."""
        unknown = set(data) - set(cls().to_dict())
        if unknown:
            raise CarcassonneError(f"rules: unknown option(s) {', '.join(sorted(unknown))}")
        followers = data.get("followers", 7)
        if (
            not isinstance(followers, int)
            or isinstance(followers, bool)
            or not 0 <= followers <= MAX_FOLLOWERS
        ):
            raise CarcassonneError(
                f"rules: followers must be a whole number from 0 to {MAX_FOLLOWERS} (a player "
                f"places at most one a turn), not {shown(followers)}"
            )
        flags = {}
        for name in ("first_edition_small_city", "river", "abbot"):
            value = data.get(name, False)
            if not isinstance(value, bool):
                raise CarcassonneError(f"rules: {name} must be true or false, not {value!r}")
            flags[name] = value
        farms = data.get("farm_scoring", FarmScoring.THIRD_EDITION.value)
        try:
            farm_scoring = FarmScoring(farms)
        except ValueError:
            raise CarcassonneError(
                f"rules: farm_scoring must be 'third' or 'first', not {farms!r}"
            ) from None
        return cls(
            followers,
            flags["first_edition_small_city"],
            farm_scoring,
            flags["river"],
            flags["abbot"],
        )


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
        "meeple_spots",
        "monastery",
        "opens",
        "pennants",
        "river",
        "slots",
        "standable",
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
        self.edges = sum(int(e) << (3 * s) for s, e in enumerate(edges))
        slots = [-1] * 12
        #: The monastery or garden feature, or -1.
        self.monastery = -1
        #: The river's sides (bitmask), 0 for no river.
        self.river = 0
        for i, f in enumerate(feats):
            if f.kind is Kind.RIVER:
                self.river = f.sides  # rivers join nothing: no slots
                continue
            for s in range(4):
                if f.sides >> s & 1:
                    slots[s] = i
            for h in range(8):
                if f.halves >> h & 1:
                    slots[4 + h] = i
            if f.kind in (Kind.MONASTERY, Kind.GARDEN):
                self.monastery = i
        #: Features a figure may stand on (all but the river).
        self.standable: tuple[int, ...] = tuple(
            i for i, f in enumerate(feats) if f.kind is not Kind.RIVER
        )
        #: Features a follower (not the abbot) may stand on (no river, no garden).
        self.meeple_spots: tuple[int, ...] = tuple(
            i for i, f in enumerate(feats) if f.kind not in (Kind.RIVER, Kind.GARDEN)
        )
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

    __slots__ = ("fits", "river_types", "rot", "tileset")

    def __init__(self, tileset: TileSet) -> None:
        self.tileset = tileset
        self.rot: tuple[tuple[RotTile, ...], ...] = tuple(
            tuple(RotTile(i, t, r) for r in range(4)) for i, t in enumerate(tileset.types)
        )
        #: Whether each tile type has a river.
        self.river_types: tuple[bool, ...] = tuple(bool(rots[0].river) for rots in self.rot)
        # only the edge values some tile has can be required of a spot
        used = sorted({rots[0].edges >> (3 * s) & 7 for rots in self.rot for s in range(4)})
        nobody: tuple[tuple[int, ...], ...] = tuple(() for _ in self.rot)
        fits: list[tuple[tuple[int, ...], ...]] = [nobody] * 4096
        for sides in itertools.product([0, *used], repeat=4):
            code = mask = 0
            for s, value in enumerate(sides):
                code |= value << (3 * s)
                if value:
                    mask |= 7 << (3 * s)
            fits[code] = tuple(
                tuple(r for r in range(4) if rots[r].edges & mask == code) for rots in self.rot
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
        "_river_in",
        "_river_turn",
        "_slot_cache",
        "abbot_at",
        "abbots",
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
        "river_end",
        "rules",
        "scores",
        "tilemask",
        "tileset",
    )

    def __init__(
        self, tileset: TileSet | None = None, *, players: int = 2, rules: Rules | None = None
    ) -> None:
        self.rules = rules or Rules()
        self.tileset = tileset or game_tileset(river=self.rules.river, abbot=self.rules.abbot)
        self.compiled = compile_tileset(self.tileset)
        if players < 1:
            raise CarcassonneError("a game needs at least one player")
        self.scores = [0] * players
        self.meeples = [self.rules.followers] * players
        #: Abbots in each player's supply (0 or 1) and where each one stands (node, or -1).
        self.abbots = [1 if self.rules.abbot else 0] * players
        self.abbot_at = [-1] * players
        #: The empty square where the river goes on (-1: no open river), the side of that
        #: square that faces the river, and how the last river tile turned it (-1 left, 1 right,
        #: 0 straight on, or none yet).
        self.river_end = -1
        self._river_in = -1
        self._river_turn = 0
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
            "abbots",
            "abbot_at",
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
        new.river_end = self.river_end
        new._river_in = self._river_in
        new._river_turn = self._river_turn
        return new

    # --- placement ---------------------------------------------------------------------------

    def legal_keys(self, type_index: int) -> list[tuple[int, int]]:
        """Every legal ``(position, rotation)`` for a tile type (fast form)."""
        fits = self.compiled.fits
        if self.compiled.river_types[type_index]:
            return self._river_keys(type_index)
        return [(k, r) for k, code in self.frontier.items() for r in fits[code][type_index]]

    def _river_turn_of(self, river: int) -> int:
        """How a river tile with sides ``river`` placed at the river's end turns it."""
        out = river & ~(1 << self._river_in)
        if not out:
            return 0  # the lake
        side = out.bit_length() - 1
        heading = (self._river_in + 2) & 3
        return 0 if side == heading else (1 if side == (heading + 1) & 3 else -1)

    def _river_keys(self, type_index: int) -> list[tuple[int, int]]:
        key = self.river_end
        code = self.frontier.get(key)
        if code is None:
            return []
        rots = self.compiled.rot[type_index]
        out = []
        for r in self.compiled.fits[code][type_index]:
            turn = self._river_turn_of(rots[r].river)
            if turn == 0 or turn != self._river_turn:
                out.append((key, r))
        return out

    def legal_placements(self, name: str) -> list[Placement]:
        """Every legal placement of the tile type called ``name``."""
        out = []
        for k, r in self.legal_keys(self.tileset.index(name)):
            x, y = xy_of(k)
            out.append(Placement(x, y, r))
        return out

    def is_legal(self, type_index: int, key: int, rotation: int) -> bool:
        """Whether the tile may go at ``key`` turned ``rotation`` times."""
        if self.compiled.river_types[type_index]:
            return (key, rotation) in self._river_keys(type_index)
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
                    (edges >> (3 * s) & 7) << (3 * ((s + 2) & 3))
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
        if rt.river:
            self._extend_river(key, rt.river)
        return number

    def _extend_river(self, key: int, river: int) -> None:
        if key == self.river_end:
            turn = self._river_turn_of(river)  # a straight tile resets it (the official rule)
            out = river & ~(1 << self._river_in)
        else:  # the spring
            turn = 0
            out = river
        if not out:  # the lake
            self.river_end = -1
            self._river_in = -1
            self._river_turn = 0
            return
        side = out.bit_length() - 1
        self.river_end = key + DELTA[side]
        self._river_in = (side + 2) & 3
        self._river_turn = turn

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
        t, r, _k, base = self.placed[self._last]
        followers = self.followers
        done = self.done
        find = self.find
        out = []
        for i in self.compiled.rot[t][r].standable:
            root = find(base + i)
            if not followers[root] and not done[root]:
                out.append(i)
        return out

    def follower_options(self, player: int) -> list[int]:
        """Features of the last placed tile where ``player`` may put a follower now: none when
        the player has no follower left, or once a follower is placed or the turn scored."""
        if self.meeples[player] <= 0 or self._phase != FOLLOWER:
            return []
        t, r, _k, base = self.placed[self._last]
        followers = self.followers
        done = self.done
        find = self.find
        out = []
        for i in self.compiled.rot[t][r].meeple_spots:
            root = find(base + i)
            if not followers[root] and not done[root]:
                out.append(i)
        return out

    def abbot_options(self, player: int) -> list[int]:
        """Features of the last placed tile (its monastery or garden) where ``player`` may put
        the abbot now."""
        if self.abbots[player] <= 0 or self._phase != FOLLOWER:
            return []
        rt = self.compiled.rot[self.placed[self._last][0]][self.placed[self._last][1]]
        if rt.monastery < 0:
            return []
        return [rt.monastery] if rt.monastery in self.free_features() else []

    def can_return_abbot(self, player: int) -> bool:
        """Whether ``player`` may take the abbot back now (instead of placing a follower)."""
        return self.abbot_at[player] >= 0 and self._phase == FOLLOWER

    def actions(self, player: int) -> list[int]:
        """Every legal follower action of ``player`` for the tile just placed: NO_FOLLOWER,
        feature indices, ``ABBOT + feature``, RETURN_ABBOT."""
        out = [NO_FOLLOWER, *self.follower_options(player)]
        if self.abbots[player] or self.abbot_at[player] >= 0:
            out.extend(ABBOT + i for i in self.abbot_options(player))
            if self.can_return_abbot(player):
                out.append(RETURN_ABBOT)
        return out

    def act(self, player: int, action: int) -> list[ScoreEvent]:
        """Do one follower action (see :meth:`actions`); returns the score of a returned
        abbot, if any."""
        if action == NO_FOLLOWER:
            if self._phase == TILE:
                self._check_follower_turn()
            return []
        if action == RETURN_ABBOT:
            return self.return_abbot(player)
        if action >= ABBOT:
            self.place_abbot(player, action - ABBOT)
        else:
            self.place_follower(player, action)
        return []

    def play(self, type_index: int, key: int, rotation: int, player: int, action: int) -> None:
        """A whole turn without checks (for players that search): place, act, score."""
        self.place(type_index, key, rotation)
        if action != NO_FOLLOWER:
            self.act(player, action)
        self.score_turn()

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
            return list(rt.standable)
        bad = set()
        for local in busy:
            while group[local] != local:
                local = group[local]
            bad.add(local)
        out = []
        for i in rt.standable:
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
            self._check_follower_turn()
        if self.meeples[player] <= 0:
            raise IllegalMoveError(f"player {player + 1} has no follower left")
        if feature not in self.follower_options(player):
            raise IllegalMoveError(f"feature {feature} of the last tile cannot take a follower")
        _t, _r, _k, base = self.placed[self._last]
        node = base + feature
        root = self.find(node)
        self.followers[root] = (*self.followers[root], (player, node))
        self.meeples[player] -= 1
        self.follower_log.append((player, node, self._last, feature))
        self._phase = PLACED

    def _check_follower_turn(self) -> None:
        if self._phase == PLACED:
            raise TurnOrderError(f"this turn already placed a follower on tile {self._last}")
        if self._phase == TILE:
            raise TurnOrderError(
                f"tile {self._last}'s turn is scored: a follower can only go on the tile just "
                "placed, before score_turn()"
            )

    def place_abbot(self, player: int, feature: int) -> None:
        """Put ``player``'s abbot on the monastery or garden ``feature`` of the last tile."""
        if self._phase != FOLLOWER:
            self._check_follower_turn()
        if not self.rules.abbot:
            raise IllegalMoveError("this game is played without the Abbot")
        if self.abbots[player] <= 0:
            raise IllegalMoveError(f"player {player + 1}'s abbot is on the board already")
        if feature not in self.abbot_options(player):
            raise IllegalMoveError(
                f"feature {feature} of the last tile cannot take the abbot "
                "(only a free monastery or garden can)"
            )
        node = self.placed[self._last][3] + feature
        self.followers[node] = ((player, node),)
        self.abbots[player] -= 1
        self.abbot_at[player] = node
        self.follower_log.append((player, node, self._last, feature))
        self._phase = PLACED

    def return_abbot(self, player: int) -> list[ScoreEvent]:
        """Instead of placing a follower this turn, take ``player``'s abbot back and score its
        monastery or garden as at the end of the game (1 point per tile in its 3 x 3 square)."""
        if self._phase != FOLLOWER:
            self._check_follower_turn()
        node = self.abbot_at[player]
        if node < 0:
            raise IllegalMoveError(f"player {player + 1}'s abbot is not on the board")
        events: list[ScoreEvent] = []
        count = self._mon_count[node]
        self._give(self.kind[node], False, count, count, node, events)
        self.followers[node] = ()
        self.abbot_at[player] = -1
        self.abbots[player] += 1
        self._phase = PLACED
        return events

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
                    self._complete(kinds[node], 9, 9, node, events)
        return events

    def _complete(
        self, kind: int, tiles: int, points: int, root: int, events: list[ScoreEvent]
    ) -> None:
        self._give(kind, True, tiles, points, root, events)
        for player, node in self.followers[root]:
            if self.abbot_at[player] == node:
                self.abbot_at[player] = -1
                self.abbots[player] += 1
            else:
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
            if kind in (MONASTERY, GARDEN):
                count = self._mon_count[node]
                self._give(kind, False, count, count, node, events)
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
        """How many of the 9 squares around (and under) a monastery or garden hold tiles."""
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

    def abbots_on_board(self) -> list[tuple[int, int, int]]:
        """``(player, tile number, feature index)`` of every abbot on the board (they are in
        :meth:`followers_on_board` too)."""
        out = []
        for player, node in enumerate(self.abbot_at):
            if node >= 0:
                number = self._tile_of_node(node)
                out.append((player, number, node - self.placed[number][3]))
        return out

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
