"""`expect engage UNIT... on HEX... [defending UNIT...] [arrived UNIT...] [result R]`: who fights, who shares
the result or is spared, whose terrain counts and, given the result read from the table, who is destroyed
and how far each side retreats (RulesEngine.engage)."""
from __future__ import annotations

import types
from typing import Any

from rulesdsl.errors import Diagnostic
from rulesdsl.model import ir
from rulesdsl.queries.base import (Answer, CheckContext, QueryKind, Unanswerable, clause, compared, engine_call,
                                   flag, on_map, option, query_words, result_on_map, states_answer, want)
from rulesdsl.runtime.answers import Engagement
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.hexmap import Hex
from rulesdsl.runtime.notation import Result, read_result
from rulesdsl.runtime.situation import Situation


def text(q: ir.EngageQuery) -> str:
    """`engage UNIT... on HEX... defending UNIT... arrived UNIT... overrun result R`, as written."""
    return query_words(q.kind, [u.value for u in q.units], clause("on", q.targets), clause("defending", q.defending),
                       clause("arrived", q.arrived), flag("overrun", q.overrun), option("result", q.given))


def _given(module: types.ModuleType | None, q: ir.EngageQuery) -> Result | None:
    """The result the line reads from the table (`result D1r1`), or None when it reads none."""
    if q.given is None:
        return None
    table = getattr(getattr(module, "ENGINE", None), "table", None)
    if table is None:
        raise Unanswerable("the engine cannot read a result here: the rulebook has no Combat Results Table")
    result = read_result(q.given.value, table.notation, table.codes)
    if result is None:
        raise Unanswerable(f"'{q.given.value}' is no result of this rulebook's Combat Results Table")
    return result


def ask(engine: RulesEngine, module: types.ModuleType | None, situation: Situation, q: ir.EngageQuery) -> Answer:
    """The engagement, each part the line gives compared as a set of units."""
    r = q.result
    result = _given(module, q)
    found = engine_call("engagement", engine.engage, situation, [u.value for u in q.units],
                        [Hex.parse(h.value) for h in q.targets],
                        defenders=[u.value for u in q.defending] if q.defending else None,
                        arrived=[u.value for u in q.arrived], overrun=q.overrun, result=result)
    data: dict[str, Any] = {"allowed": found.allowed, "reasons": list(found.reasons),
                            "attackers": list(found.attackers), "fighting": list(found.defenders),
                            "sharing": list(found.sharing), "spared": list(found.spared),
                            "terrain": str(found.terrain_hex), "destroyed": list(found.destroyed),
                            "lost_if_adverse": list(found.lost_if_adverse),
                            "attacker_retreat": found.attacker_retreat, "defender_retreat": found.defender_retreat}
    if not found.allowed:
        return compared(want(result_text, r), ["refused"], data, found.steps,
                        r is None or r.refused)
    shown, ok = _parts(found, r, given=result is not None)
    if r is not None and r.refused or not shown:
        shown.insert(0, "allowed")     # the line says the engagement is refused; or nothing else is there to say
    return compared(want(result_text, r), shown, data, found.steps, ok)


def _parts(found: Engagement, r: ir.EngageResult | None, given: bool) -> tuple[list[str], bool]:
    """Each part of the engagement the line gives (all, when it gives none), and whether each is as computed;
    the retreats only where a result is `given`."""
    shown: list[str] = []
    ok = r is None or not r.refused
    parts: tuple[tuple[str, tuple[str, ...], tuple[ir.Text, ...] | None], ...] = (
        ("fighting", found.defenders, r.fighting if r else None), ("sharing", found.sharing, r.sharing if r else None),
        ("spared", found.spared, r.spared if r else None),
        ("exposed", found.lost_if_adverse, r.exposed if r else None))
    for word, names, wanted in parts:
        if (r is None and names) or wanted:
            shown += [word, " ".join(names) or "(none)"]
        if wanted:
            ok = ok and set(names) == {w.value for w in wanted}
    if r is None or r.terrain is not None:
        shown += ["terrain", str(found.terrain_hex)]
        ok = ok and (r is None or r.terrain is None or Hex.parse(r.terrain.value) == found.terrain_hex)
    if (r is None and found.destroyed) or (r is not None and r.destroyed):
        shown += ["destroyed", " ".join(found.destroyed) or "(none)"]
        ok = ok and (r is None or set(found.destroyed) == {w.value for w in r.destroyed})
    for side, carried, wanted_hexes in (("attacker", found.attacker_retreat, r.attacker_retreat if r else None),
                                        ("defender", found.defender_retreat, r.defender_retreat if r else None)):
        if (r is None and given) or wanted_hexes is not None:     # the retreats follow a given result
            shown += [side, "retreats", str(carried)]
            ok = ok and (wanted_hexes is None or wanted_hexes == carried)
    return shown, ok


def result_text(r: ir.EngageResult) -> str:
    """`fighting UNIT... sharing UNIT... spared UNIT... terrain HEX destroyed UNIT... exposed UNIT...
    attacker retreats N`, or `refused`, as written."""
    if r.refused:
        return "refused"
    parts = [*clause("fighting", r.fighting), *clause("sharing", r.sharing), *clause("spared", r.spared),
             *option("terrain", r.terrain), *clause("destroyed", r.destroyed), *clause("exposed", r.exposed)]
    for side, hexes in (("attacker", r.attacker_retreat), ("defender", r.defender_retreat)):
        parts += [side, "retreats", str(hexes)] if hexes is not None else []
    return " ".join(parts)


def check(q: ir.EngageQuery, context: CheckContext) -> list[Diagnostic]:
    """The query's hexes on the map, and the hex whose terrain the result says counts."""
    on_map(context, q.targets)
    if q.result is not None and q.result.terrain is not None:
        result_on_map(context, (q.result.terrain,))
    return []


QUERY = QueryKind(
    node=ir.EngageQuery, text=text, result_text=result_text, ask=ask, check=check,
    names=lambda q: (*q.units, *q.defending, *q.arrived), units=lambda q: q.units,
    result_hint="end it with who fights, shares, is spared or destroyed, like: fighting 7 sharing 3, "
                "or with refused",
    states_answer=states_answer, drives="engage", judged=True, answer_hexes=None)
