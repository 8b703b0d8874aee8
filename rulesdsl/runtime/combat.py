"""The combat context generated modules evaluate rulebook expressions over.

Callers describe a combat with plain data (Unit, AttackingHex, Combat); a
generated module binds it to its rulebook (unit types and their
capabilities, states, situations, terrain) and evaluates its definitions,
die roll modifiers and column shifts, keeping a derivation of each step.
"""
from __future__ import annotations

import difflib
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TypeVar

from .arithmetic import Number, exact
from .notation import Result
from .tables import CombatResultsTable
from .terrain import Terrain, TerrainEffectsChart

T = TypeVar("T")


@dataclass(frozen=True)
class Unit:
    """A unit in a combat: its type (declared by the rulebook), strengths, quality, states."""

    type: str
    attack: Number = 0
    defense: Number = 0
    quality: Number = 0
    steps: int = 1
    states: frozenset[str] | tuple[str, ...] = frozenset()


@dataclass(frozen=True)
class AttackingHex:
    """Units attacking from one hex, the hex's terrain, and the hexside features the attack crosses."""

    units: tuple[Unit, ...]
    terrain: str = ""
    hexsides: tuple[str, ...] = ()
    name: str = ""          # the hex's number on the map, for the derivation (else 'hex 1', 'hex 2' ...)

    def __post_init__(self) -> None:
        if isinstance(self.hexsides, str):      # one name is one hexside, not its letters
            object.__setattr__(self, "hexsides", (self.hexsides,))


@dataclass(frozen=True)
class Combat:
    attacking_hexes: tuple[AttackingHex, ...]
    defenders: tuple[Unit, ...]
    defender_terrain: str | tuple[str, ...]   # several: combined by the rulebook's combat.terrain_combination
    overrun: bool = False
    situations: frozenset[str] | tuple[str, ...] = frozenset()   # declared by `combat situations:`
    amounts: Mapping[str, Number] = field(default_factory=dict)   # declared by `combat amounts:`
    dice: tuple[int, ...] = ()                                    # (white, red) when the rulebook reads them


# A roll: the dice total, or the dice themselves (white, red) when the rulebook reads them.
Roll = int | tuple[int, ...] | list[int]


class RulesInputError(ValueError):
    """A combat that names something the rulebook does not know."""


def _unknown(what: str, name: str, known: Iterable[str]) -> RulesInputError:
    close = difflib.get_close_matches(str(name), sorted(known), n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return RulesInputError(f"unknown {what} {name!r}{hint}")


class BoundTerrain:
    """A hex's terrain as expressions read it; several terrains read as their combined effect."""

    def __init__(self, chart: TerrainEffectsChart | None, name: str | tuple[str, ...],
                 combination: str | None = None):
        names = (name,) if isinstance(name, str) else tuple(name)
        if not names and not chart:
            # a rulebook with no Terrain Effects Chart (a series that leaves it to its games): terrain
            # changes nothing, and a hex given no terrain is read as plain ground
            self.rows: tuple[Terrain, ...] = ()
            self.names: frozenset[str] = frozenset()
            self.name = "no terrain"
            self.level = Fraction(0)
            self.shift, self.drm = Fraction(0), 0
            self.attack = self.defense = Fraction(1)
            self.query: str | tuple[str, ...] = ()
            return
        if not names:
            raise RulesInputError("a hex needs at least one terrain")
        for each in names:
            if chart is None or each not in chart:
                raise _unknown("terrain", each, list(chart or ()))
            if chart[each].kind == "hexside":
                raise RulesInputError(f"{each!r} is a hexside feature, not the terrain of a hex: pass it in an "
                                      "attacking hex's hexsides")
        assert chart is not None
        if len(names) > 1 and combination is None:
            raise RulesInputError(f"the hex holds {len(names)} terrains ({', '.join(names)}) but the rulebook "
                                  "declares no combat.terrain_combination to combine them")
        rows = [chart[n] for n in names]
        self.rows = tuple(rows)
        self.names = frozenset(r.name for r in rows)
        self.name = " + ".join(r.name for r in rows)
        self.level = max(Fraction(r.level or 0) for r in rows)
        if len(rows) == 1:
            row = rows[0]
            self.shift = Fraction(row.combat.shift or 0)
            self.drm = row.combat.drm
            self.attack = Fraction(row.combat.attacker if row.combat.attacker is not None else 1)
            self.defense = Fraction(row.combat.defender if row.combat.defender is not None else 1)
        else:
            effect = chart.hex_effect(names, combination or "cumulative")
            self.shift = Fraction(effect.shift)
            self.drm = effect.drm
            self.attack = Fraction(effect.attacker if effect.attacker is not None else 1)
            self.defense = Fraction(effect.defender if effect.defender is not None else 1)
        self.query = names[0] if len(names) == 1 else names

    def has(self, name: str) -> bool:
        """`terrain is woods`: the hex holds that terrain."""
        return name in self.names


class BoundUnit:
    def __init__(self, unit: Unit, vocabulary: Vocabulary):
        if unit.type not in vocabulary.unit_types:
            raise _unknown("unit type", unit.type, vocabulary.unit_types)
        for state in unit.states:
            if state not in vocabulary.states:
                raise _unknown("unit state", state, vocabulary.states)
        self.unit = unit
        self.type = unit.type
        self.attack = exact(unit.attack)
        self.defense = exact(unit.defense)
        self.quality = exact(unit.quality)
        self.steps = exact(unit.steps)
        self._words: set[str] = {unit.type, *vocabulary.unit_types[unit.type], *unit.states}

    def is_(self, word: str) -> bool:
        return word in self._words


class BoundHex:
    def __init__(self, hex_: AttackingHex, vocabulary: Vocabulary, chart: TerrainEffectsChart | None):
        self.units = tuple(BoundUnit(u, vocabulary) for u in hex_.units)
        self._terrain = bound_terrain(chart, hex_.terrain or ()) if hex_.terrain or not chart else None
        self.hexsides = tuple(hex_.hexsides)
        for name in self.hexsides:
            if chart is None or name not in chart:
                raise _unknown("hexside", name, list(chart or ()))
            if chart[name].kind != "hexside":
                raise RulesInputError(f"{name!r} is {chart[name].kind} terrain, not a hexside feature: it is the "
                                      "terrain of a hex")
        self._crossed = {chart[n].name for n in self.hexsides} if chart is not None else set()
        self.factor = Fraction(1)

    @property
    def terrain(self) -> BoundTerrain:
        """The hex's terrain, for expressions that read it; an error when the caller gave none."""
        if self._terrain is None:
            raise RulesInputError("the rulebook reads the terrain of an attacking hex: "
                                  "give each AttackingHex its terrain")
        return self._terrain

    def set_factor(self, defender_terrain: BoundTerrain, chart: TerrainEffectsChart | None,
                   combination: str | None = None) -> None:
        if chart is not None:
            multiplier = chart.attack_multiplier(defender_terrain.query, self.hexsides, combination or "cumulative")
            self.factor = Fraction(0) if multiplier is None else exact(multiplier)

    def crosses(self, name: str) -> bool:
        return name in self._crossed


@dataclass(frozen=True)
class Vocabulary:
    unit_types: Mapping[str, tuple[str, ...]]
    states: frozenset[str] = frozenset()
    situations: frozenset[str] = frozenset()
    amounts: frozenset[str] = frozenset()


def bound_terrain(chart: TerrainEffectsChart | None, name: str | tuple[str, ...],
                  combination: str | None = None) -> BoundTerrain:
    """A hex's terrain as expressions read it, bound once per chart and spelling (it never changes)."""
    key = (id(chart), name if isinstance(name, str) else tuple(name), combination)
    bound = _BOUND_TERRAIN.get(key)
    if bound is None or bound[0] is not chart:
        bound = (chart, BoundTerrain(chart, name, combination))
        if len(_BOUND_TERRAIN) < 4096:
            _BOUND_TERRAIN[key] = bound
    return bound[1]


_BOUND_TERRAIN: dict[tuple[object, ...], tuple[TerrainEffectsChart | None, BoundTerrain]] = {}


class Context:
    """A combat bound to a rulebook: what expressions read (see rulesdsl/context.py)."""

    def __init__(self, combat: Combat, vocabulary: Vocabulary, chart: TerrainEffectsChart | None,
                 combination: str | None = None):
        self.combat = combat
        self.defender_terrain = bound_terrain(chart, combat.defender_terrain, combination)
        self.attacking_hexes = tuple(BoundHex(h, vocabulary, chart) for h in combat.attacking_hexes)
        for hex_ in self.attacking_hexes:
            hex_.set_factor(self.defender_terrain, chart, combination)
        self.attackers = tuple(u for h in self.attacking_hexes for u in h.units)
        self.defenders = tuple(BoundUnit(u, vocabulary) for u in combat.defenders)
        self.overrun = bool(combat.overrun)
        for name in combat.situations:
            if name not in vocabulary.situations:
                raise _unknown("combat situation", name, vocabulary.situations)
        for name in combat.amounts:
            if name not in vocabulary.amounts:
                raise _unknown("combat amount", name, vocabulary.amounts)
        self._situations = set(combat.situations)
        self._amounts = {k: exact(v) for k, v in combat.amounts.items()}
        self._dice = tuple(combat.dice)
        self._result: Result | None = None

    @property
    def result(self) -> Result:
        """The result as read from the table, for result adjustments."""
        if self._result is None:
            raise LookupError("a combat result is read only by result adjustments")
        return self._result

    @result.setter
    def result(self, result: Result) -> None:
        self._result = result

    def _die(self, index: int) -> Fraction:
        if len(self._dice) < 2:
            raise RulesInputError("this rulebook reads the white and the red die: pass the roll as (white, red)")
        return Fraction(self._dice[index])

    @property
    def dice_white(self) -> Fraction:
        return self._die(0)

    @property
    def dice_red(self) -> Fraction:
        return self._die(1)

    def situation(self, name: str) -> bool:
        return name in self._situations

    def amount(self, name: str) -> Fraction:
        return self._amounts.get(name, Fraction(0))


# ---- what compiled expressions call ---------------------------------------------
def count_where(items: Iterable[T], test: Callable[[T], bool] | None) -> Fraction:
    return Fraction(sum(1 for item in items if test is None or test(item)))


def any_where(items: Iterable[T], test: Callable[[T], bool] | None) -> bool:
    return any(test is None or test(item) for item in items)


def all_where(items: Iterable[T], test: Callable[[T], bool]) -> bool:
    return all(test(item) for item in items)


def sum_of(items: Iterable[T], test: Callable[[T], bool] | None, value: Callable[[T], Fraction]) -> Fraction:
    return sum((value(item) for item in items if test is None or test(item)), Fraction(0))


def max_of(items: Iterable[T], test: Callable[[T], bool] | None, value: Callable[[T], Fraction]) -> Fraction:
    return max((value(item) for item in items if test is None or test(item)), default=Fraction(0))


def min_of(items: Iterable[T], test: Callable[[T], bool] | None, value: Callable[[T], Fraction]) -> Fraction:
    return min((value(item) for item in items if test is None or test(item)), default=Fraction(0))


def divide(a: Fraction, b: Fraction) -> Fraction:
    if b == 0:
        raise ZeroDivisionError("a rulebook expression divided by zero")
    return Fraction(a) / Fraction(b)


def floor_(x: Fraction) -> Fraction:
    return Fraction(math.floor(x))


def ceil_(x: Fraction) -> Fraction:
    return Fraction(math.ceil(x))


# ---- resolving a combat, with its derivation ------------------------------------
@dataclass(frozen=True)
class Contribution:
    """One step of a derivation: what applied, by how much, under which rules."""

    name: str
    value: int | str                    # a DRM or column shift; for an adjustment, what it changes
    rules: tuple[str, ...] = ()
    side: str = ""

    def __str__(self) -> str:
        side = f" ({self.side})" if self.side else ""
        cites = f" [{' '.join(self.rules)}]" if self.rules else ""
        return f"{self.name}{side}: {self.value}{cites}"


@dataclass(frozen=True)
class Assessment:
    """A combat's odds and column before the roll, and how they were reached."""

    odds: str
    column: str | None
    attack: Fraction
    defense: Fraction
    shift: int
    shifts: tuple[Contribution, ...]
    derivation: tuple[str, ...] = ()
    position: int | None = None    # the column's place from the left (on its terrain line); None below the table


@dataclass(frozen=True)
class Resolution:
    """A resolved combat and how it was reached."""

    result: Result
    odds: str
    column: str | None
    attack: Fraction
    defense: Fraction
    shift: int
    shifts: tuple[Contribution, ...]
    drm: tuple[int, int]                # (attacker side, defender side), after the cap
    modifiers: tuple[Contribution, ...]
    roll: int
    line: str | None = None
    derivation: tuple[str, ...] = ()


@dataclass(frozen=True)
class ModifierSpec:
    name: str
    value: int
    side: str
    condition: Callable[[Context], bool]
    rules: tuple[str, ...] = ()
    game: bool = False    # set by a game's rulebook, not its series (see overrun.game_modifiers_apply)


@dataclass(frozen=True)
class FactorSpec:
    name: str
    role: str             # attack or defense
    factor: Callable[[Context], Fraction]
    condition: Callable[[Context, BoundUnit], bool]
    rules: tuple[str, ...] = ()
    supply: bool = False  # a supply penalty (see supply.minimum_strength, supply.penalties_round_down)


@dataclass(frozen=True)
class AdjustmentSpec:
    name: str
    field: str            # attacker-steps, attacker-retreat, defender-steps, defender-retreat
    amount: int
    condition: Callable[[Context], bool]
    rules: tuple[str, ...] = ()


@dataclass(frozen=True)
class ShiftSpec:
    source: str
    amount: Callable[[Context], Fraction]
    maximum: int | None
    condition: Callable[[Context], bool] | None
    rules: tuple[str, ...] = ()


class CombatEngine:
    """The combat procedure a generated module assembles from its rulebook."""

    def __init__(self, *, vocabulary: Vocabulary, terrain: TerrainEffectsChart | None,
                 table: CombatResultsTable | None, odds: Callable[[Number, Number], tuple[int, int]] | None,
                 modifiers: Iterable[ModifierSpec] = (), cap: int | None = None, shifts: Iterable[ShiftSpec] = (),
                 per_side: int | None = None, terrain_rules: Iterable[str] = (), odds_rules: Iterable[str] = (),
                 adjustments: Iterable[AdjustmentSpec] = (), shifts_before_limits: bool = False,
                 factors: Iterable[FactorSpec] = (), terrain_combination: str | None = None,
                 shift_off_left: bool | None = None, terrain_per_unit: bool = True,
                 game_modifiers_in_overruns: bool = True, supply_minimum: Number | None = None,
                 supply_round_down: bool = False, parameter_rules: Mapping[str, str] | None = None):
        self.terrain_combination = terrain_combination
        self.shift_off_left, self.terrain_per_unit = shift_off_left, terrain_per_unit
        self.game_modifiers_in_overruns = game_modifiers_in_overruns
        self.supply_minimum = None if supply_minimum is None else exact(supply_minimum)
        self.supply_round_down = supply_round_down
        self.parameter_rules = dict(parameter_rules or {})   # parameter -> the rule that sets it, for citing
        self.vocabulary, self.terrain, self.table, self.odds = vocabulary, terrain, table, odds
        self.modifiers, self.cap = tuple(modifiers), cap
        self.shift_specs, self.per_side = tuple(shifts), per_side
        self.terrain_rules, self.odds_rules = tuple(terrain_rules), tuple(odds_rules)
        self.adjustments = tuple(adjustments)
        self.shifts_before_limits = shifts_before_limits
        self.factors = tuple(factors)

    def bind(self, combat: Combat) -> Context:
        if not isinstance(combat, Combat):
            raise TypeError("expected a rulesdsl.runtime.combat.Combat")
        return Context(combat, self.vocabulary, self.terrain, self.terrain_combination)

    @staticmethod
    def _cite(rules: tuple[str, ...]) -> str:
        return f" [{' '.join(rules)}]" if rules else ""

    def _cite_parameter(self, name: str) -> str:
        rule = self.parameter_rules.get(name)
        return f" [{rule}: {name}]" if rule else f" [{name}]"

    # -- strengths ----------------------------------------------------------
    def _unit_strength(self, ctx: Context, unit: BoundUnit, role: str, steps: list[str]) -> Fraction:
        """A unit's attack or defense after the rulebook's strength factors (DG, supply ...)."""
        printed = value = unit.attack if role == "attack" else unit.defense
        penalised = False
        for spec in self.factors:
            if spec.role == role and spec.condition(ctx, unit):
                factor = Fraction(spec.factor(ctx))
                steps.append(f"{unit.type} {role} {value} x {factor} for {spec.name}{self._cite(spec.rules)}")
                value *= factor
                penalised = penalised or (spec.supply and factor < 1)
        if penalised and self.supply_round_down and value.denominator != 1:
            steps.append(f"{unit.type} {role} {value} rounded down to {math.floor(value)}"
                         f"{self._cite_parameter('supply.penalties_round_down')}")
            value = Fraction(math.floor(value))
        if penalised and self.supply_minimum is not None and value < min(self.supply_minimum, printed):
            floor = min(self.supply_minimum, printed)
            steps.append(f"{unit.type} {role} {value} raised to {floor}, the least a supply penalty leaves"
                         f"{self._cite_parameter('supply.minimum_strength')}")
            value = floor
        return value

    def strengths(self, ctx: Context) -> tuple[Fraction, Fraction, list[str]]:
        steps: list[str] = []
        attack = Fraction(0)
        combination = self.terrain_combination or "cumulative"
        factors: list[Fraction] = []
        for index, hex_ in enumerate(ctx.attacking_hexes, 1):
            factor = Fraction(1)
            if self.terrain is not None:
                multiplier = self.terrain.attack_multiplier(ctx.defender_terrain.query, hex_.hexsides, combination)
                if multiplier is None:
                    crossed = ", ".join(hex_.hexsides) or ctx.defender_terrain.name
                    raise RulesInputError(f"attacking from hex {index} across {crossed} is prohibited")
                factor = exact(multiplier)
            factors.append(factor)
        whole = min(factors, default=Fraction(1))
        if not self.terrain_per_unit and any(f != whole for f in factors):
            steps.append(f"terrain counts for the whole attack, not unit by unit: every attacking hex takes "
                         f"the least favourable multiplier, x {whole}{self._cite_parameter('combat.terrain_per_unit')}")
            factors = [whole] * len(factors)
        for index, (hex_, factor) in enumerate(zip(ctx.attacking_hexes, factors), 1):
            total = sum((self._unit_strength(ctx, u, "attack", steps) for u in hex_.units), Fraction(0))
            attack += total * factor
            if factor != 1:
                label = ctx.combat.attacking_hexes[index - 1].name or f"hex {index}"
                steps.append(f"{label}: attack {total} x {factor} for terrain{self._cite(self.terrain_rules)}")
        defense = sum((self._unit_strength(ctx, u, "defense", steps) for u in ctx.defenders), Fraction(0))
        if self.terrain is not None:
            multiplier = self.terrain.defense_multiplier(ctx.defender_terrain.query, (), combination)
            if multiplier is None:
                raise RulesInputError(f"attacking into {ctx.defender_terrain.name} is prohibited")
            if multiplier != 1:
                steps.append(f"defense {defense} x {exact(multiplier)} for {ctx.defender_terrain.name}"
                             f"{self._cite(self.terrain_rules)}")
            defense *= exact(multiplier)
            for row in self._crossed(ctx):      # a hexside's defender multiplier, as its crossing says
                if row.combat.defender is not None and row.combat.defender != 1:
                    steps.append(f"defense {defense} x {exact(row.combat.defender)} for {self._crossing(row)}"
                                 f"{self._cite(self.terrain_rules)}")
                    defense *= exact(row.combat.defender)
        return attack, defense, steps

    # -- column shifts ------------------------------------------------------------
    def column_shifts(self, ctx: Context) -> tuple[int, tuple[Contribution, ...]]:
        """The TEC's shift for the defender's terrain, each source's shift (capped by its maximum),
        then the net after the per-side cap: right shifts (+) and left shifts (-) add up, so
        identical opposing shifts cancel."""
        found: list[Contribution] = []
        amounts: list[int] = []
        terrain = int(ctx.defender_terrain.shift)
        if terrain:
            found.append(Contribution("terrain", terrain, self.terrain_rules))
            amounts.append(terrain)
        for row in self._crossed(ctx):
            if row.combat.shift:
                found.append(Contribution(self._crossing(row), row.combat.shift, self.terrain_rules))
                amounts.append(row.combat.shift)
        for spec in self.shift_specs:
            if spec.condition is not None and not spec.condition(ctx):
                continue
            amount = int(spec.amount(ctx))  # a fractional shift counts whole columns only
            if spec.maximum is not None:
                amount = max(-spec.maximum, min(spec.maximum, amount))
            if amount:
                found.append(Contribution(spec.source, amount, spec.rules))
                amounts.append(amount)
        right = sum(a for a in amounts if a > 0)
        left = sum(a for a in amounts if a < 0)
        if self.per_side is not None:
            right, left = min(right, self.per_side), max(left, -self.per_side)
        return right + left, tuple(found)

    def _crossed(self, ctx: Context) -> tuple[Terrain, ...]:
        """The hexside features whose shift or DRM applies: see TerrainEffectsChart.crossed_effects."""
        if self.terrain is None:
            return ()
        return self.terrain.crossed_effects(h.hexsides for h in ctx.attacking_hexes)

    @staticmethod
    def _crossing(row: Terrain) -> str:
        every = row.combat.across == "all-across"
        return f"{row.name} ({'every' if every else 'an'} attacker across)"

    # -- die roll modifiers ---------------------------------------------------------
    def drm(self, ctx: Context) -> tuple[tuple[int, int], tuple[Contribution, ...]]:
        """(attacker side, defender side) net DRMs after the cap, and each that applied."""
        # the TEC's DRMs (the defender's hex, then each hexside crossed) modify the roll read by odds
        terrain = [(name, drm) for name, drm in [("terrain", ctx.defender_terrain.drm)] + [
            (self._crossing(row), row.combat.drm) for row in self._crossed(ctx)] if drm]
        applied = tuple(m for m in self.modifiers if m.condition(ctx))
        if ctx.overrun and not self.game_modifiers_in_overruns:   # the game's own DRMs stay out of overruns
            applied = tuple(m for m in applied if not m.game)
        found = tuple(Contribution(name, drm, self.terrain_rules) for name, drm in terrain) + \
            tuple(Contribution(m.name, m.value, m.rules, m.side) for m in applied)
        attacker = sum(m.value for m in applied if m.side in ("attacker", "both"))
        defender = sum(m.value for m in applied if m.side in ("defender", "both")) + sum(d for _, d in terrain)
        if self.cap is not None:
            attacker = max(-self.cap, min(self.cap, attacker))
            defender = max(-self.cap, min(self.cap, defender))
        return (attacker, defender), found

    # -- odds and column, before any roll ------------------------------------------------
    def assess(self, combat: Combat) -> Assessment:
        """The strengths, odds, shifts and column of a combat, without rolling: what the players work out
        before the dice.  Works on a rulebook without a Combat Results Table (the column is then None)."""
        if self.odds is None:
            raise LookupError("this rulebook has no rounding rule, so no odds")
        ctx = self.bind(combat)
        attack, defense, steps = self.strengths(ctx)
        derivation = list(steps)
        derivation.append(f"attack {attack}, defense {defense}")
        pair = None if defense == 0 else self.odds(attack, defense)
        odds_text = "-" if pair is None else f"{pair[0]}:{pair[1]}"
        derivation.append(f"odds {odds_text}{self._cite(self.odds_rules)}")
        shift, shifts = self.column_shifts(ctx)
        derivation += [f"column shift {c}" for c in shifts]
        column: str | None = None
        position: int | None = None
        if self.table is not None:
            table = self.table
            if table.lines and self.terrain is not None:
                row = next((r for r in ctx.defender_terrain.rows if r.line), ctx.defender_terrain.rows[0])
                table = table.line(row.line or row.name)
                derivation.append(f"odds line {row.line or row.name} for {row.name}")
            column = table.column(pair, shift, self.shifts_before_limits, self.shift_off_left)
            derivation.append(f"column {column}" if column is not None else "below the table")
            position = None if column is None else table.columns.index(column)
        return Assessment(odds_text, column, attack, defense, shift, shifts, tuple(derivation), position)

    # -- the whole procedure ----------------------------------------------------------
    def resolve(self, combat: Combat, roll: Roll) -> Resolution:
        if self.table is None:
            raise LookupError("this rulebook has no Combat Results Table")
        if self.odds is None:
            raise LookupError("this rulebook has no rounding rule, so no odds")
        dice: tuple[int, ...] = () if isinstance(roll, int) else tuple(roll)
        total = roll if isinstance(roll, int) else sum(dice)
        if dice and not combat.dice:
            combat = Combat(combat.attacking_hexes, combat.defenders, combat.defender_terrain, combat.overrun,
                            combat.situations, combat.amounts, dice)
        ctx = self.bind(combat)
        attack, defense, steps = self.strengths(ctx)
        derivation = list(steps)
        derivation.append(f"attack {attack}, defense {defense}")
        pair = None if defense == 0 else self.odds(attack, defense)
        odds_text = "-" if pair is None else f"{pair[0]}:{pair[1]}"
        derivation.append(f"odds {odds_text}{self._cite(self.odds_rules)}")
        shift, shifts = self.column_shifts(ctx)
        derivation += [f"column shift {c}" for c in shifts]
        table, line = self.table, None
        if self.table.lines:
            if self.terrain is None:
                raise LookupError("a terrain-line Combat Results Table needs a Terrain Effects Chart")
            row = next((r for r in ctx.defender_terrain.rows if r.line), ctx.defender_terrain.rows[0])
            line = row.line or row.name
            table = self.table.line(line)
            derivation.append(f"odds line {line} for {row.name}")
        column = table.column(pair, shift, self.shifts_before_limits, self.shift_off_left)
        (drm_attacker, drm_defender), modifiers = self.drm(ctx)
        derivation += [f"DRM {c}" for c in modifiers]
        if column is None:
            result = table.below_result()
            derivation.append(f"below the table: {result.text}, no roll")
            return Resolution(result, odds_text, None, attack, defense, shift, shifts, (0, 0), modifiers,
                              total, line, tuple(derivation))
        derivation.append(f"column {column}" + (f" (shifted {shift:+d})" if shift else ""))
        if table.attacker is None:
            net = drm_defender  # a one-sided table reads one roll: 'both' DRMs apply once
            result = table.result(column, total, net)
            derivation.append(f"roll {total}{f' {net:+d} = {total + net}' if net else ''}: {result.text}")
        else:
            defender = table.result(column, total, drm_defender)
            attacker = table.attacker.result(defense, total, drm_attacker)
            derivation.append(f"defender side: roll {total} {drm_defender:+d} on {column}: {defender.text}")
            derivation.append(f"attacker side: roll {total} {drm_attacker:+d} on defense "
                              f"{table.attacker.column(defense)}: {attacker.text}")
            result = replace(defender, attacker_steps=attacker.attacker_steps,
                             attacker_retreat=attacker.attacker_retreat, text=f"{attacker.text} / {defender.text}",
                             breakthrough=attacker.breakthrough or defender.breakthrough,
                             attacker_eliminated=attacker.attacker_eliminated,
                             attacker_units=attacker.attacker_units, attacker_advance=attacker.attacker_advance,
                             attacker_states=attacker.attacker_states,
                             exchange=attacker.exchange or defender.exchange,
                             not_allowed=attacker.not_allowed or defender.not_allowed)
        result, adjusted = self.adjust(ctx, result)
        derivation += [f"adjusted {c}" for c in adjusted]
        if adjusted:
            derivation.append(f"result {result.text}")
        return Resolution(result, odds_text, column, attack, defense, shift, shifts, (drm_attacker, drm_defender),
                          modifiers, total, line, tuple(derivation))

    def adjust(self, ctx: Context, result: Result) -> tuple[Result, tuple[Contribution, ...]]:
        """Apply the result adjustments, each judged against the result as read from the table."""
        if not self.adjustments:
            return result, ()
        ctx.result = result
        found = tuple(Contribution(a.name, f"{a.field} {a.amount:+d}", a.rules)
                      for a in self.adjustments if a.condition(ctx))
        if not found:
            return result, ()
        values = {"attacker-steps": result.attacker_steps, "attacker-retreat": result.attacker_retreat,
                  "defender-steps": result.defender_steps, "defender-retreat": result.defender_retreat}
        for spec in self.adjustments:
            if spec.condition(ctx):
                values[spec.field] = max(0, values[spec.field] + spec.amount)
        return replace(result, attacker_steps=values["attacker-steps"], attacker_retreat=values["attacker-retreat"],
                       defender_steps=values["defender-steps"], defender_retreat=values["defender-retreat"],
                       text=result.text + " (adjusted)"), found
