"""The on-disk cache of games read from other engines' sources.

A source (a path of one format) is keyed by the SHA-256 of tilelay's version, its format, and
the relative names and contents of its files: any change to a file (or to tilelay) gives a new
key, so a cache entry never describes other sources. For each key the cache keeps the listing
of the games (their names) and each game once read (pickled, one file per game).

The cache lives in ``$TILELAY_CACHE``, else ``$XDG_CACHE_HOME/tilelay``, else
``~/.cache/tilelay``. A cache that cannot be written is not an error: games are then read from
their sources each time. Entries written by this module are the only ones it reads back.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import tempfile
from pathlib import Path

from tilelay.games import Game

__all__ = ["SourceCache", "cache_dir"]

_VERSION = "2"  # bump when what is cached changes shape


def _shape() -> str:
    """The fields of the classes a cached game is made of: a change of the model (a new
    field) makes older entries stale by itself."""
    from dataclasses import fields

    from tilelay.games.model import Company, Corporation
    from tilelay.tile import Node, Path, Tile
    from tilelay.trains import Phase, StopAllowance, TrainCardType, TrainManager, TrainType

    classes: tuple[type, ...] = (Game, Company, Corporation, Tile, Node, Path, TrainType)
    classes += (StopAllowance, TrainCardType, TrainManager, Phase)
    return ";".join(f"{c.__name__}:{','.join(f.name for f in fields(c))}" for c in classes)


def cache_dir() -> Path:
    """The folder of the cache (see the module docstring)."""
    explicit = os.environ.get("TILELAY_CACHE")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "tilelay"


def _key(fmt: str, root: Path, files: list[Path]) -> str:
    from tilelay import __version__

    digest = hashlib.sha256(f"{_VERSION}\0{__version__}\0{_shape()}\0{fmt}\0".encode())
    for path in files:
        try:
            name = str(path.relative_to(root))
        except ValueError:
            name = str(path)
        digest.update(name.encode("utf-8", "surrogateescape") + b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()[:32]


class SourceCache:
    """The cache entries of one source."""

    def __init__(self, fmt: str, root: Path, files: list[Path]) -> None:
        self.folder = cache_dir() / _key(fmt, root, files)

    def _read(self, name: str) -> bytes | None:
        try:
            return (self.folder / name).read_bytes()
        except OSError:
            return None

    def _write(self, name: str, data: bytes) -> None:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=".tmp-")
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.replace(tmp, self.folder / name)
        except OSError:
            pass  # an unwritable cache only costs time

    def listing(self) -> list[tuple[str, list[str]]] | None:
        """The games of the source as ``(key, names)``, if cached."""
        data = self._read("listing.json")
        if data is None:
            return None
        try:
            raw = json.loads(data)
            return [(str(k), [str(n) for n in names]) for k, names in raw]
        except (ValueError, TypeError):
            return None

    def store_listing(self, listing: list[tuple[str, list[str]]]) -> None:
        """Keep the listing."""
        self._write("listing.json", json.dumps(listing).encode())

    def _game_file(self, key: str) -> str:
        return "game-" + hashlib.sha256(key.encode()).hexdigest()[:24] + ".pickle"

    def game(self, key: str) -> Game | None:
        """The game ``key`` as read before, if cached."""
        data = self._read(self._game_file(key))
        if data is None:
            return None
        try:
            game = pickle.loads(data)
        except Exception:
            return None  # a damaged entry: read the sources again
        return game if isinstance(game, Game) else None

    def store_game(self, key: str, game: Game) -> None:
        """Keep a game once read."""
        self._write(self._game_file(key), pickle.dumps(game, protocol=pickle.HIGHEST_PROTOCOL))
