"""What the queries that ask whether something may be done share (overrun, exploit, attack): the engine's
Verdict, allowed or refused, with what it costs and leaves, compared with the line's result."""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from rulesdsl.model import ir
from rulesdsl.queries.base import Answer, compared, ruling_word
from rulesdsl.runtime.answers import Verdict


def _data(verdict: Verdict) -> dict[str, Any]:
    """The verdict as data."""
    def text(value: object) -> str | None:
        return None if value is None else str(value)
    return {"allowed": verdict.allowed, "reasons": list(verdict.reasons), "cost": text(verdict.cost),
            "remaining": text(verdict.remaining), "allowance": text(verdict.allowance),
            "unready_above": text(verdict.unready_above), "must_also_attack": list(verdict.must_also_attack),
            "refused_by": list(verdict.refused_by)}


Verdicts = ir.OverrunResult | ir.ExploitResult | ir.AttackResult


def _refusal(verdict: Verdict, r: Verdicts | None) -> tuple[list[str], bool]:
    """The rules that refuse it, where the line names them (or gives nothing to compare)."""
    refusing = verdict.refused_by
    shown = ["[" + " ".join(refusing) + "]"] \
        if not verdict.allowed and (refusing if r is None else r.refused_by is not None) else []
    ok = r is None or r.refused_by is None or \
        (not verdict.allowed and set(refusing) == {t.value for t in r.refused_by})
    return shown, ok


def _wanted(r: Verdicts | None) -> dict[str, Fraction | None]:
    """The amounts a line of its kind may give, by the word written (all of them, unset, for no result)."""
    if isinstance(r, ir.OverrunResult):
        return {"cost": r.cost, "left": r.left}
    if isinstance(r, ir.ExploitResult):
        return {"mp": r.mp, "unready-above": r.unready_above}
    if isinstance(r, ir.AttackResult):
        return {}
    return dict.fromkeys(("cost", "left", "mp", "unready-above"))


def _amounts(verdict: Verdict, r: Verdicts | None) -> tuple[list[str], bool]:
    """What it costs, leaves, allows and marks unready, each where the line gives it."""
    wanted = _wanted(r)
    shown: list[str] = []
    ok = True
    cost = wanted.get("cost")
    if verdict.allowed and (r is None or cost is not None) and verdict.cost is not None:
        shown += ["cost", str(verdict.cost)]
    if r is not None and cost is not None:
        ok = verdict.cost == cost
        if verdict.cost is None:
            shown += ["cost", "(none)"]
    for word, value in (("left", verdict.remaining), ("mp", verdict.allowance),
                        ("unready-above", verdict.unready_above)):
        expected = wanted.get(word)
        if verdict.allowed and (r is None or expected is not None) and value is not None:
            shown += [word, str(value)]
        if expected is not None:
            ok = ok and value == expected
            if value is None and verdict.allowed:
                shown += [word, "(none)"]
    return shown, ok


def _must_attack(verdict: Verdict, r: Verdicts | None) -> tuple[list[str], bool]:
    """The enemy units that must be attacked too, where the line names them (or gives nothing to compare)."""
    must = verdict.must_also_attack
    wanted = r.must_attack if isinstance(r, ir.AttackResult) else None
    shown = ["must-attack", " ".join(must) or "none"] \
        if verdict.allowed and ((r is None and must) or wanted is not None) else []
    ok = wanted is None or set(must) == {u.value for u in wanted}
    return shown, ok


def verdict_answer(verdict: Verdict, r: Verdicts | None, want: str) -> Answer:
    """The verdict in the notation's words, compared with the line's result (`want`, as written)."""
    word, ok = ruling_word(r.ruling if r else None, verdict.allowed, ir.Ruling.ALLOWED, ir.Ruling.REFUSED)
    shown = [word]
    for part in (_refusal, _amounts, _must_attack):
        words, right = part(verdict, r)
        shown += words
        ok = ok and right
    return compared(want, shown, _data(verdict), verdict.steps, ok, verdict.refusals)
