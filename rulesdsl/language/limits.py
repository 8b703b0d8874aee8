"""Limits on what a rulebook may write, checked on the parse tree before
anything recursive walks it.

Only expressions nest without bound in the grammar; the stages after the
parser (Lark's Transformer, the expression checker, the generated Python)
walk them recursively, so their depth is measured here, iteratively.  And a
number with thousands of digits is no number a chart prints: Python refuses
to convert one beyond 4,300 digits, and floats overflow long before.
"""
from __future__ import annotations

import re

from lark import Token, Tree

from rulesdsl.errors import Diagnostic, RulesError, Span
from rulesdsl.language.source import Source

# Operators, calls and `not`/`-` nested inside one another in one expression.
# Far beyond what a rulebook writes; keeps the compiler's and Python's recursion safe.
MAX_EXPRESSION_DEPTH = 100
# Cases of one `define name { ... }`.
MAX_CASES = 200
# Calls nested in computing one definition: each definition it uses, and each
# count/sum/any/all whose test runs inside it, is a call within a call.  Keeps a
# generated module well inside Python's recursion limit (1,000) when it computes.
MAX_CALL_DEPTH = 200
# Digits in one number (a value, an expression literal, a table cell, a terrain
# level, a rule number): far below Python's 4,300-digit conversion limit.
MAX_NUMBER_DIGITS = 100
# Columns of a combat results table or a lookup table (its key column not counted):
# a chart a card prints across a page; the widest published CRTs have about 15.
MAX_TABLE_COLUMNS = 24
# Rows of a lookup table: far beyond any chart a card prints.
MAX_TABLE_ROWS = 100
# Hexes in the map of one worked example or `rulesdsl explain` situation (its
# rectangle, columns x rows): every hex of it exists while the engine answers.
MAX_MAP_HEXES = 20_000
# Units in one worked example or `rulesdsl explain` situation: more counters than the largest published games
# put on the map at once; every question the engine answers reads each of them.
MAX_SITUATION_UNITS = 10_000
# Hexes in a distance a rulebook or a situation gives (a parameter in hexes: a ZOC's range, a minimum move, a
# supply line, an advance's cap): printed rules say 1 to some 20; the engine's searches step out hex by hex.
MAX_DISTANCE_HEXES = 1_000
# MPs in a cost or an allowance (a parameter in MPs, a counter's Movement Allowance): printed values are
# below 50; a move is priced step by step against it.
MAX_MOVEMENT_POINTS = 1_000
# Hexes of one retreat or advance after combat (a combat result's r#, an `expect retreat` or `expect advance`
# length): printed results retreat at most 4 or 5; the retreat weighs every path of that length, a search
# that grows steeply with it.
MAX_RETREAT_HEXES = 6

# Steps one side loses in one combat (an `expect losses` line's): printed results take a few; the engine
# weighs who may take each of the first two.
MAX_LOSS_STEPS = 12

# The largest roll, in size, a dice row may name (`3-4`, `13+`): d66 reads 66 and a d100 100; a table's
# rows are indexed roll by roll, from 20 below the lowest to 20 above the highest roll they name.
MAX_DICE_ROLL = 1_000

# the parse-tree nodes of expressions (grammar.lark, "expressions")
EXPRESSION_NODES = frozenset({"or_", "and_", "not_", "compare", "is_", "arith", "negate", "literal_number",
                              "literal_odds", "name", "call", "call2", "where", "of"})
_DIGITS = re.compile(r"[0-9]{%d,}" % (MAX_NUMBER_DIGITS + 1))
_NOT_NUMBERS = frozenset({"NAME", "STRING", "COMMENT"})   # text that is never read as a number
_SITUATIONS = frozenset({"situation", "example"})          # the parse-tree nodes whose items place units
_UNIT_LINE = re.compile(r"^[ \t]*unit[ \t]", re.M)        # a situation's `unit` line, as the grammar starts it


def _too_many_units(span: Span) -> Diagnostic:
    return Diagnostic(f"a situation has more than {MAX_SITUATION_UNITS:,} units", span,
                      "give only the units the example is about: every question the engine answers reads each "
                      "of them")


def check_situation_size(source: Source) -> None:
    """Raise RulesError, positioned at its first unit beyond the limit, if a situation by itself (`rulesdsl
    explain`) places more units than a situation may have: read from the text, before the parser's work."""
    text = source.text
    for count, match in enumerate(_UNIT_LINE.finditer(text), 1):
        if count > MAX_SITUATION_UNITS:
            first = match.start() + len(match.group()) - len(match.group().lstrip(" \t"))     # the `u` of `unit`
            line_start = text.rfind("\n", 0, first) + 1
            line_end = text.find("\n", first)
            line_end = len(text) if line_end < 0 else line_end
            line = text.count("\n", 0, first) + 1
            span = Span(source.path, line, first - line_start + 1, line, line_end - line_start + 1)
            raise RulesError([_too_many_units(span)], {source.path: text})


def _span(path: str, item: Tree[Token] | Token) -> Span:
    if isinstance(item, Token):
        return Span(path, item.line or 0, item.column or 0, item.end_line or 0, item.end_column or 0)
    meta = item.meta
    if getattr(meta, "empty", True):
        return Span(path)
    return Span(path, meta.line, meta.column, meta.end_line, meta.end_column)


def check_limits(tree: Tree[Token], source: Source) -> None:
    """Raise RulesError, each problem positioned, if the tree passes a limit."""
    problems: list[Diagnostic] = []
    reported: set[int] = set()
    # (node, expression depth, the outermost expression node it is in)
    stack: list[tuple[Tree[Token] | Token, int, Tree[Token] | None]] = [(tree, 0, None)]
    while stack:
        node, depth, root = stack.pop()
        if isinstance(node, Token):
            if node.type not in _NOT_NUMBERS and _DIGITS.search(str(node)):
                problems.append(Diagnostic(f"number too long (limit {MAX_NUMBER_DIGITS} digits)",
                                           _span(source.path, node)))
            continue
        if node.data in EXPRESSION_NODES:
            depth, root = depth + 1, root if root is not None else node
            if depth > MAX_EXPRESSION_DEPTH:
                if id(root) not in reported:
                    reported.add(id(root))
                    problems.append(Diagnostic(f"expression too deeply nested (limit {MAX_EXPRESSION_DEPTH})",
                                               _span(source.path, root),
                                               "split it into definitions: define part = ..., then use part"))
                continue
        elif node.data == "define_cases" and sum(isinstance(c, Tree) for c in node.children) > MAX_CASES:
            problems.append(Diagnostic(f"too many cases in one definition (limit {MAX_CASES})",
                                       _span(source.path, node), "split the cases between definitions"))
        else:
            depth, root = 0, None
            if node.data in _SITUATIONS:
                units = [c for c in node.children if isinstance(c, Tree) and c.data == "situation_unit"]
                if len(units) > MAX_SITUATION_UNITS:
                    problems.append(_too_many_units(_span(source.path, units[MAX_SITUATION_UNITS])))
                    continue        # its units are not walked: thousands of them say nothing more
        stack.extend((child, depth, root) for child in reversed(node.children))
    if problems:
        problems.sort(key=Diagnostic.sort_key)
        raise RulesError(problems, {source.path: source.text})
