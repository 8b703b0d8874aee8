"""A Pygments lexer for rulebooks, registered as `rulesdsl` (`pygmentize -l rulesdsl x.rules`, and the
`rulesdsl` fence in Markdown renderers that use Pygments).

Its keywords are the grammar's own: every word the grammar writes in quotes or as a keyword terminal is read
from `rulesdsl/language/grammar.lark`, so a keyword added to the language is highlighted without a change
here.  The other tokens follow the grammar's terminals: strings, comments, hexsides (23.16/24.16) and hexes
(23.15), counters (3-2-9), odds (3:1), dice (2d6), numbers and rule numbers, result cells and TEC codes
(D1r2, Dx2, 1L), names (zoc.entry_cost), and, as the grammar's last resort, any other run of characters a
table cell may hold (•••).  A table cell (the grammar's CELL) may hold any character, but it stands only in
the body of a table, a results table and a result codes block, and after `result`; anywhere else a
character no other terminal of the grammar holds (`@`, `$`, `•`, ...) can start no token, and lexes as an
error.  Whatever else the grammar cannot read lexes as what it looks like: that is the parser's to report.
"""
from __future__ import annotations

import re
from pathlib import Path

from collections.abc import Iterable, Iterator

from pygments.lexer import RegexLexer, words
from pygments.token import (Comment, Error, Keyword, Name, Number, Operator, Punctuation, String, Text,
                            Whitespace, _TokenType)

__all__ = ["RulesdslLexer", "KEYWORDS"]

_GRAMMAR = Path(__file__).resolve().parent.parent / "language" / "grammar.lark"


def _keywords() -> tuple[str, ...]:
    """The words the grammar spells out: quoted literals of letters and hyphens (`"terrain"`,
    `"must-enter"`), not the odd single letters of TEC cells (`"P"`)."""
    text = _GRAMMAR.read_text(encoding="utf-8")
    found = set(re.findall(r'"([a-z][a-z\-]*[a-z])"', text))
    found |= {"for examples"}       # FOR_EXAMPLES, a regex terminal
    return tuple(sorted(found, key=lambda w: (-len(w), w)))


KEYWORDS = _keywords()
# the words that open a statement: shown apart from the other keywords
# every character a terminal of the grammar other than CELL, STRING and COMMENT may hold, blanks aside:
# the quoted literals and NAME, RULE_ID, WORD, NUMBER, MULTIPLIER, SHIFT, DRM, DICE, ODDS,
# DIFFERENCE_COLUMN, ROLL, SPOT, HEXSIDE_SPOT, COUNTER, GAME_TURNS, INT, COMPARE, ADD, MUL (tests/test_lexer.py
# reads them off the grammar and holds this to them)
OUTSIDE_CELLS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-/+*:<>=!,(){}[]")
_STRAY = re.compile("[^" + re.escape("".join(sorted(OUTSIDE_CELLS))) + "]+")
# the words before the `{` of a block whose body holds table cells: `table`, `combat results table`,
# `result codes`; and the word a single cell follows (`expect combat ... result A1r2*`)
_CELL_BLOCKS = ("table", "codes")
_CELL_AFTER = "result"
_DECLARATIONS = ("series", "game", "rule", "section", "example", "card", "labels", "table", "parameters",
                 "override", "amend", "extends", "version")


class RulesdslLexer(RegexLexer):
    name = "rulesdsl"
    aliases = ["rulesdsl", "rules"]
    filenames = ["*.rules"]
    mimetypes = ["text/x-rulesdsl"]
    url = "https://pypi.org/project/rulesdsl/"

    _word_end = r"(?![A-Za-z0-9_\-.])"

    def get_tokens_unprocessed(self, text: str, stack: Iterable[str] = ("root",)
                               ) -> Iterator[tuple[int, _TokenType, str]]:
        """The regex rules' tokens, with a run that only a table cell may hold turned into an error where no
        cell may stand: outside the braces of a table's body, and not right after `result`."""
        depth = 0               # braces open
        cells_from = None       # the depth at which the innermost table body opened; None outside one
        pending = False         # a table's header read, its `{` not yet
        after_result = False
        for index, kind, value in super().get_tokens_unprocessed(text, stack):
            if kind is Text and cells_from is None and not after_result:
                at = 0
                for stray in _STRAY.finditer(value):
                    if stray.start() > at:
                        yield index + at, Text, value[at:stray.start()]
                    yield index + stray.start(), Error, stray.group()
                    at = stray.end()
                if at < len(value):
                    yield index + at, Text, value[at:]
            else:
                yield index, kind, value
            if kind is Whitespace:
                pending = pending and "\n" not in value
                after_result = after_result and "\n" not in value
                continue
            keyword = kind[:1] == Keyword       # Keyword itself or Keyword.Declaration
            after_result = keyword and value == _CELL_AFTER
            if keyword and value in _CELL_BLOCKS:
                pending = True
            elif kind is Punctuation and value == "{":
                depth += 1
                if pending and cells_from is None:
                    cells_from = depth
                pending = False
            elif kind is Punctuation and value == "}":
                if cells_from is not None and depth <= cells_from:
                    cells_from = None
                depth = max(depth - 1, 0)

    tokens = {
        "root": [
            (r"[ \t\f\v\r\n\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+", Whitespace),
            (r"#[^\n]*", Comment.Single),
            (r'"', String.Double, "string"),
            (r"[{}\[\]()]", Punctuation),
            (words(_DECLARATIONS, prefix=r"(?<![A-Za-z0-9_\-.])", suffix=_word_end), Keyword.Declaration),
            (r"for[ \t]+examples\b", Keyword),
            (words(tuple(k for k in KEYWORDS if k not in _DECLARATIONS and " " not in k),
                   prefix=r"(?<![A-Za-z0-9_\-.])", suffix=_word_end), Keyword),
            (r"[A-Z]?[0-9]+\.[0-9]+/[A-Z]?[0-9]+\.[0-9]+" + _word_end, Name.Label),       # a hexside
            (r"[0-9]+(?:/[0-9]+)?(?:-[0-9]+(?:/[0-9]+)?){2,}" + _word_end, Number),     # a counter 3-2-9
            (r"[0-9]+(?:\.[0-9]+)?:[0-9]+(?:\.[0-9]+)?" + _word_end, Number),           # odds 3:1
            (r"[0-9]*d[0-9]+" + _word_end, Number),                                     # dice 2d6
            (r"(?:(?:[+\-][0-9]+|0)\.\.(?:[+\-][0-9]+|0)?|\.\.(?:[+\-][0-9]+|0))" + _word_end, Number),  # -6..-5
            (r"[A-Z]?[0-9]+\.[0-9]+" + _word_end, Name.Label),                          # a hex 23.15
            (r"[A-Z][A-Za-z0-9]*(?:\([0-9]+\))?\*?" + _word_end, Name.Constant),        # D1r2, A1(1)*, MP
            (r"[0-9]+[LR]" + _word_end, Name.Constant),                                 # a column shift 1L
            (r"[0-9]+(?:-[0-9]+|[+\-])" + _word_end, Number),                           # a roll 2-3, 13+
            (r"[A-Z]{0,3}[0-9]+(?:\.[0-9]+)*[a-z]?" + _word_end, Number),               # 6.0c, G1.0, 2
            (r"[+\-]?(?:[0-9]+/[0-9]+|[0-9]+(?:\.[0-9]+)?|\.[0-9]+)" + _word_end, Number),
            (r"[a-z_][a-z0-9_]*(?:[.\-][a-z0-9_]+)*" + _word_end, Name),                # zoc.entry_cost
            (r"[A-Z][A-Za-z0-9_\-/*+]*" + _word_end, Name.Constant),                    # Dx2, Ax1/2
            (r"(?:>=|<=|==|!=|[<>=+\-*/:,;])", Operator),
            (r'[^\s#{}\[\]"]+', Text),          # the grammar's CELL: what a table cell may hold (•••)
        ],
        "string": [
            (r'[^"\\\n]+', String.Double),
            (r"\\.", String.Escape),
            (r'"', String.Double, "#pop"),
            (r"\n", String.Double, "#pop"),      # an unterminated string ends with its line, as the parser says
        ],
    }
