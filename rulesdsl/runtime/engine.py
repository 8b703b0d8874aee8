"""The rules engine: the questions players ask at the table, answered from a compiled rulebook.

`RulesEngine(ruleset)` answers, for a `Situation`:

  zoc(situation, side)                  which hexes the side's units hold in their ZOCs, and by whom
  move(situation, unit, path)           what each hex of a path costs, and whether the move is legal
  reachable(situation, unit)            the hexes a unit may reach within its allowance, at least cost
  stack(situation, hex)                 whether the stack in a hex is legal, and what is in excess
  supply(situation, unit)               whether the unit traces supply, and along which hexes
  retreat(situation, units, hexes)      the retreat paths open to a stack, and the steps it loses
  advance(situation, units, vacated, hexes)  how far and where the winners may advance
  may_overrun(situation, units, from_hex, target)   whether an overrun may be made, and its cost
  may_exploit(situation, unit)          whether a unit may move in the Exploitation Phase
  may_attack(situation, attackers, target)          whether an attack may be made

Every answer carries `steps`: the derivation, each step citing the rule id, the rulebook that sets it and
its file and line.  The engine names no series: it reads only the parameters of its contract
(`rulesdsl.runtime.contract`) and the chart rows of the rulebook.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .hexmap import Hex
from .ruleset import RuleSet, Step
from .situation import Counter, Situation

__all__ = ["Advance", "Move", "Reach", "Retreat", "RulesEngine", "StackCheck", "SupplyTrace", "Verdict",
           "Zones", "as_hex"]


def as_hex(hex: Hex | str) -> Hex:
    return hex if isinstance(hex, Hex) else Hex.parse(hex)


@dataclass(frozen=True, slots=True)
class Zones:
    """The hexes in a side's ZOCs, each with the units that exert it there."""

    side: str
    hexes: Mapping[Hex, tuple[str, ...]]
    steps: tuple[Step, ...] = ()

    def __contains__(self, hex: object) -> bool:
        return hex in self.hexes


@dataclass(frozen=True, slots=True)
class Move:
    """A move along a path: the MPs each hex entered cost (None where it may not be entered), their running
    total, and whether the whole move is legal; `reason` says why not."""

    unit: str
    path: tuple[Hex, ...]
    costs: tuple[Fraction | None, ...]
    total: Fraction
    allowance: Fraction
    legal: bool
    reason: str | None = None
    steps: tuple[Step, ...] = ()


@dataclass(frozen=True, slots=True)
class Reach:
    """The least MPs to each hex a unit may reach this phase (its own hex at 0)."""

    unit: str
    costs: Mapping[Hex, Fraction]
    steps: tuple[Step, ...] = ()

    def __contains__(self, hex: object) -> bool:
        return hex in self.costs


@dataclass(frozen=True, slots=True)
class StackCheck:
    hex: Hex
    legal: bool
    size: Fraction                 # what counts against the limit, in the limit's unit
    limit: Fraction | None         # None: no limit
    unit: str                      # the limit's unit: step or unit
    excess: tuple[str, ...] = ()   # units that would have to go, when the owner does not choose
    steps: tuple[Step, ...] = ()


@dataclass(frozen=True, slots=True)
class SupplyTrace:
    unit: str
    in_supply: bool
    path: tuple[Hex, ...] = ()     # a trace, from the unit to a source, when there is one
    steps: tuple[Step, ...] = ()


@dataclass(frozen=True, slots=True)
class Retreat:
    """A retreat of `units` by `hexes`: the legal paths (best first), the steps lost on the best one, and
    whether the stack is eliminated."""

    units: tuple[str, ...]
    hexes: int
    paths: tuple[tuple[Hex, ...], ...]
    loss: int
    eliminated: bool = False
    steps: tuple[Step, ...] = ()

    @property
    def legal(self) -> bool:
        return bool(self.paths)


@dataclass(frozen=True, slots=True)
class Advance:
    units: tuple[str, ...]
    allowed: bool
    hexes: int                     # how many hexes the advance may go
    reachable: tuple[Hex, ...] = ()
    steps: tuple[Step, ...] = ()


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether something may be done (an overrun, an exploitation move, an attack), why not, and what it
    costs where it has a cost."""

    allowed: bool
    reasons: tuple[str, ...] = ()
    cost: Fraction | None = None
    steps: tuple[Step, ...] = ()


class RulesEngine:
    """The engine for one compiled rulebook."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules

    # ---- ZOC ------------------------------------------------------------------------------------------
    def exerts_zoc(self, situation: Situation, unit: Counter) -> tuple[bool, Step]:
        rules = self.rules
        least = rules.amount("zoc.min_attack_strength")
        if not unit.has_attack_strength:
            return False, rules.cite("zoc.min_attack_strength",
                                     f"{unit} has no printed Attack Strength, so no ZOC")
        if least is not None and unit.attack < least:
            return False, rules.cite("zoc.min_attack_strength",
                                     f"{unit} attacks at {unit.attack}, below {least}: no ZOC")
        return True, rules.cite("zoc.min_attack_strength", f"{unit} has a ZOC")

    def zoc(self, situation: Situation, side: str) -> Zones:
        """The hexes in the ZOCs of `side`'s units (the enemy ZOCs of the other sides)."""
        rules = self.rules
        reach = rules.amount("zoc.range")
        steps: list[Step] = []
        if reach is None or reach < 1:
            steps.append(rules.cite("zoc.range", "units have no ZOC"))
            return Zones(side, {}, tuple(steps))
        limited = rules.flag("zoc.limited_by_terrain")
        held: dict[Hex, list[str]] = {}
        for unit in situation.friends_of(side):
            has, why = self.exerts_zoc(situation, unit)
            steps.append(why)
            if not has:
                continue
            for hex in situation.map.within(unit.hex, int(reach)):
                if hex == unit.hex:
                    continue
                if limited and situation.map.adjacent(unit.hex, hex) and \
                        self.entry_cost(situation, unit, unit.hex, hex) is None:
                    steps.append(rules.cite("zoc.limited_by_terrain",
                                            f"{unit}'s ZOC does not reach {hex}: it could not enter it"))
                    continue
                held.setdefault(hex, []).append(unit.name)
        return Zones(side, {h: tuple(n) for h, n in sorted(held.items())}, tuple(steps))

    def enemy_zoc(self, situation: Situation, side: str) -> set[Hex]:
        """The hexes in any enemy ZOC of `side`."""
        hexes: set[Hex] = set()
        for other in situation.sides():
            if other != side:
                hexes.update(self.zoc(situation, other).hexes)
        return hexes

    # ---- movement -------------------------------------------------------------------------------------
    def entry_cost(self, situation: Situation, unit: Counter, source: Hex, target: Hex,
                   *, road: bool = True) -> Fraction | None:
        """The TEC cost for `unit` to step from `source` into the adjacent `target` (no ZOC costs); None
        when prohibited."""
        chart = self.rules.terrain
        if chart is None:
            return Fraction(1)
        way = situation.road_between(source, target) if road else None
        cost = chart.entry_cost(situation.terrain_at(target), situation.hexside_features(source, target),
                                way or False)
        return None if cost is None else Fraction(cost).limit_denominator(1000)

    def move(self, situation: Situation, unit: str, path: Sequence[Hex | str], *,
             mode: str = "regular") -> Move:
        """Price a move of `unit` along `path` (the hexes entered, its own hex optionally first)."""
        counter = situation.unit(unit)
        hexes = [as_hex(h) for h in path]
        if hexes and hexes[0] == counter.hex:
            hexes = hexes[1:]
        rules = self.rules
        ezoc = self.enemy_zoc(situation, counter.side)
        extra = rules.amount("zoc.entry_cost") if "zoc.entry_cost" in rules.parameters else None
        steps: list[Step] = []
        costs: list[Fraction | None] = []
        total = Fraction(0)
        here = counter.hex
        for hex in hexes:
            if not situation.map.adjacent(here, hex):
                return Move(unit, tuple(hexes), tuple(costs), total, counter.movement, False,
                            f"{hex} is not next to {here}", tuple(steps))
            cost = self.entry_cost(situation, counter, here, hex)
            if cost is None:
                costs.append(None)
                steps.append(Step(f"{hex}: prohibited terrain"))
                return Move(unit, tuple(hexes), tuple(costs), total, counter.movement, False,
                            f"{hex} may not be entered", tuple(steps))
            if hex in ezoc and extra:
                steps.append(rules.cite("zoc.entry_cost", f"{hex} is in an enemy ZOC: +{extra} MP"))
                cost += extra
            total += cost
            costs.append(cost)
            steps.append(Step(f"{hex}: {cost} MP, {total} in all"))
            here = hex
        legal = total <= counter.movement
        return Move(unit, tuple(hexes), tuple(costs), total, counter.movement, legal,
                    None if legal else f"{total} MP is more than the allowance of {counter.movement}",
                    tuple(steps))

    def reachable(self, situation: Situation, unit: str, *, mode: str = "regular") -> Reach:
        raise NotImplementedError("reachable: issue 10, in progress")

    # ---- stacking, supply, retreat, advance ------------------------------------------------------------
    def stack(self, situation: Situation, hex: Hex | str, *, moment: str = "phase-end") -> StackCheck:
        raise NotImplementedError("stack: issue 10, in progress")

    def supply(self, situation: Situation, unit: str) -> SupplyTrace:
        raise NotImplementedError("supply: issue 10, in progress")

    def retreat(self, situation: Situation, units: Iterable[str], hexes: int, *, attackers: Iterable[str] = (),
                refuse: int = 0) -> Retreat:
        raise NotImplementedError("retreat: issue 10, in progress")

    def advance(self, situation: Situation, units: Iterable[str], vacated: Hex | str, hexes: int, *,
                overrun: bool = False, defender_destroyed: bool = False) -> Advance:
        raise NotImplementedError("advance: issue 10, in progress")

    # ---- eligibility -----------------------------------------------------------------------------------
    def may_overrun(self, situation: Situation, units: Iterable[str], from_hex: Hex | str,
                    target: Hex | str) -> Verdict:
        raise NotImplementedError("may_overrun: issue 10, in progress")

    def may_exploit(self, situation: Situation, unit: str) -> Verdict:
        raise NotImplementedError("may_exploit: issue 10, in progress")

    def may_attack(self, situation: Situation, attackers: Iterable[str], target: Hex | str) -> Verdict:
        raise NotImplementedError("may_attack: issue 10, in progress")
