"""A rulebook resolved against the rulebooks it extends.

Precedence: the game over a series variant over the base series.  A
definition replaces an inherited one only when it says `override`; every
definition in effect keeps the rulebook it came from and its position.
"""
from __future__ import annotations

import dataclasses
import re
from fractions import Fraction
from typing import Any, Mapping

from . import codes as result_codes, ir
from .catalogue import PARAMETERS, unit_text
from .errors import Diagnostic, Span, suggest, suggester
from .context import ROOT
from .expressions import Checker, Vocabulary
from .runtime.model import Quantity
from .validate import (PARAMETER_RESULT_HINT, RESULT_HINTS, favours_defender, reads_own_codes, result_cells,
                       rounding_threshold, typed_value)
from .walk import walk

# How each kind of statement is resolved against the rulebooks a rulebook extends
# (tests/test_walk.py checks every kind is here):
#   a chart: one per rulebook, the nearest wins, and only with `override`; named by its noun;
#   BY_ID: rules, by id (`override rule`); BY_NAME: tables, by name (`override table`);
#   MERGED: vocabularies, every rulebook adds its words; LAYERED: labels, nearest first (charts.label_layers).
BY_ID, BY_NAME, MERGED, LAYERED = "by id", "by name", "merged", "layered"
RESOLUTION: dict[type, str] = {
    ir.Rule: BY_ID,
    ir.LookupTable: BY_NAME,
    ir.Vocabulary: MERGED,
    ir.Labels: LAYERED,
    ir.UnitTypes: "unit types",
    ir.Rounding: "rounding rule",
    ir.SequenceOfPlay: "sequence of play",
    ir.TerrainChart: "terrain effects chart",
    ir.ResultsTable: "combat results table",
    ir.ResultCodes: "result codes",
    ir.Modifiers: "die roll modifiers",
    ir.Shifts: "column shifts",
    ir.Adjustments: "result adjustments",
    ir.UnitFactors: "strength factors",
}
_CHARTS = {ir.STATEMENT_FIELD[kind]: noun for kind, noun in RESOLUTION.items()
           if noun not in (BY_ID, BY_NAME, MERGED, LAYERED)}
# how each chart's block begins when it replaces an inherited one (grammar.lark); rounding has no override
_OVERRIDE_SYNTAX = {
    "unit_types": "override unit types",
    "sequence": "override sequence of play",
    "terrain": "override terrain effects chart",
    "results": "override combat results table",
    "result_codes": "override result codes",
    "modifiers": "override die roll modifiers",
    "shifts": "override column shifts",
    "adjustments": "override result adjustments",
    "unit_factors": "override strength factors",
}


def rule_order(rule_id: str) -> tuple[Any, ...]:
    """Printed order: sections first, then 1.0 < 2.0 < 2.0a < 2.1 < 10.0 < G1.0."""
    match = re.match(r"^([A-Z]*)([0-9.]+)([a-z]?)$", rule_id)
    if not match:
        return (0,)  # sections keep the order they are written in (the sort is stable)
    prefix, number, letter = match.groups()
    return (1, prefix, tuple(int(n) for n in number.split(".") if n), letter)


def chain(rulebook: ir.Rulebook, index: Mapping[str, ir.Rulebook]) -> tuple[list[ir.Rulebook], list[Diagnostic]]:
    """The rulebook and its ancestors, nearest first, or the diagnostics that stop it."""
    out = [rulebook]
    current = rulebook
    while current.extends is not None:
        parent = index.get(current.extends.value)
        if parent is None:
            hint = suggest(current.extends.value, index) or (
                "known rulebooks: " + ", ".join(sorted(index)) if index else None)
            return out, [Diagnostic(f"extends unknown rulebook '{current.extends.value}'", current.extends.span, hint)]
        if parent in out:
            cycle = " -> ".join(r.id.value for r in out + [parent])
            return out, [Diagnostic(f"extends cycle: {cycle}", current.extends.span,
                                    "a series extends at most another series, never back")]
        if parent.kind.value == "labels":
            return out, [Diagnostic(f"'{current.id.value}' extends '{parent.id.value}', which is a labels file",
                                    current.extends.span, "labels serve every rulebook without being extended")]
        if parent.kind.value == "game":
            return out, [Diagnostic(f"'{current.id.value}' extends '{parent.id.value}', which is a game",
                                    current.extends.span, "a rulebook can only extend a series")]
        out.append(parent)
        current = parent
    return out, []


def resolve(rulebook: ir.Rulebook, index: Mapping[str, ir.Rulebook]) -> tuple[ir.Resolved | None, list[Diagnostic]]:
    books, problems = chain(rulebook, index)
    if problems:
        return None, problems
    rules: dict[str, ir.Effective[ir.Rule]] = {}
    charts: dict[str, ir.Effective[Any]] = {}
    for book in reversed(books):  # base series first, the rulebook itself last
        origin = book.id.value
        inherited_ids = frozenset(rules)  # what an override in this book may replace (one hint index per book)
        for rule in book.rules:
            key = rule.id.value
            inherited = rules.get(key)
            if rule.override:
                if inherited is None:
                    problems.append(_override_of_nothing(rule, inherited_ids))
                    continue
                problems += _dropped_parameters(rule, inherited)
                if rule.title is None:
                    rule = _with_title(rule, inherited.node.title)
            elif inherited is not None:
                if inherited.origin == origin:
                    continue  # a duplicate in one file: reported by validate
                problems.append(Diagnostic(
                    f"rule {key} is already defined by {inherited.origin} ({inherited.node.span.path}:{inherited.node.span.line})",
                    rule.id.span, f"write 'override {'rule' if rule.numbered else 'section'} {key}' to replace it in {origin}"))
                continue
            rules[key] = ir.Effective(node=rule, origin=origin)
        for field, noun in _CHARTS.items():
            items = getattr(book, field)
            if not items:
                continue
            node = items[0]
            inherited = charts.get(field)
            override = getattr(node, "override", False)
            if inherited is not None and not override:
                problems.append(Diagnostic(
                    f"the {noun} is already defined by {inherited.origin} ({inherited.node.span.path}:{inherited.node.span.line})",
                    node.span, f"write '{_OVERRIDE_SYNTAX[field]}' to replace it" if field in _OVERRIDE_SYNTAX
                    else f"a {noun} cannot be overridden: remove this one, and the inherited one holds"))
                continue
            if inherited is None and override:
                problems.append(Diagnostic(f"override of a {noun} that no rulebook this one extends defines",
                                           node.span, "remove 'override'"))
            charts[field] = ir.Effective(node=node, origin=origin)

    tables = _tables(books, problems)
    ordered = tuple(sorted(rules.values(), key=lambda e: rule_order(e.node.id.value)))
    parameters, more = _parameters(ordered)
    problems += more
    problems += _required(rulebook, ordered, parameters)
    threshold, favour_defender = None, False
    if "rounding" in charts:
        threshold, _ = rounding_threshold(charts["rounding"].node)
        favour_defender = favours_defender(charts["rounding"].node)
    problems += _references(rulebook, rules, charts)
    problems += _table_fit(charts)
    problems += _declared_cells(books, charts)
    problems += _result_parameters(rulebook, ordered, charts)
    vocabulary = _vocabulary(books, ordered, charts, problems)
    problems += _code_states(charts, vocabulary)
    vocabulary.parameters = {p.name: "number" for p in parameters
                             if isinstance(p.value, (Quantity, int, Fraction)) and not isinstance(p.value, bool)}
    definitions = _check_expressions(rulebook, vocabulary, ordered, charts, problems)
    if problems:
        return None, problems
    return ir.Resolved(
        rulebook=rulebook, ancestors=tuple(books[1:]), rules=ordered, parameters=parameters,
        rounding=charts.get("rounding"), threshold=threshold, sequence=charts.get("sequence"),
        terrain=charts.get("terrain"), results=charts.get("results"), favour_defender=favour_defender,
        modifiers=charts.get("modifiers"), shifts=charts.get("shifts"), tables=tuple(tables.values()),
        vocabulary=vocabulary, definitions=definitions, adjustments=charts.get("adjustments"),
        unit_factors=charts.get("unit_factors"), result_codes=charts.get("result_codes")), []


def _tables(books: list[ir.Rulebook], problems: list[Diagnostic]) -> dict[str, ir.Effective[ir.LookupTable]]:
    tables: dict[str, ir.Effective[ir.LookupTable]] = {}
    for book in reversed(books):
        for table in book.tables:
            inherited = tables.get(table.name.value)
            if inherited is not None and inherited.origin != book.id.value and not table.override:
                problems.append(Diagnostic(
                    f"table '{table.name.value}' is already defined by {inherited.origin}", table.name.span,
                    f"write 'override table {table.name.value}' to replace it"))
                continue
            if inherited is None and table.override:
                problems.append(Diagnostic(f"override of table '{table.name.value}', which no rulebook this one "
                                           "extends defines", table.name.span, "remove 'override'"))
            tables[table.name.value] = ir.Effective(node=table, origin=book.id.value)
    return tables


def _table_fit(charts: Mapping[str, ir.Effective[Any]]) -> list[Diagnostic]:
    """A terrain-line CRT has an odds line for every hex terrain of the chart in effect;
    side-specific DRMs need a dual-sided table."""
    out = []
    results, terrain = charts.get("results"), charts.get("terrain")
    if results is not None and terrain is not None and any(l.name for l in results.node.lines):
        lines = {l.name.value for l in results.node.lines if l.name}
        for row in terrain.node.rows:
            if row.kind != "hex":
                continue
            line = row.line.value if row.line else row.name.value
            if line not in lines:
                span = row.line.span if row.line else row.name.span
                out.append(Diagnostic(
                    f"terrain '{row.name.value}' has no odds line in the terrain-line combat results table",
                    span, f"add 'odds {line} ...' to the table, or give the row 'line <name>' of an existing "
                          f"line ({', '.join(sorted(lines))})"))
    modifiers = charts.get("modifiers")
    if modifiers is not None and (results is None or results.node.attacker is None):
        for modifier in modifiers.node.modifiers:
            if modifier.side != "both":
                out.append(Diagnostic(
                    f"a DRM for the {modifier.side} side needs a dual-sided combat results table",
                    modifier.span, "use 'both', or give the table an attacker side and a defender side"))
    return out


def _declared_cells(books: list[ir.Rulebook], charts: Mapping[str, ir.Effective[Any]]) -> list[Diagnostic]:
    """The table in effect read in the codes in effect, where validate could not read it by itself: its
    rulebook's codes are inherited, or another rulebook's declaration replaces them."""
    results, codes = charts.get("results"), charts.get("result_codes")
    if results is None:
        return []
    table: ir.ResultsTable = results.node
    block: ir.ResultCodes | None = codes.node if codes is not None else None
    out = []
    if block is not None and block.family is not None and table.notation is not None \
            and block.family.value != table.notation.value:
        out.append(Diagnostic(f"the table is written in {table.notation.value} notation, but the result codes "
                              f"say family {block.family.value}", table.notation.span,
                              f"write '{block.family.value}'"))
    home = next(book for book in books if book.id.value == results.origin)
    own = home.result_codes[0] if home.result_codes else None
    if reads_own_codes(home) and block is own:
        return out       # validate read it
    read = result_codes.reader(block, table)
    notation = result_codes.family(block, table)

    def hint(text: str) -> str:
        return result_codes.cell_hint(block, notation, RESULT_HINTS, text)

    out += result_cells(table.rows, read, hint)
    if table.attacker is not None:
        out += result_cells(table.attacker.rows, read, hint)
    return out


def _code_states(charts: Mapping[str, ir.Effective[Any]], vocabulary: Vocabulary) -> list[Diagnostic]:
    """A code's `SIDE becomes STATE` names a unit state the rulebook declares (`unit states:`)."""
    codes = charts.get("result_codes")
    out = []
    for code in codes.node.codes if codes is not None else ():
        for clause in code.clauses:
            if clause.effect == ir.CodeEffect.BECOMES and clause.word is not None \
                    and clause.word.value not in vocabulary.states:
                out.append(Diagnostic(f"unknown unit state '{clause.word.value}'", clause.word.span,
                                      suggest(clause.word.value, vocabulary.states) or
                                      "declare it in the rulebook's 'unit states:' line"))
    return out


def _result_parameters(rulebook: ir.Rulebook, rules: tuple[ir.Effective[ir.Rule], ...],
                       charts: Mapping[str, ir.Effective[Any]]) -> list[Diagnostic]:
    """A result parameter (combat.below_table) is a code the rulebook declares, or steps-first notation."""
    codes = charts.get("result_codes")
    block: ir.ResultCodes | None = codes.node if codes is not None else None
    read = result_codes.below_reader(block)
    out = []
    for effective in rules:
        for parameter in effective.node.parameters:
            name = parameter.name.value
            if name not in PARAMETERS or PARAMETERS[name][0].kind != "result":
                continue
            value = parameter.value
            words = value.words if isinstance(value, ir.Words) else ()
            if len(words) != 1 or words[0].value == "leftmost" or read(words[0].value) is not None:
                continue   # a wrong shape is typed_value's
            declared = result_codes.declared(block)
            near = suggest(words[0].value, declared) if declared else None
            hint = near or ("the declared codes are " + ", ".join(declared) + (
                "" if block is not None and block.family is None else ", or a steps-first result like A1")
                if declared else PARAMETER_RESULT_HINT)
            what = "one of the declared result codes" if declared else PARAMETERS[name][0].describe()
            out.append(Diagnostic(f"{name} takes {what}, not '{words[0].value}'",
                                  value.span, hint))
    return out


def _vocabulary(books: list[ir.Rulebook], rules: tuple[ir.Effective[ir.Rule], ...],
                charts: Mapping[str, ir.Effective[Any]], problems: list[Diagnostic]) -> Vocabulary:
    vocabulary = Vocabulary()
    if charts.get("unit_types") is not None:
        for unit_type in charts["unit_types"].node.types:
            vocabulary.unit_types[unit_type.name.value] = tuple(c.value for c in unit_type.capabilities)
    for book in reversed(books):
        for block in book.vocabulary:
            target = {"states": vocabulary.states, "situations": vocabulary.situations,
                      "amounts": vocabulary.amounts}[block.kind]
            target.update(n.value for n in block.names)
    if charts.get("terrain") is not None:
        vocabulary.terrain = {row.name.value: row.kind for row in charts["terrain"].node.rows}
    for effective in rules:
        for definition in effective.node.definitions:
            name = definition.name.value
            if name in vocabulary.definitions:
                first = vocabulary.definitions[name]
                problems.append(Diagnostic(f"'{name}' is defined twice", definition.name.span,
                                           f"the first is at {first.span.path}:{first.span.line}"))
                continue
            vocabulary.definitions[name] = definition
    clash = (set(vocabulary.definitions) | vocabulary.situations | vocabulary.amounts) & (
        vocabulary.unit_words | set(ROOT))
    for name in sorted(clash):
        problems.append(Diagnostic(f"'{name}' names two different things", _first_span(vocabulary, name, books),
                                   "a definition, situation or amount may not reuse a unit type, capability, "
                                   "state or context name"))
    return vocabulary


def _first_span(vocabulary: Vocabulary, name: str, books: list[ir.Rulebook]) -> Span:
    if name in vocabulary.definitions:
        return vocabulary.definitions[name].name.span
    for book in books:
        for block in book.vocabulary:
            for n in block.names:
                if n.value == name:
                    return n.span
    return books[0].span


def _check_expressions(rulebook: ir.Rulebook, vocabulary: Vocabulary, rules: tuple[ir.Effective[ir.Rule], ...],
                       charts: dict[str, ir.Effective[Any]], problems: list[Diagnostic]
                       ) -> tuple[tuple[ir.Definition, str, str, str], ...]:
    """Check every expression in effect (names, kinds, cycles); the definitions in an order
    where each comes after those it uses, as (Definition, kind, rule id, origin)."""
    checker = Checker(vocabulary)
    order = checker.compile_definitions()
    owner = {d.name.value: (e.node.id.value, e.origin) for e in rules for d in e.node.definitions}
    definitions = tuple((vocabulary.definitions[name], checker.kinds[name], *owner[name]) for name in order)
    if charts.get("modifiers") is not None:
        for m in charts["modifiers"].node.modifiers:
            checker.condition(m.condition)
    if charts.get("shifts") is not None:
        for s in charts["shifts"].node.shifts:
            checker.number(s.amount)
            if s.condition is not None:
                checker.condition(s.condition)
    if charts.get("adjustments") is not None:
        checker.reading_result = True
        for a in charts["adjustments"].node.adjustments:
            checker.condition(a.condition)
        checker.reading_result = False
    if charts.get("unit_factors") is not None:
        for f in charts["unit_factors"].node.factors:
            checker.number(f.factor)
            checker.in_unit(f.condition, number=False)
    problems += checker.problems
    return definitions


def _with_title(rule: ir.Rule, title: ir.Text | None) -> ir.Rule:
    """The override, keeping the inherited title; every other field its own (by name, so none is lost)."""
    return dataclasses.replace(rule, title=title)


def _required(rulebook: ir.Rulebook, rules: tuple[ir.Effective[ir.Rule], ...],
              parameters: tuple[ir.EffectiveParameter, ...]) -> list[Diagnostic]:
    """A game must set every parameter its series `requires`."""
    if rulebook.kind.value != "game":
        return []
    have = {p.name for p in parameters}
    # a parameter set with a wrong value is reported where it is set, not again as missing
    have |= {p.name.value for e in rules for p in e.node.parameters}
    out = []
    for effective in rules:
        for name in effective.node.requires:
            if name.value not in have:
                out.append(Diagnostic(
                    f"game sets no {name.value}, which rule {effective.node.id.value} of {effective.origin} "
                    f"requires of every game", rulebook.id.span,
                    f"add a rule of the game's own that sets it, like: {name.value} = {_example(name.value)}"))
    return out


def _example(name: str) -> str:
    """A value of the parameter's type, as a rulebook writes it."""
    if name not in PARAMETERS:
        return "..."
    ptype = PARAMETERS[name][0]
    if ptype.kind in ("quantity", "modifier"):
        return unit_text("+1" if ptype.kind == "modifier" else 1, ptype.unit)
    return {"count": "1", "number": "1/2", "flag": "yes", "result": "A1"}.get(
        ptype.kind, ", ".join(ptype.options[:1 if ptype.kind == "choice" else None]))


def _override_of_nothing(rule: ir.Rule, rules: frozenset[str]) -> Diagnostic:
    near = suggester(rules, n=3, cutoff=0.5).close(rule.id.value)
    hint = ("the nearest rules are " + ", ".join(near)) if near else "remove 'override' to add a rule of this rulebook's own"
    return Diagnostic(f"override of rule {rule.id.value}, which no rulebook this one extends defines",
                      rule.id.span, hint)


def _dropped_parameters(rule: ir.Rule, inherited: ir.Effective[ir.Rule]) -> list[Diagnostic]:
    kept = {p.name.value for p in rule.parameters}
    out = []
    for parameter in inherited.node.parameters:
        if parameter.name.value not in kept:
            out.append(Diagnostic(
                f"override of rule {rule.id.value} drops {parameter.name.value}, "
                f"which {inherited.origin} sets there",
                rule.id.span, f"restate it in the override (the inherited line is "
                              f"{parameter.span.path}:{parameter.span.line}), with its new value if it changes"))
    return out


def _parameters(rules: tuple[ir.Effective[ir.Rule], ...]) -> tuple[tuple[ir.EffectiveParameter, ...], list[Diagnostic]]:
    found: dict[str, ir.EffectiveParameter] = {}
    problems = []
    for effective in rules:
        rule = effective.node
        for parameter in rule.parameters:
            value, errors = typed_value(parameter)
            if errors:
                continue  # reported by validate
            name = parameter.name.value
            first = found.get(name)
            if first is not None:
                same = " (with the same value: remove one)" if first.value == value else ""
                problems.append(Diagnostic(
                    f"{name} is set by both rule {first.rule} ({first.origin}) and rule {rule.id.value} "
                    f"({effective.origin}){same}",
                    parameter.name.span, f"a parameter is set in one rule; the other is at "
                                         f"{first.span.path}:{first.span.line}"))
                continue
            found[name] = ir.EffectiveParameter(name=name, value=value, rule=rule.id.value, origin=effective.origin,
                                                span=parameter.span)
    return tuple(found[k] for k in sorted(found)), problems


def _references(rulebook: ir.Rulebook, rules: Mapping[str, ir.Effective[ir.Rule]],
                charts: Mapping[str, ir.Effective[Any]]) -> list[Diagnostic]:
    """Every rule id the rulebook itself cites must be in effect."""
    refs: list[ir.Text] = []
    for node in walk(rulebook):     # every node that cites rules, whatever its kind
        if isinstance(node, ir.Rule):
            refs += node.see
        refs += getattr(node, "cites", ())
    out = []
    near_rules = None
    for ref in refs:
        if ref.value not in rules:
            near_rules = near_rules or suggester(rules)  # indexed once, only when a reference is wrong
            near = near_rules(ref.value)
            out.append(Diagnostic(f"reference to rule {ref.value}, which is not in effect", ref.span,
                                  near or "cite a rule this rulebook or its series defines"))
    return out
