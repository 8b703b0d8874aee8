"""Expressions (conditions, factors, definitions) and the values rules set."""
from __future__ import annotations

from typing import Any

from lark import v_args
from lark.tree import Meta

from rulesdsl.language.transform.base import Builder, unquote
from rulesdsl.model import ir


class ExpressionBuilder(Builder):
    """Each method builds the IR node of the grammar rule it is named after."""

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
        name, value, *turns = items
        return ("parameters", ir.Parameter(span=self._span(meta), name=self._text(name), value=value,
                                           turns=turns[0] if turns else None))

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
        return ir.Quoted(span=self._span(meta), value=unquote(str(items[0])))
