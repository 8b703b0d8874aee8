"""`expect stack HEX [when MOMENT] [by UNIT...] [arrived UNIT...]`: whether a hex's stack is within the
stacking limit, its size, and what becomes of the units over it (RulesEngine.stack)."""
from __future__ import annotations

import types

from rulesdsl.errors import Diagnostic
from rulesdsl.model import ir
from rulesdsl.queries.base import (Answer, CheckContext, QueryKind, clause, compared, engine_call, on_map, option,
                                   query_words, ruling_word, states_answer, want, words)
from rulesdsl.runtime.answers import StackCheck
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.hexmap import Hex
from rulesdsl.runtime.situation import Situation


def text(q: ir.StackQuery) -> str:
    """`stack HEX when MOMENT by UNIT... arrived UNIT...`, as written."""
    return query_words(q.kind, [q.hex.value], option("when", q.moment), clause("by", q.by),
                       clause("arrived", q.arrived))


def _excess(check: StackCheck) -> tuple[str, ...] | None:
    """Who goes, over the limit: None when the stack is within it, () when the owner chooses."""
    return None if check.undone or not check.over else (() if check.owner_chooses else check.excess)


def _fate(check: StackCheck) -> ir.StackFate | None:
    """What becomes of the units over the limit; None when the stack is within it."""
    return ir.StackFate.UNDONE if check.undone else None if not check.over else \
        ir.StackFate.DESTROYED if check.eliminated else ir.StackFate.LEAVE


def ask(engine: RulesEngine, module: types.ModuleType | None, situation: Situation, q: ir.StackQuery) -> Answer:
    """The stack's ruling, size, excess and fate, each compared where the line gives it."""
    r = q.result
    moment = {} if q.moment is None else {"moment": q.moment.value}
    check = engine_call("stack", engine.stack, situation, Hex.parse(q.hex.value),
                        overrunning=[u.value for u in q.by], retreated=[u.value for u in q.arrived], **moment)
    excess, fate = _excess(check), _fate(check)
    data = {"hex": str(check.hex), "legal": check.legal, "size": str(check.size),
            "limit": None if check.limit is None else str(check.limit), "unit": check.unit,
            "excess": list(check.excess), "owner_chooses": check.owner_chooses,
            "fate": None if fate is None else str(fate)}
    shown: list[str] = []
    ok = True
    if r is None or r.ruling is not None:
        word, ok = ruling_word(r.ruling if r else None, check.legal, ir.Ruling.LEGAL, ir.Ruling.ILLEGAL)
        shown.append(word)
    if r is None or r.size is not None:
        shown += ["size", str(check.size)]
        ok = ok and (r is None or r.size == check.size)
    if (r is None and excess is not None) or (r is not None and r.excess is not None):
        shown += ["excess", " ".join(excess) if excess else "chosen"] if excess is not None else ["(no excess)"]
        ok = ok and (r is None or (excess is not None and sorted(u.value for u in r.excess or ()) == sorted(excess)))
    if (r is None and fate is not None) or (r is not None and r.fate is not None):
        if fate is not None or excess is not None or r is None or r.excess is None:
            shown.append(str(fate) if fate is not None else "(nothing goes)")
        ok = ok and (r is None or r.fate == fate)
    return compared(want(result_text, r), shown, data, check.steps, ok)


def result_text(r: ir.StackResult) -> str:
    """`legal size N excess UNIT... destroyed`, as written."""
    return " ".join([*([str(r.ruling)] if r.ruling is not None else []), *option("size", r.size),
                     *(["excess", words(r.excess) or "chosen"] if r.excess is not None else []),
                     *([str(r.fate)] if r.fate is not None else [])])


def check(q: ir.StackQuery, context: CheckContext) -> list[Diagnostic]:
    """`by` only with `when overrun`; the hex on the map."""
    problems: list[Diagnostic] = []
    if q.by and (q.moment is None or q.moment.value != "overrun"):
        problems.append(Diagnostic("`by` names the units of an overrun: it goes with `when overrun`", q.by[0].span,
                                   hint=f"write: stack {q.hex.value} when overrun by {words(q.by)}"))
    on_map(context, (q.hex,))
    return problems


QUERY = QueryKind(
    node=ir.StackQuery, text=text, result_text=result_text, ask=ask, check=check,
    names=lambda q: (*q.by, *q.arrived, *(q.result.excess or () if q.result is not None else ())),
    units=lambda q: q.by,
    result_hint="end it with legal or illegal",
    states_answer=states_answer, drives="stack", judged=False, answer_hexes=None)
