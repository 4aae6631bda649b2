"""Concurrent best-route requests to the board API on loopback: requests/s, p50 and p99.

A ``tilelay serve`` process answers ``POST /api/boards/routes`` (replay of the board state,
the route optimiser, the map with the routes drawn) for 32 clients at once, each on its own
keep-alive connection, bounded by a count per client and a time limit; every answer must be
a 200 with routes. The board is the final position of the recorded 1889 game.

Peer: the same work done in one process without HTTP (``board_view`` of the same states,
one after another), measured in the same run: the ratio shows what serving it to 32 clients
at once costs or gains per request.

Run: ``.venv/bin/python benchmarks/bench_board_load.py [CLIENTS] [REQUESTS_PER_CLIENT]``
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.loadgen import route_request, run_load
from tests.serving import Server
from tilelay.sandbox import BoardState
from tilelay.web.board import board_view


def main() -> None:
    clients = int(sys.argv[1]) if len(sys.argv) > 1 else 32
    per_client = int(sys.argv[2]) if len(sys.argv) > 2 else 25
    bodies = [route_request(k) for k in range(6)]
    states = [
        BoardState.from_json(b["state"]).with_routes(b["corporation"], b["trains"]) for b in bodies
    ]
    for s in states:
        board_view(s)  # warm
    n = 60
    t0 = time.perf_counter()
    for i in range(n):
        board_view(states[i % len(states)])
    peer = (time.perf_counter() - t0) / n
    with tempfile.TemporaryDirectory() as tmp, Server(Path(tmp) / "boards.sqlite3") as server:
        run_load(server, clients=4, per_client=3, seconds=30)  # warm the server
        result = run_load(server, clients=clients, per_client=per_client, seconds=120)
    print("Board API under load (loopback; lower latency and higher rate are better)")
    print(f"{'measure':<44} {'value':>12}  note")
    print(f"{'peer: board_view in process, one at a time':<44} {peer * 1000:10.2f}ms  per state")
    print(f"{'requests answered':<44} {result.requests:>12}  {clients} clients x {per_client}")
    print(f"{'errors':<44} {len(result.errors):>12}  must be 0")
    print(f"{'requests/s':<44} {result.per_second:>12.1f}  vs peer {result.per_second * peer:.2f}x")
    print(f"{'p50 latency':<44} {result.percentile(50) * 1000:10.1f}ms")
    print(f"{'p99 latency':<44} {result.percentile(99) * 1000:10.1f}ms")
    print(result.summary())
    if result.errors:
        print("first errors:", result.errors[:3])
        sys.exit(1)


if __name__ == "__main__":
    main()
