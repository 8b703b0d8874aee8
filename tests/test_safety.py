"""No rulebook text can break or inject code into a generated module, and no
input, however broken, makes the compiler raise instead of reporting."""
from __future__ import annotations

import string

import pytest
from conftest import FIXTURES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulesdsl
from rulesdsl.language.source import Source
from rulesdsl.language.transform import parse
from rulesdsl.modules.codegen import doc, py

BASE = (FIXTURES / "base.rules").read_text(encoding="utf-8")


def quoted(text: str) -> str:
    """`text` as a rulebook string literal."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{escaped}"'


def game(title: str, summary: str, note: str) -> str:
    return (f'game demo {quoted(title)} version "1.0" extends base\n\n'
            f'rule G1.0 {quoted(title)} {{\n  summary {quoted(summary)}\n  note {quoted(note)}\n}}\n')


def build(text: str) -> dict:
    compilation = rulesdsl.compile_text(text, "rulebooks/demo.rules", ("rulebooks/base.rules", BASE))
    assert compilation.ok, [d.message for d in compilation.diagnostics]
    source = compilation.outputs["generated/demo.py"]
    namespace: dict = {}
    exec(compile(source, "generated/demo.py", "exec"), namespace)
    return namespace


HOSTILE = [
    'say "hello"', "it's", "'''", '"""', '""""', "\\", "\\n", "end with a backslash\\", "{{ 1 + 1 }}", "{% if x %}",
    "\"\"\"; import os; os.system('echo pwned'); \"\"\"", "'); import os #", "# comment", "\x00", "ünïcødé ⚔",
    "\u2028line separator", "${x}", "<script>alert(1)</script>",
]


def test_hostile_titles_summaries_and_notes_stay_text():
    for text in HOSTILE:
        note = text + "\nsecond line"
        module = build(game(text, text, note))
        rule = module["RULES"]["G1.0"]
        assert (rule.title, rule.summary, rule.notes) == (text, text, (note,)), text
        assert module["RULEBOOK"]["title"] == text
        assert module["__doc__"].startswith(text), text
        assert "pwned" not in str(module.get("os", ""))


def test_a_line_break_in_a_title_is_an_error_not_code():
    compilation = rulesdsl.compile_text(game("one\ntwo", "fine", "fine"), "rulebooks/demo.rules",
                                        ("rulebooks/base.rules", BASE))
    assert [d.message for d in compilation.diagnostics] == ["title must fit on one line"] * 2
    assert compilation.outputs == {}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r"), min_size=1, max_size=30),
       # a carriage return ends a line in a rulebook (CR-only files are read as such): no string holds one
       st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r"), min_size=1, max_size=30))
def test_any_text_round_trips_through_generated_code(line, note):
    module = build(game(line, line, note))
    rule = module["RULES"]["G1.0"]
    assert (rule.title, rule.summary, rule.notes) == (line, line, (note,))


@given(st.text(max_size=40))
def test_literals_and_docstrings_are_safe(text):
    assert eval(py(text)) == text
    assert eval('"""' + doc(text) + ' """') == text + " "


# ---- nothing makes the compiler raise -------------------------------------------
FRAGMENTS = ['game', 'series', 'demo', 'extends', 'base', 'version', '"1.0"', '"x"', 'rule', 'override',
             'section', 'G1.0', '6.0c', '{', '}', '\n', 'summary', 'note', 'see', 'requires', '=', '2', 'MP',
             '+1', '1/2', 'yes', 'A1', ',', 'sequence', 'of', 'play', 'turn', 'player', '[', ']', 'terrain',
             'effects', 'chart', 'hex', 'hexside', 'roads', ':', 'P', 'ot', 'ne', 'Dx2', 'negates', 'combat',
             'results', 'table', 'dice', '2d6', 'odds', '1:1', '3-4', '#', '"', '\\', '1/0', 'stacking.limit',
             'rounding', 'standard', '.50', 'up', 'when', 'count', '(', ')', 'attackers', 'defenders', 'where',
             'of', 'die', 'roll', 'modifiers', 'cap', 'column', 'shifts', 'max', 'per', 'side', 'both', 'define',
             'is', 'and', 'or', 'not', 'unit', 'types', 'states', 'labels', 'fr', 'result', 'adjustments',
             'defender-retreat', 'otherwise', 'sum', 'any', 'all', 'if', 'odds', 'defender_terrain.shift', '4:1',
             '-', '*', '/', '>=', '==', 'notation', 'retreat-first', 'D2(1)*', 'defense', '1-4', 'level', 'line',
             '1L', 'Ax1/2', 'situations', 'amounts', 'before limits', 'across', 'river', 'tank', 'armored']


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=40).map(" ".join))
def test_token_soup_is_reported_not_raised(text):
    compilation = rulesdsl.compile_text(text, "rulebooks/demo.rules", ("rulebooks/base.rules", BASE))
    for diagnostic in compilation.diagnostics:
        assert diagnostic.span.path in ("rulebooks/demo.rules", "rulebooks/base.rules")
        assert diagnostic.message


@settings(max_examples=200, deadline=None)
@given(st.text(string.printable, max_size=200))
def test_printable_noise_is_reported_not_raised(text):
    compilation = rulesdsl.compile_text('game demo "D" version "1" extends base\n' + text,
                                        "rulebooks/demo.rules", ("rulebooks/base.rules", BASE))
    assert compilation.ok or compilation.diagnostics


# ---- `rulesdsl new --title`: the title is written as a rulebook string, or refused before anything is written --

STARTER_TITLES = ['A "quoted" title', "back\\slash\\", "tab\tand {braces} {0} {title}", "bell\x07 esc\x1b",
                  "\\n is no line break", '"', "{{ jinja }} {% if x %}", "ünïcødé ⚔ <b>&amp;"]


def test_a_starter_carries_any_one_line_title_exactly(project, capsys):
    """`new game t --title 'A "quoted" title'` failed with an error positioned in a file it never wrote."""
    project.add_base()
    for number, title in enumerate(STARTER_TITLES):
        code, out, err = project.run("new", "game", f"t{number}", "--title", title, capsys=capsys)
        assert code == 0 and f"wrote rulebooks/t{number}.rules" in out, (title, err)
    code, _, err = project.run("new", "game", "e", "--extends", "base", "--title", STARTER_TITLES[0], capsys=capsys)
    assert code == 0, err
    code, _, err = project.run("build", capsys=capsys)
    assert code == 0, err
    code, out, err = project.run("build", "--check", capsys=capsys)
    assert code == 0 and "generated/ is current" in out, err
    for number, title in enumerate(STARTER_TITLES):
        assert project.module(f"t{number}").RULEBOOK["title"] == title
        text = (project.root / "rulebooks" / f"t{number}.rules").read_text(encoding="utf-8")
        rulebook = parse(Source(f"rulebooks/t{number}.rules", text))
        assert rulebook.title.value == title
        assert [chart.title.value for chart in rulebook.terrain if chart.title] == [f"{title} Terrain Effects Chart"]
    assert project.module("e").RULEBOOK["title"] == STARTER_TITLES[0]


@pytest.mark.parametrize("title, says", [
    ("two\nlines", "holds a line break"), ("cr\rhere", "holds a line break"), ("ls\u2028here", "holds a line break"),
    ("nul\0here", "or a NUL character"), ("", "--title is empty"), ("   ", "--title is empty"),
    ("x" * 101, "--title is too long (101 characters, at most 100)"),
])
def test_a_title_a_rulebook_cannot_carry_is_refused_and_nothing_written(project, capsys, title, says):
    for kind in ("game", "series"):
        code, out, err = project.run("new", kind, "t", "--title", title, capsys=capsys)
        assert code == 2 and err.startswith("rulesdsl: error: --title") and says in err, err
        assert out == "" and "rulebooks/t.rules" not in err and "Traceback" not in err
    assert sorted(p.name for p in project.root.iterdir()) == ["rulebooks"]
    assert list((project.root / "rulebooks").iterdir()) == []


def test_no_starter_problem_is_positioned_in_the_file_never_written(project, capsys, monkeypatch):
    """Should a title pass the first look and still make a starter that does not check, the problem is said of
    the title, as a usage error, not at a line of rulebooks/t.rules (which was not written)."""
    from rulesdsl.project import starter
    monkeypatch.setattr(starter, "_sayable", lambda title: title)
    code, _, err = project.run("new", "game", "t", "--title", "one\ntwo", capsys=capsys)
    assert code == 2 and "makes a starter that does not check: unterminated string; nothing was written" in err, err
    assert "rulebooks/t.rules:" not in err and not (project.root / "rulebooks" / "t.rules").exists()
