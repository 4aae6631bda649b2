"""A bounded load on the board API: concurrent clients on loopback, each with its own
keep-alive connection, sending best-route requests until a count or a time limit is reached.

Used by ``tests/test_load.py`` (no errors under 32 clients) and
``benchmarks/bench_board_load.py`` (requests per second, p50 and p99 latency)."""

from __future__ import annotations

import statistics
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from tests.conftest import REFERENCE
from tests.serving import Server, request
from tilelay.replay import load_record, replay_steps
from tilelay.sandbox import BoardState, board_actions

__all__ = ["LoadResult", "route_request", "run_load"]


@dataclass
class LoadResult:
    """What a load run measured: latencies (s) of the answered requests, errors by kind."""

    clients: int
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def requests(self) -> int:
        return len(self.latencies)

    @property
    def per_second(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    def percentile(self, p: float) -> float:
        if not self.latencies:
            return 0.0
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]

    def summary(self) -> str:
        mean = statistics.fmean(self.latencies) if self.latencies else 0.0
        return (
            f"{self.clients} clients: {self.requests} requests in {self.seconds:.2f} s, "
            f"{self.per_second:.1f} requests/s, p50 {self.percentile(50) * 1000:.1f} ms, "
            f"p99 {self.percentile(99) * 1000:.1f} ms, mean {mean * 1000:.1f} ms, "
            f"{len(self.errors)} errors"
        )


FIXTURE = REFERENCE / "18xxgames" / "fixtures" / "1889_314.json"


def route_request(variant: int = 0) -> dict[str, Any]:
    """A body for ``POST /api/boards/routes``: the final board of the recorded 1889 game
    (the shared fixture; a smaller hand-built board when it is absent) and one of its
    corporations with its trains."""
    if FIXTURE.is_file():
        *_, last = replay_steps(load_record(FIXTURE))
        runs = [c for c in ("AR", "KO", "SR", "UR", "IR", "KU") if last.train_names(c)]
        corp = runs[variant % len(runs)]
        state = BoardState(
            "1889",
            phase=last.phase.name,
            actions=tuple(str(a) for a in board_actions(last.board)),
        )
        return {"state": state.to_json(), "corporation": corp, "trains": last.train_names(corp)}
    state = BoardState("1889", phase="5")
    for coord in ["K6", "J5", "J3", "I2", "K8", "J7", "I4", "H3", "G4", "F3", "J9", "I8"]:
        # the first tile offered that keeps track joined to a neighbour's
        lays = state.legal_lays(coord)
        board = state.board()
        joined = [
            (tile, r)
            for tile, rotations in sorted(lays.items())
            for r in rotations
            if any(
                board.connected_exits(coord, e) for e in board.game.tile(tile).rotated(r).exits()
            )
        ]
        if joined:
            state = state.lay(coord, *joined[0])
    state = state.place_token("K8", "AR").place_token("K4", "KO").place_token("I2", "SR")
    corp = ["AR", "KO", "SR"][variant % 3]
    return {"state": state.to_json(), "corporation": corp, "trains": ["3", "4", "5"]}


def run_load(
    server: Server, *, clients: int = 32, per_client: int = 10, seconds: float = 60.0
) -> LoadResult:
    """``clients`` threads each sending up to ``per_client`` route requests, all stopping at
    ``seconds``; an answer other than 200 (or a broken connection) is an error."""
    result = LoadResult(clients)
    lock = threading.Lock()
    start = threading.Barrier(clients + 1)
    deadline = [0.0]

    def client(k: int) -> None:
        body = route_request(k)
        conn = server.connection(timeout=seconds)
        start.wait()
        try:
            for _ in range(per_client):
                if time.monotonic() > deadline[0]:
                    break
                t0 = time.perf_counter()
                try:
                    status, answer = request(conn, "POST", "/api/boards/routes", body)
                except OSError as err:
                    with lock:
                        result.errors.append(f"connection: {err}")
                    conn.close()
                    conn = server.connection(timeout=seconds)
                    continue
                took = time.perf_counter() - t0
                with lock:
                    if status == 200 and answer and answer.get("routes"):
                        result.latencies.append(took)
                    else:
                        result.errors.append(f"status {status}: {answer}")
        finally:
            conn.close()

    threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
    for t in threads:
        t.start()
    deadline[0] = time.monotonic() + seconds
    t0 = time.perf_counter()
    start.wait()
    for t in threads:
        t.join()
    result.seconds = time.perf_counter() - t0
    return result
