"""The engine's contract is kept: each engine function reads every parameter the contract says it drives.

For each function of `rulesdsl.runtime.contract.ENGINE_FUNCTIONS`, the function is run over situations
that meet each of its rules (roads, enemy ZOCs, prohibited terrain and hexsides, the map edge, stacks,
supply sources, units out of supply, exploit-capable and zero-strength units ...), under the rules of
every shipped rulebook, of two rule sets that set every contract parameter (flags all yes, then all
no) and of one whose chart has a flat-cost hexside, and `RuleSet.reads` must then hold every parameter the
contract lists for that function (the engine reads a parameter only where it decides, so the calls must
reach each decision: earlier overruns and attacks, refused hexes, stacks hemmed in ...).  A
parameter the function never reads is one the rulebook sets for nothing: move it out of the contract
(marked `descriptive`, with the reason) or make the function apply it.

A function still being written (it raises NotImplementedError) is skipped, saying so; once every engine
stage is in, none may be.
"""
from __future__ import annotations

import dataclasses
import inspect
import typing
from collections.abc import Callable, Iterator
from fractions import Fraction

import pytest

from generated import bocage, corridor, new_scs, ridgeline, scs_1_8, vcs
from rulesdsl.runtime.contract import ENGINE_FUNCTIONS, ENGINE_PARAMETERS, EngineParameter
from rulesdsl.runtime.engine import Record, RulesEngine
from rulesdsl.runtime.hexmap import Hex, HexMap, Hexside
from rulesdsl.runtime.model import Parameter, ParameterValue, Quantity
from rulesdsl.runtime.notation import Result
from rulesdsl.runtime.ruleset import RuleSet
from rulesdsl.runtime.situation import Counter, Situation
from rulesdsl.runtime.terrain import CombatEffect, Movement, Terrain, TerrainEffectsChart

MODULES = (scs_1_8, new_scs, vcs, bocage, ridgeline, corridor)
H = Hex.parse


# ---- rule sets ------------------------------------------------------------------------------------------
def _made_up(p: EngineParameter, flag: bool) -> ParameterValue:
    """A value of the parameter's kind, for a parameter no shipped rulebook sets."""
    return {"flag": flag, "quantity": Quantity(Fraction(1), p.unit), "count": 1, "number": Fraction(1, 2),
            "modifier": Quantity(Fraction(1), p.unit, signed=True),
            "choice": p.options[0] if p.options else "", "order": p.options}[p.kind]


def _everything_set(module: object, flag: bool) -> dict[str, Parameter]:
    """The module's parameters, with every contract parameter set: from the module, else from another
    shipped rulebook that sets it, else a made-up value of its kind; every flag `flag`."""
    parameters: dict[str, Parameter] = dict(module.PARAMETERS)    # type: ignore[attr-defined]
    for p in ENGINE_PARAMETERS:
        found = next((m.PARAMETERS[p.name] for m in (module, *MODULES) if p.name in m.PARAMETERS), None)
        if found is None:
            found = Parameter(p.name, _made_up(p, flag), rule="test", origin="test", source="test:1")
        if p.kind == "flag":
            found = dataclasses.replace(found, value=flag)
        parameters[p.name] = found
    return parameters


def _with_flat_hexside(chart: TerrainEffectsChart) -> TerrainEffectsChart:
    """The chart plus a hexside row of kind `cost` (a flat cost to cross, which no shipped chart has): the
    only hexside whose price `movement.hexside_cost_added` decides (added to the hex's, or the larger)."""
    ridge = Terrain("ridge", "hexside", Movement("cost", Fraction(3)), CombatEffect("none"))
    return TerrainEffectsChart((*chart.rows, ridge))


def rule_sets() -> Iterator[RuleSet]:
    """Each shipped module's RULESET (a fresh copy: its own reads), then SCS 1.8 and VCS with everything set,
    then SCS 1.8 with a flat-cost hexside row on its chart."""
    for module in MODULES:
        yield dataclasses.replace(module.RULESET, reads=set())
    for flag in (True, False):
        for module in (scs_1_8, vcs):
            yield dataclasses.replace(module.RULESET, rulebook=f"{module.RULESET.rulebook} (everything set, "
                                      f"flags {flag})", parameters=_everything_set(module, flag), reads=set())
    assert scs_1_8.RULESET.terrain is not None
    yield dataclasses.replace(scs_1_8.RULESET, rulebook=f"{scs_1_8.RULESET.rulebook} (a flat-cost hexside)",
                              terrain=_with_flat_hexside(scs_1_8.RULESET.terrain), reads=set())


# ---- situations -----------------------------------------------------------------------------------------
def _terrain(chart: TerrainEffectsChart | None) -> dict[str, str | None]:
    """Names of the chart's rows for each role a situation needs (None when the chart has none)."""
    rows = list(chart.values()) if chart is not None else []

    def first(test: Callable[[object], bool]) -> str | None:
        return next((r.name for r in rows if test(r)), None)

    hexes = [r for r in rows if r.kind == "hex"]
    roads = [r.name for r in rows if r.kind == "road"]
    levels = sorted((r for r in hexes if r.level is not None), key=lambda r: r.level or 0)
    return {
        "open": first(lambda r: r.kind == "hex" and r.movement.kind == "cost" and r.movement.amount == 1),
        "rough": first(lambda r: r.kind == "hex" and r.movement.kind == "cost" and (r.movement.amount or 0) >= 2),
        "prohibited": first(lambda r: r.kind == "hex" and r.movement.kind == "prohibited"),
        "high": next((r.name for r in reversed(levels) if r.movement.kind == "cost"), None),
        "river": first(lambda r: r.kind == "hexside" and r.movement.kind == "prohibited")
        or first(lambda r: r.kind == "hexside" and r.movement.kind in ("add", "other")),
        "stream": first(lambda r: r.kind == "hexside" and r.movement.kind == "add"),
        "ridge": first(lambda r: r.kind == "hexside" and r.movement.kind == "cost"),
        "close": min(hexes, key=lambda r: r.combat.shift).name if hexes and min(r.combat.shift for r in hexes) < 0
        else None,                                         # the hex of the strongest shift, where there is one
        "road": roads[0] if roads else None,
        "trail": roads[1] if len(roads) > 1 else None,     # a second road row (a trail), where there is one
    }


class Board:
    """One battlefield for a rule set: a 12 x 12 map with a road, a river, rough and prohibited terrain,
    two sides (blue moves, red holds) and their supply sources."""

    def __init__(self, rules: RuleSet) -> None:
        self.map = HexMap.rectangle(12, 12)
        self.names = _terrain(rules.terrain)
        m = self.map
        self.centre = H("6.06")
        around = m.neighbours(self.centre)
        self.front = around[0]                       # where red stands, next to the centre
        self.flank = around[1]
        self.behind = next(h for h in m.neighbours(self.centre)
                           if m.distance(h, self.front) == 2)
        self.road_hexes = (self.behind, self.centre, *[h for h in m.neighbours(self.front)
                                                        if m.distance(h, self.centre) == 2][:1])
        self.edge = H("1.06")

    def situation(self, *, phase: str = "movement", phasing: str = "blue", started: dict[str, Hex] | None = None,
                  extra: tuple[Counter, ...] = ()) -> Situation:
        n, m = self.names, self.map
        terrain: dict[Hex, tuple[str, ...]] = {}
        if n["rough"]:
            terrain[self.flank] = (n["rough"],)
        if n["prohibited"]:
            terrain[H("8.02")] = (n["prohibited"],)
        if n["high"]:
            terrain[H("3.09")] = (n["high"],)
        hexsides: dict[Hexside, tuple[str, ...]] = {}
        if n["river"]:
            hexsides[m.hexside(self.centre, self.flank)] = (n["river"],)
            hexsides[m.hexside(H("3.03"), H("3.04"))] = (n["river"],)
        if n["stream"]:
            hexsides[m.hexside(self.centre, self.behind)] = (n["stream"],)
        if n["ridge"]:
            hexsides[m.hexside(self.edge, H("2.06"))] = (n["ridge"],)
        roads: dict[Hexside, str] = {}
        if n["road"]:
            for a, b in zip(self.road_hexes, self.road_hexes[1:]):
                if m.adjacent(a, b):
                    roads[m.hexside(a, b)] = n["road"]
            for a, b in ((H("2.02"), H("2.03")), (H("2.03"), H("2.04")), (H("2.04"), H("2.05"))):
                roads[m.hexside(a, b)] = n["trail"] or n["road"]
        mech = frozenset({"exploit", "mechanized", "armored"})
        units = (
            Counter("tank", "blue", self.centre, attack=6, defense=4, movement=10, steps=2, type="armor",
                    size="division", capabilities=mech),
            Counter("rifles", "blue", self.centre, attack=3, defense=4, movement=5, steps=2, type="infantry",
                    size="regiment", capabilities=frozenset({"foot"})),
            Counter("guns", "blue", self.behind, attack=0, defense=1, movement=3, type="artillery",
                    capabilities=frozenset({"artillery", "armored"}), has_attack_strength=False),
            Counter("cut-off", "blue", H("10.10"), attack=4, defense=3, movement=8, capabilities=mech,
                    states=frozenset({"out-of-supply"})),
            Counter("scouts", "blue", H("2.03"), attack=0, defense=1, movement=8, capabilities=mech),
            Counter("edge", "blue", self.edge, attack=2, defense=2, movement=6, capabilities=mech),
            Counter("red-1", "red", self.front, attack=4, defense=5, movement=6, steps=3, size="division"),
            Counter("red-2", "red", H("10.11"), attack=3, defense=3, movement=6, size="regiment"),
            Counter("red-3", "red", H("3.05"), attack=1, defense=2, movement=4),
            *extra,
        )
        return Situation(m, default_terrain=(n["open"],) if n["open"] else (), terrain=terrain, hexsides=hexsides,
                         roads=roads, units=units, phasing=phasing, phase=phase,
                         supply_sources={"blue": frozenset({H("1.01"), H("1.12"), self.edge}),
                                         "red": frozenset({H("12.01"), H("12.12")})},
                         started_in=started or {})


def _calls(function: str, engine: RulesEngine, board: Board) -> Iterator[Callable[[], object]]:
    """Every call of `function` the contract test makes on `board`."""
    m, c = board.map, board.centre
    plain, far = board.situation(), board.situation(phase="exploitation")
    reacting = board.situation(phase="reaction", phasing="red")
    started = board.situation(started={"tank": board.behind, "cut-off": H("10.09")})
    walk = [h for h in m.neighbours(c) if h not in (board.front,)]
    away = [h for h in m.neighbours(c) if m.distance(h, board.front) == 2]
    if function == "zoc":
        for situation in (plain, started):
            yield lambda s=situation: engine.zoc(s, "red")
            yield lambda s=situation: engine.zoc(s, "blue")
    elif function == "move":
        ahead = [h for h in m.neighbours(board.front) if h != c and m.adjacent(h, c)]
        for situation in (plain, far, reacting, started):
            for unit in ("tank", "rifles", "cut-off", "scouts", "guns"):
                start = situation.unit(unit).hex
                step = m.neighbours(start)
                yield lambda s=situation, u=unit, p=[step[0], m.neighbours(step[0])[0]]: engine.move(s, u, p)
            yield lambda s=situation: engine.move(s, "tank", [c, *ahead[:1], *[h for h in ahead[1:2]]])
            yield lambda s=situation: engine.move(s, "tank", list(board.road_hexes[1:]), mode="road")
            yield lambda s=situation: engine.move(s, "tank", list(board.road_hexes[1:]))
            yield lambda s=situation: engine.move(s, "scouts", [H("2.04"), H("2.05")], mode="road")
            yield lambda s=situation: engine.move(s, "tank", [board.flank])          # across the river
            yield lambda s=situation: engine.move(s, "tank", [board.front])          # into the enemy
            yield lambda s=situation: engine.move(s, "edge", [H("0.06")])            # off the map
            yield lambda s=situation: engine.move(s, "cut-off", [H("9.10"), H("8.09"), H("8.08")])
            yield lambda s=situation: engine.move(s, "scouts", [H("3.03"), H("3.04")])    # across the river
            yield lambda s=situation: engine.move(s, "edge", [H("2.06"), H("3.07"), H("3.08"), H("3.09")])
            yield lambda s=situation: engine.move(s, "cut-off", [H("9.10"), H("8.10"), H("8.09")])
            yield lambda s=situation: engine.reachable(s, "tank")
            yield lambda s=situation: engine.reachable(s, "rifles")
            yield lambda s=situation: engine.reachable(s, "tank", mode="road")
        for first in walk:
            yield lambda f=first: engine.move(started, "tank", [f, *[h for h in m.neighbours(f) if h != c][:1]])
        # an out-of-supply unit of the non-phasing side tries a reaction move
        hungry = dataclasses.replace(plain, units=tuple(
            dataclasses.replace(u, states=u.states | {"out-of-supply"}) if u.name == "red-2" else u
            for u in plain.units))
        yield lambda: engine.move(hungry, "red-2", [m.neighbours(H("10.11"))[0]], mode="reaction")
        # an out-of-supply unit with an odd MA: a supply penalty leaves its allowance a fraction to round
        odd = dataclasses.replace(plain, units=tuple(
            dataclasses.replace(u, movement=7) if u.name == "cut-off" else u for u in plain.units))
        yield lambda: engine.move(odd, "cut-off", [H("9.10")])
        # no enemy near: road movement, a road over the river, and rifles wading it
        quiet = dataclasses.replace(plain, units=tuple(u for u in plain.units if u.side == "blue"))
        if board.names["road"]:
            bridged = dataclasses.replace(quiet, roads={**quiet.roads, m.hexside(c, board.flank): board.names["road"]})
            yield lambda: engine.move(bridged, "tank", [board.flank])
            yield lambda: engine.move(bridged, "tank", [board.flank], mode="road")
        for situation in (quiet, dataclasses.replace(quiet, phase="reaction", phasing="red")):
            yield lambda s=situation: engine.move(s, "tank", list(board.road_hexes[1:]), mode="road")
            yield lambda s=situation: engine.move(s, "guns", [c], mode="road")   # along the road into friends
            yield lambda s=situation: engine.move(s, "scouts", [H("2.04"), H("2.05")], mode="road")
            yield lambda s=situation: engine.move(s, "rifles", [board.flank])
            yield lambda s=situation: engine.move(s, "cut-off", [H("9.10"), H("8.09")])
        # armor stacked with an engineer, crossing the river (an assisted crossing)
        sappers = Counter("sappers", "blue", c, attack=1, defense=2, movement=4, capabilities=frozenset({"engineer"}))
        for situation in (board.situation(extra=(sappers,)),
                          dataclasses.replace(board.situation(extra=(sappers,)), units=tuple(
                              u for u in board.situation(extra=(sappers,)).units if u.side == "blue"))):
            yield lambda s=situation: engine.move(s, "tank", [board.flank])
        # a reaction move of the side that is not phasing, into and out of an enemy ZOC
        yield lambda: engine.move(reacting, "tank", [board.behind, *[h for h in m.neighbours(board.behind)
                                                                     if h != c][:1]], mode="reaction")
        yield lambda: engine.move(reacting, "red-2", [H("10.12")], mode="reaction")
        yield lambda: engine.move(reacting, "red-3", [H("3.06"), H("3.07")], mode="reaction")
        yield lambda: engine.move(reacting, "red-1", [h for h in m.neighbours(board.front) if m.adjacent(h, c)
                                                       and h != c][:1], mode="reaction")
    elif function == "stack":
        crowd = tuple(Counter(f"extra-{i}", "blue", c, attack=1, defense=1, movement=4, steps=2) for i in range(4))
        top = Counter("top", "blue", board.behind, attack=0, defense=1, movement=4, has_attack_strength=False)
        # under the guns and `top` (no Attack Strength), a unit that has one: the order of the stack matters
        under = Counter("under", "blue", board.behind, attack=2, defense=2, movement=4)
        came = tuple(u.name for u in crowd)
        for situation in (plain, board.situation(extra=crowd), board.situation(extra=(top, under))):
            for moment in ("phase-end", "overrun", "advance-end", "movement-end", "always"):
                yield lambda s=situation, t=moment: engine.stack(s, c, moment=t)
                yield lambda s=situation, t=moment: engine.stack(s, board.behind, moment=t)
                # the tank overruns from the centre, with the rest of the stack there or not counted
                yield lambda s=situation, t=moment: engine.stack(s, c, moment=t, overrunning=("tank",))
                # the crowd overruns from the centre with the tank: over the limit at the overrun
                yield lambda s=situation, t=moment: engine.stack(s, c, moment=t, overrunning=("tank", *came))
                # the crowd retreated into the centre: over the limit only because of them
                yield lambda s=situation, t=moment: engine.stack(s, c, moment=t, retreated=came)
            for phase, phasing in (("movement", "blue"), ("combat", "blue"), ("movement", "red")):
                later = dataclasses.replace(situation, phase=phase, phasing=phasing)
                yield lambda s=later: engine.stack(s, c, moment="movement-end", retreated=came)
                yield lambda s=later: engine.stack(s, c, moment="phase-end", retreated=came)
    elif function == "supply":
        friend_in_ezoc = Counter("picket", "blue", [h for h in m.neighbours(board.front) if h != c][0],
                                 attack=1, defense=1, movement=4)
        for situation in (plain, board.situation(extra=(friend_in_ezoc,)), started):
            for unit in ("tank", "rifles", "cut-off", "scouts", "edge", "guns"):
                yield lambda s=situation, u=unit: engine.supply(s, u)
            yield lambda s=situation: engine.supply(s, "red-1")
            yield lambda s=situation: engine.supply(s, "red-3")
    elif function == "retreat":
        walled = board.situation(extra=tuple(Counter(f"wall-{i}", "red", h, attack=2, defense=2, movement=4)
                                             for i, h in enumerate(m.neighbours(H("10.10")))
                                             if h != H("10.11")))
        for situation in (plain, started, walled):
            for units, attackers in ((("tank", "rifles"), ("red-1",)), (("rifles",), ("red-1",)),
                                     (("guns",), ("red-1",)), (("cut-off",), ("red-2",)),
                                     (("edge",), ()), (("red-1",), ("tank", "rifles")),
                                     (("scouts",), ("red-3",))):
                for hexes in (1, 2, 4):
                    yield lambda s=situation, u=units, a=attackers, n=hexes: engine.retreat(s, u, n, attackers=a)
                yield lambda s=situation, u=units, a=attackers: engine.retreat(s, u, 2, attackers=a, refuse=1)
                yield lambda s=situation, u=units, a=attackers: engine.retreat(s, u, 3, attackers=a, refuse=3)
                yield lambda s=situation, u=units, a=attackers: engine.retreat(s, u, 2, attackers=a, refuse=1,
                                                                               breakthrough=True)
        # a stack of an armored and a foot unit, hemmed in: it may not retreat together; may it split?
        stuck = Counter("stuck", "blue", H("10.10"), attack=1, defense=2, movement=4, capabilities=frozenset({"foot"}))
        hemmed = dataclasses.replace(walled, units=(*walled.units, stuck))
        for hexes in (1, 2):
            yield lambda n=hexes: engine.retreat(hemmed, ("cut-off", "stuck"), n, attackers=("red-2",))
        # the unit on the map's edge with the enemy on every side: the only way is off the map
        cornered = board.situation(extra=tuple(Counter(f"edge-wall-{i}", "red", h, attack=2, defense=2, movement=4)
                                               for i, h in enumerate(m.neighbours(board.edge))))
        for hexes in (1, 2):
            yield lambda n=hexes: engine.retreat(cornered, ("edge",), n, attackers=("edge-wall-0",))
        # the only way out is a hex in the enemy's ZOC, held by a friendly unit
        pocket = H("9.04")
        exits = m.neighbours(pocket)
        trapped = board.situation(extra=(
            Counter("held", "blue", pocket, attack=2, defense=2, movement=4, steps=2),
            Counter("held-2", "blue", pocket, attack=2, defense=2, movement=4, steps=2),
            Counter("friend", "blue", exits[0], attack=1, defense=1, movement=4),
            *(Counter(f"ring-{i}", "red", h, attack=2, defense=2, movement=4) for i, h in enumerate(exits[1:]))))
        for hexes in (1, 2):
            yield lambda n=hexes: engine.retreat(trapped, ("held", "held-2"), n, attackers=("ring-0",))
            yield lambda n=hexes: engine.retreat(trapped, ("held",), n, attackers=("ring-0",))
        # a defender in the terrain of the strongest shift on the chart, told to retreat one hex
        if board.names["close"]:
            dug_in = dataclasses.replace(plain, terrain={**plain.terrain, board.front: (board.names["close"],)})
            yield lambda: engine.retreat(dug_in, ("red-1",), 1, attackers=("tank", "rifles"))
    elif function == "advance":
        vacated = board.front
        emptied = board.situation(extra=())
        emptied = dataclasses.replace(emptied, units=tuple(u for u in emptied.units if u.name != "red-1"))
        for situation in (emptied, dataclasses.replace(emptied, phase="combat"), started):
            for units in (("tank",), ("rifles",), ("tank", "rifles"), ("guns",)):
                for hexes in (1, 2, 3):
                    yield lambda s=situation, u=units, n=hexes: engine.advance(s, u, vacated, n)
                    yield lambda s=situation, u=units, n=hexes: engine.advance(s, u, vacated, n, overrun=True)
                    yield lambda s=situation, u=units, n=hexes: engine.advance(s, u, vacated, n,
                                                                                defender_destroyed=True)
            yield lambda s=situation: engine.advance(s, ("tank",), board.flank, 2)     # across the river
            # part of the retreat was refused; a breakthrough; the advance along the loser's retreat path
            beyond = [h for h in m.neighbours(vacated) if m.distance(h, c) == 2]
            for units in (("tank",), ("rifles",)):
                yield lambda s=situation, u=units: engine.advance(s, u, vacated, 3, refused=1)
                yield lambda s=situation, u=units: engine.advance(s, u, vacated, 2, breakthrough=True)
                yield lambda s=situation, u=units: engine.advance(s, u, vacated, 2, path=beyond[:1])
        # the defender, its attackers gone from their hex, advances into it
        yield lambda: engine.advance(plain, ("red-1",), c, 1)
    elif function == "may_overrun":
        for situation in (plain, far, reacting, started):
            for units in (("tank",), ("rifles",), ("tank", "rifles"), ("cut-off",), ("guns",)):
                start = situation.unit(units[0]).hex
                for hex in [c, *away]:
                    yield lambda s=situation, u=units, h=hex: engine.may_overrun(s, u, h, board.front)
                yield lambda s=situation, u=units, h=start: engine.may_overrun(s, u, h, H("10.11"))
            yield lambda s=situation: engine.may_overrun(s, ("scouts",), H("3.04"), H("3.05"))
            # a target in the terrain of the strongest shift on the chart (New SCS bars two left shifts)
            if board.names["close"]:
                dug_in = dataclasses.replace(situation, terrain={**situation.terrain, board.front: (board.names["close"],)})
                for hex in [c, *away]:
                    yield lambda s=dug_in, h=hex: engine.may_overrun(s, ("tank",), h, board.front)
            # the tank overran once already this phase, and the target was overrun once already
            for record in (Record(overruns={"tank": 1}), Record(overrun_targets={board.front: 1})):
                for hex in [c, *away]:
                    yield lambda s=situation, h=hex, r=record: engine.may_overrun(s, ("tank",), h, board.front,
                                                                                  record=r)
    elif function == "may_exploit":
        for situation in (plain, far, started, board.situation(phase="exploitation", started={"tank": c})):
            for unit in ("tank", "rifles", "cut-off", "scouts", "guns", "edge"):
                yield lambda s=situation, u=unit: engine.may_exploit(s, u)
    elif function == "may_attack":
        combat = board.situation(phase="combat")
        # two parent units, four guns and a unit over the stacking limit, all in the centre hex
        crowd = board.situation(phase="combat", extra=(
            *(Counter(f"hq-{i}", "blue", c, attack=3, defense=3, movement=4, capabilities=frozenset({"parent"}))
              for i in range(2)),
            *(Counter(f"gun-{i}", "blue", c, attack=2, defense=1, movement=3, capabilities=frozenset({"artillery"}))
              for i in range(4)),
            Counter("spare", "blue", c, attack=2, defense=2, movement=4, states=frozenset({"overstacked"}))))
        for attackers in (("hq-0", "hq-1"), ("hq-0",), ("tank", "gun-0", "gun-1", "gun-2", "gun-3"), ("spare",),
                          ("tank", "spare")):
            yield lambda a=attackers: engine.may_attack(crowd, a, board.front)
        for situation in (combat, plain, started):
            for attackers in (("tank",), ("rifles",), ("tank", "rifles"), ("guns",), ("tank", "guns"),
                              ("scouts",), ("cut-off",)):
                yield lambda s=situation, a=attackers: engine.may_attack(s, a, board.front)
                yield lambda s=situation, a=attackers: engine.may_attack(s, a, H("3.05"))
            yield lambda s=situation: engine.may_attack(s, ("red-1",), c)
            # one attack on two hexes
            yield lambda s=situation: engine.may_attack(s, ("tank", "rifles"), board.front, more_targets=(H("3.05"),))
            # after earlier attacks and overruns: by the tank, on red-1, by the rifles on another hex
            earlier = Record(attacks={"tank": 1}, turn_attacks={"tank": 1}, overran=frozenset({"tank"}),
                             attacked={"red-1": 1}, targets={"rifles": H("3.05")})
            for attackers in (("tank",), ("tank", "rifles")):
                yield lambda s=situation, a=attackers: engine.may_attack(s, a, board.front, record=earlier)
    elif function == "engage":
        # a second defender that retreated into the front hex, and a crowd over the limit there
        arrival = Counter("red-4", "red", board.front, attack=2, defense=2, movement=4)
        crowd = tuple(Counter(f"red-x{i}", "red", board.front, attack=1, defense=1, movement=4, steps=2)
                      for i in range(6))
        for situation in (board.situation(phase="combat", extra=(arrival,)),
                          board.situation(phase="combat", extra=(arrival, *crowd))):
            for attackers in (("tank",), ("tank", "rifles")):
                yield lambda s=situation, a=attackers: engine.engage(s, a, [board.front])
                yield lambda s=situation, a=attackers: engine.engage(s, a, [board.front], defenders=("red-1",))
                yield lambda s=situation, a=attackers: engine.engage(s, a, [board.front], arrived=("red-4",))
                yield lambda s=situation, a=attackers: engine.engage(s, a, [board.front], overrun=True)
                yield lambda s=situation, a=attackers: engine.engage(s, a, [board.front, H("3.05")])
                for result in (Result(attacker_retreat=1), Result(attacker_steps=1), Result(defender_steps=1)):
                    yield lambda s=situation, a=attackers, r=result: engine.engage(s, a, [board.front], result=r)
                    yield lambda s=situation, a=attackers, r=result: engine.engage(s, a, [board.front], result=r,
                                                                                     overrun=True)
    elif function == "losses":
        # blue's tank and rifles lose steps to red-1: more steps than they have, attacking and defending
        situation = board.situation(phase="combat")
        for steps in (1, 2, 9):
            for attacking in (True, False):
                yield lambda n=steps, a=attacking: engine.losses(situation, ("tank", "rifles"), n, attacking=a,
                                                                 enemies=("red-1",))
    else:   # pragma: no cover - a new engine function needs its calls here
        raise AssertionError(f"no calls written for engine function {function}")


@pytest.mark.parametrize("function", ENGINE_FUNCTIONS)
def test_each_engine_function_reads_every_parameter_it_drives(function: str) -> None:
    wanted = {p.name for p in ENGINE_PARAMETERS if p.drives == function}
    read: set[str] = set()
    failures: list[str] = []
    for rules in rule_sets():
        engine = RulesEngine(rules)
        for call in _calls(function, engine, Board(rules)):
            try:
                call()
            except NotImplementedError as exc:
                pytest.skip(f"{function} is not written yet ({exc}); the integrator checks none is skipped")
            except (KeyError, ValueError, LookupError) as exc:   # a refused situation is an answer too
                failures.append(f"{rules.rulebook}: {type(exc).__name__}: {exc}")
        read |= rules.reads & wanted
    missing = sorted(wanted - read)
    assert not missing, (f"{function} never read {len(missing)} of the {len(wanted)} parameters the contract "
                         f"says it drives: {', '.join(missing)}"
                         + (f"\n(calls that raised: {'; '.join(failures[:5])})" if failures else ""))


def test_every_engine_function_has_calls_and_every_contract_function_is_tested() -> None:
    assert {p.drives for p in ENGINE_PARAMETERS} == set(ENGINE_FUNCTIONS)
    rules = next(rule_sets())
    for function in ENGINE_FUNCTIONS:
        assert list(_calls(function, RulesEngine(rules), Board(rules))), function


# ---- the engine in the generated modules ----------------------------------------------------------------
@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_a_generated_module_offers_each_engine_function_as_the_engine_declares_it(module: object) -> None:
    engine, ruleset = module.RULES_ENGINE, module.RULESET    # type: ignore[attr-defined]
    assert isinstance(engine, RulesEngine) and engine.rules is ruleset
    assert ruleset.parameters is module.PARAMETERS and ruleset.rules is module.RULES    # type: ignore[attr-defined]
    assert ruleset.rulebook == module.RULEBOOK["id"]    # type: ignore[attr-defined]
    for name in ("zoc", "move", "reachable", *ENGINE_FUNCTIONS):
        function, method = getattr(module, name), getattr(RulesEngine, name)
        assert function.__doc__, name
        ours = inspect.signature(function).parameters
        theirs = dict(inspect.signature(method).parameters)
        theirs.pop("self")
        assert [(p.name, p.kind, p.default) for p in ours.values()] == \
            [(p.name, p.kind, p.default) for p in theirs.values()], name
        hints = typing.get_type_hints(method)
        assert typing.get_type_hints(function) == {k: v for k, v in hints.items() if k != "self"}, name


def test_a_generated_modules_move_is_its_engines_and_cites_its_rulebook() -> None:
    situation = Situation(HexMap.rectangle(30, 20), default_terrain=("open",), terrain={H("25.18"): ("woods",)},
                          hexsides={Hexside.between(H("23.16"), H("24.16")): ("stream",)},
                          units=(Counter("6", "allies", H("22.16"), attack=3, defense=2, movement=9),
                                 Counter("7", "axis", H("25.16"), attack=2, defense=3, movement=5)))
    moved = bocage.move(situation, "6", ["23.16", "24.16", "24.17", "25.18"])
    assert moved.costs == (1, 4, 1, 2) and moved.legal
    step = next(s for s in moved.steps if s.parameter == "zoc.entry_cost")
    assert (step.rule, step.origin) == ("2.1a", "scs-1.8")
    assert "zoc.entry_cost" in bocage.RULESET.reads
