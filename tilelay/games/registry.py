"""The games tilelay knows: the built-in ones, and those of sources the user points it at.

Each game is a :class:`GameEntry`: its names (title, display title, aliases), where it comes
from and in which format, and how to load it; a game is loaded the first time it is asked
for. Look-ups are forgiving: case, ``_``, ``-``, spaces, ``:`` and ``&`` are ignored, and
titles, display titles, aliases and file names all work; :func:`find_games` also matches
parts of names and close misspellings (the seeds' "fuzzy matched" titles).

>>> load_game("shikoku 1889").name
'1889'
>>> [g.name for g in find_games("chesa")]
['18Chesapeake']

When two sources have a game of the same name, the first registered keeps the name and the
clash is listed in :func:`registry_warnings`; every game also answers to ``TITLE@FORMAT``
(``1830@rails``), so each source's game stays reachable.
"""

from __future__ import annotations

import difflib
import threading
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib import resources

from tilelay import catalogue
from tilelay.errors import GameDataError, NotFoundError, ReadWarning
from tilelay.games.model import Game, normalise_name
from tilelay.games.toml import read_game_toml
from tilelay.tile import Tile

__all__ = [
    "GameEntry",
    "add_entries",
    "add_warnings",
    "entries",
    "find_games",
    "game_names",
    "get_tile",
    "load_game",
    "reference",
    "registry_warnings",
    "reset",
]


@dataclass(eq=False)
class GameEntry:
    """A game tilelay knows, loaded on first use.

    ``names`` are every name it answers to (title first); ``format`` is the source format
    (``tilelay`` for the built-in games' own TOML); ``loader`` reads the game.
    """

    name: str
    title: str
    names: tuple[str, ...]
    source: str
    format: str
    loader: Callable[[], Game] = field(repr=False)
    _game: Game | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def qualified_name(self) -> str:
        """``TITLE@FORMAT``: a name of this game that no other source takes."""
        return f"{self.name}@{self.format}"

    def load(self) -> Game:
        """The game (read once, then kept)."""
        with self._lock:
            if self._game is None:
                self._game = self.loader()
            return self._game


class _Registry:
    def __init__(self) -> None:
        self.entries: list[GameEntry] = []
        self.index: dict[str, GameEntry] = {}
        self.warnings: list[ReadWarning] = []

    def add(self, entry: GameEntry, *, strict: bool) -> None:
        keys = {normalise_name(n) for n in entry.names} - {""}
        title = normalise_name(entry.name)
        taken: list[str] = []
        for key in sorted(keys):
            other = self.index.get(key)
            if other is not None and other is not entry:
                if strict:
                    raise GameDataError(
                        f"game name {key!r} is used by two games", source=entry.source
                    )
                if key == title and key != normalise_name(other.name):
                    # a game's own title beats another game's display title or alias
                    # (18xx.games: '18 Los Angeles' is one game's title, another's display)
                    self.index[key] = entry
                    self.warnings.append(
                        ReadWarning(
                            f"{other.name} ({other.format}) no longer answers to {key!r}: "
                            f"it is the title of {entry.name}",
                            other.source,
                        )
                    )
                    continue
                taken.append(f"{key!r} ({other.name}, {other.format})")
                continue
            self.index[key] = entry
        # every game also answers to TITLE@FORMAT, so a second source of a title is reachable
        self.index.setdefault(normalise_name(entry.qualified_name), entry)
        if taken:
            self.warnings.append(
                ReadWarning(
                    f"{entry.name} ({entry.format}): names already taken by earlier sources, "
                    f"which keep them: {', '.join(taken)}; it answers to "
                    f"{entry.qualified_name}",
                    entry.source,
                )
            )
        self.entries.append(entry)


_REGISTRY: _Registry | None = None
_REGISTRY_LOCK = threading.Lock()


def _builtin_entries() -> list[GameEntry]:
    folder = resources.files("tilelay") / "games" / "data"
    out: list[GameEntry] = []
    for item in sorted(folder.iterdir(), key=lambda e: e.name):
        if not item.name.endswith(".toml"):
            continue
        stem = item.name[: -len(".toml")]
        source = f"tilelay/games/data/{item.name}"
        text = item.read_text(encoding="utf-8")
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            data = {}  # reported in full when the game is loaded
        title = str(data.get("title", stem))
        names = [title, str(data.get("display_title", "")), stem]
        names += [str(a) for a in data.get("aliases", [])]

        def loader(text: str = text, source: str = source) -> Game:
            return read_game_toml(text, source)

        out.append(
            GameEntry(
                title,
                str(data.get("display_title", title)),
                tuple(n for n in names if n),
                source,
                "tilelay",
                loader,
            )
        )
    return out


def _registry() -> _Registry:
    global _REGISTRY
    with _REGISTRY_LOCK:
        if _REGISTRY is None:
            registry = _Registry()
            for entry in _builtin_entries():
                registry.add(entry, strict=True)
            _REGISTRY = registry
        return _REGISTRY


def add_entries(new: Iterable[GameEntry]) -> None:
    """Make more games known (after the built-in ones); a name already taken stays with the
    game that has it, and the clash is listed in :func:`registry_warnings`."""
    registry = _registry()
    for entry in new:
        registry.add(entry, strict=False)


def reset() -> None:
    """Forget the games added from sources (the built-in games stay known)."""
    global _REGISTRY
    with _REGISTRY_LOCK:
        _REGISTRY = None


def entries() -> list[GameEntry]:
    """Every game known, in the order registered (the built-in games first)."""
    return list(_registry().entries)


def add_warnings(warnings: Iterable[ReadWarning]) -> None:
    """Note things the sources of games hold but that could not be made games."""
    _registry().warnings.extend(warnings)


def registry_warnings() -> list[ReadWarning]:
    """Name clashes between games of different sources."""
    return list(_registry().warnings)


def reference(entry: GameEntry) -> str:
    """The shortest name that finds ``entry``: its title, or ``TITLE@FORMAT`` when an earlier
    source keeps the title."""
    if _registry().index.get(normalise_name(entry.name)) is entry:
        return entry.name
    return entry.qualified_name


def game_names() -> list[str]:
    """The short titles of every game known, sorted (e.g. ``["1830", "1889", ...]``)."""
    return sorted((e.name for e in _registry().entries), key=str.lower)


def _entry(name: str) -> GameEntry | None:
    return _registry().index.get(normalise_name(name))


def load_game(name: str) -> Game:
    """The game called ``name`` (title, display title, alias or file name).

    Case, ``_``, ``-`` and spaces are ignored. Raises :class:`NotFoundError` with close names.
    """
    entry = _entry(name)
    if entry is None:
        index = _registry().index
        close = difflib.get_close_matches(normalise_name(name), list(index), n=5, cutoff=0.5)
        names = sorted({index[c].name for c in close})
        known = game_names()
        # (a few games are named; many, as with an engine's 130, only counted)
        listed = ", ".join(known) if len(known) <= _LISTED else f"{len(known)} games are known"
        raise NotFoundError(f"no game named {name!r} ({listed})", suggestions=names)
    return entry.load()


def find_games(pattern: str) -> list[Game]:
    """Games matching ``pattern``: an exact name, else a part of names, else close names.

    Names are compared as :func:`load_game` compares them. Returns games in name order; an
    empty list when nothing is close.
    """
    key = normalise_name(pattern)
    index = _registry().index
    if key in index:
        return [index[key].load()]
    found = {id(e): e for name, e in index.items() if key and key in name}
    if not found:
        close = difflib.get_close_matches(key, list(index), n=5, cutoff=0.6)
        found = {id(index[c]): index[c] for c in close}
    return sorted((e.load() for e in found.values()), key=lambda g: g.name.lower())


#: The most games an unknown game's message lists by name.
_LISTED = 12


def get_tile(name: str, rotation: int = 0) -> Tile:
    """A tile by name, turned ``rotation`` steps clockwise: a generic catalogue tile
    (``"57"``), or a game's own tile by its game-qualified name ``GAME:NAME``.

    >>> get_tile("18Chesapeake:X1").label
    'DC'

    Raises :class:`NotFoundError` with close names when there is no such game or tile.
    """
    if not isinstance(name, str):
        raise NotFoundError(f"a tile's name is text (e.g. '57'), not {type(name).__name__}")
    if ":" in name:
        game_name, _, tile_name = name.partition(":")
        return load_game(game_name).tile(tile_name).rotated(rotation)
    return catalogue.get_tile(name, rotation)
