"""The combat charts written as lists: modifiers (DRMs), column shifts, unit factors and result adjustments."""
from __future__ import annotations

from typing import Any

from lark import v_args
from lark.tree import Meta

from rulesdsl.language.transform.base import Builder
from rulesdsl.model import ir


class ModifierBuilder(Builder):
    """Each method builds the IR node of the grammar rule it is named after."""

    @v_args(meta=True)
    def modifiers(self, meta: Meta, items: list[Any]) -> Any:
        amend = bool(items) and self._is(items[0], "AMEND")
        override, title, cites, items = self._leading(items[1:] if amend else items)
        cap = None
        if items and self._is(items[0], "NUMBER"):
            cap = self._whole(items.pop(0))
        return ir.Modifiers(span=self._span(meta), override=override, title=title, cites=cites, cap=cap,
                            modifiers=tuple(items), amend=amend)

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
    def unit_factors(self, meta: Meta, items: list[Any]) -> Any:
        override, title, cites, items = self._leading(items)
        return ir.UnitFactors(span=self._span(meta), override=override, title=title, cites=cites,
                              factors=tuple(items))

    @v_args(meta=True)
    def unit_factor(self, meta: Meta, items: list[Any]) -> Any:
        marks = {i[1] for i in items if isinstance(i, tuple)}
        name, role, factor, condition = [i for i in items if not isinstance(i, tuple)]
        cap, round_down = "at-most" in marks, "rounded-down" in marks
        return ir.UnitFactor(span=self._span(meta), name=self._text(name), role=ir.Role(str(role)), factor=factor,
                             condition=condition, cap=cap, round_down=round_down, text=self._source(meta))

    def factor_cap(self, items: list[Any]) -> Any:
        return ("mark", "at-most")

    def factor_round(self, items: list[Any]) -> Any:
        return ("mark", "rounded-down")

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
