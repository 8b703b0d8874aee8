"""Parse tree to IR: Lark tokens become str, Fraction and positioned Text."""
from __future__ import annotations

from fractions import Fraction

from lark import Token, Transformer, v_args
from lark.exceptions import VisitError

from . import ir
from .errors import Diagnostic, RulesError, Span
from .parser import parse_tree
from .source import Source


def number(text: str) -> Fraction:
    """'2', '+1', '1/2', '.50', '-1.5' as an exact Fraction."""
    sign = -1 if text.startswith("-") else 1
    text = text.lstrip("+-")
    if "/" in text:
        num, den = text.split("/")
        if int(den) == 0:
            raise ValueError("division by zero")
        return sign * Fraction(int(num), int(den))
    return sign * Fraction(text)


class _Builder(Transformer):
    def __init__(self, path: str, text: str = ""):
        super().__init__()
        self.path = path
        self.lines = text.split("\n")

    def _source(self, meta) -> str:
        """The text a node was written as, lines joined."""
        if getattr(meta, "empty", False) or not self.lines:
            return ""
        rows = self.lines[meta.line - 1: meta.end_line]
        if not rows:
            return ""
        if len(rows) == 1:
            return rows[0][meta.column - 1: meta.end_column - 1]
        rows[0] = rows[0][meta.column - 1:]
        rows[-1] = rows[-1][: meta.end_column - 1]
        return "\n".join(r.rstrip() for r in rows)

    # -- helpers --------------------------------------------------------
    def _span(self, meta) -> Span:
        if getattr(meta, "empty", False):
            return Span(self.path)
        return Span(self.path, meta.line, meta.column, meta.end_line, meta.end_column)

    def _text(self, token: Token, value: str | None = None) -> ir.Text:
        span = Span(self.path, token.line, token.column, token.end_line, token.end_column)
        if value is None:
            value = str(token)
            if token.type == "STRING":
                value = _unquote(value)
        return ir.Text(span, value)

    @staticmethod
    def _is(item, *types: str) -> bool:
        return isinstance(item, Token) and item.type in types

    def _leading(self, items: list) -> tuple[bool, ir.Text | None, tuple, list]:
        """Split `override? STRING? cites? rest` off the front of a statement's children."""
        items = list(items)
        override = bool(items) and self._is(items[0], "OVERRIDE")
        if override:
            items.pop(0)
        title = self._text(items.pop(0)) if items and self._is(items[0], "STRING") else None
        cites = items.pop(0) if items and isinstance(items[0], tuple) else ()
        return override, title, cites, items

    # -- header ---------------------------------------------------------
    @v_args(meta=True)
    def start(self, meta, items):
        header, *statements = items
        fields = dict(header)
        grouped: dict[str, list] = {"rules": [], "unit_types": [], "vocabulary": [], "modifiers": [],
                                    "shifts": [], "rounding": [], "sequence": [], "terrain": [], "results": [],
                                    "tables": [], "adjustments": [], "labels": [], "unit_factors": []}
        kinds = {ir.Rule: "rules", ir.UnitTypes: "unit_types", ir.Vocabulary: "vocabulary",
                 ir.Modifiers: "modifiers", ir.Shifts: "shifts", ir.Rounding: "rounding",
                 ir.SequenceOfPlay: "sequence", ir.TerrainChart: "terrain", ir.ResultsTable: "results",
                 ir.LookupTable: "tables", ir.Adjustments: "adjustments", ir.Labels: "labels",
                 ir.UnitFactors: "unit_factors"}
        for statement in statements:
            grouped[kinds[type(statement)]].append(statement)
        return ir.Rulebook(fields.pop("span"), **fields, **{k: tuple(v) for k, v in grouped.items()})

    @v_args(meta=True)
    def header(self, meta, items):
        kind, ident, title, *fields = items
        out = {"span": self._span(meta), "kind": self._text(kind), "id": self._text(ident), "title": self._text(title)}
        for key, token in fields:
            out[key] = self._text(token)
        return list(out.items())

    def version(self, items):
        return ("version", items[0])

    def extends(self, items):
        return ("extends", items[0])

    # -- rules ----------------------------------------------------------
    @v_args(meta=True)
    def rule(self, meta, items):
        override = bool(items) and self._is(items[0], "OVERRIDE")
        keyword, rule_id, *rest = items[1:] if override else items
        title = self._text(rest.pop(0)) if rest and self._is(rest[0], "STRING") else None
        body = {"summary": None, "parameters": [], "notes": [], "see": [], "requires": [], "definitions": []}
        for kind, value in rest:
            if kind == "summary":
                if body["summary"] is None:
                    body["summary"] = value
                else:
                    body.setdefault("_extra_summaries", []).append(value)
            else:
                body[kind].extend(value if isinstance(value, list) else [value])
        extra = body.pop("_extra_summaries", [])
        rule = ir.Rule(self._span(meta), rule_id, keyword == "rule", override, title, body["summary"],
                       tuple(body["parameters"]), tuple(body["notes"]), tuple(body["see"]),
                       tuple(body["requires"]), tuple(body["definitions"]))
        if extra:
            raise RulesError([Diagnostic(f"rule {rule_id.value} has more than one summary", s.span,
                                         hint="a rule has one summary line; put the rest in a note")
                              for s in extra])
        return rule

    def rule_id(self, items):
        return self._text(items[0])

    def summary(self, items):
        return ("summary", self._text(items[0]))

    def note(self, items):
        return ("notes", self._text(items[0]))

    def see(self, items):
        return ("see", list(items))

    def requires(self, items):
        return ("requires", [self._text(t) for t in items])

    @v_args(meta=True)
    def define(self, meta, items):
        name, expr = items
        return ("definitions", ir.Definition(self._span(meta), self._text(name), expr, (), self._source(meta)))

    @v_args(meta=True)
    def define_cases(self, meta, items):
        name, *cases = items
        if not cases:
            raise RulesError([Diagnostic(f"definition '{name}' has no cases", self._text(name).span,
                                         hint="give it cases, like: name when condition / other otherwise")])
        return ("definitions", ir.Definition(self._span(meta), self._text(name), None, tuple(cases),
                                             self._source(meta)))

    @v_args(meta=True)
    def case(self, meta, items):
        return ir.Case(self._span(meta), self._text(items[0]), items[1])

    @v_args(meta=True)
    def case_otherwise(self, meta, items):
        return ir.Case(self._span(meta), self._text(items[0]), None)

    # -- unit types, vocabularies, modifiers, shifts -----------------------
    @v_args(meta=True)
    def unit_types(self, meta, items):
        override, _, cites, items = self._leading(items)
        return ir.UnitTypes(self._span(meta), override, cites, tuple(items))

    @v_args(meta=True)
    def unit_type(self, meta, items):
        return ir.UnitType(self._span(meta), self._text(items[0]), tuple(self._text(t) for t in items[1:]))

    @v_args(meta=True)
    def unit_states(self, meta, items):
        cites = items.pop(0) if items and isinstance(items[0], tuple) else ()
        return ir.Vocabulary(self._span(meta), "states", cites, tuple(self._text(t) for t in items))

    @v_args(meta=True)
    def situations(self, meta, items):
        kind, *items = items
        cites = items.pop(0) if items and isinstance(items[0], tuple) else ()
        return ir.Vocabulary(self._span(meta), str(kind), cites, tuple(self._text(t) for t in items))

    @v_args(meta=True)
    def modifiers(self, meta, items):
        override, title, cites, items = self._leading(items)
        cap = None
        if items and self._is(items[0], "NUMBER"):
            cap = self._whole(items.pop(0))
        return ir.Modifiers(self._span(meta), override, title, cites, cap, tuple(items))

    @v_args(meta=True)
    def modifier(self, meta, items):
        name, value, side, condition = items
        return ir.Modifier(self._span(meta), self._text(name), self._whole(value), str(side), condition,
                           self._source(meta))

    @v_args(meta=True)
    def shifts(self, meta, items):
        override, title, cites, items = self._leading(items)
        per_side = None
        if items and self._is(items[0], "NUMBER"):
            per_side = self._whole(items.pop(0))
        before = bool(items) and self._is(items[0], "BEFORE_LIMITS")
        if before:
            items.pop(0)
        return ir.Shifts(self._span(meta), override, title, cites, per_side, tuple(items), before)

    @v_args(meta=True)
    def shift(self, meta, items):
        source, amount, *rest = items
        maximum = self._whole(rest.pop(0)) if rest and self._is(rest[0], "NUMBER") else None
        condition = rest[0] if rest else None
        return ir.Shift(self._span(meta), self._text(source), amount, maximum, condition, self._source(meta))

    @v_args(meta=True)
    def labels(self, meta, items):
        lang, *items = items
        language = self._text(items.pop(0)) if items and self._is(items[0], "STRING") else None
        return ir.Labels(self._span(meta), self._text(lang), language, tuple(items))

    def label(self, items):
        return self._text(items[0]), self._text(items[1])

    @v_args(meta=True)
    def unit_factors(self, meta, items):
        override, title, cites, items = self._leading(items)
        return ir.UnitFactors(self._span(meta), override, title, cites, tuple(items))

    @v_args(meta=True)
    def unit_factor(self, meta, items):
        name, role, factor, condition = items
        return ir.UnitFactor(self._span(meta), self._text(name), str(role), factor, condition, self._source(meta))

    @v_args(meta=True)
    def adjustments(self, meta, items):
        override, title, cites, items = self._leading(items)
        return ir.Adjustments(self._span(meta), override, title, cites, tuple(items))

    @v_args(meta=True)
    def adjustment(self, meta, items):
        name, field, amount, condition = items
        return ir.Adjustment(self._span(meta), self._text(name), str(field), self._whole(amount), condition,
                             self._source(meta))

    def _whole(self, token: Token) -> int:
        value = self._number(token)
        if value.denominator != 1:
            raise RulesError([Diagnostic(f"'{token}' must be a whole number", self._text(token).span)])
        return int(value)

    # -- expressions ----------------------------------------------------
    @v_args(meta=True)
    def literal_number(self, meta, items):
        return ir.Number(self._span(meta), self._number(items[0]))

    @v_args(meta=True)
    def literal_odds(self, meta, items):
        return ir.OddsLiteral(self._span(meta), str(items[0]))

    @v_args(meta=True)
    def name(self, meta, items):
        return ir.Name(self._span(meta), str(items[0]))

    @v_args(meta=True)
    def call(self, meta, items):
        function, argument, *rest = items
        where = next((r[1] for r in rest if r[0] == "where"), None)
        of = next((r[1] for r in rest if r[0] == "of"), None)
        return ir.Call(self._span(meta), self._text(function), (argument,), where, of)

    @v_args(meta=True)
    def call2(self, meta, items):
        function, *args = items
        return ir.Call(self._span(meta), self._text(function), tuple(args))

    def where(self, items):
        return ("where", items[0])

    def of(self, items):
        return ("of", items[0])

    @v_args(meta=True)
    def negate(self, meta, items):
        return ir.Unary(self._span(meta), "-", items[0])

    @v_args(meta=True)
    def not_(self, meta, items):
        return ir.Unary(self._span(meta), "not", items[0])

    @v_args(meta=True)
    def or_(self, meta, items):
        return ir.Binary(self._span(meta), "or", items[0], items[1])

    @v_args(meta=True)
    def and_(self, meta, items):
        return ir.Binary(self._span(meta), "and", items[0], items[1])

    @v_args(meta=True)
    def compare(self, meta, items):
        return ir.Binary(self._span(meta), str(items[1]), items[0], items[2])

    @v_args(meta=True)
    def arith(self, meta, items):
        return ir.Binary(self._span(meta), str(items[1]), items[0], items[2])

    @v_args(meta=True)
    def is_(self, meta, items):
        return ir.Is(self._span(meta), items[0], self._text(items[1]))

    def ref(self, items):
        return self._text(items[0])

    @v_args(meta=True)
    def parameter(self, meta, items):
        name, value = items
        return ("parameters", ir.Parameter(self._span(meta), self._text(name), value))

    @v_args(meta=True)
    def quantity(self, meta, items):
        amount, *unit = items
        return ir.Quantity(self._span(meta), self._number(amount), self._text(unit[0]) if unit else None,
                           str(amount)[0] in "+-")

    @v_args(meta=True)
    def words(self, meta, items):
        return ir.Words(self._span(meta), tuple(self._text(t) for t in items))

    @v_args(meta=True)
    def text(self, meta, items):
        return ir.Quoted(self._span(meta), _unquote(str(items[0])))

    def _number(self, token: Token) -> Fraction:
        try:
            return number(str(token))
        except (ValueError, ZeroDivisionError):
            raise RulesError([Diagnostic(f"'{token}' is not a number", self._text(token).span)]) from None

    # -- rounding -------------------------------------------------------
    @v_args(meta=True)
    def rounding(self, meta, items):
        name, *rest = items
        cites = rest.pop() if rest and isinstance(rest[-1], tuple) else ()
        return ir.Rounding(self._span(meta), self._text(name), tuple(rest), cites)

    @v_args(meta=True)
    def rounding_spec(self, meta, items):
        return ir.Text(self._span(meta), " ".join(str(t) for t in items))

    def cites(self, items):
        return tuple(items)

    # -- sequence of play -----------------------------------------------
    @v_args(meta=True)
    def sequence(self, meta, items):
        override, _, cites, items = self._leading(items)
        return ir.SequenceOfPlay(self._span(meta), override, cites, tuple(items))

    @v_args(meta=True)
    def sequence_block(self, meta, items):
        kind, *entries = items
        return ir.TurnBlock(self._span(meta), self._text(kind), tuple(entries))

    @v_args(meta=True)
    def player_turn_slot(self, meta, items):
        return ir.PlayerTurnSlot(self._span(meta), self._text(items[-1]))

    @v_args(meta=True)
    def phase(self, meta, items):
        name, *rest = items
        cites, activities, note = (), (), None
        for item in rest:
            if isinstance(item, tuple):
                cites = item
            elif isinstance(item, list):
                activities = tuple(item)
            else:
                note = self._text(item)
        return ir.Phase(self._span(meta), self._text(name), cites, activities, note)

    def activities(self, items):
        return [self._text(t) for t in items]

    # -- terrain effects chart ------------------------------------------
    @v_args(meta=True)
    def terrain_chart(self, meta, items):
        override, title, cites, items = self._leading(items)
        rows, kind, problems = [], None, []
        for item in items:
            if isinstance(item, Token):  # a heading: hex:, hexside:, roads:
                kind = {"hex": "hex", "hexside": "hexside", "roads": "road"}[str(item)]
            elif kind is None:
                problems.append(Diagnostic("terrain row before any heading", item.span,
                                           hint="put the row under 'hex:', 'hexside:' or 'roads:'"))
            else:
                rows.append(ir.TerrainRow(item.span, kind, item.name, item.movement, item.combat,
                                          item.level, item.line))
        if problems:
            raise RulesError(problems)
        return ir.TerrainChart(self._span(meta), override, title, cites, tuple(rows))

    def terrain_heading(self, items):
        return items[0]

    @v_args(meta=True)
    def terrain_row(self, meta, items):
        name, movement, combat, *attributes = items
        found = dict(attributes)
        return ir.TerrainRow(self._span(meta), "", self._text(name), movement, combat,
                             found.get("level"), found.get("line"))

    def terrain_level(self, items):
        return ("level", self._whole(items[0]))

    def terrain_line(self, items):
        return ("line", self._text(items[0]))

    @v_args(meta=True)
    def move_cost(self, meta, items):
        text = str(items[0])
        kind = "add" if text[0] in "+-" else "cost"
        return ir.MovementCell(self._span(meta), kind, self._number(items[0]))

    @v_args(meta=True)
    def move_prohibited(self, meta, items):
        return ir.MovementCell(self._span(meta), "prohibited")

    @v_args(meta=True)
    def move_other(self, meta, items):
        return ir.MovementCell(self._span(meta), "other")

    @v_args(meta=True)
    def move_road_like(self, meta, items):
        return ir.MovementCell(self._span(meta), "road-like")

    @v_args(meta=True)
    def move_negates(self, meta, items):
        return ir.MovementCell(self._span(meta), "negates", None, self._text(items[0]))

    @v_args(meta=True)
    def combat_none(self, meta, items):
        return ir.CombatCell(self._span(meta), "none")

    @v_args(meta=True)
    def combat_prohibited(self, meta, items):
        return ir.CombatCell(self._span(meta), "prohibited")

    @v_args(meta=True)
    def combat_other(self, meta, items):
        return ir.CombatCell(self._span(meta), "other")

    @v_args(meta=True)
    def combat_multiply(self, meta, items):
        factors: dict[str, Fraction] = {}
        shift = 0
        for token in items:
            if token.type == "SHIFT":
                if shift:
                    raise RulesError([Diagnostic("two column shifts in one cell", self._text(token).span)])
                shift = int(str(token)[:-1]) * (-1 if str(token).endswith("L") else 1)
                continue
            side, amount = str(token).split("x", 1)
            key = "attacker" if side == "A" else "defender"
            if key in factors:
                raise RulesError([Diagnostic(f"two {key} multipliers in one cell", self._text(token).span,
                                             hint="multiply them into one (x2 and x1/2 make x1)")])
            try:  # `amount` is part of the token, not a token: position the error on the whole token
                factors[key] = number(amount)
            except (ValueError, ZeroDivisionError):
                raise RulesError([Diagnostic(f"'{token}' is not a multiplier", self._text(token).span,
                                             hint="write it like Dx2 or Ax1/2")]) from None
        return ir.CombatCell(self._span(meta), "multiply", factors.get("attacker"), factors.get("defender"), shift)

    # -- combat results table -------------------------------------------
    @v_args(meta=True)
    def results_table(self, meta, items):
        override, title, cites, items = self._leading(items)
        dice, *rest = items
        notation = self._text(rest.pop(0)) if rest and self._is(rest[0], "NAME") else None
        body = rest[0]
        if isinstance(body, tuple) and len(body) == 3:  # a single side block
            body = [body]
        attacker, sides = None, ()
        if isinstance(body, list):  # table sides
            by_side = {}
            for side_name, header, rows in body:
                if side_name.value in by_side:
                    raise RulesError([Diagnostic(f"two '{side_name.value} side' blocks", side_name.span)])
                by_side[side_name.value] = (side_name, header, rows)
            sides = tuple(v[0] for v in body)
            lines, rows = (by_side["defender"][1], by_side["defender"][2]) if "defender" in by_side else ((), ())
            if "attacker" in by_side:
                _, header, attacker_rows = by_side["attacker"]
                attacker = ir.AttackerSide(by_side["attacker"][0].span, header, attacker_rows) \
                    if isinstance(header, tuple) and header and isinstance(header[0], ir.Text) else None
                if attacker is None:
                    raise RulesError([Diagnostic("the attacker side is read by total defense strength: "
                                                 "its header is a 'defense' row, like: defense 1-4 5-8 9+",
                                                 by_side["attacker"][0].span)])
            if lines and not isinstance(lines[0], ir.OddsLine):
                raise RulesError([Diagnostic("the defender side is read by odds: its header is an 'odds' row",
                                             by_side["defender"][0].span)])
        else:
            lines, rows = body
        columns = lines[0].columns if lines else ()
        return ir.ResultsTable(self._span(meta), override, title, cites, self._text(dice), columns, tuple(rows),
                               notation, tuple(lines), attacker, sides)

    def results_body(self, items):
        return list(items)

    def grid(self, items):
        lines = tuple(i for i in items if isinstance(i, ir.OddsLine))
        rows = tuple(i for i in items if isinstance(i, ir.DiceRow))
        return lines, rows

    def table_side(self, items):
        side, header, *rows = items
        header = (header,) if isinstance(header, ir.OddsLine) else header
        return self._text(side), header, tuple(rows)

    def defense_row(self, items):
        return tuple(self._text(t) for t in items)

    @v_args(meta=True)
    def odds_row(self, meta, items):
        name = self._text(items.pop(0)) if items and self._is(items[0], "NAME") else None
        return ir.OddsLine(self._span(meta), name, tuple(self._text(t) for t in items))

    @v_args(meta=True)
    def dice_row(self, meta, items):
        label, *cells = items
        return ir.DiceRow(self._span(meta), self._text(label), tuple(self._text(c) for c in cells))

    @v_args(meta=True)
    def lookup_table(self, meta, items):
        override = bool(items) and self._is(items[0], "OVERRIDE")
        name, *items = items[1:] if override else items
        title = self._text(items.pop(0)) if items and self._is(items[0], "STRING") else None
        cites = items.pop(0) if items and isinstance(items[0], tuple) and not isinstance(items[0], _TableLine) else ()
        header, *rows = (tuple(line) for line in items)
        return ir.LookupTable(self._span(meta), override, self._text(name), title, cites, header, tuple(rows))

    def table_line(self, items):
        return _TableLine(self._text(t) for t in items)


class _TableLine(tuple):
    """A table's line, told apart from its cites (both are tuples of texts) while the table is built."""


def _unquote(literal: str) -> str:
    """The value of a "..." literal: \\" \\\\ \\n \\t escapes, nothing else evaluated."""
    body = literal[1:-1]
    out, i = [], 0
    escapes = {'"': '"', "\\": "\\", "n": "\n", "t": "\t"}
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            out.append(escapes.get(nxt, "\\" + nxt))
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def parse(source: Source) -> ir.Rulebook:
    """Source text to a Rulebook, or RulesError with positioned diagnostics."""
    tree = parse_tree(source)
    try:
        return _Builder(source.path, source.text).transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, RulesError):
            raise RulesError(exc.orig_exc.diagnostics, {source.path: source.text}) from None
        raise
