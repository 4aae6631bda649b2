"""The tile model.

A :class:`Tile` is immutable: its colour, its nodes (cities, towns, offboards, junctions; halts
and mountain passes are kinds of town and city, as in the engine), the paths (track) between
edges and nodes, track stubs, labels and a future label, terrain upgrades, borders, partitions,
icons, a frame and a stripe. Every format tilelay reads (the 18xx.games tile language, seed
000's XML, the Rails dialect) becomes this model, and the renderer, the router and the upgrade
rules all work on it.

Edges and rotation follow :mod:`tilelay.hexgeo`: :meth:`Tile.rotated` turns a tile clockwise and
returns a new tile whose edges, locs, stubs, borders and partitions have moved.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from tilelay import limits
from tilelay.errors import TileModelError
from tilelay.hexgeo import Loc, rotate_edge


class Color(StrEnum):
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

        ``grey`` is read as ``gray``. Raises :class:`ValueError` naming what was expected.
        """
        t = text.strip().lower().replace("grey", "gray")
        try:
            return cls(t), None
        except ValueError:
            pass
        for c in cls:
            if t.startswith(c.value) and t != c.value:
                try:
                    return c, cls(t[len(c.value) :])
                except ValueError:
                    break
        names = ", ".join(c.value for c in cls)
        raise ValueError(f"unknown colour {text!r}: expected one of {names} or two of them joined")


#: The usual order of track colours; upgrades move one step along it.
TRACK_COLORS: tuple[Color, ...] = (Color.YELLOW, Color.GREEN, Color.BROWN, Color.GRAY)
_PHASE_COLORS: tuple[str, ...] = tuple(c.value for c in TRACK_COLORS)


class NodeKind(StrEnum):
    """What a node is."""

    CITY = "city"
    TOWN = "town"
    OFFBOARD = "offboard"
    JUNCTION = "junction"


class TownStyle(StrEnum):
    """How a town is drawn: a bar across the track, a dot, or not at all."""

    RECT = "rect"
    DOT = "dot"
    HIDDEN = "hidden"


class Track(StrEnum):
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


class BorderType(StrEnum):
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


class StopRoute(StrEnum):
    """Whether a route through a stop must count it (the tile language's ``route`` sub part).

    ``mandatory``: a train passing through stops here (cities, towns, offboards by default);
    ``optional``: a train may pass without stopping (halts by default); ``never``: trains pass
    through and never stop (mountain passes by default).
    """

    MANDATORY = "mandatory"
    OPTIONAL = "optional"
    NEVER = "never"


class PartitionSide(StrEnum):
    """A side of a :class:`Partition`: ``inner`` (its edges clockwise from vertex ``a`` to
    vertex ``b``) or ``outer`` (the others)."""

    INNER = "inner"
    OUTER = "outer"


@dataclass(frozen=True, slots=True)
class Revenue:
    """A revenue: one value, or one value per phase (``yellow_40|green_50``).

    ``phases`` holds ``(phase, value)`` pairs in the order given; it is empty for a plain value.
    Phases are named as the source names them (colours in the tile language, numbers in seed
    000's XML).
    """

    value: int = 0
    phases: tuple[tuple[str, int], ...] = ()

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

    def __str__(self) -> str:
        return str(self.num)


@dataclass(frozen=True, slots=True, order=True)
class NodeRef:
    """A path endpoint at a node, by its index in :attr:`Tile.nodes`."""

    index: int

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


@dataclass(frozen=True, slots=True)
class FutureLabel:
    """The label a tile will carry from a later colour on (``future_label=label:P,color:brown``):
    an upgrade to a tile of ``color`` must bear ``text``. Drawn as a small coloured hex."""

    text: str | None = None
    color: Color | None = None


@dataclass(frozen=True, slots=True)
class TerrainUpgrade:
    """A terrain marker with the cost of laying a tile here (``upgrade=cost:80,terrain:…``);
    ``size`` is the drawn size of its symbols (1868 Wyoming)."""

    cost: int
    terrains: tuple[str, ...] = ()
    loc: Loc | None = None
    size: int | None = None


@dataclass(frozen=True, slots=True)
class Border:
    """A marked edge: a terrain border with a crossing cost, impassable, or a plain join;
    ``color`` overrides the colour its type is drawn in (``border=…,color:red``)."""

    edge: int
    type: BorderType | None = None
    cost: int | None = None
    color: str | None = None


@dataclass(frozen=True, slots=True)
class Stub:
    """A short piece of track at an edge that leads nowhere yet (``stub=edge:N``): not a
    connection; games such as 1807 and 1867 require the next tile to use that edge."""

    edge: int

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


@dataclass(frozen=True, slots=True)
class Frame:
    """A coloured frame around the tile, with an optional second colour."""

    color: str
    color2: str | None = None


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
    _topology: dict[int, object] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        n = len(self.nodes)
        for i, p in enumerate(self.paths):
            for end in p.ends:
                if isinstance(end, NodeRef) and not 0 <= end.index < n:
                    raise TileModelError(
                        f"tile {self.name!r}: path {i} refers to node _{end.index}, "
                        f"but the tile has {n} node(s)"
                    )
                if isinstance(end, Edge) and not (type(end.num) is int and 0 <= end.num <= 5):
                    raise TileModelError(
                        f"tile {self.name!r}: path {i} has edge {end.num}, expected 0-5"
                    )
        ends = [("stub", s.edge) for s in self.stubs]
        ends += [("partition", e) for p in self.partitions for e in (p.a, p.b)]
        for what, e in ends:
            if not 0 <= e <= 5:
                raise TileModelError(f"tile {self.name!r}: {what} at {e}, expected 0-5")

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
        return self.topology() == other.topology()

    def rotations_matching(self, other: Tile) -> tuple[int, ...]:
        """The rotations of this tile that have the same track topology as ``other``."""
        target = other.topology()
        return tuple(r for r in range(6) if self.rotated(r).topology() == target)

    def same_topology_up_to_rotation(self, other: Tile) -> bool:
        """Whether some rotation of this tile has the same track topology as ``other``."""
        return bool(self.rotations_matching(other))


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
    a million slots or a tile of a million paths.
    """
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
            problem = limits.text_problem(text)
            if problem:
                return f"{what} {limits.shown(text)} {problem}"
    return None


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
