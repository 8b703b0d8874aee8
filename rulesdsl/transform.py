"""Parse tree to IR: Lark tokens become str, Fraction and positioned Text."""
from __future__ import annotations

import dataclasses
import gc
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import Any

from lark import Token, Transformer, v_args
from lark.tree import Meta
from lark.exceptions import VisitError

from . import ir
from .errors import Diagnostic, RulesError, Span
from .limits import check_limits
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


class _Builder(Transformer[Token, Any]):
    def __init__(self, path: str, text: str = "") -> None:
        super().__init__()
        self.path = path
        self.lines = text.split("\n")
        self.not_whole: list[ir.NotWhole] = []

    def _source(self, meta: Meta) -> str:
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
    def _span(self, meta: Meta) -> Span:
        if getattr(meta, "empty", False):
            return Span(self.path)
        return Span(self.path, meta.line, meta.column, meta.end_line, meta.end_column)

    def _text(self, token: Token, value: str | None = None) -> ir.Text:
        span = Span(self.path, token.line or 0, token.column or 0, token.end_line or 0, token.end_column or 0)
        if value is None:
            value = str(token)
            if token.type == "STRING":
                value = _unquote(value)
        return ir.Text(span=span, value=value)

    @staticmethod
    def _is(item: object, *types: str) -> bool:
        return isinstance(item, Token) and item.type in types

    def _leading(self, items: list[Any]) -> tuple[bool, ir.Text | None, tuple[ir.Text, ...], list[Any]]:
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
    def start(self, meta: Meta, items: list[Any]) -> Any:
        header, *statements = items
        fields: dict[str, Any] = {"version": None, "extends": None, **dict(header)}
        grouped: dict[str, list[Any]] = {name: [] for name in ir.STATEMENT_FIELD.values()}
        for statement in statements:
            grouped[ir.STATEMENT_FIELD[type(statement)]].append(statement)
        fields.update({k: tuple(v) for k, v in grouped.items()})
        return ir.Rulebook(**fields, not_whole=tuple(self.not_whole))

    @v_args(meta=True)
    def header(self, meta: Meta, items: list[Any]) -> Any:
        kind, ident, title, *fields = items
        out = {"span": self._span(meta), "kind": self._text(kind), "id": self._text(ident), "title": self._text(title)}
        for key, token in fields:
            out[key] = self._text(token)
        return list(out.items())

    def version(self, items: list[Any]) -> Any:
        return ("version", items[0])

    def extends(self, items: list[Any]) -> Any:
        return ("extends", items[0])

    # -- rules ----------------------------------------------------------
    @v_args(meta=True)
    def rule(self, meta: Meta, items: list[Any]) -> Any:
        override = bool(items) and self._is(items[0], "OVERRIDE")
        amend = bool(items) and self._is(items[0], "AMEND")
        keyword, rule_id, *rest = items[1:] if override or amend else items
        title = self._text(rest.pop(0)) if rest and self._is(rest[0], "STRING") else None
        body: dict[str, list[Any]] = {"summary": [], "parameters": [], "notes": [], "see": [], "requires": [],
                                 "definitions": []}
        for kind, value in rest:
            body[kind].extend(value if isinstance(value, list) else [value])
        summaries = body.pop("summary")
        return ir.Rule(span=self._span(meta), id=rule_id, numbered=keyword == "rule", override=override,
                       amend=amend, title=title, summary=summaries[0] if summaries else None,
                       extra_summaries=tuple(summaries[1:]), **{k: tuple(v) for k, v in body.items()})

    def rule_id(self, items: list[Any]) -> Any:
        return self._text(items[0])

    def summary(self, items: list[Any]) -> Any:
        return ("summary", self._text(items[0]))

    def note(self, items: list[Any]) -> Any:
        return ("notes", self._text(items[0]))

    def see(self, items: list[Any]) -> Any:
        return ("see", list(items))

    def requires(self, items: list[Any]) -> Any:
        return ("requires", [self._text(t) for t in items])

    @v_args(meta=True)
    def define(self, meta: Meta, items: list[Any]) -> Any:
        name, expr = items
        return ("definitions", ir.Definition(span=self._span(meta), name=self._text(name), expr=expr, cases=(),
                                             text=self._source(meta)))

    @v_args(meta=True)
    def define_cases(self, meta: Meta, items: list[Any]) -> Any:
        name, *cases = items
        if not cases:
            raise RulesError([Diagnostic(f"definition '{name}' has no cases", self._text(name).span,
                                         hint="give it cases, like: name when condition / other otherwise")])
        return ("definitions", ir.Definition(span=self._span(meta), name=self._text(name), expr=None,
                                             cases=tuple(cases), text=self._source(meta)))

    @v_args(meta=True)
    def case(self, meta: Meta, items: list[Any]) -> Any:
        return ir.Case(span=self._span(meta), result=self._text(items[0]), condition=items[1])

    @v_args(meta=True)
    def case_otherwise(self, meta: Meta, items: list[Any]) -> Any:
        return ir.Case(span=self._span(meta), result=self._text(items[0]), condition=None)

    # -- unit types, vocabularies, modifiers, shifts -----------------------
    @v_args(meta=True)
    def unit_types(self, meta: Meta, items: list[Any]) -> Any:
        override, _, cites, items = self._leading(items)
        return ir.UnitTypes(span=self._span(meta), override=override, cites=cites, types=tuple(items))

    @v_args(meta=True)
    def unit_type(self, meta: Meta, items: list[Any]) -> Any:
        return ir.UnitType(span=self._span(meta), name=self._text(items[0]),
                           capabilities=tuple(self._text(t) for t in items[1:]))

    @v_args(meta=True)
    def unit_states(self, meta: Meta, items: list[Any]) -> Any:
        cites = items.pop(0) if items and isinstance(items[0], tuple) else ()
        return ir.Vocabulary(span=self._span(meta), kind=ir.VocabularyKind.STATES, cites=cites,
                             names=tuple(self._text(t) for t in items))

    @v_args(meta=True)
    def situations(self, meta: Meta, items: list[Any]) -> Any:
        kind, *items = items
        cites = items.pop(0) if items and isinstance(items[0], tuple) else ()
        return ir.Vocabulary(span=self._span(meta), kind=ir.VocabularyKind(str(kind)), cites=cites,
                             names=tuple(self._text(t) for t in items))

    @v_args(meta=True)
    def parameters(self, meta: Meta, items: list[Any]) -> Any:
        _, title, cites, items = self._leading(items)
        return ir.ParameterDeclarations(span=self._span(meta), title=title, cites=cites, declarations=tuple(items))

    @v_args(meta=True)
    def parameter_declaration(self, meta: Meta, items: list[Any]) -> Any:
        name, kind, *words, meaning = items
        reasons = [w for w in words if isinstance(w, ir.Reason)]
        words = [w for w in words if not isinstance(w, ir.Reason)]
        unit = None
        kind = ir.ParamKind(str(kind))
        if kind in (ir.ParamKind.QUANTITY, ir.ParamKind.MODIFIER) and len(words) == 1:
            unit, words = self._text(words[0]), []
        return ir.ParameterDeclaration(span=self._span(meta), name=self._text(name), kind=kind, unit=unit,
                                       options=tuple(self._text(w) for w in words), meaning=self._text(meaning),
                                       descriptive=reasons[0] if reasons else None)

    def descriptive(self, items: list[Any]) -> Any:
        return ir.Reason(str(items[0]))

    @v_args(meta=True)
    def modifiers(self, meta: Meta, items: list[Any]) -> Any:
        override, title, cites, items = self._leading(items)
        cap = None
        if items and self._is(items[0], "NUMBER"):
            cap = self._whole(items.pop(0))
        return ir.Modifiers(span=self._span(meta), override=override, title=title, cites=cites, cap=cap,
                            modifiers=tuple(items))

    @v_args(meta=True)
    def modifier(self, meta: Meta, items: list[Any]) -> Any:
        name, value, side, condition = items
        return ir.Modifier(span=self._span(meta), name=self._text(name), value=self._whole(value),
                           side=ir.Side(str(side)), condition=condition, text=self._source(meta))

    @v_args(meta=True)
    def shifts(self, meta: Meta, items: list[Any]) -> Any:
        override, title, cites, items = self._leading(items)
        per_side = None
        if items and self._is(items[0], "NUMBER"):
            per_side = self._whole(items.pop(0))
        before = bool(items) and self._is(items[0], "BEFORE_LIMITS")
        if before:
            items.pop(0)
        return ir.Shifts(span=self._span(meta), override=override, title=title, cites=cites, per_side=per_side,
                         shifts=tuple(items), before_limits=before)

    @v_args(meta=True)
    def shift(self, meta: Meta, items: list[Any]) -> Any:
        source, amount, *rest = items
        maximum = self._whole(rest.pop(0)) if rest and self._is(rest[0], "NUMBER") else None
        condition = rest[0] if rest else None
        return ir.Shift(span=self._span(meta), source=self._text(source), amount=amount, maximum=maximum,
                        condition=condition, text=self._source(meta))

    @v_args(meta=True)
    def labels(self, meta: Meta, items: list[Any]) -> Any:
        lang, *items = items
        language = self._text(items.pop(0)) if items and self._is(items[0], "STRING") else None
        return ir.Labels(span=self._span(meta), lang=self._text(lang), language=language, labels=tuple(items))

    def label(self, items: list[Any]) -> Any:
        return self._text(items[0]), self._text(items[1])

    @v_args(meta=True)
    def unit_factors(self, meta: Meta, items: list[Any]) -> Any:
        override, title, cites, items = self._leading(items)
        return ir.UnitFactors(span=self._span(meta), override=override, title=title, cites=cites,
                              factors=tuple(items))

    @v_args(meta=True)
    def unit_factor(self, meta: Meta, items: list[Any]) -> Any:
        name, role, factor, condition = items
        return ir.UnitFactor(span=self._span(meta), name=self._text(name), role=ir.Role(str(role)), factor=factor,
                             condition=condition, text=self._source(meta))

    @v_args(meta=True)
    def adjustments(self, meta: Meta, items: list[Any]) -> Any:
        override, title, cites, items = self._leading(items)
        return ir.Adjustments(span=self._span(meta), override=override, title=title, cites=cites,
                              adjustments=tuple(items))

    @v_args(meta=True)
    def adjustment(self, meta: Meta, items: list[Any]) -> Any:
        name, field, amount, condition = items
        return ir.Adjustment(span=self._span(meta), name=self._text(name), target=ir.ResultField(str(field)),
                             amount=self._whole(amount), condition=condition, text=self._source(meta))

    def _whole(self, token: Token) -> int:
        """A whole number; another is kept as its whole part and noted for validate to report."""
        value = self._number(token)
        if value.denominator != 1:
            self.not_whole.append(ir.NotWhole(span=self._text(token).span, text=str(token)))
        return int(value)

    # -- expressions ----------------------------------------------------
    @v_args(meta=True)
    def literal_number(self, meta: Meta, items: list[Any]) -> Any:
        return ir.Number(span=self._span(meta), value=self._number(items[0]))

    @v_args(meta=True)
    def literal_odds(self, meta: Meta, items: list[Any]) -> Any:
        return ir.OddsLiteral(span=self._span(meta), text=str(items[0]))

    @v_args(meta=True)
    def name(self, meta: Meta, items: list[Any]) -> Any:
        return ir.Name(span=self._span(meta), path=str(items[0]))

    @v_args(meta=True)
    def call(self, meta: Meta, items: list[Any]) -> Any:
        function, argument, *rest = items
        where = next((r[1] for r in rest if r[0] == "where"), None)
        of = next((r[1] for r in rest if r[0] == "of"), None)
        return ir.Call(span=self._span(meta), function=self._text(function), args=(argument,), where=where, of=of)

    @v_args(meta=True)
    def call2(self, meta: Meta, items: list[Any]) -> Any:
        function, *args = items
        return ir.Call(span=self._span(meta), function=self._text(function), args=tuple(args), where=None, of=None)

    def where(self, items: list[Any]) -> Any:
        return ("where", items[0])

    def of(self, items: list[Any]) -> Any:
        return ("of", items[0])

    @v_args(meta=True)
    def negate(self, meta: Meta, items: list[Any]) -> Any:
        return ir.Unary(span=self._span(meta), op=ir.UnaryOp.NEG, operand=items[0])

    @v_args(meta=True)
    def not_(self, meta: Meta, items: list[Any]) -> Any:
        return ir.Unary(span=self._span(meta), op=ir.UnaryOp.NOT, operand=items[0])

    @v_args(meta=True)
    def or_(self, meta: Meta, items: list[Any]) -> Any:
        return ir.Binary(span=self._span(meta), op=ir.BinaryOp.OR, left=items[0], right=items[1])

    @v_args(meta=True)
    def and_(self, meta: Meta, items: list[Any]) -> Any:
        return ir.Binary(span=self._span(meta), op=ir.BinaryOp.AND, left=items[0], right=items[1])

    @v_args(meta=True)
    def compare(self, meta: Meta, items: list[Any]) -> Any:
        return ir.Binary(span=self._span(meta), op=ir.BinaryOp(str(items[1])), left=items[0], right=items[2])

    @v_args(meta=True)
    def arith(self, meta: Meta, items: list[Any]) -> Any:
        return ir.Binary(span=self._span(meta), op=ir.BinaryOp(str(items[1])), left=items[0], right=items[2])

    @v_args(meta=True)
    def is_(self, meta: Meta, items: list[Any]) -> Any:
        return ir.Is(span=self._span(meta), operand=items[0], word=self._text(items[1]))

    def ref(self, items: list[Any]) -> Any:
        return self._text(items[0])

    @v_args(meta=True)
    def parameter(self, meta: Meta, items: list[Any]) -> Any:
        name, value = items
        return ("parameters", ir.Parameter(span=self._span(meta), name=self._text(name), value=value))

    @v_args(meta=True)
    def quantity(self, meta: Meta, items: list[Any]) -> Any:
        amount, *unit = items
        return ir.Quantity(span=self._span(meta), amount=self._number(amount),
                           unit=self._text(unit[0]) if unit else None, signed=str(amount)[0] in "+-")

    @v_args(meta=True)
    def words(self, meta: Meta, items: list[Any]) -> Any:
        return ir.Words(span=self._span(meta), words=tuple(self._text(t) for t in items))

    @v_args(meta=True)
    def text(self, meta: Meta, items: list[Any]) -> Any:
        return ir.Quoted(span=self._span(meta), value=_unquote(str(items[0])))

    def _number(self, token: Token) -> Fraction:
        try:
            return number(str(token))
        except (ValueError, ZeroDivisionError):
            raise RulesError([Diagnostic(f"'{token}' is not a number", self._text(token).span)]) from None

    # -- rounding -------------------------------------------------------
    @v_args(meta=True)
    def rounding(self, meta: Meta, items: list[Any]) -> Any:
        name, *rest = items
        cites = rest.pop() if rest and isinstance(rest[-1], tuple) else ()
        return ir.Rounding(span=self._span(meta), name=self._text(name), spec=tuple(rest), cites=cites)

    @v_args(meta=True)
    def rounding_spec(self, meta: Meta, items: list[Any]) -> Any:
        return ir.Text(span=self._span(meta), value=" ".join(str(t) for t in items))

    def cites(self, items: list[Any]) -> Any:
        return tuple(items)

    # -- sequence of play -----------------------------------------------
    @v_args(meta=True)
    def sequence(self, meta: Meta, items: list[Any]) -> Any:
        amend = bool(items) and self._is(items[0], "AMEND")
        override, _, cites, items = self._leading(items[1:] if amend else items)
        return ir.SequenceOfPlay(span=self._span(meta), override=override, cites=cites, blocks=tuple(items),
                                 amend=amend)

    @v_args(meta=True)
    def sequence_block(self, meta: Meta, items: list[Any]) -> Any:
        kind, *entries = items
        side = None
        if entries and isinstance(entries[0], Token):
            side = self._text(entries.pop(0))
        return ir.TurnBlock(span=self._span(meta), kind=self._text(kind), items=tuple(entries), side=side)

    @v_args(meta=True)
    def player_turn_slot(self, meta: Meta, items: list[Any]) -> Any:
        return ir.PlayerTurnSlot(span=self._span(meta), name=self._text(items[-1]))

    @v_args(meta=True)
    def phase(self, meta: Meta, items: list[Any]) -> Any:
        name, *rest = items
        cites, activities, note = (), (), None
        for item in rest:
            if isinstance(item, tuple):
                cites = item
            elif isinstance(item, list):
                activities = tuple(item)
            else:
                note = self._text(item)
        return ir.Phase(span=self._span(meta), name=self._text(name), cites=cites, activities=activities, note=note)

    def activities(self, items: list[Any]) -> Any:
        return [self._text(t) for t in items]

    # -- terrain effects chart ------------------------------------------
    @v_args(meta=True)
    def terrain_chart(self, meta: Meta, items: list[Any]) -> Any:
        amend = bool(items) and self._is(items[0], "AMEND")
        override, title, cites, items = self._leading(items[1:] if amend else items)
        rows, kind = [], None
        cells: list[ir.TerrainCell] = []
        for item in items:
            if isinstance(item, Token):  # a heading: hex:, hexside:, roads:
                kind = {"hex": ir.TerrainKind.HEX, "hexside": ir.TerrainKind.HEXSIDE,
                        "roads": ir.TerrainKind.ROAD}[str(item)]
            elif isinstance(item, ir.TerrainCell):
                cells.append(dataclasses.replace(item, kind=kind))
            else:  # a row before any heading keeps kind None: validate reports it
                rows.append(dataclasses.replace(item, kind=kind))
        return ir.TerrainChart(span=self._span(meta), override=override, title=title, cites=cites, rows=tuple(rows),
                               amend=amend, cells=tuple(cells))

    def terrain_heading(self, items: list[Any]) -> Any:
        return items[0]

    @v_args(meta=True)
    def terrain_row(self, meta: Meta, items: list[Any]) -> Any:
        name, movement, combat, *attributes = items
        found = dict(attributes)
        return ir.TerrainRow(span=self._span(meta), kind=None, name=self._text(name), movement=movement,
                             combat=combat, level=found.get("level"), line=found.get("line"))

    @v_args(meta=True)
    def terrain_movement(self, meta: Meta, items: list[Any]) -> Any:
        return ir.TerrainCell(span=self._span(meta), kind=None, name=self._text(items[0]), movement=items[-1],
                              combat=None)

    @v_args(meta=True)
    def terrain_combat(self, meta: Meta, items: list[Any]) -> Any:
        return ir.TerrainCell(span=self._span(meta), kind=None, name=self._text(items[0]), movement=None,
                              combat=items[-1])

    def terrain_level(self, items: list[Any]) -> Any:
        return ("level", self._whole(items[0]))

    def terrain_line(self, items: list[Any]) -> Any:
        return ("line", self._text(items[0]))

    def _move(self, meta: Meta, kind: ir.MoveKind, amount: Fraction | None = None,
              target: ir.Text | None = None) -> ir.MovementCell:
        return ir.MovementCell(span=self._span(meta), kind=kind, amount=amount, target=target)

    @v_args(meta=True)
    def move_cost(self, meta: Meta, items: list[Any]) -> Any:
        text = str(items[0])
        return self._move(meta, ir.MoveKind.ADD if text[0] in "+-" else ir.MoveKind.COST, self._number(items[0]))

    @v_args(meta=True)
    def move_prohibited(self, meta: Meta, items: list[Any]) -> Any:
        return self._move(meta, ir.MoveKind.PROHIBITED)

    @v_args(meta=True)
    def move_other(self, meta: Meta, items: list[Any]) -> Any:
        return self._move(meta, ir.MoveKind.OTHER)

    @v_args(meta=True)
    def move_road_like(self, meta: Meta, items: list[Any]) -> Any:
        return self._move(meta, ir.MoveKind.ROAD_LIKE)

    @v_args(meta=True)
    def move_negates(self, meta: Meta, items: list[Any]) -> Any:
        return self._move(meta, ir.MoveKind.NEGATES, target=self._text(items[0]))

    def _combat(self, meta: Meta, kind: ir.CombatKind) -> ir.CombatCell:
        return ir.CombatCell(span=self._span(meta), kind=kind, attacker=None, defender=None, shift=0, repeated=())

    @v_args(meta=True)
    def combat_none(self, meta: Meta, items: list[Any]) -> Any:
        return self._combat(meta, ir.CombatKind.NONE)

    @v_args(meta=True)
    def combat_prohibited(self, meta: Meta, items: list[Any]) -> Any:
        return self._combat(meta, ir.CombatKind.PROHIBITED)

    @v_args(meta=True)
    def combat_other(self, meta: Meta, items: list[Any]) -> Any:
        return self._combat(meta, ir.CombatKind.OTHER)

    @v_args(meta=True)
    def combat_multiply(self, meta: Meta, items: list[Any]) -> Any:
        """The first shift and the first multiplier of each side count; any other is kept in `repeated`."""
        factors: dict[str, Fraction] = {}
        shift: int | None = None
        drm: int | None = None
        across = ir.Crossing.ANY
        repeated = []
        for token in items:
            if token.type == "ACROSS":
                across = ir.Crossing(str(token))
                continue
            if token.type == "DRM":
                if drm is not None:
                    repeated.append(self._text(token))
                    continue
                drm = int(str(token))
                continue
            if token.type == "SHIFT":
                if shift is not None:
                    repeated.append(self._text(token))
                    continue
                shift = int(str(token)[:-1]) * (-1 if str(token).endswith("L") else 1)
                if shift == 0:
                    raise RulesError([Diagnostic(f"'{token}' shifts no column", self._text(token).span,
                                                 hint="leave it out, or write ne for no effect")])
                continue
            side, amount = str(token).split("x", 1)
            key = "attacker" if side == "A" else "defender"
            if key in factors:
                repeated.append(self._text(token))
                continue
            try:  # `amount` is part of the token, not a token: position the error on the whole token
                factors[key] = number(amount)
            except (ValueError, ZeroDivisionError):
                raise RulesError([Diagnostic(f"'{token}' is not a multiplier", self._text(token).span,
                                             hint="write it like Dx2 or Ax1/2")]) from None
        return ir.CombatCell(span=self._span(meta), kind=ir.CombatKind.MULTIPLY, attacker=factors.get("attacker"),
                             defender=factors.get("defender"), shift=shift or 0, repeated=tuple(repeated),
                             drm=drm or 0, across=across)

    # -- worked examples --------------------------------------------------
    _SITUATION_FIELDS = ("notes", "maps", "hexes", "hexsides", "roads", "sources", "phasing", "phase", "units",
                         "expectations")

    def _situation(self, meta: Meta, items: list[Any]) -> ir.Situation:
        body: dict[str, list[Any]] = {name: [] for name in self._SITUATION_FIELDS}
        for item in items:
            if isinstance(item, ir.Expectation):
                body["expectations"].append(item)
            else:
                body[item[0]].append(item[1])
        return ir.Situation(span=self._span(meta), **{k: tuple(v) for k, v in body.items()})

    @v_args(meta=True)
    def situation(self, meta: Meta, items: list[Any]) -> Any:
        return self._situation(meta, items)

    @v_args(meta=True)
    def example(self, meta: Meta, items: list[Any]) -> Any:
        title, *items = items
        cites = items.pop(0) if items and isinstance(items[0], tuple) and \
            all(isinstance(c, ir.Text) for c in items[0]) else ()
        return ir.Example(span=self._span(meta), title=self._text(title), cites=cites,
                          situation=self._situation(meta, items))

    def situation_note(self, items: list[Any]) -> Any:
        return ("notes", self._text(items[0]))

    @v_args(meta=True)
    def situation_map(self, meta: Meta, items: list[Any]) -> Any:
        first, last, *terrain = items
        return ("maps", ir.MapArea(span=self._span(meta), first=self._text(first), last=self._text(last),
                                   terrain=tuple(self._text(t) for t in terrain)))

    @v_args(meta=True)
    def situation_hex(self, meta: Meta, items: list[Any]) -> Any:
        _, hex_, *terrain = items
        return ("hexes", ir.HexTerrain(span=self._span(meta), hex=self._text(hex_),
                                       terrain=tuple(self._text(t) for t in terrain)))

    @v_args(meta=True)
    def situation_hexside(self, meta: Meta, items: list[Any]) -> Any:
        _, side, *features = items
        return ("hexsides", ir.HexsideFeatures(span=self._span(meta), hexside=self._text(side),
                                               features=tuple(self._text(t) for t in features)))

    @v_args(meta=True)
    def situation_road(self, meta: Meta, items: list[Any]) -> Any:
        road = self._text(items.pop(0)) if self._is(items[0], "NAME") else None
        return ("roads", ir.RoadLine(span=self._span(meta), road=road, hexes=tuple(self._text(t) for t in items)))

    @v_args(meta=True)
    def situation_source(self, meta: Meta, items: list[Any]) -> Any:
        side, *hexes = items
        return ("sources", ir.SupplySource(span=self._span(meta), side=self._text(side),
                                           hexes=tuple(self._text(t) for t in hexes)))

    def situation_phasing(self, items: list[Any]) -> Any:
        return ("phasing", self._text(items[0]))

    def situation_phase(self, items: list[Any]) -> Any:
        return ("phase", self._text(items[0]))

    def unit_name(self, items: list[Any]) -> Any:
        return self._text(items[0])

    @v_args(meta=True)
    def situation_unit(self, meta: Meta, items: list[Any]) -> Any:
        name, side, counter, hex_, *options = items
        found: dict[str, Any] = {"steps": None, "type": None, "size": None, "capabilities": (), "states": (),
                                 "started": None, "no_attack_strength": False}
        for option in options:
            if self._is(option, "NO_ATTACK"):
                found["no_attack_strength"] = True
            else:
                found[option[0]] = option[1]
        counter_text = self._text(counter)
        strengths, column = [], counter_text.span.column
        for part in str(counter).split("-"):
            span = Span(self.path, counter_text.span.line, column, counter_text.span.line, column + len(part))
            strengths.append(ir.Text(span=span, value=part))
            column += len(part) + 1
        return ("units", ir.SituationUnit(span=self._span(meta), name=name, side=self._text(side),
                                          strengths=tuple(strengths), hex=self._text(hex_), **found))

    def unit_steps(self, items: list[Any]) -> Any:
        return ("steps", self._whole(items[0]))

    def unit_kind(self, items: list[Any]) -> Any:
        return ("type", self._text(items[0]))

    def unit_size(self, items: list[Any]) -> Any:
        return ("size", self._text(items[0]))

    def unit_can(self, items: list[Any]) -> Any:
        return ("capabilities", tuple(self._text(t) for t in items))

    def unit_marked(self, items: list[Any]) -> Any:
        return ("states", tuple(self._text(t) for t in items))

    def unit_started(self, items: list[Any]) -> Any:
        return ("started", self._text(items[0]))

    def _expect(self, meta: Meta, kind: ir.ExpectKind, result: ir.ExpectedResult | None, *,
                units: tuple[ir.Text, ...] = (), side: ir.Text | None = None, hexes: tuple[ir.Text, ...] = (),
                count: int | None = None, others: tuple[ir.Text, ...] = (), destroyed: bool = False,
                options: dict[str, Any] | None = None) -> ir.Expectation:
        return ir.Expectation(span=self._span(meta), kind=kind, units=units, side=side, hexes=hexes, count=count,
                              others=others, destroyed=destroyed, result=result, text=self._source(meta),
                              **(options or {}))

    @staticmethod
    def _options(rest: list[Any]) -> tuple[list[Any], dict[str, Any]]:
        """A query's optional parts (`mode road`, `when overrun`, `refuse 1`, `overrun`) apart from the rest."""
        options = {item[1]: item[2] for item in rest if isinstance(item, tuple) and item[:1] == ("option",)}
        return [item for item in rest if not (isinstance(item, tuple) and item[:1] == ("option",))], options

    def query_mode(self, items: list[Any]) -> Any:
        return ("option", "mode", self._text(items[0]))

    def query_moment(self, items: list[Any]) -> Any:
        return ("option", "moment", self._text(items[0]))

    def query_refuse(self, items: list[Any]) -> Any:
        return ("option", "refuse", self._whole(items[0]))

    def query_overrun(self, items: list[Any]) -> Any:
        return ("option", "overrun", True)

    def _result(self, meta: Meta, **fields: Any) -> ir.ExpectedResult:
        values: dict[str, Any] = {"ruling": None, "costs": (), "total": None, "hexes": (), "absent": (),
                                  "amount": None, "odds": None, "column": None, "roll": None, "outcome": None}
        values.update(fields)
        return ir.ExpectedResult(span=self._span(meta), **values)

    @staticmethod
    def _split(items: list[Any]) -> tuple[list[ir.Text], list[Any], ir.ExpectedResult | None]:
        """The unit names at the front of a query, its other parts, and its result (last, if any)."""
        result = items[-1] if items and isinstance(items[-1], ir.ExpectedResult) else None
        rest = items[:-1] if result is not None else list(items)
        units = []
        while rest and isinstance(rest[0], ir.Text):
            units.append(rest.pop(0))
        return units, rest, result

    @v_args(meta=True)
    def expect_move(self, meta: Meta, items: list[Any]) -> Any:
        units, rest, result = self._split(items)
        hexes, options = self._options(rest)
        return self._expect(meta, ir.ExpectKind.MOVE, result, units=tuple(units),
                            hexes=tuple(self._text(t) for t in hexes), options=options)

    @v_args(meta=True)
    def expect_reach(self, meta: Meta, items: list[Any]) -> Any:
        units, rest, result = self._split(items)
        return self._expect(meta, ir.ExpectKind.REACH, result, units=tuple(units), options=self._options(rest)[1])

    @v_args(meta=True)
    def expect_zoc(self, meta: Meta, items: list[Any]) -> Any:
        side, *rest = items
        return self._expect(meta, ir.ExpectKind.ZOC, rest[0] if rest else None, side=self._text(side))

    @v_args(meta=True)
    def expect_stack(self, meta: Meta, items: list[Any]) -> Any:
        hex_, *rest = items
        rest, options = self._options(rest)
        return self._expect(meta, ir.ExpectKind.STACK, rest[0] if rest else None, hexes=(self._text(hex_),),
                            options=options)

    @v_args(meta=True)
    def expect_supply(self, meta: Meta, items: list[Any]) -> Any:
        units, _, result = self._split(items)
        return self._expect(meta, ir.ExpectKind.SUPPLY, result, units=tuple(units))

    @v_args(meta=True)
    def expect_overrun(self, meta: Meta, items: list[Any]) -> Any:
        units, hexes, result = self._split(items)
        return self._expect(meta, ir.ExpectKind.OVERRUN, result, units=tuple(units),
                            hexes=tuple(self._text(t) for t in hexes))

    @v_args(meta=True)
    def expect_exploit(self, meta: Meta, items: list[Any]) -> Any:
        units, _, result = self._split(items)
        return self._expect(meta, ir.ExpectKind.EXPLOIT, result, units=tuple(units))

    @v_args(meta=True)
    def expect_attack(self, meta: Meta, items: list[Any]) -> Any:
        units, hexes, result = self._split(items)
        return self._expect(meta, ir.ExpectKind.ATTACK, result, units=tuple(units),
                            hexes=tuple(self._text(t) for t in hexes))

    @v_args(meta=True)
    def expect_combat(self, meta: Meta, items: list[Any]) -> Any:
        units, hexes, result = self._split(items)
        return self._expect(meta, ir.ExpectKind.COMBAT, result, units=tuple(units),
                            hexes=tuple(self._text(t) for t in hexes))

    @v_args(meta=True)
    def expect_retreat(self, meta: Meta, items: list[Any]) -> Any:
        units, rest, result = self._split(items)
        rest, options = self._options(rest)
        others = rest[0][1] if rest else ()
        count = None
        if units:   # the last number written is how many hexes
            last = units.pop()
            count = self._whole_text(last)
        return self._expect(meta, ir.ExpectKind.RETREAT, result, units=tuple(units), count=count, others=others,
                            options=options)

    def retreat_from(self, items: list[Any]) -> Any:
        return ("from", tuple(items))

    @v_args(meta=True)
    def expect_advance(self, meta: Meta, items: list[Any]) -> Any:
        units, rest, result = self._split(items)
        rest, options = self._options(rest)
        hex_, after, *flag = rest
        return self._expect(meta, ir.ExpectKind.ADVANCE, result, units=tuple(units), hexes=(self._text(hex_),),
                            count=self._whole(after), destroyed=bool(flag), options=options)

    def _whole_text(self, text: ir.Text) -> int | None:
        """A unit name written where a whole number is needed (retreat's hexes): None if it is no number;
        validate reports it."""
        if not text.value.isdigit():
            return None
        return int(text.value)

    @v_args(meta=True)
    def move_result(self, meta: Meta, items: list[Any]) -> Any:
        costs = [self._number(t) for t in items if self._is(t, "NUMBER")]
        total = next((i[1] for i in items if isinstance(i, tuple) and i[0] == "total"), None)
        ruling = next((i.ruling for i in items if isinstance(i, ir.ExpectedResult)), None)
        return self._result(meta, costs=tuple(costs), total=total, ruling=ruling)

    def move_total(self, items: list[Any]) -> Any:
        return ("total", self._number(items[0]))

    @v_args(meta=True)
    def legal(self, meta: Meta, items: list[Any]) -> Any:
        return self._result(meta, ruling=ir.Ruling.LEGAL)

    @v_args(meta=True)
    def illegal(self, meta: Meta, items: list[Any]) -> Any:
        return self._result(meta, ruling=ir.Ruling.ILLEGAL)

    @v_args(meta=True)
    def hex_result(self, meta: Meta, items: list[Any]) -> Any:
        absent = items.pop() if items and isinstance(items[-1], list) else []
        return self._result(meta, hexes=tuple(self._text(t) for t in items), absent=tuple(absent))

    def hex_absent(self, items: list[Any]) -> Any:
        return [self._text(t) for t in items]

    @v_args(meta=True)
    def supply_in(self, meta: Meta, items: list[Any]) -> Any:
        return self._result(meta, ruling=ir.Ruling.IN)

    @v_args(meta=True)
    def supply_out(self, meta: Meta, items: list[Any]) -> Any:
        return self._result(meta, ruling=ir.Ruling.OUT)

    @v_args(meta=True)
    def allowed(self, meta: Meta, items: list[Any]) -> Any:
        return self._result(meta, ruling=ir.Ruling.ALLOWED, amount=self._number(items[0]) if items else None)

    @v_args(meta=True)
    def refused(self, meta: Meta, items: list[Any]) -> Any:
        return self._result(meta, ruling=ir.Ruling.REFUSED)

    @v_args(meta=True)
    def retreat_loss(self, meta: Meta, items: list[Any]) -> Any:
        loss, *via = items
        return self._result(meta, amount=Fraction(self._whole(loss)), hexes=tuple(self._text(t) for t in via))

    @v_args(meta=True)
    def retreat_eliminated(self, meta: Meta, items: list[Any]) -> Any:
        return self._result(meta, ruling=ir.Ruling.ELIMINATED)

    @v_args(meta=True)
    def advance_hexes(self, meta: Meta, items: list[Any]) -> Any:
        return self._result(meta, amount=Fraction(self._whole(items[0])))

    @v_args(meta=True)
    def combat_result(self, meta: Meta, items: list[Any]) -> Any:
        found: dict[str, Any] = {}
        for key, value, token in items:
            if key in found:
                raise RulesError([Diagnostic(f"'{key}' is given twice", self._text(token).span,
                                             hint="give each of odds, column, roll and result once")])
            found[key] = value
        return self._result(meta, **found)

    def combat_odds(self, items: list[Any]) -> Any:
        return ("odds", self._text(items[0]), items[0])

    def combat_column(self, items: list[Any]) -> Any:
        return ("column", self._text(items[0]), items[0])

    def combat_roll(self, items: list[Any]) -> Any:
        return ("roll", self._whole(items[0]), items[0])

    def combat_outcome(self, items: list[Any]) -> Any:
        return ("outcome", self._text(items[0]), items[0])

    # -- combat results table -------------------------------------------
    @v_args(meta=True)
    def results_table(self, meta: Meta, items: list[Any]) -> Any:
        """A plain grid, or side blocks: the defender side (read by odds) gives the lines and rows, the
        attacker side (read by total defense strength) the attacker losses. Side blocks that do not fit
        (a side twice, a side with the other's header) stay in `sides` for validate to report."""
        override, title, cites, items = self._leading(items)
        dice, *rest = items
        notation = self._text(rest.pop(0)) if rest and self._is(rest[0], "NAME") else None
        body = rest[0]
        if isinstance(body, ir.TableSide):  # a single side block
            body = [body]
        grid, sides = None, ()
        if isinstance(body, list):  # table sides
            sides = tuple(body)
        else:
            grid = body
        return ir.ResultsTable(span=self._span(meta), override=override, title=title, cites=cites,
                               dice=self._text(dice), notation=notation, grid=grid, sides=sides)

    @v_args(meta=True)
    def results_amend(self, meta: Meta, items: list[Any]) -> Any:
        """`amend combat results table { odds ... / rows }`: the inherited table's dice and notation hold."""
        _, title, cites, rest = self._leading(items[1:])
        return ir.ResultsTable(span=self._span(meta), override=False, amend=True, title=title, cites=cites,
                               dice=ir.Text(span=self._text(items[0]).span, value=""), notation=None,
                               grid=rest[0], sides=())

    def results_body(self, items: list[Any]) -> Any:
        return list(items)

    @v_args(meta=True)
    def grid(self, meta: Meta, items: list[Any]) -> Any:
        return ir.Grid(span=self._span(meta), lines=tuple(i for i in items if isinstance(i, ir.OddsLine)),
                       rows=tuple(i for i in items if isinstance(i, ir.DiceRow)))

    @v_args(meta=True)
    def table_side(self, meta: Meta, items: list[Any]) -> Any:
        side, header, *rows = items
        odds = header if isinstance(header, ir.OddsLine) else None
        return ir.TableSide(span=self._span(meta), side=self._text(side), odds=odds,
                            strengths=None if odds is not None else header, rows=tuple(rows))

    def defense_row(self, items: list[Any]) -> Any:
        return tuple(self._text(t) for t in items)

    @v_args(meta=True)
    def odds_row(self, meta: Meta, items: list[Any]) -> Any:
        name = self._text(items.pop(0)) if items and self._is(items[0], "NAME") else None
        return ir.OddsLine(span=self._span(meta), name=name, columns=tuple(self._text(t) for t in items))

    @v_args(meta=True)
    def dice_row(self, meta: Meta, items: list[Any]) -> Any:
        label, *cells = items
        return ir.DiceRow(span=self._span(meta), label=self._text(label), cells=tuple(self._text(c) for c in cells))

    # -- result codes ---------------------------------------------------
    @v_args(meta=True)
    def result_codes(self, meta: Meta, items: list[Any]) -> Any:
        override, title, cites, items = self._leading(items)
        family = self._text(items.pop(0)) if items and self._is(items[0], "NAME") else None
        return ir.ResultCodes(span=self._span(meta), override=override, title=title, cites=cites, family=family,
                              codes=tuple(items))

    @v_args(meta=True)
    def result_code(self, meta: Meta, items: list[Any]) -> Any:
        code, *clauses = items
        return ir.ResultCode(span=self._span(meta), code=self._text(code), clauses=tuple(clauses),
                             text=self._source(meta))

    @v_args(meta=True)
    def code_change(self, meta: Meta, items: list[Any]) -> Any:
        side, verb, amount, *word = items
        return ir.CodeClause(span=self._span(meta), effect=ir.CodeEffect(str(verb)), side=ir.Side(str(side)),
                             amount=None if self._is(amount, "CODE_ALL") else self._whole(amount),
                             word=self._text(word[0]) if word else None)

    @v_args(meta=True)
    def code_state(self, meta: Meta, items: list[Any]) -> Any:
        side, state = items
        return ir.CodeClause(span=self._span(meta), effect=ir.CodeEffect.BECOMES, side=ir.Side(str(side)),
                             amount=None, word=self._text(state))

    @v_args(meta=True)
    def code_flag(self, meta: Meta, items: list[Any]) -> Any:
        return ir.CodeClause(span=self._span(meta), effect=ir.CodeEffect(" ".join(str(items[0]).split())),
                             side=None, amount=None, word=None)

    # -- the player-aid card ----------------------------------------------
    @v_args(meta=True)
    def card(self, meta: Meta, items: list[Any]) -> Any:
        """Each setting once; a second `sides` or `paper` line is kept as `repeated` for validate to report
        (reminders and charts lines add up; a terrain's second swatch is validate's too)."""
        found: dict[str, Any] = {"sides": None, "paper": None}
        sides_span = self._span(meta)
        reminders: list[ir.Text] = []
        charts: list[ir.Text] = []
        swatches: list[ir.Swatch] = []
        repeated: list[ir.Text] = []
        for kind, keyword, value in items:
            if kind in found:
                if found[kind] is not None:
                    repeated.append(keyword)
                elif kind == "sides":
                    found[kind], sides_span = value
                else:
                    found[kind] = value
            elif kind == "reminders":
                reminders += value
            elif kind == "charts":
                charts += value
            else:
                swatches.append(value)
        return ir.Card(span=self._span(meta), sides=found["sides"], paper=found["paper"],
                       reminders=tuple(reminders), swatches=tuple(swatches), charts=tuple(charts),
                       repeated=tuple(repeated), sides_span=sides_span)

    def _keyword(self, meta: Meta, word: str) -> ir.Text:
        """The setting's keyword, positioned at the start of its line."""
        return ir.Text(span=Span(self.path, meta.line, meta.column, meta.line, meta.column + len(word)), value=word)

    @v_args(meta=True)
    def card_sides(self, meta: Meta, items: list[Any]) -> Any:
        return ("sides", self._keyword(meta, "sides"), (self._whole(items[0]), self._text(items[0]).span))

    @v_args(meta=True)
    def card_paper(self, meta: Meta, items: list[Any]) -> Any:
        return ("paper", self._keyword(meta, "paper"), self._text(items[0]))

    @v_args(meta=True)
    def card_reminders(self, meta: Meta, items: list[Any]) -> Any:
        return ("reminders", self._keyword(meta, "reminders"), [self._text(t) for t in items])

    @v_args(meta=True)
    def card_charts(self, meta: Meta, items: list[Any]) -> Any:
        return ("charts", self._keyword(meta, "charts"), [self._text(t) for t in items])

    @v_args(meta=True)
    def card_swatch(self, meta: Meta, items: list[Any]) -> Any:
        terrain, colour, *pattern = items
        return ("swatch", self._keyword(meta, "swatch"),
                ir.Swatch(span=self._span(meta), terrain=self._text(terrain), colour=self._text(colour),
                          pattern=self._text(pattern[0]) if pattern else None))

    @v_args(meta=True)
    def lookup_table(self, meta: Meta, items: list[Any]) -> Any:
        override = bool(items) and self._is(items[0], "OVERRIDE")
        name, *items = items[1:] if override else items
        title = self._text(items.pop(0)) if items and self._is(items[0], "STRING") else None
        cites = items.pop(0) if items and isinstance(items[0], tuple) and not isinstance(items[0], _TableLine) else ()
        header, *rows = (tuple(line) for line in items)
        return ir.LookupTable(span=self._span(meta), override=override, name=self._text(name), title=title,
                              cites=cites, header=header, rows=tuple(rows))

    def table_line(self, items: list[Any]) -> Any:
        return _TableLine(self._text(t) for t in items)


class _TableLine(tuple[ir.Text, ...]):
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


def parse_situation(source: Source) -> ir.Situation:
    """A situation by itself (the lines of an example's body, as `rulesdsl explain` reads them), or
    RulesError with positioned diagnostics."""
    tree = parse_tree(source, start="situation")
    check_limits(tree, source)
    try:
        situation: ir.Situation = _Builder(source.path, source.text).transform(tree)
        return situation
    except VisitError as exc:
        if isinstance(exc.orig_exc, RulesError):
            raise RulesError(exc.orig_exc.diagnostics, {source.path: source.text}) from None
        raise


def parse(source: Source) -> ir.Rulebook:
    """Source text to a Rulebook, or RulesError with positioned diagnostics.

    The cyclic garbage collector is paused meanwhile: parsing makes many objects and frees none, so its
    passes find nothing and only grow the cost per line with the file's size (a tree holds no cycle the
    reference counts do not free)."""
    with _collector_paused():
        tree = parse_tree(source)
        check_limits(tree, source)  # before anything recursive walks the tree (limits.py)
        try:
            rulebook: ir.Rulebook = _Builder(source.path, source.text).transform(tree)
            return rulebook
        except VisitError as exc:
            if isinstance(exc.orig_exc, RulesError):
                raise RulesError(exc.orig_exc.diagnostics, {source.path: source.text}) from None
            raise


@contextmanager
def _collector_paused() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
