"""One game, several formats (tilelay.compare, ``tilelay games compare``): every title that two
or more of the reference sources have (built-in, 18xx.games, Rails, GE18XX) is compared, and
every difference has a known cause in tilelay/data/known_differences.toml."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace

import pytest

from tests.conftest import reference
from tilelay.cli import main
from tilelay.compare import (
    Category,
    Comparison,
    Difference,
    compare,
    compare_games,
    differences,
    known_differences,
    read_known_differences,
    titles_in_several_sources,
)
from tilelay.errors import GameDataError
from tilelay.games import load_game, registry
from tilelay.sources import games as sources

#: The titles two or more reference sources have, and the formats of each (reference first).
SHARED = {
    "1830": ("tilelay", "18xx.games", "rails", "ge18xx"),
    "1835": ("18xx.games", "rails", "ge18xx"),
    "1856": ("18xx.games", "rails", "ge18xx"),
    "1862": ("18xx.games", "rails"),
    "1870": ("18xx.games", "rails", "ge18xx"),
    "1880": ("18xx.games", "rails"),
    "1889": ("tilelay", "18xx.games", "rails"),
    "18AL": ("18xx.games", "rails"),
    "18Chesapeake": ("tilelay", "18xx.games", "rails"),
    "18EU": ("18xx.games", "rails"),
    "18GA": ("18xx.games", "rails"),
    "18NL": ("18xx.games", "rails"),
    "18Scan": ("18xx.games", "rails"),
    "18TN": ("18xx.games", "rails"),
    "Steam Over Holland": ("18xx.games", "rails"),
}


def _paths() -> list[str]:
    """The reference sources, in the order the comparisons fixture adds them."""
    return [str(reference(*p)) for p in (("18xxgames", "engine"), ("rails",), ("ge18xx",))]


@pytest.fixture(scope="module")
def comparisons(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Comparison]]:
    """Every shared title compared once (the sources read once, into a fresh cache)."""
    mp = pytest.MonkeyPatch()
    mp.setenv(sources.ENVIRONMENT_VARIABLE, "")
    registry.reset()
    try:
        sources.add_paths(_paths())
        yield {title: compare(title) for title in titles_in_several_sources()}
    finally:
        registry.reset()
        mp.undo()


def test_the_titles_compared(comparisons: dict[str, Comparison]) -> None:
    assert {t: c.sources for t, c in comparisons.items()} == SHARED


def test_every_difference_has_a_known_cause(comparisons: dict[str, Comparison]) -> None:
    unexplained = [
        f"{title}: {f.difference}" for title, c in comparisons.items() for f in c.unexplained
    ]
    assert unexplained == [], "\n".join(unexplained)


def test_causes_name_their_source(comparisons: dict[str, Comparison]) -> None:
    for comparison in comparisons.values():
        for finding in comparison.findings:
            cause = finding.cause
            if cause is not None and cause.category in (Category.DATA_ERROR, Category.NOT_MODELLED):
                assert cause.source in finding.difference.sources, finding


def test_every_rule_is_used(comparisons: dict[str, Comparison]) -> None:
    """A rule that explains nothing is a fact no longer true (a reader fixed, a source
    changed): it goes."""
    known = known_differences()
    used = {
        id(known.rule(title, f.difference)) for title, c in comparisons.items() for f in c.findings
    }
    rules = [*known.general, *(r for rules in known.per_game.values() for r in rules)]
    unused = [f"{r.games or 'every game'}: {r.what} {r.where}" for r in rules if id(r) not in used]
    assert unused == []


def test_what_1830_sources_agree_on(comparisons: dict[str, Comparison]) -> None:
    """1830 is read alike from all four sources: map, stops, revenues, track, manifest and
    trains (the engine's 6-trains too, which it counts in code); what differs is drawing,
    naming, editions, and GE18XX's missing tile set."""
    counts = comparisons["1830"].counts()
    assert set(counts) == {"data error in ge18xx", "drawing", "edition", "naming"}
    whats = {f.difference.what for f in comparisons["1830"].findings}
    assert not whats & {"hex", "stops", "revenue", "track", "track turned", "cost"}


def test_differences_of_two_games() -> None:
    game = load_game("1830")
    changed_hexes = dict(game.hexes)
    g19 = changed_hexes["G19"]
    changed_hexes["G19"] = replace(g19, upgrades=())
    del changed_hexes["A11"]
    other = replace(game, hexes=changed_hexes, format="other", manifest={**game.manifest, "8": 9})
    found = differences(game, other)
    assert [str(d) for d in found] == [
        "hex A11: red (tilelay) / — (other)",
        "cost G19: 80 (tilelay) / — (other)",
        "manifest 8: 8 (tilelay) / 9 (other)",
    ]
    assert found[0] == Difference("hex", "A11", ("tilelay", "other"), ("red", ""))
    assert found[2].to_json() == {
        "what": "manifest",
        "where": "8",
        "values": {"tilelay": "8", "other": "9"},
    }
    assert differences(game, game) == []
    result = compare_games([game, other], known=read_known_differences(_RULES))
    assert [f.cause.category.value if f.cause else None for f in result.findings] == [
        "drawing",
        None,
        "edition",
    ]
    assert result.counts() == {"drawing": 1, "edition": 1, "unexplained": 1}


_RULES = """
[[rule]]
what = "hex"
values = { other = "" }
category = "drawing"
cause = "other leaves off-board hexes off"

[[game."1830"]]
what = "manifest"
where = ["7", "8", "9"]
values = ["8", "9"]
category = "edition"
cause = "a ninth #8"
"""


def test_rules_and_their_errors() -> None:
    known = read_known_differences(_RULES)
    diff = Difference("manifest", "8", ("rails", "tilelay"), ("9", "8"))  # either order
    assert known.cause("1830", diff) is not None
    assert known.cause("1856", diff) is None  # a rule of 1830 only
    assert known.cause("1830", replace(diff, where="57")) is None
    bad = {
        "what": 'what = "colours"\ncategory = "edition"\ncause = "x"',
        "category": 'what = "hex"\ncategory = "guess"\ncause = "x"',
        "source": 'what = "hex"\ncategory = "data error"\ncause = "x"',
        "cause": 'what = "hex"\ncategory = "edition"',
        "unknown keys": 'what = "hex"\ncategory = "edition"\ncause = "x"\nwere = "A1"',
    }
    for message, text in bad.items():
        with pytest.raises(GameDataError, match=message):
            read_known_differences("[[rule]]\n" + text, "k.toml")
    assert known_differences().same_game["soh"] == "steamoverholland"


def test_command_line(
    comparisons: dict[str, Comparison], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["games", "compare", "18TN"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("18TN: 18xx.games, rails (each compared with 18xx.games)\n")
    assert "  corporation SR: Southern Railway (18xx.games) / — (rails)\n" in out
    assert "      naming: Rails' symbols NC and SOU are 18xx.games' NC&StL and SR\n" in out
    assert main(["games", "compare", "18tn@rails", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["title"] == "18TN" and data["sources"] == ["18xx.games", "rails"]
    assert data["counts"] == comparisons["18TN"].counts()
    assert data["differences"][0]["cause"]["category"]
    # the listing is still the command's default
    assert main(["games"]) == 0
    assert "18TN" in capsys.readouterr().out


def test_command_line_exit_status_when_unexplained(
    comparisons: dict[str, Comparison],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tilelay import compare as module

    monkeypatch.setattr(module, "known_differences", lambda: read_known_differences(""))
    assert main(["games", "compare", "18TN"]) == 1
    assert "      UNEXPLAINED\n" in capsys.readouterr().out


def test_the_order_of_the_sources_does_not_matter(
    comparisons: dict[str, Comparison], capsys: pytest.CaptureFixture[str]
) -> None:
    """The sources given in another order (Rails first, as ``--games R/rails --games
    R/18xxgames/engine ...``) give the same comparisons: the same reference (the first of
    FORMAT_ORDER), the same hex names (Rails' 18EU renamed as 18xx.games names it) and the
    same causes; nothing unexplained."""
    paths = [reference("rails"), reference("ge18xx"), reference("18xxgames", "engine")]
    registry.reset()
    try:
        sources.add_paths([str(p) for p in paths])
        assert titles_in_several_sources() == list(comparisons)
        for title, expected in comparisons.items():
            assert compare(title).to_json() == expected.to_json(), title
        for title in ("18EU", "SOH"):
            assert main(["games", "compare", title]) == 0
            out = capsys.readouterr().out
            assert "UNEXPLAINED" not in out
            assert "(each compared with 18xx.games)" in out
    finally:  # the sources in the fixture's order again, for the tests after this one
        registry.reset()
        sources.add_paths(_paths())


def test_compare_games_in_any_order(comparisons: dict[str, Comparison]) -> None:
    """compare_games puts the games in FORMAT_ORDER; a source whose hexes are named otherwise
    is renamed as the others name them even when it comes first (the reference)."""
    rails, engine = load_game("18EU@rails"), load_game("18EU@18xx.games")
    one = compare_games([engine, rails], "18EU").to_json()
    assert compare_games([rails, engine], "18EU").to_json() == one == comparisons["18EU"].to_json()
    # Rails' 18EU as the reference: its hexes renamed as the other source names them
    other = replace(engine, format="other")
    result = compare_games([other, rails], "18EU")
    assert result.sources == ("rails", "other")
    assert result.notes == (
        "rails: hexes renamed to other's: " + known_differences().coordinates[("18eu", "rails")][1],
    )
    hexes = [f for f in result.findings if f.difference.what == "hex"]
    assert len(hexes) == sum(f.difference.what == "hex" for f in comparisons["18EU"].findings)
