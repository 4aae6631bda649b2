"""Checking a hand-written tile set (seed 000's ``<game>-TileSet.xml``) against the upgrades
tilelay computes: every listed upgrade and rotation, and the upgrades the list lacks, each
difference classified with its reason (:func:`check_tileset`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from tilelay.hexgeo import Layout, edge_to_xml_side
from tilelay.tile import NodeKind, Tile
from tilelay.upgrades import Placement, Upgrade, UpgradeRules, explain, placements, upgrade_table
from tilelay.xml.tiledefs import node_location
from tilelay.xml.tileset import CityMap, TileManifest, TileSetUpgrade, manifest_layout

__all__ = ["CheckReport", "Finding", "check_tileset", "hand_city_map"]


@dataclass(frozen=True, slots=True)
class Finding:
    """One difference between a hand-written upgrade list and the computed one.

    ``kind`` is ``"rotations"`` (both list the upgrade, the rotations differ after folding the
    new tile's symmetry), ``"only-hand"`` (the hand list has an upgrade tilelay finds illegal),
    ``"only-computed"`` (tilelay finds an upgrade the hand list lacks), ``"not-in-manifest"``
    (the hand list upgrades to a tile it does not list) or ``"city-map"`` (the rotations agree
    once the hand list's ``<RevenueCenter>`` city map is held: the other rotations the track
    allows would send an old city's tokens elsewhere). ``category`` sorts the reason:
    ``"hand-mistake"``, ``"city-map"``, ``"no-definition"``, ``"not-in-manifest"`` or
    ``"computed-only"``. ``reason`` says why in words.
    """

    old: str
    new: str
    kind: str
    hand: tuple[int, ...]
    computed: tuple[int, ...]
    reason: str
    line: int | None = None
    category: str = ""

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line is not None else ""
        return (
            f"{where}{self.old} -> {self.new}: {self.kind}: hand {list(self.hand)}, "
            f"computed {list(self.computed)}: {self.reason}"
        )


@dataclass(frozen=True, slots=True)
class CheckReport:
    """The result of comparing a hand-written tile set with the computed upgrades."""

    listed: int
    agreeing: int
    findings: tuple[Finding, ...]

    @property
    def agreement(self) -> float:
        """The share of hand-listed upgrades whose rotations agree (1.0 when none listed)."""
        return self.agreeing / self.listed if self.listed else 1.0

    @property
    def disagreements(self) -> tuple[Finding, ...]:
        """The hand-listed upgrades whose rotations do not agree."""
        return tuple(f for f in self.findings if f.kind in ("rotations", "only-hand"))


def _classes(tile: Tile, rotations: Iterable[int]) -> dict[object, int]:
    out: dict[object, int] = {}
    for r in sorted(set(rotations)):
        out.setdefault(tile.rotated(r).topology(), r)
    return out


def _node_at(tile: Tile, location: int, layout: Layout) -> int | None:
    for i, node in enumerate(tile.nodes):
        stop = node.kind in (NodeKind.CITY, NodeKind.TOWN)
        if stop and node_location(tile, i, layout) == location:
            return i
    return None


def hand_city_map(
    old: Tile, new: Tile, cities: Iterable[CityMap], rotation: int, layout: Layout = Layout.FLAT
) -> dict[int, int | None] | None:
    """The ``<RevenueCenter from to>`` records that apply in ``rotation`` as node indices.

    Returns old node index → new node index, or ``None`` when there are no records for the
    rotation or one names a location where the tile has no city or town.
    """
    out: dict[int, int | None] = {}
    for c in cities:
        if c.rotation is not None and c.rotation != rotation:
            continue
        i, j = _node_at(old, c.from_loc, layout), _node_at(new, c.to_loc, layout)
        if i is None or j is None:
            return None
        out[i] = j
    return out or None


def _map_misfits(
    old: Tile,
    new: Tile,
    hand: TileSetUpgrade,
    rotations: Iterable[int],
    rules: UpgradeRules,
    computed: Upgrade,
    layout: Layout,
) -> list[tuple[int, str]]:
    """The ``rotations`` in which the hand-written city map cannot hold, with why."""
    out: list[tuple[int, str]] = []
    for r in rotations:
        fixed = hand_city_map(old, new, hand.cities, r, layout)
        if fixed is None:
            continue
        why = explain(
            old,
            new,
            r,
            rules,
            hex_label=computed.hex_label,
            hex_name=computed.hex_name,
            city_map=fixed,
        )
        if why is not None:
            out.append((r, why))
    return out


def _sides(edges: Iterable[int], layout: Layout) -> list[int]:
    return sorted(edge_to_xml_side(e, layout) for e in edges)


def _illegal_why(
    old: Tile,
    new: Tile,
    r: int,
    rules: UpgradeRules,
    label: str | None,
    name: str | None,
    layout: Layout,
) -> str:
    lost = old.exits() - new.rotated(r).exits()
    if lost:
        return f"it drops the old track to side(s) {_sides(lost, layout)}"
    why = explain(old, new, r, rules, hex_label=label, hex_name=name)
    return why or "legal on its own"


def check_tileset(
    manifest: TileManifest,
    tiles: Mapping[str, Tile],
    rules: UpgradeRules,
    computed: Iterable[Upgrade] | None = None,
) -> CheckReport:
    """Compare the hand-written upgrades of ``manifest`` with the computed ones.

    ``tiles`` maps tile numbers to tile definitions. Rotations are folded by the new tile's
    symmetry before comparing. Where the hand list maps cities (``<RevenueCenter from to>``),
    a computed rotation that needs another map (the tokens of an old city would go to another
    new city) is not counted against it: the finding says so (``"city-map"``). Every
    difference is returned with its reason; sides in reasons are the file's own (seed 000).
    """
    layout = manifest_layout(manifest)
    numbers = [t.number for t in manifest.entries()]
    have = [tiles[n] for n in numbers if n in tiles]
    table = list(computed) if computed is not None else upgrade_table(have, rules)
    by_pair = {(u.old, u.new): u for u in table}
    findings: list[Finding] = []
    listed_numbers = set(numbers)
    listed = agreeing = 0
    hand_pairs: set[tuple[str, str]] = set()
    for entry in manifest.entries():
        for hu in entry.upgrades:
            hand_pairs.add((entry.number, hu.to))
            listed += 1
            old, new = tiles.get(entry.number), tiles.get(hu.to)
            if old is None or new is None:
                missing = entry.number if old is None else hu.to
                findings.append(
                    Finding(
                        entry.number,
                        hu.to,
                        "only-hand",
                        hu.rotations,
                        (),
                        f"tile {missing} has no definition",
                        hu.line,
                        "no-definition",
                    )
                )
                continue
            cu = by_pair.get((entry.number, hu.to))
            label = hu.base_tile_name
            if label is None and old.label is None and new.label is not None:
                label = new.label  # the map hex carries the label
            name = hu.base_city_name
            if cu is None and hu.to not in listed_numbers:
                # an upgrade to a tile the manifest lacks: compare rotations all the same
                found = placements(old, new, rules, hex_label=label, hex_name=name)
                cu = _as_upgrade(entry.number, hu.to, found) if found else None
                findings.append(
                    Finding(
                        entry.number,
                        hu.to,
                        "not-in-manifest",
                        hu.rotations,
                        cu.rotations if cu else (),
                        f"tile {hu.to} is not in the manifest (a mistake in the hand-written "
                        "tile set: the upgrade or the manifest entry)",
                        hu.line,
                        "not-in-manifest",
                    )
                )
            comp = cu.rotations if cu is not None else ()
            hand_c = _classes(new, hu.rotations)
            if cu is not None and set(hand_c) == set(_classes(new, comp)):
                agreeing += 1
                bad = _map_misfits(old, new, hu, hu.rotations, rules, cu, layout)
                if bad:
                    findings.append(
                        Finding(
                            entry.number,
                            hu.to,
                            "city-map",
                            hu.rotations,
                            comp,
                            "mistake in the hand-written city map (the rotations agree): "
                            + "; ".join(f"rotation {r}: {why}" for r, why in bad),
                            hu.line,
                            "hand-mistake",
                        )
                    )
                continue
            # rotations the hand list leaves out because its city map does not fit them
            extra = [r for r in comp if new.rotated(r).topology() not in hand_c]
            moved = _map_misfits(old, new, hu, extra, rules, cu, layout) if cu else []
            moved_rots = {r for r, _ in moved}
            comp_c = _classes(new, [r for r in comp if r not in moved_rots])
            moved_text = "; ".join(
                f"rotation {r} keeps the track but not the hand-written city map "
                f"({', '.join(f'{c.from_loc}->{c.to_loc}' for c in hu.cities)}): {why}"
                for r, why in moved
            )
            if set(hand_c) == set(comp_c) and cu is not None:
                agreeing += 1
                findings.append(
                    Finding(
                        entry.number,
                        hu.to,
                        "city-map",
                        hu.rotations,
                        comp,
                        "city positions kept for tokens: " + moved_text,
                        hu.line,
                        "city-map",
                    )
                )
                continue
            reasons: list[str] = []
            for key, r in sorted(hand_c.items(), key=lambda kv: kv[1]):
                if key not in comp_c:
                    why = _illegal_why(old, new, r, rules, label, name, layout)
                    reasons.append(
                        f"mistake in the hand-written list: rotation {r} is illegal ({why})"
                    )
            for key, r in sorted(comp_c.items(), key=lambda kv: kv[1]):
                if key not in hand_c:
                    reasons.append(
                        f"mistake in the hand-written list: it omits rotation {r}, which keeps "
                        "every path and maps each old city onto a new one with its exits"
                    )
            if moved_text:
                reasons.append(moved_text)
            if name is not None:
                reasons.append(f"the hand list restricts it to the hex named {name}")
            findings.append(
                Finding(
                    entry.number,
                    hu.to,
                    "rotations" if cu is not None else "only-hand",
                    hu.rotations,
                    comp,
                    "; ".join(reasons) or "differs",
                    hu.line,
                    "hand-mistake",
                )
            )
    for u in table:
        if (u.old, u.new) in hand_pairs:
            continue
        bits = ["the hand-written list lacks this legal upgrade"]
        if u.hex_label is not None:
            bits.append(f"only on a hex labelled {u.hex_label}")
        if u.hex_name is not None:
            bits.append(f"only on the hex named {u.hex_name}")
        if u.rule is not None:
            bits.append(f"by the game rule '{u.rule}'")
        findings.append(
            Finding(
                u.old,
                u.new,
                "only-computed",
                (),
                u.rotations,
                "; ".join(bits),
                category="computed-only",
            )
        )
    return CheckReport(listed=listed, agreeing=agreeing, findings=tuple(findings))


def _as_upgrade(old: str, new: str, found: tuple[Placement, ...]) -> Upgrade:
    return Upgrade(old=old, new=new, rotations=tuple(p.rotation for p in found), placements=found)
