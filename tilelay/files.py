"""Reading and writing the files users name, with one kind of error for every way a path fails.

A folder given as a file, a file that is not there, a folder that cannot be written, a path
through something that is not a folder, a file too large: each is a
:class:`~tilelay.errors.TilelayError` naming the path and what was expected, never an
``OSError`` with a traceback.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Collection
from pathlib import Path

from tilelay.errors import TilelayError

__all__ = [
    "MAX_INPUT",
    "check_suffix",
    "looks_like_path",
    "path_text",
    "read_bytes",
    "read_text",
    "write_bytes",
    "write_text",
]

#: The largest input file read (bytes); each reader may set a lower limit.
MAX_INPUT = 64 * 1024 * 1024

_REASONS = {
    errno.ENOENT: "no such file or folder",
    errno.EISDIR: "it is a folder, not a file",
    errno.ENOTDIR: "a part of the path is not a folder",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EROFS: "the file system is read-only",
    errno.ENOSPC: "no space left on the device",
    errno.ENAMETOOLONG: "the name is too long",
    errno.ELOOP: "too many symbolic links",
}


def _reason(err: OSError) -> str:
    return _REASONS.get(err.errno or 0, err.strerror or type(err).__name__)


def path_text(path: str | Path) -> str:
    """``path`` as a message shows it: as it is, or quoted with escapes where it holds what
    no terminal can print (a lone surrogate from an undecodable name)."""
    text = str(path)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return repr(text)
    return text


#: The suffixes of the files tilelay reads where a name may be given instead.
_FILE_SUFFIXES = frozenset({".xml", ".json", ".toml", ".txt", ".rb"})


def looks_like_path(text: str) -> bool:
    """Whether ``text``, given where a name or a file may be, means a file: it holds a
    folder separator or ends in a suffix of the files tilelay reads (and is no tile
    string)."""
    if "=" in text:
        return False
    return "/" in text or "\\" in text or Path(text).suffix.lower() in _FILE_SUFFIXES


def read_bytes(
    path: str | Path,
    *,
    limit: int = MAX_INPUT,
    what: str = "file",
    error: type[TilelayError] = TilelayError,
) -> bytes:
    """The bytes of the file at ``path``, at most ``limit`` of them; ``error`` naming the
    path and the reason when it cannot be read (a folder, missing, no permission, too
    large)."""
    p = Path(path)
    if "\x00" in str(p):
        raise error(f"cannot read {what}: a file name holds no NUL", source=repr(str(p)))
    if p.is_dir():
        raise error(f"cannot read {what}: it is a folder, not a file", source=str(p))
    try:
        with p.open("rb") as f:
            data = f.read(limit + 1)
    except OSError as err:
        raise error(f"cannot read {what}: {_reason(err)}", source=str(p)) from None
    except UnicodeEncodeError:  # a name no file system can hold (a lone surrogate)
        raise error(f"cannot read {what}: not a valid file name", source=repr(str(p))) from None
    if len(data) > limit:
        raise error(f"the {what} is larger than {limit:,} bytes, the most read", source=str(p))
    return data


def read_text(
    path: str | Path,
    *,
    limit: int = MAX_INPUT,
    what: str = "file",
    error: type[TilelayError] = TilelayError,
) -> str:
    """The UTF-8 text of the file at ``path`` (a byte order mark allowed); as
    :func:`read_bytes`, and ``error`` for bytes that are not UTF-8."""
    data = read_bytes(path, limit=limit, what=what, error=error)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise error(
            f"not UTF-8 text: byte {err.start + 1} is {data[err.start]:#04x}",
            source=str(path),
            line=line,
        ) from None


def check_suffix(path: str | Path, suffixes: Collection[str], what: str) -> str:
    """The extension of ``path`` (lower case) when it is one of ``suffixes``; else a
    :class:`~tilelay.errors.TilelayError` saying which are expected for ``what``."""
    ext = Path(path).suffix.lower()
    if ext not in suffixes:
        shown = f"extension {ext!r}" if ext else "no extension"
        raise TilelayError(
            f"cannot write {what} to {str(path)!r} ({shown}): expected a file name ending in "
            + ", ".join(sorted(suffixes))
        )
    return ext


def write_bytes(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path``; a :class:`~tilelay.errors.TilelayError` naming the path
    when the folder is missing or not writable, or the path is a folder."""
    target = Path(path)
    folder = target.parent
    if "\x00" in str(path):
        raise TilelayError(f"cannot write {str(path)!r}: a file name holds no NUL")
    if target.is_dir() or str(path).endswith(("/", os.sep)):
        raise TilelayError(f"cannot write {str(path)!r}: it names a folder, not a file")
    if not folder.is_dir():
        what = "is a file, not a folder" if folder.exists() else "does not exist"
        raise TilelayError(f"cannot write {str(target)!r}: the folder {str(folder)!r} {what}")
    try:
        target.write_bytes(data)
    except OSError as err:
        raise TilelayError(f"cannot write {str(target)!r}: {_reason(err)}") from None
    except UnicodeEncodeError:  # a name no file system can hold (a lone surrogate)
        raise TilelayError(f"cannot write {str(path)!r}: not a valid file name") from None


def write_text(path: str | Path, text: str) -> None:
    """Write ``text`` as UTF-8 to ``path`` (see :func:`write_bytes`)."""
    write_bytes(path, text.encode("utf-8"))
