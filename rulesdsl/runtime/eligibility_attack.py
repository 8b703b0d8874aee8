"""Eligibility for an attack: whether units may attack a hex (or several in one attack), and which enemy units
must also be attacked this phase.

What has already happened in the phase or player turn (attacks made, hexes attacked, overruns) is the
situation's `history` (a `Record`); a caller may pass another.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

from . import effects
from .answers import Refusal, SupplyTrace, Verdict, Zones
from .eligibility_common import how_often, refuse, refused_verdict, unless_allowed
from .engagement import Judge, as_combat
from .hexmap import Hex
from .questions import Questions
from .ruleset import RuleSet, Step
from .supply import supply
from .situation import Counter, Record, Situation
from .terrain import TerrainEffectsChart

__all__ = ["may_attack"]


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
    counters = [situation.unit(a) for a in attackers]
    if not counters:
        raise ValueError("an attack needs at least one unit")
    side = counters[0].side
    hexes = [target, *[h for h in more_targets if h != target]]
    defenders = [u for h in hexes for u in situation.units_at(h) if u.side != side]
    refusals = [Refusal(f"{hex} holds no enemy unit") for hex in hexes if not situation.occupied_by_enemy(hex, side)]
    if refusals:
        return refused_verdict(refusals, steps)
    verb = "attacks" if len(counters) == 1 else "attack"
    steps.append(rules.cite_rule_of(("combat.defender_hexes_per_attack", "combat.attacks_per_phase"),
                                    f"{', '.join(map(str, counters))} {verb} {', '.join(map(str, defenders))} "
                                    f"in {', '.join(map(str, hexes))}"))
    refusals += _defender_hexes(rules, hexes, steps)

    # ---- each attacker: strength, reach and terrain ---------------------------------------------------
    zones = engine.zoc(situation, side)
    for unit in counters:
        refusals += _attacker(engine, situation, zones, unit, hexes, steps)

    # ---- the attack as a whole: a rule's effect on it (`forbid attack when attackers.attack == 0`) --------
    refusals += _effects(engine, situation, counters, defenders, hexes, steps)

    # ---- the odds: below the table, where the table's result says the attack may not be made ----------
    if judge is not None and not refusals:
        refusals += _below_the_table(rules, situation, counters, defenders, hexes, judge, forced, steps)

    # ---- what one hex may send ---------------------------------------------------------------------
    refusals += _per_hex(rules, counters, steps)

    # ---- what happened earlier ------------------------------------------------------------------------
    for unit in counters:
        refusals += _earlier(rules, situation, unit, hexes, record, steps)
    for defender in defenders:
        refusals += how_often(rules, "combat.attacks_per_phase", record.attacked.get(defender.name, 0),
                              f"{defender} was attacked", "this Combat Phase", steps,
                              never=f"{defender} may not be attacked")

    # ---- what else must be attacked -------------------------------------------------------------------
    must = _must_also(rules, situation, counters, hexes, record, steps)
    return Verdict(not refusals, tuple(refusals), None, tuple(steps), must_also_attack=must)


NO_TRACE = 10 ** 6      # attackers.supply_hexes of an attacker that traces no supply: farther than any trace


def _effects(engine: Questions, situation: Situation, counters: list[Counter], defenders: list[Counter],
             targets: list[Hex], steps: list[Step]) -> list[Refusal]:
    """A rule's effect that forbids these units this attack (core/facts.py: the facts of an attack)."""
    rules = engine.rules

    def crossed(unit: Counter) -> frozenset[str]:
        """The hexside features between the unit and the target hexes next to it."""
        return frozenset(f.lower() for t in targets if situation.map.distance(unit.hex, t) == 1
                         for f in situation.hexside_features(unit.hex, t))

    def words(units: list[Counter]) -> frozenset[str]:
        return frozenset().union(*(effects.unit_words(u) for u in units))

    traces: dict[str, SupplyTrace] = {}

    def traced(unit: Counter) -> SupplyTrace:
        """The unit's supply trace, worked out once for both facts that read it."""
        if unit.name not in traces:
            traces[unit.name] = supply(engine, situation, unit.name)
        return traces[unit.name]

    def supply_hexes() -> Fraction:
        """The longest supply trace among the attackers, in hexes; one that traces none is beyond any."""
        longest = 0
        for unit in counters:
            trace = traced(unit)
            if not trace.in_supply:
                return Fraction(NO_TRACE)
            longest = max(longest, len(trace.path) - 1 if trace.path and trace.path[0] == unit.hex else len(trace.path))
        return Fraction(longest)
    facts: effects.Facts = {
        "attackers.across": lambda: frozenset.intersection(*(crossed(u) for u in counters)),
        "attackers.crossing": lambda: frozenset().union(*(crossed(u) for u in counters)),
        "attackers.supply_hexes": supply_hexes,
        "attackers.in_supply": lambda: all(traced(u).in_supply for u in counters),
        "attackers": lambda: words(counters), "attackers.count": lambda: Fraction(len(counters)),
        "attackers.attack": lambda: sum((Fraction(u.attack) for u in counters), Fraction(0)),
        "defenders": lambda: words(defenders), "defenders.count": lambda: Fraction(len(defenders)),
        "defenders.defense": lambda: sum((Fraction(u.defense) for u in defenders), Fraction(0)),
        **effects.time_facts(rules.turn_sets, situation),
    }
    who = ", ".join(map(str, counters))
    barred = rules.forbidding("attack", facts, steps.append, f"{who} may attack")
    if barred is None:
        return []
    reason = f"{who} may not make this attack"
    return [refuse(steps, reason, rules.cite_effect(*barred, f"rule {barred[0].id}: {reason}"))]


def _defender_hexes(rules: RuleSet, hexes: list[Hex], steps: list[Step]) -> list[Refusal]:
    """How many defender hexes one attack may target."""
    most = rules.amount("combat.defender_hexes_per_attack")
    if most is not None and len(hexes) > most:
        reason = f"one attack may target at most {most} hex{'es' if most != 1 else ''}, not {len(hexes)}"
        return [refuse(steps, reason, rules.cite("combat.defender_hexes_per_attack", reason))]
    if len(hexes) > 1:
        steps.append(rules.cite("combat.defender_hexes_per_attack", f"{len(hexes)} defender hexes in one attack"))
    return []


def _attacker(engine: Questions, situation: Situation, zones: Zones, unit: Counter, hexes: list[Hex],
              steps: list[Step]) -> list[Refusal]:
    """Whether `unit` may take part: its strength, then whether it reaches the defender hexes; each rule that
    bars its reach says so, so that the refusal names every one."""
    strength = _strength(engine.rules, unit, steps)
    if strength is not None:
        return [strength]
    near = [h for h in hexes if situation.map.adjacent(unit.hex, h)]
    if not near:
        reason = f"{unit} is not next to {' or '.join(map(str, hexes))}"
        steps.append(Step(reason))
        return [Refusal(reason)]
    found, near = _in_zoc(engine, situation, zones, unit, near, steps)
    found += _enterable(engine, situation, unit, near, not found, steps)
    found += _chart_bars(engine.rules, situation, unit, near, steps)
    return found


def _strength(rules: RuleSet, unit: Counter, steps: list[Step]) -> Refusal | None:
    """A unit without an Attack Strength, or with one of 0, where the rules say it may not attack."""
    if not unit.has_attack_strength:
        name, lacks = "combat.without_attack_strength_may_attack", "has no Attack Strength"
    elif unit.attack == 0:
        name, lacks = "combat.zero_strength_may_attack", "has an Attack Strength of 0"
    else:
        return None
    if rules.flag(name):
        steps.append(rules.cite(name, f"{unit} {lacks} but may join the attack"))
        return None
    reason = f"{unit} {lacks} and may not attack"
    return refuse(steps, reason, rules.cite(name, reason))


def _in_zoc(engine: Questions, situation: Situation, zones: Zones, unit: Counter, near: list[Hex],
            steps: list[Step]) -> tuple[list[Refusal], list[Hex]]:
    """Whether `unit`'s ZOC covers a defender hex next to it, where the rules require it; (its refusal, the
    hexes it may attack)."""
    rules = engine.rules
    if not rules.flag("combat.target_must_be_in_zoc"):
        steps.append(rules.cite("combat.target_must_be_in_zoc", f"{unit} is next to {near[0]}"))
        return [], near
    covered = [h for h in near if _zoc_covers(engine, situation, zones, unit, h)]
    if not covered:
        reason = f"{unit}'s ZOC does not cover {' or '.join(map(str, near))}"
        return [refuse(steps, reason, rules.cite("combat.target_must_be_in_zoc", reason))], near
    steps.append(rules.cite("combat.target_must_be_in_zoc", f"{unit}'s ZOC covers {covered[0]}"))
    return [], covered


def _enterable(engine: Questions, situation: Situation, unit: Counter, near: list[Hex], say_open: bool,
               steps: list[Step]) -> list[Refusal]:
    """Whether `unit` could move into a defender hex, where the rules allow attacks only into enterable
    terrain; `say_open`: a step says so when it could (not when another rule bars the unit already)."""
    rules = engine.rules
    if not rules.flag("combat.only_into_enterable_terrain"):
        return []
    open_ = [h for h in near if engine.entry_cost(situation, unit, unit.hex, h) is not None]
    if not open_:
        reason = f"{unit} could not move into {' or '.join(map(str, near))}, so may not attack it"
        return [refuse(steps, reason, rules.cite("combat.only_into_enterable_terrain", reason))]
    if say_open:
        steps.append(rules.cite("combat.only_into_enterable_terrain", f"{unit} could move into {open_[0]}"))
    return []


def _chart_bars(rules: RuleSet, situation: Situation, unit: Counter, near: list[Hex],
                steps: list[Step]) -> list[Refusal]:
    """A combat cell P: the chart itself prohibits the attack, as resolve_combat says (P in one of the hex's
    terrains, or in a hexside crossed; a bridge negates)."""
    chart = rules.terrain
    if chart is None or not all(_chart_prohibits(chart, situation.terrain_at(h),
                                                 situation.hexside_features(unit.hex, h)) for h in near):
        return []
    reason = f"the Terrain Effects Chart prohibits {unit}'s attack on {' or '.join(map(str, near))}"
    return [refuse(steps, reason, rules.cite_chart(reason))]


def _chart_prohibits(chart: TerrainEffectsChart, terrain: tuple[str, ...], hexsides: tuple[str, ...]) -> bool:
    """Whether the chart's combat cells prohibit attacking into `terrain` across `hexsides`; a name the chart
    does not have prohibits nothing (the situation's terrain is checked where it is written)."""
    try:
        return chart.attack_factor(terrain, hexsides) is None
    except KeyError:
        return False


def _below_the_table(rules: RuleSet, situation: Situation, counters: list[Counter], defenders: list[Counter],
                     hexes: list[Hex], judge: Judge, forced: bool, steps: list[Step]) -> list[Refusal]:
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
            return []
        may_force = required.refused is None
        if forced and may_force:
            steps.append(rules.cite_rule_of(cited, f"{voluntary.refused}: a voluntary attack would not be allowed; "
                                                   "this one is forced, and reads the table's forced result"))
            continue
        reason = f"{voluntary.refused}: the attack is not allowed"
        return [refuse(steps, reason, rules.cite_rule_of(cited, reason + ("; only a forced attack may be made there"
                                                                          if may_force else "")))]
    return []


def _per_hex(rules: RuleSet, counters: list[Counter], steps: list[Step]) -> list[Refusal]:
    """The limits on what one hex may put into an attack: parent (formation) units and artillery, by the
    counter's `parent` and `artillery` words, and units marked over the stacking limit."""
    found: list[Refusal] = []
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
                reason = f"{count} {what} attack from {hex}: at most {most} may"
                found.append(refuse(steps, reason, rules.cite(name, reason)))
            else:
                steps.append(rules.cite(name, f"{count} of the {what} that may attack from {hex}"
                                        if most is not None else f"{count} {what} from {hex}: no limit"))
        over = [u for u in units if "overstacked" in u.states]
        if over:
            named = ", ".join(map(str, over))
            found.extend(unless_allowed(rules, "stacking.overstacked_units_fight", steps,
                                        f"{named} over the stacking limit in {hex} add nothing to an attack",
                                        f"{named} over the stacking limit may still attack"))
    return found


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


def _earlier(rules: RuleSet, situation: Situation, unit: Counter, hexes: list[Hex], record: Record,
             steps: list[Step]) -> list[Refusal]:
    """The limits on attacking again: once per phase, per turn, undivided strength, overruns, stacks."""
    found: list[Refusal] = []
    made = record.attacks.get(unit.name, 0)
    if made:
        if rules.flag("combat.may_split_unit_strength"):
            steps.append(rules.cite("combat.may_split_unit_strength",
                                    f"{unit} attacked already; it may divide its strength between attacks"))
        else:
            reason = f"{unit} gave its whole strength to an earlier attack this phase"
            found.append(refuse(steps, reason, rules.cite("combat.may_split_unit_strength", reason)))
    found += how_often(rules, "combat.attacks_per_phase", made, f"{unit} attacked", "this Combat Phase", steps,
                       never=f"{unit} may not attack")
    found += how_often(rules, "combat.attacks_per_turn", record.turn_attacks.get(unit.name, 0), f"{unit} attacked",
                       "this player turn", steps, never=f"{unit} may not attack")
    if unit.name in record.overran:
        if rules.flag("overrun.may_also_attack_in_combat"):
            steps.append(rules.cite("overrun.may_also_attack_in_combat", f"{unit} overran and may attack again"))
        else:
            reason = f"{unit} overran this turn and may not attack in the Combat Phase"
            found.append(refuse(steps, reason, rules.cite("overrun.may_also_attack_in_combat", reason)))
    elsewhere = [u for u in situation.units_at(unit.hex)
                 if u.side == unit.side and u.name in record.targets and record.targets[u.name] not in hexes]
    if elsewhere:
        if rules.flag("combat.stack_may_split_attacks"):
            steps.append(rules.cite("combat.stack_may_split_attacks",
                                    f"{unit}'s stack may attack different hexes ({elsewhere[0]} attacks "
                                    f"{record.targets[elsewhere[0].name]})"))
        else:
            reason = (f"{elsewhere[0]}, stacked with {unit}, attacks {record.targets[elsewhere[0].name]}: "
                      "a stack may not split its attacks")
            found.append(refuse(steps, reason, rules.cite("combat.stack_may_split_attacks", reason)))
    return found


def _must_also(rules: RuleSet, situation: Situation, counters: list[Counter], hexes: list[Hex],
               record: Record, steps: list[Step]) -> tuple[str, ...]:
    """The enemy units that must also be attacked this phase, when a rule makes combat compulsory: each enemy
    unit next to a unit the rule obliges (an attacking stack's, or every friendly unit's), unless a rule's
    effect releases that unit from that enemy (`exempt must-attack when hex is town and hex.level >
    enemy.hex.level`)."""
    side = counters[0].side
    attacked = set(record.attacked) | {u.name for h in hexes for u in situation.units_at(h)}
    found: list[str] = []
    released: list[Step] = []
    for name, obliged, said in (
            ("combat.all_adjacent_must_be_attacked", counters,
             "every enemy unit next to an attacking stack must be attacked this phase"),
            ("combat.mandatory", situation.friends_of(side), "units next to the enemy must attack")):
        if not rules.flag(name):
            continue
        near = [e for e in situation.enemies_of(side) if e.name not in attacked
                and any(_obliged(rules, situation, u, e, released) for u in obliged
                        if situation.map.adjacent(e.hex, u.hex))]
        found += [e.name for e in near if e.name not in found]
        also = "too" if name == "combat.all_adjacent_must_be_attacked" else "must be attacked too"
        steps.append(rules.cite(name, said + (f": {', '.join(map(str, near))} {also}" if near else "")))
    steps += released
    return tuple(found)


def _obliged(rules: RuleSet, situation: Situation, unit: Counter, enemy: Counter, log: list[Step]) -> bool:
    """Whether `unit` must attack the adjacent `enemy`: yes, unless a rule's effect on `must-attack` releases
    it (an `allow` then holds it to the attack all the same)."""
    if not rules.effects_on("must-attack"):
        return True
    facts: effects.Facts = {**effects.unit_facts(unit), **effects.time_facts(rules.turn_sets, situation),
                            "hex": lambda: effects.hex_words(situation, unit.hex),
                            "hex.level": lambda: effects.hex_level(rules.terrain, situation, unit.hex),
                            "enemy": lambda: effects.unit_words(enemy),
                            "enemy.hex": lambda: effects.hex_words(situation, enemy.hex),
                            "enemy.hex.level": lambda: effects.hex_level(rules.terrain, situation, enemy.hex)}
    found = rules.forbidding("must-attack", facts, log.append, f"{unit} must attack {enemy} all the same")
    if found is None:
        return True
    step = rules.cite_effect(*found, f"rule {found[0].id}: {unit} need not attack {enemy}")
    if step not in log:
        log.append(step)
    return False
