"""Supply: tracing a line from a unit to its side's sources.

A trace is a chain of adjacent hexes from the unit's hex (included: the line starts there) to a hex of its
side's `Situation.supply_sources`.  What may block a hex of it, each by its own parameter:

  supply.blocked_by_enemy_units           a hex holding enemy units;
  supply.blocked_by_prohibited_terrain    a hex of prohibited terrain, or a prohibited hexside that no other
                                          feature of it negates (a river without its bridge), by the TEC;
  zoc.blocks_supply                       a hex in an enemy ZOC, unless
  zoc.negated_for_supply_by_friendly_units  friendly units stand in it (the traced unit counts).

`supply.method` is `trace` (the line above) or `range` (the unit is within the line length of a source,
counted on the grid, whatever lies between).  `supply.line_length` is a number of hexes, or none (any length).

When the rulebook has a table named `supply-distance`, keyed by terrain level, the line is in two legs: from
the unit to a hex on a road connected to a source (or to a source), at most as many hexes as the table gives
for the highest terrain level of the hexes of that leg (both ends included: a level 1 unit whose only road
runs through level 4 terrain must stand next to it); then along the road, hexside by hexside, to a source.
A hex whose terrain has no level does not raise the leg's level.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from fractions import Fraction

from .answers import SupplyTrace
from .hexmap import Hex
from .ruleset import RuleSet, Step, unique_steps
from .situation import Counter, Situation
from .terrain import negated
from .questions import Questions

__all__ = ["hex_level", "prohibited_hex", "prohibited_hexside", "supply"]

DISTANCE_TABLE = "supply-distance"


def supply(engine: Questions, situation: Situation, unit: str) -> SupplyTrace:
    rules = engine.rules
    counter = situation.unit(unit)
    sources = situation.supply_sources.get(counter.side, frozenset())
    method = rules.word("supply.method")
    if method is None:
        return SupplyTrace(unit, True, (), (rules.cite("supply.method", f"{counter} is in supply: no supply rule"),))
    steps: list[Step] = [rules.cite("supply.method", f"supply is determined by {method}")]
    if not sources:
        steps.append(Step(f"the {counter.side} side has no supply source on the map"))
        isolated = _isolated(engine, situation, counter, steps)
        return SupplyTrace(unit, False, (), unique_steps(steps), isolated=isolated)
    if method == "range":
        return _by_range(rules, situation, counter, sources, steps)
    path = _traced(engine, situation, counter, sources, steps)
    if path is None:
        steps.append(rules.cite_rule_of("supply.method", f"{counter} traces no line to a source: out of supply"))
        isolated = _isolated(engine, situation, counter, steps)
        return SupplyTrace(unit, False, (), unique_steps(steps), isolated=isolated)
    steps.append(rules.cite_rule_of("supply.method", f"{counter} traces supply along {' '.join(map(str, path))}: "
                                                     "in supply"))
    return SupplyTrace(unit, True, path, unique_steps(steps))


def _traced(engine: Questions, situation: Situation, counter: Counter, sources: frozenset[Hex], steps: list[Step],
            *, enemy: bool = True) -> tuple[Hex, ...] | None:
    """A traced line from the unit to a source, explained in `steps`; None when there is none.  `enemy`: enemy
    units and their ZOCs block as the rules say (False: they are not there, to ask whether they cut it)."""
    rules = engine.rules
    blocker = _Blocker(engine, situation, counter, steps, enemy=enemy)
    if DISTANCE_TABLE in rules.tables:
        path = _trace_by_level(rules, situation, counter, sources, blocker, steps)
    else:
        path = _trace(situation, counter.hex, sources, blocker, _line_length(rules, steps))
    blocker.explain(path)
    return path


def _isolated(engine: Questions, situation: Situation, counter: Counter, steps: list[Step]) -> bool:
    """Whether a unit out of supply is isolated (`isolation.friendly_unit_range`): its side has no source on
    the map, or enemy units and their ZOCs cut every line it could trace, and no friendly combat unit in
    supply stands within that many hexes of it.  False where the rulebook has no isolation."""
    rules = engine.rules
    near = rules.amount("isolation.friendly_unit_range")
    if near is None:
        return False
    sources = situation.supply_sources.get(counter.side, frozenset())
    if sources and _traced(engine, situation, counter, sources, [], enemy=False) is None:
        steps.append(rules.cite("isolation.friendly_unit_range", f"{counter}'s line is not cut by the enemy: "
                                "out of supply, not isolated"))
        return False
    def nearness(unit: Counter) -> tuple[int, str]:
        return situation.map.distance(unit.hex, counter.hex), unit.name
    friends = sorted((u for u in situation.friends_of(counter.side) if u.name != counter.name and u.attack > 0
                      and situation.map.distance(u.hex, counter.hex) <= near), key=nearness)
    for friend in friends:
        if sources and _traced(engine, situation, friend, sources, []) is not None:
            steps.append(rules.cite("isolation.friendly_unit_range",
                                    f"{friend}, in supply, is within {near} hexes of {counter}: not isolated"))
            return False
    cut = "its side has no source on the map" if not sources else "the enemy cuts every line"
    steps.append(rules.cite("isolation.friendly_unit_range",
                            f"{cut}, and no friendly combat unit in supply is within {near} hexes: {counter} is "
                            "isolated"))
    return True


# ---- what blocks a trace --------------------------------------------------------------------------------
def prohibited_hex(rules: RuleSet, situation: Situation, hex: Hex) -> bool:
    """Whether a terrain of `hex` is prohibited to movement on the rulebook's TEC."""
    chart = rules.terrain
    closed = chart.closed_hexes if chart is not None else frozenset()
    return bool(closed) and any(name.lower() in closed for name in situation.terrain_at(hex))


def prohibited_hexside(rules: RuleSet, situation: Situation, a: Hex, b: Hex) -> bool:
    """Whether the hexside between `a` and `b` has a feature prohibited to movement that no other feature
    of it negates (a river without its bridge)."""
    chart = rules.terrain
    if chart is None:
        return False
    rows = [chart[name] for name in situation.hexside_features(a, b) if name in chart]
    cancelled = negated(rows)
    return any(r.movement.kind == "prohibited" and r.name.lower() not in cancelled for r in rows)


class _Blocker:
    """Decides, once per hex (and hexside), whether a trace may enter it, and says why not in a step."""

    def __init__(self, engine: Questions, situation: Situation, counter: Counter, steps: list[Step], *,
                 enemy: bool = True):
        self.engine, self.rules, self.situation, self.counter, self.steps = \
            engine, engine.rules, situation, counter, steps
        self._ezoc: set[Hex] | None = None if enemy else set()      # not enemy: as if no enemy were there
        self.notes: dict[Hex | tuple[Hex, Hex], list[Step]] = {}    # what was found of each hex and hexside
        self.decided: dict[Hex, bool] = {}     # whether each hex met is blocked
        self._sides: dict[tuple[Hex, Hex], bool] = {}
        self._enemy_hexes = frozenset(u.hex for u in situation.enemies_of(counter.side)) if enemy else frozenset()

    def ezoc(self) -> set[Hex]:
        if self._ezoc is None:
            self._ezoc = self.engine.enemy_zoc(self.situation, self.counter.side)
        return self._ezoc

    def suspects(self) -> tuple[frozenset[Hex], frozenset[str]]:
        """The hexes that may block or have something to say (enemy units, enemy ZOCs), and the TEC's
        prohibited terrain names: a hex in neither, of no such terrain, is open and `hex` says nothing of it."""
        chart = self.rules.terrain
        closed = chart.closed_hexes if chart is not None else frozenset()
        return self._enemy_hexes | self.ezoc(), frozenset(closed)

    def hex(self, hex: Hex) -> bool:
        """True when the trace may not use `hex`."""
        known = self.decided.get(hex)
        if known is None:
            notes: list[Step] = []
            known = self.decided[hex] = self._blocked(hex, notes)
            if notes:
                self.notes[hex] = notes
        return known

    def _blocked(self, hex: Hex, steps: list[Step]) -> bool:
        rules, situation, side = self.rules, self.situation, self.counter.side
        if hex in self._enemy_hexes:
            if rules.flag("supply.blocked_by_enemy_units"):
                steps.append(rules.cite("supply.blocked_by_enemy_units", f"{hex} holds enemy units: blocked"))
                return True
            steps.append(rules.cite("supply.blocked_by_enemy_units",
                                         f"{hex} holds enemy units, which do not block"))
        if prohibited_hex(rules, situation, hex):
            if rules.flag("supply.blocked_by_prohibited_terrain"):
                steps.append(rules.cite("supply.blocked_by_prohibited_terrain",
                                             f"{hex} is prohibited terrain: blocked"))
                return True
            steps.append(rules.cite("supply.blocked_by_prohibited_terrain",
                                         f"{hex} is prohibited terrain, which does not block"))
        if hex in self.ezoc():
            if not rules.flag("zoc.blocks_supply"):
                steps.append(rules.cite("zoc.blocks_supply", f"{hex} is in an enemy ZOC, which does not block"))
                return False
            if situation.occupied_by_friend(hex, side):
                if rules.flag("zoc.negated_for_supply_by_friendly_units"):
                    steps.append(rules.cite("zoc.negated_for_supply_by_friendly_units",
                                                 f"{hex} is in an enemy ZOC, negated by the friendly units in it"))
                    return False
                steps.append(rules.cite("zoc.negated_for_supply_by_friendly_units",
                                             f"{hex} is in an enemy ZOC; its friendly units do not negate it"))
            steps.append(rules.cite("zoc.blocks_supply", f"{hex} is in an enemy ZOC: blocked"))
            return True
        return False

    def side(self, a: Hex, b: Hex) -> bool:
        """True when the trace may not cross from `a` into `b`."""
        if not self.situation.hexsides:     # no hexside features: none is prohibited
            return False
        key = (min(a, b), max(a, b))
        known = self._sides.get(key)
        if known is None:
            known = False
            if prohibited_hexside(self.rules, self.situation, a, b):
                known = self.rules.flag("supply.blocked_by_prohibited_terrain")
                self.notes.setdefault(key, []).append(self.rules.cite(
                    "supply.blocked_by_prohibited_terrain",
                    f"the hexside {a}/{b} is prohibited: " + ("blocked" if known else "it does not block")))
            self._sides[key] = known
        return known

    def step(self, a: Hex, b: Hex) -> bool:
        return self.side(a, b) or self.hex(b)

    def explain(self, path: tuple[Hex, ...] | None) -> None:
        """Add to the derivation what was found of the hexes and hexsides of `path` (of every one the
        search met, when there is no path: they are why)."""
        if path is None:
            for notes in self.notes.values():
                self.steps.extend(notes)
            return
        for index, hex in enumerate(path):
            if index:
                key = (min(path[index - 1], hex), max(path[index - 1], hex))
                self.steps.extend(self.notes.get(key, ()))
            self.steps.extend(self.notes.get(hex, ()))


def _line_length(rules: RuleSet, steps: list[Step]) -> int | None:
    length = rules.amount("supply.line_length")
    if length is not None:
        steps.append(rules.cite("supply.line_length", f"a supply line is at most {length} hexes long"))
        return int(length)
    steps.append(rules.cite("supply.line_length", "a supply line may be of any length"))
    return None


# ---- the searches -----------------------------------------------------------------------------------------
def _by_range(rules: RuleSet, situation: Situation, counter: Counter, sources: frozenset[Hex],
              steps: list[Step]) -> SupplyTrace:
    length = _line_length(rules, steps)
    near = [s for s in sources if s in situation.map and
            (length is None or situation.map.distance(counter.hex, s) <= length)]
    if near:
        def nearness(source: Hex) -> tuple[int, Hex]:
            return situation.map.distance(counter.hex, source), source
        source = min(near, key=nearness)
        steps.append(Step(f"{counter} is {situation.map.distance(counter.hex, source)} hexes from the source "
                          f"{source}: in supply"))
        return SupplyTrace(counter.name, True, (counter.hex, source), unique_steps(steps))
    steps.append(Step(f"no source within range of {counter}: out of supply"))
    return SupplyTrace(counter.name, False, (), unique_steps(steps))


def _trace(situation: Situation, start: Hex, goals: Iterable[Hex], blocker: _Blocker, limit: int | None,
           follow: Callable[[Hex, Hex], bool] | None = None) -> tuple[Hex, ...] | None:
    """The shortest chain of hexes from `start` to a goal that the blocker lets through (within `limit`
    steps, along `follow` steps only when given); None when there is none."""
    goals = frozenset(goals)
    if blocker.hex(start):
        return None
    came: dict[Hex, Hex | None] = {start: None}
    queue: deque[tuple[Hex, int]] = deque([(start, 0)])
    neighbours, hex_blocked, known = situation.neighbours, blocker.hex, blocker.decided
    side_blocked = blocker.side if situation.hexsides else None     # no hexside features: none is prohibited
    suspects, closed = blocker.suspects()
    terrain_at = situation.terrain_at
    while queue:
        here, length = queue.popleft()
        if here in goals:
            return _unwind(came, here)
        if limit is not None and length >= limit:
            continue
        for there in neighbours(here):
            if there in came or (follow is not None and not follow(here, there)) or \
                    (side_blocked is not None and side_blocked(here, there)):
                continue
            if there in suspects or (closed and any(name.lower() in closed for name in terrain_at(there))):
                blocked = known.get(there)
                if blocked is None:
                    blocked = hex_blocked(there)
                if blocked:
                    continue
            came[there] = here
            queue.append((there, length + 1))
    return None


def _unwind(came: dict[Hex, Hex | None], end: Hex) -> tuple[Hex, ...]:
    path = [end]
    while (before := came[path[-1]]) is not None:
        path.append(before)
    return tuple(reversed(path))


def hex_level(rules: RuleSet, situation: Situation, hex: Hex) -> int | None:
    """The highest terrain level of the hex's terrains on the TEC; None when none has one."""
    return None if rules.terrain is None else rules.terrain.level(situation.terrain_at(hex))


def _trace_by_level(rules: RuleSet, situation: Situation, counter: Counter, sources: frozenset[Hex],
                    blocker: _Blocker, steps: list[Step]) -> tuple[Hex, ...] | None:
    table = rules.tables[DISTANCE_TABLE]
    steps.append(rules.cite_rule(DISTANCE_TABLE, f"the {DISTANCE_TABLE} table limits the trace to a road "
                                 "or source by the terrain level of its hexes"))
    # the road network: hexes from which a source is reached along the road, with that part of the line
    onward: dict[Hex, Hex | None] = {}
    queue = deque(s for s in sorted(sources) if s in situation.map and not blocker.hex(s))
    for s in queue:
        onward[s] = None
    while queue:
        here = queue.popleft()
        for there in situation.neighbours(here):
            if there in onward or situation.road_between(here, there) is None or blocker.step(there, here) \
                    or blocker.hex(there):
                continue
            onward[there] = here
            queue.append(there)
    if not onward:
        steps.append(Step("no source is open to the trace"))
        return None
    cap = _line_length(rules, steps)
    # leg 1: (hex, highest level so far) states, breadth first; a state is kept while its length fits
    start = counter.hex
    if blocker.hex(start):
        return None

    def allowed(level: int | None) -> int | None:
        if level is None:
            return cap
        try:
            value = table(level)
        except KeyError:
            return 0
        hexes = int(Fraction(value)) if not isinstance(value, str) else 0
        return hexes if cap is None else min(hexes, cap)

    first = (start, hex_level(rules, situation, start))
    came: dict[tuple[Hex, int | None], tuple[Hex, int | None] | None] = {first: None}
    frontier: deque[tuple[tuple[Hex, int | None], int]] = deque([(first, 0)])
    found: tuple[Hex, int | None] | None = None
    while frontier:
        state, length = frontier.popleft()
        here, level = state
        limit = allowed(level)
        if limit is not None and length > limit:
            continue
        if here in onward:
            found = state
            break
        for there in situation.neighbours(here):
            there_level = hex_level(rules, situation, there)
            top = level if there_level is None else (there_level if level is None else max(level, there_level))
            nxt = (there, top)
            if nxt in came or blocker.step(here, there):
                continue
            came[nxt] = state
            frontier.append((nxt, length + 1))
    if found is None:
        steps.append(rules.cite_rule_of("supply.method", f"{counter} reaches no connected road or source within "
                                                         "the distance its terrain allows"))
        return None
    leg: list[Hex] = []
    walk: tuple[Hex, int | None] | None = found
    while walk is not None:
        leg.append(walk[0])
        walk = came[walk]
    leg.reverse()
    steps.append(rules.cite_rule(DISTANCE_TABLE, f"{len(leg) - 1} hexes to {leg[-1]} through terrain of "
                                 f"level {found[1]}: at most {allowed(found[1])} allowed"))
    road: list[Hex] = []
    after = onward[leg[-1]]
    while after is not None:
        road.append(after)
        after = onward[after]
    if road:
        steps.append(rules.cite_rule_of("supply.method", f"then along the road {' '.join(map(str, road))} to the "
                                                         "source"))
    return tuple(leg + road)
