"""Benchmark: the best routes of every ``run_routes`` of every shared fixture, beside the
18xx.games engine's own auto-router on the same positions, in the same run.

Ours: each record replayed (:func:`tilelay.replay.replay_steps`), then each position timed
on a fresh copy of its board (its track graph built, as the engine's hexes and paths are;
nothing derived from it kept): the corporation's network, the chains of track, every route
and the exact best combination (``RoutePlanner(...).best(trains)``), with Python's garbage
collector held off while timing, and the least of :data:`REPEATS` runs (each on a fresh
board; one run where it takes over :data:`ONCE` s) kept, as ``timeit`` does: on a machine
shared with other work a single run picks up the scheduler's pauses (the CPU time per
position is printed beside, for the same reason).
The peer: the engine itself under Ruby (``oracle/routes.rb``: its route walk with its
default limits, then its route lists combined exactly), run on each fixture after ours, on
every core (a whole run takes the engine an hour or more: its late 1817, 1822 and 18USA
positions half a minute each); its time per position is its walk plus its combination. Only
positions both answer are compared; the table gives the median and the worst time per
position and the ratio (engine / ours). Where Ruby is absent (``./dev setup`` installs it),
or with ``TILELAY_BENCH_ENGINE=precomputed``, the engine's times precomputed in
``engine_routes/`` are shown instead, said so.

A second table times denser positions (each built-in game's final board with the first
corporation's token in every city that has room) against the tests' naive oracle
(``tests/route_oracle.py``).

Run: ``.venv/bin/python benchmarks/bench_routes.py [FIXTURE_SUBSTRING…]``
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _table import print_table

from tests.route_oracle import best_total as naive_total
from tilelay.board import Board, BoardError
from tilelay.errors import TilelayError
from tilelay.replay import load_record, replay, replay_steps
from tilelay.routes import RoutePlanner

REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "reference" / "18xxgames"
FIXTURES = REFERENCE / "fixtures"
ORACLE = REFERENCE / "oracle"
#: The engine's time limit per fixture (seconds).
ENGINE_TIMEOUT = 1800
#: Runs of ours per position (the least kept), but one for a position taking over
#: :data:`ONCE` seconds.
REPEATS = 3
ONCE = 1.0
#: Our CPU time per position (seconds), beside the wall time: a busy machine inflates the
#: wall time of the positions its pauses land on.
CPU: list[float] = []


def engine_times(record: Path) -> tuple[dict[int, float], str]:
    """The engine's time per ``run_routes`` id on a record, and where it comes from."""
    ruby = shutil.which("ruby")
    live = os.environ.get("TILELAY_BENCH_ENGINE", "ruby") != "precomputed"
    if live and ruby is not None and (ORACLE / "routes.rb").exists():
        env = {**os.environ, "ENGINE_LOG_LEVEL": "4"}
        try:
            done = subprocess.run(
                [ruby, "routes.rb", str(record)],
                cwd=ORACLE,
                capture_output=True,
                text=True,
                timeout=ENGINE_TIMEOUT,
                env=env,
                check=False,
            )
            return _times(done.stdout.splitlines()), "the engine under Ruby, this run"
        except subprocess.TimeoutExpired:
            return {}, "the engine under Ruby (timed out)"
    lines = (REFERENCE / "engine_routes" / f"{record.stem}.jsonl").read_text().splitlines()
    why = "TILELAY_BENCH_ENGINE=precomputed" if not live else "Ruby absent: ./dev setup installs it"
    return _times(lines), f"precomputed engine_routes ({why})"


def _times(lines: list[str]) -> dict[int, float]:
    out: dict[int, float] = {}
    for line in lines:
        try:
            data = json.loads(line)
        except json.JSONDecodeError:
            continue
        if "error" in data or "walk_s" not in data:
            continue
        out[int(data["id"])] = float(data["walk_s"]) + float(data["combine_s"])
    return out


def main(only: list[str]) -> None:
    """Time ours on every position of every fixture, the engine on the same positions."""
    if not FIXTURES.exists():
        print(f"reference records absent: {FIXTURES}")
        return
    with tempfile.TemporaryDirectory() as cache:
        os.environ.setdefault("TILELAY_CACHE", cache)
        if (REFERENCE / "engine").exists():
            from tilelay.sources.games import add_paths

            add_paths([REFERENCE / "engine"])
        compare(only)
    dense()


def our_times(path: Path) -> tuple[dict[int | None, float], str | None]:
    """Our time per ``run_routes`` id of a record (replayed as far as it goes), and the
    replay's error if it stopped early. The CPU time of each position (the least of the
    runs too) goes to :data:`CPU`."""
    out: dict[int | None, float] = {}
    try:
        for step in replay_steps(load_record(path)):
            if step.action.get("type") != "run_routes":
                continue
            corp = str(step.action.get("entity"))
            trains = step.runnable_names(corp)
            times: list[float] = []
            cpu: list[float] = []
            for _ in range(REPEATS):
                board = Board(step.board.game, step.board.laid, step.board.tokens)
                board.track_graph()  # the board's track as arrays: the engine's hexes, paths
                gc.disable()
                try:
                    t0 = time.perf_counter()
                    c0 = time.thread_time()
                    RoutePlanner(board, corp, step.phase, facts=step.facts).best(trains)
                    cpu.append(time.thread_time() - c0)
                    times.append(time.perf_counter() - t0)
                except TilelayError:
                    break  # a train or rule tilelay does not model yet
                finally:
                    gc.enable()
                if times[-1] > ONCE:
                    break  # a long position: its scheduler's pauses are lost in its time
            if times:
                out[step.action_id] = min(times)
                CPU.append(min(cpu))
    except TilelayError as err:
        return out, str(err)
    return out, None


def compare(only: list[str]) -> None:
    ours_all: list[float] = []
    pairs: list[tuple[float, float, str]] = []
    sources: set[str] = set()
    per_game: list[tuple[str, int, float, float, float, float]] = []
    failed: list[str] = []
    paths = [
        p for p in sorted(FIXTURES.glob("*.json")) if not only or any(o in p.stem for o in only)
    ]
    # ours first, alone on the machine; then the engine, on every core
    mine: dict[Path, dict[int | None, float]] = {}
    for path in paths:
        mine[path], error = our_times(path)
        if error:
            failed.append(f"{path.stem}: {error}")
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        engine = dict(zip(paths, pool.map(engine_times, paths), strict=True))
    for path in paths:
        ours = mine[path]
        ours_all.extend(ours.values())
        theirs, source = engine[path]
        sources.add(source)
        both = [(ours[i], theirs[i], f"{path.stem} {i}") for i in ours if i in theirs]
        pairs.extend(both)
        if both:
            o = [b[0] for b in both]
            e = [b[1] for b in both]
            per_game.append(
                (path.stem, len(both), statistics.median(o), max(o), statistics.median(e), max(e))
            )
    print(f"engine times: {'; '.join(sorted(sources))}")
    if failed:
        print(f"records replayed only in part ({len(failed)}):")
        for line in failed:
            print(f"  {line}")
    print(
        f"\n{'fixture':<34} {'positions':>9} {'ours med':>9} {'ours max':>9} "
        f"{'eng med':>9} {'eng max':>9}  (ms)"
    )
    for stem, n, om, ox, em, ex in per_game:
        print(
            f"{stem[:34]:<34} {n:>9} {om * 1000:9.2f} {ox * 1000:9.1f} "
            f"{em * 1000:9.2f} {ex * 1000:9.1f}"
        )
    if not pairs:
        return
    ours = [p[0] for p in pairs]
    theirs = [p[1] for p in pairs]
    worst_ours = max(pairs, key=lambda p: p[0])
    worst_theirs = max(pairs, key=lambda p: p[1])
    print()
    print_table(
        f"best routes per position, {len(pairs)} positions both answer "
        f"(ours on all {len(ours_all)}: median {statistics.median(ours_all) * 1000:.2f} ms, "
        f"worst {max(ours_all) * 1000:.1f} ms)",
        [
            ("18xx.games engine: median", statistics.median(theirs), "walk + combination"),
            ("tilelay: median", statistics.median(ours), "graph + routes + combination"),
            ("18xx.games engine: worst", max(theirs), worst_theirs[2]),
            ("tilelay: worst", max(ours), worst_ours[2]),
        ],
    )
    if CPU:
        print(
            f"tilelay CPU time per position: median {statistics.median(CPU) * 1000:.2f} ms, "
            f"worst {max(CPU) * 1000:.1f} ms"
        )
    med = statistics.median(theirs) / statistics.median(ours)
    worst = max(theirs) / max(ours)
    print(
        f"ratio engine/ours: median {med:.0f}x, worst {worst:.0f}x (targets: 30x each; "
        f"ours median < 1 ms, worst < 50 ms)"
    )


def dense() -> None:
    """Denser positions: each built-in game's final board with the first corporation's token
    in every city that has room, running 6+D and D+D+D trains (the naive peer where
    feasible)."""
    rows: list[tuple[str, float, str]] = []
    for name in ("1889_314.json", "1830_26855.json", "18Chesapeake_1277.json"):
        path = FIXTURES / name
        if not path.exists():
            continue
        try:
            board = replay(load_record(path)).board
        except TilelayError:
            continue
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
            naive = naive_total(board, corp, phase, trains)
            peer = time.perf_counter() - t1
            label = f"{path.stem[:12]} {corp} {'+'.join(names)}"
            note = f"{result.candidates} routes, revenue {result.revenue}"
            if naive is None:
                rows.append((label, ours, note + "; naive: too many combinations"))
            else:
                assert naive == result.revenue
                rows.append(
                    (label, ours, note + f"; naive {peer * 1000:.1f} ms ({peer / ours:.0f}x)")
                )
    print()
    print_table("dense positions (final boards, tokens everywhere there is room)", rows)


if __name__ == "__main__":
    main(sys.argv[1:])
