"""Checks on one rulebook by itself: the schema, then the meaning.

Every check appends to one list, so a run reports every problem it finds.
Checks that need the rulebooks a rulebook extends (overrides, references
to series rules) live in resolve.py.
"""
from __future__ import annotations

import re
from fractions import Fraction
from typing import Any, Callable, Collection, Mapping

from rulesdsl.model import codes as result_codes, ir
from rulesdsl.language.limits import (MAX_DICE_ROLL, MAX_DISTANCE_HEXES, MAX_MOVEMENT_POINTS, MAX_RETREAT_HEXES, MAX_TABLE_COLUMNS,
                                      MAX_TABLE_ROWS)
from rulesdsl.model.catalogue import (ACTIVITIES, CARD_MAX_SIDES, CARD_PAPERS, CARD_PATTERNS, CARD_REMINDERS, UNIT_SPELLINGS, UNITS, unknown_parameter, unit_text)
from rulesdsl.errors import Diagnostic, Span, suggest
from rulesdsl.runtime.model import PLURALS
from rulesdsl.runtime.notation import NOTATIONS, OPEN_DIFFERENCE, parse_difference, parse_odds, parse_turns
from rulesdsl.runtime.tables import DICE_OUTCOMES, roll_range
from rulesdsl.checks.effects import check_effect
from rulesdsl.checks.schema import check_schema
from rulesdsl.checks.situations import check_example
from rulesdsl.model.walk import walk


def check(rulebook: ir.Rulebook, parameters: Mapping[str, ir.Declared] | None = None) -> list[Diagnostic]:
    """Every problem of one rulebook: the schema, the rulebook as a whole, then each statement by its kind.
    `parameters` is the vocabulary the rulebook may set (catalogue.vocabulary of its chain); None when its
    chain is unknown, and then its parameters are checked when it is resolved."""
    problems = check_schema(rulebook)
    if parameters is not None:
        problems += _parameters(rulebook, parameters)
    problems += _rule_ids(rulebook)
    problems += _executed_by(rulebook)
    problems += _unit_types(rulebook)
    problems += _labels(rulebook)
    problems += _table_names(rulebook)
    for number in rulebook.not_whole:
        problems.append(Diagnostic(f"'{number.text}' must be a whole number", number.span))
    for statement in rulebook.statements():
        if isinstance(statement, ir.ResultsTable) and not reads_own_codes(rulebook):
            problems += _results(statement, cells=False)   # its codes may be a series's: resolve reads its cells
        elif isinstance(statement, ir.ResultsTable) and rulebook.result_codes:
            problems += _results(statement, rulebook.result_codes[0])
        else:
            problems += CHECKS[type(statement)](statement)
        problems += _for_examples(rulebook, statement)
    return problems


def _for_examples(rulebook: ir.Rulebook, statement: object) -> list[Diagnostic]:
    """`for examples` marks a whole chart of a series: a game's charts are its players', and an amendment
    keeps the marking of the chart it amends."""
    if not isinstance(statement, (ir.TerrainChart, ir.ResultsTable)) or not statement.for_examples:
        return []
    if statement.amend:
        return [Diagnostic("an amendment cannot mark a chart `for examples`", statement.span,
                           "it keeps the marking of the chart it amends; remove `for examples`")]
    if rulebook.kind.value == "game":
        return [Diagnostic("only a series marks a chart `for examples`", statement.span,
                           "a game's charts are the ones its players use, and its card prints them; remove "
                           "`for examples`")]
    return []


def reads_own_codes(rulebook: ir.Rulebook) -> bool:
    """Whether the rulebook's own table is read in codes known from the rulebook alone: it declares its
    codes, or extends nothing (so its table's notation says all)."""
    return bool(rulebook.result_codes) or rulebook.extends is None


def _rule(rule: ir.Rule) -> list[Diagnostic]:
    problems = [Diagnostic(f"rule {rule.id.value} has more than one summary", extra.span,
                           hint="a rule has one summary line; put the rest in a note")
                for extra in rule.extra_summaries]
    if rule.amend:
        for name in (*(d.name for d in rule.definitions), *rule.requires, *(e.question for e in rule.effects)):
            problems.append(Diagnostic(f"an amendment of rule {rule.id.value} changes parameters only", name.span,
                                       "a definition, a requirement or an effect needs the whole rule, restated "
                                       "as an override"))
    for parameter in rule.parameters:
        if parameter.turns is not None:
            problems += _parameter_turns(parameter, parameter.turns)
    for effect in rule.effects:
        problems += check_effect(effect)
    return problems


def _parameter_turns(parameter: ir.Parameter, turns: ir.PhaseTurns) -> list[Diagnostic]:
    """`zoc.entry_cost = +0 MP  on night`: the turns a value holds on are named (`on`), each a game turn."""
    name = parameter.name.value
    if turns.negated:
        return [Diagnostic(f"{name}: a value holds on the turns it names, not on every turn but them", turns.span,
                           f"write the value of every other turn without turns ({name} = ...), and this one "
                           f"'on' the turns it holds on")]
    return turns_problems(turns.turns, f"the turns of {name}")


def _parameters(rulebook: ir.Rulebook, known: Mapping[str, ir.Declared]) -> list[Diagnostic]:
    """Every parameter a rule sets or requires is in the vocabulary, and every value has its type."""
    problems = []
    for rule in rulebook.rules:
        for parameter in rule.parameters:
            problems += typed_value(parameter, known)[1]
        problems += [unknown_parameter(name, known) for name in rule.requires if name.value not in known]
    return problems


def _declarations(block: ir.ParameterDeclarations) -> list[Diagnostic]:
    """Each declaration's kind has what it needs: a known unit, or options, or nothing more."""
    problems = []
    for declaration in block.declarations:
        kind, name = declaration.kind, declaration.name.value
        if kind in (ir.ParamKind.QUANTITY, ir.ParamKind.MODIFIER):
            if declaration.unit is None:
                words = ", ".join(o.value for o in declaration.options)
                problems.append(Diagnostic(
                    f"a {kind} is measured in one unit, not " + (f"'{words}'" if words else "none"),
                    declaration.options[0].span if declaration.options else declaration.span,
                    f"write a unit after {kind}: " + ", ".join(u for u in UNITS)))
            elif declaration.unit.value not in UNIT_SPELLINGS:
                problems.append(Diagnostic(f"unknown unit '{declaration.unit.value}'", declaration.unit.span,
                                           suggest(declaration.unit.value, UNIT_SPELLINGS) or
                                           "the units are " + ", ".join(UNITS)))
        elif kind in (ir.ParamKind.CHOICE, ir.ParamKind.ORDER):
            if not declaration.options:
                problems.append(Diagnostic(f"{name}: a {kind} lists the words its value may use",
                                           declaration.meaning.span, f"write them after {kind}, like: "
                                                                     f"{name}  {kind} first, second  \"...\""))
            seen: set[str] = set()
            for option in declaration.options:
                if option.value in seen:
                    problems.append(Diagnostic(f"'{option.value}' is listed twice", option.span))
                seen.add(option.value)
        elif declaration.options:
            problems.append(Diagnostic(f"a {kind} takes no unit or words", declaration.options[0].span,
                                       f"write only the kind and the meaning: {name}  {kind}  \"...\""))
        if not declaration.meaning.value.strip():
            problems.append(Diagnostic(f"{name} needs a meaning, in players' words", declaration.meaning.span,
                                       "cards and errata print it where the parameter appears"))
    return problems


def _rounding(rounding: ir.Rounding) -> list[Diagnostic]:
    return rounding_threshold(rounding)[1]


def _nothing(statement: object) -> list[Diagnostic]:
    """A statement with nothing to check by itself (its checks need the whole rulebook or its series)."""
    return []


def _table_names(rulebook: ir.Rulebook) -> list[Diagnostic]:
    problems = []
    seen_tables: dict[str, ir.LookupTable] = {}
    for table in rulebook.tables:
        if table.name.value in seen_tables:
            problems.append(Diagnostic(f"table '{table.name.value}' is defined twice", table.name.span))
        seen_tables.setdefault(table.name.value, table)
    return problems


_ASKED = tuple(str(kind) for kind in ir.ExpectKind)


def _executed_by(rulebook: ir.Rulebook) -> list[Diagnostic]:
    """`executed by retreat`: the rule is the engine's own behaviour at a question examples ask, and a worked
    example of the same rulebook that cites the rule asks it there (the claim is checked, not taken)."""
    problems = []
    asked: dict[str, set[str]] = {}
    for example in rulebook.examples:
        kinds = {str(query.kind) for query in example.situation.expectations}
        for cite in example.cites:
            asked.setdefault(cite.value, set()).update(kinds)
    for rule in rulebook.rules:
        word = rule.executed_by
        if word is None:
            continue
        if word.value not in _ASKED:
            problems.append(Diagnostic(f"no question '{word.value}' an example asks the engine", word.span,
                                       suggest(word.value, _ASKED) or
                                       "the questions are " + ", ".join(_ASKED)))
        elif word.value not in asked.get(rule.id.value, ()):
            problems.append(Diagnostic(f"no worked example citing rule {rule.id.value} asks '{word.value}'",
                                       word.span, f"cite [{rule.id.value}] on an example with an `expect "
                                                  f"{word.value} ...` line that shows the rule at work"))
    return problems


def _rule_ids(rulebook: ir.Rulebook) -> list[Diagnostic]:
    seen: dict[str, ir.Rule] = {}
    out = []
    for rule in rulebook.rules:
        first = seen.get(rule.id.value)
        if first is None:
            seen[rule.id.value] = rule
            continue
        if rule.amend and not first.amend:
            out.append(Diagnostic(f"rule {rule.id.value} is amended in the rulebook that defines it", rule.id.span,
                                  f"change the rule itself (line {first.id.span.line}): amend changes a rule of "
                                  "a rulebook this one extends"))
            continue
        what = "overridden" if rule.override and first.override else "amended" if rule.amend and first.amend \
            else "defined"
        out.append(Diagnostic(f"rule {rule.id.value} is {what} twice in this rulebook", rule.id.span,
                              f"the first is at line {first.id.span.line}; merge the two"))
    return out


# ---- parameters --------------------------------------------------------------
def typed_value(parameter: ir.Parameter, known: Mapping[str, ir.Declared]) -> tuple[object, list[Diagnostic]]:
    """The Python value of a parameter, checked against its declaration in the vocabulary `known`."""
    name, value = parameter.name, parameter.value
    if name.value not in known:
        return None, [unknown_parameter(name, known)]
    ptype = known[name.value].type
    if ptype.kind in ("quantity", "modifier", "count", "number") and isinstance(value, ir.Words) \
            and [w.value for w in value.words] == ["none"]:
        return None, []  # the rule sets no such value (a limit removed, say)

    def wrong(got: str, hint: str | None = None) -> tuple[object, list[Diagnostic]]:
        return None, [Diagnostic(f"{name.value} takes {ptype.describe()}, not {got}", value.span, hint)]

    if ptype.kind in ("quantity", "modifier"):
        if not isinstance(value, ir.Quantity):
            return wrong(_shown(value))
        if value.unit is None:
            return wrong("a bare number", f"values carry units: write "
                                          f"'{unit_text(_number(value.amount, ptype.kind == 'modifier'), ptype.unit)}'")
        unit = UNIT_SPELLINGS.get(value.unit.value)
        if unit is None:
            return None, [Diagnostic(f"unknown unit '{value.unit.value}'", value.unit.span,
                                     suggest(value.unit.value, UNIT_SPELLINGS))]
        if unit != ptype.unit:
            return None, [Diagnostic(f"{name.value} is measured in {_plural(ptype.unit or unit)}, not {_plural(unit)}",
                                     value.unit.span, f"write '{_right_unit(value.amount, ptype)}'")]
        if ptype.kind == "modifier" and not value.signed:
            return wrong(f"'{_number(value.amount, False)} {unit}'",
                         f"it adds to another cost: write '+{_number(value.amount, False)} {unit}'")
        if ptype.kind == "quantity" and value.signed:
            return wrong("a signed change", f"write '{_number(abs(value.amount), False)} {unit}'")
        most = QUANTITY_LIMITS.get(unit)
        if most is not None and abs(value.amount) > most[0]:
            return None, [Diagnostic(f"{name.value} is {_number(abs(value.amount), False)} {_plural(unit)}, more than "
                                     f"the {most[0]:,} {most[1]} may be", value.span,
                                     f"the limit is far beyond any printed rule ({most[2]} in limits.py)")]
        from rulesdsl.runtime.model import Quantity
        return Quantity(value.amount, unit, value.signed), []
    if ptype.kind in ("count", "number"):
        if not isinstance(value, ir.Quantity) or value.unit is not None or value.signed:
            return wrong(_shown(value))
        if ptype.kind == "count":
            if value.amount.denominator != 1 or value.amount < 0:
                return wrong(_shown(value))
            return int(value.amount), []
        return value.amount, []
    words = value.words if isinstance(value, ir.Words) else ()
    if ptype.kind == "order":
        if not words:
            return wrong(_shown(value))
        out = []
        for word in words:
            if word.value not in ptype.options:
                out.append(Diagnostic(f"'{word.value}' is not one of {', '.join(ptype.options)}", word.span,
                                      suggest(word.value, ptype.options)))
        return tuple(w.value for w in words), out
    if len(words) != 1:
        return wrong(_shown(value))
    choice = words[0].value
    if ptype.kind == "flag":
        if choice not in ("yes", "no"):
            return wrong(f"'{choice}'")
        return choice == "yes", []
    if ptype.kind == "choice":
        if choice not in ptype.options:
            return wrong(f"'{choice}'", suggest(choice, ptype.options))
        return choice, []
    if ptype.kind == "result":
        # a result is checked against the codes in effect, which may be the series's: resolve.result_parameter
        return choice, []
    raise AssertionError(ptype.kind)


# the largest amount a parameter in each unit may give (limits.py): what it is, and the constant's name
QUANTITY_LIMITS: dict[str, tuple[int, str, str]] = {
    "hex": (MAX_DISTANCE_HEXES, "a distance", "MAX_DISTANCE_HEXES"),
    "MP": (MAX_MOVEMENT_POINTS, "a cost or an allowance", "MAX_MOVEMENT_POINTS"),
}


# a parameter's value is a word: '-', which a CRT cell may hold, does not parse here
PARAMETER_RESULT_HINT = ("a result is one word: A# (attacker steps), D# (defender steps), r# after a side "
                          "(retreat hexes), A1D1, NE for no effect, or leftmost (below the table: its left-most "
                          "column) or rightmost (above it: its right-most column)")


def _right_unit(amount: Fraction, ptype: ir.ParamType) -> str:
    """The value in the parameter's unit, signed when the parameter is a change (+2 MP)."""
    modifier = ptype.kind == "modifier"
    return unit_text(_number(amount if modifier else abs(amount), modifier), ptype.unit)


def _plural(unit: str) -> str:
    return PLURALS.get(unit, unit)


def _number(amount: Fraction, signed: bool) -> str:
    text = str(amount)
    return ("+" + text if amount >= 0 else text) if signed else text


def _shown(value: ir.Value) -> str:
    if isinstance(value, ir.Quantity):
        unit = f" {value.unit.value}" if value.unit else ""
        return f"'{_number(value.amount, value.signed)}{unit}'"
    if isinstance(value, ir.Words):
        return "'" + ", ".join(w.value for w in value.words) + "'"
    return "a quoted string"


# ---- rounding ---------------------------------------------------------------
def rounding_threshold(rounding: ir.Rounding) -> tuple[Fraction | None, list[Diagnostic]]:
    """`.50 up` -> 1/2: fractions from .50 round up; `down` -> 1; `up` -> 0."""
    threshold, out = None, []
    for clause in rounding.spec:
        words = clause.value.split()
        if words in (["keep", "fractions"], ["odds", "favour", "defender"]):
            continue
        if words in (["down"], ["up"]):
            found = Fraction(1 if words == ["down"] else 0)
        elif len(words) == 2 and words[1] == "up":
            try:
                found = Fraction(words[0])
            except ValueError:
                found = None
            if found is None or not 0 < found < 1:
                out.append(Diagnostic("rounding threshold must be a fraction between 0 and 1, like .50", clause.span))
                continue
        else:
            out.append(Diagnostic(f"unknown rounding clause '{clause.value}'", clause.span,
                                  "write '.50 up' (fractions from one half up), 'down', 'up', 'keep fractions', "
                                  "or 'odds favour defender'"))
            continue
        if threshold is not None:
            out.append(Diagnostic("rounding says twice where to round", clause.span))
        threshold = found
    if threshold is None and not out:
        out.append(Diagnostic(f"rounding '{rounding.name.value}' does not say where to round", rounding.span,
                              "add a clause such as '.50 up'"))
    return threshold, out


def favours_defender(rounding: ir.Rounding) -> bool:
    return any(c.value.split() == ["odds", "favour", "defender"] for c in rounding.spec)


# ---- labels --------------------------------------------------------------------
LANGUAGES = {"en": "English", "fr": "Français"}


def _labels(rulebook: ir.Rulebook) -> list[Diagnostic]:
    out = []
    if rulebook.kind.value == "labels":
        if rulebook.extends is not None:
            out.append(Diagnostic("a labels file extends nothing: its labels serve every rulebook",
                                  rulebook.extends.span))
        for node in rulebook.statements():
            if not isinstance(node, ir.Labels):
                out.append(Diagnostic("a labels file holds only 'labels' blocks", node.span))
    seen_langs: dict[str, ir.Labels] = {}
    for block in rulebook.labels:
        if block.lang.value not in LANGUAGES:
            out.append(Diagnostic(f"unknown language '{block.lang.value}'", block.lang.span,
                                  "the chart languages are " + ", ".join(sorted(LANGUAGES))))
        if block.lang.value in seen_langs:
            out.append(Diagnostic(f"two 'labels {block.lang.value}' blocks in one rulebook", block.lang.span,
                                  f"the first is at line {seen_langs[block.lang.value].span.line}"))
        seen_langs.setdefault(block.lang.value, block)
        keys: dict[str, ir.Text] = {}
        for key, value in block.labels:
            if key.value in keys:
                out.append(Diagnostic(f"label '{key.value}' is given twice", key.span,
                                      f"the first is at line {keys[key.value].span.line}"))
            keys.setdefault(key.value, key)
            if not value.value.strip():
                out.append(Diagnostic(f"label '{key.value}' is empty", value.span))
    return out


# ---- unit types, modifiers, shifts ---------------------------------------------
def _unit_types(rulebook: ir.Rulebook) -> list[Diagnostic]:
    out = []
    types: dict[str, ir.UnitType] = {}
    for block in rulebook.unit_types:
        for unit_type in block.types:
            if unit_type.name.value in types:
                out.append(Diagnostic(f"unit type '{unit_type.name.value}' is declared twice", unit_type.name.span,
                                      f"the first is at line {types[unit_type.name.value].span.line}"))
            types.setdefault(unit_type.name.value, unit_type)
    return out


def _modifiers(block: ir.Modifiers) -> list[Diagnostic]:
    out = []
    if block.cap is not None and block.cap <= 0:
        out.append(Diagnostic("a DRM cap must be more than zero", block.span))
    seen: dict[str, ir.Modifier] = {}
    for modifier in block.modifiers:
        if modifier.name.value in seen:
            out.append(Diagnostic(f"die roll modifier '{modifier.name.value}' appears twice", modifier.name.span))
        seen.setdefault(modifier.name.value, modifier)
        if modifier.value == 0:
            out.append(Diagnostic("a die roll modifier of 0 changes nothing", modifier.span))
    return out


def _shifts(block: ir.Shifts) -> list[Diagnostic]:
    out = []
    seen_shift: dict[str, ir.Shift] = {}
    for shift in block.shifts:
        if shift.source.value in seen_shift:
            out.append(Diagnostic(f"column shift source '{shift.source.value}' appears twice", shift.source.span,
                                  "give each source one line, with its maximum"))
        seen_shift.setdefault(shift.source.value, shift)
        reads = [n for n in walk(shift.amount) if isinstance(n, ir.Name) and n.path == "defender_terrain.shift"]
        if reads:
            out.append(Diagnostic(
                "the combat engine applies the Terrain Effects Chart's shift for the defender's terrain itself: "
                f"column shift '{shift.source.value}' would apply it twice", reads[0].span,
                "keep the shift in the Terrain Effects Chart only and remove this line"))
        needs_max = not isinstance(shift.amount, ir.Number) and not (
            isinstance(shift.amount, ir.Unary) and isinstance(shift.amount.operand, ir.Number))
        if shift.maximum is None and needs_max and not _is_terrain_shift(shift.amount):
            out.append(Diagnostic(f"column shift source '{shift.source.value}' has no maximum", shift.source.span,
                                  "a source whose amount varies says how far it can shift: add 'max N'"))
        if shift.maximum is not None and shift.maximum <= 0:
            out.append(Diagnostic("a shift maximum must be more than zero", shift.span))
    return out


def _named_once(what: str, names: list[ir.Text]) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    seen: dict[str, ir.Text] = {}
    for name in names:
        if name.value in seen:
            out.append(Diagnostic(f"{what} '{name.value}' appears twice", name.span,
                                  f"the first is at line {seen[name.value].span.line}"))
        seen.setdefault(name.value, name)
    return out


def _adjustments(block: ir.Adjustments) -> list[Diagnostic]:
    return _named_once("result adjustment", [a.name for a in block.adjustments])


def _unit_factors(block: ir.UnitFactors) -> list[Diagnostic]:
    return _named_once("strength factor", [f.name for f in block.factors])


def _is_terrain_shift(expr: ir.Expr) -> bool:
    """The TEC's own shift cells are bounded by the chart itself."""
    return isinstance(expr, ir.Name) and expr.path.endswith("terrain.shift")


# ---- sequence of play -------------------------------------------------------
def turns_problems(turns: tuple[ir.Text, ...], what: str) -> list[Diagnostic]:
    """Game turns as written (`turns night 3 6 9 12`, `on turns 2+`): each a turn from 1, a range that runs
    forwards, or a turn and every later one (11+); no turn twice in `what`."""
    out = []
    seen: list[tuple[int, int | None, ir.Text]] = []
    for text in turns:
        written = text.value
        span = parse_turns(written)
        if span is None:
            if written.endswith("-"):
                start = written[:-1]
                out.append(Diagnostic(f"'{written}' is no range of game turns: a range has both ends", text.span,
                                      f"write '{start}+' for turn {start} and every later one, or "
                                      f"'1-{start}' for the turns up to {start}"))
            elif re.fullmatch(r"0+(?:[-+].*)?", written) or re.fullmatch(r"[0-9]+-0+", written):
                out.append(Diagnostic(f"'{written}' names turn 0: game turns count from 1", text.span,
                                      "the first game turn is turn 1"))
            elif re.fullmatch(r"[0-9]+-[0-9]+", written):
                low, high = written.split("-")
                out.append(Diagnostic(f"the turns '{written}' run backwards", text.span,
                                      f"write the first turn first: {int(high)}-{int(low)}"))
            else:
                out.append(Diagnostic(f"'{written}' is not a game turn", text.span,
                                      "write a turn (3), a range (5-8), or a turn and every later one (11+)"))
            continue
        first, last = span
        end = last if last is not None else float("inf")
        clash = next((other for a, b, other in seen
                      if max(a, first) <= min(b if b is not None else float("inf"), end)), None)
        if clash is not None:
            out.append(Diagnostic(f"'{written}' repeats a turn of '{clash.value}' in {what}", text.span,
                                  f"'{clash.value}' is at column {clash.span.column}; list each turn once"))
        seen.append((first, last, text))
    return out


def undeclared_turn_set(turns: ir.PhaseTurns, phase: str, declared: Collection[str]) -> Diagnostic | None:
    """`not on night` where the sequence of play declares no turn set 'night'."""
    if turns.set is None or turns.set.value in declared:
        return None
    name = turns.set.value
    return Diagnostic(f"phase '{phase}' names the turn set '{name}', which the sequence of play does not declare",
                      turns.set.span,
                      suggest(name, declared) or
                      (f"the turn sets are {', '.join(repr(d) for d in declared)}; or declare it: "
                       f"turns {name} 3 6 9" if declared else
                       f"declare it in the sequence of play, before the turns: turns {name} 3 6 9"))


def _turn_sets(sequence: ir.SequenceOfPlay) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    declared: dict[str, ir.TurnSet] = {}
    for turn_set in sequence.turn_sets:
        first = declared.get(turn_set.name.value)
        if first is not None:
            out.append(Diagnostic(f"turn set '{turn_set.name.value}' is declared twice", turn_set.name.span,
                                  f"the first is at line {first.span.line}"))
        declared.setdefault(turn_set.name.value, turn_set)
        out += turns_problems(turn_set.turns, f"turn set '{turn_set.name.value}'")
    for block in sequence.blocks:
        for item in block.items:
            if not isinstance(item, ir.Phase) or item.turns is None:
                continue
            out += turns_problems(item.turns.turns, f"the turns of phase '{item.name.value}'")
            missing = None if sequence.amend else undeclared_turn_set(item.turns, item.name.value, declared)
            if missing is not None:     # an amendment's phase may name a set of the inherited sequence (resolve)
                out.append(missing)
    return out


def _sequence(sequence: ir.SequenceOfPlay) -> list[Diagnostic]:
    out = _turn_sets(sequence)
    kinds: dict[str, ir.TurnBlock] = {}
    sides: dict[str, ir.TurnBlock] = {}      # `player turn german { ... }`, by side
    for block in sequence.blocks:
        if block.side is not None:
            first_side = sides.get(block.side.value)
            if first_side is not None:
                out.append(Diagnostic(f"two 'player turn {block.side.value}' blocks in one sequence of play",
                                      block.side.span, f"the first is at line {first_side.span.line}"))
                continue
            sides[block.side.value] = block
        elif block.kind.value in kinds:
            out.append(Diagnostic(f"two '{block.kind.value} turn' blocks in one sequence of play", block.kind.span,
                                  f"the first is at line {kinds[block.kind.value].span.line}"))
            continue
        else:
            kinds[block.kind.value] = block
        where = (f"the player turn of '{block.side.value}'" if block.side is not None
                 else f"one {block.kind.value} turn")
        names: dict[str, ir.Phase | ir.PlayerTurnSlot] = {}
        for item in block.items:
            if isinstance(item, ir.PlayerTurnSlot) and sequence.amend:
                out.append(Diagnostic("an amendment of the sequence of play changes phases, not player turns",
                                      item.span, "a new order of player turns needs the whole sequence, "
                                                 "restated as an override"))
                continue
            if isinstance(item, ir.PlayerTurnSlot) and block.kind.value == "player":
                out.append(Diagnostic("a player turn cannot contain a player turn", item.span))
                continue
            first = names.get(item.name.value)
            if first is not None:
                noun = "phase" if isinstance(item, ir.Phase) else "player turn"
                out.append(Diagnostic(f"{noun} '{item.name.value}' appears twice in {where}",
                                      item.name.span, f"the first is at line {first.span.line}"))
            names.setdefault(item.name.value, item)
            if isinstance(item, ir.Phase):
                for activity in item.activities:
                    if activity.value not in ACTIVITIES:
                        out.append(Diagnostic(f"unknown activity '{activity.value}'", activity.span,
                                              suggest(activity.value, ACTIVITIES)))
    game = kinds.get("game")
    if sides:
        # the sides play different phases: each slot of the game turn names a side, each side plays
        shared = kinds.get("player")
        if shared is not None:
            out.append(Diagnostic("a shared 'player turn' block beside per-side player turns", shared.kind.span,
                                  "each side's phases go in its own 'player turn <side>' block, one per side"))
        slots = [i for i in game.items if isinstance(i, ir.PlayerTurnSlot)] if game is not None else []
        unknown = [slot for slot in slots if slot.name.value not in sides]
        for slot in unknown:
            out.append(Diagnostic(f"the game turn runs the player turn of '{slot.name.value}', which no "
                                  f"'player turn {slot.name.value}' block declares", slot.name.span,
                                  suggest(slot.name.value, sides) or
                                  "the sides are " + ", ".join(f"'{s}'" for s in sides)))
        if game is not None and not unknown:    # a misspelt side is reported once, at the slot
            played = {slot.name.value for slot in slots}
            for side in sides:
                if side not in played:
                    out.append(Diagnostic(f"the game turn never runs the player turn of '{side}'", game.kind.span,
                                          f"add a line such as 'player turn {side}'"))
        return out
    if "player" in kinds and game is not None and not sequence.amend:
        if not any(isinstance(i, ir.PlayerTurnSlot) for i in game.items):
            out.append(Diagnostic("the game turn never runs the player turn", game.kind.span,
                                  "add a line such as 'player turn first'"))
    if "player" not in kinds and not sequence.amend:
        out.append(Diagnostic("sequence of play has no 'player turn' block", sequence.span))
    return out


# ---- terrain effects chart ------------------------------------------------
def _terrain(chart: ir.TerrainChart) -> list[Diagnostic]:
    """A terrain effects chart's problems: a terrain twice, a misplaced single cell, each row's cells, and a
    chart with no hex terrain."""
    out = []
    rows: dict[str, ir.TerrainRow] = {}
    for row in chart.rows:
        key = row.name.value.lower()
        if key in rows:
            out.append(Diagnostic(f"terrain '{row.name.value}' appears twice on the chart", row.name.span,
                                  f"the first is at line {rows[key].span.line}"))
        rows.setdefault(key, row)
    out += _terrain_cells(chart, rows)
    for row in (*chart.rows, *(_as_row(cell) for cell in chart.cells)):
        out += _terrain_row(row, chart, rows)
    if chart.rows and not chart.amend and not any(r.kind == "hex" for r in chart.rows):
        out.append(Diagnostic("terrain effects chart has no hex terrain", chart.span, "add rows under 'hex:'"))
    return out


def _terrain_row(row: ir.TerrainRow, chart: ir.TerrainChart, rows: dict[str, ir.TerrainRow]) -> list[Diagnostic]:
    """One row's problems (or an amended cell's, as a row), in the order of its cells: a row needs a
    heading above it, then its combat cell's repeated effects, its movement cell, its ZOC effects, a
    road's costs and its combat cell."""
    if row.kind is None:
        return [Diagnostic("terrain row before any heading", row.span,
                           hint="put the row under 'hex:', 'hexside:' or 'roads:'")]
    return [*_repeated_effects(row.combat), *_negation(row, chart, rows), *_movement_cost(row),
            *_zoc_effects(row), *_road_movement(row, chart, rows), *_combat_effect(row)]


def _repeated_effects(combat: ir.CombatCell) -> list[Diagnostic]:
    """A combat cell that gives one effect twice: two shifts, two DRMs or two multipliers of one side."""
    out = []
    for token in combat.repeated:
        if token.value.endswith(("L", "R")):
            out.append(Diagnostic("two column shifts in one cell", token.span))
        elif token.value.startswith(("+", "-")):
            out.append(Diagnostic("two die roll modifiers in one cell", token.span,
                                  hint="sum them into one (-1 and -1 make -2)"))
        else:
            key = "attacker" if token.value.startswith("A") else "defender"
            out.append(Diagnostic(f"two {key} multipliers in one cell", token.span,
                                  hint="multiply them into one (x2 and x1/2 make x1)"))
    return out


def _negation(row: ir.TerrainRow, chart: ir.TerrainChart, rows: dict[str, ir.TerrainRow]) -> list[Diagnostic]:
    """`negates river`: the terrain negated is a hexside feature of this chart, and not the row itself (an
    amendment may negate an inherited terrain: resolve checks it on the chart in effect)."""
    move = row.movement
    if move.kind != "negates" or move.target is None:
        return []
    negated = move.target
    target = rows.get(negated.value.lower())
    if target is None and chart.amend:
        return []
    if target is None:
        return [Diagnostic(f"unknown terrain '{negated.value}'", negated.span,
                           suggest(negated.value, rows) or "negate a terrain listed on this chart")]
    if target.kind != "hexside":
        return [Diagnostic(f"'{row.name.value}' can only negate a hexside feature; "
                           f"'{target.name.value}' is {target.kind} terrain", negated.span)]
    if target is row:
        return [Diagnostic(f"'{row.name.value}' negates itself", negated.span)]
    return []


def _movement_cost(row: ir.TerrainRow) -> list[Diagnostic]:
    """A movement cell's cost where its kind of terrain allows it: an added cost on a hexside only, costs
    above zero, road-like on a road, and no road that stops a move."""
    move = row.movement
    out = []
    amount = move.amount if move.amount is not None else Fraction(0)
    if move.kind == "add" and row.kind != "hexside":
        out.append(Diagnostic(f"an added cost (+N) belongs to a hexside feature, not {row.kind} terrain",
                              move.span, f"give {row.kind} terrain its full cost, like 2"))
    if move.kind == "add" and amount <= 0:
        out.append(Diagnostic("an added cost must be more than zero", move.span))
    if move.kind == "cost" and amount <= 0 and row.kind != "hexside":
        out.append(Diagnostic("a movement cost must be more than zero", move.span, "use P for prohibited terrain"))
    if move.kind == "road-like" and row.kind != "road":
        out.append(Diagnostic("'road-like' belongs under 'roads:'", move.span))
    if row.kind == "road" and move.stop:
        out.append(Diagnostic("a road does not stop a move: 'stop' belongs to hex terrain or a hexside feature",
                              move.span, "put 'stop' on the terrain the road runs through"))
    return out


def _zoc_effects(row: ir.TerrainRow) -> list[Diagnostic]:
    """`no-zoc` on hex terrain or a hexside feature only, `exerts-no-zoc` on hex terrain only."""
    out = []
    if row.kind == "road" and row.no_zoc:
        out.append(Diagnostic("'no-zoc' belongs to hex terrain or a hexside feature, not a road", row.name.span,
                              "put 'no-zoc' on the terrain a ZOC does not extend into, or the hexside it does "
                              "not cross"))
    if row.kind != "hex" and row.exerts_no_zoc:
        where = "a hexside feature" if row.kind == "hexside" else "a road"
        out.append(Diagnostic(f"'exerts-no-zoc' is a hex effect, not one of {where}: it says a unit in a hex "
                              "of that terrain exerts no ZOC", row.name.span,
                              "put 'exerts-no-zoc' on the hex terrain, a fortress, whose units exert no ZOC"
                              + ("; 'no-zoc' keeps a ZOC from crossing a hexside" if row.kind == "hexside"
                                 else "")))
    return out


def _road_movement(row: ir.TerrainRow, chart: ir.TerrainChart, rows: dict[str, ir.TerrainRow]) -> list[Diagnostic]:
    """A cost by terrain or `lower` on a road only, a road's costs by terrain (not an amendment's: its
    terrains are those of the chart in effect, which resolve checks), and a road's cell a cost or
    road-like."""
    move = row.movement
    out = []
    if (move.by_terrain or move.lower) and row.kind != "road":
        form = "a cost by terrain" if move.by_terrain else "'lower'"
        out.append(Diagnostic(f"{form} belongs to a road, under 'roads:'", move.span,
                              f"give {row.kind} terrain one cost, like 2"))
    elif not chart.amend:
        out += road_cost_problems(row.name.value, move, rows)
    if row.kind == "road" and move.kind not in ("cost", "road-like"):
        out.append(Diagnostic("a road's movement cell is its cost along the road (like 1/2) or road-like",
                              move.span))
    return out


def _combat_effect(row: ir.TerrainRow) -> list[Diagnostic]:
    """A combat cell's `all-across` on a hexside's shift, DRM or defender multiplier only, and its
    multipliers above zero."""
    combat = row.combat
    out = []
    if combat.across == "all-across" and row.kind != "hexside":
        out.append(Diagnostic(f"'all-across' belongs to a hexside feature, not {row.kind} terrain",
                              combat.span, "a hex's combat effect applies to every attack into it"))
    elif combat.across == "all-across" and combat.attacker is not None:
        out.append(Diagnostic("'all-across' qualifies a column shift, a DRM or a defender multiplier, not "
                              "an attacker multiplier (which applies to each attacking hex that crosses)",
                              combat.span, "a hexside's multiplier applies to each attacking hex that crosses it; "
                              "drop 'all-across' or the multiplier"))
    if combat.kind == "multiply":
        for factor in (combat.attacker, combat.defender):
            if factor is not None and factor <= 0:
                out.append(Diagnostic("a combat multiplier must be more than zero", combat.span,
                                      "use P where combat is prohibited"))
    return out


def road_cost_problems(road: str, move: ir.MovementCell, rows: Mapping[str, ir.TerrainRow]) -> list[Diagnostic]:
    """A road's cost by terrain (`trail  1, forest 2`): each a hex terrain of the chart `rows`, once, above zero."""
    out = []
    seen: set[str] = set()
    for cost in move.by_terrain:
        name = cost.terrain.value
        target = rows.get(name.lower())
        if target is None:
            out.append(Diagnostic(f"unknown terrain '{name}'", cost.terrain.span,
                                  suggest(name, rows) or "name a hex terrain listed on this chart"))
        elif target.kind != "hex":
            out.append(Diagnostic(f"'{road}' costs by the terrain of the hex entered; '{target.name.value}' is "
                                  f"{target.kind} terrain", cost.terrain.span, "name a terrain listed under 'hex:'"))
        elif name.lower() in seen:
            out.append(Diagnostic(f"'{name}' is given twice in the cost of '{road}'", cost.terrain.span))
        if cost.amount <= 0:
            out.append(Diagnostic("a road's cost must be more than zero", cost.span))
        seen.add(name.lower())
    return out


def _terrain_cells(chart: ir.TerrainChart, rows: dict[str, ir.TerrainRow]) -> list[Diagnostic]:
    """`woods  combat 2L`: a single cell amends an inherited row, once, and only in an amendment."""
    out = []
    seen: dict[tuple[str, str], ir.TerrainCell] = {}
    for cell in chart.cells:
        column = "movement" if cell.movement is not None else "combat"
        if not chart.amend:
            out.append(Diagnostic(f"a single {column} cell for '{cell.name.value}' belongs to an amendment",
                                  cell.span, "give the row both cells (movement cost, then combat effect), or "
                                             "change an inherited row in 'amend terrain effects chart'"))
            continue
        key = cell.name.value.lower()
        first: ir.TerrainRow | ir.TerrainCell | None = rows.get(key) or seen.get((key, column))
        if first is not None:
            out.append(Diagnostic(f"the {column} of terrain '{cell.name.value}' is amended twice", cell.name.span,
                                  f"the first is at line {first.span.line}; keep one"))
        seen.setdefault((key, column), cell)
    return out


def _as_row(cell: ir.TerrainCell) -> ir.TerrainRow:
    """A single cell as a row whose other cell says nothing, for the checks of one cell."""
    return ir.TerrainRow(span=cell.span, kind=cell.kind, name=cell.name, level=None, line=None,
                         movement=cell.movement or ir.MovementCell(kind=ir.MoveKind.COST, amount=Fraction(1),
                                                                   target=None),
                         combat=cell.combat or ir.CombatCell(kind=ir.CombatKind.NONE, attacker=None, shift=0,
                                                             repeated=()))


# ---- combat results table ---------------------------------------------------
def _results(table: ir.ResultsTable, codes: ir.ResultCodes | None = None, cells: bool = True) -> list[Diagnostic]:
    """The table by itself; with `cells`, its cells read in `codes` (the rulebook's own declaration, or
    none: the table's notation)."""
    if table.amend:
        return _results_amendment(table)
    wide = _too_wide(table.columns, table.columns[MAX_TABLE_COLUMNS].span if len(table.columns) > MAX_TABLE_COLUMNS
                     else table.span, "a combat results table")
    if wide is not None:
        return [wide]
    out = []
    notation = table.notation.value if table.notation else "steps-first"
    if notation not in NOTATIONS and table.notation is not None:
        out.append(Diagnostic(f"unknown result notation '{notation}'", table.notation.span,
                              suggest(notation, NOTATIONS) or "the notations are " + ", ".join(NOTATIONS)))
        notation = "steps-first"
    read = result_codes.reader(codes, table) if cells else None
    hint = (lambda text: result_codes.cell_hint(codes, result_codes.family(codes, table), RESULT_HINTS, text))
    seen_sides: dict[str, ir.TableSide] = {}
    for block in table.sides:
        side = block.side
        if side.value not in ("attacker", "defender"):
            out.append(Diagnostic(f"a table has an attacker side and a defender side, not a {side.value} side",
                                  side.span))
        elif side.value in seen_sides:
            out.append(Diagnostic(f"two '{side.value} side' blocks", side.span))
        elif side.value == "attacker" and block.strengths is None:
            out.append(Diagnostic("the attacker side is read by total defense strength: "
                                  "its header is a 'defense' row, like: defense 1-4 5-8 9+", side.span))
        elif side.value == "defender" and block.odds is None:
            out.append(Diagnostic("the defender side is read by odds: its header is an 'odds' row", side.span))
        seen_sides.setdefault(side.value, block)
    if table.sides and {s.side.value for s in table.sides} != {"attacker", "defender"}:
        have = table.sides[0].side
        missing = "attacker" if have.value == "defender" else "defender"
        out.append(Diagnostic(f"dual-sided table has no {missing} side", table.dice.span,
                              "a dual-sided table reads defender results by odds and attacker losses by "
                              "total defense strength: give it both 'defender side' and 'attacker side'"))
    out += _odds_lines(table)
    if table.lines:  # a dual-sided table without its defender side has nothing here to check
        out += _dice_rows(table.dice, table.rows, len(table.columns), read, hint, "odds")
    if table.attacker is not None:
        out += _strength_columns(table.attacker.columns)
        out += _dice_rows(table.dice, table.attacker.rows, len(table.attacker.columns), read, hint, "strength")
    return out


def _results_amendment(table: ir.ResultsTable) -> list[Diagnostic]:
    """An amendment's shape: one odds row, each column once, each roll once, one cell per column. What its
    columns, rolls and results mean is checked against the table it amends (resolve)."""
    out = []
    lines = table.lines
    for line in lines[1:]:
        out.append(Diagnostic("an amendment of the combat results table has one odds row", line.span,
                              "amend the cells of another odds row in a block of their own"
                              if len(lines) == 1 else "list every column it changes on the first odds row"))
    seen: dict[str, ir.Text] = {}
    for column in lines[0].columns if lines else ():
        if column.value in seen:
            out.append(Diagnostic(f"column {column.value} is amended twice", column.span,
                                  f"the first is at line {seen[column.value].span.line}; keep one"))
        seen.setdefault(column.value, column)
    rolls: dict[str, ir.DiceRow] = {}
    width = len(table.columns)
    for row in table.rows:
        if row.label.value in rolls:
            out.append(Diagnostic(f"roll {row.label.value} is amended twice", row.label.span,
                                  f"the first is at line {rolls[row.label.value].span.line}; keep one"))
        rolls.setdefault(row.label.value, row)
        if len(row.cells) != width:
            span = row.cells[width].span if len(row.cells) > width else row.cells[-1].span
            cells = "1 cell" if len(row.cells) == 1 else f"{len(row.cells)} cells"
            out.append(Diagnostic(f"dice row {row.label.value} has {cells} for {width} amended "
                                  f"column{'s' if width != 1 else ''}", span,
                                  "one result per column of the amendment's odds row, in its order"))
    if not table.rows:
        out.append(Diagnostic("an amendment of the combat results table changes no cell", table.span,
                              "add a dice row under the odds row: the roll, then a result per column"))
    return out


def _odds_lines(table: ir.ResultsTable) -> list[Diagnostic]:
    out = []
    named = [(line.name, line) for line in table.lines if line.name is not None]
    if len(table.lines) > 1 and len(named) != len(table.lines):
        unnamed = next(line for line in table.lines if line.name is None)
        word, example = (("difference", "'difference open -3..-2 -1..0 ...', 'difference close -1..0 +1..+2 ...'")
                         if table.differential else ("odds", "'odds open 1:2 1:1 ...', 'odds close 1:1 2:1 ...'"))
        out.append(Diagnostic(f"a table with several {word} rows names the terrain line each serves",
                              unnamed.span, f"write {example}"))
    seen: dict[str, ir.OddsLine] = {}
    for name, line in named:
        if name.value in seen:
            word = "difference" if table.differential else "odds"
            out.append(Diagnostic(f"{word} line '{name.value}' appears twice", name.span,
                                  f"the first is at line {seen[name.value].span.line}"))
        seen.setdefault(name.value, line)
    for line in table.lines:
        if len(line.columns) != len(table.columns):
            out.append(Diagnostic(f"this odds row has {len(line.columns)} columns, the first has {len(table.columns)}",
                                  line.span, "every terrain line has one odds column per result column"))
        if line.differential != table.differential:
            out.append(Diagnostic("a table's columns are all odds or all differences", line.span,
                                  f"write this row as {'a difference' if table.differential else 'an odds'} row, "
                                  "like the first"))
            continue
        if line.differential:
            out += _difference_columns(line.columns)
            continue
        ratios: list[tuple[Fraction, str]] = []
        for column in line.columns:
            odds = parse_odds(column.value)
            if odds is None:
                out.append(Diagnostic(f"'{column.value}' is not an odds column", column.span,
                                      "columns are ratios with both sides above zero, like 1:2 or 3:1"))
                continue
            ratio = odds[0] / odds[1]
            if ratios and ratio <= ratios[-1][0]:
                out.append(Diagnostic(f"odds columns must increase from left to right; "
                                      f"{column.value} follows {ratios[-1][1]}", column.span))
            ratios.append((ratio, column.value))
    return out


def _difference_columns(columns: tuple[ir.Text, ...]) -> list[Diagnostic]:
    """A differential row's columns: each a range of attack minus defense, in order, each difference in one
    column and none left out; only the first may be open below, only the last open above."""
    out: list[Diagnostic] = []
    previous: tuple[int, int, str] | None = None
    for index, column in enumerate(columns):
        found = parse_difference(column.value)
        if found is None:
            out.append(Diagnostic(f"'{column.value}' is not a difference column", column.span,
                                  "a difference is signed (+2, -3, or 0), a range runs up (-6..-5), and the "
                                  "end columns may be open (..-7, +12..)"))
            previous = None
            continue
        low, high = found
        if low == -OPEN_DIFFERENCE and index > 0:
            out.append(Diagnostic(f"'{column.value}' is open below, but is not the left-most column", column.span,
                                  "only the first column may hold every difference below it"))
        if high == OPEN_DIFFERENCE and index < len(columns) - 1:
            out.append(Diagnostic(f"'{column.value}' is open above, but is not the right-most column", column.span,
                                  "only the last column may hold every difference above it"))
        if previous is not None and low != previous[1] + 1:
            verb = "overlaps" if low <= previous[1] else "leaves a gap after"
            out.append(Diagnostic(f"difference column {column.value} {verb} {previous[2]}", column.span,
                                  "columns cover each difference once, left to right, like: ..-3 -2..-1 0 +1..+2 "
                                  "+3.."))
        previous = (low, high, column.value)
    return out


def _strength_columns(columns: tuple[ir.Text, ...]) -> list[Diagnostic]:
    out, previous = [], None
    for column in columns:
        if column.value.endswith("-"):
            out.append(Diagnostic(f"'{column.value}': strength columns start at a value, like 1-4 or 21+",
                                  column.span))
            continue
        low, high = roll_range(column.value)
        if previous is not None and low != previous + 1:
            out.append(Diagnostic(f"strength column {column.value} does not follow on from the one before",
                                  column.span, "columns cover every strength once, in order: 1-4 5-8 9+"))
        if low > high:
            out.append(Diagnostic(f"'{column.value}' runs backwards", column.span))
        previous = high
    return out


def result_cells(rows: tuple[ir.DiceRow, ...], read: Callable[[str], object],
                 hint: Callable[[str], str]) -> list[Diagnostic]:
    """Every cell that reads as no result, or as a retreat longer than a retreat may be."""
    out = []
    for row in rows:
        for cell in row.cells:
            result = read(cell.value)
            if result is None:
                out.append(Diagnostic(f"'{cell.value}' is not a combat result", cell.span, hint(cell.value)))
                continue
            longest = max(getattr(result, "attacker_retreat", 0), getattr(result, "defender_retreat", 0))
            if isinstance(longest, int) and longest > MAX_RETREAT_HEXES:
                out.append(Diagnostic(f"'{cell.value}' retreats {longest} hexes, more than the {MAX_RETREAT_HEXES} "
                                      "a retreat may be", cell.span,
                                      "printed results retreat at most 4 or 5 (MAX_RETREAT_HEXES in limits.py)"))
    return out


def _dice_rows(dice: ir.Text, rows: tuple[ir.DiceRow, ...], width: int, read: Callable[[str], object] | None,
               hint: Callable[[str], str], what: str) -> list[Diagnostic]:
    out = []
    outcomes = DICE_OUTCOMES.get(dice.value)
    covered: dict[int, ir.DiceRow] = {}
    spans: list[tuple[int, int, ir.DiceRow]] = []
    for index, row in enumerate(rows):
        if len(row.cells) != width:
            more = len(row.cells) > width
            span = row.cells[width].span if more else row.cells[-1].span
            cells = "1 cell" if len(row.cells) == 1 else f"{len(row.cells)} cells"
            noun = "odds columns" if what == "odds" else "strength columns"
            out.append(Diagnostic(f"dice row {row.label.value} has {cells} for {width} {noun}",
                                  span, "one result per column, in the order of the header row"))
        if read is not None:
            out += result_cells((row,), read, hint)
        label = row.label.value
        low, high = roll_range(label)
        named = [low] if label.endswith("+") else [high] if label.endswith("-") else [low, high]
        if any(abs(end) > MAX_DICE_ROLL for end in named):
            largest = max(named, key=abs)
            out.append(Diagnostic(f"dice row {label} names roll {largest}, beyond the {MAX_DICE_ROLL} a dice row "
                                  "may name", row.label.span,
                                  f"dice rolls are small numbers (MAX_DICE_ROLL in limits.py); for every roll "
                                  f"from one on, write an open-ended row like {min(named, key=abs)}+"))
            continue
        if outcomes is None:
            continue
        if label.endswith("-") and index != 0 or label.endswith("+") and index != len(rows) - 1:
            out.append(Diagnostic(f"an open-ended row ({label}) must be the {'first' if label.endswith('-') else 'last'} row",
                                  row.label.span))
        if low > high:
            out.append(Diagnostic(f"{label} runs backwards", row.label.span))
            continue
        if not label.endswith(("-", "+")) and (low not in outcomes or high not in outcomes):
            rolls = f"{dice.value} rolls run {outcomes[0]}-{outcomes[-1]}"
            if dice.value == "d66":
                rolls = "d66 reads two dice as tens and units: 11-16, 21-26, ... 61-66"
            out.append(Diagnostic(f"{label} is not a {dice.value} roll", row.label.span, rolls))
            continue
        clash = next((other for lo, hi, other in spans if lo <= high and low <= hi), None)
        if clash is not None:
            overlap = max(low, roll_range(clash.label.value)[0])
            out.append(Diagnostic(f"roll {overlap} has two rows", row.label.span,
                                  f"the first is at line {clash.span.line}"))
            continue
        spans.append((low, high, row))
        for roll in outcomes:
            if low <= roll <= high:
                covered[roll] = row
    if outcomes is not None:
        missing = [r for r in outcomes if r not in covered]
        if missing:
            out.append(Diagnostic(f"no row for roll{'s' if len(missing) > 1 else ''} {_ranges(missing)}",
                                  dice.span, f"a {dice.value} table needs one row for each roll"))
    return out


RESULT_HINTS = {
    "steps-first": "results are A# (attacker steps), D# (defender steps), r# after a side (retreat hexes), "
                   "A1D1, or - for no effect",
    "retreat-first": "results are a side (A, D or B for both), its retreat in hexes, then its step losses in "
                     "parentheses: D2, D2(1), B1(1); - for no effect; a trailing * marks a breakthrough",
}


# ---- lookup tables ---------------------------------------------------------------
def _too_wide(header: tuple[ir.Text, ...], span: Span, what: str) -> Diagnostic | None:
    """A table with more columns than any card prints (limits.MAX_TABLE_COLUMNS)."""
    if len(header) <= MAX_TABLE_COLUMNS:
        return None
    return Diagnostic(f"{what} has {len(header)} columns, more than the {MAX_TABLE_COLUMNS} a card can print",
                      span, "split it into tables of fewer columns")


def _lookup(table: ir.LookupTable) -> list[Diagnostic]:
    out = []
    wide = _too_wide(table.header[1:], table.header[0].span if table.header else table.span, "a table")
    if wide is not None:
        return [wide]
    if len(table.rows) > MAX_TABLE_ROWS:
        return [Diagnostic(f"a table has {len(table.rows)} rows, more than the {MAX_TABLE_ROWS} a card can print",
                           table.rows[MAX_TABLE_ROWS][0].span, "split it into tables of fewer rows")]
    width = len(table.header) - 1
    if width < 1:
        out.append(Diagnostic("a table's first row names its key, then its columns", table.header[0].span,
                              "like: level  1  2-3  4-6"))
        return out
    two_way = "/" in table.header[0].value
    if not two_way and len(table.rows) != 1:
        out.append(Diagnostic(f"table '{table.name.value}' has {len(table.rows)} value rows under a one-key header",
                              table.header[0].span,
                              "a one-key table has one row of values; for rows and columns, name both keys "
                              "in the first cell, like: red-die/soft-units"))
    labels = {}
    for cell in table.header[1:]:
        if cell.value in labels:
            out.append(Diagnostic(f"column '{cell.value}' appears twice", cell.span))
        labels[cell.value] = cell
    for row in table.rows:
        if len(row) - 1 != width:
            out.append(Diagnostic(f"row '{row[0].value}' has {len(row) - 1} values for {width} columns",
                                  row[-1].span))
        for cell in row[1:]:
            if re.fullmatch(r"[+-]?[0-9]+/0+", cell.value):  # a number like any other cell, but none
                out.append(Diagnostic(f"'{cell.value}' divides by zero", cell.span,
                                      "write the fraction with a denominator above 0"))
    return out


def _ranges(rolls: list[int]) -> str:
    parts, start, prev = [], rolls[0], rolls[0]
    for r in rolls[1:] + [None]:
        if r is not None and r == prev + 1:
            prev = r
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if r is not None:
            start = prev = r
    return ", ".join(parts)


_COLOUR = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")


def _card(card: ir.Card) -> list[Diagnostic]:
    """The card block's values by themselves; its swatches' terrains and its charts need the charts in
    effect (resolve)."""
    out = [Diagnostic(f"'{word.value}' is given twice in the card block", word.span, "keep one")
           for word in card.repeated]
    if card.sides is not None and not 1 <= card.sides <= CARD_MAX_SIDES:
        out.append(Diagnostic(f"a card takes 1 to {CARD_MAX_SIDES} sides, not {card.sides}", card.sides_span,
                              "write: sides 2"))
    if card.paper is not None and card.paper.value not in CARD_PAPERS:
        out.append(Diagnostic(f"unknown paper '{card.paper.value}'", card.paper.span,
                              suggest(card.paper.value, CARD_PAPERS) or "the papers are " + ", ".join(CARD_PAPERS)))
    for group, known in (("reminder", CARD_REMINDERS), ("chart", ())):
        seen: dict[str, ir.Text] = {}
        for word in card.reminders if group == "reminder" else card.charts:
            if known and word.value not in known:
                out.append(Diagnostic(f"unknown reminder '{word.value}'", word.span,
                                      suggest(word.value, known) or "the reminders are " + ", ".join(known)))
            elif word.value in seen:
                out.append(Diagnostic(f"{group} '{word.value}' is listed twice", word.span,
                                      f"the first is at line {seen[word.value].span.line}"))
            seen.setdefault(word.value, word)
    swatches: dict[str, ir.Swatch] = {}
    for swatch in card.swatches:
        if swatch.terrain.value in swatches:
            out.append(Diagnostic(f"terrain '{swatch.terrain.value}' has two swatches", swatch.terrain.span,
                                  f"the first is at line {swatches[swatch.terrain.value].span.line}"))
        swatches.setdefault(swatch.terrain.value, swatch)
        if not _COLOUR.fullmatch(swatch.colour.value):
            out.append(Diagnostic(f"'{swatch.colour.value}' is not a colour", swatch.colour.span,
                                  'write it in hex, like "#3a7d44" or "#3a7"'))
        if swatch.pattern is not None and swatch.pattern.value not in CARD_PATTERNS:
            out.append(Diagnostic(f"unknown pattern '{swatch.pattern.value}'", swatch.pattern.span,
                                  suggest(swatch.pattern.value, CARD_PATTERNS)
                                  or "the patterns are " + ", ".join(CARD_PATTERNS)))
    return out


# What each kind of statement is checked for by itself; tests/test_walk.py checks every kind is here.
CHECKS: dict[type, Callable[[Any], list[Diagnostic]]] = {
    ir.Rule: _rule,
    ir.UnitTypes: _nothing,          # names across blocks: _unit_types
    ir.Vocabulary: _nothing,         # clashes with other names need the series: resolve
    ir.ParameterDeclarations: _declarations,   # names declared twice along the chain: catalogue.vocabulary
    ir.Modifiers: _modifiers,
    ir.Shifts: _shifts,
    ir.Adjustments: _adjustments,
    ir.UnitFactors: _unit_factors,
    ir.Rounding: _rounding,
    ir.SequenceOfPlay: _sequence,
    ir.TerrainChart: _terrain,
    ir.ResultsTable: _results,       # read in the rulebook's own codes when it declares them: check
    ir.ResultCodes: result_codes.check,
    ir.LookupTable: _lookup,
    ir.Labels: _nothing,             # languages and keys across blocks: _labels
    ir.Example: check_example,       # the situation by itself; its terrain and its expect lines: examples.py
    ir.Card: _card,                  # its swatches' terrains and its charts against those in effect: resolve
}
