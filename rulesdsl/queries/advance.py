"""`expect advance UNIT... into HEX after N [destroyed] [overrun] [breakthrough] [via HEX...] [refuse N]`: how
far the victors may advance after combat, and into which hexes (RulesEngine.advance)."""
from __future__ import annotations

import types

from rulesdsl.errors import Diagnostic
from rulesdsl.language.limits import MAX_RETREAT_HEXES
from rulesdsl.model import ir
from rulesdsl.queries.base import (Answer, CheckContext, QueryKind, clause, compared, engine_call, flag,
                                   hex_set_words, hexes_text, on_map, result_on_map, option, query_words, set_text, states_answer,
                                   want)
from rulesdsl.queries.retreat import too_long
from rulesdsl.runtime.answers import Advance
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.hexmap import Hex
from rulesdsl.runtime.situation import Situation


def text(q: ir.AdvanceQuery) -> str:
    """`advance UNIT... into HEX after N ...`, in the grammar's order: destroyed, overrun, breakthrough, via,
    refuse."""
    return query_words(q.kind, [u.value for u in q.units], ["into", q.into.value, "after", str(q.after)],
                       flag("destroyed", q.destroyed), flag("overrun", q.overrun),
                       flag("breakthrough", q.breakthrough), clause("via", q.via), option("refuse", q.refuse))


def ask(engine: RulesEngine, module: types.ModuleType | None, situation: Situation, q: ir.AdvanceQuery) -> Answer:
    """The hexes it may advance, and into which, compared with the line's result."""
    r = q.result
    advance = engine_call("advance", engine.advance, situation, [u.value for u in q.units], Hex.parse(q.into.value),
                          q.after, overrun=q.overrun, defender_destroyed=q.destroyed, refused=q.refuse or 0,
                          breakthrough=q.breakthrough, path=[Hex.parse(h.value) for h in q.via])
    data = {"units": list(advance.units), "allowed": advance.allowed, "hexes": advance.hexes,
            "reachable": hexes_text(advance.reachable), "must_enter": advance.required}
    return compared(want(result_text, r), _shown(advance, r), data, advance.steps, _matches(advance, r))


def _shown(advance: Advance, r: ir.AdvanceResult | None) -> list[str]:
    """The advance as the line writes it: its hexes, those it may enter (the line's, or all), must-enter."""
    shown = ["hexes", str(advance.hexes)] if advance.allowed else ["refused"]
    reachable = set(advance.reachable)
    if advance.allowed and (r is None or r.to or r.absent):
        asked = sorted(reachable) if r is None else [Hex.parse(h.value) for h in (*r.to, *r.absent)]
        shown += ["to", set_text([str(h) for h in asked if h in reachable],
                                 [str(h) for h in asked if h not in reachable]) or "(none)"]
    if advance.allowed and advance.required and (r is None or r.must_enter):
        shown.append("must-enter")
    return shown


def _matches(advance: Advance, r: ir.AdvanceResult | None) -> bool:
    """Whether the advance is what the line says (any, when it says nothing)."""
    if r is None:
        return True
    if r.refused:
        return not advance.allowed
    reachable = set(advance.reachable)
    return (advance.allowed and r.hexes == advance.hexes
            and all(Hex.parse(h.value) in reachable for h in r.to)
            and not any(Hex.parse(h.value) in reachable for h in r.absent)
            and (advance.required or not r.must_enter))


def result_text(r: ir.AdvanceResult) -> str:
    """`hexes N to HEX... not HEX... must-enter` or `refused`, as written."""
    if r.refused:
        return "refused"
    to = ["to", *hex_set_words(r.to, r.absent)] if r.to or r.absent else []
    return " ".join([*option("hexes", r.hexes), *to, *flag("must-enter", r.must_enter)])


def check(q: ir.AdvanceQuery, context: CheckContext) -> list[Diagnostic]:
    """The retreat it follows no longer than a retreat may be; its hexes, query's and result's, on the map."""
    on_map(context, (q.into, *q.via))
    if q.result is not None:
        result_on_map(context, (*q.result.to, *q.result.absent))
    return [too_long("the retreat an advance follows", q.after, q.span)] if q.after > MAX_RETREAT_HEXES else []


QUERY = QueryKind(
    node=ir.AdvanceQuery, text=text, result_text=result_text, ask=ask, check=check,
    names=lambda q: q.units, units=lambda q: q.units,
    result_hint="end it with hexes N or refused",
    states_answer=states_answer, drives="advance", judged=False, answer_hexes=None)
