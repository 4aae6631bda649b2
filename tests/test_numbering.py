"""Tile numbers across games and formats: conflicts and a renumbering (tilelay.numbering)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import reference
from tilelay.cli import main
from tilelay.convert import read
from tilelay.dsl import parse
from tilelay.games import registry
from tilelay.numbering import FRESH_START, conflicts, game_sources, propose_renumbering
from tilelay.sources import games as sources
from tilelay.xml import load_tiles


@pytest.fixture
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(sources.ENVIRONMENT_VARIABLE, "")
    yield
    registry.reset()


def test_a_file_redefining_a_catalogue_number() -> None:
    xml = '<Tile number="9" type="Yellow"><Track enter="0" exit="1"/></Tile>'
    found = {c.name: c for c in conflicts([("f.xml", read(xml, "xml"))])}
    assert found["9"].differences == ("track",)
    assert [k.users for k in found["9"].kinds] == [("catalogue",), ("f.xml",)]


def test_kinds_differ_in_labels_and_revenues_not_drawing() -> None:
    a = parse("city=revenue:20,loc:0;path=a:0,b:_0;label=Y", name="T1", color="yellow")
    moved = parse("city=revenue:20,loc:1;path=a:0,b:_0;label=Y", name="T1", color="yellow")
    richer = parse("city=revenue:30;path=a:0,b:_0;label=Y", name="T1", color="yellow")
    other = parse("city=revenue:20;path=a:0,b:_0;label=Z", name="T1", color="yellow")
    assert conflicts([("A", [a]), ("B", [moved])], include_catalogue=False) == []
    (found,) = conflicts([("A", [a]), ("B", [richer]), ("C", [other])], include_catalogue=False)
    assert [k.users for k in found.kinds] == [("A",), ("B",), ("C",)]
    assert found.differences == ("stops: city 20 / city 30", "labels: Y / Z")


def test_ge18xx_files_define_221_twice_and_differ_from_the_catalogue() -> None:
    folder = reference("ge18xx", "Tiles")
    files = sorted(folder.glob("*Tile-Definitions.xml"))
    found = {c.name: c for c in conflicts([(f.name, load_tiles(f)) for f in files])}
    # Hamburg: Brown-Tile-Definitions.xml labels it HH, Tile-Definitions.xml H, and both draw
    # two cities joined by a tunnel where the catalogue has one three-slot city
    users = [k.users for k in found["221"].kinds]
    assert ("Brown-Tile-Definitions.xml",) in users and ("Tile-Definitions.xml",) in users
    assert "labels: H / HH" in found["221"].differences
    # Lawson tiles drawn as side-to-side track connect the same way
    for name in ("80", "81", "82", "83"):
        assert found[name].differences[-1].startswith("track drawn differently")


def test_renumbering_keeps_the_catalogue_and_the_most_used_kinds() -> None:
    x = [parse("path=a:0,b:3", name="X1", color="yellow")]
    y = [parse("path=a:0,b:2", name="X1", color="yellow")]
    nine = [parse("path=a:0,b:1", name="9", color="yellow")]
    found = conflicts([("G1", x), ("G2", x), ("G3", y), ("F", nine)], include_catalogue=True)
    plan = propose_renumbering([c for c in found if c.name in ("9", "X1")])
    changes = {(old, users) for old, _, _, users in plan.changes}
    assert changes == {("9", ("F",)), ("X1", ("G3",))}  # the catalogue's 9 and G1+G2's X1 stay
    assert {new for _, _, new, _ in plan.changes} == {str(FRESH_START), str(FRESH_START + 1)}
    assert plan.changed_sources == ("F", "G3")


def test_renumbering_changes_as_few_sources_as_possible() -> None:
    def t(name: str, code: str) -> list:  # type: ignore[type-arg]
        return [parse(code, name=name, color="yellow")]

    # A1 is used by G1 and G2 one way, G3 another; A2 by G3 one way and G4 another. Keeping
    # each number for its most used kind would change G3 and G4; keeping A2 for G3's kind
    # changes only G3.
    found = conflicts(
        [
            ("G1", t("A1", "path=a:0,b:3")),
            ("G2", t("A1", "path=a:0,b:3")),
            ("G3", [*t("A1", "path=a:0,b:2"), *t("A2", "path=a:0,b:1")]),
            ("G4", t("A2", "path=a:0,b:4")),
        ],
        include_catalogue=False,
    )
    assert propose_renumbering(found).changed_sources == ("G3",)


def test_over_every_game_and_format(isolated: None, capsys: pytest.CaptureFixture[str]) -> None:
    sources.add_paths([reference("rails"), reference("ge18xx")])
    labels = [label for label, _ in game_sources()]
    assert "1830@tilelay" in labels and "1830@rails" in labels and "1835@ge18xx" in labels
    assert main(["tiles", "conflicts", "--renumber", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    numbers = {c["number"]: c for c in data["conflicts"]}
    users = {u for k in numbers["221"]["kinds"] for u in k["users"]}
    assert "catalogue" in users and "1835@ge18xx" in users
    renumbered = {c["number"] for c in data["renumbering"]["changes"]}
    assert renumbered <= set(numbers)
    assert all(int(c["new"]) >= FRESH_START for c in data["renumbering"]["changes"])
