"""A rule's effects (`forbid exert-zoc when unit is artillery`): each names a question the rules engine
answers and takes that effect, and its condition reads only the facts that question knows, each as its kind
allows (core/facts.py).  Every refusal is positioned at the word that is wrong."""
from __future__ import annotations

from collections.abc import Mapping

from rulesdsl.core.facts import FACTS, QUESTIONS, Fact, Question
from rulesdsl.errors import Diagnostic, suggest
from rulesdsl.model import ir

__all__ = ["check_effect", "condition_words"]

_COMPARISONS = (ir.BinaryOp.LT, ir.BinaryOp.LE, ir.BinaryOp.GT, ir.BinaryOp.GE, ir.BinaryOp.EQ, ir.BinaryOp.NE)


def check_effect(effect: ir.Effect) -> list[Diagnostic]:
    """The effect's question, and its condition against that question's facts."""
    question = QUESTIONS.get(effect.question.value)
    if question is None:
        return [Diagnostic(f"no question '{effect.question.value}' that a rule's effect may name",
                           effect.question.span,
                           suggest(effect.question.value, QUESTIONS) or "the questions are " + ", ".join(QUESTIONS))]
    if str(effect.kind) not in question.effects:
        return [Diagnostic(f"'{effect.kind}' is not an effect on '{question.word}'", effect.span,
                           f"on {question.word}: " + ", ".join(question.effects))]
    known = {name: fact for name, fact in FACTS.items() if question.word in fact.questions}
    found = _condition(effect.condition, question.word, known)
    if effect.amount is not None:
        found += _amount(effect.amount, question)
    return found


def _amount(amount: ir.EffectAmount, question: Question) -> list[Diagnostic]:
    """A cost's amount counts what its question prices (MP), a product is by a bare number, and only an
    allowance's addition may count hexes (of road).  A parameter's amount is checked where the parameters
    in effect are known (checks/resolve.py)."""
    if amount.parameter is not None or amount.how is ir.AmountHow.TIMES:
        return []
    unit = amount.unit.value if amount.unit is not None else None
    if question.word == "allowance" and unit in ("hex", "hexes"):
        if amount.how is ir.AmountHow.ADD:
            return []
        assert amount.unit is not None
        return [Diagnostic("an allowance counted in hexes is a bonus: +2 hexes", amount.unit.span,
                           "like: cost allowance +2 hexes when mode is road")]
    if question.unit is not None and unit != question.unit:
        where = amount.unit.span if amount.unit is not None else amount.span
        return [Diagnostic(f"a cost on {question.word} counts {question.unit}, not {unit or 'a bare number'}", where,
                           f"like: cost {question.word} +1 {question.unit} when ...")]
    return []


def _condition(expr: ir.Expr, question: str, known: Mapping[str, Fact]) -> list[Diagnostic]:
    """A condition: facts that are flags, `FACT is WORD`, numbers compared, and not/and/or of conditions."""
    if isinstance(expr, ir.Name):
        return _fact(expr, question, known, "flag")
    if isinstance(expr, ir.Is):
        if not isinstance(expr.operand, ir.Name):
            return [Diagnostic("'is' compares a fact with a word, like: unit is artillery", expr.span)]
        return _fact(expr.operand, question, known, "words")
    if isinstance(expr, ir.Unary) and expr.op is ir.UnaryOp.NOT:
        return _condition(expr.operand, question, known)
    if isinstance(expr, ir.Binary) and expr.op in (ir.BinaryOp.AND, ir.BinaryOp.OR):
        return _condition(expr.left, question, known) + _condition(expr.right, question, known)
    if isinstance(expr, ir.Binary) and expr.op in _COMPARISONS:
        return _number(expr.left, question, known) + _number(expr.right, question, known)
    return [Diagnostic("a condition is a fact, a fact 'is' a word, numbers compared, or these joined by "
                       "not, and, or", expr.span, "like: unit is artillery or unit.attack == 0")]


def _number(expr: ir.Expr, question: str, known: Mapping[str, Fact]) -> list[Diagnostic]:
    if isinstance(expr, ir.Number):
        return []
    if isinstance(expr, ir.Name):
        return _fact(expr, question, known, "number")
    return [Diagnostic("a comparison reads a number fact or a number", expr.span, "like: unit.attack == 0")]


def _fact(name: ir.Name, question: str, known: Mapping[str, Fact], kind: str) -> list[Diagnostic]:
    fact = FACTS.get(name.path)
    if fact is None or name.path not in known:
        where = "" if fact is None else f" at {question} (it is known at {', '.join(fact.questions)})"
        return [Diagnostic(f"no fact '{name.path}'{where}", name.span,
                           suggest(name.path, known) or "the facts here are " + ", ".join(known))]
    if fact.kind != kind:
        uses = {"words": f"compare it with a word: {name.path} is ...",
                "number": f"compare it with a number: {name.path} >= 1",
                "flag": f"use it as it is: {name.path}"}
        return [Diagnostic(f"'{name.path}' is a {'list of words' if fact.kind == 'words' else fact.kind}, "
                           f"not a {'list of words' if kind == 'words' else kind}", name.span, uses[fact.kind])]
    return []


def condition_words(effect: ir.Effect, known: Mapping[str, set[str]]) -> list[Diagnostic]:
    """A warning for each `FACT is WORD` whose word the rulebook never declares for that fact (a unit type,
    capability, state or size; a turn set; a phase): a misspelt word makes a condition that never holds.
    `known`: the words of each fact that can be known before play (none given: not checked)."""
    found = []
    for node in _parts(effect.condition):
        if isinstance(node, ir.Is) and isinstance(node.operand, ir.Name):
            words = known.get(node.operand.path)
            word = node.word.value.lower()
            if words is not None and word not in words:
                found.append(Diagnostic(
                    f"no {_WHAT.get(node.operand.path, 'word')} '{node.word.value}' in this rulebook: "
                    f"'{node.operand.path} is {node.word.value}' never holds", node.word.span,
                    suggest(word, sorted(words)) or ("the words known here are " + ", ".join(sorted(words))
                                                     if words else "the rulebook declares none"),
                    severity="warning"))
    return found


_WHAT = {"unit.type": "unit type", "unit.size": "unit size", "turn": "turn set of the sequence of play",
         "phase": "phase"}


def _parts(expr: ir.Expr) -> list[ir.Expr]:
    if isinstance(expr, ir.Unary):
        return [expr, *_parts(expr.operand)]
    if isinstance(expr, ir.Binary):
        return [expr, *_parts(expr.left), *_parts(expr.right)]
    return [expr]
