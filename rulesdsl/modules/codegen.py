"""Resolved rulebook to an importable Python module.

Everything a rulebook says reaches the module through `py` (a Python
literal made by repr, so quotes, backslashes, newlines and braces stay
text), `doc` (docstring-escaped) or `ident` (a checked identifier).  The
charts are laid out as aligned literals so the module reads like the
rulebook.
"""
from __future__ import annotations

import ast
import keyword
import re
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields as dataclass_fields
from fractions import Fraction
from typing import Protocol, TypedDict

from jinja2 import Environment, PackageLoader, StrictUndefined

from rulesdsl.version import __version__
from rulesdsl.model import codes as result_codes, ir
from rulesdsl.errors import Diagnostic, Span
from rulesdsl.checks.expressions import Checker, Emitter, function_name, numeric_values
from rulesdsl.runtime.model import Quantity
from rulesdsl.runtime.notation import Result, parse_turns
from rulesdsl.runtime.terrain import STEP_FLAGS
from rulesdsl.model.walk import chain, walk


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
        "PLAYER_TURNS": "player turns by side", "TURN_SETS": "named sets of game turns",
        "game_turn": "function game_turn(turn)", "phases": "function phases(turn, player_turn)",
        "TERRAIN": "terrain effects chart", "entry_cost": "function entry_cost(terrain)",
        "attack_multiplier": "function attack_multiplier(terrain)",
        "defense_multiplier": "function defense_multiplier(terrain)", "CRT": "combat results table",
        "crt_column": "function crt_column(attack, defense)", "crt": "function crt(column, roll)",
        "resolve": "function resolve(attack, defense, roll)", "VOCABULARY": "vocabulary",
        "MODIFIERS": "die roll modifiers", "SHIFTS": "column shifts", "FACTORS": "strength factors",
        "ADJUSTMENTS": "result adjustments", "TABLES": "charts", "table": "function table(name)",
        "ENGINE": "combat engine", "_odds_pair": "function _odds_pair(attack, defense)",
        "_ROUNDS_UP_FROM": "rounding threshold",
        "drm": "function drm(combat)", "column_shifts": "function column_shifts(combat)",
        "resolve_combat": "function resolve_combat(combat, roll)",
        "PLAIN_COMBATS": "short way of resolve_combat for plain combats",
        "RULESET": "rule set the rules engine reads", "RULES_ENGINE": "rules engine",
        **{name: f"rules engine function {name}(situation, ...)"
           for name in ("zoc", "move", "reachable", "stack", "supply", "retreat", "advance", "may_overrun",
                        "may_exploit", "may_attack", "engage", "losses")},
    }.items()},
    **{name: f"Python's built-in {name}, which the module uses"
       for name in ("min", "max", "int", "float", "str", "bool", "tuple", "frozenset", "LookupError")},
    **{name: f"the runtime's {name}, which the module imports"
       for name in ("AdjustmentSpec", "AttackerLosses", "AttackingHex", "Combat", "FactorSpec", "CombatEffect",
                    "CombatEngine", "CombatResultsTable", "LookupTable", "ModifierSpec", "ShiftSpec", "Unit",
                    "Vocabulary", "Fraction", "MappingProxyType", "Movement", "Parameter", "Phase", "PlayerTurn",
                    "Quantity", "RuleEntry", "Terrain", "TerrainEffectsChart", "TurnSet", "TurnValue", "_rt", "_fx",
                    # types, for the annotations
                    "BoundHex", "BoundTerrain", "BoundUnit", "Context", "Contribution", "Exact", "Number",
                    "ParameterValue", "Resolution", "Result", "Roll", "TerrainNames", "Exchange",
                    # the rules engine, its answers and what it is asked about
                    "RulesEngine", "RuleSet", "Situation", "Hex", "Advance", "Engagement", "Losses", "Move", "Reach", "Retreat",
                    "StackCheck", "SupplyTrace", "Verdict", "Zones", "Record")},
    **{name: f"collections.abc.{name}, which the module imports" for name in ("Iterable", "Sequence")},
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


def py(value: object) -> str:
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
    if cell.stop:
        args.append("stop=True")
    if cell.by_terrain:
        costs = ", ".join(f"({py(c.terrain.value)}, {py(c.amount)})" for c in cell.by_terrain)
        args.append(f"by_terrain=({costs},)")
    if cell.lower:
        args.append("lower=True")
    return f"Movement({', '.join(args)}),"


def _combat(cell: ir.CombatCell) -> str:
    args = [py(cell.kind)]
    if cell.attacker is not None:
        args.append(f"attacker={py(cell.attacker)}")
    if cell.defender is not None:
        args.append(f"defender={py(cell.defender)}")
    if cell.shift:
        args.append(f"shift={cell.shift}")
    if cell.drm:
        args.append(f"drm={cell.drm}")
    if cell.across != ir.Crossing.ANY:
        args.append(f"across={py(cell.across)}")
    if cell.only is not None:
        args += [f"role={py(str(cell.only.role))}", f"side={py(cell.only.side.value)}"]
    return f"CombatEffect({', '.join(args)})"


def _terrain_extras(row: ir.TerrainRow) -> str:
    extras = ""
    if row.level is not None:
        extras += f", level={row.level}"
    if row.line is not None:
        extras += f", line={py(row.line.value)}"
    if row.no_overrun:
        extras += ", no_overrun=True"
    if row.no_zoc:
        extras += ", no_zoc=True"
    if row.exerts_no_zoc:
        extras += ", exerts_no_zoc=True"
    return extras + "),"


class _Cited(Protocol):
    @property
    def cites(self) -> tuple[ir.Text, ...]: ...


def _cites(node: _Cited) -> tuple[str, ...]:
    return tuple(c.value for c in node.cites)


# ---- the template context: what module.py.j2 reads -------------------------------------
# Every value is a plain value or text already made safe for where the template puts it
# (a literal by `py`, a comment by `comment`, Python the expression compiler wrote).
class RuleEntry(TypedDict):
    id: str
    title: str
    summary: str
    origin: str
    source: str                  # path:line
    notes: tuple[str, ...]
    see: tuple[str, ...]
    effects: tuple[str, ...]     # each effect as the Python expression that builds it (effect_source)


class ParameterEntry(TypedDict):
    name: str
    constant: str
    value: object                # a rulebook value, written by `py`
    rule: str
    origin: str
    source: str                  # path:line
    meaning: str                 # from its declaration (ir.Declared), in players' words
    on_turns: list[str]          # its values on some game turns only: TurnValue(...) expressions


class ParameterGroup(TypedDict):
    heading: str                 # a comment: the rule that sets the parameters
    parameters: list[ParameterEntry]


class PlayerTurnEntry(TypedDict):
    name: str                   # a side, or a run of the shared player turn (first, second...)
    phases: list[str] | None    # the side's own Phase lines; None: the shared PLAYER_TURN_PHASES


class RoundingSection(TypedDict):
    function: str | None
    name: str
    threshold: Fraction | None
    clauses: str
    cites: tuple[str, ...]


class TerrainSection(TypedDict):
    title: str
    origin: str
    cites: tuple[str, ...]
    combination: str | None  # combat.terrain_combination: how a hex's several terrains combine
    with_terrain: bool       # combat.hexside_combination = with-terrain: a hexside crossed combines with the hex
    lines: list[str]
    amended: list[str]      # comment lines: the rows an amendment changed, with their origin
    flags: tuple[str, ...]  # the parameters of a step's price set to yes (terrain.STEP_FLAGS): entry_cost's


class AttackerSection(TypedDict):
    columns: str
    rows: list[str]


class ResultsSection(TypedDict):
    title: str
    origin: str
    cites: tuple[str, ...]
    dice: str
    columns: str
    rows: list[str]
    notation: str
    lines: list[str]
    attacker: AttackerSection | None
    differential: bool      # columns: attack minus defense
    amended: list[str]      # comment lines: the cells an amendment changed, with their origin


class DefinitionEntry(TypedDict):
    function: str
    public: str
    name: str
    python: str
    kind: str
    rule: str
    origin: str
    text: list[str]              # comment lines


class ModifierEntry(TypedDict):
    name: str
    value: int
    side: ir.Side
    python: str
    text: str
    game: bool                   # set by a game's rulebook (overrun.game_modifiers_apply)
    rules: tuple[str, ...]       # the rules it cites: the block's, or the amendment's that added or changed it


class ModifiersSection(TypedDict):
    cap: int | None
    cites: tuple[str, ...]
    origin: str
    entries: list[ModifierEntry]


class ShiftEntry(TypedDict):
    source: str
    amount: str
    maximum: int | None
    condition: str | None
    text: str


class ShiftsSection(TypedDict):
    per_side: int | None
    before_limits: bool
    cites: tuple[str, ...]
    origin: str
    entries: list[ShiftEntry]


class AdjustmentEntry(TypedDict):
    name: str
    field: ir.ResultField
    amount: int
    python: str
    text: str


class AdjustmentsSection(TypedDict):
    cites: tuple[str, ...]
    entries: list[AdjustmentEntry]


class FactorEntry(TypedDict):
    name: str
    role: ir.Role
    factor: str
    condition: str
    text: str
    supply: bool                 # a supply penalty (supply.minimum_strength, supply.penalties_round_down)
    cap: bool                    # `at most`: the strength held to the factor
    round_down: bool             # `rounded down`: the unit's strength rounded down after it


class FactorsSection(TypedDict):
    cites: tuple[str, ...]
    entries: list[FactorEntry]


class TableEntry(TypedDict):
    name: str
    key: str
    row_key: str | None
    title: str
    cites: tuple[str, ...]
    origin: str
    columns: str
    rows: list[str]


class ExpressionContext(TypedDict):
    """The vocabulary and what the expression compiler writes."""

    unit_types: list[str]
    states: str
    situations: str
    amounts: str
    favour_defender: bool
    definitions: list[DefinitionEntry]
    modifiers: ModifiersSection | None
    shifts: ShiftsSection | None
    adjustments: AdjustmentsSection | None
    factors: FactorsSection | None
    tables: list[TableEntry]
    plain_combat: list[str] | None   # resolve_combat may take PlainCombats' short way: why, as comment lines


class ModuleContext(ExpressionContext):
    combat_options: list[tuple[str, str, str]]   # (comment, keyword, value) for the CombatEngine
    exchange_rules: bool        # a rule's effect says who pays an exchange: the CombatEngine reads RULES
    version: str
    source: str
    id: str
    kind: str
    title: str
    book_version: str
    ancestors: tuple[str, ...]
    origins: list[tuple[str, int]]         # rulebook -> rules it gives, most first
    rule_count: int
    rules: list[RuleEntry]
    parameters: list[ParameterEntry]
    cite: Callable[[Iterable[str]], str]
    parameter_groups: list[ParameterGroup]
    rounding: RoundingSection | None
    game_turn: list[str]
    player_turn: list[str]
    player_turns: list[PlayerTurnEntry]
    sequence_cites: str
    sequence_amended: list[str]     # comment lines: the phases an amendment changed, with their origin
    turn_sets: list[str]            # TURN_SETS entries: `turns night 3 6 9 12`
    terrain: TerrainSection | None
    one_side: list[str]                 # the TEC rows whose combat effect is for one side only
    ezoc: ir.EffectiveParameter | None
    results: ResultsSection | None
    below: ir.EffectiveParameter | None
    below_forced: ir.EffectiveParameter | None     # a forced attack's own below-table result
    above: ir.EffectiveParameter | None
    codes: list[str]


def _context(resolved: ir.Resolved, rule_titles: dict[str, str], names: PythonNames) -> ModuleContext:
    """What module.py.j2 renders for a resolved rulebook: its header, rules, constants, sequence of play,
    charts and the expression compiler's output."""
    book = resolved.rulebook
    params = {p.name: p for p in resolved.parameters}
    origins: dict[str, int] = {}
    for effective in resolved.rules:
        origins[effective.origin] = origins.get(effective.origin, 0) + 1

    def cite(ids: Iterable[str]) -> str:
        """Rule ids as the module's comments cite them: each with its title, when it has one."""
        present = [i for i in ids if i]
        return ", ".join(f"{i} ({rule_titles[i]})" if i in rule_titles else i for i in present)

    parameters = _parameter_entries(resolved, names)
    sequence = _sequence_lines(resolved.sequence.node) if resolved.sequence is not None else _NO_SEQUENCE
    return {
        "version": __version__,
        "source": book.path,
        "id": book.id.value,
        "kind": book.kind.value,
        "title": book.title.value,
        "book_version": book.version.value if book.version else "",
        "ancestors": tuple(a.id.value for a in resolved.ancestors),
        "origins": sorted(origins.items(), key=lambda kv: -kv[1]),
        "rule_count": len(resolved.rules),
        "rules": _rule_entries(resolved),
        "parameters": parameters,
        "cite": cite,
        "parameter_groups": _parameter_groups(resolved, parameters),
        "rounding": _rounding_section(resolved, names),
        "game_turn": list(sequence.game_turn),
        "player_turn": list(sequence.player_turn),
        "player_turns": list(sequence.player_turns),
        "sequence_cites": sequence.cites,
        "sequence_amended": _amendments(resolved.sequence, "phase") if resolved.sequence is not None else [],
        "turn_sets": list(sequence.turn_sets),
        "terrain": _terrain_section(resolved.terrain, params) if resolved.terrain is not None else None,
        "one_side": [row.name.value for row in resolved.terrain.node.rows if row.combat.only is not None]
        if resolved.terrain is not None else [],
        "ezoc": params.get("zoc.entry_cost"),
        "results": _results_section(resolved.results, resolved.result_codes)
        if resolved.results is not None else None,
        "below": params.get("combat.below_table"),
        "below_forced": params.get("combat.below_table_forced"),
        "above": params.get("combat.above_table"),
        "exchange_rules": any(e.question.value == "exchange-loss" for r in resolved.rules for e in r.node.effects),
        "combat_options": _combat_options(params, resolved.shifts is not None and resolved.shifts.node.before_limits),
        "codes": _codes(resolved),
        **_issue3_context(resolved, names),
    }


def _rule_entries(resolved: ir.Resolved) -> list[RuleEntry]:
    """The rules in effect, in order, as the module's RULES lists them."""
    rules: list[RuleEntry] = []
    for effective in resolved.rules:
        rule = effective.node
        rules.append({
            "id": rule.id.value,
            "title": rule.title.value if rule.title else "",
            "summary": rule.summary.value if rule.summary else "",
            "origin": effective.origin,
            "source": f"{rule.span.path}:{rule.span.line}",
            "notes": tuple(n.value for n in rule.notes),
            "see": tuple(s.value for s in rule.see),
            "effects": tuple(effect_source(e) for e in rule.effects),
        })
    return rules


def effect_source(effect: ir.Effect) -> str:
    """A rule's effect as the Python expression that builds it in the generated module: its condition a tree
    of runtime.effects' types (data the engine evaluates, never code), its line as written."""
    amount = "" if effect.amount is None else f", {_amount_source(effect.amount)}"
    return (f"_fx.Effect({py(str(effect.kind))}, {py(effect.question.value)}, "
            f"{condition_source(effect.condition)}, {py(effect.text)}{amount})")


def _amount_source(amount: ir.EffectAmount) -> str:
    """A `cost` effect's amount: its value as written, or the parameter whose value in effect the engine reads."""
    parts = [py(str(amount.how)), py(amount.value if amount.value is not None else Fraction(0))]
    if amount.unit is not None:
        parts.append(f"unit={py(amount.unit.value)}")
    if amount.parameter is not None:
        parts.append(f"parameter={py(amount.parameter.value)}")
    if amount.rounded_down:
        parts.append("rounded_down=True")
    return f"_fx.Amount({', '.join(parts)})"


def condition_source(expr: ir.Expr) -> str:
    """A checked condition (checks/effects.py) as runtime.effects' types."""
    if isinstance(expr, ir.Name):
        return f"_fx.Fact({py(expr.path)})"
    if isinstance(expr, ir.Number):
        return f"_fx.Number({py(expr.value)})"
    if isinstance(expr, ir.Is) and isinstance(expr.operand, ir.Name):
        return f"_fx.Is({py(expr.operand.path)}, {py(expr.word.value)})"
    if isinstance(expr, ir.Unary) and expr.op is ir.UnaryOp.NOT:
        return f"_fx.Not({condition_source(expr.operand)})"
    if isinstance(expr, ir.Binary) and expr.op in (ir.BinaryOp.AND, ir.BinaryOp.OR):
        kind = "All" if expr.op is ir.BinaryOp.AND else "Any_"
        operands = [condition_source(o) for o in chain(expr, expr.op)]
        return f"_fx.{kind}(({', '.join(operands)},))"
    if isinstance(expr, ir.Binary):
        return f"_fx.Compare({py(str(expr.op))}, {condition_source(expr.left)}, {condition_source(expr.right)})"
    raise TypeError(f"no condition for {type(expr).__name__}: checks/effects.py refuses it")



def _parameter_entries(resolved: ir.Resolved, names: PythonNames) -> list[ParameterEntry]:
    """The parameters in effect, each with its constant's name and where it is set, as PARAMETERS lists them."""
    parameters: list[ParameterEntry] = []
    for p in resolved.parameters:
        parameters.append({
            "name": p.name, "constant": names.constants[p.name], "value": p.value,
            "rule": p.rule, "origin": p.origin, "source": f"{p.span.path}:{p.span.line}",
            "meaning": declared.meaning if (declared := resolved.declared.get(p.name)) else "",
            "on_turns": [_turn_value(limited) for limited in p.on_turns],
        })
    return parameters


def _parameter_groups(resolved: ir.Resolved, parameters: list[ParameterEntry]) -> list[ParameterGroup]:
    """The constants, grouped under the rule that sets them, in rule order; those no rule of the chain sets
    (an example's `assume` line) last, under a heading of their own."""
    by_rule: dict[str, list[ParameterEntry]] = {}
    # (an amended parameter keeps its place in the rule, wherever its line is)
    place = {p.name.value: i for e in resolved.rules for i, p in enumerate(e.node.parameters) if p.turns is None}
    for entry in sorted(parameters, key=lambda e: (place.get(e["name"], 0), int(e["source"].rsplit(":", 1)[1]))):
        by_rule.setdefault(entry["rule"], []).append(entry)
    parameter_groups: list[ParameterGroup] = [
        {"heading": comment(f"{e.node.id.value} {e.node.title.value if e.node.title else ''}"),
         "parameters": by_rule[e.node.id.value]}
        for e in resolved.rules if e.node.id.value in by_rule]
    ruled = {e.node.id.value for e in resolved.rules}
    unruled = [entry for rule, entries in by_rule.items() if rule not in ruled for entry in entries]
    if unruled:
        parameter_groups.append({"heading": comment("assumed, set by no rule"), "parameters": unruled})
    return parameter_groups


def _rounding_section(resolved: ir.Resolved, names: PythonNames) -> RoundingSection | None:
    """The rounding function and its threshold, when the rulebook declares a rounding."""
    if resolved.rounding is None:
        return None
    node = resolved.rounding.node
    return {"function": names.rounding,
            "name": node.name.value, "threshold": resolved.threshold,
            "clauses": ", ".join(c.value for c in node.spec), "cites": _cites(node)}


@dataclass(frozen=True)
class _SequenceLines:
    """The sequence of play as module lines: the game turn's and the player turn's phases, the player
    turns by the name the game turn runs them under, the block's cites and the TURN_SETS entries."""

    game_turn: tuple[str, ...]
    player_turn: tuple[str, ...]
    player_turns: tuple[PlayerTurnEntry, ...]
    cites: str
    turn_sets: tuple[str, ...]


_NO_SEQUENCE = _SequenceLines((), (), (), "", ())


def _sequence_lines(sequence: ir.SequenceOfPlay) -> _SequenceLines:
    """A sequence of play's blocks as the module's GAME_TURN, PLAYER_TURN and PLAYER_TURNS lines."""
    turns: dict[str, list[str]] = {"game_turn": [], "player_turn": []}
    player_turns: list[PlayerTurnEntry] = []
    for block in sequence.blocks:
        phases = [_phase_line(item) for item in block.items]
        if block.side is not None:
            player_turns.append({"name": block.side.value, "phases": phases})
        else:
            turns["game_turn" if block.kind.value == "game" else "player_turn"].extend(phases)
    if not player_turns:    # one player turn for every side: each run the game turn names plays it
        runs = (i.name.value for b in sequence.blocks if b.kind.value == "game"
                for i in b.items if isinstance(i, ir.PlayerTurnSlot))
        player_turns = [{"name": name, "phases": None} for name in dict.fromkeys(runs)]
    turn_sets = tuple(f"({py(s.name.value)}, TurnSet({py(s.name.value)}, {_turn_spans(s.turns)})),"
                      for s in sequence.turn_sets)
    return _SequenceLines(tuple(turns["game_turn"]), tuple(turns["player_turn"]), tuple(player_turns),
                          ", ".join(_cites(sequence)), turn_sets)


def _phase_line(item: ir.Phase | ir.PlayerTurnSlot) -> str:
    """One item of a sequence block as a module line: a PlayerTurn slot, or a Phase with its rules,
    activities and, when it has them, its note and the turns it is (not) played on."""
    if isinstance(item, ir.PlayerTurnSlot):
        name = py(item.name.value)
        return f"PlayerTurn({name}, PLAYER_TURNS[{name}]),"
    args = [py(item.name.value), f"rules={py(tuple(c.value for c in item.cites))}",
            f"activities={py(tuple(a.value for a in item.activities))}"]
    if item.note is not None:
        args.append(f"note={py(item.note.value)}")
    if item.turns is not None:
        which = (f"TURN_SETS[{py(item.turns.set.value)}]" if item.turns.set is not None
                 else f"TurnSet(None, {_turn_spans(item.turns.turns)})")
        args.append(f"{'not_on_turns' if item.turns.negated else 'on_turns'}={which}")
    return f"Phase({', '.join(args)}),"


def _terrain_section(effective: ir.Effective[ir.TerrainChart],
                     params: dict[str, ir.EffectiveParameter]) -> TerrainSection:
    """The terrain effects chart as the module's TERRAIN lines, with how terrain combines in combat."""
    chart = effective.node
    rows = [["Terrain(" + py(r.name.value) + ",", py(r.kind) + ",", _movement(r.movement),
             _combat(r.combat) + _terrain_extras(r)] for r in chart.rows]
    combination = params.get("combat.terrain_combination")
    across = params.get("combat.hexside_combination")
    return {"title": chart.title.value if chart.title else "Terrain Effects Chart",
            "origin": effective.origin, "cites": _cites(chart),
            "combination": str(combination.value) if combination is not None else None,
            "with_terrain": across is not None and across.value == "with-terrain" and combination is not None,
            "lines": _table(rows, "    ") if rows else [],
            "amended": _amendments(effective, "row"),
            "flags": tuple(name for name in STEP_FLAGS
                           if name in params and params[name].value is True)}


def _crt_rows(columns: tuple[ir.Text, ...], rows: tuple[ir.DiceRow, ...], indent: str) -> list[str]:
    """A results table's rows as aligned module lines `label: (cell, ..., cell),` under a comment header
    of its columns (odds are validated: safe in a comment)."""
    header = ["#"] + [c.value for c in columns]
    cells = [[py(r.label.value) + ":"] + [("(" if i == 0 else "") + py(c.value) + ("),"  if i == len(r.cells) - 1 else ",")
                                         for i, c in enumerate(r.cells)] for r in rows]
    return _table([header] + cells, indent)


def _results_section(effective: ir.Effective[ir.ResultsTable],
                     result_codes_: ir.Effective[ir.ResultCodes] | None) -> ResultsSection:
    """The combat results table as the module's CRT lines, with its attacker's table when it has one."""
    table = effective.node
    attacker: AttackerSection | None = None
    if table.attacker is not None:
        attacker = {"columns": py(tuple(c.value for c in table.attacker.columns)),
                    "rows": _crt_rows(table.attacker.columns, table.attacker.rows, "            ")}
    return {"title": table.title.value if table.title else "Combat Results Table",
            "origin": effective.origin, "cites": _cites(table), "dice": table.dice.value,
            "columns": py(tuple(c.value for c in table.columns)),
            "rows": _crt_rows(table.columns, table.rows, "        "),
            "notation": result_codes.family(result_codes_.node if result_codes_ is not None else None, table),
            "lines": [f"{py(l.name.value)}: {py(tuple(c.value for c in l.columns))},"
                      for l in table.lines if l.name is not None],
            "attacker": attacker, "differential": table.differential,
            "amended": _amendments(effective, "cell")}


def _turn_spans(turns: tuple[ir.Text, ...]) -> str:
    """Turns as written (3, 5-8, 11+; validated), as the runtime's TurnSet spans: ((3, 3), (5, 8), (11, None))."""
    spans = tuple(span for span in (parse_turns(t.value) for t in turns) if span is not None)
    return py(spans)


def _turn_value(limited: ir.EffectiveTurnValue) -> str:
    """A parameter's value on some game turns only, as the runtime's TurnValue: its turns (a TurnSet named
    after the set, or unnamed for turns listed), the value, the rule that sets it and where."""
    name = limited.turns.set.value if limited.turns.set is not None else None
    return (f"TurnValue(TurnSet({py(name)}, {py(limited.spans)}), {py(limited.value)}, rule={py(limited.rule)}, "
            f"origin={py(limited.origin)}, source={py(f'{limited.span.path}:{limited.span.line}')})")


# the core parameters the CombatEngine reads, and its keyword for each
_COMBAT_OPTIONS = (("combat.hexside_combination", "hexside_combination"),
                   ("combat.shift_off_left_is_below_table", "shift_off_left"),
                   ("combat.terrain_per_unit", "terrain_per_unit"),
                   ("overrun.game_modifiers_apply", "game_modifiers_in_overruns"),
                   ("supply.minimum_strength", "supply_minimum"),
                   ("supply.penalties_round_down", "supply_round_down"),
                   ("combat.exchange_measure", "exchange_measure"),
                   ("combat.exchange_counts_terrain", "exchange_counts_terrain"),
                   ("combat.exchange_loser", "exchange_loser"))


def _combat_options(params: dict[str, ir.EffectiveParameter], before_limits: bool) -> list[tuple[str, str, str]]:
    """The CombatEngine's keywords for the combat parameters in effect: (comment, keyword, value).  Shifts
    count from imaginary columns when `combat.imaginary_columns` says so or the shifts chart says `before
    limits` (resolve refuses the two disagreeing)."""
    options = []
    imaginary = params.get("combat.imaginary_columns")
    if imaginary is not None:
        options.append((comment(f"{imaginary.rule} ({imaginary.origin}): combat.imaginary_columns = "
                                f"{_shown(imaginary.value)}"), "shifts_before_limits",
                        py(bool(imaginary.value) or before_limits)))
    elif before_limits:
        options.append((comment("column shifts ... before limits"), "shifts_before_limits", "True"))
    for name, keyword_ in _COMBAT_OPTIONS:
        parameter = params.get(name)
        if parameter is None:
            continue
        value = parameter.value
        amount = value.amount if isinstance(value, Quantity) else value
        options.append((comment(f"{parameter.rule} ({parameter.origin}): {name} = {_shown(value)}"), keyword_,
                        py(amount)))
    return options


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _amendments(effective: ir.Effective[object], noun: str) -> list[str]:
    """One comment line per item an amendment changed: which, to what, and whose it is (a sequence of play's
    turn set is no phase: 'turn set night: 4 8')."""
    return [comment((f"turn set {a.key.removeprefix('turn sets: ')}" if a.key.startswith("turn sets: ") else
                     f"{noun} {a.key}") +
                    f": {_unkeyed(a.key, a.text)}, amended by {a.origin} ({a.span.path}:{a.span.line})")
            for a in effective.amended]


def _unkeyed(key: str, text: str) -> str:
    """An amended item's text without the words its key already says: 'river: combat 2L' under the key
    'river combat' is '2L', 'movement [3.0] movement' under 'player turn red: movement' is '[3.0] movement'."""
    keys, words = key.replace(":", "").split(), text.replace(":", "", 1).split()
    for start in range(len(keys)):
        tail = keys[start:]
        if words[:len(tail)] == tail and len(words) > len(tail):
            return " ".join(words[len(tail):])
    return text


def _codes(resolved: ir.Resolved) -> list[str]:
    """Each declared result code as a line of the module's RESULT_CODES: the code, then its meaning as a
    Result with the fields it sets."""
    if resolved.result_codes is None:
        return []
    lines = []
    default = Result()
    for code, meaning in result_codes.declared(resolved.result_codes.node).items():
        fields = ", ".join(f"{f.name}={py(getattr(meaning, f.name))}" for f in dataclass_fields(Result)
                           if getattr(meaning, f.name) != getattr(default, f.name) or f.name == "text")
        lines.append(f"{py(code)}: Result({fields}),")
    return lines


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
        """A whole number as an int literal (exact beside Fractions, and cheap), else a Fraction."""
        value = Fraction(value)
        if value.denominator == 1:
            return str(value.numerator) if value >= 0 else f"({value.numerator})"
        return py(value)

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

    def divide(self, left: str, right: str, where: str | None) -> str:
        return f"_rt.divide({left}, {right})" if where is None else f"_rt.divide({left}, {right}, {where!r})"

    def binary(self, op: str, left: str, right: str) -> str:
        assert op in ("and", "or", "+", "-", "*", "<", "<=", ">", ">=", "==", "!="), op
        return f"({left} {op} {right})"

    def is_case(self, operand: str, word: str) -> str:
        return f"({operand} == {word!r})"

    def is_terrain(self, operand: str, word: str) -> str:
        return f"{operand}.has({word!r})"

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
    writer = Checker(resolved.vocabulary, PythonEmitter(), values=numeric_values(resolved.parameters))
    writer.compile_definitions()
    modifiers = [writer.condition(m.condition) for m in resolved.modifiers.node.modifiers] \
        if resolved.modifiers is not None else []
    shifts = [(writer.number(s.amount), writer.condition(s.condition) if s.condition is not None else None)
              for s in resolved.shifts.node.shifts] if resolved.shifts is not None else []
    writer.reading_result = True
    adjustments = [writer.condition(a.condition) for a in resolved.adjustments.node.adjustments] \
        if resolved.adjustments is not None else []
    writer.reading_result = False
    factors = [(writer.number(f.factor), writer.in_unit(f.condition, number=False))
               for f in resolved.unit_factors.node.factors] if resolved.unit_factors is not None else []
    errors = [p for p in writer.problems if p.severity == "error"]    # resolve reported the warnings
    if errors:
        raise ValueError(f"{errors[0].span}: {errors[0].message}")
    return Translation(dict(writer.sources), modifiers, shifts, adjustments, factors)


# What a plain combat's expressions may read (runtime.combat.PlainCombats): a DRM or column shift only the
# defender's terrain, the rulebook's parameters and numbers; a strength factor's value no more than the
# parameters and numbers, its condition only the words the unit answers to (`u1.is_('out-of-supply')`).
_PLAIN_GLOBALS = frozenset({"PARAMETERS", "Fraction", "min", "max", "round_", "_rt"})


def _reads_only(python: str, unit: bool = False, terrain: bool = False) -> bool:
    """Whether the compiled expression `python` reads nothing but what a plain combat allows: the module's
    parameters, numbers and pure helpers; with `terrain`, `ctx.defender_terrain`; with `unit`, the words of
    `u1`.  Conservative: any other name, a lambda, a definition or the result reads more."""
    tree = ast.parse(python, mode="eval")
    allowed = _PLAIN_GLOBALS | ({"u1"} if unit else set())
    terrain_reads = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Attribute)
                     and n.attr == "defender_terrain" and isinstance(n.value, ast.Name)} if terrain else set()
    unit_words = {id(n.func.value) for n in ast.walk(tree) if isinstance(n, ast.Call)
                  and isinstance(n.func, ast.Attribute) and n.func.attr == "is_"
                  and isinstance(n.func.value, ast.Name)} if unit else set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Lambda):
            return False
        if isinstance(node, ast.Name):
            if node.id == "ctx" and id(node) in terrain_reads:
                continue
            if node.id == "u1" and id(node) not in unit_words:
                return False
            if node.id not in allowed:
                return False
    return True


def plain_combat(python: Translation) -> bool:
    """Whether resolve_combat may take the short way (runtime.combat.PlainCombats) for this rulebook's combats:
    each DRM and column shift reads only the defender's terrain, each strength factor only the unit's words,
    and no result adjustment reads the result.  The engine's own options (adjustments, exchanges, supply
    floors, terrain lines...) PlainCombats checks itself."""
    return (not python.adjustments
            and all(_reads_only(m, terrain=True) for m in python.modifiers)
            and all(_reads_only(a, terrain=True) and (c is None or _reads_only(c, terrain=True))
                    for a, c in python.shifts)
            and all(_reads_only(f) and _reads_only(c, unit=True) for f, c in python.factors))


def _plain_comment(modifiers: ModifiersSection | None, shifts: ShiftsSection | None,
                   factors: FactorsSection | None) -> list[str]:
    """Above PLAIN_COMBATS: what the rulebook's combat reads, by the names of its DRMs, shifts and factors."""
    reads = []
    if modifiers is not None:
        reads.append(f"the DRMs ({', '.join(m['name'] for m in modifiers['entries'])})")
    if shifts is not None:
        reads.append(f"the column shifts ({', '.join(s['source'] for s in shifts['entries'])})")
    terrain = f"{' and '.join(reads)} read only the defender's terrain" if reads else ""
    unit = (f"the strength factors ({', '.join(f['name'] for f in factors['entries'])}) only a unit's type and "
            "states") if factors is not None else ""
    said = "; ".join(part for part in (terrain, unit) if part) or "nothing but its units and terrain is read"
    text = (f"A plain combat (units and terrain, a roll, nothing declared) takes a short way: {said}.  So what "
            "the terrain comes to is worked out once per terrain asked, what a unit's type and states make of its "
            "strengths once per type and states, and a combat is its units' arithmetic, in whole numbers, the odds "
            "and the table.  The answer is ENGINE.resolve's, which answers every other combat (and says what is "
            "wrong with one).")
    return textwrap.wrap(text, 106)


def _issue3_context(resolved: ir.Resolved, names: PythonNames) -> ExpressionContext:
    vocabulary = resolved.vocabulary
    python = translate(resolved)
    definitions: list[DefinitionEntry] = [{
        "function": function_name(d.name.value), "public": names.definitions[d.name.value], "name": d.name.value,
        "python": python.definitions[d.name.value], "kind": kind, "rule": rule, "origin": origin,
        "text": [comment(line) for line in d.text.splitlines()],
    } for d, kind, rule, origin in resolved.definitions]
    modifiers: ModifiersSection | None = None
    if resolved.modifiers is not None:
        node = resolved.modifiers.node
        games = {b.id.value for b in (resolved.rulebook, *resolved.ancestors) if b.kind.value == "game"}
        in_effect = resolved.modifiers
        modifiers = {"cap": node.cap, "cites": _cites(node), "origin": in_effect.origin, "entries": [
            {"name": m.name.value, "value": m.value, "side": m.side, "python": condition, "text": comment(m.text),
             "game": in_effect.item_origin(m.name.value) in games,
             "rules": in_effect.item_cites(m.name.value) or _cites(node)}
            for m, condition in zip(node.modifiers, python.modifiers)]}
    shifts: ShiftsSection | None = None
    if resolved.shifts is not None:
        chart = resolved.shifts.node
        shifts = {"per_side": chart.per_side, "before_limits": chart.before_limits, "cites": _cites(chart), "origin": resolved.shifts.origin, "entries": [
            {"source": sh.source.value, "amount": amount, "maximum": sh.maximum, "condition": condition,
             "text": comment(sh.text)} for sh, (amount, condition) in zip(chart.shifts, python.shifts)]}
    adjustments: AdjustmentsSection | None = None
    if resolved.adjustments is not None:
        adjusting = resolved.adjustments.node
        adjustments = {"cites": _cites(adjusting), "entries": [
            {"name": a.name.value, "field": a.target, "amount": a.amount, "python": condition, "text": comment(a.text)}
            for a, condition in zip(adjusting.adjustments, python.adjustments)]}
    factors: FactorsSection | None = None
    if resolved.unit_factors is not None:
        multiplying = resolved.unit_factors.node
        factors = {"cites": _cites(multiplying), "entries": [
            {"name": f.name.value, "role": f.role, "factor": factor, "condition": condition, "text": comment(f.text),
             "supply": _supply_penalty(f), "cap": f.cap, "round_down": f.round_down}
            for f, (factor, condition) in zip(multiplying.factors, python.factors)]}
    tables: list[TableEntry] = []
    for effective in resolved.tables:
        table = effective.node
        head = table.header[0].value
        row_key, _, key = head.partition("/") if "/" in head else (None, "", head)
        rows = [f"{py(r[0].value)}: {py(tuple(_cell(c.value) for c in r[1:]))}," for r in table.rows]
        tables.append({"name": table.name.value, "key": key, "row_key": row_key,
                       "title": table.title.value if table.title else table.name.value,
                       "cites": _cites(table), "origin": effective.origin,
                       "columns": py(tuple(c.value for c in table.header[1:])), "rows": rows})
    return {
        "unit_types": [f"{py(name)}: {py(caps)}," for name, caps in vocabulary.unit_types.items()],
        "states": py(tuple(sorted(vocabulary.states))),
        "situations": py(tuple(sorted(vocabulary.situations))),
        "amounts": py(tuple(sorted(vocabulary.amounts))),
        "favour_defender": resolved.favour_defender,
        "definitions": definitions,
        "modifiers": modifiers,
        "shifts": shifts,
        "adjustments": adjustments,
        "factors": factors,
        "tables": tables,
        # a cap or a rounding is no multiplier: the short way multiplies
        "plain_combat": _plain_comment(modifiers, shifts, factors) if plain_combat(python) and not any(
            e["cap"] or e["round_down"] for e in (factors or {"entries": []})["entries"]) else None,
    }


def _supply_penalty(factor: ir.UnitFactor) -> bool:
    """A strength factor is a supply penalty when its value is a supply parameter, or it applies to units
    marked out of supply."""
    names = [n.path for n in walk(factor.factor) if isinstance(n, ir.Name)]
    states = [n.path for n in walk(factor.condition) if isinstance(n, ir.Name)]
    return any(n.startswith("supply.") for n in names) or "out-of-supply" in states


_NUMBER_CELL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+|[0-9]+/[0-9]*[1-9][0-9]*)")


def _cell(text: str) -> int | Fraction | str:
    """A lookup-table cell as the module holds it: every number (2, +1, -1, 1/2, 1.5) as a
    number, an int when it is whole and a Fraction otherwise; a word or a range as text."""
    if not _NUMBER_CELL.fullmatch(text):
        return text
    value = Fraction(text)
    return int(value) if value.denominator == 1 else value



_ENV = Environment(loader=PackageLoader("rulesdsl.modules", "templates"), undefined=StrictUndefined,
                   autoescape=False, keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True)
_ENV.filters.update(py=py, doc=doc, ident=ident, comment=comment)


# The keys of the template context each kind of statement fills (tests/test_walk.py checks every kind is
# here and each key is filled and read by module.py.j2); labels print only on the cards.
SECTIONS: dict[type, tuple[str, ...]] = {
    ir.Rule: ("rules", "parameters", "definitions"),
    ir.UnitTypes: ("unit_types",),
    ir.Vocabulary: ("states", "situations", "amounts"),
    ir.ParameterDeclarations: ("parameter_groups",),   # each constant's meaning, above it
    ir.Modifiers: ("modifiers",),
    ir.Shifts: ("shifts",),
    ir.Adjustments: ("adjustments",),
    ir.UnitFactors: ("factors",),
    ir.Rounding: ("rounding",),
    ir.SequenceOfPlay: ("game_turn", "player_turn", "player_turns", "turn_sets"),
    ir.TerrainChart: ("terrain",),
    ir.ResultsTable: ("results",),
    ir.ResultCodes: ("codes",),
    ir.LookupTable: ("tables",),
    ir.Labels: (),
    ir.Example: (),     # run by `rulesdsl check` against the module, not part of it
    ir.Card: (),        # how the card is printed: charts.card_options
}


def generate(resolved: ir.Resolved) -> str:
    """The module's source; ValueError when python_names reports a problem (check it first)."""
    names, problems = python_names(resolved)
    if problems:
        raise ValueError(f"{problems[0].span}: {problems[0].message}")
    titles = {e.node.id.value: e.node.title.value for e in resolved.rules if e.node.title}
    return _ENV.get_template("module.py.j2").render(_context(resolved, titles, names))
