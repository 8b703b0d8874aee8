"""Rule and parameter records of a generated module."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import TypeVar

from rulesdsl.core.notation import turns_text
from rulesdsl.runtime.effects import Effect
from rulesdsl.core.units import PLURALS as PLURALS, unit_text as unit_text   # the compiler names them here too

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
    effects: tuple[Effect, ...] = ()     # what the rule forbids, and when (runtime/effects.py)


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
class TurnSet:
    """Game turns: a set the sequence of play names (`turns night 3 6 9 12`), or the turns a phase lists
    (`on turns 2+`, name None).  Each span is (first, last), last None for that turn and every later one."""

    name: str | None
    spans: tuple[tuple[int, int | None], ...]

    def __contains__(self, turn: object) -> bool:
        if not isinstance(turn, int) or isinstance(turn, bool):
            return False
        return any(first <= turn and (last is None or turn <= last) for first, last in self.spans)

    def __str__(self) -> str:
        listed = turns_text(self.spans)
        return f"{self.name} turns ({listed})" if self.name is not None else f"turns {listed}"


@dataclass(frozen=True, slots=True)
class TurnValue:
    """A parameter's value on some game turns only (`zoc.entry_cost = +0 MP  on night`), the rule that sets it
    and where."""

    turns: TurnSet
    value: ParameterValue
    rule: str
    origin: str
    source: str


@dataclass(frozen=True, slots=True)
class Parameter:
    """A parameter in effect: its value, the rule that sets it, where, and what it means.

    `value` holds on every game turn no `on_turns` value covers (their turns never overlap); `on(turn)` is the
    parameter as it stands on a game turn, and `turns` says which turns a value so found holds on."""

    name: str
    value: ParameterValue
    rule: str
    origin: str
    source: str
    meaning: str = ""      # its declaration's meaning, in players' words
    on_turns: tuple[TurnValue, ...] = ()
    turns: TurnSet | None = None     # the parameter on a turn of one of its on_turns: those turns

    def on(self, turn: int) -> Parameter:
        """The parameter in force on game turn `turn`: its turn-limited value there, else itself."""
        for limited in self.on_turns:
            if turn in limited.turns:
                return Parameter(self.name, limited.value, limited.rule, limited.origin, limited.source,
                                 self.meaning, turns=limited.turns)
        return self

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
    """A phase of the sequence of play: the rules it cites and what may happen in it; `on_turns`: the only
    game turns it happens on, `not_on_turns`: the game turns it is skipped on (neither: every turn)."""

    name: str
    rules: tuple[str, ...] = ()
    activities: tuple[str, ...] = ()
    note: str | None = None
    on_turns: TurnSet | None = None
    not_on_turns: TurnSet | None = None

    def on(self, turn: int) -> bool:
        """Whether the phase happens on game turn `turn` (1 the first)."""
        if self.on_turns is not None and turn not in self.on_turns:
            return False
        return self.not_on_turns is None or turn not in self.not_on_turns


@dataclass(frozen=True, slots=True)
class PlayerTurn:
    """One run of a player turn inside the game turn: `first`, `second`... when both sides play the same
    phases, or the side's name when each side plays its own; `phases` are the ones that run plays."""

    name: str
    phases: tuple[Phase, ...] = ()
