"""Worked examples, run: each `expect` line asked of the rules engine of the resolved rulebook.

`run(resolved, module)` builds each example's situation (situations.build, its terrain checked against the
chart in effect) and asks each `expect` line's query of the rules engine (RULES_ENGINE) of the generated
module of the rulebook (codegen's output, compiled and imported in memory, see modcheck).  An answer that
differs from what the line says is an error at the line: `expected costs 1 2 3 2, computed costs 1 2 3 3`,
with the derivation, rule by rule, as its hint.  A game also runs the examples it inherits from its series
against its own rules: a difference there is a note naming the game's rule that changed the answer.

`ask(engine, module, situation, expectation)` answers one query (`rulesdsl explain`).
"""
from __future__ import annotations

import re
import types
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from rulesdsl.model import ir
from rulesdsl.errors import Diagnostic, Span, suggest
from rulesdsl.runtime.combat import NOT_ALLOWED, DiceApartNeeded, Exchange, Resolution
from rulesdsl.runtime.tables import ABOVE, DICE_OUTCOMES, AttackerLosses, CombatResultsTable
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.hexmap import Hex
from rulesdsl.runtime.model import PlayerTurn
from rulesdsl.runtime.ruleset import Step
from rulesdsl.runtime.situation import Situation
from rulesdsl.checks.situations import build, odds_word, query_text, result_text

if TYPE_CHECKING:
    from rulesdsl.language.source import Source

__all__ = ["Answer", "Explanation", "ask", "engine_of", "explain", "has_examples", "run"]


def engine_of(module: types.ModuleType) -> RulesEngine:
    """The rules engine a generated module binds to its rules (RULES_ENGINE)."""
    engine = module.RULES_ENGINE
    assert isinstance(engine, RulesEngine)
    return engine


@dataclass(frozen=True)
class Answer:
    """What the engine answered to one query: in the notation's words (`computed`, shaped like the expected
    result when there is one), the answer record as data, and its derivation."""

    computed: str
    data: dict[str, Any]
    steps: tuple[Step, ...] = ()
    matches: bool = True
    mismatch: str = ""        # `expected ..., computed ...` when it differs


class Unanswerable(Exception):
    """The engine cannot answer this query (a stage not implemented yet, or a situation it refuses).
    `span` and `hint`: where in the line the problem is and what to do, when the query itself is wrong."""

    def __init__(self, message: str, span: Span | None = None, hint: str | None = None):
        super().__init__(message)
        self.span, self.hint = span, hint


def _fraction(value: Fraction | None) -> str:
    return "x" if value is None else str(value)   # x: the hex may not be entered (the reason says why)


def _hexes(items: Iterable[Hex]) -> list[str]:
    return [str(h) for h in items]


def _set_text(inside: Sequence[str], outside: Sequence[str]) -> str:
    return " ".join([*inside, *(["not", *outside] if outside else [])])



def _engine_call(what: str, call: Any, *args: Any, **kwargs: Any) -> Any:
    try:
        return call(*args, **kwargs)
    except NotImplementedError:
        raise Unanswerable(f"the engine cannot answer '{what}' yet") from None
    except (KeyError, ValueError, LookupError) as exc:
        raise Unanswerable(f"the engine cannot answer this {what}: {exc}") from None
    except Exception as exc:   # a bug in an engine stage: said at the expect line, not as a traceback
        raise Unanswerable(f"the engine failed on this {what}: {type(exc).__name__}: {exc}") from None


def ask(engine: RulesEngine, module: types.ModuleType | None, situation: Situation,
        expectation: ir.Expectation) -> Answer:
    """The engine's answer to an expect line's query, compared with its result when it gives one.
    Raises Unanswerable when the engine cannot answer."""
    e, r = expectation, expectation.result
    kind = e.kind
    units = [u.value for u in e.units]
    hexes = [Hex.parse(h.value) for h in e.hexes]
    want = result_text(r, kind)
    mode = {} if e.mode is None else {"mode": e.mode.value}
    shown: list[str] = []
    ok = True

    def ruling(expected: ir.Ruling | None, value: bool, yes: ir.Ruling, no: ir.Ruling) -> None:
        nonlocal ok
        word = yes if value else no
        shown.append(str(word))
        if expected is not None and expected != word:
            ok = False

    if kind == ir.ExpectKind.MOVE:
        saved = {} if e.saved is None else {"saved": e.saved}
        move = _engine_call("move", engine.move, situation, units[0], hexes, **mode, **saved)
        data = {"unit": move.unit, "path": _hexes(move.path), "costs": [_fraction(c) for c in move.costs],
                "total": str(move.total), "allowance": str(move.allowance), "legal": move.legal,
                "reason": move.reason}
        last = next((s for s in reversed(move.steps) if s.rule is not None), None)   # the rule that refused it
        refusal = Step(f"refused: {move.reason}") if last is None else \
            Step(f"refused: {move.reason}", rule=last.rule, origin=last.origin, source=last.source)
        steps = move.steps if move.legal or not move.reason else (*move.steps, refusal)
        if (r is None and move.costs) or (r is not None and (r.costs or (r.ruling is None and r.total is None))):
            shown += ["costs", *(_fraction(c) for c in move.costs)]
            if r is not None and tuple(move.costs) != tuple(r.costs):
                ok = False
        if r is not None and r.total is not None:
            shown += ["total", str(move.total)]
            ok = ok and move.total == r.total
        expected = r.ruling if r is not None and r.ruling is not None else \
            (ir.Ruling.LEGAL if r is not None and r.costs else None)
        if r is None or r.ruling is not None:
            ruling(expected, move.legal, ir.Ruling.LEGAL, ir.Ruling.ILLEGAL)
        elif expected is not None and not move.legal:
            ok = False
            shown.append("illegal")
        if not move.legal and move.reason:
            data["reason"] = move.reason
    elif kind in (ir.ExpectKind.REACH, ir.ExpectKind.ZOC):
        if kind == ir.ExpectKind.REACH:
            found = _engine_call("reach", engine.reachable, situation, units[0], **mode)
            inside = set(found.costs)
            data = {"unit": found.unit, "costs": {str(h): str(c) for h, c in sorted(found.costs.items())}}
        else:
            assert e.side is not None
            found = _engine_call("zoc", engine.zoc, situation, e.side.value)
            inside = set(found.hexes)
            data = {"side": found.side, "hexes": {str(h): list(n) for h, n in sorted(found.hexes.items())}}
        steps = found.steps
        if r is None:
            shown.append(" ".join(sorted(str(h) for h in inside)) or "(none)")
        else:
            asked = [Hex.parse(h.value) for h in (*r.hexes, *r.absent)]
            shown.append(_set_text([str(h) for h in asked if h in inside], [str(h) for h in asked if h not in inside]))
            ok = all(Hex.parse(h.value) in inside for h in r.hexes) and \
                not any(Hex.parse(h.value) in inside for h in r.absent)
    elif kind == ir.ExpectKind.STACK:
        moment = {} if e.moment is None else {"moment": e.moment.value}
        check = _engine_call("stack", engine.stack, situation, hexes[0], overrunning=units,
                             retreated=[u.value for u in e.arrived], **moment)
        # over the limit: who goes (None: the stack is within it), and what becomes of them
        excess = None if check.undone or not check.over else (() if check.owner_chooses else check.excess)
        fate = ir.StackFate.UNDONE if check.undone else None if not check.over else \
            ir.StackFate.DESTROYED if check.eliminated else ir.StackFate.LEAVE
        data = {"hex": str(check.hex), "legal": check.legal, "size": str(check.size),
                "limit": None if check.limit is None else str(check.limit), "unit": check.unit,
                "excess": list(check.excess), "owner_chooses": check.owner_chooses,
                "fate": None if fate is None else str(fate)}
        steps = check.steps
        if r is None or r.ruling is not None:
            ruling(r.ruling if r else None, check.legal, ir.Ruling.LEGAL, ir.Ruling.ILLEGAL)
        if r is None or r.size is not None:
            shown += ["size", str(check.size)]
            ok = ok and (r is None or r.size == check.size)
        if (r is None and excess is not None) or (r is not None and r.excess is not None):
            shown += ["excess", " ".join(excess) if excess else "chosen"] if excess is not None else ["(no excess)"]
            ok = ok and (r is None or (excess is not None and
                                       sorted(u.value for u in r.excess or ()) == sorted(excess)))
        if (r is None and fate is not None) or (r is not None and r.fate is not None):
            if fate is not None or excess is not None or r is None or r.excess is None:
                shown.append(str(fate) if fate is not None else "(nothing goes)")
            ok = ok and (r is None or r.fate == fate)
    elif kind == ir.ExpectKind.SUPPLY:
        trace = _engine_call("supply", engine.supply, situation, units[0])
        data = {"unit": trace.unit, "in_supply": trace.in_supply, "path": _hexes(trace.path)}
        steps = trace.steps
        ruling(r.ruling if r else None, trace.in_supply, ir.Ruling.IN, ir.Ruling.OUT)
    elif kind in (ir.ExpectKind.OVERRUN, ir.ExpectKind.EXPLOIT, ir.ExpectKind.ATTACK):
        if kind == ir.ExpectKind.OVERRUN:
            verdict = _engine_call("overrun", engine.may_overrun, situation, units, hexes[0], hexes[1])
        elif kind == ir.ExpectKind.EXPLOIT:
            verdict = _engine_call("exploit", engine.may_exploit, situation, units[0])
        else:
            verdict = _engine_call("attack", engine.may_attack, situation, units, hexes[0],
                                   more_targets=hexes[1:])
        data = {"allowed": verdict.allowed, "reasons": list(verdict.reasons),
                "cost": None if verdict.cost is None else str(verdict.cost),
                "remaining": None if verdict.remaining is None else str(verdict.remaining),
                "allowance": None if verdict.allowance is None else str(verdict.allowance),
                "unready_above": None if verdict.unready_above is None else str(verdict.unready_above),
                "must_also_attack": list(verdict.must_also_attack)}
        steps = verdict.steps
        ruling(r.ruling if r else None, verdict.allowed, ir.Ruling.ALLOWED, ir.Ruling.REFUSED)
        refusing = verdict.refused_by
        data["refused_by"] = list(refusing)
        if not verdict.allowed and (refusing if r is None else r.refused_by is not None):
            shown.append("[" + " ".join(refusing) + "]")
        if r is not None and r.refused_by is not None:
            ok = ok and not verdict.allowed and set(refusing) == {t.value for t in r.refused_by}
        if verdict.allowed and (r is None or r.amount is not None) and verdict.cost is not None:
            shown += ["cost", str(verdict.cost)]
        if r is not None and r.amount is not None:
            ok = ok and verdict.cost == r.amount
            if verdict.cost is None:
                shown += ["cost", "(none)"]
        for word, value, wanted in (("left", verdict.remaining, r.remaining if r else None),
                                    ("mp", verdict.allowance, r.allowance if r else None),
                                    ("unready-above", verdict.unready_above, r.unready_above if r else None)):
            if verdict.allowed and (r is None or wanted is not None) and value is not None:
                shown += [word, str(value)]
            if wanted is not None:
                ok = ok and value == wanted
                if value is None and verdict.allowed:
                    shown += [word, "(none)"]
        must = verdict.must_also_attack
        if verdict.allowed and ((r is None and must) or (r is not None and r.must_attack is not None)):
            shown += ["must-attack", " ".join(must) or "none"]
        if r is not None and r.must_attack is not None:
            ok = ok and set(must) == {u.value for u in r.must_attack}
    elif kind == ir.ExpectKind.RETREAT:
        retreat = _engine_call("retreat", engine.retreat, situation, units, e.count or 0,
                               attackers=[u.value for u in e.others], refuse=e.refuse or 0)
        data = {"units": list(retreat.units), "hexes": retreat.hexes, "paths": [_hexes(p) for p in retreat.paths],
                "loss": retreat.loss, "eliminated": retreat.eliminated, "apart": retreat.apart}
        steps = retreat.steps
        if retreat.eliminated:
            shown.append("eliminated")
        else:
            shown += ["loss", str(retreat.loss)]
        if r is not None:
            if r.ruling == ir.Ruling.ELIMINATED:
                ok = retreat.eliminated
            else:
                ok = not retreat.eliminated and r.amount == retreat.loss
                if r.hexes and not retreat.eliminated:
                    path = tuple(Hex.parse(h.value) for h in r.hexes)
                    legal = path in {tuple(p) for p in retreat.paths}
                    shown += ["via", " ".join(h.value for h in r.hexes) if legal else
                              "(not a legal path: " + (" or ".join(" ".join(_hexes(p)) for p in retreat.paths)
                                                       or "none") + ")"]
                    ok = ok and legal
                if r.absent and not retreat.eliminated:
                    path = tuple(Hex.parse(h.value) for h in r.absent)
                    closed = path not in {tuple(p) for p in retreat.paths}
                    shown += ["not", "via", " ".join(h.value for h in r.absent) if closed else
                              "(" + " ".join(h.value for h in r.absent) + " is open)"]
                    ok = ok and closed
                if r.apart is not None and not retreat.eliminated:
                    shown.append("apart" if retreat.apart else "together")
                    ok = ok and retreat.apart == r.apart
        elif retreat.paths and retreat.paths[0] and not retreat.eliminated:   # as an expect line writes it
            shown += ["via", " ".join(_hexes(retreat.paths[0]))]
            if len(retreat.units) > 1 and not retreat.split:
                shown.append("apart" if retreat.apart else "together")
    elif kind == ir.ExpectKind.ADVANCE:
        advance = _engine_call("advance", engine.advance, situation, units, hexes[0], e.count or 0,
                               overrun=e.overrun, defender_destroyed=e.destroyed, refused=e.refuse or 0,
                               breakthrough=e.breakthrough, path=hexes[1:])
        data = {"units": list(advance.units), "allowed": advance.allowed, "hexes": advance.hexes,
                "reachable": _hexes(advance.reachable), "must_enter": advance.required}
        steps = advance.steps
        shown += ["hexes", str(advance.hexes)] if advance.allowed else ["refused"]
        reachable = set(advance.reachable)
        if advance.allowed and (r is None or r.hexes or r.absent):
            asked = sorted(reachable) if r is None else [Hex.parse(h.value) for h in (*r.hexes, *r.absent)]
            shown += ["to", _set_text([str(h) for h in asked if h in reachable],
                                      [str(h) for h in asked if h not in reachable]) or "(none)"]
        if advance.allowed and advance.required and (r is None or r.must_enter):
            shown.append("must-enter")
        if r is not None:
            ok = (not advance.allowed) if r.ruling == ir.Ruling.REFUSED else \
                (advance.allowed and r.amount == advance.hexes
                 and all(Hex.parse(h.value) in reachable for h in r.hexes)
                 and not any(Hex.parse(h.value) in reachable for h in r.absent)
                 and (advance.required or not r.must_enter))
    elif kind == ir.ExpectKind.PHASES:
        return _phases(module, expectation)
    elif kind == ir.ExpectKind.COMBAT:
        return _combat(module, situation, expectation)
    elif kind == ir.ExpectKind.ENGAGE:
        return _engage(engine, module, situation, expectation)
    else:   # pragma: no cover - every kind is handled above
        raise Unanswerable(f"no query '{kind}'")
    computed = " ".join(shown)
    mismatch = "" if ok else f"expected {want}, computed {computed}"
    return Answer(computed, data, tuple(steps), ok, mismatch)


def check_outcome(module: types.ModuleType, expectation: ir.Expectation) -> None:
    """A rulebook's own combat line (or an `explain`) that expects a result its table cannot give (a code it
    never prints, a misspelling) is an error at the result, with the nearest one it can give: never a silent
    mismatch with every roll.  (An example inherited from a series is not held to the game's table: under the
    game's rules its answer is a difference, noted.)"""
    r, table = expectation.result, getattr(module, "CRT", None)
    if expectation.kind == ir.ExpectKind.COMBAT and r is not None and r.outcome is not None and table is not None:
        _check_outcome(r.outcome, table)


def _check_outcome(outcome: ir.Text, table: CombatResultsTable) -> None:
    sides: list[tuple[str, CombatResultsTable | AttackerLosses]] = [("", table)] \
        if table.attacker is None or "/" not in outcome.value else \
        [("the attacker's side: ", table.attacker), ("the defender's side: ", table)]
    parts = outcome.value.split("/", 1) if len(sides) == 2 else [outcome.value]
    for (where, side), part in zip(sides, parts):
        known = {"".join(cell.split()) for cells in side.rows.values() for cell in cells}
        known |= set(side.codes or ())
        if isinstance(side, CombatResultsTable):
            known |= {v for v in (side.below, side.below_forced, side.above)
                      if v and v not in ("leftmost", "rightmost")}
        if part not in known and part != "-":
            raise Unanswerable(f"{where}'{part}' is no result of this rulebook's Combat Results Table",
                               outcome.span, suggest(part, known) or
                               f"the table's results are: {', '.join(sorted(known))}")


def _combat(module: types.ModuleType | None, situation: Situation, expectation: ir.Expectation) -> Answer:
    """A combat through the module's CombatEngine: attackers by hex, defenders in the target hex."""
    from rulesdsl.runtime.engagement import as_combat
    if module is None or not hasattr(module, "ENGINE"):
        raise Unanswerable("the engine cannot answer 'combat' here: the rulebook has no combat rules")
    r = expectation.result
    targets = [Hex.parse(h.value) for h in expectation.hexes]
    attackers = [situation.unit(u.value) for u in expectation.units]
    types = sorted(getattr(getattr(module, "VOCABULARY", None), "unit_types", None) or ())
    untyped = [u for u in (*attackers, *(d for t in targets for d in situation.units_at(t))) if types and not u.type]
    if untyped:
        raise Unanswerable(f"{untyped[0]} has no type, and this rulebook's combat rules read unit types: give "
                           f"its unit line `type WORD`, one of {', '.join(types)}")
    engagement = module.RULES_ENGINE.engage(situation, [u.name for u in attackers], targets,
                                            overrun=expectation.overrun)
    if not engagement.allowed:
        raise Unanswerable(f"the combat cannot be made: {'; '.join(engagement.reasons)}")
    combat = as_combat(situation, engagement.attackers, engagement.defenders, engagement.terrain_hex,
                       overrun=expectation.overrun, situations=[d.value for d in expectation.declared],
                       forced=expectation.forced)
    roll: int | tuple[int, int] | None = None
    if r is not None:
        roll = r.dice if r.dice is not None else r.roll     # the dice apart, for a rulebook that reads them
    try:
        # odds and column need no roll (and no table for the odds); a result needs both
        resolution = module.ENGINE.assess(combat) if roll is None else module.resolve_combat(combat, roll)
    except DiceApartNeeded:
        raise Unanswerable("this rulebook reads the white and the red die apart, not their total: write "
                           f"`roll white W red R`, the two dice that made {roll}") from None
    except Exception as exc:  # a combat the rulebook refuses (an unknown unit type, a roll off the table)
        raise Unanswerable(f"the combat cannot be resolved: {exc}") from None
    table = getattr(module, "CRT", None)
    if roll is None and resolution.column in (None, ABOVE) and table is not None:
        try:    # off the table with a result of its own: read with no roll (any roll gives it)
            resolution = module.resolve_combat(combat, DICE_OUTCOMES[table.dice][0])
        except LookupError:
            pass            # the rulebook gives that attack no result
    # refused before its odds (a prohibited hexside or terrain), the attack has no answer to compare; below the
    # table a code that says it is not allowed (NA) is the table's answer, compared as any result
    if resolution.refused is not None and (not isinstance(resolution, Resolution) or resolution.result == NOT_ALLOWED):
        raise Unanswerable(f"the attack is not allowed: {resolution.refused}")
    shown: list[str] = []
    ok = True
    asked = r is not None and any(v is not None for v in (r.odds, r.column, r.outcome, r.exchange))   # `roll N`: input
    pairs = [("odds", resolution.odds), ("column", resolution.column or "below")]
    if isinstance(resolution, Resolution):
        if roll is not None:        # an attack off the table reads no roll
            pairs.append(("roll", f"white {roll[0]} red {roll[1]}" if isinstance(roll, tuple) else str(roll)))
        # a dual-sided table's result as the notation writes it: the attacker's side, a slash, the defender's
        pairs.append(("result", "".join(str(resolution.result.text).split())))
        # what an exchange costs the attacker (combat.exchange_measure), where the result is one
        if resolution.exchange is not None or (r is not None and r.exchange is not None):
            pairs.append(("exchange", "(none)" if resolution.exchange is None else str(resolution.exchange.loss)))
    for name, value in pairs:
        expected = None
        if r is not None:
            expected = {"odds": r.odds, "column": r.column, "roll": None, "result": r.outcome,
                        "exchange": None if r.exchange is None else str(r.exchange)}[name]
        if not asked or expected is not None or name == "roll":
            shown += [odds_word(value) if name == "odds" else name, value]
        if expected is not None and getattr(expected, "value", expected) != value:
            ok = False
    data = {"odds": resolution.odds, "column": resolution.column,
            "roll": sum(roll) if isinstance(roll, tuple) else roll,     # None: off the table, no roll read
            "dice": list(roll) if isinstance(roll, tuple) else None,
            "result": str(resolution.result.text) if isinstance(resolution, Resolution) else None,
            "exchange": _exchange_data(resolution.exchange) if isinstance(resolution, Resolution) else None}
    steps = engagement.steps + tuple(_derivation_step(line) for line in resolution.derivation)
    if isinstance(resolution, Resolution) and resolution.exchange is not None and data["exchange"] is not None:
        # the attacking units the exchange's choice removes, by name: the engagement given the result says it
        after = module.RULES_ENGINE.engage(situation, [u.name for u in attackers], targets,
                                           overrun=expectation.overrun, result=resolution.result,
                                           exchange=resolution.exchange)
        data["exchange"]["units"] = list(after.exchanged)
        steps += after.steps[-1:]       # its last step says what the exchange costs, and whom
    computed = " ".join(shown)
    return Answer(computed, data, steps, ok,
                  "" if ok else f"expected {result_text(r, expectation.kind)}, computed {computed}")


def _phases(module: types.ModuleType | None, expectation: ir.Expectation) -> Answer:
    """The phases game turn `count` has (a player turn's, or the whole game turn's), each skipped one with the
    turns it is skipped on and the rule that says so."""
    e, r = expectation, expectation.result
    game_turn = getattr(module, "GAME_TURN", None)
    if module is None or not game_turn:
        raise Unanswerable("this rulebook has no sequence of play, so no phases")
    if e.count is None:    # the grammar writes one: a query built otherwise says so, not a TypeError
        raise Unanswerable("a phases query names the game turn, like: phases turn 3")
    turn, player_turn = e.count, None if e.side is None else e.side.value
    if e.side is not None and e.side.value not in module.PLAYER_TURNS:
        raise Unanswerable(f"the sequence of play has no player turn '{e.side.value}'", e.side.span,
                           suggest(e.side.value, list(module.PLAYER_TURNS))
                           or f"its player turns are {', '.join(module.PLAYER_TURNS)}")
    played = _engine_call("phases", module.phases, turn, player_turn)
    # each phase of the turn asked, with the player turn it is in when the whole game turn is asked
    every = [(None, phase) for phase in module.PLAYER_TURNS[player_turn]] if player_turn is not None else [
        (item.name, phase) if isinstance(item, PlayerTurn) else (None, item)
        for item in game_turn for phase in (item.phases if isinstance(item, PlayerTurn) else (item,))]
    steps: list[Step] = []
    for within, phase in every:
        limits = [f"only on {phase.on_turns}"] if phase.on_turns is not None else []
        limits += [f"not on {phase.not_on_turns}"] if phase.not_on_turns is not None else []
        said = f"{within + ' ' if within else ''}{phase.name}: " \
               f"{'played' if phase.on(turn) else 'skipped'} on game turn {turn}"
        steps.append(Step(said + (f" ({'; '.join(limits)})" if limits else ""),
                          rule=phase.rules[0] if phase.rules else None))
    names = [phase.name for phase in played]
    computed = " ".join(names) or "(no phase)"
    ok = r is None or [p.value for p in r.phases] == names
    want = result_text(r, e.kind)
    return Answer(computed, {"turn": turn, "player_turn": player_turn, "phases": names}, tuple(steps), ok,
                  "" if ok else f"expected {want}, computed {computed}")


def _exchange_data(exchange: Exchange | None) -> dict[str, Any] | None:
    """What an exchange costs, as data: the measure, the least loss, and the units one least choice loses."""
    if exchange is None:
        return None
    return {"measure": exchange.measure, "loss": str(exchange.loss), "lost": str(exchange.lost),
            "short": exchange.short, "chosen": [f"{u.type} {u.attack}" for u in exchange.chosen]}


def _engage(engine: RulesEngine, module: types.ModuleType | None, situation: Situation,
            expectation: ir.Expectation) -> Answer:
    """Who fights, who shares the result or is spared, whose terrain counts and, given the result read from
    the table, who is destroyed: each part the line gives is compared, as a set of units."""
    from rulesdsl.runtime.notation import read_result
    e, r = expectation, expectation.result
    result = None
    if e.given is not None:
        table = getattr(getattr(module, "ENGINE", None), "table", None)
        if table is None:
            raise Unanswerable("the engine cannot read a result here: the rulebook has no Combat Results Table")
        result = read_result(e.given.value, table.notation, table.codes)
        if result is None:
            raise Unanswerable(f"'{e.given.value}' is no result of this rulebook's Combat Results Table")
    found = _engine_call("engagement", engine.engage, situation, [u.value for u in e.units],
                         [Hex.parse(h.value) for h in e.hexes],
                         defenders=[u.value for u in e.others] if e.others else None, arrived=[u.value for u in e.arrived],
                         overrun=e.overrun, result=result)
    data: dict[str, Any] = {"allowed": found.allowed, "reasons": list(found.reasons),
                            "attackers": list(found.attackers), "fighting": list(found.defenders),
                            "sharing": list(found.sharing), "spared": list(found.spared),
                            "terrain": str(found.terrain_hex), "destroyed": list(found.destroyed),
                            "lost_if_adverse": list(found.lost_if_adverse),
                            "attacker_retreat": found.attacker_retreat, "defender_retreat": found.defender_retreat}
    if not found.allowed:
        ok = r is None or r.ruling == ir.Ruling.REFUSED
        return Answer("refused", data, found.steps, ok, "" if ok else f"expected {result_text(r, e.kind)}, computed refused")
    shown: list[str] = []
    ok = r is None or r.ruling is None
    parts: tuple[tuple[str, tuple[str, ...], tuple[ir.Text, ...] | None], ...] = (
        ("fighting", found.defenders, r.fighting if r else None), ("sharing", found.sharing, r.sharing if r else None),
        ("spared", found.spared, r.spared if r else None),
        ("exposed", found.lost_if_adverse, r.exposed if r else None))
    for word, names, wanted in parts:
        if (r is None and names) or wanted:
            shown += [word, " ".join(names) or "(none)"]
        if wanted:
            ok = ok and set(names) == {w.value for w in wanted}
    if r is None or r.hexes:
        shown += ["terrain", str(found.terrain_hex)]
        ok = ok and (r is None or Hex.parse(r.hexes[0].value) == found.terrain_hex)
    if (r is None and found.destroyed) or (r is not None and r.destroyed):
        shown += ["destroyed", " ".join(found.destroyed) or "(none)"]
        ok = ok and (r is None or set(found.destroyed) == {w.value for w in r.destroyed})
    for side, carried, wanted_hexes in (("attacker", found.attacker_retreat, r.attacker_retreat if r else None),
                                        ("defender", found.defender_retreat, r.defender_retreat if r else None)):
        if (r is None and result is not None) or wanted_hexes is not None:     # the retreats follow a given result
            shown += [side, "retreats", str(carried)]
            ok = ok and (wanted_hexes is None or wanted_hexes == carried)
    if r is not None and r.ruling is not None or not shown:
        shown.insert(0, "allowed")     # the line says the engagement is refused; or nothing else is there to say
    computed = " ".join(shown)
    return Answer(computed, data, found.steps, ok, "" if ok else f"expected {result_text(r, e.kind)}, computed {computed}")


_CITED = re.compile(r"^(?P<text>.*?) \[(?P<rules>[^\]]+)\]$")
_PARAMETER = re.compile(r"[a-z_]+(?:\.[a-z_][a-z0-9_]*)+")      # supply.minimum_strength, not a rule id


def _derivation_step(line: str) -> Step:
    """A line of the combat engine's derivation as a step: its trailing `[7.3 G1.1]` (the rules the line
    applied, or `[12.2: supply.minimum_strength]`, a parameter and its rule) becomes the step's rule."""
    match = _CITED.match(line)
    if match is None:
        return Step(line)
    rules, _, parameter = match.group("rules").partition(": ")
    if not parameter and _PARAMETER.fullmatch(rules):               # a rule id (G1.2) is never all lower case
        return Step(match.group("text"), parameter=rules)          # `[supply.minimum_strength]`: no rule sets it
    return Step(match.group("text"), rule=rules, parameter=parameter or None)


# ---- running the examples of a rulebook ------------------------------------------------------------------
def derivation(steps: Iterable[Step], limit: int = 12) -> str:
    """The derivation as a hint: each step on its own line, citing its rule; the first `limit` steps."""
    lines = [str(s) for s in steps]
    if len(lines) > limit:
        lines = lines[:limit] + [f"... and {len(lines) - limit} more steps (rulesdsl explain prints them all)"]
    return "derivation:\n" + "\n".join(lines) if lines else "the engine gave no derivation"


@dataclass
class Run:
    """The diagnostics of a rulebook's examples, how many expect lines ran, and those that failed (by span)."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    checked: int = 0
    failed: set[Span] = field(default_factory=set)


def _same_answer(module: types.ModuleType | None, situation: Situation, expectation: ir.Expectation,
                 answer: Answer) -> bool:
    """Whether `module`'s rules (a rulebook's parent's) answer the line as `answer` does."""
    if module is None:
        return False
    try:
        return ask(engine_of(module), module, situation, expectation).computed == answer.computed
    except Unanswerable:
        return False


def _parent(resolved: ir.Resolved) -> str | None:
    """The id of the rulebook this one extends directly."""
    return resolved.ancestors[0].id.value if resolved.ancestors else None


def _inherited(resolved: ir.Resolved) -> list[tuple[ir.Example, str]]:
    return [(example, book.id.value) for book in resolved.ancestors for example in book.examples]


def _own_terrain(resolved: ir.Resolved, situation: ir.Situation) -> list[str]:
    """The rulebook's own Terrain Effects Chart, or its amended rows, where the situation uses them (the
    engine's steps cite no TEC row: a game's chart is named from what the situation holds)."""
    chart, own = resolved.terrain, resolved.rulebook.id.value
    if chart is None:
        return []
    if chart.origin == own:
        return ["Terrain Effects Chart"]
    used = {t.value for area in situation.maps for t in area.terrain} | \
        {t.value for h in situation.hexes for t in h.terrain} | \
        {t.value for s in situation.hexsides for t in s.features} | \
        {r.road.value if r.road is not None else "" for r in situation.roads}
    rows = sorted({a.key.split(" ")[0] for a in chart.amended if a.origin == own} & used)
    return [f"Terrain Effects Chart ({', '.join(rows)})"] if rows else []


# the module of a rulebook's rules with some parameters at other values (an example's `assume` lines);
# None when the rules so changed do not compile
Variants = Callable[[dict[str, object], dict[str, Span]], "types.ModuleType | None"]


def assumed(resolved: ir.Resolved, situation: ir.Situation) -> tuple[dict[str, object], list[Diagnostic]]:
    """The values a situation's `assume` lines give (`assume stacking.limit = 6 steps`), typed against the
    rulebook's vocabulary, or the diagnostics of those that are not its parameters' values."""
    from rulesdsl.checks.validate import typed_value
    values: dict[str, object] = {}
    problems: list[Diagnostic] = []
    for parameter in situation.assumed:
        value, errors = typed_value(parameter, resolved.declared)
        problems += errors
        if not errors:
            values[parameter.name.value] = value
    return values, problems


def example_module(resolved: ir.Resolved, module: types.ModuleType, situation: ir.Situation,
                   variants: Variants | None) -> tuple[types.ModuleType | None, list[Diagnostic]]:
    """The module an example runs against: `module`, or its variant with the values the example assumes."""
    values, problems = assumed(resolved, situation)
    if problems or not values:
        return (None if problems else module), problems
    where = {p.name.value: p.span for p in situation.assumed}
    found = variants(values, where) if variants is not None else None
    if found is None:
        first = situation.assumed[0]
        return None, [Diagnostic(f"with the values this example assumes, the rules of {resolved.id} do not compile",
                                 first.span, hint="rulesdsl build reports why, once the rulebook sets them")]
    return found, []


def has_examples(resolved: ir.Resolved) -> bool:
    """Whether the rulebook has examples of its own or inherits some."""
    return any(book.examples for book in (resolved.rulebook, *resolved.ancestors))


def run(resolved: ir.Resolved, module: types.ModuleType, *, own_examples: bool = True,
        inherited: bool = True, failed: Iterable[Span] = (),
        parent: Callable[[dict[str, object] | None], types.ModuleType | None] | None = None,
        variants: Variants | None = None) -> Run:
    """Run the rulebook's own examples (a failure is an error) and those it inherits (a difference is a
    note naming the rulebook's own rule that changed the answer, when the derivation cites one); an
    inherited expect line in `failed` (it fails in its own rulebook, an error there) is not run again.
    An example that assumes values runs against the variant of the module `variants` gives (and `parent`,
    the module of the rulebook this one extends, with those values)."""
    chart = getattr(module, "TERRAIN", None)
    out = Run()
    own = resolved.rulebook.id.value
    skip = set(failed)
    examples = [(e, own) for e in resolved.rulebook.examples] if own_examples else []
    otherwise: dict[str, list[str]] = {}
    for example, origin in examples + (_inherited(resolved) if inherited else []):
        found, problems = example_module(resolved, module, example.situation, variants)
        if found is None:
            if origin == own:
                out.diagnostics += problems
                out.failed.update(e.span for e in example.situation.expectations)
            continue
        engine = engine_of(found)
        situation, problems = build(example.situation, chart)
        if situation is None:
            if origin == own:
                out.diagnostics += problems
                out.failed.update(e.span for e in example.situation.expectations)
            continue
        for expectation in example.situation.expectations:
            if expectation.span in skip:
                continue
            out.checked += 1
            try:
                if origin == own:
                    check_outcome(found, expectation)
                answer = ask(engine, found, situation, expectation)
            except Unanswerable as exc:
                if origin == own:
                    out.failed.add(expectation.span)
                    out.diagnostics.append(Diagnostic(str(exc), exc.span or expectation.span,
                                                      hint=exc.hint or f"the rules engine cannot answer "
                                                           f"'{query_text(expectation)}' in this situation"))
                continue
            if answer.matches:
                continue
            if origin == own:
                out.failed.add(expectation.span)
                out.diagnostics.append(Diagnostic(answer.mismatch, expectation.span, hint=derivation(answer.steps)))
                continue
            overriding = sorted({f"rule {s.rule}" for s in answer.steps if s.origin == own and s.rule})
            overriding += _own_terrain(resolved, example.situation)
            if origin != _parent(resolved) and parent is not None and \
                    _same_answer(parent(assumed(resolved, example.situation)[0] or None), situation, expectation,
                                 answer):
                continue    # the series between them answers it so already (noted there): not this rulebook's doing
            why = f" (under {own}'s {', '.join(overriding)})" if overriding else ""
            cites = f" [{' '.join(c.value for c in example.cites)}]" if example.cites else ""
            otherwise.setdefault(origin, []).append(       # by title and rule: the file may be an installed one
                f"{example.title.value}{cites}, line {expectation.span.line}: {answer.mismatch}{why}")
    # one note per rulebook whose examples read otherwise here, each differing expect line under it
    for origin, lines in otherwise.items():
        out.diagnostics.append(Diagnostic(
            f"{own} answers {len(lines)} expect line{'s' if len(lines) != 1 else ''} of {origin}'s examples "
            f"otherwise, under its own rules", resolved.rulebook.id.span, severity="note",
            hint="\n".join(lines)))
    return out


# ---- rulesdsl explain -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Explanation:
    rulebook: str
    query: str
    answer: Answer
    expected: str | None      # the result the query gave, if any

    def text(self) -> str:
        lines = [f"{self.query}  ({self.rulebook})"]
        for number, step in enumerate(self.answer.steps, 1):
            lines.append(f"  {number:>2}. {step}")
        lines.append(f"answer: {self.answer.computed}")
        if self.expected:
            lines.append(f"expected: {self.expected} ({'as computed' if self.answer.matches else 'differs'})")
        return "\n".join(lines) + "\n"

    def as_json(self) -> dict[str, Any]:
        return {"rulebook": self.rulebook, "query": self.query, "answer": self.answer.computed,
                "data": self.answer.data, "steps": [s.as_json() for s in self.answer.steps],
                "expected": self.expected, "matches": self.answer.matches if self.expected else None}


def explain(module: types.ModuleType, source: Source, query: str, resolved: ir.Resolved | None = None,
            variants: Variants | None = None) -> Explanation:
    """The derivation of `query` (the words of an expect line, its result optional) in the situation
    `source` holds, under the rules of `module` (of `resolved`, with the values the situation assumes from
    `variants`); RulesError with positioned diagnostics otherwise."""
    from rulesdsl.errors import RulesError
    from rulesdsl.language.source import Source
    from rulesdsl.language.transform import parse_situation
    text = source.text.rstrip("\n")
    query_line = len(text.split("\n")) + 1 if text.strip() else 1
    whole = Source(source.path, (text + "\n" if text.strip() else "") + "expect " + query + "\n")
    situation_ir = parse_situation(whole)
    expectation = next(e for e in situation_ir.expectations if e.span.line == query_line)
    if situation_ir.assumed:
        if resolved is None:
            raise RulesError([Diagnostic("`assume` needs the rulebook's parameters", situation_ir.assumed[0].span)],
                             {whole.path: whole.text})
        found, problems = example_module(resolved, module, situation_ir, variants)
        if found is None:
            raise RulesError(problems, {whole.path: whole.text})
        module = found
    situation, problems = build(situation_ir, getattr(module, "TERRAIN", None))
    if situation is None:
        raise RulesError(problems, {whole.path: whole.text})
    try:
        check_outcome(module, expectation)
        answer = ask(engine_of(module), module, situation, expectation)
    except Unanswerable as exc:
        raise RulesError([Diagnostic(str(exc), exc.span or expectation.span, exc.hint)],
                         {whole.path: whole.text}) from None
    expected = result_text(expectation.result, expectation.kind) or None
    r = expectation.result
    if expectation.kind == ir.ExpectKind.COMBAT and r is not None and r.odds is None and r.column is None \
            and r.outcome is None:
        expected = None     # only the roll to read: an input, not an answer
    return Explanation(module.RULEBOOK["id"], query_text(expectation), answer, expected)
