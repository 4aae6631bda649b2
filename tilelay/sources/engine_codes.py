"""The 18xx.games engine's tile strings as tilelay's tile language reads them.

The engine's tile strings use a few parts and sub parts that tilelay's tile language
(:mod:`tilelay.dsl`) does not read. :func:`adapt_code` rewrites a string so that it does,
keeping what matters for routes on the nodes' :attr:`~tilelay.tile.Node.extra`:

* parts that only draw or only restrict tile lays are left out: ``future_label``, ``stub``,
  ``partition``; sub parts that only draw too: a border's ``color``, a node's ``format``, an
  icon's ``large`` (and its ``visit_cost``), a path's ``loc``, a ``loc`` that is not a place
  on the hex;
* a node's ``visit_cost`` (how much of a train's reach the stop uses; 0 for a port) and
  ``route`` (``optional``: a train may pass without stopping; ``never``) are kept as
  ``("visit_cost", "0")`` / ``("route", "optional")`` in the node's ``extra``, and a city of
  no slots as ``("slots", "0")``;
* a node that is not at its own place among the string's parts (a border written before a
  city) keeps that place as ``("part", "N")``: the engine's records name cities by it
  (``"C1-0-1"`` is the part 1 of tile C1-0);
* a ``halt`` (a stop some trains count and some do not) is read as a town with
  ``("halt", "1")`` in its ``extra``.

>>> code, extras, dropped = adapt_code("offboard=revenue:yellow_20,visit_cost:0;path=a:0,b:_0")
>>> code, extras, dropped
('offboard=revenue:yellow_20;path=a:0,b:_0', {0: (('visit_cost', '0'),)}, ())
"""

from __future__ import annotations

from dataclasses import replace

from tilelay import dsl
from tilelay.tile import Color, Tile

__all__ = ["DRAWING_PARTS", "ROUTE_SUBS", "adapt_code", "parse_engine_code"]

#: Parts that only draw or only restrict tile lays (left out).
DRAWING_PARTS = frozenset({"future_label", "stub", "partition"})
#: Node sub parts that matter for routes (kept in the node's ``extra``).
ROUTE_SUBS = frozenset({"visit_cost", "route"})
_DRAWING_SUBS = {
    "border": frozenset({"color"}),
    "icon": frozenset({"large", "visit_cost"}),
    "path": frozenset({"loc"}),
    "city": frozenset({"format"}),
    "town": frozenset({"format"}),
    "offboard": frozenset({"format"}),
}
_NODES = frozenset({"city", "town", "offboard", "junction", "halt"})
_LOCS = frozenset({"center", *(str(i) for i in range(6)), *(f"{i}.5" for i in range(6))})


def adapt_code(code: str) -> tuple[str, dict[int, tuple[tuple[str, str], ...]], tuple[str, ...]]:
    """The string rewritten for tilelay, the extras of each node (by node index) and what was
    left out (part or ``part.sub`` names, each once)."""
    parts: list[str] = []
    extras: dict[int, tuple[tuple[str, str], ...]] = {}
    dropped: list[str] = []
    node = 0
    position = -1
    for raw in code.split(";"):
        part = raw.strip()
        if not part:
            continue
        position += 1
        kind, _, rest = part.partition("=")
        kind = kind.strip()
        if kind in DRAWING_PARTS:
            if kind not in dropped:
                dropped.append(kind)
            continue
        if kind == "label" or not rest.strip():
            if kind in _NODES:
                extra_here: list[tuple[str, str]] = [("halt", "1")] if kind == "halt" else []
                if position != node:
                    extra_here.append(("part", str(position)))
                if extra_here:
                    extras[node] = tuple(extra_here)
                node += 1
            parts.append("town=revenue:0" if kind == "halt" else part)
            continue
        keep: list[str] = []
        extra: list[tuple[str, str]] = []
        if kind == "halt":
            extra.append(("halt", "1"))
        for item in rest.split(","):
            key, _, value = item.strip().partition(":")
            if kind in _NODES and key in ROUTE_SUBS:
                extra.append((key, value))
                continue
            if kind == "city" and key == "slots" and value.strip() == "0":
                extra.append(("slots", "0"))  # a city no token may enter
                continue
            if kind == "halt" and key == "symbol":
                continue
            drop = key in _DRAWING_SUBS.get(kind, ()) or (key == "loc" and value not in _LOCS)
            if drop:
                name = f"{kind}.{key}"
                if name not in dropped:
                    dropped.append(name)
                continue
            keep.append(item.strip())
        if kind == "halt":
            kind = "town"
            if not any(k.startswith("revenue:") for k in keep):
                keep.insert(0, "revenue:0")
        if kind in _NODES:
            if position != node:
                # the engine names a city by its place among all the tile's parts
                extra.append(("part", str(position)))
            if extra:
                extras[node] = tuple(extra)
            node += 1
        parts.append(f"{kind}={','.join(keep)}" if keep else f"{kind}=")
    return ";".join(parts), extras, tuple(dropped)


def parse_engine_code(
    code: str, *, name: str = "", color: Color | str = Color.WHITE
) -> tuple[Tile, tuple[str, ...]]:
    """An engine tile string read as a :class:`~tilelay.tile.Tile` (see :func:`adapt_code`),
    and what was left out. Raises :class:`~tilelay.errors.TileSyntaxError` as
    :func:`tilelay.dsl.parse` does for what is still not readable."""
    adapted, extras, dropped = adapt_code(code)
    tile = dsl.parse(adapted, name=name, color=color)
    if extras:
        nodes = list(tile.nodes)
        for index, extra in extras.items():
            if index < len(nodes):
                nodes[index] = replace(nodes[index], extra=(*nodes[index].extra, *extra))
        tile = replace(tile, nodes=tuple(nodes))
    return tile, dropped
