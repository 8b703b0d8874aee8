"""Eligibility: whether an overrun, an exploitation move or an attack may be made.

Exploit capability is a property of the counter (the yellow box of the SCS counters): the engine reads it
from the counter's capabilities (the word `exploit`), which hold those its unit type declares; the SCS
series declare no type with it.

What has already happened in the phase or player turn (overruns made, attacks made, hexes attacked) is
the situation's `history` (a `Record`; an example writes it with `done` lines); a caller may pass another.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

from . import stacking
from .answers import Verdict, Zones
from .engagement import Judge, as_combat
from .hexmap import Hex, Hexside
from .ruleset import RuleSet, Step
from .situation import Counter, Record, Situation
from .terrain import TerrainEffectsChart
from .questions import Questions

__all__ = ["EXPLOIT", "OUT_OF_SUPPLY", "Record", "may_attack", "may_exploit", "may_overrun"]

EXPLOIT = "exploit"                # the capability the yellow box gives a counter
OUT_OF_SUPPLY = "out-of-supply"    # the state (marker) of an out-of-supply unit




def _refused(reasons: list[str], steps: list[Step], *, cost: Fraction | None = None, total: Fraction | None = None,
             minimum_move: bool = False) -> Verdict:
    return Verdict(False, tuple(reasons), cost, tuple(steps), total=total, minimum_move=minimum_move)


# ---- overrun ------------------------------------------------------------------------------------------
def may_overrun(engine: Questions, situation: Situation, units: tuple[str, ...], from_hex: Hex,
                target: Hex, *, path: Sequence[Hex] | None = None, record: Record | None = None,
                reacting: bool | None = None) -> Verdict:
    """Whether the stack `units` may overrun `target` from `from_hex`.

    The cost is what the stack spends in `from_hex`: entering it (terrain and any enemy ZOC) and the
    overrun itself (5 MP in the SCS example: 1 open, 2 for the EZOC, 2 for the overrun); `total` adds the
    rest of the move there.  path: the hexes the stack moves through to `from_hex` (from where it began the
    phase); without it the stack moves from its start hex when that is next to `from_hex`, and otherwise
    along its cheapest route (`reachable`).  reacting: whether this is a reaction move (default: the
    situation's phase is `reaction`).  record: what was done earlier (default: the situation's history).
    """
    rules = engine.rules
    record = situation.history if record is None else record
    steps: list[Step] = []
    reasons: list[str] = []
    counters = [situation.unit(u) for u in units]
    if not counters:
        raise ValueError("an overrun needs at least one unit")
    side = counters[0].side
    names = ", ".join(str(u) for u in counters)

    # ---- the target ---------------------------------------------------------------------------------
    defenders = [u for u in situation.units_at(target) if u.side != side]
    if not defenders:
        return _refused([f"{target} holds no enemy unit"], steps)
    steps.append(rules.cite_rule_of("overrun.cost", f"{names} overrun {', '.join(str(u) for u in defenders)} in "
                                                    f"{target} from {from_hex}"))
    if rules.flag("overrun.from_adjacent_hex"):
        attack_hex = from_hex
        steps.append(rules.cite("overrun.from_adjacent_hex",
                                f"the overrun is made from {from_hex}, next to the target"))
    else:
        attack_hex = target
        steps.append(rules.cite("overrun.from_adjacent_hex",
                                f"the overrunning units attack from inside {target}, entering it from {from_hex}"))
    if not situation.map.adjacent(from_hex, target):
        reasons.append(f"{from_hex} is not next to {target}")
        return _refused(reasons, steps)

    # ---- who may overrun ----------------------------------------------------------------------------
    who = rules.word("overrun.who")
    if who == "exploit-capable":
        lacking = [u for u in counters if EXPLOIT not in u.capabilities]
        if lacking:
            reasons.append(f"only exploit-capable units overrun: {', '.join(map(str, lacking))} "
                           "has no yellow box")
        steps.append(rules.cite("overrun.who", reasons[-1] if lacking else "only exploit-capable units overrun: "
                                f"{names} are"))
    else:
        steps.append(rules.cite("overrun.who", "any unit may overrun"))
    if reacting is None:
        reacting = situation.phase == "reaction"
    if reacting:
        if rules.flag("reaction.may_overrun"):
            steps.append(rules.cite("reaction.may_overrun", "reacting units may overrun"))
        else:
            reasons.append("reacting units may not overrun")
            steps.append(rules.cite("reaction.may_overrun", reasons[-1]))
    if situation.phase == "exploitation":
        if rules.flag("overrun.exploitation_requires_eligibility"):
            for unit in counters:
                verdict = may_exploit(engine, situation, unit.name)
                if not verdict.allowed:
                    reasons.append(f"{unit} may not move in the Exploitation Phase, so may not overrun in it")
                steps.append(rules.cite("overrun.exploitation_requires_eligibility",
                                        reasons[-1] if not verdict.allowed
                                        else f"{unit} may move in the Exploitation Phase"))
                steps.extend(verdict.steps)
        else:
            steps.append(rules.cite("overrun.exploitation_requires_eligibility",
                                    "overruns in the Exploitation Phase are not limited to exploiting units"))
    for unit in counters:
        if OUT_OF_SUPPLY in unit.states:
            allowed = rules.value("overrun.out_of_supply_allowed")
            if allowed is False:
                reasons.append(f"{unit} is out of supply and may not overrun")
            steps.append(rules.cite("overrun.out_of_supply_allowed", reasons[-1] if allowed is False
                                    else f"{unit} is out of supply, which does not bar an overrun"))

    # ---- where the stack began the phase ------------------------------------------------------------
    base = _at_start(situation, counters)
    starts: dict[Hex, list[Counter]] = {}
    for unit in counters:
        starts.setdefault(situation.start_of(unit), []).append(unit)
    if len(starts) > 1:
        if rules.flag("overrun.stack_must_start_together"):
            reasons.append(f"{names} did not begin their move stacked")
            steps.append(rules.cite("overrun.stack_must_start_together", reasons[-1]))
        else:
            steps.append(rules.cite("overrun.stack_must_start_together",
                                    f"{names} began apart, which the rules allow"))
    most = rules.amount("overrun.max_stacks")
    if most is not None:
        if len(starts) > most:
            reasons.append(f"{len(starts)} stacks take part, more than {most}")
        steps.append(rules.cite("overrun.max_stacks", reasons[-1] if len(starts) > most
                                else f"{len(starts)} stack(s) take part, at most {most}"))
    ezoc_start = engine.enemy_zoc(base, side)
    for start, group in starts.items():
        if start not in ezoc_start:
            steps.append(rules.cite_rule_of("overrun.allowed_from_ezoc", f"{', '.join(map(str, group))} began the "
                                                                         f"phase in {start}, in no enemy ZOC"))
        elif rules.flag("overrun.allowed_from_ezoc"):
            steps.append(rules.cite("overrun.allowed_from_ezoc",
                                    f"{', '.join(map(str, group))} began the phase in an enemy ZOC ({start}), "
                                    "which does not bar an overrun"))
        else:
            reasons.append(f"{', '.join(map(str, group))} began the phase in an enemy ZOC ({start})")
            steps.append(rules.cite("overrun.allowed_from_ezoc", reasons[-1] + ": no overrun"))

    # ---- how often ----------------------------------------------------------------------------------
    made = max(record.overruns.get(u.name, 0) for u in counters)
    _how_often(rules, "overrun.per_phase", made, f"{names} overran", "this phase", reasons, steps,
               never=f"{names} may not overrun")
    if made:
        if rules.flag("overrun.ends_movement"):
            reasons.append(f"{names} overran already, and an overrun ends the units' movement")
            steps.append(rules.cite("overrun.ends_movement", reasons[-1]))
        else:
            steps.append(rules.cite("overrun.ends_movement", "an earlier overrun did not end their movement"))
    for unit in counters:     # an overrun is one of the attacks a unit may make in a player turn
        _how_often(rules, "combat.attacks_per_turn", record.turn_attacks.get(unit.name, 0), f"{unit} attacked",
                   "this player turn", reasons, steps, never=f"{unit} may not attack")
    _how_often(rules, "overrun.per_target_per_phase", record.overrun_targets.get(target, 0),
               f"{target} was overrun", "this phase", reasons, steps, never=f"{target} may not be overrun")

    # ---- the target hex's cost ----------------------------------------------------------------------
    target_cost = _target_cost(engine, situation, counters, from_hex, target, steps)
    if target_cost is None:
        reasons.append(f"{target} could not be entered from {from_hex} in regular movement")
    else:
        limit = rules.amount("overrun.max_target_cost")
        if limit is None:
            steps.append(rules.cite("overrun.max_target_cost", "no limit on the target hex's cost"))
        elif target_cost > limit:
            reasons.append(f"{target} costs {target_cost} MP to enter, more than the {limit} MP an overrun allows")
            steps.append(rules.cite("overrun.max_target_cost", reasons[-1]))
        else:
            steps.append(rules.cite("overrun.max_target_cost", f"{target} costs {target_cost} MP, within {limit} MP"))

    # ---- the target's terrain: what may not be overrun at all ---------------------------------------
    _barred_terrain(rules, situation, side, from_hex, target, reasons, steps)

    # ---- the move there, and what the overrun costs -------------------------------------------------
    # in the Exploitation Phase the overrun's own rule says who may make it (6.1a, above): its move is not
    # barred again by the rule on who moves in that phase, which the engine's `move` applies
    route = replace(base, phase="movement") if base.phase == "exploitation" else base
    priced = [_route(engine, route, unit, from_hex, path) for unit in counters]
    for unit, (why, *_rest) in zip(counters, priced):
        if why is not None:
            reasons.append(why)
    if any(p[0] is not None for p in priced):
        return _refused(reasons, steps)
    shown: list[tuple[Step, ...]] = []
    for unit, (_, _, _, _, _, move_steps) in zip(counters, priced):
        if move_steps not in shown:
            shown.append(move_steps)
            steps.append(rules.cite_chart(f"{unit}'s move to {from_hex}:"))
            steps.extend(move_steps)
    overrun_cost = rules.amount("overrun.cost")
    steps.append(rules.cite("overrun.cost", f"the overrun costs {overrun_cost or 0} MP"))
    overrun_cost = overrun_cost or Fraction(0)
    in_hex = max(p[1] for p in priced)
    total = max(p[2] for p in priced)
    if attack_hex == target and target_cost is not None:
        in_hex += target_cost
        total += target_cost
        steps.append(rules.cite_chart(f"entering {target} costs {target_cost} MP more"))
    cost = in_hex + overrun_cost
    need = total + overrun_cost
    steps.append(rules.cite_chart(f"{cost} MP in {from_hex} ({in_hex} to enter it and {overrun_cost} to overrun), "
                                  f"{need} MP in all"))
    remaining: Fraction | None = None
    for unit, (_, _, _, allowance, moved, _) in zip(counters, priced):
        if need <= allowance:
            left = allowance - need
            remaining = left if remaining is None else min(remaining, left)
            continue
        minimum = rules.amount("movement.minimum_move")
        if minimum is not None and 0 < moved <= minimum:
            if rules.flag("movement.minimum_move_may_overrun"):
                steps.append(rules.cite("movement.minimum_move_may_overrun",
                                        f"{unit} lacks the MPs but overruns with its minimum move"))
                remaining = Fraction(0)
                continue
            reasons.append(f"{unit} would need {need} MP of its {allowance}, and the minimum move may not "
                           "be used to overrun")
            steps.append(rules.cite("movement.minimum_move_may_overrun", reasons[-1]))
        else:
            reasons.append(f"{unit} would need {need} MP of its {allowance}")

    # ---- stacking where the attack is made ----------------------------------------------------------
    after = situation.moved(units, attack_hex)
    check = stacking.stack(rules, after, attack_hex, moment="overrun", overrunning=units)
    steps.extend(check.steps)
    if not check.legal and check.over > 0:
        reasons.append(f"{check.size} {check.unit}s in {attack_hex} at the overrun is over the limit of {check.limit}")

    if reasons:
        return _refused(reasons, steps, cost=cost, total=need)
    if rules.flag("overrun.ends_movement"):
        steps.append(rules.cite("overrun.ends_movement", "the overrun ends the units' movement"))
        remaining = Fraction(0)
    else:
        steps.append(rules.cite("overrun.ends_movement",
                                f"the units may move on with {remaining} MP after the overrun"))
    return Verdict(True, (), cost, tuple(steps), total=need, remaining=remaining)


def _at_start(situation: Situation, counters: Sequence[Counter]) -> Situation:
    """The situation with the overrunning units back where they began the phase."""
    for unit in counters:
        start = situation.start_of(unit)
        if unit.hex != start:
            situation = situation.moved([unit.name], start)
    return situation


def _route(engine: Questions, base: Situation, unit: Counter, from_hex: Hex, path: Sequence[Hex] | None
           ) -> tuple[str | None, Fraction, Fraction, Fraction, int, tuple[Step, ...]]:
    """(why not, MPs to enter `from_hex`, MPs spent up to and including it, allowance, hexes moved, steps)
    for `unit` moving from where it began the phase (its hex in `base`) to `from_hex`."""
    start = base.unit(unit.name).hex
    if path is not None:
        hexes = [h for h in path]
        if hexes and hexes[0] == start:
            hexes = hexes[1:]
        if (hexes[-1] if hexes else start) != from_hex:
            return f"the path given for {unit} does not end in {from_hex}", Fraction(0), Fraction(0), \
                Fraction(0), 0, ()
    elif start == from_hex:
        hexes = []
    elif base.map.adjacent(start, from_hex):
        hexes = [from_hex]
    else:
        return _cheapest(engine, base, unit, start, from_hex)
    # a reacting unit (the other side's, in the reaction phase) moves on its reaction allowance
    move = engine.move(base, unit.name, hexes, mode=_mode(base, unit))
    if len(move.costs) < len(hexes) or any(c is None for c in move.costs):
        return f"{unit} may not move to {from_hex}: {move.reason}", Fraction(0), Fraction(0), move.allowance, \
            0, move.steps
    last = move.costs[-1] if move.costs else Fraction(0)
    return None, last or Fraction(0), move.total, move.allowance, len(hexes), move.steps


def _mode(base: Situation, unit: Counter) -> str:
    """How `unit` moves to its overrun: a reacting unit (the other side's, in the reaction phase) on its
    reaction allowance, any other as usual."""
    return "reaction" if base.phase == "reaction" and base.phasing and unit.side != base.phasing else "regular"


def _cheapest(engine: Questions, base: Situation, unit: Counter, start: Hex, from_hex: Hex
              ) -> tuple[str | None, Fraction, Fraction, Fraction, int, tuple[Step, ...]]:
    mode = _mode(base, unit)
    reach = engine.reachable(base, unit.name, mode=mode)
    best: tuple[Fraction, Fraction, int] | None = None
    for hex in base.neighbours(from_hex):
        if hex not in reach.costs:
            continue
        step = engine.move(base.moved([unit.name], hex), unit.name, [from_hex], mode=mode)
        if not step.costs or step.costs[0] is None:
            continue
        total = reach.costs[hex] + step.costs[0]
        if best is None or total < best[0]:
            best = (total, step.costs[0], base.map.distance(start, from_hex))
    if best is None:
        return f"{unit} cannot reach {from_hex}", Fraction(0), Fraction(0), Fraction(0), 0, reach.steps
    allowance = engine.move(base, unit.name, [], mode=mode).allowance
    return None, best[1], best[0], allowance, best[2], (
        engine.rules.cite_chart(f"{unit} reaches {from_hex} for {best[0]} MP"),)


# the rule on what an overrun may target, which the TEC's `no-overrun` marks apply (New SCS 6.0c)
_TARGET_RULE = ("overrun.max_target_shift", "overrun.max_target_cost")


def _barred_terrain(rules: RuleSet, situation: Situation, side: str, from_hex: Hex, target: Hex,
                    reasons: list[str], steps: list[Step]) -> None:
    """The terrain an overrun may not target or cross (`no-overrun` in the TEC: New SCS's swamp, major river
    and escarpment) and the target's terrain shifting the column further left than `overrun.max_target_shift`
    allows (New SCS: no overrun against terrain that shifts two columns left)."""
    chart = rules.terrain
    if chart is None:
        return
    names = [n for n in situation.terrain_at(target) if n in chart]
    for name in names:
        if chart[name].no_overrun:
            reasons.append(f"{target} is {name}, which may not be overrun")
            steps.append(rules.cite_rule_of(_TARGET_RULE, reasons[-1]))
    for name in situation.hexside_features(from_hex, target):
        if name in chart and chart[name].no_overrun:
            reasons.append(f"no overrun across the {name} between {from_hex} and {target}")
            steps.append(rules.cite_rule_of(_TARGET_RULE, reasons[-1]))
    hexes = [n for n in names if chart[n].kind == "hex"]
    if not hexes:
        return
    defenders = [u.side for u in situation.units_at(target) if u.side != side]
    fought = chart.for_sides(side, defenders[0]) if defenders else chart
    combination = rules.parameters.get("combat.terrain_combination")    # the combat module's, not the engine's
    try:
        shift = fought.hex_effect(tuple(hexes), str(combination.value) if combination is not None else
                                  "cumulative").shift
    except ValueError:   # terrain the chart says nothing of for combat here: no shift to judge
        return
    if shift >= 0:
        return
    most = rules.amount("overrun.max_target_shift")
    if most is not None and -shift > most:
        reasons.append(f"{target}'s terrain shifts the column {-shift} left, more than the {most} an overrun allows")
        steps.append(rules.cite("overrun.max_target_shift", reasons[-1]))
    else:
        steps.append(rules.cite("overrun.max_target_shift", f"{target}'s terrain shifts the column {-shift} left: "
                                + ("no limit" if most is None else f"within {most}")))


def _target_cost(engine: Questions, situation: Situation, counters: Sequence[Counter], from_hex: Hex,
                 target: Hex, steps: list[Step]) -> Fraction | None:
    """The target hex's cost to enter from `from_hex` in regular movement, as the overrun rules read it
    (the highest over the units); None when prohibited."""
    rules = engine.rules
    terrain_only = situation
    if rules.flag("overrun.may_use_roads"):
        steps.append(rules.cite("overrun.may_use_roads", "roads and road-like features count for the target hex"))
        road = True
    else:
        road = False
        features = situation.hexside_features(from_hex, target)
        kept = _without_negating(rules, features)
        if kept != features:
            sides = dict(situation.hexsides)
            sides[Hexside.between(from_hex, target)] = kept
            terrain_only = replace(situation, hexsides=sides)
        steps.append(rules.cite("overrun.may_use_roads",
                                "roads and road-like features may not lower the target hex's cost"
                                + (f" ({', '.join(f for f in features if f not in kept)} ignored)"
                                   if kept != features else "")))
    costs = [engine.entry_cost(terrain_only, unit, from_hex, target, road=road) for unit in counters]
    if any(c is None for c in costs):
        steps.append(engine.rules.cite_chart(f"{target} is prohibited terrain from {from_hex}"))
        return None
    cost = max(c for c in costs if c is not None)
    side = counters[0].side
    if rules.flag("overrun.target_cost_ignores_zoc"):
        steps.append(rules.cite("overrun.target_cost_ignores_zoc", f"{target}: terrain only, {cost} MP"))
    elif target in engine.enemy_zoc(situation, side):
        extra = rules.amount("zoc.entry_cost") or Fraction(0)
        cost += extra
        steps.append(rules.cite("overrun.target_cost_ignores_zoc",
                                f"{target} is in an enemy ZOC, which counts: +{extra} MP, {cost} MP"))
    else:
        steps.append(rules.cite("overrun.target_cost_ignores_zoc", f"{target}: {cost} MP (in no enemy ZOC)"))
    return cost


def _without_negating(rules: RuleSet, features: tuple[str, ...]) -> tuple[str, ...]:
    """The hexside features less the road-like ones: a feature that negates another (a bridge over a river)."""
    chart = rules.terrain
    if chart is None:
        return features
    return tuple(f for f in features
                 if not (f in chart and chart[f].movement.kind in ("negates", "road-like")))


# ---- exploitation -------------------------------------------------------------------------------------
def may_exploit(engine: Questions, situation: Situation, unit: str) -> Verdict:
    """Whether `unit` may move in the Exploitation Phase, with what allowance; `minimum_move` says whether a
    unit that may not exploit may still make the minimum move in it."""
    rules = engine.rules
    counter = situation.unit(unit)
    steps: list[Step] = []
    reasons: list[str] = []
    if EXPLOIT in counter.capabilities:
        steps.append(rules.cite_rule_of("exploitation.full_allowance",
                                        f"{counter} is exploit capable: its counter shows the yellow box", heading=True))
    else:
        reasons.append(f"{counter} is not exploit capable (its counter has no yellow box)")
        steps.append(rules.cite_rule_of("exploitation.full_allowance", reasons[-1], heading=True))
    start = situation.start_of(counter)
    if start in engine.enemy_zoc(situation, counter.side):
        if rules.flag("exploitation.move_from_ezoc"):
            steps.append(rules.cite("exploitation.move_from_ezoc",
                                    f"{counter} began the phase in an enemy ZOC ({start}), which does not stop it"))
        else:
            reasons.append(f"{counter} began the phase in an enemy ZOC ({start}) and may not move")
            steps.append(rules.cite("exploitation.move_from_ezoc", reasons[-1]))
            return _refused(reasons, steps, minimum_move=False)
    if OUT_OF_SUPPLY in counter.states:
        allowed = rules.value("supply.out_of_supply_may_exploit")
        if allowed is False:
            reasons.append(f"{counter} is out of supply and may not exploit")
        steps.append(rules.cite("supply.out_of_supply_may_exploit", reasons[-1] if allowed is False
                                else f"{counter} is out of supply, which does not bar exploitation"))
    if reasons:
        minimum = rules.flag("exploitation.minimum_move_if_ineligible")
        steps.append(rules.cite("exploitation.minimum_move_if_ineligible",
                                f"{counter} may still make the minimum move" if minimum
                                else f"{counter} may not make even the minimum move"))
        return _refused(reasons, steps, minimum_move=minimum)
    allowance: Fraction | None
    if rules.flag("exploitation.full_allowance"):
        allowance = counter.movement
        steps.append(rules.cite("exploitation.full_allowance", f"{counter} may use its whole MA, {allowance} MP"))
    else:
        allowance = None
        steps.append(rules.cite("exploitation.full_allowance",
                                f"{counter} is not given its whole MA: how much it may use is the game's rule"))
    fraction = rules.amount("exploitation.unready_above_fraction")
    unready: Fraction | None = None
    if fraction is not None:
        unready = counter.movement * fraction
        steps.append(rules.cite("exploitation.unready_above_fraction",
                                f"moving more than {unready} MP ({fraction} of its MA) marks {counter} unready"))
    return Verdict(True, (), None, tuple(steps), allowance=allowance, unready_above=unready)


# ---- attacks ------------------------------------------------------------------------------------------
def _chart_prohibits(chart: TerrainEffectsChart, terrain: tuple[str, ...], hexsides: tuple[str, ...]) -> bool:
    """Whether the chart's combat cells prohibit attacking into `terrain` across `hexsides`; a name the chart
    does not have prohibits nothing (the situation's terrain is checked where it is written)."""
    try:
        return chart.attack_factor(terrain, hexsides) is None
    except KeyError:
        return False


def may_attack(engine: Questions, situation: Situation, attackers: tuple[str, ...], target: Hex, *,
               more_targets: Sequence[Hex] = (), record: Record | None = None, judge: Judge | None = None,
               forced: bool = False) -> Verdict:
    """Whether `attackers` may attack the units in `target` (and `more_targets`, in one attack on several
    hexes).  `must_also_attack` names the enemy units that must also be attacked this phase.  record: the
    attacks made earlier (default: the situation's history); judge: assesses a combat (a generated module's
    `ENGINE.assess`), to refuse an attack whose odds fall below the table where the table's result there says
    it may not be made; forced: the rules require the attack (`combat.below_table_forced` then gives it a
    result)."""
    rules = engine.rules
    record = situation.history if record is None else record
    steps: list[Step] = []
    reasons: list[str] = []
    counters = [situation.unit(a) for a in attackers]
    if not counters:
        raise ValueError("an attack needs at least one unit")
    side = counters[0].side
    hexes = [target, *[h for h in more_targets if h != target]]
    defenders = [u for h in hexes for u in situation.units_at(h) if u.side != side]
    for hex in hexes:
        if not situation.occupied_by_enemy(hex, side):
            reasons.append(f"{hex} holds no enemy unit")
    if reasons:
        return _refused(reasons, steps)
    verb = "attacks" if len(counters) == 1 else "attack"
    steps.append(rules.cite_rule_of(("combat.defender_hexes_per_attack", "combat.attacks_per_phase"),
                                    f"{', '.join(map(str, counters))} {verb} {', '.join(map(str, defenders))} "
                                    f"in {', '.join(map(str, hexes))}"))
    most = rules.amount("combat.defender_hexes_per_attack")
    if most is not None and len(hexes) > most:
        reasons.append(f"one attack may target at most {most} hex{'es' if most != 1 else ''}, not {len(hexes)}")
        steps.append(rules.cite("combat.defender_hexes_per_attack", reasons[-1]))
    elif len(hexes) > 1:
        steps.append(rules.cite("combat.defender_hexes_per_attack", f"{len(hexes)} defender hexes in one attack"))

    # ---- each attacker: strength, reach and terrain ---------------------------------------------------
    zones = engine.zoc(situation, side)
    for unit in counters:
        if not unit.has_attack_strength:
            if rules.flag("combat.without_attack_strength_may_attack"):
                steps.append(rules.cite("combat.without_attack_strength_may_attack",
                                        f"{unit} has no Attack Strength but may join the attack"))
            else:
                reasons.append(f"{unit} has no Attack Strength and may not attack")
                steps.append(rules.cite("combat.without_attack_strength_may_attack", reasons[-1]))
                continue
        elif unit.attack == 0:
            if rules.flag("combat.zero_strength_may_attack"):
                steps.append(rules.cite("combat.zero_strength_may_attack",
                                        f"{unit} has an Attack Strength of 0 but may join the attack"))
            else:
                reasons.append(f"{unit} has an Attack Strength of 0 and may not attack")
                steps.append(rules.cite("combat.zero_strength_may_attack", reasons[-1]))
                continue
        near = [h for h in hexes if situation.map.adjacent(unit.hex, h)]
        if not near:
            reasons.append(f"{unit} is not next to {' or '.join(map(str, hexes))}")
            steps.append(Step(reasons[-1]))
            continue
        if rules.flag("combat.target_must_be_in_zoc"):
            covered = [h for h in near if _zoc_covers(engine, situation, zones, unit, h)]
        barred = False      # each rule that bars the unit says so, so that the refusal names every one
        if rules.flag("combat.target_must_be_in_zoc"):
            covered = [h for h in near if _zoc_covers(engine, situation, zones, unit, h)]
            if not covered:
                reasons.append(f"{unit}'s ZOC does not cover {' or '.join(map(str, near))}")
                steps.append(rules.cite("combat.target_must_be_in_zoc", reasons[-1]))
                barred = True
            else:
                steps.append(rules.cite("combat.target_must_be_in_zoc", f"{unit}'s ZOC covers {covered[0]}"))
                near = covered
        else:
            steps.append(rules.cite("combat.target_must_be_in_zoc", f"{unit} is next to {near[0]}"))
        if rules.flag("combat.only_into_enterable_terrain"):
            open_ = [h for h in near if engine.entry_cost(situation, unit, unit.hex, h) is not None]
            if not open_:
                reasons.append(f"{unit} could not move into {' or '.join(map(str, near))}, so may not attack it")
                steps.append(rules.cite("combat.only_into_enterable_terrain", reasons[-1]))
                barred = True
            elif not barred:
                steps.append(rules.cite("combat.only_into_enterable_terrain", f"{unit} could move into {open_[0]}"))
        # a combat cell P: the chart itself prohibits the attack, as resolve_combat says (P in one of the hex's
        # terrains, or in a hexside crossed; a bridge negates)
        chart = rules.terrain
        if chart is not None and all(_chart_prohibits(chart, situation.terrain_at(h),
                                                      situation.hexside_features(unit.hex, h)) for h in near):
            reasons.append(f"the Terrain Effects Chart prohibits {unit}'s attack on {' or '.join(map(str, near))}")
            steps.append(rules.cite_chart(reasons[-1]))
            barred = True
        if barred:
            continue

    # ---- the odds: below the table, where the table's result says the attack may not be made ----------
    if judge is not None and not reasons:
        _below_the_table(rules, situation, counters, defenders, hexes, judge, forced, reasons, steps)

    # ---- what one hex may send ---------------------------------------------------------------------
    _per_hex(rules, counters, reasons, steps)

    # ---- what happened earlier ------------------------------------------------------------------------
    for unit in counters:
        _earlier(rules, situation, unit, hexes, record, reasons, steps)
    for defender in defenders:
        _how_often(rules, "combat.attacks_per_phase", record.attacked.get(defender.name, 0),
                   f"{defender} was attacked", "this Combat Phase", reasons, steps,
                   never=f"{defender} may not be attacked")

    # ---- what else must be attacked -------------------------------------------------------------------
    must = _must_also(rules, situation, counters, hexes, record, steps)
    return Verdict(not reasons, tuple(reasons), None, tuple(steps), must_also_attack=must)


def _below_the_table(rules: RuleSet, situation: Situation, counters: list[Counter], defenders: list[Counter],
                     hexes: list[Hex], judge: Judge, forced: bool, reasons: list[str], steps: list[Step]) -> None:
    """Refuses a voluntary attack whose odds fall below the table where the table's result there is a code
    that says the attack is not allowed (NA), citing the rule that sets it; a forced one is allowed where
    `combat.below_table_forced` gives it a result.  Against several hexes the combat reads the terrain best for
    the defender, which is one below the table where any is: each hex is judged.  Says nothing of an attack on
    the table, so that its derivation is the one it had."""
    attackers, fighting = [u.name for u in counters], [d.name for d in defenders]
    cited = ("combat.below_table_forced", "combat.below_table")
    for hex in hexes:
        try:
            voluntary = judge(as_combat(situation, attackers, fighting, hex))
            if voluntary.refused is None or voluntary.column is not None or voluntary.odds == "-":
                continue        # on the table, or refused before its odds (terrain: said above)
            required = judge(as_combat(situation, attackers, fighting, hex, forced=True))
        except (LookupError, ValueError) as exc:     # a unit type the combat rules do not know
            steps.append(Step(f"the odds against {hex} are not judged: {exc}"))
            return
        may_force = required.refused is None
        if forced and may_force:
            steps.append(rules.cite_rule_of(cited, f"{voluntary.refused}: a voluntary attack would not be allowed; "
                                                   "this one is forced, and reads the table's forced result"))
            continue
        reasons.append(f"{voluntary.refused}: the attack is not allowed")
        steps.append(rules.cite_rule_of(cited, reasons[-1] + ("; only a forced attack may be made there"
                                                              if may_force else "")))
        return


def _per_hex(rules: RuleSet, counters: list[Counter], reasons: list[str], steps: list[Step]) -> None:
    """The limits on what one hex may put into an attack: parent (formation) units and artillery, by the
    counter's `parent` and `artillery` words, and units marked over the stacking limit."""
    by_hex: dict[Hex, list[Counter]] = {}
    for unit in counters:
        by_hex.setdefault(unit.hex, []).append(unit)
    for hex, units in by_hex.items():
        for word, name, what in (("parent", "combat.parent_units_per_hex", "parent units"),
                                 ("artillery", "combat.artillery_per_hex", "artillery units")):
            count = sum(1 for u in units if u.can(word))
            if not count:
                continue
            most = rules.amount(name)
            if most is not None and count > most:
                reasons.append(f"{count} {what} attack from {hex}: at most {most} may")
                steps.append(rules.cite(name, reasons[-1]))
            else:
                steps.append(rules.cite(name, f"{count} of the {what} that may attack from {hex}"
                                        if most is not None else f"{count} {what} from {hex}: no limit"))
        over = [u for u in units if "overstacked" in u.states]
        if over:
            if rules.value("stacking.overstacked_units_fight") is False:
                reasons.append(f"{', '.join(map(str, over))} over the stacking limit in {hex} add nothing to an "
                               "attack")
                steps.append(rules.cite("stacking.overstacked_units_fight", reasons[-1]))
            else:
                steps.append(rules.cite("stacking.overstacked_units_fight",
                                        f"{', '.join(map(str, over))} over the stacking limit may still attack"))


def _zoc_covers(engine: Questions, situation: Situation, zones: Zones, unit: Counter,
                hex: Hex) -> bool:
    """Whether `unit`'s ZOC covers `hex`; a unit that exerts no ZOC (too weak, or a marker takes it away)
    is judged by the ZOC it would normally have, as if it had an Attack Strength."""
    if unit.name in zones.hexes.get(hex, ()):
        return True
    exerts, _ = engine.exerts_zoc(situation, unit)
    if exerts:
        return False
    least = engine.rules.amount("zoc.min_attack_strength") or Fraction(1)
    normal = replace(unit, attack=max(unit.attack, least), has_attack_strength=True, states=frozenset())
    alone = replace(situation, units=tuple(normal if u.name == unit.name else u for u in situation.units))
    return unit.name in engine.zoc(alone, unit.side).hexes.get(hex, ())


def _how_often(rules: RuleSet, name: str, made: int, done: str, period: str, reasons: list[str],
               steps: list[Step], *, never: str) -> None:
    """A limit on how often (`name`, a count; none: no limit) against what was `done` `made` times in
    `period`: refused at the limit (a limit of 0 refuses the first time too); a step when something was
    done or the limit refuses."""
    most = rules.amount(name)
    times = "once" if made == 1 else f"{made} times"
    if most is not None and made >= most:
        reasons.append(f"{done} {times} {period}, and the limit is {most}" if made else
                       f"{never} {period}: the limit is 0")
        steps.append(rules.cite(name, reasons[-1]))
    elif made:
        steps.append(rules.cite(name, f"{done} {times} {period}: "
                                f"{'no limit' if most is None else f'the limit is {most}'}"))


def _earlier(rules: RuleSet, situation: Situation, unit: Counter, hexes: list[Hex], record: Record,
             reasons: list[str], steps: list[Step]) -> None:
    """The limits on attacking again: once per phase, per turn, undivided strength, overruns, stacks."""
    made = record.attacks.get(unit.name, 0)
    if made:
        if rules.flag("combat.may_split_unit_strength"):
            steps.append(rules.cite("combat.may_split_unit_strength",
                                    f"{unit} attacked already; it may divide its strength between attacks"))
        else:
            reasons.append(f"{unit} gave its whole strength to an earlier attack this phase")
            steps.append(rules.cite("combat.may_split_unit_strength", reasons[-1]))
    _how_often(rules, "combat.attacks_per_phase", made, f"{unit} attacked", "this Combat Phase", reasons, steps,
               never=f"{unit} may not attack")
    _how_often(rules, "combat.attacks_per_turn", record.turn_attacks.get(unit.name, 0), f"{unit} attacked",
               "this player turn", reasons, steps, never=f"{unit} may not attack")
    if unit.name in record.overran:
        if rules.flag("overrun.may_also_attack_in_combat"):
            steps.append(rules.cite("overrun.may_also_attack_in_combat", f"{unit} overran and may attack again"))
        else:
            reasons.append(f"{unit} overran this turn and may not attack in the Combat Phase")
            steps.append(rules.cite("overrun.may_also_attack_in_combat", reasons[-1]))
    elsewhere = [u for u in situation.units_at(unit.hex)
                 if u.side == unit.side and u.name in record.targets and record.targets[u.name] not in hexes]
    if elsewhere:
        if rules.flag("combat.stack_may_split_attacks"):
            steps.append(rules.cite("combat.stack_may_split_attacks",
                                    f"{unit}'s stack may attack different hexes ({elsewhere[0]} attacks "
                                    f"{record.targets[elsewhere[0].name]})"))
        else:
            reasons.append(f"{elsewhere[0]}, stacked with {unit}, attacks {record.targets[elsewhere[0].name]}: "
                           "a stack may not split its attacks")
            steps.append(rules.cite("combat.stack_may_split_attacks", reasons[-1]))


def _must_also(rules: RuleSet, situation: Situation, counters: list[Counter], hexes: list[Hex],
               record: Record, steps: list[Step]) -> tuple[str, ...]:
    """The enemy units that must also be attacked this phase, when a rule makes combat compulsory."""
    side = counters[0].side
    attacked = set(record.attacked) | {u.name for h in hexes for u in situation.units_at(h)}
    found: list[str] = []
    if rules.flag("combat.all_adjacent_must_be_attacked"):
        stacks = {u.hex for u in counters}
        near = [e for e in situation.enemies_of(side) if e.name not in attacked
                and any(situation.map.adjacent(e.hex, h) for h in stacks)]
        found += [e.name for e in near if e.name not in found]
        steps.append(rules.cite("combat.all_adjacent_must_be_attacked",
                                "every enemy unit next to an attacking stack must be attacked this phase"
                                + (f": {', '.join(map(str, near))} too" if near else "")))
    if rules.flag("combat.mandatory"):
        friends = {u.hex for u in situation.friends_of(side)}
        near = [e for e in situation.enemies_of(side) if e.name not in attacked
                and any(situation.map.adjacent(e.hex, h) for h in friends)]
        found += [e.name for e in near if e.name not in found]
        steps.append(rules.cite("combat.mandatory", "units next to the enemy must attack"
                                + (f": {', '.join(map(str, near))} must be attacked too" if near else "")))
    return tuple(found)
