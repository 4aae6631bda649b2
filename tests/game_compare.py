"""Compare two :class:`~tilelay.games.Game` objects of the same title from different sources.

:func:`differences` lists every difference as a short string (``"hex F1: revenue …"``), so a
test can name each one with its cause.
"""

from __future__ import annotations

from collections import Counter

from tilelay.games import Game
from tilelay.tile import NodeKind, Tile


def _stops(tile: Tile) -> list[str]:
    return sorted(n.kind.value for n in tile.stops)


def _revenues(tile: Tile) -> list[str]:
    return sorted(str(n.revenue) for n in tile.stops)


def _borders(tile: Tile) -> list[str]:
    return sorted(f"{b.edge}:{b.type.value if b.type else 'plain'}" for b in tile.borders)


def _home(game: Game, sym: str) -> str:
    """A corporation's home as ``hex`` or ``hex/exits of its city`` (city indices may differ
    between sources that list the cities of a hex in another order)."""
    corp = game.corporation(sym)
    if corp.home is None:
        return "none"
    index = game.home_city(sym)
    if index is None:
        return corp.home
    tile = game.hexes[corp.home]
    node = tile.nodes.index(tile.cities[index])
    return f"{corp.home}/{''.join(str(e) for e in sorted(tile.node_exits(node)))}"


def differences(a: Game, b: Game) -> set[str]:
    """Every difference between ``a`` and ``b``: hex set, each hex's colour, stops, revenues,
    track (up to rotation), label, borders and terrain cost; the manifest (counts, and each
    shared tile's label, colour, track and revenues); corporations (homes and token costs) by
    symbol; companies by (value, revenue, blocked hexes)."""
    out: set[str] = set()
    for coord in sorted(set(a.hexes) - set(b.hexes)):
        out.add(f"hex {coord}: only in {a.format}")
    for coord in sorted(set(b.hexes) - set(a.hexes)):
        out.add(f"hex {coord}: only in {b.format}")
    for coord in sorted(set(a.hexes) & set(b.hexes)):
        ta, tb = a.hexes[coord], b.hexes[coord]
        if ta.color != tb.color:
            out.add(f"hex {coord}: colour {ta.color.value}/{tb.color.value}")
        if _stops(ta) != _stops(tb):
            out.add(f"hex {coord}: stops {_stops(ta)}/{_stops(tb)}")
        elif _revenues(ta) != _revenues(tb):
            out.add(f"hex {coord}: revenue {_revenues(ta)}/{_revenues(tb)}")
        if not ta.same_topology_up_to_rotation(tb):
            out.add(f"hex {coord}: track {sorted(ta.exits())}/{sorted(tb.exits())}")
        elif ta.topology() != tb.topology():
            out.add(f"hex {coord}: track turned {sorted(ta.exits())}/{sorted(tb.exits())}")
        if ta.label != tb.label:
            out.add(f"hex {coord}: label {ta.label}/{tb.label}")
        if _borders(ta) != _borders(tb):
            out.add(f"hex {coord}: borders {_borders(ta)}/{_borders(tb)}")
        ca = [u.cost for u in ta.upgrades]
        cb = [u.cost for u in tb.upgrades]
        if ca != cb:
            out.add(f"hex {coord}: cost {ca}/{cb}")
    for name in sorted(set(a.manifest) | set(b.manifest)):
        na, nb = a.manifest.get(name), b.manifest.get(name)
        if na != nb:
            out.add(f"manifest {name}: {na}/{nb}")
            continue
        ta, tb = a.tile(name), b.tile(name)
        if ta.label != tb.label:
            out.add(f"tile {name}: label {ta.label}/{tb.label}")
        if ta.color != tb.color:
            out.add(f"tile {name}: colour {ta.color.value}/{tb.color.value}")
        if not ta.same_topology_up_to_rotation(tb):
            out.add(f"tile {name}: track")
        if sorted(ta.revenue_values()) != sorted(tb.revenue_values()):
            out.add(f"tile {name}: revenue {ta.revenue_values()}/{tb.revenue_values()}")
    sa = {c.sym for c in a.corporations}
    sb = {c.sym for c in b.corporations}
    for sym in sorted(sa - sb):
        out.add(f"corporation {sym}: only in {a.format}")
    for sym in sorted(sb - sa):
        out.add(f"corporation {sym}: only in {b.format}")
    for sym in sorted(sa & sb):
        if _home(a, sym) != _home(b, sym):
            out.add(f"corporation {sym}: home {_home(a, sym)}/{_home(b, sym)}")
        ka, kb = a.corporation(sym).tokens, b.corporation(sym).tokens
        if ka != kb:
            out.add(f"corporation {sym}: tokens {list(ka)}/{list(kb)}")
    pa = Counter((c.value, c.revenue, c.blocks) for c in a.companies)
    pb = Counter((c.value, c.revenue, c.blocks) for c in b.companies)
    for key in sorted(set(pa) | set(pb)):
        if pa[key] != pb[key]:
            out.add(f"company {key}: {pa[key]}/{pb[key]}")
    return out


def offboard_revenues(game: Game, coord: str) -> dict[str, int]:
    """The revenue of the offboard of ``coord`` per phase key."""
    (node,) = [n for n in game.hexes[coord].nodes if n.kind is NodeKind.OFFBOARD]
    assert node.revenue is not None
    return dict(node.revenue.phases) if node.revenue.phases else {"": node.revenue.value}
