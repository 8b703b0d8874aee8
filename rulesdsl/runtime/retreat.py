"""Retreats after combat (paths and the steps they cost) and advances after combat.

A retreat of a stack by N: the hexes refused (turned into step losses) first, then the legal paths of the
rest.  A path never enters a hex prohibited to the units (the TEC), a hex holding enemy units, the same hex
twice or the hex it started from; it stays on the map (a stack that must go further from a map-edge hex is
destroyed where leaving the map destroys, else that hex is blocked).  The paths open are then narrowed by
`retreat.hex_priority` (the kind of hex entered, hex by hex) and by `retreat.path`, in its order:
`away-from-combat` (each hex farther from the combat hex than the last), `avoid-ezoc` (fewest hexes in enemy
ZOCs; ranked only, not required, when `retreat.ezoc_avoidance_optional`) and `toward-supply` (ends nearer the
side's nearest source than the combat hex).  The loss is that of the best path: the EZOC hexes entered, the
hexes that could not be made (blocked) and the hexes refused.  Where `retreat.chosen_by = enemy`, the enemy
picks among the paths open, and the best path is the one that costs the owner the most steps.

An advance after combat: how many hexes each victorious unit may go, and the hexes it may reach.

Unbridged rivers: a hexside feature prohibited to movement that no other feature of the hexside negates.
Where a rulebook sets `retreat.heavy_units_cross_unbridged_rivers` (or `advance.armor_across_unbridged_rivers`),
it says that other units may cross such hexsides in a retreat (an advance); where it does not, such a
hexside is as prohibited in a retreat (advance) as in movement.  Heavy units: the `armored` and `artillery`
capabilities (`armored` alone for the advance).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from math import ceil

from . import effects
from .answers import Advance, Retreat
from .hexmap import Direction, Hex
from .ruleset import RuleSet, Step, unique_steps
from .situation import Counter, Situation
from .supply import prohibited_hex, prohibited_hexside
from .questions import Questions

__all__ = ["advance", "retreat"]

HEAVY = ("armored", "artillery")
OFF_MAP = "off the map"


# ---- retreat ------------------------------------------------------------------------------------------------
@dataclass
class _Search:
    """What one retreat search needs: the engine, the situation, the stack, and the steps so far."""

    engine: Questions
    situation: Situation
    stack: tuple[Counter, ...]
    origin: Hex
    steps: list[Step]
    ezoc: set[Hex]
    attackers: tuple[Hex, ...] = ()
    victor_chooses: bool = False    # a breakthrough where the winner picks the path (breakthrough.victor_chooses_retreat)

    @property
    def rules(self) -> RuleSet:
        return self.engine.rules

    @property
    def side(self) -> str:
        return self.stack[0].side


def retreat(engine: Questions, situation: Situation, units: tuple[str, ...], hexes: int, *,
            attackers: tuple[str, ...] = (), refuse: int = 0, breakthrough: bool = False) -> Retreat:
    answer = _retreat(engine, situation, units, hexes, attackers=attackers, refuse=refuse, breakthrough=breakthrough)
    if len(answer.units) < 2 or not any(answer.paths) or answer.eliminated or answer.split:
        return answer
    rules = engine.rules
    apart = rules.flag("retreat.may_split")
    step = rules.cite("retreat.may_split", "the units may part, each taking any of these paths" if apart else
                      "the stack retreats together, along a path all its units may take")
    return replace(answer, apart=apart, steps=unique_steps((*answer.steps, step)))


def _retreat(engine: Questions, situation: Situation, units: tuple[str, ...], hexes: int, *,
             attackers: tuple[str, ...], refuse: int, breakthrough: bool) -> Retreat:
    rules = engine.rules
    if not units:
        raise ValueError("a retreat needs at least one unit")
    stack = tuple(situation.unit(u) for u in units)
    origin = stack[0].hex
    if any(u.hex != origin for u in stack):
        raise ValueError(f"the retreating units are not in one hex: {', '.join(f'{u} in {u.hex}' for u in stack)}")
    steps: list[Step] = []
    others = tuple(u for u in situation.units_at(origin) if u.side == stack[0].side and u not in stack)
    if others:
        if rules.flag("retreat.whole_side"):
            stack += others
            steps.append(rules.cite("retreat.whole_side", "every unit of the side in the combat retreats: "
                                    f"{', '.join(u.name for u in others)} too"))
        else:
            steps.append(rules.cite("retreat.whole_side", f"only {', '.join(units)} retreat; "
                                    f"{', '.join(u.name for u in others)} stay"))
    names = tuple(u.name for u in stack)
    strength = sum(u.steps for u in stack)
    if hexes <= 0:
        return Retreat(names, hexes, ((),), 0, False, unique_steps(steps))
    if hexes == 1 and _close_terrain(rules, situation, stack, attackers, steps):
        return Retreat(names, hexes, ((),), 0, False, unique_steps(steps), ignored=True)
    victor_chooses = False
    if breakthrough:
        refuse, victor_chooses = _breakthrough(rules, refuse, steps)
    refused, refusal_loss = _refusal(rules, stack, hexes, refuse, steps)
    remaining = hexes - refused
    search = _Search(engine, situation, stack, origin, steps, engine.enemy_zoc(situation, stack[0].side),
                     tuple(situation.unit(a).hex for a in attackers), victor_chooses)
    if remaining == 0:
        return _result(search, names, hexes, ((),), refusal_loss, refused, 0, strength)
    answer = _stack_retreat(search, remaining)
    if answer.blocked and len(stack) > 1:
        split = _split(search, remaining, answer)
        if split is not None:
            loss = refusal_loss + sum(r.loss for r in split)
            eliminated = all(r.eliminated for r in split)
            return Retreat(names, hexes, answer.paths, loss, eliminated, unique_steps(steps), refused=refused,
                           blocked=answer.blocked, split=split)
    return _result(search, names, hexes, answer.paths, refusal_loss + answer.loss, refused, answer.blocked,
                   strength, off_map=answer.off_map)


@dataclass(frozen=True)
class _Outcome:
    paths: tuple[tuple[Hex, ...], ...]
    loss: int
    blocked: int
    off_map: bool


def _result(search: _Search, names: tuple[str, ...], hexes: int, paths: tuple[tuple[Hex, ...], ...], loss: int,
            refused: int, blocked: int, strength: int, *, off_map: bool = False) -> Retreat:
    eliminated = off_map or loss >= strength
    if loss >= strength and not off_map:
        search.steps.append(search.rules.cite_rule_of("retreat.blocked_step_loss",
                                                      f"{_n(loss, 'step')} lost of the stack's {strength}: eliminated"))
    return Retreat(names, hexes, paths, loss, eliminated, unique_steps(search.steps), refused=refused, blocked=blocked,
                   off_map=off_map)


def _close_terrain(rules: RuleSet, situation: Situation, stack: tuple[Counter, ...], attackers: tuple[str, ...],
                   steps: list[Step]) -> bool:
    """Whether the stack, a defender in the terrain of the strongest shift on the TEC, ignores a one-hex retreat."""
    chart = rules.terrain
    side = stack[0].side
    defending = bool(attackers) if not situation.phasing else side != situation.phasing
    if chart is None or not defending:
        return False
    shifts = [row.combat.shift for row in chart.rows if row.kind == "hex"]
    strongest = min(shifts, default=0)
    here = [chart[n].combat.shift for n in situation.terrain_at(stack[0].hex) if n in chart and chart[n].kind == "hex"]
    if strongest >= 0 or min(here, default=0) != strongest:
        return False
    if rules.flag("retreat.close_terrain_ignores_one_hex"):
        steps.append(rules.cite("retreat.close_terrain_ignores_one_hex",
                                f"the defender is in terrain of the strongest shift ({strongest}): it ignores a "
                                "one-hex retreat"))
        return True
    steps.append(rules.cite("retreat.close_terrain_ignores_one_hex",
                            "terrain does not let the defender ignore a one-hex retreat"))
    return False


def _breakthrough(rules: RuleSet, refuse: int, steps: list[Step]) -> tuple[int, bool]:
    """A breakthrough's retreat: the hexes the loser may still refuse (none where
    `breakthrough.retreat_refusal_allowed` is no) and whether the winner picks the path."""
    if refuse and rules.value("breakthrough.retreat_refusal_allowed") is False:
        steps.append(rules.cite("breakthrough.retreat_refusal_allowed",
                                f"a breakthrough: no retreat hex may be refused, the {_n(refuse, 'hex')} refused are retreated"))
        refuse = 0
    chooses = rules.flag("breakthrough.victor_chooses_retreat")
    if chooses:
        steps.append(rules.cite("breakthrough.victor_chooses_retreat", "a breakthrough: the winner picks the retreat path"))
    return refuse, chooses


def _refusal(rules: RuleSet, stack: tuple[Counter, ...], hexes: int, refuse: int,
             steps: list[Step]) -> tuple[int, int]:
    """The hexes refused and the steps they cost."""
    refuse = max(0, min(refuse, hexes))
    if refuse == 0:
        return 0, 0
    per_hex = rules.amount("retreat.step_per_hex_refused")
    if per_hex is None:
        steps.append(rules.cite("retreat.step_per_hex_refused", "a retreat may not be turned into step losses"))
        return 0, 0
    if refuse < hexes and not rules.flag("retreat.partial_refusal"):
        steps.append(rules.cite("retreat.partial_refusal",
                                f"only the whole retreat may be refused, not {refuse} of its {_n(hexes, 'hex')}"))
        return 0, 0
    if refuse < hexes:
        steps.append(rules.cite("retreat.partial_refusal", f"{refuse} of the {_n(hexes, 'hex')} refused"))
    loss = int(ceil(per_hex * refuse))
    steps.append(rules.cite("retreat.step_per_hex_refused", f"{_n(refuse, 'hex')} refused: {_n(loss, 'step')} lost"))
    return refuse, loss


def _stack_retreat(search: _Search, remaining: int) -> _Outcome:
    paths, blocked, off_map = _paths(search, remaining)
    rules, steps = search.rules, search.steps
    if off_map:
        steps.append(rules.cite("map.leaving_map_destroys", "the retreat must leave the map: the stack is destroyed"))
        return _Outcome((), 0, blocked, True)
    loss = _ezoc_loss(search, paths[0]) if paths and paths[0] else 0
    if blocked:
        loss += _blocked_loss(search, blocked)
    return _Outcome(tuple(p for p in paths if p), loss, blocked, False)


def _blocked_loss(search: _Search, blocked: int) -> int:
    """The steps a retreat `blocked` hexes short costs: `retreat.blocked_step_loss` per hex not made, once or
    by each unit; but a unit a rule exempts (`exempt retreat-blocked when ...`) pays none, and a unit a rule
    eliminates (`eliminate retreat-blocked when ...`) loses all its steps."""
    rules, steps = search.rules, search.steps
    paying: tuple[Counter, ...] = search.stack
    doomed: list[Counter] = []
    if rules.effects_on("retreat-blocked"):
        when = effects.time_facts(rules.turn_sets, search.situation)
        payers = []
        for unit in search.stack:
            verdict = _judged(search, "retreat-blocked", unit, {**effects.unit_facts(unit), **when},
                              pays="pays the blocked loss", spared="loses no step for the blocked retreat",
                              eliminated="'s retreat is blocked: it is eliminated")
            if verdict == "pays":
                payers.append(unit)
            elif verdict == "eliminated":
                doomed.append(unit)
        paying = tuple(payers)
    loss = sum(u.steps for u in doomed)
    if not paying:
        return loss
    per_hex = rules.amount("retreat.blocked_step_loss")
    if per_hex is None:
        steps.append(rules.cite("retreat.blocked_step_loss", f"{_n(blocked, 'retreat hex')} not made, at no loss"))
        return loss
    per_unit = rules.flag("retreat.blocked_loss_per_unit")
    many = len(paying) if per_unit else 1
    lost = int(ceil(per_hex * blocked)) * many
    steps.append(rules.cite("retreat.blocked_loss_per_unit",
                            f"the blocked loss is taken by each unit ({many})" if per_unit else
                            "the blocked loss is taken once by the stack"))
    steps.append(rules.cite("retreat.blocked_step_loss",
                            f"{_n(blocked, 'retreat hex')} not made: {_n(lost, 'step')} lost"))
    return loss + lost


def _split(search: _Search, remaining: int, whole: _Outcome) -> tuple[Retreat, ...] | None:
    """When the stack cannot make its retreat together, its units that could go apart, where they may."""
    rules = search.rules
    heavy = tuple(u for u in search.stack if any(u.can(c) for c in HEAVY))
    light = tuple(u for u in search.stack if u not in heavy)
    if not heavy or not light:
        return None
    if not rules.flag("retreat.may_split"):
        search.steps.append(rules.cite("retreat.may_split", "the stack retreats together, along a path all its units "
                                       "may take"))
        return None
    search.steps.append(rules.cite("retreat.may_split", "the units may take separate paths: "
                                   f"{', '.join(u.name for u in light)} apart from {', '.join(u.name for u in heavy)}"))
    parts = []
    for group in (light, heavy):
        sub = _Search(search.engine, search.situation, group, search.origin, search.steps, search.ezoc,
                      search.attackers)
        outcome = _stack_retreat(sub, remaining)
        parts.append(_result(sub, tuple(u.name for u in group), remaining, outcome.paths, outcome.loss, 0,
                             outcome.blocked, sum(u.steps for u in group), off_map=outcome.off_map))
    if sum(p.loss for p in parts) >= whole.loss and not any(p.paths and p.paths[0] for p in parts):
        return None
    return tuple(parts)


def _may_enter(search: _Search, here: Hex, there: Hex) -> bool:
    """Whether every unit of the stack may retreat from `here` into the adjacent `there`."""
    situation, rules = search.situation, search.rules
    if situation.occupied_by_enemy(there, search.side):
        return False
    for unit in search.stack:
        if search.engine.entry_cost(situation, unit, here, there) is not None:
            continue
        if prohibited_hex(rules, situation, there) or not prohibited_hexside(rules, situation, here, there):
            return False
        if not rules.is_set("retreat.heavy_units_cross_unbridged_rivers"):
            return False
        if any(unit.can(c) for c in HEAVY) and not rules.flag("retreat.heavy_units_cross_unbridged_rivers"):
            search.steps.append(rules.cite("retreat.heavy_units_cross_unbridged_rivers",
                                           f"{unit} may not retreat across the unbridged {here}/{there}"))
            return False
        search.steps.append(rules.cite("retreat.heavy_units_cross_unbridged_rivers",
                                       f"{unit} may retreat across the unbridged {here}/{there}"))
    return True


def _measure(search: _Search, here: Hex, there: Hex) -> Fraction:
    """How much of the retreat one hex entered uses: 1 in hexes, its MP cost in MPs or where terrain counts."""
    rules = search.rules
    in_hexes = rules.flag("retreat.counted_in_hexes")
    if in_hexes and not rules.flag("retreat.terrain_affects_length"):
        return Fraction(1)
    cost = search.engine.entry_cost(search.situation, search.stack[0], here, there)
    return Fraction(1) if cost is None else max(Fraction(cost), Fraction(1, 1000))


def _paths(search: _Search, remaining: int) -> tuple[list[tuple[Hex, ...]], int, bool]:
    """The best legal paths (ranked), the hexes not made, and whether the stack is forced off the map."""
    rules, situation, origin = search.rules, search.situation, search.origin
    counted = "hexes" if rules.flag("retreat.counted_in_hexes") else "MPs"
    search.steps.append(rules.cite("retreat.counted_in_hexes", f"the retreat is counted in {counted}"))
    if counted == "hexes":
        search.steps.append(rules.cite("retreat.terrain_affects_length",
                                       "terrain " + ("changes" if rules.flag("retreat.terrain_affects_length")
                                                     else "does not change") + " the retreat's length"))
    order = rules.words("retreat.path")
    away = "away-from-combat" in order
    complete: list[tuple[tuple[Hex, ...], Fraction]] = []
    partial: list[tuple[tuple[Hex, ...], Fraction]] = []
    edge_reached: list[tuple[Hex, ...]] = []

    def grow(path: tuple[Hex, ...], used: Fraction) -> None:
        if used >= remaining:
            complete.append((path, used))
            return
        here = path[-1] if path else origin
        extended = False
        for there in situation.neighbours(here):
            if there == origin or there in path:
                continue
            if away and situation.map.distance(origin, there) <= situation.map.distance(origin, here):
                continue
            if not _may_enter(search, here, there):
                continue
            extended = True
            grow(path + (there,), used + _measure(search, here, there))
        if not extended:
            partial.append((path, used))
            if _leaves_map(situation, origin, here, away):
                edge_reached.append(path)

    grow((), Fraction(0))
    if away:
        search.steps.append(rules.cite("retreat.path", "each hex of the retreat is farther from the combat hex "
                                       "than the last"))
    if complete:
        ranked = _rank(search, [p for p, _ in complete])
        return ranked, 0, False
    best = max(used for _, used in partial)
    blocked = max(1, int(ceil(remaining - best)))
    longest = [p for p, used in partial if used == best]
    if any(p in edge_reached for p in longest):
        if rules.flag("map.leaving_map_destroys"):
            return [], blocked, True
        search.steps.append(rules.cite("map.leaving_map_destroys", "no unit may retreat off the map"))
    search.steps.append(rules.cite_rule_of("retreat.blocked_step_loss", f"the retreat can go {best} of its "
                                                                     f"{remaining} {counted}"))
    return _rank(search, longest), blocked, False


def _leaves_map(situation: Situation, origin: Hex, here: Hex, away: bool) -> bool:
    """Whether the retreat could go on from `here` but for the map's edge: a step off the map (farther from
    the combat hex, when the retreat must go away from it)."""
    return any(situation.map.neighbour(here, direction) is None
               and (not away or situation.map.leads_away(origin, here, direction)) for direction in Direction)


def _hex_class(search: _Search, hex: Hex) -> str:
    if hex in search.ezoc:
        return "into-ezoc"
    return "friendly-no-ezoc" if search.situation.occupied_by_friend(hex, search.side) else "empty-no-ezoc"


def _ezoc_hexes(search: _Search, path: tuple[Hex, ...]) -> int:
    return sum(1 for h in path if h in search.ezoc)


def _supply_distance(search: _Search, hex: Hex) -> int | None:
    sources = [s for s in search.situation.supply_sources.get(search.side, ()) if s in search.situation.map]
    return min((search.situation.map.distance(hex, s) for s in sources), default=None)


def _rank(search: _Search, paths: list[tuple[Hex, ...]]) -> list[tuple[Hex, ...]]:
    """The paths the rules leave open, best first: hex priority, then the path requirements in order."""
    rules = search.rules
    paths = sorted(set(paths))
    if not paths or paths == [()]:
        return paths
    priority = rules.words("retreat.hex_priority")
    if priority:
        def classes(path: tuple[Hex, ...]) -> tuple[int, ...]:
            return tuple(priority.index(_hex_class(search, h)) if _hex_class(search, h) in priority else len(priority)
                         for h in path)
        best = min(classes(p) for p in paths)
        kept = [p for p in paths if classes(p) == best]
        if len(kept) < len(paths):
            search.steps.append(rules.cite("retreat.hex_priority", "each hex entered is of the best kind open: "
                                           + ", ".join(priority)))
        paths = kept
    origin_distance = _supply_distance(search, search.origin)
    enemy = search.victor_chooses or rules.words("retreat.chosen_by") == ("enemy",)
    preference: list[tuple[int, ...]] = [() for _ in paths]
    for requirement in rules.words("retreat.path"):
        if requirement == "avoid-ezoc":
            fewest = min(_ezoc_hexes(search, p) for p in paths)
            if all(_ezoc_hexes(search, p) == fewest for p in paths):
                continue
            if rules.flag("retreat.ezoc_avoidance_optional"):
                if enemy:   # the owner's choice, and the owner does not choose here
                    continue
                search.steps.append(rules.cite("retreat.ezoc_avoidance_optional",
                                               "the owner may avoid enemy ZOCs: paths through fewer come first"))
                preference = [k + (_ezoc_hexes(search, p),) for k, p in zip(preference, paths)]
                continue
            search.steps.append(rules.cite("retreat.path", f"the retreat must avoid enemy ZOCs: {fewest} at least"))
            kept_pairs = [(k, p) for k, p in zip(preference, paths) if _ezoc_hexes(search, p) == fewest]
            preference, paths = [k for k, _ in kept_pairs], [p for _, p in kept_pairs]
        elif requirement == "toward-supply" and origin_distance is not None:
            def nearer(path: tuple[Hex, ...]) -> bool:
                end = _supply_distance(search, path[-1]) if path else origin_distance
                return end is not None and end < origin_distance
            if any(nearer(p) for p in paths) and not all(nearer(p) for p in paths):
                search.steps.append(rules.cite("retreat.path", "the retreat must lead toward a supply source"))
                kept_pairs = [(k, p) for k, p in zip(preference, paths) if nearer(p)]
                preference, paths = [k for k, _ in kept_pairs], [p for _, p in kept_pairs]

    def from_attackers(path: tuple[Hex, ...]) -> int:
        end = path[-1] if path else search.origin
        return -min((search.situation.map.distance(end, a) for a in search.attackers), default=0)

    if enemy and len(paths) > 1:
        # the enemy picks among the paths the rules leave open: the owner's preferences give way to the
        # steps the path costs, most first (ties: the owner's order, so the answer is the same every time)
        search.steps.append(rules.cite("breakthrough.victor_chooses_retreat" if search.victor_chooses
                                       else "retreat.chosen_by", "the enemy picks the path: of those the rules leave "
                                       "open, the one that costs the most steps"))
        cost = {p: _ezoc_cost(search, p) for p in paths}

        def enemy_key(i: int) -> tuple[int, tuple[int, ...], int, tuple[Hex, ...]]:
            return -cost[paths[i]], preference[i], from_attackers(paths[i]), paths[i]
        return [paths[i] for i in sorted(range(len(paths)), key=enemy_key)]

    def key(i: int) -> tuple[tuple[int, ...], int, tuple[Hex, ...]]:
        return preference[i], from_attackers(paths[i]), paths[i]
    order = sorted(range(len(paths)), key=key)
    return [paths[i] for i in order]


def _ezoc_cost(search: _Search, path: tuple[Hex, ...]) -> int:
    """The steps entering enemy ZOCs along `path` would cost, worked out without writing steps down."""
    quiet = _Search(search.engine, search.situation, search.stack, search.origin, [], search.ezoc, search.attackers)
    return _ezoc_loss(quiet, path)


def _ezoc_loss(search: _Search, path: tuple[Hex, ...]) -> int:
    rules = search.rules
    entered = [h for h in path if h in search.ezoc]
    if not entered:
        return 0
    per_hex = rules.amount("retreat.ezoc_step_loss")
    if per_hex is None:
        search.steps.append(rules.cite("retreat.ezoc_step_loss", "retreating into enemy ZOCs costs no step"))
        return 0
    counted = []
    for hex in entered:
        if search.situation.occupied_by_friend(hex, search.side):
            if rules.flag("retreat.ezoc_negated_by_friendly_units"):
                search.steps.append(rules.cite("retreat.ezoc_negated_by_friendly_units",
                                               f"{hex}: the friendly units in it cancel the EZOC loss"))
                continue
            search.steps.append(rules.cite("retreat.ezoc_negated_by_friendly_units",
                                           f"{hex}: friendly units in it do not cancel the EZOC loss"))
        counted.append(hex)
    per_stack = rules.flag("retreat.losses_per_stack")
    paying, doomed = _paying(search, counted)
    if per_stack:
        loss = int(ceil(per_hex * sum(1 for hex in counted if paying[hex])))
    else:
        loss = sum(int(ceil(per_hex * sum(1 for hex in counted if unit in paying[hex])))
                   for unit in search.stack)
    if any(paying.values()):
        many = len(search.stack)
        search.steps.append(rules.cite("retreat.losses_per_stack",
                                       "the stack loses the step once" if per_stack else
                                       f"each of the {many} units loses it"))
        search.steps.append(rules.cite("retreat.ezoc_step_loss", f"{_n(len(counted), 'enemy-ZOC hex')} entered "
                                       f"({' '.join(map(str, counted))}): {_n(loss, 'step')} lost"))
    return loss + sum(u.steps for u in doomed)


def _paying(search: _Search, counted: list[Hex]) -> tuple[dict[Hex, tuple[Counter, ...]], tuple[Counter, ...]]:
    """The units of the stack that lose steps for each enemy-ZOC hex entered: all of them, but those a rule
    exempts (`exempt retreat-loss when unit is armored and not ezoc.from is anti-tank`); and the units a rule
    eliminates instead (`eliminate retreat-loss when unit is artillery`), which lose all their steps once.  A
    stack that loses its step once loses it where any unit pays; each unit that pays, where units pay apiece."""
    rules = search.rules
    if not counted or not rules.effects_on("retreat-loss"):
        return {hex: search.stack for hex in counted}, ()
    exerting = _ezoc_units(search)
    when = effects.time_facts(rules.turn_sets, search.situation)
    paying: dict[Hex, tuple[Counter, ...]] = {}
    doomed: list[Counter] = []
    for hex in counted:
        enemies = frozenset(word for name in exerting.get(hex, ())
                            for word in effects.unit_words(search.situation.unit(name)))
        payers = []
        for unit in search.stack:
            if unit in doomed:
                continue
            verdict = _judged(search, "retreat-loss", unit,
                              {**effects.unit_facts(unit), **when, "ezoc.from": _constant(enemies)},
                              pays=f"pays for {hex}", spared=f"loses no step for the enemy ZOC in {hex}",
                              eliminated=f" is eliminated for the enemy ZOC in {hex}")
            if verdict == "pays":
                payers.append(unit)
            elif verdict == "eliminated":
                doomed.append(unit)
        paying[hex] = tuple(payers)
    return {hex: tuple(u for u in payers if u not in doomed) for hex, payers in paying.items()}, tuple(doomed)


def _judged(search: _Search, question: str, unit: Counter, facts: effects.Facts, *, pays: str, spared: str,
            eliminated: str) -> str:
    """What a rule's effect on `question` (retreat-loss, retreat-blocked) makes of `unit`: "pays" (no effect
    holds, or an `allow` lifts them), "spared" (`exempt`) or "eliminated" (`eliminate`: all its steps), the
    effect cited in the derivation in the words given."""
    rules = search.rules
    found = rules.forbidding(question, facts, search.steps.append, f"{unit} {pays}")
    if found is None:
        return "pays"
    if found[1].kind == "eliminate":
        search.steps.append(rules.cite_effect(*found, f"rule {found[0].id}: {unit}{eliminated}, all "
                                              f"{_n(unit.steps, 'step')}"))
        return "eliminated"
    search.steps.append(rules.cite_effect(*found, f"rule {found[0].id}: {unit} {spared}"))
    return "spared"


def _ezoc_units(search: _Search) -> dict[Hex, tuple[str, ...]]:
    """The enemy units whose ZOCs cover each hex enemy ZOCs hinder the stack in."""
    found: dict[Hex, tuple[str, ...]] = {}
    for other in search.situation.sides():
        if other != search.side:
            zones = search.engine.zoc(search.situation, other)
            for hex, names in zones.hexes.items():
                if hex not in zones.negated:
                    found[hex] = found.get(hex, ()) + names
    return found


def _constant(value: effects.FactValue) -> Callable[[], effects.FactValue]:
    return lambda: value


# ---- advance after combat -------------------------------------------------------------------------------------
def advance(engine: Questions, situation: Situation, units: tuple[str, ...], vacated: Hex, hexes: int, *,
            overrun: bool = False, defender_destroyed: bool = False, refused: int = 0, breakthrough: bool = False,
            path: Sequence[Hex] = ()) -> Advance:
    rules = engine.rules
    counters = tuple(situation.unit(u) for u in units)
    steps: list[Step] = []
    refused = max(0, min(refused, hexes))

    def refuse(reason: str) -> Advance:
        return Advance(units, False, 0, (), unique_steps(steps), reason=reason)

    if not counters:
        return refuse("no unit advances")
    side = counters[0].side
    situation = situation.without(u.name for u in situation.units_at(vacated) if u.side != side)
    if situation.phasing and side != situation.phasing:
        if not rules.flag("advance.defender_may_advance"):
            steps.append(rules.cite("advance.defender_may_advance", "the defender may not advance after combat"))
            return refuse("the defender may not advance")
        steps.append(rules.cite("advance.defender_may_advance", "the defender may advance after combat"))
    required = False
    length = hexes
    if refused:
        if rules.flag("advance.length_from_original_result"):
            steps.append(rules.cite("advance.length_from_original_result",
                                    f"the advance is the retreat as rolled: {_n(hexes, 'hex')}"))
        else:
            length = hexes - refused
            steps.append(rules.cite("advance.length_from_original_result",
                                    f"{_n(refused, 'refused hex')} do not count: the advance is {_n(length, 'hex')}"))
    if defender_destroyed:
        if rules.flag("advance.after_defender_destroyed"):
            steps.append(rules.cite("advance.after_defender_destroyed",
                                    "the defender was destroyed: the advance may go the unfulfilled "
                                    f"{_n(length, 'hex')}"))
        else:
            length = min(length, 1)
            steps.append(rules.cite("advance.after_defender_destroyed",
                                    "the defender was destroyed: the advance goes no farther than its hex"))
    if overrun:
        must = rules.flag("advance.overrun_must_enter")
        steps.append(rules.cite("advance.overrun_must_enter", "the overrunning units must enter the vacated hex"
                                if must else "the overrunning units need not enter the vacated hex"))
        required = must
        if not rules.flag("advance.after_overrun"):
            steps.append(rules.cite("advance.after_overrun", "no advance after an overrun"))
            if not must:
                return refuse("no advance after an overrun")
            length = 1
        else:
            steps.append(rules.cite("advance.after_overrun", "overrunning units may advance after combat"))
    if length <= 0:
        steps.append(Step("the advance is 0 hexes"))
        return refuse("the advance is 0 hexes")
    movers: list[Counter] = []
    for unit in counters:
        if unit.attack == 0 or not unit.has_attack_strength:
            if not rules.flag("advance.any_participant"):
                steps.append(rules.cite("advance.any_participant",
                                        f"{unit} has no Attack Strength: it may not advance"))
                continue
            steps.append(rules.cite("advance.any_participant", f"{unit} may advance, though it adds no strength"))
        movers.append(unit)
    if not movers:
        return refuse("no unit may advance")
    ezoc = engine.enemy_zoc(_without_retreated(rules, situation, side, path, steps) if breakthrough else situation,
                            side)
    limits: dict[str, int] = {}
    reach: set[Hex] = set()
    group = {"advancing.count": _constant(Fraction(len(counters))),      # the advance as a whole
             "retreat.length": _constant(Fraction(max(0, hexes - refused)))}
    for unit in movers:
        limit = _unit_length(rules, unit, length, breakthrough, steps)
        limits[unit.name] = limit
        reach |= _advance_reach(engine, situation, unit, vacated, limit, ezoc, tuple(path), steps, group)
    longest = max(limits.values())
    reachable = tuple(sorted(reach))
    if not reachable:
        return Advance(units, False, longest, (), unique_steps(steps), limits=limits, required=required,
                       reason="no hex is open to the advance")
    return Advance(units, True, longest, reachable, unique_steps(steps), limits=limits, required=required)


def _without_retreated(rules: RuleSet, situation: Situation, side: str, path: Sequence[Hex],
                       steps: list[Step]) -> Situation:
    """The situation whose ZOCs hinder a breakthrough's advance: without the enemy units that retreated (those
    at the end of the retreat path) where `breakthrough.retreating_units_lose_zoc` says they lose their ZOC."""
    if not rules.flag("breakthrough.retreating_units_lose_zoc"):
        return situation
    retreated = [u for u in situation.units_at(path[-1]) if u.side != side] if path else []
    if not retreated:
        steps.append(rules.cite("breakthrough.retreating_units_lose_zoc", "the units that retreated lose their ZOC "
                                "during the advance; no retreat path is given, so none is known"))
        return situation
    steps.append(rules.cite("breakthrough.retreating_units_lose_zoc",
                            f"{', '.join(str(u) for u in retreated)} retreated from a breakthrough: no ZOC during the "
                            "advance"))
    return replace(situation, units=tuple(u for u in situation.units if u not in retreated))


def _unit_length(rules: RuleSet, unit: Counter, length: int, breakthrough: bool, steps: list[Step]) -> int:
    limit = length
    if breakthrough and unit.can("mechanized"):
        extra = rules.amount("breakthrough.mechanized_extra_advance")
        if extra:
            limit += int(extra)
            steps.append(rules.cite("breakthrough.mechanized_extra_advance",
                                    f"{unit} is mechanized: {_n(extra, 'hex')} more after a breakthrough"))
        else:
            steps.append(rules.cite("breakthrough.mechanized_extra_advance", "a breakthrough adds no hexes"))
    if not unit.can("exploit"):
        cap = rules.amount("advance.max_not_exploit_capable")
        if cap is not None and cap < limit:
            limit = int(cap)
            steps.append(rules.cite("advance.max_not_exploit_capable",
                                    f"{unit} is not exploit-capable: at most {_n(cap, 'hex')}"))
    return limit


def _advance_reach(engine: Questions, situation: Situation, unit: Counter, vacated: Hex, limit: int,
                   ezoc: set[Hex], path: tuple[Hex, ...], steps: list[Step], group: effects.Facts) -> set[Hex]:
    """The hexes `unit` may reach in an advance of `limit` (hexes, or MPs when not counted in hexes);
    `group`: the facts of the advance as a whole (how many units advance, how far the loser retreated)."""
    rules = engine.rules
    in_hexes = rules.flag("advance.counted_in_hexes")
    first_fixed = rules.flag("advance.first_hex_is_defender_hex")
    blocks = rules.flag("zoc.blocks_advance")
    follow: tuple[Hex, ...] | None = None
    if path:
        mechanized = unit.can("mechanized")
        deviate = rules.flag("advance.mechanized_may_deviate")
        steps.append(rules.cite("advance.mechanized_may_deviate",
                                f"{unit} may leave the retreat path after the first hex" if mechanized and deviate
                                else f"{unit} follows the retreat path"))
        if not (mechanized and deviate):
            follow = (vacated,) + tuple(h for h in path if h != vacated)
    reached: set[Hex] = set()
    stated = bool(rules.effects_on("advance"))
    base = {**effects.unit_facts(unit), **effects.time_facts(rules.turn_sets, situation), **group} if stated else {}
    going: dict[Hex, Fraction] = {}     # the least spent to stand in a hex and go on from it
    frontier: list[tuple[Hex, Fraction, int]] = [(unit.hex, Fraction(0), 0)]
    while frontier:
        here, spent, count = frontier.pop()
        for there in situation.neighbours(here):
            if count == 0 and first_fixed and there != vacated:
                continue
            if follow is not None and (count >= len(follow) or there != follow[count]):
                continue
            if there == unit.hex or situation.occupied_by_enemy(there, unit.side):
                continue
            cost = engine.entry_cost(situation, unit, here, there)
            stop = False
            if cost is None:
                if not _may_cross(rules, situation, unit, here, there, count, steps):
                    continue
                cost = Fraction(1)
                stop = True
            used = spent + (Fraction(1) if in_hexes else Fraction(cost))
            if used > limit:
                continue
            if not stop and there in going and going[there] <= used:
                continue
            if stated:
                facts = {**base, **_hex_facts(rules, situation, here, there, ezoc)}
                barred = rules.forbidding("advance", facts, steps.append, f"{unit} may advance into {there}")
                if barred is not None:
                    steps.append(rules.cite_effect(*barred, f"rule {barred[0].id}: {unit} may not advance into "
                                                            f"{there}"))
                    continue
                ends = rules.stopping("advance", facts)
                if ends is not None:
                    steps.append(rules.cite_effect(*ends, f"rule {ends[0].id}: {unit}'s advance ends in {there}"))
                    stop = True
            reached.add(there)
            if there in ezoc:
                if count == 0 and rules.flag("advance.first_hex_ignores_ezoc"):
                    steps.append(rules.cite("advance.first_hex_ignores_ezoc",
                                            f"the enemy ZOC in {there}, the first hex, has no effect"))
                elif blocks:
                    steps.append(rules.cite("zoc.blocks_advance", f"{there} is in an enemy ZOC: the advance stops"))
                    stop = True
                else:
                    steps.append(rules.cite("zoc.blocks_advance", f"{there} is in an enemy ZOC, which does not hinder"))
            if not stop:
                going[there] = used
                frontier.append((there, used, count + 1))
    if not in_hexes:
        steps.append(rules.cite("advance.counted_in_hexes", f"{unit}'s advance is counted in MPs"))
    else:
        steps.append(rules.cite("advance.counted_in_hexes", f"{unit} may advance {_n(limit, 'hex')}"))
    if first_fixed:
        steps.append(rules.cite("advance.first_hex_is_defender_hex", f"the first hex is the vacated {vacated}"))
    return reached


def _hex_facts(rules: RuleSet, situation: Situation, here: Hex, there: Hex, ezoc: set[Hex]) -> effects.Facts:
    """What a condition on entering `there` from `here` reads of the hex (core/facts.py)."""
    return {"hex": lambda: effects.hex_words(situation, there),
            "hex.level": lambda: effects.hex_level(rules.terrain, situation, there),
            "hex.ezoc": lambda: there in ezoc,
            "hexside": lambda: frozenset(f.lower() for f in situation.hexside_features(here, there))}


def _may_cross(rules: RuleSet, situation: Situation, unit: Counter, here: Hex, there: Hex, count: int,
               steps: list[Step]) -> bool:
    """Whether an advancing unit may cross the prohibited hexside between `here` and `there` (an unbridged
    river), as the first hex of its advance; it stops there."""
    if prohibited_hex(rules, situation, there) or not prohibited_hexside(rules, situation, here, there) \
            or count != 0:
        return False
    if not rules.is_set("advance.armor_across_unbridged_rivers"):
        return False
    if unit.can("armored") and not rules.flag("advance.armor_across_unbridged_rivers"):
        steps.append(rules.cite("advance.armor_across_unbridged_rivers",
                                f"{unit} is armored: it may not advance across the unbridged {here}/{there}"))
        return False
    steps.append(rules.cite("advance.armor_across_unbridged_rivers",
                            f"{unit} may advance across the unbridged {here}/{there} as its first hex, and stops"))
    return True




def _n(amount: int | Fraction, what: str) -> str:
    """'1 hex', '2 hexes', '1 step', '3 enemy-ZOC hexes'."""
    return f"{amount} {what}" if amount == 1 else f"{amount} {what}{'es' if what.endswith('x') else 's'}"
