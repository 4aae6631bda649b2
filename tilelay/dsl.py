"""The 18xx.games tile language (seeds 001/002): read and write.

A tile string is main parts separated by ``;`` (``city``, ``town``, ``offboard``, ``junction``,
``halt``, ``pass``, ``path``, ``stub``, ``label``, ``future_label``, ``upgrade``, ``border``,
``partition``, ``icon``, ``frame``, ``stripes``), each ``kind=`` followed by sub parts separated
by ``,`` as ``key:value``; list values are separated by ``|``. Paths join edges (``0``–``5``)
and nodes defined earlier (``_0`` is the first city, town, offboard, junction, halt or pass).
``lanes:N`` expands into ``N`` parallel paths.

The language is the 18xx.games engine's (``lib/engine/tile.rb``); where the engine's own
reader is lenient with what its games write, this reader is lenient the same way: ``a:6`` is
edge 0 (the engine turns edges modulo 6), a node's ``loc`` beyond 5.5 is taken modulo 6 (the
engine's ``compute_loc``), trailing commas are dropped (Ruby's ``split``), an empty ``label=``
is no label (the engine draws nothing for it), an icon's ``loc:hex`` is no loc (the engine
places an icon whose loc is not a corner where it places one without), and the sub parts its
games write but its reader ignores (:data:`IGNORED_SUB_PARTS`) are read and left out.

>>> tile = parse("city=revenue:20;path=a:0,b:_0;path=a:_0,b:3", name="57", color="yellow")
>>> write(tile)
'city=revenue:20;path=a:0,b:_0;path=a:_0,b:3'

:func:`write` gives a canonical string: defaults are left out, sub parts come in a fixed order,
nodes come before paths and parallel lanes are folded back into ``lanes:N``. Reading it back
gives an equal tile, less what the language has no place for (drawing positions, printed
names: :func:`unsupported` names them); a tile it cannot write as it is (a label holding a
``;``, 13 token slots) is refused. Errors are :class:`~tilelay.errors.TileSyntaxError` naming
the column, the part and what was expected; a text (a label, a group, a colour…) holds no
control character, tab and line break included.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from decimal import Decimal

from tilelay import limits
from tilelay.errors import TileModelError, TileSyntaxError
from tilelay.hexgeo import Loc, parse_loc
from tilelay.tile import (
    SINGLE_LANE,
    WRITE_CHECKED,
    Border,
    BorderType,
    Color,
    Edge,
    End,
    Frame,
    FutureLabel,
    Icon,
    Label,
    Lane,
    Node,
    NodeKind,
    NodeRef,
    Partition,
    PartitionSide,
    Path,
    Revenue,
    StopRoute,
    Stub,
    TerrainUpgrade,
    Tile,
    TileTypeError,
    TownStyle,
    Track,
    check_limits,
    default_route,
    limit_problem,
)

__all__ = [
    "IGNORED_SUB_PARTS",
    "MAIN_PARTS",
    "canonical",
    "engine_parts",
    "format_revenue",
    "parse",
    "read_as_engine",
    "unsupported",
    "unwritable",
    "valid_revenue_format",
    "with_engine_parts",
    "write",
]

_DIGITS = frozenset("0123456789")
#: Characters no tile string may hold: control characters other than tab and line breaks,
#: lone surrogates and the non-characters U+FFFE and U+FFFF.
_BAD_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
#: The control characters :data:`_BAD_CHARS` lets through, as whitespace between parts (the
#: engine's own strings break lines there); never in a text.
_LINE_CHARS = re.compile("[\t\n\r]")
_AMOUNT = f"a whole number from -{limits.MAX_AMOUNT:,} to {limits.MAX_AMOUNT:,}"
_NUMBER = re.compile(r"[0-9]+(?:\.[0-9]+)?")
_FORMAT_DIRECTIVE = re.compile(r"%(?:%|[-+ 0#]*[0-9]{0,2}([dis]))")
_TRACKS = ("broad", "narrow", "dual", "thin", "future")
_WRITTEN_TRACKS = frozenset(Track(t) for t in _TRACKS)

#: Sub parts the engine's games write but its reader ignores, by part: this reader accepts
#: them and leaves them out, so the tile is the one the engine holds (a city's
#: ``reservation``, 1894; a path's ``loc``, 1860; an upgrade's ``sticky``, 18Cuba; an icon's
#: ``visit_cost``, 18VA).
IGNORED_SUB_PARTS: dict[str, tuple[str, ...]] = {
    "city": ("reservation",),
    "path": ("loc",),
    "upgrade": ("sticky",),
    "icon": ("visit_cost",),
}


def valid_revenue_format(fmt: str) -> bool:
    """Whether ``fmt`` is a revenue format: text with one ``%d``, ``%i`` or ``%s`` (flags and
    a width up to 99 allowed) and ``%%`` for a per cent sign."""
    directives = [m for m in _FORMAT_DIRECTIVE.finditer(fmt) if m.group(1)]
    return len(directives) == 1 and "%" not in _FORMAT_DIRECTIVE.sub("", fmt)


def format_revenue(fmt: str | None, value: int) -> str:
    """``value`` printed with a revenue format (``+%d`` gives ``+30``), or plainly without one
    (or with one that :func:`valid_revenue_format` refuses)."""
    if fmt is None or not valid_revenue_format(fmt):
        return str(value)
    return fmt % (value,)


class _Sub:
    """One ``key:value`` sub part, the column where it starts and the column of its value."""

    __slots__ = ("col", "key", "value", "vcol")

    def __init__(self, key: str, value: str | None, col: int, vcol: int) -> None:
        self.key = key
        self.value = value
        self.col = col
        self.vcol = vcol


class _Parser:
    __slots__ = (
        "as_engine",
        "borders",
        "frame",
        "future_label",
        "icons",
        "labels",
        "nodes",
        "notes",
        "partitions",
        "path_cols",
        "paths",
        "source",
        "stripe",
        "stubs",
        "text",
        "upgrades",
    )

    def __init__(self, text: str, source: str | None, as_engine: bool = False) -> None:
        self.text = text
        self.source = source
        #: read as the 18xx.games engine reads its own strings (:func:`read_as_engine`):
        #: a sub part given twice takes its last value, an unknown one is ignored, a node
        #: reference is read by its leading digits (else each is an error)
        self.as_engine = as_engine
        #: what reading as the engine did that a strict reading refuses, in order
        self.notes: list[str] = []
        self.nodes: list[Node] = []
        self.paths: list[Path] = []
        self.path_cols: list[int] = []
        self.stubs: list[Stub] = []
        self.labels: list[Label] = []
        self.future_label: FutureLabel | None = None
        self.upgrades: list[TerrainUpgrade] = []
        self.borders: list[Border] = []
        self.partitions: list[Partition] = []
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

    def text_value(self, sub: _Sub, part: str) -> str:
        """A sub part's value that is a text (a group, a symbol, a colour, an image…): one
        line, with no control character."""
        v = self.value(sub, part)
        self.check_text(v, sub.vcol, f"{part}: {sub.key}")
        return v

    def check_text(self, text: str, col: int, what: str) -> None:
        """Refuse the tab or line break in a text (the other control characters are refused
        in the whole string), at its column."""
        bad = _LINE_CHARS.search(text)
        if bad is not None:
            raise self.error(
                col + bad.start(),
                f"{what}: the control character U+{ord(bad.group()):04X} is not allowed in a "
                "text (texts are one line)",
            )

    def flag(self, sub: _Sub, part: str) -> bool:
        if sub.value is None or sub.value in ("1", "true"):
            return True
        if sub.value in ("0", "false"):
            return False
        raise self.error(sub.col, f"{part}: {sub.key} must be 1 or 0, got {sub.value!r}")

    def loc(self, sub: _Sub, part: str) -> Loc:
        try:
            loc = parse_loc(self.value(sub, part))
        except ValueError as err:
            raise self.error(sub.col, f"{part}: {err}") from None
        if loc.kind == "location":  # the writer could not write it back
            raise self.error(
                sub.col,
                f"{part}: {loc} is a seed-000 location, not a loc of the tile language: expected "
                "center, an edge 0-5 or a corner 0.5-5.5",
            )
        return loc

    def node_loc(self, sub: _Sub, part: str) -> Loc:
        """A node's loc: as :meth:`loc`, and a number beyond 5.5 (or written ``4.0``) taken
        modulo 6 as the engine places nodes (``compute_loc``)."""
        v = self.value(sub, part)
        if len(v) <= 12 and _NUMBER.fullmatch(v):
            turns = float(v) % 6
            if turns == int(turns):
                return Loc("edge", turns)
            if turns * 2 == int(turns * 2):
                return Loc("corner", turns)
        return self.loc(sub, part)

    def revenue(self, sub: _Sub, part: str) -> Revenue:
        v = self.value(sub, part)
        if "_" not in v:
            return Revenue(self.integer(sub, part, what=f"{_AMOUNT} or a phase_value list"))
        phases: list[tuple[str, int]] = []
        col = sub.vcol
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
            self.check_text(phase, col, f"{part}: revenue phase")
            phases.append((phase, value))
            col += len(item) + 1
        return Revenue(0, tuple(phases))

    def groups(self, sub: _Sub, part: str) -> tuple[str, ...]:
        return tuple(g for g in self.text_value(sub, part).split("|"))

    def end(self, sub: _Sub) -> End:
        v = self.value(sub, "path")
        if v[:1] == "_":
            body = v[1:]
            if self.as_engine and body[:1] in _DIGITS and not _DIGITS.issuperset(body):
                # (Ruby's to_i: the leading digits)
                digits = body[: len(body) - len(body.lstrip("0123456789"))]
                self.notes.append(
                    f"path: node reference {limits.shown(v)} (column {sub.col}) read as _{digits}"
                )
                body = digits
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
        if len(v) == 1 and v in "0123456":
            return Edge(int(v) % 6)  # the engine turns edge 6 into edge 0
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

    def node(self, part: str, subs: list[_Sub]) -> None:
        kind = _NODE_KINDS[part]
        allowed = _NODE_SUBS[part]
        halt, mountain_pass = part == "halt", part == "pass"
        revenue: Revenue | None = None
        slots = 1 if kind is NodeKind.CITY else 0
        style: TownStyle | None = None
        groups: tuple[str, ...] = ()
        hide = boom = to_city = outline = False
        loc: Loc | None = None
        visit_cost, rows, pass_size = 1, 1, 1
        route: StopRoute | None = None
        fmt: str | None = None
        symbol: str | None = None
        pass_color: str | None = None
        for sub in self.checked(subs, part, allowed):
            key = sub.key
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
                    low=0,
                    high=limits.MAX_SLOTS,
                    what=f"a whole number from 0 to {limits.MAX_SLOTS}",
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
                loc = self.node_loc(sub, part)
            elif key == "visit_cost":
                visit_cost = self.integer(
                    sub, part, low=0, what=f"a whole number from 0 to {limits.MAX_AMOUNT:,}"
                )
            elif key == "route":
                v = self.value(sub, part)
                try:
                    route = StopRoute(v)
                except ValueError:
                    raise self.error(
                        sub.col, f"{part}: route must be mandatory, optional or never, got {v!r}"
                    ) from None
            elif key == "format":
                fmt = self.revenue_format(sub, part)
            elif key == "rows":
                rows = self.integer(sub, part, low=1, high=9, what="a whole number from 1 to 9")
            elif key == "boom":
                boom = self.flag(sub, part)
            elif key == "to_city":
                to_city = self.flag(sub, part)
            elif key == "outline":
                outline = self.flag(sub, part)
            elif key == "symbol":
                symbol = self.text_value(sub, part)
            elif key == "color":
                pass_color = self.text_value(sub, part)
            elif key == "size":
                pass_size = self.integer(
                    sub,
                    part,
                    low=1,
                    high=limits.MAX_SIZE,
                    what=f"a whole number of at least 1 (at most {limits.MAX_SIZE})",
                )
        if kind is not NodeKind.JUNCTION and revenue is None:
            revenue = Revenue(0)
        node = Node(
            kind,
            revenue,
            slots,
            style,
            groups,
            hide,
            loc,
            visit_cost=visit_cost,
            revenue_format=fmt,
            revenue_rows=rows,
            boom=boom,
            to_city=to_city,
            outline=outline,
            halt=halt,
            symbol=symbol,
            mountain_pass=mountain_pass,
            pass_color=pass_color,
            pass_size=pass_size,
        )
        if route is not None and route is not default_route(node):
            node = replace(node, route=route)
        self.nodes.append(node)

    def checked(self, subs: list[_Sub], part: str, allowed: tuple[str, ...]) -> Iterator[_Sub]:
        """``subs`` in order without the ones the engine ignores; an unknown or repeated one
        raises when reached, so errors come in the order of the text."""
        ignored = IGNORED_SUB_PARTS.get(part, ())
        seen: set[str] = set()
        if self.as_engine:
            last = {sub.key: i for i, sub in enumerate(subs)}
            for i, sub in enumerate(subs):
                if last[sub.key] != i and sub.key not in ignored:
                    self.notes.append(
                        f"{part}: sub part {sub.key!r} given twice (columns {sub.col} and "
                        f"{subs[last[sub.key]].col}): the last taken"
                    )
            subs = [sub for i, sub in enumerate(subs) if last[sub.key] == i]
        for sub in subs:
            if sub.key in ignored:
                continue
            if sub.key not in allowed:
                self.unknown(sub, part, allowed)
                continue
            if sub.key in seen:
                raise self.error(sub.col, f"{part}: sub part {sub.key!r} given twice")
            seen.add(sub.key)
            yield sub

    def revenue_format(self, sub: _Sub, part: str) -> str:
        v = self.text_value(sub, part)
        if not valid_revenue_format(v):
            raise self.error(
                sub.col,
                f"{part}: format must hold one %d or %s (e.g. +%d), got {v!r}",
            )
        return v

    def path(self, subs: list[_Sub], col: int) -> None:
        a: End | None = None
        b: End | None = None
        terminal = 0
        ignore = False
        a_lane: Lane | None = None
        b_lane: Lane | None = None
        lanes: _Sub | None = None
        track = Track.BROAD
        for sub in self.checked(subs, "path", _PATH_SUBS):
            key = sub.key
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
                if v not in _TRACKS:
                    raise self.error(
                        sub.col, f"path: track must be {', '.join(_TRACKS)}, got {v!r}"
                    )
                track = Track(v)
        if a is None or b is None:
            missing = "a" if a is None else "b"
            raise self.error(col, f"path: sub part {missing!r} is required")
        if a == b and isinstance(a, NodeRef):
            raise self.error(col, f"path: both ends are {a}; a path joins a node to something else")
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
        size: int | None = None
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
            elif sub.key == "size":
                size = self.integer(
                    sub,
                    "upgrade",
                    low=1,
                    high=limits.MAX_SIZE,
                    what=f"a whole number of at least 1 (at most {limits.MAX_SIZE})",
                )
            elif sub.key not in IGNORED_SUB_PARTS["upgrade"]:
                self.unknown(sub, "upgrade", ("cost", "terrain", "loc", "size"))
        if cost is None:
            raise self.error(col, "upgrade: sub part 'cost' is required")
        self.upgrades.append(TerrainUpgrade(cost, terrains, loc, size))

    def border(self, subs: list[_Sub], col: int) -> None:
        edge: int | None = None
        btype: BorderType | None = None
        cost: int | None = None
        color: str | None = None
        for sub in subs:
            if sub.key == "edge":
                edge = self.integer(sub, "border", low=0, high=5, what="an edge 0-5")
            elif sub.key == "type":
                btype = self.border_type(sub, "border")
            elif sub.key == "cost":
                cost = self.integer(
                    sub, "border", low=0, what=f"a whole number from 0 to {limits.MAX_AMOUNT:,}"
                )
            elif sub.key == "color":
                color = self.text_value(sub, "border")
            else:
                self.unknown(sub, "border", ("edge", "type", "cost", "color"))
        if edge is None:
            raise self.error(col, "border: sub part 'edge' is required")
        self.borders.append(Border(edge, btype, cost, color))

    def border_type(self, sub: _Sub, part: str) -> BorderType:
        v = self.value(sub, part)
        try:
            return BorderType(v)
        except ValueError:
            names = ", ".join(t.value for t in BorderType)
            raise self.error(sub.col, f"{part}: type must be one of {names}, got {v!r}") from None

    def stub(self, subs: list[_Sub], col: int) -> None:
        edge: int | None = None
        for sub in self.checked(subs, "stub", ("edge",)):
            edge = self.integer(sub, "stub", low=0, high=5, what="an edge 0-5")
        if edge is None:
            raise self.error(col, "stub: sub part 'edge' is required")
        self.stubs.append(Stub(edge))

    def partition(self, subs: list[_Sub], col: int) -> None:
        ends: dict[str, tuple[int, int]] = {}
        ptype: BorderType | None = None
        restrict: PartitionSide | None = None
        length: float | None = None
        for sub in self.checked(subs, "partition", _PARTITION_SUBS):
            key = sub.key
            if key in ("a", "b"):
                v = self.value(sub, "partition")
                sign = {"+": 1, "-": -1}.get(v[1:], 0) if len(v) == 2 else 0
                if v[:1] not in tuple("012345") or len(v) > 2 or (len(v) == 2 and not sign):
                    raise self.error(
                        sub.col,
                        f"partition: {key} must be a corner 0-5, maybe with + or -, got {v!r}",
                    )
                ends[key] = (int(v[0]), sign)
            elif key == "type":
                ptype = self.border_type(sub, "partition")
            elif key == "restrict":
                v = self.value(sub, "partition")
                try:
                    restrict = PartitionSide(v)
                except ValueError:
                    raise self.error(
                        sub.col, f"partition: restrict must be inner or outer, got {v!r}"
                    ) from None
            elif key == "length":
                v = self.value(sub, "partition")
                if not _NUMBER.fullmatch(v) or not 0 < float(v) <= 1:
                    raise self.error(
                        sub.col, f"partition: length must be a fraction above 0, up to 1, got {v!r}"
                    )
                length = float(v)
        if "a" not in ends or "b" not in ends:
            missing = "a" if "a" not in ends else "b"
            raise self.error(col, f"partition: sub part {missing!r} is required")
        (a, a_sign), (b, b_sign) = ends["a"], ends["b"]
        self.partitions.append(
            Partition(a, b, ptype, _engine_side(restrict, a, b), a_sign, b_sign, length)
        )

    def future_label_part(self, subs: list[_Sub], col: int) -> None:
        text: str | None = None
        color: Color | None = None
        for sub in self.checked(subs, "future_label", ("label", "color")):
            if sub.key == "label":
                text = self.text_value(sub, "future_label")
            else:
                v = self.value(sub, "future_label")
                try:
                    color = Color(v)
                except ValueError:
                    raise self.error(sub.col, f"future_label: unknown colour {v!r}") from None
        if self.future_label is not None:
            raise self.error(col, "future_label: a tile has one future label; this is the second")
        self.future_label = FutureLabel(text, color)

    def icon(self, subs: list[_Sub], col: int) -> None:
        image: str | None = None
        name: str | None = None
        sticky = blocks = large = False
        loc: Loc | None = None
        for sub in subs:
            if sub.key == "image":
                image = self.text_value(sub, "icon")
            elif sub.key == "name":
                name = self.text_value(sub, "icon")
            elif sub.key == "sticky":
                sticky = self.flag(sub, "icon")
            elif sub.key == "blocks_lay":
                blocks = self.flag(sub, "icon")
            elif sub.key == "loc":
                loc = None if sub.value == "hex" else self.loc(sub, "icon")
            elif sub.key == "large":
                large = self.flag(sub, "icon")
            elif sub.key not in IGNORED_SUB_PARTS["icon"]:
                self.unknown(sub, "icon", ("image", "name", "sticky", "blocks_lay", "loc", "large"))
        if image is None:
            raise self.error(col, "icon: sub part 'image' is required")
        self.icons.append(Icon(image, name, sticky, blocks, loc, large))

    def frame_part(self, subs: list[_Sub], col: int) -> None:
        color: str | None = None
        color2: str | None = None
        for sub in subs:
            if sub.key == "color":
                color = self.text_value(sub, "frame")
            elif sub.key == "color2":
                color2 = self.text_value(sub, "frame")
            else:
                self.unknown(sub, "frame", ("color", "color2"))
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
                self.unknown(sub, "stripes", ("color",))
        if color is None:
            raise self.error(col, "stripes: sub part 'color' is required")
        self.stripe = color

    def unknown(self, sub: _Sub, part: str, allowed: tuple[str, ...]) -> None:
        """A sub part ``part`` does not know: an error, but ignored (and noted) where read as
        the engine reads it (its parts read the keys they know)."""
        if not self.as_engine:
            raise self.error(
                sub.col,
                f"{part}: unknown sub part {sub.key!r}: expected one of {', '.join(allowed)}",
            )
        self.notes.append(f"{part}: unknown sub part {sub.key!r} (column {sub.col}) ignored")

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
            if rest:  # the engine draws an empty label= as nothing
                self.check_text(rest, col + len(part) - len(rest), "label")
                self.labels.append(Label(rest))
            return
        handler = _HANDLERS.get(kind)
        if handler is None:
            raise self.error(
                col,
                f"unknown part {limits.shown(kind)}: expected one of {', '.join(MAIN_PARTS)}",
            )
        if kind in _NODE_KINDS and len(self.nodes) >= limits.MAX_NODES:
            raise self.error(col, f"{kind}: more than {limits.MAX_NODES} nodes on one tile")
        if kind == "path" and len(self.paths) >= limits.MAX_PATHS:
            raise self.error(col, f"path: more than {limits.MAX_PATHS} paths on one tile")
        subs: list[_Sub] = []
        if rest.strip():
            scol = col + len(part) - len(rest)
            items = rest.split(",")
            while items and not items[-1].strip():  # trailing commas, as Ruby's split drops
                items.pop()
            for item in items:
                s = item.strip()
                icol = scol + (len(item) - len(item.lstrip()))
                if not s:
                    raise self.error(icol, f"{kind}: empty sub part (two commas, or a stray one)")
                key, colon, value = s.partition(":")
                subs.append(_Sub(key.strip(), value if colon else None, icol, icol + len(key) + 1))
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
                    stubs=tuple(self.stubs),
                    partitions=tuple(self.partitions),
                    future_label=self.future_label,
                )
            )
        except TileModelError as err:  # past a limit (references are checked before)
            raise TileSyntaxError(err.message, source=self.source) from None

    def check_lanes(self) -> None:
        """All paths at an edge give the same lane width (:func:`_lane_mismatch`)."""
        mismatch = _lane_mismatch(self.paths)
        if mismatch is not None:
            index, message = mismatch
            raise self.error(self.path_cols[index], f"path: {message}")


def _lane_mismatch(paths: Sequence[Path]) -> tuple[int, str] | None:
    """The first path (its index) whose lane width at an edge differs from another's there,
    and the mismatch in words; ``None`` when all paths at each edge give the same width
    (lanes may go unused there: the engine's 22 Mars leaves some of an edge's lanes to the
    neighbouring hex)."""
    by_edge: dict[int, list[tuple[int, int]]] = {}
    for i, p in enumerate(paths):
        if isinstance(p.a, Edge):
            by_edge.setdefault(p.a.num, []).append((p.a_lane[0], i))
        if isinstance(p.b, Edge):
            by_edge.setdefault(p.b.num, []).append((p.b_lane[0], i))
    for edge, lanes in sorted(by_edge.items()):
        widths = {w for w, _ in lanes}
        if len(widths) > 1:
            index = next(i for w, i in lanes if w != lanes[0][0])
            return index, (
                f"lane mismatch at edge {edge}: paths there give lane widths "
                f"{', '.join(str(w) for w in sorted(widths))}; all must give the same"
            )
    return None


_NODE_KINDS: dict[str, NodeKind] = {
    "city": NodeKind.CITY,
    "pass": NodeKind.CITY,
    "town": NodeKind.TOWN,
    "halt": NodeKind.TOWN,
    "offboard": NodeKind.OFFBOARD,
    "junction": NodeKind.JUNCTION,
}
_STOP_SUBS = ("revenue", "groups", "hide", "visit_cost", "route", "format")
_NODE_SUBS: dict[str, tuple[str, ...]] = {
    "city": (*_STOP_SUBS[:1], "slots", *_STOP_SUBS[1:], "boom", "outline", "loc"),
    "pass": (*_STOP_SUBS[:1], "slots", *_STOP_SUBS[1:], "boom", "loc", "color", "size"),
    "town": (*_STOP_SUBS[:1], "style", *_STOP_SUBS[1:], "boom", "to_city", "loc"),
    "halt": ("symbol", *_STOP_SUBS, "loc"),
    "offboard": (*_STOP_SUBS, "rows", "loc"),
    "junction": (),
}
_PATH_SUBS = ("a", "b", "terminal", "ignore", "a_lane", "b_lane", "lanes", "track")
_PARTITION_SUBS = ("a", "b", "type", "restrict", "length")


def _engine_side(side: PartitionSide | None, a: int, b: int) -> PartitionSide | None:
    """The side of a partition in the model's terms (inner: clockwise from ``a`` to ``b``) from
    the engine's (inner: clockwise from the lower corner number to the higher), and back."""
    if side is None or a <= b:
        return side
    return PartitionSide.OUTER if side is PartitionSide.INNER else PartitionSide.INNER


def _node_handler(part: str) -> Callable[[_Parser, list[_Sub], int], None]:
    def handle(p: _Parser, subs: list[_Sub], col: int) -> None:
        p.node(part, subs)

    return handle


def _blank(p: _Parser, subs: list[_Sub], col: int) -> None:
    if subs:
        raise p.error(subs[0].col, "blank: takes no sub parts")


_HANDLERS: dict[str, Callable[[_Parser, list[_Sub], int], None]] = {
    **{part: _node_handler(part) for part in _NODE_KINDS},
    "path": _Parser.path,
    "stub": _Parser.stub,
    "future_label": _Parser.future_label_part,
    "upgrade": _Parser.upgrade,
    "border": _Parser.border,
    "partition": _Parser.partition,
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
    "halt",
    "pass",
    "stub",
    "partition",
    "future_label",
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
    names where the string came from, for error messages. A mistake is an error naming its
    column (the 18xx.games engine's own strings with one: :func:`read_as_engine`).
    """
    return _read(code, name, color, source, False)[0]


def read_as_engine(
    code: str,
    *,
    name: str = "",
    color: Color | str = Color.WHITE,
    source: str | None = None,
) -> tuple[Tile, tuple[str, ...]]:
    """Read a tile string as the 18xx.games engine reads its own (``Tile.decode``: split on
    ``;``, ``=`` and ``,``, ``to_h``, ``to_i``), for the strings of its games that hold a
    mistake :func:`parse` refuses: a sub part given twice takes its last value, a sub part
    its part does not know is ignored, a node reference is read by its leading digits. The
    tile, with what was read so (each naming its column; none for a string :func:`parse`
    reads). Other mistakes are errors still.

    >>> tile, notes = read_as_engine("offboard=groups:A,revenue:20,groups:B")
    >>> tile.nodes[0].groups, notes
    (('B',), ("offboard: sub part 'groups' given twice (columns 10 and 30): the last taken",))
    """
    return _read(code, name, color, source, True)


def _read(
    code: str, name: str, color: Color | str, source: str | None, as_engine: bool
) -> tuple[Tile, tuple[str, ...]]:
    """``code`` read (strictly, or as the engine reads it), with what reading as the engine
    did."""
    for what, value in (("a tile string", code), ("a tile's name", name)):
        if not isinstance(value, str):
            raise TileSyntaxError(f"{what} must be text, not {type(value).__name__}", source=source)
    if isinstance(color, Color):
        tile_color, stripe = color, None
    else:
        if not isinstance(color, str):
            raise TileSyntaxError(
                f"a tile's colour must be a Color or its name, not {type(color).__name__}",
                source=source,
            )
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
    p = _Parser(code, source, as_engine)
    p.run()
    return p.finish(name, tile_color, stripe), tuple(p.notes)


# ---------------------------------------------------------------------- writing


def unsupported(tile: Tile) -> list[str]:
    """What of ``tile`` the tile language cannot express, by name, in the order of the tile.

    Two kinds: what the language has no place for, which :func:`write` leaves out (where
    things are drawn: node, revenue and label positions, seed 000's locations, revenue
    layouts; printed location names; Rails' and seed 000's gauges; overpasses; a stop without
    a revenue, written as revenue 0; an empty label), and what it has a place for but cannot
    hold as given, which :func:`write` refuses (see :func:`unwritable`). A tile's name, colour,
    rotation, location name and source attributes (``extra``) are not part of a tile string
    and are not listed.
    """
    return [message for _, message in _losses(tile)]


def unwritable(tile: Tile) -> list[str]:
    """What of ``tile`` the tile language has a place for but cannot hold as given, by name
    (a label or text holding a separator, empty or ending in a space; a sub part the node's
    part does not take; a path from a node to itself; lanes of different widths at an edge;
    a revenue format or terrain the reader refuses): :func:`write` refuses such a tile rather
    than leave content out. The limits of :func:`~tilelay.tile.limit_problem` apply too."""
    return [message for refused, message in _losses(tile) if refused]


def _losses(tile: Tile) -> list[tuple[bool, str]]:
    """Every feature of ``tile`` the language cannot express, with whether :func:`write`
    refuses it (``True``) or leaves it out (``False``)."""
    out: list[tuple[bool, str]] = []
    for i, n in enumerate(tile.nodes):
        if n.name:
            out.append((False, f"node _{i}: location name {n.name!r}"))
        if n.revenue_loc is not None:
            out.append((False, f"node _{i}: revenue position {n.revenue_loc}"))
        if n.revenue_layout is not None:
            out.append((False, f"node _{i}: revenue layout {n.revenue_layout!r}"))
        if n.loc is not None and n.loc.kind == "location":
            out.append((False, f"node _{i}: position {n.loc} (a seed-000 location)"))
        if n.kind is not NodeKind.JUNCTION and n.revenue is None:
            out.append((False, f"node _{i}: no revenue (written as revenue 0)"))
        if n.kind is not NodeKind.CITY and n.slots:
            out.append((True, f"node _{i}: token slots on a {n.kind.value}"))
        part = _node_part(n)
        if part not in _NODE_KINDS:
            out.append((True, f"node _{i}: {n.kind.value} marked as a halt or pass"))
            continue
        allowed = _NODE_SUBS[part]
        for key, present in (
            ("revenue", n.revenue is not None),
            ("groups", bool(n.groups)),
            ("hide", n.hide),
            ("loc", n.loc is not None and n.loc.kind != "location"),
            ("style", n.style is not None),
            ("visit_cost", n.visit_cost != 1),
            ("route", n.route is not None and n.route is not default_route(n)),
            ("format", n.revenue_format is not None),
            ("rows", n.revenue_rows != 1),
            *_node_flags(n),
            ("symbol", n.symbol is not None),
            ("color", n.pass_color is not None),
            ("size", n.pass_size != 1),
        ):
            if present and key not in allowed:
                out.append((True, f"node _{i}: {key} on a {part}"))
        if n.revenue_format is not None and not valid_revenue_format(n.revenue_format):
            out.append(
                (True, f"node _{i}: revenue format {n.revenue_format!r} (one %d or %s, e.g. +%d)")
            )
    for i, p in enumerate(tile.paths):
        if p.track.value not in _TRACKS:
            out.append((False, f"path {i}: track gauge {p.track.value!r}"))
        if p.over:
            out.append((False, f"path {i}: drawn as an overpass"))
        if p.a == p.b and isinstance(p.a, NodeRef):
            out.append(
                (True, f"path {i}: both ends are {p.a} (a path joins a node to another end)")
            )
    mismatch = _lane_mismatch(tile.paths)
    if mismatch is not None:
        out.append((True, f"path {mismatch[0]}: {mismatch[1]}"))
    for lab in tile.labels:
        if lab.loc is not None:
            out.append((False, f"label {lab.text!r}: position {lab.loc}"))
        if not lab.text:
            out.append((False, "label '': empty (the tile language reads label= as no label)"))
        elif not _fits(lab.text, part=True):
            out.append((True, f"label {lab.text!r}: a ';' (the tile language ends a part there)"))
        elif lab.text[-1].isspace():
            out.append((True, f"label {lab.text!r}: {_TRAILING}"))
    for thing, text, kind in _sub_texts(tile):
        listed = kind in ("item", "phase")
        if not text and kind != "item":
            out.append((True, f"{thing} '': empty (a sub part's value is never empty)"))
        elif kind != "list" and not _fits(text, part=False, item=listed):
            seps = "a ';', ',' or '|'" if listed else "a ';' or ','"
            out.append((True, f"{thing} {text!r}: {seps} (they separate the language's parts)"))
        elif kind in ("value", "list") and text[-1].isspace():
            out.append((True, f"{thing} {text!r}: {_TRAILING}"))
    for u in tile.upgrades:
        for t in u.terrains:
            if not t or not t.replace("_", "").isalpha():
                out.append((True, f"upgrade: terrain {t!r} (a terrain is letters and '_')"))
    for thing, loc in (
        *(("upgrade", u.loc) for u in tile.upgrades),
        *(("icon", i.loc) for i in tile.icons),
    ):
        if loc is not None and loc.kind == "location":
            out.append((False, f"{thing}: position {loc} (a seed-000 location)"))
    return out


_TRAILING = "ends in whitespace (the tile language drops it)"


def _sub_texts(tile: Tile) -> Iterator[tuple[str, str, str]]:
    """The texts ``tile`` writes as sub parts' values: what they are, the text, and how it
    is written: a ``value`` of its own, an ``item`` of a list (``|`` separates those; an
    item may be empty, and only the last one's end is the value's), the ``list`` of them
    joined, or a revenue's ``phase`` name (``phase_value``)."""
    if tile.future_label is not None and tile.future_label.text is not None:
        yield "future label", tile.future_label.text, "value"
    for icon in tile.icons:
        yield "icon", icon.image, "value"
        if icon.name is not None:
            yield "icon", icon.name, "value"
    for i, n in enumerate(tile.nodes):
        for g in n.groups:
            yield "group", g, "item"
        if n.groups:
            yield f"node _{i} groups", "|".join(n.groups), "list"
        for what, text in (
            ("symbol", n.symbol),
            ("pass colour", n.pass_color),
            ("revenue format", n.revenue_format),
        ):
            if text is not None:
                yield f"node _{i} {what}", text, "value"
        if n.revenue is not None:
            for phase, _ in n.revenue.phases:
                yield f"node _{i} revenue phase", phase, "phase"
    if tile.frame is not None:
        yield "frame colour", tile.frame.color, "value"
        if tile.frame.color2 is not None:
            yield "frame colour", tile.frame.color2, "value"
    for b in tile.borders:
        if b.color is not None:
            yield "border colour", b.color, "value"


def _fits(text: str, *, part: bool, item: bool = True) -> bool:
    """Whether ``text`` can be written as a whole part's value (``part``: a label), or as a
    sub-part's value (``item``: an item of a list) (a ``;`` ends a part, a ``,`` a sub-part,
    a ``|`` an item)."""
    if part:
        return ";" not in text
    return not any(c in text for c in (";,|" if item else ";,"))


def _revenue_text(r: Revenue | None) -> str:
    return "0" if r is None else str(r)


def _node_part(n: Node) -> str:
    """The main part a node is written as: its kind, or ``halt`` or ``pass``."""
    if n.halt:
        return "halt" if n.kind is NodeKind.TOWN and not n.mountain_pass else "?"
    if n.mountain_pass:
        return "pass" if n.kind is NodeKind.CITY else "?"
    return n.kind.value


def _write_node(n: Node) -> str:
    if n.kind is NodeKind.JUNCTION:
        return "junction"
    part = _node_part(n)
    if part not in _NODE_KINDS:  # a halt that is no town, a pass that is no city
        part = n.kind.value
    subs: list[tuple[str, str]] = []
    if n.symbol is not None:
        subs.append(("symbol", n.symbol))
    if part != "halt" or n.revenue not in (None, Revenue(0)):
        subs.append(("revenue", _revenue_text(n.revenue)))
    if n.slots != 1:
        subs.append(("slots", str(n.slots)))
    if n.style is not None:
        subs.append(("style", n.style.value))
    if n.groups:
        subs.append(("groups", "|".join(n.groups)))
    if n.hide:
        subs.append(("hide", "1"))
    if n.loc is not None and n.loc.kind != "location":
        subs.append(("loc", str(n.loc)))
    if n.visit_cost != 1:
        subs.append(("visit_cost", str(n.visit_cost)))
    if n.route is not None and n.route is not default_route(n):
        subs.append(("route", n.route.value))
    if n.revenue_format is not None:
        subs.append(("format", n.revenue_format))
    if n.revenue_rows != 1:
        subs.append(("rows", str(n.revenue_rows)))
    subs += [(key, "1") for key, flag in _node_flags(n) if flag]
    if n.pass_color is not None:
        subs.append(("color", n.pass_color))
    if n.pass_size != 1:
        subs.append(("size", str(n.pass_size)))
    allowed = _NODE_SUBS[part]  # what the part cannot hold, :func:`unsupported` names
    return f"{part}=" + ",".join(f"{k}:{v}" for k, v in subs if k in allowed)


def _node_flags(n: Node) -> tuple[tuple[str, bool], ...]:
    return (("boom", n.boom), ("to_city", n.to_city), ("outline", n.outline))


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
    if p.track is not Track.BROAD and p.track in _WRITTEN_TRACKS:
        subs.append(f"track:{p.track.value}")
    return "path=" + ",".join(subs)


def write(tile: Tile, *, strict: bool = False) -> str:
    """The canonical tile string of ``tile`` (its name, colour, rotation, location name and
    source attributes are not part of it): :func:`parse` reads it back to an equal tile.

    What the language has no place for (see :func:`unsupported`: positions, printed names,
    other formats' gauges…) is left out, or with ``strict`` refused. What it cannot hold as
    given (:func:`unwritable`: a label holding a ``;``, a sub part the node's part does not
    take…) and what is past the limits (:func:`~tilelay.tile.limit_problem`: 13 slots, a
    city's negative revenue…) is always refused: :class:`~tilelay.errors.TileModelError`
    names it.
    """
    if not isinstance(tile, Tile):
        raise TileTypeError(f"only a Tile is written as a tile string, not {type(tile).__name__}")
    checked = tile._topology.get(WRITE_CHECKED)
    if checked is None:  # looked at once a tile (it is immutable)
        found = limit_problem(tile)
        checked = tile._topology[WRITE_CHECKED] = (
            found,
            tuple(_losses(tile)) if found is None and _may_lose(tile) else (),
        )
    assert isinstance(checked, tuple)
    problem, losses = checked
    if problem is not None:
        raise TileModelError(
            f"tile {tile.name!r} cannot be written in the tile language: {problem}"
        )
    refused = [message for stops, message in losses if stops or strict]
    if refused:
        raise TileModelError(
            f"tile {tile.name!r} cannot be written in the tile language: " + "; ".join(refused)
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
    parts.extend(f"stub=edge:{stub.edge}" for stub in tile.stubs)
    parts.extend(f"label={lab.text}" for lab in tile.labels if lab.text)
    if tile.future_label is not None:
        fl = tile.future_label
        subs = [] if fl.text is None else [f"label:{fl.text}"]
        if fl.color is not None:
            subs.append(f"color:{fl.color.value}")
        parts.append("future_label=" + ",".join(subs))
    for u in tile.upgrades:
        subs = [f"cost:{u.cost}"]
        if u.terrains:
            subs.append("terrain:" + "|".join(u.terrains))
        if u.loc is not None and u.loc.kind != "location":
            subs.append(f"loc:{u.loc}")
        if u.size is not None:
            subs.append(f"size:{u.size}")
        parts.append("upgrade=" + ",".join(subs))
    for b in tile.borders:
        subs = [f"edge:{b.edge}"]
        if b.type is not None:
            subs.append(f"type:{b.type.value}")
        if b.cost is not None:
            subs.append(f"cost:{b.cost}")
        if b.color is not None:
            subs.append(f"color:{b.color}")
        parts.append("border=" + ",".join(subs))
    for pt in tile.partitions:
        sign = {1: "+", -1: "-"}
        subs = [f"a:{pt.a}{sign.get(pt.a_sign, '')}", f"b:{pt.b}{sign.get(pt.b_sign, '')}"]
        if pt.type is not None:
            subs.append(f"type:{pt.type.value}")
        side = _engine_side(pt.restrict, pt.a, pt.b)
        if side is not None:
            subs.append(f"restrict:{side.value}")
        if pt.length is not None:
            subs.append(f"length:{_fraction(pt.length)}")
        parts.append("partition=" + ",".join(subs))
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
        if icon.large:
            subs.append("large:1")
        parts.append("icon=" + ",".join(subs))
    if tile.frame is not None:
        f = f"frame=color:{tile.frame.color}"
        if tile.frame.color2 is not None:
            f += f",color2:{tile.frame.color2}"
        parts.append(f)
    if tile.stripe is not None:
        parts.append(f"stripes=color:{tile.stripe.value}")
    code = ";".join(parts)
    if len(code) > limits.MAX_CODE:
        raise TileModelError(
            f"tile {tile.name!r} cannot be written in the tile language: its string would be "
            f"{len(code):,} characters long, at most {limits.MAX_CODE:,}"
        )
    return code


def _may_lose(tile: Tile) -> bool:
    """Whether ``tile`` may hold something :func:`_losses` names (a quick look, so that the
    usual tile of plain nodes and paths is written without the whole check)."""
    if tile.icons or tile.frame or tile.borders or tile.future_label is not None:
        return True
    for lab in tile.labels:
        text = lab.text
        if lab.loc is not None or not text or ";" in text or text[-1].isspace():
            return True
    for u in tile.upgrades:
        if (u.loc is not None and u.loc.kind == "location") or not all(
            t.replace("_", "").isalpha() for t in u.terrains
        ):
            return True
    for n in tile.nodes:
        if n.kind is NodeKind.JUNCTION:
            if n != _JUNCTION:
                return True
            continue
        r = n.revenue
        if (
            r is None
            or (r.phases and not _plain_phases(r.phases))
            or n.name is not None
            or n.revenue_loc is not None
            or n.revenue_layout is not None
            or (n.loc is not None and n.loc.kind == "location")
            or n.groups
            or n.style is not None
            or n.revenue_format is not None
            or n.symbol is not None
            or n.pass_color is not None
            or n.revenue_rows != 1
            or n.pass_size != 1
            or n.visit_cost != 1
            or n.route is not None
            or n.hide
            or n.boom
            or n.to_city
            or n.outline
            or n.halt
            or n.mountain_pass
            or (n.slots and n.kind is not NodeKind.CITY)
        ):
            return True
    for p in tile.paths:
        if (
            p.over
            or p.track not in _WRITTEN_TRACKS
            or p.a_lane is not SINGLE_LANE
            or p.b_lane is not SINGLE_LANE
            or (type(p.a) is NodeRef and p.a == p.b)
        ):
            return True
    return False


def _plain_phases(phases: tuple[tuple[str, int], ...]) -> bool:
    for phase, _ in phases:
        if not phase or _SEPARATORS.search(phase):
            break
    else:
        return True
    return False


_JUNCTION = Node(NodeKind.JUNCTION)
_SEPARATORS = re.compile("[;,|]")


def _fraction(x: float) -> str:
    """``x`` (a partition's length) in the digits the reader takes back to the same number:
    the shortest that round-trip, never in exponent form (``1e-05`` is ``0.00001``)."""
    text = repr(float(x))
    if "e" in text:
        text = format(Decimal(text), "f")
    return text[:-2] if text.endswith(".0") else text


def canonical(code: str, *, source: str | None = None) -> str:
    """The canonical form of a tile string."""
    return write(parse(code, source=source))


# ------------------------------------------------------------------ engine part numbers


def with_engine_parts(tile: Tile, positions: Sequence[int]) -> Tile:
    """``tile`` with each node's engine part number (``positions``, in node order) kept where
    it differs from the node's place among the nodes of its kind, as ``("part", "N")`` in its
    extra: the 18xx.games engine numbers a tile's parts in the order its string lists them,
    and its records name a city by that number (:mod:`tilelay.sources.engine_codes`)."""
    ordinals: dict[object, int] = {}
    nodes = []
    changed = False
    for node, position in zip(tile.nodes, positions, strict=True):
        ordinal = ordinals.get(node.kind, 0)
        ordinals[node.kind] = ordinal + 1
        if position != ordinal and ("part", str(position)) not in node.extra:
            node = replace(node, extra=(*node.extra, ("part", str(position))))
            changed = True
        nodes.append(node)
    return replace(tile, nodes=tuple(nodes)) if changed else tile


def engine_parts(tile: Tile) -> tuple[int, ...] | None:
    """Each node's engine part number, in node order, where some node keeps one
    (:func:`with_engine_parts`); None where none does (each is its place among its kind)."""
    if not any(key == "part" for node in tile.nodes for key, _ in node.extra):
        return None
    ordinals: dict[object, int] = {}
    out: list[int] = []
    for node in tile.nodes:
        ordinal = ordinals.get(node.kind, 0)
        ordinals[node.kind] = ordinal + 1
        part = dict(node.extra).get("part")
        out.append(int(part) if part is not None and part.isdigit() else ordinal)
    return tuple(out)
