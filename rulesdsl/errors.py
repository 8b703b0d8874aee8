"""Diagnostics and the one renderer that prints them.

Every problem the compiler finds becomes a :class:`Diagnostic` with a
:class:`Span`; :func:`render` prints it the way compilers do::

    rulebooks/games/x.rules:12:5: error: unknown terrain 'wods'
       12 |     wods  2  Dx2
          |     ^~~~
    hint: did you mean 'woods'?
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Iterable, Mapping


@dataclass(frozen=True, slots=True)
class Span:
    """A region of a source file; lines and columns count from 1."""

    path: str
    line: int = 0
    column: int = 0
    end_line: int = 0
    end_column: int = 0

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}" if self.line else self.path


@dataclass(frozen=True, slots=True)
class Diagnostic:
    message: str
    span: Span
    hint: str | None = None
    severity: str = "error"

    def sort_key(self) -> tuple:
        return (self.span.path, self.span.line, self.span.column, self.message)


class RulesError(Exception):
    """Raised with every diagnostic a stage collected."""

    def __init__(self, diagnostics: Iterable[Diagnostic], sources: Mapping[str, str] | None = None):
        self.diagnostics = tuple(diagnostics)
        self.sources = dict(sources or {})
        super().__init__("\n".join(d.message for d in self.diagnostics))


def suggest(name: str, candidates: Iterable[str], *, n: int = 1, cutoff: float = 0.6) -> str | None:
    """A 'did you mean' hint for `name`, or None when nothing is close."""
    pool = sorted(set(candidates))
    close = difflib.get_close_matches(name, pool, n=n, cutoff=cutoff)
    if not close:
        close = [c for c in pool if c.lower() == name.lower()][:n]
    if not close:
        return None
    return "did you mean " + " or ".join(f"'{c}'" for c in close) + "?"


def render(diagnostic: Diagnostic, sources: Mapping[str, str]) -> str:
    """`path:line:col: error: message`, the source line, a caret, a hint."""
    span = diagnostic.span
    out = [f"{span}: {diagnostic.severity}: {diagnostic.message}"]
    text = sources.get(span.path)
    if text is not None and span.line:
        lines = text.split("\n")  # the parser counts lines by \n alone
        if 0 < span.line <= len(lines):
            line = lines[span.line - 1].rstrip("\r").expandtabs(1)
            width = 1
            if span.end_line == span.line and span.end_column > span.column:
                width = span.end_column - span.column
            elif span.end_line > span.line:  # a block: underline the rest of its first line
                width = len(line.rstrip()) - span.column + 1
            width = max(1, min(width, len(line) - span.column + 1))
            gutter = f"{span.line:>5} | "
            out.append(gutter + line)
            out.append(" " * (len(gutter) - 2) + "| " + " " * (span.column - 1) + "^" + "~" * (width - 1))
    if diagnostic.hint:
        out.append(f"hint: {diagnostic.hint}")
    return "\n".join(out)


def render_all(diagnostics: Iterable[Diagnostic], sources: Mapping[str, str]) -> str:
    return "\n".join(render(d, sources) for d in sorted(diagnostics, key=Diagnostic.sort_key))
