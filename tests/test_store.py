"""Saved documents in SQLite: versions, conflicts kept, revisions, threads (tilelay.store)."""

from __future__ import annotations

import json
import re
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from tilelay.errors import NotFoundError
from tilelay.store import (
    KEEP_REVISIONS,
    Conflict,
    Store,
    StoreError,
    default_path,
)


def test_create_save_rename_delete(tmp_path: Path) -> None:
    store = Store(tmp_path / "sub" / "db.sqlite3")
    doc = store.create("board", "  my   board ", {"game": "1889"})
    assert (doc.id, doc.kind, doc.name, doc.version) == (1, "board", "my board", 1)
    saved = store.save(doc.id, {"game": "1889", "actions": ["K8=57-1"]}, version=1)
    assert saved.version == 2 and store.get(doc.id).body["actions"] == ["K8=57-1"]
    renamed = store.rename(doc.id, "renamed")
    assert renamed.name == "renamed" and renamed.version == 2
    other = store.create("record", "a record", {"actions": []})
    assert [d.id for d in store.documents("board")] == [doc.id]
    assert {d.id for d in store.documents()} == {doc.id, other.id}
    assert store.documents()[0].body is None  # listed without bodies
    with pytest.raises(NotFoundError):
        store.get(other.id, "board")
    store.delete(doc.id)
    with pytest.raises(NotFoundError):
        store.get(doc.id)
    with pytest.raises(NotFoundError):
        store.delete(doc.id)
    with pytest.raises(NotFoundError):
        store.save(doc.id, {}, version=2)
    assert store.check() == []


def test_a_conflict_keeps_both_versions(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    doc = store.create("board", "b", {"tab": 0})
    store.save(doc.id, {"tab": 1}, version=1)
    with pytest.raises(Conflict) as info:
        store.save(doc.id, {"tab": 2}, version=1)  # the second tab, a version behind
    assert info.value.current.body == {"tab": 1} and info.value.current.version == 2
    kept = {r.id: r for r in store.revisions(doc.id)}[info.value.kept]
    assert kept.reason == "conflict" and kept.body == {"tab": 2} and kept.version == 1
    assert store.get(doc.id).body == {"tab": 1}
    # the earlier version is kept as well
    assert [(r.reason, r.body) for r in store.revisions(doc.id)][-1] == ("replaced", {"tab": 0})


def test_revisions_are_bounded(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    doc = store.create("board", "b", {"n": 0})
    for n in range(1, KEEP_REVISIONS + 10):
        store.save(doc.id, {"n": n}, version=n)
    replaced = [r for r in store.revisions(doc.id) if r.reason == "replaced"]
    assert len(replaced) == KEEP_REVISIONS
    assert replaced[0].body == {"n": KEEP_REVISIONS + 8}


def test_bad_documents_are_refused(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    with pytest.raises(StoreError, match="JSON data"):
        store.create("board", "b", {"x": {1, 2}})
    with pytest.raises(StoreError, match="JSON data"):
        store.create("board", "b", {"x": float("nan")})
    with pytest.raises(StoreError, match="empty"):
        store.create("board", "  ", {})
    with pytest.raises(StoreError, match="at most"):
        store.create("board", "x" * 201, {})
    with pytest.raises(StoreError, match="too large"):
        store.create("board", "b", {"x": "y" * (9 * 2**20)})
    with pytest.raises(StoreError, match="kind"):
        store.create("bo/ard", "b", {})
    assert store.documents() == []


def test_a_folder_that_cannot_be_made(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with pytest.raises(StoreError, match="cannot create the database folder"):
        Store(tmp_path / "file" / "db.sqlite3")


def test_where_the_database_lives(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TILELAY_DB", str(tmp_path / "x.sqlite3"))
    assert default_path() == tmp_path / "x.sqlite3"
    monkeypatch.delenv("TILELAY_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_path() == tmp_path / "data" / "tilelay" / "tilelay.sqlite3"


def test_concurrent_saves_from_threads(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    doc = store.create("board", "b", {"n": 0})
    outcomes: list[str] = []
    lock = threading.Lock()

    def worker(k: int) -> None:
        for _ in range(20):
            current = store.get(doc.id)
            try:
                store.save(doc.id, {"n": current.body["n"] + 1, "by": k}, version=current.version)
                result = "saved"
            except Conflict:
                result = "conflict"
            with lock:
                outcomes.append(result)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    final = store.get(doc.id)
    saved = outcomes.count("saved")
    # every save that succeeded counted once; none lost, none doubled
    assert final.body["n"] == saved and final.version == saved + 1
    conflicts = [r for r in store.revisions(doc.id) if r.reason == "conflict"]
    assert len(conflicts) == outcomes.count("conflict")
    assert store.check() == []


def test_ids_past_sqlite_are_no_document(tmp_path: Path) -> None:
    """An id SQLite cannot hold (a URL may carry any) is a document that is not there."""
    store = Store(tmp_path / "db.sqlite3")
    store.create("board", "b", {})
    for doc_id in (2**63, -(2**63) - 1, 10**30, 0, -1):
        with pytest.raises(NotFoundError, match=f"no board {doc_id}"):
            store.get(doc_id, "board")
        calls: list[Callable[[int], object]] = [
            store.delete,
            lambda i: store.rename(i, "x"),
            lambda i: store.save(i, {}, version=1),
            store.revisions,
        ]
        for call in calls:
            with pytest.raises(NotFoundError, match=f"no document {doc_id}"):
                call(doc_id)


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("a\u0007b", "control character U+0007"),
        ("\u202eevil", "direction control U+202E"),
        ("left\u2066right", "direction control U+2066"),
        ("x" * 201, "at most 200 characters, not 201"),
    ],
)
def test_names_hold_no_controls(tmp_path: Path, name: str, why: str) -> None:
    store = Store(tmp_path / "db.sqlite3")
    with pytest.raises(StoreError, match=re.escape(why)):
        store.create("board", name, {})
    doc = store.create("board", "fine", {})
    with pytest.raises(StoreError, match=re.escape(why)):
        store.rename(doc.id, name)
    with pytest.raises(StoreError, match=re.escape(why)):
        store.save(doc.id, {}, version=1, name=name)
    assert store.get(doc.id).name == "fine"


def test_a_version_below_one_is_refused_and_one_above_is_a_conflict(tmp_path: Path) -> None:
    """No tab read version 0; a tab may have read a later version (of a database file put
    back from an older copy): its save is kept, as any other conflict."""
    store = Store(tmp_path / "db.sqlite3")
    doc = store.create("board", "b", {"n": 0})
    with pytest.raises(StoreError, match="versions count from 1, not 0"):
        store.save(doc.id, {"n": 1}, version=0)
    with pytest.raises(Conflict) as info:
        store.save(doc.id, {"n": 2}, version=99)
    kept = {r.id: r for r in store.revisions(doc.id)}[info.value.kept]
    assert kept.body == {"n": 2} and store.get(doc.id).body == {"n": 0}


def test_an_id_is_never_given_twice(tmp_path: Path) -> None:
    """Deleting the document (and revision) with the highest id does not give that id to
    the next one: an old link to a deleted board must not open another board."""
    store = Store(tmp_path / "db.sqlite3")
    first = store.create("board", "first", {"n": 1})
    last = store.create("board", "last", {"n": 2})
    store.save(last.id, {"n": 3}, version=1)
    (revision,) = store.revisions(last.id)
    store.delete(last.id)
    again = store.create("record", "another kind", {})
    assert again.id > last.id
    store.save(first.id, {"n": 4}, version=1)
    assert store.revisions(first.id)[0].id > revision.id
    store.close()
    reopened = Store(tmp_path / "db.sqlite3")  # (kept in the file, not the process)
    reopened.delete(again.id)
    assert reopened.create("board", "later", {}).id > again.id


#: The tables as tilelay made them before ids were never given twice (INTEGER PRIMARY KEY
#: without AUTOINCREMENT), word for word.
OLD_SCHEMA = """
CREATE TABLE IF NOT EXISTS documents (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    version INTEGER NOT NULL CHECK (version >= 1),
    created REAL NOT NULL,
    updated REAL NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS documents_kind ON documents (kind, updated);
CREATE TABLE IF NOT EXISTS revisions (
    id INTEGER PRIMARY KEY,
    document INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    reason TEXT NOT NULL CHECK (reason IN ('replaced', 'conflict')),
    created REAL NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS revisions_document ON revisions (document, id);
"""


def _old_database(path: Path) -> None:
    """A database file as an earlier tilelay left it: three boards and a record (ids 1, 2,
    5, 7), with revisions, the highest of both deleted."""
    db = sqlite3.connect(path)
    db.executescript(OLD_SCHEMA)
    db.execute("PRAGMA foreign_keys=ON")
    rows = [(1, "board", "one", 2), (2, "record", "two", 1), (5, "board", "five", 3)]
    rows += [(7, "board", "seven", 1), (9, "board", "gone", 1)]
    for doc_id, kind, name, version in rows:
        db.execute(
            "INSERT INTO documents VALUES (?, ?, ?, ?, ?, ?, ?)",
            (doc_id, kind, name, version, 100.0 + doc_id, 200.0 + doc_id, json.dumps([doc_id])),
        )
    revisions = [(3, 1, 1, "replaced"), (4, 5, 1, "replaced"), (6, 5, 2, "conflict")]
    revisions += [(8, 9, 1, "replaced")]
    for rev_id, doc_id, version, reason in revisions:
        db.execute(
            "INSERT INTO revisions VALUES (?, ?, ?, ?, ?, ?)",
            (rev_id, doc_id, version, reason, 300.0 + rev_id, json.dumps({"rev": rev_id})),
        )
    db.commit()
    db.execute("DELETE FROM documents WHERE id = 9")  # (its revision 8 too, by the cascade)
    db.commit()
    assert db.execute("SELECT max(id) FROM revisions").fetchone() == (6,)
    db.close()


def _rows(path: Path) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    db = sqlite3.connect(path)
    try:
        documents = db.execute("SELECT * FROM documents ORDER BY id").fetchall()
        revisions = db.execute("SELECT * FROM revisions ORDER BY id").fetchall()
    finally:
        db.close()
    return documents, revisions


def test_a_database_of_the_old_schema_is_rebuilt_keeping_every_row(tmp_path: Path) -> None:
    """A file whose tables gave ids again is rebuilt when opened: every document and
    revision kept, with its id, times and body; from then on no id is given twice."""
    path = tmp_path / "old.sqlite3"
    _old_database(path)
    before = _rows(path)
    store = Store(path)
    assert _rows(path) == before
    db = sqlite3.connect(path)
    tables = dict(db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'"))
    indexes = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    db.close()
    assert "AUTOINCREMENT" in tables["documents"] and "AUTOINCREMENT" in tables["revisions"]
    assert {"documents_kind", "revisions_document"} <= indexes
    assert store.check() == []
    assert [(d.id, d.name, d.version) for d in store.documents("board")] == [
        (7, "seven", 1),
        (5, "five", 3),
        (1, "one", 2),
    ]
    assert [(r.id, r.reason, r.body) for r in store.revisions(5)] == [
        (6, "conflict", {"rev": 6}),
        (4, "replaced", {"rev": 4}),
    ]
    # the highest ids are not given again once deleted (ids deleted before the rebuild, as
    # 9 and 8 here, cannot be known)
    store.delete(7)
    created = store.create("board", "new", {"n": 0})
    assert created.id == 8
    store.delete(5)  # its revisions, the highest, go with it (the foreign key still holds)
    assert store.save(1, {"n": 1}, version=2).version == 3
    assert store.revisions(1)[0].id == 7
    assert store.create("board", "newer", {}).id == 9
    assert store.check() == []
    # opened again (as another process of the server would): nothing rebuilt or lost again
    documents, revisions = _rows(path)
    Store(path)
    assert _rows(path) == (documents, revisions)


def test_a_rebuild_that_fails_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rebuild is one transaction: when it cannot finish, the file is as it was (and
    the store says it cannot use the database)."""
    from tilelay import store as store_module

    path = tmp_path / "old.sqlite3"
    _old_database(path)
    before = _rows(path)
    plain = store_module._rebuild

    def failing(db: sqlite3.Connection, table: str) -> None:
        plain(db, table)
        if table == "revisions":
            raise sqlite3.OperationalError("disk I/O error (simulated)")

    monkeypatch.setattr(store_module, "_rebuild", failing)
    with pytest.raises(StoreError, match="cannot use the database"):
        Store(path)
    assert _rows(path) == before
    db = sqlite3.connect(path)
    assert (
        "AUTOINCREMENT"
        not in db.execute("SELECT sql FROM sqlite_master WHERE name = 'documents'").fetchone()[0]
    )
    db.close()
    monkeypatch.undo()
    assert [d.id for d in Store(path).documents()] == [7, 5, 2, 1]
