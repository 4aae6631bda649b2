"""The JSON form of the tile model: :func:`tile_to_dict` writes a tile as plain data (defaults
left out) and :func:`tile_from_dict` reads it back, with errors naming the field.

>>> from tilelay.catalogue import get_tile
>>> data = tile_to_dict(get_tile("57"))
>>> data["nodes"], tile_from_dict(data) == get_tile("57")
([{'kind': 'city', 'revenue': 20, 'slots': 1}], True)
"""

from __future__ import annotations

import dataclasses
import difflib
from enum import StrEnum
from typing import TypeVar

from tilelay import limits
from tilelay import tile as model
from tilelay.errors import TileModelError
from tilelay.hexgeo import Loc, parse_loc

__all__ = ["JSONValue", "tile_from_dict", "tile_to_dict"]

JSONValue = None | bool | int | float | str | list["JSONValue"] | dict[str, "JSONValue"]


def _loc_json(loc: Loc | None) -> str | None:
    return None if loc is None else str(loc)


def _end_json(end: model.End) -> str:
    return str(end)


def tile_to_dict(tile: model.Tile) -> dict[str, JSONValue]:
    """The tile as plain JSON data (defaults left out); :func:`tile_from_dict` reads it back."""
    out: dict[str, JSONValue] = {"name": tile.name, "color": tile.color.value}
    if tile.stripe is not None:
        out["stripe"] = tile.stripe.value
    if tile.rotation:
        out["rotation"] = tile.rotation
    if tile.location_name is not None:
        out["location_name"] = tile.location_name
    nodes: list[JSONValue] = []
    for n in tile.nodes:
        d: dict[str, JSONValue] = {"kind": n.kind.value}
        if n.revenue is not None:
            d["revenue"] = (
                [[p, v] for p, v in n.revenue.phases] if n.revenue.phases else n.revenue.value
            )
        if n.slots:
            d["slots"] = n.slots
        if n.style is not None:
            d["style"] = n.style.value
        if n.groups:
            d["groups"] = list(n.groups)
        if n.hide:
            d["hide"] = True
        for key, loc in (("loc", n.loc), ("revenue_loc", n.revenue_loc)):
            if loc is not None:
                d[key] = str(loc)
        if n.name is not None:
            d["name"] = n.name
        if n.revenue_layout is not None:
            d["revenue_layout"] = n.revenue_layout
        if n.extra:
            d["extra"] = [[k, v] for k, v in n.extra]
        if n.visit_cost != 1:
            d["visit_cost"] = n.visit_cost
        if n.route is not None:
            d["route"] = n.route.value
        if n.revenue_format is not None:
            d["revenue_format"] = n.revenue_format
        if n.revenue_rows != 1:
            d["revenue_rows"] = n.revenue_rows
        for key, flag in (
            ("boom", n.boom),
            ("to_city", n.to_city),
            ("outline", n.outline),
            ("halt", n.halt),
            ("mountain_pass", n.mountain_pass),
        ):
            if flag:
                d[key] = True
        if n.symbol is not None:
            d["symbol"] = n.symbol
        if n.pass_color is not None:
            d["pass_color"] = n.pass_color
        if n.pass_size != 1:
            d["pass_size"] = n.pass_size
        nodes.append(d)
    out["nodes"] = nodes
    paths: list[JSONValue] = []
    for p in tile.paths:
        pd: dict[str, JSONValue] = {"a": _end_json(p.a), "b": _end_json(p.b)}
        if p.terminal:
            pd["terminal"] = p.terminal
        if p.ignore:
            pd["ignore"] = True
        if p.a_lane != model.SINGLE_LANE:
            pd["a_lane"] = list(p.a_lane)
        if p.b_lane != model.SINGLE_LANE:
            pd["b_lane"] = list(p.b_lane)
        if p.track is not model.Track.BROAD:
            pd["track"] = p.track.value
        if p.over:
            pd["over"] = True
        paths.append(pd)
    out["paths"] = paths
    if tile.stubs:
        out["stubs"] = [stub.edge for stub in tile.stubs]
    if tile.labels:
        out["labels"] = [
            {"text": lab.text, **({"loc": str(lab.loc)} if lab.loc else {})} for lab in tile.labels
        ]
    if tile.future_label is not None:
        fl = tile.future_label
        out["future_label"] = {
            **({"text": fl.text} if fl.text is not None else {}),
            **({"color": fl.color.value} if fl.color is not None else {}),
        }
    if tile.upgrades:
        out["upgrades"] = [
            {
                "cost": u.cost,
                **({"terrains": list(u.terrains)} if u.terrains else {}),
                **({"loc": str(u.loc)} if u.loc else {}),
                **({"size": u.size} if u.size is not None else {}),
            }
            for u in tile.upgrades
        ]
    if tile.borders:
        out["borders"] = [
            {
                "edge": b.edge,
                **({"type": b.type.value} if b.type else {}),
                **({"cost": b.cost} if b.cost is not None else {}),
                **({"color": b.color} if b.color is not None else {}),
            }
            for b in tile.borders
        ]
    if tile.partitions:
        parts: list[JSONValue] = []
        for pt in tile.partitions:
            pdict: dict[str, JSONValue] = {"a": pt.a, "b": pt.b}
            if pt.type is not None:
                pdict["type"] = pt.type.value
            if pt.restrict is not None:
                pdict["restrict"] = pt.restrict.value
            if pt.a_sign:
                pdict["a_sign"] = pt.a_sign
            if pt.b_sign:
                pdict["b_sign"] = pt.b_sign
            if pt.length is not None:
                pdict["length"] = pt.length
            parts.append(pdict)
        out["partitions"] = parts
    if tile.icons:
        icons: list[JSONValue] = []
        for i in tile.icons:
            idict: dict[str, JSONValue] = {"image": i.image}
            if i.name is not None:
                idict["name"] = i.name
            if i.sticky:
                idict["sticky"] = True
            if i.blocks_lay:
                idict["blocks_lay"] = True
            if i.loc is not None:
                idict["loc"] = str(i.loc)
            if i.large:
                idict["large"] = True
            icons.append(idict)
        out["icons"] = icons
    if tile.frame is not None:
        fd: dict[str, JSONValue] = {"color": tile.frame.color}
        if tile.frame.color2 is not None:
            fd["color2"] = tile.frame.color2
        out["frame"] = fd
    if tile.extra:
        out["extra"] = [[k, v] for k, v in tile.extra]
    return out


class _Reader:
    """Typed access to JSON data with error messages naming the field."""

    def __init__(self, source: str | None) -> None:
        self.source = source

    def fail(self, where: str, message: str) -> TileModelError:
        return TileModelError(f"{where}: {message}", source=self.source)

    def obj(self, v: object, where: str, known: frozenset[str]) -> dict[str, object]:
        """``v`` as an object whose keys are all ``known`` (an unknown one, a typo among
        them, is refused: it would be read as nothing)."""
        if not isinstance(v, dict):
            raise self.fail(where, f"expected an object, got {type(v).__name__}")
        for key in v:
            if key not in known:
                plain = isinstance(key, str) and len(key) <= 40 and key.isprintable()
                close = difflib.get_close_matches(key, known, n=3, cutoff=0.6) if plain else []
                hint = f" (did you mean: {', '.join(close)}?)" if close else ""
                raise self.fail(
                    f"{where}.{key}" if plain else f"{where}[{limits.shown(key)}]",
                    f"unknown field{hint}; expected one of {', '.join(sorted(known))}",
                )
        return v

    def lst(self, v: object, where: str) -> list[object]:
        if v is None:
            return []
        if not isinstance(v, list):
            raise self.fail(where, f"expected a list, got {type(v).__name__}")
        if len(v) > limits.MAX_PATHS:
            raise self.fail(where, f"{len(v)} items: at most {limits.MAX_PATHS}")
        return v

    def int_(
        self,
        v: object,
        where: str,
        low: int = -limits.MAX_AMOUNT,
        high: int = limits.MAX_AMOUNT,
    ) -> int:
        if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
            raise self.fail(
                where, f"expected a whole number from {low:,} to {high:,}, got {limits.shown(v)}"
            )
        return v

    def str_(self, v: object, where: str) -> str:
        if not isinstance(v, str):
            raise self.fail(where, f"expected a string, got {limits.shown(v)}")
        return v

    def opt_str(self, v: object, where: str) -> str | None:
        return None if v is None else self.str_(v, where)

    def opt_int(self, v: object, where: str) -> int | None:
        return None if v is None else self.int_(v, where)

    def number(self, v: object, where: str) -> float:
        if isinstance(v, bool) or not isinstance(v, int | float) or not -1e9 < v < 1e9:
            raise self.fail(where, f"expected a number, got {limits.shown(v)}")
        return float(v)

    def bool_(self, v: object, where: str) -> bool:
        if v is None:
            return False
        if not isinstance(v, bool):
            raise self.fail(where, f"expected true or false, got {limits.shown(v)}")
        return v

    def loc(self, v: object, where: str) -> Loc | None:
        if v is None:
            return None
        try:
            return parse_loc(self.str_(v, where))
        except ValueError as err:
            raise self.fail(where, str(err)) from None

    def enum(self, cls: type[_E], v: object, where: str) -> _E:
        try:
            return cls(self.str_(v, where))
        except ValueError:
            allowed = ", ".join(str(m.value) for m in cls)
            raise self.fail(where, f"expected one of {allowed}, got {limits.shown(v)}") from None

    def end(self, v: object, where: str) -> model.End:
        s = self.str_(v, where)
        index = limits.whole(s[1:], 0, limits.MAX_NODES - 1) if s.startswith("_") else None
        if index is not None and s[1:].isdigit():
            return model.NodeRef(index)
        if len(s) == 1 and s in "012345":
            return model.Edge(int(s))
        raise self.fail(
            where, f"expected an edge 0-5 or _N (N below {limits.MAX_NODES}), got {limits.shown(s)}"
        )

    def lane(self, v: object, where: str) -> model.Lane:
        if v is None:
            return model.SINGLE_LANE
        items = self.lst(v, where)
        if len(items) != 2:
            raise self.fail(where, "expected [width, index]")
        w = self.int_(items[0], where, 1, limits.MAX_LANES)
        i = self.int_(items[1], where, 0, limits.MAX_LANES)
        if not 0 <= i < w:
            raise self.fail(where, f"lane index {i} must be below width {w}")
        return (w, i)


_E = TypeVar("_E", bound=StrEnum)


def _fields(cls: type) -> frozenset[str]:
    """The fields of an object of the JSON form (what :func:`tile_to_dict` writes): those of
    the model's class, by name (not the private ones a class works out for itself)."""
    return frozenset(f.name for f in dataclasses.fields(cls) if not f.name.startswith("_"))


_TILE_FIELDS = _fields(model.Tile)
_NODE_FIELDS = _fields(model.Node)
_PATH_FIELDS = _fields(model.Path)
_LABEL_FIELDS = _fields(model.Label)
_UPGRADE_FIELDS = _fields(model.TerrainUpgrade)
_BORDER_FIELDS = _fields(model.Border)
_PARTITION_FIELDS = _fields(model.Partition)
_FUTURE_LABEL_FIELDS = _fields(model.FutureLabel)
_ICON_FIELDS = _fields(model.Icon)
_FRAME_FIELDS = _fields(model.Frame)


def _extra_pairs(r: _Reader, v: object, where: str) -> tuple[tuple[str, str], ...]:
    out: list[tuple[str, str]] = []
    for item in r.lst(v, where):
        pair = r.lst(item, where)
        if len(pair) != 2:
            raise r.fail(where, "expected [name, value] pairs")
        out.append((r.str_(pair[0], where), r.str_(pair[1], where)))
    return tuple(out)


def tile_from_dict(data: object, *, source: str | None = None) -> model.Tile:
    """Read a tile from the JSON data :func:`tile_to_dict` writes.

    Raises :class:`~tilelay.errors.TileModelError` naming the field that is wrong.
    """
    r = _Reader(source)
    try:
        return _tile(r, data)
    except TileModelError as err:  # the model's own checks (the reader's name their field)
        raise err.located(source=source) from None


def _tile(r: _Reader, data: object) -> model.Tile:
    d = r.obj(data, "tile", _TILE_FIELDS)
    color = r.enum(model.Color, d.get("color", "white"), "tile.color")
    stripe = None if d.get("stripe") is None else r.enum(model.Color, d["stripe"], "tile.stripe")
    nodes: list[model.Node] = []
    for i, nv in enumerate(r.lst(d.get("nodes"), "tile.nodes")):
        w = f"tile.nodes[{i}]"
        n = r.obj(nv, w, _NODE_FIELDS)
        kind = r.enum(model.NodeKind, n.get("kind"), f"{w}.kind")
        rev_v = n.get("revenue")
        revenue: model.Revenue | None
        if rev_v is None:
            revenue = None
        elif isinstance(rev_v, list):
            phases = []
            for j, item in enumerate(rev_v):
                pair = r.lst(item, f"{w}.revenue[{j}]")
                if len(pair) != 2:
                    raise r.fail(f"{w}.revenue[{j}]", "expected [phase, value]")
                phases.append(
                    (r.str_(pair[0], f"{w}.revenue[{j}]"), r.int_(pair[1], f"{w}.revenue[{j}]"))
                )
            revenue = model.Revenue(0, tuple(phases))
        else:
            revenue = model.Revenue(r.int_(rev_v, f"{w}.revenue"))
        style = (
            None if n.get("style") is None else r.enum(model.TownStyle, n["style"], f"{w}.style")
        )
        nodes.append(
            model.Node(
                kind,
                revenue,
                r.int_(n.get("slots", 0), f"{w}.slots", 0, limits.MAX_SLOTS),
                style,
                tuple(r.str_(g, f"{w}.groups") for g in r.lst(n.get("groups"), f"{w}.groups")),
                r.bool_(n.get("hide"), f"{w}.hide"),
                r.loc(n.get("loc"), f"{w}.loc"),
                r.opt_str(n.get("name"), f"{w}.name"),
                r.loc(n.get("revenue_loc"), f"{w}.revenue_loc"),
                r.opt_str(n.get("revenue_layout"), f"{w}.revenue_layout"),
                _extra_pairs(r, n.get("extra"), f"{w}.extra"),
                visit_cost=r.int_(n.get("visit_cost", 1), f"{w}.visit_cost", 0),
                route=None
                if n.get("route") is None
                else r.enum(model.StopRoute, n["route"], f"{w}.route"),
                revenue_format=r.opt_str(n.get("revenue_format"), f"{w}.revenue_format"),
                revenue_rows=r.int_(n.get("revenue_rows", 1), f"{w}.revenue_rows", 1, 9),
                boom=r.bool_(n.get("boom"), f"{w}.boom"),
                to_city=r.bool_(n.get("to_city"), f"{w}.to_city"),
                outline=r.bool_(n.get("outline"), f"{w}.outline"),
                halt=r.bool_(n.get("halt"), f"{w}.halt"),
                symbol=r.opt_str(n.get("symbol"), f"{w}.symbol"),
                mountain_pass=r.bool_(n.get("mountain_pass"), f"{w}.mountain_pass"),
                pass_color=r.opt_str(n.get("pass_color"), f"{w}.pass_color"),
                pass_size=r.int_(n.get("pass_size", 1), f"{w}.pass_size", 1, limits.MAX_SIZE),
            )
        )
    paths: list[model.Path] = []
    for i, pv in enumerate(r.lst(d.get("paths"), "tile.paths")):
        w = f"tile.paths[{i}]"
        p = r.obj(pv, w, _PATH_FIELDS)
        paths.append(
            model.Path(
                r.end(p.get("a"), f"{w}.a"),
                r.end(p.get("b"), f"{w}.b"),
                r.int_(p.get("terminal", 0), f"{w}.terminal", 0, 2),
                r.bool_(p.get("ignore"), f"{w}.ignore"),
                r.lane(p.get("a_lane"), f"{w}.a_lane"),
                r.lane(p.get("b_lane"), f"{w}.b_lane"),
                r.enum(model.Track, p.get("track", "broad"), f"{w}.track"),
                r.bool_(p.get("over"), f"{w}.over"),
            )
        )
    labels = []
    for i, lv in enumerate(r.lst(d.get("labels"), "tile.labels")):
        w = f"tile.labels[{i}]"
        lab = r.obj(lv, w, _LABEL_FIELDS)
        labels.append(
            model.Label(r.str_(lab.get("text"), f"{w}.text"), r.loc(lab.get("loc"), f"{w}.loc"))
        )
    upgrades = []
    for i, uv in enumerate(r.lst(d.get("upgrades"), "tile.upgrades")):
        w = f"tile.upgrades[{i}]"
        u = r.obj(uv, w, _UPGRADE_FIELDS)
        upgrades.append(
            model.TerrainUpgrade(
                r.int_(u.get("cost"), f"{w}.cost", 0),
                tuple(
                    r.str_(t, f"{w}.terrains") for t in r.lst(u.get("terrains"), f"{w}.terrains")
                ),
                r.loc(u.get("loc"), f"{w}.loc"),
                None
                if u.get("size") is None
                else r.int_(u["size"], f"{w}.size", 1, limits.MAX_SIZE),
            )
        )
    borders = []
    for i, bv in enumerate(r.lst(d.get("borders"), "tile.borders")):
        w = f"tile.borders[{i}]"
        b = r.obj(bv, w, _BORDER_FIELDS)
        edge = r.int_(b.get("edge"), f"{w}.edge", 0, 5)
        borders.append(
            model.Border(
                edge,
                None if b.get("type") is None else r.enum(model.BorderType, b["type"], f"{w}.type"),
                None if b.get("cost") is None else r.int_(b["cost"], f"{w}.cost", 0),
                r.opt_str(b.get("color"), f"{w}.color"),
            )
        )
    stubs = []
    for i, sv in enumerate(r.lst(d.get("stubs"), "tile.stubs")):
        stubs.append(model.Stub(r.int_(sv, f"tile.stubs[{i}]", 0, 5)))
    partitions = []
    for i, pv in enumerate(r.lst(d.get("partitions"), "tile.partitions")):
        w = f"tile.partitions[{i}]"
        pt = r.obj(pv, w, _PARTITION_FIELDS)
        signs = []
        for key in ("a_sign", "b_sign"):
            signs.append(r.int_(pt.get(key, 0), f"{w}.{key}", -1, 1))
        partitions.append(
            model.Partition(
                r.int_(pt.get("a"), f"{w}.a", 0, 5),
                r.int_(pt.get("b"), f"{w}.b", 0, 5),
                None
                if pt.get("type") is None
                else r.enum(model.BorderType, pt["type"], f"{w}.type"),
                None
                if pt.get("restrict") is None
                else r.enum(model.PartitionSide, pt["restrict"], f"{w}.restrict"),
                signs[0],
                signs[1],
                None if pt.get("length") is None else r.number(pt["length"], f"{w}.length"),
            )
        )
    future_label = None
    if d.get("future_label") is not None:
        fl = r.obj(d["future_label"], "tile.future_label", _FUTURE_LABEL_FIELDS)
        future_label = model.FutureLabel(
            r.opt_str(fl.get("text"), "tile.future_label.text"),
            None
            if fl.get("color") is None
            else r.enum(model.Color, fl["color"], "tile.future_label.color"),
        )
    icons = []
    for i, iv in enumerate(r.lst(d.get("icons"), "tile.icons")):
        w = f"tile.icons[{i}]"
        ic = r.obj(iv, w, _ICON_FIELDS)
        icons.append(
            model.Icon(
                r.str_(ic.get("image"), f"{w}.image"),
                r.opt_str(ic.get("name"), f"{w}.name"),
                r.bool_(ic.get("sticky"), f"{w}.sticky"),
                r.bool_(ic.get("blocks_lay"), f"{w}.blocks_lay"),
                r.loc(ic.get("loc"), f"{w}.loc"),
                r.bool_(ic.get("large"), f"{w}.large"),
            )
        )
    frame = None
    if d.get("frame") is not None:
        f = r.obj(d["frame"], "tile.frame", _FRAME_FIELDS)
        frame = model.Frame(
            r.str_(f.get("color"), "tile.frame.color"),
            r.opt_str(f.get("color2"), "tile.frame.color2"),
        )
    rotation = r.int_(d.get("rotation", 0), "tile.rotation", 0, 5)
    return model.check_limits(
        model.Tile(
            name=r.str_(d.get("name", ""), "tile.name"),
            color=color,
            nodes=tuple(nodes),
            paths=tuple(paths),
            labels=tuple(labels),
            upgrades=tuple(upgrades),
            borders=tuple(borders),
            icons=tuple(icons),
            frame=frame,
            stripe=stripe,
            rotation=rotation,
            location_name=r.opt_str(d.get("location_name"), "tile.location_name"),
            extra=_extra_pairs(r, d.get("extra"), "tile.extra"),
            stubs=tuple(stubs),
            partitions=tuple(partitions),
            future_label=future_label,
        )
    )
