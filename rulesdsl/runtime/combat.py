"""The combat context generated modules evaluate rulebook expressions over.

Callers describe a combat with plain data (Unit, AttackingHex, Combat); a
generated module binds it to its rulebook (unit types and their
capabilities, states, situations, terrain) and evaluates its definitions,
die roll modifiers and column shifts, keeping a derivation of each step.
"""
from __future__ import annotations

import copy
import difflib
import math
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property, partial, wraps
from fractions import Fraction
from typing import TypeVar, cast

from .arithmetic import Exact, Number, exact_value, simplest
from .notation import Result, difference_text, parse_result
from .tables import ABOVE, CombatResultsTable, difference
from .terrain import HEXSIDE_COMBINATIONS, CombatEffect, Terrain, TerrainEffectsChart, in_chart_order, negated
from . import effects
from .model import RuleEntry

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
    # the sides fighting, by the names the sequence of play gives them: read where a TEC cell is for one side
    attacker_side: str = ""
    defender_side: str = ""
    # an attack the rules require (not one the attacker chose): below the table it reads the rulebook's
    # combat.below_table_forced, where that is set
    forced: bool = False


# The result of an attack refused before its odds (a prohibited hexside or terrain).  Below the table, the
# rulebook's own code says it (NA, declared `not allowed`).
NOT_ALLOWED = Result(text="not allowed", not_allowed=True)

# What an exchange costs the attacker (combat.exchange_measure): at least the steps, the units or the combat
# factors the defender loses.  A unit type with the capability EXCHANGE_EXEMPT (`unit types { hq  exchange-exempt }`)
# never pays an exchange: it is not removed for it and its factors do not count toward it.
EXCHANGE_MEASURES = ("factors", "steps", "units")
EXCHANGE_EXEMPT = "exchange-exempt"


# A roll: the dice total, or the dice themselves (white, red) when the rulebook reads them.
Roll = int | tuple[int, ...] | list[int]


class RulesInputError(ValueError):
    """A combat that names something the rulebook does not know."""


class _Prohibited(Exception):
    """Inside the procedure: the attack crosses a prohibited hexside or enters prohibited terrain."""


class DiceApartNeeded(RulesInputError):
    """A roll given as a total to a rulebook that reads the white and the red die apart."""


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
    """A unit as expressions read it: its numbers exact, and the words it answers to (its type, the
    type's capabilities, its states)."""

    __slots__ = ("unit", "type", "attack", "defense", "quality", "steps", "_words")

    def __init__(self, unit: Unit, words: frozenset[str]):
        self.unit = unit
        self.type = unit.type
        self.attack = exact_value(unit.attack)
        self.defense = exact_value(unit.defense)
        self.quality = exact_value(unit.quality)
        self.steps = exact_value(unit.steps)
        self._words = words

    def is_(self, word: str) -> bool:
        return word in self._words

    @property
    def words(self) -> frozenset[str]:
        """What `unit is WORD` reads of it: its type, its type's capabilities and its states, lowered."""
        return frozenset(w.lower() for w in self._words)


class BoundHex:
    """An attacking hex as expressions read it."""

    __slots__ = ("units", "_terrain", "hexsides", "_crossed", "factor", "prohibited")

    def __init__(self, units: tuple[BoundUnit, ...], terrain: BoundTerrain | None, hexsides: tuple[str, ...],
                 crossed: frozenset[str], factor: Fraction | None):
        self.units = units
        self._terrain = terrain
        self.hexsides = hexsides
        self._crossed = crossed
        self.prohibited = factor is None          # attacking across its hexsides is prohibited
        self.factor: Exact = 0 if factor is None else (1 if factor == 1 else factor)

    @property
    def terrain(self) -> BoundTerrain:
        """The hex's terrain, for expressions that read it; an error when the caller gave none."""
        if self._terrain is None:
            raise RulesInputError("the rulebook reads the terrain of an attacking hex: "
                                  "give each AttackingHex its terrain")
        return self._terrain

    def crosses(self, name: str) -> bool:
        return name in self._crossed


@dataclass(frozen=True)
class Vocabulary:
    unit_types: Mapping[str, tuple[str, ...]]
    states: frozenset[str] = frozenset()
    situations: frozenset[str] = frozenset()
    amounts: frozenset[str] = frozenset()


class Context:
    """A combat bound to a rulebook: what expressions read (see rulesdsl/model/context.py).  CombatEngine.bind
    makes one; `memo` keeps each definition's value for this combat (see `once_per_combat`)."""

    __slots__ = ("combat", "defender_terrain", "attacking_hexes", "attackers", "defenders", "overrun",
                 "crossed", "with_terrain", "defense_factor", "memo", "_situations", "_amounts", "_dice", "_result")

    def __init__(self, combat: Combat, vocabulary: Vocabulary, defender_terrain: BoundTerrain,
                 attacking_hexes: tuple[BoundHex, ...], defenders: tuple[BoundUnit, ...],
                 crossed: tuple[Terrain, ...], defense_factor: Fraction | None = Fraction(1),
                 with_terrain: CombatEffect | None = None):
        self.combat = combat
        self.defense_factor = defense_factor   # the defender's terrain's multiplier; None: attacking it is prohibited
        self.defender_terrain = defender_terrain
        self.attacking_hexes = attacking_hexes
        self.attackers = tuple(u for h in attacking_hexes for u in h.units)
        self.defenders = defenders
        self.crossed = crossed      # the hexside features whose shift, DRM or defender factor applies
        # `combat.hexside_combination = with-terrain`, some hexside crossed: the hex's terrain and those
        # hexsides combined by the terrain combination, in place of the hex's effect and each hexside's
        self.with_terrain = with_terrain
        self.overrun = bool(combat.overrun)
        self.memo: dict[str, object] = {}
        if combat.situations:
            for name in combat.situations:
                if name not in vocabulary.situations:
                    raise _unknown("combat situation", name, vocabulary.situations)
        if combat.amounts:
            for name in combat.amounts:
                if name not in vocabulary.amounts:
                    raise _unknown("combat amount", name, vocabulary.amounts)
        self._situations = frozenset(combat.situations)
        self._amounts = {k: exact_value(v) for k, v in combat.amounts.items()} if combat.amounts else {}
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

    def _die(self, index: int) -> int:
        if len(self._dice) < 2:
            raise DiceApartNeeded("this rulebook reads the white and the red die: pass the roll as (white, red)")
        return int(self._dice[index])

    @property
    def dice_white(self) -> int:
        return self._die(0)

    @property
    def dice_red(self) -> int:
        return self._die(1)

    @property
    def attacker_side(self) -> str:
        """What `attacker.side` reads: the side that attacks ('' when the combat names none)."""
        return self.combat.attacker_side

    @property
    def defender_side(self) -> str:
        """What `defender.side` reads: the side that defends."""
        return self.combat.defender_side

    def situation(self, name: str) -> bool:
        return name in self._situations

    def amount(self, name: str) -> Exact:
        return self._amounts.get(name, 0)



def _multiplier(effect: CombatEffect, side: str) -> Fraction:
    """A TEC combat effect's multiplier on the attacker or the defender (1 when it has none)."""
    value = effect.attacker if side == "attacker" else effect.defender
    return Fraction(value) if effect.kind == "multiply" and value is not None else Fraction(1)


def _columns(shift: int) -> str:
    """A column shift as the TEC writes it: 1L, 2R."""
    return f"{-shift}L" if shift < 0 else f"{shift}R" if shift > 0 else "no shift"


def adjusted_text(read: Result, adjusted: Result) -> str:
    """What a result adjustment leaves, written as the table writes its cells (steps-first, each side of a
    dual-sided table apart: `- / D1`); a cell in another notation keeps its text, marked adjusted."""
    sides = read.text.split(" / ")
    if len(sides) > 2 or any(parse_result(s.strip()) is None for s in sides):
        return read.text + " (adjusted)"
    star = "*" if read.breakthrough else ""

    def side(letter: str, steps: int, retreat: int) -> str:
        return (f"{letter}{steps or ''}" + (f"r{retreat}" if retreat else "")) if steps or retreat else ""
    attacker = side("A", adjusted.attacker_steps, adjusted.attacker_retreat)
    defender = side("D", adjusted.defender_steps, adjusted.defender_retreat)
    if len(sides) == 2:
        return f"{attacker or '-'} / {(defender + star) if defender else '-'}"
    return (attacker + defender + star) if attacker or defender else "-"

def _exchange_worth(measure: str, unit: BoundUnit, paying: str = "attacker") -> Exact:
    """What a unit pays toward an exchange, in its measure: its steps, one unit, or its printed factors (attack
    factors for the attacker's, defense factors where the defender pays: combat.exchange_loser)."""
    if measure == "factors":
        return unit.attack if paying == "attacker" else unit.defense
    return unit.steps if measure == "steps" else 1


def _least_cover(values: list[Exact], need: Exact) -> list[int]:
    """The indexes of `values` whose total is at least `need` and least (then the fewest of them); every
    index when even their sum falls short.  The values are few (the units of one attack)."""
    if need <= 0:
        return []
    best: tuple[Exact, int, tuple[int, ...]] | None = None
    below: dict[Exact, tuple[int, ...]] = {0: ()}     # each total under `need` reached, by the fewest values
    for index, value in enumerate(values):
        if value <= 0:
            continue
        for total, chosen in list(below.items()):
            reached, picked = total + value, chosen + (index,)
            if reached >= need:
                if best is None or (reached, len(picked)) < (best[0], best[1]):
                    best = (reached, len(picked), picked)
            elif reached not in below or len(picked) < len(below[reached]):
                below[reached] = picked
    return list(range(len(values))) if best is None else sorted(best[2])


D = TypeVar("D")
K = TypeVar("K")
V = TypeVar("V")


def once_per_combat(function: Callable[[Context], D]) -> Callable[[Context], D]:
    """A rulebook definition, worked out once per combat however many rules read it: its value is kept
    in the combat's context (definitions read the combat, never the result, so the value cannot change)."""
    name = function.__name__

    @wraps(function)
    def definition(ctx: Context) -> D:
        memo = ctx.memo
        if name in memo:
            return cast(D, memo[name])
        value = memo[name] = function(ctx)
        return value

    return definition


# ---- what compiled expressions call ---------------------------------------------
# Numbers stay exact: whole ones as ints, the rest as Fractions (see arithmetic.Exact).
def count_where(items: Iterable[T], test: Callable[[T], bool] | None) -> int:
    return sum(1 for item in items if test is None or test(item))


def any_where(items: Iterable[T], test: Callable[[T], bool] | None) -> bool:
    return any(test is None or test(item) for item in items)


def all_where(items: Iterable[T], test: Callable[[T], bool]) -> bool:
    return all(test(item) for item in items)


def sum_of(items: Iterable[T], test: Callable[[T], bool] | None, value: Callable[[T], Exact]) -> Exact:
    return sum((value(item) for item in items if test is None or test(item)), 0)


def max_of(items: Iterable[T], test: Callable[[T], bool] | None, value: Callable[[T], Exact]) -> Exact:
    return max((value(item) for item in items if test is None or test(item)), default=0)


def min_of(items: Iterable[T], test: Callable[[T], bool] | None, value: Callable[[T], Exact]) -> Exact:
    return min((value(item) for item in items if test is None or test(item)), default=0)


class DivisionByZero(ZeroDivisionError):
    """A rulebook expression divided by 0 as the game was played: the message names where the rulebook
    divides (the compiler warned of it)."""


def divide(a: Exact, b: Exact, where: str = "") -> Fraction:
    if b == 0:
        raise DivisionByZero(f"{where}: " * bool(where) + "a rulebook expression divided by 0 (its divisor was 0 in "
                             "this situation)")
    return Fraction(a) / Fraction(b)


def floor_(x: Exact) -> int:
    return math.floor(x)


def ceil_(x: Exact) -> int:
    return math.ceil(x)


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


Explain = Callable[[], tuple[str, ...]]


@dataclass(frozen=True)
class Assessment:
    """A combat's odds and column before the roll, and how they were reached.  `derivation` is worked out
    when first read (the engine goes through the combat again, writing each step down)."""

    odds: str
    column: str | None
    attack: Exact
    defense: Exact
    shift: int
    shifts: tuple[Contribution, ...]
    position: int | None = None    # the column's place from the left (on its terrain line); None below the table
    explain: Explain | None = field(default=None, repr=False, compare=False)
    refused: str | None = None     # why the attack may not be made: across a prohibited hexside, into prohibited
                                   # terrain (no odds and no column then), or below the table where its result is
                                   # a code that says so (NA; a voluntary attack under combat.below_table_forced)

    @cached_property
    def derivation(self) -> tuple[str, ...]:
        """Each step from the units to the column, citing its rules."""
        return self.explain() if self.explain is not None else ()


@dataclass(frozen=True)
class Exchange:
    """What an exchange costs (`combat.exchange_measure`): the defender loses every unit it fought with, and
    the attacker at least `loss`, counted in `measure`: the defender's steps, its units, or its defense factors
    (printed, or as its terrain multiplies them: `combat.exchange_counts_terrain`) met by printed attack factors.

    payers: the attacking units that may pay it (an `exchange-exempt` type never does); chosen: for factors, the
    payers that meet it losing the fewest factors (then the fewest units), one choice the attacker may make;
    lost: what the chosen units total; short: the payers together fall short of it, and every one is lost.
    Where the side with fewer factors loses everything and that is the attacker (`loser`), the payers are the
    defending units and `loss` is what the attacker's units count."""

    measure: str
    loss: Exact
    payers: tuple[Unit, ...]
    chosen: tuple[Unit, ...] = ()
    lost: Exact = 0
    short: bool = False
    loser: str = "defender"     # who loses every unit; `attacker` (combat.exchange_loser): the defender pays


@dataclass(frozen=True)
class Resolution:
    """A resolved combat and how it was reached.  `derivation` is worked out when first read."""

    result: Result
    odds: str
    column: str | None
    attack: Exact
    defense: Exact
    shift: int
    shifts: tuple[Contribution, ...]
    drm: tuple[int, int]                # (attacker side, defender side), after the cap
    modifiers: tuple[Contribution, ...]
    roll: int
    line: str | None = None
    explain: Explain | None = field(default=None, repr=False, compare=False)
    refused: str | None = None          # why the attack may not be made: the result is then "not allowed", or the
                                        # rulebook's code for it (NA) below the table
    exchange: Exchange | None = None    # a result that says `exchange`, where the rulebook sets what it costs

    @cached_property
    def derivation(self) -> tuple[str, ...]:
        """Each step from the units to the result, citing its rules."""
        return self.explain() if self.explain is not None else ()


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
    factor: Callable[[Context], Exact]
    condition: Callable[[Context, BoundUnit], bool]
    rules: tuple[str, ...] = ()
    supply: bool = False  # a supply penalty (see supply.minimum_strength, supply.penalties_round_down)
    cap: bool = False         # `at most`: the strength is held to the factor, not multiplied by it
    round_down: bool = False  # `rounded down`: the unit's strength is rounded down after it


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
    amount: Callable[[Context], Exact]
    maximum: int | None
    condition: Callable[[Context], bool] | None
    rules: tuple[str, ...] = ()


class CombatEngine:
    """The combat procedure a generated module assembles from its rulebook.

    One procedure serves every question: it binds the combat (checking every name against the rulebook),
    works out the strengths, odds, column shifts and column, then the DRMs and the result.  It writes the
    derivation down only when asked: a Resolution or Assessment reads the combat again, with `steps`, the
    first time its `derivation` is read.  What depends on the rulebook alone (a terrain as expressions read
    it, a hexside crossing's multiplier, a unit type's words) is worked out once and kept."""

    _KEEP = 4096    # answers kept per kind of question (they depend on the rulebook and the names asked)

    def __init__(self, *, vocabulary: Vocabulary, terrain: TerrainEffectsChart | None,
                 table: CombatResultsTable | None, odds: Callable[[Number, Number], tuple[int, int]] | None,
                 modifiers: Iterable[ModifierSpec] = (), cap: int | None = None, shifts: Iterable[ShiftSpec] = (),
                 per_side: int | None = None, terrain_rules: Iterable[str] = (), odds_rules: Iterable[str] = (),
                 table_rules: Iterable[str] = (),
                 adjustments: Iterable[AdjustmentSpec] = (), shifts_before_limits: bool = False,
                 factors: Iterable[FactorSpec] = (), terrain_combination: str | None = None,
                 shift_off_left: bool | None = None, terrain_per_unit: bool = True,
                 hexside_combination: str = "cumulative", game_modifiers_in_overruns: bool = True,
                 supply_minimum: Number | None = None, supply_round_down: bool = False,
                 exchange_measure: str | None = None, exchange_counts_terrain: bool = False,
                 parameter_rules: Mapping[str, str] | None = None, rules: Mapping[str, RuleEntry] | None = None,
                 exchange_loser: str | None = None):
        self.terrain_combination = terrain_combination
        self.shift_off_left, self.terrain_per_unit = shift_off_left, terrain_per_unit
        self.game_modifiers_in_overruns = game_modifiers_in_overruns
        self.supply_minimum = None if supply_minimum is None else exact_value(supply_minimum)
        self.supply_round_down = supply_round_down
        self.parameter_rules = dict(parameter_rules or {})   # parameter -> the rule that sets it, for citing
        self.vocabulary, self.terrain, self.table, self.odds = vocabulary, terrain, table, odds
        self.modifiers, self.cap = tuple(modifiers), cap
        self.shift_specs, self.per_side = tuple(shifts), per_side
        self.terrain_rules, self.odds_rules = tuple(terrain_rules), tuple(odds_rules)
        self.table_rules = tuple(table_rules)     # the Combat Results Table's cites: the column, the roll
        self.adjustments = tuple(adjustments)
        self.shifts_before_limits = shifts_before_limits
        self.factors = tuple(factors)
        self._role_factors = {role: tuple(f for f in self.factors if f.role == role) for role in ("attack", "defense")}
        self._combination = terrain_combination or "cumulative"
        if hexside_combination not in HEXSIDE_COMBINATIONS:
            raise ValueError(f"unknown hexside combination {hexside_combination!r}: one of "
                             f"{', '.join(HEXSIDE_COMBINATIONS)}")
        self.hexside_combination = hexside_combination
        if exchange_measure is not None and exchange_measure not in EXCHANGE_MEASURES:
            raise ValueError(f"unknown exchange measure {exchange_measure!r}: one of {', '.join(EXCHANGE_MEASURES)}")
        self.exchange_measure, self.exchange_counts_terrain = exchange_measure, exchange_counts_terrain
        if exchange_loser not in (None, "defender", "fewer-factors"):
            raise ValueError(f"unknown exchange loser {exchange_loser!r}: defender or fewer-factors")
        self.exchange_loser = exchange_loser
        # the rules' effects on who pays an exchange (`exempt exchange-loss when unit is artillery and unit is
        # bombarding`), in the rules' order
        self._exchange_effects = tuple((entry, effect) for entry in (rules or {}).values()
                                       for effect in entry.effects if effect.question == "exchange-loss")
        # a hexside combined with the hex's terrain: the same as on top of it when every effect adds up
        self._with_terrain = hexside_combination == "with-terrain" and self._combination != "cumulative"
        # what depends on the rulebook alone, by the names asked
        self._terrains: dict[object, BoundTerrain] = {}
        self._sides: dict[tuple[str, ...], frozenset[str]] = {}
        self._hex_factors: dict[tuple[object, tuple[str, ...]], Fraction | None] = {}
        self._defense_factors: dict[object, Fraction | None] = {}
        self._crossings: dict[tuple[tuple[str, ...], ...], tuple[Terrain, ...]] = {}
        self._across: dict[tuple[object, tuple[Terrain, ...]], CombatEffect] = {}
        self._words: dict[tuple[str, object], frozenset[str]] = {}
        self._by_sides: dict[tuple[str, str], CombatEngine] = {}

    # -- binding a combat to the rulebook ------------------------------------------------
    def _for_sides(self, combat: Combat) -> CombatEngine:
        """The engine on the chart as the combat's sides fight on it (itself when no TEC cell is for one
        side): a one-side cell has no effect for the other side."""
        chart = self.terrain
        if chart is None or not chart.one_side:
            return self
        key = (combat.attacker_side, combat.defender_side)
        engine = self._by_sides.get(key)
        if engine is None:
            try:
                view = chart.for_sides(*key)
            except ValueError as exc:
                raise RulesInputError(str(exc)) from None
            engine = copy.copy(self)
            engine.terrain, engine._by_sides = view, {}
            engine._terrains, engine._sides, engine._hex_factors, engine._defense_factors, engine._crossings = \
                {}, {}, {}, {}, {}
            engine._across = {}
            self._keep(self._by_sides, key, engine)
        return engine

    def bind(self, combat: Combat) -> Context:
        if not isinstance(combat, Combat):
            raise TypeError("expected a rulesdsl.runtime.combat.Combat")
        engine = self._for_sides(combat)
        if engine is not self:
            return engine.bind(combat)
        chart = self.terrain
        defender_terrain = self._terrain(combat.defender_terrain)
        hexes = []
        for hex_ in combat.attacking_hexes:
            sides = hex_.hexsides if type(hex_.hexsides) is tuple else tuple(hex_.hexsides)
            crossed = self._crossed_names(sides)
            units = tuple([BoundUnit(u, self._unit_words(u)) for u in hex_.units])
            terrain = self._terrain(hex_.terrain or ()) if hex_.terrain or not chart else None
            factor = self._hex_factor(defender_terrain.query, sides) if chart is not None else Fraction(1)
            hexes.append(BoundHex(units, terrain, sides, crossed, factor))
        defenders = tuple([BoundUnit(u, self._unit_words(u)) for u in combat.defenders])
        crossings = tuple(h.hexsides for h in hexes)
        crossed_rows = self._crossings.get(crossings)
        if crossed_rows is None:
            crossed_rows = () if chart is None else chart.crossed_effects(crossings)
            self._keep(self._crossings, crossings, crossed_rows)
        defense_factor = self._defense_factor(defender_terrain.query) if chart is not None else Fraction(1)
        with_terrain = None
        if self._with_terrain and crossed_rows and defense_factor is not None:
            with_terrain = self._effect_across(defender_terrain.query, crossed_rows)
        return Context(combat, self.vocabulary, defender_terrain, tuple(hexes), defenders, crossed_rows,
                       defense_factor, with_terrain)

    def _keep(self, cache: dict[K, V], key: K, value: V) -> None:
        if len(cache) < self._KEEP:
            cache[key] = value

    def _terrain(self, name: str | tuple[str, ...]) -> BoundTerrain:
        key = name if isinstance(name, str) else tuple(name)
        bound = self._terrains.get(key)
        if bound is None:
            bound = BoundTerrain(self.terrain, key, self.terrain_combination)
            self._keep(self._terrains, key, bound)
        return bound

    def _crossed_names(self, sides: tuple[str, ...]) -> frozenset[str]:
        """The chart's names of the hexside features `sides` names, each checked to be one."""
        names = self._sides.get(sides)
        if names is None:
            chart = self.terrain
            for name in sides:
                if chart is None or name not in chart:
                    raise _unknown("hexside", name, list(chart or ()))
                if chart[name].kind != "hexside":
                    raise RulesInputError(f"{name!r} is {chart[name].kind} terrain, not a hexside feature: it is "
                                          "the terrain of a hex")
            names = frozenset(chart[n].name for n in sides) if chart is not None else frozenset()
            self._keep(self._sides, sides, names)
        return names

    def _hex_factor(self, terrain: str | tuple[str, ...], sides: tuple[str, ...]) -> Fraction | None:
        """The TEC's exact multiplier on attacks from a hex across `sides` into `terrain`; None: prohibited."""
        key = (terrain, sides)
        try:
            return self._hex_factors[key]
        except KeyError:
            assert self.terrain is not None
            factor = self.terrain.attack_factor(terrain, sides, self._combination, self._with_terrain)
            self._keep(self._hex_factors, key, factor)
            return factor

    def _effect_across(self, terrain: str | tuple[str, ...], crossed: tuple[Terrain, ...]) -> CombatEffect:
        """The effect of the defender's hex with the hexsides `crossed` counted as more of its terrains
        (`combat.hexside_combination = with-terrain`)."""
        key = (terrain, crossed)
        try:
            return self._across[key]
        except KeyError:
            assert self.terrain is not None
            effect = self.terrain.hex_effect_across(terrain, tuple(r.name for r in crossed), self._combination)
            self._keep(self._across, key, effect)
            return effect

    def _defense_factor(self, terrain: str | tuple[str, ...]) -> Fraction | None:
        try:
            return self._defense_factors[terrain]
        except KeyError:
            assert self.terrain is not None
            factor = self.terrain.defense_factor(terrain, (), self._combination)
            self._keep(self._defense_factors, terrain, factor)
            return factor

    def _unit_words(self, unit: Unit) -> frozenset[str]:
        """What `unit` answers to in expressions: its type, the type's capabilities, its states."""
        states = unit.states
        key = (unit.type, states if isinstance(states, (frozenset, tuple)) else tuple(states))
        words = self._words.get(key)
        if words is None:
            vocabulary = self.vocabulary
            # a rulebook that declares no unit types reads none: its units need none
            if unit.type not in vocabulary.unit_types and (unit.type or vocabulary.unit_types):
                raise _unknown("unit type", unit.type, vocabulary.unit_types)
            for state in states:
                if state not in vocabulary.states:
                    raise _unknown("unit state", state, vocabulary.states)
            kinds = (unit.type, *vocabulary.unit_types[unit.type]) if unit.type else ()
            words = frozenset(kinds) | frozenset(states)
            self._keep(self._words, key, words)
        return words

    @staticmethod
    def _cite(rules: tuple[str, ...]) -> str:
        return f" [{' '.join(rules)}]" if rules else ""

    def _cite_parameter(self, name: str) -> str:
        rule = self.parameter_rules.get(name)
        return f" [{rule}: {name}]" if rule else f" [{name}]"

    # -- strengths ----------------------------------------------------------
    def _unit_strength(self, ctx: Context, unit: BoundUnit, role: str, steps: list[str] | None) -> Exact:
        """A unit's attack or defense after the rulebook's strength factors (DG, supply ...)."""
        printed = value = unit.attack if role == "attack" else unit.defense
        penalised = False
        for spec in self._role_factors[role]:
            if spec.condition(ctx, unit):
                factor = exact_value(spec.factor(ctx))
                before = value
                if spec.cap:
                    value = min(value, factor)
                    said = f"{unit.type} {role} {before} held to at most {factor} for {spec.name}"
                else:
                    value *= factor
                    said = f"{unit.type} {role} {before} x {factor} for {spec.name}"
                if spec.round_down and not isinstance(value, int) and value.denominator != 1:
                    value = math.floor(value)
                    said += f", rounded down to {value}"
                if steps is not None:
                    steps.append(said + self._cite(spec.rules))
                penalised = penalised or (spec.supply and factor < 1 and not spec.cap)
        if not penalised:
            return value
        if self.supply_round_down and not isinstance(value, int) and value.denominator != 1:
            if steps is not None:
                steps.append(f"{unit.type} {role} {value} rounded down to {math.floor(value)}"
                             f"{self._cite_parameter('supply.penalties_round_down')}")
            value = math.floor(value)
        if self.supply_minimum is not None and value < min(self.supply_minimum, printed):
            floor = min(self.supply_minimum, printed)
            if steps is not None:
                steps.append(f"{unit.type} {role} {value} raised to {floor}, the least a supply penalty leaves"
                             f"{self._cite_parameter('supply.minimum_strength')}")
            value = floor
        return value

    def strengths(self, ctx: Context, steps: list[str] | None = None) -> tuple[Exact, Exact]:
        """The attack (each hex's units times its terrain multiplier) and the defense (times the defender's
        terrain and the hexsides crossed), each unit after its strength factors."""
        factors: list[Exact] = []
        for index, hex_ in enumerate(ctx.attacking_hexes, 1):
            if hex_.prohibited:
                where = f"across {', '.join(hex_.hexsides)}" if hex_.hexsides else f"into {ctx.defender_terrain.name}"
                raise _Prohibited(f"attacking from hex {index} {where} is prohibited")
            factors.append(hex_.factor)
        if not self.terrain_per_unit and factors:
            whole = min(factors)
            if any(f != whole for f in factors):
                if steps is not None:
                    steps.append(f"terrain counts for the whole attack, not unit by unit: every attacking hex takes "
                                 f"the least favourable multiplier, x {whole}"
                                 f"{self._cite_parameter('combat.terrain_per_unit')}")
                factors = [whole] * len(factors)
        plain_attack = not self._role_factors["attack"]
        attack: Exact = 0
        for index, (hex_, factor) in enumerate(zip(ctx.attacking_hexes, factors), 1):
            total: Exact = 0
            for unit in hex_.units:
                total += unit.attack if plain_attack else self._unit_strength(ctx, unit, "attack", steps)
            if factor == 1:
                attack += total
                continue
            attack += total * factor
            if steps is not None:
                label = ctx.combat.attacking_hexes[index - 1].name or f"hex {index}"
                how = self._attack_across(ctx, hex_) if self._with_terrain and factor == hex_.factor else None
                steps.append(f"{label}: attack {total} x {factor} for terrain" + (f" ({how})" if how else "")
                             + self._cite(self.terrain_rules)
                             + (self._cite_parameter("combat.hexside_combination") if how else ""))
        plain_defense = not self._role_factors["defense"]
        defense: Exact = 0
        for unit in ctx.defenders:
            defense += unit.defense if plain_defense else self._unit_strength(ctx, unit, "defense", steps)
        return simplest(attack), simplest(self._terrain_defense(ctx, defense, steps))

    def _terrain_defense(self, ctx: Context, defense: Exact, steps: list[str] | None) -> Exact:
        """`defense` times the defender's terrain and the hexsides crossed (as one, where
        `combat.hexside_combination = with-terrain` says so)."""
        if self.terrain is None:
            return defense
        multiplier = ctx.defense_factor
        if multiplier is None:
            raise _Prohibited(f"attacking into {ctx.defender_terrain.name} is prohibited")
        combined = ctx.with_terrain
        if combined is not None:     # the hex and the hexsides crossed as one, not cumulative
            result = _multiplier(combined, "defender")
            parts = [(ctx.defender_terrain.name, multiplier)] + [
                (row.name, _multiplier(row.combat, "defender")) for row in ctx.crossed]
            how = self._not_cumulative(parts, Fraction(1), result, lambda v: f"x{v}")
            if steps is not None and how is not None:
                names = " and ".join([ctx.defender_terrain.name] + [self._crossing(r) for r in ctx.crossed])
                steps.append(f"defense {defense} x {result} for {names}: {how}{self._cite(self.terrain_rules)}"
                             f"{self._cite_parameter('combat.hexside_combination')}")
            elif steps is not None and result != 1:
                named = next(n for n, v in parts if v != 1)
                label = next((self._crossing(r) for r in ctx.crossed if r.name == named), named)
                steps.append(f"defense {defense} x {result} for {label}{self._cite(self.terrain_rules)}")
            return defense * result
        if multiplier != 1:
            if steps is not None:
                steps.append(f"defense {defense} x {multiplier} for {ctx.defender_terrain.name}"
                             f"{self._cite(self.terrain_rules)}")
            defense *= multiplier
        for row in ctx.crossed:      # a hexside's defender multiplier, as its crossing says
            if row.combat.defender is not None and row.combat.defender != 1:
                if steps is not None:
                    steps.append(f"defense {defense} x {row.combat.defender} for {self._crossing(row)}"
                                 f"{self._cite(self.terrain_rules)}")
                defense *= row.combat.defender
        return defense

    # -- column shifts ------------------------------------------------------------
    def column_shifts(self, ctx: Context) -> tuple[int, tuple[Contribution, ...]]:
        """The TEC's shift for the defender's terrain, each source's shift (capped by its maximum),
        then the net after the per-side cap: right shifts (+) and left shifts (-) add up, so
        identical opposing shifts cancel."""
        found: list[Contribution] = []
        right = left = 0
        terrain = int(ctx.defender_terrain.shift)
        combined = ctx.with_terrain
        if combined is not None:     # the hex and the hexsides crossed as one shift, not cumulative
            terrain = combined.shift
            parts = [(ctx.defender_terrain.name, int(ctx.defender_terrain.shift))] + [
                (row.name, row.combat.shift) for row in ctx.crossed]
            how = self._not_cumulative(parts, 0, terrain, _columns)
            if terrain:
                found.append(Contribution(f"terrain ({how})" if how else next(
                    (self._crossing(r) for r in ctx.crossed if r.combat.shift == terrain), "terrain"), terrain,
                    self._across_rules() if how else self.terrain_rules))
        elif terrain:
            found.append(Contribution("terrain", terrain, self.terrain_rules))
        amounts = [terrain]
        for row in ctx.crossed if combined is None else ():
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
        for amount in amounts:
            if amount > 0:
                right += amount
            else:
                left += amount
        if self.per_side is not None:
            right, left = min(right, self.per_side), max(left, -self.per_side)
        return right + left, tuple(found)

    @staticmethod
    def _crossing(row: Terrain) -> str:
        every = row.combat.across == "all-across"
        return f"{row.name} ({'every' if every else 'an'} attacker across)"

    # -- a hexside combined with the hex's terrain (combat.hexside_combination = with-terrain) ----------
    def _not_cumulative(self, parts: list[tuple[str, T]], neutral: T, result: T,
                        shown: Callable[[T], str]) -> str | None:
        """How the terrain combination reached `result` from the hex's value and each hexside's (`parts`, the
        hex first): 'ford x2 not cumulative with rough x2, the most restrictive applies'; None when one terrain
        alone has an effect and it applies as it is (nothing was combined)."""
        active = [(name, value) for name, value in parts if value != neutral]
        if not active or (len(active) == 1 and active[0][1] == result):
            return None
        said = [f"{name} {shown(value)}" if value != neutral else name for name, value in parts]
        how = ("the most restrictive applies" if self._combination == "most-restrictive"
               else "only the terrain best for the defender applies")
        return f"{', '.join(said[1:])} not cumulative with {said[0]}, {how}: {shown(result)}"

    def _across_rules(self) -> tuple[str, ...]:
        """The rules a combined hex-and-hexside effect cites: the chart's, and the rule that combines them."""
        rule = self.parameter_rules.get("combat.hexside_combination")
        return self.terrain_rules + ((rule,) if rule and rule not in self.terrain_rules else ())

    def _attack_across(self, ctx: Context, hex_: BoundHex) -> str | None:
        """How an attacking hex's multiplier was reached with its hexsides combined with the defender's hex."""
        chart = self.terrain
        if chart is None or not hex_.hexsides:
            return None
        rows = [chart[name] for name in hex_.hexsides]
        cancelled = negated(rows)
        parts = [(ctx.defender_terrain.name, ctx.defender_terrain.attack)] + [
            (row.name, _multiplier(row.combat, "attacker")) for row in rows if row.name.lower() not in cancelled]
        return self._not_cumulative(parts, Fraction(1), Fraction(hex_.factor), lambda v: f"x{v}")

    # -- die roll modifiers ---------------------------------------------------------
    def drm(self, ctx: Context) -> tuple[tuple[int, int], tuple[Contribution, ...]]:
        """(attacker side, defender side) net DRMs after the cap, and each that applied."""
        # the TEC's DRMs (the defender's hex, then each hexside crossed) modify the roll read by odds
        terrain = [(name, drm) for name, drm in [("terrain", ctx.defender_terrain.drm)] + [
            (self._crossing(row), row.combat.drm) for row in ctx.crossed] if drm]
        rules = self.terrain_rules
        combined = ctx.with_terrain
        if combined is not None:     # the hex and the hexsides crossed as one DRM, not cumulative
            parts = [(ctx.defender_terrain.name, ctx.defender_terrain.drm)] + [
                (row.name, row.combat.drm) for row in ctx.crossed]
            how = self._not_cumulative(parts, 0, combined.drm, lambda v: f"{v:+d}")
            name = f"terrain ({how})" if how else next(
                (self._crossing(r) for r in ctx.crossed if r.combat.drm == combined.drm), "terrain")
            terrain = [(name, combined.drm)] if combined.drm else []
            rules = self._across_rules() if how else rules
        applied = tuple(m for m in self.modifiers if m.condition(ctx))
        if ctx.overrun and not self.game_modifiers_in_overruns:   # the game's own DRMs stay out of overruns
            applied = tuple(m for m in applied if not m.game)
        if not terrain and not applied:
            return (0, 0), ()
        found = tuple(Contribution(name, drm, rules) for name, drm in terrain) + \
            tuple(Contribution(m.name, m.value, m.rules, m.side) for m in applied)
        attacker = sum(m.value for m in applied if m.side in ("attacker", "both"))
        defender = sum(m.value for m in applied if m.side in ("defender", "both")) + sum(d for _, d in terrain)
        if self.cap is not None:
            attacker = max(-self.cap, min(self.cap, attacker))
            defender = max(-self.cap, min(self.cap, defender))
        return (attacker, defender), found

    # -- odds and column, before any roll ------------------------------------------------
    def _column(self, ctx: Context, steps: list[str] | None
                ) -> tuple[Exact, Exact, str, int, tuple[Contribution, ...], CombatResultsTable | None,
                           str | None, str | None]:
        """Strengths, odds, shifts and column: (attack, defense, odds, shift, shifts, table read, its terrain
        line, column).  The table is None when the rulebook has none, and so is the column below it."""
        odds = self.odds
        differential = self.table is not None and self.table.differential
        attack, defense = self.strengths(ctx, steps)
        pair, by = None, 0
        if differential:        # the columns are ranges of attack minus defense
            by = difference(attack, defense)
            odds_text = difference_text(by)
        else:
            assert odds is not None     # assess and resolve refuse a rulebook without odds
            pair = None if defense == 0 else odds(attack, defense)
            odds_text = "-" if pair is None else f"{pair[0]}:{pair[1]}"
        shift, shifts = self.column_shifts(ctx)
        if steps is not None:
            steps.append(f"attack {attack}, defense {defense}{self._cite(self.odds_rules)}")
            if differential:
                dropped = " (its fraction dropped)" if attack - defense != by else ""
                steps.append(f"difference {odds_text}, attack minus defense{dropped}{self._cite(self.table_rules)}")
            else:
                steps.append(f"odds {odds_text}{self._cite(self.odds_rules)}")
            steps += [f"column shift {c}" for c in shifts]
        table, line = self.table, None
        if table is None:
            return attack, defense, odds_text, shift, shifts, None, None, None
        voluntary = table
        if ctx.combat.forced:
            table = table.forced()
        def read(table: CombatResultsTable) -> str | None:
            return table.difference_column(by, shift, self.shift_off_left) if differential else \
                table.column(pair, shift, self.shifts_before_limits, self.shift_off_left)

        if table.lines:
            if self.terrain is None:
                raise LookupError("a terrain-line Combat Results Table needs a Terrain Effects Chart")
            row, line, among = self._line(self.terrain, ctx.defender_terrain, table, read)
            table = table.line(line)
            voluntary = voluntary.line(line)
            if steps is not None:
                choice = f" (the defender's most favourable of {', '.join(among)})" if len(among) > 1 else ""
                steps.append(f"odds line {line} for {row.name}{choice}{self._cite(self.table_rules)}")

        column = read(table)
        if steps is not None and table is not voluntary:
            chosen = read(voluntary)
            if None in (chosen, column):    # below the table, the attack being forced is what picks its result
                steps.append(f"a forced attack: below the table it reads {table.below} where a voluntary one "
                             f"reads {voluntary.below}{self._cite_parameter('combat.below_table_forced')}")
        return attack, defense, odds_text, shift, shifts, table, line, column

    @staticmethod
    def _line(chart: TerrainEffectsChart, terrain: BoundTerrain, table: CombatResultsTable,
              read: Callable[[CombatResultsTable], str | None]) -> tuple[Terrain, str, tuple[str, ...]]:
        """The odds line a defender's hex reads, the terrain that gives it, and the lines its terrains give.
        One line: its own.  Several (a hex of forest and clear): the one most favourable to the defender,
        the line on which this combat's column falls furthest left (the lines share one grid of results;
        below the table furthest of all), the first in the table's order of those tied; whatever the order in
        which the hex's terrains are named."""
        order: list[str] = list(table.lines or ())
        rows = in_chart_order(terrain.rows, chart.rows)          # the chart's order, not the caller's
        lined = [r for r in rows if r.line] or rows[:1]

        def printed(name: str) -> tuple[int, str]:
            return (order.index(name) if name in order else len(order), name)
        given: set[str] = {r.line or r.name for r in lined}
        among = tuple(sorted(given, key=printed))

        def place(name: str) -> tuple[int, int]:
            on = table.line(name)
            column = read(on)
            where = -1 if column is None else len(on.columns) if column == ABOVE else on.columns.index(column)
            return where, among.index(name)
        line = min(among, key=place) if len(among) > 1 else among[0]
        row = next(r for r in lined if (r.line or r.name) == line)
        return row, line, among

    def assess(self, combat: Combat) -> Assessment:
        """The strengths, odds, shifts and column of a combat, without rolling: what the players work out
        before the dice.  Works on a rulebook without a Combat Results Table (the column is then None)."""
        if self.odds is None and not (self.table is not None and self.table.differential):
            raise LookupError("this rulebook has no rounding rule, so no odds")
        return self._assess(combat, None)

    def _assess(self, combat: Combat, steps: list[str] | None) -> Assessment:
        try:
            attack, defense, odds_text, shift, shifts, table, _, column = self._column(self.bind(combat), steps)
        except _Prohibited as why:
            self._not_allowed(why, steps)
            explain = partial(self._explain_assessment, combat) if steps is None else None
            return Assessment("-", None, 0, 0, 0, (), None, explain, refused=str(why))
        refused = self._below_refused(table, column, odds_text, shift)
        if steps is not None and table is not None:
            steps.append((f"column {column}" if column not in (None, ABOVE) else f"{column or 'below'} the table")
                         + (f": {table.below_result().text}, the attack is not allowed" if refused else "")
                         + self._cite(self.table_rules))
        position = None if column in (None, ABOVE) or table is None else table.columns.index(column)
        explain = partial(self._explain_assessment, combat) if steps is None else None
        return Assessment(odds_text, column, attack, defense, shift, shifts, position, explain, refused=refused)

    @staticmethod
    def _below_refused(table: CombatResultsTable | None, column: str | None, odds_text: str,
                       shift: int) -> str | None:
        """Why an attack below the table may not be made, where the table's result there is a code that says
        so (NA): a voluntary attack under `combat.below_table_forced`, whose forced one reads a result."""
        if table is None or column is not None:
            return None
        try:
            result = table.below_result()
        except LookupError:     # no result below the table: the assessment says only where it falls
            return None
        if not result.not_allowed:
            return None
        return f"odds {odds_text}{f' shifted {shift:+d}' if shift else ''} are below the table (left-most column " \
               f"{table.columns[0]})"

    def _not_allowed(self, why: _Prohibited, steps: list[str] | None) -> None:
        if steps is not None:
            steps.append(f"{why}: the attack is not allowed{self._cite(self.terrain_rules)}")

    def _explain_assessment(self, combat: Combat) -> tuple[str, ...]:
        """An assessment's derivation: the same procedure again, writing each step down."""
        steps: list[str] = []
        self._assess(combat, steps)
        return tuple(steps)

    def _explain_resolution(self, combat: Combat, total: int) -> tuple[str, ...]:
        steps: list[str] = []
        self._resolve(combat, total, steps)
        return tuple(steps)

    # -- the whole procedure ----------------------------------------------------------
    def resolve(self, combat: Combat, roll: Roll) -> Resolution:
        if self.table is None:
            raise LookupError("this rulebook has no Combat Results Table")
        if self.odds is None and not (self.table is not None and self.table.differential):
            raise LookupError("this rulebook has no rounding rule, so no odds")
        if isinstance(roll, int):      # a bool too: the table refuses it as a roll
            return self._resolve(combat, roll, None)
        dice = tuple(roll)
        if dice and not combat.dice:
            combat = replace(combat, dice=dice)
        return self._resolve(combat, sum(dice), None)

    def _resolve(self, combat: Combat, total: int, steps: list[str] | None) -> Resolution:
        """The Resolution of `combat` for the roll `total`: its column, the result read there and adjusted, and
        what an exchange costs; `steps`, when given, receives the derivation (else the answer explains itself
        on demand)."""
        ctx = self.bind(combat)
        try:
            attack, defense, odds_text, shift, shifts, table, line, column = self._column(ctx, steps)
        except _Prohibited as why:      # an answer, not a bad input: the players may not make this attack
            self._not_allowed(why, steps)
            explain = partial(self._explain_resolution, combat, total) if steps is None else None
            return Resolution(NOT_ALLOWED, "-", None, 0, 0, 0, (), (0, 0), (),
                              total, None, explain, refused=str(why))
        assert table is not None
        (drm_attacker, drm_defender), modifiers = self.drm(ctx)
        explain = partial(self._explain_resolution, combat, total) if steps is None else None
        if steps is not None:
            steps += [f"DRM {c}" for c in modifiers]
        if column is None or column == ABOVE:
            result, refused = self._off_table(table, column, odds_text, shift, steps)
            return Resolution(result, odds_text, column, attack, defense, shift, shifts, (0, 0), modifiers,
                              total, line, explain, refused=refused, exchange=self._exchange(ctx, result, steps))
        if steps is not None:
            steps.append(f"column {column}" + (f" (shifted {shift:+d})" if shift else "") + self._cite(self.table_rules))
        read = self._table_result(table, column, defense, total, (drm_attacker, drm_defender), steps)
        result = self._adjusted(ctx, read, steps)
        return Resolution(result, odds_text, column, attack, defense, shift, shifts, (drm_attacker, drm_defender),
                          modifiers, total, line, explain, exchange=self._exchange(ctx, result, steps))

    def _off_table(self, table: CombatResultsTable, column: str | None, odds_text: str, shift: int,
                   steps: list[str] | None) -> tuple[Result, str | None]:
        """A combat whose odds fall below the table (`column` None) or above it: the table's result there, read
        with no roll, and why the attack may not be made where that result is a code that says so."""
        result = table.below_result() if column is None else table.above_result()
        refused = None
        if result.not_allowed:      # a code that says the attack may not be made: nothing to apply
            edge = table.columns[0] if column is None else table.columns[-1]
            refused = self._below_refused(table, column, odds_text, shift) or \
                f"odds {odds_text}{f' shifted {shift:+d}' if shift else ''} are above the table (right-most " \
                f"column {edge})"
        if steps is not None:
            steps.append(f"{column or 'below'} the table: {result.text}, "
                         + ("the attack is not allowed" if result.not_allowed else "no roll")
                         + self._cite(self.table_rules))
        return result, refused

    def _table_result(self, table: CombatResultsTable, column: str, defense: Exact, total: int,
                      drms: tuple[int, int], steps: list[str] | None) -> Result:
        """The result the roll `total` reads in `column`, its DRMs (attacker side, defender side) applied: one
        roll on a one-sided table, else each side's result read apart (the attacker's by the defense) and
        joined."""
        drm_attacker, drm_defender = drms
        if table.attacker is None:
            net = drm_defender  # a one-sided table reads one roll: 'both' DRMs apply once
            result = table.result(column, total, net)
            if steps is not None:
                steps.append(f"roll {total}{f' {net:+d} = {total + net}' if net else ''}: {result.text}"
                             f"{self._cite(self.table_rules)}")
            return result
        defender = table.result(column, total, drm_defender)
        attacker = table.attacker.result(defense, total, drm_attacker)
        if steps is not None:
            steps.append(f"defender side: roll {total} {drm_defender:+d} on {column}: {defender.text}"
                         f"{self._cite(self.table_rules)}")
            steps.append(f"attacker side: roll {total} {drm_attacker:+d} on defense "
                         f"{table.attacker.column(defense)}: {attacker.text}{self._cite(self.table_rules)}")
        return replace(defender, attacker_steps=attacker.attacker_steps,
                       attacker_retreat=attacker.attacker_retreat, text=f"{attacker.text} / {defender.text}",
                       breakthrough=attacker.breakthrough or defender.breakthrough,
                       attacker_eliminated=attacker.attacker_eliminated,
                       attacker_units=attacker.attacker_units, attacker_advance=attacker.attacker_advance,
                       attacker_states=attacker.attacker_states,
                       exchange=attacker.exchange or defender.exchange,
                       not_allowed=attacker.not_allowed or defender.not_allowed)

    def _adjusted(self, ctx: Context, result: Result, steps: list[str] | None) -> Result:
        """`result` as the rulebook's result adjustments leave it, and the steps that say which applied and the
        rules they cite."""
        result, adjusted = self.adjust(ctx, result)
        if steps is not None:
            steps += [f"adjusted {c}" for c in adjusted]
            if adjusted:
                cited: list[str] = []
                for rule in (r for c in adjusted for r in c.rules):
                    if rule not in cited:
                        cited.append(rule)
                steps.append(f"result {result.text}, the table's {ctx.result.text} adjusted"
                             + (f" [{' '.join(cited)}]" if cited else ""))
        return result

    # -- an exchange (combat.exchange_measure) ---------------------------------------
    def _exchange(self, ctx: Context, result: Result, steps: list[str] | None) -> Exchange | None:
        """What an exchange costs the attacker, where the result says `exchange` and the rulebook says how it is
        counted: the defender's steps, units or defense factors, met by attacking units that may pay it."""
        measure = self.exchange_measure
        if not result.exchange or measure is None or result.not_allowed:
            return None
        cite = self._cite_parameter("combat.exchange_measure")
        if self.exchange_loser == "fewer-factors":
            reversed_ = self._weaker_attacker(ctx, measure, cite, steps)
            if reversed_ is not None:
                return reversed_
        loss = self._exchange_loss(ctx, measure, cite, steps)
        payers = self._exchange_payers(ctx, steps)
        chosen, short = self._exchange_paid(measure, loss, payers, cite, steps)
        return Exchange(measure, simplest(loss), tuple(u.unit for _, u in payers), tuple(u.unit for _, u in chosen),
                        simplest(sum((_exchange_worth(measure, u) for _, u in chosen), 0)), short)

    def _weaker_attacker(self, ctx: Context, measure: str, cite: str, steps: list[str] | None) -> Exchange | None:
        """Where the side with fewer combat factors loses everything (`combat.exchange_loser = fewer-factors`):
        None when the attacker has at least the defender's; else the attacker loses every unit, and the
        defender at least what they count in `measure`, met by its own units (printed defense factors)."""
        attackers = [u for hex_ in ctx.attacking_hexes for u in hex_.units]
        attack = sum((u.attack for u in attackers), 0)
        defense = self._exchange_factors(ctx, sum((u.defense for u in ctx.defenders), 0), None)
        why = self._cite_parameter("combat.exchange_loser")
        if attack >= defense:
            if steps is not None:
                steps.append(f"exchange: the attacker's {attack} attack factors are not fewer than the defender's "
                             f"{defense}: the defender loses every unit{why}")
            return None
        loss: Exact = sum((u.steps for u in attackers), 0) if measure == "steps" else len(attackers) \
            if measure == "units" else attack
        if steps is not None:
            steps.append(f"exchange: the attacker's {attack} attack factors are fewer than the defender's {defense}: "
                         f"the attacker loses every unit, and the defender at least {loss}{why}")
        payers = [("the defender's hex", u) for u in ctx.defenders]
        chosen, short = self._exchange_paid(measure, loss, payers, cite, None, paying="defender")
        lost = sum((_exchange_worth(measure, u, "defender") for _, u in chosen), 0)
        return Exchange(measure, simplest(loss), tuple(u.unit for _, u in payers), tuple(u.unit for _, u in chosen),
                        simplest(lost), short, loser="attacker")

    def _exchange_loss(self, ctx: Context, measure: str, cite: str, steps: list[str] | None) -> Exact:
        """An exchange's first step: the defender loses every unit it fought with; what that counts in
        `measure` (its steps, its units or its printed defense factors, those as its terrain multiplies them
        where the rulebook says so) is what the attacker must lose at least."""
        defenders = ctx.defenders
        if measure == "steps":
            loss: Exact = sum((u.steps for u in defenders), 0)
            said = f"{loss} step{'s' * (loss != 1)}"
        elif measure == "units":
            loss = len(defenders)
            said = f"{loss} unit{'s' * (loss != 1)}"
        else:
            loss = sum((u.defense for u in defenders), 0)
            said = f"defense factors {' + '.join(str(u.defense) for u in defenders) or '0'}"
            said += f" = {loss}" if len(defenders) > 1 else ""
        if steps is not None:
            steps.append(f"exchange: the defender loses every unit, {said}{cite}")
        return self._exchange_factors(ctx, loss, steps) if measure == "factors" else loss

    def _exchange_factors(self, ctx: Context, printed: Exact, steps: list[str] | None) -> Exact:
        """The defender's `printed` defense factors an exchange counts: as its terrain multiplies them where
        `combat.exchange_counts_terrain` says so, else as printed (a step says what the terrain would make them)."""
        counted = simplest(self._terrain_defense(ctx, printed, None))
        if self.exchange_counts_terrain:
            if steps is not None:
                steps.append(f"the defender's factors count as its terrain multiplies them: {printed}"
                             + (f" x {simplest(Fraction(counted) / Fraction(printed))}" if printed else "")
                             + f" = {counted}{self._cite_parameter('combat.exchange_counts_terrain')}")
            return counted
        if counted != printed and steps is not None:
            steps.append(f"the defender's factors count as printed, {printed}, not as its terrain multiplies "
                         f"them ({counted}){self._cite_parameter('combat.exchange_counts_terrain')}")
        return printed

    def _exchange_payers(self, ctx: Context, steps: list[str] | None) -> list[tuple[str, BoundUnit]]:
        """The attacking units that may pay an exchange, each with the hex it attacks from: all but those of a
        type that never pays one (EXCHANGE_EXEMPT), which a step names."""
        attackers = [(ctx.combat.attacking_hexes[i].name or f"hex {i + 1}", u)
                     for i, hex_ in enumerate(ctx.attacking_hexes) for u in hex_.units]
        exempt = [(where, u) for where, u in attackers if u.is_(EXCHANGE_EXEMPT)]
        if exempt and steps is not None:
            steps.append(f"{', '.join(self._payer(w, u) for w, u in exempt)} never pay{'s' * (len(exempt) == 1)} "
                         f"an exchange ({EXCHANGE_EXEMPT})")
        payers = [(where, u) for where, u in attackers if not u.is_(EXCHANGE_EXEMPT)]
        if not self._exchange_effects:
            return payers
        return [(where, u) for where, u in payers if not self._exempt_by_rule(ctx, where, u, steps)]

    def _exempt_by_rule(self, ctx: Context, where: str, unit: BoundUnit, steps: list[str] | None) -> bool:
        """Whether a rule's `exempt exchange-loss` holds of `unit` (and no `allow` lifts it), said in a step."""
        def words(units: Iterable[BoundUnit]) -> frozenset[str]:
            return frozenset(w for u in units for w in u.words)
        facts: effects.Facts = {
            "unit": lambda: unit.words, "unit.type": lambda: frozenset({unit.type.lower()}),
            "unit.attack": lambda: Fraction(unit.attack), "unit.defense": lambda: Fraction(unit.defense),
            "unit.steps": lambda: Fraction(unit.steps),
            "attackers": lambda: words(u for hex_ in ctx.attacking_hexes for u in hex_.units),
            "defenders": lambda: words(ctx.defenders)}
        exempt = effects.deciding(self._exchange_effects, facts)
        if exempt is None or exempt[1].kind != "exempt":
            return False
        if steps is not None:
            steps.append(f"{self._payer(where, unit)} pays no part of the exchange: rule {exempt[0].id} "
                         f"({exempt[1].text}) [{exempt[0].id}]")
        return True

    def _exchange_paid(self, measure: str, loss: Exact, payers: list[tuple[str, BoundUnit]], cite: str,
                       steps: list[str] | None, paying: str = "attacker") -> tuple[list[tuple[str, BoundUnit]], bool]:
        """An exchange's last step: (the payers it removes, whether they fall short of `loss`).  All of them when
        they have less than it; in factors, the fewest whose printed factors meet it at least; in steps or units
        none (the paying side chooses).  `paying`: the attacker, or the defender where it pays (its defense
        factors count)."""
        available: Exact = sum((_exchange_worth(measure, u, paying) for _, u in payers), 0)
        word = {"steps": "step", "units": "unit", "factors": "attack factor"}[measure] + "s" * (loss != 1)
        if available < loss:
            if steps is not None:
                steps.append(f"the attacker loses at least {loss} {word}; the units that may pay it have "
                             f"{available}: all of them are lost{cite}")
            return payers, True
        if measure == "factors":
            chosen = [payers[i] for i in _least_cover([_exchange_worth(measure, u, paying) for _, u in payers], loss)]
            if steps is not None:
                least = ", ".join(self._payer(w, u) for w, u in chosen) or "none"
                steps.append(f"the attacker loses units of at least {loss} printed attack factors; losing the "
                             f"fewest: {least} ({sum((_exchange_worth(measure, u) for _, u in chosen), 0)}){cite}")
            return chosen, False
        if steps is not None:
            steps.append(f"the attacker loses at least {loss} {word}, of the units that attacked{cite}")
        return [], False

    @staticmethod
    def _payer(where: str, unit: BoundUnit) -> str:
        return f"{unit.type or 'unit'} {unit.attack} from {where}"

    def adjust(self, ctx: Context, result: Result) -> tuple[Result, tuple[Contribution, ...]]:
        """Apply the result adjustments, each judged against the result as read from the table."""
        if not self.adjustments:
            return result, ()
        ctx.result = result
        applied = [a for a in self.adjustments if a.condition(ctx)]
        if not applied:
            return result, ()
        found = tuple(Contribution(a.name, f"{a.field} {a.amount:+d}", a.rules) for a in applied)
        values = {"attacker-steps": result.attacker_steps, "attacker-retreat": result.attacker_retreat,
                  "defender-steps": result.defender_steps, "defender-retreat": result.defender_retreat}
        for spec in applied:
            values[spec.field] = max(0, values[spec.field] + spec.amount)
        adjusted = replace(result, attacker_steps=values["attacker-steps"], attacker_retreat=values["attacker-retreat"],
                           defender_steps=values["defender-steps"], defender_retreat=values["defender-retreat"])
        return replace(adjusted, text=adjusted_text(result, adjusted)), found



# ---- the short way, for a rulebook whose combats are plain ----------------------
# A multiplier as the short way applies it: numerator and denominator, whole numbers (None: x1).
Ratio = tuple[int, int]


def _ratio(value: Exact) -> Ratio | None:
    return None if value == 1 else (int(value), 1) if type(value) is int else (value.numerator, value.denominator)


@dataclass(frozen=True)
class Ground:
    """What the names of a plain combat decide (its defender's terrain, each attacking hex's terrain and
    hexsides): worked out once through the engine's own procedure, then read by every combat fought there."""

    context: Context                  # the combat bound with no units: what the rulebook's expressions read
    factors: tuple[Ratio | None, ...]  # each attacking hex's multiplier on its units' attack
    defense: Ratio | None             # the defender's terrain and the hexsides crossed, on its defense
    shift: int
    shifts: tuple[Contribution, ...]
    drm: tuple[int, int]
    modifiers: tuple[Contribution, ...]


class PlainCombats:
    """CombatEngine.resolve's short way, for a rulebook whose combats are plain: strengths multiplied by the
    terrain and by strength factors that read only the unit's type and states; DRMs and column shifts that read
    only the defender's terrain (the compiler checks the rulebook's expressions: codegen.plain_combat); no result
    adjustments, exchange measure or supply floors; one odds table read by one roll, without terrain lines.

    What the names decide is worked out once per names asked, through the engine itself (Ground), and so is
    what a unit's type and states make of its strengths; a combat then costs its units' arithmetic (exact, in
    whole numbers over a common denominator: a Fraction is made only for a strength that is not whole), the
    odds and the table.  `resolve` answers None for any combat it does not cover: an overrun, a forced attack,
    dice apart, situations or amounts, a prohibited attack, an attack off the table, a name the rulebook does
    not know, a strength that is not a number.  The engine answers those, and says what is wrong; where both
    answer, the answers are the same, derivation included (it is the engine's, written when first read)."""

    _KEEP = 4096    # answers kept per kind of question, as CombatEngine keeps them

    def __init__(self, engine: CombatEngine):
        self.engine = engine
        table = engine.table
        chart = engine.terrain
        # what the engine is set to do beyond the plain procedure: then every combat is the engine's
        self.covered = (table is not None and engine.odds is not None and not table.differential
                        and not table.lines and table.attacker is None and not engine.adjustments
                        and engine.exchange_measure is None and engine.supply_minimum is None
                        and not engine.supply_round_down and not engine._with_terrain
                        and (chart is None or not chart.one_side))
        self._grounds: dict[Hashable, Ground | None] = {}
        self._units: dict[Hashable, tuple[Ratio | None, Ratio | None]] = {}
        # pure functions of a few whole numbers, kept as the table keeps its columns by odds
        self._odds: dict[tuple[int, int, int, int, int], tuple[Exact, Exact, str, str | None]] = {}
        self._results: dict[tuple[str | None, int, int], Result | None] = {}

    def resolve(self, combat: Combat, roll: Roll) -> Resolution | None:
        """The engine's Resolution of a plain combat; None when the engine must answer (see the class)."""
        if not self.covered or type(roll) is not int or type(combat) is not Combat or combat.overrun \
                or combat.forced or combat.situations or combat.amounts or combat.dice:
            return None
        hexes = combat.attacking_hexes
        try:
            key = (combat.defender_terrain, tuple([(h.terrain, h.hexsides) for h in hexes]))
            ground = self._grounds[key]
        except KeyError:
            ground = self._ground(combat, key)
        except TypeError:       # a name given in a list: not a question the short way keeps
            return None
        if ground is None:
            return None
        try:
            # attack = an / ad: each hex's units (an integer sum over the hex's denominator), times its multiplier
            an, ad = 0, 1
            for hex_, factor in zip(hexes, ground.factors):
                hn, hd = self._total(hex_.units, 0, ground.context)
                if factor is not None:
                    hn, hd = hn * factor[0], hd * factor[1]
                if hd == ad:
                    an += hn
                else:
                    an, ad = an * hd + hn * ad, ad * hd
            dn, dd = self._total(combat.defenders, 1, ground.context)
            if ground.defense is not None:
                dn, dd = dn * ground.defense[0], dd * ground.defense[1]
            strengths = (an, ad, dn, dd, ground.shift)
            odds = self._odds.get(strengths) or self._work_out_odds(strengths)
            reading = (odds[3], roll, ground.drm[1])
            result = self._results.get(reading) or self._read(reading)
        except (ArithmeticError, AttributeError, LookupError, TypeError, ValueError):  # the engine raises it
            return None
        if result is None:      # off the table: the engine says what that gives
            return None
        # Resolution(...), its fields set as its __init__ would set them, at a third of the cost (a frozen
        # dataclass sets each field through object.__setattr__); tests/test_plain_combat.py checks every field
        made = object.__new__(Resolution)
        cast("dict[str, object]", made.__dict__).update(
            result=result, odds=odds[2], column=odds[3], attack=odds[0], defense=odds[1], shift=ground.shift,
            shifts=ground.shifts, drm=ground.drm, modifiers=ground.modifiers, roll=roll, line=None,
            explain=partial(self.engine._explain_resolution, combat, roll), refused=None, exchange=None)
        return made

    def _work_out_odds(self, strengths: tuple[int, int, int, int, int]) -> tuple[Exact, Exact, str, str | None]:
        """From the strengths (attack and defense as numerator and denominator) and the net shift: the attack
        and defense as the engine keeps them, the odds as it writes them and the column it reads."""
        an, ad, dn, dd, shift = strengths
        engine = self.engine
        attack, defense = _exact(an, ad), _exact(dn, dd)
        assert engine.odds is not None and engine.table is not None    # covered says so
        pair = None if defense == 0 else engine.odds(attack, defense)
        column = engine.table.column(pair, shift, engine.shifts_before_limits, engine.shift_off_left)
        found = (attack, defense, "-" if pair is None else f"{pair[0]}:{pair[1]}", column)
        if len(self._odds) < self._KEEP:
            self._odds[strengths] = found
        return found

    def _read(self, reading: tuple[str | None, int, int]) -> Result | None:
        """The table's result in a column for a roll and a net DRM; None off the table (no column, or above)."""
        column, roll, drm = reading
        if column is None or column == ABOVE:
            return None
        assert self.engine.table is not None
        result = self.engine.table.result(column, roll, drm)
        if len(self._results) < self._KEEP:
            self._results[reading] = result
        return result

    def _total(self, units: Iterable[Unit], role: int, ctx: Context) -> Ratio:
        """The units' attack (`role` 0) or defense (1), each after its strength factors, as numerator and
        denominator; raises as binding the units does for a name or a number it cannot read."""
        known = self._units
        total, over = 0, 1
        for unit in units:
            multiplier = (known.get((unit.type, unit.states)) or self._unit(unit, ctx))[role]
            strength = unit.defense if role else unit.attack
            if type(unit.attack) is not int or type(unit.defense) is not int or type(unit.quality) is not int \
                    or type(unit.steps) is not int:
                _numbers(unit)
            if type(strength) is int:
                n, d = strength, 1
            else:
                value = exact_value(strength)
                n, d = value.numerator, value.denominator
            if multiplier is not None:
                n, d = n * multiplier[0], d * multiplier[1]
            if d == over:
                total += n
            else:
                total, over = total * d + n * over, over * d
        return total, over

    def _ground(self, combat: Combat, key: Hashable) -> Ground | None:
        """What the combat's names decide, by the engine's procedure on the combat without its units; None
        when the engine must answer (a name it does not know, a prohibited attack)."""
        engine = self.engine
        try:
            bare = Combat(attacking_hexes=tuple(replace(h, units=()) for h in combat.attacking_hexes),
                          defenders=(), defender_terrain=combat.defender_terrain)
            ctx = engine.bind(bare)
        except (AttributeError, LookupError, TypeError, ValueError):
            return None
        if any(h.prohibited for h in ctx.attacking_hexes) or (engine.terrain is not None and ctx.defense_factor is None):
            ground = None
        else:
            factors: list[Exact] = [h.factor for h in ctx.attacking_hexes]
            if not engine.terrain_per_unit and factors and any(f != min(factors) for f in factors):
                factors = [min(factors)] * len(factors)
            shift, shifts = engine.column_shifts(ctx)
            drm, modifiers = engine.drm(ctx)
            ground = Ground(ctx, tuple(_ratio(f) for f in factors), _ratio(engine._terrain_defense(ctx, 1, None)),
                            shift, shifts, drm, modifiers)
        if len(self._grounds) < self._KEEP:
            self._grounds[key] = ground
        return ground

    def _unit(self, unit: Unit, ctx: Context) -> tuple[Ratio | None, Ratio | None]:
        """What the rulebook's strength factors multiply a unit's attack and defense by, from its type and
        states alone; raises as the engine does for a type or state it does not know."""
        engine = self.engine
        bound = BoundUnit(unit, engine._unit_words(unit))
        found: list[Ratio | None] = []
        for role in ("attack", "defense"):
            value: Exact = 1
            for spec in engine._role_factors[role]:
                if spec.condition(ctx, bound):
                    value *= exact_value(spec.factor(ctx))
            found.append(_ratio(value))
        factors = (found[0], found[1])
        if len(self._units) < self._KEEP:
            self._units[(unit.type, unit.states)] = factors
        return factors


def _exact(numerator: int, denominator: int) -> Exact:
    """numerator / denominator as the engine keeps a strength: an int when whole, else a Fraction."""
    if denominator == 1:
        return numerator
    whole, rest = divmod(numerator, denominator)
    return whole if not rest else Fraction(numerator, denominator)


def _numbers(unit: Unit) -> None:
    """Each of a unit's numbers read exactly, as binding it reads them: raises as binding does."""
    for value in (unit.attack, unit.defense, unit.quality, unit.steps):
        exact_value(value)
