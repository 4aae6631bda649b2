"""Importing every game of the 18xx.games engine from its Ruby sources.

Ours: :func:`tilelay.sources.engine.read_games` over the reference checkout — parse every
file a game is made of with tree-sitter-ruby and evaluate its data constants (130 games).

Peer, measured in the same run: the engine itself loading the same games under Debian's
Ruby (``reference/18xxgames/oracle/facts.rb``: it requires the whole engine, then reads each
game's constants and writes them as JSON). Its time inside Ruby is split into loading the
engine and reading the games; the wall clock adds Ruby's start. Needs ``ruby`` (``apt-get
install -y ruby``); without it that row is left out. The floor: tree-sitter's bare parse of
the same files, without building or evaluating anything.

Run: ``.venv/bin/python benchmarks/bench_engine_import.py``
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import tree_sitter
import tree_sitter_ruby
from _table import best_of, print_table

from tilelay.sources.engine import EngineCheckout, read_games

REF = Path(__file__).resolve().parents[1].parent / "shared" / "reference" / "18xxgames"

# Times the engine's own load and facts pass from inside Ruby (facts.rb does the same work).
PEER = r"""
t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
require File.join(ARGV[0], 'shim')
require 'engine'
require 'json'
t1 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
n = 0
Engine::GAME_META_BY_TITLE.each_key do |title|
  klass = Engine.game_by_title(title)
  c = ->(name) { klass.const_defined?(name) ? klass.const_get(name) : nil }
  JSON.generate([c.(:HEXES), c.(:TILES), c.(:LOCATION_NAMES), c.(:TRAINS), c.(:PHASES),
                 c.(:CORPORATIONS), c.(:COMPANIES)])
  n += 1
end
t2 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
puts "#{n} #{t1 - t0} #{t2 - t1}"
"""


def ruby_peer(oracle: Path) -> tuple[float, float, float, int] | None:
    """(wall clock, load, read, games) of the best of 3 runs of the engine under Ruby."""
    if shutil.which("ruby") is None:
        return None
    best: tuple[float, float, float, int] | None = None
    with tempfile.NamedTemporaryFile("w", suffix=".rb") as script:
        script.write(PEER)
        script.flush()
        for _ in range(3):
            t0 = time.perf_counter()
            out = subprocess.run(
                ["ruby", script.name, str(oracle)],
                capture_output=True,
                text=True,
                check=True,
                env={"ENGINE_LOG_LEVEL": "4", "PATH": "/usr/bin:/bin"},
            ).stdout.split()
            wall = time.perf_counter() - t0
            run = (wall, float(out[1]), float(out[2]), int(out[0]))
            if best is None or run[0] < best[0]:
                best = run
    return best


def main() -> None:
    engine = REF / "engine"
    if not engine.is_dir():
        print(f"reference data absent: {engine}")
        return
    checkout = EngineCheckout(engine)
    n_games = len(read_games(engine))  # warm the file cache
    files = sorted(checkout.game_dir.glob("g_*/*.rb"))
    sources = [f.read_bytes() for f in files]
    parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_ruby.language()))

    ours = best_of(lambda: read_games(engine), repeat=3)
    floor = best_of(lambda: [parser.parse(s) for s in sources], repeat=3)

    def read_only() -> None:
        co = EngineCheckout(engine)
        co.load_all()
        t0 = time.perf_counter()
        for name in co.games():
            co.read(name)
        timings.append(time.perf_counter() - t0)

    timings: list[float] = []
    best_of(read_only, repeat=3)
    evaluate = min(timings)

    rows = [
        ("tree-sitter bare parse of g_*/*.rb (floor)", floor, f"{len(files)} files"),
        ("tilelay read_games (parse + evaluate)", ours, f"{n_games / ours:,.0f} games/s"),
        ("  of which evaluating, files parsed", evaluate, f"{n_games} games"),
    ]
    peer_name = None
    peer = ruby_peer(REF / "oracle")
    if peer is not None:
        wall, load, read, n = peer
        peer_name = "engine under Ruby, wall clock (peer)"
        rows.insert(0, (peer_name, wall, f"{n} games, Ruby start included"))
        rows.insert(1, ("  engine: require 'engine' (all games)", load, "inside Ruby"))
        rows.insert(2, ("  engine: read constants + JSON", read, "inside Ruby"))
    else:
        print("ruby not found: the engine peer is left out (apt-get install -y ruby)")
    print_table(
        f"importing every game of the 18xx.games engine ({n_games} games)",
        rows,
        peer=peer_name,
    )


if __name__ == "__main__":
    main()
