"""Rounding and the sequence of play."""
from __future__ import annotations

from typing import Any

from lark import Token, v_args
from lark.tree import Meta

from rulesdsl.language.transform.base import Builder
from rulesdsl.model import ir


class SequenceBuilder(Builder):
    """Each method builds the IR node of the grammar rule it is named after."""

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

    @v_args(meta=True)
    def sequence(self, meta: Meta, items: list[Any]) -> Any:
        amend = bool(items) and self._is(items[0], "AMEND")
        override, _, cites, items = self._leading(items[1:] if amend else items)
        blocks = tuple(item for item in items if isinstance(item, ir.TurnBlock))
        turn_sets = tuple(item for item in items if isinstance(item, ir.TurnSet))
        return ir.SequenceOfPlay(span=self._span(meta), override=override, cites=cites, blocks=blocks,
                                 amend=amend, turn_sets=turn_sets)

    @v_args(meta=True)
    def turn_set(self, meta: Meta, items: list[Any]) -> Any:
        name, *turns = items
        return ir.TurnSet(span=self._span(meta), name=self._text(name), turns=tuple(self._text(t) for t in turns))

    def turns_on(self, items: list[Any]) -> Any:
        return False

    def turns_not_on(self, items: list[Any]) -> Any:
        return True

    @v_args(meta=True)
    def phase_turns_named(self, meta: Meta, items: list[Any]) -> Any:
        negated, name = items
        return ir.PhaseTurns(span=self._span(meta), negated=negated, set=self._text(name), turns=())

    @v_args(meta=True)
    def phase_turns_listed(self, meta: Meta, items: list[Any]) -> Any:
        negated, *turns = items
        return ir.PhaseTurns(span=self._span(meta), negated=negated, set=None,
                             turns=tuple(self._text(t) for t in turns))

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
        cites, activities, note, turns = (), (), None, None
        for item in rest:
            if isinstance(item, tuple):
                cites = item
            elif isinstance(item, list):
                activities = tuple(item)
            elif isinstance(item, ir.PhaseTurns):
                turns = item
            else:
                note = self._text(item)
        return ir.Phase(span=self._span(meta), name=self._text(name), cites=cites, activities=activities, note=note,
                        turns=turns)

    def activities(self, items: list[Any]) -> Any:
        return [self._text(t) for t in items]
