"""Worked examples, run: each `expect` line asked of the rules engine of the resolved rulebook.

`run(resolved, module)` builds each example's situation (situations.build, its terrain checked against the
chart in effect) and asks each `expect` line's query of the rules engine (RULES_ENGINE) of the generated
module of the rulebook (codegen's output, compiled and imported in memory, see modcheck).  An answer that
differs from what the line says is an error at the line: `expected costs 1 2 3 2, computed costs 1 2 3 3`,
with the derivation, rule by rule, as its hint.  A game also runs the examples it inherits from its series
against its own rules: a difference there is a note naming the game's rule that changed the answer.

`explain` answers one query (`rulesdsl explain`); each kind of query is asked by its module in
rulesdsl.queries (`ask`, re-exported here with `Answer` and `Unanswerable`).
"""
from __future__ import annotations

import types
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulesdsl.model import ir
from rulesdsl.errors import Diagnostic, Span
from rulesdsl.queries import Answer, Unanswerable, ask, query_text, result_text, states_answer
from rulesdsl.queries.combat import check_outcome
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.ruleset import Step
from rulesdsl.runtime.situation import Situation
from rulesdsl.checks.situations import build

if TYPE_CHECKING:
    from rulesdsl.language.source import Source

__all__ = ["Answer", "Explanation", "Unanswerable", "ask", "engine_of", "explain", "has_examples", "run"]


def engine_of(module: types.ModuleType) -> RulesEngine:
    """The rules engine a generated module binds to its rules (RULES_ENGINE)."""
    engine = module.RULES_ENGINE
    assert isinstance(engine, RulesEngine)
    return engine


# ---- running the examples of a rulebook ------------------------------------------------------------------
def derivation(steps: Iterable[Step], limit: int = 12) -> str:
    """The derivation as a hint: each step on its own line, citing its rule; the first `limit` steps."""
    lines = [str(s) for s in steps]
    if len(lines) > limit:
        lines = lines[:limit] + [f"... and {len(lines) - limit} more steps (rulesdsl explain prints them all)"]
    return "derivation:\n" + "\n".join(lines) if lines else "the engine gave no derivation"


@dataclass
class Run:
    """The diagnostics of a rulebook's examples, how many expect lines ran, and those that failed (by span)."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    checked: int = 0
    failed: set[Span] = field(default_factory=set)


def _same_answer(module: types.ModuleType | None, situation: Situation, expectation: ir.Query,
                 answer: Answer) -> bool:
    """Whether `module`'s rules (a rulebook's parent's) answer the line as `answer` does."""
    if module is None:
        return False
    try:
        return ask(engine_of(module), module, situation, expectation).computed == answer.computed
    except Unanswerable:
        return False


def _parent(resolved: ir.Resolved) -> str | None:
    """The id of the rulebook this one extends directly."""
    return resolved.ancestors[0].id.value if resolved.ancestors else None


def _inherited(resolved: ir.Resolved) -> list[tuple[ir.Example, str]]:
    return [(example, book.id.value) for book in resolved.ancestors for example in book.examples]


def _own_terrain(resolved: ir.Resolved, situation: ir.Situation) -> list[str]:
    """The rulebook's own Terrain Effects Chart, or its amended rows, where the situation uses them (the
    engine's steps cite no TEC row: a game's chart is named from what the situation holds)."""
    chart, own = resolved.terrain, resolved.rulebook.id.value
    if chart is None:
        return []
    if chart.origin == own:
        return ["Terrain Effects Chart"]
    used = {t.value for area in situation.maps for t in area.terrain} | \
        {t.value for h in situation.hexes for t in h.terrain} | \
        {t.value for s in situation.hexsides for t in s.features} | \
        {r.road.value if r.road is not None else "" for r in situation.roads}
    rows = sorted({a.key.split(" ")[0] for a in chart.amended if a.origin == own} & used)
    return [f"Terrain Effects Chart ({', '.join(rows)})"] if rows else []


# the module of a rulebook's rules with some parameters at other values (an example's `assume` lines);
# None when the rules so changed do not compile
Variants = Callable[[dict[str, object], dict[str, Span]], "types.ModuleType | None"]


def assumed(resolved: ir.Resolved, situation: ir.Situation) -> tuple[dict[str, object], list[Diagnostic]]:
    """The values a situation's `assume` lines give (`assume stacking.limit = 6 steps`), typed against the
    rulebook's vocabulary, or the diagnostics of those that are not its parameters' values."""
    from rulesdsl.checks.validate import typed_value
    values: dict[str, object] = {}
    problems: list[Diagnostic] = []
    for parameter in situation.assumed:
        value, errors = typed_value(parameter, resolved.declared)
        problems += errors
        if not errors:
            values[parameter.name.value] = value
    return values, problems


def example_module(resolved: ir.Resolved, module: types.ModuleType, situation: ir.Situation,
                   variants: Variants | None) -> tuple[types.ModuleType | None, list[Diagnostic]]:
    """The module an example runs against: `module`, or its variant with the values the example assumes."""
    values, problems = assumed(resolved, situation)
    if problems or not values:
        return (None if problems else module), problems
    where = {p.name.value: p.span for p in situation.assumed}
    found = variants(values, where) if variants is not None else None
    if found is None:
        first = situation.assumed[0]
        return None, [Diagnostic(f"with the values this example assumes, the rules of {resolved.id} do not compile",
                                 first.span, hint="rulesdsl build reports why, once the rulebook sets them")]
    return found, []


def has_examples(resolved: ir.Resolved) -> bool:
    """Whether the rulebook has examples of its own or inherits some."""
    return any(book.examples for book in (resolved.rulebook, *resolved.ancestors))


def run(resolved: ir.Resolved, module: types.ModuleType, *, own_examples: bool = True,
        inherited: bool = True, failed: Iterable[Span] = (),
        parent: Callable[[dict[str, object] | None], types.ModuleType | None] | None = None,
        variants: Variants | None = None) -> Run:
    """Run the rulebook's own examples (a failure is an error) and those it inherits (a difference is a
    note naming the rulebook's own rule that changed the answer, when the derivation cites one); an
    inherited expect line in `failed` (it fails in its own rulebook, an error there) is not run again.
    An example that assumes values runs against the variant of the module `variants` gives (and `parent`,
    the module of the rulebook this one extends, with those values)."""
    chart = getattr(module, "TERRAIN", None)
    out = Run()
    own = resolved.rulebook.id.value
    skip = set(failed)
    examples = [(e, own) for e in resolved.rulebook.examples] if own_examples else []
    otherwise: dict[str, list[str]] = {}
    for example, origin in examples + (_inherited(resolved) if inherited else []):
        found, problems = example_module(resolved, module, example.situation, variants)
        if found is None:
            if origin == own:
                out.diagnostics += problems
                out.failed.update(e.span for e in example.situation.expectations)
            continue
        engine = engine_of(found)
        situation, problems = build(example.situation, chart)
        if situation is None:
            if origin == own:
                out.diagnostics += problems
                out.failed.update(e.span for e in example.situation.expectations)
            continue
        for expectation in example.situation.expectations:
            if expectation.span in skip:
                continue
            out.checked += 1
            try:
                if origin == own:
                    check_outcome(found, expectation)
                answer = ask(engine, found, situation, expectation)
            except Unanswerable as exc:
                if origin == own:
                    out.failed.add(expectation.span)
                    out.diagnostics.append(Diagnostic(str(exc), exc.span or expectation.span,
                                                      hint=exc.hint or f"the rules engine cannot answer "
                                                           f"'{query_text(expectation)}' in this situation"))
                continue
            if answer.matches:
                continue
            if origin == own:
                out.failed.add(expectation.span)
                out.diagnostics.append(Diagnostic(answer.mismatch, expectation.span, hint=derivation(answer.steps)))
                continue
            overriding = sorted({f"rule {s.rule}" for s in answer.steps if s.origin == own and s.rule})
            overriding += _own_terrain(resolved, example.situation)
            if origin != _parent(resolved) and parent is not None and \
                    _same_answer(parent(assumed(resolved, example.situation)[0] or None), situation, expectation,
                                 answer):
                continue    # the series between them answers it so already (noted there): not this rulebook's doing
            why = f" (under {own}'s {', '.join(overriding)})" if overriding else ""
            cites = f" [{' '.join(c.value for c in example.cites)}]" if example.cites else ""
            otherwise.setdefault(origin, []).append(       # by title and rule: the file may be an installed one
                f"{example.title.value}{cites}, line {expectation.span.line}: {answer.mismatch}{why}")
    # one note per rulebook whose examples read otherwise here, each differing expect line under it
    for origin, lines in otherwise.items():
        out.diagnostics.append(Diagnostic(
            f"{own} answers {len(lines)} expect line{'s' if len(lines) != 1 else ''} of {origin}'s examples "
            f"otherwise, under its own rules", resolved.rulebook.id.span, severity="note",
            hint="\n".join(lines)))
    return out


# ---- rulesdsl explain -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Explanation:
    rulebook: str
    query: str
    answer: Answer
    expected: str | None      # the result the query gave, if any

    def text(self) -> str:
        lines = [f"{self.query}  ({self.rulebook})"]
        for number, step in enumerate(self.answer.steps, 1):
            lines.append(f"  {number:>2}. {step}")
        lines.append(f"answer: {self.answer.computed}")
        if self.expected:
            lines.append(f"expected: {self.expected} ({'as computed' if self.answer.matches else 'differs'})")
        return "\n".join(lines) + "\n"

    def as_json(self) -> dict[str, Any]:
        return {"rulebook": self.rulebook, "query": self.query, "answer": self.answer.computed,
                "data": self.answer.data, "steps": [s.as_json() for s in self.answer.steps],
                "expected": self.expected, "matches": self.answer.matches if self.expected else None}


def explain(module: types.ModuleType, source: Source, query: str, resolved: ir.Resolved | None = None,
            variants: Variants | None = None) -> Explanation:
    """The derivation of `query` (the words of an expect line, its result optional) in the situation
    `source` holds, under the rules of `module` (of `resolved`, with the values the situation assumes from
    `variants`); RulesError with positioned diagnostics otherwise."""
    from rulesdsl.errors import RulesError
    from rulesdsl.language.source import Source
    from rulesdsl.language.transform import parse_situation
    text = source.text.rstrip("\n")
    query_line = len(text.split("\n")) + 1 if text.strip() else 1
    whole = Source(source.path, (text + "\n" if text.strip() else "") + "expect " + query + "\n")
    situation_ir = parse_situation(whole)
    expectation = next(e for e in situation_ir.expectations if e.span.line == query_line)
    if situation_ir.assumed:
        if resolved is None:
            raise RulesError([Diagnostic("`assume` needs the rulebook's parameters", situation_ir.assumed[0].span)],
                             {whole.path: whole.text})
        found, problems = example_module(resolved, module, situation_ir, variants)
        if found is None:
            raise RulesError(problems, {whole.path: whole.text})
        module = found
    situation, problems = build(situation_ir, getattr(module, "TERRAIN", None))
    if situation is None:
        raise RulesError(problems, {whole.path: whole.text})
    try:
        check_outcome(module, expectation)
        answer = ask(engine_of(module), module, situation, expectation)
    except Unanswerable as exc:
        raise RulesError([Diagnostic(str(exc), exc.span or expectation.span, exc.hint)],
                         {whole.path: whole.text}) from None
    # a result that states no answer (a combat's roll alone, to read the table at) is an input, not expected
    expected = result_text(expectation) or None if states_answer(expectation) else None
    return Explanation(module.RULEBOOK["id"], query_text(expectation), answer, expected)
