"""Game rules as a seam (tilelay.rules): which rules a game follows, and the hooks."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from tests.conftest import engine_games_known, recorded_runs, reference
from tilelay.errors import NotFoundError
from tilelay.games import Game, load_game
from tilelay.replay import ReplayStep, load_record, replay_steps
from tilelay.routes import RoutePlanner
from tilelay.rules import GameRules, rules_for
from tilelay.rules.g18la import G18LosAngeles
from tilelay.rules.g1846 import G1846
from tilelay.rules.g1867 import G1861, G1867


def test_the_built_in_games_say_which_rules_they_follow() -> None:
    for name in ("1830", "1889", "18Chesapeake"):
        game = load_game(name)
        assert game.route_rules == "base"
        assert type(rules_for(game)) is GameRules


def test_rules_are_found_by_name_or_named_by_the_game() -> None:
    game = load_game("1889")
    assert isinstance(rules_for(replace(game, name="1846", route_rules=None)), G1846)
    assert type(rules_for(replace(game, route_rules="1861"))) is G1861
    assert type(rules_for(replace(game, route_rules="1867"))) is G1867
    with pytest.raises(NotFoundError, match="no route rules"):
        rules_for(replace(game, route_rules="Nonesuch"))


def test_every_registered_rule_set_documents_itself() -> None:
    from tilelay import rules

    rules._load_all()
    for cls in set(rules._RULES.values()):
        assert cls.__doc__ and cls.names, cls
        assert issubclass(cls, GameRules)


@pytest.fixture(scope="module")
def los_angeles() -> Iterator[Game]:
    with engine_games_known():
        yield load_game("18 Los Angeles")


def test_18_los_angeles_follows_1846s_rules_as_it_changes_them(los_angeles: Game) -> None:
    rules = rules_for(los_angeles)
    assert type(rules) is G18LosAngeles and isinstance(rules, G1846)
    assert {c for c, _, _ in rules.bonuses} == {"LAC", "LAS", "RKO"}


def _steps(game: Game, ids: set[int]) -> dict[int, ReplayStep]:
    record = load_record(reference("18xxgames", "fixtures", "18LosAngeles1__19984.json"))
    return {
        s.action_id: s
        for s in replay_steps(record, game, on_error=lambda e: None)
        if s.action_id is not None and s.action_id in ids
    }


def test_18_los_angeles_closes_the_minors_no_one_drafted(los_angeles: Game) -> None:
    # GT (home D5) was not drafted in this record, OCR (home E10) was: when the draft ends,
    # GT's token and train go, so SP may token D5's one-slot city (action 47)
    steps = _steps(los_angeles, {20, 21, 47})
    homes = {corps for (coord, _), corps in steps[20].board.tokens.items() if coord == "D5"}
    assert homes == {("GT",)} and "GT" in steps[20].trains
    assert not any("GT" in corps for corps in steps[21].board.tokens.values())
    assert "GT" not in steps[21].trains and "OCR" in steps[21].trains
    assert ("D5", 0) in steps[47].board.tokens and "SP" in steps[47].board.tokens[("D5", 0)]


def test_18_los_angeles_companies_add_where_they_are_assigned(los_angeles: Game) -> None:
    # as the engine rates the recorded runs: action 104, ELA's 2 from B13 to C14, where Los
    # Angeles Citrus is assigned: 70 and 30; action 113, SP's 2 from C2, where the Steamship is
    # assigned, to B1: 50 and 20 for each of C2's two port icons
    steps = _steps(los_angeles, {104, 113})
    for action_id, corp, hexes, company, revenue, extra in (
        (104, "ELA", ("B13", "C14"), "LAC", 100, 30),
        (113, "SP", ("C2", "B1"), "LAS", 90, 40),
    ):
        step = steps[action_id]
        kept = {k: tuple(a for a in v if a != company) for k, v in step.facts.assignments.items()}
        without = replace(step.facts, assignments=kept)
        for facts, expected in ((step.facts, revenue), (without, revenue - extra)):
            planner = RoutePlanner(step.board, corp, step.phase, facts=facts)
            (route,) = planner.find("2", hexes)
            assert route.revenue == expected, (action_id, facts.assignments)


@pytest.mark.parametrize(
    ("stem", "last"),
    [("1846__10264", None), ("18EU__74045", None), ("18USA__109372", 1300)],
)
def test_a_run_rule_left_out_where_it_does_not_apply_changes_no_optimum(
    stem: str, last: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where a game's rule for runs does not apply (GameRules.run_applies: 1846's mail
    contract and 18USA's Great Northern beside their owners, 18USA's limit on Mexico for
    fewer than three routes, 18EU's pullman beside a corporation without one), the search
    leaves it out: it finds the same optimum as a search that applies it (every third run of
    a record; 18USA's up to action ``last``, its later 8-trains being slow to search twice)."""
    left_out = 0
    for step, corp in recorded_runs(stem, 3, last):
        trains = step.runnable_names(corp)
        planner = RoutePlanner(step.board, corp, step.phase, facts=step.facts)
        rules = planner.rules
        if rules.run_applies(planner.context, len(trains)):
            continue
        left_out += 1
        best = planner.best(trains).revenue
        monkeypatch.setattr(type(rules), "run_applies", lambda self, ctx, trains: True)
        try:
            applied = RoutePlanner(step.board, corp, step.phase, facts=step.facts)
            assert applied.best(trains).revenue == best, step.action_id
        finally:
            monkeypatch.undo()
    assert left_out > 0


def test_a_passable_rule_said_to_differ_only_at_tokens_does() -> None:
    """A game whose rule of where routes pass through says it differs from the base rule
    only at cities with tokens (GameRules.passable_at_tokens: 18USA, whose switcher passes
    cities other corporations fill) is asked of those alone; the search then sees what the
    rule says of every node (every tenth run of the 18USA record, the switcher's company
    given to the corporation running and attached to a train of its, so that its blocked
    cities are passable)."""
    checked = 0
    for step, corp in recorded_runs("18USA__109372", 10):
        facts = replace(
            step.facts,
            companies={**step.facts.companies, "P19": corp},
            trains={**step.facts.trains, corp: (*step.facts.trains.get(corp, ()), "3/1")},
        )
        planner = RoutePlanner(step.board, corp, step.phase, facts=facts)
        rules = planner.rules
        assert rules.passable_at_tokens
        ctx = planner.context
        every = [rules.passable(ctx, n) for n in range(len(ctx.nodes))]
        assert planner._net.passable == every, step.action_id
        base = [GameRules.passable(rules, ctx, n) for n in range(len(ctx.nodes))]
        checked += sum(a != b for a, b in zip(every, base, strict=True))
    assert checked > 0  # some blocked city was passable


def test_the_rules_kept_for_games_are_bounded() -> None:
    """Each game made for a record's players or seed is a game of its own: the rules kept
    for games are bounded, as a server replaying records would otherwise keep them all."""
    from tilelay import rules as rules_module

    plain = load_game("1889")
    made = [replace(plain) for _ in range(rules_module._FOR_GAME_KEPT + 10)]
    for game in made:
        assert type(rules_for(game)) is type(rules_for(plain))
    assert len(rules_module._FOR_GAME) <= rules_module._FOR_GAME_KEPT
