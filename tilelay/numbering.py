"""Tile numbers across every game and format: which are defined differently, and a renumbering
that makes every number unique.

Seed 000 says tile numbers are meant to be unique across all games, but overlap where
designers worked in parallel, "still to be resolved". Here every definition of a number is
gathered — the generic catalogue, each known game's manifest tiles (built-in, 18xx.games,
Rails, GE18XX) and any tile files — and grouped into *kinds*: two definitions are the same
kind when they have the same colour, the same track up to rotation (:meth:`Tile.topology`),
the same stops with the same revenues and slots, and the same labels. Drawing details (where
a city or a revenue sits, names) do not count. A number with two kinds or more is a
:class:`Conflict`, which says how its kinds differ and who uses each.

:func:`propose_renumbering` keeps each number for one kind and gives the others fresh numbers,
choosing the kinds to keep so that as few games as possible change any number.

>>> from tilelay.dsl import parse
>>> a = parse("city=revenue:20;path=a:0,b:_0", name="X1", color="yellow")
>>> b = parse("city=revenue:30;path=a:0,b:_0", name="X1", color="yellow")
>>> [c.name for c in conflicts([("game A", [a]), ("game B", [b])], include_catalogue=False)]
['X1']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tilelay import catalogue, dsl
from tilelay.catalogue import natural_key
from tilelay.convert import same_connections_up_to_rotation, to_dsl
from tilelay.games.registry import entries
from tilelay.tile import NodeKind, Tile

__all__ = [
    "FRESH_START",
    "Conflict",
    "Kind",
    "Renumbering",
    "conflicts",
    "game_sources",
    "propose_renumbering",
]

#: Fresh numbers for renumbered tiles start here (above every number games use today).
FRESH_START = 10000

#: The label of the generic catalogue among the sources.
CATALOGUE = "catalogue"


def _signature(tile: Tile) -> tuple[object, ...]:
    track = min((repr(tile.rotated(r).topology()) for r in range(6)), default="")
    stops = sorted(
        (n.kind.value, str(n.revenue) if n.revenue is not None else "", n.slots)
        for n in tile.nodes
        if n.kind is not NodeKind.JUNCTION
    )
    labels = sorted(label.text.strip().upper() for label in tile.labels)
    return (tile.color.value, track, tuple(stops), tuple(labels))


@dataclass(frozen=True, slots=True)
class Kind:
    """One way a number is defined: an example tile (its tile string in :attr:`code`) and
    the sources using it (game titles, files, ``catalogue``)."""

    code: str
    color: str
    users: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Conflict:
    """A tile number with several kinds; ``differences`` says how they differ."""

    name: str
    kinds: tuple[Kind, ...]
    differences: tuple[str, ...]

    @property
    def users(self) -> tuple[str, ...]:
        """Every source using the number, in any kind."""
        return tuple(u for k in self.kinds for u in k.users)


def _differences(tiles: Sequence[Tile]) -> tuple[str, ...]:
    first = tiles[0]
    out: list[str] = []

    def differ(what: str, values: Iterable[object]) -> None:
        shown = sorted({str(v) for v in values})
        if len(shown) > 1:
            out.append(f"{what}: {' / '.join(shown)}")

    differ("colour", (t.color.value for t in tiles))
    if any(not first.same_topology_up_to_rotation(t) for t in tiles[1:]):
        if all(same_connections_up_to_rotation(first, t) for t in tiles[1:]):
            out.append(
                "track drawn differently with the same connections "
                "(e.g. a junction as side-to-side track)"
            )
        else:
            out.append("track")
    differ(
        "stops",
        (
            ", ".join(
                sorted(
                    f"{n.kind.value}"
                    + (f" {n.revenue}" if n.revenue is not None else "")
                    + (f" ×{n.slots}" if n.slots > 1 else "")
                    for n in t.nodes
                    if n.kind is not NodeKind.JUNCTION
                )
            )
            or "none"
            for t in tiles
        ),
    )
    differ("labels", (",".join(sorted(lab.text for lab in t.labels)) or "none" for t in tiles))
    return tuple(out)


def conflicts(
    sources: Iterable[tuple[str, Iterable[Tile]]], *, include_catalogue: bool = True
) -> list[Conflict]:
    """Tile numbers defined differently between ``sources`` (``(label, tiles)`` pairs; with
    ``include_catalogue`` the generic catalogue takes part as ``catalogue``), in number order.
    """
    by_name: dict[str, dict[tuple[object, ...], tuple[Tile, list[str]]]] = {}

    def add(label: str, tile: Tile) -> None:
        kinds = by_name.setdefault(tile.name, {})
        sig = _signature(tile)
        if sig not in kinds:
            kinds[sig] = (tile, [])
        if label not in kinds[sig][1]:
            kinds[sig][1].append(label)

    if include_catalogue:
        for tile in catalogue.tiles():
            add(CATALOGUE, tile)
    for label, tiles in sources:
        for tile in tiles:
            add(label, tile)
    out: list[Conflict] = []
    for name in sorted(by_name, key=natural_key):
        kinds = by_name[name]
        if len(kinds) < 2:
            continue
        listed = tuple(
            Kind(dsl.write(to_dsl(tile)), tile.color.value, tuple(users))
            for tile, users in kinds.values()
        )
        out.append(Conflict(name, listed, _differences([t for t, _ in kinds.values()])))
    return out


def game_sources() -> list[tuple[str, list[Tile]]]:
    """Every known game's manifest tiles, labelled ``TITLE@FORMAT`` (a game whose tiles
    cannot be read is left out; ``tilelay games`` lists its problems)."""
    out: list[tuple[str, list[Tile]]] = []
    for entry in entries():
        game = entry.load()
        tiles: list[Tile] = []
        for name in game.manifest:
            try:
                # (seed 000's near-side locations as the game's layout numbers its sides)
                tiles.append(to_dsl(game.tile(name), game.layout))
            except LookupError:
                continue
        out.append((entry.qualified_name, tiles))
    return out


@dataclass(frozen=True, slots=True)
class Renumbering:
    """A renumbering: ``changes`` are ``(old number, kind's tile string, new number, the
    sources that change)``; ``changed_sources`` every source that changes any number."""

    changes: tuple[tuple[str, str, str, tuple[str, ...]], ...]
    changed_sources: tuple[str, ...]


def propose_renumbering(found: Sequence[Conflict]) -> Renumbering:
    """Keep each number for one kind and renumber the others from :data:`FRESH_START` up, so
    that as few sources as possible change any number.

    A kind used by the catalogue always keeps its number (generic tiles are the reference).
    Otherwise, for each number, the kind whose users would otherwise change most keeps it —
    first by how many users it has, then by how many of them change no other number — and
    the choice is improved while moving any one number's keeper lowers the count of sources
    changed.
    """
    if not found:
        return Renumbering((), ())
    keep: dict[str, int] = {}
    for c in found:
        catalogued = [i for i, k in enumerate(c.kinds) if CATALOGUE in k.users]
        keep[c.name] = (
            catalogued[0]
            if catalogued
            else max(range(len(c.kinds)), key=lambda i: len(c.kinds[i].users))
        )

    def changed(choice: dict[str, int]) -> set[str]:
        out: set[str] = set()
        for c in found:
            for i, k in enumerate(c.kinds):
                if i != choice[c.name]:
                    out.update(k.users)
        return out

    best = len(changed(keep))
    improved = True
    while improved:
        improved = False
        for c in found:
            if any(CATALOGUE in k.users for k in c.kinds):
                continue
            for i in range(len(c.kinds)):
                if i == keep[c.name]:
                    continue
                trial = {**keep, c.name: i}
                size = len(changed(trial))
                if size < best:
                    keep, best, improved = trial, size, True
    used = {c.name for c in found}
    fresh = FRESH_START
    changes: list[tuple[str, str, str, tuple[str, ...]]] = []
    for c in found:
        for i, k in enumerate(c.kinds):
            if i == keep[c.name]:
                continue
            while str(fresh) in used:
                fresh += 1
            used.add(str(fresh))
            changes.append((c.name, k.code, str(fresh), k.users))
    return Renumbering(tuple(changes), tuple(sorted(changed(keep))))
