"""Game rules as a seam (tilelay.rules): which rules a game follows, and the hooks."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tilelay.errors import NotFoundError
from tilelay.games import load_game
from tilelay.rules import GameRules, rules_for
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
