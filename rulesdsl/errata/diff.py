"""Semantic differences between two versions of a rulebook: an errata sheet.

Each side becomes a snapshot keyed by meaning (rules by printed id, terrain
by name, CRT cells by column and dice outcome, ...), so whitespace, comments
and the order rules are written in never show as changes.  With `resolved`,
each side is first resolved against the rulebooks it extends: the rules a
player actually plays.

Each change has a severity by what it does to play (SEVERITIES, severity_of):
a rules change, a clarification (words only), an editorial change (numbers,
references, the version) or a designer's note; and the worked examples that the
changes make answer otherwise (errata/examples.py) are listed apart.

Rules are paired by number and content: the same number with the same content,
else the most alike rule (difflib on their words, RENUMBER_THRESHOLD), else the
same number; so inserting 3.1b and shifting the rest down reads as one
insertion and renumberings.  Parameters read as their declared meanings (the
JSON keeps their ids), and each chart's changes are filed under the rule
number it cites.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from difflib import SequenceMatcher
from fractions import Fraction
from typing import Any, Callable, Mapping, assert_never, get_args

from rulesdsl.model import ir
from rulesdsl.model.catalogue import (ACTIVITIES, UNIT_SPELLINGS, movement_text, parameter_text, phase_turns_text,
                                      unit_text, vocabulary)
from rulesdsl.model.codes import clause_text, family
from rulesdsl.checks.resolve import BY_ID, BY_NAME, LAYERED, MERGED, RESOLUTION, rule_order
from rulesdsl.runtime.tables import DICE_OUTCOMES, roll_range
from rulesdsl.model.walk import iter_fields

# What a change does to play, in the order an errata sheet lists them:
#   rules          players do something else: a value, cell, row, phase, terrain, code, chart, definition or
#                  rule added, removed or changed; phases in another order; an override made or withdrawn;
#                  another series extended
#   examples       what the rules changes do: a worked example whose expect line the new rules answer
#                  otherwise (errata/examples.py)
#   clarification  the words changed, what the rules compute did not: a rule's or a chart's title, a
#                  summary, a translation, a worked example
#   editorial      numbers and references: a renumbering, cross references and citations, the rulebook's
#                  version and title, the card's looks
#   note           a designer's note: no errata at all
SEVERITIES = ("rules", "examples", "clarification", "editorial", "note")
_WORDING = ("summary", "title", "more summaries")

# what a sheet says of an override made or withdrawn (errata/sheets.py prints them in its language)
RULE_AGAIN = "the series rule applies again"
RULE_AGAIN_AMENDED = "the series rule applies again, as this title amends it"
CHART_AGAIN = "the series chart applies again"
OWN_RULE = "this title's own rule replaces the series rule"
_REFERENCES = ("cross references", "cites", "version")


def severity_of(area: str, kind: str, what: str) -> str:
    """The severity of a change (SEVERITIES), from its area, its kind and what changed."""
    if what == "designer's notes" or what in _ACCOUNTING:
        return "note"
    if kind == "renumbered":
        return "editorial"
    if kind == "answers otherwise":
        return "examples"
    if area == "rulebook":
        return "rules" if what in ("extends", "kind") else "editorial"
    if kind == "changed" and what in _WORDING:      # a rule's or a chart's words
        return "clarification"
    if what in _REFERENCES:
        return "editorial"
    if area in ("labels", "examples"):
        return "clarification"
    if area == "card":
        return "editorial"
    return "rules"
AREAS = ("rulebook", "rule", "sequence", "terrain", "results", "result-codes", "modifiers", "shifts", "adjustments",
         "unit-factors", "tables", "unit-types", "vocabulary", "parameters", "rounding", "labels", "examples", "card")


@dataclass(frozen=True)
class Change:
    area: str            # one of AREAS
    group: str           # the rule id for rule changes, else the area's heading
    kind: str            # added, removed, changed, renumbered, reordered, withdrawn, overridden, answers otherwise
    what: str            # what changed, in the rulebook's words (a parameter's id: the JSON keeps it)
    old: str | None
    new: str | None
    meaning: str | None = None   # a parameter's declared meaning, in players' words
    details: tuple[str, ...] = ()   # the content of what was added or removed, a line each
    rule: str | None = None      # the rule number it is filed under: its rule's, or the chart's first cite
    # what `what` is composed of, for a sheet in another language (errata/examples.py: an example's
    # rulebook, title, query, file and line)
    parts: tuple[str, ...] = ()

    @property
    def severity(self) -> str:
        """What the change does to play: one of SEVERITIES (`severity_of`)."""
        return severity_of(self.area, self.kind, self.what)

    @property
    def label(self) -> str:
        """What changed, as a player reads it: a parameter by its declared meaning (its id only in the JSON)."""
        if not self.meaning:
            return self.what
        return f"{self.meaning[:1].upper()}{self.meaning[1:]}"

    def __str__(self) -> str:
        if self.kind in ("changed", "answers otherwise"):
            return f"{self.label}: {self.old} -> {self.new}"
        if self.kind == "renumbered":
            return f"{self.label}: renumbered {self.old} -> {self.new}"
        if self.kind == "reordered":
            return f"{self.label}: {self.old} -> {self.new}"
        if self.kind in ("withdrawn", "overridden"):
            return f"{self.kind} {self.label}: {self.new}"
        value = self.new if self.kind == "added" else self.old
        return f"{self.kind} {self.label}" + (f": {value}" if value else "")


# ---- snapshots ---------------------------------------------------------------------
# A snapshot holds every field of every node that is part of its meaning (walk.iter_fields: not spans,
# not the text kept for messages), keyed by meaning: rules by id, terrain by name, CRT cells by column
# and roll ...  Each statement kind has its area and its snapshot function (SNAPSHOTS); within an area,
# items are records {field: text} built by walking their fields, so a field added to a node shows up
# in the diff without anyone listing it here (tests/test_diff.py mutates every field and expects a change).

def expression_text(expr: ir.Expr | None) -> str:
    """An expression as text, from the model (comments and layout gone)."""
    if expr is None:
        return ""
    if isinstance(expr, ir.Number):
        return str(expr.value)
    if isinstance(expr, ir.OddsLiteral):
        return expr.text
    if isinstance(expr, ir.Name):
        return expr.path
    if isinstance(expr, ir.Unary):
        return f"{expr.op}{' ' if expr.op == ir.UnaryOp.NOT else ''}{_operand(expr.operand)}"
    if isinstance(expr, ir.Binary):
        if expr.op == ir.BinaryOp.DIV and isinstance(expr.left, ir.Number) and isinstance(expr.right, ir.Number):
            return f"{expr.left.value}/{expr.right.value}"      # a fraction, as written
        return f"{_operand(expr.left)} {expr.op} {_operand(expr.right)}"
    if isinstance(expr, ir.Is):
        return f"{_operand(expr.operand)} is {expr.word.value}"
    if isinstance(expr, ir.Call):
        inner = ", ".join(expression_text(a) for a in expr.args)
        if expr.where is not None:
            inner += f" where {expression_text(expr.where)}"
        if expr.of is not None:
            inner += f" of {expression_text(expr.of)}"
        return f"{expr.function.value}({inner})"
    assert_never(expr)


def _operand(expr: ir.Expr) -> str:
    text = expression_text(expr)
    return f"({text})" if isinstance(expr, (ir.Binary, ir.Is)) else text


def _definition(definition: ir.Definition) -> str:
    if definition.expr is not None:
        return expression_text(definition.expr)
    return "; ".join(f"{c.result.value} " + (f"when {expression_text(c.condition)}" if c.condition is not None
                                             else "otherwise") for c in definition.cases)


def _combat(cell: ir.CombatCell) -> str:
    """As the chart prints it; any field that printing leaves out is added, so no change goes unseen."""
    from rulesdsl.cards.charts import combat_text
    extra = [] if cell.kind == ir.CombatKind.MULTIPLY else \
        [f"{name} {_text(value)}" for name, value in iter_fields(cell) if name != "kind" and value not in (None, 0, (), ir.Crossing.ANY)]
    return " ".join([combat_text(cell), *extra, *(t.value for t in cell.repeated)])


# How a node prints as one value; any other node prints its fields in turn.
_SHOWN: dict[type, Callable[[Any], str]] = {
    ir.Text: lambda n: n.value, ir.Quoted: lambda n: f'"{n.value}"', ir.Parameter: parameter_text,
    ir.MovementCell: movement_text, ir.CombatCell: _combat, ir.Definition: _definition,
    ir.CodeClause: clause_text, ir.PhaseTurns: phase_turns_text,
    ir.TurnSet: lambda n: " ".join([n.name.value, *(t.value for t in n.turns)]),
    **{kind: expression_text for kind in get_args(ir.Expr)},
}


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (str, int, Fraction)):
        return str(value)
    if isinstance(value, tuple):
        return ", ".join(_text(v) for v in value)
    if type(value) in _SHOWN:
        return _SHOWN[type(value)](value)
    return " ".join(t for t in (_text(v) for _, v in iter_fields(value)) if t)


def _record(node: Any, *skip: str) -> dict[str, str]:
    """Every meaning field of a node but those in `skip` (its key, items snapshotted by key), as text."""
    return {name: _text(value) for name, value in iter_fields(node) if name not in skip}


_BLOCK = "(chart)"   # the key of a chart's own fields (title, cites, cap ...) in its area
_OWN = "(own override)"   # resolved: the rule in effect is this rulebook's override of its series'


def _items(blocks: list[Any], items: str, key: str) -> dict[str, dict[str, str]]:
    """A chart's own fields under (chart), then each item's record under the value of its `key` field."""
    out: dict[str, dict[str, str]] = {}
    for block in blocks:
        out.setdefault(_BLOCK, {}).update(_record(block, items))
        for item in getattr(block, items):
            out[_text(getattr(item, key))] = _record(item, key)
    return out


def _rules_snapshot(rules: list[ir.Rule]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for rule in rules:
        entry: dict[str, Any] = _record(rule, "id", "parameters", "definitions", "see", "requires", "effects")
        # a value on some game turns only is a parameter line of its own: 'zoc.entry_cost on night'
        entry["parameters"] = {p.name.value if p.turns is None else f"{p.name.value} {phase_turns_text(p.turns)}":
                               parameter_text(p) for p in rule.parameters}
        entry["definitions"] = {d.name.value: _definition(d) for d in rule.definitions}
        entry["see"] = ", ".join(sorted(s.value for s in rule.see))          # a set: order means nothing
        entry["requires"] = ", ".join(sorted(r.value for r in rule.requires))
        entry["effects"] = _effects(rule.effects)
        out[rule.id.value] = entry
    return out


def amount_text(amount: ir.EffectAmount) -> str:
    """A `cost` effect's amount as a rulebook writes it: +1 MP, 3 MP, min 1 MP, max isolation.x, times 1/2
    rounded down."""
    how = {ir.AmountHow.AT_LEAST: "min ", ir.AmountHow.AT_MOST: "max ", ir.AmountHow.TIMES: "times "}.get(amount.how, "")
    if amount.parameter is not None:
        said = amount.parameter.value
    else:
        assert amount.value is not None
        sign = "+" if amount.how is ir.AmountHow.ADD and amount.value >= 0 else ""
        said = f"{sign}{amount.value}{' ' + amount.unit.value if amount.unit is not None else ''}"
    return f"{how}{said}{' rounded down' if amount.rounded_down else ''}"


def _effects(effects: tuple[ir.Effect, ...]) -> dict[str, str]:
    """A rule's effects by what they do to which question ('forbid react', a second one 'forbid react (2)'),
    each with its condition as written."""
    out: dict[str, str] = {}
    for effect in effects:
        key = f"{effect.kind} {effect.question.value}"
        n = sum(1 for k in out if k == key or k.startswith(key + " ("))
        said = "" if effect.amount is None else amount_text(effect.amount) + " "
        out[key if n == 0 else f"{key} ({n + 1})"] = said + "when " + expression_text(effect.condition)
    return out


def _vocabulary(blocks: list[ir.Vocabulary]) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for block in blocks:
        entry = out.setdefault(f"combat {block.kind}" if block.kind != "states" else "unit states", {})
        names = set(filter(None, entry.get("names", "").split(", "))) | {n.value for n in block.names}
        entry.update(_record(block, "kind", "names", "cites"))
        entry["names"] = ", ".join(sorted(names))
        entry["cites"] = ", ".join(filter(None, [entry.get("cites", ""), _text(block.cites)]))
    return out


def _labels(blocks: list[ir.Labels]) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for block in blocks:    # nearest first: the first word for a key is the one in effect
        entry = out.setdefault(block.lang.value, {})
        for name, value in _record(block, "lang", "labels").items():
            entry.setdefault(name, value)
        for key, text in block.labels:
            entry.setdefault(key.value, text.value)
    return out


def _sequence_snapshot(blocks: list[ir.SequenceOfPlay]) -> dict[str, Any]:
    # sides: each side's own player turn (`player turn german { ... }`); its phases' details are under
    # "german: movement"
    snap: dict[str, Any] = {"phases": [], "game_turn": [], "sides": {}, "phase_detail": {}, "chart": {}}
    for sequence in blocks[:1]:
        snap["chart"] = _record(sequence, "blocks", "turn_sets")
        snap["chart"]["turns"] = ", ".join(block.kind.value for block in sequence.blocks)
        for turn_set in sequence.turn_sets:     # `turns night 3 6 9 12`: each set a field of the chart
            snap["chart"][f"turn set {turn_set.name.value}"] = " ".join(t.value for t in turn_set.turns)
        for block in sequence.blocks:
            for item in block.items:
                if isinstance(item, ir.PlayerTurnSlot):
                    snap["game_turn"].append(f"player turn {item.name.value}")
                    continue
                if block.side is not None and block.kind.value == "player":
                    snap["sides"].setdefault(block.side.value, []).append(item.name.value)
                    name = f"{block.side.value}: {item.name.value}"
                else:
                    name = item.name.value if block.kind.value == "player" else f"game turn: {item.name.value}"
                    (snap["phases"] if block.kind.value == "player" else snap["game_turn"]).append(name)
                snap["phase_detail"][name] = _record(item, "name")
            if block.side is not None:
                snap["sides"].setdefault(block.side.value, [])
    return snap


def _tables(tables: list[ir.LookupTable]) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for table in tables:
        entry = _record(table, "name", "rows", "header")
        entry["key"] = table.header[0].value if table.header else ""
        head = [c.value for c in table.header]
        for row in table.rows:
            for column, cell in zip(head[1:], row[1:]):
                entry[f"{row[0].value} x {column}"] = cell.value
            if len(row) != len(head):
                entry[f"{row[0].value} (cells)"] = _text(row)
        out[table.name.value] = entry
    return out


def _results_snapshot(blocks: list[ir.ResultsTable]) -> dict[str, str]:
    if not blocks:
        return {}
    node = blocks[0]
    out = {"(dice)": node.dice.value, "(notation)": node.notation.value if node.notation else "steps-first"}
    out.update({f"({name})": value for name, value in _record(
        node, "dice", "notation", "grid", "sides").items()})
    out["(sides)"] = ", ".join(s.side.value for s in node.sides)
    def read(line: ir.OddsLine) -> str:       # a differential row says so: its columns are no odds
        return ("difference " if line.differential else "") + " ".join(c.value for c in line.columns)

    out["(columns)"] = read(node.lines[0]) if node.lines else ""
    for index, line in enumerate(node.lines[1:] if node.lines and node.lines[0].name is None else node.lines):
        name = line.name.value if line.name is not None else str(index + 2)
        out[f"(line {name})"] = read(line)
    if node.attacker is not None:
        out["(attacker side columns)"] = " ".join(c.value for c in node.attacker.columns)
    outcomes = DICE_OUTCOMES.get(node.dice.value, ())

    def cells(prefix: str, columns: tuple[ir.Text, ...], rows: tuple[ir.DiceRow, ...]) -> None:
        ranges = [(roll_range(r.label.value), r) for r in rows]
        rolls = sorted(set(outcomes) | {lo for (lo, hi), _ in ranges if abs(lo) < 1000}
                       | {hi for (lo, hi), _ in ranges if abs(hi) < 1000})
        for roll in rolls:
            row = next((r for (lo, hi), r in ranges if lo <= roll <= hi), None)
            if row is None:
                continue
            for column, cell in zip(columns, row.cells):
                out[f"{prefix}{column.value} x {roll}"] = cell.value
            if len(row.cells) != len(columns):
                out[f"{prefix}(cells) x {roll}"] = _text(row.cells)

    cells("", node.columns, node.rows)
    if node.attacker is not None:
        cells("attacker side, defense ", node.attacker.columns, node.attacker.rows)
    return out


def _by_name(items: str, key: str = "name") -> Callable[[list[Any]], dict[str, dict[str, str]]]:
    return lambda blocks: _items(blocks, items, key)


def _terrain(blocks: list[ir.TerrainChart]) -> dict[str, dict[str, str]]:
    """Rows by terrain; an amendment's single cells by terrain and column (`woods combat`)."""
    out = _items(blocks, "rows", "name")
    for block in blocks:
        out.get(_BLOCK, {}).pop("cells", None)
        for cell in block.cells:
            out[f"{cell.name.value} {'movement' if cell.movement is not None else 'combat'}"] = _record(cell, "name")
    return out


def _rounding(blocks: list[ir.Rounding]) -> dict[str, dict[str, str]]:
    return {block.name.value: _record(block, "name") for block in blocks[:1]}


def _examples(blocks: list[ir.Example]) -> dict[str, dict[str, str]]:
    """Examples by title; in each, its cites and each line of its situation keyed by meaning (a unit by its
    name, an expect line by its query), so a changed expectation reads `expect move 6 ...: costs 1 2 -> ...`."""
    from rulesdsl.checks.situations import lines
    out: dict[str, dict[str, str]] = {}
    for block in blocks:
        title = f"{block.title.value} (line {block.span.line})" if block.title.value in out else block.title.value
        out[title] = {"cites": _text(block.cites), **lines(block.situation)}
    return out


# The area of the snapshot each statement kind fills, and how (tests/test_walk.py checks every kind is here).
SNAPSHOTS: dict[type, tuple[str, Callable[[list[Any]], Any]]] = {
    ir.Rule: ("rules", _rules_snapshot),
    ir.UnitTypes: ("unit_types", _by_name("types")),
    ir.Vocabulary: ("vocabulary", _vocabulary),
    ir.ParameterDeclarations: ("parameter_declarations", _by_name("declarations")),
    ir.Modifiers: ("modifiers", _by_name("modifiers")),
    ir.Shifts: ("shifts", _by_name("shifts", "source")),
    ir.Adjustments: ("adjustments", _by_name("adjustments")),
    ir.UnitFactors: ("unit_factors", _by_name("factors")),
    ir.Rounding: ("rounding", _rounding),
    ir.SequenceOfPlay: ("sequence", _sequence_snapshot),
    ir.TerrainChart: ("terrain", _terrain),
    ir.ResultsTable: ("results", _results_snapshot),
    ir.ResultCodes: ("result_codes", _by_name("codes", "code")),
    ir.LookupTable: ("tables", _tables),
    ir.Labels: ("labels", _labels),
    ir.Example: ("examples", _examples),
    ir.Card: ("card", _by_name("swatches", "terrain")),
}


def _in_effect(rulebook: ir.Rulebook, resolved: ir.Resolved | None) -> dict[type, list[Any]]:
    """The statements of each kind: the rulebook's own, or, resolved, those in effect (resolve.RESOLUTION)."""
    if resolved is None:
        return {kind: list(getattr(rulebook, field)) for kind, field in ir.STATEMENT_FIELD.items()}
    books = (resolved.rulebook, *resolved.ancestors)     # nearest first
    out: dict[type, list[Any]] = {}
    for kind, field in ir.STATEMENT_FIELD.items():
        how = RESOLUTION[kind]
        if how == BY_ID:
            out[kind] = [e.node for e in resolved.rules]
        elif how == BY_NAME:
            out[kind] = [e.node for e in resolved.tables]
        elif how in (MERGED, LAYERED):
            out[kind] = [block for book in books for block in getattr(book, field)]
        elif isinstance(getattr(resolved, field, None), ir.Effective):   # a chart, with its amendments
            out[kind] = [getattr(resolved, field).node]
        else:  # a chart: the nearest rulebook's
            out[kind] = next(([getattr(book, field)[0]] for book in books if getattr(book, field)), [])
    return out


def snapshot(rulebook: ir.Rulebook, resolved: ir.Resolved | None = None,
             declared: Mapping[str, ir.Declared] | None = None, applies: ir.Resolved | None = None) -> dict[str, Any]:
    """The meaning of a rulebook (or, resolved, of the rules in effect) as plain data; `declared` (by
    default the resolved rulebook's vocabulary) gives what each parameter means, for the errata; `applies`
    (the rulebook resolved, when its series could be read) gives the values in effect, so that a withdrawn
    override can say what applies again."""
    header = _record(rulebook, *ir.STATEMENT_FIELD.values())
    snap: dict[str, Any] = {"rulebook": {key: header.pop(key) for key in ("id", "kind", "title", "version",
                                                                          "extends")}}
    snap["rulebook"].update(header)
    statements = _in_effect(rulebook, resolved)
    for kind, (area, make) in SNAPSHOTS.items():
        snap[area] = make(statements[kind])
    if declared is None:
        declared = resolved.declared if resolved is not None else {}
    if not declared:   # by itself: the core vocabulary and what the rulebook declares are still known
        declared = vocabulary([rulebook])[0]
    snap["meanings"] = {name: meaning for rule in snap["rules"].values() for name in rule["parameters"]
                        for meaning in (_meaning(name, declared),) if meaning is not None}
    in_effect = resolved or applies
    if in_effect is not None:     # each rule's values in effect, in players' words
        records = SNAPSHOTS[ir.Rule][1]([effective.node for effective in in_effect.rules])
        known = {**in_effect.declared, **declared}
        snap["applies"] = {key: [f"{_words(meaning) if (meaning := _meaning(name, known)) else name}: {value}"
                                 for name, value in record["parameters"].items()]
                           for key, record in records.items()}
    snap["resolved"] = resolved is not None
    if resolved is not None:   # resolution has used up `override`: it chose what is in effect
        for entry in [*snap["rules"].values(), snap["sequence"]["chart"],
                      *(snap[area].get(_BLOCK, {}) for area in _KEYED)]:
            entry.pop("override", None)
            entry.pop("amend", None)
        for effective in resolved.rules:    # a title's own override in effect: withdrawing it is reported as such
            entry = snap["rules"].get(effective.node.id.value)
            if entry is not None and effective.origin == resolved.id and effective.node.override:
                entry[_OWN] = "yes"
            elif entry is not None and any(a.origin == resolved.id for a in effective.amended):
                entry[_OWN] = "amended"     # the series' rule, with this rulebook's amendment
        snap["results"].pop("(override)", None)
        snap["results"].pop("(amend)", None)
        if resolved.results is not None:   # the notation in effect: the family of the codes in effect, if any
            snap["results"]["(notation)"] = family(
                resolved.result_codes.node if resolved.result_codes is not None else None, resolved.results.node)
    return snap


# ---- comparing ---------------------------------------------------------------------
# area of the snapshot -> (area of a change, heading, noun of an item)
_KEYED = {
    "terrain": ("terrain", "Terrain Effects Chart", "terrain"),
    "modifiers": ("modifiers", "Die roll modifiers", "modifier"),
    "shifts": ("shifts", "Column shifts", "shift source"),
    "adjustments": ("adjustments", "Result adjustments", "adjustment"),
    "unit_factors": ("unit-factors", "Strength factors", "strength factor"),
    "tables": ("tables", "Other charts", "table"),
    "unit_types": ("unit-types", "Unit types", "unit type"),
    "vocabulary": ("vocabulary", "Unit states and combat words", "list"),
    "parameter_declarations": ("parameters", "Parameters declared", "parameter"),
    "rounding": ("rounding", "Rounding", "rounding rule"),
    "result_codes": ("result-codes", "Result codes", "result code"),
    "labels": ("labels", "Labels", "language"),
    "examples": ("examples", "Worked examples", "example"),
    "card": ("card", "Player-aid card", "swatch"),
}


def compare(old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    changes: list[Change] = []
    resolved = old.get("resolved") and new.get("resolved")
    for key in old["rulebook"]:
        a, b = old["rulebook"][key], new["rulebook"].get(key, "")
        # the ids are the sheet's title; resolved, each side is the rules in effect: what it extends is no change
        if key == "id" or (key == "extends" and resolved):
            continue
        if a != b:
            changes.append(Change("rulebook", "rulebook", "changed", key, a or "(none)", b or "(none)"))
    changes += _rules(old["rules"], new["rules"], {**old.get("meanings", {}), **new.get("meanings", {})},
                      new.get("applies", {}))
    sequence = _cite(new["sequence"]["chart"].get("cites") or old["sequence"]["chart"].get("cites"))
    if old["sequence"]["chart"].get("override") == "yes" and not new["sequence"]["chart"]:
        changes.append(_withdrawn_chart("sequence", "Sequence of play", sequence))
    else:
        changes += _filed(_sequence(old["sequence"], new["sequence"]), sequence)
    results = _cite(new["results"].get("(cites)") or old["results"].get("(cites)"))
    if old["results"].get("(override)") == "yes" and not new["results"]:
        changes.append(_withdrawn_chart("results", "Combat Results Table", results))
    else:
        changes += _filed(_results(old["results"], new["results"]), results)
    for name, (area, heading, noun) in _KEYED.items():
        if old[name].get(_BLOCK, {}).get("override") == "yes" and not new[name]:
            changes.append(_withdrawn_chart(area, heading, _cite(old[name][_BLOCK].get("cites"))))
        else:
            changes += _keyed(area, heading, old[name], new[name], noun)
    return changes


def _withdrawn_chart(area: str, heading: str, rule: str | None) -> Change:
    """A title's own version of a chart withdrawn: its series' chart is in effect again, nothing is removed."""
    return Change(area, heading, "withdrawn", f"override of the {heading}", None, CHART_AGAIN, rule=rule)


def _cite(cites: str | None) -> str | None:
    """The rule number a chart is filed under: the first it cites."""
    first = (cites or "").split(",")[0].strip()
    return first or None


def _filed(changes: list[Change], rule: str | None) -> list[Change]:
    return [replace(c, rule=rule) if c.rule is None else c for c in changes]


_RULE_NOUNS = {"see": "cross references", "requires": "requirements", "extra_summaries": "more summaries",
               "notes": "designer's notes", "descriptive": "why nothing executes it",
               "executed_by": "the engine question it is"}
# how a rule is accounted for (`descriptive ...`, `executed by ...`): coverage's business, no errata
_ACCOUNTING = ("why nothing executes it", "the engine question it is")
# fields of a rule's record that are no content of it
_NOT_CONTENT = ("numbered", "override", "amend", _OWN)
RENUMBER_THRESHOLD = 0.6    # how alike (difflib's ratio on their words) two rules must be to be one renumbered


def _rule_noun(key: str, rule: dict[str, Any]) -> str:
    """'rule 6.0c Target hex cost limit', 'override of rule 6.0c ...', or 'amendment of rule 7.4'."""
    if rule.get("amend") == "yes":
        return f"amendment of rule {key}"
    if rule.get("override") == "yes":
        return f"override of rule {key} {rule['title']}".rstrip()
    return f"rule {key} {rule['title']}".rstrip()


def _meaning(key: str, declared: Mapping[str, ir.Declared]) -> str | None:
    """What a parameter line of a rule means: its declared meaning, and for a value on some game turns only
    ('zoc.entry_cost on night') which turns ('..., on night turns')."""
    name, _, turns = key.partition(" ")
    if name not in declared:
        return None
    meaning = declared[name].meaning
    if not turns:
        return meaning
    return f"{meaning}, {turns if turns.startswith('on turns') else turns + ' turns'}"


def _words(meaning: str) -> str:
    return f"{meaning[:1].upper()}{meaning[1:]}"


def _content(rule: dict[str, Any], meanings: Mapping[str, str]) -> tuple[str, ...]:
    """What a rule says, a line each, in players' words: its parameters by meaning, its definitions and
    cross references (its summary is the change's value; its designer's notes are reported apart)."""
    lines = [f"{_words(meanings[name]) if name in meanings else name}: {value}"
             for name, value in rule["parameters"].items()]
    lines += [f"definition {name}: {value}" for name, value in rule["definitions"].items()]
    lines += [f"{what} {value}" for what, value in rule.get("effects", {}).items()]
    lines += [f"{_RULE_NOUNS.get(field, field)}: {rule[field]}" for field in ("see", "requires", "extra_summaries")
              if rule.get(field)]
    return tuple(lines)


def _similarity_text(rule: dict[str, Any]) -> list[str]:
    parts = [str(v) for k, v in rule.items() if k not in _NOT_CONTENT and isinstance(v, str)]
    parts += [f"{k} {v}" for k, v in rule["parameters"].items()]
    parts += [f"{k} {v}" for k, v in rule["definitions"].items()]
    return " ".join(parts).split()


def _pairs(old: dict[str, Any], new: dict[str, Any]) -> dict[str, str]:
    """Which new rule each old rule became: the same number with the same content; else the most alike
    rule (difflib's ratio on their words, at least RENUMBER_THRESHOLD; the same number wins a tie); else
    the same number.  An old rule with no pair was removed, a new rule with none added."""
    pairs = {k: k for k in old if k in new and old[k] == new[k]}
    free_old = [k for k in old if k not in pairs]
    free_new = [k for k in new if k not in pairs]
    texts = {("new", k): _similarity_text(new[k]) for k in free_new}
    candidates: list[tuple[float, int, str, str]] = []
    for a in free_old:
        words = _similarity_text(old[a])
        matcher = SequenceMatcher(None, autojunk=False)
        matcher.set_seq2(words)
        for b in free_new:
            if old[a].get("amend") != new[b].get("amend"):
                continue
            matcher.set_seq1(texts[("new", b)])
            if matcher.real_quick_ratio() < RENUMBER_THRESHOLD or matcher.quick_ratio() < RENUMBER_THRESHOLD:
                continue
            ratio = matcher.ratio()
            if ratio >= RENUMBER_THRESHOLD:
                candidates.append((ratio, a == b, a, b))
    taken: set[str] = set()
    for _, _, a, b in sorted(candidates, key=lambda c: (-c[0], not c[1])):
        if a not in pairs and b not in taken:
            pairs[a] = b
            taken.add(b)
    for a in free_old:    # rewritten under its own number
        if a not in pairs and a in new and a not in taken:
            pairs[a] = a
            taken.add(a)
    return pairs


def _applies_again(key: str, applies: Mapping[str, list[str]], amended: bool = False) -> str:
    """What a withdrawn override leaves in effect: the series rule (as the title amends it), with the values
    in effect where they are known."""
    values = applies.get(key)
    return ((RULE_AGAIN_AMENDED if amended else RULE_AGAIN)
            + (": " + "; ".join(values) if values else ""))


def _rules(old: dict[str, Any], new: dict[str, Any], meanings: dict[str, str],
           applies: Mapping[str, list[str]] | None = None) -> list[Change]:
    applies = applies or {}
    changes = []
    pairs = _pairs(old, new)
    became = set(pairs.values())
    for key, rule in old.items():
        if key in pairs:
            continue
        if rule.get("override") == "yes" or rule.get("amend") == "yes":   # the series' rule is in effect again
            changes.append(Change("rule", key, "withdrawn", _rule_noun(key, rule), rule["summary"] or
                                  None, _applies_again(key, applies),
                                  details=_content(rule, meanings), rule=key))
        else:
            changes.append(Change("rule", key, "removed", _rule_noun(key, rule), rule["summary"] or None, None, details=_content(rule, meanings), rule=key))
    for key, rule in new.items():
        if key in became:
            continue
        changes.append(Change("rule", key, "added", _rule_noun(key, rule), None,
                              rule["summary"] or None,
                              details=_content(rule, meanings), rule=key))
        if rule.get("notes"):
            changes.append(Change("rule", key, "added", "designer's notes", None, rule["notes"], rule=key))
    renumbered = {was: key for was, key in pairs.items() if was != key}
    for was, key in pairs.items():
        a, b = old[was], new[key]
        if renumbered and a.get("see"):   # a cross reference that follows a renumbering is no change
            a = {**a, "see": ", ".join(sorted(renumbered.get(r, r) for r in a["see"].split(", ")))}
        if was != key:
            changes.append(Change("rule", key, "renumbered", f"rule {b['title']}".rstrip(), was, key,
                                  rule=key))
        if a.get(_OWN) == "yes" and b.get(_OWN) != "yes":
            again = _applies_again(key, applies, amended=b.get(_OWN) == "amended")
            changes.append(Change("rule", key, "withdrawn", f"override of rule {key} {a['title']}".rstrip(), None,
                                  again, rule=key))
        elif b.get(_OWN) == "yes" and a.get(_OWN) != "yes":
            changes.append(Change("rule", key, "overridden", f"rule {key}", None,
                                  OWN_RULE, rule=key))
        for field in dict.fromkeys([*a, *b]):
            if field in ("parameters", "definitions", "effects", _OWN) or a.get(field, "") == b.get(field, ""):
                continue
            changes.append(Change("rule", key, "changed", _RULE_NOUNS.get(field, field), a.get(field) or "(none)",
                                  b.get(field) or "(none)",
                                  rule=key))
        for name in sorted(set(a["parameters"]) | set(b["parameters"])):
            pa, pb = a["parameters"].get(name), b["parameters"].get(name)
            if pa == pb:
                continue
            meaning = meanings.get(name)
            if pa is None:
                changes.append(Change("rule", key, "added", name, None, pb, meaning, rule=key))
            elif pb is None:
                changes.append(Change("rule", key, "removed", name, pa, None, meaning, rule=key))
            else:
                changes.append(Change("rule", key, "changed", name, pa, pb, meaning, rule=key))
        effects_a, effects_b = a.get("effects", {}), b.get("effects", {})
        for name in dict.fromkeys([*effects_a, *effects_b]):     # each effect, as each parameter: added, removed
            ea, eb = effects_a.get(name), effects_b.get(name)
            if ea != eb:
                kind = "added" if ea is None else "removed" if eb is None else "changed"
                changes.append(Change("rule", key, kind, name, ea, eb, rule=key))
        for name in sorted(set(a["definitions"]) | set(b["definitions"])):
            da, db = a["definitions"].get(name), b["definitions"].get(name)
            if da != db:
                kind = "added" if da is None else "removed" if db is None else "changed"
                changes.append(Change("rule", key, kind, f"definition {name}", da, db,
                                      rule=key))
    return changes


def _activities(text: str) -> str:
    """'movement, overrun' as a player reads it: 'units move; units may overrun'."""
    return "; ".join(ACTIVITIES.get(a.strip(), a.strip()) for a in text.split(",") if a.strip())


def _phase_content(detail: dict[str, str] | None) -> tuple[str, ...]:
    """A phase as a player reads it: the rule it cites, what happens in it, its note apart."""
    if not detail:
        return ()
    lines = [f"rule {detail['cites']}"] if detail.get("cites") else []
    activities = [a.strip() for a in detail.get("activities", "").split(",") if a.strip()]
    lines += [ACTIVITIES.get(a, a) for a in activities]
    lines += [f"{f}: {v}" for f, v in detail.items() if f not in ("cites", "activities", "note") and v]
    return tuple(lines)


def _position(names: list[str], name: str) -> str:
    index = names.index(name)
    where = f"after {names[index - 1]}" if index else "first"
    return f"{index + 1} of {len(names)}, {where}"


def _sequence(old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    changes = []
    heading = "Sequence of play"
    for field in dict.fromkeys([*old["chart"], *new["chart"]]):     # a turn set only one of them declares
        value, other = old["chart"].get(field, ""), new["chart"].get(field, "")
        if value != other:
            changes.append(Change("sequence", heading, "changed", field, value or "(none)", other or "(none)"))
    lists = [(old["phases"], new["phases"], "player turn phase", heading, ""),
             (old["game_turn"], new["game_turn"], "game turn step", heading, "")]
    for side in dict.fromkeys([*old["sides"], *new["sides"]]):
        # a side's own player turn: its phases are reported under that side
        lists.append((old["sides"].get(side, []), new["sides"].get(side, []), "phase",
                      f"{heading}: {side} player turn", f"{side}: "))
    for a, b, noun, where, prefix in lists:
        for name in b:
            if name not in a:
                changes.append(Change("sequence", where, "added", f"{noun} {name}", None, _position(b, name), details=_phase_content(new["phase_detail"].get(prefix + name))))
        for name in a:
            if name not in b:
                changes.append(Change("sequence", where, "removed", f"{noun} {name}", f"was {_position(a, name)}",
                                      None,
                                      details=_phase_content(old["phase_detail"].get(prefix + name))))
        common_a = [n for n in a if n in b]
        common_b = [n for n in b if n in a]
        if common_a != common_b:
            changes.append(Change("sequence", where, "reordered", f"{noun}s", ", ".join(common_a),
                                  ", ".join(common_b)))
    for name in old["phase_detail"]:
        if name in new["phase_detail"]:
            side, _, phase = name.partition(": ")
            where, label = (f"{heading}: {side} player turn", phase) if side in new["sides"] else (heading, name)
            for field, value in old["phase_detail"][name].items():
                other = new["phase_detail"][name][field]
                if value != other:
                    if field == "activities":   # what happens in the phase, in players' words
                        value, other = _activities(value), _activities(other)
                    changes.append(Change("sequence", where, "changed", f"{label} {field}", value or "(none)",
                                          other or "(none)"))
    return changes


def _column(snap: dict[str, Any], column: str) -> str:
    """A CRT column's results by die roll, equal neighbours run together: '2-3 A1, 4 D1, 5-12 D2'."""
    prefix = f"{column} x "
    cells = [(k[len(prefix):], v) for k, v in snap.items() if k.startswith(prefix)]
    runs: list[tuple[str, str, str]] = []
    for roll, result in cells:
        if runs and runs[-1][2] == result:
            runs[-1] = (runs[-1][0], roll, result)
        else:
            runs.append((roll, roll, result))
    return ", ".join(f"{lo if lo == hi else f'{lo}-{hi}'} {result}" for lo, hi, result in runs)


def _results(old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    """CRT: columns added or removed as one change each, with their results; cells compared by column and
    dice outcome."""
    heading = "Combat Results Table"
    changes = []
    old_columns = old.get("(columns)", "").split()
    new_columns = new.get("(columns)", "").split()
    gone = [c for c in old_columns if c not in new_columns]
    came = [c for c in new_columns if c not in old_columns]
    for column in came:
        changes.append(Change("results", heading, "added", f"column {column}", None, _column(new, column) or None))
    for column in gone:
        changes.append(Change("results", heading, "removed", f"column {column}", _column(old, column) or None,
                              None))

    def keep(key: str) -> bool:
        return key != "(columns)" and key.split(" x ")[0] not in gone + came

    changes += _flat("results", heading, {k: v for k, v in old.items() if keep(k)},
                     {k: v for k, v in new.items() if keep(k)}, "cell")
    return changes


def _item_text(record: dict[str, str]) -> str | None:
    """An item's fields as words: 'kind hex, movement 3, combat Ax½' (a flag it leaves off says nothing)."""
    return ", ".join(f"{field} {value}" for field, value in record.items() if value and value != "no") or None


def _keyed(area: str, heading: str, old: dict[str, Any], new: dict[str, Any], noun: str) -> list[Change]:
    """Items by key, each a record {field: text}; the chart's own fields sit under (chart).  A chart's
    changes are filed under the rule it cites (a table's under its own cites)."""
    changes = []
    chart_cite = _cite(new.get(_BLOCK, {}).get("cites") or old.get(_BLOCK, {}).get("cites"))

    def cite(key: str) -> str | None:
        own = (new.get(key) or old.get(key) or {}).get("cites") if area == "tables" else None
        return _cite(own) or chart_cite

    for key in new:
        if key not in old and key != _BLOCK:
            changes.append(Change(area, heading, "added", f"{noun} {key}", None, _item_text(new[key]),
                                  rule=cite(key)))
    for key in old:
        if key not in new and key != _BLOCK:
            # what a removed item said (an example's whole situation is left out: no player plays it)
            said = _item_text(old[key]) if area != "examples" else None
            changes.append(Change(area, heading, "removed", f"{noun} {key}", said, None, rule=cite(key)))
            continue
        fields = dict.fromkeys([*old[key], *new.get(key, {})])
        for field in fields:
            value, other = old[key].get(field, ""), new.get(key, {}).get(field, "")
            if value != other:
                what = field if key == _BLOCK else f"{key} {field}"
                changes.append(Change(area, heading, "changed", what, value or "(none)", other or "(none)", rule=cite(key)))
    for key in new:    # a chart's own fields when the old side had no such chart (a flag it leaves off is none)
        if key == _BLOCK and key not in old:
            fields = {name: value for name, value in new[key].items() if value != "no"}
            changes += _keyed(area, heading, {_BLOCK: {}}, {_BLOCK: fields}, noun)
    return changes


def _flat(area: str, heading: str, old: dict[str, Any], new: dict[str, Any], noun: str) -> list[Change]:
    changes = []
    for key in new:
        if key not in old:
            changes.append(Change(area, heading, "added", key, None, new[key]))
    for key in old:
        if key not in new:
            changes.append(Change(area, heading, "removed", key, old[key], None))
        elif old[key] != new[key]:
            changes.append(Change(area, heading, "changed", key, old[key], new[key]))
    return changes


def order(changes: list[Change]) -> list[Change]:
    """In rule order, each chart's changes under the rule number it cites (after that rule's own);
    the rulebook's header first, charts that cite no rule last, in a fixed order."""
    def key(change: Change) -> tuple[Any, ...]:
        if change.area == "rulebook":
            return (0, (), 0)
        if change.rule is not None:
            return (1, rule_order(change.rule), change.rule, AREAS.index(change.area))
        return (2, (AREAS.index(change.area),), 0)
    return sorted(changes, key=key)


def summary(changes: list[Change]) -> dict[str, int]:
    return {severity: sum(c.severity == severity for c in changes) for severity in SEVERITIES}


def as_json(changes: list[Change], old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    return {"old": old["rulebook"], "new": new["rulebook"], "summary": summary(changes),
            "changes": [{**asdict(c), "severity": c.severity, "details": list(c.details)} for c in order(changes)]}


@dataclass(frozen=True)
class Section:
    """A chart's changes within a rule's heading (chart None: the rule's own), with a legend for the
    coordinates its cells are named by."""
    chart: str | None
    changes: list[Change]
    legend: str | None = None


@dataclass(frozen=True)
class Group:
    heading: str
    sections: list[Section]
    severity: str = "rules"     # one of SEVERITIES: a sheet shows each apart, rules changes first

    @property
    def notes(self) -> bool:
        """Designer's notes: no player errata."""
        return self.severity == "note"

    @property
    def changes(self) -> list[Change]:
        return [c for s in self.sections for c in s.changes]


def _legend(area: str, changes: list[Change]) -> str | None:
    cell = next((c.what for c in changes if " x " in c.what), None)
    if cell is None:
        return None
    first, _, second = cell.partition(" x ")
    if area == "results":
        return f"A cell is named column x die roll: {cell} is the {first} column at a roll of {second}."
    if area == "tables":
        return f"A cell is named table, row x column: {cell} is that table's row {first.split()[-1]}, column {second}."
    return None


def grouped(changes: list[Change], old: dict[str, Any], new: dict[str, Any]) -> list[Group]:
    """Groups in errata order: each severity apart (SEVERITIES: rules changes first, designer's notes last),
    and within it each rule number with its title, holding its own changes and those of the charts that
    cite it, then the charts that cite no rule."""
    groups: dict[tuple[int, str], list[Change]] = {}
    for change in order(changes):
        if change.rule is not None:
            rule = new["rules"].get(change.rule) or old["rules"].get(change.rule)
            title = rule.get("title", "") if rule else change.group
            heading = f"{change.rule} {title}".strip()
        else:
            heading = change.group if change.area != "rulebook" else "Rulebook"
        groups.setdefault((SEVERITIES.index(change.severity), heading), []).append(change)
    out: list[Group] = []
    for (severity, heading), members in sorted(groups.items(), key=lambda item: item[0][0]):
        sections: dict[str | None, list[Change]] = {}
        for change in members:   # a chart filed under a number no rule has needs no second heading
            chart = None if change.area in ("rule", "rulebook") or heading.endswith(change.group) else change.group
            sections.setdefault(chart, []).append(change)
        out.append(Group(heading, [Section(chart, items, _legend(items[0].area, items))
                                   for chart, items in sections.items()], SEVERITIES[severity]))
    return out
