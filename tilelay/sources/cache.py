"""The on-disk cache of games read from other engines' sources.

A source (a path of one format) is keyed by the SHA-256 of tilelay's version, the code that
reads games (the modules of ``tilelay`` it is made of, and its data: a game's upgrade rules
come from ``tilelay/data``), its format, and the relative names and
contents of its files: any change to a file (or to a reader) gives a new key, so a cache entry
never describes other sources. For each key the cache keeps the listing of the games (their
names) and each game once read (pickled, one file per game).

The cache lives in ``$TILELAY_CACHE``, else ``$XDG_CACHE_HOME/tilelay``, else
``~/.cache/tilelay``. A cache that cannot be written is not an error: games are then read from
their sources each time. Entries written by this module are the only ones it reads back.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import pickle
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from tilelay.errors import ReadWarning
from tilelay.games import Game

__all__ = ["SourceCache", "cache_dir"]

_VERSION = "8"  # bump when what is cached changes shape


def cache_dir() -> Path:
    """The folder of the cache (see the module docstring)."""
    explicit = os.environ.get("TILELAY_CACHE")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "tilelay"


def _code_files() -> list[Path]:
    """tilelay's own modules and data files (its upgrade rules, tiles, known differences),
    which make what a game read is."""
    package = Path(__file__).resolve().parents[1]
    found = [*package.rglob("*.py"), *(p for p in (package / "data").rglob("*") if p.is_file())]
    return sorted(found)


@functools.cache
def _code_digest() -> bytes:
    """A digest of tilelay's own modules and data (:func:`_code_files`): a reader fixed, or
    a game's rules changed in tilelay's data, is a new key, even in a checkout whose version
    number has not changed."""
    digest = hashlib.sha256()
    package = Path(__file__).resolve().parents[1]
    for path in _code_files():
        digest.update(str(path.relative_to(package)).encode() + b"\0" + path.read_bytes())
    return digest.digest()


def _key(fmt: str, root: Path, files: list[Path]) -> str:
    from tilelay import __version__

    digest = hashlib.sha256(f"{_VERSION}\0{__version__}\0{fmt}\0".encode())
    digest.update(_code_digest())
    # both sides resolved: through a symbolic link the files a reader lists (resolved) must
    # still be named relative to the source, or one game's folder and the whole checkout
    # around it (the same files, named the same) would share a key
    root = root.resolve()
    for path in files:
        try:
            name = str(path.resolve().relative_to(root))
        except ValueError:
            name = str(path.resolve())
        digest.update(name.encode("utf-8", "surrogateescape") + b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()[:32]


#: What stands for the source's folder in what the cache keeps.
_ROOT = "\x00root"


class SourceCache:
    """The cache entries of one source."""

    def __init__(self, fmt: str, root: Path, files: list[Path]) -> None:
        self.folder = cache_dir() / _key(fmt, root, files)
        #: the source as this run names it: the entries are shared by every copy and every
        #: spelling of the same files, so what they say of a file is kept relative to it
        self.root = str(root)

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

    def _listing(self) -> dict[str, Any] | None:
        data = self._read("listing.json")
        if data is None:
            return None
        try:
            raw = json.loads(data)
        except ValueError:
            return None
        return raw if isinstance(raw, dict) else None

    def listing(self) -> list[tuple[str, list[str]]] | None:
        """The games of the source as ``(key, names)``, if cached."""
        raw = self._listing()
        if raw is None:
            return None
        try:
            return [(str(k), [str(n) for n in names]) for k, names in raw["games"]]
        except (KeyError, ValueError, TypeError):
            return None

    def skipped(self) -> list[ReadWarning]:
        """The games of the source that could not be read, as cached with the listing."""
        raw = self._listing() or {}
        out: list[ReadWarning] = []
        for item in raw.get("skipped", []):
            if isinstance(item, list) and len(item) == 2:
                source = str(item[1])
                if source.startswith(_ROOT):
                    source = self.root + source[len(_ROOT) :]
                out.append(ReadWarning(str(item[0]), source))
        return out

    def store_listing(
        self, listing: list[tuple[str, list[str]]], *, skipped: Iterable[ReadWarning] = ()
    ) -> None:
        """Keep the listing (and what could not be read)."""
        data = {
            "games": listing,
            "skipped": [[w.message, self._relative(w.source or "")] for w in skipped],
        }
        self._write("listing.json", json.dumps(data).encode())

    def _relative(self, source: str) -> str:
        """``source`` with this run's name of the source's folder as :data:`_ROOT`."""
        if source == self.root or source.startswith(self.root + os.sep):
            return _ROOT + source[len(self.root) :]
        return source

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
