"""Stacking: whether the units in a hex are within the limit, and when the limit is checked.

A stack is read top first: the first unit the situation lists in a hex is its top unit.  The limit is
counted in steps (`stacking.limit`) and/or in units (`stacking.limit_units`); a rulebook that sets neither
has no limit.  Markers (the states on a counter: out-of-supply ...) count one each when
`stacking.markers_count` says they do.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from . import effects
from .answers import Refusal, StackCheck
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
    units = list(situation.units_at(hex))
    # the stacking rule, wherever the rulebook sets it
    steps.append(rules.cite_rule_of(("stacking.limit", "stacking.limit_units", "stacking.markers_count"),
                                    f"{hex} holds {_names(units) or 'no unit'}", heading=True))
    refusals = _top_unit(rules, units, steps)
    limit = _Limit(rules.amount("stacking.limit"), rules.amount("stacking.limit_units"))
    checked = _checked(rules, moment, steps)
    names = set(overrunning)
    counted = _counting(rules, _counted(rules, hex, units, names, moment, steps), steps, situation)
    size = _size(rules, counted, steps)
    if limit.steps is None and limit.units is None:
        steps.append(rules.cite("stacking.limit", "no stacking limit"))
        return StackCheck(hex, not refusals, limit.measure(size), None, limit.word, refusals=tuple(refusals),
                          steps=tuple(steps))
    against = _against_limit(rules, limit, size, steps)
    if limit.holds(size) or _may_stay(rules, situation, moment, units, counted, limit, checked, retreated, steps):
        return StackCheck(hex, not refusals, limit.measure(size), limit.value, limit.word, refusals=tuple(refusals),
                          steps=tuple(steps))
    refusals.append(Refusal.citing(f"{limit.measure(size)} {limit.word}s in {hex} is over the limit of {limit.value}",
                                   against[limit.exceeded(size)]))
    return _excess_check(rules, hex, moment, bool(names), counted, limit, size, tuple(refusals), steps)


def over_limit(rules: RuleSet, units: list[Counter]) -> tuple[str, ...]:
    """The units of one side's stack over the stacking limit, bottom of the stack first (none without one)."""
    limit_steps, limit_units = rules.amount("stacking.limit"), rules.amount("stacking.limit_units")
    if limit_steps is None and limit_units is None:
        return ()
    return _excess(rules, _counting(rules, units, []), limit_steps, limit_units)


def _counting(rules: RuleSet, units: list[Counter], steps: list[Step], situation: Situation | None = None
              ) -> list[Counter]:
    """`units` but those a rule exempts from the stacking count (`exempt stack-count when unit is hq`)."""
    if not units or not rules.effects_on("stack-count"):
        return units
    when = effects.time_facts(rules.turn_sets, situation) if situation is not None else {}
    kept = []
    for unit in units:
        found = rules.forbidding("stack-count", {**effects.unit_facts(unit), **when}, steps.append, f"{unit} counts")
        if found is None:
            kept.append(unit)
        else:
            steps.append(rules.cite_effect(*found, f"rule {found[0].id}: {unit} does not count against the "
                                                   "stacking limit"))
    return kept


# ---- helpers --------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Size:
    """What a stack counts against the limit, markers included where they count: in steps and in units."""

    steps: Fraction
    units: Fraction


@dataclass(frozen=True, slots=True)
class _Limit:
    """The stacking limit as the rulebook sets it: in steps (`stacking.limit`), in units
    (`stacking.limit_units`), both, or neither (no limit)."""

    steps: Fraction | None
    units: Fraction | None

    @property
    def word(self) -> str:
        """The unit the answer counts in: step, unless the rulebook sets a limit in units only."""
        return "step" if self.steps is not None or self.units is None else "unit"

    @property
    def value(self) -> Fraction | None:
        """The limit in the answer's unit."""
        return self.steps if self.word == "step" else self.units

    def measure(self, size: _Size) -> Fraction:
        """The stack's size in the answer's unit."""
        return size.steps if self.word == "step" else size.units

    def holds(self, size: _Size) -> bool:
        """Whether `size` is within every limit the rulebook sets."""
        return (self.steps is None or size.steps <= self.steps) and (self.units is None or size.units <= self.units)

    def exceeded(self, size: _Size) -> str:
        """The limit `size` breaks (step or unit), the answer's own where it breaks both."""
        if self.word == "step" and self.steps is not None and size.steps > self.steps:
            return "step"
        return "unit" if self.units is not None and size.units > self.units else "step"

    def over(self, size: _Size) -> Fraction:
        """How far over the limit `size` is: in the answer's unit where that limit is broken, else by the other."""
        overs = (size.steps - self.steps if self.steps is not None else Fraction(0),
                 size.units - self.units if self.units is not None else Fraction(0))
        return max(overs[0] if self.word == "step" else overs[1], Fraction(0)) or max(max(overs), Fraction(0))


def _names(units: Iterable[Counter]) -> str:
    """The units as a step names them, top of the stack first."""
    return ", ".join(str(u) for u in units)


def _top_unit(rules: RuleSet, units: list[Counter], steps: list[Step]) -> list[Refusal]:
    """The order of the stack, which holds at every moment: a unit with an Attack Strength on top, where
    `stacking.top_unit_with_attack_strength` requires it; the refusal cites that rule."""
    able = [u for u in units if u.has_attack_strength and u.attack >= 1]
    if not able or units[0] in able:
        return []
    if rules.flag("stacking.top_unit_with_attack_strength"):
        reason = f"{units[0]} is on top, but {able[0]} has an Attack Strength and must be"
        step = rules.cite("stacking.top_unit_with_attack_strength", reason)
        steps.append(step)
        return [Refusal.citing(reason, step)]
    steps.append(rules.cite("stacking.top_unit_with_attack_strength",
                            f"{units[0]} may be on top: no unit with an Attack Strength has to be"))
    return []


def _counted(rules: RuleSet, hex: Hex, units: list[Counter], names: set[str], moment: str,
             steps: list[Step]) -> list[Counter]:
    """The units that count against the limit: with overrunning units named, their side's only (the enemy in
    a hex overrun from inside does not count), and at the overrun only they, unless
    `stacking.overrun_counts_all_units` counts those already in the hex too."""
    if not names:
        return units
    sides = {u.side for u in units if u.name in names}
    counted = [u for u in units if u.side in sides]
    if moment != "overrun":
        return counted
    if not rules.flag("stacking.overrun_counts_all_units"):
        counted = [u for u in counted if u.name in names]
        steps.append(rules.cite("stacking.overrun_counts_all_units",
                                f"only the overrunning units count: {_names(counted)}"))
    else:
        steps.append(rules.cite("stacking.overrun_counts_all_units",
                                f"the overrunning units and those already in {hex} count together"))
    return counted


def _against_limit(rules: RuleSet, limit: _Limit, size: _Size, steps: list[Step]) -> dict[str, Step]:
    """The steps that set the stack's size against each limit the rulebook sets, by the limit's unit (step,
    unit): the one of the limit broken is the rule of the refusal."""
    found: dict[str, Step] = {}
    if limit.steps is not None:
        found["step"] = rules.cite("stacking.limit", f"{size.steps} steps against a limit of {limit.steps}")
    if limit.units is not None:
        found["unit"] = rules.cite("stacking.limit_units", f"{size.units} units against a limit of {limit.units}")
    steps.extend(found.values())
    return found


def _may_stay(rules: RuleSet, situation: Situation, moment: str, units: list[Counter], counted: list[Counter],
              limit: _Limit, checked: bool, retreated: Iterable[str], steps: list[Step]) -> bool:
    """Whether a stack over the limit is legal all the same at `moment`: the limit is not checked then, or a
    retreat put the stack over it and the retreat's grace still lasts."""
    if not checked:
        steps.append(Step(f"over the limit, but stacking is not checked at {moment}"))
        return True
    came = set(retreated)
    return bool(came) and _within(rules, [u for u in counted if u.name not in came], limit.steps, limit.units) \
        and _grace(rules, situation, moment, units, steps)


def _excess_check(rules: RuleSet, hex: Hex, moment: str, overrun: bool, counted: list[Counter], limit: _Limit,
                  size: _Size, refusals: tuple[Refusal, ...], steps: list[Step]) -> StackCheck:
    """The answer for a stack over the limit: an overrun taken back where the rules say so, else what becomes
    of the units over the limit (destroyed or made to leave) and who they are (the owner's pick, or the
    bottom of the stack)."""
    over = limit.over(size)
    if moment == "overrun" and overrun:
        if rules.flag("stacking.overrun_violation_undoes_move"):
            steps.append(rules.cite("stacking.overrun_violation_undoes_move",
                                    "the overrun is taken back and the move made again; nothing is destroyed"))
            return StackCheck(hex, False, limit.measure(size), limit.value, limit.word, (), tuple(steps),
                              refusals=refusals, over=over, undone=True)
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
                                f"the owner picks the units over the limit ({over} {limit.word}"
                                f"{'' if over == 1 else 's'} too many)"))
    else:
        excess = _excess(rules, counted, limit.steps, limit.units)
        steps.append(rules.cite("stacking.owner_chooses_excess",
                                f"the units over the limit are those at the bottom of the stack: {', '.join(excess)}"))
    return StackCheck(hex, False, limit.measure(size), limit.value, limit.word, excess, tuple(steps),
                      refusals=refusals, over=over, eliminated=eliminated, owner_chooses=chooses)


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


def _size(rules: RuleSet, units: list[Counter], steps: list[Step]) -> _Size:
    """What the units count against the limit, markers included where they count."""
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
    return _Size(total_steps, total_units)


def _within(rules: RuleSet, units: list[Counter], limit_steps: Fraction | None,
            limit_units: Fraction | None) -> bool:
    """Whether `units` are within the limits, markers counted as `_size` counts them (without its steps)."""
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
