"""Legal upgrades and their rotations.

Which rotations of a candidate tile may replace the tile on a hex follows the rules of 18xx:

* the colour moves one step (yellow → green → brown → gray; a preprinted white hex takes
  yellow), with the exceptions a game configures in :class:`UpgradeRules`;
* every existing path is kept: an edge-to-edge track stays edge to edge, an edge-to-city track
  stays edge to the city (or town) the old one becomes; gauges stay compatible;
* each old city maps onto one new city whose exits contain its exits and whose slots hold its
  tokens (several old cities may share one new city only where a labelled tile merges them);
  towns map onto towns likewise; the new tile adds no city and no town;
* labels match: a labelled hex takes only tiles with that label, an unlabelled one only
  unlabelled tiles; a tile made for one named place (its ``location_name``, e.g. Hamilton) goes
  only on the hex of that name, whatever its label.

Game rules (towns replaced by plain track or by a city in 1856, towns merged in 1835) are
switched on in :class:`UpgradeRules`; an upgrade made legal only by such a rule names it.

The core is :func:`placements` (the rotations of a new tile, each with where every old node
goes), :func:`legal_rotations` and :func:`explain` (why one rotation is refused). A rotation
here is the new tile's own rotation (clockwise steps from its definition) with the old tile as
it lies: to ask about an old tile in rotation ``k``, pass ``old.rotated(k)``. Seed 000's tile
sets record the rotations with the old tile in rotation 0. :func:`upgrade_table` computes every
upgrade of a tile manifest. The rules of a hex on a map (no track off the map or across an
impassable border, the phase's colours, a copy left) are the board's:
:meth:`tilelay.board.Board.legal_rotations`.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from typing import Any

from tilelay.errors import GameDataError
from tilelay.hexgeo import Layout, loc_point
from tilelay.tile import NODE_END, Color, Connections, FutureLabel, NodeKind, Tile, Track
from tilelay.trains import Phase

__all__ = [
    "DEFAULT_RULES",
    "Placement",
    "Upgrade",
    "UpgradeRules",
    "distinct_rotations",
    "explain",
    "legal_rotations",
    "placements",
    "rules_for",
    "rules_from_data",
    "upgrade_table",
]

#: The usual colour steps: a preprinted hex takes yellow, then one step at a time.
STANDARD_STEPS: frozenset[tuple[Color, Color]] = frozenset(
    {
        (Color.WHITE, Color.YELLOW),
        (Color.YELLOW, Color.GREEN),
        (Color.GREEN, Color.BROWN),
        (Color.BROWN, Color.GRAY),
    }
)


@dataclass(frozen=True, slots=True)
class UpgradeRules:
    """The upgrade rules of a game.

    ``steps``: the allowed (old colour, new colour) pairs. ``towns_merge``: several old towns
    may become one new town (1835: the two towns of tile 1 become the town of tile 88).
    ``town_replacement``: the town of a laid tile may disappear, leaving plain track between
    its exits, or become a city (several towns one city), and the tile may then keep its
    colour (1856; a preprinted hex's town takes town tiles only);
    ``town_replacement_phases`` names the phases in which that is allowed (the board asks
    the rules of its phase: :meth:`in_phase`).
    ``labelled_cities_merge``: on a labelled or named hex the cities may merge into fewer cities
    of the new tile (an OO hex whose cities join in brown or gray) or the new tile may add
    cities (the special tiles of a big city decide their cities); tokens must still fit.
    ``names_special``: a hex's place name makes it special as a label does (Rails' and GE18XX's
    tiles for named cities); off for the 18xx.games engine's games, whose location names are
    only shown. ``city_steps``: the colour steps of a hex with a city where they differ from
    ``steps``. ``label_exceptions``: (old tile, new tile) pairs of names where the new tile
    may replace the old whatever their labels (18USA's metropolises take tile 592);
    ``town_cities``: pairs where the old tile's towns may become the new tile's cities, as
    town replacement does, but for those tiles alone (18 India's yellow towns and green
    cities); ``forbidden``: pairs where the new tile may not replace the old (18 India's
    yellow cities and its single-slot green cities). ``unrotated``: tiles laid in rotation 0
    only (1860's). ``hex_labels``: (hex, colour, label): a tile of that colour laid on the
    hex must carry that label, as a future label printed there says (the board's
    :meth:`~tilelay.board.Board.future_label`; a rule the game writes in code: 18GA's
    Augusta, Savannah, Brunswick and Macon, 18USA's Cleveland).
    ``late_colour``: in the phases whose tiles include this colour, ``late_steps`` and
    ``late_city_steps`` replace ``steps`` and ``city_steps`` (18USA once brown tiles come: a
    hex without a city takes a tile of any later colour, a white hex with one a green tile
    only); :meth:`in_phase` gives the rules of a phase. ``colour_exceptions``: (old tile,
    new tile) pairs where the new tile may replace the old whatever their colours, in the
    phases whose tiles include ``colour_exceptions_from`` (in every phase where it is None):
    18USA's ore mines, whose yellow tile of 10 ore becomes the yellow tile of 20 on the same
    track once green tiles come. ``name`` names the game.
    """

    name: str = "standard"
    steps: frozenset[tuple[Color, Color]] = STANDARD_STEPS
    towns_merge: bool = False
    town_replacement: bool = False
    town_replacement_phases: tuple[str, ...] = ()
    labelled_cities_merge: bool = True
    max_exits: tuple[str, ...] = ()
    stubs_restricted: bool = False
    names_special: bool = True
    city_steps: frozenset[tuple[Color, Color]] | None = None
    label_exceptions: frozenset[tuple[str, str]] = frozenset()
    town_cities: frozenset[tuple[str, str]] = frozenset()
    forbidden: frozenset[tuple[str, str]] = frozenset()
    unrotated: frozenset[str] = frozenset()
    hex_labels: frozenset[tuple[str, Color, str]] = frozenset()
    late_colour: Color | None = None
    late_steps: frozenset[tuple[Color, Color]] | None = None
    late_city_steps: frozenset[tuple[Color, Color]] | None = None
    colour_exceptions: frozenset[tuple[str, str]] = frozenset()
    colour_exceptions_from: Color | None = None

    def colour_step(self, old: Color, new: Color, city: bool = False) -> bool:
        """Whether a tile of colour ``new`` may replace one of colour ``old`` (on a hex with
        a city where ``city``)."""
        if city and self.city_steps is not None:
            return (old, new) in self.city_steps
        return (old, new) in self.steps

    def hex_label(self, coord: str) -> FutureLabel | None:
        """The label a tile laid on hex ``coord`` must carry from a colour on, where the rules
        give one (:attr:`hex_labels`)."""
        for where, colour, text in self.hex_labels:
            if where == coord:
                return FutureLabel(text, colour)
        return None

    def in_phase(self, phase: Phase | None) -> UpgradeRules:
        """The rules in force in ``phase`` (None: these): without town replacement outside
        ``town_replacement_phases`` (where some are named), with the late steps where the
        phase's tiles include ``late_colour``, and without the colour exceptions before
        their colour (``colour_exceptions_from``).

        >>> from tilelay.trains import Phase
        >>> rules = rules_for("18USA")
        >>> rules.colour_step(Color.WHITE, Color.BROWN)
        False
        >>> rules.in_phase(Phase("5", tiles=("yellow", "green", "brown"))).colour_step(
        ...     Color.WHITE, Color.BROWN
        ... )
        True
        """
        if phase is None:
            return self
        late = self.late_colour is not None and self.late_colour.value in phase.tiles
        towns = self.town_replacement and (
            not self.town_replacement_phases or phase.name in self.town_replacement_phases
        )
        early = (
            self.colour_exceptions_from is not None
            and bool(self.colour_exceptions)
            and self.colour_exceptions_from.value not in phase.tiles
        )
        if not late and towns == self.town_replacement and not early:
            return self  # (most games: asked for every tile of a lay, so no hashing)
        return _phased(self, late, towns, early)


#: The rules most 18xx games follow.
DEFAULT_RULES = UpgradeRules()


@cache
def _phased(rules: UpgradeRules, late: bool, towns: bool, early: bool) -> UpgradeRules:
    """``rules`` in a phase (:meth:`UpgradeRules.in_phase`): with their late steps where
    ``late``, with town replacement where ``towns``, without the colour exceptions where
    ``early``."""
    if early:
        rules = replace(rules, colour_exceptions=frozenset())
    if late:
        rules = replace(
            rules,
            steps=rules.late_steps if rules.late_steps is not None else rules.steps,
            city_steps=(
                rules.late_city_steps if rules.late_city_steps is not None else rules.city_steps
            ),
            late_colour=None,
        )
    return replace(rules, town_replacement=towns)


_RULE_KEYS = frozenset(
    {
        "steps",
        "towns_merge",
        "town_replacement",
        "town_replacement_phases",
        "labelled_cities_merge",
        "max_exits",
        "stubs_restricted",
        "names_special",
        "city_steps",
        "label_exceptions",
        "town_cities",
        "forbidden",
        "unrotated",
        "hex_labels",
        "late_colour",
        "late_steps",
        "late_city_steps",
        "colour_exceptions",
        "colour_exceptions_from",
    }
)
#: The rules that are true or false.
BOOLEAN_RULES = (
    "towns_merge",
    "town_replacement",
    "labelled_cities_merge",
    "stubs_restricted",
    "names_special",
)
#: The kinds of hex ``max_exits`` may name.
MAX_EXITS_KINDS = ("cities", "unlabeled_cities", "track")


def rules_from_data(name: str, data: Mapping[str, Any], *, source: str) -> UpgradeRules:
    """Upgrade rules from a table of game data (the keys are :class:`UpgradeRules`' fields).

    Raises :class:`~tilelay.errors.GameDataError` naming the key that is wrong.
    """

    def fail(message: str) -> GameDataError:
        return GameDataError(f"upgrade rules of {name}: {message}", source=source)

    unknown = sorted(set(data) - _RULE_KEYS)
    if unknown:
        raise fail(f"unknown key {unknown[0]!r} (expected one of {', '.join(sorted(_RULE_KEYS))})")
    flags: dict[str, bool] = {}
    for key in BOOLEAN_RULES:
        if key in data:
            if not isinstance(data[key], bool):
                raise fail(f"{key} must be true or false, not {data[key]!r}")
            flags[key] = data[key]
    max_exits = data.get("max_exits", [])
    if not isinstance(max_exits, list) or not all(k in MAX_EXITS_KINDS for k in max_exits):
        raise fail(f"max_exits must be a list of {', '.join(MAX_EXITS_KINDS)}, not {max_exits!r}")
    phases = data.get("town_replacement_phases", [])
    if not isinstance(phases, list) or not all(isinstance(p, str) for p in phases):
        raise fail(f"town_replacement_phases must be a list of phase names, not {phases!r}")

    def steps(key: str) -> frozenset[tuple[Color, Color]] | None:
        if key not in data:
            return None
        pairs: set[tuple[Color, Color]] = set()
        for pair in data[key] if isinstance(data[key], list) else [None]:
            if not isinstance(pair, list) or len(pair) != 2:
                raise fail(f"{key} must be a list of [old colour, new colour], not {pair!r}")
            try:
                pairs.add((Color(str(pair[0])), Color(str(pair[1]))))
            except ValueError as err:
                raise fail(f"{key}: {err}") from None
        return frozenset(pairs)

    def colour(key: str) -> Color | None:
        if key not in data:
            return None
        try:
            return Color(str(data[key]))
        except ValueError as err:
            raise fail(f"{key}: {err}") from None

    unrotated = data.get("unrotated", [])
    if not isinstance(unrotated, list) or not all(isinstance(n, str) for n in unrotated):
        raise fail(f"unrotated must be a list of tile names, not {unrotated!r}")

    labels = data.get("hex_labels", {})
    hex_labels: set[tuple[str, Color, str]] = set()
    for coord, pair in labels.items() if isinstance(labels, dict) else [(None, None)]:
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or not all(isinstance(x, str) for x in pair)
        ):
            raise fail(f"hex_labels must be a table of hex = [colour, label], not {labels!r}")
        try:
            hex_labels.add((str(coord), Color(pair[0]), pair[1]))
        except ValueError as err:
            raise fail(f"hex_labels: {err}") from None

    def pairs(key: str) -> frozenset[tuple[str, str]]:
        table = data.get(key, {})
        if not isinstance(table, dict) or not all(
            isinstance(olds, list) and all(isinstance(o, str) for o in olds)
            for olds in table.values()
        ):
            raise fail(f"{key} must be a table of new tile = [old tiles], not {table!r}")
        return frozenset((old, str(new)) for new, olds in table.items() for old in olds)

    return UpgradeRules(
        name=name,
        steps=usual if (usual := steps("steps")) is not None else STANDARD_STEPS,
        town_replacement_phases=tuple(phases),
        max_exits=tuple(max_exits),
        city_steps=steps("city_steps"),
        label_exceptions=pairs("label_exceptions"),
        town_cities=pairs("town_cities"),
        forbidden=pairs("forbidden"),
        unrotated=frozenset(unrotated),
        hex_labels=frozenset(hex_labels),
        late_colour=colour("late_colour"),
        late_steps=steps("late_steps"),
        late_city_steps=steps("late_city_steps"),
        colour_exceptions=pairs("colour_exceptions"),
        colour_exceptions_from=colour("colour_exceptions_from"),
        **flags,
    )


@cache
def _rules_table() -> dict[str, UpgradeRules]:
    source = "tilelay/data/upgrade_rules.toml"
    text = (resources.files("tilelay") / "data" / "upgrade_rules.toml").read_text("utf-8")
    table = tomllib.loads(text)
    out: dict[str, UpgradeRules] = {}
    for name, data in table.items():
        if not isinstance(data, dict):
            raise GameDataError(f"{name} must be a table of rules", source=source)
        out[name] = rules_from_data(name, data, source=source)
    return out


def rules_for(game: str | None) -> UpgradeRules:
    """The upgrade rules of the game titled ``game`` (``tilelay/data/upgrade_rules.toml``),
    or the default rules for a game not listed there.

    >>> rules_for("1856").town_replacement, rules_for("1889") is DEFAULT_RULES
    (True, True)
    """
    if game is None:
        return DEFAULT_RULES
    return _rules_table().get(game, DEFAULT_RULES)


# --------------------------------------------------------------------------- tile structure

_NODE = NODE_END  # ends >= _NODE are nodes (index = end - _NODE); ends 0-5 are edges


@dataclass(frozen=True, slots=True)
class _Shape:
    """A tile's track reduced to what upgrades compare: stops, links between ends, exits."""

    kinds: tuple[NodeKind, ...]  # per stop node index (junctions are contracted away)
    slots: tuple[int, ...]
    stops: tuple[int, ...]  # indices of the stop nodes
    conn: Connections
    links: frozenset[tuple[int, int, Track]]  # (a, b, track) with a <= b
    exits_mask: int
    node_exits: tuple[int, ...]  # per node: bitmask of edges linked to it
    label: str | None
    place: str | None  # the printed location name (a tile made for one named hex)
    color: Color
    locs: tuple[tuple[float, float] | None, ...]
    name: str
    city: bool  # whether it has a city


def _norm_label(text: str | None) -> str | None:
    return None if text is None or not text.strip() else text.strip().upper()


def _shape(tile: Tile, layout: Layout = Layout.FLAT) -> _Shape:
    """The tile's connections (:meth:`Tile.connections`) with what upgrades compare."""
    nodes = tile.nodes
    conn = tile.connections()
    locs: list[tuple[float, float] | None] = []
    for n in nodes:
        if n.loc is None:
            locs.append(None)
        else:
            try:
                locs.append(loc_point(n.loc, layout))
            except ValueError:
                locs.append(None)
    return _Shape(
        kinds=tuple(n.kind for n in nodes),
        slots=tuple(n.slots for n in nodes),
        stops=tuple(i for i, n in enumerate(nodes) if n.kind is not NodeKind.JUNCTION),
        conn=conn,
        links=conn.links,
        exits_mask=conn.exits,
        node_exits=conn.node_exits,
        label=_norm_label(tile.label),
        place=_norm_label(tile.location_name),
        color=tile.color,
        locs=tuple(locs),
        name=tile.name,
        city=any(n.kind is NodeKind.CITY for n in nodes),
    )


def _rot_mask(mask: int, r: int) -> int:
    return ((mask << r) | (mask >> (6 - r))) & 0x3F if r else mask


def _rot_end(end: int, r: int) -> int:
    return (end + r) % 6 if end < 6 else end


def _rot_links(
    links: frozenset[tuple[int, int, Track]], r: int
) -> dict[tuple[int, int], set[Track]]:
    out: dict[tuple[int, int], set[Track]] = {}
    for a, b, t in links:
        x, y = _rot_end(a, r), _rot_end(b, r)
        out.setdefault((min(x, y), max(x, y)), set()).add(t)
    return out


def _gauge_ok(old: Track, new: set[Track]) -> bool:
    return old in new or Track.DUAL in new


# ------------------------------------------------------------------------------ results


@dataclass(frozen=True, slots=True)
class Placement:
    """One legal rotation of the new tile, with where each old stop goes.

    ``node_map`` pairs each old stop node index with the new node index it becomes (``None``
    for a town that disappears under a game rule). ``rule`` names the game rule that made this
    placement legal, if any.
    """

    rotation: int
    node_map: tuple[tuple[int, int | None], ...]
    rule: str | None = None


@dataclass(frozen=True, slots=True)
class Upgrade:
    """An upgrade of a tile manifest: ``old`` may become ``new`` in these rotations.

    Rotations are the new tile's, with the old tile in rotation 0. ``hex_label`` is set when
    the upgrade is legal only on a hex carrying that label (an unlabelled tile on a labelled
    hex); ``hex_name`` when it is legal only on the hex of that name (a tile made for one
    place); ``rule`` and ``phases`` name the game rule it needs and when.
    """

    old: str
    new: str
    rotations: tuple[int, ...]
    placements: tuple[Placement, ...] = ()
    hex_label: str | None = None
    hex_name: str | None = None
    rule: str | None = None
    phases: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``from``, ``to``, ``rotations`` (and conditions when present)."""
        out: dict[str, Any] = {"from": self.old, "to": self.new, "rotations": list(self.rotations)}
        if self.hex_label is not None:
            out["hex_label"] = self.hex_label
        if self.hex_name is not None:
            out["hex_name"] = self.hex_name
        if self.rule is not None:
            out["rule"] = self.rule
        if self.phases:
            out["phases"] = list(self.phases)
        return out


# ---------------------------------------------------------------------------- the check


@dataclass(slots=True)
class _Cache:
    shapes: dict[int, tuple[Tile, _Shape]] = field(default_factory=dict)

    def get(self, tile: Tile) -> _Shape:
        hit = self.shapes.get(id(tile))
        if hit is not None and hit[0] is tile:
            return hit[1]
        shape = _shape(tile)
        if len(self.shapes) > 4096:
            self.shapes.clear()
        self.shapes[id(tile)] = (tile, shape)
        return shape


_CACHE = _Cache()


def _colour_reason(old: _Shape, new: _Shape, rules: UpgradeRules, same_ok: bool) -> str | None:
    if rules.colour_step(old.color, new.color, old.city):
        return None
    if (old.name, new.name) in rules.colour_exceptions:
        return None
    if same_ok and old.color == new.color:
        return None
    return f"colour {old.color.value} cannot become {new.color.value}"


def _search(
    old: _Shape,
    new: _Shape,
    r: int,
    rules: UpgradeRules,
    *,
    town_rule: bool,
    want_reason: bool,
    special: bool = False,
    fixed: Mapping[int, int | None] | None = None,
) -> tuple[tuple[tuple[int, int | None], ...] | None, str]:
    """Find a node map for rotation ``r``; returns (map or None, reason when None).

    ``fixed`` pins old stops (by node index) to the new stop they must become.
    """
    new_links = _rot_links(new.links, r)
    new_exits = [_rot_mask(m, r) for m in new.node_exits]
    # edge-edge links of the old tile must be edge-edge links of the new (or via vanished town)
    for a, b, t in old.links:
        if a < 6 and b < 6:
            got = new_links.get((a, b))
            if got is None:
                return None, f"old track {a}-{b} (tile-language edges) is not kept"
            if not _gauge_ok(t, got):
                return None, f"old {t.value} track {a}-{b} has no compatible gauge"
    # a city with no track and no token slots is a marker (e.g. a destination): nothing to keep
    old_stops = [
        i
        for i in old.stops
        if old.kinds[i] is not NodeKind.CITY
        or old.node_exits[i]
        or old.slots[i]
        or old.conn.linked(_NODE + i)
    ]
    new_stops = list(new.stops)
    n_old_cities = sum(1 for i in old.stops if old.kinds[i] is NodeKind.CITY)
    n_new_cities = sum(1 for j in new.stops if new.kinds[j] is NodeKind.CITY)
    merge_cities = rules.labelled_cities_merge and special and n_new_cities < n_old_cities
    add_cities = rules.labelled_cities_merge and special
    merge_towns = rules.towns_merge or town_rule

    def candidates(i: int) -> list[int | None]:
        kind = old.kinds[i]
        out: list[int | None] = []
        for j in new_stops:
            nk = new.kinds[j]
            ok = nk is kind or (town_rule and kind is NodeKind.TOWN and nk is NodeKind.CITY)
            if ok and (old.node_exits[i] & ~new_exits[j]) == 0:
                out.append(j)
        if town_rule and kind is NodeKind.TOWN:
            out.append(None)
        return out

    # order old nodes by fewest candidates for a fast search
    cands = {i: candidates(i) for i in old_stops}
    if fixed:
        for i, j in fixed.items():
            if i in cands:
                if j not in cands[i]:
                    return None, (
                        f"old {old.kinds[i].value} {i} cannot become new stop {j} "
                        "(the required city map)"
                    )
                cands[i] = [j]
    for i in old_stops:
        if not cands[i]:
            kind = old.kinds[i].value
            exits = sorted(e for e in range(6) if old.node_exits[i] >> e & 1)
            return None, f"no {kind} of the new tile has the exits {exits} of old {kind} {i}"
    order = sorted(old_stops, key=lambda i: len(cands[i]))
    best: list[tuple[float, tuple[tuple[int, int | None], ...]]] = []
    reason = ["the old stops cannot all be placed on the new tile's stops"]

    def finish(assign: dict[int, int | None]) -> str | None:
        images: dict[int, list[int]] = {}
        for i, j in assign.items():
            if j is not None:
                images.setdefault(j, []).append(i)
        for j, olds in images.items():
            if len(olds) > 1:
                kinds = {old.kinds[i] for i in olds}
                if new.kinds[j] is NodeKind.CITY and kinds == {NodeKind.CITY}:
                    if not merge_cities:
                        return "two old cities would share one new city"
                elif NodeKind.CITY in kinds:
                    return "an old city would share a new city with a town"
                elif not merge_towns:
                    return "two old towns would share one new stop"
            need = sum(old.slots[i] for i in olds)
            if new.kinds[j] is NodeKind.CITY and need > new.slots[j] and need > 0:
                return f"the new city has {new.slots[j]} slot(s) for {need} token(s)"
        for j in new_stops:
            if j not in images and new.kinds[j] in (NodeKind.CITY, NodeKind.TOWN):
                if add_cities and new.kinds[j] is NodeKind.CITY:
                    continue
                return f"the new tile adds a {new.kinds[j].value}"
        # every old link with a node end
        for a, b, t in old.links:
            if a < 6 and b < 6:
                continue
            ea = a if a < 6 else assign.get(a - _NODE, -1)
            eb = b if b < 6 else assign.get(b - _NODE, -1)
            if ea is None or eb is None:
                continue  # handled by the vanished-town check below
            xa = ea if a < 6 else _NODE + ea
            xb = eb if b < 6 else _NODE + eb
            if xa == xb:
                continue
            got = new_links.get((min(xa, xb), max(xa, xb)))
            if got is None or not _gauge_ok(t, got):
                return f"old track {_end_name(a)}-{_end_name(b)} is not kept"
        for i, j in assign.items():
            if j is None:
                exits = [e for e in range(6) if old.node_exits[i] >> e & 1]
                for x_i, x in enumerate(exits):
                    for y in exits[x_i + 1 :]:
                        if (x, y) not in new_links:
                            return f"track {x}-{y} replacing the old town is missing"
        return None

    assign: dict[int, int | None] = {}

    def score(a: dict[int, int | None]) -> float:
        total = 0.0
        for i, j in a.items():
            p, q = old.locs[i], (None if j is None else new.locs[j])
            if p is None or q is None:
                continue
            ang = math.radians(60.0 * r)
            qx = q[0] * math.cos(ang) - q[1] * math.sin(ang)
            qy = q[0] * math.sin(ang) + q[1] * math.cos(ang)
            total += math.hypot(p[0] - qx, p[1] - qy)
        return total

    def walk(k: int) -> None:
        if k == len(order):
            why = finish(assign)
            if why is None:
                best.append((score(assign), tuple(sorted(assign.items()))))
            else:
                reason[0] = why
            return
        i = order[k]
        for j in cands[i]:
            assign[i] = j
            walk(k + 1)
            del assign[i]

    walk(0)
    if not best:
        return None, reason[0] if want_reason else ""
    best.sort(key=lambda s: (s[0], [(-1 if j is None else j) for _, j in s[1]]))
    return best[0][1], ""


def _end_name(end: int) -> str:
    return str(end) if end < 6 else f"_{end - _NODE}"


def _town_replacing(old: _Shape, new: _Shape, rules: UpgradeRules) -> bool:
    """Whether the game's town replacement may apply to ``old`` becoming ``new``: a laid
    tile with a town (a preprinted hex's town takes town tiles only), or a pair of
    ``town_cities``."""
    if (old.name, new.name) in rules.town_cities:
        return True
    return rules.town_replacement and old.color is not Color.WHITE and _has_towns(old)


def _has_towns(s: _Shape) -> bool:
    return NodeKind.TOWN in s.kinds


def _special(old: _Shape, hex_label: str | None, hex_name: str | None, rules: UpgradeRules) -> bool:
    """Whether the hex is labelled, or named where names count (its tiles may merge or add
    cities)."""
    names = (old.place, hex_name) if rules.names_special else ()
    return any(x is not None for x in (old.label, hex_label, *names))


def _label_reason(
    old: _Shape,
    new: _Shape,
    hex_label: str | None,
    hex_name: str | None,
    future: FutureLabel | None = None,
    rules: UpgradeRules = DEFAULT_RULES,
) -> str | None:
    if (old.name, new.name) in rules.label_exceptions:
        return None
    if future is not None and new.color == future.color:
        want = _norm_label(future.text)
        if want != new.label:
            return (
                f"a {future.color.value} tile here must be labelled {want or 'nothing'} "
                f"(the hex's future label), the new tile is {new.label or 'unlabelled'}"
            )
        return None
    place = old.place if old.place is not None else _norm_label(hex_name)
    if new.place is not None:
        if place is not None and (new.place == place or new.place in place.split("-")):
            return None
        return f"the new tile is made for {new.place}, the hex is {place or 'unnamed'}"
    label = old.label if old.label is not None else _norm_label(hex_label)
    if label != new.label:
        return f"labels differ: hex {label or 'unlabelled'}, new tile {new.label or 'unlabelled'}"
    return None


def _placements(
    old: _Shape,
    new: _Shape,
    rules: UpgradeRules,
    hex_label: str | None,
    hex_name: str | None = None,
    fixed: Mapping[int, int | None] | None = None,
    future: FutureLabel | None = None,
) -> tuple[Placement, ...]:
    if (old.name, new.name) in rules.forbidden:
        return ()
    if _label_reason(old, new, hex_label, hex_name, future, rules) is not None:
        return ()
    out: list[Placement] = []
    std_colour = _colour_reason(old, new, rules, same_ok=False) is None
    town_ok = _town_replacing(old, new, rules)
    if not std_colour and not (town_ok and _colour_reason(old, new, rules, same_ok=True) is None):
        return ()
    special = _special(old, hex_label, hex_name, rules)
    for r in (0,) if new.name in rules.unrotated else range(6):
        if old.exits_mask & ~_rot_mask(new.exits_mask, r):
            continue
        node_map = None
        if std_colour:
            node_map, _ = _search(
                old, new, r, rules, town_rule=False, want_reason=False, special=special, fixed=fixed
            )
            if node_map is not None:
                out.append(Placement(r, node_map))
                continue
        if town_ok:
            node_map, _ = _search(
                old, new, r, rules, town_rule=True, want_reason=False, special=special, fixed=fixed
            )
            if node_map is not None:
                out.append(Placement(r, node_map, rule=f"{rules.name} town replacement"))
    return tuple(out)


def placements(
    old: Tile,
    new: Tile,
    rules: UpgradeRules = DEFAULT_RULES,
    *,
    hex_label: str | None = None,
    hex_name: str | None = None,
    city_map: Mapping[int, int | None] | None = None,
    future_label: FutureLabel | None = None,
) -> tuple[Placement, ...]:
    """Every rotation in which ``new`` may replace ``old`` (as it lies), with node maps.

    ``hex_label`` is the label of the hex when the old tile carries none (e.g. a map hex
    labelled ``OO`` still holding an unlabelled tile); ``hex_name`` the hex's place name when
    the old tile has none (a tile made for a named place goes only there). ``city_map`` pins
    old nodes (by index) to the new node each must become (where their tokens go, e.g. a
    tile set's ``<RevenueCenter from to>``): rotations needing another map are left out.
    ``future_label`` is the hex's future label in force (see
    :class:`~tilelay.tile.FutureLabel`): a new tile of its colour must carry its label, whatever
    the old tile's.
    """
    return _placements(
        _CACHE.get(old),
        _CACHE.get(new),
        rules,
        hex_label,
        hex_name,
        fixed=city_map,
        future=future_label,
    )


def legal_rotations(
    old: Tile,
    new: Tile,
    rules: UpgradeRules = DEFAULT_RULES,
    *,
    hex_label: str | None = None,
    hex_name: str | None = None,
    future_label: FutureLabel | None = None,
) -> tuple[int, ...]:
    """The rotations (0–5) of ``new`` that may replace ``old`` as it lies (arguments as
    :func:`placements`)."""
    found = placements(
        old, new, rules, hex_label=hex_label, hex_name=hex_name, future_label=future_label
    )
    return tuple(p.rotation for p in found)


def explain(
    old: Tile,
    new: Tile,
    rotation: int,
    rules: UpgradeRules = DEFAULT_RULES,
    *,
    hex_label: str | None = None,
    hex_name: str | None = None,
    city_map: Mapping[int, int | None] | None = None,
    future_label: FutureLabel | None = None,
) -> str | None:
    """Why ``new`` in ``rotation`` may not replace ``old``; ``None`` when it may.

    ``city_map`` and ``future_label`` as for :func:`placements`.
    """
    o, n = _CACHE.get(old), _CACHE.get(new)
    r = rotation % 6
    if (o.name, n.name) in rules.forbidden:
        return f"{rules.name}'s rules forbid tile {n.name} on tile {o.name}"
    if r and n.name in rules.unrotated:
        return f"{rules.name}'s tile {n.name} is laid in rotation 0 only"
    label_why = _label_reason(o, n, hex_label, hex_name, future_label, rules)
    if label_why is not None:
        return label_why
    town_ok = _town_replacing(o, n, rules)
    colour_why = _colour_reason(o, n, rules, same_ok=False)
    if colour_why is not None and not (
        town_ok and _colour_reason(o, n, rules, same_ok=True) is None
    ):
        return colour_why
    lost = o.exits_mask & ~_rot_mask(n.exits_mask, r)
    if lost:
        edges = [e for e in range(6) if lost >> e & 1]
        return f"old exits {edges} (tile-language edges) have no track on the new tile"
    why = ""
    special = _special(o, hex_label, hex_name, rules)
    if colour_why is None:
        node_map, why = _search(
            o, n, r, rules, town_rule=False, want_reason=True, special=special, fixed=city_map
        )
        if node_map is not None:
            return None
    if town_ok:
        node_map, why2 = _search(
            o, n, r, rules, town_rule=True, want_reason=True, special=special, fixed=city_map
        )
        if node_map is not None:
            return None
        why = why or why2
    return why


def distinct_rotations(tile: Tile, rotations: Iterable[int]) -> tuple[int, ...]:
    """``rotations`` with those giving the same placed tile as an earlier one left out.

    Two rotations give the same placed tile when the turned tiles have the same track topology
    (the tile's symmetry).
    """
    seen: set[tuple[object, ...]] = set()
    out: list[int] = []
    for r in sorted({x % 6 for x in rotations}):
        key = tile.rotated(r).topology()
        if key not in seen:
            seen.add(key)
            out.append(r)
    return tuple(out)


def _conditions(old: Tile, new: Tile) -> tuple[str | None, str | None]:
    """The hex label and place name an upgrade needs, when the old tile lacks them.

    An unlabelled tile may become a labelled one on a hex with that label; a tile made for a
    named place replaces a labelled or named tile on the hex of that name.
    """
    new_place = _norm_label(new.location_name)
    old_place = _norm_label(old.location_name)
    if new_place is not None:
        if new_place == old_place:
            return None, None
        if old_place is None and _norm_label(old.label) is None:
            return None, None  # a named tile replaces only a special (labelled or named) hex
        return None, new.location_name
    if _norm_label(old.label) is None and new.label is not None:
        return new.label, None
    return None, None


def upgrade_table(
    tiles: Sequence[Tile],
    rules: UpgradeRules = DEFAULT_RULES,
    *,
    from_tiles: Sequence[Tile] | None = None,
    labelled_hexes: bool = True,
) -> list[Upgrade]:
    """Every upgrade among ``tiles`` (a game's manifest), with rotations and node maps.

    ``from_tiles`` (default ``tiles``) are the tiles upgraded from, e.g. with preprinted map
    tiles added. With ``labelled_hexes``, an unlabelled tile may become a labelled one on a hex
    carrying that label (the upgrade records ``hex_label``).
    """
    olds = list(tiles if from_tiles is None else from_tiles)
    shapes = {id(t): _shape(t) for t in [*olds, *tiles]}
    out: list[Upgrade] = []
    for old in olds:
        so = shapes[id(old)]
        for new in tiles:
            if new is old or new.name == old.name:
                continue
            sn = shapes[id(new)]
            hex_label, hex_name = _conditions(old, new) if labelled_hexes else (None, None)
            found = _placements(so, sn, rules, hex_label, hex_name)
            if not found:
                continue
            rule = next((p.rule for p in found if p.rule), None)
            if rule is not None and any(p.rule is None for p in found):
                found = tuple(p for p in found if p.rule is None)
                rule = None
            out.append(
                Upgrade(
                    old=old.name,
                    new=new.name,
                    rotations=tuple(p.rotation for p in found),
                    placements=found,
                    hex_label=hex_label,
                    hex_name=hex_name,
                    rule=rule,
                    phases=rules.town_replacement_phases if rule else (),
                )
            )
    return out
