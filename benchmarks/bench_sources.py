"""Benchmark: games from other engines' sources, cold and from the cache, and their maps.

* importing every game of the 18xx.games engine as tilelay games (discover + read + build
  each :class:`~tilelay.games.Game`), first with an empty cache (cold), then again from the
  on-disk cache (warm), in process; and the start of a process that knows every engine game
  (``tilelay --games ENGINE games --json``), cold and warm. Peer: the engine itself loading
  all its games under Ruby (``require 'engine'`` and reading every game's constants), where
  Ruby is present;
* pages per second of ``/map/<title>`` for the largest maps of each format, through the web
  app in process (Starlette's TestClient), beside drawing the same map with
  :func:`tilelay.svg.map_svg` directly (the peer: the page's own drawing).

Run: ``.venv/bin/python benchmarks/bench_sources.py``
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _table import best_of, print_table
from bench_engine_import import ruby_peer

from tilelay import svg
from tilelay.games import load_game, registry
from tilelay.sources.games import add_paths, discover

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

REF = Path(__file__).resolve().parents[2] / "shared" / "reference"
ENGINE = REF / "18xxgames" / "engine"
LARGEST = ("18C2C@rails", "1807", "1822", "1870@ge18xx", "1853")


def _import_all() -> int:
    entries = discover(ENGINE)
    for entry in entries:
        entry.load()
    return len(entries)


def _process_start(cache: str) -> float:
    env = dict(os.environ, TILELAY_CACHE=cache)
    tilelay = str(Path(sys.executable).with_name("tilelay"))
    t0 = time.perf_counter()
    subprocess.run(
        [tilelay, "--games", str(ENGINE), "games", "--json"],
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return time.perf_counter() - t0


def imports() -> None:
    with tempfile.TemporaryDirectory() as cache:
        os.environ["TILELAY_CACHE"] = cache
        t0 = time.perf_counter()
        n = _import_all()
        cold = time.perf_counter() - t0
        warm = best_of(_import_all, repeat=3)
    with tempfile.TemporaryDirectory() as cache:
        start_cold = _process_start(cache)
        start_warm = min(_process_start(cache) for _ in range(3))
    rows = [
        ("tilelay: every engine game, cold (empty cache)", cold, f"{n} games"),
        ("tilelay: every engine game, warm (cache)", warm, f"{cold / warm:.0f}x faster"),
        ("process: tilelay --games ENGINE games, cold", start_cold, "start to exit"),
        ("process: the same, warm", start_warm, "target: under 2 s"),
    ]
    peer_name = None
    peer = ruby_peer(REF / "18xxgames" / "oracle")
    if peer is not None:
        peer_name = "engine under Ruby: every game loaded (peer)"
        rows.insert(0, (peer_name, peer[0], f"{peer[3]} games, Ruby start included"))
    else:
        print("ruby not found: the engine peer is left out (apt-get install -y ruby)")
    print_table("games from the 18xx.games engine's sources", rows, peer=peer_name)


def maps() -> None:
    from tilelay.web import create_app

    with tempfile.TemporaryDirectory() as cache:
        os.environ["TILELAY_CACHE"] = cache
        add_paths([ENGINE, REF / "rails", REF / "ge18xx"])
        rows: list[tuple[str, float, str]] = []
        with TestClient(create_app()) as client:
            for name in LARGEST:
                game = load_game(name)
                assert client.get(f"/map/{name}").status_code == 200  # warm caches
                page = best_of(lambda name=name: client.get(f"/map/{name}"), repeat=5)
                draw = best_of(lambda game=game: svg.map_svg(game, size=40), repeat=5)
                rows.append((f"peer: svg.map_svg {name}", draw, f"{len(game.hexes)} hexes"))
                rows.append((f"GET /map/{name}", page, f"{1 / page:,.1f} pages/s"))
        registry.reset()
    print_table("the largest maps (each GET beside its own drawing)", rows)


def main() -> None:
    if not ENGINE.is_dir():
        print(f"reference data absent: {ENGINE}")
        return
    imports()
    maps()


if __name__ == "__main__":
    main()
