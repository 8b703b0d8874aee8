"""The Terrain Effects Chart: rows, headings, movement and combat cells."""
from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

from lark import Token, v_args
from lark.tree import Meta

from rulesdsl.errors import Diagnostic, RulesError
from rulesdsl.language.transform.base import Builder, number
from rulesdsl.model import ir


class TerrainBuilder(Builder):
    """Each method builds the IR node of the grammar rule it is named after."""

    @v_args(meta=True)
    def terrain_chart(self, meta: Meta, items: list[Any]) -> Any:
        amend = bool(items) and self._is(items[0], "AMEND")
        override, title, cites, items = self._leading(items[1:] if amend else items)
        for_examples = bool(items) and self._is(items[0], "FOR_EXAMPLES")
        items = items[1:] if for_examples else items
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
                               amend=amend, cells=tuple(cells), for_examples=for_examples)

    def terrain_heading(self, items: list[Any]) -> Any:
        return items[0]

    @v_args(meta=True)
    def terrain_row(self, meta: Meta, items: list[Any]) -> Any:
        name, movement, combat, *attributes = items
        found = dict(attributes)
        return ir.TerrainRow(span=self._span(meta), kind=None, name=self._text(name), movement=movement,
                             combat=combat, level=found.get("level"), line=found.get("line"),
                             no_overrun=bool(found.get("no-overrun")), no_zoc=bool(found.get("no-zoc")),
                             exerts_no_zoc=bool(found.get("exerts-no-zoc")))

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

    def terrain_no_overrun(self, items: list[Any]) -> Any:
        return ("no-overrun", True)

    def terrain_no_zoc(self, items: list[Any]) -> Any:
        return ("no-zoc", True)

    def terrain_exerts_no_zoc(self, items: list[Any]) -> Any:
        return ("exerts-no-zoc", True)

    def _move(self, meta: Meta, kind: ir.MoveKind, amount: Fraction | None = None,
              target: ir.Text | None = None) -> ir.MovementCell:
        return ir.MovementCell(span=self._span(meta), kind=kind, amount=amount, target=target)

    @v_args(meta=True)
    def move_cost(self, meta: Meta, items: list[Any]) -> Any:
        text = str(items[0])
        cell = self._move(meta, ir.MoveKind.ADD if text[0] in "+-" else ir.MoveKind.COST, self._number(items[0]))
        return dataclasses.replace(cell, stop=True) if len(items) > 1 else cell

    @v_args(meta=True)
    def move_by_terrain(self, meta: Meta, items: list[Any]) -> Any:
        cell = self._move(meta, ir.MoveKind.COST, self._number(items[0]))
        return dataclasses.replace(cell, by_terrain=tuple(items[1:]))

    @v_args(meta=True)
    def terrain_cost(self, meta: Meta, items: list[Any]) -> Any:
        return ir.TerrainCost(span=self._span(meta), terrain=self._text(items[0]), amount=self._number(items[1]))

    @v_args(meta=True)
    def move_lower(self, meta: Meta, items: list[Any]) -> Any:
        return dataclasses.replace(self._move(meta, ir.MoveKind.COST, self._number(items[0])), lower=True)

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
        only = None
        for token in items:
            if isinstance(token, ir.OnlyFor):
                only = token
                continue
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
                             drm=drm or 0, across=across, only=only)

    @v_args(meta=True)
    def combat_only(self, meta: Meta, items: list[Any]) -> Any:
        role, side = items
        return ir.OnlyFor(span=self._span(meta), role=ir.OnlyRole(str(role)), side=self._text(side))
