"""A rule's effects as the rules engine executes them: `forbid exert-zoc when unit is artillery`.

The generated module lists each rule's effects (RuleEntry.effects), each with its condition as a tree of
the small types below, never as code.  The engine, where it answers a question (core/facts.py), asks
`RuleSet.effects_holding(question, facts)` and cites the rule of each effect whose condition holds.
"""
from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, TypeVar, Union

if TYPE_CHECKING:
    from .hexmap import Hex
    from .situation import Counter, Situation
    from .terrain import TerrainEffectsChart

__all__ = ["All", "Amount", "Any_", "Compare", "Condition", "Effect", "deciding", "FactValue", "Fact", "Facts", "Is", "Not", "Number",
           "evaluate", "priced", "hex_words", "time_facts", "unit_facts", "unit_words"]

FactValue = Union[bool, Fraction, frozenset[str]]


@dataclass(frozen=True, slots=True)
class Fact:
    """A fact the question knows, by name (`unit.started_in_ezoc`)."""
    name: str


@dataclass(frozen=True, slots=True)
class Number:
    value: Fraction


@dataclass(frozen=True, slots=True)
class Is:
    """`unit is artillery`: the word is one of the fact's words."""
    fact: str
    word: str


@dataclass(frozen=True, slots=True)
class Compare:
    """`unit.attack == 0`: two numbers compared."""
    op: str
    left: Fact | Number
    right: Fact | Number


@dataclass(frozen=True, slots=True)
class Not:
    operand: Condition


@dataclass(frozen=True, slots=True)
class All:
    """Every operand holds (`and`)."""
    operands: tuple[Condition, ...]


@dataclass(frozen=True, slots=True)
class Any_:
    """At least one operand holds (`or`)."""
    operands: tuple[Condition, ...]


Condition = Union[Fact, Is, Compare, Not, All, Any_]


@dataclass(frozen=True, slots=True)
class Effect:
    """One effect of a rule: what it does (`forbid`) to which question, under which condition, as written."""

    kind: str
    question: str
    condition: Condition
    text: str
    amount: Amount | None = None        # a `cost` effect's


@dataclass(frozen=True, slots=True)
class Amount:
    """What a `cost` effect does to a price or an allowance: `set` to 3, `times` 1/2 (`rounded_down`: the
    product's fraction dropped), `min` at least 1, `max` at most 6, `add` +1; `parameter`: the amount is that
    parameter's value in effect (RuleSet.amount_of reads it, so that a changed parameter changes the answer)."""

    how: str
    value: Fraction
    unit: str | None = None
    parameter: str | None = None
    rounded_down: bool = False


ORDER = ("set", "times", "min", "max", "add")     # how the amounts of the effects that hold apply, in turn


def priced(cost: Fraction, amounts: list[tuple[Amount, Fraction]]) -> Fraction:
    """`cost` changed by the `cost` effects that hold, each with its value: each set, then each product, each
    least, each most, then each addition."""
    for how in ORDER:
        for amount, value in amounts:
            if amount.how != how:
                continue
            if how == "set":
                cost = value
            elif how == "times":
                cost = cost * value
                if amount.rounded_down:
                    cost = Fraction(cost.numerator // cost.denominator)
            elif how == "min":
                cost = max(cost, value)
            elif how == "max":
                cost = min(cost, value)
            else:
                cost = cost + value
    return cost


_COMPARE: dict[str, Callable[[Fraction, Fraction], bool]] = {
    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b}

Facts = Mapping[str, Callable[[], FactValue]]     # each fact's value, worked out only when a condition reads it


E = TypeVar("E")


def deciding(stated: Iterable[tuple[E, Effect]], facts: Facts) -> tuple[E, Effect] | None:
    """The effect that decides a question for `facts`, of those `stated` on it (each with its rule): the first
    `allow` whose condition holds (it lifts every `forbid`, `exempt` and `eliminate`), else the first such
    other effect that holds, in the order given; costs and stops are not deciding.  None when none holds."""
    found: tuple[E, Effect] | None = None
    for entry, effect in stated:
        if effect.kind in ("cost", "stop"):
            continue
        if found is not None and effect.kind != "allow":
            continue
        if evaluate(effect.condition, facts):
            if effect.kind == "allow":
                return entry, effect
            found = entry, effect
    return found


def evaluate(condition: Condition, facts: Facts) -> bool:
    """Whether `condition` holds, reading `facts` (each asked at most as often as the condition reads it)."""
    if isinstance(condition, Fact):
        return bool(facts[condition.name]())
    if isinstance(condition, Is):
        value = facts[condition.fact]()
        return isinstance(value, frozenset) and condition.word.lower() in value
    if isinstance(condition, Compare):
        return _COMPARE[condition.op](_number(condition.left, facts), _number(condition.right, facts))
    if isinstance(condition, Not):
        return not evaluate(condition.operand, facts)
    if isinstance(condition, All):
        return all(evaluate(c, facts) for c in condition.operands)
    return any(evaluate(c, facts) for c in condition.operands)


def _number(operand: Fact | Number, facts: Facts) -> Fraction:
    if isinstance(operand, Number):
        return operand.value
    value = facts[operand.name]()
    return value if isinstance(value, Fraction) else Fraction(int(bool(value)))


def unit_words(unit: Counter) -> frozenset[str]:
    """What `unit is WORD` reads: the unit's type, size, capabilities and states, in lower case."""
    return frozenset(v.lower() for v in (unit.type, unit.size, *unit.capabilities, *unit.states) if v)


def unit_facts(unit: Counter) -> dict[str, Callable[[], FactValue]]:
    """The facts about a unit every question asked of one unit knows (core/facts.py)."""
    def words(*values: str) -> frozenset[str]:
        return frozenset(v.lower() for v in values if v)
    return {
        "unit": lambda: unit_words(unit),
        "unit.type": lambda: words(unit.type), "unit.size": lambda: words(unit.size),
        "unit.side": lambda: words(unit.side),
        "unit.attack": lambda: Fraction(unit.attack), "unit.defense": lambda: Fraction(unit.defense),
        "unit.movement": lambda: Fraction(unit.movement), "unit.steps": lambda: Fraction(unit.steps),
    }


def hex_words(situation: Situation, hex: Hex) -> frozenset[str]:
    """What `hex is WORD` reads: the hex's terrain and each marker on it, in lower case."""
    return frozenset(w.lower() for w in (*situation.terrain_at(hex), *situation.markers_at(hex)))


def hex_level(chart: TerrainEffectsChart | None, situation: Situation, hex: Hex) -> Fraction:
    """What `hex.level` reads: the highest terrain level of the hex's terrains on the TEC (0 where none has one)."""
    return Fraction((chart.level(situation.terrain_at(hex)) if chart is not None else None) or 0)


def time_facts(turn_sets: Mapping[str, Container[int]], situation: Situation) -> dict[str, Callable[[], FactValue]]:
    """The facts about the turn and the phase every question knows: `turn is night` (the sequence of play's
    turn sets holding the situation's game turn), `turn.number`, `phase is exploitation`."""
    return {"turn": lambda: frozenset(name.lower() for name, turns in turn_sets.items() if situation.turn in turns),
            "turn.number": lambda: Fraction(situation.turn or 0),
            "phase": lambda: frozenset({situation.phase.lower()})}
