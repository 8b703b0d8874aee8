"""Semantic differences between two versions of a rulebook: an errata sheet.

Each side becomes a snapshot keyed by meaning (rules by printed id, terrain
by name, CRT cells by column and dice outcome, ...), so whitespace, comments
and the order rules are written in never show as changes.  With `resolved`,
each side is first resolved against the rulebooks it extends: the rules a
player actually plays.

Severities: `correction` (a value, a text or a table cell), `addition` (a
rule, phase, terrain, column ... added), `breaking` (something removed,
renumbered or reordered).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from fractions import Fraction
from typing import Any, Callable, Mapping, assert_never, get_args

from . import ir
from .catalogue import UNIT_SPELLINGS, Declared, unit_text
from .codes import clause_text, family
from .resolve import BY_ID, BY_NAME, LAYERED, MERGED, RESOLUTION, rule_order
from .runtime.tables import DICE_OUTCOMES, roll_range
from .walk import iter_fields

SEVERITIES = ("correction", "addition", "breaking")
AREAS = ("rulebook", "rule", "sequence", "terrain", "results", "result-codes", "modifiers", "shifts", "adjustments",
         "unit-factors", "tables", "unit-types", "vocabulary", "parameters", "rounding", "labels", "examples")


@dataclass(frozen=True)
class Change:
    area: str            # one of AREAS
    group: str           # the rule id for rule changes, else the area's heading
    kind: str            # added, removed, changed, renumbered, reordered
    what: str            # what changed, in the rulebook's words
    old: str | None
    new: str | None
    severity: str
    meaning: str | None = None   # a parameter's declared meaning, in players' words

    @property
    def label(self) -> str:
        """What changed, as a player reads it: a parameter by its meaning, then its name."""
        if not self.meaning:
            return self.what
        return f"{self.meaning[:1].upper()}{self.meaning[1:]} ({self.what})"

    def __str__(self) -> str:
        if self.kind == "changed":
            return f"{self.label}: {self.old} -> {self.new}"
        if self.kind == "renumbered":
            return f"{self.label}: renumbered {self.old} -> {self.new}"
        if self.kind == "reordered":
            return f"{self.label}: {self.old} -> {self.new}"
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


def _value_text(parameter: ir.Parameter) -> str:
    value = parameter.value
    if isinstance(value, ir.Quantity):
        amount = str(value.amount)
        if value.signed and value.amount >= 0:
            amount = "+" + amount
        unit = value.unit.value if value.unit else ""
        canonical = UNIT_SPELLINGS.get(unit)
        if canonical is not None:
            return unit_text(amount, canonical)     # '3 steps', '1 hex', '+2 MP'
        return f"{amount} {unit}".strip()
    if isinstance(value, ir.Words):
        return ", ".join(w.value for w in value.words)
    return f'"{value.value}"'


def _movement(cell: ir.MovementCell) -> str:
    amount = "" if cell.amount is None else str(cell.amount)
    return {"cost": amount, "add": f"+{amount}", "prohibited": "P", "other": "ot", "road-like": "road-like",
            "negates": f"negates {cell.target.value if cell.target else ''}"}[cell.kind]


def _definition(definition: ir.Definition) -> str:
    if definition.expr is not None:
        return expression_text(definition.expr)
    return "; ".join(f"{c.result.value} " + (f"when {expression_text(c.condition)}" if c.condition is not None
                                             else "otherwise") for c in definition.cases)


def _combat(cell: ir.CombatCell) -> str:
    """As the chart prints it; any field that printing leaves out is added, so no change goes unseen."""
    from .charts import combat_text
    extra = [] if cell.kind == ir.CombatKind.MULTIPLY else \
        [f"{name} {_text(value)}" for name, value in iter_fields(cell) if name != "kind" and value not in (None, 0, (), ir.Crossing.ANY)]
    return " ".join([combat_text(cell), *extra, *(t.value for t in cell.repeated)])


# How a node prints as one value; any other node prints its fields in turn.
_SHOWN: dict[type, Callable[[Any], str]] = {
    ir.Text: lambda n: n.value, ir.Quoted: lambda n: f'"{n.value}"', ir.Parameter: _value_text,
    ir.MovementCell: _movement, ir.CombatCell: _combat, ir.Definition: _definition,
    ir.CodeClause: clause_text,
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
        entry: dict[str, Any] = _record(rule, "id", "parameters", "definitions", "see", "requires")
        entry["parameters"] = {p.name.value: _value_text(p) for p in rule.parameters}
        entry["definitions"] = {d.name.value: _definition(d) for d in rule.definitions}
        entry["see"] = ", ".join(sorted(s.value for s in rule.see))          # a set: order means nothing
        entry["requires"] = ", ".join(sorted(r.value for r in rule.requires))
        out[rule.id.value] = entry
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
        snap["chart"] = _record(sequence, "blocks")
        snap["chart"]["turns"] = ", ".join(block.kind.value for block in sequence.blocks)
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
    out["(columns)"] = " ".join(c.value for c in node.columns)
    for index, line in enumerate(node.lines[1:] if node.lines and node.lines[0].name is None else node.lines):
        name = line.name.value if line.name is not None else str(index + 2)
        out[f"(line {name})"] = " ".join(c.value for c in line.columns)
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
    from .situations import lines
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
             declared: Mapping[str, Declared] | None = None) -> dict[str, Any]:
    """The meaning of a rulebook (or, resolved, of the rules in effect) as plain data; `declared` (by
    default the resolved rulebook's vocabulary) gives what each parameter means, for the errata."""
    header = _record(rulebook, *ir.STATEMENT_FIELD.values())
    snap: dict[str, Any] = {"rulebook": {key: header.pop(key) for key in ("id", "kind", "title", "version",
                                                                          "extends")}}
    snap["rulebook"].update(header)
    statements = _in_effect(rulebook, resolved)
    for kind, (area, make) in SNAPSHOTS.items():
        snap[area] = make(statements[kind])
    if declared is None:
        declared = resolved.declared if resolved is not None else {}
    snap["meanings"] = {name: declared[name].meaning for rule in snap["rules"].values()
                        for name in rule["parameters"] if name in declared}
    if resolved is not None:   # resolution has used up `override`: it chose what is in effect
        for entry in [*snap["rules"].values(), snap["sequence"]["chart"],
                      *(snap[area].get(_BLOCK, {}) for area in _KEYED)]:
            entry.pop("override", None)
            entry.pop("amend", None)
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
}


def compare(old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    changes: list[Change] = []
    for key in old["rulebook"]:
        a, b = old["rulebook"][key], new["rulebook"].get(key, "")
        if a != b:
            changes.append(Change("rulebook", "rulebook", "changed", key, a or "(none)", b or "(none)",
                                  "breaking" if key in ("extends", "kind") else "correction"))
    changes += _rules(old["rules"], new["rules"], {**old.get("meanings", {}), **new.get("meanings", {})})
    changes += _sequence(old["sequence"], new["sequence"])
    changes += _results(old["results"], new["results"])
    for name, (area, heading, noun) in _KEYED.items():
        changes += _keyed(area, heading, old[name], new[name], noun)
    return changes


_RULE_NOUNS = {"see": "cross references", "requires": "requirements", "extra_summaries": "more summaries"}


def _rule_noun(key: str, rule: dict[str, Any]) -> str:
    """'rule 6.0c Target hex cost limit', or 'amendment of rule 7.4' for an `amend rule` (it has no title)."""
    if rule.get("amend") == "yes":
        return f"amendment of rule {key}"
    return f"rule {key} {rule['title']}".rstrip()


def _amended(rule: dict[str, Any]) -> str:
    """What an amendment sets: 'combat.below_table = A2; ...' (empty for a rule that is no amendment)."""
    if rule.get("amend") != "yes":
        return ""
    return "; ".join(f"{name} = {value}" for name, value in rule["parameters"].items())


def _rules(old: dict[str, Any], new: dict[str, Any], meanings: dict[str, str]) -> list[Change]:
    changes = []
    removed = [k for k in old if k not in new]
    added = [k for k in new if k not in old]
    for gone in list(removed):     # the same content under a new number: renumbered
        twin = next((k for k in added if new[k] == old[gone]), None)
        if twin is not None:
            changes.append(Change("rule", twin, "renumbered", f"rule {old[gone]['title']}", gone, twin, "breaking"))
            removed.remove(gone)
            added.remove(twin)
    for key in removed:
        changes.append(Change("rule", key, "removed", _rule_noun(key, old[key]), _amended(old[key]) or None, None,
                              "breaking"))
    for key in added:
        changes.append(Change("rule", key, "added", _rule_noun(key, new[key]), None,
                              new[key]["summary"] or _amended(new[key]) or None, "addition"))
    for key in old:
        if key not in new:
            continue
        a, b = old[key], new[key]
        for field in a:
            if field in ("parameters", "definitions") or a[field] == b[field]:
                continue
            changes.append(Change("rule", key, "changed", _RULE_NOUNS.get(field, field), a[field] or "(none)",
                                  b[field] or "(none)", "breaking" if field == "override" else "correction"))
        for name in sorted(set(a["parameters"]) | set(b["parameters"])):
            pa, pb = a["parameters"].get(name), b["parameters"].get(name)
            if pa == pb:
                continue
            meaning = meanings.get(name)
            if pa is None:
                changes.append(Change("rule", key, "added", name, None, pb, "addition", meaning))
            elif pb is None:
                changes.append(Change("rule", key, "removed", name, pa, None, "breaking", meaning))
            else:
                changes.append(Change("rule", key, "changed", name, pa, pb, "correction", meaning))
        for name in sorted(set(a["definitions"]) | set(b["definitions"])):
            da, db = a["definitions"].get(name), b["definitions"].get(name)
            if da != db:
                kind = "added" if da is None else "removed" if db is None else "changed"
                changes.append(Change("rule", key, kind, f"definition {name}", da, db,
                                      {"added": "addition", "removed": "breaking"}.get(kind, "correction")))
    return changes


def _sequence(old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    changes = []
    heading = "Sequence of play"
    for field, value in old["chart"].items():
        other = new["chart"].get(field, "")
        if value != other:
            changes.append(Change("sequence", heading, "changed", field, value or "(none)", other or "(none)",
                                  "correction"))
    lists = [(old["phases"], new["phases"], "player turn phase", heading),
             (old["game_turn"], new["game_turn"], "game turn step", heading)]
    for side in dict.fromkeys([*old["sides"], *new["sides"]]):
        # a side's own player turn: its phases are reported under that side
        lists.append((old["sides"].get(side, []), new["sides"].get(side, []), "phase",
                      f"{heading}: {side} player turn"))
    for a, b, noun, where in lists:
        for name in b:
            if name not in a:
                changes.append(Change("sequence", where, "added", f"{noun} {name}", None,
                                      f"{b.index(name) + 1} of {len(b)}", "addition"))
        for name in a:
            if name not in b:
                changes.append(Change("sequence", where, "removed", f"{noun} {name}", None, None, "breaking"))
        common_a = [n for n in a if n in b]
        common_b = [n for n in b if n in a]
        if common_a != common_b:
            changes.append(Change("sequence", where, "reordered", f"{noun}s", ", ".join(common_a),
                                  ", ".join(common_b), "breaking"))
    for name in old["phase_detail"]:
        if name in new["phase_detail"]:
            side, _, phase = name.partition(": ")
            where, label = (f"{heading}: {side} player turn", phase) if side in new["sides"] else (heading, name)
            for field, value in old["phase_detail"][name].items():
                other = new["phase_detail"][name][field]
                if value != other:
                    changes.append(Change("sequence", where, "changed", f"{label} {field}", value or "(none)",
                                          other or "(none)", "correction"))
    return changes


def _results(old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    """CRT: columns added or removed as one change each; cells compared by column and dice outcome."""
    heading = "Combat Results Table"
    changes = []
    old_columns = old.get("(columns)", "").split()
    new_columns = new.get("(columns)", "").split()
    gone = [c for c in old_columns if c not in new_columns]
    came = [c for c in new_columns if c not in old_columns]
    for column in came:
        changes.append(Change("results", heading, "added", f"column {column}", None, None, "addition"))
    for column in gone:
        changes.append(Change("results", heading, "removed", f"column {column}", None, None, "breaking"))

    def keep(key: str) -> bool:
        return key != "(columns)" and key.split(" x ")[0] not in gone + came

    changes += _flat("results", heading, {k: v for k, v in old.items() if keep(k)},
                     {k: v for k, v in new.items() if keep(k)}, "cell")
    return changes


def _keyed(area: str, heading: str, old: dict[str, Any], new: dict[str, Any], noun: str) -> list[Change]:
    """Items by key, each a record {field: text}; the chart's own fields sit under (chart)."""
    changes = []
    for key in new:
        if key not in old and key != _BLOCK:
            changes.append(Change(area, heading, "added", f"{noun} {key}", None,
                                  " ".join(v for v in new[key].values() if v), "addition"))
    for key in old:
        if key not in new and key != _BLOCK:
            changes.append(Change(area, heading, "removed", f"{noun} {key}", None, None, "breaking"))
            continue
        fields = dict.fromkeys([*old[key], *new.get(key, {})])
        for field in fields:
            value, other = old[key].get(field, ""), new.get(key, {}).get(field, "")
            if value != other:
                what = field if key == _BLOCK else f"{key} {field}"
                changes.append(Change(area, heading, "changed", what, value or "(none)", other or "(none)",
                                      "correction"))
    for key in new:    # a chart's own fields when the old side had no such chart
        if key == _BLOCK and key not in old:
            changes += _keyed(area, heading, {_BLOCK: {}}, {_BLOCK: new[key]}, noun)
    return changes


def _flat(area: str, heading: str, old: dict[str, Any], new: dict[str, Any], noun: str) -> list[Change]:
    changes = []
    for key in new:
        if key not in old:
            changes.append(Change(area, heading, "added", key, None, new[key], "addition"))
    for key in old:
        if key not in new:
            changes.append(Change(area, heading, "removed", key, old[key], None, "breaking"))
        elif old[key] != new[key]:
            changes.append(Change(area, heading, "changed", key, old[key], new[key], "correction"))
    return changes


def order(changes: list[Change]) -> list[Change]:
    """Rule changes in rule order, then the charts, in a fixed order."""
    def key(change: Change) -> tuple[int, tuple[Any, ...], int]:
        if change.area == "rulebook":
            return (0, (), 0)
        if change.area == "rule":
            return (1, rule_order(change.group), 0)
        return (2, (AREAS.index(change.area),), 0)
    return sorted(changes, key=key)


def summary(changes: list[Change]) -> dict[str, int]:
    return {severity: sum(c.severity == severity for c in changes) for severity in SEVERITIES}


def as_json(changes: list[Change], old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    return {"old": old["rulebook"], "new": new["rulebook"], "summary": summary(changes),
            "changes": [asdict(c) for c in order(changes)]}


def grouped(changes: list[Change], old: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, list[Change]]]:
    """(heading, changes) in errata order; rule headings carry the rule's title."""
    groups: dict[str, list[Change]] = {}
    for change in order(changes):
        if change.area == "rule":
            title = (new["rules"].get(change.group) or old["rules"].get(change.group) or {}).get("title", "")
            heading = f"{change.group} {title}".strip()
        else:
            heading = change.group if change.area != "rulebook" else "Rulebook"
        groups.setdefault(heading, []).append(change)
    return list(groups.items())
