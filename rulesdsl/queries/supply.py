"""`expect supply UNIT`: whether a unit traces a supply path, and the path (RulesEngine.supply)."""
from __future__ import annotations

import types

from rulesdsl.errors import Diagnostic
from rulesdsl.model import ir
from rulesdsl.queries.base import (Answer, CheckContext, QueryKind, compared, engine_call, hexes_text, query_words,
                                   ruling_word, states_answer, want)
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.situation import Situation


def text(q: ir.SupplyQuery) -> str:
    """`supply UNIT`, as written."""
    return query_words(q.kind, [q.unit.value])


def ask(engine: RulesEngine, module: types.ModuleType | None, situation: Situation, q: ir.SupplyQuery) -> Answer:
    """In or out of supply, compared with the line's ruling."""
    trace = engine_call("supply", engine.supply, situation, q.unit.value)
    data = {"unit": trace.unit, "in_supply": trace.in_supply, "path": hexes_text(trace.path)}
    word, ok = ruling_word(q.result.ruling if q.result else None, trace.in_supply, ir.Ruling.IN, ir.Ruling.OUT)
    return compared(want(result_text, q.result), [word], data, trace.steps, ok)


def result_text(r: ir.SupplyResult) -> str:
    """`in` or `out`, as written."""
    return str(r.ruling)


def check(q: ir.SupplyQuery, context: CheckContext) -> list[Diagnostic]:
    """Nothing of its own: its unit is in the situation (names)."""
    return []


QUERY = QueryKind(
    node=ir.SupplyQuery, text=text, result_text=result_text, ask=ask, check=check,
    names=lambda q: (q.unit,), units=lambda q: (q.unit,),
    result_hint="end it with in or out",
    states_answer=states_answer, drives="supply", judged=False, answer_hexes=None)
