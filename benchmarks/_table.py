"""A tiny helper shared by the benchmarks: time a function and print a table."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_of(fn: Callable[[], object], repeat: int = 5) -> float:
    """The fastest of ``repeat`` runs of ``fn``, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def print_table(title: str, rows: list[tuple[str, float, str]], peer: str | None = None) -> None:
    """Print ``(name, seconds, unit note)`` rows; with ``peer``, each row's ratio to that row."""
    base = dict((r[0], r[1]) for r in rows).get(peer) if peer else None
    print(title)
    print(f"{'measure':<44} {'time':>12} {'vs peer':>9}  note")
    for name, seconds, note in rows:
        ratio = f"{base / seconds:8.1f}x" if base else ""
        print(f"{name:<44} {seconds * 1000:10.2f}ms {ratio:>9}  {note}")
