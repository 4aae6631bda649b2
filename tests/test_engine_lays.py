"""The lays the board offers equal the 18xx.games engine's, at every recorded lay_tile.

For every shared fixture whose game tilelay loads (the built-in games, and those read from the
engine's Ruby sources), the record is replayed on its game with its options and, just before
each ``lay_tile`` by a corporation still in force, the tiles and rotations the board offers on
that hex (:meth:`tilelay.board.Board.legal_lays` in the phase then, which is what the board
page and ``tilelay lays`` show) are compared with the engine's own track step, connectivity
aside (``../shared/reference/18xxgames/engine_lays/``, made by ``oracle/lays.rb``).

Each remaining difference is listed below with what makes it: a rule the engine writes in a
game's code for one hex, one step or one corporation (which the board's rules, those of the
map, do not see), or the engine under Ruby answering otherwise than in the browser where the
record was made. The rules a game writes in code that are rules of the map are tilelay's
data (``tilelay/data/upgrade_rules.toml``: 1822's, 1856's, 1860's, 18GA's, 18 India's, 18USA's);
those of a corporation's companies (18USA's resource tiles and P11) and of its own lays
(1849's gauges) are the game's rules (:func:`tilelay.rules.corporation_lays`, asked with the
record's facts). The test checks both ways: every lay not listed is equal, and every lay
listed differs (so the list shrinks as tilelay learns more).

A second test runs the engine itself (the oracle under Ruby) with the corporation's
connectivity on, and checks the board's lays for the corporation that laid
(``legal_lays(corporation=)``, :meth:`Board.reach`) on the built-in games' records.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REFERENCE, reference
from tilelay.games import registry
from tilelay.lays import record_lays
from tilelay.replay import RecordError, actions_in_force, load_record, record_game, replay_steps

ENGINE_LAYS = REFERENCE / "18xxgames" / "engine_lays"
FIXTURES = REFERENCE / "18xxgames" / "fixtures"


#: fixture -> [(the rule that makes the difference, the action ids of the lays it affects)].
DIFFERENCES: dict[str, list[tuple[str, list[int]]]] = {
    "1822__33845": [
        (
            "1822: once minors may lay green tiles (the phase's status minors_green_upgrade), "
            "the engine's Tracker#potential_tiles keeps the tiles whose colour (a symbol) is in "
            "MINOR_GREEN_UPGRADE (strings): equal in the browser, where the record was made "
            "(Opal), never under Ruby, so the oracle lists nothing for a minor's lay there",
            [1110, 1113, 1185, 1190, 1266, 1268, 1418, 1422, 1427, 1493, 1495],
        ),
    ],
}

#: Lay actions the replay cannot do (the rest of what it skips are token placements and train
#: purchases, which do not change the tiles): the 1st edition of 18 Los Angeles lays tiles of
#: a manifest tilelay cannot read (see DIFFERENCES).
LAYS_NOT_REPLAYED: set[str] = set()


@pytest.fixture(scope="module")
def engine_games(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The engine's games known (cached in a temporary folder), forgotten afterwards."""
    from tilelay.sources.games import add_paths

    engine = reference("18xxgames", "engine")
    mp = pytest.MonkeyPatch()
    add_paths([engine])
    try:
        yield
    finally:
        registry.reset()
        mp.undo()


def _fixtures() -> list[str]:
    if not ENGINE_LAYS.is_dir():
        return []
    return sorted(p.stem for p in ENGINE_LAYS.glob("*.jsonl"))


def _engine(name: str) -> dict[int, dict[str, list[int]]]:
    out: dict[int, dict[str, list[int]]] = {}
    for line in (ENGINE_LAYS / f"{name}.jsonl").read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        if "legal" in entry:
            out[entry["id"]] = entry["legal"]
    return out


@pytest.mark.parametrize("name", _fixtures() or ["(no reference data)"])
def test_board_lays_equal_the_engines(name: str, engine_games: None) -> None:
    if name.startswith("("):
        pytest.skip(f"reference data absent: {ENGINE_LAYS}")
    record = load_record(FIXTURES / f"{name}.json")
    game = record_game(record)  # every fixture's game loads (built in or from the engine)
    engine = _engine(name)
    skipped: list[RecordError] = []
    differing: set[int] = set()
    compared = 0
    for lay in record_lays(record, game, on_error=skipped.append):
        theirs = engine.get(lay.id) if lay.id is not None else None
        if theirs is None:
            continue  # a company's lay (the engine lists corporations' lays only)
        compared += 1
        ours = {tile: list(rotations) for tile, rotations in lay.legal.items()}
        if ours != theirs:
            differing.add(int(lay.id or 0))
    assert compared == len(engine), "every engine lay is compared"
    named = {i for _, ids in DIFFERENCES.get(name, []) for i in ids}
    assert differing - named == set(), (
        f"{name}: lays differing without a named rule: {sorted(differing - named)}"
    )
    assert named - differing == set(), f"{name}: listed lays now equal: {sorted(named - differing)}"
    # what the replay skips never changes the tiles (except where listed)
    kinds = {a.get("id"): a.get("type") for a in actions_in_force(record["actions"])}
    for err in skipped:
        m = re.search(r"action (\d+)", str(err))
        kind = kinds.get(int(m.group(1))) if m else None
        if name not in LAYS_NOT_REPLAYED:
            assert kind in ("place_token", "buy_train"), str(err)


def test_the_agreement_overall(engine_games: None) -> None:
    """How many lays agree: the three built-in games fully; 1,719 of the 1,740 in all."""
    if not _fixtures():
        pytest.skip(f"reference data absent: {ENGINE_LAYS}")
    total = sum(len(_engine(n)) for n in _fixtures())
    listed = sum(len(ids) for rules in DIFFERENCES.values() for _, ids in rules)
    assert total == 1740
    assert total - listed >= 1719
    for name in ("1889_314", "1830_26855", "18Chesapeake_1277"):
        assert name not in DIFFERENCES  # the built-in games: every lay equal


# ------------------------------------------------------------------ with connectivity

ORACLE = Path(__file__).resolve().parent / "oracle" / "lays_connected.rb"


@pytest.mark.parametrize("name", ["1889_314", "1830_26855", "18Chesapeake_1277"])
def test_a_corporations_lays_equal_the_engines(name: str) -> None:
    """With connectivity on (the engine's own graph), for the corporation that laid."""
    record_path = reference("18xxgames", "fixtures", f"{name}.json")
    oracle_dir = reference("18xxgames", "oracle")
    ruby = shutil.which("ruby")
    if ruby is None:
        pytest.skip("ruby is absent (./dev setup installs it)")
    run = subprocess.run(
        [ruby, str(ORACLE), str(oracle_dir), str(record_path)],
        capture_output=True,
        text=True,
        timeout=300,
        env={"ENGINE_LOG_LEVEL": "4", "PATH": "/usr/bin:/bin"},
    )
    assert run.returncode == 0, run.stderr[-2000:]
    engine = {}
    for line in run.stdout.splitlines():
        entry = json.loads(line)
        if "legal" in entry:
            engine[entry["id"]] = entry
    record = load_record(record_path)
    game = record_game(record)
    board = None
    phase = game.phases[0]
    compared = 0
    for step in replay_steps(record, game):
        action = step.action
        entry = engine.get(action.get("id"))
        if entry is not None and board is not None:
            corp = entry["entity"]
            before = board
            if not before.tokens_of(corp) and game.home_city(corp) is not None:
                before = before.with_home_tokens([corp])  # placed as the corporation starts
            if before.tokens_of(corp):
                ours = before.legal_lays(entry["hex"], phase=phase, corporation=corp)
                assert {t: list(r) for t, r in ours.items()} == entry["legal"], action["id"]
                compared += 1
        board, phase = step.board, step.phase
    assert compared >= len(engine) - 1  # 1830's Erie chooses its home city in play


def test_resource_tiles_laid_with_a_companys_ability(engine_games: None) -> None:
    """18USA's resource tiles are the corporation's lays where a company it holds has an
    ability for each of the tile's resources at that hex (``GameRules.extra_lays``), in the
    rotations with an exit towards a stop (``lay_filter``); each lay uses the ability, and a
    company whose ability is used up closes (P1: one coal tile; P24: two ore tiles)."""
    name = "18USA__109372"
    record = load_record(FIXTURES / f"{name}.json")
    lays = {lay.id: lay for lay in record_lays(record, record_game(record))}
    engine = _engine(name)
    for lay_id, tiles in {143: "7ore10 8ore10 9ore10", 1337: "7coal 8coal 9coal"}.items():
        lay = lays[lay_id]
        assert lay.recorded_is_legal and lay.ability is None
        for tile in tiles.split():
            assert list(lay.legal[tile]) == engine[lay_id][tile], (lay_id, tile)
    owners = {}
    for step in replay_steps(record, record_game(record)):
        if step.action_id in (143, 1336, 1337):
            owners[step.action_id] = dict(step.facts.companies)
    assert owners[143]["P24"] == "SP"  # (one of its two uses)
    assert owners[1336].get("P1") == "PRR" and "P1" not in owners[1337]


def test_a_lay_by_a_companys_ability_is_said_to_be(engine_games: None) -> None:
    """A lay the board does not allow but a private company's ``tile_lay`` ability may have is
    said to be by that ability (the board does not judge a company's own lays): 18USA's
    company town laid by P27 itself; 1817's PSM. A lay the board allows, or one no ability
    covers, names none."""
    expected = {
        "18USA__109372": {
            239: "P27",
            175: None,  # (a subsidy's lay, S8: no company's)
        },
        "1817__15528": {178: "PSM"},
    }
    for name, abilities in expected.items():
        record = load_record(FIXTURES / f"{name}.json")
        lays = {
            lay.id: lay
            for lay in record_lays(record, record_game(record), on_error=lambda err: None)
        }
        for lay_id, company in abilities.items():
            lay = lays[lay_id]
            assert not lay.recorded_is_legal and lay.ability == company, (name, lay_id)
        assert all(lay.ability is None for lay in lays.values() if lay.recorded_is_legal)
        assert lays[next(iter(abilities))].to_json()["ability"] == next(iter(abilities.values()))
