"""Diagnostics and the one renderer that prints them.

Every problem the compiler finds becomes a :class:`Diagnostic` with a
:class:`Span`; :func:`render` prints it the way compilers do::

    rulebooks/games/x.rules:12:5: error: unknown terrain 'wods'
       12 |     wods  2  Dx2
          |     ^~~~
    hint: did you mean 'woods'?

The same diagnostics, for tools: :func:`render_json` (`check --format json`, a stable schema) and
:func:`render_github` (`check --format github`, GitHub Actions workflow annotations).
"""
from __future__ import annotations

import difflib
import json
import re
import functools
import heapq
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


# Pools up to this size are also searched whole when nothing near is found; larger ones
# (the rule ids of a big rulebook) never, so a search costs the same whatever their size.
SCAN_LIMIT = 300
_CACHE_SIZE = 64


class Suggester:
    """'did you mean' hints against one pool of names, built once and asked many times.

    The pool is indexed by every spelling with at most one character left out, so a query
    meets the names within about two edits of it (a letter wrong, missing, extra or swapped
    with the next), ranked by difflib's ratio: a cost of O(len(name)), whatever the size of
    the pool.  Only when fewer than n such names are found, and the pool has at most
    SCAN_LIMIT names, are the others compared too (skipping by length those that cannot
    reach the cutoff), as `difflib.get_close_matches` does.  On typos the near names are the
    ones difflib ranks first.  Answers are memoised, so a name asked again costs nothing.
    """

    def __init__(self, candidates: Iterable[str], *, n: int = 1, cutoff: float = 0.6):
        self.pool = sorted(set(candidates))
        self.n, self.cutoff = n, cutoff
        self._lower: dict[str, list[str]] = {}
        self._near: dict[str, list[str]] = {}
        self._by_length: dict[int, list[str]] = {}
        for c in self.pool:
            self._lower.setdefault(c.lower(), []).append(c)
            self._by_length.setdefault(len(c), []).append(c)
            for variant in _deletions(c):
                self._near.setdefault(variant, []).append(c)
        self._exact = len(self.pool) <= SCAN_LIMIT
        self._memo: dict[str, list[str]] = {}

    def __call__(self, name: str) -> str | None:
        close = self.close(name)
        return ("did you mean " + " or ".join(f"'{c}'" for c in close) + "?") if close else None

    def close(self, name: str) -> list[str]:
        """The closest names, best first: at most n, each at least `cutoff` alike, or one that
        differs only in case."""
        if name in self._memo:
            return self._memo[name]
        if len(self._memo) > 4096:
            self._memo.clear()
        close = self._close(name) or self._lower.get(name.lower(), [])[:self.n]
        self._memo[name] = close
        return close

    def _close(self, name: str) -> list[str]:
        matcher = difflib.SequenceMatcher()
        matcher.set_seq2(name)

        def score(candidate: str, floor: float) -> float | None:  # as get_close_matches does
            matcher.set_seq1(candidate)
            if matcher.real_quick_ratio() >= floor and matcher.quick_ratio() >= floor:
                ratio = matcher.ratio()
                if ratio >= floor:
                    return ratio
            return None

        near = {c for variant in _deletions(name) for c in self._near.get(variant, ())}
        scored = [(r, c) for c in near if (r := score(c, self.cutoff)) is not None]
        if len(scored) < self.n and self._exact:  # too few near names: compare the others as difflib does
            size = len(name)
            for length, names in self._by_length.items():
                if 2 * min(size, length) / (size + length) >= self.cutoff:  # else none of them can reach it
                    scored += [(r, c) for c in names if c not in near and (r := score(c, self.cutoff)) is not None]
        return [c for _, c in heapq.nlargest(self.n, scored)]


def _deletions(word: str) -> set[str]:
    """`word` and every spelling of it with one character left out."""
    return {word, *(word[:i] + word[i + 1:] for i in range(len(word)))}


_SUGGESTERS: dict[tuple[frozenset[str], int, float], Suggester] = {}


def suggester(candidates: Iterable[str], *, n: int = 1, cutoff: float = 0.6) -> Suggester:
    """The Suggester of a pool; the most recent pools' are kept, so asking many times
    against one pool indexes it once."""
    pool = frozenset(candidates)
    key = (pool, n, cutoff)
    found = _SUGGESTERS.get(key)
    if found is None:
        if len(_SUGGESTERS) >= _CACHE_SIZE:
            _SUGGESTERS.pop(next(iter(_SUGGESTERS)))
        found = _SUGGESTERS[key] = Suggester(pool, n=n, cutoff=cutoff)
    return found


def suggest(name: str, candidates: Iterable[str], *, n: int = 1, cutoff: float = 0.6) -> str | None:
    """A 'did you mean' hint for `name`, or None when nothing is close."""
    return suggester(candidates, n=n, cutoff=cutoff)(name)


@functools.lru_cache(maxsize=16)
def _lines(text: str) -> list[str]:
    """The lines of a source, split once however many diagnostics it has (a str keeps its hash)."""
    return text.split("\n")


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


SHOWN_COLUMNS = 120    # of a long source line, a diagnostic shows this much around the caret


def _clipped(line: str, start: int, width: int) -> tuple[str, int, int]:
    """A source line cut to about SHOWN_COLUMNS characters around the span (marked '...' where cut), with the
    span's start and width in the cut line: a minified or generated line does not flood the terminal."""
    if len(line) <= SHOWN_COLUMNS:
        return line, start, width
    width = min(width, SHOWN_COLUMNS - 20)
    left = max(0, min(start - 20, len(line) - SHOWN_COLUMNS))
    right = min(len(line), left + SHOWN_COLUMNS)
    head, tail = ("..." if left else ""), ("..." if right < len(line) else "")
    return head + line[left:right] + tail, start - left + len(head), width


def render(diagnostic: Diagnostic, sources: Mapping[str, str]) -> str:
    """`path:line:col: error: message`, the source line, a caret, a hint; control characters from the
    rulebook (or its file name) are shown as escapes, and the caret stays under the right character."""
    span = diagnostic.span
    out = [visible(f"{span}: {diagnostic.severity}: {diagnostic.message}")]
    text = sources.get(span.path)
    if text is not None and span.line:
        lines = _lines(text)  # the parser counts lines by \n alone
        if 0 < span.line <= len(lines):
            line = lines[span.line - 1].rstrip("\r").expandtabs(1)
            width = 1
            if span.end_line == span.line and span.end_column > span.column:
                width = span.end_column - span.column
            elif span.end_line > span.line:  # a block: underline the rest of its first line
                width = len(line.rstrip()) - span.column + 1
            width = max(1, min(width, len(line) - span.column + 1))
            start = span.column - 1
            line, start, width = _clipped(line, start, width)
            # an escape is several characters wide: measure what is printed
            indent = len(visible(line[:start])) + max(0, start - len(line))
            width = max(1, len(visible(line[start:start + width])))
            gutter = f"{span.line:>5} | "
            out.append(gutter + visible(line))
            out.append(" " * (len(gutter) - 2) + "| " + " " * indent + "^" + "~" * (width - 1))
    if diagnostic.hint:   # a hint of several lines (a derivation) is indented under its first
        first, *more = diagnostic.hint.split("\n")
        out.append(visible(f"hint: {first}"))
        out += [visible(f"      {line}") for line in more]
    return "\n".join(out)


def render_all(diagnostics: Iterable[Diagnostic], sources: Mapping[str, str]) -> str:
    return "\n".join(render(d, sources) for d in sorted(diagnostics, key=Diagnostic.sort_key))


_HEADER = re.compile(r"^(?P<where>.*?): (?P<severity>error|warning|note): (?P<message>.*)$")
_SEVERITY_STYLES = {"error": "bold red", "warning": "bold yellow", "note": "bold cyan"}


def coloured(text: str) -> str:
    """Rendered diagnostics with colour for a terminal (rich's ANSI styles): the place in bold, the severity
    in its colour, the source line's gutter dim, the caret in the severity's colour, `hint:` in green.  The
    text is already `visible`: a rulebook cannot bring styles of its own, and none of it is read as markup."""
    from io import StringIO
    from rich.console import Console
    from rich.text import Text
    out = StringIO()
    console = Console(file=out, force_terminal=True, color_system="standard", highlight=False, width=10**6,
                      soft_wrap=True, emoji=False, markup=False)
    style = "bold red"
    for line in text.split("\n"):
        header = _HEADER.match(line)
        if header:
            style = _SEVERITY_STYLES[header.group("severity")]
            shown = Text.assemble((header.group("where") + ": ", "bold"), (header.group("severity") + ":", style),
                                  " " + header.group("message"))
        elif line.startswith("hint:"):
            shown = Text.assemble(("hint:", "bold green"), line[len("hint:"):])
        elif " | " in line or line.rstrip().endswith(" |"):
            gutter, bar, rest = line.partition("|")
            caret = rest.strip() and set(rest.strip()) <= set("^~")
            shown = Text.assemble((gutter + bar, "dim"), (rest, style if caret else ""))
        else:
            shown = Text(line)
        console.print(shown)
    return out.getvalue().rstrip("\n")


def positions(span: Span) -> tuple[int, int, int, int]:
    """A span's line, column, end line and end column for tools, each from 1: a problem of a whole file (a
    folder where a rulebook should be, a symlink not followed) is at line 1, column 1, and a position with no
    end known ends where it starts (an empty range, the end being exclusive)."""
    line, column = max(span.line, 1), max(span.column, 1) if span.line else 1
    if span.end_line < line or (span.end_line == line and span.end_column < column):
        return line, column, line, column
    return line, column, span.end_line, max(span.end_column, 1)


# The JSON schema's version: a field is added only with a new version; none is ever renamed or removed.
JSON_SCHEMA = 1


def render_json(diagnostics: Iterable[Diagnostic], notes: Iterable[Diagnostic], checked: int) -> str:
    """`{"schema": 1, "checked": N, "errors": N, "warnings": N, "diagnostics": [...], "notes": [...]}`, each
    diagnostic as `{"path", "line", "column", "end_line", "end_column", "severity", "message", "hint"}` (lines
    and columns from 1, a problem of the whole file at its start: `positions`; the end is exclusive; hint null
    when none), in the order the text renderer prints them."""
    def entry(d: Diagnostic) -> dict[str, object]:
        line, column, end_line, end_column = positions(d.span)
        return {"path": d.span.path, "line": line, "column": column, "end_line": end_line,
                "end_column": end_column, "severity": d.severity, "message": d.message, "hint": d.hint}
    shown = sorted(diagnostics, key=Diagnostic.sort_key)
    return json.dumps({"schema": JSON_SCHEMA, "checked": checked,
                       "errors": sum(d.severity == "error" for d in shown),
                       "warnings": sum(d.severity == "warning" for d in shown),
                       "diagnostics": [entry(d) for d in shown],
                       "notes": [entry(d) for d in sorted(notes, key=Diagnostic.sort_key)]},
                      ensure_ascii=True, indent=2) + "\n"


def _workflow(text: str, property: bool = False) -> str:
    """Text in a workflow command: %, CR and LF escaped (and in a property, `:` and `,`)."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if property else text


def render_github(diagnostics: Iterable[Diagnostic]) -> str:
    """One GitHub Actions annotation a diagnostic (`::error file=...,line=...::message`, positions from 1 as
    `positions` gives them), the hint on the lines after the message; a note is a `::notice`."""
    out = []
    for d in sorted(diagnostics, key=Diagnostic.sort_key):
        kind = {"error": "error", "warning": "warning"}.get(d.severity, "notice")
        line, column, end_line, end_column = positions(d.span)
        where = [f"file={_workflow(d.span.path, True)}", f"line={line}", f"col={column}", f"endLine={end_line}",
                 f"endColumn={end_column}"]
        message = visible(d.message) + (f"\nhint: {visible(d.hint)}" if d.hint else "")
        out.append(f"::{kind} {','.join(where)},title=rulesdsl::{_workflow(message)}")
    return "".join(line + "\n" for line in out)
