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

from . import ir
from .resolve import rule_order
from .runtime.tables import DICE_OUTCOMES, roll_range
from .validate import typed_value

SEVERITIES = ("correction", "addition", "breaking")
AREAS = ("rulebook", "rule", "sequence", "terrain", "results", "modifiers", "shifts", "adjustments",
         "tables", "unit-types", "rounding")


@dataclass(frozen=True)
class Change:
    area: str            # one of AREAS
    group: str           # the rule id for rule changes, else the area's heading
    kind: str            # added, removed, changed, renumbered, reordered
    what: str            # what changed, in the rulebook's words
    old: str | None
    new: str | None
    severity: str

    def __str__(self) -> str:
        if self.kind == "changed":
            return f"{self.what}: {self.old} -> {self.new}"
        if self.kind == "renumbered":
            return f"{self.what}: renumbered {self.old} -> {self.new}"
        if self.kind == "reordered":
            return f"{self.what}: {self.old} -> {self.new}"
        value = self.new if self.kind == "added" else self.old
        return f"{self.kind} {self.what}" + (f": {value}" if value else "")


# ---- snapshots ---------------------------------------------------------------------
def _value_text(parameter: ir.Parameter) -> str:
    value = parameter.value
    if isinstance(value, ir.Quantity):
        amount = str(value.amount)
        if value.signed and value.amount >= 0:
            amount = "+" + amount
        unit = value.unit.value if value.unit else ""
        typed, problems = typed_value(parameter)
        if not problems and typed is not None and getattr(typed, "unit", None):
            unit = typed.unit
        return f"{amount} {unit}".strip()
    if isinstance(value, ir.Words):
        return ", ".join(w.value for w in value.words)
    return f'"{value.value}"'


def _squash(text: str) -> str:
    return " ".join(text.split())


def _rule_snapshot(rule: ir.Rule) -> dict:
    return {
        "title": rule.title.value if rule.title else "",
        "summary": rule.summary.value if rule.summary else "",
        "parameters": {p.name.value: _value_text(p) for p in rule.parameters},
        "notes": tuple(n.value for n in rule.notes),
        "see": tuple(sorted(s.value for s in rule.see)),
        "requires": tuple(sorted(r.value for r in rule.requires)),
        "definitions": {d.name.value: _squash(d.text) for d in rule.definitions},
    }


def snapshot(rulebook: ir.Rulebook, resolved: ir.Resolved | None = None) -> dict:
    """The meaning of a rulebook (or, resolved, of the rules in effect) as plain data."""
    if resolved is not None:
        rules = [e.node for e in resolved.rules]
        pick = {name: (getattr(resolved, name).node if getattr(resolved, name) is not None else None)
                for name in ("rounding", "sequence", "terrain", "results", "modifiers", "shifts", "adjustments")}
        tables = [e.node for e in resolved.tables]
        unit_types = resolved.vocabulary.unit_types
    else:
        rules = list(rulebook.rules)
        pick = {name: (getattr(rulebook, name)[0] if getattr(rulebook, name) else None)
                for name in ("rounding", "sequence", "terrain", "results", "modifiers", "shifts", "adjustments")}
        tables = list(rulebook.tables)
        unit_types = {t.name.value: tuple(c.value for c in t.capabilities)
                      for block in rulebook.unit_types for t in block.types}
    snap = {
        "rulebook": {"id": rulebook.id.value, "kind": rulebook.kind.value, "title": rulebook.title.value,
                     "version": rulebook.version.value if rulebook.version else "",
                     "extends": rulebook.extends.value if rulebook.extends else ""},
        "rules": {r.id.value: _rule_snapshot(r) for r in rules},
        "unit_types": {k: ", ".join(v) for k, v in unit_types.items()},
    }
    rounding = pick["rounding"]
    snap["rounding"] = {} if rounding is None else {
        "rounding": f"{rounding.name.value}: " + ", ".join(c.value for c in rounding.spec)}
    sequence = pick["sequence"]
    snap["phases"], snap["game_turn"] = [], []
    snap["phase_detail"] = {}
    if sequence is not None:
        for block in sequence.blocks:
            for item in block.items:
                if isinstance(item, ir.PlayerTurnSlot):
                    snap["game_turn"].append(f"player turn {item.name.value}")
                    continue
                detail = {"rules": " ".join(c.value for c in item.cites),
                          "activities": ", ".join(a.value for a in item.activities),
                          "note": item.note.value if item.note else ""}
                name = item.name.value if block.kind.value == "player" else f"game turn: {item.name.value}"
                (snap["phases"] if block.kind.value == "player" else snap["game_turn"]).append(name)
                snap["phase_detail"][name] = detail
    snap["terrain"] = {}
    if pick["terrain"] is not None:
        from .charts import combat_text
        for row in pick["terrain"].rows:
            move = row.movement
            movement = {"cost": lambda: str(move.amount), "add": lambda: f"+{move.amount}",
                        "prohibited": lambda: "P", "other": lambda: "ot", "road-like": lambda: "road-like",
                        "negates": lambda: f"negates {move.target.value if move.target else ''}"}[move.kind]()
            snap["terrain"][row.name.value] = {"kind": row.kind, "movement": movement,
                                               "combat": combat_text(row.combat),
                                               "level": "" if row.level is None else str(row.level),
                                               "line": row.line.value if row.line else ""}
    snap["results"] = _results_snapshot(pick["results"])
    snap["modifiers"] = {}
    if pick["modifiers"] is not None:
        node = pick["modifiers"]
        snap["modifiers"] = {m.name.value: f"{m.value:+d} {m.side}: {_squash(m.text.split(' when ', 1)[-1])}"
                             for m in node.modifiers}
        snap["modifiers"]["(cap)"] = "" if node.cap is None else f"{node.cap}"
    snap["shifts"] = {}
    if pick["shifts"] is not None:
        node = pick["shifts"]
        snap["shifts"] = {s.source.value: _squash(s.text)[len(s.source.value):].strip() for s in node.shifts}
        snap["shifts"]["(per side)"] = "" if node.per_side is None else str(node.per_side)
        snap["shifts"]["(applied)"] = "before limits" if node.before_limits else "from the clamped column"
    snap["adjustments"] = {}
    if pick["adjustments"] is not None:
        snap["adjustments"] = {a.name.value: _squash(a.text)[len(a.name.value):].strip()
                               for a in pick["adjustments"].adjustments}
    snap["tables"] = {}
    for table in tables:
        head = [c.value for c in table.header]
        for row in table.rows:
            for column, cell in zip(head[1:], row[1:]):
                snap["tables"][f"{table.name.value} {row[0].value} x {column}"] = cell.value
    return snap


def _results_snapshot(node: ir.ResultsTable | None) -> dict:
    if node is None:
        return {}
    out = {"(dice)": node.dice.value, "(notation)": node.notation.value if node.notation else "steps-first"}
    out["(columns)"] = " ".join(c.value for c in node.columns)
    for line in node.lines:
        if line.name is not None:
            out[f"(line {line.name.value})"] = " ".join(c.value for c in line.columns)
    outcomes = DICE_OUTCOMES.get(node.dice.value, ())

    def cells(prefix, columns, rows):
        ranges = [(roll_range(r.label.value), r) for r in rows]
        rolls = sorted(set(outcomes) | {lo for (lo, hi), _ in ranges if abs(lo) < 1000}
                       | {hi for (lo, hi), _ in ranges if abs(hi) < 1000})
        for roll in rolls:
            row = next((r for (lo, hi), r in ranges if lo <= roll <= hi), None)
            if row is None:
                continue
            for column, cell in zip(columns, row.cells):
                out[f"{prefix}{column.value} x {roll}"] = cell.value

    cells("", node.columns, node.rows)
    if node.attacker is not None:
        cells("attacker side, defense ", node.attacker.columns, node.attacker.rows)
    return out


# ---- comparing ---------------------------------------------------------------------
def compare(old: dict, new: dict) -> list[Change]:
    changes: list[Change] = []
    for key in ("id", "kind", "title", "version", "extends"):
        a, b = old["rulebook"][key], new["rulebook"][key]
        if a != b:
            changes.append(Change("rulebook", "rulebook", "changed", key, a or "(none)", b or "(none)",
                                  "breaking" if key in ("extends", "kind") else "correction"))
    changes += _rules(old["rules"], new["rules"])
    changes += _sequence(old, new)
    for area, heading in (("terrain", "Terrain Effects Chart"),):
        changes += _keyed(area, heading, old[area], new[area], "terrain")
    changes += _results(old["results"], new["results"])
    changes += _flat("modifiers", "Die roll modifiers", old["modifiers"], new["modifiers"], "modifier")
    changes += _flat("shifts", "Column shifts", old["shifts"], new["shifts"], "shift source")
    changes += _flat("adjustments", "Result adjustments", old["adjustments"], new["adjustments"], "adjustment")
    changes += _flat("tables", "Other charts", old["tables"], new["tables"], "cell")
    changes += _flat("unit-types", "Unit types", old["unit_types"], new["unit_types"], "unit type")
    changes += _flat("rounding", "Rounding", old["rounding"], new["rounding"], "rule")
    return changes


def _rules(old: dict, new: dict) -> list[Change]:
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
        changes.append(Change("rule", key, "removed", f"rule {key} {old[key]['title']}", None, None, "breaking"))
    for key in added:
        changes.append(Change("rule", key, "added", f"rule {key} {new[key]['title']}", None, new[key]["summary"],
                              "addition"))
    for key in old:
        if key not in new:
            continue
        a, b = old[key], new[key]
        for field in ("title", "summary"):
            if a[field] != b[field]:
                changes.append(Change("rule", key, "changed", field, a[field], b[field], "correction"))
        for name in sorted(set(a["parameters"]) | set(b["parameters"])):
            pa, pb = a["parameters"].get(name), b["parameters"].get(name)
            if pa == pb:
                continue
            if pa is None:
                changes.append(Change("rule", key, "added", name, None, pb, "addition"))
            elif pb is None:
                changes.append(Change("rule", key, "removed", name, pa, None, "breaking"))
            else:
                changes.append(Change("rule", key, "changed", name, pa, pb, "correction"))
        for name in sorted(set(a["definitions"]) | set(b["definitions"])):
            da, db = a["definitions"].get(name), b["definitions"].get(name)
            if da != db:
                kind = "added" if da is None else "removed" if db is None else "changed"
                changes.append(Change("rule", key, kind, f"definition {name}", da, db,
                                      {"added": "addition", "removed": "breaking"}.get(kind, "correction")))
        for field, noun in (("notes", "notes"), ("see", "cross references"), ("requires", "requirements")):
            if a[field] != b[field]:
                changes.append(Change("rule", key, "changed", noun, "; ".join(a[field]) or "(none)",
                                      "; ".join(b[field]) or "(none)", "correction"))
    return changes


def _sequence(old: dict, new: dict) -> list[Change]:
    changes = []
    heading = "Sequence of play"
    for field, noun in (("phases", "player turn phase"), ("game_turn", "game turn step")):
        a, b = old[field], new[field]
        for name in b:
            if name not in a:
                changes.append(Change("sequence", heading, "added", f"{noun} {name}", None,
                                      f"{b.index(name) + 1} of {len(b)}", "addition"))
        for name in a:
            if name not in b:
                changes.append(Change("sequence", heading, "removed", f"{noun} {name}", None, None, "breaking"))
        common_a = [n for n in a if n in b]
        common_b = [n for n in b if n in a]
        if common_a != common_b:
            changes.append(Change("sequence", heading, "reordered", f"{noun}s", ", ".join(common_a),
                                  ", ".join(common_b), "breaking"))
    for name in old["phase_detail"]:
        if name in new["phase_detail"]:
            for field, value in old["phase_detail"][name].items():
                other = new["phase_detail"][name][field]
                if value != other:
                    changes.append(Change("sequence", heading, "changed", f"{name} {field}", value or "(none)",
                                          other or "(none)", "correction"))
    return changes


def _results(old: dict, new: dict) -> list[Change]:
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


def _keyed(area: str, heading: str, old: dict, new: dict, noun: str) -> list[Change]:
    changes = []
    for key in new:
        if key not in old:
            changes.append(Change(area, heading, "added", f"{noun} {key}", None,
                                  " ".join(v for v in new[key].values() if v), "addition"))
    for key in old:
        if key not in new:
            changes.append(Change(area, heading, "removed", f"{noun} {key}", None, None, "breaking"))
            continue
        for field, value in old[key].items():
            if value != new[key][field]:
                changes.append(Change(area, heading, "changed", f"{key} {field}", value or "(none)",
                                      new[key][field] or "(none)", "correction"))
    return changes


def _flat(area: str, heading: str, old: dict, new: dict, noun: str) -> list[Change]:
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
    def key(change: Change):
        if change.area == "rulebook":
            return (0, (), 0)
        if change.area == "rule":
            return (1, rule_order(change.group), 0)
        return (2, (AREAS.index(change.area),), 0)
    return sorted(changes, key=key)


def summary(changes: list[Change]) -> dict[str, int]:
    return {severity: sum(c.severity == severity for c in changes) for severity in SEVERITIES}


def as_json(changes: list[Change], old: dict, new: dict) -> dict:
    return {"old": old["rulebook"], "new": new["rulebook"], "summary": summary(changes),
            "changes": [asdict(c) for c in order(changes)]}


def grouped(changes: list[Change], old: dict, new: dict) -> list[tuple[str, list[Change]]]:
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
