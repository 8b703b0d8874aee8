"""A Pygments lexer for rulebooks, registered as `rulesdsl` (`pygmentize -l rulesdsl x.rules`, and the
`rulesdsl` fence in Markdown renderers that use Pygments).

Its keywords are the grammar's own: every word the grammar writes in quotes or as a keyword terminal is read
from `rulesdsl/language/grammar.lark`, so a keyword added to the language is highlighted without a change
here.  The other tokens follow the grammar's terminals: strings, comments, hexsides (23.16/24.16) and hexes
(23.15), counters (3-2-9), odds (3:1), dice (2d6), numbers and rule numbers, result cells and TEC codes
(D1r2, Dx2, 1L), names (zoc.entry_cost), and, as the grammar's last resort, any other run of characters a
table cell may hold (•••).  Nothing a rulebook can hold lexes as an error: text the grammar cannot read is
the parser's to report, with its position.
"""
from __future__ import annotations

import re
from pathlib import Path

from pygments.lexer import RegexLexer, words
from pygments.token import (Comment, Keyword, Name, Number, Operator, Punctuation, String, Text,
                            Whitespace)

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
_DECLARATIONS = ("series", "game", "rule", "section", "example", "card", "labels", "table", "parameters",
                 "override", "amend", "extends", "version")


class RulesdslLexer(RegexLexer):
    name = "rulesdsl"
    aliases = ["rulesdsl", "rules"]
    filenames = ["*.rules"]
    mimetypes = ["text/x-rulesdsl"]
    url = "https://pypi.org/project/rulesdsl/"

    _word_end = r"(?![A-Za-z0-9_\-.])"
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
