"""Who takes a side's step losses in a combat: the first step, and the next.

A side that loses N steps (the result's) loses them from the units it fought with:

* `steps.first_loss`: the first step comes off its strongest unit (`strongest-unit`: the highest printed
  Attack Strength when it attacked, the highest printed Defense Strength when it defended; a tie leaves the
  owner the choice among them), or the enemy picks it (`enemy-choice`), or the owner does (`owner-choice`,
  and where the rulebook says nothing).  A rule's `forbid first-loss when ...` takes units out of the pick
  (an armored unit, say, unless the combat was in terrain that shifts the columns or the picker brought
  anti-tank units); where it would take out every unit, none is taken out.
* `steps.spread_before_second`: no unit loses a second step while another of the side's units in the combat
  has lost none; the owner picks the rest (`steps.owner_distributes`).
* `steps.excess_ignored`: the steps beyond what the units have are not lost by anyone.

The answer names the units that may take the first step, who picks it, the units that may take the second
(any of them, whichever took the first) and who picks the rest, and the steps lost.
"""
from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from . import effects
from .answers import Losses
from .hexmap import Hex
from .questions import Questions
from .ruleset import RuleSet, Step, unique_steps
from .situation import Counter, Situation
from .terrain import TerrainEffectsChart

__all__ = ["losses"]


def losses(engine: Questions, situation: Situation, units: tuple[str, ...], steps: int, *, attacking: bool,
           enemies: tuple[str, ...] = ()) -> Losses:
    """The step losses of `units` (one side's, in one combat) for a result of `steps`; `attacking`: the side
    attacked (else it defended); `enemies`: the other side's units in the combat."""
    rules = engine.rules
    if not units:
        raise ValueError("a step loss needs at least one unit")
    side = tuple(situation.unit(u) for u in units)
    other = tuple(situation.unit(e) for e in enemies)
    said: list[Step] = []
    total = sum(u.steps for u in side)
    lost = min(steps, total)
    if steps > total:
        if rules.value("steps.excess_ignored") is False:
            lost = steps        # owed in full: the answer counts what the result takes, not what is there
            said.append(rules.cite("steps.excess_ignored", f"{steps} steps to lose and {total} to lose them from: "
                                   "every unit is lost, and the rest stands unpaid"))
        else:
            said.append(rules.cite("steps.excess_ignored", f"{steps} steps to lose and {total} to lose them from: "
                                   f"the {steps - total} beyond them are ignored"))
    if lost <= 0:
        return Losses(units, steps, 0, (), "", (), "", unique_steps(said))
    first, chooser = _first(engine, situation, side, other, attacking, said)
    then, then_by = _then(rules, side, first, min(lost, total), said) if min(lost, total) > 1 else ((), "")
    return Losses(units, steps, lost, tuple(u.name for u in first), chooser, tuple(u.name for u in then),
                  then_by, unique_steps(said))


def _first(engine: Questions, situation: Situation, side: tuple[Counter, ...], other: tuple[Counter, ...],
           attacking: bool, said: list[Step]) -> tuple[tuple[Counter, ...], str]:
    """The units that may take the first step, and who picks among them: the rules (the strongest), the
    enemy or the owner."""
    rules = engine.rules
    how = rules.word("steps.first_loss")
    if how == "strongest-unit":
        def printed(unit: Counter) -> Fraction:
            return Fraction(unit.attack if attacking else unit.defense)
        best = max(printed(u) for u in side)
        strongest = tuple(u for u in side if printed(u) == best)
        said.append(rules.cite("steps.first_loss", f"the first step comes off the strongest unit by printed "
                               f"{'Attack' if attacking else 'Defense'} Strength ({best}): "
                               f"{', '.join(map(str, strongest))}"))
        return strongest, "owner" if len(strongest) > 1 else "rules"
    chooser = "enemy" if how == "enemy-choice" else "owner"
    said.append(rules.cite("steps.first_loss", f"the {chooser} picks the unit that takes the first step"))
    open_ = _pickable(engine, situation, side, other, attacking, said)
    return open_, chooser


def _pickable(engine: Questions, situation: Situation, side: tuple[Counter, ...], other: tuple[Counter, ...],
              attacking: bool, said: list[Step]) -> tuple[Counter, ...]:
    """The units a rule's `forbid first-loss` leaves to the pick (all of them, where it would leave none)."""
    rules = engine.rules
    if not rules.effects_on("first-loss"):
        return side
    hex = other[0].hex if attacking and other else side[0].hex      # where the combat is: the defender's hex
    shared = {**effects.time_facts(rules.turn_sets, situation),
              "hex": lambda: effects.hex_words(situation, hex),
              "attacking": lambda: attacking,
              "hex.shift": lambda: _shift(rules.terrain, situation, hex),
              "hex.level": lambda: effects.hex_level(rules.terrain, situation, hex),
              "enemies": lambda: frozenset().union(*(effects.unit_words(u) for u in other))}
    kept, barring = [], None
    for unit in side:
        facts = {**effects.unit_facts(unit), **shared}
        barred = rules.forbidding("first-loss", facts, said.append, f"{unit} may be picked as the first loss")
        if barred is None:
            kept.append(unit)
        else:
            barring = barred
            said.append(rules.cite_effect(*barred, f"rule {barred[0].id}: {unit} may not be picked as the first loss"))
    if not kept:
        assert barring is not None
        said.append(rules.cite_effect(*barring, f"rule {barring[0].id} bars every unit from the pick: any of them "
                                                "may be picked"))
        return side
    return tuple(kept)


def _shift(chart: TerrainEffectsChart | None, situation: Situation, hex: Hex) -> Fraction:
    """The column shift the terrain of `hex` gives a combat there (left negative; 0 where it gives none): the
    chart's combat effect of the hex's terrains (TerrainEffectsChart.hex_effect)."""
    names = [n for n in situation.terrain_at(hex) if chart is not None and n in chart]
    return Fraction(chart.hex_effect(names).shift) if chart is not None and names else Fraction(0)


def _then(rules: RuleSet, side: Sequence[Counter], first: Sequence[Counter], lost: int,
          said: list[Step]) -> tuple[tuple[Counter, ...], str]:
    """The units that may take the second step, whichever of `first` took the first: where every unit must
    lose one before any loses two, those that have lost none (and any, once each has); else any unit with a
    step left."""
    spread = rules.flag("steps.spread_before_second")
    out: dict[str, Counter] = {}
    for taken in first:
        left = [u for u in side if u.steps - (1 if u is taken else 0) > 0]
        fresh = [u for u in left if u is not taken]
        for unit in (fresh if spread and fresh else left):
            out.setdefault(unit.name, unit)
    if spread:
        said.append(rules.cite("steps.spread_before_second", "no unit loses a second step while another has lost "
                               f"none: the second comes off {', '.join(map(str, out.values()))}"))
    else:
        said.append(rules.cite("steps.spread_before_second", "the second may come off any unit with a step left"))
    who = "owner" if rules.value("steps.owner_distributes") is not False else "enemy"
    rest = "the other step" if lost == 2 else f"the other {lost - 1} steps"
    said.append(rules.cite("steps.owner_distributes", f"the {who} picks the units that take {rest}"))
    return tuple(out.values()), who
