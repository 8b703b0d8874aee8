"""`expect zoc SIDE`: the hexes in a side's zones of control, and the units that exert each (RulesEngine.zoc)."""
from __future__ import annotations

import types

from rulesdsl.errors import Diagnostic
from rulesdsl.model import ir
from rulesdsl.queries.base import (Answer, CheckContext, QueryKind, compared, engine_call, hex_set, result_on_map,
                                   query_words, states_answer, want)
from rulesdsl.queries.reach import result_text
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.situation import Situation


def text(q: ir.ZocQuery) -> str:
    """`zoc SIDE`, as written."""
    return query_words(q.kind, [q.side.value])


def ask(engine: RulesEngine, module: types.ModuleType | None, situation: Situation, q: ir.ZocQuery) -> Answer:
    """The hexes in the side's ZOCs, compared with those the line says are in or `not` in."""
    found = engine_call("zoc", engine.zoc, situation, q.side.value)
    data = {"side": found.side, "hexes": {str(h): list(n) for h, n in sorted(found.hexes.items())}}
    shown, ok = hex_set(set(found.hexes), q.result)
    return compared(want(result_text, q.result), [shown], data, found.steps, ok)


def check(q: ir.ZocQuery, context: CheckContext) -> list[Diagnostic]:
    """The result's hexes on the map."""
    if q.result is not None:
        result_on_map(context, (*q.result.hexes, *q.result.absent))
    return []


QUERY = QueryKind(
    node=ir.ZocQuery, text=text, result_text=result_text, ask=ask, check=check,
    names=lambda q: (), units=lambda q: (),
    result_hint="end it with the hexes in the side's ZOCs, then `not` and those outside",
    states_answer=states_answer, drives="zoc", judged=False, answer_hexes="hexes")
