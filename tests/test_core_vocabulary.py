"""The core vocabulary: `rulesdsl/core/vocabulary.rules`, read by the rulebook parser, and its compiled form
`rulesdsl/core/vocabulary.py`, which the engine and the compiler's model read.

The committed module is what `python -m rulesdsl.project.vocabulary` writes; the file is a rulebook in the
canonical layout; a block's title names the question that reads its parameters; and the declarations the
compiler holds point at the names the file writes.
"""
from __future__ import annotations

import subprocess
import sys

import pytest

from rulesdsl.core.parameters import ENGINE_FUNCTIONS, QUESTIONS, VOCABULARY_FILE
from rulesdsl.core.vocabulary import PARAMETERS
from rulesdsl.errors import RulesError
from rulesdsl.language.fmt import format_source
from rulesdsl.language.source import Source
from rulesdsl.model import catalogue
from rulesdsl.project import vocabulary
from rulesdsl.runtime.contract import ENGINE_PARAMETERS

TEXT = VOCABULARY_FILE.read_text(encoding="utf-8")
HEADER = 'series core "The core vocabulary" version "1"\n'


def test_the_committed_module_is_the_file_compiled():
    """Run `python -m rulesdsl.project.vocabulary` when this fails: the file was edited, not its module."""
    assert vocabulary.MODULE_FILE.read_text(encoding="utf-8") == vocabulary.module_text(
        vocabulary.compile_vocabulary(TEXT))


def test_the_refresh_command_writes_the_module(tmp_path):
    target = tmp_path / "vocabulary.py"
    assert vocabulary.main(target) == 0
    assert target.read_bytes() == vocabulary.MODULE_FILE.read_bytes()


def test_the_file_is_in_the_canonical_layout():
    assert format_source(Source(vocabulary.SHOWN_AS, TEXT)) == TEXT


def test_every_question_reads_some_parameter_and_the_engine_reads_its_contract():
    assert {p.drives for p in PARAMETERS} == set(QUESTIONS)
    assert ENGINE_PARAMETERS == tuple(p for p in PARAMETERS if p.drives in ENGINE_FUNCTIONS)
    assert [p.name for p in PARAMETERS] == list(catalogue.CORE_PARAMETERS)
    assert [p.name for p in PARAMETERS if p.unordered] == ["stacking.checked_at"]


def test_each_core_declaration_points_at_its_declaration_in_the_installed_file():
    lines = TEXT.split("\n")
    for name, declared in catalogue.CORE_PARAMETERS.items():
        span = declared.span
        assert span is not None and span.path == str(VOCABULARY_FILE)
        assert lines[span.line - 1][span.column - 1:span.end_column - 1] == lines[span.line - 1].strip()
        assert lines[span.line - 1].startswith(f"  {name} ")


def test_a_redeclared_core_parameter_is_still_reported_as_core():
    from rulesdsl.language.transform import parse
    book = parse(Source("g.rules", 'game g "G" version "1"\nparameters {\n'
                                   '  zoc.range  quantity hex  "mine"\n}\n'))
    _, problems = catalogue.vocabulary([book])
    assert [p.message for p in problems] == ["parameter 'zoc.range' is already declared by the core vocabulary"]
    assert problems[0].hint.startswith("the compiler or the rules engine acts on it")


@pytest.mark.parametrize(("block", "message"), [
    ('parameters "moves" {\n  a.b  flag  "x"\n}\n', "'moves' names no question that reads a core parameter"),
    ('parameters {\n  a.b  flag  "x"\n}\n', "'' names no question that reads a core parameter"),
    ('parameters "move" {\n  a.b  flag  descriptive intent  "x"\n}\n',
     "core parameter 'a.b': a core parameter is read by its question: it is not descriptive"),
    ('parameters "stack, unordered" {\n  a.b  choice x, y  "x"\n}\n',
     "core parameter 'a.b': only an order is read as a set"),
    ('parameters "move" {\n  a.b  quantity furlongs  "x"\n}\n', "core parameter 'a.b': its unit or options are wrong"),
])
def test_a_wrong_vocabulary_file_is_refused_with_its_position(block, message):
    with pytest.raises(RulesError) as raised:
        vocabulary.compile_vocabulary(HEADER + block)
    [problem] = raised.value.diagnostics
    assert problem.message == message
    assert problem.span.path == vocabulary.SHOWN_AS and problem.span.line >= 2


def test_an_unordered_block_marks_its_orders():
    [parameter] = vocabulary.compile_vocabulary(
        HEADER + 'parameters "stack, unordered" {\n  a.b  order x, y  "x"\n}\n')
    assert (parameter.drives, parameter.unordered, parameter.options, parameter.line) == ("stack", True, ("x", "y"), 3)


def test_reading_the_compiled_vocabulary_does_not_load_the_parser():
    run = subprocess.run([sys.executable, "-c", "import sys, rulesdsl.runtime.contract, rulesdsl.model.catalogue\n"
                          "print('lark' in sys.modules)"], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "False"


def test_the_editors_highlight_the_file_as_any_rulebook():
    from pygments.token import Error
    from rulesdsl.editor.lexer import RulesdslLexer
    assert [value for kind, value in RulesdslLexer().get_tokens(TEXT) if kind is Error] == []
