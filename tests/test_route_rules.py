"""What a train scores of the stops it visits (:meth:`tilelay.route_rules.TrainSpec.paid`):
the best set its rows pay for that holds a token, as every set of the stops shows."""

from __future__ import annotations

import random
from itertools import combinations

from tilelay.route_rules import CITY, OFFBOARD, TOWN, UNLIMITED, Row, TrainSpec


def spec(*rows: Row) -> TrainSpec:
    return TrainSpec("t", rows, (1, 1, 1), scores_visits=False)


CITIES = 1 << CITY
TOWNS = 1 << TOWN
ALL = CITIES | TOWNS | 1 << OFFBOARD

#: express and n+m trains: rows that pay for fewer stops than they visit
SPECS = (
    spec(Row(CITIES, 4, UNLIMITED), Row(TOWNS, 0, UNLIMITED)),  # 18India's 4E
    spec(Row(CITIES, 3, 3), Row(TOWNS, UNLIMITED, UNLIMITED)),
    spec(Row(ALL, 3, UNLIMITED)),
    spec(Row(TOWNS, 2, 4), Row(ALL, 2, UNLIMITED)),
    spec(Row(CITIES | 1 << OFFBOARD, 2, 5), Row(TOWNS, 1, 3)),
)


def best_of_every_set(
    train: TrainSpec, classes: list[int], values: list[int], tokened: list[bool]
) -> int:
    """What every stop earns when the rows pay for them all; else the most any set of the
    stops the rows pay for, holding a token, earns (0: none)."""
    if train._pay_fits([classes.count(k) for k in range(3)]):
        return sum(values)
    best = 0
    for size in range(1, len(classes) + 1):
        for chosen in combinations(range(len(classes)), size):
            counts = [0, 0, 0]
            for i in chosen:
                counts[classes[i]] += 1
            if any(tokened[i] for i in chosen) and train._pay_fits(counts):
                best = max(best, sum(values[i] for i in chosen))
    return best


def test_the_stops_paid_are_the_best_set_the_rows_pay_for_with_a_token() -> None:
    """The greedy choice (which passes over a class once a stop of it no longer fits, and
    stops once the rows pay for no more) earns what the best of every set earns, with a
    set the rows pay for that holds a token (or every stop, where the rows pay for all)."""
    rng = random.Random(1822)
    for _ in range(3000):
        train = rng.choice(SPECS)
        n = rng.randint(2, 8)
        classes = [rng.choice((CITY, CITY, TOWN, OFFBOARD)) for _ in range(n)]
        values = [rng.choice((0, 10, 20, 20, 30, 40, 60)) for _ in range(n)]
        tokened = [c == CITY and rng.random() < 0.3 for c in classes]
        revenue, chosen = train.paid(classes, values, tokened)
        assert revenue == best_of_every_set(train, classes, values, tokened)
        if chosen:
            counts = [0, 0, 0]
            for i in chosen:
                counts[classes[i]] += 1
            assert train._pay_fits(counts)
            assert any(tokened[i] for i in chosen) or train._pay_fits(
                [classes.count(k) for k in range(3)]
            )
            assert revenue == sum(values[i] for i in chosen)
