"""What the rules engine reads of a compiled rulebook, and how it cites what it read.

A `RuleSet` wraps a generated module's parameters, Terrain Effects Chart, tables and rules.  The engine
reads a parameter only through it, so that every answer can say which rule of which rulebook (file and
line) it applied, and so that tests can check which parameters each engine function reads.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from .contract import engine_parameter
from .effects import Amount, Effect, Facts, deciding, evaluate, priced
from .model import Parameter, ParameterValue, Quantity, RuleEntry, TurnSet
from .tables import LookupTable
from .terrain import TerrainEffectsChart

__all__ = ["RuleSet", "Step", "effect_key", "unique_steps"]


def _shown(value: ParameterValue) -> str:
    """A parameter's value as a rulebook writes it: +0 MP, yes, 3, phase-end, overrun."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return ", ".join(value)
    return "none" if value is None else str(value)


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a derivation: what was found, and the rule (and parameter) that says so.

    rule: the printed rule id; origin: the id of the rulebook that sets it (a game's, when it overrides the
    series); source: `path:line` of the rule or parameter in that rulebook.  A step with no rule is
    arithmetic or a fact of the situation.
    """

    text: str
    rule: str | None = None
    parameter: str | None = None
    origin: str | None = None
    source: str | None = None

    def __str__(self) -> str:
        if self.rule is None and self.parameter is None:
            return self.text
        where = [f"rule {self.rule}" if self.rule else "", self.parameter or "",
                 f"{self.origin}, {self.source}" if self.source else (self.origin or "")]
        return f"{self.text} [{'; '.join(w for w in where if w)}]"

    def as_json(self) -> dict[str, str | None]:
        return {"text": self.text, "rule": self.rule, "parameter": self.parameter, "origin": self.origin,
                "source": self.source}


def unique_steps(steps: Iterable[Step]) -> tuple[Step, ...]:
    """The steps in order, each once (a search meets the same hexside, unit or rule again and again)."""
    seen: dict[Step, None] = {step: None for step in steps}
    return tuple(seen)


def effect_key(rule: str, n: int) -> str:
    """How an effect is named where parameters are (RuleSet.reads, mutation): `effect 7.0 1`, the first of
    rule 7.0's effects."""
    return f"effect {rule} {n}"


@dataclass(eq=False)
class RuleSet:
    """The rules one compiled rulebook puts in effect, as the engine reads them.

    `reads` records every parameter name read through this object (set `recording` to clear it per call in
    tests).  An absent parameter reads as None (`flag` as False); the engine function decides what absence
    means and says so in its derivation.
    """

    rulebook: str
    parameters: Mapping[str, Parameter]
    terrain: TerrainEffectsChart | None = None
    tables: Mapping[str, LookupTable] = field(default_factory=dict)
    rules: Mapping[str, RuleEntry] = field(default_factory=dict)
    reads: set[str] = field(default_factory=set)
    turn: int | None = None      # the game turn whose values `parameters` holds (None: every turn's)
    turn_sets: Mapping[str, TurnSet] = field(default_factory=dict)   # the sequence of play's (`turns night 3 6`)
    base: RuleSet | None = None  # a turn's rule set: the rule set of every turn it was made from
    _turns: dict[int, RuleSet] = field(default_factory=dict, repr=False)
    _effects: dict[str, tuple[tuple[RuleEntry, Effect], ...]] = field(default_factory=dict, repr=False)
    _effect_keys: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)

    # ---- game turns -------------------------------------------------------------------------------------
    def on_turn(self, turn: int | None) -> RuleSet:
        """The rules as they stand on game turn `turn`: each parameter with its value on that turn (`on night`),
        the rest as they are.  Itself when no parameter has a value of its own that turn (or `turn` is None);
        one rule set per turn, which records its reads with this one's."""
        if turn == self.turn:
            return self
        if self.base is not None:
            return self.base.on_turn(turn)
        if turn is None:
            return self
        found = self._turns.get(turn)
        if found is None:
            limited = {name: p.on(turn) for name, p in self.parameters.items() if p.on_turns}
            changed = {name: p for name, p in limited.items() if p is not self.parameters[name]}
            found = self if not changed else RuleSet(
                self.rulebook, {**self.parameters, **changed}, self.terrain, self.tables, self.rules,
                reads=self.reads, turn=turn, base=self, turn_sets=self.turn_sets)
            self._turns[turn] = found
        return found

    # ---- values -----------------------------------------------------------------------------------------
    def value(self, name: str) -> ParameterValue:
        if engine_parameter(name) is None:
            raise KeyError(f"{name!r} is not in the engine's contract (rulesdsl.runtime.contract)")
        self.reads.add(name)
        parameter = self.parameters.get(name)
        return None if parameter is None else parameter.value

    def is_set(self, name: str) -> bool:
        self.reads.add(name)
        return name in self.parameters

    def flag(self, name: str) -> bool:
        return self.value(name) is True

    def amount(self, name: str) -> Fraction | None:
        """A quantity's, count's or number's amount; None when absent (or set to `none`)."""
        value = self.value(name)
        if isinstance(value, Quantity):
            return value.amount
        if isinstance(value, bool) or value is None or isinstance(value, (str, tuple)):
            return None
        return Fraction(value)

    def word(self, name: str) -> str | None:
        value = self.value(name)
        return value if isinstance(value, str) else None

    def words(self, name: str) -> tuple[str, ...]:
        value = self.value(name)
        if isinstance(value, tuple):
            return value
        return (value,) if isinstance(value, str) else ()

    # ---- citations --------------------------------------------------------------------------------------
    def cite(self, name: str, text: str) -> Step:
        """A step that applied parameter `name`: its rule, the rulebook that set it, and where."""
        self.reads.add(name)
        parameter = self.parameters.get(name)
        if parameter is None:
            return Step(f"{text} (no rule of {self.rulebook} sets {name})", parameter=name)
        if parameter.turns is not None:     # a value of some game turns only: which, and that it is one
            text = f"{text} ({name} {_shown(parameter.value)} on {parameter.turns})"
        return Step(text, rule=parameter.rule, parameter=name, origin=parameter.origin,
                    source=parameter.source)

    def cite_rule_of(self, name: str | tuple[str, ...], text: str, *, heading: bool = False) -> Step:
        """A step of the procedure the rule setting parameter `name` describes (an overrun's, an attack's),
        citing that rule without applying the parameter (so it is not counted as read); with `heading`, the
        rule it is a case of where the rulebook has one (3.1 for 3.1e).  No rule when the rulebook does not
        set the parameter."""
        names = (name,) if isinstance(name, str) else name     # several: the first the rulebook sets
        parameter = next((self.parameters[n] for n in names if n in self.parameters), None)
        if parameter is None:
            return Step(text)
        parent = parameter.rule.rstrip("abcdefghijklmnopqrstuvwxyz") if heading else parameter.rule
        if parent != parameter.rule and parent in self.rules:
            return self.cite_rule(parent, text)
        return Step(text, rule=parameter.rule, origin=parameter.origin, source=parameter.source)

    def cite_chart(self, text: str) -> Step:
        """A step read off the Terrain Effects Chart: it cites the chart's rule (its first cite); with no
        chart, the movement rule (that of the minimum move's heading), which then prices every hex."""
        rule = self.terrain.rule if self.terrain is not None else None
        return self.cite_rule(rule, text) if rule else self.cite_rule_of("movement.minimum_move", text, heading=True)

    def effect_holding(self, question: str, facts: Facts) -> tuple[RuleEntry, Effect] | None:
        """The effect that decides `question` for `facts`: the first `allow` whose condition holds (it lifts
        every `forbid` and `exempt`), else the first such `forbid` or `exempt`, in the order the rules are in
        effect; None when no effect on the question holds."""
        return deciding(self.effects_on(question), facts)

    def effects_on(self, question: str) -> tuple[tuple[RuleEntry, Effect], ...]:
        """Every effect on `question` of the rules in effect, in their order (found once per question: the
        engine asks on every unit and hex it meets).  Each is recorded in `reads` as `effect RULE N` (N its
        place among the rule's effects, from 1), as a parameter read is: mutation testing reads it."""
        stated = self._effects.get(question)
        if stated is None:
            stated = self._effects[question] = tuple(
                (entry, effect) for entry in self.rules.values() for effect in entry.effects
                if effect.question == question)
            self._effect_keys[question] = frozenset(
                effect_key(entry.id, n) for entry in self.rules.values()
                for n, effect in enumerate(entry.effects, 1) if effect.question == question)
        if stated:
            self.reads.update(self._effect_keys[question])
        return stated

    def costs_holding(self, question: str, facts: Facts) -> list[tuple[RuleEntry, Effect]]:
        """The `cost` effects on `question` whose condition holds of `facts`, in the order the rules are in
        effect (each changes the price: effects.priced)."""
        return [(entry, effect) for entry, effect in self.effects_on(question)
                if effect.kind == "cost" and evaluate(effect.condition, facts)]

    def amount_of(self, amount: Amount) -> Fraction:
        """A `cost` effect's amount: as written, or its parameter's value in effect (recorded as read)."""
        if amount.parameter is None:
            return amount.value
        self.reads.add(amount.parameter)
        parameter = self.parameters.get(amount.parameter)
        value = None if parameter is None else parameter.value
        return value.amount if isinstance(value, Quantity) else Fraction(value) \
            if isinstance(value, (int, Fraction)) and not isinstance(value, bool) else Fraction(0)

    def priced(self, cost: Fraction, holding: list[tuple[RuleEntry, Effect]]) -> Fraction:
        """`cost` changed by the `cost` effects that hold (effects.priced), each amount's value in effect."""
        return priced(cost, [(effect.amount, self.amount_of(effect.amount)) for _, effect in holding
                             if effect.amount is not None])

    def stopping(self, question: str, facts: Facts) -> tuple[RuleEntry, Effect] | None:
        """The first `stop` effect on `question` whose condition holds of `facts`: the unit enters the hex
        and goes no further."""
        return next(((entry, effect) for entry, effect in self.effects_on(question)
                     if effect.kind == "stop" and evaluate(effect.condition, facts)), None)

    def forbidding(self, question: str, facts: Facts, log: Callable[[Step], None], allowed: str
                   ) -> tuple[RuleEntry, Effect] | None:
        """The `forbid` effect that decides `question` for `facts`, or None; an `allow` that lifts the forbids
        is logged as a step saying `allowed`."""
        found = self.effect_holding(question, facts)
        if found is not None and found[1].kind == "allow":
            log(self.cite_effect(*found, f"rule {found[0].id}: {allowed}"))
            return None
        return found

    def cite_effect(self, entry: RuleEntry, effect: Effect, text: str) -> Step:
        """A step that applied `effect` of rule `entry`: the rule, where it is set, and its line as written."""
        return Step(f"{text} ({effect.text})", rule=entry.id, origin=entry.origin, source=entry.source)

    def cite_rule(self, rule: str, text: str) -> Step:
        """A step that applied rule `rule` as a whole (a TEC, a table), where the rulebook has it."""
        entry = self.rules.get(rule)
        if entry is None:
            return Step(text, rule=rule)
        return Step(text, rule=rule, origin=entry.origin, source=entry.source)
