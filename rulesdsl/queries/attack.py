"""`expect attack UNIT... on HEX... [with SITUATION, ...] [arrived UNIT...]`: whether the units may attack the
hexes (RulesEngine.may_attack)."""
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


def on_clause(e: ir.Expectation) -> list[str]:
    """`on HEX... with SITUATION, ...`: the targets of an attack, a combat or an engagement, and what the
    players declare."""
    return ["on", *(h.value for h in e.hexes), *(["with", ", ".join(d.value for d in e.declared)] if e.declared else [])]


def arrived_clause(e: ir.Expectation) -> list[str]:
    """`arrived UNIT...`: units that retreated into a target hex before it was attacked."""
    return ["arrived", *(u.value for u in e.arrived)] if e.arrived else []


def text(e: ir.Expectation) -> str:
    """`attack UNIT... on HEX...`, as written."""
    return query_words(e, [u.value for u in e.units], [*on_clause(e), *arrived_clause(e)], frozenset({"hexes"}))


def ask(engine: RulesEngine, module: types.ModuleType | None, situation: Situation, e: ir.Expectation) -> Answer:
    """Allowed or refused, with the units that must be attacked too, compared with the line's result."""
    hexes = [Hex.parse(h.value) for h in e.hexes]
    verdict = engine_call("attack", engine.may_attack, situation, [u.value for u in e.units], hexes[0],
                          more_targets=hexes[1:])
    return verdict_answer(verdict, e.result, want(result_text, e.result))


def result_text(r: ir.ExpectedResult) -> str:
    """`allowed must-attack UNIT...` or `refused [RULE...]`, as written."""
    return hexes_result(r)


def check(e: ir.Expectation, context: CheckContext) -> list[Diagnostic]:
    """The query's hexes on the map."""
    hexes_on_map(e, context)
    return []


QUERY = QueryKind(
    kind=ir.ExpectKind.ATTACK, text=text, result_text=result_text, ask=ask, check=check,
    result_hint="end it with allowed or refused",
    states_answer=states_answer, drives="may_attack", judged=True, answer_hexes=None)
