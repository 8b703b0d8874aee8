"""`expect advance UNIT... into HEX after N [destroyed] [overrun] [breakthrough] [via HEX...] [refuse N]`: how
far the victors may advance after combat, and into which hexes (RulesEngine.advance)."""
from __future__ import annotations

import types

from rulesdsl.errors import Diagnostic
from rulesdsl.language.limits import MAX_RETREAT_HEXES
from rulesdsl.model import ir
from rulesdsl.queries.base import (Answer, CheckContext, QueryKind, compared, engine_call, hexes_on_map,
                                   hexes_text, plain_result, query_words, set_text, states_answer, want, words)
from rulesdsl.queries.retreat import too_long
from rulesdsl.runtime.answers import Advance
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.hexmap import Hex
from rulesdsl.runtime.situation import Situation


def text(e: ir.Expectation) -> str:
    """`advance UNIT... into HEX after N ...`, in the grammar's order: destroyed, overrun, breakthrough, via."""
    middle = ["into", *(h.value for h in e.hexes[:1]), "after", "" if e.count is None else str(e.count),
              *(["destroyed"] if e.destroyed else []), *(["overrun"] if e.overrun else []),
              *(["breakthrough"] if e.breakthrough else []),
              *(["via", *(h.value for h in e.hexes[1:])] if len(e.hexes) > 1 else [])]
    return query_words(e, [u.value for u in e.units], middle,
                       frozenset({"hexes", "count", "destroyed", "overrun", "breakthrough"}))


def ask(engine: RulesEngine, module: types.ModuleType | None, situation: Situation, e: ir.Expectation) -> Answer:
    """The hexes it may advance, and into which, compared with the line's result."""
    r = e.result
    hexes = [Hex.parse(h.value) for h in e.hexes]
    advance = engine_call("advance", engine.advance, situation, [u.value for u in e.units], hexes[0], e.count or 0,
                          overrun=e.overrun, defender_destroyed=e.destroyed, refused=e.refuse or 0,
                          breakthrough=e.breakthrough, path=hexes[1:])
    data = {"units": list(advance.units), "allowed": advance.allowed, "hexes": advance.hexes,
            "reachable": hexes_text(advance.reachable), "must_enter": advance.required}
    return compared(want(result_text, r), _shown(advance, r), data, advance.steps, _matches(advance, r))


def _shown(advance: Advance, r: ir.ExpectedResult | None) -> list[str]:
    """The advance as the line writes it: its hexes, those it may enter (the line's, or all), must-enter."""
    shown = ["hexes", str(advance.hexes)] if advance.allowed else ["refused"]
    reachable = set(advance.reachable)
    if advance.allowed and (r is None or r.hexes or r.absent):
        asked = sorted(reachable) if r is None else [Hex.parse(h.value) for h in (*r.hexes, *r.absent)]
        shown += ["to", set_text([str(h) for h in asked if h in reachable],
                                 [str(h) for h in asked if h not in reachable]) or "(none)"]
    if advance.allowed and advance.required and (r is None or r.must_enter):
        shown.append("must-enter")
    return shown


def _matches(advance: Advance, r: ir.ExpectedResult | None) -> bool:
    """Whether the advance is what the line says (any, when it says nothing)."""
    if r is None:
        return True
    if r.ruling == ir.Ruling.REFUSED:
        return not advance.allowed
    reachable = set(advance.reachable)
    return (advance.allowed and r.amount == advance.hexes
            and all(Hex.parse(h.value) in reachable for h in r.hexes)
            and not any(Hex.parse(h.value) in reachable for h in r.absent)
            and (advance.required or not r.must_enter))


def result_text(r: ir.ExpectedResult) -> str:
    """`hexes N to HEX... not HEX... must-enter` or `refused`, as written."""
    after = ["to", *(h.value for h in r.hexes), *(["not", words(r.absent)] if r.absent else [])] \
        if r.hexes or r.absent else []
    return plain_result(r, amount_word="hexes", after=after)


def check(e: ir.Expectation, context: CheckContext) -> list[Diagnostic]:
    """The retreat it follows no longer than a retreat may be; its hexes on the map."""
    hexes_on_map(e, context)
    return [too_long("the retreat an advance follows", e)] if e.count is not None and e.count > MAX_RETREAT_HEXES \
        else []


QUERY = QueryKind(
    kind=ir.ExpectKind.ADVANCE, text=text, result_text=result_text, ask=ask, check=check,
    result_hint="end it with hexes N or refused",
    states_answer=states_answer, drives="advance", judged=False, answer_hexes=None)
