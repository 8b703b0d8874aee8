"""`expect move UNIT HEX... [mode M] [saved N]`: what a move along a path costs, hex by hex, and whether it
is legal (RulesEngine.move)."""
from __future__ import annotations

import types
from fractions import Fraction

from rulesdsl.errors import Diagnostic
from rulesdsl.model import ir
from rulesdsl.queries.base import (Answer, CheckContext, QueryKind, compared, engine_call, fraction_text,
                                   hexes_text, number, on_map, option, query_words, ruling_word, states_answer,
                                   want)
from rulesdsl.runtime.answers import Move
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.hexmap import Hex
from rulesdsl.runtime.ruleset import Step
from rulesdsl.runtime.situation import Situation


def text(q: ir.MoveQuery) -> str:
    """`move UNIT HEX... mode M saved N`, as written."""
    return query_words(q.kind, [q.unit.value, *(h.value for h in q.path)], option("mode", q.mode),
                       option("saved", q.saved))


def ask(engine: RulesEngine, module: types.ModuleType | None, situation: Situation, q: ir.MoveQuery) -> Answer:
    """The move's costs (when the line gives them, or gives nothing to compare), total and ruling."""
    r = q.result
    mode = {} if q.mode is None else {"mode": q.mode.value}
    saved = {} if q.saved is None else {"saved": q.saved}
    move = engine_call("move", engine.move, situation, q.unit.value, [Hex.parse(h.value) for h in q.path],
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
    return compared(want(result_text, r), shown, data, _steps(move), ok, move.refusals)


def _steps(move: Move) -> tuple[Step, ...]:
    """The move's derivation, and for an illegal move each refusal, citing the rule of the step that made it
    (none for a fact of the situation: a hex not next to the last)."""
    return (*move.steps, *(Step(f"refused: {r.reason}", rule=r.rule, origin=r.origin, source=r.source)
                           for r in move.refusals))


def result_text(r: ir.MoveResult) -> str:
    """`costs N... total N legal`, as written."""
    return " ".join([*_numbers("costs", r.costs), *option("total", r.total),
                     *([str(r.ruling)] if r.ruling is not None else [])])


def _numbers(word: str, values: tuple[Fraction, ...]) -> list[str]:
    """`costs N...`, or nothing when there are none."""
    return [word, *(number(v) for v in values)] if values else []


def check(q: ir.MoveQuery, context: CheckContext) -> list[Diagnostic]:
    """The path's hexes on the map, but its last, which may lie across the map's edge, from the unit's hex
    when the path is one hex."""
    mover = context.names.get(q.unit.value)
    on_map(context, q.path, mover.hex if mover is not None else None)
    return []


QUERY = QueryKind(
    node=ir.MoveQuery, text=text, result_text=result_text, ask=ask, check=check,
    names=lambda q: (q.unit,), units=lambda q: (q.unit,),
    result_hint="end it with what the move costs, like: costs 1 2 3, or with legal or illegal",
    states_answer=states_answer, drives="move", judged=False, answer_hexes=None)
