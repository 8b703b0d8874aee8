"""What a rulebook declares: unit types, unit states and situations, parameters, labels."""
from __future__ import annotations

from typing import Any

from lark import v_args
from lark.tree import Meta

from rulesdsl.language.transform.base import Builder
from rulesdsl.model import ir


class VocabularyBuilder(Builder):
    """Each method builds the IR node of the grammar rule it is named after."""

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
    def labels(self, meta: Meta, items: list[Any]) -> Any:
        lang, *items = items
        language = self._text(items.pop(0)) if items and self._is(items[0], "STRING") else None
        return ir.Labels(span=self._span(meta), lang=self._text(lang), language=language, labels=tuple(items))

    def label(self, items: list[Any]) -> Any:
        return self._text(items[0]), self._text(items[1])
