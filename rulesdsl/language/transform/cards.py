"""The player-aid card block and lookup tables."""
from __future__ import annotations

from typing import Any

from lark import v_args
from lark.tree import Meta

from rulesdsl.errors import Span
from rulesdsl.language.transform.base import Builder, TableLine
from rulesdsl.model import ir


class CardBuilder(Builder):
    """Each method builds the IR node of the grammar rule it is named after."""

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
        cites = items.pop(0) if items and isinstance(items[0], tuple) and not isinstance(items[0], TableLine) else ()
        header, *rows = (tuple(line) for line in items)
        return ir.LookupTable(span=self._span(meta), override=override, name=self._text(name), title=title,
                              cites=cites, header=header, rows=tuple(rows))

    def table_line(self, items: list[Any]) -> Any:
        return TableLine(self._text(t) for t in items)
