"""The queries of worked examples (`expect` lines), one module per kind (ir.ExpectKind), in a registry.

Each kind is an IR node pair in rulesdsl.model.ir (`MoveQuery` and `MoveResult` ..., the union ir.Query),
each with only the fields it has, built from the tree by language/transform/examples.py.  Its module here
gives a `QueryKind` (base.py): its query and result printed back, the engine's answer compared with the
result, the line's checks by itself, and what mutation testing needs to know of it.  A new kind is its
grammar alternative, its node pair and builder, one module and one line in `_KINDS`; `registry` refuses a
set of kinds that leaves a node of ir.Query out or a kind with an operation missing, and
tests/test_queries.py fails for a kind without its grammar alternative or builder.
"""
from __future__ import annotations

import types
from collections.abc import Iterable, Mapping
from typing import Any

from rulesdsl.errors import Diagnostic, suggest
from rulesdsl.model import ir
from rulesdsl.queries import (advance, attack, combat, engage, exploit, losses, move, overrun, phases, reach,
                              retreat, stack, supply, zoc)
from rulesdsl.queries.base import Answer, CheckContext, QueryKind, Unanswerable, odds_word
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.situation import Situation

__all__ = ["QUERIES", "Answer", "CheckContext", "QueryKind", "Unanswerable", "ask", "check", "odds_word",
           "query_of", "query_text", "registry", "result_text", "states_answer"]

_KINDS: tuple[QueryKind[Any, Any], ...] = (
    move.QUERY, reach.QUERY, zoc.QUERY, stack.QUERY, supply.QUERY, overrun.QUERY, exploit.QUERY, attack.QUERY,
    retreat.QUERY, advance.QUERY, combat.QUERY, engage.QUERY, phases.QUERY, losses.QUERY,
)


def registry(kinds: Iterable[QueryKind[Any, Any]]) -> Mapping[ir.ExpectKind, QueryKind[Any, Any]]:
    """The kinds by ExpectKind; ValueError when one is given twice, one is missing (an IR query node,
    ir.Query, that no module answers), or one lacks an operation (a field that is None where a callable or a
    word belongs)."""
    found: dict[ir.ExpectKind, QueryKind[Any, Any]] = {}
    for kind in kinds:
        if kind.node not in ir.QUERY_NODES:
            raise ValueError(f"query kind '{kind.node.__name__}' is no query node of ir.Query")
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
_OPERATIONS = ("text", "result_text", "ask", "check", "names", "units", "states_answer")
_REQUIRED = (*_OPERATIONS, "node", "result_hint", "judged")


def _given(value: object, name: str) -> bool:
    """Whether a kind gives `name`: an operation is callable, a word is not empty, a flag is a bool."""
    if name in _OPERATIONS:
        return callable(value)
    if name == "judged":
        return isinstance(value, bool)
    return bool(value)


QUERIES = registry(_KINDS)


def query_of(kind: ir.ExpectKind) -> QueryKind[Any, Any]:
    """The module's operations for a kind of query."""
    return QUERIES[kind]


def query_text(query: ir.Query) -> str:
    """The query of an `expect` line as the notation writes it (what `rulesdsl explain` takes)."""
    return QUERIES[query.kind].text(query)


def result_text(query: ir.Query) -> str:
    """What an `expect` line says the rules answer, as the notation writes it ("" for none)."""
    return "" if query.result is None else QUERIES[query.kind].result_text(query.result)


def states_answer(query: ir.Query) -> bool:
    """Whether the line's result states an answer of the rules (not only an input, as a combat's roll alone)."""
    return query.result is not None and QUERIES[query.kind].states_answer(query.result)


def ask(engine: RulesEngine, module: types.ModuleType | None, situation: Situation, query: ir.Query) -> Answer:
    """The engine's answer to an expect line's query, compared with its result when it gives one.
    Raises Unanswerable when the engine refuses; any other exception of the engine propagates (a bug)."""
    return QUERIES[query.kind].ask(engine, module, situation, query)


def check(query: ir.Query, context: CheckContext, bare: bool) -> list[Diagnostic]:
    """What is wrong with an expect line by itself: units the situation lacks, its kind's checks (its hexes
    reported off the map through `context`) and, unless `bare` (a bare query `rulesdsl explain` takes), a
    result missing."""
    names = context.names
    kind = QUERIES[query.kind]
    problems: list[Diagnostic] = []
    for unit in kind.names(query):
        if unit.value not in names:
            problems.append(Diagnostic(f"no unit '{unit.value}' in this situation", unit.span,
                                       hint=suggest(unit.value, names) or _UNIT_HINT))
    problems += kind.check(query, context)
    if query.result is None and not bare:
        problems.append(Diagnostic("this expect line says nothing of what the rules answer", query.span,
                                   hint=kind.result_hint))
    return problems


_UNIT_HINT = "place it with a unit line: unit NAME SIDE A-D-M at HEX"
