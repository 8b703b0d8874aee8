"""The queries of worked examples (`expect` lines), one module per kind (ir.ExpectKind), in a registry.

Each kind's module gives a `QueryKind` (base.py): its query and result printed back, the engine's answer
compared with the result, the line's checks by itself, and what mutation testing needs to know of it.  A new
kind is one module and one line in `_KINDS`; `registry` refuses a set of kinds that leaves an ExpectKind out
or a kind with an operation missing (tests/test_queries.py).
"""
from __future__ import annotations

import types
from collections.abc import Iterable, Mapping

from rulesdsl.errors import Diagnostic, suggest
from rulesdsl.model import ir
from rulesdsl.queries import (advance, attack, combat, engage, exploit, move, overrun, phases, reach, retreat,
                              stack, supply, zoc)
from rulesdsl.queries.base import Answer, CheckContext, QueryKind, Unanswerable, odds_word
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.situation import Situation

__all__ = ["QUERIES", "Answer", "CheckContext", "QueryKind", "Unanswerable", "ask", "check", "odds_word",
           "query_of", "query_text", "registry", "result_text"]

_KINDS: tuple[QueryKind, ...] = (
    move.QUERY, reach.QUERY, zoc.QUERY, stack.QUERY, supply.QUERY, overrun.QUERY, exploit.QUERY, attack.QUERY,
    retreat.QUERY, advance.QUERY, combat.QUERY, engage.QUERY, phases.QUERY,
)


def registry(kinds: Iterable[QueryKind]) -> Mapping[ir.ExpectKind, QueryKind]:
    """The kinds by ExpectKind; ValueError when one is given twice, one is missing, or one lacks an
    operation (a field that is None where a callable or a word belongs)."""
    found: dict[ir.ExpectKind, QueryKind] = {}
    for kind in kinds:
        if kind.kind in found:
            raise ValueError(f"query kind '{kind.kind}' is registered twice")
        missing = [name for name in _REQUIRED if not _given(getattr(kind, name, None), name)]
        if missing:
            raise ValueError(f"query kind '{kind.kind}' lacks {', '.join(missing)}")
        found[kind.kind] = kind
    unregistered = [str(k) for k in ir.ExpectKind if k not in found]
    if unregistered:
        raise ValueError(f"no module answers the query kinds {', '.join(unregistered)}")
    return found


# what every kind gives (`drives` and `answer_hexes` may be None: a kind that drives no engine question, or
# whose answer holds no set of hexes)
_OPERATIONS = ("text", "result_text", "ask", "check", "states_answer")
_REQUIRED = (*_OPERATIONS, "kind", "result_hint", "judged")


def _given(value: object, name: str) -> bool:
    """Whether a kind gives `name`: an operation is callable, a word is not empty, a flag is a bool."""
    if name in _OPERATIONS:
        return callable(value)
    if name == "judged":
        return isinstance(value, bool)
    return bool(value)


QUERIES = registry(_KINDS)


def query_of(kind: ir.ExpectKind) -> QueryKind:
    """The module's operations for a kind of query."""
    return QUERIES[kind]


def query_text(expectation: ir.Expectation) -> str:
    """The query of an `expect` line as the notation writes it (what `rulesdsl explain` takes)."""
    return QUERIES[expectation.kind].text(expectation)


def result_text(result: ir.ExpectedResult | None, kind: ir.ExpectKind) -> str:
    """What an `expect` line of `kind` says the rules answer, as the notation writes it ("" for none)."""
    return "" if result is None else QUERIES[kind].result_text(result)


def ask(engine: RulesEngine, module: types.ModuleType | None, situation: Situation,
        expectation: ir.Expectation) -> Answer:
    """The engine's answer to an expect line's query, compared with its result when it gives one.
    Raises Unanswerable when the engine refuses; any other exception of the engine propagates (a bug)."""
    return QUERIES[expectation.kind].ask(engine, module, situation, expectation)


def check(e: ir.Expectation, context: CheckContext, query: bool) -> list[Diagnostic]:
    """What is wrong with an expect line by itself: units the situation lacks, its kind's checks (its hexes
    reported off the map through `context`), its result's hexes on the map, and, unless `query` (a bare query
    `rulesdsl explain` takes), a result missing."""
    names = context.names
    problems: list[Diagnostic] = []
    for unit in (*e.units, *e.others, *e.arrived):
        if unit.value not in names:
            problems.append(Diagnostic(f"no unit '{unit.value}' in this situation", unit.span,
                                       hint=suggest(unit.value, names) or
                                       "place it with a unit line: unit NAME SIDE A-D-M at HEX"))
    if e.result is not None:
        for unit in (*(e.result.excess or ()), *(e.result.must_attack or ())):
            if unit.value not in names:
                problems.append(Diagnostic(f"no unit '{unit.value}' in this situation", unit.span,
                                           hint=suggest(unit.value, names) or "name the units of the stack"))
    kind = QUERIES[e.kind]
    problems += kind.check(e, context)
    if e.result is not None:
        for hex in (*e.result.hexes, *e.result.absent):
            context.on_map(hex)
    elif not query:
        problems.append(Diagnostic("this expect line says nothing of what the rules answer", e.span,
                                   hint=kind.result_hint))
    return problems
