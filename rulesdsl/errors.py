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

    def sort_key(self) -> tuple[str, int, int, str]:
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


# Characters a terminal acts on instead of showing: C0 and C1 controls but the tab (ESC starts a colour
# or cursor sequence, 0x9b is CSI on its own), DEL, the bidirectional overrides and isolates (they
# reorder what is shown), and the line and paragraph separators.  `visible` writes them as escapes.
_INVISIBLE = {c: f"\\x{c:02x}" for c in (*range(0x20), *range(0x7f, 0xa0)) if c != 0x09}
_INVISIBLE.update({c: f"\\u{c:04x}" for c in (0x061c, 0x200e, 0x200f, *range(0x202a, 0x202f),
                                               *range(0x2066, 0x206a), 0x2028, 0x2029)})
_INVISIBLE.update({0x0a: "\\n", 0x0d: "\\r"})


def visible(text: str) -> str:
    """`text` safe to print on a terminal: control characters shown as `\\x1b`-style escapes, so that
    no rulebook text or file name can move the cursor, recolour, hide or reorder what is printed."""
    return text.translate(_INVISIBLE)


def visible_lines(text: str) -> str:
    """`visible`, line by line: a document (an errata sheet, a card) keeps its line breaks."""
    return "\n".join(visible(line) for line in text.split("\n"))


def render(diagnostic: Diagnostic, sources: Mapping[str, str]) -> str:
    """`path:line:col: error: message`, the source line, a caret, a hint; control characters from the
    rulebook (or its file name) are shown as escapes, and the caret stays under the right character."""
    span = diagnostic.span
    out = [visible(f"{span}: {diagnostic.severity}: {diagnostic.message}")]
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
            start = span.column - 1  # an escape is several characters wide: measure what is printed
            indent = len(visible(line[:start])) + max(0, start - len(line))
            width = max(1, len(visible(line[start:start + width])))
            gutter = f"{span.line:>5} | "
            out.append(gutter + visible(line))
            out.append(" " * (len(gutter) - 2) + "| " + " " * indent + "^" + "~" * (width - 1))
    if diagnostic.hint:
        out.append(visible(f"hint: {diagnostic.hint}"))
    return "\n".join(out)


def render_all(diagnostics: Iterable[Diagnostic], sources: Mapping[str, str]) -> str:
    return "\n".join(render(d, sources) for d in sorted(diagnostics, key=Diagnostic.sort_key))
