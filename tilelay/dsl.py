"""The 18xx.games tile language (seeds 001/002): read and write.

A tile string is main parts separated by ``;`` (``city``, ``town``, ``offboard``, ``junction``,
``path``, ``label``, ``upgrade``, ``border``, ``icon``, ``frame``, ``stripes``), each ``kind=``
followed by sub parts separated by ``,`` as ``key:value``; list values are separated by ``|``.
Paths join edges (``0``–``5``) and nodes defined earlier (``_0`` is the first city, town,
offboard or junction). ``lanes:N`` expands into ``N`` parallel paths.

>>> tile = parse("city=revenue:20;path=a:0,b:_0;path=a:_0,b:3", name="57", color="yellow")
>>> write(tile)
'city=revenue:20;path=a:0,b:_0;path=a:_0,b:3'

:func:`write` gives a canonical string: defaults are left out, sub parts come in a fixed order,
nodes come before paths and parallel lanes are folded back into ``lanes:N``. Reading it back
gives an equal tile. Errors are :class:`~tilelay.errors.TileSyntaxError` naming the column,
the part and what was expected.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tilelay import limits
from tilelay.errors import TileModelError, TileSyntaxError
from tilelay.hexgeo import Loc, parse_loc
from tilelay.tile import (
    SINGLE_LANE,
    Border,
    BorderType,
    Color,
    Edge,
    End,
    Frame,
    Icon,
    Label,
    Lane,
    Node,
    NodeKind,
    NodeRef,
    Path,
    Revenue,
    TerrainUpgrade,
    Tile,
    TownStyle,
    Track,
    check_limits,
)

__all__ = ["MAIN_PARTS", "canonical", "parse", "unsupported", "write"]

_DIGITS = frozenset("0123456789")
#: Characters no tile string may hold: control characters other than tab and line breaks,
#: lone surrogates and the non-characters U+FFFE and U+FFFF.
_BAD_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
_AMOUNT = f"a whole number from -{limits.MAX_AMOUNT:,} to {limits.MAX_AMOUNT:,}"


class _Sub:
    """One ``key:value`` sub part and the column where it starts."""

    __slots__ = ("col", "key", "value")

    def __init__(self, key: str, value: str | None, col: int) -> None:
        self.key = key
        self.value = value
        self.col = col


class _Parser:
    __slots__ = (
        "borders",
        "frame",
        "icons",
        "labels",
        "nodes",
        "path_cols",
        "paths",
        "source",
        "stripe",
        "text",
        "upgrades",
    )

    def __init__(self, text: str, source: str | None) -> None:
        self.text = text
        self.source = source
        self.nodes: list[Node] = []
        self.paths: list[Path] = []
        self.path_cols: list[int] = []
        self.labels: list[Label] = []
        self.upgrades: list[TerrainUpgrade] = []
        self.borders: list[Border] = []
        self.icons: list[Icon] = []
        self.frame: Frame | None = None
        self.stripe: Color | None = None

    # ------------------------------------------------------------------ errors

    def error(self, col: int, message: str) -> TileSyntaxError:
        return TileSyntaxError(message, source=self.source, column=col)

    # ----------------------------------------------------------------- values

    def integer(
        self,
        sub: _Sub,
        part: str,
        *,
        low: int = -limits.MAX_AMOUNT,
        high: int = limits.MAX_AMOUNT,
        what: str = _AMOUNT,
    ) -> int:
        v = self.value(sub, part)
        n = limits.whole(v, low, high) if v == v.strip() else None
        if n is None:
            raise self.error(sub.col, f"{part}: {sub.key} must be {what}, got {limits.shown(v)}")
        return n

    def value(self, sub: _Sub, part: str) -> str:
        if sub.value is None or sub.value == "":
            raise self.error(sub.col, f"{part}: sub part {sub.key!r} needs a value ({sub.key}:…)")
        return sub.value

    def flag(self, sub: _Sub, part: str) -> bool:
        if sub.value is None or sub.value in ("1", "true"):
            return True
        if sub.value in ("0", "false"):
            return False
        raise self.error(sub.col, f"{part}: {sub.key} must be 1 or 0, got {sub.value!r}")

    def loc(self, sub: _Sub, part: str) -> Loc:
        try:
            return parse_loc(self.value(sub, part))
        except ValueError as err:
            raise self.error(sub.col, f"{part}: {err}") from None

    def revenue(self, sub: _Sub, part: str) -> Revenue:
        v = self.value(sub, part)
        if "_" not in v:
            return Revenue(self.integer(sub, part, what=f"{_AMOUNT} or a phase_value list"))
        phases: list[tuple[str, int]] = []
        col = sub.col + len(sub.key) + 1
        items = v.split("|")
        if len(items) > limits.MAX_ITEMS:
            raise self.error(
                col, f"{part}: {len(items)} phase revenues: at most {limits.MAX_ITEMS}"
            )
        for item in items:
            phase, _, amount = item.rpartition("_")
            value = (
                limits.whole(amount, -limits.MAX_AMOUNT, limits.MAX_AMOUNT)
                if amount == amount.strip()
                else None
            )
            if not phase or value is None:
                raise self.error(
                    col,
                    f"{part}: bad phase revenue {limits.shown(item)}: expected phase_value, "
                    f"e.g. yellow_40, the value {_AMOUNT}",
                )
            phases.append((phase, value))
            col += len(item) + 1
        return Revenue(0, tuple(phases))

    def groups(self, sub: _Sub, part: str) -> tuple[str, ...]:
        return tuple(g for g in self.value(sub, part).split("|"))

    def end(self, sub: _Sub) -> End:
        v = self.value(sub, "path")
        if v[:1] == "_":
            body = v[1:]
            if not body or not _DIGITS.issuperset(body):
                raise self.error(
                    sub.col, f"path: bad node reference {limits.shown(v)}: expected _N"
                )
            idx = limits.whole(body, 0, len(self.nodes) - 1) if self.nodes else None
            if idx is None:
                defined = len(self.nodes)
                raise self.error(
                    sub.col,
                    f"path: bad node reference {limits.shown(v)}: only {defined} node(s) "
                    f"(city, town, offboard, junction) defined before this path",
                )
            return NodeRef(idx)
        if len(v) == 1 and v in "012345":
            return Edge(int(v))
        if v and _DIGITS.issuperset(v.lstrip("-")) and v.lstrip("-"):
            raise self.error(sub.col, f"path: edge {v[:12]} out of range: expected 0-5")
        raise self.error(
            sub.col, f"path: bad endpoint {limits.shown(v)}: expected an edge 0-5 or _N"
        )

    def lane(self, sub: _Sub) -> Lane:
        v = self.value(sub, "path")
        w, dot, i = v.partition(".")
        if not dot or not w or not i or not _DIGITS.issuperset(w) or not _DIGITS.issuperset(i):
            raise self.error(sub.col, f"path: {sub.key} must be width.index, got {limits.shown(v)}")
        width = limits.whole(w, 1, limits.MAX_LANES)
        if width is None:
            raise self.error(
                sub.col,
                f"path: {sub.key}: lane width {limits.shown(w)} is out of range: expected 1 to "
                f"{limits.MAX_LANES}",
            )
        index = limits.whole(i, 0, width - 1)
        if index is None:
            raise self.error(
                sub.col,
                f"path: lane mismatch in {sub.key}:{limits.shown(v)}: index must be below width",
            )
        return (width, index)

    # ------------------------------------------------------------------ parts

    def node(self, kind: NodeKind, subs: list[_Sub]) -> None:
        part = kind.value
        allowed = _NODE_SUBS[kind]
        revenue: Revenue | None = None
        slots = 1 if kind is NodeKind.CITY else 0
        style: TownStyle | None = None
        groups: tuple[str, ...] = ()
        hide = False
        loc: Loc | None = None
        seen: set[str] = set()
        for sub in subs:
            key = sub.key
            if key not in allowed:
                raise self._unknown_sub(sub, part, allowed)
            if key in seen:
                raise self.error(sub.col, f"{part}: sub part {key!r} given twice")
            seen.add(key)
            if key == "revenue":
                revenue = self.revenue(sub, part)
                if kind is not NodeKind.OFFBOARD and min(revenue.values()) < 0:
                    raise self.error(
                        sub.col, f"{part}: revenue must not be negative (only an offboard's may)"
                    )
            elif key == "slots":
                slots = self.integer(
                    sub,
                    part,
                    low=1,
                    high=limits.MAX_SLOTS,
                    what=f"a whole number of at least 1 (at most {limits.MAX_SLOTS})",
                )
            elif key == "style":
                try:
                    style = TownStyle(self.value(sub, part))
                except ValueError:
                    raise self.error(
                        sub.col, f"town: style must be rect, dot or hidden, got {sub.value!r}"
                    ) from None
            elif key == "groups":
                groups = self.groups(sub, part)
            elif key == "hide":
                hide = self.flag(sub, part)
            elif key == "loc":
                loc = self.loc(sub, part)
        if kind is not NodeKind.JUNCTION and revenue is None:
            revenue = Revenue(0)
        self.nodes.append(Node(kind, revenue, slots, style, groups, hide, loc))

    def path(self, subs: list[_Sub], col: int) -> None:
        a: End | None = None
        b: End | None = None
        terminal = 0
        ignore = False
        a_lane: Lane | None = None
        b_lane: Lane | None = None
        lanes: _Sub | None = None
        track = Track.BROAD
        seen: set[str] = set()
        for sub in subs:
            key = sub.key
            if key not in _PATH_SUBS:
                raise self._unknown_sub(sub, "path", _PATH_SUBS)
            if key in seen:
                raise self.error(sub.col, f"path: sub part {key!r} given twice")
            seen.add(key)
            if key == "a":
                a = self.end(sub)
            elif key == "b":
                b = self.end(sub)
            elif key == "terminal":
                terminal = self.integer(sub, "path", low=1, high=2, what="1 or 2")
            elif key == "ignore":
                ignore = self.flag(sub, "path")
            elif key == "a_lane":
                a_lane = self.lane(sub)
            elif key == "b_lane":
                b_lane = self.lane(sub)
            elif key == "lanes":
                lanes = sub
            elif key == "track":
                v = self.value(sub, "path")
                if v not in ("broad", "narrow", "dual"):
                    raise self.error(
                        sub.col, f"path: track must be broad, narrow or dual, got {v!r}"
                    )
                track = Track(v)
        if a is None or b is None:
            missing = "a" if a is None else "b"
            raise self.error(col, f"path: sub part {missing!r} is required")
        if a == b:
            raise self.error(col, f"path: both ends are {a}; a path joins two different points")
        if lanes is not None:
            if a_lane is not None or b_lane is not None:
                raise self.error(
                    lanes.col, "path: lane mismatch: give either lanes or a_lane/b_lane, not both"
                )
            n = self.integer(
                lanes,
                "path",
                low=1,
                high=limits.MAX_LANES,
                what=f"a whole number from 1 to {limits.MAX_LANES}",
            )
            for p in expand_lanes(a, b, n, terminal=terminal, ignore=ignore, track=track):
                self.paths.append(p)
                self.path_cols.append(col)
            return
        self.paths.append(
            Path(a, b, terminal, ignore, a_lane or SINGLE_LANE, b_lane or SINGLE_LANE, track)
        )
        self.path_cols.append(col)

    def upgrade(self, subs: list[_Sub], col: int) -> None:
        cost: int | None = None
        terrains: tuple[str, ...] = ()
        loc: Loc | None = None
        for sub in subs:
            if sub.key == "cost":
                cost = self.integer(
                    sub, "upgrade", low=0, what=f"a whole number from 0 to {limits.MAX_AMOUNT:,}"
                )
            elif sub.key == "terrain":
                terrains = tuple(t for t in self.value(sub, "upgrade").split("|"))
                for t in terrains:
                    if not t or not t.replace("_", "").isalpha():
                        raise self.error(sub.col, f"upgrade: bad terrain {t!r}")
            elif sub.key == "loc":
                loc = self.loc(sub, "upgrade")
            else:
                raise self._unknown_sub(sub, "upgrade", ("cost", "terrain", "loc"))
        if cost is None:
            raise self.error(col, "upgrade: sub part 'cost' is required")
        self.upgrades.append(TerrainUpgrade(cost, terrains, loc))

    def border(self, subs: list[_Sub], col: int) -> None:
        edge: int | None = None
        btype: BorderType | None = None
        cost: int | None = None
        for sub in subs:
            if sub.key == "edge":
                edge = self.integer(sub, "border", low=0, high=5, what="an edge 0-5")
            elif sub.key == "type":
                v = self.value(sub, "border")
                try:
                    btype = BorderType(v)
                except ValueError:
                    raise self.error(
                        sub.col,
                        f"border: type must be mountain, water or impassable, got {v!r}",
                    ) from None
            elif sub.key == "cost":
                cost = self.integer(
                    sub, "border", low=0, what=f"a whole number from 0 to {limits.MAX_AMOUNT:,}"
                )
            else:
                raise self._unknown_sub(sub, "border", ("edge", "type", "cost"))
        if edge is None:
            raise self.error(col, "border: sub part 'edge' is required")
        self.borders.append(Border(edge, btype, cost))

    def icon(self, subs: list[_Sub], col: int) -> None:
        image: str | None = None
        name: str | None = None
        sticky = blocks = False
        loc: Loc | None = None
        for sub in subs:
            if sub.key == "image":
                image = self.value(sub, "icon")
            elif sub.key == "name":
                name = self.value(sub, "icon")
            elif sub.key == "sticky":
                sticky = self.flag(sub, "icon")
            elif sub.key == "blocks_lay":
                blocks = self.flag(sub, "icon")
            elif sub.key == "loc":
                loc = self.loc(sub, "icon")
            else:
                raise self._unknown_sub(
                    sub, "icon", ("image", "name", "sticky", "blocks_lay", "loc")
                )
        if image is None:
            raise self.error(col, "icon: sub part 'image' is required")
        self.icons.append(Icon(image, name, sticky, blocks, loc))

    def frame_part(self, subs: list[_Sub], col: int) -> None:
        color: str | None = None
        color2: str | None = None
        for sub in subs:
            if sub.key == "color":
                color = self.value(sub, "frame")
            elif sub.key == "color2":
                color2 = self.value(sub, "frame")
            else:
                raise self._unknown_sub(sub, "frame", ("color", "color2"))
        if color is None:
            raise self.error(col, "frame: sub part 'color' is required")
        if self.frame is not None:
            raise self.error(col, "frame: a tile has one frame; this is the second")
        self.frame = Frame(color, color2)

    def stripes(self, subs: list[_Sub], col: int) -> None:
        color: Color | None = None
        for sub in subs:
            if sub.key == "color":
                v = self.value(sub, "stripes")
                try:
                    color = Color(v)
                except ValueError:
                    raise self.error(sub.col, f"stripes: unknown colour {v!r}") from None
            else:
                raise self._unknown_sub(sub, "stripes", ("color",))
        if color is None:
            raise self.error(col, "stripes: sub part 'color' is required")
        self.stripe = color

    def _unknown_sub(self, sub: _Sub, part: str, allowed: tuple[str, ...]) -> TileSyntaxError:
        return self.error(
            sub.col,
            f"{part}: unknown sub part {sub.key!r}: expected one of {', '.join(allowed)}",
        )

    # ---------------------------------------------------------------- driver

    def run(self) -> None:
        text = self.text
        pos = 0
        n = len(text)
        while pos <= n:
            end = text.find(";", pos)
            if end < 0:
                end = n
            raw = text[pos:end]
            stripped = raw.strip()
            if stripped:
                col = pos + (len(raw) - len(raw.lstrip())) + 1
                self.part(stripped, col)
            pos = end + 1

    def part(self, part: str, col: int) -> None:
        kind, _, rest = part.partition("=")
        kind = kind.strip()
        if kind == "label":
            if not rest:
                raise self.error(col, "label: needs text (label=H)")
            self.labels.append(Label(rest))
            return
        handler = _HANDLERS.get(kind)
        if handler is None:
            raise self.error(
                col,
                f"unknown part {limits.shown(kind)}: expected one of {', '.join(MAIN_PARTS)}",
            )
        if kind in _NODE_PARTS and len(self.nodes) >= limits.MAX_NODES:
            raise self.error(col, f"{kind}: more than {limits.MAX_NODES} nodes on one tile")
        if kind == "path" and len(self.paths) >= limits.MAX_PATHS:
            raise self.error(col, f"path: more than {limits.MAX_PATHS} paths on one tile")
        subs: list[_Sub] = []
        if rest.strip():
            scol = col + len(part) - len(rest)
            for item in rest.split(","):
                s = item.strip()
                icol = scol + (len(item) - len(item.lstrip()))
                if not s:
                    raise self.error(icol, f"{kind}: empty sub part (two commas, or a stray one)")
                key, colon, value = s.partition(":")
                subs.append(_Sub(key.strip(), value if colon else None, icol))
                scol += len(item) + 1
        handler(self, subs, col)

    def finish(self, name: str, color: Color, stripe: Color | None) -> Tile:
        self.check_lanes()
        try:
            return check_limits(
                Tile(
                    name=name,
                    color=color,
                    nodes=tuple(self.nodes),
                    paths=tuple(self.paths),
                    labels=tuple(self.labels),
                    upgrades=tuple(self.upgrades),
                    borders=tuple(self.borders),
                    icons=tuple(self.icons),
                    frame=self.frame,
                    stripe=self.stripe if self.stripe is not None else stripe,
                )
            )
        except TileModelError as err:  # past a limit (references are checked before)
            raise TileSyntaxError(err.message, source=self.source) from None

    def check_lanes(self) -> None:
        by_edge: dict[int, list[tuple[Lane, int]]] = {}
        for p, col in zip(self.paths, self.path_cols, strict=True):
            if isinstance(p.a, Edge):
                by_edge.setdefault(p.a.num, []).append((p.a_lane, col))
            if isinstance(p.b, Edge):
                by_edge.setdefault(p.b.num, []).append((p.b_lane, col))
        for edge, lanes in sorted(by_edge.items()):
            widths = {w for (w, _), _ in lanes}
            if len(widths) > 1:
                col = next(c for (w, _), c in lanes if w != lanes[0][0][0])
                raise self.error(
                    col,
                    f"path: lane mismatch at edge {edge}: paths there give lane widths "
                    f"{', '.join(str(w) for w in sorted(widths))}; all must give the same",
                )
            width = widths.pop()
            if width > 1:
                used = {i for (_, i), _ in lanes}
                missing = sorted(set(range(width)) - used)
                if missing:
                    raise self.error(
                        lanes[0][1],
                        f"path: lane mismatch at edge {edge}: width {width} but no path uses "
                        f"lane index {', '.join(map(str, missing))}",
                    )


_NODE_SUBS: dict[NodeKind, tuple[str, ...]] = {
    NodeKind.CITY: ("revenue", "slots", "groups", "hide", "loc"),
    NodeKind.TOWN: ("revenue", "style", "groups", "hide", "loc"),
    NodeKind.OFFBOARD: ("revenue", "groups", "hide", "loc"),
    NodeKind.JUNCTION: (),
}
_NODE_PARTS = frozenset(("city", "town", "offboard", "junction"))
_PATH_SUBS = ("a", "b", "terminal", "ignore", "a_lane", "b_lane", "lanes", "track")


def _node_handler(kind: NodeKind) -> Callable[[_Parser, list[_Sub], int], None]:
    def handle(p: _Parser, subs: list[_Sub], col: int) -> None:
        p.node(kind, subs)

    return handle


def _blank(p: _Parser, subs: list[_Sub], col: int) -> None:
    if subs:
        raise p.error(subs[0].col, "blank: takes no sub parts")


_HANDLERS: dict[str, Callable[[_Parser, list[_Sub], int], None]] = {
    "city": _node_handler(NodeKind.CITY),
    "town": _node_handler(NodeKind.TOWN),
    "offboard": _node_handler(NodeKind.OFFBOARD),
    "junction": _node_handler(NodeKind.JUNCTION),
    "path": _Parser.path,
    "upgrade": _Parser.upgrade,
    "border": _Parser.border,
    "icon": _Parser.icon,
    "frame": _Parser.frame_part,
    "stripes": _Parser.stripes,
    "blank": _blank,
}

#: The main parts of the tile language.
MAIN_PARTS: tuple[str, ...] = (
    "city",
    "town",
    "offboard",
    "junction",
    "path",
    "label",
    "upgrade",
    "border",
    "icon",
    "frame",
    "stripes",
    "blank",
)


def expand_lanes(
    a: End,
    b: End,
    lanes: int,
    *,
    terminal: int = 0,
    ignore: bool = False,
    track: Track = Track.BROAD,
) -> list[Path]:
    """The ``lanes`` parallel paths that ``path=a:…,b:…,lanes:N`` stands for.

    Lane ``i`` has index ``i`` at ``a``; at ``b`` it has index ``N - 1 - i`` when both ends are
    edges (the clockwise-most track at one edge arrives counter-clockwise-most at the other),
    else index ``i``.
    """
    out: list[Path] = []
    both_edges = isinstance(a, Edge) and isinstance(b, Edge)
    for i in range(lanes):
        a_lane = (lanes, i)
        b_lane = (lanes, lanes - 1 - i) if both_edges else a_lane
        out.append(Path(a, b, terminal, ignore, a_lane, b_lane, track))
    return out


def parse(
    code: str,
    *,
    name: str = "",
    color: Color | str = Color.WHITE,
    source: str | None = None,
) -> Tile:
    """Read a tile string into a :class:`~tilelay.tile.Tile`.

    ``color`` may be a two-colour name such as ``greenbrown`` (colour plus stripe). ``source``
    names where the string came from, for error messages.
    """
    if isinstance(color, Color):
        tile_color, stripe = color, None
    else:
        try:
            tile_color, stripe = Color.parse(color)
        except ValueError as err:
            raise TileSyntaxError(str(err), source=source) from None
    if len(code) > limits.MAX_CODE:
        raise TileSyntaxError(
            f"the tile string is {len(code):,} characters long: at most {limits.MAX_CODE:,}",
            source=source,
        )
    bad = _BAD_CHARS.search(code)
    if bad is not None:
        raise TileSyntaxError(
            f"character U+{ord(bad.group()):04X} is not allowed in a tile string",
            source=source,
            column=bad.start() + 1,
        )
    p = _Parser(code, source)
    p.run()
    return p.finish(name, tile_color, stripe)


# ---------------------------------------------------------------------- writing


def unsupported(tile: Tile) -> list[str]:
    """The features of ``tile`` that the tile language cannot express, by name."""
    out: list[str] = []
    for i, n in enumerate(tile.nodes):
        if n.name:
            out.append(f"node _{i}: location name {n.name!r}")
        if n.revenue_loc is not None:
            out.append(f"node _{i}: revenue position {n.revenue_loc}")
        if n.revenue_layout is not None:
            out.append(f"node _{i}: revenue layout {n.revenue_layout!r}")
        if n.loc is not None and n.loc.kind == "location":
            out.append(f"node _{i}: position {n.loc} (a seed-000 location)")
        if n.kind is NodeKind.CITY and n.slots < 1:
            out.append(f"node _{i}: a city with no token slots")
        if n.kind is not NodeKind.CITY and n.slots:
            out.append(f"node _{i}: token slots on a {n.kind.value}")
    for i, p in enumerate(tile.paths):
        if p.track not in (Track.BROAD, Track.NARROW, Track.DUAL):
            out.append(f"path {i}: track gauge {p.track.value!r}")
        if p.over:
            out.append(f"path {i}: drawn as an overpass")
    for lab in tile.labels:
        if lab.loc is not None:
            out.append(f"label {lab.text!r}: position {lab.loc}")
    for thing, loc in (
        *(("upgrade", u.loc) for u in tile.upgrades),
        *(("icon", i.loc) for i in tile.icons),
    ):
        if loc is not None and loc.kind == "location":
            out.append(f"{thing}: position {loc} (a seed-000 location)")
    return out


def _revenue_text(r: Revenue | None) -> str:
    return "0" if r is None else str(r)


def _write_node(n: Node) -> str:
    if n.kind is NodeKind.JUNCTION:
        return "junction"
    subs = [f"revenue:{_revenue_text(n.revenue)}"]
    if n.kind is NodeKind.CITY and n.slots != 1:
        subs.append(f"slots:{n.slots}")
    if n.style is not None:
        subs.append(f"style:{n.style.value}")
    if n.groups:
        subs.append("groups:" + "|".join(n.groups))
    if n.hide:
        subs.append("hide:1")
    if n.loc is not None and n.loc.kind != "location":
        subs.append(f"loc:{n.loc}")
    return f"{n.kind.value}=" + ",".join(subs)


def _write_path(p: Path, lanes: int = 0) -> str:
    subs = [f"a:{p.a}", f"b:{p.b}"]
    if p.terminal:
        subs.append(f"terminal:{p.terminal}")
    if p.ignore:
        subs.append("ignore:1")
    if lanes:
        subs.append(f"lanes:{lanes}")
    else:
        if p.a_lane != SINGLE_LANE:
            subs.append(f"a_lane:{p.a_lane[0]}.{p.a_lane[1]}")
        if p.b_lane != SINGLE_LANE:
            subs.append(f"b_lane:{p.b_lane[0]}.{p.b_lane[1]}")
    if p.track is not Track.BROAD and p.track in (Track.NARROW, Track.DUAL):
        subs.append(f"track:{p.track.value}")
    return "path=" + ",".join(subs)


def write(tile: Tile, *, strict: bool = False) -> str:
    """The canonical tile string of ``tile`` (colour and names are not part of it).

    With ``strict``, a tile holding anything the language cannot express (see
    :func:`unsupported`) raises :class:`~tilelay.errors.TileModelError` naming it; otherwise
    those features are left out.
    """
    if strict:
        missing = unsupported(tile)
        if missing:
            raise TileModelError(
                f"tile {tile.name!r} cannot be written in the tile language: " + "; ".join(missing)
            )
    parts = [_write_node(n) for n in tile.nodes]
    paths = tile.paths
    i = 0
    while i < len(paths):
        p = paths[i]
        width = p.a_lane[0]
        if width > 1 and p.a_lane[1] == 0 and i + width <= len(paths):
            group = expand_lanes(
                p.a, p.b, width, terminal=p.terminal, ignore=p.ignore, track=p.track
            )
            if list(paths[i : i + width]) == group:
                parts.append(_write_path(p, width))
                i += width
                continue
        parts.append(_write_path(p))
        i += 1
    parts.extend(f"label={lab.text}" for lab in tile.labels)
    for u in tile.upgrades:
        subs = [f"cost:{u.cost}"]
        if u.terrains:
            subs.append("terrain:" + "|".join(u.terrains))
        if u.loc is not None and u.loc.kind != "location":
            subs.append(f"loc:{u.loc}")
        parts.append("upgrade=" + ",".join(subs))
    for b in tile.borders:
        subs = [f"edge:{b.edge}"]
        if b.type is not None:
            subs.append(f"type:{b.type.value}")
        if b.cost is not None:
            subs.append(f"cost:{b.cost}")
        parts.append("border=" + ",".join(subs))
    for icon in tile.icons:
        subs = [f"image:{icon.image}"]
        if icon.name is not None:
            subs.append(f"name:{icon.name}")
        if icon.sticky:
            subs.append("sticky:1")
        if icon.blocks_lay:
            subs.append("blocks_lay:1")
        if icon.loc is not None and icon.loc.kind != "location":
            subs.append(f"loc:{icon.loc}")
        parts.append("icon=" + ",".join(subs))
    if tile.frame is not None:
        f = f"frame=color:{tile.frame.color}"
        if tile.frame.color2 is not None:
            f += f",color2:{tile.frame.color2}"
        parts.append(f)
    if tile.stripe is not None:
        parts.append(f"stripes=color:{tile.stripe.value}")
    return ";".join(parts)


def canonical(code: str, *, source: str | None = None) -> str:
    """The canonical form of a tile string."""
    return write(parse(code, source=source))
