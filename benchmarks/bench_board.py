"""Board and track-graph speed on the final boards of the three recorded games.

Measures: replaying a record (tile lays and tokens), building the integer track graph, and
finding every city reachable from every node (the first step of route finding).

Peer: the same reachability on an object-keyed graph — a dict from ``(coord, node)`` and
``(coord, edge)`` tuples to sets of such tuples, built from the same tiles — the usual first
way to write it in Python, measured in the same run on the same boards.

Run: ``.venv/bin/python benchmarks/bench_board.py`` (needs ../shared/reference).
"""

from __future__ import annotations

import sys
from pathlib import Path

from _table import best_of, print_table

from tilelay.board import Board
from tilelay.hexgeo import neighbour_edge
from tilelay.replay import load_record, replay
from tilelay.tile import Edge, NodeRef

FIXTURES = Path(__file__).resolve().parents[1].parent / "shared" / "reference" / "18xxgames"


def peer_graph(board: Board) -> dict[tuple[str, str, int], set[tuple[str, str, int]]]:
    """Object-keyed adjacency: ("n", coord, node) and ("e", coord, edge) vertices."""
    adj: dict[tuple[str, str, int], set[tuple[str, str, int]]] = {}
    for coord in board.game.hexes:
        tile = board.tile_at(coord)
        for p in tile.paths:
            ends = [
                ("n", coord, e.index) if isinstance(e, NodeRef) else ("e", coord, e.num)
                for e in (p.a, p.b)
                if isinstance(e, NodeRef | Edge)
            ]
            adj.setdefault(ends[0], set()).add(ends[1])
            adj.setdefault(ends[1], set()).add(ends[0])
    for key in list(adj):
        if key[0] == "e":
            other = board.neighbour(key[1], key[2])
            back = ("e", other, neighbour_edge(key[2])) if other else None
            if back in adj and not board.impassable(key[1], key[2]):
                adj[key].add(back)  # type: ignore[arg-type]
    return adj


def peer_reach(adj: dict[tuple[str, str, int], set[tuple[str, str, int]]]) -> int:
    total = 0
    for start in adj:
        if start[0] != "n":
            continue
        seen = {start}
        todo = [start]
        while todo:
            v = todo.pop()
            for w in adj[v]:
                if w not in seen:
                    seen.add(w)
                    todo.append(w)
        total += sum(1 for v in seen if v[0] == "n")
    return total


def main() -> None:
    stems = ["1889_314", "1830_26855", "18Chesapeake_1277"]
    paths = [FIXTURES / "fixtures" / f"{s}.json" for s in stems]
    if not all(p.exists() for p in paths):
        print(f"reference records absent: {FIXTURES}", file=sys.stderr)
        raise SystemExit(1)
    records = [load_record(p) for p in paths]
    boards = [replay(r).board for r in records]
    lays = sum(len(replay(r).lays) for r in records)

    def build() -> None:
        for b in boards:
            Board(b.game, b.laid, b.tokens).track_graph()

    graphs = [b.track_graph() for b in boards]

    def ours_reach() -> int:
        return sum(len(g.connected_nodes([n])) for g in graphs for n in range(len(g.nodes)))

    adjs = [peer_graph(b) for b in boards]
    print_table(
        f"boards of 3 recorded games ({lays} tile lays; best of 5)",
        [
            ("replay 3 records", best_of(lambda: [replay(r) for r in records]), ""),
            ("build 3 track graphs", best_of(build), "integer tables"),
            (
                "peer: build 3 object-keyed graphs",
                best_of(lambda: [peer_graph(b) for b in boards]),
                "",
            ),
            ("reachability from every node", best_of(ours_reach), "integer ends"),
            (
                "peer: reachability, object-keyed",
                best_of(lambda: [peer_reach(a) for a in adjs]),
                "",
            ),
        ],
        peer="peer: reachability, object-keyed",
    )


if __name__ == "__main__":
    main()
