"""The tile model.

A :class:`Tile` is immutable: its colour, its nodes (cities, towns, offboards, junctions; halts
and mountain passes are kinds of town and city, as in the engine), the paths (track) between
edges and nodes, track stubs, labels and a future label, terrain upgrades, borders, partitions,
icons, a frame and a stripe. Every format tilelay reads (the 18xx.games tile language, seed
000's XML, the Rails dialect) becomes this model, and the renderer, the router and the upgrade
rules all work on it.

Edges and rotation follow :mod:`tilelay.hexgeo`: :meth:`Tile.rotated` turns a tile clockwise and
returns a new tile whose edges, locs, stubs, borders and partitions have moved.

Every class checks what it is given: a value of the wrong type raises :class:`TileTypeError`
(a :class:`TypeError` as well as a :class:`~tilelay.errors.TileModelError`), a value no format
can mean (an edge 7, a negative slot count, a colour that is none) a
:class:`~tilelay.errors.TileModelError` (a :class:`ValueError`). The limits on input (at most
12 slots, amounts up to a million, texts without control characters…) are checked apart, by
:func:`check_limits`, which every reader and writer calls.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import NoReturn

from tilelay import limits
from tilelay.errors import TileModelError, TileSyntaxError
from tilelay.hexgeo import Loc, rotate_edge


class TileTypeError(TileModelError, TypeError):
    """A value of the wrong type given to the tile model (``Edge("a")``, ``Node("city")``, a
    tile name where a :class:`Tile` is expected); a :class:`TypeError` too."""


def _type_error(what: str, expected: str, value: object) -> TileTypeError:
    return TileTypeError(f"{what} must be {expected}, not {_kind_of(value)}")


def _kind_of(value: object) -> str:
    """``value`` in a message: its type and, for a plain value, itself (``str 'city'``)."""
    if value is None or isinstance(value, bool | int | float | str):
        return f"{type(value).__name__} {limits.shown(value)}"
    return f"a {type(value).__name__}"


class _ModelEnum(StrEnum):
    """An enumeration of the model whose unknown values raise
    :class:`~tilelay.errors.TileModelError` (a :class:`ValueError`) naming the values known."""

    @classmethod
    def _missing_(cls, value: object) -> NoReturn:
        what = _ENUM_WORDS.get(cls.__name__, cls.__name__)
        known = ", ".join(m.value for m in cls)
        raise TileModelError(f"{limits.shown(value)} is not a {what}: expected one of {known}")


class Color(_ModelEnum):
    """Tile and hex colours."""

    WHITE = "white"
    YELLOW = "yellow"
    GREEN = "green"
    BROWN = "brown"
    GRAY = "gray"
    SEPIA = "sepia"
    RED = "red"
    BLUE = "blue"
    PURPLE = "purple"
    ORANGE = "orange"
    GRAY60 = "gray60"
    GRAY50 = "gray50"
    GRAY40 = "gray40"
    SALMON = "salmon"
    PINK = "pink"
    NAVY = "navy"
    #: No hex at all: the engine keeps an empty hex's place on the grid (18MS) and draws nothing.
    EMPTY = "empty"

    @classmethod
    def parse(cls, text: str) -> tuple[Color, Color | None]:
        """A colour name, or a two-colour name such as ``greenbrown`` (colour + stripe).

        ``grey`` is read as ``gray``. Raises :class:`~tilelay.errors.TileSyntaxError` (a
        :class:`ValueError`) naming what was expected.
        """
        if not isinstance(text, str):
            raise TileSyntaxError(f"a colour is read from text, not {_kind_of(text)}")
        t = text.strip().lower().replace("grey", "gray")
        if t in _COLOR_VALUES:
            return cls(t), None
        for c in cls:
            if t.startswith(c.value) and t != c.value:
                rest = t[len(c.value) :]
                if rest in _COLOR_VALUES:
                    return c, cls(rest)
                break
        names = ", ".join(c.value for c in cls)
        raise TileSyntaxError(
            f"unknown colour {limits.shown(text)}: expected one of {names} or two of them joined"
        )


_COLOR_VALUES = frozenset(c.value for c in Color)


#: The usual order of track colours; upgrades move one step along it.
TRACK_COLORS: tuple[Color, ...] = (Color.YELLOW, Color.GREEN, Color.BROWN, Color.GRAY)
_PHASE_COLORS: tuple[str, ...] = tuple(c.value for c in TRACK_COLORS)


class NodeKind(_ModelEnum):
    """What a node is."""

    CITY = "city"
    TOWN = "town"
    OFFBOARD = "offboard"
    JUNCTION = "junction"


class TownStyle(_ModelEnum):
    """How a town is drawn: a bar across the track, a dot, or not at all."""

    RECT = "rect"
    DOT = "dot"
    HIDDEN = "hidden"


class Track(_ModelEnum):
    """Track gauge (the tile language's ``track`` sub part, and seed 000's extra kinds).

    ``thin`` is the engine's thin dashed line (sea lanes of 1822 MX, 18Norway): it joins what it
    reaches on its own tile but, as in the engine, meets no track of a neighbouring hex (games
    that let trains cross it say so in their own rules). ``future`` is track still to be built
    (1840, 1873): drawn, but not track yet, so it takes no part in :meth:`Tile.connections`,
    :meth:`Tile.exits` or the topology, as the engine keeps such paths apart.
    """

    BROAD = "broad"
    NARROW = "narrow"
    DUAL = "dual"
    TUNNEL = "tunnel"
    FERRY = "ferry"
    THIN = "thin"
    FUTURE = "future"

    def connects(self, other: Track) -> bool:
        """Whether a train can run from track of this gauge onto ``other`` across an edge."""
        if Track.THIN in (self, other) or Track.FUTURE in (self, other):
            return False
        if self is other or Track.DUAL in (self, other):
            return True
        standard = {Track.BROAD, Track.TUNNEL, Track.FERRY}
        return self in standard and other in standard


class BorderType(_ModelEnum):
    """What a border on an edge (or a partition inside a hex) is.

    ``divider`` separates the areas of one large off-board region (1862, 18NY), ``offboard``
    marks an edge towards an off-board area (18CZ), ``gauge_change`` an edge where track
    changes gauge (18India).
    """

    MOUNTAIN = "mountain"
    WATER = "water"
    IMPASSABLE = "impassable"
    PROVINCE = "province"
    DIVIDER = "divider"
    OFFBOARD = "offboard"
    GAUGE_CHANGE = "gauge_change"


class StopRoute(_ModelEnum):
    """Whether a route through a stop must count it (the tile language's ``route`` sub part).

    ``mandatory``: a train passing through stops here (cities, towns, offboards by default);
    ``optional``: a train may pass without stopping (halts by default); ``never``: trains pass
    through and never stop (mountain passes by default).
    """

    MANDATORY = "mandatory"
    OPTIONAL = "optional"
    NEVER = "never"


class PartitionSide(_ModelEnum):
    """A side of a :class:`Partition`: ``inner`` (its edges clockwise from vertex ``a`` to
    vertex ``b``) or ``outer`` (the others)."""

    INNER = "inner"
    OUTER = "outer"


_ENUM_WORDS = {
    "Color": "colour",
    "NodeKind": "node kind",
    "TownStyle": "town style",
    "Track": "track gauge",
    "BorderType": "border type",
    "StopRoute": "route rule",
    "PartitionSide": "partition side",
}


def _all_of(items: tuple[object, ...], cls: type) -> bool:
    """Whether every item is exactly a ``cls`` (the fast check; subclasses are let through
    by the slow one)."""
    for item in items:
        if type(item) is not cls:
            break
    else:
        return True
    return False


def _check_texts(what: str, texts: object) -> None:
    if type(texts) is not tuple or not all(isinstance(t, str) for t in texts):
        raise _type_error(what, "a tuple of texts", texts)


def _check_pairs(what: str, pairs: object) -> None:
    if type(pairs) is not tuple or not all(
        type(p) is tuple and len(p) == 2 and isinstance(p[0], str) and isinstance(p[1], str)
        for p in pairs
    ):
        raise _type_error(what, "a tuple of (name, value) text pairs", pairs)


def _check_loc(what: str, loc: object) -> None:
    if loc is not None and not isinstance(loc, Loc):
        raise _type_error(what, "a Loc or None", loc)


def _check_edge(what: str, edge: object) -> None:
    if type(edge) is not int:
        raise TileTypeError(f"{what} at {_kind_of(edge)}, expected a whole number 0-5")
    if not 0 <= edge <= 5:
        raise TileModelError(f"{what} at {edge}, expected 0-5")


@dataclass(frozen=True, slots=True)
class Revenue:
    """A revenue: one value, or one value per phase (``yellow_40|green_50``).

    ``phases`` holds ``(phase, value)`` pairs in the order given; it is empty for a plain value.
    Phases are named as the source names them (colours in the tile language, numbers in seed
    000's XML).
    """

    value: int = 0
    phases: tuple[tuple[str, int], ...] = ()

    def __post_init__(self) -> None:
        if type(self.value) is not int:
            raise _type_error("a revenue", "a whole number", self.value)
        if type(self.phases) is not tuple:
            raise _type_error("a revenue's phases", "a tuple of (phase, value) pairs", self.phases)
        for pair in self.phases:
            if not (
                type(pair) is tuple
                and len(pair) == 2
                and isinstance(pair[0], str)
                and type(pair[1]) is int
            ):
                raise _type_error("a phase revenue", "a (phase name, whole number) pair", pair)
        if self.phases and self.value != 0:
            raise TileModelError(
                f"a revenue by phase has no value of its own: value {self.value} given with "
                f"phases {self}"
            )

    @property
    def is_phased(self) -> bool:
        """Whether the value depends on the phase."""
        return bool(self.phases)

    def values(self) -> tuple[int, ...]:
        """Every value this revenue can take."""
        return tuple(v for _, v in self.phases) if self.phases else (self.value,)

    def at(
        self,
        phase: str | None = None,
        *,
        colors: Sequence[str] = (),
        order: Sequence[str] = (),
        diesel: bool = False,
    ) -> int:
        """The value in ``phase``: the one rule for phased revenues.

        A plain revenue is itself. Of a phased one (``yellow_30|brown_50``, or seed 000's
        numbered phases): with ``diesel`` (a train named D) its ``diesel`` value if it has one;
        else the value listed under the phase's own name; else, as 18xx.games does, the value
        of the last of the phase's tile colours (``colors``, in the phase's order) that it
        lists, or 0 when it lists colours but none of the phase's; else the value of the latest
        listed phase at or before ``phase`` in the game's phase ``order``. Without a phase, or
        when nothing applies, the first value.

        >>> r = Revenue(0, (("yellow", 30), ("brown", 50)))
        >>> r.at("3", colors=("yellow", "green")), r.at("5", colors=("yellow", "green", "brown"))
        (30, 50)
        >>> Revenue(0, (("1", 20), ("4", 30))).at("5", order=("1", "2", "3", "4", "5", "6"))
        30
        """
        if not self.phases:
            return self.value
        table = dict(self.phases)
        if diesel and "diesel" in table:
            return table["diesel"]
        if phase is None:
            return self.phases[0][1]
        if phase in table:
            return table[phase]
        if colors and any(key in _PHASE_COLORS for key in table):
            for color in reversed(colors):
                if color in table:
                    return table[color]
            return 0
        position = {name: i for i, name in enumerate(order)}
        current = position.get(phase, -1)
        reached = [(position[k], v) for k, v in self.phases if 0 <= position.get(k, -1) <= current]
        return max(reached)[1] if reached else self.phases[0][1]

    def __str__(self) -> str:
        if not self.phases:
            return str(self.value)
        return "|".join(f"{p}_{v}" for p, v in self.phases)


@dataclass(frozen=True, slots=True)
class Node:
    """A city, town, offboard or junction on a tile.

    ``slots`` is the number of station tokens a city holds (0 for other kinds, and for a city
    with no token spaces, such as 1822 MX's ports). ``loc`` places the node (``None``: where the
    renderer chooses, normally the centre). ``name`` is a location name printed on the tile.
    ``revenue_loc`` and ``revenue_layout`` (``circle``, ``oval``, ``horizontal``, ``vertical``,
    ``split``) say where and how the revenue is drawn. ``extra`` holds attributes of a source
    format that the model does not interpret, as ``(name, value)`` pairs, so that files
    round-trip (e.g. seed 000's RevenueCenter ``id``).

    The 18xx.games engine's further facts: ``visit_cost`` (how much of a train's distance a
    stop uses, 1 unless given; 0 lets trains pass free), ``route`` (whether a route must stop
    here; ``None`` is the kind's default, see :attr:`route_rule`), ``revenue_format`` (how the
    revenue is printed, ``+%d``), ``revenue_rows`` (an offboard's phased revenue drawn in rows),
    ``boom`` (a boomtown, 1832 and 1868 Wyoming), ``to_city`` (a town that may be upgraded to a
    city, 1829 and 18CO), ``outline`` (a city drawn as an outline). A ``halt`` (1860, 18ESP) is
    a town drawn grey with its ``symbol`` instead of a revenue, which routes may pass; a
    ``mountain_pass`` (1841) is a city drawn inside a triangle of ``pass_color`` and
    ``pass_size``. Like the engine, tilelay counts both among the towns and the cities.
    """

    kind: NodeKind
    revenue: Revenue | None = None
    slots: int = 0
    style: TownStyle | None = None
    groups: tuple[str, ...] = ()
    hide: bool = False
    loc: Loc | None = None
    name: str | None = None
    revenue_loc: Loc | None = None
    revenue_layout: str | None = None
    extra: tuple[tuple[str, str], ...] = ()
    visit_cost: int = 1
    route: StopRoute | None = None
    revenue_format: str | None = None
    revenue_rows: int = 1
    boom: bool = False
    to_city: bool = False
    outline: bool = False
    halt: bool = False
    symbol: str | None = None
    mountain_pass: bool = False
    pass_color: str | None = None
    pass_size: int = 1

    def __post_init__(self) -> None:
        # the common case in one expression; what is wrong is found apart (_check)
        if (
            type(self.kind) is NodeKind
            and (self.revenue is None or type(self.revenue) is Revenue)
            and type(self.slots) is int
            and self.slots >= 0
            and type(self.visit_cost) is int
            and self.visit_cost >= 0
            and self.revenue_rows == 1
            and self.pass_size == 1
            and self.route is None
            and self.style is None
            and not self.groups
            and not self.extra
            and self.loc is None
            and self.revenue_loc is None
            and self.name is None
            and self.revenue_layout is None
            and self.revenue_format is None
            and self.symbol is None
            and self.pass_color is None
            and self.hide is False
            and self.boom is False
            and self.to_city is False
            and self.outline is False
            and self.halt is False
            and self.mountain_pass is False
        ):
            return
        self._check()

    def _check(self) -> None:
        if not isinstance(self.kind, NodeKind):
            raise _type_error("a node's kind", "a NodeKind (NodeKind.CITY, …)", self.kind)
        if self.revenue is not None and not isinstance(self.revenue, Revenue):
            raise _type_error("a node's revenue", "a Revenue or None", self.revenue)
        for what, number, low in (
            ("slots", self.slots, 0),
            ("visit_cost", self.visit_cost, 0),
            ("revenue_rows", self.revenue_rows, 1),
            ("pass_size", self.pass_size, 1),
        ):
            if type(number) is not int:
                raise _type_error(f"a node's {what}", "a whole number", number)
            if number < low:
                raise TileModelError(f"a node's {what} must be at least {low}, not {number}")
        for what, flag in (
            ("hide", self.hide),
            ("boom", self.boom),
            ("to_city", self.to_city),
            ("outline", self.outline),
            ("halt", self.halt),
            ("mountain_pass", self.mountain_pass),
        ):
            if type(flag) is not bool:
                raise _type_error(f"a node's {what}", "True or False", flag)
        for what, text in (
            ("name", self.name),
            ("revenue_layout", self.revenue_layout),
            ("revenue_format", self.revenue_format),
            ("symbol", self.symbol),
            ("pass_color", self.pass_color),
        ):
            if text is not None and not isinstance(text, str):
                raise _type_error(f"a node's {what}", "text or None", text)
        for what, loc in (("loc", self.loc), ("revenue_loc", self.revenue_loc)):
            if loc is not None and not isinstance(loc, Loc):
                raise _type_error(f"a node's {what}", "a Loc or None", loc)
        if self.style is not None and not isinstance(self.style, TownStyle):
            raise _type_error("a node's style", "a TownStyle or None", self.style)
        _check_texts("a node's groups", self.groups)
        _check_pairs("a node's extra", self.extra)
        if self.route is not None:
            if not isinstance(self.route, StopRoute):
                raise _type_error("a node's route", "a StopRoute or None", self.route)
            if self.route is default_route(self):  # one way to say the default: None
                object.__setattr__(self, "route", None)

    @property
    def is_stop(self) -> bool:
        """Whether a train can stop here (everything but a junction)."""
        return self.kind is not NodeKind.JUNCTION

    @property
    def route_rule(self) -> StopRoute:
        """Whether a route must stop here: :attr:`route`, or the default of the node's kind
        (``optional`` for a halt, ``never`` for a mountain pass, else ``mandatory``)."""
        if self.route is not None:
            return self.route
        return default_route(self)

    def rotated(self, rotation: int) -> Node:
        """This node with its locs turned ``rotation`` steps clockwise."""
        if self.loc is None and self.revenue_loc is None:
            return self
        return replace(
            self,
            loc=None if self.loc is None else self.loc.rotated(rotation),
            revenue_loc=None if self.revenue_loc is None else self.revenue_loc.rotated(rotation),
        )


def default_route(node: Node) -> StopRoute:
    """The route rule of ``node``'s kind when it gives none: ``optional`` for a halt, ``never``
    for a mountain pass, else ``mandatory`` (the engine's defaults)."""
    if node.halt:
        return StopRoute.OPTIONAL
    if node.mountain_pass:
        return StopRoute.NEVER
    return StopRoute.MANDATORY


@dataclass(frozen=True, slots=True, order=True)
class Edge:
    """A path endpoint at the middle of an edge of the hex (0–5)."""

    num: int

    def __post_init__(self) -> None:
        if type(self.num) is not int:
            raise TileTypeError(f"edge {limits.shown(self.num)}, expected 0-5 (a whole number)")
        if not 0 <= self.num <= 5:
            raise TileModelError(f"edge {self.num}, expected 0-5")

    def __str__(self) -> str:
        return str(self.num)


@dataclass(frozen=True, slots=True, order=True)
class NodeRef:
    """A path endpoint at a node, by its index in :attr:`Tile.nodes`."""

    index: int

    def __post_init__(self) -> None:
        if type(self.index) is not int:
            raise _type_error("a node reference", "a whole number", self.index)
        if self.index < 0:
            raise TileModelError(f"node reference _{self.index}: expected _0 or above")

    def __str__(self) -> str:
        return f"_{self.index}"


End = Edge | NodeRef

#: A lane: (width, index) — how many parallel tracks meet there and which one this is
#: (0 is the most clockwise).
Lane = tuple[int, int]
SINGLE_LANE: Lane = (1, 0)


@dataclass(frozen=True, slots=True)
class Path:
    """A piece of track between two endpoints.

    ``terminal`` (0, 1 or 2) marks track that trains cannot run through (to offboards); 2 draws
    a shorter taper. ``ignore`` leaves the path out of route walks. ``over`` draws the path
    over the ones before it with a gap (an overpass). A path may join an edge to itself: with
    ``terminal`` it is drawn as a taper from that edge into the hex (1858 India's ports).
    """

    a: End
    b: End
    terminal: int = 0
    ignore: bool = False
    a_lane: Lane = SINGLE_LANE
    b_lane: Lane = SINGLE_LANE
    track: Track = Track.BROAD
    over: bool = False

    def __post_init__(self) -> None:
        a, b = self.a, self.b
        if (
            (type(a) is Edge or type(a) is NodeRef)
            and (type(b) is Edge or type(b) is NodeRef)
            and type(self.terminal) is int
            and self.a_lane is SINGLE_LANE
            and self.b_lane is SINGLE_LANE
            and type(self.track) is Track
            and self.ignore is False
            and self.over is False
        ):
            return
        self._check()

    def _check(self) -> None:
        for what, end in (("a", self.a), ("b", self.b)):
            if not isinstance(end, Edge | NodeRef):
                raise _type_error(f"a path's end {what}", "an Edge or a NodeRef", end)
        if type(self.terminal) is not int:
            raise _type_error("a path's terminal", "a whole number 0-2", self.terminal)
        for what, lane in (("a_lane", self.a_lane), ("b_lane", self.b_lane)):
            if not (
                type(lane) is tuple
                and len(lane) == 2
                and type(lane[0]) is int
                and type(lane[1]) is int
            ):
                raise _type_error(f"a path's {what}", "a (width, index) pair", lane)
        if not isinstance(self.track, Track):
            raise _type_error("a path's track", "a Track", self.track)
        if type(self.ignore) is not bool or type(self.over) is not bool:
            raise _type_error("a path's ignore and over", "True or False", (self.ignore, self.over))

    @property
    def ends(self) -> tuple[End, End]:
        """Both endpoints."""
        return (self.a, self.b)

    def edges(self) -> tuple[int, ...]:
        """The edge numbers this path touches."""
        return tuple(e.num for e in (self.a, self.b) if isinstance(e, Edge))

    def nodes(self) -> tuple[int, ...]:
        """The node indices this path touches."""
        return tuple(e.index for e in (self.a, self.b) if isinstance(e, NodeRef))

    def rotated(self, rotation: int) -> Path:
        """This path turned ``rotation`` steps clockwise."""
        a = Edge(rotate_edge(self.a.num, rotation)) if isinstance(self.a, Edge) else self.a
        b = Edge(rotate_edge(self.b.num, rotation)) if isinstance(self.b, Edge) else self.b
        return replace(self, a=a, b=b)


@dataclass(frozen=True, slots=True)
class Label:
    """Large letters on a tile (``H``, ``OO``, ``Chi``); ``loc`` places them."""

    text: str
    loc: Loc | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.text, str):
            raise _type_error("a label's text", "text", self.text)
        _check_loc("a label's loc", self.loc)


@dataclass(frozen=True, slots=True)
class FutureLabel:
    """The label a tile will carry from a later colour on (``future_label=label:P,color:brown``):
    an upgrade to a tile of ``color`` must bear ``text``. Drawn as a small coloured hex."""

    text: str | None = None
    color: Color | None = None

    def __post_init__(self) -> None:
        if self.text is not None and not isinstance(self.text, str):
            raise _type_error("a future label's text", "text or None", self.text)
        if self.color is not None and not isinstance(self.color, Color):
            raise _type_error("a future label's colour", "a Color or None", self.color)


@dataclass(frozen=True, slots=True)
class TerrainUpgrade:
    """A terrain marker with the cost of laying a tile here (``upgrade=cost:80,terrain:…``);
    ``size`` is the drawn size of its symbols (1868 Wyoming)."""

    cost: int
    terrains: tuple[str, ...] = ()
    loc: Loc | None = None
    size: int | None = None

    def __post_init__(self) -> None:
        if type(self.cost) is not int:
            raise _type_error("a terrain upgrade's cost", "a whole number", self.cost)
        if self.size is not None and type(self.size) is not int:
            raise _type_error("a terrain upgrade's size", "a whole number or None", self.size)
        _check_texts("a terrain upgrade's terrains", self.terrains)
        _check_loc("a terrain upgrade's loc", self.loc)


@dataclass(frozen=True, slots=True)
class Border:
    """A marked edge: a terrain border with a crossing cost, impassable, or a plain join;
    ``color`` overrides the colour its type is drawn in (``border=…,color:red``)."""

    edge: int
    type: BorderType | None = None
    cost: int | None = None
    color: str | None = None

    def __post_init__(self) -> None:
        _check_edge("border", self.edge)
        if self.type is not None and not isinstance(self.type, BorderType):
            raise _type_error("a border's type", "a BorderType or None", self.type)
        if self.cost is not None and type(self.cost) is not int:
            raise _type_error("a border's cost", "a whole number or None", self.cost)
        if self.color is not None and not isinstance(self.color, str):
            raise _type_error("a border's colour", "text or None", self.color)


@dataclass(frozen=True, slots=True)
class Stub:
    """A short piece of track at an edge that leads nowhere yet (``stub=edge:N``): not a
    connection; games such as 1807 and 1867 require the next tile to use that edge."""

    edge: int

    def __post_init__(self) -> None:
        _check_edge("stub", self.edge)

    def rotated(self, rotation: int) -> Stub:
        """This stub turned ``rotation`` steps clockwise."""
        return Stub(rotate_edge(self.edge, rotation))


@dataclass(frozen=True, slots=True)
class Partition:
    """A line across the hex from corner ``a`` to corner ``b`` (``partition=a:0,b:3,…``).

    Corners are numbered as the engine numbers them: corner ``n`` is where edge ``n - 1`` meets
    edge ``n`` (``0`` the lower right corner of a flat hex), so the partition's
    :attr:`inner_edges` are the edges clockwise from corner ``a`` to corner ``b``. ``a_sign``
    and ``b_sign`` (-1, 0, 1) draw an end a little before or after its corner; ``length`` draws
    only that fraction of the line from ``a``. ``type`` says what divides the hex (a river, a
    province line, a divider); ``restrict`` names the one side track may use (1870's rivers).
    """

    a: int
    b: int
    type: BorderType | None = None
    restrict: PartitionSide | None = None
    a_sign: int = 0
    b_sign: int = 0
    length: float | None = None

    def __post_init__(self) -> None:
        _check_edge("partition", self.a)
        _check_edge("partition", self.b)
        if self.type is not None and not isinstance(self.type, BorderType):
            raise _type_error("a partition's type", "a BorderType or None", self.type)
        if self.restrict is not None and not isinstance(self.restrict, PartitionSide):
            raise _type_error("a partition's restrict", "a PartitionSide or None", self.restrict)
        if type(self.a_sign) is not int or type(self.b_sign) is not int:
            raise _type_error("a partition's signs", "-1, 0 or 1", (self.a_sign, self.b_sign))
        if self.length is not None and type(self.length) not in (float, int):
            raise _type_error("a partition's length", "a number or None", self.length)

    @property
    def inner_edges(self) -> tuple[int, ...]:
        """The edges clockwise from corner ``a`` to corner ``b``."""
        return tuple((self.a + i) % 6 for i in range((self.b - self.a) % 6))

    @property
    def outer_edges(self) -> tuple[int, ...]:
        """The edges clockwise from corner ``b`` to corner ``a``."""
        return tuple((self.b + i) % 6 for i in range((self.a - self.b) % 6))

    def rotated(self, rotation: int) -> Partition:
        """This partition turned ``rotation`` steps clockwise."""
        return replace(self, a=rotate_edge(self.a, rotation), b=rotate_edge(self.b, rotation))


@dataclass(frozen=True, slots=True)
class Icon:
    """A small picture on the tile (e.g. a port); a ``large`` one is drawn bigger, on its own
    (18India's commodities, 1822 MX's cubes)."""

    image: str
    name: str | None = None
    sticky: bool = False
    blocks_lay: bool = False
    loc: Loc | None = None
    large: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.image, str):
            raise _type_error("an icon's image", "text", self.image)
        if self.name is not None and not isinstance(self.name, str):
            raise _type_error("an icon's name", "text or None", self.name)
        for what, flag in (
            ("sticky", self.sticky),
            ("blocks_lay", self.blocks_lay),
            ("large", self.large),
        ):
            if type(flag) is not bool:
                raise _type_error(f"an icon's {what}", "True or False", flag)
        _check_loc("an icon's loc", self.loc)


@dataclass(frozen=True, slots=True)
class Frame:
    """A coloured frame around the tile, with an optional second colour."""

    color: str
    color2: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.color, str):
            raise _type_error("a frame's colour", "text", self.color)
        if self.color2 is not None and not isinstance(self.color2, str):
            raise _type_error("a frame's second colour", "text or None", self.color2)


#: In :class:`Connections`, the end number of node ``i`` is ``NODE_END + i``; ends 0-5 are edges.
NODE_END = 16


@dataclass(frozen=True, slots=True)
class Connections:
    """What a tile's track joins, looking through junctions: the one connectivity rule.

    Ends are numbered 0-5 for edges and :data:`NODE_END` + ``i`` for node ``i`` (a stop: a
    city, town or offboard). ``links`` holds ``(a, b, track)`` with ``a <= b`` for every pair
    of ends joined by a path, or by paths meeting at junctions (a Lawson tile's arms join each
    other). ``exits`` is the bit mask of edges with a link; ``node_exits[i]`` the mask of the
    edges linked to node ``i``. Paths marked ``ignore`` take no part unless asked for; future
    track (:attr:`Track.FUTURE`) and stubs take none.
    """

    links: frozenset[tuple[int, int, Track]]
    exits: int
    node_exits: tuple[int, ...]

    def linked(self, end: int) -> bool:
        """Whether ``end`` takes part in any link."""
        return any(end in (a, b) for a, b, _ in self.links)


def _connections(tile: Tile, with_ignored: bool) -> Connections:
    junctions = {i for i, n in enumerate(tile.nodes) if n.kind is NodeKind.JUNCTION}

    def end(e: End) -> int:
        return e.num if isinstance(e, Edge) else NODE_END + e.index

    def is_junction(x: int) -> bool:
        return x >= NODE_END and (x - NODE_END) in junctions

    adj: dict[int, list[tuple[int, Track]]] = {}
    links: set[tuple[int, int, Track]] = set()
    for p in tile.paths:
        if (p.ignore and not with_ignored) or p.track is Track.FUTURE:
            continue
        a, b = end(p.a), end(p.b)
        adj.setdefault(a, []).append((b, p.track))
        adj.setdefault(b, []).append((a, p.track))
        if a != b and not is_junction(a) and not is_junction(b):
            links.add((min(a, b), max(a, b), p.track))
    # through each group of junctions, link every pair of the other ends it reaches
    seen: set[int] = set()
    for j in sorted(junctions):
        start = NODE_END + j
        if start in seen:
            continue
        group: set[int] = set()
        outer: dict[int, Track] = {}
        todo = [start]
        while todo:
            cur = todo.pop()
            if cur in group:
                continue
            group.add(cur)
            for nxt, track in adj.get(cur, []):
                if is_junction(nxt):
                    todo.append(nxt)
                else:
                    outer.setdefault(nxt, track)
        seen |= group
        ends = sorted(outer)
        for i, x in enumerate(ends):
            for y in ends[i + 1 :]:
                links.add((x, y, outer[x]))
    exits = 0
    node_exits = [0] * len(tile.nodes)
    for a, b, _ in links:
        for x, y in ((a, b), (b, a)):
            if x < 6:
                exits |= 1 << x
                if y >= NODE_END:
                    node_exits[y - NODE_END] |= 1 << x
    return Connections(frozenset(links), exits, tuple(node_exits))


@dataclass(frozen=True, slots=True)
class Tile:
    """An 18xx tile or preprinted map hex.

    ``rotation`` records how far (clockwise steps) this tile has been turned from its definition;
    the edges of paths, stubs, borders, partitions and locs are already turned.
    ``location_name`` is the printed name of the place (from a map; the tile language has none).
    ``extra`` holds attributes of a source format that the model does not interpret, as
    ``(name, value)`` pairs, so that files round-trip (e.g. seed 000's ``fixed``).
    """

    name: str = ""
    color: Color = Color.WHITE
    nodes: tuple[Node, ...] = ()
    paths: tuple[Path, ...] = ()
    labels: tuple[Label, ...] = ()
    upgrades: tuple[TerrainUpgrade, ...] = ()
    borders: tuple[Border, ...] = ()
    icons: tuple[Icon, ...] = ()
    frame: Frame | None = None
    stripe: Color | None = None
    rotation: int = 0
    location_name: str | None = None
    extra: tuple[tuple[str, str], ...] = ()
    stubs: tuple[Stub, ...] = ()
    partitions: tuple[Partition, ...] = ()
    future_label: FutureLabel | None = None
    #: What is computed from the tile once (it is immutable), by key: 0 its topology, 1 and 2
    #: its connections (without and with ignored paths), :data:`WRITE_CHECKED` what the tile
    #: language's writer found it cannot write (:func:`tilelay.dsl.write`).
    _topology: dict[int, object] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise _type_error("a tile's name", "text", self.name)
        if not isinstance(self.color, Color):
            raise _type_error(f"tile {self.name!r}: the colour", "a Color", self.color)
        if self.stripe is not None and not isinstance(self.stripe, Color):
            raise _type_error(f"tile {self.name!r}: the stripe", "a Color or None", self.stripe)
        if type(self.rotation) is not int:
            raise _type_error(f"tile {self.name!r}: the rotation", "a whole number", self.rotation)
        if self.location_name is not None and not isinstance(self.location_name, str):
            raise _type_error(
                f"tile {self.name!r}: the location name", "text or None", self.location_name
            )
        if self.frame is not None and not isinstance(self.frame, Frame):
            raise _type_error(f"tile {self.name!r}: the frame", "a Frame or None", self.frame)
        if self.future_label is not None and not isinstance(self.future_label, FutureLabel):
            raise _type_error(
                f"tile {self.name!r}: the future label", "a FutureLabel or None", self.future_label
            )
        if self.extra:
            _check_pairs(f"tile {self.name!r}: extra", self.extra)
        if not (
            type(self.nodes) is tuple
            and type(self.paths) is tuple
            and _all_of(self.nodes, Node)
            and _all_of(self.paths, Path)
            and (not self.labels or _all_of(self.labels, Label))
            and (not self.upgrades or _all_of(self.upgrades, TerrainUpgrade))
            and (not self.borders or _all_of(self.borders, Border))
            and (not self.icons or _all_of(self.icons, Icon))
            and (not self.stubs or _all_of(self.stubs, Stub))
            and (not self.partitions or _all_of(self.partitions, Partition))
        ):
            self._check_items()
        n = len(self.nodes)
        for i, p in enumerate(self.paths):
            for end in (p.a, p.b):
                if type(end) is NodeRef and end.index >= n:
                    raise TileModelError(
                        f"tile {self.name!r}: path {i} refers to node _{end.index}, "
                        f"but the tile has {n} node(s)"
                    )

    def _check_items(self) -> None:
        for what, items, cls in (
            ("nodes", self.nodes, Node),
            ("paths", self.paths, Path),
            ("labels", self.labels, Label),
            ("upgrades", self.upgrades, TerrainUpgrade),
            ("borders", self.borders, Border),
            ("icons", self.icons, Icon),
            ("stubs", self.stubs, Stub),
            ("partitions", self.partitions, Partition),
        ):
            if type(items) is not tuple or not all(isinstance(x, cls) for x in items):
                raise _type_error(
                    f"tile {self.name!r}: {what}", f"a tuple of {cls.__name__}s", items
                )

    # ---------------------------------------------------------------- queries

    @property
    def cities(self) -> tuple[Node, ...]:
        """The city nodes, in order."""
        return tuple(n for n in self.nodes if n.kind is NodeKind.CITY)

    @property
    def towns(self) -> tuple[Node, ...]:
        """The town nodes (halts among them), in order."""
        return tuple(n for n in self.nodes if n.kind is NodeKind.TOWN)

    @property
    def halts(self) -> tuple[Node, ...]:
        """The halts, in order (towns a route may pass; 1860, 18ESP)."""
        return tuple(n for n in self.nodes if n.halt)

    @property
    def offboards(self) -> tuple[Node, ...]:
        """The offboard nodes, in order."""
        return tuple(n for n in self.nodes if n.kind is NodeKind.OFFBOARD)

    @property
    def label(self) -> str | None:
        """The first label's text, if any."""
        return self.labels[0].text if self.labels else None

    @property
    def stops(self) -> tuple[Node, ...]:
        """Nodes a train can stop at."""
        return tuple(n for n in self.nodes if n.is_stop)

    def exits(self) -> frozenset[int]:
        """Edges that have track leaving the tile (future track is not track yet)."""
        return frozenset(e for p in self.paths if p.track is not Track.FUTURE for e in p.edges())

    def paths_at_node(self, index: int) -> tuple[Path, ...]:
        """Paths touching node ``index``."""
        ref = NodeRef(index)
        return tuple(p for p in self.paths if ref in (p.a, p.b))

    def node_exits(self, index: int) -> frozenset[int]:
        """Edges connected directly by a path to node ``index``."""
        return frozenset(e for p in self.paths_at_node(index) for e in p.edges())

    def town_style(self, index: int) -> TownStyle:
        """How town ``index`` is drawn: its style, or rect for 1–2 paths and dot otherwise."""
        node = self.nodes[index]
        if node.style is not None:
            return node.style
        return TownStyle.RECT if len(self.paths_at_node(index)) in (1, 2) else TownStyle.DOT

    def revenue_values(self) -> tuple[int, ...]:
        """Every revenue value shown on the tile's stops."""
        return tuple(v for n in self.nodes if n.revenue is not None for v in n.revenue.values())

    # ------------------------------------------------------------- transforms

    def rotated(self, rotation: int) -> Tile:
        """A new tile turned ``rotation`` steps (60° each) clockwise."""
        if not isinstance(rotation, int) or isinstance(rotation, bool):
            raise TileModelError(
                f"tile {self.name!r}: a rotation is a whole number of steps, not "
                f"{limits.shown(rotation)}"
            )
        r = rotation % 6
        if r == 0:
            return self
        return replace(
            self,
            nodes=tuple(n.rotated(r) for n in self.nodes),
            paths=tuple(p.rotated(r) for p in self.paths),
            labels=tuple(
                lab if lab.loc is None else replace(lab, loc=lab.loc.rotated(r))
                for lab in self.labels
            ),
            upgrades=tuple(
                u if u.loc is None else replace(u, loc=u.loc.rotated(r)) for u in self.upgrades
            ),
            borders=tuple(replace(b, edge=rotate_edge(b.edge, r)) for b in self.borders),
            icons=tuple(
                i if i.loc is None else replace(i, loc=i.loc.rotated(r)) for i in self.icons
            ),
            stubs=tuple(s.rotated(r) for s in self.stubs),
            partitions=tuple(p.rotated(r) for p in self.partitions),
            rotation=(self.rotation + r) % 6,
        )

    def with_name(self, name: str) -> Tile:
        """This tile under another name."""
        return replace(self, name=name)

    def with_location_name(self, location_name: str | None) -> Tile:
        """This tile with a printed location name."""
        return replace(self, location_name=location_name)

    # ----------------------------------------------------------- connectivity

    def connections(self, *, with_ignored: bool = False) -> Connections:
        """What the track joins, looking through junctions (see :class:`Connections`).

        Paths marked ``ignore`` are left out unless ``with_ignored``.

        >>> from tilelay.dsl import parse
        >>> lawson = parse("junction;path=a:0,b:_0;path=a:2,b:_0;path=a:4,b:_0")
        >>> sorted((a, b) for a, b, _ in lawson.connections().links)
        [(0, 2), (0, 4), (2, 4)]
        """
        key = 2 if with_ignored else 1
        cached = self._topology.get(key)
        if cached is None:
            cached = self._topology[key] = _connections(self, with_ignored)
        assert isinstance(cached, Connections)
        return cached

    # --------------------------------------------------------------- topology

    def topology(self) -> tuple[object, ...]:
        """A canonical description of the track: what connects to what, and how.

        Two tiles have the same topology when the same edges connect to each other and to the
        same kinds of node in the same way, with the same gauges. Revenues, slots, labels and
        drawing details are not part of it, and neither is the order of nodes or paths.
        """
        cached = self._topology.get(0)
        if cached is not None:
            assert isinstance(cached, tuple)
            return cached
        sig = _topology_signature(self)
        self._topology[0] = sig
        return sig

    def symmetries(self) -> tuple[int, ...]:
        """The rotations (0–5) that leave the tile's track topology unchanged."""
        base = self.topology()
        return tuple(r for r in range(6) if r == 0 or self.rotated(r).topology() == base)

    def same_topology(self, other: Tile) -> bool:
        """Whether ``other`` has the same track topology as this tile as it lies."""
        return self.topology() == _other_tile(other, "same_topology").topology()

    def rotations_matching(self, other: Tile) -> tuple[int, ...]:
        """The rotations of this tile that have the same track topology as ``other``."""
        target = _other_tile(other, "rotations_matching").topology()
        return tuple(r for r in range(6) if self.rotated(r).topology() == target)

    def same_topology_up_to_rotation(self, other: Tile) -> bool:
        """Whether some rotation of this tile has the same track topology as ``other``."""
        return bool(self.rotations_matching(_other_tile(other, "same_topology_up_to_rotation")))


#: The key of :attr:`Tile._topology` under which :func:`tilelay.dsl.write` keeps what it found
#: of a tile: the limit passed (``None``) or not, and what the language cannot express.
WRITE_CHECKED = 3


def _other_tile(other: object, method: str) -> Tile:
    """``other`` when it is a :class:`Tile`; else a :class:`TileTypeError` saying how to get
    one (a tile is compared with a tile, not with its name)."""
    if isinstance(other, Tile):
        return other
    hint = (
        f" (tilelay.get_tile({other!r}) gives the tile of that name)"
        if isinstance(other, str) and len(other) <= 40
        else ""
    )
    raise TileTypeError(f"Tile.{method} compares with a Tile, not {_kind_of(other)}{hint}")


def _amount_problem(value: int | None, what: str, low: int) -> str | None:
    if value is None or low <= value <= limits.MAX_AMOUNT:
        return None
    return f"{what} {value} is out of range: expected {low} to {limits.MAX_AMOUNT:,}"


def _texts(tile: Tile) -> list[tuple[str, str | None]]:
    out: list[tuple[str, str | None]] = [("name", tile.name), ("location name", tile.location_name)]
    for i, n in enumerate(tile.nodes):
        out += [(f"node _{i} name", n.name), (f"node _{i} revenue layout", n.revenue_layout)]
        out += [(f"node _{i} group", g) for g in n.groups]
        if n.revenue is not None:
            out += [(f"node _{i} revenue phase", p) for p, _ in n.revenue.phases]
        out += [(f"node _{i} {k}", v) for k, v in n.extra]
        out += [(f"node _{i} symbol", n.symbol), (f"node _{i} pass colour", n.pass_color)]
        out += [(f"node _{i} revenue format", n.revenue_format)]
    out += [("label", lab.text) for lab in tile.labels]
    out += [("terrain", t) for u in tile.upgrades for t in u.terrains]
    out += [(f"icon {k}", v) for i in tile.icons for k, v in (("image", i.image), ("name", i.name))]
    if tile.frame is not None:
        out += [("frame colour", tile.frame.color), ("frame colour", tile.frame.color2)]
    out += [("border colour", b.color) for b in tile.borders]
    if tile.future_label is not None:
        out.append(("future label", tile.future_label.text))
    out += [(k, v) for k, v in tile.extra]
    return out


def limit_problem(tile: Tile) -> str | None:
    """What of ``tile`` is past the limits of :mod:`tilelay.limits` (counts, slots, lanes,
    amounts, texts), in words; ``None`` when nothing is.

    Every reader of tiles checks this, so a tile string, JSON or XML cannot ask for a city of
    a million slots or a tile of a million paths; the tile language's writer checks it too.
    """
    if _plainly_within_limits(tile):
        return None
    counts = (
        ("nodes", len(tile.nodes), limits.MAX_NODES),
        ("paths", len(tile.paths), limits.MAX_PATHS),
        ("labels", len(tile.labels), limits.MAX_ITEMS),
        ("terrain upgrades", len(tile.upgrades), limits.MAX_ITEMS),
        ("borders", len(tile.borders), limits.MAX_ITEMS),
        ("icons", len(tile.icons), limits.MAX_ITEMS),
        ("stubs", len(tile.stubs), limits.MAX_ITEMS),
        ("partitions", len(tile.partitions), limits.MAX_ITEMS),
    )
    for what, count, most in counts:
        if count > most:
            return f"{count} {what}: at most {most} on one tile"
    for i, n in enumerate(tile.nodes):
        if not 0 <= n.slots <= limits.MAX_SLOTS:
            return f"node _{i} has {n.slots} token slots: expected 0 to {limits.MAX_SLOTS}"
        for what, value, low, high in (
            ("visit cost", n.visit_cost, 0, limits.MAX_AMOUNT),
            ("revenue rows", n.revenue_rows, 1, 9),
            ("pass size", n.pass_size, 1, limits.MAX_SIZE),
        ):
            if not low <= value <= high:
                return f"node _{i}: {what} {value} is out of range: expected {low} to {high:,}"
        if len(n.groups) > limits.MAX_ITEMS:
            return f"node _{i} has {len(n.groups)} groups: at most {limits.MAX_ITEMS}"
        if n.revenue is not None:
            if len(n.revenue.phases) > limits.MAX_ITEMS:
                return (
                    f"node _{i} has {len(n.revenue.phases)} phase revenues: "
                    f"at most {limits.MAX_ITEMS}"
                )
            # only an offboard's revenue may be negative (1880's offboards are worth -10)
            low = -limits.MAX_AMOUNT if n.kind is NodeKind.OFFBOARD else 0
            for v in n.revenue.values():
                problem = _amount_problem(v, f"node _{i}: {n.kind.value} revenue", low)
                if problem:
                    return problem
    for i, p in enumerate(tile.paths):
        if not 0 <= p.terminal <= 2:
            return f"path {i}: terminal {p.terminal} is out of range: expected 0, 1 or 2"
        for lane in (p.a_lane, p.b_lane):
            if not 1 <= lane[0] <= limits.MAX_LANES or not 0 <= lane[1] < lane[0]:
                return (
                    f"path {i}: lane {lane[0]}.{lane[1]} is out of range: expected a width "
                    f"1 to {limits.MAX_LANES} and an index below it"
                )
    for u in tile.upgrades:
        problem = _amount_problem(u.cost, "terrain cost", 0)
        if problem:
            return problem
        if u.size is not None and not 1 <= u.size <= limits.MAX_SIZE:
            return f"terrain size {u.size} is out of range: expected 1 to {limits.MAX_SIZE:,}"
        if len(u.terrains) > limits.MAX_ITEMS:
            return f"{len(u.terrains)} terrains on one upgrade: at most {limits.MAX_ITEMS}"
    for b in tile.borders:
        if not 0 <= b.edge <= 5:
            return f"border edge {b.edge} is out of range: expected 0-5"
        problem = _amount_problem(b.cost, "border cost", 0)
        if problem:
            return problem
    for line in tile.partitions:
        if line.a_sign not in (-1, 0, 1) or line.b_sign not in (-1, 0, 1):
            return "a partition's end signs must be -1, 0 or 1"
        if line.length is not None and not 0 < line.length <= 1:
            return f"partition length {line.length} is out of range: expected above 0, up to 1"
    if len(tile.extra) > limits.MAX_ITEMS:
        return f"{len(tile.extra)} source attributes: at most {limits.MAX_ITEMS}"
    for what, text in _texts(tile):
        if text is not None:
            problem = text_problem(text)
            if problem:
                return f"{what} {limits.shown(text)} {problem}"
    return None


#: What no text of a tile may hold: control characters (tab and line breaks too: a text is
#: one line), lone surrogates and the non-characters U+FFFE and U+FFFF.
_BAD_TEXT = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def text_problem(text: str) -> str | None:
    """Why ``text`` cannot be a text of a tile (a label, a name, a colour…): too long
    (:data:`tilelay.limits.MAX_TEXT`), or holding a control character (a tab or line break
    too, as the README says: a tile's texts are single lines), a lone surrogate or U+FFFE or
    U+FFFF; ``None`` when it can."""
    if len(text) > limits.MAX_TEXT:
        return limits.text_problem(text)
    bad = _BAD_TEXT.search(text)
    if bad is None:
        return None
    ch = bad.group()
    kind = "control character" if ch <= "\x9f" else "character"
    return f"holds the {kind} U+{ord(ch):04X}"


def _plainly_within_limits(tile: Tile) -> bool:
    """A quick look for the usual tile (plain nodes and paths, short labels): ``True`` when
    it is within the limits; ``False`` when :func:`limit_problem` must look closely."""
    if (
        len(tile.nodes) > limits.MAX_NODES
        or len(tile.paths) > limits.MAX_PATHS
        or len(tile.labels) > limits.MAX_ITEMS
        or len(tile.stubs) > limits.MAX_ITEMS
        or tile.upgrades
        or tile.borders
        or tile.partitions
        or tile.icons
        or tile.extra
        or tile.frame is not None
        or tile.future_label is not None
        or tile.location_name is not None
    ):
        return False
    texts = [tile.name]
    for n in tile.nodes:
        r = n.revenue
        if not (
            n.slots <= limits.MAX_SLOTS
            and n.visit_cost <= limits.MAX_AMOUNT
            and n.revenue_rows == 1
            and n.pass_size == 1
            and not n.groups
            and not n.extra
            and n.name is None
            and n.revenue_layout is None
            and n.revenue_format is None
            and n.symbol is None
            and n.pass_color is None
        ):
            return False
        if r is not None:
            if not r.phases:
                if not 0 <= r.value <= limits.MAX_AMOUNT:
                    return False
            elif len(r.phases) > limits.MAX_ITEMS or not all(
                0 <= v <= limits.MAX_AMOUNT for _, v in r.phases
            ):
                return False
            else:
                texts += [phase for phase, _ in r.phases]
    for p in tile.paths:
        if p.terminal > 2 or p.terminal < 0 or p.a_lane is not SINGLE_LANE:
            return False
        if p.b_lane is not SINGLE_LANE:
            return False
    texts += [lab.text for lab in tile.labels]
    joined = "".join(texts)
    if len(joined) > limits.MAX_TEXT and any(len(t) > limits.MAX_TEXT for t in texts):
        return False
    return _BAD_TEXT.search(joined) is None


def check_limits(tile: Tile) -> Tile:
    """``tile`` when it is within the limits (:func:`limit_problem`); else raise
    :class:`~tilelay.errors.TileModelError` saying what is past which limit."""
    problem = limit_problem(tile)
    if problem is not None:
        label = f"tile {limits.shown(tile.name)}: " if tile.name else ""
        raise TileModelError(label + problem)
    return tile


def _topology_signature(tile: Tile) -> tuple[object, ...]:
    # Describe each node by its kind and the edges reachable from it directly, then refine
    # once by the descriptions of the nodes joined to it, so that equal descriptions mean
    # interchangeable nodes. Paths become sorted descriptor pairs; the whole is a sorted tuple.
    paths = [p for p in tile.paths if p.track is not Track.FUTURE]
    exits: list[set[int]] = [set() for _ in tile.nodes]
    touched: set[int] = set()
    for p in paths:
        for i in p.nodes():
            exits[i].update(p.edges())
            touched.add(i)
    direct: list[tuple[str, tuple[int, ...]]] = []
    for i, node in enumerate(tile.nodes):
        direct.append((node.kind.value, tuple(sorted(exits[i]))))
    neighbours: list[list[tuple[str, tuple[int, ...]]]] = [[] for _ in tile.nodes]
    for p in paths:
        if isinstance(p.a, NodeRef) and isinstance(p.b, NodeRef):
            neighbours[p.a.index].append(direct[p.b.index])
            neighbours[p.b.index].append(direct[p.a.index])
    desc: list[object] = [(direct[i], tuple(sorted(neighbours[i]))) for i in range(len(tile.nodes))]

    def end_key(e: End) -> tuple[object, ...]:
        if isinstance(e, Edge):
            return (0, e.num)
        return (1, desc[e.index])

    items: list[tuple[object, ...]] = []
    for p in paths:
        ka, kb = end_key(p.a), end_key(p.b)
        pair = (ka, kb) if repr(ka) <= repr(kb) else (kb, ka)
        items.append((pair, p.track.value, p.terminal > 0))
    unconnected = tuple(sorted(repr(d) for i, d in enumerate(desc) if i not in touched))
    counted = Counter(repr(i) for i in items)
    return (tuple(sorted(counted.items())), unconnected)
