"""`expect move UNIT HEX... [mode M] [saved N]`: what a move along a path costs, hex by hex, and whether it
is legal (RulesEngine.move)."""
from __future__ import annotations

import types

from rulesdsl.errors import Diagnostic
from rulesdsl.model import ir
from rulesdsl.queries.base import (Answer, CheckContext, QueryKind, compared, engine_call, fraction_text,
                                   hexes_on_map, hexes_result, hexes_text, query_words, ruling_word, states_answer,
                                   want)
from rulesdsl.runtime.answers import Move
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.hexmap import Hex
from rulesdsl.runtime.ruleset import Step
from rulesdsl.runtime.situation import Situation


def text(e: ir.Expectation) -> str:
    """`move UNIT HEX...`, as written."""
    return query_words(e, [*(u.value for u in e.units), *(h.value for h in e.hexes)], [], frozenset({"hexes"}))


def ask(engine: RulesEngine, module: types.ModuleType | None, situation: Situation, e: ir.Expectation) -> Answer:
    """The move's costs (when the line gives them, or gives nothing to compare), total and ruling."""
    r = e.result
    mode = {} if e.mode is None else {"mode": e.mode.value}
    saved = {} if e.saved is None else {"saved": e.saved}
    move = engine_call("move", engine.move, situation, e.units[0].value, [Hex.parse(h.value) for h in e.hexes],
                       **mode, **saved)
    data = {"unit": move.unit, "path": hexes_text(move.path), "costs": [fraction_text(c) for c in move.costs],
            "total": str(move.total), "allowance": str(move.allowance), "legal": move.legal, "reason": move.reason}
    shown: list[str] = []
    ok = True
    if (r is None and move.costs) or (r is not None and (r.costs or (r.ruling is None and r.total is None))):
        shown += ["costs", *(fraction_text(c) for c in move.costs)]
        ok = r is None or tuple(move.costs) == tuple(r.costs)
    if r is not None and r.total is not None:
        shown += ["total", str(move.total)]
        ok = ok and move.total == r.total
    expected = r.ruling if r is not None and r.ruling is not None else \
        (ir.Ruling.LEGAL if r is not None and r.costs else None)
    if r is None or r.ruling is not None:
        word, right = ruling_word(expected, move.legal, ir.Ruling.LEGAL, ir.Ruling.ILLEGAL)
        shown.append(word)
        ok = ok and right
    elif expected is not None and not move.legal:
        ok = False
        shown.append("illegal")
    return compared(want(result_text, r), shown, data, _steps(move), ok)


def _steps(move: Move) -> tuple[Step, ...]:
    """The move's derivation, and for an illegal move the refusal, citing the last rule the steps name."""
    if move.legal or not move.reason:
        return move.steps
    last = next((s for s in reversed(move.steps) if s.rule is not None), None)   # the rule that refused it
    refusal = Step(f"refused: {move.reason}") if last is None else \
        Step(f"refused: {move.reason}", rule=last.rule, origin=last.origin, source=last.source)
    return (*move.steps, refusal)


def result_text(r: ir.ExpectedResult) -> str:
    """`costs N... total N legal`, as written."""
    return hexes_result(r)


def check(e: ir.Expectation, context: CheckContext) -> list[Diagnostic]:
    """The path's hexes on the map, but its last, which may lie across the map's edge, from the unit's hex
    when the path is one hex."""
    mover = context.names.get(e.units[0].value) if e.units else None
    hexes_on_map(e, context, mover.hex if mover is not None else None)
    return []


QUERY = QueryKind(
    kind=ir.ExpectKind.MOVE, text=text, result_text=result_text, ask=ask, check=check,
    result_hint="end it with what the move costs, like: costs 1 2 3, or with legal or illegal",
    states_answer=states_answer, drives="move", judged=False, answer_hexes=None)
