"""Auditing records (tilelay.audit) and ``tilelay replay``: every run rated, bad input named by
action, many records on a process pool or a Dask cluster with the same results."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REFERENCE
from tilelay.audit import RecordAudit, audit_record, audit_records, summarise
from tilelay.cli import main
from tilelay.games import registry
from tilelay.sources import games as sources

FIXTURES = REFERENCE / "18xxgames" / "fixtures"
BUILT_IN = ["1889_314.json", "1830_26855.json", "18Chesapeake_1277.json"]


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(sources.ENVIRONMENT_VARIABLE, "")
    yield
    registry.reset()


def fixture(name: str) -> Path:
    path = FIXTURES / name
    if not path.exists():
        pytest.skip(f"reference record absent: {path}")
    return path


def summary_rows(audits: list[RecordAudit]) -> list[tuple[Any, ...]]:
    return [
        (Path(a.record).name, r.id, r.corporation, r.optimal_revenue, r.computed_revenue)
        for a in audits
        for r in a.runs
    ]


def test_a_record_audited() -> None:
    audit = audit_record(fixture("1889_314.json"))
    assert audit.error is None and audit.game == "1889"
    assert len(audit.runs) == 32
    run = next(r for r in audit.runs if r.id == 367)
    assert run.corporation == "IR" and run.trains
    # the one recorded route against the rules is named with the action and why
    assert run.computed_revenue is None
    assert any("action 367" in p and "no legal route" in p for p in run.problems)
    for run in audit.runs:
        assert run.optimal_revenue is not None and run.seconds >= 0
        if run.computed_revenue is not None:
            assert run.optimal_revenue >= run.computed_revenue
        if run.recorded_revenue is not None and run.id != 367:
            assert run.computed_revenue == run.recorded_revenue
    obj = audit.runs[0].as_json()
    for key in (
        "record",
        "id",
        "corporation",
        "trains",
        "recorded_revenue",
        "computed_revenue",
        "optimal_revenue",
        "seconds",
        "routes",
    ):
        assert key in obj
    assert set(obj["routes"][0]) >= {"train", "revenue", "hexes", "stops"}


def test_bad_input_is_named_never_a_traceback() -> None:
    unknown = audit_record({"title": "Nonesuch", "actions": []}, name="x")
    assert unknown.error is not None and "Nonesuch" in unknown.error
    bad_lay = audit_record(
        {
            "title": "1889",
            "actions": [
                {"id": 7, "type": "lay_tile", "entity": "AR", "hex": "K8", "tile": "999-0"}
            ],
        },
        name="y",
    )
    assert bad_lay.error is not None and "action 7" in bad_lay.error and "999" in bad_lay.error
    illegal = audit_record(
        {
            "title": "1889",
            "actions": [
                {"id": 1, "type": "buy_train", "entity": "AR", "train": "2-0", "price": 80},
                {
                    "id": 2,
                    "type": "run_routes",
                    "entity": "AR",
                    "routes": [{"train": "2-0", "connections": [["K8", "K4"]], "revenue": 99}],
                },
            ],
        },
        name="z",
    )
    assert illegal.error is None
    (run,) = illegal.runs
    assert run.computed_revenue is None
    assert run.problems and "action 2" in run.problems[0] and "K8-K4" in run.problems[0]
    summary = summarise([unknown, bad_lay, illegal])
    assert summary.records == 3 and summary.failures == 2 and summary.illegal_routes == 1


def test_replay_command_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    path = fixture("1830_26855.json")
    assert main(["replay", str(path), "--processes", "1"]) == 0
    out = capsys.readouterr().out
    assert "NYNH" in out and "1 records, 43 runs, 0 records failed" in out
    assert "revenue missed per corporation" in out
    assert main(["replay", str(path), "--json", "--processes", "1"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 43
    first = next(x for x in lines if x["id"] == 92)
    assert first["corporation"] == "NYNH" and first["recorded_revenue"] == 110
    assert first["computed_revenue"] == 110 and first["optimal_revenue"] == 110


def test_replay_command_counts_failures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"title": "Nonesuch", "actions": []}))
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    good = fixture("1889_314.json")
    # the others go on; the failures counted, and named on standard error, one line each,
    # and the exit status is bad input's (2)
    assert main(["replay", str(bad), str(broken), str(good), "--processes", "2"]) == 2
    out, err = capsys.readouterr()
    assert "3 records, 32 runs, 2 records failed" in out
    errors = err.splitlines()
    assert len(errors) == 2 and all(e.startswith("tilelay: error: ") for e in errors)
    assert any(str(bad) in e and "Nonesuch" in e for e in errors)
    # each failure names its record once (a record that does not read names itself)
    assert any(f"error: {broken}:" in e for e in errors) and f"{broken}: {broken}" not in err
    assert main(["replay", str(bad), "--json", "--processes", "1"]) == 2
    out, err = capsys.readouterr()
    (line,) = [json.loads(x) for x in out.splitlines()]
    assert line["record"] == str(bad) and "Nonesuch" in line["error"]
    assert len(err.splitlines()) == 1


def test_records_of_any_game_with_games(capsys: pytest.CaptureFixture[str]) -> None:
    engine = REFERENCE / "18xxgames" / "engine"
    if not engine.exists():
        pytest.skip(f"reference engine absent: {engine}")
    path = fixture("1870__34110.json")
    argv = ["--games", str(engine), "replay", str(path), "--json", "--processes", "1"]
    assert main(argv) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 14 and all(x["optimal_revenue"] is not None for x in lines)


def test_a_process_pool_gives_the_same_results() -> None:
    paths = [fixture(n) for n in BUILT_IN]
    one = audit_records(paths, processes=1)
    two = audit_records(paths, processes=2)
    assert summary_rows(one) == summary_rows(two)
    assert [Path(a.record).name for a in two] == BUILT_IN


def test_a_dask_cluster_gives_the_same_results() -> None:
    distributed = pytest.importorskip("distributed")
    paths = [fixture(n) for n in BUILT_IN]
    local = audit_records(paths, processes=1)
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        on_dask = audit_records(paths, scheduler=client)
        by_address = audit_records(paths[:1], scheduler=cluster.scheduler_address)
    assert summary_rows(on_dask) == summary_rows(local)
    assert summary_rows(by_address) == summary_rows(local[:1])


@pytest.mark.parametrize("address", ["garbage", "", "http://127.0.0.1:1"])
def test_a_scheduler_address_dask_cannot_read_is_one_line(
    address: str, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("distributed")
    assert main(["replay", "--scheduler", address, str(fixture("1889_314.json"))]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert err.startswith(f"tilelay: error: cannot reach the Dask scheduler {address!r}: ")


def test_a_record_named_twice_is_audited_once(capsys: pytest.CaptureFixture[str]) -> None:
    path = fixture("1889_314.json")
    argv = ["replay", str(path), str(path.parent / "." / path.name), "--processes", "1"]
    assert main([*argv, "--quiet", "--no-optimum"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1 records, 32 runs, ") and out.splitlines()[0].endswith("; no search")


def test_a_record_on_standard_input_is_audited_in_its_place(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io

    first, piped = fixture("1830_26855.json"), fixture("1889_314.json")
    stdin = io.TextIOWrapper(io.BytesIO(piped.read_bytes()))
    monkeypatch.setattr("sys.stdin", stdin)
    argv = ["replay", str(first), "-", "--json", "--processes", "1", "--no-optimum"]
    assert main(argv) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    records = [x["record"] for x in lines]
    assert records.count("standard input") == 32 and records.count(str(first)) == 43
    # a record on standard input that does not read fails as a file does
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"{")))
    assert main(["replay", "-", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err == "tilelay: error: standard input:1:2: malformed JSON" + err.split("JSON", 1)[1]
    assert len(err.splitlines()) == 1
    # read once only
    assert main(["replay", "-", "-"]) == 2
    assert "standard input (-) is read once" in capsys.readouterr().err
