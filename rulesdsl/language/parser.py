"""Text to parse tree, with syntax errors in plain words.

Lark's LALR parser gives the error position and the terminals it expected;
this module turns that into a message a designer can act on: labelled
examples of the common mistakes (the idea of Lark's `match_examples`, keyed
on the LALR state), and human names for the expected terminals otherwise.
"""
from __future__ import annotations

import re
from typing import Iterable

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from rulesdsl import cache
from rulesdsl.errors import Diagnostic, RulesError, Span
from rulesdsl.language.source import Source

_EMPTY_HINT = 'a rulebook starts with a header, like: game my-title "My Title" version "1.0" extends scs-1.8'

# two start symbols: a rulebook, and a situation by itself (`rulesdsl explain`)


def _cache_file() -> str | bool:
    """Where Lark keeps the analysed LALR tables: the user's own cache folder (cache.folder; not the shared
    temporary folder, whose files another user could write).  Lark stores a hash of the grammar, the options
    and its version in the file and rebuilds the tables when it does not match, so a changed grammar never
    reads stale tables.  False (no cache) when caching is off, the folder cannot be made, or the file is not a
    regular file."""
    base = cache.folder()
    if base is None:
        return False
    tables = base / "grammar.lark-tables"
    if (tables.exists() or tables.is_symlink()) and not cache.regular(tables):
        return False    # a FIFO or a device there would block Lark's read: no cache, never a hang
    return str(tables)


_LARK = Lark.open("grammar.lark", rel_to=__file__, parser="lalr", propagate_positions=True,
                  start=["start", "situation"], cache=_cache_file())

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
    text = source.text
    line, column = getattr(exc, "line", 0) or 0, getattr(exc, "column", 0) or 0
    if isinstance(exc, UnexpectedCharacters):
        ch = text[exc.pos_in_stream or 0]
        span = Span(source.path, line, column, line, column + 1)
        if ch == '"':
            rest = text[exc.pos_in_stream:].split("\n", 1)[0]
            return Diagnostic("unterminated string", Span(source.path, line, column, line, column + len(rest)),
                              hint='close the string with " on the same line')
        shown = f"'{ch}'" if ch.isprintable() else f"U+{ord(ch):04X}"
        return Diagnostic(f"unexpected character {shown}; expected {_expected(exc.allowed or ())}", span)

    token = exc.token if isinstance(exc, UnexpectedToken) else None
    expected_names: set[str] = set(getattr(exc, "expected", ()))
    at_end = isinstance(exc, UnexpectedEOF) or (token is not None and token.type == "$END")
    if at_end:
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
        return Diagnostic(f"unexpected end of file; expected {_expected(expected_names)}",
                          Span(source.path, line, column, line, column))

    assert token is not None
    if token.type == "_NL":
        # point at the end of the line the statement was cut short on
        line = token.line
        column = token.column
        end = column + 1
    else:
        end = token.end_column or column + 1
        if token.end_line != token.line:
            end = column + 1
    span = Span(source.path, line, column, line, end)
    expected = expected_names
    header_line = _header_line(text.split("\n"))
    first_word = text.split("\n")[header_line - 1].split()[0] if header_line else ""
    if start == "start" and line == header_line and first_word not in ("series", "game"):
        return Diagnostic(next(iter(_EXAMPLES)), Span(source.path, line, 1, line, 1 + len(first_word)),
                          hint=f"found '{first_word}'")
    if start == "start" and line == header_line and token.type != "_NL" and expected and \
            expected <= _HEADER_FIELDS:
        return _after_header(text.split("\n")[line - 1], column, _found(token), span)
    if start == "start" and _TOP_LEVEL <= expected:
        return Diagnostic(f"unexpected {_found(token)}; expected a block or statement of the rulebook here, like "
                          'rule 6.0 "Title" {', span, hint=_TOP_LEVEL_HINT)
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


MAX_SYNTAX_ERRORS = 20
# Recovery parses the whole text again after each syntax error. On a big file each of those parses
# costs as much as a clean one, so recovery stops once it has re-read RECOVERY_PARSES times the
# file (plus RECOVERY_FLOOR characters, so that a file of ordinary size always gets up to
# MAX_SYNTAX_ERRORS): a file full of syntax errors costs a bounded multiple of a clean parse.
RECOVERY_PARSES = 4
RECOVERY_FLOOR = 1024 * 1024
# mistakes in the shape of a block: what follows them cannot be read correctly
_STRUCTURAL = {label for label in _EXAMPLES if "header" in label or "'{'" in label or "odds row" in label
               or "the dice" in label}


def parse_tree(source: Source, start: str = "start") -> Tree[Token]:
    """Parse a rulebook's text; raise RulesError with its syntax errors, each positioned.

    After an error inside a line, the line is set aside (blanked, so positions
    hold) and the parse tried again, to report the next one too; an error on
    a line that opens or closes a block ends the search, since what follows
    would only be the same mistake seen again.
    """
    if not source.text.strip():
        if start != "start":
            raise RulesError([Diagnostic("empty situation", Span(source.path, 1, 1, 1, 1),
                                         hint="give its lines, like: map 1.01 - 5.05 open; unit a x 1-1-4 at 2.02")],
                             {source.path: source.text})
        raise RulesError([Diagnostic("empty rulebook", Span(source.path, 1, 1, 1, 1),
                                     hint=_EMPTY_HINT)],
                         {source.path: source.text})
    problems: list[Diagnostic] = []
    lines = source.text.split("\n")
    budget = RECOVERY_PARSES * len(source.text) + RECOVERY_FLOOR
    while True:
        attempt = Source(source.path, "\n".join(lines))
        try:
            tree = _LARK.parse(attempt.text, start=start)
        except UnexpectedInput as exc:
            diagnostic = _diagnose(exc, attempt, start)
            line = diagnostic.span.line
            code = lines[line - 1] if 0 < line <= len(lines) else ""
            if problems and (code.strip() in ("}", "") or diagnostic in problems):
                break  # only the echo of the mistake before it
            problems.append(diagnostic)
            structural = "{" in code or "}" in code or (start == "start" and line <= _header_line(lines)) \
                or diagnostic.message in _STRUCTURAL or diagnostic.message.startswith(("unterminated", "empty"))
            budget -= len(attempt.text)
            if structural or len(problems) >= MAX_SYNTAX_ERRORS or budget < 0:
                break
            lines[line - 1] = ""
            continue
        if not problems:
            return tree
        break
    raise RulesError(problems, {source.path: source.text})


def _header_line(lines: list[str]) -> int:
    return next((i for i, l in enumerate(lines, 1) if l.strip() and not l.strip().startswith("#")), 0)
