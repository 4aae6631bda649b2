"""Carcassonne tiles: the feature model, rotations, and the seed's quadrant form.

The model
=========

A tile is a list of :class:`Feature` s ("segments"). Sides are numbered clockwise from the top,
``N=0, E=1, S=2, W=3``, and each side is split into two *half-edges* (for farms), numbered
clockwise from the north-west corner::

          Nw(0)  Ne(1)
        +------+------+
  Wn(7) |             | En(2)
        +             +
  Ws(6) |             | Es(3)
        +------+------+
          Sw(5)  Se(4)

- ``city``: a set of sides (bitmask), with a number of pennants. Two separate caps on one tile
  are two city features.
- ``road``: a set of sides. A road leg that ends at a junction, a city or a monastery is a
  feature of its own with one side; a road that runs through the tile has two sides.
- ``monastery``: no sides; it is completed by the 8 tiles around it.
- ``garden`` (3rd edition, for the Abbot): like a monastery, but only an abbot may stand on it.
- ``river`` (the River): a set of sides (one for the spring and the lake, two otherwise). A river
  side must face a river side; the river is no feature to score or stand on, and it splits the
  farms on its banks like a road.
- ``farm``: a set of half-edges, and the city features of the same tile it touches
  (explicit farm-to-city adjacency, so that expansion tiles with two farms in one corner or
  farms touching no edge fit later).

Rotating a tile by ``r`` quarter turns clockwise maps side ``s`` to ``(s + r) % 4`` and half-edge
``h`` to ``(h + 2 r) % 8``; both are bit rotations of the masks.

Text format (used in ``data/*.toml``)
------------------------------------

One string per feature::

    city N E pennant        # sides, optional "pennant" (or "pennants=2")
    road E W
    monastery
    garden
    river W E
    farm Nw Ne En touches=0 # half-edges; touches= lists indices (from 0) of city features

The seed's form
===============

Seed 004 describes a tile as a 3 x 3 table: the four sides are ``Fc`` (fort/city cap: this city
side is a city of its own on the tile), ``Fi`` (fort internal: the city continues through the
tile to the other ``Fi`` sides), ``R`` (road) or ``N`` (nothing); the centre is ``M``
(monastery), ``R`` (the road sides join through the centre) or ``N``; the four corners are
quadrant farm numbers (one number is one farm), and a "wall" is drawn on every side that cuts
farmland (the city sides). The text we read and write is the table and a walls line::

    0 Fc 0
    N R R
    0 R 1
    walls: N

It maps onto the model like this (:func:`from_seed`): all ``Fi`` sides form one city, each ``Fc``
side is a city of its own; with centre ``R`` all road sides are one road, otherwise each road
side is a road leg of its own; centre ``M`` adds a monastery. The quadrant of a corner covers the
two half-edges next to it (NW: ``Wn`` and ``Nw``; NE: ``Ne`` and ``En``; SE: ``Es`` and ``Se``;
SW: ``Sw`` and ``Ws``); half-edges on walled sides belong to no farm. A farm touches the city on
a walled side when a quadrant with its number lies next to that side. A farm number with no
half-edges left (e.g. on the all-city tile) is no farm. The walls must be exactly the city sides,
and two quadrants on either side of an ``N`` side must have the same number.

Extension for the River and the Abbot (the seed's quadrants cannot say these): a side may be
``Rv`` (river: all river sides of a tile are one river; like a road side it has no wall and the
quadrants on its two banks may be different farms), and the centre may be ``G`` (a garden) or
``RG`` (the road sides join through the centre, and a garden beside it). For example the river
curve with a garden (river W and S) is::

    0 N 0
    Rv G N
    1 Rv 0
    walls: none

The seed form holds no pennants, and cannot say everything the model can (two separate roads
through one tile, two cities that are not caps, farms in a corner cut in two, a monastery and a
garden on one tile), so :func:`to_seed` raises
:class:`~tilelay.carcassonne.errors.CarcassonneError` for such tiles. For the base game, the
River and the gardens it loses nothing but the pennants. Note that the seed's first example
(``0 Fc 1 / N R R / 1 R 1``) is inconsistent with itself: the ``W`` side is open field, so the NW
and SW quadrants are one farm and cannot be numbered 0 and 1; :func:`from_seed` rejects it, and
that tile (a cap with a curved road) is ``0 Fc 0 / N R R / 0 R 1`` in this form.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from enum import IntEnum

from tilelay.carcassonne.errors import CarcassonneError
from tilelay.limits import whole

SIDE_NAMES: tuple[str, ...] = ("N", "E", "S", "W")
HALF_NAMES: tuple[str, ...] = ("Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn")
_SIDE_INDEX = {name: i for i, name in enumerate(SIDE_NAMES)}
_HALF_INDEX = {name.lower(): i for i, name in enumerate(HALF_NAMES)}

#: The half-edge of the neighbouring tile that touches half-edge ``h`` (across its side).
OPPOSITE_HALF: tuple[int, ...] = (5, 4, 7, 6, 1, 0, 3, 2)
#: Corner quadrants in the seed's reading order: NW, NE, SW, SE, each with its two half-edges
#: and its two sides.
QUADRANTS: tuple[tuple[str, tuple[int, int], tuple[int, int]], ...] = (
    ("NW", (7, 0), (3, 0)),
    ("NE", (1, 2), (0, 1)),
    ("SW", (5, 6), (2, 3)),
    ("SE", (3, 4), (1, 2)),
)


class Kind(IntEnum):
    """What a feature is."""

    CITY = 0
    ROAD = 1
    MONASTERY = 2
    FARM = 3
    GARDEN = 4
    RIVER = 5


class Edge(IntEnum):
    """What lies on a side of a tile; the values are the 3-bit codes of packed edge patterns
    (0 is "no tile there")."""

    CITY = 1
    ROAD = 2
    FIELD = 3
    RIVER = 4


#: The edge each kind of feature puts on its sides.
EDGE_OF_KIND: dict[Kind, Edge] = {
    Kind.CITY: Edge.CITY,
    Kind.ROAD: Edge.ROAD,
    Kind.RIVER: Edge.RIVER,
}
#: Kinds of features that are on sides (the others have none).
SIDED = (Kind.CITY, Kind.ROAD, Kind.RIVER)
#: Kinds of features in the middle of a tile, scored by the 8 tiles around them.
CENTRED = (Kind.MONASTERY, Kind.GARDEN)


def rotate_mask(mask: int, steps: int, width: int) -> int:
    """Rotate the low ``width`` bits of ``mask`` left by ``steps`` (mod ``width``)."""
    steps %= width
    full = (1 << width) - 1
    return ((mask << steps) | (mask >> (width - steps))) & full


def _bits(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


@dataclass(frozen=True, slots=True)
class Feature:
    """One feature (segment) of a tile.

    ``sides`` is a bitmask of sides (bit ``s`` for side ``s``; cities and roads), ``halves`` a
    bitmask of half-edges (farms), ``pennants`` the number of pennants (cities) and ``touches``
    the indices, in the tile's feature list, of the cities a farm borders.
    """

    kind: Kind
    sides: int = 0
    halves: int = 0
    pennants: int = 0
    touches: tuple[int, ...] = ()

    def rotated(self, steps: int) -> Feature:
        """This feature turned ``steps`` quarter turns clockwise."""
        return Feature(
            self.kind,
            rotate_mask(self.sides, steps, 4),
            rotate_mask(self.halves, 2 * steps, 8),
            self.pennants,
            self.touches,
        )

    def text(self) -> str:
        """The feature in the text format, e.g. ``city N E pennant``."""
        words = [self.kind.name.lower()]
        if self.kind in SIDED:
            words += [SIDE_NAMES[s] for s in _bits(self.sides)]
        if self.kind is Kind.FARM:
            words += [HALF_NAMES[h] for h in _bits(self.halves)]
            if self.touches:
                words.append("touches=" + ",".join(str(t) for t in self.touches))
        if self.pennants == 1:
            words.append("pennant")
        elif self.pennants > 1:
            words.append(f"pennants={self.pennants}")
        return " ".join(words)


_FEATURE_WORD = re.compile(r"\S+")


def parse_feature(text: str, *, source: str | None = None, line: int | None = None) -> Feature:
    """Parse one feature string of the text format (see the module docstring)."""
    words = _FEATURE_WORD.findall(text)
    if not words:
        raise CarcassonneError(
            "empty feature (expected e.g. 'city N pennant')", source=source, line=line
        )
    head = words[0].lower()
    kinds = {k.name.lower(): k for k in Kind}
    if head not in kinds:
        raise CarcassonneError(
            f"feature {text!r}: unknown kind {words[0]!r} "
            "(expected city, road, monastery, farm, garden or river)",
            source=source,
            line=line,
        )
    kind = kinds[head]
    sides = halves = pennants = 0
    touches: list[int] = []
    for word in words[1:]:
        low = word.lower()
        if kind in SIDED and word.upper() in _SIDE_INDEX and len(word) == 1:
            bit = 1 << _SIDE_INDEX[word.upper()]
            if sides & bit:
                raise CarcassonneError(
                    f"feature {text!r}: side {word} given twice", source=source, line=line
                )
            sides |= bit
        elif kind is Kind.FARM and low in _HALF_INDEX:
            bit = 1 << _HALF_INDEX[low]
            if halves & bit:
                raise CarcassonneError(
                    f"feature {text!r}: half-edge {word} given twice", source=source, line=line
                )
            halves |= bit
        elif kind is Kind.CITY and low == "pennant":
            pennants += 1
        elif kind is Kind.CITY and low.startswith("pennants="):
            value = whole(low.partition("=")[2], 0, 99)
            if value is None:
                raise CarcassonneError(
                    f"feature {text!r}: pennants= needs a number 0-99", source=source, line=line
                )
            pennants += value
        elif kind is Kind.FARM and low.startswith("touches="):
            for part in low.partition("=")[2].split(","):
                number = whole(part, 0, 99) if part.isdigit() else None
                if number is None:
                    raise CarcassonneError(
                        f"feature {text!r}: touches= needs feature numbers like 0,2",
                        source=source,
                        line=line,
                    )
                touches.append(number)
        else:
            expected = {
                Kind.CITY: "a side N, E, S, W, 'pennant' or 'pennants=K'",
                Kind.ROAD: "a side N, E, S or W",
                Kind.RIVER: "a side N, E, S or W",
                Kind.MONASTERY: "nothing",
                Kind.GARDEN: "nothing",
                Kind.FARM: "a half-edge " + ", ".join(HALF_NAMES) + " or 'touches=K,...'",
            }[kind]
            raise CarcassonneError(
                f"feature {text!r}: unexpected {word!r} (expected {expected})",
                source=source,
                line=line,
            )
    if kind in SIDED and not sides:
        raise CarcassonneError(
            f"feature {text!r}: a {head} needs at least one side", source=source, line=line
        )
    if kind is Kind.FARM and not halves:
        raise CarcassonneError(
            f"feature {text!r}: a farm needs at least one half-edge", source=source, line=line
        )
    return Feature(kind, sides, halves, pennants, tuple(touches))


@dataclass(frozen=True, slots=True)
class TileType:
    """A kind of tile: a name (``A``..``X`` in the base game), its features, how many there
    are in a set and a short description."""

    name: str
    features: tuple[Feature, ...]
    count: int = 1
    about: str = ""

    def __post_init__(self) -> None:
        check_features(self.name, self.features)

    def edges(self, rotation: int = 0) -> tuple[Edge, Edge, Edge, Edge]:
        """What lies on sides N, E, S, W after turning the tile ``rotation`` times clockwise."""
        out = [Edge.FIELD] * 4
        for feature in self.features:
            kind = EDGE_OF_KIND.get(feature.kind)
            if kind is None:
                continue
            for s in _bits(rotate_mask(feature.sides, rotation, 4)):
                out[s] = kind
        return (out[0], out[1], out[2], out[3])

    def rotated_features(self, rotation: int) -> tuple[Feature, ...]:
        """The features after turning the tile ``rotation`` times clockwise."""
        return tuple(f.rotated(rotation) for f in self.features)

    @property
    def pennants(self) -> int:
        """Number of pennants on the tile."""
        return sum(f.pennants for f in self.features)

    @property
    def has_monastery(self) -> bool:
        """Whether the tile has a monastery."""
        return any(f.kind is Kind.MONASTERY for f in self.features)

    @property
    def has_garden(self) -> bool:
        """Whether the tile has a garden."""
        return any(f.kind is Kind.GARDEN for f in self.features)

    @property
    def river_sides(self) -> int:
        """The sides (bitmask, unrotated) of the tile's river; 0 for a tile without one."""
        return sum(f.sides for f in self.features if f.kind is Kind.RIVER)

    def kinds(self, kind: Kind) -> list[Feature]:
        """The features of one kind, in order."""
        return [f for f in self.features if f.kind is kind]


def check_features(name: str, features: tuple[Feature, ...]) -> None:
    """Raise :class:`CarcassonneError` unless ``features`` make a consistent tile."""
    side_used = 0
    half_used = 0
    road_sides = 0
    city_sides = 0
    monasteries = 0
    rivers = 0
    for i, f in enumerate(features):
        if f.sides & side_used:
            raise CarcassonneError(f"tile {name}: feature {i} ({f.text()}) reuses a side")
        side_used |= f.sides
        if f.kind is Kind.ROAD:
            road_sides |= f.sides
        if f.kind is Kind.CITY:
            city_sides |= f.sides
        if f.kind in CENTRED:
            monasteries += 1
        if f.kind is Kind.RIVER:
            rivers += 1
        if f.halves & half_used:
            raise CarcassonneError(f"tile {name}: feature {i} ({f.text()}) reuses a half-edge")
        half_used |= f.halves
        for t in f.touches:
            if not 0 <= t < len(features) or features[t].kind is not Kind.CITY:
                raise CarcassonneError(
                    f"tile {name}: feature {i} ({f.text()}) touches feature {t}, "
                    "which is not a city of this tile"
                )
    if monasteries > 1:
        raise CarcassonneError(f"tile {name}: more than one monastery or garden")
    if rivers > 1:
        raise CarcassonneError(f"tile {name}: more than one river")
    for s in range(4):
        halves = 0b11 << (2 * s)
        if city_sides >> s & 1:
            if half_used & halves:
                raise CarcassonneError(
                    f"tile {name}: side {SIDE_NAMES[s]} is a city but has farm half-edges"
                )
        elif half_used & halves != halves:
            raise CarcassonneError(
                f"tile {name}: side {SIDE_NAMES[s]} is not a city, so both its half-edges "
                f"({HALF_NAMES[2 * s]}, {HALF_NAMES[2 * s + 1]}) need a farm"
            )


# --- the seed's form ---------------------------------------------------------------------------

_SEED_SIDES = ("Fc", "Fi", "R", "N", "Rv")
_SEED_CENTRES = ("M", "R", "N", "G", "RG")


@dataclass(frozen=True, slots=True)
class SeedForm:
    """A tile in seed 004's form: side codes (N, E, S, W), centre code, quadrant farm numbers
    (NW, NE, SW, SE) and walls (N, E, S, W)."""

    sides: tuple[str, str, str, str]
    centre: str
    quadrants: tuple[int, int, int, int]
    walls: tuple[bool, bool, bool, bool]

    def text(self) -> str:
        """The canonical text: three table rows and a walls line."""
        n, e, s, w = self.sides
        nw, ne, sw, se = self.quadrants
        walls = " ".join(SIDE_NAMES[i] for i in range(4) if self.walls[i]) or "none"
        return f"{nw} {n} {ne}\n{w} {self.centre} {e}\n{sw} {s} {se}\nwalls: {walls}\n"


def parse_seed(text: str, *, source: str | None = None) -> SeedForm:
    """Read the seed's text form (see the module docstring)."""
    lines = [(i + 1, ln.strip()) for i, ln in enumerate(text.splitlines()) if ln.strip()]
    if len(lines) != 4:
        raise CarcassonneError(
            f"expected 3 table rows and a 'walls:' line, found {len(lines)} non-empty lines",
            source=source,
        )
    rows: list[list[str]] = []
    for lineno, ln in lines[:3]:
        cells = ln.split()
        if len(cells) != 3:
            raise CarcassonneError(
                f"expected 3 cells in a table row, found {len(cells)}", source=source, line=lineno
            )
        rows.append(cells)
    lineno, walls_line = lines[3]
    if not walls_line.lower().startswith("walls:"):
        raise CarcassonneError(
            "expected 'walls: N E ...' or 'walls: none'", source=source, line=lineno
        )
    walls = [False] * 4
    for word in walls_line[6:].split():
        if word.lower() == "none":
            continue
        if word.upper() not in _SIDE_INDEX:
            raise CarcassonneError(
                f"walls: unknown side {word!r} (expected N, E, S, W, none)",
                source=source,
                line=lineno,
            )
        walls[_SIDE_INDEX[word.upper()]] = True
    side_cells = (rows[0][1], rows[1][2], rows[2][1], rows[1][0])
    side_lines = (lines[0][0], lines[1][0], lines[2][0], lines[1][0])
    for cell, ln_no in zip(side_cells, side_lines, strict=True):
        if cell not in _SEED_SIDES:
            raise CarcassonneError(
                f"side {cell!r}: expected Fc, Fi, R, N or Rv", source=source, line=ln_no
            )
    if rows[1][1] not in _SEED_CENTRES:
        raise CarcassonneError(
            f"centre {rows[1][1]!r}: expected M, R, N, G or RG", source=source, line=lines[1][0]
        )
    quads: list[int] = []
    for cell, ln_no in (
        (rows[0][0], lines[0][0]),
        (rows[0][2], lines[0][0]),
        (rows[2][0], lines[2][0]),
        (rows[2][2], lines[2][0]),
    ):
        number = whole(cell, 0, 99) if cell.isdigit() else None
        if number is None:
            raise CarcassonneError(
                f"corner {cell!r}: expected a farm number", source=source, line=ln_no
            )
        quads.append(number)
    return SeedForm(
        (side_cells[0], side_cells[1], side_cells[2], side_cells[3]),
        rows[1][1],
        (quads[0], quads[1], quads[2], quads[3]),
        (walls[0], walls[1], walls[2], walls[3]),
    )


def from_seed(form: SeedForm, name: str = "?", count: int = 1) -> TileType:
    """Build the model of a tile given in the seed's form (see the module docstring)."""
    is_city = [code in ("Fc", "Fi") for code in form.sides]
    for s in range(4):
        if form.walls[s] != is_city[s]:
            raise CarcassonneError(
                f"tile {name}: side {SIDE_NAMES[s]} is {form.sides[s]} so it "
                f"{'needs' if is_city[s] else 'cannot have'} a wall"
            )
    # quadrants on both sides of an open (N) side must be the same farm
    quad_of = {q[0]: form.quadrants[i] for i, q in enumerate(QUADRANTS)}
    pairs = {0: ("NW", "NE"), 1: ("NE", "SE"), 2: ("SW", "SE"), 3: ("NW", "SW")}
    for s, (qa, qb) in pairs.items():
        if form.sides[s] == "N" and quad_of[qa] != quad_of[qb]:
            raise CarcassonneError(
                f"tile {name}: side {SIDE_NAMES[s]} is open field, so quadrants {qa} and {qb} "
                f"are one farm, but they are numbered {quad_of[qa]} and {quad_of[qb]}"
            )
    features: list[Feature] = []
    city_of_side: dict[int, int] = {}
    internal = sum(1 << s for s in range(4) if form.sides[s] == "Fi")
    for s in range(4):
        if form.sides[s] == "Fc":
            city_of_side[s] = len(features)
            features.append(Feature(Kind.CITY, 1 << s))
        elif form.sides[s] == "Fi" and internal:
            index = len(features)
            features.append(Feature(Kind.CITY, internal))
            for t in _bits(internal):
                city_of_side[t] = index
            internal = 0
    road_sides = [s for s in range(4) if form.sides[s] == "R"]
    if form.centre in ("R", "RG"):
        if len(road_sides) < 2:
            raise CarcassonneError(
                f"tile {name}: centre {form.centre} needs at least two road sides"
            )
        features.append(Feature(Kind.ROAD, sum(1 << s for s in road_sides)))
    else:
        features.extend(Feature(Kind.ROAD, 1 << s) for s in road_sides)
    river = sum(1 << s for s in range(4) if form.sides[s] == "Rv")
    if river:
        features.append(Feature(Kind.RIVER, river))
    if form.centre == "M":
        features.append(Feature(Kind.MONASTERY))
    if form.centre in ("G", "RG"):
        features.append(Feature(Kind.GARDEN))
    farms: dict[int, tuple[int, set[int]]] = {}
    order: list[int] = []
    for i, (_qname, halves, qsides) in enumerate(QUADRANTS):
        number = form.quadrants[i]
        if number not in farms:
            farms[number] = (0, set())
            order.append(number)
        mask, touches = farms[number]
        for h in halves:
            if not is_city[h // 2]:
                mask |= 1 << h
        for s in qsides:
            if is_city[s]:
                touches.add(city_of_side[s])
        farms[number] = (mask, touches)
    for number in order:
        mask, touches = farms[number]
        if mask:
            features.append(Feature(Kind.FARM, halves=mask, touches=tuple(sorted(touches))))
    return TileType(name, tuple(features), count)


def to_seed(tile: TileType) -> SeedForm:
    """The seed's form of a tile; raises :class:`CarcassonneError` if it cannot be said there.

    Pennants are dropped (the seed's form has none). Farms are numbered in reading order.
    """
    sides = ["N", "N", "N", "N"]
    cities = tile.kinds(Kind.CITY)
    multi = [c for c in cities if c.sides.bit_count() > 1]
    if len(multi) > 1:
        raise CarcassonneError(f"tile {tile.name}: two multi-side cities have no seed form")
    for c in cities:
        code = "Fi" if c.sides.bit_count() > 1 else "Fc"
        for s in _bits(c.sides):
            sides[s] = code
    roads = tile.kinds(Kind.ROAD)
    centre = "N"
    if any(r.sides.bit_count() > 1 for r in roads):
        if len(roads) != 1:
            raise CarcassonneError(
                f"tile {tile.name}: a through road and another road have no seed form"
            )
        centre = "R"
    for r in roads:
        for s in _bits(r.sides):
            sides[s] = "R"
    for s in _bits(tile.river_sides):
        sides[s] = "Rv"
    if tile.has_monastery:
        if centre == "R":
            raise CarcassonneError(
                f"tile {tile.name}: a monastery on a through road has no seed form"
            )
        centre = "M"
    if tile.has_garden:
        centre = "RG" if centre == "R" else "G"
    farm_of_half = {}
    farm_list = tile.kinds(Kind.FARM)
    for i, farm in enumerate(farm_list):
        for h in _bits(farm.halves):
            farm_of_half[h] = i
    walls = tuple(s == "Fc" or s == "Fi" for s in sides)
    quad_farm: list[int | None] = []
    for _qname, halves, _qsides in QUADRANTS:
        found = {farm_of_half[h] for h in halves if h in farm_of_half}
        if len(found) > 1:
            raise CarcassonneError(f"tile {tile.name}: a corner holds two farms; no seed form")
        quad_farm.append(found.pop() if found else None)
    # a corner covered by city on both sides takes the farm of a neighbouring corner
    neighbours = {0: (1, 2), 1: (0, 3), 2: (0, 3), 3: (1, 2)}
    candidates: list[list[int | None]] = []
    for q in range(4):
        if quad_farm[q] is not None:
            candidates.append([quad_farm[q]])
        else:
            near = [quad_farm[n] for n in neighbours[q] if quad_farm[n] is not None]
            options: list[int | None] = list(dict.fromkeys(near)) or [None]
            options += [i for i in range(len(farm_list)) if i not in options]
            candidates.append(options)
    plain = _without_pennants(tile)
    for combo in itertools.product(*candidates):
        numbers: dict[int | None, int] = {}
        quads = []
        for choice in combo:
            if choice not in numbers:
                numbers[choice] = len(numbers)
            quads.append(numbers[choice])
        form = SeedForm(
            (sides[0], sides[1], sides[2], sides[3]),
            centre,
            (quads[0], quads[1], quads[2], quads[3]),
            (walls[0], walls[1], walls[2], walls[3]),
        )
        try:
            back = from_seed(form, tile.name, tile.count)
        except CarcassonneError:
            continue
        if same_tile(back, plain):
            return form
    raise CarcassonneError(f"tile {tile.name}: its farms cannot be said in the seed's form")


def _without_pennants(tile: TileType) -> TileType:
    return TileType(
        tile.name,
        tuple(Feature(f.kind, f.sides, f.halves, 0, f.touches) for f in tile.features),
        tile.count,
    )


def _canonical(tile: TileType) -> frozenset[tuple[int, int, int, int, frozenset[tuple[int, int]]]]:
    """Features compared without regard to their order (farm links by the cities' sides)."""
    out = set()
    for f in tile.features:
        links = frozenset((tile.features[t].sides, 0) for t in f.touches)
        out.add((int(f.kind), f.sides, f.halves, f.pennants, links))
    return frozenset(out)


def same_tile(a: TileType, b: TileType) -> bool:
    """Whether two tiles have the same features (in any order), ignoring names and counts."""
    return len(a.features) == len(b.features) and _canonical(a) == _canonical(b)
