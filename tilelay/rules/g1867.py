"""1867 and 1861: hex bonuses, the capitals to Timmins bonus, towns that fill a train's
spare stops, and no hex visited twice (18xx.games' ``G1867::Game#revenue_for`` and
``#compute_stops``).

* A route may not visit two stops in one hex.
* A corporation earns a private company's ``hex_bonus`` (its amount once per bonus hex among
  the route's stops) while it owns the company.
* A route from Quebec, Montreal or Toronto to Timmins earns 40 more (times the train's
  multiplier); in 1861, from Moscow to Sevastopol.
* Towns score only as far as the train's city stops are not all used: the cities and
  offboards always score, the best towns fill the rest.
* The private companies are nationalized by the national (``nationalize_companies``).
* Corporations are nationalized (``nationalize!``): minors without trains when the 4, 6 and 8
  are bought (``trainless_nationalization``), every minor when the 8 is
  (``minors_nationalized``), a major without trains that chooses to (``choose``
  ``nationalize``). Each of its tokens, richest city first, gives way to one of the national's
  (1867's CN, 1861's RSR), unless the national already holds a city of that tile, has no token
  left, or has only the tokens it keeps for its reserved hexes left; a minor closes (its
  trains to the depot; in 1861 to the national, with its companies), a major starts afresh.
  Where several corporations are nationalized at once the engine takes them in share price
  order, which replay does not follow: it takes them in the order they last began operating
  (the operating order is the share price order).
* In the phases whose status says ``export_train`` (1867's 4 to 7), the depot's next train
  leaves the game at the end of each operating round, as if bought (phases, rusting, events).
  The record does not mark the end of a round (see :func:`~tilelay.rules.follow_rounds`;
  1867's merger round and a trainless major's choice that no train bought in the round put
  to it end one too).
* The national holds its token at Toronto from the start (1867); it places one in the first
  city of tile 639 (Montreal, 1861's Moscow) when it is laid, as long as it keeps one for
  some hex. 1861's RSR places its home
  token in St Petersburg's last city when it first operates, as long as it keeps one for it.
* 1861's RSR buys its trains itself, without actions in the record (see
  :meth:`G1861.national_buys`).
* Minors merge into a major (``merge`` actions naming the minors, then the major) or convert
  into one (``convert``, then ``merge``): their tokens, trains and companies become the
  major's.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, ClassVar

from tilelay.games import Game
from tilelay.route_rules import TrainSpec
from tilelay.rules import GameRules, GameState, RouteContext, RouteView, follow_rounds, register

__all__ = ["G1861", "G1867"]


@register
class G1867(GameRules):
    """The rules of 1867 (and 1861, built on it) that routes ask about."""

    names = ("1867",)
    route_hooks = True
    stops_rated = True
    one_stop_per_hex = True
    #: the hexes of the capitals, and the hex a route from one earns 40 more for reaching
    capitals: frozenset[str] = frozenset({"F16", "L12", "O7"})
    bonus_hex = "D2"
    #: the national corporation, the hexes where it keeps a token for itself (18xx.games'
    #: ``NATIONAL_RESERVATIONS``), its tokens at the start (hex, city) and the tile whose lay
    #: gives it its token in a reserved hex
    national: ClassVar[str] = "CN"
    national_reserved: ClassVar[tuple[str, ...]] = ("L12",)
    national_start: ClassVar[tuple[tuple[str, int], ...]] = (("F16", 0),)
    national_tile: ClassVar[str | None] = "639"
    #: whether a nationalized corporation's trains and companies go to the national
    national_takes_assets: ClassVar[bool] = False
    #: whether the depot exports a train at the end of operating rounds (phase status
    #: ``export_train``)
    exports: ClassVar[bool] = True

    # ------------------------------------------------------------------ replay

    def setup(self, state: GameState) -> None:
        state.extra["reserved"] = self.national_reserved
        for coord, city in self.national_start:
            state.board = state.board.place_token(coord, city, self.national, extra_slot=True)

    def before_action(self, state: GameState, action: Mapping[str, Any]) -> None:
        # a trainless major's choice that no train bought in the round put to it: the
        # round's end did
        choice = action.get("type") == "choose" and action.get("entity") not in state.extra.get(
            "asked", ()
        )
        turn = follow_rounds(state, action, other_rounds=_OTHER_ROUNDS, ends=choice)
        if turn.round_over and self.exports and "export_train" in state.phase.status:
            state.export_train(action)

    def event(self, state: GameState, kind: str, action: Mapping[str, Any]) -> None:
        if kind == "nationalize_companies":
            # the national takes every private company (its hex bonuses go with them)
            for company in list(state.companies):
                state.companies[company] = self.national
        elif kind in ("trainless_nationalization", "minors_nationalized"):
            kinds = _kinds(state.game)
            closed = state.extra.get("closed", ())
            minors = [
                c
                for c, k in kinds.items()
                if k == "minor"
                and c in state.started
                and c not in closed
                and (kind == "minors_nationalized" or not state.trains.get(c))
            ]
            order = state.extra.get("order", ())
            rank = {c: i for i, c in enumerate(order)}
            for corp in sorted(minors, key=lambda c: rank.get(c, len(order))):
                self.nationalize(state, corp)
            # the majors without trains that may choose to be nationalized
            state.extra["asked"] = tuple(
                c
                for c, k in kinds.items()
                if k != "minor" and c in state.started and not state.trains.get(c)
            )

    def nationalize(self, state: GameState, corp: str) -> None:
        """``corp`` is nationalized (18xx.games' ``nationalize!``; see the module
        docstring)."""
        national = self.national
        board = state.board
        reserved = list(state.extra.get("reserved", ()))
        total = len(state.game.corporation(national).tokens)
        left = total - len(board.tokens_of(national))

        def richest(key: tuple[str, int]) -> tuple[int, str]:
            coord, city = key
            cities = board.tile_at(coord).cities
            revenue = cities[city].revenue if city < len(cities) else None
            return (max(revenue.values()) if revenue is not None else 0), coord

        for coord, city in sorted(board.tokens_of(corp), key=richest, reverse=True):
            board = board.remove_token(coord, city, corp)
            if left <= 0 or any(
                national in corps for (c, _), corps in board.tokens.items() if c == coord
            ):
                continue
            if coord in reserved:
                reserved.remove(coord)
            elif left == len(reserved):
                continue  # what is left is kept for the reserved hexes
            board = board.place_token(coord, city, national, extra_slot=True)
            left -= 1
        state.board = board
        state.extra["reserved"] = tuple(reserved)
        trains = state.trains.pop(corp, {})
        if self.national_takes_assets:
            state.trains.setdefault(national, {}).update(trains)
        for company, owner in list(state.companies.items()):
            if owner == corp:
                if self.national_takes_assets:
                    state.companies[company] = national
                else:
                    del state.companies[company]
        if _kinds(state.game).get(corp) == "minor":
            state.extra["closed"] = (*state.extra.get("closed", ()), corp)
        else:
            state.started.discard(corp)  # a major starts afresh

    def after_action(self, state: GameState, action: Mapping[str, Any]) -> None:
        kind = action.get("type")
        if kind == "choose" and action.get("choice") == "nationalize":
            entity = action.get("entity")
            if isinstance(entity, str) and entity in _kinds(state.game):
                self.nationalize(state, entity)
                asked = state.extra.get("asked", ())
                state.extra["asked"] = tuple(c for c in asked if c != entity)
            return
        if kind == "lay_tile" and self.national_tile is not None:
            tile = str(action.get("tile", "")).rpartition("-")[0]
            if tile == self.national_tile:
                # 18xx.games asks only that the national keeps a token for some hex
                self.national_token(state, str(action.get("hex")), 0, reserved_here=False)
            return
        if kind not in ("merge", "convert"):
            return
        entity = str(action.get("entity"))
        merging = list(state.extra.get("merging", ()))
        if kind == "convert":
            state.extra["merging"] = (entity,)
            return
        target = str(action.get("corporation"))
        kinds = {c.sym: c.kind for c in state.game.corporations}
        if kinds.get(target) == "minor":
            state.extra["merging"] = (*(merging or [entity]), target)
            return
        sources = merging or [entity]
        if entity not in sources:
            sources.append(entity)
        state.merge_into(sources, target)
        state.extra["merging"] = ()
        closed = state.extra.get("closed", ())
        state.extra["closed"] = (*closed, *(c for c in sources if c not in closed))

    def national_token(
        self, state: GameState, coord: str, city: int, *, reserved_here: bool = True
    ) -> None:
        """The national places a token it keeps in ``city`` at ``coord`` (unless it keeps
        none for that hex — for any hex, without ``reserved_here`` — already holds a city of
        the hex or has no token left)."""
        national = self.national
        board = state.board
        reserved = state.extra.get("reserved", ())
        if (
            not reserved
            or (reserved_here and coord not in reserved)
            or any(national in corps for (c, _), corps in board.tokens.items() if c == coord)
        ):
            return
        if len(board.tokens_of(national)) >= len(state.game.corporation(national).tokens):
            return
        cities = board.tile_at(coord).cities
        state.board = board.place_token(coord, city % len(cities), national, extra_slot=True)
        state.extra["reserved"] = tuple(h for h in reserved if h != coord)

    # ------------------------------------------------------------------ routes

    def paid_stops(self, view: RouteView) -> tuple[int, tuple[int, ...]] | None:
        ctx = view.ctx
        spec = view.spec
        if spec.scores_visits or not spec.rows:
            return None
        row = next((r for r in spec.rows if r.pay > 0), None)
        if row is None:
            return None
        values = ctx.values(spec)
        classes = ctx.classes
        stops = view.stops
        wanted = row.classes
        mandatory = 0
        for n in stops:
            if wanted >> classes[n] & 1:
                mandatory += 1
        if mandatory >= row.pay:
            paid = tuple(n for n in stops if wanted >> classes[n] & 1)
            return sum(values[n] for n in paid), paid
        # the best towns fill the spare stops (their bonuses never depend on towns)
        optional = [n for n in stops if not wanted >> classes[n] & 1]
        extra = set(sorted(optional, key=lambda n: -values[n])[: row.pay - mandatory])
        paid = tuple(n for n in stops if wanted >> classes[n] & 1 or n in extra)
        return sum(values[n] for n in paid), paid

    @staticmethod
    def _hex_bonuses(ctx: RouteContext) -> dict[str, int]:
        """The corporation's hex bonuses from the companies it owns: hex -> amount."""
        found = ctx.memo.get("hex_bonus")
        if found is None:
            found = {}
            for company, owner in ctx.facts.companies.items():
                if owner != ctx.corporation:
                    continue
                comp = next((c for c in ctx.game.companies if c.sym == company), None)
                if comp is None:
                    continue
                for ability in comp.abilities_of("hex_bonus"):
                    for h in ability.get("hexes") or ():
                        found[h] = found.get(h, 0) + int(ability.get("amount", 0))
            ctx.memo["hex_bonus"] = found
        return found

    def route_bound(self, ctx: RouteContext, spec: TrainSpec) -> tuple[list[int], int]:
        # the scored stops are some of the route's; each hex bonus and the capitals' bonus
        # (on the bonus hex) counted on every stop of their hexes
        extra = dict(self._hex_bonuses(ctx))
        extra[self.bonus_hex] = extra.get(self.bonus_hex, 0) + 40 * (spec.multipliers[0] or 1)
        return ctx.bound_with(spec, extra), 0

    def route_bonus(self, view: RouteView) -> int:
        ctx = view.ctx
        coords = ctx.coords
        hexes = {coords[n] for n in view.paid}
        bonuses = self._hex_bonuses(ctx)
        bonus = sum(bonuses.get(h, 0) for h in hexes) if bonuses else 0
        if self.bonus_hex in hexes and hexes & self.capitals:
            bonus += 40 * (view.spec.multipliers[0] or 1)
        return bonus


@register
class G1861(G1867):
    """The rules of 1861: 1867's, with Moscow (H8) and Sevastopol (Q3) for the bonus."""

    names = ("1861",)
    exports = False
    capitals = frozenset({"H8"})
    bonus_hex = "Q3"
    national = "RSR"
    national_reserved = ("E1", "H8")
    national_start = ()
    national_takes_assets = True

    def after_action(self, state: GameState, action: Mapping[str, Any]) -> None:
        super().after_action(state, action)
        if action.get("type") == "run_routes" and action.get("entity") == self.national:
            self.national_buys(state, action)

    def national_buys(self, state: GameState, action: Mapping[str, Any]) -> None:
        """The RSR's turn ends buying trains from the depot while its cash allows, without an
        action in the record. Replay does not follow its cash: it learns what the RSR bought
        from the first train another corporation buys from the depot before the RSR runs
        again (by its id, or by the phase its type is sold from): the depot's trains that
        had to go before it went to the RSR now."""
        held = {t for trains in state.trains.values() for t in trains}
        for later in state.upcoming():
            kind = later.get("type")
            if kind == "run_routes" and later.get("entity") == self.national:
                return
            train = later.get("train")
            if kind != "buy_train" or not isinstance(train, str) or train in held:
                continue
            ahead = state.depot_ahead(train)
            if ahead is None:
                continue  # a train from the pool
            for _ in range(ahead):
                state.depot_sale(action, self.national)
            return

    def home_tokens(self, state: GameState, entity: str) -> bool:
        """The RSR's home token: when it first operates, in St Petersburg's last city, unless
        it holds a city there already (a nationalized minor's)."""
        if entity != self.national:
            return True
        self.national_token(state, "E1", -1)
        return False


#: The actions of 1867's merger round.
_OTHER_ROUNDS = frozenset({"merge", "convert", "post_merger_shares"})


@lru_cache(maxsize=16)
def _kinds(game: Game) -> dict[str, str]:
    """The game's corporations: symbol -> kind (``minor`` or ``corporation``)."""
    return {c.sym: c.kind for c in game.corporations}
