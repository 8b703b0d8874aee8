"""What every builder shares: positions and texts from Lark tokens, exact numbers, string literals.

The transform is one Lark Transformer composed of one builder per kind of statement (the package's
`BUILDERS`); each builder subclasses `Builder` and reads tokens only through these helpers.
"""
from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from lark import Token, Transformer
from lark.tree import Meta

from rulesdsl.errors import Diagnostic, RulesError, Span
from rulesdsl.model import ir


def number(text: str) -> Fraction:
    """'2', '+1', '1/2', '.50', '-1.5' as an exact Fraction."""
    sign = -1 if text.startswith("-") else 1
    text = text.lstrip("+-")
    if "/" in text:
        num, den = text.split("/")
        if int(den) == 0:
            raise ValueError("division by zero")
        return sign * Fraction(int(num), int(den))
    return sign * Fraction(text)


class Builder(Transformer[Token, Any]):
    """The base of every builder: the file's path and lines, and the numbers noted as not whole."""

    def __init__(self, path: str, text: str = "") -> None:
        super().__init__()
        self.path = path
        self.lines = text.split("\n")
        self.not_whole: list[ir.NotWhole] = []

    def _source(self, meta: Meta) -> str:
        """The text a node was written as, lines joined."""
        if getattr(meta, "empty", False) or not self.lines:
            return ""
        rows = self.lines[meta.line - 1: meta.end_line]
        if not rows:
            return ""
        if len(rows) == 1:
            return rows[0][meta.column - 1: meta.end_column - 1]
        rows[0] = rows[0][meta.column - 1:]
        rows[-1] = rows[-1][: meta.end_column - 1]
        return "\n".join(r.rstrip() for r in rows)

    def _span(self, meta: Meta) -> Span:
        if getattr(meta, "empty", False):
            return Span(self.path)
        return Span(self.path, meta.line, meta.column, meta.end_line, meta.end_column)

    def _text(self, token: Token, value: str | None = None) -> ir.Text:
        span = Span(self.path, token.line or 0, token.column or 0, token.end_line or 0, token.end_column or 0)
        if value is None:
            value = str(token)
            if token.type == "STRING":
                value = unquote(value)
        return ir.Text(span=span, value=value)

    @staticmethod
    def _is(item: object, *types: str) -> bool:
        return isinstance(item, Token) and item.type in types

    def _leading(self, items: list[Any]) -> tuple[bool, ir.Text | None, tuple[ir.Text, ...], list[Any]]:
        """Split `override? STRING? cites? rest` off the front of a statement's children."""
        items = list(items)
        override = bool(items) and self._is(items[0], "OVERRIDE")
        if override:
            items.pop(0)
        title = self._text(items.pop(0)) if items and self._is(items[0], "STRING") else None
        cites = items.pop(0) if items and isinstance(items[0], tuple) else ()
        return override, title, cites, items

    def _whole(self, token: Token) -> int:
        """A whole number; another is kept as its whole part and noted for validate to report."""
        value = self._number(token)
        if value.denominator != 1:
            self.not_whole.append(ir.NotWhole(span=self._text(token).span, text=str(token)))
        return int(value)

    def _number(self, token: Token) -> Fraction:
        try:
            return number(str(token))
        except (ValueError, ZeroDivisionError):
            raise RulesError([Diagnostic(f"'{token}' is not a number", self._text(token).span)]) from None


class TableLine(tuple[ir.Text, ...]):
    """A table's line, told apart from its cites (both are tuples of texts) while the table is built."""


_ESCAPE = re.compile(r'\\(.)', re.S)
_ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "t": "\t"}


def unquote(literal: str) -> str:
    """The value of a "..." literal: \\" \\\\ \\n \\t escapes, nothing else evaluated (another backslash pair is
    kept as written)."""
    body = literal[1:-1]
    if "\\" not in body:
        return body
    return _ESCAPE.sub(lambda m: _ESCAPES.get(m.group(1), m.group(0)), body)
