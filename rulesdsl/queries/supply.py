"""`expect supply UNIT`: whether a unit traces a supply path, and the path (RulesEngine.supply)."""
from __future__ import annotations

import types

from rulesdsl.errors import Diagnostic
from rulesdsl.model import ir
from rulesdsl.queries.base import (Answer, CheckContext, QueryKind, compared, engine_call, hexes_result,
                                   hexes_text, hexes_on_map, query_words, ruling_word, states_answer, want)
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.situation import Situation


def text(e: ir.Expectation) -> str:
    """`supply UNIT`, as written."""
    return query_words(e, [u.value for u in e.units], [], frozenset())


def ask(engine: RulesEngine, module: types.ModuleType | None, situation: Situation, e: ir.Expectation) -> Answer:
    """In or out of supply, compared with the line's ruling."""
    trace = engine_call("supply", engine.supply, situation, e.units[0].value)
    data = {"unit": trace.unit, "in_supply": trace.in_supply, "path": hexes_text(trace.path)}
    word, ok = ruling_word(e.result.ruling if e.result else None, trace.in_supply, ir.Ruling.IN, ir.Ruling.OUT)
    return compared(want(result_text, e.result), [word], data, trace.steps, ok)


def result_text(r: ir.ExpectedResult) -> str:
    """`in` or `out`, as written."""
    return hexes_result(r)


def check(e: ir.Expectation, context: CheckContext) -> list[Diagnostic]:
    """The query's hexes on the map."""
    hexes_on_map(e, context)
    return []


QUERY = QueryKind(
    kind=ir.ExpectKind.SUPPLY, text=text, result_text=result_text, ask=ask, check=check,
    result_hint="end it with in or out",
    states_answer=states_answer, drives="supply", judged=False, answer_hexes=None)
