"""`expect reach UNIT [mode M]`: the hexes a unit may reach this phase, and at what cost
(RulesEngine.reachable)."""
from __future__ import annotations

import types

from rulesdsl.errors import Diagnostic
from rulesdsl.model import ir
from rulesdsl.queries.base import (Answer, CheckContext, QueryKind, compared, engine_call, hex_set, hex_set_words,
                                   option, query_words, result_on_map, states_answer, want)
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.situation import Situation


def text(q: ir.ReachQuery) -> str:
    """`reach UNIT mode M`, as written."""
    return query_words(q.kind, [q.unit.value], option("mode", q.mode))


def ask(engine: RulesEngine, module: types.ModuleType | None, situation: Situation, q: ir.ReachQuery) -> Answer:
    """The hexes in reach, compared with those the line says are in or `not` in."""
    mode = {} if q.mode is None else {"mode": q.mode.value}
    found = engine_call("reach", engine.reachable, situation, q.unit.value, **mode)
    data = {"unit": found.unit, "costs": {str(h): str(c) for h, c in sorted(found.costs.items())}}
    shown, ok = hex_set(set(found.costs), q.result)
    return compared(want(result_text, q.result), [shown], data, found.steps, ok)


def result_text(r: ir.HexSetResult) -> str:
    """`HEX... not HEX...`, as written (a zoc's result too)."""
    return " ".join(hex_set_words(r.hexes, r.absent))


def check(q: ir.ReachQuery, context: CheckContext) -> list[Diagnostic]:
    """The result's hexes on the map."""
    if q.result is not None:
        result_on_map(context, (*q.result.hexes, *q.result.absent))
    return []


QUERY = QueryKind(
    node=ir.ReachQuery, text=text, result_text=result_text, ask=ask, check=check,
    names=lambda q: (q.unit,), units=lambda q: (q.unit,),
    result_hint="end it with the hexes in reach, then `not` and those out of reach",
    states_answer=states_answer, drives=None, judged=False, answer_hexes="costs")
