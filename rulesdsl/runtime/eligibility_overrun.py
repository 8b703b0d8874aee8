"""Eligibility for an overrun: whether a stack may overrun a hex, from where, and what it costs.

What has already happened in the phase or player turn (overruns made, attacks made) is the situation's
`history` (a `Record`); a caller may pass another.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

from . import stacking
from .answers import Refusal, Verdict
from .eligibility_common import EXPLOIT, OUT_OF_SUPPLY, how_often, refuse, refused_verdict, unless_allowed
from .eligibility_exploit import may_exploit
from .hexmap import Hex, Hexside
from .questions import Questions
from .ruleset import RuleSet, Step
from .situation import Counter, Record, Situation

__all__ = ["may_overrun"]


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
    refusals: list[Refusal] = []
    counters = [situation.unit(u) for u in units]
    if not counters:
        raise ValueError("an overrun needs at least one unit")
    side = counters[0].side
    names = ", ".join(str(u) for u in counters)

    # ---- the target ---------------------------------------------------------------------------------
    defenders = [u for u in situation.units_at(target) if u.side != side]
    if not defenders:
        return refused_verdict([Refusal(f"{target} holds no enemy unit")], steps)
    steps.append(rules.cite_rule_of("overrun.cost", f"{names} overrun {', '.join(str(u) for u in defenders)} in "
                                                    f"{target} from {from_hex}"))
    attack_hex = _overrun_hex(rules, from_hex, target, steps)
    if not situation.map.adjacent(from_hex, target):
        return refused_verdict([Refusal(f"{from_hex} is not next to {target}")], steps)

    # ---- who may overrun ----------------------------------------------------------------------------
    refusals += _overrun_who(rules, counters, names, steps)
    refusals += _overrun_reacting(rules, situation, reacting, steps)
    refusals += _overrun_exploiting(engine, situation, counters, steps)
    refusals += _overrun_supply(rules, counters, steps)

    # ---- where the stack began the phase ------------------------------------------------------------
    base = _at_start(situation, counters)
    starts: dict[Hex, list[Counter]] = {}
    for unit in counters:
        starts.setdefault(situation.start_of(unit), []).append(unit)
    refusals += _overrun_starts(rules, starts, names, steps)
    refusals += _overrun_from_ezoc(engine, base, side, starts, steps)

    # ---- how often ----------------------------------------------------------------------------------
    refusals += _overrun_how_often(rules, counters, names, target, record, steps)

    # ---- the target hex's cost ----------------------------------------------------------------------
    target_cost = _target_cost(engine, situation, counters, from_hex, target, steps)
    refusals += _overrun_target_cost(rules, from_hex, target, target_cost, steps)

    # ---- the target's terrain: what may not be overrun at all ---------------------------------------
    refusals += _barred_terrain(rules, situation, side, from_hex, target, steps)

    # ---- the move there, and what the overrun costs -------------------------------------------------
    # in the Exploitation Phase the overrun's own rule says who may make it (6.1a, above): its move is not
    # barred again by the rule on who moves in that phase, which the engine's `move` applies
    route = replace(base, phase="movement") if base.phase == "exploitation" else base
    priced = [_route(engine, route, unit, from_hex, path) for unit in counters]
    refusals += [Refusal(why) for why, *_rest in priced if why is not None]
    if any(p[0] is not None for p in priced):
        return refused_verdict(refusals, steps)
    cost, need = _overrun_cost(rules, counters, priced, from_hex, target, attack_hex, target_cost, steps)
    remaining, short = _overrun_allowance(rules, counters, priced, need, steps)
    refusals += short

    # ---- stacking where the attack is made ----------------------------------------------------------
    refusals += _overrun_stacking(rules, situation, units, attack_hex, steps)

    if refusals:
        return refused_verdict(refusals, steps, cost=cost, total=need)
    return _overrun_made(rules, cost, need, remaining, steps)


def _overrun_made(rules: RuleSet, cost: Fraction, need: Fraction, remaining: Fraction | None,
                  steps: list[Step]) -> Verdict:
    """The verdict allowing the overrun: what it costs, and the MPs the units have left after it (none where
    `overrun.ends_movement` says it ends their movement)."""
    if rules.flag("overrun.ends_movement"):
        steps.append(rules.cite("overrun.ends_movement", "the overrun ends the units' movement"))
        remaining = Fraction(0)
    else:
        steps.append(rules.cite("overrun.ends_movement",
                                f"the units may move on with {remaining} MP after the overrun"))
    return Verdict(True, (), cost, tuple(steps), total=need, remaining=remaining)


def _overrun_hex(rules: RuleSet, from_hex: Hex, target: Hex, steps: list[Step]) -> Hex:
    """The hex the overrunning units attack from: `from_hex`, or inside the target."""
    if rules.flag("overrun.from_adjacent_hex"):
        steps.append(rules.cite("overrun.from_adjacent_hex",
                                f"the overrun is made from {from_hex}, next to the target"))
        return from_hex
    steps.append(rules.cite("overrun.from_adjacent_hex",
                            f"the overrunning units attack from inside {target}, entering it from {from_hex}"))
    return target


def _overrun_who(rules: RuleSet, counters: list[Counter], names: str, steps: list[Step]) -> list[Refusal]:
    """Who may overrun: any unit, or exploit-capable ones only."""
    if rules.word("overrun.who") != "exploit-capable":
        steps.append(rules.cite("overrun.who", "any unit may overrun"))
        return []
    lacking = [u for u in counters if EXPLOIT not in u.capabilities]
    if not lacking:
        steps.append(rules.cite("overrun.who", f"only exploit-capable units overrun: {names} are"))
        return []
    reason = f"only exploit-capable units overrun: {', '.join(map(str, lacking))} has no yellow box"
    return [refuse(steps, reason, rules.cite("overrun.who", reason))]


def _overrun_reacting(rules: RuleSet, situation: Situation, reacting: bool | None,
                      steps: list[Step]) -> list[Refusal]:
    """A reaction move's overrun (by default in the reaction phase)."""
    if not (situation.phase == "reaction" if reacting is None else reacting):
        return []
    if rules.flag("reaction.may_overrun"):
        steps.append(rules.cite("reaction.may_overrun", "reacting units may overrun"))
        return []
    reason = "reacting units may not overrun"
    return [refuse(steps, reason, rules.cite("reaction.may_overrun", reason))]


def _overrun_exploiting(engine: Questions, situation: Situation, counters: list[Counter],
                        steps: list[Step]) -> list[Refusal]:
    """An overrun in the Exploitation Phase: by the units that may move in it, where the rules say so."""
    rules = engine.rules
    if situation.phase != "exploitation":
        return []
    if not rules.flag("overrun.exploitation_requires_eligibility"):
        steps.append(rules.cite("overrun.exploitation_requires_eligibility",
                                "overruns in the Exploitation Phase are not limited to exploiting units"))
        return []
    found: list[Refusal] = []
    for unit in counters:
        verdict = may_exploit(engine, situation, unit.name)
        if verdict.allowed:
            steps.append(rules.cite("overrun.exploitation_requires_eligibility",
                                    f"{unit} may move in the Exploitation Phase"))
        else:
            reason = f"{unit} may not move in the Exploitation Phase, so may not overrun in it"
            found.append(refuse(steps, reason, rules.cite("overrun.exploitation_requires_eligibility", reason)))
        steps.extend(verdict.steps)
    return found


def _overrun_supply(rules: RuleSet, counters: list[Counter], steps: list[Step]) -> list[Refusal]:
    """The out-of-supply units among the overrunning ones."""
    found: list[Refusal] = []
    for unit in counters:
        if OUT_OF_SUPPLY not in unit.states:
            continue
        found.extend(unless_allowed(rules, "overrun.out_of_supply_allowed", steps,
                                    f"{unit} is out of supply and may not overrun",
                                    f"{unit} is out of supply, which does not bar an overrun"))
    return found


def _overrun_starts(rules: RuleSet, starts: dict[Hex, list[Counter]], names: str,
                    steps: list[Step]) -> list[Refusal]:
    """Whether the units began their move stacked, and how many stacks take part."""
    found: list[Refusal] = []
    if len(starts) > 1:
        if rules.flag("overrun.stack_must_start_together"):
            reason = f"{names} did not begin their move stacked"
            found.append(refuse(steps, reason, rules.cite("overrun.stack_must_start_together", reason)))
        else:
            steps.append(rules.cite("overrun.stack_must_start_together",
                                    f"{names} began apart, which the rules allow"))
    most = rules.amount("overrun.max_stacks")
    if most is not None:
        if len(starts) > most:
            reason = f"{len(starts)} stacks take part, more than {most}"
            found.append(refuse(steps, reason, rules.cite("overrun.max_stacks", reason)))
        else:
            steps.append(rules.cite("overrun.max_stacks", f"{len(starts)} stack(s) take part, at most {most}"))
    return found


def _overrun_from_ezoc(engine: Questions, base: Situation, side: str, starts: dict[Hex, list[Counter]],
                       steps: list[Step]) -> list[Refusal]:
    """The stacks that began the phase in an enemy ZOC."""
    rules = engine.rules
    ezoc_start = engine.enemy_zoc(base, side)
    found: list[Refusal] = []
    for start, group in starts.items():
        if start not in ezoc_start:
            steps.append(rules.cite_rule_of("overrun.allowed_from_ezoc", f"{', '.join(map(str, group))} began the "
                                                                         f"phase in {start}, in no enemy ZOC"))
        elif rules.flag("overrun.allowed_from_ezoc"):
            steps.append(rules.cite("overrun.allowed_from_ezoc",
                                    f"{', '.join(map(str, group))} began the phase in an enemy ZOC ({start}), "
                                    "which does not bar an overrun"))
        else:
            reason = f"{', '.join(map(str, group))} began the phase in an enemy ZOC ({start})"
            found.append(refuse(steps, reason, rules.cite("overrun.allowed_from_ezoc", reason + ": no overrun")))
    return found


def _overrun_how_often(rules: RuleSet, counters: list[Counter], names: str, target: Hex, record: Record,
                       steps: list[Step]) -> list[Refusal]:
    """The limits on overruns made earlier: per phase, ending movement, attacks per turn, per target."""
    made = max(record.overruns.get(u.name, 0) for u in counters)
    found = how_often(rules, "overrun.per_phase", made, f"{names} overran", "this phase", steps,
                      never=f"{names} may not overrun")
    if made:
        if rules.flag("overrun.ends_movement"):
            reason = f"{names} overran already, and an overrun ends the units' movement"
            found.append(refuse(steps, reason, rules.cite("overrun.ends_movement", reason)))
        else:
            steps.append(rules.cite("overrun.ends_movement", "an earlier overrun did not end their movement"))
    for unit in counters:     # an overrun is one of the attacks a unit may make in a player turn
        found += how_often(rules, "combat.attacks_per_turn", record.turn_attacks.get(unit.name, 0),
                           f"{unit} attacked", "this player turn", steps, never=f"{unit} may not attack")
    found += how_often(rules, "overrun.per_target_per_phase", record.overrun_targets.get(target, 0),
                       f"{target} was overrun", "this phase", steps, never=f"{target} may not be overrun")
    return found


def _overrun_target_cost(rules: RuleSet, from_hex: Hex, target: Hex, target_cost: Fraction | None,
                         steps: list[Step]) -> list[Refusal]:
    """The target hex's cost against `overrun.max_target_cost`; a target regular movement may not enter."""
    if target_cost is None:
        return [Refusal(f"{target} could not be entered from {from_hex} in regular movement")]
    limit = rules.amount("overrun.max_target_cost")
    if limit is None:
        steps.append(rules.cite("overrun.max_target_cost", "no limit on the target hex's cost"))
    elif target_cost > limit:
        reason = f"{target} costs {target_cost} MP to enter, more than the {limit} MP an overrun allows"
        return [refuse(steps, reason, rules.cite("overrun.max_target_cost", reason))]
    else:
        steps.append(rules.cite("overrun.max_target_cost", f"{target} costs {target_cost} MP, within {limit} MP"))
    return []


_Priced = tuple[str | None, Fraction, Fraction, Fraction, int, tuple[Step, ...]]


def _overrun_cost(rules: RuleSet, counters: list[Counter], priced: list[_Priced], from_hex: Hex, target: Hex,
                  attack_hex: Hex, target_cost: Fraction | None, steps: list[Step]) -> tuple[Fraction, Fraction]:
    """(the MPs spent in `from_hex`, the MPs in all) for the stack's moves there and the overrun."""
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
    return cost, need


def _overrun_allowance(rules: RuleSet, counters: list[Counter], priced: list[_Priced], need: Fraction,
                       steps: list[Step]) -> tuple[Fraction | None, list[Refusal]]:
    """(the least MPs any unit has left after the overrun, the units that lack the MPs for it)."""
    remaining: Fraction | None = None
    found: list[Refusal] = []
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
            reason = f"{unit} would need {need} MP of its {allowance}, and the minimum move may not be used to overrun"
            found.append(refuse(steps, reason, rules.cite("movement.minimum_move_may_overrun", reason)))
        else:
            found.append(Refusal(f"{unit} would need {need} MP of its {allowance}"))
    return remaining, found


def _overrun_stacking(rules: RuleSet, situation: Situation, units: tuple[str, ...], attack_hex: Hex,
                      steps: list[Step]) -> list[Refusal]:
    """The stacking limit in the hex the overrun is made from, at the overrun."""
    after = situation.moved(units, attack_hex)
    check = stacking.stack(rules, after, attack_hex, moment="overrun", overrunning=units)
    steps.extend(check.steps)
    if not check.legal and check.over > 0:
        reason = f"{check.size} {check.unit}s in {attack_hex} at the overrun is over the limit of {check.limit}"
        # the limit's own refusal, made last by stacking.stack: it carries the rule of the limit broken
        return [replace(check.refusals[-1], reason=reason) if check.refusals else Refusal(reason)]
    return []


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
    """`_route`'s answer for a unit given no path whose start is not next to `from_hex`: the cheapest move
    there (`reachable` to a neighbour, then the step into `from_hex`)."""
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
                    steps: list[Step]) -> list[Refusal]:
    """The terrain an overrun may not target or cross (`no-overrun` in the TEC: New SCS's swamp, major river
    and escarpment) and the target's terrain shifting the column further left than `overrun.max_target_shift`
    allows (New SCS: no overrun against terrain that shifts two columns left)."""
    chart = rules.terrain
    if chart is None:
        return []
    found: list[Refusal] = []
    names = [n for n in situation.terrain_at(target) if n in chart]
    for name in names:
        if chart[name].no_overrun:
            reason = f"{target} is {name}, which may not be overrun"
            found.append(refuse(steps, reason, rules.cite_rule_of(_TARGET_RULE, reason)))
    for name in situation.hexside_features(from_hex, target):
        if name in chart and chart[name].no_overrun:
            reason = f"no overrun across the {name} between {from_hex} and {target}"
            found.append(refuse(steps, reason, rules.cite_rule_of(_TARGET_RULE, reason)))
    hexes = [n for n in names if chart[n].kind == "hex"]
    if not hexes:
        return found
    defenders = [u.side for u in situation.units_at(target) if u.side != side]
    fought = chart.for_sides(side, defenders[0]) if defenders else chart
    combination = rules.parameters.get("combat.terrain_combination")    # the combat module's, not the engine's
    try:
        shift = fought.hex_effect(tuple(hexes), str(combination.value) if combination is not None else
                                  "cumulative").shift
    except ValueError:   # terrain the chart says nothing of for combat here: no shift to judge
        return found
    if shift >= 0:
        return found
    most = rules.amount("overrun.max_target_shift")
    if most is not None and -shift > most:
        reason = f"{target}'s terrain shifts the column {-shift} left, more than the {most} an overrun allows"
        found.append(refuse(steps, reason, rules.cite("overrun.max_target_shift", reason)))
    else:
        steps.append(rules.cite("overrun.max_target_shift", f"{target}'s terrain shifts the column {-shift} left: "
                                + ("no limit" if most is None else f"within {most}")))
    return found


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
