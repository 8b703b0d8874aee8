"""What the eligibility questions (`may_overrun`, `may_exploit`, `may_attack`) share: the marks they read on a
counter, how a refusal is made where it is decided and a refused verdict given, and the limits on how often
something may be done."""
from __future__ import annotations

from fractions import Fraction

from .answers import Refusal, Verdict
from .ruleset import RuleSet, Step

__all__ = ["EXPLOIT", "OUT_OF_SUPPLY", "how_often", "refuse", "refused_verdict", "unless_allowed"]

EXPLOIT = "exploit"                # the capability the yellow box gives a counter
OUT_OF_SUPPLY = "out-of-supply"    # the state (marker) of an out-of-supply unit


def refused_verdict(refusals: list[Refusal], steps: list[Step], *, cost: Fraction | None = None,
                    total: Fraction | None = None, minimum_move: bool = False) -> Verdict:
    """The verdict refusing it for `refusals`, with the derivation so far (and for an overrun what it would
    cost; for an exploiting unit whether it may still make the minimum move)."""
    return Verdict(False, tuple(refusals), cost, tuple(steps), total=total, minimum_move=minimum_move)


def refuse(steps: list[Step], reason: str, step: Step) -> Refusal:
    """The refusal `step` decides, with `reason` as its text; the step joins the derivation."""
    steps.append(step)
    return Refusal.citing(reason, step)


def unless_allowed(rules: RuleSet, name: str, steps: list[Step], refused: str, allowed: str) -> list[Refusal]:
    """A refusal (`refused`, citing `name`) when the rulebook sets `name` to no; else the step that says why
    nothing is refused (`allowed`)."""
    if rules.value(name) is False:
        return [refuse(steps, refused, rules.cite(name, refused))]
    steps.append(rules.cite(name, allowed))
    return []


def how_often(rules: RuleSet, name: str, made: int, done: str, period: str, steps: list[Step], *,
              never: str) -> list[Refusal]:
    """A limit on how often (`name`, a count; none: no limit) against what was `done` `made` times in
    `period`: refused at the limit (a limit of 0 refuses the first time too); a step when something was
    done or the limit refuses."""
    most = rules.amount(name)
    times = "once" if made == 1 else f"{made} times"
    if most is not None and made >= most:
        reason = f"{done} {times} {period}, and the limit is {most}" if made else f"{never} {period}: the limit is 0"
        return [refuse(steps, reason, rules.cite(name, reason))]
    if made:
        steps.append(rules.cite(name, f"{done} {times} {period}: "
                                f"{'no limit' if most is None else f'the limit is {most}'}"))
    return []
