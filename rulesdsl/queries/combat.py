"""`expect combat UNIT... on HEX... [with SITUATION, ...] [overrun] [forced]`: a combat's odds, column and,
given the roll, its result and what an exchange costs (the generated module's CombatEngine)."""
from __future__ import annotations

import re
import types
from typing import Any

from rulesdsl.errors import Diagnostic, suggest
from rulesdsl.model import ir
from rulesdsl.queries.base import (REFUSALS, Answer, CheckContext, QueryKind, Unanswerable, clause, compared, flag,
                                   odds_word, on_map, option, query_words, want)
from rulesdsl.runtime.answers import Engagement
from rulesdsl.runtime.combat import NOT_ALLOWED, Assessment, Combat, DiceApartNeeded, Exchange, Resolution
from rulesdsl.runtime.engagement import as_combat
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.hexmap import Hex
from rulesdsl.runtime.ruleset import Step
from rulesdsl.runtime.situation import Situation
from rulesdsl.runtime.tables import ABOVE, DICE_OUTCOMES, AttackerLosses, CombatResultsTable

Roll = int | tuple[int, int] | None


def text(q: ir.CombatQuery) -> str:
    """`combat UNIT... on HEX... with SITUATION, ... overrun forced`, as written."""
    declared = ["with", ", ".join(d.value for d in q.declared)] if q.declared else []
    return query_words(q.kind, [u.value for u in q.units], clause("on", q.targets), declared,
                       flag("overrun", q.overrun), flag("forced", q.forced))


def ask(engine: RulesEngine, module: types.ModuleType | None, situation: Situation, q: ir.CombatQuery) -> Answer:
    """A combat through the module's CombatEngine: attackers by hex, defenders in the target hex; each of
    odds, column, roll, result and exchange compared where the line gives it."""
    if module is None or not hasattr(module, "ENGINE"):
        raise Unanswerable("the engine cannot answer 'combat' here: the rulebook has no combat rules")
    r = q.result
    engagement = _engagement(module, situation, q)
    combat = as_combat(situation, engagement.attackers, engagement.defenders, engagement.terrain_hex,
                       overrun=q.overrun, situations=[d.value for d in q.declared], forced=q.forced)
    roll: Roll = None if r is None else r.dice if r.dice is not None else r.roll   # the dice apart, if read so
    resolution = _resolution(module, combat, roll)
    data = _data(resolution, roll)
    steps = engagement.steps + tuple(_derivation_step(line) for line in resolution.derivation)
    payers: tuple[str, ...] = ()
    if isinstance(resolution, Resolution) and resolution.exchange is not None and data["exchange"] is not None:
        # the attacking units the exchange's choice removes, by name: the engagement given the result says it
        after = module.RULES_ENGINE.engage(situation, [u.value for u in q.units], _targets(q), overrun=q.overrun,
                                           result=resolution.result, exchange=resolution.exchange)
        payers = tuple(after.exchanged)
        data["exchange"]["units"] = list(payers)
        steps += after.steps[-1:]       # its last step says what the exchange costs, and whom
    shown, ok = _shown(resolution, roll, r, payers)
    return compared(want(result_text, r), shown, data, steps, ok)


def _targets(q: ir.CombatQuery) -> list[Hex]:
    return [Hex.parse(h.value) for h in q.targets]


def _engagement(module: types.ModuleType, situation: Situation, q: ir.CombatQuery) -> Engagement:
    """Who attacks and defends, and whose terrain counts; Unanswerable when a unit lacks the type the
    rulebook's combat rules read, or the engagement may not be made."""
    targets = _targets(q)
    attackers = [situation.unit(u.value) for u in q.units]
    unit_types = sorted(getattr(getattr(module, "VOCABULARY", None), "unit_types", None) or ())
    untyped = [u for u in (*attackers, *(d for t in targets for d in situation.units_at(t))) if unit_types and not u.type]
    if untyped:
        raise Unanswerable(f"{untyped[0]} has no type, and this rulebook's combat rules read unit types: give "
                           f"its unit line `type WORD`, one of {', '.join(unit_types)}")
    engagement: Engagement = module.RULES_ENGINE.engage(situation, [u.name for u in attackers], targets,
                                                        overrun=q.overrun)
    if not engagement.allowed:
        raise Unanswerable(f"the combat cannot be made: {'; '.join(engagement.reasons)}")
    return engagement


def _resolution(module: types.ModuleType, combat: Combat, roll: Roll) -> Assessment | Resolution:
    """The combat assessed (no roll: odds and column) or resolved at `roll`; Unanswerable when the rulebook
    refuses it (a total for dice read apart, an unknown unit type, a roll off the table, an attack not allowed)."""
    try:
        # odds and column need no roll (and no table for the odds); a result needs both
        resolution: Assessment | Resolution = module.ENGINE.assess(combat) if roll is None else module.resolve_combat(combat, roll)
    except DiceApartNeeded:
        raise Unanswerable("this rulebook reads the white and the red die apart, not their total: write "
                           f"`roll white W red R`, the two dice that made {roll}") from None
    except REFUSALS as exc:
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
    return resolution


def _shown(resolution: Assessment | Resolution, roll: Roll, r: ir.CombatResult | None,
           payers: tuple[str, ...] = ()) -> tuple[list[str], bool]:
    """The combat as the line writes it (only what the line asks, when it asks any of odds, column, result or
    exchange; a roll alone is an input), and whether each part asked is as computed."""
    pairs = [("odds", resolution.odds), ("column", resolution.column or "below")]
    if isinstance(resolution, Resolution):
        if roll is not None:        # an attack off the table reads no roll
            pairs.append(("roll", f"white {roll[0]} red {roll[1]}" if isinstance(roll, tuple) else str(roll)))
        # a dual-sided table's result as the notation writes it: the attacker's side, a slash, the defender's
        pairs.append(("result", "".join(str(resolution.result.text).split())))
        # what an exchange costs the attacker (combat.exchange_measure), where the result is one
        if resolution.exchange is not None or (r is not None and r.exchange is not None):
            pairs.append(("exchange", "(none)" if resolution.exchange is None else str(resolution.exchange.loss)))
    asked = r is not None and (states_answer(r) or r.exchange is not None)   # `roll N` alone: an input
    shown: list[str] = []
    ok = True
    for name, value in pairs:
        expected = None if r is None else {
            "odds": r.odds, "column": r.column, "roll": None, "result": r.outcome,
            "exchange": None if r.exchange is None else str(r.exchange)}[name]
        if not asked or expected is not None or name == "roll":
            shown += [odds_word(value) if name == "odds" else name, value]
        if expected is not None and getattr(expected, "value", expected) != value:
            ok = False
    if r is not None and r.exchange_by:     # who pays it: the units the exchange's choice removes
        shown += ["by", *(payers or ("(none)",))]
        ok = ok and sorted(u.value for u in r.exchange_by) == sorted(payers)
    return shown, ok


def _data(resolution: Assessment | Resolution, roll: Roll) -> dict[str, Any]:
    """The combat's answer as data."""
    return {"odds": resolution.odds, "column": resolution.column,
            "roll": sum(roll) if isinstance(roll, tuple) else roll,     # None: off the table, no roll read
            "dice": list(roll) if isinstance(roll, tuple) else None,
            "result": str(resolution.result.text) if isinstance(resolution, Resolution) else None,
            "exchange": _exchange_data(resolution.exchange) if isinstance(resolution, Resolution) else None}


def _exchange_data(exchange: Exchange | None) -> dict[str, Any] | None:
    """What an exchange costs, as data: the measure, the least loss, and the units one least choice loses."""
    if exchange is None:
        return None
    return {"measure": exchange.measure, "loss": str(exchange.loss), "lost": str(exchange.lost),
            "short": exchange.short, "chosen": [f"{u.type} {u.attack}" for u in exchange.chosen]}


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


def check_outcome(module: types.ModuleType, query: ir.Query) -> None:
    """A rulebook's own combat line (or an `explain`) that expects a result its table cannot give (a code it
    never prints, a misspelling) is an error at the result, with the nearest one it can give: never a silent
    mismatch with every roll.  (An example inherited from a series is not held to the game's table: under the
    game's rules its answer is a difference, noted.)"""
    table = getattr(module, "CRT", None)
    if isinstance(query, ir.CombatQuery) and query.result is not None and query.result.outcome is not None \
            and table is not None:
        _check_outcome(query.result.outcome, table)


def _check_outcome(outcome: ir.Text, table: CombatResultsTable) -> None:
    """Unanswerable at `outcome` when no side of the table it is read on prints it."""
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


def result_text(r: ir.CombatResult) -> str:
    """`odds 3:1 column 3:1 roll 4 result D1 exchange 6`, as written."""
    roll = ["roll", "white", str(r.dice[0]), "red", str(r.dice[1])] if r.dice is not None else option("roll", r.roll)
    return " ".join([*([odds_word(r.odds.value), r.odds.value] if r.odds is not None else []),
                     *option("column", r.column), *roll, *option("result", r.outcome), *option("exchange", r.exchange),
                     *(["by", *(u.value for u in r.exchange_by)] if r.exchange_by else [])])


def states_answer(r: ir.CombatResult) -> bool:
    """Whether the line states an answer of the combat (what `rulesdsl explain` prints as expected): odds,
    column or result (a roll alone is the input the table is read at)."""
    return any(v is not None for v in (r.odds, r.column, r.outcome))


def check(q: ir.CombatQuery, context: CheckContext) -> list[Diagnostic]:
    """A result is read at a roll (but off the table, a result of its own); the query's hexes on the map."""
    on_map(context, q.targets)
    r = q.result
    if r is None:
        return []
    off_table = r.column is not None and r.column.value in ("below", "above")    # a result of its own, no roll
    if r.roll is None and r.dice is None and r.outcome is not None and not off_table:
        return [Diagnostic("a combat result needs the roll it is read at", r.span,
                           hint="give the roll before the result, like: roll 4 result D1")]
    if r.exchange is not None and r.roll is None and r.dice is None and not off_table:
        return [Diagnostic("what an exchange costs needs the roll its result is read at", r.span,
                           hint="give the roll and the result before it, like: roll 2 result EX exchange 6")]
    return []


QUERY = QueryKind(
    node=ir.CombatQuery, text=text, result_text=result_text, ask=ask, check=check,
    names=lambda q: q.units, units=lambda q: q.units,
    result_hint="end it with odds, column, roll and result, like: odds 3:1 roll 4 result D1",
    states_answer=states_answer, drives=None, judged=True, answer_hexes=None)
