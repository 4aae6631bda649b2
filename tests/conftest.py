"""Shared test helpers: where the reference data is, and skipping when it is absent."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tilelay.games import Game
from tilelay.replay import ReplayStep
from tilelay.tile import NodeKind

REFERENCE = Path(__file__).resolve().parents[1].parent / "shared" / "reference"


def pytest_configure(config: pytest.Config) -> None:
    """One cache of games read from sources for the whole run, in a temporary folder: tests
    never read or write the user's cache, and share what one of them has read."""
    import os
    import tempfile

    if "TILELAY_TEST_CACHE" not in os.environ:
        folder = tempfile.mkdtemp(prefix="tilelay-test-cache-")
        os.environ["TILELAY_TEST_CACHE"] = folder
        os.environ["TILELAY_CACHE"] = folder
        config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))


def reference(*parts: str) -> Path:
    """A path inside ../shared/reference; skips the test (saying why) when it is absent."""
    path = REFERENCE.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"reference data absent: {path}")
    return path


@contextmanager
def engine_games_known() -> Iterator[None]:
    """The 18xx.games engine's games known while inside (read from the reference engine's
    sources through the run's cache), forgotten afterwards; skips (saying why) when the
    reference engine is absent."""
    from tilelay.games import registry
    from tilelay.sources.games import add_paths

    add_paths([reference("18xxgames", "engine")])
    try:
        yield
    finally:
        registry.reset()


def recorded_runs(
    stem: str, every: int = 1, last: int | None = None
) -> Iterator[tuple[ReplayStep, str]]:
    """Every ``every``-th ``run_routes`` of the shared fixture ``stem`` (up to action
    ``last``), replayed with the engine's games known, and its corporation."""
    from tilelay.replay import load_record, replay_steps

    path = reference("18xxgames", "fixtures", f"{stem}.json")
    with engine_games_known():
        runs = 0
        for step in replay_steps(load_record(path)):
            if last is not None and step.action_id > last:
                return
            if step.action.get("type") != "run_routes":
                continue
            runs += 1
            if runs % every == 0:
                yield step, str(step.action.get("entity"))


@pytest.fixture(scope="module")
def engine_games() -> Iterator[None]:
    """The engine's games known for a whole test module (:func:`engine_games_known`); a
    module of game rules uses it for every test with
    ``pytestmark = pytest.mark.usefixtures("engine_games")``."""
    with engine_games_known():
        yield


def corp(entity: str, type_: str, **fields: Any) -> dict[str, Any]:
    """A recorded action of corporation ``entity``."""
    return {"type": type_, "entity": entity, "entity_type": "corporation", **fields}


def offboard_revenues(game: Game, coord: str) -> dict[str, int]:
    """The revenue of the offboard of ``coord`` per phase key."""
    (node,) = [n for n in game.hexes[coord].nodes if n.kind is NodeKind.OFFBOARD]
    assert node.revenue is not None
    return dict(node.revenue.phases) if node.revenue.phases else {"": node.revenue.value}


def slowed_searches(monkeypatch: pytest.MonkeyPatch, seconds: float) -> dict[str, float]:
    """Every route search (``RoutePlanner.best``) spins ``seconds`` before it searches, while
    the test runs (a search as slow as a heavy position's, on any board); the dict returned
    holds the seconds, to change them."""
    from tilelay.routes import RoutePlanner

    plain = RoutePlanner.best
    slow = {"seconds": seconds}

    def best(self: RoutePlanner, trains: Any) -> Any:
        end = time.perf_counter() + slow["seconds"]
        while time.perf_counter() < end:
            pass
        return plain(self, trains)

    monkeypatch.setattr(RoutePlanner, "best", best)
    return slow
