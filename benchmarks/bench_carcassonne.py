"""Benchmark: random two-player Carcassonne games.

Run: ``.venv/bin/python benchmarks/bench_carcassonne.py [--games N] [--peer-games M]``

Each turn enumerates every legal placement of the drawn tile, the follower options of the
chosen placement, and scores what the tile completed; the end of the game scores the rest.
The second row also works out the follower options of *every* legal placement (without
placing). The "peer" row replays the same games with the slow, obviously correct reference
search of the tests (tests/test_carcassonne_reference.py) doing the same enumeration.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from test_carcassonne_reference import RefBoard, ref_follower_options  # noqa: E402

from tilelay.carcassonne.board import Board, key_of  # noqa: E402
from tilelay.carcassonne.game import Game, RandomPlayer  # noqa: E402
from tilelay.carcassonne.tileset import base_tileset  # noqa: E402


def play(seed: int) -> Game:
    """One random two-player game."""
    game = Game([RandomPlayer(f"{seed}:0"), RandomPlayer(f"{seed}:1")], seed)
    game.play()
    return game


CPU_SECONDS: dict[str, float] = {}


def bench_engine(games: int, **options: bool) -> tuple[float, int, int]:
    """Seconds, placements enumerated and follower spots offered over ``games`` games (the
    process's CPU seconds go to :data:`CPU_SECONDS`, which a busy machine does not inflate)."""
    placements = spots = 0
    start = time.perf_counter()
    cpu = time.process_time()
    for seed in range(games):
        game = Game([RandomPlayer(f"{seed}:0"), RandomPlayer(f"{seed}:1")], seed, **options)
        game.play()
        placements += game.enumerated
        spots += game.follower_spots
    CPU_SECONDS[",".join(options) or "base"] = time.process_time() - cpu
    return time.perf_counter() - start, placements, spots


def bench_all_spots(games: int) -> tuple[float, int, int]:
    """Like :func:`bench_engine`, also finding the follower options of every placement."""
    placements = spots = 0
    start = time.perf_counter()
    for seed in range(games):
        game = Game([RandomPlayer(f"{seed}:0"), RandomPlayer(f"{seed}:1")], seed)
        board = game.board
        while game.pile:
            tile = game.pile[-1]
            options = board.legal_keys(tile)
            for key, rot in options:
                spots += len(board.free_features_if(tile, key, rot))
            game.step()
        game.step()
        placements += game.enumerated
    return time.perf_counter() - start, placements, spots


def bench_peer(games: int) -> tuple[float, int, int]:
    """The reference search on the same games as :func:`bench_engine` (first ``games``)."""
    ts = base_tileset()
    index = {t.name: i for i, t in enumerate(ts.types)}
    recorded = [play(seed) for seed in range(games)]
    placements = spots = 0
    start = time.perf_counter()
    for game in recorded:
        board = Board(ts, players=2)
        for turn in game.turns:
            ref = RefBoard.of(board)
            for name in turn.discarded:
                placements += len(ref.legal(ts.type(name)))
            placements += len(ref.legal(ts.type(turn.tile)))
            p = turn.placement
            board.place(index[turn.tile], key_of(p.x, p.y), p.rotation)
            spots += len(ref_follower_options(board, turn.player))
            if turn.follower is not None:
                board.place_follower(turn.player, turn.follower)
            board.score_turn()
    return time.perf_counter() - start, placements, spots


def main() -> int:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--peer-games", type=int, default=5)
    args = parser.parse_args()
    play(0)  # warm the caches (tile set, fit table)
    rows = [
        ("tilelay (incremental)", args.games, *bench_engine(args.games)),
        (
            "tilelay, River + Abbot",
            args.games,
            *bench_engine(args.games, river=True, abbot=True),
        ),
        ("tilelay + spots of every placement", args.games, *bench_all_spots(args.games)),
        ("peer: reference search (tests)", args.peer_games, *bench_peer(args.peer_games)),
    ]
    print(
        f"{'engine':36} {'games':>6} {'ms/game':>9} {'games/s':>9} {'placements/s':>13} "
        f"{'spots/s':>11}"
    )
    for name, games, seconds, placements, spots in rows:
        print(
            f"{name:36} {games:6d} {1000 * seconds / games:9.3f} {games / seconds:9.1f} "
            f"{placements / seconds:13,.0f} {spots / seconds:11,.0f}"
        )
    ours = rows[0][2] / rows[0][1]
    peer = rows[3][2] / rows[3][1]
    print(
        f"ratio ours/peer (time per game): {ours / peer:.5f}  (ours is {peer / ours:,.0f}x faster)"
    )
    cpu = CPU_SECONDS["base"] / args.games
    print(
        f"target: < 5 ms per two-player game: {'met' if ours < 0.005 else 'NOT met'} "
        f"({1000 * ours:.2f} ms wall, {1000 * cpu:.2f} ms CPU; River + Abbot "
        f"{1000 * CPU_SECONDS['river,abbot'] / args.games:.2f} ms CPU)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
