"""Benchmark: best routes for every ``run_routes`` action of the three recorded games.

Ours: :class:`tilelay.routes.RoutePlanner` (routes enumerated as two arms from each token city,
path/side bitmasks, then exact branch and bound). The peer, measured in the same run, is a
naive router with the same rules: it walks every route from *every* stop with Python sets of
used paths and sides, keeps those holding a token, and tries every combination of one route
(or none) per train without pruning. It runs only on positions where the combinations number
at most ``NAIVE_LIMIT``; the table compares both on that subset, and reports ours on all.

Run: ``.venv/bin/python benchmarks/bench_routes.py``
"""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import contextlib

from _table import print_table

from tilelay.board import Board, BoardError
from tilelay.replay import load_record, replay, replay_steps
from tilelay.routes import RoutePlanner, _fits, _Net, phase_revenue
from tilelay.tile import NodeKind
from tilelay.trains import Phase, TrainType

FIXTURES = Path(__file__).resolve().parents[2] / "shared" / "reference" / "18xxgames" / "fixtures"
NAIVE_LIMIT = 200_000


def naive_best(board: Board, corp: str, phase: Phase, trains: list[TrainType]) -> int | None:
    """The naive peer: every route from every stop, then every combination (None: too many)."""
    net = _Net(board, corp)
    g = net.graph
    tokens = set(net.token_nodes)
    longest = max((t.max_major_stops or 99) + (t.max_minor_stops or 0) for t in trains)
    routes: dict[frozenset[int], tuple[list[int], int, int]] = {}

    def walk(
        o: int, stops: list[int], nodes: set[int], paths: set[int], sides: set[int], term: bool
    ) -> None:
        m = g.end_node[o]
        if m < 0:
            side = g.end_side[o]
            if side in sides:
                return
            for f in g.links[o]:
                if f >> 1 not in paths:
                    walk(f ^ 1, stops, nodes, paths | {f >> 1}, sides | {side}, g.terminal[f >> 1])
            return
        if m in nodes:
            return
        kind = g.node_kinds[m]
        if kind is NodeKind.JUNCTION:
            for e in g.node_ends[m]:
                if e >> 1 not in paths and not g.terminal[e >> 1]:
                    walk(e ^ 1, stops, nodes | {m}, paths | {e >> 1}, sides, False)
            return
        if any(net.groups[m] & net.groups[s] for s in stops) or len(stops) >= longest:
            return
        stops = [*stops, m]
        if tokens & set(stops):
            majors = sum(1 for s in stops if net.kind[s] != 2)
            routes.setdefault(frozenset(paths), (stops, majors, len(stops) - majors))
        if net.passable[m] and not term and kind is not NodeKind.OFFBOARD:
            for e in g.node_ends[m]:
                if e >> 1 not in paths and not g.terminal[e >> 1]:
                    walk(e ^ 1, stops, nodes | {m}, paths | {e >> 1}, sides, False)

    for start in range(len(g.nodes)):
        if g.node_kinds[start] is NodeKind.JUNCTION:
            continue
        for e in g.node_ends[start]:
            walk(e ^ 1, [start], {start}, {e >> 1}, set(), bool(g.terminal[e >> 1]))

    options: list[list[tuple[int, frozenset[int]] | None]] = []
    size = 1
    for t in trains:
        values = [phase_revenue(r, phase, t) for r in net.nodes_revenue]
        opts: list[tuple[int, frozenset[int]] | None] = [None]
        for paths, (stops, majors, towns) in routes.items():
            if _fits(t, majors, towns):
                opts.append((sum(values[s] for s in stops), paths))
        options.append(opts)
        size *= len(opts)
    if size > NAIVE_LIMIT:
        return None
    best = 0
    for combo in itertools.product(*options):
        chosen = [c for c in combo if c is not None]
        used: set[int] = set()
        ok = True
        for _, paths in chosen:
            if used & paths:
                ok = False
                break
            used |= paths
        if ok:
            best = max(best, sum(v for v, _ in chosen))
    return best


def main() -> None:
    """Time ours on every run_routes action, the naive peer where it is feasible."""
    if not FIXTURES.exists():
        print(f"reference records absent: {FIXTURES}")
        return
    positions = []
    for path in sorted(FIXTURES.glob("*.json")):
        for step in replay_steps(load_record(path)):
            if step.action.get("type") == "run_routes":
                corp = str(step.action["entity"])
                positions.append((path.stem, step.board, corp, step.phase, step.train_names(corp)))
    ours_all = 0.0
    enumerated = 0
    enum_time = 0.0
    ours_subset = naive_subset = 0.0
    subset = 0
    for _, board, corp, phase, names in positions:
        board.track_graph()  # built once per board by both
        trains = [board.game.trains.train_type(n) for n in names]
        t0 = time.perf_counter()
        planner = RoutePlanner(board, corp, phase)
        raw = planner._raw(trains)
        t1 = time.perf_counter()
        result = planner.best(trains)
        t2 = time.perf_counter()
        ours_all += t2 - t0
        enum_time += t1 - t0
        enumerated += len(raw)
        t3 = time.perf_counter()
        naive = naive_best(board, corp, phase, trains)
        t4 = time.perf_counter()
        if naive is not None:
            assert naive == result.revenue, (corp, naive, result.revenue)
            subset += 1
            naive_subset += t4 - t3
            # ours again on the same position, timed alone
            t5 = time.perf_counter()
            RoutePlanner(board, corp, phase).best(trains)
            ours_subset += time.perf_counter() - t5
    print(
        f"{len(positions)} run_routes positions; {enumerated} routes enumerated "
        f"({enumerated / enum_time:,.0f} routes/s including setup); "
        f"naive peer feasible on {subset} (<= {NAIVE_LIMIT:,} combinations), same optimum"
    )
    print_table(
        "best routes, total time",
        [
            ("naive: every stop, all combinations (subset)", naive_subset, f"{subset} positions"),
            ("tilelay.routes (same subset)", ours_subset, f"{subset} positions"),
            ("tilelay.routes (all positions)", ours_all, f"{len(positions)} positions"),
        ],
        peer="naive: every stop, all combinations (subset)",
    )
    dense()


def dense() -> None:
    """Denser positions: each game's final board with the first corporation's token in every
    city that has room, running 6+D and D+D+D trains (the naive peer where feasible)."""
    rows: list[tuple[str, float, str]] = []
    for path in sorted(FIXTURES.glob("*.json")):
        board = replay(load_record(path)).board
        corp = board.game.corporations[0].sym
        for coord in board.game.hexes:
            for city in range(len(board.tile_at(coord).cities)):
                with contextlib.suppress(BoardError):
                    board = board.place_token(coord, city, corp)
        board.track_graph()
        phase = board.game.trains.phases[-1]
        for names in (["6", "D"], ["D", "D", "D"]):
            trains = [board.game.trains.train_type(n) for n in names]
            t0 = time.perf_counter()
            result = RoutePlanner(board, corp, phase).best(trains)
            ours = time.perf_counter() - t0
            t1 = time.perf_counter()
            naive = naive_best(board, corp, phase, trains)
            peer = time.perf_counter() - t1
            label = f"{path.stem[:12]} {corp} {'+'.join(names)}"
            note = f"{result.candidates} routes, revenue {result.revenue}"
            if naive is None:
                rows.append((f"{label} ours", ours, note + "; naive: too many combinations"))
            else:
                assert naive == result.revenue
                rows.append((f"{label} ours", ours, note + f"; naive {peer * 1000:.1f} ms"))
                rows[-1] = (rows[-1][0], ours, rows[-1][2] + f" ({peer / ours:.0f}x)")
    print_table("dense positions (final boards, tokens everywhere there is room)", rows)


if __name__ == "__main__":
    main()
