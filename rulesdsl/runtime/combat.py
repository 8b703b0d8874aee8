"""The combat context generated modules evaluate rulebook expressions over.

Callers describe a combat with plain data (Unit, AttackingHex, Combat); a
generated module binds it to its rulebook (unit types and their
capabilities, states, situations, terrain) and evaluates its definitions,
die roll modifiers and column shifts, keeping a derivation of each step.
"""
from __future__ import annotations

import difflib
import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Mapping

from .arithmetic import Number, exact


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


@dataclass(frozen=True)
class Combat:
    attacking_hexes: tuple[AttackingHex, ...]
    defenders: tuple[Unit, ...]
    defender_terrain: str
    overrun: bool = False
    situations: frozenset[str] | tuple[str, ...] = frozenset()   # declared by `combat situations:`
    amounts: Mapping[str, Number] = field(default_factory=dict)   # declared by `combat amounts:`
    dice: tuple[int, ...] = ()                                    # (white, red) when the rulebook reads them


class RulesInputError(ValueError):
    """A combat that names something the rulebook does not know."""


def _unknown(what: str, name: str, known) -> RulesInputError:
    close = difflib.get_close_matches(str(name), sorted(known), n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return RulesInputError(f"unknown {what} {name!r}{hint}")


class BoundTerrain:
    def __init__(self, chart, name: str):
        if chart is None or name not in chart:
            raise _unknown("terrain", name, list(chart or ()))
        row = chart[name]
        self.name = row.name
        self.shift = Fraction(row.combat.shift or 0)
        self.level = Fraction(row.level or 0)
        self.attack = Fraction(row.combat.attacker if row.combat.attacker is not None else 1)
        self.defense = Fraction(row.combat.defender if row.combat.defender is not None else 1)


class BoundUnit:
    def __init__(self, unit: Unit, vocabulary):
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
        self._words = {unit.type, *vocabulary.unit_types[unit.type], *unit.states}

    def is_(self, word: str) -> bool:
        return word in self._words


class BoundHex:
    def __init__(self, hex_: AttackingHex, vocabulary, chart):
        self.units = tuple(BoundUnit(u, vocabulary) for u in hex_.units)
        self.terrain = BoundTerrain(chart, hex_.terrain) if hex_.terrain else None
        self.hexsides = tuple(hex_.hexsides)
        for name in self.hexsides:
            if chart is None or name not in chart:
                raise _unknown("hexside", name, list(chart or ()))
        self._crossed = {chart[n].name for n in self.hexsides} if chart is not None else set()

    def crosses(self, name: str) -> bool:
        return name in self._crossed


@dataclass(frozen=True)
class Vocabulary:
    unit_types: Mapping[str, tuple[str, ...]]
    states: frozenset[str] = frozenset()
    situations: frozenset[str] = frozenset()
    amounts: frozenset[str] = frozenset()


class Context:
    """A combat bound to a rulebook: what expressions read (see rulesdsl/context.py)."""

    def __init__(self, combat: Combat, vocabulary: Vocabulary, chart):
        self.combat = combat
        self.attacking_hexes = tuple(BoundHex(h, vocabulary, chart) for h in combat.attacking_hexes)
        self.attackers = tuple(u for h in self.attacking_hexes for u in h.units)
        self.defenders = tuple(BoundUnit(u, vocabulary) for u in combat.defenders)
        self.defender_terrain = BoundTerrain(chart, combat.defender_terrain)
        self.overrun = bool(combat.overrun)
        for name in combat.situations:
            if name not in vocabulary.situations:
                raise _unknown("combat situation", name, vocabulary.situations)
        for name in combat.amounts:
            if name not in vocabulary.amounts:
                raise _unknown("combat amount", name, vocabulary.amounts)
        self._situations = set(combat.situations)
        self._amounts = {k: exact(v) for k, v in combat.amounts.items()}
        dice = tuple(combat.dice) + (None, None)
        self.dice_white, self.dice_red = dice[0], dice[1]

    def situation(self, name: str) -> bool:
        return name in self._situations

    def amount(self, name: str) -> Fraction:
        return self._amounts.get(name, Fraction(0))


# ---- what compiled expressions call ---------------------------------------------
def count_where(items, test: Callable | None) -> Fraction:
    return Fraction(sum(1 for item in items if test is None or test(item)))


def any_where(items, test: Callable | None) -> bool:
    return any(test is None or test(item) for item in items)


def all_where(items, test: Callable) -> bool:
    return all(test(item) for item in items)


def sum_of(items, test: Callable | None, value: Callable) -> Fraction:
    return sum((value(item) for item in items if test is None or test(item)), Fraction(0))


def max_of(items, test: Callable | None, value: Callable) -> Fraction:
    return max((value(item) for item in items if test is None or test(item)), default=Fraction(0))


def min_of(items, test: Callable | None, value: Callable) -> Fraction:
    return min((value(item) for item in items if test is None or test(item)), default=Fraction(0))


def divide(a: Fraction, b: Fraction) -> Fraction:
    if b == 0:
        raise ZeroDivisionError("a rulebook expression divided by zero")
    return Fraction(a) / Fraction(b)


def floor_(x) -> Fraction:
    return Fraction(math.floor(x))


def ceil_(x) -> Fraction:
    return Fraction(math.ceil(x))
