"""The game model: a map of preprinted hexes, a tile manifest, corporations, companies, trains.

A :class:`Game` is what every source of games becomes (tilelay's own TOML files, the
18xx.games engine's sources, Rails and GE18XX game directories): drawing, upgrades, routes,
replay and the web app all work on it. It is immutable and compared by identity.

Coordinates are letter + number (``K8``). On a flat map the letter is the column and the number
the row; on a pointy map the letter is the row and the number the column (a game may say
otherwise with its axes). :meth:`Game.coord_xy` gives the doubled coordinates of
:func:`tilelay.hexgeo.hex_center`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from tilelay.catalogue import get_tile, natural_key, suggest
from tilelay.errors import NotFoundError, ReadWarning
from tilelay.hexgeo import NEIGHBOUR_OFFSETS, Layout
from tilelay.tile import Tile
from tilelay.trains import Phase, TrainManager
from tilelay.upgrades import DEFAULT_RULES, UpgradeRules

__all__ = [
    "UNLIMITED",
    "Company",
    "Corporation",
    "Game",
    "GameOption",
    "coord_key",
    "letters",
    "normalise_name",
    "parse_coord",
    "tile_key",
]

#: Manifest count of a tile of which there is no limit.
UNLIMITED = -1

_COORD = re.compile(r"([A-Z]{1,3}|[a-z])(-?[0-9]{1,4})")


def parse_coord(coord: str) -> tuple[int, int]:
    """A coordinate ``K8`` as (letter index, number): ``A`` is 0, ``Z`` 25, ``AA`` 26, and, as
    18xx.games writes hexes left of column A, ``a`` is -1, ``b`` -2.

    Raises :class:`ValueError` for anything that is not letters followed by a number.

    >>> parse_coord("K8"), parse_coord("AA3"), parse_coord("a12")
    ((10, 8), (26, 3), (-1, 12))
    """
    m = _COORD.fullmatch(coord)
    if m is None:
        raise ValueError(f"bad coordinate {coord!r}: expected letters and a number, e.g. K8")
    text = m.group(1)
    if text.islower():
        return -(ord(text) - ord("a") + 1), int(m.group(2))
    index = 0
    for ch in text:
        index = index * 26 + (ord(ch) - ord("A") + 1)
    return index - 1, int(m.group(2))


def letters(index: int) -> str:
    """The letters of a coordinate column or row: 0 is ``A``, 25 ``Z``, 26 ``AA``, -1 ``a``."""
    if index < 0:
        return chr(ord("a") - index - 1)
    out = ""
    n = index + 1
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(ord("A") + r) + out
    return out


def normalise_name(name: str) -> str:
    """A game name for matching: lower case without ``_``, ``-``, spaces, ``:`` or ``&``."""
    return re.sub(r"[\s_\-:&]+", "", name.lower())


@dataclass(frozen=True, slots=True)
class Corporation:
    """A company that lays track and runs trains: symbol, name, home hex (and city on a
    multi-city hex), token costs, colours. ``kind`` is ``corporation``, or ``minor`` for the
    minor companies some games have. ``abilities`` are its special abilities as the source
    writes them (18xx.games' ``{type, …}`` tables), for the game's rules. ``more_homes`` are
    the hexes where it starts with a home token too, each with its city (None: the hex's only
    city), for a corporation with several home stations (1894's Ouest at Le Havre and Paris,
    18Rhl's CCE); :meth:`Game.home_cities` lists them all."""

    sym: str
    name: str
    home: str | None
    city: int | None = None
    tokens: tuple[int, ...] = (0,)
    color: str = "black"
    text_color: str | None = None
    float_percent: int | None = None
    kind: str = "corporation"
    abilities: tuple[dict[str, Any], ...] = field(default=(), compare=False)
    more_homes: tuple[tuple[str, int | None], ...] = ()


@dataclass(frozen=True, slots=True)
class Company:
    """A private company: value, revenue, a short description and the hexes it blocks.
    ``abilities`` are its special abilities as the source writes them (18xx.games'
    ``{type, …}`` tables: a token it places, a hex bonus, …), for the game's rules."""

    sym: str
    name: str
    value: int
    revenue: int
    description: str | None = None
    blocks: tuple[str, ...] = ()
    min_players: int | None = None
    abilities: tuple[dict[str, Any], ...] = field(default=(), compare=False)

    def abilities_of(self, kind: str) -> list[dict[str, Any]]:
        """The abilities of type ``kind``."""
        return [a for a in self.abilities if a.get("type") == kind]


@dataclass(frozen=True, slots=True)
class GameOption:
    """An optional rule of a game, chosen when a game (or a board) is set up.

    ``name`` is its key (``beginner_game``, as 18xx.games names it), ``title`` and
    ``description`` say what it is. What it changes that tilelay knows (:meth:`Game.with_options`
    applies it): ``add_tiles`` are tiles (name, count) in the manifest only with the option,
    ``remove_tiles`` tiles the option takes out of it; ``hexes`` the hexes of the map it
    changes (``None``: a hex the map with it has not), ``hexes_by_players`` the map by the
    number of players with it (as :attr:`Game.hexes_by_players`; ``None``: the game's);
    ``trains`` (from ``train_data`` and ``phase_data``), ``corporations``, ``companies`` and
    ``market`` what it plays with instead of the game's (``None``: the game's). An option
    whose effect is written in another engine's code that tilelay cannot read has none of
    these and changes nothing here (the game's problems say so where the reader knows).
    """

    name: str
    title: str
    description: str | None = None
    add_tiles: tuple[tuple[str, int], ...] = ()
    remove_tiles: tuple[str, ...] = ()
    hexes: tuple[tuple[str, Tile | None], ...] = ()
    hexes_by_players: dict[int, dict[str, Tile | None]] | None = field(default=None, compare=False)
    trains: TrainManager | None = field(default=None, compare=False)
    train_data: tuple[dict[str, Any], ...] = field(default=(), compare=False)
    phase_data: tuple[dict[str, Any], ...] = field(default=(), compare=False)
    corporations: tuple[Corporation, ...] | None = None
    companies: tuple[Company, ...] | None = None
    market: tuple[tuple[str, ...], ...] | None = None
    #: the numbers of players the option is for (none: any); a game of another number plays
    #: without it (:meth:`Game.for_players`: 1858 Switzerland's robot is for two)
    players: tuple[int, ...] = ()

    def for_players(self, players: int) -> bool:
        """Whether the option is in force in a game of ``players`` players."""
        return not self.players or players in self.players

    @property
    def changes_tiles(self) -> bool:
        """Whether choosing the option changes the manifest."""
        return bool(self.add_tiles or self.remove_tiles)

    @property
    def changes(self) -> tuple[str, ...]:
        """What choosing the option changes here: ``tiles``, ``map``, ``trains``,
        ``corporations``, ``companies``, ``market`` (none: nothing tilelay knows of)."""
        parts = (
            ("tiles", self.changes_tiles),
            ("map", bool(self.hexes) or self.hexes_by_players is not None),
            ("trains", self.trains is not None),
            ("corporations", self.corporations is not None),
            ("companies", self.companies is not None),
            ("market", self.market is not None),
        )
        return tuple(name for name, changed in parts if changed)


@dataclass(frozen=True, slots=True, eq=False)
class Game:
    """A game definition (immutable; compared by identity).

    ``name`` is the short title (``"1889"``), ``title`` the display title (``"Shikoku 1889"``).
    ``hexes`` maps every map coordinate to its preprinted tile (named by the coordinate, with
    its colour and location name). ``manifest`` maps tile names to counts (-1: unlimited);
    ``game_tiles`` holds the game's own tile definitions. ``trains`` is the
    :class:`~tilelay.trains.TrainManager`; ``train_data`` / ``phase_data`` are the raw
    18xx.games-shaped tables it was read from. ``market`` lists the stock market rows.

    ``source`` names where the game was read from and ``format`` in which format (``tilelay``
    for tilelay's own TOML); ``problems`` lists what the reader could not use (each naming its
    file and line). ``upgrade_rules`` are the game's rules for laying tiles
    (:class:`~tilelay.upgrades.UpgradeRules`). ``options`` are the game's optional rules
    (:class:`GameOption`) and ``chosen_options`` those in force in this game
    (:meth:`with_options`); the manifest is the one in force. ``route_rules`` names the rules
    its routes follow (:func:`tilelay.rules.rules_for`; ``None``: found by the game's names).
    ``hexes_by_players`` gives, for a number of players whose map differs, the hexes that
    differ from ``hexes`` (``None``: not on that map): :meth:`for_players` plays them.
    """

    name: str
    title: str
    layout: Layout
    hexes: dict[str, Tile]
    location_names: dict[str, str]
    manifest: dict[str, int]
    game_tiles: dict[str, Tile]
    corporations: tuple[Corporation, ...]
    companies: tuple[Company, ...]
    trains: TrainManager
    train_data: tuple[dict[str, Any], ...]
    phase_data: tuple[dict[str, Any], ...]
    aliases: tuple[str, ...] = ()
    subtitle: str | None = None
    designer: str | None = None
    publisher: str | None = None
    location: str | None = None
    players: tuple[int, int] | None = None
    market: tuple[tuple[str, ...], ...] = ()
    source: str = ""
    letter_is_x: bool = True
    format: str = "tilelay"
    problems: tuple[ReadWarning, ...] = ()
    upgrade_rules: UpgradeRules = DEFAULT_RULES
    options: tuple[GameOption, ...] = ()
    chosen_options: tuple[str, ...] = ()
    route_rules: str | None = None
    hexes_by_players: dict[int, dict[str, Tile | None]] = field(default_factory=dict)
    # (made anew for every game, a copy by ``dataclasses.replace`` too: a game made from
    # another with other hexes must not add them to the other's coordinates)
    _xy: dict[str, tuple[int, int]] = field(default_factory=dict, init=False, repr=False)
    _by_xy: dict[tuple[int, int], str] = field(default_factory=dict, init=False, repr=False)
    _variants: dict[tuple[str, ...], Game] = field(default_factory=dict, init=False, repr=False)

    def __repr__(self) -> str:
        return f"Game(name={self.name!r}, title={self.title!r}, hexes={len(self.hexes)})"

    def __post_init__(self) -> None:
        for coord in self.hexes:
            letter, number = parse_coord(coord)
            xy = (letter, number) if self.letter_is_x else (number, letter)
            self._xy[coord] = xy
            self._by_xy[xy] = coord

    # ----------------------------------------------------------------- options

    def option(self, name: str) -> GameOption:
        """The optional rule ``name``; :class:`NotFoundError` with close names."""
        for opt in self.options:
            if opt.name == name:
                return opt
        raise NotFoundError(
            f"game {self.name} has no option {name!r}"
            + (f" (options: {', '.join(o.name for o in self.options)})" if self.options else ""),
            suggestions=suggest(name, [o.name for o in self.options]),
        )

    def with_options(self, names: Iterable[str]) -> Game:
        """This game with the optional rules ``names`` in force (and no others): the manifest
        without the tiles of options not chosen, with those the chosen ones add, and without
        those they remove; the map with the hexes they change (and their maps by the number
        of players), and their trains, corporations, private companies and market where they
        give them (:class:`GameOption`; where two chosen options change one part, the last
        in name order). The same names give the same game object.

        >>> from tilelay.games import load_game
        >>> game = load_game("1889")
        >>> "Beg6" in game.manifest, game.with_options(["beginner_game"]).manifest["Beg6"]
        (False, 2)
        """
        chosen = tuple(sorted(set(names)))
        for name in chosen:
            self.option(name)
        base = self._base if self.chosen_options else self
        if not chosen:
            return base
        return _with_options(base, chosen)

    def for_players(self, players: int) -> Game:
        """This game as ``players`` players play it: each train whose number depends on the
        players (:attr:`~tilelay.trains.TrainCardType.quantity_by_players`: 1846's 2-trains)
        has that many's, and the map is theirs (:attr:`hexes_by_players`: 1824
        Cisleithania's Budapest an offboard for two); a chosen option that is not for so many
        players (:attr:`GameOption.players`) is not in force; the game itself where nothing
        does (or nothing is given for them).

        >>> from tilelay.games import load_game
        >>> load_game("1889").for_players(4) is load_game("1889")
        True

        The same number gives the same game object (a game is compared by identity).
        """
        # (kept with the game's variants: no option is named "")
        origin = self._variants.get(_PLAYED_FROM)
        if origin is not None:
            return origin.for_players(players)  # (a variant's own map is that many's)
        kept = tuple(n for n in self.chosen_options if self.option(n).for_players(players))
        if kept != self.chosen_options:
            # an option not for so many players is not in force (the engine drops it)
            return self.with_options(kept).for_players(players)
        variant = ("", str(players))
        found = self._variants.get(variant)
        if found is not None:
            return found
        trains = self.trains.for_players(players)
        changed = self.hexes_by_players.get(players)
        if trains is self.trains and not changed:
            return self
        key = str(players)
        data = tuple(
            {**t, "num": t["num"][key]}
            if isinstance(t.get("num"), Mapping) and key in t["num"]
            else t
            for t in self.train_data
        )
        hexes = changed_map(self.hexes, changed) if changed else self.hexes
        made = replace(self, trains=trains, train_data=data, hexes=hexes)
        made._variants[_PLAYED_FROM] = self
        return self._variants.setdefault(variant, made)

    @property
    def _base(self) -> Game:
        return self._variants.get((), self)

    # ------------------------------------------------------------------- tiles

    @property
    def phases(self) -> tuple[Phase, ...]:
        """The phases, in order (from :attr:`trains`)."""
        return self.trains.phases

    def tile(self, name: str, rotation: int = 0) -> Tile:
        """Manifest tile ``name``: the game's own definition first, else the generic catalogue.

        Raises :class:`~tilelay.errors.NotFoundError` with close names when the game has no
        such tile.
        """
        own = self.game_tiles.get(name)
        if own is not None:
            return own.rotated(rotation)
        if name in self.manifest:
            return get_tile(name, rotation)
        raise NotFoundError(
            f"game {self.name} has no tile {name!r}",
            suggestions=suggest(name, [*self.manifest, *self.game_tiles]),
        )

    def manifest_tiles(self) -> list[tuple[Tile, int]]:
        """Every manifest tile with its count (-1: unlimited), in natural name order."""
        return [(self.tile(n), self.manifest[n]) for n in sorted(self.manifest, key=tile_key)]

    def hex_tile(self, coord: str) -> Tile:
        """The preprinted tile at ``coord``; :class:`NotFoundError` with close coordinates."""
        tile = self.hexes.get(coord)
        if tile is None:
            tile = self.hexes.get(coord.strip().upper())
        if tile is None:
            raise NotFoundError(
                f"game {self.name} has no hex {coord!r}",
                suggestions=suggest(coord.upper(), list(self.hexes)),
            )
        return tile

    # -------------------------------------------------------------- geometry

    def coord_xy(self, coord: str) -> tuple[int, int]:
        """The doubled coordinates (col, row) of ``coord`` as in :func:`hexgeo.hex_center`.

        Works for any well-formed coordinate, on the map or not; raises :class:`ValueError`
        for a malformed one.
        """
        xy = self._xy.get(coord)
        if xy is not None:
            return xy
        letter, number = parse_coord(coord)
        return (letter, number) if self.letter_is_x else (number, letter)

    def xy_coord(self, xy: tuple[int, int]) -> str | None:
        """The map coordinate at doubled coordinates ``xy``, or ``None`` off the map."""
        return self._by_xy.get(xy)

    def neighbour(self, coord: str, edge: int) -> str | None:
        """The coordinate across ``edge`` of ``coord``, or ``None`` off the map."""
        x, y = self.coord_xy(coord)
        dx, dy = NEIGHBOUR_OFFSETS[self.layout][edge % 6]
        return self._by_xy.get((x + dx, y + dy))

    def neighbours(self, coord: str) -> dict[int, str]:
        """Edge -> neighbouring map coordinate, for the edges that lead onto the map."""
        out: dict[int, str] = {}
        for edge in range(6):
            n = self.neighbour(coord, edge)
            if n is not None:
                out[edge] = n
        return out

    def columns(self) -> list[tuple[str, int]]:
        """Column labels with their doubled x coordinate, left to right (for map edges)."""
        return self._labels(0)

    def rows(self) -> list[tuple[str, int]]:
        """Row labels with their doubled y coordinate, top to bottom (for map edges)."""
        return self._labels(1)

    def _labels(self, axis: int) -> list[tuple[str, int]]:
        values = sorted({xy[axis] for xy in self._xy.values()})
        lettered = (axis == 0) == self.letter_is_x
        return [(letters(v) if lettered else str(v), v) for v in values]

    def home_hexes(self) -> dict[str, list[str]]:
        """Coordinate -> symbols of the corporations whose home is there."""
        out: dict[str, list[str]] = {}
        for corp in self.corporations:
            if corp.home is not None:
                out.setdefault(corp.home, []).append(corp.sym)
        return out

    def home_city(self, sym: str) -> int | None:
        """The city index of corporation ``sym``'s home: given, or the hex's only city.

        ``None`` when the corporation has no home or its home hex has several cities and the
        definition does not say which (the owner chooses in play).
        """
        corp = self.corporation(sym)
        return None if corp.home is None else self._home_city(corp.home, corp.city)

    def _home_city(self, coord: str, city: int | None) -> int | None:
        """A home's city at ``coord``: ``city`` where given, else the hex's only city (None
        where it has several, or is off the map)."""
        if city is not None:
            return city
        tile = self.hexes.get(coord)
        return 0 if tile is not None and len(tile.cities) == 1 else None

    def home_cities(self, sym: str) -> tuple[tuple[str, int], ...]:
        """Where corporation ``sym`` starts with a home token, as ``(hex, city index)``: its
        home (:meth:`home_city`, where the city is known) and its ``more_homes``
        (a hex of several cities without a city index given left out: its owner chooses in
        play)."""
        corp = self.corporation(sym)
        out: list[tuple[str, int]] = []
        city = self.home_city(sym)
        if corp.home is not None and city is not None:
            out.append((corp.home, city))
        for coord, given in corp.more_homes:
            index = self._home_city(coord, given)
            if index is not None and (coord, index) not in out:
                out.append((coord, index))
        return tuple(out)

    def corporation(self, sym: str) -> Corporation:
        """The corporation ``sym``; :class:`NotFoundError` with close symbols."""
        for corp in self.corporations:
            if corp.sym == sym:
                return corp
        raise NotFoundError(
            f"game {self.name} has no corporation {sym!r}",
            suggestions=suggest(sym, [c.sym for c in self.corporations]),
        )


#: The key of :attr:`Game._variants` naming the game a variant for a number of players was
#: made from (:meth:`Game.for_players`: a variant's own variants are the game's).
_PLAYED_FROM = ("", "")


def _with_options(base: Game, chosen: tuple[str, ...]) -> Game:
    game = base._variants.get(chosen)
    if game is not None:
        return game
    options = [base.option(name) for name in chosen]
    manifest = dict(base.manifest)
    for opt in options:
        for tile, count in opt.add_tiles:
            manifest[tile] = count
    for opt in options:
        for tile in opt.remove_tiles:
            manifest.pop(tile, None)
    # (what the options play with instead of the game's: where two change one part, the
    # last in name order)
    hexes = base.hexes
    by_players = base.hexes_by_players
    trains, train_data, phase_data = base.trains, base.train_data, base.phase_data
    corporations, companies, market = base.corporations, base.companies, base.market
    for opt in options:
        if opt.hexes:
            hexes = changed_map(hexes, dict(opt.hexes))
        if opt.hexes_by_players is not None:
            by_players = opt.hexes_by_players
        if opt.trains is not None:
            trains, train_data, phase_data = opt.trains, opt.train_data, opt.phase_data
        corporations = corporations if opt.corporations is None else opt.corporations
        companies = companies if opt.companies is None else opt.companies
        market = market if opt.market is None else opt.market
    game = replace(
        base,
        manifest=manifest,
        chosen_options=chosen,
        hexes=hexes,
        hexes_by_players=by_players,
        trains=trains,
        train_data=train_data,
        phase_data=phase_data,
        corporations=corporations,
        companies=companies,
        market=market,
    )
    game._variants[()] = base
    return base._variants.setdefault(chosen, game)


_T = TypeVar("_T")


def changed_map(hexes: Mapping[str, _T], changed: Mapping[str, _T | None]) -> dict[str, _T]:
    """``hexes`` (a map: coordinate -> hex) with ``changed`` (the hexes that differ, None
    where the map has none: a map for some players, or an option's)."""
    out = {c: h for c, h in hexes.items() if changed.get(c, h) is not None}
    out.update((c, h) for c, h in changed.items() if h is not None)
    return out


def split_changes(changed: Mapping[str, _T | None]) -> tuple[dict[str, _T], list[str]]:
    """The hexes ``changed`` gives, and those it takes away (None)."""
    given = {c: h for c, h in changed.items() if h is not None}
    return given, [c for c, h in changed.items() if h is None]


def tile_key(name: str) -> tuple[object, ...]:
    """Sort key of tile names: numbers in numeric order first, then names with their digits
    compared as numbers (``X2`` before ``X10``)."""
    return (0, *natural_key(name)) if name[:1].isdigit() else (1, *_mixed_key(name))


def _number(digits: str) -> int:
    """ASCII ``digits`` as a number, any run past 18 digits as one larger than every other."""
    return int(digits) if len(digits) <= 18 else 10**18


def _mixed_key(name: str) -> list[tuple[int, int, str]]:
    return [
        (0, _number(p), "") if p[0] in "0123456789" else (1, 0, p)
        for p in re.findall(r"[0-9]+|[^0-9]+", name)
    ]


def coord_key(coord: str) -> tuple[str, int, str]:
    """Sort key of coordinates: by letters, then by number (``A2`` before ``A10``)."""
    letters_part = "".join(c for c in coord if c.isalpha())
    digits = "".join(c for c in coord if c in "0123456789")
    return (letters_part, _number(digits) if digits else 0, coord)
