"""A rulebook resolved against the rulebooks it extends.

Precedence: the game over a series variant over the base series.  A
definition replaces an inherited one only when it says `override`; every
definition in effect keeps the rulebook it came from and its position.
"""
from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any, Collection, Mapping

from rulesdsl.model import codes as result_codes, ir
from rulesdsl.model.catalogue import (example_setting, movement_text, phase_turns_text, unit_text,
                                      vocabulary as declared_vocabulary)
from rulesdsl.errors import Diagnostic, Span, suggest, suggester
from rulesdsl.core.facts import MODES, QUESTIONS
from rulesdsl.model.context import ROOT
from rulesdsl.checks.effects import condition_words
from rulesdsl.checks.expressions import Checker, numeric_values
from rulesdsl.checks.situations import check_situation, terrain_problems
from rulesdsl.runtime.model import Quantity
from rulesdsl.runtime.contract import engine_parameter
from rulesdsl.runtime.notation import odds_ratio, parse_odds, parse_turns
from rulesdsl.checks.validate import (PARAMETER_RESULT_HINT, RESULT_HINTS, _shown, favours_defender, reads_own_codes, result_cells,
                                      road_cost_problems, rounding_threshold, turns_problems, typed_value,
                                      undeclared_turn_set)
from rulesdsl.model.walk import walk

# How each kind of statement is resolved against the rulebooks a rulebook extends
# (tests/test_walk.py checks every kind is here):
#   a chart: one per rulebook, the nearest wins, and only with `override`; named by its noun;
#   BY_ID: rules, by id (`override rule`); BY_NAME: tables, by name (`override table`);
#   MERGED: vocabularies, every rulebook adds its words; LAYERED: labels, nearest first (labeler.label_layers);
#   NEAREST: the nearest rulebook's block, whole, with no `override` (the card block: charts.card_options).
BY_ID, BY_NAME, MERGED, LAYERED, NEAREST = "by id", "by name", "merged", "layered", "nearest"
RESOLUTION: dict[type, str] = {
    ir.Rule: BY_ID,
    ir.LookupTable: BY_NAME,
    ir.Vocabulary: MERGED,
    ir.ParameterDeclarations: MERGED,    # every rulebook adds to its ancestors' (catalogue.vocabulary)
    ir.Labels: LAYERED,
    ir.Example: MERGED,                  # a game re-runs the examples it inherits (examples.py)
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
    ir.Card: NEAREST,                    # a game without a card block prints its series' way
}
_CHARTS = {ir.STATEMENT_FIELD[kind]: noun for kind, noun in RESOLUTION.items()
           if noun not in (BY_ID, BY_NAME, MERGED, LAYERED, NEAREST)}
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


def chain(rulebook: ir.Rulebook, index: Mapping[str, ir.Rulebook],
          known: Collection[str] = ()) -> tuple[list[ir.Rulebook], list[Diagnostic]]:
    """The rulebook and its ancestors, nearest first, or the diagnostics that stop it; `known`: more
    ids a hint may propose (the library's)."""
    out = [rulebook]
    current = rulebook
    while current.extends is not None:
        parent = index.get(current.extends.value)
        if parent is None:
            ids = set(index) | set(known)
            hint = suggest(current.extends.value, ids) or (
                "known rulebooks: " + ", ".join(sorted(ids)) if ids else None)
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


def resolve(rulebook: ir.Rulebook, index: Mapping[str, ir.Rulebook],
            known: Collection[str] = (), partial: bool = False) -> tuple[ir.Resolved | None, list[Diagnostic]]:
    """The rulebook with everything it inherits worked out, and the problems found; None when there is an
    error.  `partial` (the editor's hover and go-to, on a text with errors): the rules in effect even so,
    as far as its chain of rulebooks could be read; never built or run."""
    books, problems = chain(rulebook, index, known)
    if problems:
        return None, problems
    declared, problems = declared_vocabulary(reversed(books))   # the parameters the rulebook may set
    rules: dict[str, ir.Effective[ir.Rule]] = {}
    charts: dict[str, ir.Effective[Any]] = {}
    for book in reversed(books):  # base series first, the rulebook itself last
        _add_rules(book, rules, declared, problems)
        _add_charts(book, charts, problems)

    tables = _tables(books, problems)
    ordered = tuple(sorted(rules.values(), key=lambda e: rule_order(e.node.id.value)))
    parameters, more = _parameters(ordered, declared, charts.get("sequence"))
    problems += more
    problems += _required(rulebook, ordered, parameters, declared)
    threshold, favour_defender = None, False
    if "rounding" in charts:
        threshold, _ = rounding_threshold(charts["rounding"].node)
        favour_defender = favours_defender(charts["rounding"].node)
    problems += _chart_problems(rulebook, rules, charts, tables)
    problems += _declared_cells(books, charts)
    problems += _result_parameters(rulebook, ordered, charts, declared)
    problems += _imaginary_columns(parameters, charts)
    problems += _hexside_combination(parameters)
    problems += _exchange_terrain(parameters)
    vocabulary = _vocabulary(books, ordered, charts, problems)
    problems += _code_states(charts, vocabulary)
    problems += _example_situations(rulebook, vocabulary)
    problems += _effect_words(books, ordered, vocabulary, tables, charts.get("sequence"))
    problems += _effect_amounts(books[0], ordered, parameters, charts.get("terrain"))
    vocabulary.parameters = {p.name: "number" for p in parameters
                             if isinstance(p.value, (Quantity, int, Fraction)) and not isinstance(p.value, bool)}
    definitions = _check_expressions(rulebook, vocabulary, ordered, charts, problems, numeric_values(parameters),
                                     _no_odds(charts))
    if any(p.severity == "error" for p in problems) and not partial:
        return None, problems
    return ir.Resolved(
        rulebook=rulebook, ancestors=tuple(books[1:]), rules=ordered, parameters=parameters,
        rounding=charts.get("rounding"), threshold=threshold, sequence=charts.get("sequence"),
        terrain=charts.get("terrain"), results=charts.get("results"), favour_defender=favour_defender,
        modifiers=charts.get("modifiers"), shifts=charts.get("shifts"), tables=tuple(tables.values()),
        vocabulary=vocabulary, definitions=definitions, adjustments=charts.get("adjustments"),
        unit_factors=charts.get("unit_factors"), result_codes=charts.get("result_codes"), declared=declared), problems


def _add_rules(book: ir.Rulebook, rules: dict[str, ir.Effective[ir.Rule]], declared: Mapping[str, ir.Declared],
               problems: list[Diagnostic]) -> None:
    """Puts a book's rules in effect over those of the books it extends (`rules`, by id): an amendment
    changes the inherited rule, an override replaces it, a new rule joins them; adds what is wrong with
    them to `problems`."""
    origin = book.id.value
    inherited_ids = frozenset(rules)  # what an override in this book may replace (one hint index per book)
    amended_here: set[str] = set()
    for rule in book.rules:
        key = rule.id.value
        inherited = rules.get(key)
        if not rule.amend:
            effective = _rule_in_effect(rule, inherited, origin, inherited_ids, problems)
            if effective is not None:
                rules[key] = effective
        elif inherited is None:
            problems.append(_override_of_nothing(rule, inherited_ids))
        elif key not in amended_here and inherited.origin != origin:   # a rule twice in one file: validate's
            amended_here.add(key)
            rules[key] = _amend_rule(rule, inherited, origin, rules, declared, problems)


def _rule_in_effect(rule: ir.Rule, inherited: ir.Effective[ir.Rule] | None, origin: str,
                    inherited_ids: frozenset[str], problems: list[Diagnostic]) -> ir.Effective[ir.Rule] | None:
    """A book's rule (no amendment) as it takes effect: an override of an inherited rule (keeping its title
    when it gives none) or a rule of its own; None when it cannot (an override of nothing, a rule the
    chain already defines), with the problem added to `problems`."""
    if rule.override:
        if inherited is None:
            problems.append(_override_of_nothing(rule, inherited_ids))
            return None
        problems += _dropped_parameters(rule, inherited)
        if rule.title is None:
            rule = _with_title(rule, inherited.node.title)
    elif inherited is not None:
        if inherited.origin == origin:
            return None  # a duplicate in one file: reported by validate
        key = rule.id.value
        problems.append(Diagnostic(
            f"rule {key} is already defined by {inherited.origin} ({inherited.node.span.path}:{inherited.node.span.line})",
            rule.id.span, f"write 'override {'rule' if rule.numbered else 'section'} {key}' to replace it in {origin}"))
        return None
    return ir.Effective(node=rule, origin=origin)


def _add_charts(book: ir.Rulebook, charts: dict[str, ir.Effective[Any]], problems: list[Diagnostic]) -> None:
    """Puts a book's charts in effect over those of the books it extends (`charts`, by field): an
    amendment changes the inherited chart, any other chart replaces it or is the first; adds what is
    wrong with them to `problems`."""
    for field, noun in _CHARTS.items():
        items = getattr(book, field)
        if not items:
            continue
        node = items[0]
        effective = _amended_chart(book, field, noun, node, charts, problems) if getattr(node, "amend", False) \
            else _chart_in_effect(book.id.value, field, noun, node, charts.get(field), problems)
        if effective is not None:
            charts[field] = effective


def _amended_chart(book: ir.Rulebook, field: str, noun: str, node: Any, charts: Mapping[str, ir.Effective[Any]],
                   problems: list[Diagnostic]) -> ir.Effective[Any] | None:
    """A book's amendment of a chart, applied to the inherited chart; None (reported) when it inherits none.
    A CRT's cells read in the codes in effect here: this book's, or inherited."""
    if field not in charts:
        problems.append(Diagnostic(
            f"amendment of a {noun} that no rulebook this one extends defines", node.span,
            f"there is no inherited {noun} to amend: write the whole chart, without amend"))
        return None
    amend: Any = {"terrain": _amend_terrain, "results": _amend_results, "sequence": _amend_sequence,
                  "modifiers": _amend_modifiers}[field]
    if field == "results":
        codes: ir.ResultCodes | None = book.result_codes[0] if book.result_codes else \
            charts["result_codes"].node if "result_codes" in charts else None
        amend = functools.partial(_amend_results, codes=codes)
    effective: ir.Effective[Any] = amend(node, charts[field], book.id.value, problems)
    return effective


def _chart_in_effect(origin: str, field: str, noun: str, node: Any, inherited: ir.Effective[Any] | None,
                     problems: list[Diagnostic]) -> ir.Effective[Any] | None:
    """A book's chart (no amendment) as it takes effect: the first of its kind, an override, or in place of a
    series' chart for examples only; None (reported) where the chain already has one it does not override.
    An override of nothing, and a replacing TEC's terrain the inherited one spells otherwise, are reported."""
    override = getattr(node, "override", False)
    # a series' chart for examples only stands in for the chart each game prints: a game's own
    # takes its place, `override` or not
    stands_in = inherited is not None and getattr(inherited.node, "for_examples", False)
    if inherited is not None and not override and not stands_in:
        problems.append(Diagnostic(
            f"the {noun} is already defined by {inherited.origin} ({inherited.node.span.path}:{inherited.node.span.line})",
            node.span, f"write '{_OVERRIDE_SYNTAX[field]}' to replace it" if field in _OVERRIDE_SYNTAX
            else f"a {noun} cannot be overridden: remove this one, and the inherited one holds"))
        return None
    if inherited is None and override:
        problems.append(Diagnostic(f"override of a {noun} that no rulebook this one extends defines",
                                   node.span, "remove 'override'"))
    if field == "terrain" and inherited is not None:
        assert isinstance(node, ir.TerrainChart) and isinstance(inherited.node, ir.TerrainChart)
        problems += _misspelt_terrain(node, inherited.node, inherited.origin)
    return ir.Effective(node=node, origin=origin)


def _chart_problems(rulebook: ir.Rulebook, rules: Mapping[str, ir.Effective[ir.Rule]],
                    charts: Mapping[str, ir.Effective[Any]], tables: Mapping[str, ir.Effective[ir.LookupTable]]
                    ) -> list[Diagnostic]:
    """What is wrong with the charts in effect taken together: what they cite, how they fit one another,
    the terrain the rulebook's card and examples name, and a CRT read by odds with no rounding rule."""
    problems: list[Diagnostic] = []
    problems += _references(rulebook, rules, charts)
    problems += _table_fit(charts)
    problems += _drm_sides(charts)
    problems += _terrain_keys(tables, charts)
    problems += _terrain_labels(rulebook, charts)
    problems += _terrain_sides(charts)
    problems += _card_references(rulebook, charts, tables)
    problems += _example_terrain(rulebook, charts)
    if "results" in charts and "rounding" not in charts and not charts["results"].node.differential:
        # a standalone game brings its own; a differential table reads attack minus defense, no odds
        problems.append(Diagnostic(
            "a combat results table needs a rounding rule: its column comes from the rounded odds",
            charts["results"].node.span, "add a rounding rule, like: rounding standard: .50 up, keep fractions"))
    return problems


def _example_terrain(rulebook: ir.Rulebook, charts: Mapping[str, ir.Effective[Any]]) -> list[Diagnostic]:
    """The rulebook's own worked examples name terrain of the chart in effect: reported here with the other
    errors, not only once the rulebook builds and its examples run."""
    terrain = charts.get("terrain")
    if terrain is None:
        return []
    kinds = {kind: [row.name.value for row in terrain.node.rows if row.kind == kind]
             for kind in ("hex", "hexside", "road")}
    return [problem for example in rulebook.examples if not check_situation(example.situation)
            for problem in terrain_problems(example.situation, kinds)]


def _example_situations(rulebook: ir.Rulebook, vocabulary: ir.Names) -> list[Diagnostic]:
    """A combat line's declared situations (`with river-assault`) are names `combat situations:` declares."""
    known = sorted(vocabulary.situations)
    out = []
    for example in rulebook.examples:
        for item in example.situation.expectations:
            for name in item.declared if isinstance(item, ir.CombatQuery) else ():
                if name.value not in known:
                    near = suggest(name.value, known)
                    out.append(Diagnostic(f"'{name.value}' is no combat situation of this rulebook", name.span,
                                          near or ("the combat situations: " + ", ".join(known) if known else
                                                   "the rulebook declares none (`combat situations: ...`)")))
    return out


def _card_references(rulebook: ir.Rulebook, charts: Mapping[str, ir.Effective[Any]],
                     tables: Mapping[str, ir.Effective[ir.LookupTable]]) -> list[Diagnostic]:
    """The rulebook's own card block names terrains of the Terrain Effects Chart in effect and tables in
    effect (a series' block, inherited, may name terrains a game's chart lacks: those swatches go unused)."""
    out: list[Diagnostic] = []
    for card in rulebook.card[:1]:
        terrain = charts.get("terrain")
        names = [row.name.value for row in terrain.node.rows] if terrain is not None else []
        for swatch in card.swatches:
            if swatch.terrain.value not in names:
                out.append(Diagnostic(
                    f"swatch for unknown terrain '{swatch.terrain.value}'", swatch.terrain.span,
                    suggest(swatch.terrain.value, names) or (
                        "the Terrain Effects Chart in effect has " + ", ".join(names) if names
                        else "there is no Terrain Effects Chart in effect")))
        for name in card.charts:
            if name.value not in tables:
                out.append(Diagnostic(f"card chart '{name.value}' is no table", name.span,
                                      suggest(name.value, tables) or (
                                          "the tables in effect are " + ", ".join(sorted(tables)) if tables
                                          else "declare it with: table NAME \"Title\" { ... }")))
    return out


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


TERRAIN_KEYS = ("terrain", "hexside")


def _terrain_keys(tables: Mapping[str, ir.Effective[ir.LookupTable]],
                  charts: Mapping[str, ir.Effective[Any]]) -> list[Diagnostic]:
    """A table keyed by `terrain` (or `hexside`) names terrains of the Terrain Effects Chart in effect:
    its column labels (`terrain  open  woods`, `die/terrain ...`) or its row keys (`terrain/die ...`)."""
    out: list[Diagnostic] = []
    chart = charts.get("terrain")
    for effective in tables.values():
        table = effective.node
        if not table.header:
            continue
        keys = table.header[0].value.split("/")
        labels: list[ir.Text] = []
        if keys[-1] in TERRAIN_KEYS:
            labels += table.header[1:]
        if len(keys) == 2 and keys[0] in TERRAIN_KEYS:
            labels += [row[0] for row in table.rows if row]
        if not labels:
            continue
        if chart is None:
            out.append(Diagnostic(f"table '{table.name.value}' is keyed by terrain, but no Terrain Effects Chart "
                                  "is in effect", table.header[0].span, "add a terrain effects chart"))
            continue
        known = [row.name.value for row in chart.node.rows]
        for label in labels:
            if label.value not in known:
                out.append(Diagnostic(f"table '{table.name.value}' names terrain '{label.value}', which the "
                                      "Terrain Effects Chart does not have", label.span,
                                      suggest(label.value, known)))
    return out


def _terrain_sides(charts: Mapping[str, ir.Effective[Any]]) -> list[Diagnostic]:
    """A TEC cell for one side (`1L defending allies`) names a side of the sequence of play in effect (the
    `player turn NAME` slots of its game turn)."""
    chart, sequence = charts.get("terrain"), charts.get("sequence")
    if chart is None:
        return []
    sides = [] if sequence is None else list(dict.fromkeys(
        item.name.value for block in sequence.node.blocks if block.kind.value == "game"
        for item in block.items if isinstance(item, ir.PlayerTurnSlot)))
    out = []
    for row in chart.node.rows:
        only = row.combat.only
        if only is None or only.side.value in sides:
            continue
        out.append(Diagnostic(f"terrain '{row.name.value}' is for side '{only.side.value}', which the sequence of "
                              "play does not name", only.side.span,
                              suggest(only.side.value, sides) or
                              (f"the sides are {', '.join(sides)}, the player turns of the sequence of play's game "
                               "turn (a game names its own sides by restating the sequence of play)" if sides else
                               "name the sides in the game turn of the sequence of play: player turn NAME")))
    return out


def _terrain_labels(rulebook: ir.Rulebook, charts: Mapping[str, ir.Effective[Any]]) -> list[Diagnostic]:
    """A rulebook's own label `terrain.X` names a terrain of the Terrain Effects Chart in effect."""
    chart = charts.get("terrain")
    if chart is None:
        return []
    known = ["terrain." + row.name.value for row in chart.node.rows]
    return [Diagnostic(f"label '{key.value}' names a terrain the Terrain Effects Chart does not have", key.span,
                       suggest(key.value, known))
            for block in rulebook.labels for key, _ in block.labels
            if key.value.startswith("terrain.") and key.value not in known]


def _misspelt_terrain(chart: ir.TerrainChart, inherited: ir.TerrainChart, origin: str) -> list[Diagnostic]:
    """A chart that replaces its series' and has a terrain the series' lacks, close to one of the series' it
    drops (`wods` for `woods`): most likely a misspelling, which would drop the series' terrain, and every
    rule, example and card that names it with it.  A warning: a game may rename terrain on purpose."""
    kept, series = {row.name.value for row in chart.rows}, {row.name.value for row in inherited.rows}
    dropped = [name for name in series if name not in kept]
    out = []
    for row in chart.rows:
        name = row.name.value
        if name in series:
            continue
        near = suggester(dropped).close(name)
        if near:
            out.append(Diagnostic(
                f"terrain '{name}' is not in {origin}'s Terrain Effects Chart, and this chart drops "
                f"its '{near[0]}': the series' rules, examples and cards that name '{near[0]}' lose it",
                row.name.span, f"did you mean '{near[0]}'?", severity="warning"))
    return out


def _table_fit(charts: Mapping[str, ir.Effective[Any]]) -> list[Diagnostic]:
    """A terrain-line CRT has an odds line for every hex terrain of the chart in effect."""
    results, terrain = charts.get("results"), charts.get("terrain")
    if results is None or terrain is None or not any(l.name for l in results.node.lines):
        return []
    lines = {l.name.value for l in results.node.lines if l.name}
    missing = [(row, row.line.value if row.line else row.name.value) for row in terrain.node.rows
               if row.kind == "hex"]
    missing = [(row, line) for row, line in missing if line not in lines]
    if missing and terrain.node.for_examples and not results.node.for_examples:
        # a title's own table read with its series' example chart: the title has no chart of its own yet
        wanting = ", ".join(repr(line) for line in sorted({line for _, line in missing}))
        return [Diagnostic(
            f"this table has no {'difference' if results.node.differential else 'odds'} line {wanting}, which {terrain.origin}'s example Terrain Effects Chart gives "
            f"its terrain: this title has no chart of its own, so it reads that one", results.node.span,
            "write the title's own Terrain Effects Chart (`terrain effects chart \"...\" { ... }`), whose "
            "terrain names the lines this table has")]
    word = "difference" if results.node.differential else "odds"
    return [Diagnostic(f"terrain '{row.name.value}' has no {word} line in the terrain-line combat results table",
                       row.line.span if row.line else row.name.span,
                       f"add '{word} {line} ...' to the table, or give the row 'line <name>' of an existing "
                       f"line ({', '.join(sorted(lines))})") for row, line in missing]


def _drm_sides(charts: Mapping[str, ir.Effective[Any]]) -> list[Diagnostic]:
    """Side-specific DRMs need a dual-sided table."""
    out = []
    results, modifiers = charts.get("results"), charts.get("modifiers")
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


def _code_states(charts: Mapping[str, ir.Effective[Any]], vocabulary: ir.Names) -> list[Diagnostic]:
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


# the word a result parameter may give instead of a result: the table's own edge column
_TABLE_EDGES = {"combat.below_table": "leftmost", "combat.below_table_forced": "leftmost",
                "combat.above_table": "rightmost"}


def _result_parameters(rulebook: ir.Rulebook, rules: tuple[ir.Effective[ir.Rule], ...],
                       charts: Mapping[str, ir.Effective[Any]], declared: Mapping[str, ir.Declared]) -> list[Diagnostic]:
    """A result parameter (combat.below_table) is a code the rulebook declares, or steps-first notation."""
    codes = charts.get("result_codes")
    block: ir.ResultCodes | None = codes.node if codes is not None else None
    read = result_codes.below_reader(block)
    out = []
    for effective in rules:
        for parameter in effective.node.parameters:
            name = parameter.name.value
            if name not in declared or declared[name].type.kind != ir.ParamKind.RESULT:
                continue
            value = parameter.value
            words = value.words if isinstance(value, ir.Words) else ()
            edge = _TABLE_EDGES.get(name)
            if len(words) == 1 and words[0].value in _TABLE_EDGES.values() and words[0].value != edge:
                out.append(Diagnostic(f"{name} may name the table's {edge} column, not its {words[0].value}",
                                      words[0].span, f"did you mean '{edge}'?" if edge else
                                      "give a result: a declared code or steps-first notation like A1"))
                continue
            if len(words) != 1 or words[0].value == edge or read(words[0].value) is not None:
                continue   # a wrong shape is typed_value's
            codes_declared = result_codes.declared(block)
            near = suggest(words[0].value, codes_declared) if codes_declared else None
            hint = near or ("the declared codes are " + ", ".join(codes_declared) + (
                "" if block is not None and block.family is None else ", or a steps-first result like A1")
                if codes_declared else PARAMETER_RESULT_HINT)
            what = "one of the declared result codes" if codes_declared else declared[name].type.describe()
            out.append(Diagnostic(f"{name} takes {what}, not '{words[0].value}'",
                                  value.span, hint))
    return out


def _vocabulary(books: list[ir.Rulebook], rules: tuple[ir.Effective[ir.Rule], ...],
                charts: Mapping[str, ir.Effective[Any]], problems: list[Diagnostic]) -> ir.Names:
    vocabulary = ir.Names()
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


def _first_span(vocabulary: ir.Names, name: str, books: list[ir.Rulebook]) -> Span:
    if name in vocabulary.definitions:
        return vocabulary.definitions[name].name.span
    for book in books:
        for block in book.vocabulary:
            for n in block.names:
                if n.value == name:
                    return n.span
    return books[0].span


def _check_expressions(rulebook: ir.Rulebook, vocabulary: ir.Names, rules: tuple[ir.Effective[ir.Rule], ...],
                       charts: dict[str, ir.Effective[Any]], problems: list[Diagnostic],
                       values: dict[str, Fraction] | None = None, no_odds: tuple[str, str] | None = None,
                       ) -> tuple[tuple[ir.Definition, str, str, str], ...]:
    """Check every expression in effect (names, kinds, cycles, division by 0, the numeric parameters'
    `values` known, `odds(...)` only where the rulebook computes odds); the definitions in an order where
    each comes after those it uses, as (Definition, kind, rule id, origin)."""
    checker = Checker(vocabulary, values=values, no_odds=no_odds)
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


def _no_odds(charts: Mapping[str, ir.Effective[Any]]) -> tuple[str, str] | None:
    """Why `odds(...)` in an expression has no value in this rulebook (and what to write instead), or None:
    a differential table reads attack minus defense, and odds are rounded by the rounding rule."""
    results = charts.get("results")
    if results is not None and results.node.differential:
        return ("odds(...) has no value here: the Combat Results Table reads attack minus defense, not odds",
                "compare the difference instead, like: attack - defense >= 3")
    if "rounding" not in charts:
        return ("odds(...) has no value here: odds are rounded by the rounding rule, and this rulebook has none",
                "add a rounding rule, like: rounding standard: .50 up, keep fractions")
    return None


def _imaginary_columns(parameters: tuple[ir.EffectiveParameter, ...],
                       charts: Mapping[str, ir.Effective[Any]]) -> list[Diagnostic]:
    """`column shifts ... before limits` and `combat.imaginary_columns` say one thing two ways: they must agree."""
    shifts = charts.get("shifts")
    said = next((p for p in parameters if p.name == "combat.imaginary_columns"), None)
    if shifts is None or not shifts.node.before_limits or said is None or said.value is not False:
        return []
    return [Diagnostic(
        f"'before limits' shifts the odds from columns beyond the table, but rule {said.rule} sets "
        f"combat.imaginary_columns = no ({said.span.path}:{said.span.line})", shifts.node.span,
        "remove 'before limits', or override the rule with combat.imaginary_columns = yes")]


def _hexside_combination(parameters: tuple[ir.EffectiveParameter, ...]) -> list[Diagnostic]:
    """`combat.hexside_combination = with-terrain` combines a hexside crossed with the hex's terrain by
    `combat.terrain_combination`: a rulebook that sets the one says which rule the other follows."""
    said = {p.name: p for p in parameters}
    across = said.get("combat.hexside_combination")
    if across is None or across.value != "with-terrain" or "combat.terrain_combination" in said:
        return []
    return [Diagnostic(
        f"combat.hexside_combination = with-terrain combines a hexside with the hex's terrain by "
        f"combat.terrain_combination, which no rule sets", across.span,
        "set combat.terrain_combination (cumulative, most-restrictive or defender-best) in a rule, or leave "
        "combat.hexside_combination unset (cumulative: each hexside on top of the hex's terrain)")]


def _exchange_terrain(parameters: tuple[ir.EffectiveParameter, ...]) -> list[Diagnostic]:
    """`combat.exchange_counts_terrain` says how an exchange counts the defender's factors: it means something
    only where `combat.exchange_measure = factors`."""
    said = {p.name: p for p in parameters}
    counts, measure = said.get("combat.exchange_counts_terrain"), said.get("combat.exchange_measure")
    if counts is None or (measure is not None and measure.value == "factors"):
        return []
    why = "which no rule sets" if measure is None else \
        f"but rule {measure.rule} counts exchanges in {measure.value} ({measure.span.path}:{measure.span.line})"
    return [Diagnostic(
        f"combat.exchange_counts_terrain says how an exchange counts the defender's factors, {why}", counts.span,
        "set combat.exchange_measure = factors in a rule, or remove combat.exchange_counts_terrain")]


def _with_title(rule: ir.Rule, title: ir.Text | None) -> ir.Rule:
    """The override, keeping the inherited title; every other field its own (by name, so none is lost)."""
    return dataclasses.replace(rule, title=title)


def _required(rulebook: ir.Rulebook, rules: tuple[ir.Effective[ir.Rule], ...],
              parameters: tuple[ir.EffectiveParameter, ...], declared: Mapping[str, ir.Declared]) -> list[Diagnostic]:
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
                    f"add a rule of the game's own that sets it, like: {name.value} = {example_setting(declared, name.value)}"))
    return out


# the phases the rules engine itself knows (an example's `phase`), besides those a sequence of play names,
# and the capabilities it reads of any counter (`can exploit`), besides those unit types declare
_ENGINE_PHASES = frozenset({"movement", "combat", "exploitation", "reaction"})
_ENGINE_CAPABILITIES = frozenset({"exploit", "mechanized", "armored", "artillery", "engineer"})


def _effect_words(books: list[ir.Rulebook], rules: tuple[ir.Effective[ir.Rule], ...], vocabulary: ir.Names,
                  tables: Mapping[str, ir.Effective[ir.LookupTable]],
                  sequence: ir.Effective[ir.SequenceOfPlay] | None) -> list[Diagnostic]:
    """The words the rulebook's own effects compare facts with (`unit is hq`), each one it declares, the
    engine knows, or a worked example of its chain gives a counter (`size squadron`)."""
    sizes = set()
    if "unit-sizes" in tables:
        table = tables["unit-sizes"].node
        sizes = {cell.value.lower() for row in table.rows for cell in row[1:]}
    counters = [u for book in books for example in book.examples for u in example.situation.units]
    sizes |= {u.size.value.lower() for u in counters if u.size is not None}
    units = {w.lower() for w in vocabulary.unit_words} | sizes | _ENGINE_CAPABILITIES
    units |= {w.value.lower() for u in counters for w in (*u.capabilities, *u.states, *((u.type,) if u.type else ()))}
    turns: set[str] = set()
    phases = set(_ENGINE_PHASES)
    if sequence is not None:
        turns = {t.name.value.lower() for t in sequence.node.turn_sets}
        phases |= {p.name.value.lower() for p in walk(sequence.node) if isinstance(p, ir.Phase)}
    known = {"unit": units, "unit.type": {t.lower() for t in vocabulary.unit_types}, "attackers": units,
             "defenders": units, "ezoc.from": units, "turn": turns, "phase": phases,
             "mode": set(MODES)}
    if sizes:
        known["unit.size"] = sizes
    return [d for effective in rules if effective.origin == books[0].id.value
            for effect in effective.node.effects for d in condition_words(effect, known)]


def _effect_amounts(book: ir.Rulebook, rules: tuple[ir.Effective[ir.Rule], ...],
                    parameters: tuple[ir.EffectiveParameter, ...],
                    terrain: ir.Effective[ir.TerrainChart] | None) -> list[Diagnostic]:
    """The rulebook's own `cost` effects whose amount names a parameter (`max isolation.x`): a parameter in
    effect, a number (for `times`) or a quantity of what the question counts; a bonus in hexes has a road
    to count them along."""
    values = {p.name: p.value for p in parameters}
    found = []
    for effective in rules:
        if effective.origin != book.id.value:
            continue
        for effect in effective.node.effects:
            amount, question = effect.amount, QUESTIONS.get(effect.question.value)
            if amount is None or question is None:
                continue
            if amount.unit is not None and amount.unit.value in ("hex", "hexes") and (
                    terrain is None or not any(row.kind == "road" for row in terrain.node.rows)):
                found.append(Diagnostic("a bonus counted in hexes is counted along a road, and the terrain "
                                        "effects chart in effect has none", amount.unit.span,
                                        "add a road row to the terrain effects chart, or count the bonus in MP"))
            if amount.parameter is None:
                continue
            name = amount.parameter.value
            if name not in values:
                found.append(Diagnostic(f"no parameter '{name}' is set by the rules in effect",
                                        amount.parameter.span, suggest(name, values) or
                                        "name a parameter a rule sets, or write the amount: 6 MP"))
                continue
            value = values[name]
            unit = value.unit if isinstance(value, Quantity) else None
            number = isinstance(value, (Quantity, int, Fraction)) and not isinstance(value, bool)
            wanted = None if amount.how is ir.AmountHow.TIMES else question.unit
            if not number or unit != wanted:
                said = f"is {unit_text(value.amount, unit)}" if isinstance(value, Quantity) else \
                    "is a number" if number else "is not a number"
                found.append(Diagnostic(f"'{name}' {said}; {'a product is by a number' if wanted is None else f'a cost on {question.word} counts {wanted}'}",
                                        amount.parameter.span,
                                        "like: cost allowance times isolation.movement_factor rounded down when ..."
                                        if wanted is None else f"name a parameter in {wanted}"))
    return found


def _override_of_nothing(rule: ir.Rule, rules: frozenset[str]) -> Diagnostic:
    near = suggester(rules, n=3, cutoff=0.5).close(rule.id.value)
    what = "amendment" if rule.amend else "override"
    hint = ("the nearest rules are " + ", ".join(near)) if near else (
        "there is nothing to amend: give the rule a title and a summary and drop amend, to add a rule of its own"
        if rule.amend else "remove 'override' to add a rule of this rulebook's own")
    return Diagnostic(f"{what} of rule {rule.id.value}, which no rulebook this one extends defines",
                      rule.id.span, hint)


# ---- amendments: one item of an inherited definition changes, the rest holds -------------------
def _amended(inherited: ir.Effective[Any], node: Any, new: list[ir.Amended],
             replaced: Collection[str] = ()) -> ir.Effective[Any]:
    """The inherited definition with `node` in effect; each item keeps the origin of its nearest amendment
    (`replaced`: earlier amendments of parts of an item amended whole, now gone)."""
    keys = {a.key for a in new} | set(replaced)
    return ir.Effective(node=node, origin=inherited.origin,
                        amended=tuple(a for a in inherited.amended if a.key not in keys) + tuple(new))


def _nothing_changes(what: str, inherited: ir.Effective[Any], key: str, shown: str, span: Span) -> Diagnostic:
    return Diagnostic(f"amendment of {what} changes nothing: {inherited.item_origin(key)} already has {shown}",
                      span, "delete the line, or give the value the game changes it to")


def _amend_rule(rule: ir.Rule, inherited: ir.Effective[ir.Rule], origin: str,
                rules: Mapping[str, ir.Effective[ir.Rule]], declared: Mapping[str, ir.Declared],
                problems: list[Diagnostic]) -> ir.Effective[ir.Rule]:
    """`amend rule 7.4 { p = v }`: the inherited rule, with the parameters listed (and the summary, notes and
    references given) changed; every other parameter as inherited."""
    base = inherited.node
    parameters = list(base.parameters)
    where = {_parameter_key(p): i for i, p in enumerate(parameters)}
    new: list[ir.Amended] = []
    seen: dict[str, ir.Parameter] = {}
    for parameter in rule.parameters:
        name = parameter.name.value
        key = _parameter_key(parameter)     # a value on some turns only (`on night`) is amended by itself
        if key in seen:
            problems.append(Diagnostic(f"{key} is amended twice", parameter.name.span,
                                       f"the first is at line {seen[key].span.line}; keep one"))
            continue
        seen[key] = parameter
        if name not in declared:
            continue  # validate reported it, with its suggestion: not searched for again
        value, errors = typed_value(parameter, declared)
        if errors:
            continue  # reported by validate
        turns = "" if parameter.turns is None else "  " + phase_turns_text(parameter.turns)
        if key not in where and parameter.turns is not None:     # a value on some turns the rule did not have
            where[key] = len(parameters)
            parameters.append(parameter)
            new.append(ir.Amended(key=key, text=_written(parameter.value) + turns, origin=origin,
                                  span=parameter.span))
            continue
        if key not in where:
            problems.append(_not_in_rule(name, parameter, rule, inherited, rules))
            continue
        old = parameters[where[key]]
        if typed_value(old, declared)[0] == value:
            problems.append(_nothing_changes(key, inherited, key, f"{name} = {_written(old.value)}{turns}",
                                             parameter.span))
            continue
        parameters[where[key]] = parameter
        new.append(ir.Amended(key=key, text=_written(parameter.value) + turns, origin=origin, span=parameter.span))
    summary = base.summary
    if rule.summary is not None:
        summary = rule.summary
        new.append(ir.Amended(key="(summary)", text=rule.summary.value, origin=origin, span=rule.summary.span))
    node = dataclasses.replace(base, parameters=tuple(parameters), summary=summary, notes=base.notes + rule.notes,
                               see=base.see + tuple(s for s in rule.see if s not in base.see))
    return _amended(inherited, node, new)


def _parameter_key(parameter: ir.Parameter) -> str:
    """What an amendment of a rule replaces a parameter line by: its name, and the turns of a value on some
    turns only ('zoc.entry_cost on night')."""
    name = parameter.name.value
    return name if parameter.turns is None else f"{name} {phase_turns_text(parameter.turns)}"


def _written(value: ir.Value) -> str:
    """A parameter's value as the rulebook writes it."""
    if isinstance(value, ir.Quoted):
        return f'"{value.value}"'
    return _shown(value).strip("'")


def _not_in_rule(name: str, parameter: ir.Parameter, rule: ir.Rule, inherited: ir.Effective[ir.Rule],
                 rules: Mapping[str, ir.Effective[ir.Rule]]) -> Diagnostic:
    owner = next((e for e in rules.values() if any(p.name.value == name for p in e.node.parameters)), None)
    message = f"rule {rule.id.value} of {inherited.origin} sets no {name}"
    if owner is not None:
        return Diagnostic(message, parameter.name.span,
                          f"{name} is set by rule {owner.node.id.value} ({owner.origin}): amend that rule")
    names = [p.name.value for p in inherited.node.parameters]
    near = suggest(name, names)
    return Diagnostic(message, parameter.name.span, near or (
        "it sets " + ", ".join(names) if names else "it sets no parameter: an amendment changes parameters only"))


def _amend_modifiers(chart: ir.Modifiers, inherited: ir.Effective[ir.Modifiers], origin: str,
                     problems: list[Diagnostic]) -> ir.Effective[ir.Modifiers]:
    """`amend die roll modifiers { mud -1 both when ... }`: a DRM listed replaces the inherited one of its
    name, or is added after the others; the others as inherited, and the cap unless the amendment gives one."""
    entries = list(inherited.node.modifiers)
    where = {m.name.value: i for i, m in enumerate(entries)}
    new: list[ir.Amended] = []
    for modifier in chart.modifiers:
        name = modifier.name.value
        if name not in where:
            near = suggest(name, where, cutoff=0.8)
            if near is not None:     # a misspelt inherited DRM, not a new one
                problems.append(Diagnostic(f"the die roll modifiers of {inherited.origin} have no '{name}'",
                                           modifier.name.span, near))
                continue
            where[name] = len(entries)
            entries.append(modifier)
        else:
            old = entries[where[name]]
            if old.text.split() == modifier.text.split():
                problems.append(_nothing_changes(f"die roll modifier '{name}'", inherited, name, "the same DRM",
                                                 modifier.span))
                continue
            entries[where[name]] = modifier
        new.append(ir.Amended(key=name, text=" ".join(modifier.text.split()), origin=origin, span=modifier.span,
                              cites=tuple(c.value for c in chart.cites)))
    cap = chart.cap if chart.cap is not None else inherited.node.cap
    if chart.cap is not None and chart.cap != inherited.node.cap:
        new.append(ir.Amended(key="cap", text=f"cap {chart.cap}", origin=origin, span=chart.span))
    node = dataclasses.replace(inherited.node, modifiers=tuple(entries), cap=cap)
    return _amended(inherited, node, new)


def _amend_terrain(chart: ir.TerrainChart, inherited: ir.Effective[ir.TerrainChart], origin: str,
                   problems: list[Diagnostic]) -> ir.Effective[ir.TerrainChart]:
    """`amend terrain effects chart { hex: / woods 3 Dx2 / village combat 2L }`: a row listed replaces the
    inherited row of its terrain, or adds a terrain the chart lacks; a single cell replaces that cell of
    the inherited row and keeps the other; every other row as inherited."""
    rows = list(inherited.node.rows)
    where = {r.name.value.lower(): i for i, r in enumerate(rows)}
    new: list[ir.Amended] = []
    replaced: set[str] = set()     # rows replaced whole: an earlier amendment of one of their cells is gone
    for row in chart.rows:
        key = row.name.value.lower()
        if row.kind is None:
            continue  # reported by validate
        near = suggest(row.name.value, where, cutoff=0.8) if key not in where else None
        if near is not None:     # a misspelt inherited terrain, not a new one
            problems.append(Diagnostic(
                f"the terrain effects chart of {inherited.origin} has no terrain '{row.name.value}'",
                row.name.span, near))
            continue
        if key not in where:     # a terrain of the game's own: after the last row of its kind
            at = max((i for i, r in enumerate(rows) if r.kind == row.kind), default=len(rows) - 1) + 1
            rows.insert(at, row)
            where = {r.name.value.lower(): i for i, r in enumerate(rows)}
            new.append(ir.Amended(key=row.name.value, text=_row_text(row), origin=origin, span=row.span))
            continue
        old = rows[where[key]]
        if old.kind != row.kind:
            problems.append(_wrong_heading(old, row.span))
            continue
        if old == row:
            problems.append(_nothing_changes(f"terrain '{row.name.value}'", inherited, old.name.value,
                                             "the same row", row.span))
            continue
        rows[where[key]] = dataclasses.replace(row, name=old.name)
        replaced |= {f"{old.name.value} movement", f"{old.name.value} combat"}
        new.append(ir.Amended(key=old.name.value, text=_row_text(row), origin=origin, span=row.span))
    for cell in chart.cells:
        key = cell.name.value.lower()
        column = "movement" if cell.movement is not None else "combat"
        if key not in where or rows[where[key]] in chart.rows:
            if key not in where:
                problems.append(Diagnostic(
                    f"the terrain effects chart of {inherited.origin} has no terrain '{cell.name.value}'",
                    cell.name.span, suggest(cell.name.value, where) or "a single cell changes a row of the "
                    "inherited chart; a terrain of the game's own needs its whole row: name, movement cost, "
                    "combat effect"))
            continue     # a new row given whole and one of its cells: reported by validate
        if cell.kind is None:
            continue  # reported by validate
        old = rows[where[key]]
        if old.kind != cell.kind:
            problems.append(_wrong_heading(old, cell.span))
            continue
        if cell.movement is not None:
            changed = dataclasses.replace(old, movement=cell.movement)
        elif cell.combat is not None:
            changed = dataclasses.replace(old, combat=cell.combat)
        else:
            continue
        item = f"{old.name.value} {column}"
        if changed == old:
            problems.append(_nothing_changes(f"the {column} of terrain '{cell.name.value}'", inherited, item,
                                             "the same cell", cell.span))
            continue
        rows[where[key]] = changed
        shown = movement_text(cell.movement) if cell.movement is not None else _fight_text(changed.combat)
        new.append(ir.Amended(key=item, text=f"{old.name.value}: {column} {shown}", origin=origin, span=cell.span))
    known = {r.name.value.lower(): r for r in rows}
    entries: tuple[ir.TerrainRow | ir.TerrainCell, ...] = (*chart.rows, *chart.cells)
    for entry in entries:    # what an amended row negates is a hexside of the chart in effect
        move = entry.movement
        if move is not None and entry.kind == "road":    # and the terrains a road's cost names, its hexes
            problems += road_cost_problems(entry.name.value, move, known)
        if move is None or move.kind != "negates" or move.target is None or entry.kind is None:
            continue
        target = known.get(move.target.value.lower())
        if target is None:
            problems.append(Diagnostic(f"unknown terrain '{move.target.value}'", move.target.span,
                                       suggest(move.target.value, known) or "negate a terrain of the chart"))
        elif target.kind != "hexside":
            problems.append(Diagnostic(f"'{entry.name.value}' can only negate a hexside feature; "
                                       f"'{target.name.value}' is {target.kind} terrain", move.target.span))
    return _amended(inherited, dataclasses.replace(inherited.node, rows=tuple(rows)), new, replaced)


def _wrong_heading(old: ir.TerrainRow, span: Span) -> Diagnostic:
    return Diagnostic(f"'{old.name.value}' is {old.kind} terrain on the inherited chart", span,
                      f"put the row under '{'roads' if old.kind == 'road' else old.kind}:'")


def _amend_sequence(sequence: ir.SequenceOfPlay, inherited: ir.Effective[ir.SequenceOfPlay], origin: str,
                    problems: list[Diagnostic]) -> ir.Effective[ir.SequenceOfPlay]:
    """`amend sequence of play { player turn { movement ... } }`: each phase listed replaces the inherited
    phase of that name in that turn (`player turn soviet { ... }`: in that side's turn only); every other
    phase, and the order, as inherited."""
    blocks = list(inherited.node.blocks)
    new: list[ir.Amended] = []
    # a turn set listed replaces the inherited one of its name, or is added after them
    turn_sets = {s.name.value: s for s in inherited.node.turn_sets}
    for turn_set in sequence.turn_sets:
        name = turn_set.name.value
        key = f"turn sets: {name}"
        old = turn_sets.get(name)
        if old is not None and old.turns == turn_set.turns:
            problems.append(_nothing_changes(f"turn set '{name}'", inherited, key, "the same turns", turn_set.span))
            continue
        turn_sets[name] = turn_set
        new.append(ir.Amended(key=key, text=" ".join([name, *(t.value for t in turn_set.turns)]), origin=origin,
                              span=turn_set.span))
    for block in sequence.blocks:
        kind = block.kind.value
        side = block.side.value if block.side is not None else None
        index = next((i for i, b in enumerate(blocks) if b.kind.value == kind
                      and (b.side.value if b.side is not None else None) == side), None)
        if index is None:
            problems.append(_no_such_turn(block, blocks, inherited.origin))
            continue
        turn = f"{kind} turn {side}" if side is not None else f"{kind} turn"
        items = list(blocks[index].items)
        where = {item.name.value: i for i, item in enumerate(items) if isinstance(item, ir.Phase)}
        for item in block.items:
            if not isinstance(item, ir.Phase):
                continue  # reported by validate
            name = item.name.value
            missing = None if item.turns is None else undeclared_turn_set(item.turns, name, turn_sets)
            if missing is not None:
                problems.append(missing)
            if name not in where:
                problems.append(Diagnostic(
                    f"the {turn} of {inherited.origin} has no phase '{name}'", item.name.span,
                    suggest(name, where) or "its phases are " + ", ".join(where) if where else
                    "an amendment changes the phases the inherited turn has"))
                continue
            key = f"{turn}: {name}"
            if items[where[name]] == item:
                problems.append(_nothing_changes(f"phase '{name}'", inherited, key, "the same phase", item.span))
                continue
            items[where[name]] = item
            activities = ", ".join(a.value for a in item.activities)
            cites = " ".join(c.value for c in item.cites)
            turns = "" if item.turns is None else " " + phase_turns_text(item.turns)
            new.append(ir.Amended(key=key, text=f"{name} [{cites}] {activities}{turns}".replace(" [] ", " ").strip(),
                                  origin=origin, span=item.span))
        blocks[index] = dataclasses.replace(blocks[index], items=tuple(items))
    node = dataclasses.replace(inherited.node, blocks=tuple(blocks), turn_sets=tuple(turn_sets.values()))
    return _amended(inherited, node, new)


def _no_such_turn(block: ir.TurnBlock, blocks: list[ir.TurnBlock], origin: str) -> Diagnostic:
    """An amended turn the inherited sequence does not have: a side it lacks, a side where every side shares
    one player turn, or one shared player turn where each side has its own."""
    kind = block.kind.value
    sides = [b.side.value for b in blocks if b.kind.value == kind and b.side is not None]
    if block.side is not None:
        side = block.side.value
        if sides:
            return Diagnostic(f"the sequence of play of {origin} has no player turn {side}", block.side.span,
                              suggest(side, sides) or "its sides are " + ", ".join(sides))
        return Diagnostic(f"the sequence of play of {origin} has no player turn {side}: its sides share one "
                          "player turn", block.side.span, "amend it as 'player turn { ... }', with no side")
    if sides:
        return Diagnostic(f"the sequence of play of {origin} has a player turn per side: name the one amended",
                          block.kind.span, "name its side after 'player turn': " + " or ".join(sides))
    return Diagnostic(f"the sequence of play of {origin} has no {kind} turn", block.kind.span,
                      "amend the phases of a turn it has")


def _row_text(row: ir.TerrainRow) -> str:
    return (f"{row.name.value}: movement {movement_text(row.movement)}, combat {_fight_text(row.combat)}"
            + (", no overrun" if row.no_overrun else "") + (", no ZOC" if row.no_zoc else "")
            + (", exerts no ZOC" if row.exerts_no_zoc else ""))


def _fight_text(combat: ir.CombatCell) -> str:
    parts = [f"A x{combat.attacker}" if combat.attacker is not None else "",
             f"D x{combat.defender}" if combat.defender is not None else "",
             f"{abs(combat.shift)}{'L' if combat.shift < 0 else 'R'}" if combat.shift else "",
             f"DRM {combat.drm:+d}" if combat.drm else "", "all-across" if combat.across == "all-across" else "",
             f"{combat.only.role} {combat.only.side.value}" if combat.only is not None else ""]
    return {"none": "ne", "prohibited": "P", "other": "ot"}.get(combat.kind) or " ".join(p for p in parts if p)


@dataclasses.dataclass(frozen=True)
class _CrtAmendment:
    """An amendment of a combat results table as it is applied: the amendment, the table in effect it
    amends, the rulebook amending it, how its cells read (the result codes in effect, else the table's
    notation), and the problems found, which it adds to."""

    table: ir.ResultsTable
    inherited: ir.Effective[ir.ResultsTable]
    origin: str
    codes: ir.ResultCodes | None
    notation: str
    read: Callable[[str], object]
    problems: list[Diagnostic]

    @property
    def base(self) -> ir.ResultsTable:
        """The table amended."""
        return self.inherited.node

    def rows(self) -> dict[str, int]:
        """The amended table's dice rows: each label's place."""
        return {r.label.value: i for i, r in enumerate(self.base.rows)}

    def wrong(self, cell: ir.Text, like: str) -> Diagnostic:
        """A cell that is no result: not one of the notation's (written `like` the table's), or not declared."""
        if self.codes is None:
            return Diagnostic(f"'{cell.value}' is not a combat result of the {self.notation} notation", cell.span,
                              "write a result as the inherited table does, like " + like)
        return Diagnostic(f"'{cell.value}' is not a declared result code", cell.span,
                          result_codes.cell_hint(self.codes, self.notation, RESULT_HINTS, cell.value))


def _amend_results(table: ir.ResultsTable, inherited: ir.Effective[ir.ResultsTable], origin: str,
                   problems: list[Diagnostic], codes: ir.ResultCodes | None = None) -> ir.Effective[ir.ResultsTable]:
    """`amend combat results table { odds 3:1 / 4 D1r2 }`: each cell listed (by its odds column and its dice
    row) replaces the inherited one; every other cell as inherited. Cells read as `codes` (the result codes
    in effect) declares, else in the table's notation."""
    base = inherited.node
    if not table.lines or not base.lines:
        return inherited   # no odds row: reported by validate; an inherited table without one, by its own
    amendment = _CrtAmendment(table, inherited, origin, codes, result_codes.family(codes, base),
                              result_codes.reader(codes, base), problems)
    line = _amended_line(amendment)
    if line is None:
        return inherited
    columns, added = _amended_columns(amendment, line)
    rows = [list(r.cells) for r in base.rows]
    new = _amended_cells(amendment, columns, rows)
    odds = list(line.columns)
    new += _added_columns(amendment, line, added, odds, rows)
    new_rows = tuple(dataclasses.replace(r, cells=tuple(cells)) for r, cells in zip(base.rows, rows))
    new_line = dataclasses.replace(line, columns=tuple(odds))
    if base.grid is not None:
        node = dataclasses.replace(base, grid=dataclasses.replace(
            base.grid, rows=new_rows, lines=tuple(new_line if l is line else l for l in base.grid.lines)))
    else:
        node = dataclasses.replace(base, sides=tuple(
            dataclasses.replace(s, rows=new_rows, odds=new_line) if s.side.value == "defender" and s.odds is not None
            else s for s in base.sides))
    return _amended(inherited, node, new)


def _amended_line(amendment: _CrtAmendment) -> ir.OddsLine | None:
    """The odds line the amendment's columns are of: the table's only one, or the one it names; None
    (reported) when the table has no such line or several and the amendment names none."""
    base, amend_line = amendment.base, amendment.table.lines[0]
    if amend_line.name is None and len(base.lines) == 1:
        return base.lines[0]
    names = {l.name.value: l for l in base.lines if l.name is not None}
    wanted = amend_line.name.value if amend_line.name is not None else ""
    if wanted in names:
        return names[wanted]
    origin = amendment.inherited.origin
    amendment.problems.append(Diagnostic(
        f"the combat results table of {origin} has no odds line '{wanted}'" if wanted else
        f"the combat results table of {origin} has several odds lines: name the one amended",
        amend_line.span, suggest(wanted, names) if wanted and suggest(wanted, names) else
        "its lines are " + ", ".join(names) if names else "it has one unnamed odds row"))
    return None


def _amended_columns(amendment: _CrtAmendment, line: ir.OddsLine
                     ) -> tuple[list[int | None], list[tuple[int, ir.Text]]]:
    """Each of the amendment's columns as the index of the line's column it amends (None for one it lacks),
    and the new odds columns it adds: (its place in the amendment, odds).  A column that is neither is
    reported."""
    columns: list[int | None] = []
    added: list[tuple[int, ir.Text]] = []
    for place, column in enumerate(amendment.table.lines[0].columns):
        index = next((i for i, c in enumerate(line.columns) if c.value == column.value), None)
        if index is None:
            columns_text = [c.value for c in line.columns]
            if len(amendment.base.lines) == 1 and parse_odds(column.value) is not None \
                    and odds_ratio(column.value) not in {odds_ratio(c) for c in columns_text if parse_odds(c)}:
                added.append((place, column))     # a new odds column: every roll is given (checked below)
            else:
                amendment.problems.append(Diagnostic(
                    f"the combat results table of {amendment.inherited.origin} has no column {column.value}",
                    column.span, suggest(column.value, columns_text) or "its columns are " + " ".join(columns_text)))
        columns.append(index)
    return columns, added


def _amended_cells(amendment: _CrtAmendment, columns: list[int | None],
                   rows: list[list[ir.Text]]) -> list[ir.Amended]:
    """Puts each cell the amendment gives in an existing column into `rows` (the table's cells, row by row),
    and says what changed; a row the table lacks, a cell that is no result or one that changes nothing
    is reported."""
    base, inherited = amendment.base, amendment.inherited
    where = amendment.rows()
    new: list[ir.Amended] = []
    for row in amendment.table.rows:
        label = row.label.value
        if label not in where:
            amendment.problems.append(Diagnostic(
                f"the combat results table of {inherited.origin} has no row {label}", row.label.span,
                suggest(label, where) or "its rows are " + " ".join(where)))
            continue
        for index, cell in zip(columns, row.cells):
            if index is None:
                continue
            if amendment.read(cell.value) is None:
                amendment.problems.append(amendment.wrong(cell, base.rows[where[label]].cells[index].value))
                continue
            key = f"{base.columns[index].value} x {label}"
            if rows[where[label]][index].value == cell.value:
                amendment.problems.append(_nothing_changes(f"cell {key}", inherited, key, cell.value, cell.span))
                continue
            rows[where[label]][index] = cell
            new.append(ir.Amended(key=key, text=cell.value, origin=amendment.origin, span=cell.span))
    return new


def _added_columns(amendment: _CrtAmendment, line: ir.OddsLine, added: list[tuple[int, ir.Text]],
                   odds: list[ir.Text], rows: list[list[ir.Text]]) -> list[ir.Amended]:
    """Inserts each new odds column, in odds order, into `odds` (the line's columns) and `rows` (the
    table's cells), and says what was added; a column short of a result on some roll (or misspelt), or
    with a cell that is no result, is reported instead."""
    base = amendment.base
    where = amendment.rows()
    new: list[ir.Amended] = []
    for place, column in added:
        given = {r.label.value: r.cells[place] for r in amendment.table.rows if place < len(r.cells)}
        missing = [r.label.value for r in base.rows if r.label.value not in given]
        if missing:     # a misspelt column, or a new one short of rolls
            near = suggest(column.value, [c.value for c in line.columns])
            amendment.problems.append(Diagnostic(
                f"the combat results table of {amendment.inherited.origin} has no column {column.value}",
                column.span,
                (f"{near} (" if near else "") + f"to add column {column.value}, give it a result on every roll; "
                f"missing: {', '.join(missing)}" + (")" if near else "")))
            continue
        unread = [c for c in given.values() if amendment.read(c.value) is None]
        amendment.problems.extend(amendment.wrong(c, base.rows[0].cells[0].value) for c in unread)
        if unread:
            continue
        at = next((i for i, c in enumerate(odds) if parse_odds(c.value) is not None
                   and odds_ratio(c.value) > odds_ratio(column.value)), len(odds))
        odds.insert(at, column)
        for label, cells in zip(where, rows):
            cells.insert(at, given[label])
        new.append(ir.Amended(key=f"{column.value} column", origin=amendment.origin, span=column.span,
                              text=" ".join(given[label].value for label in where)))
    return new


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


def _parameters(rules: tuple[ir.Effective[ir.Rule], ...], declared: Mapping[str, ir.Declared],
                sequence: ir.Effective[ir.SequenceOfPlay] | None = None
                ) -> tuple[tuple[ir.EffectiveParameter, ...], list[Diagnostic]]:
    found: dict[str, ir.EffectiveParameter] = {}
    problems = []
    limited: list[tuple[ir.Effective[ir.Rule], ir.Parameter, object]] = []    # values on some turns only
    for effective in rules:
        rule = effective.node
        for parameter in rule.parameters:
            if parameter.name.value not in declared:
                continue  # validate reported it, with its suggestion: not searched for again
            value, errors = typed_value(parameter, declared)
            if errors:
                continue  # reported by validate
            if parameter.turns is not None:
                limited.append((effective, parameter, value))
                continue
            name = parameter.name.value
            first = found.get(name)
            if first is not None:
                same = " (with the same value: remove one)" if first.value == value else ""
                if first.origin != effective.origin and not same:    # a game changing its series' value
                    hint = (f"to change {first.origin}'s value, amend its rule: amend rule {first.rule} "
                            f"{{ {name} = {_written(parameter.value)} }} (and remove it from rule {rule.id.value})")
                else:
                    hint = f"a parameter is set in one rule; the other is at {first.span.path}:{first.span.line}"
                problems.append(Diagnostic(
                    f"{name} is set by both rule {first.rule} ({first.origin}) and rule {rule.id.value} "
                    f"({effective.origin}){same}", parameter.name.span, hint))
                continue
            found[name] = ir.EffectiveParameter(name=name, value=value, rule=rule.id.value,
                                                origin=effective.item_origin(name),
                                                span=parameter.span)
    problems += _turn_values(limited, found, declared, sequence)
    return tuple(found[k] for k in sorted(found)), problems


def _turn_values(limited: list[tuple[ir.Effective[ir.Rule], ir.Parameter, object]],
                 found: dict[str, ir.EffectiveParameter], declared: Mapping[str, ir.Declared],
                 sequence: ir.Effective[ir.SequenceOfPlay] | None) -> list[Diagnostic]:
    """`zoc.entry_cost = +0 MP  on night`: each value on some game turns only joins the parameter's value of
    every other turn (`found`, changed in place).  The parameter has that value (here or in a rulebook this
    one extends), its turns are a set the sequence of play in effect declares, two of its values never hold
    on one turn, and an engine function reads it on the turn a situation says (or none does: descriptive)."""
    problems: list[Diagnostic] = []
    turn_sets = {s.name.value: s for s in sequence.node.turn_sets} if sequence is not None else {}
    for effective, parameter, value in limited:
        name, turns = parameter.name.value, parameter.turns
        assert turns is not None
        if turns.negated or turns_problems(turns.turns, name):
            continue  # reported by validate
        written = phase_turns_text(turns)
        if turns.set is not None and turns.set.value not in turn_sets:
            set_name = turns.set.value
            problems.append(Diagnostic(
                f"{name} is set on the turn set '{set_name}', which the sequence of play does not declare",
                turns.set.span, suggest(set_name, turn_sets) or (
                    f"the turn sets are {', '.join(repr(d) for d in turn_sets)}; or declare it: turns {set_name} 3 6 9"
                    if turn_sets else f"declare it in the sequence of play: turns {set_name} 3 6 9")))
            continue
        every = found.get(name)
        if every is None:
            problems.append(Diagnostic(
                f"{name} has a value {written} but none for the other turns", parameter.name.span,
                f"set its value of every turn too, without turns: {name} = ... (in this rule or another)"))
            continue
        entry = declared[name]
        if engine_parameter(name) is None and entry.descriptive is None:
            problems.append(Diagnostic(
                f"{name} cannot change by game turn: combat resolution and the rulebook's expressions read it, "
                f"and they are not told the turn", turns.span,
                "a value on some turns only is for the parameters the rules engine reads (zoc, movement, "
                "stacking, supply, retreat, overrun ...) and for descriptive ones"))
            continue
        spans = tuple(span for span in (parse_turns(t.value) for t in
                      (turn_sets[turns.set.value].turns if turns.set is not None else turns.turns)) if span is not None)
        clash = next((other for other in every.on_turns if _overlap(spans, other.spans)), None)
        if clash is not None:
            problems.append(Diagnostic(
                f"{name} has two values on one game turn: {written} and "
                f"{phase_turns_text(clash.turns)} (rule {clash.rule})", turns.span,
                f"the other is at {clash.span.path}:{clash.span.line}; give each turn one value"))
            continue
        key = f"{name} {written}"
        limited_value = ir.EffectiveTurnValue(turns=turns, spans=spans, value=value, rule=effective.node.id.value,
                                              origin=effective.item_origin(key), span=parameter.span)
        found[name] = dataclasses.replace(every, on_turns=every.on_turns + (limited_value,))
    return problems


def _overlap(a: tuple[tuple[int, int | None], ...], b: tuple[tuple[int, int | None], ...]) -> bool:
    """Whether two lists of game turns (spans, last None: for ever) share a turn."""
    never = float("inf")
    return any(max(f1, f2) <= min(never if l1 is None else l1, never if l2 is None else l2)
               for f1, l1 in a for f2, l2 in b)


def _references(rulebook: ir.Rulebook, rules: Mapping[str, ir.Effective[ir.Rule]],
                charts: Mapping[str, ir.Effective[Any]]) -> list[Diagnostic]:
    """Every rule id the rulebook itself cites must be in effect."""
    refs: list[ir.Text] = []
    for node in walk(rulebook):     # every node that cites rules, whatever its kind
        if isinstance(node, ir.Rule):
            refs += node.see
        refs += getattr(node, "cites", ())
        if isinstance(node, ir.VERDICTS) and node.refused_by:    # `refused [6.0 6.0b]`
            refs += node.refused_by
    out = []
    near_rules = None
    for ref in refs:
        if ref.value not in rules:
            near_rules = near_rules or suggester(rules)  # indexed once, only when a reference is wrong
            near = near_rules(ref.value)
            close = re.match(r"did you mean '([^']+)'\?", near or "")
            write = f"write rule {ref.value} in this rulebook"
            title = rules[close.group(1)].node.title if close is not None else None
            if close is not None:       # the close rule's title, to judge whether it is the one meant
                named = f"{close.group(1)} is \"{title.value}\"; or " if title is not None else "or "
                hint = f"did you mean '{close.group(1)}'? ({named}{write})"
            else:
                hint = f"{write}, or cite a rule in effect"
            writers = "neither this rulebook nor its series writes" if rulebook.extends else "this rulebook does not write"
            out.append(Diagnostic(f"rule {ref.value} is cited, but {writers} it", ref.span, hint))
    return out
