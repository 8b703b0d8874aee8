"""Text to parse tree, with syntax errors in plain words.

Lark's LALR parser gives the error position and the terminals it expected;
this module turns that into a message a designer can act on: labelled
examples of the common mistakes (the idea of Lark's `match_examples`, keyed
on the LALR state), and human names for the expected terminals otherwise.
"""
from __future__ import annotations

import bisect
import hashlib
import io
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

import lark
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from rulesdsl import cache
from rulesdsl.errors import Diagnostic, RulesError, Span
from rulesdsl.language.source import Source

_EMPTY_HINT = 'a rulebook starts with a header, like: game my-title "My Title" version "1.0" extends scs-1.8'

TABLES = "tables"       # the cache's kind (rulesdsl/cache.py) for Lark's analysed LALR tables
_GRAMMAR = Path(__file__).with_name("grammar.lark")
# two start symbols: a rulebook, and a situation by itself (`rulesdsl explain`)
_OPTIONS: dict[str, Any] = {"parser": "lalr", "propagate_positions": True, "start": ["start", "situation"]}


def _tables_key(grammar: str) -> str:
    """What the tables are made from: the grammar, the options, Lark's version and Python's."""
    made_of = f"{grammar}\0{sorted(_OPTIONS.items())!r}\0lark {lark.__version__}\0{sys.version}"
    return hashlib.sha256(made_of.encode("utf-8")).hexdigest()


def _lark() -> Lark:
    """The parser, its LALR tables read back from the user's cache when this grammar was analysed before
    (an entry of the cache like any other: read only from folders and files no other user could have written,
    and loaded only when its SHA-256 and size match; never Lark's own cache file, which is neither checked),
    else analysed and kept.  Tables that do not load are analysed again."""
    grammar = _GRAMMAR.read_text(encoding="utf-8")
    key = _tables_key(grammar)
    hit = cache.read(TABLES, key)
    if hit is not None and hit[1] is not None:
        try:
            loaded = Lark.load(io.BytesIO(hit[1]))
        except Exception:   # noqa: BLE001 - whatever tables of another build raise: analyse again
            loaded = None
        if isinstance(loaded, Lark):
            return loaded
    made = Lark(grammar, **_OPTIONS)
    tables = io.BytesIO()
    made.save(tables)
    cache.write(TABLES, key, {}, tables.getvalue())
    return made


_LARK = _lark()

_TERMINAL_NAMES = {
    "NAME": "a name (lower case, like woods or zoc.entry_cost)",
    "RULE_ID": "a rule number (like 6.0c)",
    "STRING": 'a quoted string ("...")',
    "NUMBER": "a number (like 2, 1/2 or +1)",
    "WORD": "a value (like yes or A1)",
    "MULTIPLIER": "a combat multiplier (like Dx2 or Ax1/2)",
    "DICE": "dice (1d6, 2d6 or d66)",
    "ODDS": "an odds column (like 3:1)",
    "DIFFERENCE_COLUMN": "a difference column (like +2, -6..-5 or +12..)",
    "ROLL": "a dice roll (like 7 or 2-3)",
    "GAME_TURNS": "game turns (like 3, 5-8 or 11+)",
    "CELL": "a result cell (like D1r2 or -)",
    "SIDE": "a side (attacker, defender or both)",
    "LOSSES_CHOOSER": "who picks (rules, owner or enemy)",
    "ATTACKING": "'attacking'",
    "DEFENDING": "'defending'",
    "COST_HOW": "min, max or times",
    "COST_ROUND": "'rounded down'",
    "CODE_VERB": "what the side does (loses, retreats or advances)",
    "CODE_ALL": "'all'",
    "CODE_FLAG": "exchange, breakthrough, no effect or not allowed",
    "PARAM_KIND": "what the parameter takes (quantity, modifier, count, number, flag, result, choice or order)",
    "REASON": "why no engine function reads it (table-talk, components or intent)",
    "DRM": "a die roll modifier (like -1 or +2)",
    "SHIFT": "a column shift (like 1L or 2R)",
    "ACROSS": "all-across or any-across",
    "FACTOR_ROLE": "attack or defense",
    "RESULT_FIELD": "attacker-steps, attacker-retreat, defender-steps or defender-retreat",
    "SPOT": "a hex number (like 23.15 or A10.10)",
    "HEXSIDE_SPOT": "a hexside (like 23.16/24.16)",
    "COUNTER": "a counter's attack-defense-movement (like 3-2-9)",
    "NO_ATTACK": "no-attack-strength",
    "FOR_EXAMPLES": "'for examples' (a series' chart only its examples read)",
    "BELOW": "'below' (below the table)",
    "ABOVE": "'above' (above the table)",
    "RETREATING": "attacker or defender, before 'retreats'",
    "_NL": "end of line",
    "$END": "end of file",
}

# Labelled bad inputs: a parser error in the same state gets the same message.
_HEADER = 'series demo "Demo" version "1"\n'
_EXAMPLES: dict[str, list[str]] = {
    "a rulebook starts with its header, like: series scs-1.8 \"Standard Combat Series\" version \"1.8\"": [
        'rule 1.0 "x" {\n}\n',
        'rule G1.0 "x" {\n}\n',
        'section rounding "x" {\n}\n',
        "sequence of play {\n}\n",
        '"x"\n',
    ],
    "expected '=' between the parameter name and its value": [
        _HEADER + 'rule 1.0 "x" {\n  a.b 2 MP\n}\n',
        _HEADER + 'rule 1.0 "x" {\n  a.b yes\n}\n',
        _HEADER + 'rule 1.0 "x" {\n  a.b\n}\n',
    ],
    "expected a value after '=' (like 2 MP, +1 MP, yes, A1)": [
        _HEADER + 'rule 1.0 "x" {\n  a.b =\n}\n',
    ],
    "expected a rule number (like 6.0c) after 'rule'": [
        _HEADER + 'rule "x" {\n}\n',
        _HEADER + "rule {\n}\n",
    ],
    "expected '{' to open the block, at the end of this line": [
        _HEADER + 'rule 1.0 "x"\n',
        _HEADER + "sequence of play\n",
        _HEADER + 'terrain effects chart "x"\n',
    ],
    "a terrain row is: name, movement cost (1, 1/2, +1, 2 stop, P, ot, road-like, negates X; a road's 1 lower "
    "or 1, forest 2), "
    "combat effect (ne, P, ot, or shifts, DRMs and multipliers like 1L -1 Dx2, then all-across on a hexside)": [
        _HEADER + "terrain effects chart {\n  hex:\n  open\n}\n",
        _HEADER + "terrain effects chart {\n  hex:\n  open 1\n}\n",
        _HEADER + "terrain effects chart {\n  hex:\n  open x2 ne\n}\n",
        _HEADER + "terrain effects chart {\n  hex:\n  open 1 x2\n}\n",
        _HEADER + "terrain effects chart {\n  hex:\n  open 1 ne ne\n}\n",
        _HEADER + "terrain effects chart {\n  hexside:\n  river +1 1L all-acros\n}\n",
        _HEADER + "terrain effects chart {\n  hexside:\n  river +1 1L all-across 1L\n}\n",
        _HEADER + "terrain effects chart {\n  hexside:\n  river +1 all-across\n}\n",
        _HEADER + "terrain effects chart {\n  hex:\n  woods 2 +0\n}\n",
    ],
    "a combat results table starts with its odds row, like: odds 1:2 1:1 2:1": [
        _HEADER + "combat results table dice 2d6 {\n  2 A1\n}\n",
    ],
    "expected the dice after the table's title, like: dice 2d6": [
        _HEADER + "combat results table {\n",
        _HEADER + 'combat results table "x" {\n',
    ],
    "a dice row needs at least one result cell after its roll": [
        _HEADER + "combat results table dice 2d6 {\n  odds 1:1\n  2\n}\n",
    ],
}


_StateKey = tuple[object, "str | None"]


def _state_key(exc: UnexpectedInput) -> _StateKey:
    state = getattr(exc, "state", None)
    position = getattr(state, "position", None)
    token = getattr(exc, "token", None)
    return position, getattr(token, "type", None)


def _index_examples() -> dict[_StateKey, str]:
    """LALR state (and offending token type) -> label, from the labelled examples.

    Lark's own `match_examples` also compares the parser's stack depth, so an
    example written at top level would not label the same mistake inside a
    deeper block; the state alone says what the parser was expecting."""
    index: dict[_StateKey, str] = {}
    for label, examples in _EXAMPLES.items():
        for example in examples:
            try:
                _LARK.parse(example, start="start")
            except UnexpectedInput as exc:
                position, token_type = _state_key(exc)
                if position is not None:
                    index.setdefault((position, token_type), label)
                    index.setdefault((position, None), label)
            else:
                raise AssertionError(f"syntax example parses: {example!r}")
    return index


def _label(exc: UnexpectedInput) -> str | None:
    position, token_type = _state_key(exc)
    if position is None:
        return None
    labels = _labels()
    return labels.get((position, token_type)) or labels.get((position, None))


def _terminal_name(name: str) -> str:
    if name in _TERMINAL_NAMES:
        return _TERMINAL_NAMES[name]
    try:
        pattern = _LARK.get_terminal(name).pattern
    except KeyError:
        return name
    if pattern.type == "str":
        return f"'{pattern.value}'"
    return name.lower()


def _expected(names: Iterable[str]) -> str:
    shown = sorted({_terminal_name(n) for n in names if n != "COMMENT"})
    if not shown:
        return "something else"
    if len(shown) == 1:
        return shown[0]
    return "one of " + ", ".join(shown[:-1]) + " or " + shown[-1]


def _found(token: Token) -> str:
    if token.type == "$END":
        return "end of file"
    if token.type == "_NL":
        return "end of line"
    text = str(token)
    return f"'{text}'" if len(text) <= _SHOWN_TOKEN else f"'{text[:_SHOWN_TOKEN]}...' ({len(text):,} characters)"


_SHOWN_TOKEN = 60    # a longer token is cut in the message: the caret under the source line shows where it is


def _open_brace(text: str) -> tuple[int, int] | None:
    """Line and column of the last '{' left unclosed, skipping strings and comments."""
    stack: list[tuple[int, int]] = []
    line, col, i = 1, 1, 0
    in_string = False
    while i < len(text):
        ch = text[i]
        if in_string:
            if ch == "\\":
                i += 1
                col += 1
            elif ch in '"\n':
                in_string = False
        elif ch == "#":
            while i + 1 < len(text) and text[i + 1] != "\n":
                i += 1
        elif ch == '"':
            in_string = True
        elif ch == "{":
            stack.append((line, col))
        elif ch == "}" and stack:
            stack.pop()
        if ch == "\n":
            line, col = line + 1, 1
        else:
            col += 1
        i += 1
    return stack[-1] if stack else None


def _diagnose(exc: UnexpectedInput, source: Source, start: str = "start") -> Diagnostic:
    """What a syntax error says, and where: a bad character, an end of file too soon, or a token the
    parser did not expect (`start` is the rule the text was parsed from: a whole rulebook's own messages
    only where it is one)."""
    if isinstance(exc, UnexpectedCharacters):
        return _bad_character(exc, source)
    token = exc.token if isinstance(exc, UnexpectedToken) else None
    expected: set[str] = set(getattr(exc, "expected", ()))
    if isinstance(exc, UnexpectedEOF) or (token is not None and token.type == "$END"):
        return _early_end(source, expected)
    assert token is not None
    span = _token_span(token, source.path, getattr(exc, "line", 0) or 0, getattr(exc, "column", 0) or 0)
    if start == "start":
        found = _rulebook_misplaced(source.text, token, expected, span)
        if found is not None:
            return found
    return _unexpected_token(exc, token, expected, span)


def _bad_character(exc: UnexpectedCharacters, source: Source) -> Diagnostic:
    """A character no token starts with: an unterminated string when it is a quote."""
    text = source.text
    line, column = getattr(exc, "line", 0) or 0, getattr(exc, "column", 0) or 0
    ch = text[exc.pos_in_stream or 0]
    if ch == '"':
        rest = text[exc.pos_in_stream:].split("\n", 1)[0]
        return Diagnostic("unterminated string", Span(source.path, line, column, line, column + len(rest)),
                          hint='close the string with " on the same line')
    shown = f"'{ch}'" if ch.isprintable() else f"U+{ord(ch):04X}"
    return Diagnostic(f"unexpected character {shown}; expected {_expected(exc.allowed or ())}",
                      Span(source.path, line, column, line, column + 1))


def _early_end(source: Source, expected: set[str]) -> Diagnostic:
    """The text ended before the parser was done: a block left open, an empty rulebook, or at the end of
    its last line, what the parser still expected."""
    text = source.text
    brace = _open_brace(text)
    if brace:
        return Diagnostic("unterminated block: this '{' is never closed",
                          Span(source.path, brace[0], brace[1], brace[0], brace[1] + 1),
                          hint="add the closing '}' at the end of the block")
    if not text.strip() or all(l.strip().startswith("#") or not l.strip() for l in text.split("\n")):
        return Diagnostic("empty rulebook", Span(source.path, 1, 1, 1, 1),
                          hint=_EMPTY_HINT)
    lines = text.split("\n")
    if len(lines) > 1 and not lines[-1]:
        lines.pop()  # the line the final newline ends
    line, column = len(lines), len(lines[-1]) + 1
    return Diagnostic(f"unexpected end of file; expected {_expected(expected)}",
                      Span(source.path, line, column, line, column))


def _token_span(token: Token, path: str, line: int, column: int) -> Span:
    """Where an unexpected token is: the token on its line (its first character when it runs over lines),
    or for an end of line, the end of the line the statement was cut short on."""
    if token.type == "_NL":
        assert token.line is not None and token.column is not None   # the lexer places every token it makes
        return Span(path, token.line, token.column, token.line, token.column + 1)
    end = token.end_column or column + 1
    if token.end_line != token.line:
        end = column + 1
    return Span(path, line, column, line, end)


def _rulebook_misplaced(text: str, token: Token, expected: set[str], span: Span) -> Diagnostic | None:
    """A whole rulebook's own messages on an unexpected token: a header that is no `series` or `game` one,
    a word after the header on its line, or something other than a statement where one starts; None when
    the token is none of these."""
    line = span.line
    header_line = _header_line(text.split("\n"))
    first_word = text.split("\n")[header_line - 1].split()[0] if header_line else ""
    if line == header_line and first_word not in ("series", "game"):
        return Diagnostic(next(iter(_EXAMPLES)), Span(span.path, line, 1, line, 1 + len(first_word)),
                          hint=f"found '{first_word}'")
    if line == header_line and token.type != "_NL" and expected and expected <= _HEADER_FIELDS:
        return _after_header(text.split("\n")[line - 1], span.column, _found(token), span)
    if _TOP_LEVEL <= expected:
        return Diagnostic(f"unexpected {_found(token)}; expected a block or statement of the rulebook here, like "
                          'rule 6.0 "Title" {', span, hint=_TOP_LEVEL_HINT)
    return None


def _unexpected_token(exc: UnexpectedInput, token: Token, expected: set[str], span: Span) -> Diagnostic:
    """An unexpected token anywhere: a name not in lower case, a missing '=', what the labelled examples
    of the parser's state say, or the tokens it expected."""
    if "NAME" in expected and token.type == "WORD" and re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*(?:[.\-][A-Za-z0-9_]+)*", str(token)) \
            and str(token) != str(token).lower():
        return Diagnostic("names are written in lower case", span, hint=f"write '{str(token).lower()}'")
    if expected == {"EQUAL"}:
        return Diagnostic("expected '=' between the parameter name and its value", span,
                          hint=f"found {_found(token)}")
    label = _label(exc)
    if label:
        return Diagnostic(label, span, hint=f"found {_found(token)}")
    if token.type == "_NL" and "RBRACE" in expected:
        return Diagnostic(f"unexpected end of line; expected {_expected(expected)}", span)
    return Diagnostic(f"unexpected {_found(token)}; expected {_expected(expected)}", span)


# after the header's id and title: its version and what it extends, then the end of its line
_HEADER_FIELDS = {"VERSION", "EXTENDS", "_NL"}
# what the parser expects where a statement of the rulebook starts (a few of its keywords: the state says it)
_TOP_LEVEL = {"RULE", "SECTION", "SEQUENCE", "TERRAIN", "CARD", "EXAMPLE"}
_TOP_LEVEL_HINT = ("each statement starts a line: a rule or a section, the sequence of play, a terrain effects "
                   "chart, a combat results table, result codes, result adjustments, column shifts, die roll "
                   "modifiers, strength factors, a table, unit types, parameters, labels, a card, a worked "
                   "example, a rounding rule, or combat situations or amounts; 'override' or 'amend' before one "
                   "replaces or changes its series' (the reference lists them all)")
_TITLE = re.compile(r'^\s*\S+\s+\S+\s+"(?:[^"\\\n]|\\.)*"')


def _after_header(header: str, column: int, found: str, span: Span) -> Diagnostic:
    """A word on the header's line that is no part of a header: say what the header still may hold (its
    version, what it extends) and that the rulebook's statements start on the lines below."""
    title = _TITLE.match(header)
    fields = header[title.end() if title else 0:column - 1].split()
    wanted = [what for what, word in (('its version, like version "1.0"', "version"),
                                      ("'extends' and the id of the rulebook it extends", "extends"))
              if word not in fields]
    hint = ('a header is alone on its line, like: game my-title "My Title" version "1.0" extends scs-1.8; the '
            "rules, charts and other blocks start on the lines below it")
    if "version" not in fields:
        return Diagnostic(f"unexpected {found} in the header; expected {' or '.join(wanted)}", span, hint=hint)
    if wanted:
        return Diagnostic(f"unexpected {found} after the header; expected {wanted[0]}, or the end of the line",
                          span, hint=hint)
    return Diagnostic(f"unexpected {found} after the header, which ends its line", span, hint=hint)


_LABELS: dict[_StateKey, str] = {}


def _labels() -> dict[_StateKey, str]:
    """The labelled examples by LALR state, indexed the first time a syntax error needs them (indexing
    parses every example: a run without a syntax error never pays for it)."""
    if not _LABELS:
        _LABELS.update(_index_examples())
    return _LABELS


MAX_SYNTAX_ERRORS = 20     # at one more the parser stops, and the file gets no model: no other check
# mistakes in the shape of a block: what follows them cannot be read correctly
_STRUCTURAL = {label for label in _EXAMPLES if "header" in label or "'{'" in label or "odds row" in label
               or "the dice" in label}
# a block's first line without its '{': where the block ends is unknown, so recovery stops there
_NO_OPEN_BRACE = next(label for label in _EXAMPLES if "'{'" in label)
_QUOTED = re.compile(r"'([^'\s]+)'")
# what text names: the words between spaces and punctuation, strings (closed ones) and comments left out
_WORDS = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|([^\s"#{}\[\](),=:]+)')
# braces outside strings and comments (a string ends at the end of its line, as the lexer reads it)
_BRACES = re.compile(r'"(?:[^"\\\n]|\\.)*"?|#[^\n]*|([{}])')


@dataclass(frozen=True)
class Recovery:
    """What recovery from syntax errors left out of a file's tree (`path`, `text`): `dropped`, the (first,
    last) lines of each region left out (a broken line, or the whole top-level statement when the broken line
    opens or closes a block); `statements`, the (first, last) lines of each top-level statement that lost a
    line and is otherwise kept; `whole`, whether a top-level statement was left out entirely; `words`, the
    words of the dropped text (outside strings and comments); `names`, what the statements that lost text
    name (the names, rule numbers and words of their kept lines, and the dropped words that are no keyword);
    `header_line`, the header's line."""
    path: str
    text: str
    dropped: tuple[tuple[int, int], ...]
    statements: tuple[tuple[int, int], ...]
    whole: bool
    words: frozenset[str]
    names: frozenset[str]
    header_line: int
    starts: tuple[int, ...]     # where each line of the text starts

    def consequence(self, diagnostic: Diagnostic) -> bool:
        """Whether a problem found in what did parse (checking and resolving this rulebook) may come of the
        text left out, so is not reported: it is positioned in another rulebook (one this one extends, read
        with what is left of this one: that rulebook reports its own problems itself), or in a statement
        that lost a line (what is said of a block, its rows counted, ordered or headed, is said of what is
        left of it), or on the header line once a whole top-level statement is gone (what the rulebook as a
        whole lacks); or its message quotes a word of the dropped text or of a statement that lost text (an
        unknown terrain whose row did not parse), or its line names something such a statement names (a
        terrain whose heading did not parse, used in an example)."""
        if diagnostic.span.path != self.path:
            return True
        line = diagnostic.span.line
        if any(first <= line <= last for first, last in self.statements):
            return True
        if self.whole and line <= self.header_line:
            return True
        if any(term in self.words or term in self.names or any(part in self.words for part in term.split("."))
               for term in _QUOTED.findall(diagnostic.message)):
            return True
        if not 0 < line <= len(self.starts):
            return False
        end = self.starts[line] - 1 if line < len(self.starts) else len(self.text)
        return not self.names.isdisjoint(w for w in _words(self.text[self.starts[line - 1]:end])
                                         if not _PARAMETER.fullmatch(w))


# a parameter's name (zoc.range): declared by a series' vocabulary, never by the statement that lost a line,
# so another line that sets or reads it is not suspect for sharing it (a dropped declaration's cascade,
# "unknown parameter 'x.y'", quotes the name and is caught by the message rule)
_PARAMETER = re.compile(r"[a-z][a-z0-9_\-]*(?:\.[a-z0-9_\-]+)+")


def _words(text: str) -> set[str]:
    """The words of a text that hold a letter (no number: 2 and 1/2 name nothing), strings and comments
    left out."""
    return {w for m in _WORDS.finditer(text) if (w := m.group(1)) and any(c.isalpha() for c in w)}


# the tokens that name something: a terrain, a parameter, a phase, a rule
_NAMING = {"NAME", "WORD", "RULE_ID"}


def _keywords() -> frozenset[str]:
    return frozenset(t.pattern.value for t in _LARK.terminals
                     if t.pattern.type == "str" and re.fullmatch(r"[a-z][a-z\-]*", t.pattern.value))


class _Layout:
    """A text's lines and its blocks, as braces outside strings and comments nest them: what recovery
    reads to know how much to drop.  A '}' with no '{' open is none (the parser reports it)."""

    def __init__(self, text: str):
        self.text = text
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]
        lines = len(self.starts)
        self.braced: set[int] = set()
        events: list[tuple[int, str]] = []
        for match in _BRACES.finditer(text):
            if match.group(1):
                line = bisect.bisect_right(self.starts, match.start())
                events.append((line, match.group(1)))
                self.braced.add(line)
        # depth[n]: how many blocks are open where line n starts (n = lines + 1: at the end of the text)
        self.depth = [0] * (lines + 2)
        depth, at = 0, 0
        for line in range(1, lines + 2):
            self.depth[line] = depth
            while at < len(events) and events[at][0] == line:
                depth = depth + 1 if events[at][1] == "{" else max(depth - 1, 0)
                at += 1
        self.lines = lines

    def line_text(self, line: int) -> str:
        end = self.starts[line] - 1 if line < self.lines else len(self.text)
        return self.text[self.starts[line - 1]:end]

    def statement_end(self, line: int) -> int | None:
        """The last line of the top-level statement that is open on `line` (or starts there): the first line
        from it after which no block is open; None when a block stays open to the end of the text."""
        for last in range(line, self.lines + 1):
            if self.depth[last + 1] == 0:
                return last
        return None

    def line_end(self, line: int) -> int:
        """Where the line ends: at its newline, or at the end of the text."""
        return self.starts[line] - 1 if line < self.lines else len(self.text)


def parse_tree(source: Source, start: str = "start") -> Tree[Token]:
    """Parse a rulebook's text (or, `start="situation"`, a situation's); raise RulesError with its syntax
    errors, each positioned (every one recovery finds: `parse_recovering`)."""
    tree, problems, _ = parse_recovering(source, start)
    if problems or tree is None:
        raise RulesError(problems, {source.path: source.text})
    return tree


def parse_recovering(source: Source, start: str = "start") -> tuple[Tree[Token] | None, list[Diagnostic],
                                                                     Recovery | None]:
    """Parse a text: its tree and no problem when it has no syntax error.  Otherwise every syntax error,
    each positioned, and, when recovery read to the end, the tree of what parsed and what was left out of it
    (the checks of that tree are reported only when the text left out cannot have caused them:
    `Recovery.consequence`); no tree when recovery had to stop.

    Recovery works at line level, as the language does.  The parser keeps where it stood at the end of each
    line; on an error it goes back to the end of the line before the broken one and reads on from the end of
    the broken line, as if that line were blank.  A broken line that opens or closes a block (or misses the
    odds row or the dice a table starts with) takes with it the whole top-level statement it is in, to the
    line that closes it.  Recovery stops, with no tree, at an error in the header, at the end of the text
    (a block never closed), at a block's first line missing its '{' or a string left open before a brace
    (where a block ends is then unknown), and at a syntax error past MAX_SYNTAX_ERRORS.  A clean text is parsed once, a
    broken one twice: the first parse finds that it is broken, the second recovers, in one pass."""
    if not source.text.strip():
        if start != "start":
            problem = Diagnostic("empty situation", Span(source.path, 1, 1, 1, 1),
                                 hint="give its lines, like: map 1.01 - 5.05 open; unit a x 1-1-4 at 2.02")
        else:
            problem = Diagnostic("empty rulebook", Span(source.path, 1, 1, 1, 1), hint=_EMPTY_HINT)
        return None, [problem], None
    try:
        return _LARK.parse(source.text, start=start), [], None
    except UnexpectedInput:
        return _recover(source, start)


# Where the parser stood before a line end: its state and value stacks, the length of each tree's children
# on the value stack, and the line the next statement starts on.  The lengths are kept because Lark's
# tree builder extends a left-recursive list in place (the children of `(item _NL)*` so far become those
# of the next one): going back cuts them to what they were.
_Point = tuple[list[Any], list[Any], list[tuple[Tree[Token], int]], int]


def _point(state: Any, line: int) -> _Point:
    values = list(state.value_stack)
    return list(state.state_stack), values, [(v, len(v.children)) for v in values if isinstance(v, Tree)], line


def _go_back(state: Any, point: _Point) -> None:
    state.state_stack[:], state.value_stack[:] = point[0], point[1]
    for tree, length in point[2]:
        del tree.children[length:]


def _recover(source: Source, start: str) -> tuple[Tree[Token] | None, list[Diagnostic], Recovery | None]:
    text = source.text
    layout = _Layout(text)
    header_line = _header_line(text.split("\n")) if start == "start" else 0
    interactive = _LARK.parse_interactive(text, start=start)
    state = interactive.parser_state
    lexer: Any = interactive.lexer_thread     # its lex() is untyped
    counter = lexer.state.line_ctr           # where the lexer reads: recovery moves it past what it drops
    problems: list[Diagnostic] = []
    dropped: list[tuple[int, int]] = []
    statements: list[tuple[int, int]] = []
    line_point: _Point | None = None        # before the last line end read
    top_point: _Point | None = None         # before the last line end after which a top-level statement starts
    while True:
        token: Token | None = None
        try:
            for token in lexer.lex(state):
                if token.type == "_NL":
                    before = _point(state, int(token.end_line or token.line or 0))
                    state.feed_token(token)
                    line_point = before
                    if layout.depth[before[3]] == 0:
                        top_point = before
                else:
                    state.feed_token(token)
            end = Token.new_borrow_pos("$END", "", token) if token is not None else Token("$END", "", 0, 1, 1)
            tree: Tree[Token] = state.feed_token(end, True)
        except UnexpectedInput as exc:
            if len(problems) >= MAX_SYNTAX_ERRORS:
                return None, problems, None     # one more: the text is too broken to say what else is wrong
            problem = _diagnose(exc, source, start)
            if problem not in problems:
                problems.append(problem)
            found = _set_aside(exc, problem, layout, header_line, line_point, top_point)
            if found is None:
                return None, problems, None
            point, first, last = found
            _go_back(state, point)
            dropped.append((first, last))
            if layout.depth[first] > 0 and top_point is not None:    # a line of a block: the rest is kept
                statement = (top_point[3], layout.statement_end(top_point[3]) or last)
                if statement not in statements:
                    statements.append(statement)
            _move(counter, layout, layout.line_end(last))
            continue
        if not problems:
            return tree, [], None
        words = frozenset(w for first, last in dropped for line in range(first, last + 1)
                          for w in _words(layout.line_text(line)))
        whole = [span for span in dropped if layout.depth[span[0]] == 0]
        kept = tuple(s for s in statements if not any(w[0] <= s[0] and s[1] <= w[1] for w in whole))
        names = set(words - _keywords())
        if kept:
            for value in tree.scan_values(lambda v: isinstance(v, Token) and v.type in _NAMING):
                if any(first <= (value.line or 0) <= last for first, last in kept):
                    names.add(str(value))
        return tree, problems, Recovery(source.path, text, tuple(dropped), kept, bool(whole), words,
                                        frozenset(names), header_line, tuple(layout.starts))


def _set_aside(exc: UnexpectedInput, problem: Diagnostic, layout: _Layout, header_line: int,
               line_point: _Point | None, top_point: _Point | None) -> tuple[_Point, int, int] | None:
    """Where to go back to, and the first and last lines to leave out, after a syntax error; None to stop."""
    token = getattr(exc, "token", None)
    if isinstance(exc, UnexpectedEOF) or (token is not None and token.type == "$END"):
        return None
    line = token.line if isinstance(exc, UnexpectedToken) and token is not None else getattr(exc, "line", 0)
    if not isinstance(line, int) or not 0 < line <= layout.lines or line <= header_line:
        return None
    if problem.message == _NO_OPEN_BRACE:
        return None
    if problem.message == "unterminated string":
        rest = layout.line_text(line)[problem.span.column - 1:]
        if "{" in rest or "}" in rest:
            return None
    if line not in layout.braced and problem.message not in _STRUCTURAL:
        return (line_point, min(line_point[3], line), line) if line_point is not None else None
    if top_point is None:
        return None
    last = layout.statement_end(max(top_point[3], line))
    return (top_point, top_point[3], last) if last is not None else None


def _move(counter: Any, layout: _Layout, position: int) -> None:
    """Set the lexer's line counter to `position` of the text (where it reads on from)."""
    line = bisect.bisect_right(layout.starts, position)
    counter.char_pos = position
    counter.line = line
    counter.line_start_pos = layout.starts[line - 1]
    counter.column = position - counter.line_start_pos + 1


def _header_line(lines: list[str]) -> int:
    return next((i for i, l in enumerate(lines, 1) if l.strip() and not l.strip().startswith("#")), 0)
