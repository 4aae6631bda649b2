"""Saved documents (boards now, Carcassonne games later) in an embedded SQLite database.

A :class:`Store` keeps JSON documents of any ``kind`` (``board``, ``record``, …) with a name
and a ``version``. Every change is one transaction; the database runs in WAL mode with full
synchronous commits, so a save that has returned survives the process being killed (and the
machine losing power, as far as the disk keeps its promises).

Saves are versioned (optimistic concurrency): :meth:`Store.save` names the version it
changes, and when another save came first it raises :class:`Conflict` carrying the document
as it now is; the refused document is kept as a revision (:meth:`Store.revisions`), so two
tabs editing one board never overwrite each other silently and nothing is lost. Each save
also keeps the document it replaces as a revision (the last :data:`KEEP_REVISIONS`).

An id is never given twice, not even the highest after its document is deleted, so a link to
a deleted board finds nothing rather than another board. A file made by an earlier tilelay,
whose tables gave such ids again, has its tables rebuilt when a store opens it, every row
kept with its id.

>>> import tempfile, os
>>> store = Store(os.path.join(tempfile.mkdtemp(), "t.sqlite3"))
>>> doc = store.create("board", "first try", {"game": "1889"})
>>> doc.version
1
>>> store.save(doc.id, {"game": "1889", "actions": ["K8=57-1"]}, version=1).version
2
>>> try:
...     store.save(doc.id, {"game": "1830"}, version=1)
... except Conflict as err:
...     err.current.version, err.kept
(2, 2)

Where the database lives: :func:`default_path` (the user's data directory), or the
:data:`ENVIRONMENT_VARIABLE` ``TILELAY_DB``, or a path given to the store.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tilelay.errors import NotFoundError, TilelayError
from tilelay.limits import text_problem

__all__ = [
    "ENVIRONMENT_VARIABLE",
    "KEEP_REVISIONS",
    "MAX_DOCUMENT_BYTES",
    "MAX_NAME",
    "Conflict",
    "Document",
    "Revision",
    "Store",
    "StoreError",
    "default_path",
    "id_text",
]

#: The environment variable naming the database file.
ENVIRONMENT_VARIABLE = "TILELAY_DB"
#: The largest document kept (bytes of JSON).
MAX_DOCUMENT_BYTES = 8 * 1024 * 1024
#: The longest name of a document.
MAX_NAME = 200
#: How many earlier versions of a document are kept.
KEEP_REVISIONS = 20

#: The tables, each by the statement that makes it under a name (``{name}``: a rebuild makes
#: the new table under another name first) and its columns. Ids are ``AUTOINCREMENT``: SQLite
#: then never gives an id twice, even after the row holding the highest one is deleted (an
#: old link to a deleted board must find nothing, not another board).
_TABLES: dict[str, tuple[str, str]] = {
    "documents": (
        """CREATE TABLE IF NOT EXISTS {name} (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    version INTEGER NOT NULL CHECK (version >= 1),
    created REAL NOT NULL,
    updated REAL NOT NULL,
    body TEXT NOT NULL
)""",
        "id, kind, name, version, created, updated, body",
    ),
    "revisions": (
        """CREATE TABLE IF NOT EXISTS {name} (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    document INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    reason TEXT NOT NULL CHECK (reason IN ('replaced', 'conflict')),
    created REAL NOT NULL,
    body TEXT NOT NULL
)""",
        "id, document, version, reason, created, body",
    ),
}
_INDEXES = (
    "CREATE INDEX IF NOT EXISTS documents_kind ON documents (kind, updated)",
    "CREATE INDEX IF NOT EXISTS revisions_document ON revisions (document, id)",
)


class StoreError(TilelayError):
    """The database cannot be opened or written, or a document is refused (too large, not
    JSON data, a bad name)."""


@dataclass(frozen=True, slots=True)
class Document:
    """A saved document: ``id``, ``kind``, ``name``, ``version`` (1 when created, one more
    at each save), times (seconds since the epoch) and the JSON ``body``."""

    id: int
    kind: str
    name: str
    version: int
    created: float
    updated: float
    body: Any

    def summary(self) -> dict[str, Any]:
        """The document without its body, as JSON data."""
        return {
            "id": self.id,
            "kind": self.kind,
            "name": self.name,
            "version": self.version,
            "created": self.created,
            "updated": self.updated,
        }


@dataclass(frozen=True, slots=True)
class Revision:
    """An earlier or refused body of a document: the version it was (``replaced``) or was
    based on (``conflict``)."""

    id: int
    document: int
    version: int
    reason: str
    created: float
    body: Any


class Conflict(StoreError):
    """A save based on a version that is no longer the current one. ``current`` is the
    document as it is; ``kept`` the id of the revision holding the refused body."""

    def __init__(self, current: Document, based_on: int, kept: int) -> None:
        super().__init__(
            f"{current.kind} {current.id} was saved elsewhere: it is at version "
            f"{current.version}, this save was based on version {based_on} (kept as "
            f"revision {kept})"
        )
        self.current = current
        self.based_on = based_on
        self.kept = kept


def default_path() -> Path:
    """The database file: ``TILELAY_DB`` when set, else ``tilelay.sqlite3`` in the user's
    data directory (``$XDG_DATA_HOME/tilelay`` or ``~/.local/share/tilelay``; on macOS
    ``~/Library/Application Support/tilelay``; on Windows ``%APPDATA%\\tilelay``)."""
    env = os.environ.get(ENVIRONMENT_VARIABLE, "").strip()
    if env:
        return Path(env).expanduser()
    home = Path.home()
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or home / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share")
    return base / "tilelay" / "tilelay.sqlite3"


def _dump(body: object) -> str:
    try:
        text = json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as err:
        raise StoreError(f"a document must be JSON data: {err}") from None
    if len(text.encode("utf-8")) > MAX_DOCUMENT_BYTES:
        raise StoreError(f"the document is too large: at most {MAX_DOCUMENT_BYTES // 2**20} MB")
    return text


#: Characters that turn the direction of the text after them (a name showing other than
#: it reads).
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _name(name: str) -> str:
    clean = " ".join(str(name).split())
    if not clean:
        raise StoreError("a name must not be empty")
    if len(clean) > MAX_NAME:
        raise StoreError(f"a name has at most {MAX_NAME} characters, not {len(clean)}")
    problem = text_problem(clean, MAX_NAME)
    if problem is None and not _BIDI.isdisjoint(clean):
        turn = next(ch for ch in clean if ch in _BIDI)
        problem = f"holds the direction control U+{ord(turn):04X}"
    if problem is not None:
        raise StoreError(f"the name {problem}")
    return clean


def id_text(doc_id: int) -> str:
    """A document id as a message names it (a long one by its length)."""
    digits = str(doc_id)
    return digits if len(digits) <= 40 else f"with an id of {len(digits)} digits"


def _id(doc_id: int, kind: str | None = None) -> int:
    """``doc_id`` when SQLite can hold it as a row id; else :class:`NotFoundError` (no
    document has it)."""
    if not 0 < doc_id < 2**63:
        raise NotFoundError(f"no {kind or 'document'} {id_text(doc_id)}")
    return doc_id


def _reusing_ids(db: sqlite3.Connection) -> list[str]:
    """The tables made without ``AUTOINCREMENT`` (by earlier tilelay): SQLite gives such a
    table's next row the highest id plus one, so deleting the row with the highest id gives
    its id again."""
    out = []
    for table in _TABLES:
        row = db.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
        ).fetchone()
        if row is not None and "AUTOINCREMENT" not in str(row[0]).upper():
            out.append(table)
    return out


def _rebuild(db: sqlite3.Connection, table: str) -> None:
    """Make ``table`` anew with ``AUTOINCREMENT``, every row copied with its id (so links
    stay true, and ``sqlite_sequence`` starts past the highest id). In the caller's
    transaction, with foreign keys off: on any error nothing has changed."""
    create, columns = _TABLES[table]
    new = f"{table}_rebuilt"
    db.execute(create.format(name=new))
    db.execute(f"INSERT INTO {new} ({columns}) SELECT {columns} FROM {table}")
    db.execute(f"DROP TABLE {table}")
    db.execute(f"ALTER TABLE {new} RENAME TO {table}")


def _kind(kind: str) -> str:
    if not kind or len(kind) > 40 or not kind.replace("_", "").isalnum():
        raise StoreError(f"bad document kind {kind[:40]!r}")
    return kind


class Store:
    """The documents in one SQLite database file (created with its folder when missing).

    Safe to use from several threads (each has its own connection) and several processes
    (SQLite's locking; a writer waits up to ``timeout`` seconds for another)."""

    def __init__(self, path: str | Path | None = None, *, timeout: float = 10.0) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.timeout = timeout
        self._local = threading.local()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise StoreError(
                f"cannot create the database folder: {err.strerror}", source=str(self.path)
            ) from None
        try:
            self._prepare()
        except sqlite3.Error as err:
            raise StoreError(f"cannot use the database: {err}", source=str(self.path)) from None

    def __repr__(self) -> str:
        return f"Store({str(self.path)!r})"

    # ---------------------------------------------------------------- connections

    def _connect(self) -> sqlite3.Connection:
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            try:
                db = sqlite3.connect(
                    self.path, timeout=self.timeout, isolation_level=None, check_same_thread=True
                )
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=FULL")
                db.execute("PRAGMA foreign_keys=ON")
            except sqlite3.Error as err:
                raise StoreError(
                    f"cannot open the database: {err}", source=str(self.path)
                ) from None
            self._local.db = db
        return db

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (BEGIN IMMEDIATE … COMMIT; rolled back on any error)."""
        db = self._connect()
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as err:
            raise StoreError(f"cannot write the database: {err}", source=str(self.path)) from None
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        try:
            db.execute("COMMIT")
        except sqlite3.Error as err:
            db.execute("ROLLBACK")
            raise StoreError(f"cannot write the database: {err}", source=str(self.path)) from None

    # ---------------------------------------------------------------- schema

    def _prepare(self) -> None:
        """Make the tables and indexes a new file lacks, and rebuild the tables of a file an
        older tilelay made (:meth:`_rebuild`)."""
        db = self._connect()
        for table, (create, _) in _TABLES.items():
            db.execute(create.format(name=table))
        for index in _INDEXES:
            db.execute(index)
        if not _reusing_ids(db):
            return
        # Rebuilding drops the documents table: with foreign keys on, that would delete every
        # revision (ON DELETE CASCADE). SQLite ignores this pragma inside a transaction, so it
        # is set before the rebuild's and set back after.
        db.execute("PRAGMA foreign_keys=OFF")
        try:
            with self._write():
                # (again, in the transaction: another process may have rebuilt them meanwhile)
                for table in _reusing_ids(db):
                    _rebuild(db, table)
                for index in _INDEXES:  # (dropped with their tables)
                    db.execute(index)
        finally:
            db.execute("PRAGMA foreign_keys=ON")

    def close(self) -> None:
        """Close this thread's connection (others close when their threads end)."""
        db = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None

    # ---------------------------------------------------------------- reading

    @staticmethod
    def _document(row: tuple[Any, ...]) -> Document:
        return Document(row[0], row[1], row[2], row[3], row[4], row[5], json.loads(row[6]))

    def get(self, doc_id: int, kind: str | None = None) -> Document:
        """Document ``doc_id`` (of ``kind`` when given); :class:`NotFoundError` if none."""
        doc_id = _id(doc_id, kind)
        row = (
            self._connect()
            .execute(
                "SELECT id, kind, name, version, created, updated, body FROM documents"
                " WHERE id = ?",
                (doc_id,),
            )
            .fetchone()
        )
        if row is None or (kind is not None and row[1] != kind):
            raise NotFoundError(f"no {kind or 'document'} {doc_id}")
        return self._document(row)

    def documents(self, kind: str | None = None, *, fields: Sequence[str] = ()) -> list[Document]:
        """Every document (of ``kind``), the most recently saved first, without their bodies:
        ``body`` is None, or with ``fields`` a dict of those top-level fields of the body
        (numbers and strings as they are, lists and objects as JSON text)."""
        for key in fields:
            if not key.isidentifier():
                raise StoreError(f"bad field name {key[:40]!r}")
        extract = "".join(f", json_extract(body, '$.{key}')" for key in fields)
        sql = f"SELECT id, kind, name, version, created, updated{extract} FROM documents"
        args: tuple[Any, ...] = ()
        if kind is not None:
            sql += " WHERE kind = ?"
            args = (kind,)
        sql += " ORDER BY updated DESC, id DESC"
        rows = self._connect().execute(sql, args)
        return [
            Document(
                r[0],
                r[1],
                r[2],
                r[3],
                r[4],
                r[5],
                dict(zip(fields, r[6:], strict=True)) if fields else None,
            )
            for r in rows
        ]

    def revisions(self, doc_id: int) -> list[Revision]:
        """The kept earlier and refused bodies of document ``doc_id``, newest first."""
        doc_id = _id(doc_id)
        rows = self._connect().execute(
            "SELECT id, document, version, reason, created, body FROM revisions"
            " WHERE document = ? ORDER BY id DESC",
            (doc_id,),
        )
        return [Revision(r[0], r[1], r[2], r[3], r[4], json.loads(r[5])) for r in rows]

    def check(self) -> list[str]:
        """SQLite's integrity check (``[]`` when the database is sound)."""
        rows = self._connect().execute("PRAGMA integrity_check").fetchall()
        problems = [str(r[0]) for r in rows if r[0] != "ok"]
        rows = self._connect().execute("PRAGMA foreign_key_check").fetchall()
        return problems + [f"foreign key: {r}" for r in rows]

    # ---------------------------------------------------------------- writing

    def create(self, kind: str, name: str, body: object) -> Document:
        """A new document (version 1)."""
        text = _dump(body)
        kind, name = _kind(kind), _name(name)
        now = time.time()
        with self._write() as db:
            cur = db.execute(
                "INSERT INTO documents (kind, name, version, created, updated, body)"
                " VALUES (?, ?, 1, ?, ?, ?)",
                (kind, name, now, now, text),
            )
            doc_id = cur.lastrowid
        assert doc_id is not None
        return Document(doc_id, kind, name, 1, now, now, json.loads(text))

    def save(self, doc_id: int, body: object, *, version: int, name: str | None = None) -> Document:
        """Replace document ``doc_id``'s body (and name), which must be at ``version``.

        Returns the document at the next version. Raises :class:`Conflict` (the refused body
        kept as a revision) when the document is at another version, and
        :class:`NotFoundError` when there is no such document (:class:`StoreError` for a
        version below 1). A version above the document's is a conflict too: the tab read the
        document from a database file since put back from an older copy (or, in a file made
        before ids were never given twice, another document that had this id)."""
        doc_id = _id(doc_id)
        if version < 1:
            raise StoreError(f"a document's versions count from 1, not {version}")
        text = _dump(body)
        new_name = None if name is None else _name(name)
        now = time.time()
        with self._write() as db:
            row = db.execute(
                "SELECT id, kind, name, version, created, updated, body FROM documents"
                " WHERE id = ?",
                (doc_id,),
            ).fetchone()
            if row is None:
                raise NotFoundError(f"no document {doc_id}")
            current = self._document(row)
            if current.version != version:
                cur = db.execute(
                    "INSERT INTO revisions (document, version, reason, created, body)"
                    " VALUES (?, ?, 'conflict', ?, ?)",
                    (doc_id, version, now, text),
                )
                kept = cur.lastrowid
                assert kept is not None
                conflict = Conflict(current, version, kept)
            else:
                conflict = None
                db.execute(
                    "INSERT INTO revisions (document, version, reason, created, body)"
                    " VALUES (?, ?, 'replaced', ?, ?)",
                    (doc_id, current.version, now, row[6]),
                )
                db.execute(
                    "DELETE FROM revisions WHERE document = ? AND reason = 'replaced' AND id NOT"
                    " IN (SELECT id FROM revisions WHERE document = ? AND reason = 'replaced'"
                    " ORDER BY id DESC LIMIT ?)",
                    (doc_id, doc_id, KEEP_REVISIONS),
                )
                db.execute(
                    "UPDATE documents SET body = ?, name = ?, version = ?, updated = ?"
                    " WHERE id = ?",
                    (text, new_name or current.name, version + 1, now, doc_id),
                )
        if conflict is not None:
            raise conflict  # the refused body is committed with the revision
        return Document(
            doc_id,
            current.kind,
            new_name or current.name,
            version + 1,
            current.created,
            now,
            json.loads(text),
        )

    def rename(self, doc_id: int, name: str) -> Document:
        """Give document ``doc_id`` a new name (not a new version of its body)."""
        new_name = _name(name)
        doc_id = _id(doc_id)
        with self._write() as db:
            cur = db.execute(
                "UPDATE documents SET name = ?, updated = ? WHERE id = ?",
                (new_name, time.time(), doc_id),
            )
            if cur.rowcount == 0:
                raise NotFoundError(f"no document {doc_id}")
        return self.get(doc_id)

    def delete(self, doc_id: int) -> None:
        """Delete document ``doc_id`` and its revisions; :class:`NotFoundError` if none."""
        doc_id = _id(doc_id)
        with self._write() as db:
            db.execute("DELETE FROM revisions WHERE document = ?", (doc_id,))
            cur = db.execute("DELETE FROM documents WHERE id = ?", (doc_id,))
            if cur.rowcount == 0:
                raise NotFoundError(f"no document {doc_id}")
