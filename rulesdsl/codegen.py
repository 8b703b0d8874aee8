"""Resolved rulebook to an importable Python module.

Everything a rulebook says reaches the module through `py` (a Python
literal made by repr, so quotes, backslashes, newlines and braces stay
text), `doc` (docstring-escaped) or `ident` (a checked identifier).  The
charts are laid out as aligned literals so the module reads like the
rulebook.
"""
from __future__ import annotations

import keyword
import re
from fractions import Fraction

from jinja2 import Environment, PackageLoader, StrictUndefined

from . import __version__, ir
from .expressions import function_name
from .runtime.model import Quantity


def module_name(rulebook_id: str) -> str:
    """'scs-1.8' -> 'scs_1_8'."""
    return ident(re.sub(r"[^a-z0-9]+", "_", rulebook_id.lower()).strip("_"))


def ident(name: str) -> str:
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) or keyword.iskeyword(name):
        raise ValueError(f"not a safe identifier: {name!r}")
    return name


def py(value) -> str:
    """A Python literal for a value from a rulebook."""
    if value is None or isinstance(value, (bool, int, str)):
        return repr(value)
    if isinstance(value, Fraction):
        return f"Fraction({value.numerator})" if value.denominator == 1 else \
            f"Fraction({value.numerator}, {value.denominator})"
    if isinstance(value, Quantity):
        signed = ", signed=True" if value.signed else ""
        return f"Quantity({py(value.amount)}, {py(value.unit)}{signed})"
    if isinstance(value, tuple):
        return "(" + "".join(py(v) + ", " for v in value).rstrip(" ") + ")" if len(value) == 1 else \
            "(" + ", ".join(py(v) for v in value) + ")"
    raise TypeError(f"no literal for {type(value).__name__}")


def doc(text: str) -> str:
    """Text safe inside a triple-quoted docstring: quotes and backslashes escaped,
    control and separator characters written as escapes; reads back as `text`."""
    out = []
    for ch in text:
        if ch in '\\"':
            out.append("\\" + ch)
        elif ch == "\n" or ch.isprintable():
            out.append(ch)
        else:
            out.append(ch.encode("unicode_escape").decode("ascii"))
    return "".join(out)


def comment(text: str) -> str:
    """Text safe on one comment line: no line breaks, control characters escaped."""
    return doc(text.replace("\n", " ").replace("\r", " "))


def _table(rows: list[list[str]], indent: str) -> list[str]:
    """Align columns of pre-rendered literals."""
    widths = [max(len(r[i]) for r in rows if i < len(r)) for i in range(max(len(r) for r in rows))]
    out = []
    for row in rows:
        cells = [c.ljust(widths[i]) if i < len(row) - 1 else c for i, c in enumerate(row)]
        out.append((indent + " ".join(cells)).rstrip())
    return out


def _movement(cell: ir.MovementCell) -> str:
    args = [py(cell.kind)]
    if cell.amount is not None:
        args.append(py(cell.amount))
    if cell.target is not None:
        args.append(f"target={py(cell.target.value)}")
    return f"Movement({', '.join(args)}),"


def _combat(cell: ir.CombatCell) -> str:
    args = [py(cell.kind)]
    if cell.attacker is not None:
        args.append(f"attacker={py(cell.attacker)}")
    if cell.defender is not None:
        args.append(f"defender={py(cell.defender)}")
    if cell.shift:
        args.append(f"shift={cell.shift}")
    return f"CombatEffect({', '.join(args)})"


def _terrain_extras(row: ir.TerrainRow) -> str:
    extras = ""
    if row.level is not None:
        extras += f", level={row.level}"
    if row.line is not None:
        extras += f", line={py(row.line.value)}"
    return extras + "),"


def _cites(node) -> tuple[str, ...]:
    return tuple(c.value for c in getattr(node, "cites", ()))


def _context(resolved: ir.Resolved, rule_titles: dict[str, str]) -> dict:
    book = resolved.rulebook
    params = {p.name: p for p in resolved.parameters}
    origins: dict[str, int] = {}
    for effective in resolved.rules:
        origins[effective.origin] = origins.get(effective.origin, 0) + 1

    def cite(ids) -> str:
        ids = [i for i in ids if i]
        return ", ".join(f"{i} ({rule_titles[i]})" if i in rule_titles else i for i in ids)

    ctx = {
        "version": __version__,
        "source": book.path,
        "id": book.id.value,
        "kind": book.kind.value,
        "title": book.title.value,
        "book_version": book.version.value if book.version else "",
        "ancestors": tuple(a.id.value for a in resolved.ancestors),
        "origins": sorted(origins.items(), key=lambda kv: -kv[1]),
        "rule_count": len(resolved.rules),
        "rules": [],
        "parameters": [],
        "cite": cite,
    }
    for effective in resolved.rules:
        rule = effective.node
        ctx["rules"].append({
            "id": rule.id.value,
            "title": rule.title.value if rule.title else "",
            "summary": rule.summary.value if rule.summary else "",
            "origin": effective.origin,
            "source": f"{rule.span.path}:{rule.span.line}",
            "notes": tuple(n.value for n in rule.notes),
            "see": tuple(s.value for s in rule.see),
        })
    for p in resolved.parameters:
        ctx["parameters"].append({
            "name": p.name, "constant": ident(p.name.replace(".", "_").upper()), "value": p.value,
            "rule": p.rule, "origin": p.origin, "source": f"{p.span.path}:{p.span.line}",
        })
    # the constants, grouped under the rule that sets them, in rule order
    by_rule: dict[str, list] = {}
    for entry in sorted(ctx["parameters"], key=lambda e: int(e["source"].rsplit(":", 1)[1])):
        by_rule.setdefault(entry["rule"], []).append(entry)
    ctx["parameter_groups"] = [
        {"heading": comment(f"{e.node.id.value} {e.node.title.value if e.node.title else ''}"),
         "parameters": by_rule[e.node.id.value]}
        for e in resolved.rules if e.node.id.value in by_rule]

    # rounding and odds
    ctx["rounding"] = None
    if resolved.rounding is not None:
        node = resolved.rounding.node
        ctx["rounding"] = {"function": ident("round_" + node.name.value.replace("-", "_")),
                           "name": node.name.value, "threshold": resolved.threshold,
                           "clauses": ", ".join(c.value for c in node.spec), "cites": _cites(node)}

    # sequence of play
    ctx["game_turn"], ctx["player_turn"], ctx["sequence_cites"] = [], [], ""
    if resolved.sequence is not None:
        node = resolved.sequence.node
        ctx["sequence_cites"] = ", ".join(_cites(node))
        for block in node.blocks:
            for item in block.items:
                if isinstance(item, ir.PlayerTurnSlot):
                    line = f"PlayerTurn({py(item.name.value)}),"
                else:
                    args = [py(item.name.value), f"rules={py(tuple(c.value for c in item.cites))}",
                            f"activities={py(tuple(a.value for a in item.activities))}"]
                    if item.note is not None:
                        args.append(f"note={py(item.note.value)}")
                    line = f"Phase({', '.join(args)}),"
                ctx["game_turn" if block.kind.value == "game" else "player_turn"].append(line)

    # terrain effects chart
    ctx["terrain"] = None
    if resolved.terrain is not None:
        node = resolved.terrain.node
        rows = [["Terrain(" + py(r.name.value) + ",", py(r.kind) + ",", _movement(r.movement),
                 _combat(r.combat) + _terrain_extras(r)] for r in node.rows]
        ctx["terrain"] = {"title": node.title.value if node.title else "Terrain Effects Chart",
                          "origin": resolved.terrain.origin, "cites": _cites(node),
                          "lines": _table(rows, "    ") if rows else []}
    ctx["ezoc"] = params.get("zoc.entry_cost")

    # combat results table
    ctx["results"] = None
    if resolved.results is not None:
        node = resolved.results.node
        header = ["#"] + [c.value for c in node.columns]   # odds are validated: safe in a comment
        rows = [[py(r.label.value) + ":"] + [("(" if i == 0 else "") + py(c.value) + ("),"  if i == len(r.cells) - 1 else ",")
                                               for i, c in enumerate(r.cells)] for r in node.rows]
        lines = _table([header] + rows, "        ")
        ctx["results"] = {"title": node.title.value if node.title else "Combat Results Table",
                          "origin": resolved.results.origin, "cites": _cites(node), "dice": node.dice.value,
                          "columns": py(tuple(c.value for c in node.columns)), "rows": lines}
    ctx["below"] = params.get("combat.below_table")
    if ctx["results"] is not None:
        node = resolved.results.node
        ctx["results"]["notation"] = node.notation.value if node.notation else "steps-first"
        ctx["results"]["lines"] = [f"{py(l.name.value)}: {py(tuple(c.value for c in l.columns))},"
                                   for l in node.lines if l.name is not None]
        ctx["results"]["attacker"] = None
        if node.attacker is not None:
            header = ["#"] + [c.value for c in node.attacker.columns]
            rows = [[py(r.label.value) + ":"] + [("(" if i == 0 else "") + py(c.value) +
                                                 ("),"  if i == len(r.cells) - 1 else ",")
                                                 for i, c in enumerate(r.cells)] for r in node.attacker.rows]
            ctx["results"]["attacker"] = {"columns": py(tuple(c.value for c in node.attacker.columns)),
                                          "rows": _table([header] + rows, "            ")}
    _issue3_context(ctx, resolved)
    return ctx


RESERVED = {"odds", "crt", "crt_column", "resolve", "entry_cost", "attack_multiplier", "defense_multiplier",
            "parameter", "drm", "column_shifts", "resolve_combat", "table"}


def public_name(definition: str) -> str:
    name = re.sub(r"[^a-z0-9]+", "_", definition.lower()).strip("_")
    return ident(name if name not in RESERVED and not name[0].isdigit() else "define_" + name)


def _issue3_context(ctx: dict, resolved: ir.Resolved) -> None:
    vocabulary = resolved.vocabulary
    ctx["unit_types"] = [f"{py(name)}: {py(caps)}," for name, caps in vocabulary.unit_types.items()]
    ctx["states"] = py(tuple(sorted(vocabulary.states)))
    ctx["situations"] = py(tuple(sorted(vocabulary.situations)))
    ctx["amounts"] = py(tuple(sorted(vocabulary.amounts)))
    ctx["favour_defender"] = resolved.favour_defender
    ctx["definitions"] = [{
        "function": function_name(d.name.value), "public": public_name(d.name.value), "name": d.name.value,
        "python": python, "kind": kind, "rule": rule, "origin": origin,
        "text": [comment(line) for line in d.text.splitlines()],
    } for d, python, kind, rule, origin in resolved.definitions]
    ctx["modifiers"] = None
    if resolved.modifiers is not None:
        node = resolved.modifiers.node
        ctx["modifiers"] = {"cap": node.cap, "cites": _cites(node), "origin": resolved.modifiers.origin, "entries": [
            {"name": m.name.value, "value": m.value, "side": m.side, "python": python, "text": comment(m.text)}
            for m, python in resolved.modifier_code]}
    ctx["shifts"] = None
    if resolved.shifts is not None:
        node = resolved.shifts.node
        ctx["shifts"] = {"per_side": node.per_side, "before_limits": node.before_limits, "cites": _cites(node), "origin": resolved.shifts.origin, "entries": [
            {"source": sh.source.value, "amount": amount, "maximum": sh.maximum, "condition": condition,
             "text": comment(sh.text)} for sh, amount, condition in resolved.shift_code]}
    ctx["adjustments"] = None
    if resolved.adjustments is not None:
        node = resolved.adjustments.node
        ctx["adjustments"] = {"cites": _cites(node), "entries": [
            {"name": a.name.value, "field": a.target, "amount": a.amount, "python": python, "text": comment(a.text)}
            for a, python in resolved.adjustment_code]}
    ctx["factors"] = None
    if resolved.unit_factors is not None:
        node = resolved.unit_factors.node
        ctx["factors"] = {"cites": _cites(node), "entries": [
            {"name": f.name.value, "role": f.role, "factor": factor, "condition": condition, "text": comment(f.text)}
            for f, factor, condition in resolved.unit_factor_code]}
    ctx["tables"] = []
    for effective in resolved.tables:
        table = effective.node
        head = table.header[0].value
        row_key, _, key = head.partition("/") if "/" in head else (None, "", head)
        rows = [f"{py(r[0].value)}: {py(tuple(_cell(c.value) for c in r[1:]))}," for r in table.rows]
        ctx["tables"].append({"name": table.name.value, "key": key, "row_key": row_key,
                              "title": table.title.value if table.title else table.name.value,
                              "cites": _cites(table), "origin": effective.origin,
                              "columns": py(tuple(c.value for c in table.header[1:])), "rows": rows})


_NUMBER_CELL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+|[0-9]+/[0-9]*[1-9][0-9]*)")


def _cell(text: str):
    """A lookup-table cell as the module holds it: every number (2, +1, -1, 1/2, 1.5) as a
    number, an int when it is whole and a Fraction otherwise; a word or a range as text."""
    if not _NUMBER_CELL.fullmatch(text):
        return text
    value = Fraction(text)
    return int(value) if value.denominator == 1 else value


_ENV = Environment(loader=PackageLoader("rulesdsl", "templates"), undefined=StrictUndefined,
                   autoescape=False, keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True)
_ENV.filters.update(py=py, doc=doc, ident=ident, comment=comment)


def generate(resolved: ir.Resolved) -> str:
    titles = {e.node.id.value: e.node.title.value for e in resolved.rules if e.node.title}
    return _ENV.get_template("module.py.j2").render(_context(resolved, titles))
