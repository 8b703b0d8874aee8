"""`expect retreat UNIT... HEXES [from UNIT...] [breakthrough] [refuse N]`: a retreat's loss and paths, or the units'
elimination (RulesEngine.retreat)."""
from __future__ import annotations

import types

from rulesdsl.errors import Diagnostic, Span
from rulesdsl.language.limits import MAX_RETREAT_HEXES
from rulesdsl.model import ir
from rulesdsl.queries.base import (Answer, CheckContext, QueryKind, clause, compared, engine_call, flag, hexes_text,
                                   option, query_words, result_on_map, states_answer, want, words)
from rulesdsl.runtime.answers import Retreat
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.hexmap import Hex
from rulesdsl.runtime.situation import Situation


def text(q: ir.RetreatQuery) -> str:
    """`retreat UNIT... HEXES from UNIT... breakthrough refuse N`, as written."""
    return query_words(q.kind, [u.value for u in q.units], ["" if q.hexes is None else str(q.hexes)],
                       clause("from", q.attackers), flag("breakthrough", q.breakthrough), option("refuse", q.refuse))


def ask(engine: RulesEngine, module: types.ModuleType | None, situation: Situation, q: ir.RetreatQuery) -> Answer:
    """The loss and paths, or the elimination, compared with the line's result."""
    r = q.result
    retreat = engine_call("retreat", engine.retreat, situation, [u.value for u in q.units], q.hexes or 0,
                          attackers=[u.value for u in q.attackers], refuse=q.refuse or 0,
                          breakthrough=q.breakthrough)
    data = {"units": list(retreat.units), "hexes": retreat.hexes, "paths": [hexes_text(p) for p in retreat.paths],
            "loss": retreat.loss, "eliminated": retreat.eliminated, "apart": retreat.apart}
    shown = ["eliminated"] if retreat.eliminated else ["loss", str(retreat.loss)]
    ok = True
    if r is not None and r.eliminated:
        ok = retreat.eliminated
    elif r is not None:
        ok = not retreat.eliminated and r.loss == retreat.loss
        if not retreat.eliminated:
            words_, right = _paths(retreat, r)
            shown += words_
            ok = ok and right
    elif retreat.paths and retreat.paths[0] and not retreat.eliminated:   # as an expect line writes it
        shown += ["via", " ".join(hexes_text(retreat.paths[0]))]
        if len(retreat.units) > 1 and not retreat.split:
            shown.append("apart" if retreat.apart else "together")
    return compared(want(result_text, r), shown, data, retreat.steps, ok)


def _paths(retreat: Retreat, r: ir.RetreatResult) -> tuple[list[str], bool]:
    """The path the line says is open (`via`), the one it says is not (`not via`), and whether the units may
    part (`apart`): each compared where the line gives it."""
    shown: list[str] = []
    ok = True
    open_paths = {tuple(p) for p in retreat.paths}
    if r.via:
        legal = tuple(Hex.parse(h.value) for h in r.via) in open_paths
        shown += ["via", words(r.via) if legal else
                  "(not a legal path: " + (" or ".join(" ".join(hexes_text(p)) for p in retreat.paths)
                                           or "none") + ")"]
        ok = legal
    if r.closed:
        closed = tuple(Hex.parse(h.value) for h in r.closed) not in open_paths
        shown += ["not", "via", words(r.closed) if closed else "(" + words(r.closed) + " is open)"]
        ok = ok and closed
    if r.apart is not None:
        shown.append("apart" if retreat.apart else "together")
        ok = ok and retreat.apart == r.apart
    return shown, ok


def result_text(r: ir.RetreatResult) -> str:
    """`loss N via HEX... not via HEX... apart` or `eliminated`, as written."""
    if r.eliminated:
        return "eliminated"
    return " ".join([*option("loss", r.loss), *clause("via", r.via), *(["not", "via", words(r.closed)] if r.closed else []),
                     *((["apart"] if r.apart else ["together"]) if r.apart is not None else [])])


def check(q: ir.RetreatQuery, context: CheckContext) -> list[Diagnostic]:
    """A retreat names its units and its hexes, no more than a retreat may be; its result's hexes on the map."""
    if q.result is not None:
        result_on_map(context, (*q.result.via, *q.result.closed))
    problems: list[Diagnostic] = []
    if q.hexes is None or not q.units:
        problems.append(Diagnostic("a retreat is: retreat UNIT... HEXES", q.span,
                                   hint="name the retreating units, then how many hexes, like: retreat 7 2"))
    if q.hexes is not None and q.hexes > MAX_RETREAT_HEXES:
        problems.append(too_long("a retreat", q.hexes, q.span))
    return problems


def too_long(what: str, hexes: int, span: Span) -> Diagnostic:
    """A retreat (`what`) of more hexes than a printed result retreats."""
    return Diagnostic(f"{what} of {hexes} hexes is longer than the {MAX_RETREAT_HEXES} a retreat may be",
                      span, hint="printed results retreat at most 4 or 5 (MAX_RETREAT_HEXES in limits.py)")


QUERY = QueryKind(
    node=ir.RetreatQuery, text=text, result_text=result_text, ask=ask, check=check,
    names=lambda q: (*q.units, *q.attackers), units=lambda q: q.units,
    result_hint="end it with loss N (via HEX...) or eliminated",
    states_answer=states_answer, drives="retreat", judged=False, answer_hexes=None)
