"""Seed-000 Tile Definitions: tiles/s read (hardened parse + model) and written.

Peer: the standard library's ``xml.etree.ElementTree`` parsing the same bytes with no
hardening and no model (just walking every element) — the floor any reader pays.
Run: ``.venv/bin/python benchmarks/bench_xml.py``.
"""

from __future__ import annotations

import time
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

from tilelay.xml.tiledefs import read_tiledefs, write_tiledefs

REF = Path(__file__).resolve().parents[1].parent / "shared" / "reference" / "ge18xx" / "Tiles"


def best(fn: Callable[[], object], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    files = [
        REF / f"{c}-Tile-Definitions.xml" for c in ("Yellow", "Green", "Brown", "Grey", "Other")
    ]
    if not all(f.exists() for f in files):
        print(f"reference data absent: {REF}")
        return
    tiles = [t for f in files for t in read_tiledefs(f)]
    data = write_tiledefs(tiles * 4).encode()  # 924 tiles
    n = len(tiles) * 4
    models = read_tiledefs(data)

    def peer() -> None:
        root = ET.fromstring(data)
        sum(1 for _ in root.iter())

    t_read = best(lambda: read_tiledefs(data))
    t_write = best(lambda: write_tiledefs(models))
    t_peer = best(peer)
    print(f"{'task':<38}{'tiles/s':>12}{'ms':>9}{'vs peer':>9}")
    rows = [
        ("stdlib ElementTree parse+walk (peer)", t_peer),
        ("tilelay read (hardened lxml + model)", t_read),
        ("tilelay write", t_write),
    ]
    for label, t in rows:
        print(f"{label:<38}{n / t:>12.0f}{t * 1e3:>9.1f}{t_peer / t:>9.2f}")


if __name__ == "__main__":
    main()
