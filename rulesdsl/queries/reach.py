"""`expect reach UNIT [mode M]`: the hexes a unit may reach this phase, and at what cost
(RulesEngine.reachable)."""
from __future__ import annotations

import types

from rulesdsl.errors import Diagnostic
from rulesdsl.model import ir
from rulesdsl.queries.base import (Answer, CheckContext, QueryKind, compared, engine_call, hex_set, hexes_result,
                                   hexes_on_map, query_words, states_answer, want)
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.situation import Situation


def text(e: ir.Expectation) -> str:
    """`reach UNIT`, as written."""
    return query_words(e, [u.value for u in e.units], [], frozenset())


def ask(engine: RulesEngine, module: types.ModuleType | None, situation: Situation, e: ir.Expectation) -> Answer:
    """The hexes in reach, compared with those the line says are in or `not` in."""
    mode = {} if e.mode is None else {"mode": e.mode.value}
    found = engine_call("reach", engine.reachable, situation, e.units[0].value, **mode)
    data = {"unit": found.unit, "costs": {str(h): str(c) for h, c in sorted(found.costs.items())}}
    shown, ok = hex_set(set(found.costs), e.result)
    return compared(want(result_text, e.result), [shown], data, found.steps, ok)


def result_text(r: ir.ExpectedResult) -> str:
    """`HEX... not HEX...`, as written."""
    return hexes_result(r)


def check(e: ir.Expectation, context: CheckContext) -> list[Diagnostic]:
    """The query's hexes on the map."""
    hexes_on_map(e, context)
    return []


QUERY = QueryKind(
    kind=ir.ExpectKind.REACH, text=text, result_text=result_text, ask=ask, check=check,
    result_hint="end it with the hexes in reach, then `not` and those out of reach",
    states_answer=states_answer, drives=None, judged=False, answer_hexes="costs")
