"""Saved documents in SQLite: versions, conflicts kept, revisions, threads (tilelay.store)."""

from __future__ import annotations

import re
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
    """No tab read version 0; a tab may have read a later version of a deleted document
    whose id came back (its save is kept, as any other conflict)."""
    store = Store(tmp_path / "db.sqlite3")
    doc = store.create("board", "b", {"n": 0})
    with pytest.raises(StoreError, match="versions count from 1, not 0"):
        store.save(doc.id, {"n": 1}, version=0)
    with pytest.raises(Conflict) as info:
        store.save(doc.id, {"n": 2}, version=99)
    kept = {r.id: r for r in store.revisions(doc.id)}[info.value.kept]
    assert kept.body == {"n": 2} and store.get(doc.id).body == {"n": 0}
