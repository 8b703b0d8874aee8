"""`expect supply UNIT`: whether a unit traces a supply path, and the path (RulesEngine.supply)."""
from __future__ import annotations

import types

from rulesdsl.errors import Diagnostic
from rulesdsl.model import ir
from rulesdsl.queries.base import (Answer, CheckContext, QueryKind, compared, engine_call, hexes_text, query_words,
                                   states_answer, want)
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.situation import Situation


def text(q: ir.SupplyQuery) -> str:
    """`supply UNIT`, as written."""
    return query_words(q.kind, [q.unit.value])


def ask(engine: RulesEngine, module: types.ModuleType | None, situation: Situation, q: ir.SupplyQuery) -> Answer:
    """In or out of supply, or isolated (out and cut off, where the rulebook has isolation), compared with the
    line's ruling."""
    trace = engine_call("supply", engine.supply, situation, q.unit.value)
    data = {"unit": trace.unit, "in_supply": trace.in_supply, "isolated": trace.isolated,
            "path": hexes_text(trace.path)}
    ruling = ir.Ruling.IN if trace.in_supply else ir.Ruling.ISOLATED if trace.isolated else ir.Ruling.OUT
    expected = q.result.ruling if q.result else None
    return compared(want(result_text, q.result), [str(ruling)], data, trace.steps, expected in (None, ruling))


def result_text(r: ir.SupplyResult) -> str:
    """`in`, `out` or `isolated`, as written."""
    return str(r.ruling)


def check(q: ir.SupplyQuery, context: CheckContext) -> list[Diagnostic]:
    """Nothing of its own: its unit is in the situation (names)."""
    return []


QUERY = QueryKind(
    node=ir.SupplyQuery, text=text, result_text=result_text, ask=ask, check=check,
    names=lambda q: (q.unit,), units=lambda q: (q.unit,),
    result_hint="end it with in, out or isolated",
    states_answer=states_answer, drives="supply", judged=False, answer_hexes=None)
