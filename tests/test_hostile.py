"""Issue 13: input from an attacker or a careless user. One test for each case reported, and
for its class (every reader the same input can reach): only TilelayError on the command line
(exit 2, one line) and 4xx on the web (one JSON shape under /api/, the error page elsewhere),
limits that name themselves, replay linear in the record, the server answering while one
request computes, and a time limit that stops the computation."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from starlette.testclient import TestClient

from tests.conftest import reference
from tilelay import dsl, limits
from tilelay.carcassonne.tileset import parse_tileset
from tilelay.catalogue import natural_key
from tilelay.cli import main
from tilelay.convert import read as convert_read
from tilelay.errors import TilelayError
from tilelay.games import load_game
from tilelay.games.model import coord_key, tile_key
from tilelay.games.toml import read_game_toml
from tilelay.replay import actions_in_force, read_record, replay
from tilelay.tile_json import tile_from_dict
from tilelay.web import compute as compute_module
from tilelay.web import create_app
from tilelay.web.errors import WebError
from tilelay.xml import rails, tiledefs
from tilelay.xml.rails_game import read_rails_game
from tilelay.xml.safe import parse_xml
from tilelay.xml.tileset import read_tileset

NINES = "9" * 5000


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(), raise_server_exceptions=False) as c:
        yield c


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    try:
        status = main(argv)
    except SystemExit as exit_:
        status = int(exit_.code or 0)
    err = capsys.readouterr().err
    return status, err


def _one_line_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str], *words: str) -> str:
    status, err = _cli(argv, capsys)
    assert status == 2, err
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
    for w in words:
        assert w in err, err
    return err


def _api_error(response: httpx2.Response, status: int = 400) -> dict[str, Any]:
    assert response.status_code == status, response.text[:300]
    body: dict[str, Any] = response.json()
    assert set(body) == {"error", "status", "suggestions"}
    assert body["status"] == status
    return body


def _page_error(response: httpx2.Response, status: int = 400) -> str:
    assert response.status_code == status, response.text[:300]
    assert response.headers["content-type"].startswith("text/html")
    return response.text


def _refused(fn: Callable[[], object], *words: str) -> TilelayError:
    with pytest.raises(TilelayError) as info:
        fn()
    for w in words:
        assert w in str(info.value), str(info.value)
    return info.value


RECORD_HEAD = '{"title": "1889", "actions": ['
RUN = '{"type": "run_routes", "id": 99, "entity": "AR", "routes": []}'


def _action(**fields: str) -> str:
    """One action as JSON text, each field given as JSON text (so ``1e400`` stays itself)."""
    return "{" + ", ".join(f'"{k}": {v}' for k, v in fields.items()) + "}"


def _lay(rotation: str) -> str:
    return _action(type='"lay_tile"', id="1", hex='"I4"', tile='"57-0"', rotation=rotation)


def _record(*actions: str) -> bytes:
    return (RECORD_HEAD + ", ".join((*actions, RUN)) + "]}").encode()


# ------------------------------------------------------------------ integers of 5,000 digits


def test_5000_digits_in_a_tile_string_is_one_line_exit_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _one_line_exit_2(["tile", "parse", f"city=revenue:{NINES}"], capsys, "at most")
    _one_line_exit_2(["tile", "parse", f"city=revenue:{NINES[:30]}"], capsys, "revenue")


def test_5000_digits_in_a_query_parameter_is_400(client: TestClient) -> None:
    _page_error(client.get(f"/tiles/57?r={NINES}"))
    _api_error(client.post(f"/api/routes/1889?action={NINES}", content=_record()))
    _page_error(client.get(f"/carcassonne/game?seed={NINES}"))


def test_5000_digits_in_a_json_record_is_400(client: TestClient) -> None:
    body = _api_error(client.post("/api/routes/1889", content=_record(_lay(NINES))))
    assert "too large" in body["error"]


@pytest.mark.parametrize(
    "read",
    [
        lambda: dsl.parse(f"city=revenue:yellow_{NINES[:3000]}"),
        lambda: dsl.parse(f"city;path=a:0,b:_{NINES[:3000]}"),
        lambda: dsl.parse(f"path=a:0,b:1,a_lane:{NINES[:3000]}.0"),
        lambda: dsl.parse(f"city=revenue:{NINES[:20]}"),
        lambda: tile_from_dict({"nodes": [{"kind": "city", "slots": 10**5000}]}),
        lambda: tile_from_dict({"paths": [{"a": f"_{NINES}", "b": "0"}]}),
        lambda: convert_read(f'[{{"nodes": [{{"kind": "city", "revenue": {NINES}}}]}}]', "json"),
        lambda: read_record(f'{{"actions": [{{"id": {NINES}}}]}}'),
        lambda: tiledefs.read_tiledefs(
            f'<Tile number="1" type="Yellow"><Track enter="{NINES}" exit="1"/></Tile>'
        ),
        lambda: rails.read_rails_tiles(
            f'<Tiles><Tile id="1"><Station id="c" type="City" slots="{NINES}"/></Tile></Tiles>'
        ),
        lambda: read_tileset(f'<TileSet><Tile number="1" quantity="{NINES}"/></TileSet>'),
        lambda: read_rails_game(
            '<Component name="TrainManager"><TrainType name="2" majorStops="2" '
            f'cost="{NINES}" quantity="1"/></Component>'
        ),
        lambda: read_game_toml(f'title = "x"\nlayout = "flat"\nplayers = {NINES}\n', "g.toml"),
        lambda: parse_tileset(f'name = "x"\nstart = "A"\n[tiles.A]\ncount = {NINES}\n'),
    ],
)
def test_5000_digits_anywhere_is_a_tilelay_error(read: Callable[[], object]) -> None:
    err = _refused(read)
    assert "4300" not in str(err) and "sys.set_int_max_str_digits" not in str(err)


def test_5000_digits_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    _one_line_exit_2(["tile", "show", "57", "--rotation", NINES], capsys, "whole number")
    _one_line_exit_2(["carcassonne", "play", "--seed", NINES], capsys, "whole number")


# ------------------------------------------------------------------ characters int() refuses


@pytest.mark.parametrize("path", ["/api/routes/1889?action=²", "/api/routes/1889?action=-²"])
def test_superscript_action_is_400_json(client: TestClient, path: str) -> None:
    _api_error(client.post(path, content=_record()))


def test_superscript_action_in_the_form_is_400_page(client: TestClient) -> None:
    form = {"record": _record().decode(), "action": "²"}
    assert "action" in _page_error(client.post("/routes/1889", data=form))


@pytest.mark.parametrize("text", ["²", "-²", "٣", "1_000", "+5", "0x1", " "])
def test_odd_digits_are_refused_by_every_number_reader(text: str) -> None:
    assert limits.whole(text, 0, 99) is None
    if "_" not in text:  # x_y is a phase revenue
        _refused(lambda: dsl.parse(f"city=revenue:{text}"))
    _refused(lambda: dsl.parse(f"city=revenue:20,slots:{text}"))
    _refused(lambda: rails.read_rails_tiles(f'<Tile id="1"><Track from="side{text}"/></Tile>'))
    _refused(
        lambda: rails.read_rails_tileset(
            '<TileManager><Tile id="1"><IfOption name="a" value="b">'
            f'<Attributes quantity="{text}"/></IfOption></Tile></TileManager>'
        )
    )
    _refused(lambda: read_tileset(f'<TileSet><Tile number="1" quantity="{text}"/></TileSet>'))


@pytest.mark.parametrize("text", ["٣٨", "３８", "1_0", "1e1", "+5"])
@pytest.mark.parametrize(
    "argv",
    [
        ["render", "sheet", "1889", "-o", "x.pdf", "--hex-size"],
        ["replay", "nothing.json", "--processes"],
        ["render", "tile", "57", "-o", "x.svg", "--rotation"],
    ],
)
def test_odd_digits_in_command_line_numbers(
    argv: list[str],
    text: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)  # (a command that took the number would write its file here)
    err = _one_line_exit_2([*argv, text], capsys, "expected a")
    assert repr(text) in err
    assert list(tmp_path.iterdir()) == []


def test_odd_digits_in_names_sort_without_crashing() -> None:
    names = ["²", "57", "X²", "1" * 5000, "X" + "9" * 5000, "K²4"]
    assert sorted(names, key=natural_key)
    assert sorted(names, key=tile_key)
    assert sorted(names, key=coord_key)


def test_odd_digits_in_carcassonne_tiles() -> None:
    for feature in ("city N pennants=²", "farm NL touches=²"):
        toml = f'name="x"\nstart="A"\n[tiles.A]\nfeatures=["{feature}"]'
        _refused(lambda t=toml: parse_tileset(t))


# ------------------------------------------------------------------ nesting


def test_body_nested_5000_deep_is_400(client: TestClient) -> None:
    deep = RECORD_HEAD.encode() + b"[" * 5000 + b"]" * 5000 + b"]}"
    body = _api_error(client.post("/api/routes/1889", content=deep))
    assert f"at most {limits.MAX_NESTING} levels" in body["error"]
    form = {"record": deep.decode()}
    _page_error(client.post("/routes/1889", data=form))


@pytest.mark.parametrize(
    "read",
    [
        lambda data: read_record(data),
        lambda data: convert_read(data, "json"),
        lambda data: convert_read(b'{"a": ' + data + b"}", "dsl"),
    ],
)
def test_every_json_reader_refuses_deep_nesting(read: Callable[[bytes], object]) -> None:
    for depth in (limits.MAX_NESTING + 1, 5000):
        _refused(lambda d=depth: read(b"[" * d + b"]" * d), "nested too deeply")


def test_every_json_reader_refuses_a_key_given_twice(client: TestClient) -> None:
    """A JSON object that gives a key twice kept the last value without a word (a record's
    action, a board edit's field): every reader now refuses it, naming the key."""
    twice = b'{"title": "1889", "title": "1830", "actions": []}'
    _refused(lambda: read_record(twice), "'title' is given twice")
    _refused(lambda: limits.read_json('[{"a": 1, "b": 2, "a": 3}]'), "'a' is given twice")
    body = b'{"state": {"game": "1889", "game": "1830"}}'
    err = _api_error(client.post("/api/boards/view", content=body))
    assert "'game' is given twice" in err["error"]


def test_toml_readers_refuse_deep_nesting() -> None:
    deep = "a = " + "[" * 5000 + "]" * 5000
    _refused(lambda: read_game_toml(deep, "g.toml"), "nested too deeply")
    _refused(lambda: parse_tileset(deep), "nested too deeply")


def test_xml_nesting_is_refused_in_words() -> None:
    err = _refused(lambda: parse_xml(b"<a>" * 300 + b"</a>" * 300), "nested too deeply")
    assert "XML_PARSE_HUGE" not in str(err)


# ------------------------------------------------------------------ record fields


@pytest.mark.parametrize("rotation", ['"x"', "null", "[1]", "1e400", "-1", "6", "true", "{}"])
def test_lay_tile_rotation_of_any_type_is_400(client: TestClient, rotation: str) -> None:
    lay = _lay(rotation)
    _api_error(client.post("/api/routes/1889", content=_record(lay)))
    _page_error(client.post("/routes/1889", data={"record": _record(lay).decode()}))


@pytest.mark.parametrize("action_id", ['"x"', "null", "[1]", "1.5", "true"])
def test_an_id_that_is_not_a_number_is_not_a_500(client: TestClient, action_id: str) -> None:
    run = _action(type='"run_routes"', id=action_id, entity='"AR"', routes="[]")
    response = client.post("/api/routes/1889", content=_record(run))
    assert response.status_code in (200, 400), response.text
    response = client.post(f"/api/routes/1889?action={1}", content=_record(run))
    assert response.status_code == 400


@pytest.mark.parametrize("city", ["K4-0--²", "I4-0-²", "I4-0-x", "I4-0-999", "", "I4"])
def test_place_token_city_index_is_400(client: TestClient, city: str) -> None:
    token = _action(type='"place_token"', id="1", entity='"AR"', city=json.dumps(city))
    _api_error(client.post("/api/routes/1889", content=_record(token)))


@pytest.mark.parametrize("routes", ["5", '"x"', "[5]", '[{"train": "2-0", "connections": 5}]'])
def test_recorded_routes_of_any_type(client: TestClient, routes: str) -> None:
    run = _action(type='"run_routes"', id="99", entity='"AR"', routes=routes)
    response = client.post("/api/routes/1889", content=(RECORD_HEAD + run + "]}").encode())
    if routes.startswith("[{"):
        # a route of odd parts is read as far as it goes (and rated as no legal route)
        assert response.status_code == 200, response.text[:300]
    else:
        # routes that are not a list of routes are refused, naming the action
        assert response.status_code == 400, response.text[:300]
        assert "action 99: its 'routes' must be a list" in response.json()["error"]


# ------------------------------------------------------------------ replay is linear


def _passes_and_undos(n: int) -> dict[str, Any]:
    actions: list[dict[str, Any]] = [
        {"type": "pass", "id": i + 1, "entity": "AR"} for i in range(n)
    ]
    actions += [{"type": "undo", "id": n + i + 1, "entity": "AR"} for i in range(n)]
    actions.append({"type": "run_routes", "id": 2 * n + 1, "entity": "AR", "routes": []})
    return {"title": "1889", "id": 1, "actions": actions}


def test_20000_passes_and_20000_undos_replay_in_linear_time(client: TestClient) -> None:
    record = _passes_and_undos(20_000)
    body = json.dumps(record).encode()
    assert len(body) > 1_000_000
    t0 = time.perf_counter()
    assert [a["type"] for a in actions_in_force(record["actions"])] == ["run_routes"]
    replay(record, load_game("1889"))
    assert time.perf_counter() - t0 < 5.0  # quadratic: about 50 s
    t0 = time.perf_counter()
    response = client.post("/api/routes/1889", content=body)
    assert response.status_code == 200, response.text[:200]
    assert time.perf_counter() - t0 < 10.0


def test_a_record_over_the_action_limit_is_refused() -> None:
    actions = '{"type": "pass"},' * (200_001) + "{}"
    _refused(lambda: read_record('{"actions": [' + actions + "]}"), "at most 200000")


# ------------------------------------------------------------------ off the event loop, time limit


def test_a_request_past_the_time_limit_answers_503_and_stops(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TILELAY_REQUEST_SECONDS", "0.3")
    counter = [0]

    def forever() -> None:
        while True:
            counter[0] += 1

    async def ask() -> None:
        with pytest.raises(WebError) as info:
            await compute_module.compute(forever)
        assert info.value.status == 503

    threads = threading.active_count()
    asyncio.run(ask())
    time.sleep(0.5)
    seen = counter[0]
    time.sleep(0.5)
    assert counter[0] == seen, "the computation went on after its 503"
    assert threading.active_count() <= threads + 1


def test_a_time_limit_stops_its_block_and_leaves_nothing_behind() -> None:
    t0 = time.perf_counter()
    with pytest.raises(compute_module.TimeUp), compute_module.time_limit(0.2):
        while True:
            pass
    assert time.perf_counter() - t0 < 1
    with compute_module.time_limit(0.2):
        total = sum(range(1000))  # ends in time
    end = time.perf_counter() + 0.5
    while time.perf_counter() < end:  # past the limit: no TimeUp comes late
        total += 1
    assert total > 499500


def test_the_server_answers_while_one_request_computes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TILELAY_REQUEST_SECONDS", "3")
    from tilelay.web import best_routes

    def slow(*args: object) -> object:
        end = time.perf_counter() + 10
        while time.perf_counter() < end:
            sum(range(1000))
        raise AssertionError("never reached")

    monkeypatch.setattr(best_routes, "analyse", slow)

    async def run() -> tuple[int, list[float]]:
        transport = httpx2.ASGITransport(app=create_app())
        async with httpx2.AsyncClient(transport=transport, base_url="http://t") as c:
            await c.get("/tiles/57")  # warm
            long = asyncio.create_task(c.post("/api/routes/1889", content=_record()))
            await asyncio.sleep(0.3)
            times = []
            for _ in range(5):
                t0 = time.perf_counter()
                assert (await c.get("/tiles/57")).status_code == 200
                times.append(time.perf_counter() - t0)
            return (await long).status_code, times

    status, times = asyncio.run(run())
    assert status == 503
    assert max(times) < 1.5, times  # the slow request holds 3 s; waiting for it would show


def test_serve_has_workers_one_per_core_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    from tilelay.cli.serve import default_workers

    assert default_workers() == len(os.sched_getaffinity(0))
    _one_line_exit_2(["serve", "--workers", "0"], capsys, "--workers")
    _one_line_exit_2(["serve", "--workers", "²"], capsys, "whole number")


def test_serve_on_a_port_in_use_says_so_before_anything(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        for workers in ("1", "2"):
            status, err = _cli(["serve", "--port", str(port), "--workers", workers], capsys)
            assert status == 2
            assert "in use" in err and len(err.strip().splitlines()) == 1
    assert "serving on" not in capsys.readouterr().out


def test_serve_with_a_database_it_cannot_use_says_so_before_anything(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    not_a_db = tmp_path / "notes.txt"
    not_a_db.write_text("not a database")
    for db, words in ((tmp_path, "cannot open the database"), (not_a_db, "not a database")):
        err = _one_line_exit_2(["serve", "--db", str(db), "--workers", "1"], capsys, words)
        assert str(db) in err
    # a folder that is not there is said, not made (a typo would hide the boards in it)
    missing = tmp_path / "nowhere" / "boards.sqlite3"
    _one_line_exit_2(["serve", "--db", str(missing)], capsys, "does not exist", "nowhere")
    assert not missing.parent.exists()
    assert "serving on" not in capsys.readouterr().out
    assert not_a_db.read_text() == "not a database"


def test_an_unexpected_error_is_a_500_logged_once(caplog: pytest.LogCaptureFixture) -> None:
    from starlette.routing import Route

    app = create_app()

    def boom(request: object) -> object:
        raise RuntimeError("boom")

    app.router.routes.insert(0, Route("/api/boom", boom))
    with TestClient(app, raise_server_exceptions=False) as c, caplog.at_level(logging.ERROR):
        response = c.get("/api/boom")
    _api_error(response, 500)
    assert "boom" not in response.text
    assert sum("boom" in r.getMessage() or r.exc_info is not None for r in caplog.records) == 1


# ------------------------------------------------------------------ sizes a user can ask for


def test_a_million_slots_is_refused_quickly(client: TestClient) -> None:
    t0 = time.perf_counter()
    page = _page_error(client.get("/tile?code=city=revenue:20,slots:1000000"))
    assert time.perf_counter() - t0 < 3.0
    assert f"slots must be a whole number from 0 to {limits.MAX_SLOTS}" in page
    assert len(page) < 100_000


@pytest.mark.parametrize(
    "read",
    [
        lambda: dsl.parse("city=revenue:20,slots:13"),
        lambda: tile_from_dict({"nodes": [{"kind": "city", "slots": 1_000_000}]}),
        lambda: tiledefs.read_tiledefs(
            '<Tile number="1" type="Yellow"><RevenueCenter location="50" number="1000000" '
            'type="Single City"/></Tile>'
        ),
        lambda: rails.read_rails_tiles(
            '<Tiles><Tile id="1"><Station id="c" type="City" slots="1000000"/></Tile></Tiles>'
        ),
    ],
)
def test_every_tile_reader_refuses_too_many_slots(read: Callable[[], object]) -> None:
    _refused(read, "12")


def test_counts_of_parts_are_limited() -> None:
    _refused(lambda: dsl.parse("town;" * 40), f"more than {limits.MAX_NODES} nodes")
    _refused(lambda: dsl.parse("path=a:0,b:1,lanes:8;" * 17), f"more than {limits.MAX_PATHS}")
    _refused(lambda: dsl.parse("label=X;" * 40), f"at most {limits.MAX_ITEMS}")
    _refused(lambda: dsl.parse("x" * (limits.MAX_CODE + 1)), "characters long")
    _refused(lambda: tile_from_dict({"labels": [{"text": "x"}] * 200}), "at most")


def test_rotation_lists_are_limited(client: TestClient) -> None:
    _page_error(client.get("/tiles/57?r=" + "+".join(["0"] * 13)))
    assert client.get("/tiles/57?r=0+1+2+3+4+5").status_code == 200
    _refused(
        lambda: read_tileset(
            '<TileSet><Tile number="1"><Upgrade toNumber="2" rotations="0,1,2,3,4,5,0"/>'
            "</Tile></TileSet>"
        ),
        "at most 6",
    )


def test_manifest_counts_are_limited() -> None:
    text = (Path(__file__).parents[1] / "tilelay" / "games" / "data" / "1889.toml").read_text()
    assert '"5" = 2' in text
    read_game_toml(text, "1889.toml")
    toml = text.replace('"5" = 2', '"5" = 10000000')
    _refused(lambda: read_game_toml(toml, "g.toml"), "count must be 0 to")


# ------------------------------------------------------------------ files and folders


def test_a_folder_as_input_or_output_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "d.json"
    folder.mkdir()
    good = tmp_path / "t.json"
    good.write_text('[{"nodes": []}]')
    _one_line_exit_2(["convert", str(folder), "--to", "dsl"], capsys, "folder")
    _one_line_exit_2(["convert", str(good), "-o", str(folder)], capsys, "folder")
    _one_line_exit_2(["render", "tile", "57", "-o", str(tmp_path / "y.svg") + "/"], capsys)
    (tmp_path / "x.svg").mkdir()
    _one_line_exit_2(["render", "tile", "57", "-o", str(tmp_path / "x.svg")], capsys, "folder")
    _one_line_exit_2(["routes", str(folder), "--action", "1"], capsys, "folder")
    _one_line_exit_2(["tiles", "conflicts", str(folder)], capsys, "folder")
    _one_line_exit_2(["trains", str(tmp_path / "nothing.xml")], capsys)
    _one_line_exit_2(
        ["tileset", "--tiles", str(folder), "--manifest", str(folder)], capsys, "folder"
    )
    _one_line_exit_2(["carcassonne", "tiles", "--file", str(folder)], capsys, "folder")


def test_an_output_folder_that_is_missing_a_file_or_unwritable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a_file = tmp_path / "f"
    a_file.write_text("x")
    _one_line_exit_2(["render", "tile", "57", "-o", str(tmp_path / "no" / "x.svg")], capsys)
    _one_line_exit_2(["render", "tile", "57", "-o", str(a_file / "x.svg")], capsys, "file")
    unwritable = tmp_path / "ro"
    unwritable.mkdir()
    unwritable.chmod(0o555)
    if os.geteuid() == 0:  # root writes anywhere but in a read-only file system
        unwritable = Path("/sys")
    _one_line_exit_2(["render", "tile", "57", "-o", str(unwritable / "x.svg")], capsys, "write")
    _one_line_exit_2(["carcassonne", "play", "--svg", str(unwritable / "x.svg")], capsys)


def test_output_names_must_match_the_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "t.json"
    good.write_text('[{"nodes": []}]')
    out = tmp_path / "out.yaml"
    _one_line_exit_2(["convert", str(good), "--to", "json", "-o", str(out)], capsys, ".yaml")
    _one_line_exit_2(["convert", str(good), "--to", "xml", "-o", str(tmp_path / "o.json")], capsys)
    _one_line_exit_2(["render", "tile", "57", "-o", str(tmp_path / "x.yaml")], capsys)
    _one_line_exit_2(["tileset", "1889", "-o", str(tmp_path / "x.yaml")], capsys, ".xml")
    _one_line_exit_2(["carcassonne", "play", "--svg", str(tmp_path / "x.png")], capsys, ".svg")
    assert not out.exists()


def test_argparse_complaints_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    _one_line_exit_2(["render", "tile"], capsys, "required")
    _one_line_exit_2(["nonsense"], capsys, "invalid choice")


# ------------------------------------------------------------------ XML


def test_the_rails_reader_refuses_another_root(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "t.xml"
    path.write_text("<Wrong><Tile id='1'/></Wrong>")
    _one_line_exit_2(["convert", str(path), "--from", "rails", "--to", "dsl"], capsys, "<Tiles>")
    _refused(lambda: rails.read_rails_tileset("<Tiles/>"), "<TileManager>")


@pytest.mark.parametrize(
    "encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-8-sig", "utf-7"]
)
def test_entity_declarations_are_refused_in_any_encoding(encoding: str) -> None:
    doc = (
        f'<?xml version="1.0" encoding="{encoding.removesuffix("-sig").upper()}"?>\n'
        '<!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]>\n'
        '<Tiles><Tile id="1" name="&b;"/></Tiles>'
    )
    raw = doc.encode(encoding)
    if encoding == "utf-7":  # spell the declaration in UTF-7's own way
        raw = raw.replace(b"<!ENTITY", b"+ADwAIQ-ENTITY")
    for read in (parse_xml, rails.read_rails_tiles, tiledefs.read_tiledefs, read_tileset):
        _refused(lambda r=read: r(raw), "entity declarations are not allowed")


def test_other_encodings_still_read() -> None:
    doc = '<?xml version="1.0" encoding="UTF-16"?>\n<Tiles>\n<Tile id="57" name="é"/></Tiles>'
    for encoding in ("utf-16", "utf-16-le", "utf-32", "utf-8"):
        root = parse_xml(doc.replace("UTF-16", encoding.upper()).encode(encoding))
        assert root[0].get("name") == "é" and root[0].sourceline == 3
    latin = '<?xml version="1.0" encoding="ISO-8859-1"?><a n="\xe9"/>'.encode("latin-1")
    assert parse_xml(latin).get("n") == "é"
    _refused(lambda: parse_xml(b'<?xml version="1.0" encoding="bogus"?><a/>'), "bogus")


@pytest.mark.parametrize(
    ("read", "words"),
    [
        (lambda: read_tileset('<TileSet><Tile number="1" quantity="-5"/></TileSet>'), "quantity"),
        (
            lambda: rails.read_rails_tileset(
                '<TileManager><Tile id="1" quantity="-5"/></TileManager>'
            ),
            "quantity",
        ),
        (
            lambda: rails.read_rails_tiles(
                '<Tiles><Tile id="1"><Station id="c" type="City" slots="-3"/></Tile></Tiles>'
            ),
            "slots",
        ),
        (
            lambda: tiledefs.read_tiledefs(
                '<Tile number="1" type="Yellow"><RevenueCenter location="50" number="-3" '
                'type="Single City"/></Tile>'
            ),
            "number",
        ),
        (
            lambda: tiledefs.read_tiledefs(
                '<Tile number="1" type="Yellow"><RevenueCenter location="50" type="Single City">'
                '<Revenue location="12" phase="0" value="-40"/></RevenueCenter></Tile>'
            ),
            "revenue",
        ),
        (lambda: dsl.parse("city=revenue:-40"), "negative"),
        (lambda: tile_from_dict({"nodes": [{"kind": "city", "slots": -3}]}), "slots"),
        (lambda: tile_from_dict({"nodes": [{"kind": "town", "revenue": -40}]}), "revenue"),
    ],
)
def test_negative_counts_slots_and_revenues_are_refused(
    read: Callable[[], object], words: str
) -> None:
    _refused(read, words)


def test_an_offboard_may_be_worth_less_than_nothing() -> None:
    # 1880's offboards are worth -10 in the 18xx.games engine's own data
    tile = dsl.parse("offboard=revenue:-10,hide:1;path=a:3,b:_0", name="X")
    assert dsl.write(tile) == "offboard=revenue:-10,hide:1;path=a:3,b:_0"
    back = tiledefs.read_tiledefs(tiledefs.write_tiledefs([tile]))[0]
    assert back.nodes[0].revenue is not None and back.nodes[0].revenue.value == -10


@pytest.mark.parametrize(
    "doc",
    [b"<a>&#0;</a>", b"<a>" * 300 + b"</a>" * 300, b"<a>", b"<a b='1' b='2'/>", b"\xff<a/>"],
)
def test_xml_messages_do_not_quote_libxml2(doc: bytes) -> None:
    err = _refused(lambda: parse_xml(doc))
    text = str(err)
    assert "xmlParse" not in text and "xmlChar" not in text and "XML_PARSE" not in text, text


def test_tile_texts_cannot_hold_control_characters() -> None:
    _refused(lambda: dsl.parse("label=a\x01b"), "U+0001")
    _refused(lambda: tile_from_dict({"labels": [{"text": "a\x00"}]}), "U+0000")


def _many_trains(n: int) -> dict[str, Any]:
    actions: list[dict[str, Any]] = [
        {"type": "buy_train", "id": i + 1, "entity": "AR", "train": f"D-{i}"} for i in range(n)
    ]
    actions.append({"type": "run_routes", "id": n + 1, "entity": "AR", "routes": []})
    return {"title": "1889", "actions": actions}


def test_a_corporation_holds_at_most_max_trains() -> None:
    from tilelay.replay import RecordError, replay_steps

    record = _many_trains(limits.MAX_TRAINS + 1)
    err = _refused(lambda: list(replay_steps(record, load_game("1889"))))
    assert isinstance(err, RecordError)
    assert f"action {limits.MAX_TRAINS + 1}:" in str(err)
    assert f"at most {limits.MAX_TRAINS}" in str(err)
    errors: list[RecordError] = []
    steps = list(replay_steps(record, load_game("1889"), on_error=errors.append))
    assert len(errors) == 1 and len(steps[-1].trains["AR"]) == limits.MAX_TRAINS


def test_100000_train_purchases_replay_in_linear_time() -> None:
    # each step keeps a copy of the trains, company owners, assignments and notes: all stay
    # bounded however long the record (a corporation's trains used to grow without end: 100,000
    # purchases took minutes and gigabytes)
    from tilelay.replay import replay_steps

    actions: list[dict[str, Any]] = []
    for i in range(100_000):
        actions.append({"type": "buy_train", "id": 2 * i + 1, "entity": "AR", "train": f"D-{i}"})
        actions.append(
            {"type": "discard_train", "id": 2 * i + 2, "entity": "AR", "train": f"D-{i}"}
        )
    record = {"title": "1889", "actions": actions}
    t0 = time.perf_counter()
    steps = list(replay_steps(record, load_game("1889")))
    assert time.perf_counter() - t0 < 20.0
    assert dict(steps[-2].trains["AR"]) == {"D-99999": "D"}
    assert not steps[-1].trains["AR"]


def test_companies_and_assignments_without_end_are_refused() -> None:
    from tilelay.replay import RecordError, replay_steps

    n = 3_000
    actions: list[dict[str, Any]] = [
        {"type": "buy_company", "id": i + 1, "entity": "AR", "company": f"C{i}", "price": 1}
        for i in range(n)
    ]
    actions += [
        {"type": "assign", "id": n + i + 1, "entity": "AR", "target": f"T{i}"} for i in range(n)
    ]
    errors: list[RecordError] = []
    t0 = time.perf_counter()
    steps = list(replay_steps({"title": "1889", "actions": actions}, on_error=errors.append))
    assert time.perf_counter() - t0 < 20.0
    assert len(errors) == 2 * (n - 1_000)
    assert "more than 1000 companies" in str(errors[0])
    assert len(steps[-1].facts.companies) == 1_000 and len(steps[-1].facts.assignments) == 1_000


def test_more_trains_than_the_router_takes_is_400(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    # 1,000 trains made the route search recurse past Python's limit (a 500)
    body = json.dumps(_many_trains(1000)).encode()
    error = _api_error(client.post("/api/routes/1889", content=body))["error"]
    assert f"at most {limits.MAX_TRAINS}" in error
    trains = ",".join(["2"] * 30)
    _one_line_exit_2(
        ["routes", "1889", "--corporation", "AR", "--trains", trains], capsys, "at most"
    )


def test_serve_runs_workers_that_answer_and_end_with_it(tmp_path: Path) -> None:
    import subprocess
    import sys

    command = [sys.executable, "-c", "import sys; from tilelay.cli import main; sys.exit(main())"]
    command += ["serve", "--port", "0", "--workers", "2", "--log-level", "warning"]
    command += ["--db", str(tmp_path / "boards.sqlite3")]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert "with 2 workers" in line, line
        assert "boards.sqlite3" in proc.stdout.readline()
        port = int(line.split("http://127.0.0.1:")[1].split("/")[0])
        deadline = time.monotonic() + 30
        answers = 0
        while answers < 10 and time.monotonic() < deadline:
            try:
                response = httpx2.get(f"http://127.0.0.1:{port}/tiles/57", timeout=10)
            except httpx2.TransportError:
                time.sleep(0.2)
                continue
            assert response.status_code == 200
            answers += 1
        assert answers == 10
    finally:
        proc.terminate()
        assert proc.wait(timeout=30) == 0
    with socket.socket() as probe:  # the port is free again: no worker outlived the server
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind(("127.0.0.1", port))
        probe.listen()


@pytest.mark.parametrize("number", [NINES, "²", "-²", "1_0", "٣"])
def test_map_and_company_readers_read_numbers_in_ascii_and_range(number: str) -> None:
    from tests.test_xml_ge18xx import MAP as GE_MAP
    from tests.test_xml_rails_map import COMPANIES, MAP
    from tilelay.xml.ge18xx_companies import read_ge_companies
    from tilelay.xml.ge18xx_games import read_ge_games
    from tilelay.xml.ge18xx_map import read_ge_map
    from tilelay.xml.rails_companies import read_rails_companies
    from tilelay.xml.rails_map import read_rails_map

    def put(document: bytes, old: str, new: str) -> bytes:
        assert old.encode() in document
        return document.replace(old.encode(), new.encode(), 1)

    read_ge_map(GE_MAP)
    _refused(lambda: read_ge_map(put(GE_MAP, 'index="0"', f'index="{number}"')))
    companies = b'<Corporations><Share id="2" name="P" abbrev="PRR" tokens="4"/></Corporations>'
    read_ge_companies(companies)
    _refused(lambda: read_ge_companies(put(companies, 'tokens="4"', f'tokens="{number}"')))
    games = b'<Games><GameInfo name="1830" minPlayers="3" maxPlayers="6"/></Games>'
    assert read_ge_games(games)
    _refused(lambda: read_ge_games(put(games, 'minPlayers="3"', f'minPlayers="{number}"')))
    read_rails_map(MAP)
    _refused(lambda: read_rails_map(put(MAP, 'cost="80,120"', f'cost="80,{number}"')))
    read_rails_companies(COMPANIES)
    _refused(lambda: read_rails_companies(put(COMPANIES, 'tokens="4"', f'tokens="{number}"')))


# ------------------------------------------------------------------ what the long fuzz run found


def test_found_an_id_of_false_on_a_tile_lay(client: TestClient) -> None:
    lay = _action(type='"lay_tile"', id="false", hex='"I4"', tile='"57-0"', rotation="0")
    response = client.post("/api/routes/1889", content=_record(lay))
    assert response.status_code in (200, 400), response.text[:300]
    replay(json.loads(_record(lay)), load_game("1889"))


def test_found_an_empty_revenue_centre_id_round_trips() -> None:
    doc = (
        '<Tile number="1" type="Yellow"><RevenueCenter id="" location="50" number="1" '
        'type="Single City"><Revenue location="12" phase="0" value="20"/></RevenueCenter></Tile>'
    )
    tiles = tiledefs.read_tiledefs(doc)
    assert tiledefs.read_tiledefs(tiledefs.write_tiledefs(tiles)) == tiles


def test_found_an_empty_start_phase_round_trips() -> None:
    from tilelay.xml.rails_game import write_rails_trains

    doc = (
        '<Component name="TrainManager"><TrainType name="2" majorStops="2" cost="80" '
        'quantity="6" startPhase=""/></Component>'
    )
    manager = read_rails_game(doc)
    assert read_rails_game(write_rails_trains(manager)).card_types == manager.card_types


def test_found_a_negative_map_row_index() -> None:
    from tests.test_xml_ge18xx import MAP as GE_MAP
    from tilelay.xml.ge18xx_map import read_ge_map

    _refused(lambda: read_ge_map(GE_MAP.replace(b'index="1"', b'index="-3"')), "outside")


def test_found_api_without_a_slash_answers_json(client: TestClient) -> None:
    _api_error(client.get("/api/tiles/.."), 404)  # the client asks for /api


def test_odd_file_names_still_give_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    # found by the fuzz suite: a name holding a line break broke the one line in two, and a
    # lone surrogate could not be opened or printed
    for name in ("a\nb.json", "a\x1eb.json", "\ud800.json", "\udcff.json", "a\u2028b.json"):
        _one_line_exit_2(["routes", name, "--action", "1"], capsys)
        _one_line_exit_2(["lays", name], capsys)
        _one_line_exit_2(
            ["render", "tile", "57", "-o", "/nope/" + name.replace(".json", ".svg")], capsys
        )


def test_workers_end_when_the_server_is_killed(tmp_path: Path) -> None:
    # SIGKILL leaves the server no time to stop its workers: each is told by the kernel
    import subprocess
    import sys

    command = [sys.executable, "-c", "import sys; from tilelay.cli import main; sys.exit(main())"]
    command += ["serve", "--port", "0", "--workers", "2", "--log-level", "warning"]
    command += ["--db", str(tmp_path / "boards.sqlite3")]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    port = int(line.split("http://127.0.0.1:")[1].split("/")[0])
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx2.get(f"http://127.0.0.1:{port}/api/games", timeout=10).status_code == 200:
                break
        except httpx2.TransportError:
            time.sleep(0.2)
    proc.kill()
    proc.wait(timeout=10)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) != 0:
                break  # nothing listens any more
        time.sleep(0.2)
    else:
        raise AssertionError(f"a worker still listens on port {port} after the server was killed")


# ------------------------------------------------------------------ ids past SQLite's


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/boards/{}"),
        ("PUT", "/api/boards/{}"),
        ("PATCH", "/api/boards/{}"),
        ("DELETE", "/api/boards/{}"),
        ("GET", "/api/boards/{}/export"),
        ("GET", "/api/boards/{}/revisions"),
        ("GET", "/api/records/{}"),
        ("DELETE", "/api/records/{}"),
        ("GET", "/api/records/{}/steps/0"),
        ("POST", "/api/records/{}/branch"),
        ("GET", "/api/carcassonne/games/{}"),
        ("DELETE", "/api/carcassonne/games/{}"),
        ("GET", "/api/carcassonne/games/{}/export"),
        ("POST", "/api/carcassonne/games/{}/undo"),
    ],
)
def test_an_id_past_sqlite_s_is_404(client: TestClient, method: str, path: str) -> None:
    """A document id past what SQLite holds is a document that is not there (not a 500)."""
    bodies: dict[str, dict[str, object]] = {
        "PUT": {"version": 1, "state": {"game": "1889"}},
        "PATCH": {"name": "x"},
        "POST": {"step": 0} if path.endswith("branch") else {"version": 1},
    }
    for doc_id in (str(2**63), "1" + "0" * 39, "1" + "0" * 60, "9" * 4400):
        body = bodies.get(method, {})
        response = client.request(method, path.format(doc_id), content=json.dumps(body))
        error = _api_error(response, 404)["error"]
        digits = len(doc_id)
        named = doc_id if digits <= 40 else f"an id of {digits} digits"
        # (past 100 digits no route takes it: Python refuses to read 4,300 digits and more)
        assert error.startswith("no ") and (named in error or digits > 100), error


def test_an_id_past_sqlite_s_in_a_page_is_404(client: TestClient) -> None:
    _page_error(client.get(f"/carcassonne/play/{2**63}"), 404)
    _page_error(client.get("/carcassonne/play/" + "9" * 4400), 404)


def test_an_empty_body_says_so(client: TestClient) -> None:
    error = _api_error(client.post("/api/boards/view", content=b""))["error"]
    assert error == "the request body is empty: a JSON object was expected"


@pytest.mark.parametrize("reach", ['"yes"', "1", "null", "[]"])
def test_a_flag_that_is_not_true_or_false_is_400(client: TestClient, reach: str) -> None:
    body = '{"state": {"game": "1889"}, "hex": "K8", "reach": ' + reach + "}"
    error = _api_error(client.post("/api/boards/lays", content=body.encode()))["error"]
    assert error == "'reach' must be true or false"


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["render", "tile", "{missing}", "-o", "x.svg"], "cannot read tile file: no such file"),
        (["render", "tile", "{folder}", "-o", "x.svg"], "it is a folder, not a file"),
        (["trains", "{missing}"], "cannot read Game.xml file: no such file"),
        (["tile", "show", "path=a:0,b:3"], "is a tile string: tile show prints a catalogue"),
    ],
)
def test_a_file_that_is_not_there_is_named_as_a_file(
    argv: list[str], words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A missing file given where a name may be is said missing, not an unknown name."""
    missing, folder = tmp_path / "nowhere.xml", tmp_path / "sub" / ""
    (tmp_path / "sub").mkdir()
    argv = [a.format(missing=missing, folder=f"{folder}/") for a in argv]
    err = _one_line_exit_2(argv, capsys, words)
    assert "no tile named" not in err and "no game named" not in err


@pytest.mark.parametrize("command", ["lays", "routes"])
@pytest.mark.parametrize(
    ("kind", "key", "value", "said"),
    [
        ("lay_tile", "hex", None, "lay_tile has no 'hex' (text expected)"),
        ("lay_tile", "tile", 57, "lay_tile has 57 for its 'tile' (text expected)"),
        ("place_token", "city", 5, "place_token has 5 for its 'city' (text expected)"),
    ],
)
def test_a_record_s_missing_field_is_named_with_its_file(
    command: str,
    kind: str,
    key: str,
    value: object,
    said: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    record = json.loads(reference("18xxgames", "fixtures", "1889_314.json").read_text())
    action = next(a for a in record["actions"] if a["type"] == kind)
    if value is None:
        del action[key]
    else:
        action[key] = value
    path = tmp_path / "damaged.json"
    path.write_text(json.dumps(record))
    argv = [command, str(path)] + (["--action", "367"] if command == "routes" else [])
    err = _one_line_exit_2(argv, capsys, said)
    assert err.startswith(f"tilelay: error: {path}: record 314 (1889): action {action['id']}: ")


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('<Tiles><Tile number="1"', "an element's attributes are malformed or cut"),
        ("<Tiles><Tile>", "the file ends inside <Tile>"),
        ("<Tiles><Tile></Tiles>", "<Tile> is closed by </Tiles>"),
        ("hello", "no element: the text is not XML"),
        ("<a/><b/>", "more after the root element"),
    ],
)
def test_broken_xml_is_said_in_words(text: str, said: str) -> None:
    with pytest.raises(TilelayError) as info:
        parse_xml(text, source="t.xml")
    assert str(info.value) == f"t.xml:1: malformed XML: {said}"


def test_an_unterminated_json_string_says_where() -> None:
    with pytest.raises(TilelayError) as info:
        limits.read_json('{"a": "abc', source="r.json")
    assert str(info.value) == "r.json:1:7: malformed JSON: Unterminated string starting here"


@pytest.mark.parametrize(
    ("method", "path", "body", "expected"),
    [
        ("POST", "/api/boards", {"name": "b", "state": {"game": "1889"}}, "name, state"),
        ("PATCH", "/api/boards/1", {"name": "b"}, "name"),
        ("POST", "/api/carcassonne/games", {"players": ["greedy", "random"]}, "abbot, name"),
    ],
)
def test_a_field_a_request_does_not_know_is_refused(
    client: TestClient, method: str, path: str, body: dict[str, Any], expected: str
) -> None:
    """As a board state's unknown field is: a misspelt field is never silently dropped."""
    response = client.request(method, path, content=json.dumps({**body, "nmae": "x"}))
    error = _api_error(response)["error"]
    assert error.startswith("unknown field 'nmae' in the request body (expected ")
    assert expected in error


@pytest.mark.parametrize(
    ("name", "data", "extra"),
    [
        ("t.txt", b"x: label=A\tB\n", []),
        ("t.json", b'{"labels": [{"text": "A\\nB"}]}', []),
        ("t.json", b'{"nodes": [{"kind": "city", "slot": 2}]}', []),
        ("t.txt", b"x: path=a:0,b:3\nx: path=a:1,b:4\n", []),
        ("t.dsl", b'{"x": "path=a:0,b:3", "x": "path=a:1,b:4"}', ["--from", "dsl"]),
    ],
)
def test_texts_typos_and_twins_in_converted_tiles_are_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, data: bytes, extra: list[str]
) -> None:
    """A text of two lines, a misspelt field, two tiles of one name: each was converted with
    something silently lost (the line kept, the field ignored, a tile dropped)."""
    src = tmp_path / name
    src.write_bytes(data)
    _one_line_exit_2(["convert", str(src), "--to", "dsl", *extra], capsys, name)


def test_a_text_of_two_lines_is_one_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    _one_line_exit_2(["tile", "parse", "label=A\nB"], capsys, "column 8", "U+000A")
