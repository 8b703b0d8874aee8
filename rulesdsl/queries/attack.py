"""`expect attack UNIT... on HEX...`: whether the units may attack the hexes (RulesEngine.may_attack)."""
from __future__ import annotations

import types

from rulesdsl.errors import Diagnostic
from rulesdsl.model import ir
from rulesdsl.queries.base import (Answer, CheckContext, QueryKind, clause, engine_call, on_map, query_words,
                                   states_answer, verdict_words, want, words)
from rulesdsl.queries.verdict import verdict_answer
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.hexmap import Hex
from rulesdsl.runtime.situation import Situation


def text(q: ir.AttackQuery) -> str:
    """`attack UNIT... on HEX...`, as written."""
    return query_words(q.kind, [u.value for u in q.units], clause("on", q.targets))


def ask(engine: RulesEngine, module: types.ModuleType | None, situation: Situation, q: ir.AttackQuery) -> Answer:
    """Allowed or refused, with the units that must be attacked too, compared with the line's result."""
    hexes = [Hex.parse(h.value) for h in q.targets]
    verdict = engine_call("attack", engine.may_attack, situation, [u.value for u in q.units], hexes[0],
                          more_targets=hexes[1:])
    return verdict_answer(verdict, q.result, want(result_text, q.result))


def result_text(r: ir.AttackResult) -> str:
    """`allowed must-attack UNIT...` or `refused [RULE...]`, as written."""
    must = ["must-attack", words(r.must_attack) or "none"] if r.must_attack is not None else []
    return " ".join([*verdict_words(r), *must])


def check(q: ir.AttackQuery, context: CheckContext) -> list[Diagnostic]:
    """The query's hexes on the map."""
    on_map(context, q.targets)
    return []


QUERY = QueryKind(
    node=ir.AttackQuery, text=text, result_text=result_text, ask=ask, check=check,
    names=lambda q: (*q.units, *(q.result.must_attack or () if q.result is not None else ())),
    units=lambda q: q.units,
    result_hint="end it with allowed or refused",
    states_answer=states_answer, drives="may_attack", judged=True, answer_hexes=None)
