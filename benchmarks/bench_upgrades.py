"""Time to compute a whole game's upgrade table.

tilelay's :func:`tilelay.upgrades.upgrade_table` (track reduced once per tile, exits checked as
bit masks, rotations applied to the reduced track) against a named peer measured in the same
run: **naive**, which for every pair and each of the 6 rotations turns the new tile with
``Tile.rotated`` and recomputes its track (``Tile.node_exits``/``paths``) from scratch, with no
caching, then applies the same rules. Both must give the same table.

Run: ``.venv/bin/python benchmarks/bench_upgrades.py``
"""

from __future__ import annotations

from pathlib import Path

from _table import best_of

from tilelay.games import load_game
from tilelay.tile import Edge, NodeKind, Tile
from tilelay.upgrades import rules_for, upgrade_table

REFERENCE = Path(__file__).resolve().parents[1].parent / "shared" / "reference"


def naive_table(
    tiles: list[Tile], steps: frozenset[tuple[object, object]]
) -> dict[tuple[str, str], tuple[int, ...]]:
    """Legal rotations per pair, by full recomputation per rotation (edge/node paths)."""
    out: dict[tuple[str, str], tuple[int, ...]] = {}
    for old in tiles:
        for new in tiles:
            if new.name == old.name or (old.color, new.color) not in steps:
                continue
            if (old.label or None) != (new.label or None):
                continue
            rots = tuple(r for r in range(6) if _naive_ok(old, new.rotated(r)))  # no cache
            if rots:
                out[(old.name, new.name)] = rots
    return out


def _naive_ok(old: Tile, new: Tile) -> bool:
    if not old.exits() <= new.exits():
        return False
    for p in old.paths:
        if isinstance(p.a, Edge) and isinstance(p.b, Edge):
            want = {p.a.num, p.b.num}
            if not any(
                isinstance(q.a, Edge) and isinstance(q.b, Edge) and {q.a.num, q.b.num} == want
                for q in new.paths
            ):
                return False
    olds = [i for i, n in enumerate(old.nodes) if n.kind in (NodeKind.CITY, NodeKind.TOWN)]
    news = [i for i, n in enumerate(new.nodes) if n.kind in (NodeKind.CITY, NodeKind.TOWN)]
    if len(olds) != len(news):
        return False
    used: set[int] = set()

    def place(k: int) -> bool:
        if k == len(olds):
            return True
        i = olds[k]
        for j in news:
            if j in used or old.nodes[i].kind is not new.nodes[j].kind:
                continue
            if old.node_exits(i) <= new.node_exits(j) and new.nodes[j].slots >= old.nodes[i].slots:
                used.add(j)
                if place(k + 1):
                    return True
                used.discard(j)
        return False

    return place(0)


def main() -> None:
    rows: list[tuple[str, int, int, float, float]] = []
    for name in ("1889", "1830", "18Chesapeake"):
        game = load_game(name)
        tiles = [t for t, _ in game.manifest_tiles()]
        rules = rules_for(name)
        ours = best_of(lambda: upgrade_table(tiles, rules))  # noqa: B023
        peer = best_of(lambda: naive_table(tiles, rules.steps))  # noqa: B023
        table = upgrade_table(tiles, rules, labelled_hexes=False)
        n = len(table)
        naive = naive_table(tiles, rules.steps)
        same = sum(1 for u in table if naive.get((u.old, u.new)) == u.rotations)
        by_name = {t.name: t for t in tiles}
        merges = sum(
            1
            for u in table
            if naive.get((u.old, u.new)) != u.rotations
            and len(by_name[u.new].cities) < len(by_name[u.old].cities)
        )
        print(
            f"{name}: {same}/{n} upgrades with the same rotations in both; {merges} differ "
            "because the labelled cities merge (a rule the naive peer lacks)"
        )
        rows.append((name, len(tiles), n, ours, peer))
    print("Whole-game upgrade table (best of 5)")
    print("peer: naive = every pair x 6 rotations, Tile.rotated + path scan, no caching")
    print(
        f"{'game':14} {'tiles':>5} {'upgrades':>8} {'tilelay ms':>10} {'naive ms':>9} {'ratio':>6}"
    )
    for name, nt, nu, ours, peer in rows:
        print(
            f"{name:14} {nt:5d} {nu:8d} {ours * 1000:10.1f} {peer * 1000:9.1f} {peer / ours:5.1f}x"
        )


if __name__ == "__main__":
    main()
