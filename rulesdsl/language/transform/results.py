"""The Combat Results Table and its declared result codes."""
from __future__ import annotations

from typing import Any

from lark import v_args
from lark.tree import Meta

from rulesdsl.language.transform.base import Builder
from rulesdsl.model import ir


class ResultsBuilder(Builder):
    """Each method builds the IR node of the grammar rule it is named after."""

    @v_args(meta=True)
    def results_table(self, meta: Meta, items: list[Any]) -> Any:
        """A plain grid, or side blocks: the defender side (read by odds) gives the lines and rows, the
        attacker side (read by total defense strength) the attacker losses. Side blocks that do not fit
        (a side twice, a side with the other's header) stay in `sides` for validate to report."""
        override, title, cites, items = self._leading(items)
        dice, *rest = items
        notation = self._text(rest.pop(0)) if rest and self._is(rest[0], "NAME") else None
        for_examples = bool(rest) and self._is(rest[0], "FOR_EXAMPLES")
        body = rest[1] if for_examples else rest[0]
        if isinstance(body, ir.TableSide):  # a single side block
            body = [body]
        grid, sides = None, ()
        if isinstance(body, list):  # table sides
            sides = tuple(body)
        else:
            grid = body
        return ir.ResultsTable(span=self._span(meta), override=override, title=title, cites=cites,
                               dice=self._text(dice), notation=notation, grid=grid, sides=sides,
                               for_examples=for_examples)

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
    def difference_row(self, meta: Meta, items: list[Any]) -> Any:
        name = self._text(items.pop(0)) if items and self._is(items[0], "NAME") else None
        return ir.OddsLine(span=self._span(meta), name=name, columns=tuple(self._text(t) for t in items),
                           differential=True)

    @v_args(meta=True)
    def dice_row(self, meta: Meta, items: list[Any]) -> Any:
        label, *cells = items
        return ir.DiceRow(span=self._span(meta), label=self._text(label), cells=tuple(self._text(c) for c in cells))

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
