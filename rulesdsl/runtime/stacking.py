"""Stacking: whether the units in a hex are within the limit, and when the limit is checked.

A stack is read top first: the first unit the situation lists in a hex is its top unit.  The limit is
counted in steps (`stacking.limit`) and/or in units (`stacking.limit_units`); a rulebook that sets neither
has no limit.  Markers (the states on a counter: out-of-supply ...) count one each when
`stacking.markers_count` says they do.
"""
from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from .answers import StackCheck
from .hexmap import Hex
from .ruleset import RuleSet, Step
from .situation import Counter, Situation

__all__ = ["MOMENTS", "over_limit", "stack"]

# the moments `stacking.checked_at` may name; `always` covers every one of them
MOMENTS = ("phase-end", "overrun", "advance-end", "movement-end", "always")


def stack(rules: RuleSet, situation: Situation, hex: Hex, *, moment: str = "phase-end",
          overrunning: Iterable[str] = (), retreated: Iterable[str] = ()) -> StackCheck:
    """Whether the stack in `hex` is legal at `moment`.

    overrunning: at the moment of an overrun, the units making it (the others in the hex count only when
    `stacking.overrun_counts_all_units` says so).  retreated: the units that came into the hex by a retreat
    (a stack over the limit because of them may stay so for the grace `stacking.retreat_overstack_grace`
    gives).
    """
    if moment not in MOMENTS:
        raise ValueError(f"unknown stacking moment {moment!r}: one of {', '.join(MOMENTS)}")
    steps: list[Step] = []
    reasons: list[str] = []
    units = list(situation.units_at(hex))
    # the stacking rule, wherever the rulebook sets it
    steps.append(rules.cite_rule_of(("stacking.limit", "stacking.limit_units", "stacking.markers_count"),
                                    f"{hex} holds {_names(units) or 'no unit'}", heading=True))

    # ---- the order of the stack: holds at every moment ---------------------------------------------
    able = [u for u in units if u.has_attack_strength and u.attack >= 1]
    if able and units[0] not in able:
        if rules.flag("stacking.top_unit_with_attack_strength"):
            reasons.append(f"{units[0]} is on top, but {able[0]} has an Attack Strength and must be")
            steps.append(rules.cite("stacking.top_unit_with_attack_strength", reasons[-1]))
        else:
            steps.append(rules.cite("stacking.top_unit_with_attack_strength",
                                    f"{units[0]} may be on top: no unit with an Attack Strength has to be"))

    # ---- the limit ---------------------------------------------------------------------------------
    limit_steps = rules.amount("stacking.limit")
    limit_units = rules.amount("stacking.limit_units")
    unit_word = "step" if limit_steps is not None or limit_units is None else "unit"
    limit = limit_steps if unit_word == "step" else limit_units
    checked = _checked(rules, moment, steps)

    counted = units
    names = set(overrunning)
    if names:
        sides = {u.side for u in units if u.name in names}
        counted = [u for u in units if u.side in sides]       # the enemy in a hex overrun from inside
    if moment == "overrun":
        if names and not rules.flag("stacking.overrun_counts_all_units"):
            counted = [u for u in counted if u.name in names]
            steps.append(rules.cite("stacking.overrun_counts_all_units",
                                    f"only the overrunning units count: {_names(counted)}"))
        elif names:
            steps.append(rules.cite("stacking.overrun_counts_all_units",
                                    f"the overrunning units and those already in {hex} count together"))
    size, size_units = _size(rules, counted, steps)
    if limit_steps is None and limit_units is None:
        steps.append(rules.cite("stacking.limit", "no stacking limit"))
        return StackCheck(hex, not reasons, size if unit_word == "step" else size_units, None, unit_word,
                          reasons=tuple(reasons), steps=tuple(steps))

    if limit_steps is not None:
        steps.append(rules.cite("stacking.limit", f"{size} steps against a limit of {limit_steps}"))
    if limit_units is not None:
        steps.append(rules.cite("stacking.limit_units", f"{size_units} units against a limit of {limit_units}"))
    overs = [size - limit_steps if limit_steps is not None else Fraction(0),
             size_units - limit_units if limit_units is not None else Fraction(0)]
    over = max(overs[0] if unit_word == "step" else overs[1], Fraction(0)) or max(max(overs), Fraction(0))
    within = (limit_steps is None or size <= limit_steps) and (limit_units is None or size_units <= limit_units)

    if not within and not checked:
        steps.append(Step(f"over the limit, but stacking is not checked at {moment}"))
        within = True
    if not within:
        came = set(retreated)
        if came and _within(rules, [u for u in counted if u.name not in came], limit_steps, limit_units):
            within = _grace(rules, situation, moment, units, steps)
    size_out = size if unit_word == "step" else size_units
    if within:
        return StackCheck(hex, not reasons, size_out, limit, unit_word, reasons=tuple(reasons), steps=tuple(steps))

    reasons.append(f"{size_out} {unit_word}s in {hex} is over the limit of {limit}")
    if moment == "overrun" and names:
        if rules.flag("stacking.overrun_violation_undoes_move"):
            steps.append(rules.cite("stacking.overrun_violation_undoes_move",
                                    "the overrun is taken back and the move made again; nothing is destroyed"))
            return StackCheck(hex, False, size_out, limit, unit_word, (), tuple(steps), reasons=tuple(reasons),
                              over=over, undone=True)
        steps.append(rules.cite("stacking.overrun_violation_undoes_move",
                                "no rule takes the overrun back: the excess is dealt with as at any other moment"))
    eliminated = rules.flag("stacking.excess_eliminated")
    steps.append(rules.cite("stacking.excess_eliminated",
                            "the units over the limit are destroyed" if eliminated
                            else "the units over the limit must leave the hex; none is destroyed"))
    chooses = rules.flag("stacking.owner_chooses_excess")
    excess: tuple[str, ...] = ()
    if chooses:
        steps.append(rules.cite("stacking.owner_chooses_excess",
                                f"the owner picks the units over the limit ({over} {unit_word}{'' if over == 1 else 's'} too many)"))
    else:
        excess = _excess(rules, counted, limit_steps, limit_units)
        steps.append(rules.cite("stacking.owner_chooses_excess",
                                f"the units over the limit are those at the bottom of the stack: {', '.join(excess)}"))
    return StackCheck(hex, False, size_out, limit, unit_word, excess, tuple(steps), reasons=tuple(reasons),
                      over=over, eliminated=eliminated, owner_chooses=chooses)


def over_limit(rules: RuleSet, units: list[Counter]) -> tuple[str, ...]:
    """The units of one side's stack over the stacking limit, bottom of the stack first (none without one)."""
    limit_steps, limit_units = rules.amount("stacking.limit"), rules.amount("stacking.limit_units")
    if limit_steps is None and limit_units is None:
        return ()
    return _excess(rules, units, limit_steps, limit_units)


# ---- helpers --------------------------------------------------------------------------------------------
def _names(units: Iterable[Counter]) -> str:
    return ", ".join(str(u) for u in units)


def _checked(rules: RuleSet, moment: str, steps: list[Step]) -> bool:
    """Whether the limit is enforced at `moment` (absent: a limit with no stated moment always holds)."""
    moments = rules.words("stacking.checked_at")
    if not moments:
        steps.append(rules.cite("stacking.checked_at", f"the limit holds at every moment, {moment} included"))
        return True
    if moment in moments or "always" in moments:
        steps.append(rules.cite("stacking.checked_at", f"stacking is checked at {moment}"))
        return True
    steps.append(rules.cite("stacking.checked_at",
                            f"stacking is checked only at {', '.join(moments)}, not at {moment}"))
    return False


def _size(rules: RuleSet, units: list[Counter], steps: list[Step]) -> tuple[Fraction, Fraction]:
    """What the units count against the limit: (steps, units), markers included where they count."""
    total_steps = Fraction(sum(u.steps for u in units))
    total_units = Fraction(len(units))
    markers = sum(len(u.states) for u in units)
    if markers:
        if rules.flag("stacking.markers_count"):
            steps.append(rules.cite("stacking.markers_count", f"{markers} markers count, one each"))
            total_steps += markers
            total_units += markers
        else:
            steps.append(rules.cite("stacking.markers_count", f"the {markers} markers do not count"))
    return total_steps, total_units


def _within(rules: RuleSet, units: list[Counter], limit_steps: Fraction | None,
            limit_units: Fraction | None) -> bool:
    size, count = Fraction(sum(u.steps for u in units)), Fraction(len(units))
    if rules.flag("stacking.markers_count"):
        markers = sum(len(u.states) for u in units)
        size, count = size + markers, count + markers
    return (limit_steps is None or size <= limit_steps) and (limit_units is None or count <= limit_units)


def _grace(rules: RuleSet, situation: Situation, moment: str, units: list[Counter], steps: list[Step]) -> bool:
    """Whether a stack over the limit because of a retreat may stay so at `moment`."""
    grace = rules.word("stacking.retreat_overstack_grace")
    owner = units[0].side if units else ""
    if grace == "phase-end":
        legal = moment != "phase-end"
        text = ("the retreat's excess may stay until the phase ends" if legal
                else "the retreat's excess had only until the end of this phase")
    elif grace == "next-friendly-movement":
        ending = moment in ("phase-end", "movement-end") and situation.phase == "movement" \
            and situation.phasing == owner
        legal = not ending
        text = (f"the retreat's excess may stay until the end of {owner}'s next Movement Phase" if legal
                else f"{owner}'s Movement Phase ends: the retreat's excess may stay no longer")
    else:
        legal = False
        text = "a stack over the limit after a retreat has no grace"
    steps.append(rules.cite("stacking.retreat_overstack_grace", text))
    return legal


def _excess(rules: RuleSet, units: list[Counter], limit_steps: Fraction | None,
            limit_units: Fraction | None) -> tuple[str, ...]:
    """The units to remove, bottom of the stack first, until the rest is within the limit."""
    kept = list(units)
    gone: list[str] = []
    while kept and not _within(rules, kept, limit_steps, limit_units):
        gone.append(kept.pop().name)
    return tuple(gone)
