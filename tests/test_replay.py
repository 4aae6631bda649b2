"""Replaying the three recorded 18xx.games games onto boards (tilelay.replay).

In 18xx.games a tile replaced by an upgrade returns to the supply and can be laid again: the
1889 record lays copies 6-0 and 206-0 a second time, 1830 28-0, 15-1 and 26-0, 18Chesapeake
57-0. So the manifest limits the copies *on the board at once*, and every copy number is below
the manifest count.
"""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import REFERENCE, reference
from tilelay.audit import audit_record
from tilelay.errors import GameDataError
from tilelay.games import UNLIMITED, load_game
from tilelay.hexgeo import neighbour_edge
from tilelay.replay import (
    RecordError,
    ReplayResult,
    actions_in_force,
    load_record,
    over_manifest,
    read_record,
    replay,
    replay_steps,
    split_tile_id,
)

FIXTURES = REFERENCE / "18xxgames" / "fixtures"
RECORDS = {
    "1889_314": ("1889", 40, 13, ("6-0", "206-0")),
    "1830_26855": ("1830", 50, 15, ("28-0", "15-1", "26-0")),
    "18Chesapeake_1277": ("18Chesapeake", 43, 16, ("57-0",)),
}


def record(stem: str) -> dict[str, Any]:
    path = FIXTURES / f"{stem}.json"
    if not path.exists():
        pytest.skip(f"reference record absent: {path}")
    return load_record(path)


_cache: dict[str, ReplayResult] = {}


def replayed(stem: str) -> ReplayResult:
    if stem not in _cache:
        _cache[stem] = replay(record(stem))
    return _cache[stem]


# ------------------------------------------------------------- undo and redo


def _ids(actions: list[dict[str, Any]]) -> list[int]:
    return [int(a["id"]) for a in actions_in_force(actions)]


def test_undo_takes_back_the_latest_action() -> None:
    acts = [
        {"id": 1, "type": "pass"},
        {"id": 2, "type": "message"},
        {"id": 3, "type": "lay_tile"},
        {"id": 4, "type": "undo"},
        {"id": 5, "type": "message"},
        {"id": 6, "type": "undo"},
    ]
    assert _ids(acts[:4]) == [1, 2]
    assert _ids(acts) == [2, 5]  # messages are never taken back


def test_undo_to_an_action_and_redo() -> None:
    acts = [
        {"id": 1, "type": "pass"},
        {"id": 2, "type": "pass"},
        {"id": 3, "type": "pass"},
        {"id": 4, "type": "undo", "action_id": 1},
        {"id": 5, "type": "redo"},
    ]
    assert _ids(acts[:4]) == [1]
    assert _ids(acts) == [1, 2, 3]
    assert _ids([*acts[:4], {"id": 6, "type": "undo", "action_id": 0}]) == []
    # another action forgets what could be redone
    assert _ids([*acts[:4], {"id": 7, "type": "pass"}, {"id": 8, "type": "redo"}]) == [1, 7]


def test_redo_restores_only_the_latest_undo() -> None:
    acts = [
        {"id": 1, "type": "pass"},
        {"id": 2, "type": "pass"},
        {"id": 3, "type": "undo"},
        {"id": 4, "type": "undo"},
        {"id": 5, "type": "redo"},
    ]
    assert _ids(acts) == [1]


def _in_force_by_the_letter(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The record format's undo/redo rule applied literally, list by list (slow but plain)."""
    done: list[dict[str, Any]] = []
    undone: list[list[dict[str, Any]]] = []
    for action in actions:
        kind = action.get("type")
        if kind == "undo":
            target = action.get("action_id")
            if target is None:
                for i in range(len(done) - 1, -1, -1):
                    if done[i].get("type") != "message":
                        undone.append([done.pop(i)])
                        break
            else:
                keep = 0
                if target != 0:
                    positions = [i for i, a in enumerate(done) if a.get("id") == target]
                    keep = positions[-1] + 1 if positions else len(done)
                taken = [a for a in done[keep:] if a.get("type") != "message"]
                done = done[:keep] + [a for a in done[keep:] if a.get("type") == "message"]
                undone.append(taken)
        elif kind == "redo":
            if undone:
                done.extend(undone.pop())
                done.sort(key=lambda a: a["seq"])
        else:
            if kind != "message":
                undone.clear()
            done.append(action)
    return done


_KINDS = st.sampled_from(["pass", "pass", "message", "undo", "undo_to", "redo"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_KINDS, st.integers(0, 40)), max_size=40))
def test_actions_in_force_follow_the_rule(script: list[tuple[str, int]]) -> None:
    actions: list[dict[str, Any]] = []
    for seq, (kind, target) in enumerate(script):
        action: dict[str, Any] = {"id": seq + 1, "seq": seq, "type": kind}
        if kind == "undo_to":
            action.update(type="undo", action_id=target)
        actions.append(action)
    assert actions_in_force(actions) == _in_force_by_the_letter(actions)


def test_actions_in_force_name_corporations_and_companies_without_outer_spaces() -> None:
    """The engine names some corporations with a space before (18Dixie's minors, ``' 1'``):
    the actions in force name them as tilelay reads them, and keep every other field (and an
    action without such a name is the record's own)."""
    plain = {"type": "pass", "id": 1, "entity": "PRR", "entity_type": "corporation"}
    spaced = {"type": "lay_tile", "id": 2, "entity": " 1", "entity_type": "minor", "hex": " K17"}
    merge = {"type": "merge", "id": 3, "entity": "SR", "corporation": " 2 ", "minor": " 3"}
    out = actions_in_force([plain, spaced, merge])
    assert out[0] is plain
    assert out[1] == {**spaced, "entity": "1"}
    assert out[2] == {**merge, "corporation": "2", "minor": "3"}


def test_many_undos_to_an_action_replay() -> None:
    # 20,000 passes each undone to the action before it: the undos must not rescan the record
    actions: list[dict[str, Any]] = [{"id": 1, "type": "pass"}]
    for i in range(20_000):
        actions.append({"id": 2 * i + 2, "type": "pass"})
        actions.append({"id": 2 * i + 3, "type": "undo", "action_id": 1})
    assert [a["id"] for a in actions_in_force(actions)] == [1]


@pytest.mark.parametrize("stem", sorted(RECORDS))
def test_actions_in_force_match_the_records_skip_flags(stem: str) -> None:
    actions = record(stem)["actions"]
    in_force = {a["id"] for a in actions_in_force(actions)}
    assert in_force == {a["id"] for a in actions if not a.get("skip")}


def test_split_tile_id() -> None:
    assert split_tile_id("57-1") == ("57", 1)
    assert split_tile_id("X1-0") == ("X1", 0)
    with pytest.raises(ValueError):
        split_tile_id("57")


# ------------------------------------------------------------------ replays


@pytest.mark.parametrize("stem", sorted(RECORDS))
def test_replay_counts(stem: str) -> None:
    name, n_lays, n_tokens, relaid = RECORDS[stem]
    result = replayed(stem)
    assert result.game.name == name
    assert len(result.lays) == n_lays
    assert len(result.tokens) == n_tokens
    assert result.board.token_count() == n_tokens
    assert result.relaid == relaid
    assert result.skipped_homes == (("ERIE",) if name == "1830" else ())


@pytest.mark.parametrize("stem", sorted(RECORDS))
def test_laid_tiles_are_in_the_manifest(stem: str) -> None:
    result = replayed(stem)
    manifest = result.game.manifest
    for lay in result.lays:
        assert lay.lay.tile in manifest, lay
        count = manifest[lay.lay.tile]
        assert count == UNLIMITED or lay.copy < count, lay
    assert over_manifest(result) == {}
    for coord, tile in result.board.laid.items():
        assert tile.name in manifest, coord


@pytest.mark.parametrize("stem", sorted(RECORDS))
def test_every_lay_keeps_the_old_exits(stem: str) -> None:
    result = replayed(stem)
    upgrades = [lay for lay in result.lays if lay.old_exits]
    assert len(upgrades) >= 10  # the check has something to bite on
    assert [lay for lay in result.lays if lay.lost_exits] == []


@pytest.mark.parametrize("stem", sorted(RECORDS))
def test_every_lay_leads_onto_the_map(stem: str) -> None:
    result = replayed(stem)
    assert [lay for lay in result.lays if lay.blocked_exits] == []


@pytest.mark.parametrize("stem", sorted(RECORDS))
def test_final_board_track_is_consistent(stem: str) -> None:
    board = replayed(stem).board
    joined = 0
    for coord, tile in board.laid.items():
        for edge in tile.exits():
            other = board.neighbour(coord, edge)
            assert other is not None, (coord, edge)
            assert not board.impassable(coord, edge), (coord, edge)
            facing = neighbour_edge(edge) in board.tile_at(other).exits()
            assert board.connected_exits(coord, edge) == facing, (coord, edge)
            joined += facing
    assert joined >= 20


@pytest.mark.parametrize("stem", sorted(RECORDS))
def test_tokens_fit_and_are_connected(stem: str) -> None:
    board = replayed(stem).board
    for (coord, city), corps in board.tokens.items():
        assert len(corps) <= board.tile_at(coord).cities[city].slots
        assert len(set(corps)) == len(corps)
    graph = board.track_graph()
    for corp in board.game.corporations:
        nodes = [graph.node_id[key] for key in board.token_nodes(corp.sym)]
        if len(nodes) > 1:
            reach = graph.connected_nodes(nodes[:1])
            assert all(n in reach for n in nodes), corp.sym


@pytest.mark.parametrize("stem", sorted(RECORDS))
def test_routes_run_on_the_final_track(stem: str) -> None:
    """Every route the record ran follows track of the final board."""
    rec = record(stem)
    board = replayed(stem).board
    graph = board.track_graph()
    checked = 0
    for action in actions_in_force(rec["actions"]):
        if action["type"] != "run_routes":
            continue
        for route in action["routes"]:
            # newer records give "connections" (chains of adjacent hexes); older ones only
            # "hexes", every hex the route passes in order
            chains = route.get("connections") or [route["hexes"]]
            for chain in chains:
                for a, b in itertools.pairwise(chain):
                    edge = next(e for e, c in board.neighbours(a).items() if c == b)
                    side = graph.side_id[(a, edge)]
                    assert side == graph.side_id[(b, neighbour_edge(edge))]
                    ends = [e for e in range(len(graph.end_side)) if graph.end_side[e] == side]
                    assert any(graph.links[e] for e in ends), (a, b)
                    checked += 1
    assert checked >= 20


def test_replay_errors_name_the_action() -> None:
    game = load_game("1889")
    bad_tile = {
        "id": 7,
        "title": "1889",
        "actions": [
            {
                "id": 1,
                "type": "lay_tile",
                "entity": "AR",
                "hex": "K8",
                "tile": "999-0",
                "rotation": 0,
            },
        ],
    }
    with pytest.raises(GameDataError, match=r"action 1: .*999"):
        replay(bad_tile, game)
    bad_city = {
        "id": 8,
        "actions": [
            {"id": 2, "type": "place_token", "entity": "AR", "city": "57-0-0", "slot": 0},
        ],
    }
    with pytest.raises(GameDataError, match=r"action 2: .*57-0 is not on the board"):
        replay(bad_city, game)


@pytest.mark.parametrize("kind", [{}, ["lay_tile"], None, 3])
def test_an_action_whose_type_is_not_text_is_refused_by_its_id(kind: object) -> None:
    record = {"title": "1889", "actions": [{"id": 5, "type": kind, "entity": "AR"}]}
    with pytest.raises(RecordError, match=r"action 5: its 'type' must be text"):
        list(replay_steps(record))
    with pytest.raises(RecordError, match=r"action 5: its 'type' must be text"):
        read_record(json.dumps(record))
    assert "action 5" in str(audit_record(record).error)


@pytest.mark.parametrize(
    ("slot", "message"),
    [(99, r"slot 99: the city in \w+ has 1 slot \(0 to 0\)"), ("x", "its 'slot' must be a whole")],
)
def test_a_token_slot_the_city_does_not_have_is_refused(slot: object, message: str) -> None:
    actions = record("1889_314")["actions"]
    at = next(i for i, a in enumerate(actions) if a["id"] == 85)
    assert actions[at]["type"] == "place_token"
    cut = [dict(a) for a in actions[: at + 1]]
    replay({"title": "1889", "actions": cut}, load_game("1889"))  # as recorded: taken
    cut[-1]["slot"] = slot
    with pytest.raises(GameDataError, match=rf"action 85: {message}"):
        replay({"title": "1889", "actions": cut}, load_game("1889"))


def test_an_action_id_given_twice_is_refused() -> None:
    actions = [
        {"id": 1, "type": "pass", "entity": "AR"},
        {"id": 2, "type": "pass", "entity": "IR"},
        {"id": 1, "type": "pass", "entity": "SR"},
    ]
    record = {"title": "1889", "actions": actions}
    message = r"action 1 \(action #3\): action #1 has the same id"
    with pytest.raises(RecordError, match=message):
        read_record(json.dumps(record))
    with pytest.raises(RecordError, match=message):
        list(replay_steps(record))


@pytest.mark.parametrize("target", ["abc", 7, 3])
def test_an_undo_to_no_earlier_action_is_refused(target: object) -> None:
    actions = [
        {"id": 1, "type": "pass", "entity": "AR"},
        {"id": 2, "type": "undo", "entity": "AR", "action_id": target},
        {"id": 3, "type": "pass", "entity": "AR"},
    ]
    with pytest.raises(RecordError, match=r"action 2: undoes to action_id .*no earlier action"):
        read_record(json.dumps({"title": "1889", "actions": actions}))
    # to an earlier action, or to 0 (every action), it is taken
    for fine in (1, 0):
        actions[1]["action_id"] = fine
        read_record(json.dumps({"title": "1889", "actions": actions}))


@pytest.mark.parametrize("routes", [True, "K4", {"train": "2-0"}, [{"train": "2-0"}, 7]])
def test_a_run_whose_routes_are_not_a_list_of_routes_is_refused_by_its_id(routes: object) -> None:
    record = {
        "title": "1889",
        "actions": [{"id": 9, "type": "run_routes", "entity": "AR", "routes": routes}],
    }
    with pytest.raises(RecordError, match=r"^the record \(1889\): action 9: its 'routes' must"):
        list(replay_steps(record))


def test_load_record_errors(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"actions": [', encoding="utf-8")
    with pytest.raises(GameDataError) as info:
        load_record(path)
    assert info.value.source == str(path) and info.value.line == 1
    path.write_text("[]", encoding="utf-8")
    with pytest.raises(GameDataError, match="not a game record"):
        load_record(path)


def _game_with_trains(trains: list[dict[str, Any]], phases: list[dict[str, Any]]) -> Any:
    from tilelay.games import game_from_data

    data = {
        "title": "Tiny",
        "layout": "flat",
        "hexes": [
            {"color": "white", "coords": ["A1"], "code": "city=revenue:20;path=a:0,b:_0"},
            {"color": "white", "coords": ["A3"], "code": "city=revenue:30;path=a:3,b:_0"},
        ],
        "manifest": {},
        "corporations": [
            {"sym": "AA", "name": "A", "home": "A1"},
            {"sym": "BB", "name": "B", "home": "A3"},
        ],
        "trains": trains,
        "phases": phases,
    }
    return game_from_data(data, source="tiny")


def test_trains_phases_obsolete_and_operated_as_the_engine_has_them() -> None:
    from tilelay.replay import replay_steps

    game = _game_with_trains(
        [
            {"name": "2", "distance": 2, "price": 80, "num": 4, "obsolete_on": "4"},
            {"name": "3", "distance": 3, "price": 180, "num": 2, "rusts_on": ["4"]},
            {"name": "4", "distance": 4, "price": 300, "num": 2},
        ],
        [{"name": "2"}, {"name": "3", "on": "3"}, {"name": "4", "on": "4-1"}],
    )

    def act(i: int, type_: str, entity: str, **more: Any) -> dict[str, Any]:
        return {"id": i, "type": type_, "entity": entity, "entity_type": "corporation", **more}

    run = {"train": "2-0", "connections": [["A1", "A3"]]}
    actions = [
        act(1, "buy_train", "AA", train="2-0", price=80),
        act(2, "buy_train", "AA", train="3-0", price=180),
        act(3, "buy_train", "BB", train="4-0", price=300),  # 4-0: not the phase's train
        act(4, "run_routes", "AA", routes=[run]),
        act(5, "dividend", "AA", kind="payout"),
        act(6, "buy_train", "BB", train="2-0", price=1),  # bought after it ran this round
        act(7, "run_routes", "BB", routes=[]),
        act(8, "buy_train", "BB", train="4-1", price=300),  # the phase's train
        act(9, "run_routes", "AA", routes=[]),  # a new round
        act(10, "dividend", "BB", kind="withhold"),
    ]
    steps = {s.action_id: s for s in replay_steps({"title": "Tiny", "actions": actions}, game)}
    assert steps[2].phase.name == "3"
    assert steps[3].phase.name == "3" and "3-0" not in steps[3].trains["AA"]  # rusted by 4s
    assert steps[4].runnable_names("AA") == ["2"]
    assert steps[7].trains["BB"] == {"4-0": "4", "2-0": "2"}
    assert steps[7].runnable_names("BB") == ["4"]  # the 2 ran for AA in this round
    assert steps[8].phase.name == "4"
    # the 2 became obsolete: it runs once more, and goes with BB's next payout
    assert "2-0" in steps[9].trains["BB"] and "2-0" not in steps[10].trains["BB"]


def test_engine_cities_are_named_by_their_place_among_the_parts() -> None:
    """An engine record names a city by its place among the tile string's parts: 1849's
    Trapani (C1) is written with a border first, so its city is part 1."""
    from tilelay.replay import _city_index
    from tilelay.sources.engine_codes import parse_engine_code

    tile = parse_engine_code(
        "border=edge:4,type:impassable;city=revenue:20;path=a:0,b:_0", name="C1"
    )
    assert _city_index(tile, 1) == 0
    assert _city_index(load_game("1889").hex_tile("K4"), 0) == 0


def test_a_reserved_slot_is_its_holders_until_the_phase_that_removes_it() -> None:
    # 18 Los Angeles' SP holds a reservation in C6 (18xx.games' {type: 'reservation', hex,
    # remove}): the engine counts it as taken, tilelay's board does not, so the city may look
    # full of others' tokens when SP places its own there. Here KU holds one in 1889's one-slot
    # E2 (IR's home, IR's token placed first), removed in phase 4.
    from dataclasses import replace

    from tilelay.replay import RecordError, replay_steps

    game = load_game("1889")
    reservation = {"type": "reservation", "hex": "E2", "remove": "4"}
    corporations = tuple(
        replace(c, abilities=(reservation,)) if c.sym == "KU" else c for c in game.corporations
    )
    held = replace(game, corporations=corporations)
    actions: list[dict[str, Any]] = [
        {"type": "pass", "id": 1, "entity": "IR", "entity_type": "corporation"},
        {"type": "place_token", "id": 2, "entity": "KU", "city": "E2-0-0", "slot": 0},
    ]
    steps = list(replay_steps({"title": "1889", "actions": actions}, held))
    assert steps[-1].board.tokens[("E2", 0)] == ("IR", "KU")
    # without the reservation, or once phase 4 has begun, the city is full
    with pytest.raises(RecordError, match=r"action 2: .*full"):
        list(replay_steps({"title": "1889", "actions": actions}, game))
    buys = [
        {"type": "buy_train", "id": 2 + i, "entity": "KU", "train": f"{n}-0", "price": 1}
        for i, n in enumerate("34")
    ]
    later = [actions[0], *buys, {**actions[1], "id": 4}]
    with pytest.raises(RecordError, match=r"action 4: .*full"):
        list(replay_steps({"title": "1889", "actions": later}, held))


def test_first_track_on_a_tile_of_two_cities_lifts_its_tokens_to_be_placed_again() -> None:
    # 18xx.games' Tracker#update_token!: a lay bringing the first track to a tile of several
    # cities lifts their tokens, and the owner chooses each one's city again (the record's
    # next place_token there). ERIE's token in E11's first city goes to 59's second.
    from tilelay.replay import replay_steps

    def erie(type_: str, **fields: Any) -> dict[str, Any]:
        return {"type": type_, "entity": "ERIE", "entity_type": "corporation", **fields}

    actions = [
        erie("place_token", city="E11-0-0", slot=0),
        erie("lay_tile", hex="E11", tile="59-0", rotation=0),
        erie("place_token", city="59-0-1", slot=0),
    ]
    numbered = [{"id": i + 1, **a} for i, a in enumerate(actions)]
    steps = list(replay_steps({"title": "1830", "actions": numbered}))
    assert [s.board.tokens_of("ERIE") for s in steps] == [[("E11", 0)], [], [("E11", 1)]]
    assert not steps[-1].notes


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("settings", "x", "its 'settings' must be a JSON object, not 'x'"),
        ("settings", {"optional_rules": "abc"}, "'settings.optional_rules' must be a list of"),
        ("settings", {"optional_rules": [1]}, "'settings.optional_rules' must be a list of"),
        ("title", 1889, "its 'title' must be a game's name, not 1889"),
    ],
)
def test_a_record_s_settings_and_title_of_another_type_are_refused(
    field: str, value: object, said: str
) -> None:
    record = json.loads(reference("18xxgames", "fixtures", "1889_314.json").read_text())
    record[field] = value
    with pytest.raises(RecordError, match=re.escape(said)):
        replay(record)
    with pytest.raises(RecordError, match=re.escape(said)):
        list(replay_steps(record))


def test_a_record_is_replayed_with_the_trains_of_its_number_of_players(
    engine_games: None,
) -> None:
    """A game whose numbers of trains depend on the players (1846, from the engine: its
    2-trains 7, 8, 9 for 3, 4, 5 players) is replayed with those of the record's players
    (the shared records 1846__12666 has three, 1846__10264 five)."""
    from tilelay.replay import load_record, replay

    for stem, players, twos in (("1846__12666", 3, 7), ("1846__10264", 5, 9)):
        path = reference("18xxgames", "fixtures", f"{stem}.json")
        record = load_record(path)
        assert len(record["players"]) == players
        trains = replay(record).game.trains
        assert trains.card_type("2").quantity == twos
        assert not trains.card_type("2").quantity_by_players
