"""Zones of control and movement: who has a ZOC and where, what a step costs, moves along a path and the
hexes a unit can reach."""
from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from .answers import Move, Reach, Zones
from .hexmap import Hex
from .ruleset import RuleSet, Step
from .situation import Counter, Situation


# ---- ZOC ----------------------------------------------------------------------------------------------
def exerts_zoc(rules: RuleSet, situation: Situation, unit: Counter) -> tuple[bool, Step]:
    least = rules.amount("zoc.min_attack_strength")
    if not unit.has_attack_strength:
        return False, rules.cite("zoc.min_attack_strength", f"{unit} has no printed Attack Strength, so no ZOC")
    if least is not None and unit.attack < least:
        return False, rules.cite("zoc.min_attack_strength", f"{unit} attacks at {unit.attack}, below {least}: no ZOC")
    return True, rules.cite("zoc.min_attack_strength", f"{unit} has a ZOC")


def zoc(rules: RuleSet, situation: Situation, side: str) -> Zones:
    reach = rules.amount("zoc.range")
    steps: list[Step] = []
    if reach is None or reach < 1:
        steps.append(rules.cite("zoc.range", "units have no ZOC"))
        return Zones(side, {}, tuple(steps))
    limited = rules.flag("zoc.limited_by_terrain")
    held: dict[Hex, list[str]] = {}
    for unit in situation.friends_of(side):
        has, why = exerts_zoc(rules, situation, unit)
        steps.append(why)
        if not has:
            continue
        for hex in situation.map.within(unit.hex, int(reach)):
            if hex == unit.hex:
                continue
            if limited and situation.map.adjacent(unit.hex, hex) and \
                    entry_cost(rules, situation, unit, unit.hex, hex) is None:
                steps.append(rules.cite("zoc.limited_by_terrain",
                                        f"{unit}'s ZOC does not reach {hex}: it could not enter it"))
                continue
            held.setdefault(hex, []).append(unit.name)
    return Zones(side, {h: tuple(n) for h, n in sorted(held.items())}, tuple(steps))


def enemy_zoc(rules: RuleSet, situation: Situation, side: str) -> set[Hex]:
    hexes: set[Hex] = set()
    for other in situation.sides():
        if other != side:
            hexes.update(zoc(rules, situation, other).hexes)
    return hexes


# ---- movement -----------------------------------------------------------------------------------------
def entry_cost(rules: RuleSet, situation: Situation, unit: Counter, source: Hex, target: Hex,
               *, road: bool = True) -> Fraction | None:
    chart = rules.terrain
    if chart is None:
        return Fraction(1)
    way = situation.road_between(source, target) if road else None
    cost = chart.entry_cost(situation.terrain_at(target), situation.hexside_features(source, target), way or False)
    return None if cost is None else Fraction(cost).limit_denominator(1000)


def move(rules: RuleSet, situation: Situation, unit: str, path: Sequence[Hex], *, mode: str = "regular") -> Move:
    counter = situation.unit(unit)
    hexes = list(path)
    if hexes and hexes[0] == counter.hex:
        hexes = hexes[1:]
    ezoc = enemy_zoc(rules, situation, counter.side)
    extra = rules.amount("zoc.entry_cost")
    steps: list[Step] = []
    costs: list[Fraction | None] = []
    total = Fraction(0)
    here = counter.hex
    for hex in hexes:
        if not situation.map.adjacent(here, hex):
            return Move(unit, tuple(hexes), tuple(costs), total, counter.movement, False,
                        f"{hex} is not next to {here}", tuple(steps))
        cost = entry_cost(rules, situation, counter, here, hex)
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
                None if legal else f"{total} MP is more than the allowance of {counter.movement}", tuple(steps))


def reachable(rules: RuleSet, situation: Situation, unit: str, *, mode: str = "regular") -> Reach:
    raise NotImplementedError("reachable: issue 10, in progress")
