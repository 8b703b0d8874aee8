"""The header and the rules: numbered rules with their parameters, definitions and `requires`."""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from lark import v_args
from lark.tree import Meta

from rulesdsl.errors import Diagnostic, RulesError
from rulesdsl.language.transform.base import Builder
from rulesdsl.model import ir


class RuleBuilder(Builder):
    """Each method builds the IR node of the grammar rule it is named after."""

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

    @v_args(meta=True)
    def rule(self, meta: Meta, items: list[Any]) -> Any:
        override = bool(items) and self._is(items[0], "OVERRIDE")
        amend = bool(items) and self._is(items[0], "AMEND")
        keyword, rule_id, *rest = items[1:] if override or amend else items
        title = self._text(rest.pop(0)) if rest and self._is(rest[0], "STRING") else None
        body: dict[str, list[Any]] = {"summary": [], "parameters": [], "notes": [], "see": [], "requires": [],
                                 "definitions": [], "effects": [], "descriptive": [],
                                 "executed_by": []}
        for kind, value in rest:
            body[kind].extend(value if isinstance(value, list) else [value])
        summaries = body.pop("summary")
        marks, engine = body.pop("descriptive"), body.pop("executed_by")
        if len(marks) + len(engine) > 1:
            extra = sorted((*marks, *engine), key=lambda m: (m.span.line, m.span.column))[1]
            raise RulesError([Diagnostic("a rule says once how it is accounted for", extra.span,
                                         hint="keep one line: `descriptive REASON \"...\"` (nothing executes "
                                              "it) or `executed by QUESTION` (the engine's own behaviour)")])
        return ir.Rule(span=self._span(meta), id=rule_id, numbered=keyword == "rule", override=override,
                       amend=amend, title=title, summary=summaries[0] if summaries else None,
                       descriptive=marks[0] if marks else None, executed_by=engine[0] if engine else None,
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

    def executed_by(self, items: list[Any]) -> Any:
        return ("executed_by", self._text(items[0]))

    @v_args(meta=True)
    def rule_descriptive(self, meta: Meta, items: list[Any]) -> Any:
        reason, *why = items
        return ("descriptive", ir.Descriptive(span=self._span(meta), reason=ir.Reason(str(reason)),
                                              why=self._text(why[0]) if why else None))

    @v_args(meta=True)
    def effect(self, meta: Meta, items: list[Any]) -> Any:
        kind, question, condition = items
        return ("effects", ir.Effect(span=self._span(meta), kind=ir.EffectKind(str(kind)),
                                     question=self._text(question), condition=condition, text=self._source(meta)))

    @v_args(meta=True)
    def cost_effect(self, meta: Meta, items: list[Any]) -> Any:
        _, question, *rest = items
        how_word = str(rest.pop(0)) if self._is(rest[0], "COST_HOW") else None
        rounded = self._is(rest[-2], "COST_ROUND")
        if rounded:
            rest.pop(-2)
        amount_token, *rest = rest
        unit = self._text(rest.pop(0)) if len(rest) > 1 else None
        condition = rest[0]
        if self._is(amount_token, "NAME"):      # a parameter's name: its value in effect
            value, parameter, signed = None, self._text(amount_token), False
        else:
            value, parameter, signed = Fraction(str(amount_token)), None, str(amount_token)[:1] in "+-"
        how = {"min": ir.AmountHow.AT_LEAST, "max": ir.AmountHow.AT_MOST, "times": ir.AmountHow.TIMES}.get(
            how_word or "", ir.AmountHow.ADD if signed else ir.AmountHow.SET)
        where = self._text(amount_token).span
        if how_word is not None and signed:
            raise RulesError([Diagnostic(f"'{how_word}' takes a number, not a change: {how_word} 1"
                                         f"{'' if how_word == 'times' else ' MP'}", where,
                                         hint="like: cost enter min 1 MP when road")])
        if how is ir.AmountHow.TIMES and unit is not None:
            raise RulesError([Diagnostic(f"'times' multiplies by a bare number, not by {unit.value}", unit.span,
                                         hint="like: cost allowance times 1/2 rounded down when unit is isolated")])
        if rounded and how is not ir.AmountHow.TIMES:
            raise RulesError([Diagnostic("only a product is rounded: 'rounded down' follows 'times N'",
                                         self._span(meta), hint="like: cost allowance times 1/2 rounded down when ...")])
        amount = ir.EffectAmount(span=where, how=how, value=value, unit=unit, parameter=parameter, rounded_down=rounded)
        return ("effects", ir.Effect(span=self._span(meta), kind=ir.EffectKind.COST, question=self._text(question),
                                     condition=condition, amount=amount, text=self._source(meta)))

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
