"""A GE18XX game directory (the 18XX Game Engine's ``<game>/`` folders) as a tilelay game.

A game directory ``<game>/`` holds ``<game>-Map.xml`` (:mod:`tilelay.xml.ge18xx_map`),
``<game>-TileSet.xml`` (the manifest, :mod:`tilelay.xml.tileset`; absent for some games),
``<game>-Companies.xml`` and ``<game>-Cities.xml`` (:mod:`tilelay.xml.ge18xx_companies`).
Beside it (in its parent folder, or given) are the engine's Tile Definitions (``Tiles/``:
``Yellow``, ``Green``, ``Brown``, ``Grey`` and ``Other-Tile-Definitions.xml``, then
``Tile-Definitions.xml`` for numbers none of those has; :mod:`tilelay.xml.tiledefs`) and
``18xx-Games.xml`` (phases, trains, token costs: :mod:`tilelay.xml.ge18xx_games`).

How the files become a :class:`~tilelay.games.Game`:

* A cell with a ``<Tile>`` holds that tile turned by its orientation, in the tile's colour;
  a cell without one holds its ``<RevenueCenter>``\\ s on a white hex (red for an
  ``Off Board Red`` cell). ``Private Railway`` and ``Destination City`` revenue centres
  (where a private's marker or a company's destination is drawn) are not stops and are left
  out. The names of the cell's revenue centres
  (``<CityInfo>``) make its location name; its ``<TileName>`` is its label (a name of more
  than three letters is a place name instead, as :func:`tilelay.xml.tileset.place_labels`
  reads seed 000); its terrains one terrain cost (rivers and coasts ``water``, hills and
  mountains ``mountain``); its blocked sides impassable borders on both hexes.
* Revenues per phase (Tile Definitions name phases by number: ``1``, ``3``, meaning from the
  first phase of that number in ``18xx-Games.xml``) are keyed by the newest tile colour of the
  phase each value starts with, when each starts with the first phase of its colour; else
  every phase is listed by name (``2.1``, with the value it has then).
* The manifest is ``<game>-TileSet.xml``'s quantities (its hand-written upgrades are not used:
  tilelay computes upgrades), without the preprinted tiles it also lists (its ``Other`` group,
  tiles the Tile Definitions mark ``fixed``). Without a tile set the game has no manifest (a
  problem says so); the tiles its map needs are still the game's own tiles.
* Share companies and minors become corporations (home hex and city, token costs
  ``0, firstTokenCost, laterTokenCost…``, colours), privates companies (price, revenue, the
  hexes they block). Trains and phases come from ``18xx-Games.xml``.

What cannot be read: token costs by range (1835), benefits and special abilities, rebates
(1853), destinations, the stock market; each is named in :attr:`Game.problems` where met.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from lxml import etree

from tilelay.errors import (
    GameDataError,
    GameSourceError,
    IncompleteGameError,
    ReadWarning,
)
from tilelay.games import Game, game_from_data
from tilelay.games.data import company_entry, corporation_from
from tilelay.games.model import parse_coord
from tilelay.hexgeo import NEIGHBOUR_OFFSETS, Layout, xml_side_to_edge
from tilelay.tile import (
    Border,
    BorderType,
    Color,
    End,
    Label,
    NodeKind,
    NodeRef,
    Revenue,
    TerrainUpgrade,
    Tile,
)
from tilelay.train_data import trains_from_game_data
from tilelay.trains import TrainManager
from tilelay.xml.ge18xx_companies import GeCompanies, read_ge_cities, read_ge_companies
from tilelay.xml.ge18xx_games import GeGameInfo, GePhase, read_ge_games
from tilelay.xml.ge18xx_map import GeCell, GeMap, read_ge_map
from tilelay.xml.tiledefs import default_location, loc_to_location, read_tiledefs, tile_from_element
from tilelay.xml.tileset import place_labels, read_tileset

__all__ = ["TILE_DEFINITION_FILES", "find_ge18xx_games", "load_ge18xx_game"]

#: The Tile Definitions files, in the order read (a number is taken from the first that has it).
TILE_DEFINITION_FILES: tuple[str, ...] = (
    "Yellow-Tile-Definitions.xml",
    "Green-Tile-Definitions.xml",
    "Brown-Tile-Definitions.xml",
    "Grey-Tile-Definitions.xml",
    "Other-Tile-Definitions.xml",
    "Tile-Definitions.xml",
)

#: GE18XX terrain types and the tile language's terrain for each (others keep their name).
_TERRAINS = {
    "River": "water",
    "Multiple River": "water",
    "Major River": "water",
    "Small River": "water",
    "Large River": "water",
    "Lake": "water",
    "Coast": "water",
    "Shallow Coast": "water",
    "Deep Coast": "water",
    "Hill": "mountain",
    "Mountain": "mountain",
    "Himalya": "mountain",
}
_COLOUR_ORDER = ("yellow", "green", "brown", "gray")
#: Revenue centre types that mark a place rather than being a stop: where a private's marker
#: or a company's destination is drawn.
_MARKERS = frozenset({"Private Railway", "Destination City"})


def find_ge18xx_games(path: str | Path) -> list[Path]:
    """The GE18XX game directories at or under ``path`` (a game directory holding
    ``<name>-Map.xml``, or a folder of them), sorted by name.

    Raises :class:`~tilelay.errors.GameSourceError` when ``path`` is not a directory.
    """
    root = Path(path)
    if not root.is_dir():
        raise GameSourceError(
            "not a directory (expected a GE18XX game directory)", source=str(root)
        )
    if _map_file(root) is not None:
        return [root]
    return sorted(
        (d for d in root.rglob("*") if d.is_dir() and _map_file(d) is not None),
        key=lambda d: str(d),
    )


def _map_file(d: Path) -> Path | None:
    p = d / f"{d.name}-Map.xml"
    return p if p.is_file() else None


def load_ge18xx_game(
    directory: str | Path,
    *,
    tiles: str | Path | None = None,
    games: str | Path | None = None,
) -> Game:
    """The game of a GE18XX game directory, read leniently (format ``ge18xx``).

    ``tiles`` is the folder of Tile Definitions (default: ``Tiles/`` in the directory or its
    parent); ``games`` the ``18xx-Games.xml`` (default: in the directory or its parent).
    Raises :class:`~tilelay.errors.GameSourceError` naming the path when it holds no
    ``<name>-Map.xml``, :class:`~tilelay.errors.IncompleteGameError` when no Tile Definitions
    are found, and :class:`~tilelay.errors.XMLFormatError` for a file that does not read.
    """
    d = Path(directory)
    if not d.is_dir():
        raise GameSourceError("not a directory (expected a GE18XX game directory)", source=str(d))
    map_path = _map_file(d)
    if map_path is None:
        raise GameSourceError(f"no GE18XX game here: {d.name}-Map.xml not found", source=str(d))
    tiles_dir = Path(tiles) if tiles is not None else _beside(d, "Tiles")
    if tiles_dir is None or not any((tiles_dir / f).is_file() for f in TILE_DEFINITION_FILES):
        raise IncompleteGameError(
            f"GE18XX game {d.name}: no Tile Definitions found (a Tiles folder with "
            f"{', '.join(TILE_DEFINITION_FILES)} in the directory or beside it)",
            missing=("Tiles",),
            source=str(d),
        )
    games_path = Path(games) if games is not None else _beside(d, "18xx-Games.xml")
    return _Builder(d, map_path, tiles_dir, games_path).game()


def _beside(d: Path, name: str) -> Path | None:
    for folder in (d, d.parent):
        if (folder / name).exists():
            return folder / name
    return None


class _Builder:
    def __init__(self, d: Path, map_path: Path, tiles_dir: Path, games: Path | None) -> None:
        self.d = d
        self.name = d.name
        self.problems: list[ReadWarning] = []
        self.map: GeMap = read_ge_map(map_path)
        self.map_source = str(map_path)
        self.problems.extend(self.map.warnings)
        self.layout = self.map.layout
        self.defs, self.defs_from = self.read_definitions(tiles_dir)
        self.info: GeGameInfo | None = None
        if games is None:
            self.problem("no 18xx-Games.xml found: the game has no trains or phases", str(d))
        else:
            infos = read_ge_games(games)
            self.info = infos.get(self.name)
            if self.info is None:
                self.problem(
                    f"18xx-Games.xml has no <GameInfo name={self.name!r}>: the game has no "
                    "trains or phases",
                    str(games),
                )
        cities_path = d / f"{self.name}-Cities.xml"
        self.cities: dict[int, str] = {}
        if cities_path.is_file():
            self.cities = read_ge_cities(cities_path)
        else:
            self.problem(f"{cities_path.name} not found: no place names", str(d))
        companies_path = d / f"{self.name}-Companies.xml"
        self.companies = GeCompanies((), ())
        if companies_path.is_file():
            self.companies = read_ge_companies(companies_path)
            self.problems.extend(self.companies.warnings)
        else:
            self.problem(f"{companies_path.name} not found: no companies", str(d))
        self.company_source = str(companies_path)

    def problem(self, message: str, source: str, line: int | None = None) -> None:
        self.problems.append(ReadWarning(message, source, line))

    def read_definitions(self, folder: Path) -> tuple[dict[str, Tile], dict[str, str]]:
        defs: dict[str, Tile] = {}
        origin: dict[str, str] = {}
        for name in TILE_DEFINITION_FILES:
            path = folder / name
            if not path.is_file():
                continue
            for tile in read_tiledefs(path, layout=self.layout):
                if tile.name not in defs:
                    defs[tile.name] = place_labels(tile)
                    origin[tile.name] = str(path)
        return defs, origin

    # ------------------------------------------------------------------------ the game

    def game(self) -> Game:
        m = self.map
        data: dict[str, Any] = {"title": self.name, "layout": m.layout.value}
        if m.letter_is_x != (m.layout is Layout.FLAT):
            data["axes"] = (
                {"x": "letter", "y": "number"} if m.letter_is_x else {"x": "number", "y": "letter"}
            )
        info = self.info
        if info is not None:
            for key, value in (
                ("subtitle", info.subtitle),
                ("location", info.location),
                ("designer", info.designers),
                ("publisher", info.publisher),
            ):
                if value:
                    data[key] = value
            if info.players is not None:
                data["players"] = list(info.players)
        hexes: dict[str, Tile] = {}
        names: dict[str, str] = {}
        used: dict[str, Tile] = {}
        for cell in m.cells:
            tile, place = self.hex_tile(cell, used)
            hexes[cell.coord] = tile
            if place:
                names[cell.coord] = place
        self.borders(hexes)
        data["location_names"] = names
        data["hexes"] = [{"coords": [c], "tile": t} for c, t in hexes.items()]
        manifest, own = self.manifest()
        for name, tile in used.items():
            own.setdefault(name, tile)
        data["manifest"] = manifest
        data["tiles"] = {n: {"tile": t} for n, t in own.items()}
        data["corporations"] = self.corporations(hexes)
        data["companies"] = self.privates()
        return game_from_data(
            data,
            source=str(self.d),
            strict=False,
            format="ge18xx",
            problems=self.problems,
            trains=self.trains(),
        )

    # ------------------------------------------------------------------------ the map

    def hex_tile(self, cell: GeCell, used: dict[str, Tile]) -> tuple[Tile, str | None]:
        if cell.tile is not None:
            base = self.defs.get(cell.tile)
            if base is None:
                self.problem(
                    f"cell {cell.id}: tile {cell.tile} is not in the Tile Definitions; the hex "
                    "is left empty",
                    self.map_source,
                    cell.line,
                )
                tile = Tile(name=cell.tile)
            else:
                used[cell.tile] = base
                tile = replace(base.rotated(cell.orientation), rotation=0)
        else:
            tile = self.cell_centres(cell)
            if cell.base == "Off Board Red":
                tile = replace(tile, color=Color.RED)
        tile = _rekey(_without_markers(tile), self.phases)
        nodes = tuple(
            replace(n, revenue=Revenue(0))
            if n.revenue is None and n.kind in (NodeKind.CITY, NodeKind.TOWN)
            else n
            for n in tile.nodes
        )
        tile = replace(tile, nodes=nodes)
        label = cell.label
        place_names = [
            self.cities[c.id]
            for c in cell.centers
            if c.id is not None and c.id in self.cities and c.type not in _MARKERS
        ]
        place = " & ".join(dict.fromkeys(place_names)) or None
        if label is not None and len(label.replace("-", "").strip()) > 3:
            place = place or label
            label = None
        if place is None and tile.location_name:
            place = tile.location_name
        if label is not None:
            tile = replace(tile, labels=(Label(label),))
        costs = [t for t in cell.terrains if t.cost > 0]
        if costs:
            kinds = tuple(dict.fromkeys(_TERRAINS.get(t.type, t.type.lower()) for t in costs))
            tile = replace(tile, upgrades=(TerrainUpgrade(sum(t.cost for t in costs), kinds),))
        if tile.location_name is not None:
            tile = replace(tile, location_name=None)
        return tile, place

    def cell_centres(self, cell: GeCell) -> Tile:
        """A white tile holding the revenue centres of a cell without a tile."""
        el = etree.Element("Tile", number=cell.coord, type="White")
        for c in cell.centers:
            attrs = {"location": str(c.location), "type": c.type}
            if c.number is not None:
                attrs["number"] = str(c.number)
            etree.SubElement(el, "RevenueCenter", attrs)
        return tile_from_element(el, source=self.map_source, layout=self.layout)

    def borders(self, hexes: dict[str, Tile]) -> None:
        seen: set[tuple[str, int]] = set()
        game_xy = _Geometry(self.map)
        for cell in self.map.cells:
            for side in cell.blocked:
                edge = xml_side_to_edge(side, self.layout)
                other = game_xy.neighbour(cell.coord, edge)
                for coord, e in ((cell.coord, edge), (other, (edge + 3) % 6)):
                    if coord is None or coord not in hexes or (coord, e) in seen:
                        continue
                    seen.add((coord, e))
                    t = hexes[coord]
                    hexes[coord] = replace(
                        t, borders=(*t.borders, Border(e, BorderType.IMPASSABLE))
                    )

    @property
    def phases(self) -> tuple[GePhase, ...]:
        return self.info.phases if self.info is not None else ()

    # ------------------------------------------------------------------- the manifest

    def manifest(self) -> tuple[dict[str, int], dict[str, Tile]]:
        path = self.d / f"{self.name}-TileSet.xml"
        if not path.is_file():
            self.problem(
                f"{path.name} not found: the game has no tile manifest (only the tiles its map "
                "uses are read)",
                str(self.d),
            )
            return {}, {}
        tileset = read_tileset(path)
        manifest: dict[str, int] = {}
        own: dict[str, Tile] = {}
        for entry in tileset.entries():
            tile = self.defs.get(entry.number)
            if tile is None:
                self.problem(
                    f"tile {entry.number} is not in the Tile Definitions; left out",
                    str(path),
                    entry.line,
                )
                continue
            if dict(tile.extra).get("fixed", "").lower() == "true":
                continue  # a preprinted tile (the tile set's "Other" group): not laid by players
            if entry.quantity <= 0:
                self.problem(f"tile {entry.number}: quantity {entry.quantity}; left out", str(path))
                continue
            if self.defs_from[entry.number].endswith("/Tile-Definitions.xml"):
                self.problem(
                    f"tile {entry.number} is only in Tile-Definitions.xml; read from there",
                    str(path),
                    entry.line,
                )
            manifest[entry.number] = entry.quantity
            own[entry.number] = _rekey(_without_markers(tile), self.phases)
        return manifest, own

    # -------------------------------------------------------------------- companies

    def corporations(self, hexes: Mapping[str, Tile]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        info = self.info
        src = self.company_source
        for c in self.companies.shares:
            home: str | None = None
            city: int | None = None
            if c.homes:
                coord = self.map.ids.get(c.homes[0], c.homes[0])
                home = coord
                if len(c.homes) > 1:
                    self.problem(
                        f"company {c.sym}: a second home "
                        f"{self.map.ids.get(c.homes[1], c.homes[1])} (not modelled; the first "
                        "kept)",
                        src,
                        c.line,
                    )
                location = c.home_locations[0] if c.home_locations else None
                tile = hexes.get(coord)
                if location is not None and tile is not None and len(tile.cities) > 1:
                    city = _city_at(tile, location, self.layout)
                    if city is None:
                        self.problem(
                            f"company {c.sym}: no city of {coord} at location {location}",
                            src,
                            c.line,
                        )
            n = max(1, c.tokens or 1)
            fixed = info is not None and info.token_type == "FixedCost"
            if fixed and info is not None and info.first_token_cost is None:
                self.problem(
                    f"company {c.sym}: 18xx-Games.xml gives no token costs; listed as free",
                    src,
                    c.line,
                )
            if info is not None and fixed:
                first = info.first_token_cost or 0
                later = info.later_token_cost if info.later_token_cost is not None else first
                tokens = [0, *([first] if n > 1 else []), *([later] * (n - 2))]
            else:
                tokens = [0] * n
                if info is not None:
                    self.problem(
                        f"company {c.sym}: token costs by {info.token_type} (not modelled; "
                        "listed as free)",
                        src,
                        c.line,
                    )
            out.append(corporation_from(c, home=home, city=city, tokens=tokens))
        return out

    def privates(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for p in self.companies.privates:
            blocks = [self.map.ids.get(b, b) for b in p.blocks]
            out.append(company_entry(p.sym, p.name, p.value, p.revenue, blocks=blocks))
        return out

    # ---------------------------------------------------------------------- trains

    def trains(self) -> TrainManager:
        info = self.info
        if info is None:
            return TrainManager(())
        trains: list[dict[str, Any]] = []
        rusted_by: dict[str, str] = {}
        for t in info.trains:
            for old in t.rusts:
                rusted_by.setdefault(old, t.name)
        for t in info.trains:
            entry: dict[str, Any] = {"name": t.name, "price": t.price}
            major = 999 if t.stops is None else t.stops
            if t.towns:
                towns = 999 if t.towns < 0 else t.towns
                entry["distance"] = [
                    {"nodes": ["city", "offboard"], "pay": major, "visit": major},
                    {"nodes": ["town"], "pay": towns, "visit": towns},
                ]
            else:
                entry["distance"] = major
            if t.quantity is None:
                self.problem(f"train {t.name} has no quantity; read as 1", source_of(info))
            entry["num"] = (
                1 if t.quantity is None else "unlimited" if t.quantity < 0 else t.quantity
            )
            if t.name in rusted_by:
                entry["rusts_on"] = rusted_by[t.name]
            if t.discount_price is not None and t.trade_in:
                entry["discount"] = {old: t.price - t.discount_price for old in t.trade_in}
            trains.append(entry)
        starts = {t.trigger: t.name for t in info.trains if t.trigger}
        phases: list[dict[str, Any]] = []
        for p in info.phases:
            phase: dict[str, Any] = {
                "name": p.name,
                "tiles": list(p.tiles),
                "operating_rounds": p.rounds,
            }
            if p.train_limit is not None:
                phase["train_limit"] = p.train_limit
            if p.name in starts:
                phase["on"] = starts[p.name]
            phases.append(phase)
        source = info.source or str(self.d)
        try:
            manager = trains_from_game_data(trains, phases, source=source)
        except GameDataError as err:
            self.problem(f"trains and phases not read: {err.message}", source, info.line)
            return TrainManager(())
        self.problems.extend(manager.warnings)
        return manager


# ----------------------------------------------------------------------------- helpers


class _Geometry:
    """Neighbours of a GE18XX map's hexes (the game's doubled coordinates)."""

    def __init__(self, m: GeMap) -> None:
        self.offsets = NEIGHBOUR_OFFSETS[m.layout]
        self.by_xy: dict[tuple[int, int], str] = {}
        self.xy: dict[str, tuple[int, int]] = {}
        for cell in m.cells:
            letter, number = parse_coord(cell.coord)
            xy = (letter, number) if m.letter_is_x else (number, letter)
            self.by_xy[xy] = cell.coord
            self.xy[cell.coord] = xy

    def neighbour(self, coord: str, edge: int) -> str | None:
        x, y = self.xy[coord]
        dx, dy = self.offsets[edge % 6]
        return self.by_xy.get((x + dx, y + dy))


def source_of(info: GeGameInfo) -> str:
    return info.source or ""


def _newest(tiles: Sequence[str]) -> str | None:
    found = [c for c in _COLOUR_ORDER if c in tiles]
    return found[-1] if found else None


def _without_markers(tile: Tile) -> Tile:
    """The tile without its markers (``Private Railway``, ``Destination City``) and paths to
    them."""
    drop = {i for i, n in enumerate(tile.nodes) if dict(n.extra).get("type") in _MARKERS}
    if not drop:
        return tile
    index = {old: new for new, old in enumerate(i for i in range(len(tile.nodes)) if i not in drop)}
    paths = []
    for p in tile.paths:
        ends: list[End] = []
        for e in (p.a, p.b):
            if isinstance(e, NodeRef):
                if e.index in drop:
                    break
                ends.append(NodeRef(index[e.index]))
            else:
                ends.append(e)
        else:
            paths.append(replace(p, a=ends[0], b=ends[1]))
    nodes = tuple(n for i, n in enumerate(tile.nodes) if i not in drop)
    return replace(tile, nodes=nodes, paths=tuple(paths))


def _rekey(tile: Tile, phases: Sequence[GePhase]) -> Tile:
    """The tile with its revenues per phase number keyed for the game's phases (see the
    module docstring); a revenue naming a phase number the game lacks stays as it is."""
    if not phases or not any(n.revenue is not None and n.revenue.is_phased for n in tile.nodes):
        return tile
    nodes = []
    for n in tile.nodes:
        rev = n.revenue
        if rev is not None and rev.is_phased:
            rev = _phase_revenue(rev, phases)
        nodes.append(n if rev is n.revenue else replace(n, revenue=rev))
    return replace(tile, nodes=tuple(nodes))


def _phase_revenue(rev: Revenue, phases: Sequence[GePhase]) -> Revenue:
    first: dict[str, int] = {}
    for i, p in enumerate(phases):
        first.setdefault(p.major, i)
    if not all(k in first for k, _ in rev.phases):
        return rev
    starts = sorted(((first[k], v) for k, v in rev.phases), key=lambda kv: kv[0])
    per_phase: list[tuple[GePhase, int]] = []
    for i, p in enumerate(phases):
        value = starts[0][1]
        for start, v in starts:
            if start <= i:
                value = v
        per_phase.append((p, value))
    runs = [(p, v) for i, (p, v) in enumerate(per_phase) if i == 0 or per_phase[i - 1][1] != v]
    if len(runs) == 1:
        return Revenue(runs[0][1])
    colour_start: dict[str | None, str] = {}
    for p in phases:
        colour_start.setdefault(_newest(p.tiles), p.name)
    colours = [_newest(p.tiles) for p, _ in runs]
    # a colour names a value only when the value starts with the first phase of that colour
    if len(set(colours)) == len(colours) and all(
        c is not None and colour_start[c] == p.name for c, (p, _) in zip(colours, runs, strict=True)
    ):
        return Revenue(0, tuple((c, v) for c, (_, v) in zip(colours, runs, strict=True) if c))
    return Revenue(0, tuple((p.name, v) for p, v in per_phase))


def _city_at(tile: Tile, location: int, layout: Layout) -> int | None:
    """The city index of the tile's city at seed-000 ``location``."""
    city = 0
    for i, n in enumerate(tile.nodes):
        if n.kind is not NodeKind.CITY:
            continue
        at = default_location(tile, i, layout) if n.loc is None else loc_to_location(n.loc, layout)
        if at == location:
            return city
        city += 1
    return None
