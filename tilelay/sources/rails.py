"""A Rails game directory (``data/<game>/`` of Rails-18xx/Rails) as a tilelay game.

A game directory holds ``Game.xml`` (trains and phases, read by
:func:`tilelay.xml.rails_game.read_rails_game`), ``Map.xml``
(:mod:`tilelay.xml.rails_map`), ``TileSet.xml`` and ``Tiles.xml`` (:mod:`tilelay.xml.rails`)
and ``CompanyManager.xml`` (:mod:`tilelay.xml.rails_companies`). Every ``<IfOption>`` is
resolved for the game's default options (:mod:`tilelay.xml.rails_options`) or those given.

How the files become a :class:`~tilelay.games.Game`:

* Each map hex holds its preprinted tile turned by the hex's ``orientation`` (Rails' sides
  are tilelay's edges, see :mod:`tilelay.xml.rails_map`); the tile's ``extra`` names the Rails
  tile (``("tile", "-20")``). Rails' colour ``fixed`` (preprinted tiles that are never
  upgraded) becomes gray. The hex's ``city`` is its location name, its first ``cost`` a terrain
  cost, its ``impassable`` neighbours impassable borders on both hexes (its ``river``
  neighbours water borders, with no cost: Rails charges in code), and its ``value`` list the
  revenue of every stop on it, one value per off-board revenue step of the phases (Rails'
  ``<OffBoardRevenue step>``): each run of phases with one value is keyed by the newest tile
  colour of the phase it starts with (``yellow_30|brown_50``) when every run starts with the
  first phase of its colour, else every phase is listed by name (``2_30|3_30|…``).
* Labels: the hex's ``label``; where it has none and its preprinted tile's Rails name is a
  label (one to three capital letters such as ``NY`` or ``B``, the name Rails gives the
  picture of that hex) and the tile has a city, that name. ``River`` (1889) is terrain
  (``water``), and a label that repeats the hex's place name is not a label.
* Rails' tiles carry no labels (except a few): Rails keeps a labelled hex's tiles apart by
  its hand-written upgrade lists. tilelay keeps them apart by labels, so a manifest tile that
  the upgrade lists allow only on hexes of one label takes that label; a hex whose label the
  upgrade lists do not keep (they let plain tiles onto it, as 1856's ``L`` hexes) loses it,
  since tilelay lays only tiles of a hex's label on it; and an unlabelled tile that they allow
  only on hexes of one place name takes that name (a tile made for that place, e.g. 1856's
  Toronto tiles). Each of these is listed in :attr:`Game.problems`.
* The manifest is every tile of ``TileSet.xml`` with a quantity (99 or -1: unlimited, as Rails'
  ``Tile.java`` reads them); the game's own tiles are Rails' drawings of them.
* Public companies become corporations (home hex and city, token costs, colours, float
  percentage), privates companies (price, revenue, blocked hexes).

What cannot be read: per-hex run-through rules (``<Access>``), revenue bonuses, reserved
hexes, token costs by distance, private abilities, the stock market; each such item is named in
:attr:`Game.problems`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from lxml import etree

from tilelay.errors import GameSourceError, IncompleteGameError, ReadWarning
from tilelay.games import Game, game_from_data, parse_coord
from tilelay.games.data import company_entry, corporation_from
from tilelay.hexgeo import NEIGHBOUR_OFFSETS, Layout
from tilelay.tile import Border, BorderType, Color, Label, NodeKind, Revenue, TerrainUpgrade, Tile
from tilelay.trains import Phase
from tilelay.xml.rails import RailsTileSetEntry, read_rails_tiles, read_rails_tileset
from tilelay.xml.rails_companies import RailsCompanies, read_rails_companies
from tilelay.xml.rails_game import read_rails_game
from tilelay.xml.rails_map import RailsHex, RailsMap, read_rails_map
from tilelay.xml.rails_options import RAILS_GAME_OPTIONS, game_options
from tilelay.xml.safe import parse_xml

__all__ = ["RAILS_FILES", "find_rails_games", "load_rails_game"]

#: The files of a complete Rails game directory.
RAILS_FILES: tuple[str, ...] = (
    "Game.xml",
    "Map.xml",
    "TileSet.xml",
    "Tiles.xml",
    "CompanyManager.xml",
)

_LABEL_NAME = re.compile(r"[A-Z]{1,3}")
#: Map labels that name terrain, and the tile language's terrain for each.
_TERRAIN_LABELS = {"river": "water"}
_COLOUR_ORDER = ("yellow", "green", "brown", "gray")


def find_rails_games(path: str | Path) -> list[Path]:
    """The Rails game directories at or under ``path`` (a game directory, or a folder such as
    Rails' ``data/`` holding several), sorted by name; incomplete ones included.

    Raises :class:`~tilelay.errors.GameSourceError` when ``path`` is not a directory.
    """
    root = Path(path)
    if not root.is_dir():
        raise GameSourceError("not a directory (expected a Rails game directory)", source=str(root))
    if _is_game_dir(root):
        return [root]
    return sorted(
        (d for d in root.rglob("*") if d.is_dir() and _is_game_dir(d)), key=lambda d: str(d)
    )


def _is_game_dir(d: Path) -> bool:
    if (d / "Game.xml").is_file() or (d / "Map.xml").is_file():
        return True
    return (d / "TileSet.xml").is_file() and (d / "Tiles.xml").is_file()


def load_rails_game(directory: str | Path, *, options: Mapping[str, str] | None = None) -> Game:
    """The game of a Rails game directory, read leniently (format ``rails``).

    ``options`` override the game's default option settings (e.g. ``{"Variant": "Wabash"}``).
    Raises :class:`~tilelay.errors.GameSourceError` naming the path when it holds no Rails game,
    :class:`~tilelay.errors.IncompleteGameError` naming the files missing when some of
    :data:`RAILS_FILES` are, and :class:`~tilelay.errors.XMLFormatError` for a file that does
    not read.
    """
    d = Path(directory)
    if not d.is_dir():
        raise GameSourceError("not a directory (expected a Rails game directory)", source=str(d))
    present = [f for f in RAILS_FILES if (d / f).is_file()]
    if not present:
        raise GameSourceError(
            f"no Rails game here: none of {', '.join(RAILS_FILES)} found", source=str(d)
        )
    missing = tuple(f for f in RAILS_FILES if f not in present)
    if missing:
        raise IncompleteGameError(
            f"incomplete Rails game {d.name}: {', '.join(missing)} missing "
            f"(found {', '.join(present)})",
            missing=missing,
            source=str(d),
        )
    return _Builder(d, options).game()


class _Builder:
    def __init__(self, d: Path, chosen: Mapping[str, str] | None) -> None:
        self.d = d
        self.problems: list[ReadWarning] = []
        game_path = d / "Game.xml"
        game_root = parse_xml(game_path, source=str(game_path))
        self.name = _game_name(game_root) or d.name
        self.options = game_options(d, self.name, game_xml=game_root, chosen=chosen)
        self.trains = read_rails_game(
            game_path, options=_train_options(game_root, self.name, chosen)
        )
        self.problems.extend(self.trains.warnings)
        tiles_path = d / "Tiles.xml"
        self.tiles = {t.name: t for t in read_rails_tiles(tiles_path)}
        set_path = d / "TileSet.xml"
        self.tileset = read_rails_tileset(set_path, options=self.options)
        self.set_source = str(set_path)
        self.map: RailsMap = read_rails_map(d / "Map.xml", options=self.options)
        self.problems.extend(self.map.warnings)
        self.companies: RailsCompanies = read_rails_companies(
            d / "CompanyManager.xml", options=self.options
        )
        self.problems.extend(self.companies.warnings)
        self.map_source = str(d / "Map.xml")
        self.company_source = str(d / "CompanyManager.xml")

    def problem(self, message: str, source: str, line: int | None = None) -> None:
        self.problems.append(ReadWarning(message, source, line))

    # ------------------------------------------------------------------------ the game

    def game(self) -> Game:
        m = self.map
        data: dict[str, Any] = {"title": self.name, "layout": m.layout.value}
        if m.letter_is_x != (m.layout is Layout.FLAT):
            data["axes"] = (
                {"x": "letter", "y": "number"} if m.letter_is_x else {"x": "number", "y": "letter"}
            )
        hexes = self.hexes()
        names = {h.coord: h.city for h in m.hexes if h.city}
        manifest, game_tiles = self.manifest(hexes, names)
        data["location_names"] = names
        data["hexes"] = [{"coords": [c], "tile": t} for c, t in hexes.items()]
        data["manifest"] = manifest
        data["tiles"] = {n: {"tile": t} for n, t in game_tiles.items()}
        data["corporations"] = self.corporations(hexes)
        data["companies"] = self.privates()
        return game_from_data(
            data,
            source=str(self.d),
            strict=False,
            format="rails",
            problems=self.problems,
            trains=self.trains,
        )

    # ------------------------------------------------------------------------ the map

    def hexes(self) -> dict[str, Tile]:
        m = self.map
        steps = max(_offboard_steps(self.trains.phases), default=1)
        out: dict[str, Tile] = {}
        for h in m.hexes:
            base = self.tiles.get(h.tile)
            if base is None:
                self.problem(
                    f"hex {h.name}: tile {h.tile} is not in Tiles.xml; the hex is left empty",
                    self.map_source,
                    h.line,
                )
                base = Tile(name=h.tile)
            out[h.coord] = self.hex_tile(h, base, steps)
        self.borders(out)
        return out

    def hex_tile(self, h: RailsHex, base: Tile, steps: int) -> Tile:
        tile = _plain(base).rotated(h.orientation)
        extra = tuple((k, v) for k, v in tile.extra if k != "tile")
        tile = replace(tile, rotation=0, extra=(*extra, ("tile", h.tile)))
        if h.values:
            revenue = _phased(h.values, self.trains.phases)
            if len(h.values) > steps:
                self.problem(
                    f"hex {h.name}: {len(h.values)} values for {steps} off-board revenue "
                    "steps; the last ones are never used",
                    self.map_source,
                    h.line,
                )
            nodes = tuple(
                replace(n, revenue=revenue) if n.kind is not NodeKind.JUNCTION else n
                for n in tile.nodes
            )
            tile = replace(tile, nodes=nodes)
        terrain: tuple[str, ...] = ()
        label = h.label
        if label is not None and label.lower() in _TERRAIN_LABELS:
            terrain = (_TERRAIN_LABELS[label.lower()],)
            if not h.costs:
                self.problem(
                    f"hex {h.name}: label {label!r} names terrain with no cost; not kept",
                    self.map_source,
                    h.line,
                )
            label = None
        elif label is not None and h.city and len(label) > 3 and label.lower() in h.city.lower():
            label = None  # the place name repeated (1880's Beijing, Shanghai)
        if label is None and h.label is None and tile.cities:
            rails_name = dict(base.extra).get("name", "")
            if _LABEL_NAME.fullmatch(rails_name):
                label = rails_name
                self.problem(
                    f"hex {h.name}: no label in Map.xml; label {label!r} taken from the name of "
                    f"its tile {h.tile} in Tiles.xml",
                    self.map_source,
                    h.line,
                )
        if label is not None:
            tile = replace(tile, labels=(Label(label),))
        if h.costs and h.costs[0] > 0:
            tile = replace(tile, upgrades=(TerrainUpgrade(h.costs[0], terrain),))
        if h.reserved:
            self.problem(
                f"hex {h.name}: reserved for {h.reserved} (not modelled)", self.map_source, h.line
            )
        return tile

    def borders(self, hexes: dict[str, Tile]) -> None:
        layout = self.map.layout
        offsets = NEIGHBOUR_OFFSETS[layout]
        done: set[frozenset[str]] = set()
        for h in self.map.hexes:
            x, y = _xy(h.coord, self.map.letter_is_x)
            sides = [(o, BorderType.IMPASSABLE) for o in h.impassable]
            sides += [(o, BorderType.WATER) for o in h.rivers]
            for other, kind in sides:
                pair = frozenset((h.coord, other))
                if pair in done:
                    continue
                ox, oy = _xy(other, self.map.letter_is_x)
                edge = next(
                    (e for e, (dx, dy) in enumerate(offsets) if (x + dx, y + dy) == (ox, oy)), None
                )
                if edge is None:
                    side = "impassable" if kind is BorderType.IMPASSABLE else "river"
                    self.problem(
                        f"hex {h.name}: {side} {other} is not a neighbour; not kept",
                        self.map_source,
                        h.line,
                    )
                    continue
                done.add(pair)
                for coord, e in ((h.coord, edge), (other, (edge + 3) % 6)):
                    t = hexes.get(coord)
                    if t is not None:
                        border = Border(e, kind)
                        hexes[coord] = replace(t, borders=(*t.borders, border))

    # ------------------------------------------------------------------- the manifest

    def manifest(
        self, hexes: dict[str, Tile], names: Mapping[str, str]
    ) -> tuple[dict[str, Any], dict[str, Tile]]:
        unlimited = self.options.get("UnlimitedTiles", "No").strip().lower()
        manifest: dict[str, Any] = {}
        tiles: dict[str, Tile] = {}
        for tid, entry in self.tileset.items():
            if entry.quantity is None or entry.quantity == 0 or _preprinted(tid):
                continue
            tile = self.tiles.get(tid)
            if tile is None:
                self.problem(
                    f"tile {tid} of the manifest is not in Tiles.xml; left out", self.set_source
                )
                continue
            plain = _plain(tile)
            count: int | str = entry.quantity
            # Rails' UnlimitedTiles option: every tile, or plain track tiles
            plain_track = len(plain.paths) == 1 and not plain.nodes
            everything = unlimited == "yes" or (unlimited == "yellow plain" and plain_track)
            if entry.quantity in (-1, 99) or everything:
                count = "unlimited"
            if isinstance(count, int) and count < 0:
                self.problem(f"tile {tid}: quantity {count} read as 0", self.set_source)
                continue
            manifest[tid] = count
            tiles[tid] = plain
        self.derive_labels(tiles, hexes, names)
        return manifest, tiles

    def derive_labels(
        self, tiles: dict[str, Tile], hexes: dict[str, Tile], names: Mapping[str, str]
    ) -> None:
        """Labels of the manifest tiles and the hexes, as tilelay matches them.

        A manifest tile without a label takes the label of the hexes Rails' upgrade lists let
        it onto, when they all carry that one label. A hex keeps its label only when every
        tile that can reach it carries that label too (tilelay lays only tiles of a hex's label
        on it): a label that Rails lets unlabelled (or otherwise labelled) tiles onto is left
        out, until nothing changes. A tile that stays unlabelled takes the place name of the
        hexes it reaches, when they are all unlabelled and share one name.
        """
        on_hex: dict[str, set[str]] = {}
        reach: dict[str, set[str]] = {}
        for h in self.map.hexes:
            found = _reachable(h.tile, h.name, self.tileset) & set(tiles)
            on_hex[h.coord] = found
            for tid in found:
                reach.setdefault(tid, set()).add(h.coord)
        labels = {c: t.label for c, t in hexes.items()}
        derived: dict[str, str] = {}
        while True:
            derived = {}
            for tid, tile in tiles.items():
                seen = {labels.get(c) for c in reach.get(tid, ())}
                if tile.label is None and len(seen) == 1 and None not in seen:
                    (one,) = seen
                    assert one is not None
                    derived[tid] = one
            dropped: dict[str, list[str]] = {}
            for coord, hex_label in labels.items():
                if hex_label is None:
                    continue
                other = sorted(
                    t
                    for t in on_hex.get(coord, ())
                    if (tiles[t].label or derived.get(t)) != hex_label
                )
                if other:
                    dropped[coord] = other
            if not dropped:
                break
            for coord, other in dropped.items():
                self.problem(
                    f"hex {coord}: label {labels[coord]!r} not kept: TileSet.xml also lets "
                    f"tiles {', '.join(other[:6])}{' …' if len(other) > 6 else ''} onto it, "
                    "which are laid on hexes without that label too (tilelay lays only tiles "
                    "with a hex's label on it)",
                    self.map_source,
                )
                labels[coord] = None
                hexes[coord] = replace(hexes[coord], labels=())
        for tid, label in derived.items():
            tiles[tid] = replace(tiles[tid], labels=(Label(label),))
            coords = ", ".join(sorted(reach[tid]))
            self.problem(
                f"tile {tid}: label {label!r} derived (TileSet.xml lets it only onto hexes "
                f"labelled {label}: {coords})",
                self.set_source,
            )
        for tid, tile in list(tiles.items()):
            where = reach.get(tid)
            if not where or tile.label is not None or tile.location_name is not None:
                continue
            if any(labels.get(c) is not None for c in where):
                continue
            places = {names.get(c) for c in where}
            if len(places) == 1 and None not in places:
                (place,) = places
                assert place is not None
                tiles[tid] = replace(tile, location_name=place)
                self.problem(
                    f"tile {tid}: place {place!r} derived (TileSet.xml lets it only onto "
                    f"{', '.join(sorted(where))})",
                    self.set_source,
                )

    # -------------------------------------------------------------------- companies

    def corporations(self, hexes: Mapping[str, Tile]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        src = self.company_source
        for c in self.companies.publics:
            home: str | None = None
            city: int | None = None
            if c.homes:
                home = c.homes[0]
                if len(c.homes) > 1:
                    self.problem(
                        f"company {c.sym}: home is one of {', '.join(c.homes)} (the owner "
                        f"chooses); {c.homes[0]} kept",
                        src,
                        c.line,
                    )
                if c.home_city is not None and c.homes[0] in hexes and hexes[c.homes[0]].cities:
                    city = _city_index(hexes[c.homes[0]], c.home_city)
                    if city is None:
                        self.problem(
                            f"company {c.sym}: home {c.homes[0]} has no city {c.home_city}",
                            src,
                            c.line,
                        )
            n = c.tokens if c.tokens is not None else 1
            if c.token_costs:
                tokens = list(c.token_costs)
            else:
                tokens = [0] * max(1, n)
                if c.lay_cost:
                    self.problem(
                        f"company {c.sym}: token costs by {c.lay_cost} (not modelled; listed as "
                        "free)",
                        src,
                        c.line,
                    )
            out.append(corporation_from(c, home=home, city=city, tokens=tokens))
        return out

    def privates(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for p in self.companies.privates:
            if len(set(p.revenue)) > 1:
                self.problem(
                    f"company {p.sym}: revenue per phase {','.join(map(str, p.revenue))}; the "
                    f"first ({p.revenue[0]}) kept",
                    self.company_source,
                    p.line,
                )
            out.append(company_entry(p.sym, p.name, p.value, p.revenue[0], blocks=p.blocks))
        return out


# ----------------------------------------------------------------------------- helpers


def _game_name(root: etree._Element) -> str | None:
    for el in root.iter("Game"):
        name = el.get("name")
        if name and name.strip():
            return name.strip()
    return None


def _train_options(
    root: etree._Element, game: str, chosen: Mapping[str, str] | None
) -> dict[str, str]:
    """The options to pass to the Game.xml reader: only those its IfOptions test (it warns
    about any other), from the known defaults and the caller's choices."""
    tested = {el.get("name") for el in root.iter("IfOption")}
    out = {k: v for k, v in RAILS_GAME_OPTIONS.get(game, {}).items() if k in tested}
    out.update({k: v for k, v in (chosen or {}).items() if k in tested})
    return out


def _preprinted(tid: str) -> bool:
    """Rails treats tiles with a numeric id of 0 or below as preprinted (``Tile.java``)."""
    try:
        return int(tid) <= 0
    except ValueError:
        return False


def _plain(tile: Tile) -> Tile:
    """A Rails tile with Rails' ``fixed`` colour as gray."""
    extra = dict(tile.extra)
    if extra.get("colour") == "fixed":
        return replace(
            tile, color=Color.GRAY, extra=tuple((k, v) for k, v in tile.extra if k != "colour")
        )
    return tile


def _xy(coord: str, letter_is_x: bool) -> tuple[int, int]:
    letter, number = parse_coord(coord)
    return (letter, number) if letter_is_x else (number, letter)


def _offboard_steps(phases: Sequence[Phase]) -> list[int]:
    """Each phase's off-board revenue step (Rails' ``<OffBoardRevenue step>``, inherited)."""
    steps: list[int] = []
    step = 1
    for phase in phases:
        for extra in phase.extras:
            if extra.tag == "OffBoardRevenue":
                value = dict(extra.attributes).get("step", "")
                if value.strip().isdigit():
                    step = int(value)
        steps.append(step)
    return steps


def _newest_colour(phase: Phase) -> str | None:
    colours = [c.strip().lower().replace("grey", "gray") for c in phase.tiles]
    found = [c for c in _COLOUR_ORDER if c in colours]
    return found[-1] if found else None


def _phased(values: Sequence[int], phases: Sequence[Phase]) -> Revenue:
    """A hex's off-board values as a revenue per phase (Rails uses value ``min(step, n)``
    in a phase of off-board step ``step``).

    Each run of phases with one value is keyed by the newest tile colour of the phase it
    starts with, when every run starts with the first phase of its own colour; otherwise
    every phase is listed by name.
    """
    steps = _offboard_steps(phases)
    if len(values) == 1 or not steps:
        return Revenue(values[0])
    per_phase = [(p, values[min(s, len(values)) - 1]) for p, s in zip(phases, steps, strict=True)]
    runs = [(p, v) for i, (p, v) in enumerate(per_phase) if i == 0 or per_phase[i - 1][1] != v]
    if len(runs) == 1:
        return Revenue(runs[0][1])
    first: dict[str | None, str] = {}
    for phase in phases:
        first.setdefault(_newest_colour(phase), phase.name)
    colours = [_newest_colour(p) for p, _ in runs]
    if len(set(colours)) == len(colours) and all(
        c is not None and first[c] == p.name for c, (p, _) in zip(colours, runs, strict=True)
    ):
        return Revenue(0, tuple((c, v) for c, (_, v) in zip(colours, runs, strict=True) if c))
    return Revenue(0, tuple((p.name, v) for p, v in per_phase))


def _city_index(tile: Tile, station: int) -> int | None:
    """The city index (among the tile's cities) of Rails' station number ``station``: the
    station whose id is ``city<station>`` (Rails' ``Tile.getStation``)."""
    wanted = f"city{station}"
    index = next((i for i, n in enumerate(tile.nodes) if dict(n.extra).get("id") == wanted), None)
    if index is None or tile.nodes[index].kind is not NodeKind.CITY:
        return None
    return sum(1 for n in tile.nodes[:index] if n.kind is NodeKind.CITY)


def _reachable(start: str, name: str, tileset: Mapping[str, RailsTileSetEntry]) -> set[str]:
    """The tiles Rails' upgrade lists let onto the hex named ``name`` (as Rails names it) from
    its preprinted tile ``start``."""
    seen = {start}
    todo = [start]
    while todo:
        entry = tileset.get(todo.pop())
        if entry is None:
            continue
        for up in entry.upgrades:
            if up.hexes and name not in up.hexes:
                continue
            if name in up.except_hexes:
                continue
            for tid in up.ids:
                if tid not in seen:
                    seen.add(tid)
                    todo.append(tid)
    seen.discard(start)
    return seen
