"""Rule and parameter records of a generated module."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class RuleEntry:
    """A rule in effect: its printed id, title, summary, the rulebook whose
    definition is in effect (`origin`) and where that is (`source`, path:line)."""

    id: str
    title: str
    summary: str
    origin: str
    source: str
    notes: tuple[str, ...] = ()
    see: tuple[str, ...] = ()


# the plural of each unit a parameter may be measured in that has one (MP and SP read the same)
PLURALS = {"hex": "hexes", "hexside": "hexsides", "step": "steps", "unit": "units", "turn": "turns",
           "time": "times", "die": "dice"}


def unit_text(amount: object, unit: str | None) -> str:
    """'2 MP', '1 hex', '3 hexes', '+2 MP', as a rulebook writes an amount of a unit."""
    if unit is None:
        return str(amount)
    one = str(amount).lstrip("+-") == "1"
    return f"{amount} {unit if one else PLURALS.get(unit, unit)}"


@dataclass(frozen=True, slots=True)
class Quantity:
    """A value with its unit: Quantity(2, 'MP'); `signed` for an addition like +2 MP."""

    amount: Fraction
    unit: str | None = None
    signed: bool = False

    def __str__(self) -> str:
        amount = str(self.amount)
        if self.signed and self.amount >= 0:
            amount = "+" + amount
        return unit_text(amount, self.unit) if self.unit else amount

    def __float__(self) -> float:
        return float(self.amount)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Quantity):
            return (self.amount, self.unit) == (other.amount, other.unit)
        if isinstance(other, (int, float, Fraction)) and not isinstance(other, bool):
            return self.amount == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.amount)

    def _other(self, other: object) -> Fraction | int | float | None:
        if isinstance(other, Quantity):
            if other.unit != self.unit:
                raise TypeError(f"cannot compare {self} with {other}")
            return other.amount
        if isinstance(other, (int, float, Fraction)) and not isinstance(other, bool):
            return other
        return None

    def __lt__(self, other: object) -> bool:
        value = self._other(other)
        return NotImplemented if value is None else self.amount < value

    def __le__(self, other: object) -> bool:
        value = self._other(other)
        return NotImplemented if value is None else self.amount <= value

    def __gt__(self, other: object) -> bool:
        value = self._other(other)
        return NotImplemented if value is None else self.amount > value

    def __ge__(self, other: object) -> bool:
        value = self._other(other)
        return NotImplemented if value is None else self.amount >= value


# What a parameter can be set to: a quantity (2 MP), a number or count, a flag,
# a word (a choice or a result), an order of words, or None (`none`: no limit).
ParameterValue = Quantity | Fraction | int | bool | str | tuple[str, ...] | None


@dataclass(frozen=True, slots=True)
class Parameter:
    """A parameter in effect: its value, the rule that sets it, where, and what it means."""

    name: str
    value: ParameterValue
    rule: str
    origin: str
    source: str
    meaning: str = ""      # its declaration's meaning, in players' words

    @property
    def number(self) -> Fraction:
        """The value as a number, for rulebook expressions: a quantity's amount, a flag as 1 or 0."""
        value = self.value
        if isinstance(value, Quantity):
            return value.amount
        if isinstance(value, Fraction):     # immutable: no copy (rules read it in every combat)
            return value
        if isinstance(value, bool):
            return Fraction(int(value))
        if isinstance(value, int):
            return Fraction(value)
        raise TypeError(f"parameter {self.name} is {value!r}, not a number")


def frozen_mapping(items: Iterable[tuple[K, V]]) -> MappingProxyType[K, V]:
    """A read-only mapping of `items`, in their order."""
    return MappingProxyType(dict(items))


@dataclass(frozen=True, slots=True)
class Phase:
    """A phase of the sequence of play: the rules it cites and what may happen in it."""

    name: str
    rules: tuple[str, ...] = ()
    activities: tuple[str, ...] = ()
    note: str | None = None


@dataclass(frozen=True, slots=True)
class PlayerTurn:
    """One run of a player turn inside the game turn: `first`, `second`... when both sides play the same
    phases, or the side's name when each side plays its own; `phases` are the ones that run plays."""

    name: str
    phases: tuple[Phase, ...] = ()
