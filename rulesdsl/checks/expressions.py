"""Rulebook expressions: checked against the context (context.py).

`Checker` walks an expression and gives its kind (number, bool, odds, units,
hexes, terrain, or enum:<definition>), recording a positioned diagnostic for
anything it cannot check.  Resolve runs it to check a rulebook; how a checked
expression is written out is an `Emitter`'s business: the one here writes
nothing, and codegen's PythonEmitter writes Python.  Names from the rulebook
reach the Python only as repr'd strings or as identifiers built from
validated names; nothing is ever evaluated from text.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, assert_never

from rulesdsl.model import ir
from rulesdsl.model.context import AGGREGATES, HEX_ATTRIBUTES, NUMERIC, RESULT_FIELDS, ROOT, TERRAIN_ATTRIBUTES, UNIT_ATTRIBUTES
from rulesdsl.errors import Diagnostic, Span, suggest
from rulesdsl.language.limits import MAX_CALL_DEPTH
from rulesdsl.runtime.notation import parse_odds


def function_name(definition: str) -> str:
    """'armor-advantage' -> '_def_armor_advantage'."""
    name = "_def_" + re.sub(r"[^a-z0-9]+", "_", definition.lower()).strip("_")
    assert re.fullmatch(r"[a-z_][a-z0-9_]*", name)
    return name


def numeric_values(parameters: Any) -> dict[str, Fraction]:
    """The numeric parameters in effect (ir.EffectiveParameter) and their values: what `Checker.constant`
    reads a parameter as."""
    from rulesdsl.runtime.model import Quantity
    out: dict[str, Fraction] = {}
    for p in parameters:
        value = p.value.amount if isinstance(p.value, Quantity) else p.value
        if isinstance(value, (int, Fraction)) and not isinstance(value, bool):
            out[p.name] = Fraction(value)
    return out


class Emitter:
    """How a checked expression is written out, one method per construct; each gets
    what its parts were written as.  This one writes nothing: checking only."""

    def number(self, value: Fraction) -> Any: return None
    def odds(self, ratio: Fraction) -> Any: return None
    def definition(self, name: str) -> Any: return None
    def parameter(self, name: str) -> Any: return None
    def situation(self, name: str) -> Any: return None
    def amount(self, name: str) -> Any: return None
    def root(self, path: str) -> Any: return None
    def result(self, field: str) -> Any: return None
    def attribute(self, var: Any, name: str) -> Any: return None      # unit, hex or terrain attribute
    def unit_word(self, var: Any, word: str) -> Any: return None       # a unit's type, capability or state
    def unary(self, op: str, operand: Any) -> Any: return None         # "-" or "not"
    def binary(self, op: str, left: Any, right: Any) -> Any: return None
    # a division; `where` ("path:line:col" of the divisor) when the divisor may be 0 as the rules are played
    def divide(self, left: Any, right: Any, where: str | None) -> Any: return None
    def is_case(self, operand: Any, word: str) -> Any: return None
    def is_terrain(self, operand: Any, word: str) -> Any: return None
    def extreme(self, function: str, args: list[Any]) -> Any: return None   # max(a, b, ...), min(...)
    def choose(self, condition: Any, yes: Any, no: Any) -> Any: return None  # if(c, a, b)
    def odds_of(self, attack: Any, defense: Any) -> Any: return None
    def numeric(self, function: str, operand: Any) -> Any: return None      # floor, ceil, round
    def across(self, var: Any, hexside: str) -> Any: return None
    def aggregate(self, function: str, collection: Any, var: str, where: Any, of: Any) -> Any: return None
    def cases(self, branches: list[tuple[Any, str]], default: str | None) -> Any: return None
    def error(self) -> Any: return None


class _Later(Exception):
    """A definition uses one that is not checked yet."""

    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


class Checker:
    def __init__(self, vocabulary: ir.Names, emitter: Emitter | None = None,
                 values: dict[str, Fraction] | None = None, no_odds: tuple[str, str] | None = None):
        self.vocabulary = vocabulary
        self.no_odds = no_odds                   # (why, hint) when the rulebook has no odds to compute
        self.out = emitter or Emitter()
        self.values = values or {}               # numeric parameters in effect -> their values
        self.problems: list[Diagnostic] = []
        self.kinds: dict[str, str] = {}          # definition -> kind, once compiled
        self.sources: dict[str, Any] = {}        # definition -> as the emitter wrote it
        self.uses: dict[str, set[str]] = {}      # definition -> definitions it uses
        self._current: str | None = None
        self.reading_result = False              # result.* is readable in result adjustments only
        self._scopes: list[tuple[Any, str]] = []  # (element kind, variable)
        self.frames: dict[str, int] = {}         # definition -> nested calls computing it takes, at most
        self._nesting = 0                        # calls open where the walk is (a definition, count's test ...)
        self._peak = 0

    # -- definitions ------------------------------------------------------
    def compile_definitions(self) -> list[str]:
        """Check every definition; return them in an order where each comes after those it uses.

        No definition is checked from inside another: one that uses a definition not yet
        checked is set aside until that one is (a work stack, not recursion), so a long
        chain of definitions cannot exhaust Python's stack."""
        for name in self.vocabulary.definitions:
            self._settle(name)
        order, seen = [], set()
        for root in sorted(self.vocabulary.definitions):   # post-order, iteratively
            work: list[tuple[str, bool]] = [(root, False)]
            while work:
                name, done = work.pop()
                if done:
                    order.append(name)
                    continue
                if name in seen:
                    continue
                seen.add(name)
                work.append((name, True))
                work.extend((used, False) for used in sorted(self.uses.get(name, ()), reverse=True))
        return order

    def _settle(self, name: str) -> None:
        work = [name]
        while work:
            current = work[-1]
            if current in self.kinds:
                work.pop()
                continue
            mark = len(self.problems)
            try:
                self._definition(current, work)
            except _Later as later:   # it uses `later.name`, not checked yet: that one first
                del self.problems[mark:]
                work.append(later.name)
                continue
            work.pop()

    def _use(self, name: str, stack: list[str]) -> str:
        """The kind of definition `name`, used by the one being checked."""
        if name in self.kinds:
            if self._current is not None:
                self._peak = max(self._peak, self._nesting + self.frames.get(name, 0))
            return self.kinds[name]
        if name in stack:
            cycle = " -> ".join(stack[stack.index(name):] + [name])
            self.problems.append(Diagnostic(f"definitions use each other in a cycle: {cycle}",
                                            self.vocabulary.definitions[name].name.span))
            self.kinds[name] = "error"
            return "error"
        if self._current is None:
            self._settle(name)
            return self.kinds[name]
        raise _Later(name)

    def _definition(self, name: str, stack: list[str]) -> None:
        definition = self.vocabulary.definitions[name]
        saved = self._current, self._nesting, self._peak, self._scopes
        self._current, self._nesting, self._peak, self._scopes = name, 1, 1, []   # the definition's own call
        self.uses[name] = set()
        try:
            if definition.cases:
                branches, words, default = [], [], None
                for case in definition.cases:
                    words.append(case.result.value)
                    if case.condition is None:
                        if default is not None:
                            self.problems.append(Diagnostic("a definition has one 'otherwise'", case.span))
                        default = case.result.value
                        continue
                    if default is not None:
                        self.problems.append(Diagnostic("'otherwise' must be the last case", case.span))
                    source = self.condition(case.condition, stack)
                    branches.append((source, case.result.value))
                if default is None:
                    self.problems.append(Diagnostic(f"definition '{name}' has no 'otherwise' case",
                                                    definition.name.span,
                                                    "end the cases with a line like: none otherwise"))
                python = self.out.cases(branches, default)
                kind = "enum:" + name
            else:
                assert definition.expr is not None   # the grammar gives a definition cases or an expression
                python, kind = self._compile(definition.expr, stack)
            frames = self._peak
        finally:
            self._current, self._nesting, self._peak, self._scopes = saved
        self.frames[name] = frames
        if frames > MAX_CALL_DEPTH and not any(self.frames.get(u, 0) > MAX_CALL_DEPTH for u in self.uses[name]):
            self.problems.append(Diagnostic(
                f"definition '{name}' nests too deeply: computing it takes {frames} nested calls "
                f"(limit {MAX_CALL_DEPTH})", definition.name.span,
                "use fewer definitions inside definitions, or fewer count/sum/any/all inside one another"))
        self.kinds.setdefault(name, kind)   # a cycle found inside it has marked it an error already
        self.sources[name] = python

    def case_words(self, name: str) -> list[str]:
        return [c.result.value for c in self.vocabulary.definitions[name].cases]

    # -- entry points -----------------------------------------------------
    def condition(self, expr: ir.Expr, stack: list[str] | None = None) -> Any:
        source, kind = self._compile(expr, stack or [])
        if kind not in ("bool", "error"):
            self.problems.append(Diagnostic(f"a condition must be true or false, but this is {_noun(kind)}", expr.span))
        return source

    def in_unit(self, expr: ir.Expr, number: bool) -> Any:
        """Compile `expr` with one unit in scope, as `u1`."""
        self._scopes.append(("unit", "u1"))
        try:
            return self.number(expr) if number else self.condition(expr)
        finally:
            self._scopes.pop()

    def number(self, expr: ir.Expr, stack: list[str] | None = None) -> Any:
        source, kind = self._compile(expr, stack or [])
        if kind not in ("number", "error"):
            self.problems.append(Diagnostic(f"expected a number, but this is {_noun(kind)}", expr.span))
        return source

    # -- the compiler proper ------------------------------------------------
    def _error(self, message: str, span: Span, hint: str | None = None) -> tuple[Any, str]:
        self.problems.append(Diagnostic(message, span, hint))
        return self.out.error(), "error"

    def _compile(self, expr: ir.Expr, stack: list[str]) -> tuple[Any, str]:
        match expr:
            case ir.Number():
                return self._number(expr, stack)
            case ir.OddsLiteral():
                return self._oddsliteral(expr, stack)
            case ir.Name():
                return self._name(expr, stack)
            case ir.Call():
                return self._call(expr, stack)
            case ir.Unary():
                return self._unary(expr, stack)
            case ir.Binary():
                return self._binary(expr, stack)
            case ir.Is():
                return self._is(expr, stack)
        assert_never(expr)

    def _number(self, expr: ir.Number, stack: list[str]) -> tuple[Any, str]:
        return self.out.number(expr.value), "number"

    def _oddsliteral(self, expr: ir.OddsLiteral, stack: list[str]) -> tuple[Any, str]:
        pair = parse_odds(expr.text)
        if pair is None:
            return self._error(f"'{expr.text}' is not an odds ratio", expr.span)
        return self.out.odds(Fraction(pair[0]) / Fraction(pair[1])), "odds"

    def _name(self, expr: ir.Name, stack: list[str]) -> tuple[Any, str]:
        path = expr.path
        head, _, rest = path.partition(".")
        for kind, var in reversed(self._scopes):
            found = self._attribute(kind, var, path)
            if found:
                return found
            inner = self._attribute(kind, var, head) if rest else None
            if inner and inner[1] == "terrain":
                found = self._attribute("terrain", inner[0], rest)
                if found:
                    return found
                return self._error(f"a terrain has no '{rest}'", expr.span,
                                   suggest(rest, TERRAIN_ATTRIBUTES) or "it has " + ", ".join(TERRAIN_ATTRIBUTES))
        if path in self.vocabulary.definitions:
            if self._current is not None:
                self.uses[self._current].add(path)
            kind = self._use(path, stack)
            return self.out.definition(path), kind
        if path in self.vocabulary.parameters:
            return self.out.parameter(path), self.vocabulary.parameters[path]
        if path in self.vocabulary.situations:
            return self.out.situation(path), "bool"
        if path in self.vocabulary.amounts:
            return self.out.amount(path), "number"
        if path in ROOT:
            return self.out.root(path), ROOT[path]
        if path in RESULT_FIELDS:
            if not self.reading_result or self._current is not None:
                return self._error(f"'{path}' can only be read in result adjustments", expr.span)
            return self.out.result(path.split(".")[1]), "number"
        head, _, attribute = path.partition(".")
        if head in ROOT and ROOT[head] == "terrain" and attribute:
            found = self._attribute("terrain", self.out.root(head), attribute)
            if found:
                return found
            return self._error(f"a terrain has no '{attribute}'", expr.span,
                               suggest(attribute, TERRAIN_ATTRIBUTES) or "it has " + ", ".join(TERRAIN_ATTRIBUTES))
        return self._error(f"unknown name '{path}'", expr.span, self._hint(path))

    def _attribute(self, kind: str, var: Any, name: str) -> tuple[Any, str] | None:
        if kind == "unit":
            if name in UNIT_ATTRIBUTES:
                return self.out.attribute(var, name), UNIT_ATTRIBUTES[name]
            if name in self.vocabulary.unit_words:
                return self.out.unit_word(var, name), "bool"
        elif kind == "hex":
            if name in HEX_ATTRIBUTES:
                return self.out.attribute(var, name), HEX_ATTRIBUTES[name]
        elif kind == "terrain":
            if name in TERRAIN_ATTRIBUTES:
                return self.out.attribute(var, name), TERRAIN_ATTRIBUTES[name]
        return None

    def _hint(self, name: str) -> str | None:
        pool = set(ROOT) | set(self.vocabulary.definitions) | self.vocabulary.situations | self.vocabulary.amounts
        for kind, _ in self._scopes:
            pool |= {"unit": set(UNIT_ATTRIBUTES) | self.vocabulary.unit_words,
                     "hex": set(HEX_ATTRIBUTES), "terrain": set(TERRAIN_ATTRIBUTES)}[kind]
        close = suggest(name, pool, cutoff=0.75)
        if close:
            return close
        if self._scopes and self._scopes[-1][0] == "unit":
            return ("a unit has " + ", ".join(UNIT_ATTRIBUTES) + ", and the types, capabilities and states "
                    "the rulebook declares (unit types, unit states)")
        if self._scopes and self._scopes[-1][0] == "hex":
            return "an attacking hex has " + ", ".join(HEX_ATTRIBUTES) + " and across(<hexside>)"
        return "expressions may read: " + ", ".join(sorted(ROOT)) + " (rulesdsl reference lists what each holds)"

    def _unary(self, expr: ir.Unary, stack: list[str]) -> tuple[Any, str]:
        source, kind = self._compile(expr.operand, stack)
        if expr.op == "not":
            if kind not in ("bool", "error"):
                return self._error(f"'not' needs a condition, not {_noun(kind)}", expr.operand.span)
            return self.out.unary("not", source), "bool"
        if kind not in ("number", "error"):
            return self._error(f"'-' needs a number, not {_noun(kind)}", expr.operand.span)
        return self.out.unary("-", source), "number"

    def _binary(self, expr: ir.Binary, stack: list[str]) -> tuple[Any, str]:
        left, lkind = self._compile(expr.left, stack)
        right, rkind = self._compile(expr.right, stack)
        if "error" in (lkind, rkind):
            return self.out.error(), "error"
        op = expr.op
        if op in ("and", "or"):
            for kind, side in ((lkind, expr.left), (rkind, expr.right)):
                if kind != "bool":
                    return self._error(f"'{op}' joins conditions, not {_noun(kind)}", side.span)
            return self.out.binary(op, left, right), "bool"
        if op in ("+", "-", "*", "/"):
            for kind, side in ((lkind, expr.left), (rkind, expr.right)):
                if kind != "number":
                    return self._error(f"'{op}' needs numbers, not {_noun(kind)}", side.span)
            if op == "/":
                return self._divide(expr, left, right)
            return self.out.binary(op, left, right), "number"
        comparable = {"number", "odds"}
        if op in ("==", "!=") and lkind == rkind:
            return self.out.binary(op, left, right), "bool"
        for kind, side in ((lkind, expr.left), (rkind, expr.right)):
            if kind not in comparable:
                return self._error(f"'{op}' compares numbers or odds, not {_noun(kind)}", side.span,
                                   "compare a case of a definition with 'is', like: armor-advantage is attacker"
                                   if kind.startswith("enum:") else None)
        return self.out.binary(op, left, right), "bool"

    def _divide(self, expr: ir.Binary, left: Any, right: Any) -> tuple[Any, str]:
        """A division: by a constant 0 an error; by what may be 0 as the game is played a warning, and the
        module then names this place if it ever is; by what cannot be 0, a plain division."""
        divisor, span = self.constant(expr.right), expr.right.span
        if divisor == 0:
            return self._error("division by zero: the divisor is always 0", span,
                               "divide by a number other than 0, or by a parameter set to one")
        if divisor is not None or self._positive(expr.right):
            return self.out.divide(left, right, None), "number"
        self.problems.append(Diagnostic(
            "this divides by an amount that may be 0; if it is, the rules engine stops with an error naming this "
            "place", span, "keep the divisor above 0, like: max(<amount>, 1)", severity="warning"))
        return self.out.divide(left, right, f"{span.path}:{span.line}:{span.column}"), "number"

    def constant(self, expr: ir.Expr, seen: frozenset[str] = frozenset()) -> Fraction | None:
        """The value of an expression that is the same whatever the situation: numbers, numeric parameters in
        effect, and definitions and arithmetic over them; None for anything else."""
        if isinstance(expr, ir.Number):
            return Fraction(expr.value)
        if isinstance(expr, ir.Name):
            if expr.path in self.values:
                return self.values[expr.path]
            found = self.vocabulary.definitions.get(expr.path)
            if found is not None and found.expr is not None and expr.path not in seen:
                return self.constant(found.expr, seen | {expr.path})
            return None
        if isinstance(expr, ir.Unary) and expr.op == "-":
            value = self.constant(expr.operand, seen)
            return None if value is None else -value
        if isinstance(expr, ir.Binary) and expr.op in ("+", "-", "*", "/"):
            a, b = self.constant(expr.left, seen), self.constant(expr.right, seen)
            if a is None or b is None or (expr.op == "/" and b == 0):
                return None
            return a + b if expr.op == "+" else a - b if expr.op == "-" else a * b if expr.op == "*" else a / b
        return None

    def _positive(self, expr: ir.Expr) -> bool:
        """Whether an expression is above 0 whatever the situation: a positive constant, or max(...) of one."""
        value = self.constant(expr)
        if value is not None:
            return value > 0
        return isinstance(expr, ir.Call) and expr.function.value == "max" and any(
            self._positive(arg) for arg in expr.args)

    def _is(self, expr: ir.Is, stack: list[str]) -> tuple[Any, str]:
        source, kind = self._compile(expr.operand, stack)
        word = expr.word.value
        if kind == "error":
            return self.out.error(), "error"
        if kind.startswith("enum:"):
            words = self.case_words(kind[5:])
            if word not in words:
                return self._error(f"'{word}' is not a case of {kind[5:]}", expr.word.span,
                                   suggest(word, words) or "its cases are " + ", ".join(dict.fromkeys(words)))
            return self.out.is_case(source, word), "bool"
        if kind == "side":          # any word: a side is named where the game is played, not declared
            return self.out.is_case(source, word), "bool"
        if kind == "terrain":
            if word not in self.vocabulary.terrain:
                return self._error(f"unknown terrain '{word}'", expr.word.span, suggest(word, self.vocabulary.terrain))
            return self.out.is_terrain(source, word), "bool"
        return self._error(f"'is' compares a definition's case, a terrain or a side, not {_noun(kind)}",
                           expr.operand.span)

    def _call(self, expr: ir.Call, stack: list[str]) -> tuple[Any, str]:
        function = expr.function.value
        if function in ("min", "max") and len(expr.args) > 1:
            return self.out.extreme(function, [self.number(arg, stack) for arg in expr.args]), "number"
        if function == "if":
            if len(expr.args) != 3:
                return self._error("if takes a condition and two values: if(dg, 1, 0)", expr.span)
            condition = self.condition(expr.args[0], stack)
            (yes, ykind), (no, nkind) = (self._compile(a, stack) for a in expr.args[1:])
            if "error" in (ykind, nkind):
                return self.out.error(), "error"
            if ykind != nkind:
                return self._error(f"both values of if must be alike, not {_noun(ykind)} and {_noun(nkind)}",
                                   expr.span)
            return self.out.choose(condition, yes, no), ykind
        if function in AGGREGATES:
            return self._aggregate(expr, stack)
        if function == "odds":
            if len(expr.args) != 2:
                return self._error("odds takes two strengths: odds(attack, defense)", expr.span)
            if self.no_odds is not None:
                return self._error(self.no_odds[0], expr.span, self.no_odds[1])
            a, d = (self.number(arg, stack) for arg in expr.args)
            return self.out.odds_of(a, d), "odds"
        if function in NUMERIC:
            if len(expr.args) != 1 or expr.where or expr.of:
                return self._error(f"{function} takes one number: {function}(x)", expr.span)
            return self.out.numeric(function, self.number(expr.args[0], stack)), "number"
        if function == "across":
            if not self._scopes or self._scopes[-1][0] != "hex":
                return self._error("across(...) applies to an attacking hex, inside where", expr.span,
                                   "like: all(attacking_hexes where across(river))")
            arg = expr.args[0]
            if not isinstance(arg, ir.Name) or self.vocabulary.terrain.get(arg.path) != "hexside":
                name = getattr(arg, "path", "?")
                hexsides = [t for t, k in self.vocabulary.terrain.items() if k == "hexside"]
                return self._error(f"'{name}' is not a hexside feature of the terrain effects chart", arg.span,
                                   suggest(name, hexsides))
            return self.out.across(self._scopes[-1][1], arg.path), "bool"
        known = sorted(AGGREGATES | NUMERIC | {"odds", "across", "if"})
        return self._error(f"unknown function '{function}'", expr.function.span,
                           suggest(function, known) or "the functions are " + ", ".join(known))

    def _aggregate(self, expr: ir.Call, stack: list[str]) -> tuple[Any, str]:
        function = expr.function.value
        if len(expr.args) != 1:
            return self._error(f"{function} takes one collection: {function}(attackers where ...)", expr.span)
        collection, kind = self._compile(expr.args[0], stack)
        if kind == "error":
            return self.out.error(), "error"
        if kind not in ("units", "hexes"):
            return self._error(f"{function} needs units or hexes, not {_noun(kind)}", expr.args[0].span)
        element = "unit" if kind == "units" else "hex"
        var = f"{element[0]}{len(self._scopes) + 1}"
        self._scopes.append((element, var))
        self._nesting += 3          # where/of run in a lambda, called from a generator in the helper
        self._peak = max(self._peak, self._nesting)
        try:
            where = self.condition(expr.where, stack) if expr.where is not None else None
            of = self.number(expr.of, stack) if expr.of is not None else None
        finally:
            self._scopes.pop()
            self._nesting -= 3
        if function in ("count", "any", "all"):
            if expr.of is not None:
                return self._error(f"{function} takes no 'of'", expr.of.span)
            if function == "all" and expr.where is None:
                return self._error("all needs a condition: all(attackers where dg)", expr.span)
            return (self.out.aggregate(function, collection, var, where, None),
                    "number" if function == "count" else "bool")
        if expr.of is None:
            return self._error(f"{function} needs 'of' and the value to add up: {function}(defenders of defense)",
                               expr.span)
        return self.out.aggregate(function, collection, var, where, of), "number"


def _noun(kind: str) -> str:
    if kind.startswith("enum:"):
        return f"a case of {kind[5:]}"
    return {"number": "a number", "bool": "a condition", "odds": "an odds ratio", "units": "a group of units",
            "hexes": "a group of hexes", "terrain": "a terrain", "side": "a side"}.get(kind, kind)
