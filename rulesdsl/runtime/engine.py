"""The rules engine: the questions players ask at the table, answered from a compiled rulebook.

`RulesEngine(ruleset)` answers, for a `Situation`:

  zoc(situation, side)                  which hexes the side's units hold in their ZOCs, and by whom
  move(situation, unit, path)           what each hex of a path costs, and whether the move is legal
  reachable(situation, unit)            the hexes a unit may reach within its allowance, at least cost
  stack(situation, hex, moment=...)     whether the stack in a hex is legal at a moment, and what is in excess
  supply(situation, unit)               whether the unit traces supply, and along which hexes
  retreat(situation, units, hexes)      the retreat paths open to a stack, and the steps it loses
  advance(situation, units, vacated, hexes)  how far and where the winners may advance
  may_overrun(situation, units, from_hex, target)   whether an overrun may be made, and its cost
  may_exploit(situation, unit)          whether a unit may move in the Exploitation Phase
  may_attack(situation, attackers, target)          whether an attack may be made
  engage(situation, attackers, targets)  who fights, whose terrain counts, who suffers the result
  losses(situation, units, steps, attacking=...)   who takes a side's step losses, and who picks them

Every answer carries `steps`: the derivation, each step citing the rule id, the rulebook that sets it and
its file and line.  The engine names no series: it reads only the parameters of its contract
(`rulesdsl.runtime.contract`) and the chart rows of the rulebook.
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Concatenate, ParamSpec, TypeVar

from . import engagement, eligibility, losses, movement, retreat, stacking, supply
from .answers import (Advance, Engagement, Losses, Move, Reach, Refusal, Retreat, StackCheck, SupplyTrace, Verdict, Zones,
                      as_hex)
from .combat import Assessment, Combat, Exchange
from .notation import Result
from .hexmap import Hex
from .ruleset import RuleSet, Step
from .situation import Counter, Record, Situation

__all__ = ["Advance", "Engagement", "Losses", "Move", "Reach", "Record", "Retreat", "RulesEngine", "StackCheck", "SupplyTrace", "Verdict",
           "Zones", "as_hex"]


P = ParamSpec("P")
R = TypeVar("R")


def _on_its_turn(question: Callable[Concatenate[RulesEngine, Situation, P], R]
                 ) -> Callable[Concatenate[RulesEngine, Situation, P], R]:
    """A question answered by the engine of the situation's game turn: with the values the rulebook gives
    that turn (`zoc.entry_cost = +0 MP  on night`), every other value as on any turn."""
    @functools.wraps(question)
    def answer(self: RulesEngine, situation: Situation, /, *args: P.args, **kwargs: P.kwargs) -> R:
        return question(self.on_turn(situation.turn), situation, *args, **kwargs)
    return answer


class RulesEngine:
    """The engine for one compiled rulebook.  Each question is answered by the module of its stage
    (movement, stacking, supply, retreat, eligibility); this class only binds them to one rule set, that of
    the situation's game turn (`on_turn`)."""

    def __init__(self, rules: RuleSet, *, assess: Callable[[Combat], Assessment] | None = None,
                 unit_types: Mapping[str, Iterable[str]] | None = None) -> None:
        self.rules = rules
        self.assess = assess    # the module's combat assessment, for the terrain a multi-hex attack reads
        # each declared unit type's capabilities: a counter of that type has them, whether or not the
        # situation lists them (a tank declared armored and mechanized is both)
        self.unit_types = {name: frozenset(capabilities) for name, capabilities in (unit_types or {}).items()}
        self._typed: list[tuple[Situation, Situation]] = []     # the last few situations given, and typed
        self._turns: dict[int, RulesEngine] = {}     # the engines of the game turns asked about
        self._every_turn: RulesEngine | None = None   # a turn's engine: the engine it was made from

    def on_turn(self, turn: int | None) -> RulesEngine:
        """The engine of game turn `turn`: over the rule set of that turn (RuleSet.on_turn), so that every
        question reads the parameters' values on that turn; the engine of every turn when they are its values."""
        base = self._every_turn or self
        rules = base.rules.on_turn(turn)
        if rules is base.rules or turn is None:
            return base
        found = base._turns.get(turn)
        if found is None:
            found = RulesEngine(rules, assess=self.assess, unit_types=self.unit_types)
            found._every_turn = base
            base._turns[turn] = found
        return found

    def typed(self, situation: Situation) -> Situation:
        """`situation` with each counter given the capabilities its unit type declares."""
        for given, typed in self._typed:
            if given is situation:
                return typed
        units = tuple(self.typed_unit(u) for u in situation.units)
        typed = situation if all(a is b for a, b in zip(units, situation.units)) else replace(situation, units=units)
        self._typed = [(situation, typed), *self._typed[:7]]
        return typed

    def typed_unit(self, unit: Counter) -> Counter:
        declared = self.unit_types.get(unit.type)
        if not declared or declared <= unit.capabilities:
            return unit
        return replace(unit, capabilities=unit.capabilities | declared)

    # ---- ZOC and movement (movement.py) ----------------------------------------------------------------
    @_on_its_turn
    def exerts_zoc(self, situation: Situation, unit: Counter) -> tuple[bool, Step]:
        return movement.exerts_zoc(self.rules, self.typed(situation), self.typed_unit(unit))

    @_on_its_turn
    def zoc(self, situation: Situation, side: str) -> Zones:
        """The hexes in the ZOCs of `side`'s units (the enemy ZOCs of the other sides)."""
        return movement.zoc(self.rules, self.typed(situation), side)

    @_on_its_turn
    def enemy_zoc(self, situation: Situation, side: str) -> set[Hex]:
        """The hexes in any enemy ZOC of `side`."""
        return movement.enemy_zoc(self.rules, self.typed(situation), side)

    @_on_its_turn
    def entry_cost(self, situation: Situation, unit: Counter, source: Hex, target: Hex,
                   *, road: bool = True) -> Fraction | None:
        """The TEC cost for `unit` to step from `source` into the adjacent `target` (no ZOC costs); None
        when prohibited."""
        return movement.entry_cost(self.rules, self.typed(situation), self.typed_unit(unit), source, target, road=road)

    @_on_its_turn
    def move(self, situation: Situation, unit: str, path: Sequence[Hex | str], *,
             mode: str = "regular", saved: Fraction | int = 0) -> Move:
        """Price a move of `unit` along `path` (the hexes entered, its own hex optionally first); `mode` is
        regular, road or reaction; `saved` MPs the unit claims to have kept from earlier."""
        situation = self.typed(situation)
        hexes = [as_hex(h) for h in path]
        entered = hexes[1:] if hexes and hexes[0] == situation.unit(unit).hex else hexes
        barred = self._barred(situation, unit, len(entered))
        if barred is not None:
            return Move(unit, tuple(entered), tuple(None for _ in entered), Fraction(0), Fraction(0), False,
                        barred.refusals, barred.steps, mode)
        return movement.move(self.rules, situation, unit, hexes, mode=mode, saved=saved)

    @_on_its_turn
    def reachable(self, situation: Situation, unit: str, *, mode: str = "regular") -> Reach:
        """The hexes `unit` may reach this phase, each at its least cost."""
        situation = self.typed(situation)
        barred = self._barred(situation, unit, 2)
        if barred is not None and not barred.minimum_move:
            return Reach(unit, {situation.unit(unit).hex: Fraction(0)}, barred.steps)
        found = movement.reachable(self.rules, situation, unit, mode=mode)
        if barred is None:
            return found
        # the minimum move only: the hexes next to it that the move may enter
        here = situation.unit(unit).hex
        near = {h: c for h, c in found.costs.items() if h == here or h in situation.neighbours(here)}
        return Reach(unit, near, (*barred.steps, *found.steps), {h: p for h, p in found.paths.items() if h in near})

    def _barred(self, situation: Situation, unit: str, entered: int) -> Verdict | None:
        """In the Exploitation Phase, why `unit` may not move `entered` hexes (2.1b, 11.0: only units that may
        exploit move, or make the minimum move where the rulebook allows it); None when it may."""
        if situation.phase != "exploitation" or entered == 0:    # staying put is no move
            return None
        verdict = eligibility.may_exploit(self, situation, unit)
        if verdict.allowed or (verdict.minimum_move and entered <= 1):
            return None
        if verdict.minimum_move:
            return replace(verdict, refusals=(*verdict.refusals, Refusal(f"unit {unit} may make only the minimum "
                                                                         "move of one hex")))
        return verdict

    # ---- stacking (stacking.py), supply (supply.py), retreat and advance (retreat.py) -------------------
    @_on_its_turn
    def stack(self, situation: Situation, hex: Hex | str, *, moment: str = "phase-end",
              overrunning: Iterable[str] = (), retreated: Iterable[str] = ()) -> StackCheck:
        """Whether the stack in `hex` is legal at `moment` (one of stacking.checked_at's words);
        `overrunning`: the units making an overrun from it; `retreated`: the units that retreated into it."""
        return stacking.stack(self.rules, self.typed(situation), as_hex(hex), moment=moment, overrunning=tuple(overrunning),
                              retreated=tuple(retreated))

    @_on_its_turn
    def supply(self, situation: Situation, unit: str) -> SupplyTrace:
        """Whether `unit` traces supply to one of its side's sources."""
        return supply.supply(self, self.typed(situation), unit)

    @_on_its_turn
    def retreat(self, situation: Situation, units: Iterable[str], hexes: int, *, attackers: Iterable[str] = (),
                refuse: int = 0, breakthrough: bool = False) -> Retreat:
        """The retreat of the stack `units` by `hexes` away from `attackers`; `refuse` hexes taken as steps;
        `breakthrough`: the result is a breakthrough (the winner may pick the path, no hex may be refused)."""
        return retreat.retreat(self, self.typed(situation), tuple(units), hexes, attackers=tuple(attackers),
                               refuse=refuse, breakthrough=breakthrough)

    @_on_its_turn
    def advance(self, situation: Situation, units: Iterable[str], vacated: Hex | str, hexes: int, *,
                overrun: bool = False, defender_destroyed: bool = False, refused: int = 0,
                breakthrough: bool = False, path: Sequence[Hex | str] = ()) -> Advance:
        """How far and where the victorious `units` may advance after combat into `vacated` and beyond:
        `hexes` is the retreat result as rolled, `refused` the hexes of it the loser turned into steps,
        `path` the hexes the loser retreated through (after `vacated`)."""
        return retreat.advance(self, self.typed(situation), tuple(units), as_hex(vacated), hexes, overrun=overrun,
                               defender_destroyed=defender_destroyed, refused=refused, breakthrough=breakthrough,
                               path=tuple(as_hex(h) for h in path))

    # ---- eligibility (eligibility.py) ------------------------------------------------------------------
    @_on_its_turn
    def may_overrun(self, situation: Situation, units: Iterable[str], from_hex: Hex | str,
                    target: Hex | str, *, path: Sequence[Hex | str] | None = None,
                    record: Record | None = None, reacting: bool | None = None) -> Verdict:
        """Whether the stack `units` may overrun `target` from `from_hex`, and what it costs there; `path`:
        the hexes of its move to `from_hex`; `record`: the overruns already made this phase (default: the situation's history)."""
        return eligibility.may_overrun(self, self.typed(situation), tuple(units), as_hex(from_hex), as_hex(target),
                                       path=None if path is None else [as_hex(h) for h in path],
                                       record=record, reacting=reacting)

    @_on_its_turn
    def may_exploit(self, situation: Situation, unit: str) -> Verdict:
        """Whether `unit` may move in the Exploitation Phase."""
        return eligibility.may_exploit(self, self.typed(situation), unit)

    @_on_its_turn
    def may_attack(self, situation: Situation, attackers: Iterable[str], target: Hex | str, *,
                   more_targets: Iterable[Hex | str] = (), record: Record | None = None,
                   forced: bool = False) -> Verdict:
        """Whether `attackers` may attack the units in `target` (and `more_targets` in the same attack);
        `record`: the attacks already made this phase and turn (default: the situation's history); `forced`:
        the rules require the attack, so odds below the table read `combat.below_table_forced`."""
        return eligibility.may_attack(self, self.typed(situation), tuple(attackers), as_hex(target),
                                      more_targets=[as_hex(h) for h in more_targets],
                                      record=record, judge=self.assess, forced=forced)

    # ---- step losses (losses.py) ----------------------------------------------------------------------
    @_on_its_turn
    def losses(self, situation: Situation, units: Iterable[str], steps: int, *, attacking: bool,
               enemies: Iterable[str] = ()) -> Losses:
        """Who of `units` (one side's in a combat) takes its `steps` step losses: the first step's units and
        who picks among them, and the second's; `attacking`: the side attacked; `enemies`: the other side's."""
        return losses.losses(self, self.typed(situation), tuple(units), steps, attacking=attacking,
                             enemies=tuple(enemies))

    # ---- engagement (engagement.py) --------------------------------------------------------------------
    @_on_its_turn
    def engage(self, situation: Situation, attackers: Iterable[str], targets: Iterable[Hex | str], *,
               defenders: Iterable[str] | None = None, arrived: Iterable[str] = (), overrun: bool = False,
               result: Result | None = None, exchange: Exchange | None = None) -> Engagement:
        """Who takes part in the attack of `attackers` on `targets`, whose terrain it reads, and who suffers
        its result: `defenders` the units the defender names (None: all in the targets); `arrived` units
        that retreated into a target before it was attacked; `result` the result read from the table, to
        say what of it is carried out; `exchange` what an exchange costs (`Resolution.exchange`), to name
        the attacking units it removes."""
        return engagement.engage(self.rules, self.typed(situation), tuple(attackers),
                                 tuple(as_hex(h) for h in targets), defenders=None if defenders is None else tuple(defenders),
                                 arrived=tuple(arrived), overrun=overrun, result=result, judge=self.assess,
                                 exchange=exchange)
