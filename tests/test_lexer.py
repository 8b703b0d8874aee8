"""The Pygments lexer (`pygmentize -l rulesdsl`): every shipped rulebook, every example of the language
reference and every broken rulebook of the error corpus lex whole, with no error token and nothing lost,
and each kind of token is what the grammar says it is."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Comment, Error, Keyword, Name, Number, String, Text

from conftest import ROOT
from rulesdsl.editor.lexer import KEYWORDS, RulesdslLexer

SHIPPED = sorted((ROOT / "rulebooks").rglob("*.rules"))
CORPUS = sorted((ROOT / "tests" / "errors").glob("*.rules"))


def _reference_examples() -> list[str]:
    """The reference's examples, a `\\r` at a line's end read as the CR it shows (the CR-only file's)."""
    text = (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")
    return [re.sub(r"\\r$", "\r", example, flags=re.M) for example in re.findall(r"```rules\n(.*?)```", text, re.S)]


def _tokens(text: str) -> list[tuple[object, str]]:
    return [(kind, value) for _, kind, value in RulesdslLexer().get_tokens_unprocessed(text)]


@pytest.mark.parametrize("path", SHIPPED + CORPUS, ids=lambda p: p.name)
def test_every_rulebook_lexes_whole_with_no_error_token(path: Path):
    text = path.read_bytes().decode("utf-8", errors="replace")
    tokens = _tokens(text)
    assert "".join(value for _, value in tokens) == text
    assert [v for kind, v in tokens if kind is Error] == []


def test_every_example_of_the_reference_lexes_with_no_error_token():
    examples = _reference_examples()
    assert len(examples) > 20
    for example in examples:
        assert [v for kind, v in _tokens(example) if kind is Error] == [], example


def test_only_what_a_table_cell_alone_may_hold_falls_to_the_last_rule():
    """The grammar's CELL takes any run of characters; in the shipped rulebooks only the platoon's size
    symbol needs it: everything else has a token of its own."""
    left = {v for path in SHIPPED for kind, v in _tokens(path.read_text(encoding="utf-8")) if kind is Text}
    assert left == {"•••"}


def test_each_kind_of_token_is_what_the_grammar_says():
    tokens = _tokens('# a comment\nrule 6.0c "Target hexes" {\n  overrun.max_target_cost = 2 MP\n}\n'
                     'terrain effects chart [3.2] for examples {\n  hex:\n    woods  2  Dx2 1L\n}\n'
                     'example "E" {\n  hexside 9.08/10.08 river\n  unit 5 allies 7-8-9 at 11.06\n'
                     '  expect combat 5 on 10.08 odds 3:1 roll 7 result A1(1)*\n}\n')
    kinds = {value: kind for kind, value in tokens}
    assert kinds["# a comment"] in Comment and kinds['"'] in String and kinds["Target hexes"] in String
    assert kinds["rule"] in Keyword.Declaration and kinds["terrain"] in Keyword and kinds["expect"] in Keyword
    assert kinds["for examples"] in Keyword
    assert kinds["6.0c"] in Number and kinds["3:1"] in Number and kinds["7-8-9"] in Number
    assert kinds["9.08/10.08"] in Name.Label and kinds["11.06"] in Name.Label
    assert kinds["overrun.max_target_cost"] is Name and kinds["woods"] is Name
    assert kinds["Dx2"] in Name.Constant and kinds["1L"] in Name.Constant and kinds["A1(1)*"] in Name.Constant


def test_the_keywords_are_read_off_the_grammar():
    grammar = (ROOT / "rulesdsl" / "language" / "grammar.lark").read_text(encoding="utf-8")
    assert set(re.findall(r'"([a-z][a-z\-]*[a-z])"', grammar)) <= set(KEYWORDS)
    assert {"unready-above", "with", "must-enter", "terrain"} <= set(KEYWORDS)
    # a name that merely begins with a keyword stays a name
    assert ("with_x" in {v for kind, v in _tokens("a = with_x") if kind is Name})


def test_pygments_finds_the_lexer_by_name_and_by_file_name():
    assert isinstance(get_lexer_by_name("rulesdsl"), RulesdslLexer)
    assert isinstance(get_lexer_for_filename("bocage.rules"), RulesdslLexer)


def test_pygmentize_highlights_a_rulebook(tmp_path):
    command = shutil.which("pygmentize") or None
    args = [command] if command else [sys.executable, "-m", "pygments"]
    run = subprocess.run([*args, "-l", "rulesdsl", "-f", "html", str(ROOT / "rulebooks" / "games" / "bocage.rules")],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert '<span class="k">terrain</span>' in run.stdout and 'class="err"' not in run.stdout


def _characters(pattern: str) -> set[str]:
    """Every character a regex can match anywhere (its literals and classes, read from the parsed pattern)."""
    import re._parser as sre   # the parse tree of a pattern: the only way to read its classes
    found: set[str] = set()

    def walk(items) -> None:
        for op, arg in items:
            name = str(op)
            if name == "LITERAL":
                found.add(chr(arg))
            elif name == "IN":
                for kind, value in arg:
                    if str(kind) == "LITERAL":
                        found.add(chr(value))
                    elif str(kind) == "RANGE":
                        found.update(chr(c) for c in range(value[0], value[1] + 1))
                    else:
                        raise AssertionError((kind, value))
            elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
                walk(arg[2])
            elif name == "SUBPATTERN":
                walk(arg[-1])
            elif name == "BRANCH":
                for branch in arg[1]:
                    walk(branch)
            elif name in ("ASSERT", "ASSERT_NOT"):
                pass                # a lookahead holds no character of the token
            elif name != "AT":
                raise AssertionError((op, arg))
    walk(sre.parse(pattern))
    return found


def test_the_characters_outside_table_cells_are_read_off_the_grammar():
    from lark import Lark
    from rulesdsl.editor.lexer import OUTSIDE_CELLS
    grammar = (ROOT / "rulesdsl" / "language" / "grammar.lark").read_text(encoding="utf-8")
    held: set[str] = set()
    for terminal in Lark(grammar, parser="lalr", lexer="contextual").terminals:
        if terminal.name in ("CELL", "STRING", "COMMENT", "_SPACE", "_NL") or terminal.name.startswith("__"):
            continue
        held |= _characters(terminal.pattern.to_regexp())
    # FOR_EXAMPLES and CODE_FLAG ("no effect") hold blanks: blanks are the whitespace rule's
    assert {c for c in held if not c.isspace()} == set(OUTSIDE_CELLS)


def test_a_run_only_a_table_cell_may_hold_is_an_error_outside_a_table_and_a_cell_inside_one():
    text = ('@@ $$ •••\nrule 1.0 { a = 2 MP }\ntable size "S" {\n  symbol  •••  I\n}\nresult codes {\n  @x  exchange\n}\n'
            'example "E" {\n  expect combat 5 on 10.08 result •x\n  unit 5 a 1-1-1 at 1.01 ¤\n}\n')
    tokens = _tokens(text)
    assert "".join(value for _, value in tokens) == text
    assert [v for kind, v in tokens if kind is Error] == ["@@", "$$", "•••", "¤"]
    assert [v for kind, v in tokens if kind is Text] == ["•••", "@x", "•x"]


def test_pygmentize_shows_a_line_of_stray_characters_as_an_error_token():
    pygmentize = shutil.which("pygmentize", path=str(Path(sys.executable).parent))
    assert pygmentize is not None
    out = subprocess.run([pygmentize, "-l", "rulesdsl", "-f", "raw"], input="@@ ~~ ¤\n", capture_output=True,
                         text=True, encoding="utf-8", check=True).stdout
    assert out.splitlines()[:3] == ["Token.Error\t'@@'", "Token.Text.Whitespace\t' '", "Token.Error\t'~~'"]
