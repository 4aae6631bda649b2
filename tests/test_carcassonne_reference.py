"""A slow, obviously correct reference for Carcassonne placement, followers and scoring.

It works only from the tile model (features with sides and half-edges) and a plain dict of
placed tiles, by brute force and flood fill, and shares no code with the engine's frontier,
fit tables or union-find. The property tests and the benchmark compare the engine with it.
"""

from __future__ import annotations

from collections import deque

from tilelay.carcassonne.board import Board, FarmScoring, Rules
from tilelay.carcassonne.tile import OPPOSITE_HALF, Feature, Kind, TileType

Pos = tuple[int, int]
Node = tuple[int, int, int]  # x, y, feature index
STEP = {0: (0, -1), 1: (1, 0), 2: (0, 1), 3: (-1, 0)}


class RefBoard:
    """Placed tiles as a dict, with brute-force queries."""

    def __init__(self) -> None:
        self.tiles: dict[Pos, tuple[TileType, int]] = {}

    @classmethod
    def of(cls, board: Board) -> RefBoard:
        ref = cls()
        for name, p in board.placements_made():
            ref.tiles[(p.x, p.y)] = (board.tileset.type(name), p.rotation)
        return ref

    def features(self, pos: Pos) -> tuple[Feature, ...]:
        tile, rot = self.tiles[pos]
        return tile.rotated_features(rot)

    # --- placement ---------------------------------------------------------------------------

    def fits(self, tile: TileType, pos: Pos, rot: int) -> bool:
        if pos in self.tiles:
            return False
        edges = tile.edges(rot)
        touching = 0
        for side, (dx, dy) in STEP.items():
            other = self.tiles.get((pos[0] + dx, pos[1] + dy))
            if other is None:
                continue
            touching += 1
            if other[0].edges(other[1])[(side + 2) % 4] != edges[side]:
                return False
        return touching > 0

    def legal(self, tile: TileType) -> set[tuple[int, int, int]]:
        empty_next_to_a_tile = {
            (x + dx, y + dy)
            for x, y in self.tiles
            for dx, dy in STEP.values()
            if (x + dx, y + dy) not in self.tiles
        }
        return {
            (x, y, rot)
            for x, y in empty_next_to_a_tile
            for rot in range(4)
            if self.fits(tile, (x, y), rot)
        }

    def all_match(self) -> bool:
        """Whether every placed tile matches all its neighbours."""
        for (x, y), (tile, rot) in self.tiles.items():
            edges = tile.edges(rot)
            for side, (dx, dy) in STEP.items():
                other = self.tiles.get((x + dx, y + dy))
                if other and other[0].edges(other[1])[(side + 2) % 4] != edges[side]:
                    return False
        return True

    # --- regions -----------------------------------------------------------------------------

    def links(self, node: Node) -> list[Node]:
        x, y, i = node
        f = self.features((x, y))[i]
        out = []
        for side, (dx, dy) in STEP.items():
            npos = (x + dx, y + dy)
            if npos not in self.tiles:
                continue
            for j, g in enumerate(self.features(npos)):
                if g.kind is not f.kind:
                    continue
                if (
                    f.kind in (Kind.CITY, Kind.ROAD)
                    and f.sides >> side & 1
                    and (g.sides >> ((side + 2) % 4) & 1)
                ):
                    out.append((npos[0], npos[1], j))
                if f.kind is Kind.FARM:
                    for h in (2 * side, 2 * side + 1):
                        if f.halves >> h & 1 and g.halves >> OPPOSITE_HALF[h] & 1:
                            out.append((npos[0], npos[1], j))
        return out

    def region(self, node: Node) -> set[Node]:
        seen = {node}
        todo = deque([node])
        while todo:
            for nxt in self.links(todo.popleft()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    def all_regions(self) -> list[set[Node]]:
        seen: set[Node] = set()
        out = []
        for (x, y), _t in sorted(self.tiles.items()):
            for i in range(len(self.features((x, y)))):
                if (x, y, i) not in seen:
                    reg = self.region((x, y, i))
                    seen |= reg
                    out.append(reg)
        return out

    def kind(self, region: set[Node]) -> Kind:
        x, y, i = next(iter(region))
        return self.features((x, y))[i].kind

    def complete(self, region: set[Node]) -> bool:
        kind = self.kind(region)
        if kind is Kind.FARM:
            return False
        if kind is Kind.MONASTERY:
            return self.monastery_count(region) == 9
        for x, y, i in region:
            f = self.features((x, y))[i]
            for side, (dx, dy) in STEP.items():
                if f.sides >> side & 1 and (x + dx, y + dy) not in self.tiles:
                    return False
        return True

    def monastery_count(self, region: set[Node]) -> int:
        ((x, y, _i),) = region
        return sum(1 for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (x + dx, y + dy) in self.tiles)

    def tiles_of(self, region: set[Node]) -> int:
        return len({(x, y) for x, y, _i in region})

    def pennants(self, region: set[Node]) -> int:
        return sum(self.features((x, y))[i].pennants for x, y, i in region)


def positions(board: Board) -> list[Pos]:
    return [(p.x, p.y) for _name, p in board.placements_made()]


def followers_now(board: Board, ref: RefBoard) -> list[tuple[int, Node]]:
    """Followers on the board now (before the last tile's features are scored), from the log
    of all followers ever placed: those on roads, cities and monasteries completed before the
    last tile went home."""
    pos = positions(board)
    lx, ly = pos[-1]
    out = []
    for player, _node, number, feature in board.follower_log:
        x, y = pos[number]
        node = (x, y, feature)
        region = ref.region(node)
        kind = ref.kind(region)
        if kind is Kind.MONASTERY:
            # completed by the last tile: not scored yet
            just_done = abs(x - lx) <= 1 and abs(y - ly) <= 1
        else:
            just_done = any((rx, ry) == (lx, ly) for rx, ry, _i in region)
        if kind is Kind.FARM or not ref.complete(region) or just_done:
            out.append((player, node))
    return out


def ref_follower_options(board: Board, player: int) -> list[int]:
    """Features of the last placed tile where ``player`` may put a follower."""
    ref = RefBoard.of(board)
    now = followers_now(board, ref)
    if sum(1 for p, _n in now if p == player) >= board.rules.followers:
        return []
    x, y = positions(board)[-1]
    taken = {n for _p, n in now}
    return [i for i in range(len(ref.features((x, y)))) if not ref.region((x, y, i)) & taken]


def ref_scores(board: Board, players: int, rules: Rules | None = None) -> list[int]:
    """Every player's total at the end, recounted from the final board and the follower log."""
    rules = rules or Rules()
    ref = RefBoard.of(board)
    pos = positions(board)
    placed: dict[Node, list[int]] = {}
    for player, _node, number, feature in board.follower_log:
        x, y = pos[number]
        placed.setdefault((x, y, feature), []).append(player)
    scores = [0] * players

    def winners(region: set[Node] | list[set[Node]]) -> list[int]:
        regions = region if isinstance(region, list) else [region]
        counts = [0] * players
        for reg in regions:
            for node in reg:
                for p in placed.get(node, []):
                    counts[p] += 1
        best = max(counts)
        return [p for p in range(players) if best and counts[p] == best]

    regions = ref.all_regions()
    region_of: dict[Node, int] = {}
    for k, reg in enumerate(regions):
        for node in reg:
            region_of[node] = k
    city_farms: dict[int, list[set[Node]]] = {}
    for reg in regions:
        kind = ref.kind(reg)
        tiles = ref.tiles_of(reg)
        done = ref.complete(reg)
        if kind is Kind.FARM:
            cities = set()
            for x, y, i in reg:
                for t in ref.features((x, y))[i].touches:
                    cities.add(region_of[(x, y, t)])
            complete = [c for c in cities if ref.complete(regions[c])]
            if rules.farm_scoring is FarmScoring.FIRST_EDITION:
                for c in complete:
                    city_farms.setdefault(c, []).append(reg)
                continue
            points = 3 * len(complete)
        elif kind is Kind.MONASTERY:
            points = ref.monastery_count(reg)
        elif kind is Kind.ROAD:
            points = tiles
        elif done:
            small = rules.first_edition_small_city and tiles == 2
            points = (1 if small else 2) * (tiles + ref.pennants(reg))
        else:
            points = tiles + ref.pennants(reg)
        for p in winners(reg):
            scores[p] += points
    for _c, farms in city_farms.items():
        for p in winners(farms):
            scores[p] += 4
    return scores


def test_reference_scores_a_completed_city() -> None:
    board = Board(players=2)
    board.place_at("E", 0, -1, 2)
    board.place_follower(1, 0)
    board.score_turn()
    assert ref_scores(board, 2) == [0, 4]
    assert RefBoard.of(board).legal(board.tileset.type("X")) == {(-1, 0, r) for r in range(4)} | {
        (1, 0, r) for r in range(4)
    }
