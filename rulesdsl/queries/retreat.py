"""`expect retreat UNIT... HEXES [from UNIT...] [refuse N]`: a retreat's loss and paths, or the units'
elimination (RulesEngine.retreat)."""
from __future__ import annotations

import types

from rulesdsl.errors import Diagnostic
from rulesdsl.language.limits import MAX_RETREAT_HEXES
from rulesdsl.model import ir
from rulesdsl.queries.base import (Answer, CheckContext, QueryKind, compared, engine_call, hexes_on_map,
                                   hexes_text, number, plain_result, query_words, states_answer, want, words)
from rulesdsl.runtime.answers import Retreat
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.hexmap import Hex
from rulesdsl.runtime.situation import Situation


def text(e: ir.Expectation) -> str:
    """`retreat UNIT... HEXES from UNIT...`, as written."""
    middle = ["" if e.count is None else str(e.count), *(["from", *(u.value for u in e.others)] if e.others else [])]
    return query_words(e, [u.value for u in e.units], middle, frozenset({"count", "others"}))


def ask(engine: RulesEngine, module: types.ModuleType | None, situation: Situation, e: ir.Expectation) -> Answer:
    """The loss and paths, or the elimination, compared with the line's result."""
    r = e.result
    retreat = engine_call("retreat", engine.retreat, situation, [u.value for u in e.units], e.count or 0,
                          attackers=[u.value for u in e.others], refuse=e.refuse or 0)
    data = {"units": list(retreat.units), "hexes": retreat.hexes, "paths": [hexes_text(p) for p in retreat.paths],
            "loss": retreat.loss, "eliminated": retreat.eliminated, "apart": retreat.apart}
    shown = ["eliminated"] if retreat.eliminated else ["loss", str(retreat.loss)]
    ok = True
    if r is not None and r.ruling == ir.Ruling.ELIMINATED:
        ok = retreat.eliminated
    elif r is not None:
        ok = not retreat.eliminated and r.amount == retreat.loss
        if not retreat.eliminated:
            words_, right = _paths(retreat, r)
            shown += words_
            ok = ok and right
    elif retreat.paths and retreat.paths[0] and not retreat.eliminated:   # as an expect line writes it
        shown += ["via", " ".join(hexes_text(retreat.paths[0]))]
        if len(retreat.units) > 1 and not retreat.split:
            shown.append("apart" if retreat.apart else "together")
    return compared(want(result_text, r), shown, data, retreat.steps, ok)


def _paths(retreat: Retreat, r: ir.ExpectedResult) -> tuple[list[str], bool]:
    """The path the line says is open (`via`), the one it says is not (`not via`), and whether the units may
    part (`apart`): each compared where the line gives it."""
    shown: list[str] = []
    ok = True
    open_paths = {tuple(p) for p in retreat.paths}
    if r.hexes:
        legal = tuple(Hex.parse(h.value) for h in r.hexes) in open_paths
        shown += ["via", words(r.hexes) if legal else
                  "(not a legal path: " + (" or ".join(" ".join(hexes_text(p)) for p in retreat.paths)
                                           or "none") + ")"]
        ok = legal
    if r.absent:
        closed = tuple(Hex.parse(h.value) for h in r.absent) not in open_paths
        shown += ["not", "via", words(r.absent) if closed else "(" + words(r.absent) + " is open)"]
        ok = ok and closed
    if r.apart is not None:
        shown.append("apart" if retreat.apart else "together")
        ok = ok and retreat.apart == r.apart
    return shown, ok


def result_text(r: ir.ExpectedResult) -> str:
    """`loss N via HEX... not via HEX... apart` or `eliminated`, as written."""
    within = [*(["loss", number(r.amount)] if r.amount is not None else []),
              *(["via", words(r.hexes)] if r.hexes else []),
              *(["not", "via", words(r.absent)] if r.absent else []),
              *((["apart"] if r.apart else ["together"]) if r.apart is not None else [])]
    return plain_result(r, within, amount_word=None)


def check(e: ir.Expectation, context: CheckContext) -> list[Diagnostic]:
    """A retreat names its units and its hexes, no more than a retreat may be; its hexes on the map."""
    hexes_on_map(e, context)
    problems: list[Diagnostic] = []
    if e.count is None or not e.units:
        problems.append(Diagnostic("a retreat is: retreat UNIT... HEXES", e.span,
                                   hint="name the retreating units, then how many hexes, like: retreat 7 2"))
    if e.count is not None and e.count > MAX_RETREAT_HEXES:
        problems.append(too_long("a retreat", e))
    return problems


def too_long(what: str, e: ir.Expectation) -> Diagnostic:
    """A retreat (`what`) of more hexes than a printed result retreats."""
    return Diagnostic(f"{what} of {e.count} hexes is longer than the {MAX_RETREAT_HEXES} a retreat may be",
                      e.span, hint="printed results retreat at most 4 or 5 (MAX_RETREAT_HEXES in limits.py)")


QUERY = QueryKind(
    kind=ir.ExpectKind.RETREAT, text=text, result_text=result_text, ask=ask, check=check,
    result_hint="end it with loss N (via HEX...) or eliminated",
    states_answer=states_answer, drives="retreat", judged=False, answer_hexes=None)
