"""Saved boards survive ``kill -9``: a stream of saves from several clients, the server killed
with SIGKILL in the middle, restarted; every save it acknowledged is there and the database
is consistent."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

from tests.serving import Server, request
from tilelay.sandbox import BoardState
from tilelay.store import Store

#: Coordinates of 1889 where tile 9 (5 copies) and 8 (5 copies) go in phase 2.
HEXES = ["B5", "C8", "D3", "D9", "E8", "H3", "I8", "I10", "J3"]


def _states() -> list[dict[str, object]]:
    """A growing sequence of legal states: each save adds one action."""
    state = BoardState("1889")
    out = []
    for i, coord in enumerate(HEXES):
        tile = "9" if i % 2 == 0 else "8"
        rotation = state.board().legal_rotations(coord, tile)[0]
        state = state.lay(coord, tile, rotation)
        out.append(state.to_json())
    return out


def test_acknowledged_saves_survive_sigkill(tmp_path: Path) -> None:
    db = tmp_path / "boards.sqlite3"
    states = _states()
    acked: dict[int, tuple[int, object]] = {}  # board id -> (version, state) acknowledged
    created: list[int] = []
    lock = threading.Lock()
    stop = threading.Event()
    server = Server(db, {"TILELAY_DB": str(db)}).start()

    def client(k: int) -> None:
        conn = server.connection(timeout=5)
        try:
            status, answer = request(
                conn, "POST", "/api/boards", {"name": f"c{k}", "state": states[0]}
            )
            if status != 201:
                return
            board = answer["board"]["id"]
            version = answer["board"]["version"]
            with lock:
                created.append(board)
                acked[board] = (version, states[0])
            n = 1
            while not stop.is_set():
                state = states[n % len(states)]
                status, answer = request(
                    conn, "PUT", f"/api/boards/{board}", {"version": version, "state": state}
                )
                if status != 200:
                    return
                version = answer["board"]["version"]
                with lock:
                    acked[board] = (version, state)
                n += 1
        except (OSError, ValueError):
            return  # the server was killed mid-request: that save was not acknowledged
        finally:
            conn.close()

    threads = [threading.Thread(target=client, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    time.sleep(1.5)
    with lock:
        before = sum(v for v, _ in acked.values())
    assert before > 20  # the stream was running
    server.kill()  # SIGKILL in the middle of the stream
    stop.set()
    for t in threads:
        t.join(timeout=10)
    with lock:
        snapshot = dict(acked)
    saves = sum(v for v, _ in snapshot.values())
    print(f"{len(snapshot)} boards, {saves} acknowledged versions before SIGKILL")
    # the database is consistent before anything else opens it for writing
    check = sqlite3.connect(db)
    assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    check.close()
    with Server(db, {"TILELAY_DB": str(db)}) as again:
        conn = again.connection()
        for board, (version, state) in snapshot.items():
            status, answer = request(conn, "GET", f"/api/boards/{board}")
            assert status == 200, board
            # the acknowledged save, or one more that committed as the server died
            got = answer["board"]["version"]
            assert got in (version, version + 1), (board, got, version)
            if got == version:
                assert answer["state"] == state
            else:
                assert BoardState.from_json(answer["state"])  # a whole, readable state
        conn.close()
    assert Store(db).check() == []
