"""`expect zoc SIDE`: the hexes in a side's zones of control, and the units that exert each (RulesEngine.zoc)."""
from __future__ import annotations

import types

from rulesdsl.errors import Diagnostic
from rulesdsl.model import ir
from rulesdsl.queries.base import (Answer, CheckContext, QueryKind, compared, engine_call, hex_set, hexes_result,
                                   hexes_on_map, query_words, states_answer, want)
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.situation import Situation


def text(e: ir.Expectation) -> str:
    """`zoc SIDE`, as written."""
    return query_words(e, [e.side.value if e.side is not None else ""], [], frozenset({"side"}))


def ask(engine: RulesEngine, module: types.ModuleType | None, situation: Situation, e: ir.Expectation) -> Answer:
    """The hexes in the side's ZOCs, compared with those the line says are in or `not` in."""
    assert e.side is not None
    found = engine_call("zoc", engine.zoc, situation, e.side.value)
    data = {"side": found.side, "hexes": {str(h): list(n) for h, n in sorted(found.hexes.items())}}
    shown, ok = hex_set(set(found.hexes), e.result)
    return compared(want(result_text, e.result), [shown], data, found.steps, ok)


def result_text(r: ir.ExpectedResult) -> str:
    """`HEX... not HEX...`, as written."""
    return hexes_result(r)


def check(e: ir.Expectation, context: CheckContext) -> list[Diagnostic]:
    """The query's hexes on the map."""
    hexes_on_map(e, context)
    return []


QUERY = QueryKind(
    kind=ir.ExpectKind.ZOC, text=text, result_text=result_text, ask=ask, check=check,
    result_hint="end it with the hexes in the side's ZOCs, then `not` and those outside",
    states_answer=states_answer, drives="zoc", judged=False, answer_hexes="hexes")
