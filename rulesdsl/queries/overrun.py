"""`expect overrun UNIT... from HEX on HEX`: whether the units may overrun the hex from the one beside it, and
at what cost (RulesEngine.may_overrun)."""
from __future__ import annotations

import types

from rulesdsl.errors import Diagnostic
from rulesdsl.model import ir
from rulesdsl.queries.base import (Answer, CheckContext, QueryKind, engine_call, hexes_result, hexes_on_map,
                                   query_words, states_answer, want)
from rulesdsl.queries.verdict import verdict_answer
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.hexmap import Hex
from rulesdsl.runtime.situation import Situation


def text(e: ir.Expectation) -> str:
    """`overrun UNIT... from HEX on HEX`, as written."""
    hexes = [h.value for h in e.hexes] + ["", ""]
    return query_words(e, [u.value for u in e.units], ["from", hexes[0], "on", hexes[1]], frozenset({"hexes"}))


def ask(engine: RulesEngine, module: types.ModuleType | None, situation: Situation, e: ir.Expectation) -> Answer:
    """Allowed or refused, with its cost and the MPs left, compared with the line's result."""
    verdict = engine_call("overrun", engine.may_overrun, situation, [u.value for u in e.units],
                          Hex.parse(e.hexes[0].value), Hex.parse(e.hexes[1].value))
    return verdict_answer(verdict, e.result, want(result_text, e.result))


def result_text(r: ir.ExpectedResult) -> str:
    """`allowed cost N left N` or `refused [RULE...]`, as written."""
    return hexes_result(r)


def check(e: ir.Expectation, context: CheckContext) -> list[Diagnostic]:
    """The query's hexes on the map."""
    hexes_on_map(e, context)
    return []


QUERY = QueryKind(
    kind=ir.ExpectKind.OVERRUN, text=text, result_text=result_text, ask=ask, check=check,
    result_hint="end it with allowed (cost N) or refused",
    states_answer=states_answer, drives="may_overrun", judged=False, answer_hexes=None)
