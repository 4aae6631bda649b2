"""Benchmark: best routes for every ``run_routes`` action of the three recorded games.

Ours: :class:`tilelay.routes.RoutePlanner` (routes enumerated as two arms from each token city,
path/side bitmasks, then exact branch and bound). The peer, measured in the same run, is the
tests' independent oracle (``tests/route_oracle.py``): it walks every route from *every* stop
with Python sets of used nodes, paths and sides, keeps those holding a token, and tries every
combination of one route (or none) per train without pruning. It answers only on positions
where the combinations number at most its limit; the table compares both on that subset, and
reports ours on all.

Run: ``.venv/bin/python benchmarks/bench_routes.py``
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import contextlib

from _table import print_table

from tests.route_oracle import LIMIT as NAIVE_LIMIT
from tests.route_oracle import best_total as naive_total
from tilelay.board import BoardError
from tilelay.errors import TilelayError
from tilelay.replay import load_record, replay, replay_steps
from tilelay.routes import RoutePlanner

FIXTURES = Path(__file__).resolve().parents[2] / "shared" / "reference" / "18xxgames" / "fixtures"


def main() -> None:
    """Time ours on every run_routes action, the naive peer where it is feasible."""
    if not FIXTURES.exists():
        print(f"reference records absent: {FIXTURES}")
        return
    positions = []
    skipped: list[str] = []
    for path in sorted(FIXTURES.glob("*.json")):
        try:
            steps = list(replay_steps(load_record(path)))
        except TilelayError as err:
            skipped.append(f"{path.stem} ({err})")
            continue
        for step in steps:
            if step.action.get("type") == "run_routes":
                corp = str(step.action["entity"])
                positions.append((path.stem, step.board, corp, step.phase, step.train_names(corp)))
    if skipped:
        print(f"records not replayed ({len(skipped)}): " + "; ".join(skipped))
    ours_all = 0.0
    enumerated = 0
    ours_subset = naive_subset = 0.0
    subset = 0
    for _, board, corp, phase, names in positions:
        board.track_graph()  # built once per board by both
        trains = [board.game.trains.train_type(n) for n in names]
        t0 = time.perf_counter()
        result = RoutePlanner(board, corp, phase).best(trains)
        ours_all += time.perf_counter() - t0
        enumerated += result.candidates
        t3 = time.perf_counter()
        naive = naive_total(board, corp, phase, trains)
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
        f"({enumerated / ours_all:,.0f} routes/s, search included); "
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
        try:
            board = replay(load_record(path)).board
        except TilelayError:
            continue  # listed by main()
        corp = board.game.corporations[0].sym
        if "D" not in {t.name for c in board.game.trains.card_types for t in c.sides}:
            continue
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
            naive = naive_total(board, corp, phase, trains)
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
