"""`expect losses UNIT... STEPS attacking|defending [from UNIT...]`: who of one side's units takes its step
losses in a combat, and who picks them (RulesEngine.losses)."""
from __future__ import annotations

import types

from rulesdsl.errors import Diagnostic
from rulesdsl.language.limits import MAX_LOSS_STEPS
from rulesdsl.model import ir
from rulesdsl.queries.base import (Answer, CheckContext, QueryKind, clause, compared, engine_call, option,
                                   query_words, want)
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.situation import Situation


def text(q: ir.LossesQuery) -> str:
    """`losses UNIT... STEPS attacking from UNIT...`, as written."""
    return query_words(q.kind, [u.value for u in q.units], ["" if q.steps is None else str(q.steps),
                                                            "attacking" if q.attacking else "defending"],
                       clause("from", q.enemies))


def ask(engine: RulesEngine, module: types.ModuleType | None, situation: Situation, q: ir.LossesQuery) -> Answer:
    """The units that may take the first step, who picks it, those that may take the second and the steps
    lost, each compared where the line gives it."""
    r = q.result
    found = engine_call("losses", engine.losses, situation, [u.value for u in q.units], q.steps or 0,
                        attacking=q.attacking, enemies=[u.value for u in q.enemies])
    data = {"units": list(found.units), "asked": found.asked, "lost": found.lost, "first": list(found.first),
            "chooser": found.chooser, "then": list(found.then), "then_by": found.then_by}
    shown = ["first", *found.first, "by", found.chooser] if found.first else []
    if found.then:
        shown += ["then", *found.then, "by", found.then_by]
    shown += ["lost", str(found.lost)]
    ok = True
    if r is not None:
        if r.first:
            ok = sorted(u.value for u in r.first) == sorted(found.first)
        if r.chooser is not None:
            ok = ok and r.chooser.value == found.chooser
        if r.then:
            ok = ok and sorted(u.value for u in r.then) == sorted(found.then)
        if r.then_chooser is not None:
            ok = ok and r.then_chooser.value == found.then_by
        if r.lost is not None:
            ok = ok and r.lost == found.lost
    return compared(want(result_text, r), shown, data, found.steps, ok)


def result_text(r: ir.LossesResult) -> str:
    """`first UNIT... by CHOOSER then UNIT... by CHOOSER lost N`, as written."""
    return " ".join([*clause("first", r.first), *option("by", r.chooser), *clause("then", r.then),
                     *option("by", r.then_chooser), *option("lost", r.lost)])


def states_answer(r: ir.LossesResult) -> bool:
    """Whether the line states an answer: every part of a losses result is one."""
    return bool(r.first or r.then or r.chooser is not None or r.then_chooser is not None or r.lost is not None)


def check(q: ir.LossesQuery, context: CheckContext) -> list[Diagnostic]:
    """A step loss names its units and its steps, no more than a printed result takes."""
    if q.steps is None or not q.units:
        return [Diagnostic("a step loss is: losses UNIT... STEPS attacking|defending", q.span,
                           hint="name the side's units, then how many steps, like: losses 4 6 8 2 attacking")]
    if q.steps > MAX_LOSS_STEPS:
        return [Diagnostic(f"a loss of {q.steps} steps is more than the {MAX_LOSS_STEPS} a result takes", q.span,
                           hint="printed results take a few steps from a side (MAX_LOSS_STEPS in limits.py)")]
    return []


QUERY = QueryKind(
    node=ir.LossesQuery, text=text, result_text=result_text, ask=ask, check=check,
    names=lambda q: (*q.units, *q.enemies, *((*q.result.first, *q.result.then) if q.result else ())),
    units=lambda q: q.units,
    result_hint="end it with first UNIT... (by rules|owner|enemy) (then UNIT...) (lost N)",
    states_answer=states_answer, drives="losses", judged=False, answer_hexes=None)
