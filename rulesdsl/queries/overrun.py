"""`expect overrun UNIT... from HEX on HEX`: whether the units may overrun the hex from the one beside it, and
at what cost (RulesEngine.may_overrun)."""
from __future__ import annotations

import types

from rulesdsl.errors import Diagnostic
from rulesdsl.model import ir
from rulesdsl.queries.base import (Answer, CheckContext, QueryKind, engine_call, on_map, option, query_words,
                                   states_answer, verdict_words, want)
from rulesdsl.queries.verdict import verdict_answer
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.hexmap import Hex
from rulesdsl.runtime.situation import Situation


def text(q: ir.OverrunQuery) -> str:
    """`overrun UNIT... from HEX on HEX`, as written."""
    return query_words(q.kind, [u.value for u in q.units], ["from", q.origin.value, "on", q.target.value])


def ask(engine: RulesEngine, module: types.ModuleType | None, situation: Situation, q: ir.OverrunQuery) -> Answer:
    """Allowed or refused, with its cost and the MPs left, compared with the line's result."""
    verdict = engine_call("overrun", engine.may_overrun, situation, [u.value for u in q.units],
                          Hex.parse(q.origin.value), Hex.parse(q.target.value))
    return verdict_answer(verdict, q.result, want(result_text, q.result))


def result_text(r: ir.OverrunResult) -> str:
    """`allowed cost N left N` or `refused [RULE...]`, as written."""
    return " ".join([*verdict_words(r), *option("cost", r.cost), *option("left", r.left)])


def check(q: ir.OverrunQuery, context: CheckContext) -> list[Diagnostic]:
    """The query's hexes on the map."""
    on_map(context, (q.origin, q.target))
    return []


QUERY = QueryKind(
    node=ir.OverrunQuery, text=text, result_text=result_text, ask=ask, check=check,
    names=lambda q: q.units, units=lambda q: q.units,
    result_hint="end it with allowed (cost N) or refused",
    states_answer=states_answer, drives="may_overrun", judged=False, answer_hexes=None)
