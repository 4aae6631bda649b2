"""Game data: a game written as plain data (tables, lists, strings) becomes a :class:`Game`.

The data is tilelay's own game format (the shape of the built-in games' TOML files, see
``tilelay/games/data/1889.toml``): a title, the layout, location names, ``hexes`` as groups
``{color, coords, code}`` (``code`` in the tile language), the ``manifest`` (tile name: count
or ``"unlimited"``) with the game's own tiles under ``tiles``, ``corporations``,
``companies``, ``trains`` and ``phases`` in the 18xx.games shape, and the ``market``. Every
source of games (TOML files, the 18xx.games engine's sources, Rails and GE18XX directories)
produces this data and reads it with :func:`game_from_data`, so they all give the same model.
A reader that already holds tiles may give a hex group or a game tile as ``{"tile": Tile}``
instead of a colour and a code.

Strict reading (tilelay's own files) stops at the first error with a
:class:`~tilelay.errors.GameDataError` naming the file, the line (when the text is given) and
what was expected. Lenient reading (games imported from other engines) keeps going past what
it cannot use (a home hex that is not on the map, a manifest tile that exists nowhere),
records each as a :class:`~tilelay.errors.ReadWarning` in :attr:`Game.problems`, and fails
only when there is no map at all.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Protocol

from tilelay import dsl, limits
from tilelay.catalogue import suggest, tile_codes
from tilelay.errors import GameDataError, ReadWarning, TilelayError
from tilelay.games.model import (
    UNLIMITED,
    Company,
    Corporation,
    Game,
    GameOption,
    changed_map,
    parse_coord,
    split_changes,
)
from tilelay.hexgeo import Layout
from tilelay.limits import MAX_COUNT, shown
from tilelay.tile import Color, Tile
from tilelay.train_data import manager_to_game_data, trains_from_game_data
from tilelay.trains import TrainManager
from tilelay.upgrades import BOOLEAN_RULES, rules_for, rules_from_data

__all__ = [
    "GAME_KEYS",
    "SECTION_KEYS",
    "CompanyRecord",
    "company_entry",
    "corporation_entry",
    "corporation_from",
    "game_from_data",
    "game_to_data",
]

#: How many names a problem lists before it counts the rest.
_LISTED = 8

#: The keys of game data holding tables or lists of tables (the sections of a TOML file).
SECTION_KEYS = (
    "location_names",
    "manifest",
    "market",
    "upgrade_rules",
    "hexes",
    "hexes_by_players",
    "tiles",
    "corporations",
    "companies",
    "trains",
    "phases",
    "options",
)
#: The top-level keys of game data.
GAME_KEYS = frozenset(
    {
        "title",
        "display_title",
        "subtitle",
        "aliases",
        "designer",
        "publisher",
        "location",
        "players",
        "rules_url",
        "route_rules",
        "layout",
        "axes",
        *SECTION_KEYS,
    }
)
_HEX_KEYS = frozenset({"color", "coords", "code", "tile", "engine_parts"})
_TILE_KEYS = frozenset({"color", "code", "tile", "engine_parts"})
_CORP_KEYS = frozenset(
    {
        "sym",
        "name",
        "home",
        "city",
        "tokens",
        "color",
        "text_color",
        "float_percent",
        "kind",
        "abilities",
        "more_homes",
    }
)
_OPTION_KEYS = frozenset(
    {
        "name",
        "title",
        "description",
        "add_tiles",
        "remove_tiles",
        "hexes",
        "removed",
        "hexes_by_players",
        "trains",
        "phases",
        "corporations",
        "companies",
        "market",
        "players",
    }
)
_COMPANY_KEYS = frozenset(
    {"sym", "name", "value", "revenue", "description", "blocks", "min_players", "abilities"}
)


class _Reader:
    """Reading state: the source name, its text (for line numbers) and the problems kept."""

    def __init__(self, source: str, text: str | None, strict: bool) -> None:
        self.source = source
        self.lines = text.splitlines() if text else []
        self.strict = strict
        self.problems: list[ReadWarning] = []

    def line_of(self, *needles: str) -> int | None:
        """The first line holding every needle (to point errors at the right place)."""
        for i, line in enumerate(self.lines, 1):
            if all(n in line for n in needles):
                return i
        return None

    def fail(self, message: str, *needles: str) -> GameDataError:
        line = self.line_of(*needles) if needles else None
        return GameDataError(message, source=self.source, line=line)

    def problem(self, message: str, *needles: str) -> None:
        """An item that cannot be used: an error when strict, else kept as a problem."""
        if self.strict:
            raise self.fail(message, *needles)
        line = self.line_of(*needles) if needles else None
        self.problems.append(ReadWarning(message, self.source, line))

    def table(self, data: Mapping[str, Any], key: str) -> dict[str, Any]:
        value = data.get(key, {})
        if not isinstance(value, Mapping):
            raise self.fail(f"{key} must be a table", key)
        return dict(value)

    def array(self, data: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
        value = data.get(key, [])
        if not isinstance(value, Sequence) or not all(isinstance(v, Mapping) for v in value):
            raise self.fail(f"{key} must be an array of tables ([[{key}]])", key)
        return list(value)

    def text(self, where: str, value: object, what: str, *, optional: bool = False) -> str:
        if value is None and optional:
            return ""
        if not isinstance(value, str) or not value:
            raise self.fail(f"{where}: {what} must be a non-empty string, not {shown(value)}")
        return value

    def integer(self, where: str, value: object, what: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(f"{where}: {what} must be an integer, not {shown(value)}")
        return value

    def strings(self, where: str, value: object, what: str) -> tuple[str, ...]:
        if not isinstance(value, Sequence) or isinstance(value, str):
            raise self.fail(f"{where}: {what} must be a list of strings, not {shown(value)}")
        if not all(isinstance(v, str) for v in value):
            raise self.fail(f"{where}: {what} must be a list of strings, not {shown(value)}")
        return tuple(value)

    def unknown(self, where: str, entry: Mapping[str, Any], known: frozenset[str]) -> None:
        extra = sorted(set(entry) - known)
        if extra:
            raise self.fail(
                f"{where}: unknown key {extra[0]!r} (expected one of {', '.join(sorted(known))})",
                f"{extra[0]} =",
            )

    def coord(self, where: str, coord: object) -> str:
        if not isinstance(coord, str):
            raise self.fail(f"{where}: coordinate must be a string, not {shown(coord)}")
        try:
            parse_coord(coord)
        except ValueError as err:
            raise self.fail(f"{where}: {err}", f'"{coord}"') from None
        return coord

    def color(self, where: str, value: object, *needles: str) -> tuple[Color, Color | None]:
        try:
            return Color.parse(self.text(where, value, "color"))
        except ValueError as err:
            raise self.fail(f"{where}: {err}", *needles) from None

    def tile(self, where: str, entry: Mapping[str, Any], name: str, *needles: str) -> Tile:
        """The tile of a hex group or game tile: a given ``tile``, or ``color`` and ``code``."""
        given = entry.get("tile")
        if given is not None:
            if not isinstance(given, Tile):
                raise self.fail(f"{where}: tile must be a tile, not {shown(given)}", *needles)
            return given.with_name(name)
        code = entry.get("code", "")
        if not isinstance(code, str):
            raise self.fail(f"{where}: code must be a tile string, not {shown(code)}", *needles)
        tile_color, stripe = self.color(where, entry.get("color", "white"), *needles)
        try:
            tile = dsl.parse(code, name=name, color=tile_color)
        except TilelayError as err:
            col = f" (column {err.column})" if err.column is not None else ""
            message = f"{where}: bad tile string{col}: {err.message}"
            if self.strict:
                raise self.fail(message, *needles) from None
            try:
                # (a lenient reading of the engine's games reads its strings as it does)
                tile, notes = dsl.read_as_engine(code, name=name, color=tile_color)
            except TilelayError:
                raise self.fail(message, *needles) from None
            if not notes:  # (read as it is: not a mistake the engine reads past)
                raise self.fail(message, *needles) from None
            self.problem(
                f"{where}: tile string{col}: {err.message}; read as 18xx.games reads it: "
                + "; ".join(notes),
                *needles,
            )
        if stripe is not None:
            tile = replace(tile, stripe=stripe)
        parts = entry.get("engine_parts")
        if parts is not None:
            if (
                not isinstance(parts, list)
                or len(parts) != len(tile.nodes)
                or not all(isinstance(p, int) and not isinstance(p, bool) for p in parts)
            ):
                raise self.fail(
                    f"{where}: engine_parts must be a whole number per node of the tile "
                    f"({len(tile.nodes)}), not {shown(parts)}",
                    *needles,
                )
            tile = dsl.with_engine_parts(tile, parts)
        return tile


def _toml_str(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _layout(r: _Reader, data: Mapping[str, Any]) -> tuple[Layout, bool]:
    """The layout and whether the letter of a coordinate is the x axis."""
    try:
        layout = Layout(str(data.get("layout", "")))
    except ValueError:
        raise r.fail(
            f"layout must be 'flat' or 'pointy', not {shown(data.get('layout'))}", "layout"
        ) from None
    axes = r.table(data, "axes") if data.get("axes") is not None else {}
    default_x = "letter" if layout is Layout.FLAT else "number"
    x_axis = axes.get("x", default_x)
    y_axis = axes.get("y", "number" if x_axis == "letter" else "letter")
    if {x_axis, y_axis} != {"letter", "number"}:
        raise r.fail("axes must be { x = 'letter', y = 'number' } or the other way", "axes")
    return layout, x_axis == "letter"


def _hexes(
    r: _Reader, data: Mapping[str, Any], names: Mapping[str, str], key: str = "hexes"
) -> dict[str, Tile]:
    hexes: dict[str, Tile] = {}
    for i, entry in enumerate(r.array(data, "hexes")):
        where = f"{key}[{i}]"
        r.unknown(where, entry, _HEX_KEYS)
        coords = r.strings(where, entry.get("coords"), "coords")
        if not coords:
            raise r.fail(f"{where}: coords is empty")
        code = entry.get("code", "")
        needle = f"code = {_toml_str(code)}" if isinstance(code, str) else "code"
        try:
            base = r.tile(f"{where} ({coords[0]})", entry, "", needle)
        except GameDataError as err:
            if r.strict:
                raise
            # lenient: the hexes keep their colour, drawn without what could not be read
            r.problem(f"{err.message}; {', '.join(coords)} drawn as plain hexes", needle)
            try:
                color, stripe = Color.parse(str(entry.get("color", "white")))
            except ValueError:
                color, stripe = Color.WHITE, None
            base = Tile(color=color, stripe=stripe)
        for coord in coords:
            r.coord(where, coord)
            if coord in hexes:
                raise r.fail(f"{where}: hex {coord} is defined twice", f'"{coord}"')
            hexes[coord] = replace(base, name=coord, location_name=names.get(coord))
    if not hexes and key == "hexes":
        raise r.fail("the game has no hexes ([[hexes]] with coords)")
    return hexes


def _hexes_by_players(
    r: _Reader,
    data: Mapping[str, Any],
    names: Mapping[str, str],
    hexes: Mapping[str, Tile],
    prefix: str = "",
) -> dict[int, dict[str, Tile | None]]:
    """``[hexes_by_players.N]``: the hexes of the map for N players that differ from the
    game's (``hexes``, groups as the game's ``[[hexes]]``) and those it does not have
    (``removed``)."""
    out: dict[int, dict[str, Tile | None]] = {}
    for count, entry in r.table(data, "hexes_by_players").items():
        where = f"{prefix}hexes_by_players.{count}"
        players = limits.whole(str(count), 1, limits.MAX_PLAYERS) if str(count).isdigit() else None
        if players is None or not isinstance(entry, Mapping):
            raise r.fail(
                f"{where}: expected a number of players (1 to {limits.MAX_PLAYERS}) with a "
                "table of hexes and removed",
                f"[hexes_by_players.{count}]",
            )
        r.unknown(where, entry, frozenset({"hexes", "removed"}))
        changed = _changes(r, where, entry, names, hexes)
        if changed:
            out[players] = changed
    return out


def _changes(
    r: _Reader,
    where: str,
    entry: Mapping[str, Any],
    names: Mapping[str, str],
    hexes: Mapping[str, Tile],
) -> dict[str, Tile | None]:
    """The hexes a map differs by from ``hexes``: those it gives (``hexes``, groups as the
    game's ``[[hexes]]``) and those it has not (``removed``, each None)."""
    changed: dict[str, Tile | None] = dict(_hexes(r, entry, names, f"{where}.hexes"))
    for coord in r.strings(where, entry.get("removed", []), "removed"):
        r.coord(where, coord)
        if coord not in hexes:
            r.problem(f"{where}: removed hex {coord} is not a hex of the map", f'"{coord}"')
        elif coord in changed:
            raise r.fail(f"{where}: hex {coord} is both given and removed", f'"{coord}"')
        else:
            changed[coord] = None
    return changed


def _optional_coords(data: Mapping[str, Any]) -> set[str]:
    """The hexes the game's options give (their maps' hexes, by the players too): hexes of
    some map of the game, whose location names are kept."""
    out: set[str] = set()
    options = data.get("options")
    for option in options if isinstance(options, Sequence) else ():
        if not isinstance(option, Mapping):
            continue
        groups = [option.get("hexes")]
        by_players = option.get("hexes_by_players")
        if isinstance(by_players, Mapping):
            groups.extend(m.get("hexes") for m in by_players.values() if isinstance(m, Mapping))
        for group in groups:
            for entry in group if isinstance(group, Sequence) else ():
                coords = entry.get("coords") if isinstance(entry, Mapping) else None
                if isinstance(coords, Sequence) and not isinstance(coords, str):
                    out.update(c for c in coords if isinstance(c, str))
    return out


def _location_names(r: _Reader, data: Mapping[str, Any]) -> dict[str, str]:
    names: dict[str, str] = {}
    for coord, name in r.table(data, "location_names").items():
        names[r.coord("location_names", coord)] = r.text(f"location_names.{coord}", name, "name")
    return names


def _game_tiles(r: _Reader, data: Mapping[str, Any]) -> dict[str, Tile]:
    out: dict[str, Tile] = {}
    for name, entry in r.table(data, "tiles").items():
        where = f"tiles.{name}"
        if not isinstance(entry, Mapping):
            raise r.fail(f"{where} must be a table with color and code", f"[tiles.{name}]")
        r.unknown(where, entry, _TILE_KEYS)
        try:
            out[str(name)] = r.tile(where, entry, str(name), f"[tiles.{name}]")
        except GameDataError as err:
            if r.strict:
                raise
            r.problem(f"{err.message}; the tile is left out", f"[tiles.{name}]")
    return out


def _manifest(
    r: _Reader, data: Mapping[str, Any], game_tiles: Mapping[str, Tile]
) -> dict[str, int]:
    manifest: dict[str, int] = {}
    generic = tile_codes()
    for name, count in r.table(data, "manifest").items():
        where = f"manifest: tile {name}"
        if count == "unlimited":
            value = UNLIMITED
        elif isinstance(count, int) and not isinstance(count, bool) and 0 <= count <= MAX_COUNT:
            value = count
        else:
            raise r.fail(
                f"{where}: count must be 0 to {MAX_COUNT:,} or 'unlimited', not {shown(count)}",
                str(name),
            )
        if name not in game_tiles and name not in generic:
            close = suggest(str(name), [*generic, *game_tiles])
            hint = f" (did you mean: {', '.join(close)}?)" if close else ""
            r.problem(
                f"{where}: no such tile in the game's [tiles] or the generic catalogue{hint}",
                f"{name} =",
            )
            continue
        manifest[str(name)] = value
    return manifest


def _corporations(
    r: _Reader, data: Mapping[str, Any], hexes: Mapping[str, Tile], prefix: str = ""
) -> tuple[Corporation, ...]:
    """``corporations`` (``prefix``: where they are, for messages: an option's)."""
    out: list[Corporation] = []
    for i, entry in enumerate(r.array(data, "corporations")):
        where = f"{prefix}corporations[{i}]"
        r.unknown(where, entry, _CORP_KEYS)
        sym = r.text(where, entry.get("sym"), "sym")
        where = f"{prefix}corporation {sym}"
        home = r.coord(where, entry["home"]) if entry.get("home") is not None else None
        city = r.integer(where, entry["city"], "city") if entry.get("city") is not None else None
        why = _home_problem(hexes, home, city) if home is not None else None
        if why is not None:
            message, whole = why
            r.problem(f"{where}: {message}", f'"{home}"' if whole else "city =")
            if whole:
                home = None
            city = None
        more = _more_homes(r, where, entry.get("more_homes", []), hexes)
        tokens = entry.get("tokens", [0])
        if not isinstance(tokens, Sequence) or not all(
            isinstance(t, int) and not isinstance(t, bool) for t in tokens
        ):
            raise r.fail(f"{where}: tokens must be a list of costs")
        fp = entry.get("float_percent")
        out.append(
            Corporation(
                sym,
                r.text(where, entry.get("name"), "name"),
                home,
                city,
                tuple(tokens),
                r.text(where, entry.get("color", "black"), "color"),
                r.text(where, entry.get("text_color"), "text_color", optional=True) or None,
                None if fp is None else r.integer(where, fp, "float_percent"),
                r.text(where, entry.get("kind", "corporation"), "kind"),
                _abilities(r, where, entry),
                more,
            )
        )
    return tuple(out)


def _more_homes(
    r: _Reader, where: str, value: Any, hexes: Mapping[str, Tile]
) -> tuple[tuple[str, int | None], ...]:
    """A corporation's ``more_homes``: hexes (``"E6"``) or hexes with a city
    (``{hex = "E6", city = 1}``); one not on the map, without a city or without that city
    is a problem and left out."""
    if not isinstance(value, list):
        raise r.fail(f"{where}: more_homes must be a list of hexes or {{hex, city}} tables")
    out: list[tuple[str, int | None]] = []
    for item in value:
        city: int | None = None
        if isinstance(item, Mapping):
            r.unknown(f"{where}: more_homes", item, frozenset({"hex", "city"}))
            coord = r.coord(where, item.get("hex"))
            if item.get("city") is not None:
                city = r.integer(where, item["city"], "more_homes city")
        else:
            coord = r.coord(where, item)
        why = _home_problem(hexes, coord, city)
        if why is not None:
            r.problem(f"{where}: {why[0]}", f'"{coord}"')
        else:
            out.append((coord, city))
    return tuple(out)


def _home_problem(
    hexes: Mapping[str, Tile], coord: str, city: int | None
) -> tuple[str, bool] | None:
    """Why ``coord`` (with city ``city``, where given) cannot be a corporation's home: the
    problem, and whether the hex itself cannot (else only that city); None when it can."""
    tile = hexes.get(coord)
    if tile is None:
        return f"home {coord} is not a hex of the map", True
    if not tile.cities:
        return f"home {coord} has no city", True
    if city is not None and not 0 <= city < len(tile.cities):
        return f"home {coord} has no city {city}", False
    return None


def _companies(
    r: _Reader, data: Mapping[str, Any], hexes: Mapping[str, Tile], prefix: str = ""
) -> tuple[Company, ...]:
    """``companies`` (``prefix``: where they are, for messages: an option's)."""
    out: list[Company] = []
    for i, entry in enumerate(r.array(data, "companies")):
        where = f"{prefix}companies[{i}]"
        r.unknown(where, entry, _COMPANY_KEYS)
        sym = r.text(where, entry.get("sym"), "sym")
        where = f"{prefix}company {sym}"
        blocks: list[str] = []
        for coord in r.strings(where, entry.get("blocks", []), "blocks"):
            if coord in hexes:
                blocks.append(coord)
            else:
                r.problem(f"{where}: blocked hex {coord} is not on the map", f'"{coord}"')
        mp = entry.get("min_players")
        out.append(
            Company(
                sym,
                r.text(where, entry.get("name"), "name"),
                r.integer(where, entry.get("value"), "value"),
                r.integer(where, entry.get("revenue"), "revenue"),
                r.text(where, entry.get("description"), "description", optional=True) or None,
                tuple(blocks),
                None if mp is None else r.integer(where, mp, "min_players"),
                _abilities(r, where, entry),
            )
        )
    return tuple(out)


def _options(
    r: _Reader,
    data: Mapping[str, Any],
    game_tiles: Mapping[str, Tile],
    game: tuple[Mapping[str, str], Mapping[str, Tile], tuple[dict[str, Any], ...]],
    train_quantities: Mapping[str, int] | None,
) -> tuple[GameOption, ...]:
    """``[[options]]``: each option's name, title and description, and what it changes:
    tiles added to and removed from the manifest, hexes of the map (``hexes`` as the
    game's, and ``removed``), the map by the number of players (``hexes_by_players``), and
    the trains, phases, corporations, companies and market played with it instead of the
    game's. ``game``: the game's location names, hexes and phases."""
    names, hexes, phases = game
    out: list[GameOption] = []
    generic = tile_codes()
    for i, entry in enumerate(r.array(data, "options")):
        where = f"options[{i}]"
        r.unknown(where, entry, _OPTION_KEYS)
        name = r.text(where, entry.get("name"), "name")
        where = f"option {name}"
        adds: list[tuple[str, int]] = []
        added = entry.get("add_tiles", {})
        if not isinstance(added, Mapping):
            raise r.fail(f"{where}: add_tiles must be a table of tile = count", "add_tiles")
        for tile, count in added.items():
            value = UNLIMITED if count == "unlimited" else count
            if isinstance(value, bool) or not isinstance(value, int) or value < UNLIMITED:
                raise r.fail(f"{where}: tile {tile}: count must be >= 0 or 'unlimited'", tile)
            if tile not in game_tiles and tile not in generic:
                r.problem(f"{where}: no such tile {tile}", tile)
                continue
            adds.append((str(tile), value))
        # the map with the option: its hexes, and the game's hexes it has not
        changed = _changes(r, where, entry, names, hexes)
        mapped = changed_map(hexes, changed)
        by_players = (
            _hexes_by_players(r, entry, names, mapped, f"{where}: ")
            if "hexes_by_players" in entry
            else None
        )
        trains: TrainManager | None = None
        train_data = tuple(dict(t) for t in r.array(entry, "trains"))
        phase_data = tuple(dict(p) for p in r.array(entry, "phases")) or phases
        if "trains" in entry or "phases" in entry:
            try:
                trains = trains_from_game_data(
                    train_data, phase_data, source=r.source, quantities=train_quantities
                )
            except GameDataError as err:
                if r.strict:
                    raise GameDataError(f"{where}: {err.message}", source=r.source) from None
                r.problem(f"{where}: {err.message}; the option's trains are left out", "trains")
        out.append(
            GameOption(
                name,
                r.text(where, entry.get("title", name), "title"),
                r.text(where, entry.get("description"), "description", optional=True) or None,
                tuple(adds),
                r.strings(where, entry.get("remove_tiles", []), "remove_tiles"),
                hexes=tuple(changed.items()),
                hexes_by_players=by_players,
                trains=trains,
                train_data=train_data if trains is not None else (),
                phase_data=phase_data if trains is not None else (),
                corporations=(
                    _corporations(r, entry, mapped, f"{where}: ")
                    if "corporations" in entry
                    else None
                ),
                companies=(
                    _companies(r, entry, mapped, f"{where}: ") if "companies" in entry else None
                ),
                market=_market(r, entry) if "market" in entry else None,
                players=_option_players(r, where, entry.get("players", [])),
            )
        )
    return tuple(out)


def _option_players(r: _Reader, where: str, value: Any) -> tuple[int, ...]:
    """An option's ``players``: the numbers of players it is for (none: any)."""
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise r.fail(f"{where}: players must be a list of numbers of players", "players")
    return tuple(r.integer(where, n, "players") for n in value)


def _abilities(r: _Reader, where: str, entry: Mapping[str, Any]) -> tuple[dict[str, Any], ...]:
    """A company's or corporation's abilities: a list of tables, each with a ``type``."""
    raw = entry.get("abilities")
    if raw is None:
        return ()
    if not isinstance(raw, Sequence) or not all(
        isinstance(a, Mapping) and isinstance(a.get("type"), str) for a in raw
    ):
        raise r.fail(f"{where}: abilities must be a list of tables with a type", "abilities")
    return tuple(dict(a) for a in raw)


def _market(r: _Reader, data: Mapping[str, Any]) -> tuple[tuple[str, ...], ...]:
    rows = r.table(data, "market").get("rows", [])
    if not isinstance(rows, Sequence) or not all(
        isinstance(row, Sequence) and all(isinstance(c, str) for c in row) for row in rows
    ):
        raise r.fail("market.rows must be a list of rows of strings", "rows")
    return tuple(tuple(row) for row in rows)


def _lenient_trains(
    r: _Reader,
    train_data: tuple[dict[str, Any], ...],
    phase_data: tuple[dict[str, Any], ...],
    quantities: Mapping[str, int] | None,
    err: GameDataError,
) -> tuple[tuple[dict[str, Any], ...], TrainManager]:
    """The trains of a game read leniently (``err``: why they are not read as they are): the
    trains tilelay cannot read left out (1822 CA's grain train runs to grain elevators, a
    kind of stop it does not know), each named; where the rest do not read either, none."""
    kept: list[dict[str, Any]] = []
    for index, entry in enumerate(train_data):
        try:
            trains_from_game_data([entry], [], source=r.source, quantities=quantities)
        except GameDataError as bad:
            why = bad.message.split(": ", 1)[-1]
            r.problem(f"trains[{index}] ({entry.get('name')}): {why}; the train is left out")
        else:
            kept.append(entry)
    if len(kept) < len(train_data):
        rest = tuple(kept)
        try:
            return rest, trains_from_game_data(
                rest, phase_data, source=r.source, quantities=quantities
            )
        except GameDataError as again:
            err = again
    r.problem(f"trains and phases: {err.message}; the game has none")
    return (), TrainManager(())


def game_from_data(
    data: Mapping[str, Any],
    *,
    source: str,
    text: str | None = None,
    strict: bool = True,
    format: str = "tilelay",
    problems: Sequence[ReadWarning] = (),
    train_quantities: Mapping[str, int] | None = None,
    trains: TrainManager | None = None,
) -> Game:
    """The :class:`Game` that ``data`` (tilelay's game format as plain data) describes.

    ``source`` names where the data came from and ``text`` is its text, for line numbers in
    errors. With ``strict`` the first item that cannot be used is an error; without, it is
    left out and listed in :attr:`Game.problems` after ``problems`` (those of the reader that
    produced the data). ``format`` names the source format; ``train_quantities`` gives the
    number of trains whose data has none (see
    :func:`~tilelay.train_data.trains_from_game_data`). A reader that has built the trains
    and phases itself (Rails' ``Game.xml``) passes them as ``trains``; the data then has no
    ``trains`` or ``phases``.
    """
    r = _Reader(source, text, strict)
    r.unknown("game", data, GAME_KEYS)
    title = r.text("game", data.get("title"), "title")
    display = r.text("game", data.get("display_title", title), "display_title")
    aliases = r.strings("game", data.get("aliases", []), "aliases")
    layout, letter_is_x = _layout(r, data)
    names = _location_names(r, data)
    hexes = _hexes(r, data, names)
    by_players = _hexes_by_players(r, data, names, hexes)
    option_coords = _optional_coords(data)
    missing = [
        coord
        for coord in names
        if coord not in hexes
        and coord not in option_coords
        and not any(coord in m for m in by_players.values())
    ]
    if missing:
        # (one problem for them all: a scenario's map names every hex of the whole map)
        listed = ", ".join(missing[:_LISTED])
        if len(missing) > _LISTED:
            listed += f" and {len(missing) - _LISTED} more"
        r.problem(
            f"location_names: {missing[0]} is not a hex of the map"
            if len(missing) == 1
            else f"location_names: {len(missing)} hexes are not of the map, their names left "
            f"out: {listed}",
            f"{missing[0]} =",
        )
        for coord in missing:
            del names[coord]
    game_tiles = _game_tiles(r, data)
    manifest = _manifest(r, data, game_tiles)
    corporations = _corporations(r, data, hexes)
    companies = _companies(r, data, hexes)
    train_data = tuple(dict(t) for t in r.array(data, "trains"))
    phase_data = tuple(dict(p) for p in r.array(data, "phases"))
    if trains is None:
        try:
            trains = trains_from_game_data(
                train_data, phase_data, source=source, quantities=train_quantities
            )
        except GameDataError as err:
            if strict:
                raise
            train_data, trains = _lenient_trains(r, train_data, phase_data, train_quantities, err)
            if not trains.card_types:
                phase_data = train_data = ()
    elif train_data or phase_data:
        raise r.fail("trains are given both as data and as a train manager")
    players = data.get("players")
    if players is not None and not (
        isinstance(players, Sequence)
        and len(players) == 2
        and all(isinstance(p, int) and not isinstance(p, bool) for p in players)
    ):
        raise r.fail("players must be [minimum, maximum]", "players")
    rules_data = data.get("upgrade_rules")
    if rules_data is None:
        rules = rules_for(title)
    elif isinstance(rules_data, Mapping):
        rules = rules_from_data(title, rules_data, source=source)
    else:
        raise r.fail("upgrade_rules must be a table", "upgrade_rules")

    def optional(key: str) -> str | None:
        return r.text("game", data.get(key), key, optional=True) or None

    return Game(
        name=title,
        title=display,
        layout=layout,
        hexes=hexes,
        location_names=names,
        manifest=manifest,
        game_tiles=game_tiles,
        corporations=corporations,
        companies=companies,
        trains=trains,
        train_data=train_data,
        phase_data=phase_data,
        aliases=aliases,
        subtitle=optional("subtitle"),
        designer=optional("designer"),
        publisher=optional("publisher"),
        location=optional("location"),
        players=None if players is None else (players[0], players[1]),
        market=_market(r, data),
        source=source,
        letter_is_x=letter_is_x,
        format=format,
        problems=(*problems, *r.problems),
        upgrade_rules=rules,
        options=_options(r, data, game_tiles, (names, hexes, phase_data), train_quantities),
        route_rules=optional("route_rules"),
        hexes_by_players=by_players,
    )


def corporation_entry(
    sym: str,
    name: str,
    *,
    home: str | None = None,
    city: int | None = None,
    tokens: Sequence[int] | None = None,
    color: str | None = None,
    text_color: str | None = None,
    float_percent: int | None = None,
    kind: str = "corporation",
    abilities: Sequence[Mapping[str, Any]] = (),
    more_homes: Sequence[tuple[str, int | None]] = (),
) -> dict[str, Any]:
    """A corporation as game data (what is not given is left out, to take the defaults)."""
    entry: dict[str, Any] = {"sym": sym, "name": name}
    for key, value in (("home", home), ("city", city)):
        if value is not None:
            entry[key] = value
    if tokens is not None:
        entry["tokens"] = list(tokens)
    for key, text in (("color", color), ("text_color", text_color)):
        if text:
            entry[key] = text
    if float_percent is not None:
        entry["float_percent"] = float_percent
    if kind != "corporation":
        entry["kind"] = kind
    if abilities:
        entry["abilities"] = [dict(a) for a in abilities]
    if more_homes:
        entry["more_homes"] = [
            coord if city is None else {"hex": coord, "city": city} for coord, city in more_homes
        ]
    return entry


class CompanyRecord(Protocol):
    """What a reader's record of a public company gives (Rails' and GE18XX's have it)."""

    @property
    def sym(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def color(self) -> str | None: ...
    @property
    def text_color(self) -> str | None: ...
    @property
    def float_percent(self) -> int | None: ...


def corporation_from(
    record: CompanyRecord,
    *,
    home: str | None = None,
    city: int | None = None,
    tokens: Sequence[int] | None = None,
) -> dict[str, Any]:
    """A corporation as game data from a reader's record and the home and tokens it worked out."""
    return corporation_entry(
        record.sym,
        record.name,
        home=home,
        city=city,
        tokens=tokens,
        color=record.color,
        text_color=record.text_color,
        float_percent=record.float_percent,
    )


def company_entry(
    sym: str,
    name: str,
    value: int,
    revenue: int,
    *,
    description: str | None = None,
    blocks: Sequence[str] = (),
    min_players: int | None = None,
    abilities: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """A private company as game data (what is not given is left out)."""
    entry: dict[str, Any] = {"sym": sym, "name": name, "value": value, "revenue": revenue}
    if description:
        entry["description"] = description
    if blocks:
        entry["blocks"] = list(blocks)
    if min_players is not None:
        entry["min_players"] = min_players
    if abilities:
        entry["abilities"] = [dict(a) for a in abilities]
    return entry


def _tile_color(tile: Tile) -> str:
    return tile.color.value + (tile.stripe.value if tile.stripe is not None else "")


def _rules_data(game: Game) -> dict[str, Any] | None:
    rules = game.upgrade_rules
    if rules == rules_for(game.name):
        return None
    out: dict[str, Any] = {}
    default = rules_for(None)
    if rules.steps != default.steps:
        out["steps"] = sorted([a.value, b.value] for a, b in rules.steps)
    for key in BOOLEAN_RULES:
        if getattr(rules, key) != getattr(default, key):
            out[key] = getattr(rules, key)
    if rules.max_exits:
        out["max_exits"] = list(rules.max_exits)
    if rules.town_replacement_phases:
        out["town_replacement_phases"] = list(rules.town_replacement_phases)
    for key in ("city_steps", "late_steps", "late_city_steps"):
        steps = getattr(rules, key)
        if steps is not None:
            out[key] = sorted([a.value, b.value] for a, b in steps)
    for key in ("late_colour", "colour_exceptions_from"):
        colour = getattr(rules, key)
        if colour is not None:
            out[key] = colour.value
    if rules.unrotated:
        out["unrotated"] = sorted(rules.unrotated)
    if rules.hex_labels:
        out["hex_labels"] = {
            c: [colour.value, text] for c, colour, text in sorted(rules.hex_labels)
        }
    for key in ("label_exceptions", "town_cities", "forbidden", "colour_exceptions"):
        pairs: dict[str, list[str]] = {}
        for old, new in sorted(getattr(rules, key)):
            pairs.setdefault(new, []).append(old)
        if pairs:
            out[key] = pairs
    return out


def game_to_data(game: Game) -> dict[str, Any]:
    """``game`` as game data (tilelay's format as plain data; :func:`game_from_data` reads it).

    Hexes are grouped by colour and canonical tile string in map order; the game's own tiles
    are written as tile strings. What the tile language cannot express is not kept. The
    game is written as defined, with its options and none chosen.
    """
    game = game.with_options(())
    out: dict[str, Any] = {"title": game.name}
    if game.title != game.name:
        out["display_title"] = game.title
    if game.route_rules is not None:
        out["route_rules"] = game.route_rules
    for key in ("subtitle", "designer", "publisher", "location"):
        value = getattr(game, key)
        if value is not None:
            out[key] = value
    if game.aliases:
        out["aliases"] = list(game.aliases)
    if game.players is not None:
        out["players"] = list(game.players)
    out["layout"] = game.layout.value
    if game.letter_is_x != (game.layout is Layout.FLAT):
        out["axes"] = (
            {"x": "letter", "y": "number"} if game.letter_is_x else {"x": "number", "y": "letter"}
        )
    if game.location_names:
        out["location_names"] = dict(game.location_names)
    out["hexes"] = _hex_groups(game.hexes.items())
    if game.hexes_by_players:
        out["hexes_by_players"] = _by_players_data(game.hexes_by_players)
    out["manifest"] = {
        name: "unlimited" if count == UNLIMITED else count for name, count in game.manifest.items()
    }
    if game.game_tiles:
        out["tiles"] = {
            name: {
                "color": _tile_color(tile),
                "code": dsl.write(tile),
                **_parts_entry(dsl.engine_parts(tile)),
            }
            for name, tile in game.game_tiles.items()
        }
    corporations = [_corporation_data(c) for c in game.corporations]
    if corporations:
        out["corporations"] = corporations
    companies = [_company_data(c) for c in game.companies]
    if companies:
        out["companies"] = companies
    trains, phases = _trains_data(game.trains, game.train_data, game.phase_data)
    if trains:
        out["trains"] = trains
    if phases:
        out["phases"] = phases
    if game.market:
        out["market"] = {"rows": [list(row) for row in game.market]}
    rules = _rules_data(game)
    if rules is not None:
        out["upgrade_rules"] = rules
    if game.options:
        out["options"] = [_option_data(o) for o in game.options]
    return out


def _trains_data(
    trains: TrainManager,
    train_data: Sequence[Mapping[str, Any]],
    phase_data: Sequence[Mapping[str, Any]],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Trains and phases as game data: as they were read where they were, else as the
    train manager has them (a Rails game's)."""
    if train_data or phase_data:
        return [dict(t) for t in train_data], [dict(p) for p in phase_data]
    return manager_to_game_data(trains)


def _corporation_data(c: Corporation) -> dict[str, Any]:
    return corporation_entry(
        c.sym,
        c.name,
        home=c.home,
        city=c.city,
        tokens=c.tokens,
        color=c.color,
        text_color=c.text_color,
        float_percent=c.float_percent,
        kind=c.kind,
        abilities=c.abilities,
        more_homes=c.more_homes,
    )


def _company_data(c: Company) -> dict[str, Any]:
    return company_entry(
        c.sym,
        c.name,
        c.value,
        c.revenue,
        description=c.description,
        blocks=c.blocks,
        min_players=c.min_players,
        abilities=c.abilities,
    )


def _hex_groups(hexes: Iterable[tuple[str, Tile]]) -> list[dict[str, Any]]:
    """Hexes as ``[[hexes]]`` entries: grouped by colour and canonical tile string, in map
    order."""
    groups: dict[tuple[str, str, tuple[int, ...] | None], list[str]] = {}
    for coord, tile in hexes:
        group = (_tile_color(tile), dsl.write(tile), dsl.engine_parts(tile))
        groups.setdefault(group, []).append(coord)
    return [
        {"color": color, "coords": coords, "code": code, **_parts_entry(parts)}
        for (color, code, parts), coords in groups.items()
    ]


def _parts_entry(parts: tuple[int, ...] | None) -> dict[str, list[int]]:
    """A hex's or tile's ``engine_parts`` entry (:func:`tilelay.dsl.engine_parts`), where it
    has them."""
    return {} if parts is None else {"engine_parts": list(parts)}


def _option_data(option: GameOption) -> dict[str, Any]:
    out: dict[str, Any] = {"name": option.name, "title": option.title}
    if option.description is not None:
        out["description"] = option.description
    if option.add_tiles:
        out["add_tiles"] = {t: "unlimited" if c == UNLIMITED else c for t, c in option.add_tiles}
    if option.remove_tiles:
        out["remove_tiles"] = list(option.remove_tiles)
    out.update(_changed_hexes(dict(option.hexes)))
    if option.hexes_by_players is not None:
        out["hexes_by_players"] = _by_players_data(option.hexes_by_players)
    if option.trains is not None:
        out["trains"], out["phases"] = _trains_data(
            option.trains, option.train_data, option.phase_data
        )
    if option.corporations is not None:
        out["corporations"] = [_corporation_data(c) for c in option.corporations]
    if option.companies is not None:
        out["companies"] = [_company_data(c) for c in option.companies]
    if option.market is not None:
        out["market"] = {"rows": [list(row) for row in option.market]}
    if option.players:
        out["players"] = list(option.players)
    return out


def _changed_hexes(changed: Mapping[str, Tile | None]) -> dict[str, Any]:
    """Hexes that differ from a map's: ``hexes`` (groups) and ``removed``, those there are."""
    given, removed = split_changes(changed)
    out: dict[str, Any] = {"hexes": _hex_groups(given.items())} if given else {}
    if removed:
        out["removed"] = removed
    return out


def _by_players_data(by_players: Mapping[int, Mapping[str, Tile | None]]) -> dict[str, Any]:
    """``hexes_by_players`` as data: each number's changed hexes."""
    return {str(n): _changed_hexes(changed) for n, changed in sorted(by_players.items())}
