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
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from jinja2 import Environment, PackageLoader, StrictUndefined

from . import __version__, ir
from .errors import Diagnostic, Span
from .expressions import Checker, Emitter, function_name
from .runtime.model import Quantity


# A rulebook name that is a Python keyword or soft keyword gets a trailing
# underscore (PEP 8): `define class` is class_() in the module.  Listed in full,
# so that the same rulebook makes the same module under every Python version.
KEYWORDS = frozenset(keyword.kwlist) | {"_", "case", "match", "type"}

# What a generated module itself binds or reads from its globals, whatever the
# rulebook: no name a rulebook introduces may become one of these.  The
# runtime's helpers are imported as `_rt`, which no rulebook name can be.
# (tests/test_codegen_safety.py checks this list against rendered modules.)
MODULE_NAMES: dict[str, str] = {
    **{name: "the module's " + what for name, what in {
        "RULEBOOK": "rulebook header", "RULES": "rules in effect", "PARAMETERS": "parameters in effect",
        "parameter": "function parameter(name)", "odds": "function odds(attack, defense)",
        "odds_ratio": "function odds_ratio(attack, defense)", "round_": "rounding function round_(x)",
        "GAME_TURN": "game turn", "PLAYER_TURN_PHASES": "player turn phases", "PLAYER_TURN": "player turn",
        "TERRAIN": "terrain effects chart", "entry_cost": "function entry_cost(terrain)",
        "attack_multiplier": "function attack_multiplier(terrain)",
        "defense_multiplier": "function defense_multiplier(terrain)", "CRT": "combat results table",
        "crt_column": "function crt_column(attack, defense)", "crt": "function crt(column, roll)",
        "resolve": "function resolve(attack, defense, roll)", "VOCABULARY": "vocabulary",
        "MODIFIERS": "die roll modifiers", "SHIFTS": "column shifts", "FACTORS": "strength factors",
        "ADJUSTMENTS": "result adjustments", "TABLES": "charts", "table": "function table(name)",
        "ENGINE": "combat engine", "_odds_pair": "function _odds_pair(attack, defense)",
        "drm": "function drm(combat)", "column_shifts": "function column_shifts(combat)",
        "resolve_combat": "function resolve_combat(combat, roll)",
    }.items()},
    **{name: f"Python's built-in {name}, which the module uses"
       for name in ("min", "max", "int", "float", "str", "bool", "tuple", "frozenset", "LookupError")},
    **{name: f"the runtime's {name}, which the module imports"
       for name in ("AdjustmentSpec", "AttackerLosses", "AttackingHex", "Combat", "FactorSpec", "CombatEffect",
                    "CombatEngine", "CombatResultsTable", "LookupTable", "ModifierSpec", "ShiftSpec", "Unit",
                    "Vocabulary", "Fraction", "MappingProxyType", "Movement", "Parameter", "Phase", "PlayerTurn",
                    "Quantity", "RuleEntry", "Terrain", "TerrainEffectsChart", "_rt",
                    # types, for the annotations
                    "BoundHex", "BoundTerrain", "BoundUnit", "Context", "Contribution", "Number",
                    "ParameterValue", "Resolution", "Result", "Roll", "TerrainNames")},
}


def mangled(name: str) -> str:
    """'Armor-Advantage' -> 'armor_advantage': lower case, each run of other characters one '_'."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def _unkeyword(name: str) -> str:
    return name + "_" if name in KEYWORDS else name


def module_name(rulebook_id: str) -> str:
    """'scs-1.8' -> 'scs_1_8'; ValueError when the id makes no module name (see module_problem)."""
    return ident(_unkeyword(mangled(rulebook_id)))


def module_problem(rulebook_id: str) -> str | None:
    """Why a rulebook id makes no Python module name, or None."""
    name = mangled(rulebook_id)
    if not name:
        return f"rulebook id '{rulebook_id}' makes no Python module name: it has no letter or digit"
    if name[0].isdigit():
        return f"rulebook id '{rulebook_id}' makes the module name '{name}', which starts with a digit"
    return None


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


def _context(resolved: ir.Resolved, rule_titles: dict[str, str], names: PythonNames) -> dict:
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
            "name": p.name, "constant": names.constants[p.name], "value": p.value,
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
        ctx["rounding"] = {"function": names.rounding,
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
    _issue3_context(ctx, resolved, names)
    return ctx


def public_name(definition: str) -> str:
    """'armor-advantage' -> 'armor_advantage', the module's function for a definition;
    ValueError when the name makes none (see python_names)."""
    name = mangled(definition)
    return ident(_unkeyword(name if not name[:1].isdigit() else "define_" + name))


def constant_name(parameter: str) -> str:
    """'zoc.entry_cost' -> 'ZOC_ENTRY_COST'."""
    return ident(re.sub(r"[^A-Za-z0-9_]", "_", parameter).upper())


def rounding_name(rounding: str) -> str:
    """'half-up' -> 'round_half_up'."""
    return ident("round_" + mangled(rounding))


@dataclass(frozen=True)
class PythonNames:
    """The Python names of what a rulebook names, checked against each other and the module's own."""

    definitions: dict[str, str]        # definition -> public function
    constants: dict[str, str]          # parameter -> constant
    rounding: str | None


def python_names(resolved: ir.Resolved) -> tuple[PythonNames, list[Diagnostic]]:
    """Every name the rulebook brings into its module, after mangling, with a positioned
    error at the second of two names that become one, or at a name the module already uses."""
    problems: list[Diagnostic] = []
    taken: dict[str, tuple[str, Span | None]] = {name: (what, None) for name, what in MODULE_NAMES.items()}
    order = {book.path: i for i, book in enumerate(reversed((resolved.rulebook, *resolved.ancestors)))}

    def claim(kind: str, name: str, span: Span, make: Callable[[str], str]) -> str | None:
        try:
            python: str = make(name)
        except ValueError:
            problems.append(Diagnostic(f"{kind} '{name}' makes no Python name", span,
                                       "give it a name with a letter, like: armor-odds"))
            return None
        if python in taken:
            what, first = taken[python]
            where = f" ({first.path}:{first.line})" if first is not None else ""
            problems.append(Diagnostic(f"{kind} '{name}' becomes the Python name {python}, which is already "
                                       f"{what}{where}", span, f"rename the {kind}"))
            return None
        taken[python] = (f"{kind} '{name}'", span)
        return python

    constants = {}
    for p in resolved.parameters:
        constants[p.name] = claim("parameter", p.name, p.span, constant_name) or ""
    rounding = None
    if resolved.rounding is not None:
        node = resolved.rounding.node
        rounding = claim("rounding", node.name.value, node.name.span, rounding_name)
    definitions = {}
    written = sorted((d for d, *_ in resolved.definitions),
                     key=lambda d: (order.get(d.span.path, -1), d.span.line, d.span.column))
    for d in written:
        definitions[d.name.value] = claim("definition", d.name.value, d.name.span, public_name) or ""
    return PythonNames(definitions, constants, rounding), problems


class PythonEmitter(Emitter):
    """Checked expressions as Python over a bound combat `ctx` (runtime.combat.Context):
    runtime helpers as `_rt.<name>`, definitions as their private `_def_` functions."""

    def number(self, value: Fraction) -> str:
        return py(Fraction(value))

    def odds(self, ratio: Fraction) -> str:
        return f"Fraction({ratio.numerator}, {ratio.denominator})"

    def definition(self, name: str) -> str:
        return f"{function_name(name)}(ctx)"

    def parameter(self, name: str) -> str:
        return f"PARAMETERS[{name!r}].number"

    def situation(self, name: str) -> str:
        return f"ctx.situation({name!r})"

    def amount(self, name: str) -> str:
        return f"ctx.amount({name!r})"

    def root(self, path: str) -> str:
        return "ctx." + ident(path.replace(".", "_"))

    def result(self, field: str) -> str:
        return f"ctx.result.{ident(field)}"

    def attribute(self, var: str, name: str) -> str:
        return f"{var}.{ident(name)}"

    def unit_word(self, var: str, word: str) -> str:
        return f"{var}.is_({word!r})"

    def unary(self, op: str, operand: str) -> str:
        return f"(not {operand})" if op == "not" else f"(-{operand})"

    def binary(self, op: str, left: str, right: str) -> str:
        if op == "/":
            return f"_rt.divide({left}, {right})"
        assert op in ("and", "or", "+", "-", "*", "<", "<=", ">", ">=", "==", "!="), op
        return f"({left} {op} {right})"

    def is_case(self, operand: str, word: str) -> str:
        return f"({operand} == {word!r})"

    def is_terrain(self, operand: str, word: str) -> str:
        return f"({operand}.name == {word!r})"

    def extreme(self, function: str, args: list[str]) -> str:
        assert function in ("min", "max"), function
        return f"{function}({', '.join(args)})"

    def choose(self, condition: str, yes: str, no: str) -> str:
        return f"({yes} if {condition} else {no})"

    def odds_of(self, attack: str, defense: str) -> str:
        return f"odds_ratio({attack}, {defense})"

    def numeric(self, function: str, operand: str) -> str:
        helper = "round_" if function == "round" else f"_rt.{ident(function)}_"   # round_: the rulebook's rounding
        return f"{helper}({operand})"

    def across(self, var: str, hexside: str) -> str:
        return f"{var}.crosses({hexside!r})"

    def aggregate(self, function: str, collection: str, var: str, where: str | None, of: str | None) -> str:
        test = f"lambda {var}: {where}" if where is not None else "None"
        if of is None:
            return f"_rt.{ident(function)}_where({collection}, {test})"
        return f"_rt.{ident(function)}_of({collection}, {test}, lambda {var}: {of})"

    def cases(self, branches: list[tuple[str, str]], default: str | None) -> str:
        # flat, not nested: a conditional expression chains to the right without parentheses
        return "(" + "".join(f"{word!r} if {condition} else " for condition, word in branches) + f"{default!r})"

    def error(self) -> str:
        raise ValueError("an expression that does not check reached codegen")


@dataclass(frozen=True)
class Translation:
    """A resolved rulebook's expressions as Python."""

    definitions: dict[str, str]                       # definition -> Python expression
    modifiers: list[str]                              # each DRM's condition
    shifts: list[tuple[str, str | None]]              # each shift's amount and condition
    adjustments: list[str]                            # each adjustment's condition
    factors: list[tuple[str, str]]                    # each strength factor and its condition over u1


def translate(resolved: ir.Resolved) -> Translation:
    """Every expression in effect, in Python; resolve has checked them all."""
    writer = Checker(resolved.vocabulary, PythonEmitter())
    writer.compile_definitions()
    charts = {"modifiers": resolved.modifiers, "shifts": resolved.shifts,
              "adjustments": resolved.adjustments, "factors": resolved.unit_factors}
    modifiers = [writer.condition(m.condition) for m in charts["modifiers"].node.modifiers] \
        if charts["modifiers"] is not None else []
    shifts = [(writer.number(s.amount), writer.condition(s.condition) if s.condition is not None else None)
              for s in charts["shifts"].node.shifts] if charts["shifts"] is not None else []
    writer.reading_result = True
    adjustments = [writer.condition(a.condition) for a in charts["adjustments"].node.adjustments] \
        if charts["adjustments"] is not None else []
    writer.reading_result = False
    factors = [(writer.number(f.factor), writer.in_unit(f.condition, number=False))
               for f in charts["factors"].node.factors] if charts["factors"] is not None else []
    if writer.problems:
        raise ValueError(f"{writer.problems[0].span}: {writer.problems[0].message}")
    return Translation(dict(writer.sources), modifiers, shifts, adjustments, factors)


def _issue3_context(ctx: dict, resolved: ir.Resolved, names: PythonNames) -> None:
    vocabulary = resolved.vocabulary
    python = translate(resolved)
    ctx["unit_types"] = [f"{py(name)}: {py(caps)}," for name, caps in vocabulary.unit_types.items()]
    ctx["states"] = py(tuple(sorted(vocabulary.states)))
    ctx["situations"] = py(tuple(sorted(vocabulary.situations)))
    ctx["amounts"] = py(tuple(sorted(vocabulary.amounts)))
    ctx["favour_defender"] = resolved.favour_defender
    ctx["definitions"] = [{
        "function": function_name(d.name.value), "public": names.definitions[d.name.value], "name": d.name.value,
        "python": python.definitions[d.name.value], "kind": kind, "rule": rule, "origin": origin,
        "text": [comment(line) for line in d.text.splitlines()],
    } for d, kind, rule, origin in resolved.definitions]
    ctx["modifiers"] = None
    if resolved.modifiers is not None:
        node = resolved.modifiers.node
        ctx["modifiers"] = {"cap": node.cap, "cites": _cites(node), "origin": resolved.modifiers.origin, "entries": [
            {"name": m.name.value, "value": m.value, "side": m.side, "python": condition, "text": comment(m.text)}
            for m, condition in zip(node.modifiers, python.modifiers)]}
    ctx["shifts"] = None
    if resolved.shifts is not None:
        node = resolved.shifts.node
        ctx["shifts"] = {"per_side": node.per_side, "before_limits": node.before_limits, "cites": _cites(node), "origin": resolved.shifts.origin, "entries": [
            {"source": sh.source.value, "amount": amount, "maximum": sh.maximum, "condition": condition,
             "text": comment(sh.text)} for sh, (amount, condition) in zip(node.shifts, python.shifts)]}
    ctx["adjustments"] = None
    if resolved.adjustments is not None:
        node = resolved.adjustments.node
        ctx["adjustments"] = {"cites": _cites(node), "entries": [
            {"name": a.name.value, "field": a.target, "amount": a.amount, "python": condition, "text": comment(a.text)}
            for a, condition in zip(node.adjustments, python.adjustments)]}
    ctx["factors"] = None
    if resolved.unit_factors is not None:
        node = resolved.unit_factors.node
        ctx["factors"] = {"cites": _cites(node), "entries": [
            {"name": f.name.value, "role": f.role, "factor": factor, "condition": condition, "text": comment(f.text)}
            for f, (factor, condition) in zip(node.factors, python.factors)]}
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


def _cell(text: str):
    if re.fullmatch(r"-?[0-9]+", text):
        return int(text)
    if re.fullmatch(r"-?[0-9]+/[0-9]+", text):
        num, den = text.split("/")
        return Fraction(int(num), int(den))
    return text


def cell_problems(resolved: ir.Resolved) -> list[Diagnostic]:
    """Chart cells that would be numbers but cannot be: a fraction over zero."""
    return [Diagnostic(f"'{cell.value}' divides by zero", cell.span, "write the fraction with a denominator above 0")
            for effective in resolved.tables for row in effective.node.rows for cell in row[1:]
            if re.fullmatch(r"-?[0-9]+/0+", cell.value)]


_ENV = Environment(loader=PackageLoader("rulesdsl", "templates"), undefined=StrictUndefined,
                   autoescape=False, keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True)
_ENV.filters.update(py=py, doc=doc, ident=ident, comment=comment)


# The keys of the template context each kind of statement fills (tests/test_walk.py checks every kind is
# here and each key is filled and read by module.py.j2); labels print only on the cards.
SECTIONS: dict[type, tuple[str, ...]] = {
    ir.Rule: ("rules", "parameters", "definitions"),
    ir.UnitTypes: ("unit_types",),
    ir.Vocabulary: ("states", "situations", "amounts"),
    ir.Modifiers: ("modifiers",),
    ir.Shifts: ("shifts",),
    ir.Adjustments: ("adjustments",),
    ir.UnitFactors: ("factors",),
    ir.Rounding: ("rounding",),
    ir.SequenceOfPlay: ("game_turn", "player_turn"),
    ir.TerrainChart: ("terrain",),
    ir.ResultsTable: ("results",),
    ir.LookupTable: ("tables",),
    ir.Labels: (),
}


def generate(resolved: ir.Resolved) -> str:
    """The module's source; ValueError when python_names reports a problem (check it first)."""
    names, problems = python_names(resolved)
    if problems:
        raise ValueError(f"{problems[0].span}: {problems[0].message}")
    titles = {e.node.id.value: e.node.title.value for e in resolved.rules if e.node.title}
    return _ENV.get_template("module.py.j2").render(_context(resolved, titles, names))
