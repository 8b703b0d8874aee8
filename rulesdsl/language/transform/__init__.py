"""Parse tree to IR: Lark tokens become str, Fraction and positioned Text.

One builder per kind of statement (`BUILDERS`, a table over `ir.STATEMENTS` that tests/test_walk.py holds
complete, like every other stage's); the Transformer that runs is all of them together.  Lark finds a
grammar rule's method by name, whichever builder defines it.
"""
from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from lark.exceptions import VisitError

from rulesdsl.errors import Diagnostic, RulesError
from rulesdsl.language.limits import check_limits, check_situation_size
from rulesdsl.language.parser import Recovery, parse_recovering, parse_tree
from rulesdsl.language.source import Source
from rulesdsl.language.transform.cards import CardBuilder
from rulesdsl.language.transform.examples import ExampleBuilder
from rulesdsl.language.transform.expressions import ExpressionBuilder
from rulesdsl.language.transform.modifiers import ModifierBuilder
from rulesdsl.language.transform.results import ResultsBuilder
from rulesdsl.language.transform.rules import RuleBuilder
from rulesdsl.language.transform.sequence import SequenceBuilder
from rulesdsl.language.transform.terrain import TerrainBuilder
from rulesdsl.language.transform.vocabulary import VocabularyBuilder
from rulesdsl.language.transform.base import Builder, number
from rulesdsl.model import ir

__all__ = ["BUILDERS", "PartialParse", "number", "parse", "parse_situation"]

# Each kind of statement, and the builder of its block (expressions are built by ExpressionBuilder,
# which every statement with a condition or a value reads).
BUILDERS: dict[type, type[Builder]] = {
    ir.Rule: RuleBuilder,
    ir.UnitTypes: VocabularyBuilder,
    ir.Vocabulary: VocabularyBuilder,
    ir.ParameterDeclarations: VocabularyBuilder,
    ir.Labels: VocabularyBuilder,
    ir.Modifiers: ModifierBuilder,
    ir.Shifts: ModifierBuilder,
    ir.UnitFactors: ModifierBuilder,
    ir.Adjustments: ModifierBuilder,
    ir.Rounding: SequenceBuilder,
    ir.SequenceOfPlay: SequenceBuilder,
    ir.TerrainChart: TerrainBuilder,
    ir.Example: ExampleBuilder,
    ir.ResultsTable: ResultsBuilder,
    ir.ResultCodes: ResultsBuilder,
    ir.Card: CardBuilder,
    ir.LookupTable: CardBuilder,
}


class _Builder(RuleBuilder,
               VocabularyBuilder,
               ModifierBuilder,
               ExpressionBuilder,
               SequenceBuilder,
               TerrainBuilder,
               ExampleBuilder,
               ResultsBuilder,
               CardBuilder):
    """The whole transform: every builder's grammar rules on one Lark Transformer."""


assert set(_Builder.__bases__) == {ExpressionBuilder, *BUILDERS.values()}, "a builder is missing from _Builder"


def parse_situation(source: Source) -> ir.Situation:
    """A situation by itself (the lines of an example's body, as `rulesdsl explain` reads them), or
    RulesError with positioned diagnostics."""
    check_situation_size(source)    # before the parser's work, which grows with every unit line
    tree = parse_tree(source, start="situation")
    check_limits(tree, source)
    try:
        situation: ir.Situation = _Builder(source.path, source.text).transform(tree)
        return situation
    except VisitError as exc:
        if isinstance(exc.orig_exc, RulesError):
            raise RulesError(exc.orig_exc.diagnostics, {source.path: source.text}) from None
        raise


class PartialParse(RulesError):
    """A rulebook's syntax errors (and the problems of what parsed that they cannot have caused), with the
    model of what parsed around them: `partial`, for the checks to read (never to build from, nor to keep
    in a cache: the text it stands for is broken), and what recovery left out of it (`recovery`)."""

    def __init__(self, diagnostics: list[Diagnostic], sources: dict[str, str], partial: ir.Rulebook | None = None,
                 recovery: Recovery | None = None):
        super().__init__(diagnostics, sources)
        self.partial = partial
        self.recovery = recovery


def parse(source: Source) -> ir.Rulebook:
    """Source text to a Rulebook, or RulesError with positioned diagnostics: PartialParse, with the model
    of what parsed, when the text has syntax errors that recovery read past (parser.parse_recovering).

    The cyclic garbage collector is paused meanwhile: parsing makes many objects and frees none, so its
    passes find nothing and only grow the cost per line with the file's size (a tree holds no cycle the
    reference counts do not free)."""
    sources = {source.path: source.text}
    with _collector_paused():
        tree, problems, recovery = parse_recovering(source)
        if tree is None:
            raise RulesError(problems, sources)
        try:
            check_limits(tree, source)  # before anything recursive walks the tree (limits.py)
            try:
                rulebook: ir.Rulebook = _Builder(source.path, source.text).transform(tree)
            except VisitError as exc:
                if isinstance(exc.orig_exc, RulesError):
                    raise RulesError(exc.orig_exc.diagnostics, sources) from None
                raise
        except RulesError as exc:
            if recovery is None:
                raise
            later = [d for d in exc.diagnostics if not recovery.consequence(d)]
            raise RulesError(problems + later, sources) from None
        if recovery is not None:
            raise PartialParse(problems, sources, rulebook, recovery)
        return rulebook


@contextmanager
def _collector_paused() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
