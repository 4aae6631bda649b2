"""One game read from several sources, compared: every difference, with its known cause.

tilelay reads the same title from up to four sources (its built-in TOML, the 18xx.games
engine, Rails, GE18XX). :func:`differences` lists what two of them disagree on, as
:class:`Difference` values: the hex set; each hex's colour, stops (cities, towns, off-boards)
and revenues (``revenue phases``: the same values in the same order, the phases named
otherwise), track up to rotation (and how it is turned), label, borders, terrain costs and
location name; the manifest (counts, and each shared tile's label, colour, track and
revenues); corporations (homes, token costs), companies (value, revenue, blocked hexes) and
trains (count, price, distance of each train).

:func:`compare` compares every source of a title against the reference: the first of them
in the fixed order of :data:`FORMAT_ORDER` (built-in, 18xx.games, Rails, GE18XX), whatever
order the sources were given in, so that the same sources always give the same report. It
names each difference's cause from the project's data file of known differences
(``tilelay/data/known_differences.toml``, read by :func:`known_differences`): an edition
difference, a data error in one source, a drawing-only detail, a naming difference, something
a reader does not model, or something tilelay's tile language lacks. A difference no rule
explains is *unexplained*: a new fact to investigate.

>>> from tilelay.games import load_game
>>> differences(load_game("1830"), load_game("1830"))
[]
>>> str(Difference("manifest", "15", ("18xx.games", "rails"), ("6", "5")))
'manifest 15: 6 (18xx.games) / 5 (rails)'
"""

from __future__ import annotations

import fnmatch
import functools
import re
import tomllib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from importlib import resources
from typing import Any

from tilelay.errors import GameDataError
from tilelay.games.model import UNLIMITED, Game, coord_key, letters, normalise_name, tile_key
from tilelay.games.registry import GameEntry, entries, load_game
from tilelay.tile import Border, NodeKind, Revenue, Tile
from tilelay.trains import UNLIMITED_STOPS, TownCounting, TrainCardType

__all__ = [
    "ASPECTS",
    "FORMAT_ORDER",
    "Category",
    "Cause",
    "Comparison",
    "Difference",
    "Finding",
    "KnownDifferences",
    "Rule",
    "compare",
    "compare_games",
    "differences",
    "known_differences",
    "read_known_differences",
    "renamed",
    "titles_in_several_sources",
]

#: What a :class:`Difference` can be about, in the order they are listed.
ASPECTS: tuple[str, ...] = (
    "hex",
    "colour",
    "stops",
    "revenue",
    "revenue phases",
    "track",
    "track turned",
    "label",
    "border",
    "cost",
    "location",
    "manifest",
    "tile label",
    "tile colour",
    "tile track",
    "tile revenue",
    "corporation",
    "home",
    "tokens",
    "company",
    "train",
    "train count",
    "train price",
    "train distance",
)
_ORDER = {what: i for i, what in enumerate(ASPECTS)}

#: The formats in the order they are compared: the first a title has is the reference, the
#: others are each compared with it (formats not listed come last, by name). A fixed order:
#: the report must not depend on the order the sources were given in (``--games``).
FORMAT_ORDER: tuple[str, ...] = ("tilelay", "18xx.games", "rails", "ge18xx")


def _format_rank(fmt: str) -> tuple[int, str]:
    """Where a format comes in :data:`FORMAT_ORDER` (unknown formats last, by name)."""
    try:
        return (FORMAT_ORDER.index(fmt), "")
    except ValueError:
        return (len(FORMAT_ORDER), fmt)


class Category(StrEnum):
    """The kind of cause of a difference."""

    #: the sources follow different editions (or variants) of the game
    EDITION = "edition"
    #: one source is wrong or incomplete (:attr:`Cause.source` names it)
    DATA_ERROR = "data error"
    #: a drawing detail only, nothing that changes play
    DRAWING = "drawing"
    #: the same thing named or written another way
    NAMING = "naming"
    #: the source has it, but a reader of tilelay does not model it (yet)
    NOT_MODELLED = "not modelled"
    #: tilelay's tile language cannot say it yet
    TILE_LANGUAGE = "tile language"


@dataclass(frozen=True, slots=True, order=True)
class Difference:
    """One thing two sources of a game disagree on.

    ``what`` is one of :data:`ASPECTS`; ``where`` the hex coordinate (``A11``, or ``A11.1``
    for a border: hex and edge), tile name, corporation symbol, company (``value/revenue``) or
    train name; ``sources`` the two formats compared (the reference first) and ``values`` the
    value in each (``""`` where a source has nothing).
    """

    what: str
    where: str
    sources: tuple[str, str]
    values: tuple[str, str]
    unread: str = ""
    """Set by :func:`compare_games` when a source could not read the place (a hex its reader
    drew as a plain hex): ``"18xx.games: unknown part 'stub'"``."""

    def __str__(self) -> str:
        a, b = (v if v else "—" for v in self.values)
        return f"{self.what} {self.where}: {a} ({self.sources[0]}) / {b} ({self.sources[1]})"

    def value_in(self, source: str) -> str | None:
        """The value in the source of format ``source``, or ``None`` if it is not compared."""
        for fmt, value in zip(self.sources, self.values, strict=True):
            if fmt == source:
                return value
        return None

    def to_json(self) -> dict[str, Any]:
        """The difference as plain data."""
        data: dict[str, Any] = {
            "what": self.what,
            "where": self.where,
            "values": dict(zip(self.sources, self.values, strict=True)),
        }
        if self.unread:
            data["unread"] = self.unread
        return data


@dataclass(frozen=True, slots=True)
class Cause:
    """Why a difference exists: a category, the source at fault (for data errors and what a
    reader does not model) and a sentence naming the facts."""

    category: Category
    text: str
    source: str | None = None

    def __str__(self) -> str:
        kind = self.category.value + (f" in {self.source}" if self.source else "")
        return f"{kind}: {self.text}"


@dataclass(frozen=True, slots=True)
class Rule:
    """A pattern of differences with their cause, from the data file.

    A difference matches when its aspect is one of ``what``; its place matches one of the
    shell patterns of ``where``; every format in ``formats`` is one of the two compared; and
    ``values`` (if given) match: a pair of patterns matched against the two values in either
    order, or patterns per format (``{"rails": ""}``: Rails has nothing); with ``unread``, only
    differences at places a source could not read (:attr:`Difference.unread`), whose reason
    replaces ``{unread}`` in the cause.
    """

    what: tuple[str, ...]
    cause: Cause
    where: tuple[str, ...] = ("*",)
    formats: tuple[str, ...] = ()
    values: tuple[str, ...] = ()
    values_by_format: tuple[tuple[str, str], ...] = ()
    games: tuple[str, ...] = ()
    unread: bool = False

    def matches(self, diff: Difference) -> bool:
        """Whether ``diff`` is one of the differences this rule explains."""
        if diff.what not in self.what:
            return False
        if self.unread and not diff.unread:
            return False
        if not any(fnmatch.fnmatchcase(diff.where, p) for p in self.where):
            return False
        if any(f not in diff.sources for f in self.formats):
            return False
        if self.values:
            a, b = diff.values
            pa, pb = self.values
            straight = _match(a, pa) and _match(b, pb)
            if not (straight or (_match(a, pb) and _match(b, pa))):
                return False
        for fmt, pattern in self.values_by_format:
            value = diff.value_in(fmt)
            if value is None or not _match(value, pattern):
                return False
        return True


def _match(value: str, pattern: str) -> bool:
    return value == pattern if pattern == "" else fnmatch.fnmatchcase(value, pattern)


@dataclass(frozen=True, slots=True)
class KnownDifferences:
    """The known differences: rules for every game, rules per title, titles that name the
    same game (``same_game``: a name -> the title it stands for) and sources that name a
    game's hexes otherwise (``coordinates``)."""

    general: tuple[Rule, ...]
    per_game: Mapping[str, tuple[Rule, ...]]
    same_game: Mapping[str, str]
    coordinates: Mapping[tuple[str, str], tuple[tuple[int, int], str]] = field(default_factory=dict)
    """(title key, format) -> the shift of that source's doubled coordinates onto the names
    the title's other sources (those without an entry) use, and why: a source that names the
    hexes of a game otherwise."""

    def cause(self, title: str, diff: Difference) -> Cause | None:
        """The cause of ``diff`` in game ``title``: the first matching rule of the title,
        else of every game; ``None`` when no rule explains it."""
        rule = self.rule(title, diff)
        if rule is None:
            return None
        if rule.unread:
            return replace(rule.cause, text=rule.cause.text.replace("{unread}", diff.unread))
        return rule.cause

    def rule(self, title: str, diff: Difference) -> Rule | None:
        """The rule that explains ``diff`` in game ``title`` (see :meth:`cause`)."""
        for rule in (*self.per_game.get(self.title_key(title), ()), *self.general):
            if rule.matches(diff):
                return rule
        return None

    def title_key(self, name: str) -> str:
        """The key grouping the sources of one game: the normalised title, or the title a
        ``same_game`` entry maps it to."""
        key = normalise_name(name)
        return self.same_game.get(key, key)


@dataclass(frozen=True, slots=True)
class Finding:
    """A difference with its cause (``None``: unexplained)."""

    difference: Difference
    cause: Cause | None

    def to_json(self) -> dict[str, Any]:
        """The finding as plain data."""
        data = self.difference.to_json()
        if self.cause is None:
            data["cause"] = None
        else:
            data["cause"] = {
                "category": self.cause.category.value,
                "source": self.cause.source,
                "text": self.cause.text,
            }
        return data


@dataclass(frozen=True, slots=True)
class Comparison:
    """A title compared across its sources: the formats (the reference first) and every
    difference of each other source from the reference, with its cause."""

    title: str
    sources: tuple[str, ...]
    findings: tuple[Finding, ...]
    notes: tuple[str, ...] = ()
    """How the sources were aligned before comparing (a source's hexes renamed)."""

    @property
    def unexplained(self) -> tuple[Finding, ...]:
        """The differences no known cause explains."""
        return tuple(f for f in self.findings if f.cause is None)

    def counts(self) -> dict[str, int]:
        """How many differences each category (and ``unexplained``) has."""
        out: Counter[str] = Counter()
        for f in self.findings:
            out[_category_name(f.cause)] += 1
        return dict(sorted(out.items()))

    def to_json(self) -> dict[str, Any]:
        """The comparison as plain data."""
        return {
            "title": self.title,
            "sources": list(self.sources),
            "counts": self.counts(),
            "notes": list(self.notes),
            "differences": [f.to_json() for f in self.findings],
        }


def _category_name(cause: Cause | None) -> str:
    if cause is None:
        return "unexplained"
    if cause.source:
        return f"{cause.category.value} in {cause.source}"
    return cause.category.value


# --------------------------------------------------------------------------- differences


def _kinds(tile: Tile) -> str:
    return " ".join(sorted(n.kind.value for n in tile.stops))


def _revenue(revenue: Revenue | None) -> str:
    """A revenue as text, a phase that repeats the value before it left out
    (``yellow_0|green_0|gray_80`` is ``yellow_0|gray_80``)."""
    if revenue is None:
        return "0"
    if not revenue.phases:
        return str(revenue.value)
    kept: list[tuple[str, int]] = []
    for phase, value in revenue.phases:
        if not kept or kept[-1][1] != value or phase == "diesel":
            kept.append((phase, value))
    if len(kept) == 1:
        return str(kept[0][1])
    return "|".join(f"{p}_{v}" for p, v in kept)


def _revenue_values(tile: Tile) -> list[tuple[int, ...]]:
    """Each stop's revenue values in order, the phases they are keyed by left out."""
    out = []
    for n in tile.stops:
        text = _revenue(n.revenue)
        out.append(tuple(int(part.rpartition("_")[2]) for part in text.split("|")))
    return sorted(out)


def _revenues(tile: Tile) -> str:
    return " ".join(sorted(_revenue(n.revenue) for n in tile.stops))


def _exits(tile: Tile) -> str:
    return "".join(str(e) for e in sorted(tile.exits()))


def _costs(tile: Tile) -> str:
    return " ".join(str(c) for c in sorted(u.cost for u in tile.upgrades if u.cost))


def _links(tile: Tile) -> tuple[object, ...]:
    """What the track connects (:meth:`Tile.connections`): edge-to-edge links and each
    stop's kind and exits; junctions and the way paths are drawn do not matter."""
    conn = tile.connections()
    stops = sorted(
        (n.kind.value, tuple(sorted(tile.node_exits(i))))
        for i, n in enumerate(tile.nodes)
        if n.is_stop
    )
    return (tuple(sorted(conn.links)), tuple(stops))


def _same_track(a: Tile, b: Tile, *, turn: bool = True) -> bool:
    """Whether ``a`` and ``b`` have the same track (turned some way when ``turn``): the same
    topology, or the same connections (a junction with three paths connects what three
    edge-to-edge paths connect)."""
    rotations = range(6) if turn else (0,)
    if turn and a.same_topology_up_to_rotation(b):
        return True
    if not turn and a.topology() == b.topology():
        return True
    target = _links(b)
    return any(_links(a.rotated(r)) == target for r in rotations)


def _count(n: int | None) -> str:
    if n is None:
        return ""
    return "unlimited" if n == UNLIMITED else str(n)


def _home(game: Game, sym: str) -> str:
    """A corporation's home as ``hex`` or ``hex/exits of its city`` (city indices may differ
    between sources that list the cities of a hex in another order), its other home
    stations after it (``B3 E6``)."""
    corp = game.corporation(sym)
    if corp.home is None:
        return ""
    out = [_station(game, corp.home, game.home_city(sym))]
    out.extend(_station(game, coord, index) for coord, index in corp.more_homes)
    return " ".join(out)


def _station(game: Game, coord: str, index: int | None) -> str:
    """A home as ``hex`` or ``hex/exits of its city`` (see :func:`_home`)."""
    tile = game.hexes.get(coord)
    if index is None or tile is None or index >= len(tile.cities) or len(tile.cities) < 2:
        return coord  # (a hex of one city: the hex says it)
    # by position: equal cities compare equal, so tile.nodes.index() would find the first
    node = [i for i, n in enumerate(tile.nodes) if n.kind is NodeKind.CITY][index]
    exits = "".join(str(e) for e in sorted(tile.node_exits(node)))
    return f"{coord}/{exits}" if exits else coord


def _distance(card: TrainCardType) -> str:
    """A train's distance: ``2``, ``4+4`` (major + minor stops), ``2, towns free`` (towns do
    not count: Rails' ``countTowns="no"``, the engine's 99 town stops; ``towns skipped`` when
    they score nothing either), ``∞``, ``3H``."""

    def stops(n: int) -> str:
        return "∞" if n >= UNLIMITED_STOPS else str(n)

    out = []
    for side in card.sides:
        text = stops(side.major_stops)
        free = side.reach.count_towns is TownCounting.NO or side.minor_stops >= UNLIMITED_STOPS
        if free:
            text += ", towns free" if side.score.towns else ", towns skipped"
        elif side.minor_stops:
            text += f"+{stops(side.minor_stops)}"
        if side.reach.base.value == "hexes":
            text += "H"
        if not free and side.max_visits is not None and side.max_visits >= UNLIMITED_STOPS:
            text += " of ∞"  # an express: visits any number of stops, pays the best n
        out.append(text)
    return " / ".join(out)


def _price(card: TrainCardType) -> str:
    return " / ".join(str(side.cost) for side in card.sides)


def differences(a: Game, b: Game) -> list[Difference]:
    """Every difference between games ``a`` and ``b`` (sorted by aspect, then place).

    Hexes are compared by coordinate; tiles, corporations and trains by name; companies by
    value and revenue (their symbols differ between sources).
    """
    pair = (a.format, b.format)
    out: list[Difference] = []

    def add(what: str, where: str, va: str, vb: str) -> None:
        if va != vb:
            out.append(Difference(what, where, pair, (va, vb)))

    sides_a, sides_b = _sides(a), _sides(b)
    for coord in set(a.hexes) ^ set(b.hexes):
        ta, tb = a.hexes.get(coord), b.hexes.get(coord)
        add("hex", coord, ta.color.value if ta else "", tb.color.value if tb else "")
    for coord in set(a.hexes) & set(b.hexes):
        ta, tb = a.hexes[coord], b.hexes[coord]
        add("colour", coord, ta.color.value, tb.color.value)
        if _kinds(ta) != _kinds(tb):
            add("stops", coord, _kinds(ta), _kinds(tb))
        elif _revenues(ta) != _revenues(tb):
            same_values = _revenue_values(ta) == _revenue_values(tb)
            add("revenue phases" if same_values else "revenue", coord, _revenues(ta), _revenues(tb))
        if _kinds(ta) == _kinds(tb):
            if not _same_track(ta, tb):
                add("track", coord, _exits(ta), _exits(tb))
            elif not _same_track(ta, tb, turn=False):
                add("track turned", coord, _exits(ta), _exits(tb))
        add("label", coord, ta.label or "", tb.label or "")
        ba, bb = sides_a.get(coord, {}), sides_b.get(coord, {})
        for edge in set(ba) | set(bb):
            add("border", f"{coord}.{edge}", _border(ba.get(edge)), _border(bb.get(edge)))
        add("cost", coord, _costs(ta), _costs(tb))
    for coord in set(a.location_names) | set(b.location_names):
        if coord in a.hexes and coord in b.hexes:
            add("location", coord, a.location_names.get(coord, ""), b.location_names.get(coord, ""))
    for name in set(a.manifest) | set(b.manifest):
        na, nb = a.manifest.get(name), b.manifest.get(name)
        add("manifest", name, _count(na), _count(nb))
        if na is None or nb is None:
            continue
        ta, tb = a.tile(name), b.tile(name)
        add("tile label", name, ta.label or "", tb.label or "")
        add("tile colour", name, ta.color.value, tb.color.value)
        if not _same_track(ta, tb):
            add("tile track", name, _exits(ta), _exits(tb))
        ra = " ".join(str(v) for v in sorted(ta.revenue_values()))
        rb = " ".join(str(v) for v in sorted(tb.revenue_values()))
        add("tile revenue", name, ra, rb)
    sa = {c.sym for c in a.corporations}
    sb = {c.sym for c in b.corporations}
    for sym in sa ^ sb:
        add("corporation", sym, a.corporation(sym).name if sym in sa else "",
            b.corporation(sym).name if sym in sb else "")  # fmt: skip
    for sym in sa & sb:
        add("home", sym, _home(a, sym), _home(b, sym))
        ka, kb = a.corporation(sym).tokens, b.corporation(sym).tokens
        add("tokens", sym, " ".join(map(str, ka)), " ".join(map(str, kb)))
    pa = _companies(a)
    pb = _companies(b)
    for key in set(pa) | set(pb):
        add("company", key, " ".join(pa.get(key, [])), " ".join(pb.get(key, [])))
    cards_a = {c.name: c for c in a.trains.card_types}
    cards_b = {c.name: c for c in b.trains.card_types}
    for name in set(cards_a) | set(cards_b):
        ca, cb = cards_a.get(name), cards_b.get(name)
        if ca is None or cb is None:
            add("train", name, "train" if ca else "", "train" if cb else "")
            continue
        add("train count", name, _count(ca.quantity), _count(cb.quantity))
        add("train price", name, _price(ca), _price(cb))
        add("train distance", name, _distance(ca), _distance(cb))
    out.sort(key=lambda d: (_ORDER[d.what], _place_key(d.what, d.where)))
    return out


def _place_key(what: str, where: str) -> tuple[object, ...]:
    if what.startswith(("manifest", "tile")):
        return (tile_key(where),)
    head, _, edge = where.partition(".")
    try:
        return (coord_key(head), edge)
    except ValueError:
        return ((where, 0, where), "")


def _sides(game: Game) -> dict[str, dict[int, Border]]:
    """Each hex's borders, a border written on one of the two hexes it separates counted on
    both (sources write a shared border once or twice)."""
    out: dict[str, dict[int, Border]] = {}
    for coord, tile in game.hexes.items():
        for border in tile.borders:
            out.setdefault(coord, {})[border.edge] = border
    for coord, tile in game.hexes.items():
        for border in tile.borders:
            other = game.neighbour(coord, border.edge)
            if other is not None and border.type is not None:
                out.setdefault(other, {}).setdefault((border.edge + 3) % 6, border)
    return out


def _border(border: Any) -> str:
    if border is None:
        return ""
    text = border.type.value if border.type else "plain"
    return f"{text} {border.cost}" if border.cost else text


def _companies(game: Game) -> dict[str, list[str]]:
    """Companies by ``value/revenue`` -> the hexes each blocks (``-``: none), sorted."""
    out: dict[str, list[str]] = {}
    for c in game.companies:
        blocks = ",".join(sorted(c.blocks, key=coord_key)) or "-"
        out.setdefault(f"{c.value}/{c.revenue}", []).append(blocks)
    return {k: sorted(v) for k, v in out.items()}


_UNREAD = re.compile(r"(?:^|: )bad tile string \(column \d+\): (.*); (.*) drawn as plain hexes$")


def renamed(game: Game, like: Game, shift: tuple[int, int]) -> Game:
    """``game`` with its hexes named as ``like`` names them: each hex's doubled coordinates
    (:meth:`Game.coord_xy`) moved by ``shift``, then written in ``like``'s convention (the
    letter its column or its row). Location names, homes and blocked hexes follow."""
    dx, dy = shift

    def name(coord: str) -> str:
        x, y = game.coord_xy(coord)
        x, y = x + dx, y + dy
        return f"{letters(x)}{y}" if like.letter_is_x else f"{letters(y)}{x}"

    return replace(
        game,
        hexes={name(c): t for c, t in game.hexes.items()},
        location_names={name(c): n for c, n in game.location_names.items()},
        corporations=tuple(
            replace(
                c,
                home=name(c.home),
                more_homes=tuple((name(h), i) for h, i in c.more_homes),
            )
            if c.home is not None
            else c
            for c in game.corporations
        ),
        companies=tuple(replace(c, blocks=tuple(map(name, c.blocks))) for c in game.companies),
        letter_is_x=like.letter_is_x,
    )


def _unread_hexes(game: Game) -> dict[str, str]:
    """The hexes the game's reader could not read (drawn as plain hexes, as its problems
    say), each with the reason."""
    out: dict[str, str] = {}
    for problem in game.problems:
        m = _UNREAD.search(problem.message)
        if m:
            for coord in m.group(2).split(", "):
                out.setdefault(coord, m.group(1))
    return out


_HEX_ASPECTS = frozenset(ASPECTS[: ASPECTS.index("location") + 1])


def _places(diff: Difference, games: Sequence[Game]) -> list[str]:
    """The hexes a difference is about: its hex (and, for a border, the hex across it), or a
    corporation's home."""
    if diff.what in _HEX_ASPECTS:
        coord, _, edge = diff.where.partition(".")
        places = [coord]
        if edge:
            for game in games:
                if coord in game.hexes:
                    across = game.neighbour(coord, int(edge))
                    if across is not None:
                        places.append(across)
        return places
    if diff.what == "home":
        return [
            coord
            for game in games
            for c in game.corporations
            if c.sym == diff.where and c.home is not None
            for coord in (c.home, *(h for h, _ in c.more_homes))
        ]
    return []


# --------------------------------------------------------------------------- the known causes


def _strings(data: dict[str, Any], key: str, where: str) -> tuple[str, ...]:
    value = data.get(key, [])
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise GameDataError(f"{where}: {key} must be a string or a list of strings")
    return tuple(value)


def _rule(data: dict[str, Any], where: str, games: tuple[str, ...]) -> Rule:
    keys = {"what", "where", "formats", "values", "category", "source", "cause", "unread"}
    unknown = set(data) - keys
    if unknown:
        raise GameDataError(f"{where}: unknown keys {sorted(unknown)}")
    what = _strings(data, "what", where)
    if what == ("*",):
        what = ASPECTS
    bad = [w for w in what if w not in _ORDER]
    if not what or bad:
        raise GameDataError(f"{where}: what must name aspects of {list(ASPECTS)}, not {bad}")
    try:
        category = Category(data["category"])
    except (KeyError, ValueError):
        raise GameDataError(
            f"{where}: category must be one of {[c.value for c in Category]}"
        ) from None
    text = data.get("cause")
    if not isinstance(text, str) or not text:
        raise GameDataError(f"{where}: cause must be a sentence")
    source = data.get("source")
    if category in (Category.DATA_ERROR, Category.NOT_MODELLED) and not isinstance(source, str):
        raise GameDataError(f"{where}: a {category.value} names its source")
    values = data.get("values", ())
    pair: tuple[str, ...] = ()
    by_format: tuple[tuple[str, str], ...] = ()
    if isinstance(values, dict):
        by_format = tuple((str(k), str(v)) for k, v in values.items())
    elif values:
        pair = _strings(data, "values", where)
        if len(pair) != 2:
            raise GameDataError(f"{where}: values must be two patterns, or patterns per format")
    return Rule(
        what=what,
        cause=Cause(category, " ".join(text.split()), source if isinstance(source, str) else None),
        where=_strings(data, "where", where) or ("*",),
        formats=_strings(data, "formats", where),
        values=pair,
        values_by_format=by_format,
        games=games,
        unread=data.get("unread") is True,
    )


def read_known_differences(text: str, source: str = "known_differences.toml") -> KnownDifferences:
    """Read a file of known differences (the format of
    ``tilelay/data/known_differences.toml``, described at its top)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise GameDataError(f"{source}: {err}") from None
    general = tuple(
        _rule(r, f"{source}: rule {i + 1}", ()) for i, r in enumerate(data.get("rule", []))
    )
    per_game: dict[str, tuple[Rule, ...]] = {}
    for title, rules in data.get("game", {}).items():
        per_game[normalise_name(title)] = tuple(
            _rule(r, f"{source}: game {title} rule {i + 1}", (title,)) for i, r in enumerate(rules)
        )
    same = {
        normalise_name(other): normalise_name(title)
        for title, others in data.get("same_game", {}).items()
        for other in ([others] if isinstance(others, str) else others)
    }
    coordinates: dict[tuple[str, str], tuple[tuple[int, int], str]] = {}
    for title, by_format in data.get("coordinates", {}).items():
        for fmt, entry in by_format.items():
            where = f"{source}: coordinates of {title} in {fmt}"
            shift = entry.get("shift")
            why = entry.get("cause")
            if (
                not isinstance(shift, list)
                or len(shift) != 2
                or not all(isinstance(v, int) for v in shift)
            ):
                raise GameDataError(f"{where}: shift must be two whole numbers")
            if not isinstance(why, str) or not why:
                raise GameDataError(f"{where}: cause must be a sentence")
            coordinates[(normalise_name(title), fmt)] = (
                (shift[0], shift[1]),
                " ".join(why.split()),
            )
    return KnownDifferences(general, per_game, same, coordinates)


@functools.cache
def known_differences() -> KnownDifferences:
    """The project's known differences (``tilelay/data/known_differences.toml``)."""
    path = resources.files("tilelay") / "data" / "known_differences.toml"
    return read_known_differences(path.read_text(encoding="utf-8"), "known_differences.toml")


# --------------------------------------------------------------------------- comparing titles


def _groups(known: KnownDifferences) -> dict[str, list[GameEntry]]:
    """Title key -> the first entry of each format with that title, in the order of
    :data:`FORMAT_ORDER` (the reference first), whatever order the sources were added in."""
    groups: dict[str, list[GameEntry]] = {}
    for entry in entries():
        group = groups.setdefault(known.title_key(entry.name), [])
        if all(e.format != entry.format for e in group):
            group.append(entry)
    for group in groups.values():
        group.sort(key=lambda e: _format_rank(e.format))
    return groups


def titles_in_several_sources(known: KnownDifferences | None = None) -> list[str]:
    """The titles (as the reference source names them) that two or more sources have."""
    known = known or known_differences()
    return sorted(
        (group[0].name for group in _groups(known).values() if len(group) > 1), key=str.lower
    )


def compare_games(
    games: Sequence[Game], title: str | None = None, known: KnownDifferences | None = None
) -> Comparison:
    """Compare the games, each against the reference, naming causes as known for ``title``
    (default: the reference's name).

    The games are put in the order of :data:`FORMAT_ORDER` first (the reference is the first
    of them), so the order they are given in does not matter. A source that names the hexes
    otherwise (:attr:`KnownDifferences.coordinates`) has its hexes renamed as the others name
    them, whichever place it has in the order.
    """
    known = known or known_differences()
    if not games:
        raise ValueError("compare_games needs at least one game")
    games = sorted(games, key=lambda g: _format_rank(g.format))
    title = title or games[0].name
    key = known.title_key(title)
    shifts = [known.coordinates.get((key, g.format)) for g in games]
    # the hexes are named as the sources without a shift name them
    like = next((g for g, s in zip(games, shifts, strict=True) if s is None), games[0])
    notes: list[str] = []
    aligned: list[Game] = []
    for game, shift in zip(games, shifts, strict=True):
        if shift is not None:
            game = renamed(game, like, shift[0])
            notes.append(f"{game.format}: hexes renamed to {like.format}'s: {shift[1]}")
        aligned.append(game)
    reference, *others = aligned
    findings: list[Finding] = []
    for other in others:
        pair = (reference, other)
        unread = [_unread_hexes(g) for g in pair]
        for diff in differences(reference, other):
            reasons = [
                f"{g.format}: {u[c]}"
                for g, u in zip(pair, unread, strict=True)
                for c in _places(diff, pair)
                if c in u
            ]
            if reasons:
                diff = replace(diff, unread="; ".join(dict.fromkeys(reasons)))
            findings.append(Finding(diff, known.cause(title, diff)))
    return Comparison(title, tuple(g.format for g in games), tuple(findings), tuple(notes))


def compare(name: str, known: KnownDifferences | None = None) -> Comparison:
    """Compare every source of the game called ``name`` (any of its names, or
    ``TITLE@FORMAT``) against the reference source of its title (the first of
    :data:`FORMAT_ORDER` that has it).

    Raises :class:`~tilelay.errors.NotFoundError` when no game has that name.
    """
    known = known or known_differences()
    game = load_game(name)
    group = _groups(known).get(known.title_key(game.name), [])
    games = [e.load() for e in group] or [game]
    return compare_games(games, games[0].name, known)
