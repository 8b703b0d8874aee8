"""docs/reference.md is generated (`rulesdsl reference`) from the compiler's own sources: it must be
current, the same bytes on every run, cover every statement kind, parameter, activity, context name,
limit and diagnostic, and every example it shows must compile."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rulesdsl.model import catalogue, context, ir
from rulesdsl.language import limits
from rulesdsl.project import reference, settings
from rulesdsl.cli import main
from rulesdsl.project.build import compile_sources, library_parameters
from rulesdsl.language.source import Source

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "reference.md"
CORPUS = Path(__file__).resolve().parent / "errors"


def _section(text: str, title: str) -> str:
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end != -1 else len(text)]


def _compiles(name: str, text: str) -> None:
    compilation = compile_sources([Source(f"rulebooks/{name}.rules", text)])
    assert compilation.diagnostics == [], (name, compilation.diagnostics)
    assert compilation.ok


def test_the_committed_reference_is_current():
    assert DOC.read_bytes() == reference.generate().encode("utf-8"), (
        f"docs/reference.md is stale: regenerate it with `{reference.REGENERATE}`")


@pytest.mark.parametrize("seed", ["0", "12345"])
def test_the_command_writes_the_same_bytes_on_every_run(seed, tmp_path):
    env = {**os.environ, "PYTHONHASHSEED": seed, "LC_ALL": "C", "PYTHONIOENCODING": "ascii"}
    run = subprocess.run([sys.executable, "-m", "rulesdsl", "reference"], cwd=tmp_path, env=env,
                         capture_output=True, check=False)
    assert run.returncode == 0, run.stderr
    assert run.stdout == DOC.read_bytes()


def test_the_command_writes_a_file(tmp_path, capsys):
    out = tmp_path / "reference.md"
    assert main(["reference", "-o", str(out)]) == 0
    assert out.read_bytes() == DOC.read_bytes()
    assert capsys.readouterr().out == ""


def test_without_the_corpus_the_command_prints_the_reference_it_was_released_with(monkeypatch, tmp_path, capsys):
    """An installed package has no broken-rulebook corpus to generate the reference from: `rulesdsl reference`
    always exited 2 there.  It prints the reference installed with the package (docs/reference.md)."""
    monkeypatch.setattr(reference, "CORPUS", tmp_path / "nowhere")
    assert main(["reference"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and out == DOC.read_text(encoding="utf-8")


def test_every_statement_kind_has_an_entry_and_its_grammar():
    assert set(reference.KINDS) == set(ir.STATEMENTS)
    shown = {rule for kind in reference.KINDS.values() for rule in kind.grammar}
    assert set(reference.statement_rules()) <= shown
    text = DOC.read_text(encoding="utf-8")
    for kind in ir.STATEMENTS:
        assert f"### {reference.KINDS[kind].title}\n" in text
        assert f"`ir.{kind.__name__}`" in text


def test_a_statement_kind_without_an_entry_stops_the_generator(monkeypatch):
    kinds = dict(reference.KINDS)
    del kinds[ir.Labels]
    monkeypatch.setattr(reference, "KINDS", kinds)
    with pytest.raises(LookupError, match="Labels"):
        reference.generate()


def test_the_syntax_shown_is_the_grammar_itself():
    grammar = reference.GRAMMAR.read_text(encoding="utf-8")
    text = DOC.read_text(encoding="utf-8")
    for block in re.findall(r"```lark\n(.*?)```", text, re.S):
        for paragraph in block.strip("\n").split("\n\n"):
            assert paragraph in grammar


def _examples() -> list[tuple[str, str]]:
    text = DOC.read_text(encoding="utf-8")
    blocks = []
    for title in ("Statements", "Expression context"):
        blocks += re.findall(r"```rules\n(.*?)```", _section(text, title), re.S)
    return [(f"example-{i}", block) for i, block in enumerate(blocks)]


def test_every_construct_has_an_example():
    more = sum(len(reference.KINDS[kind].more) for kind in ir.STATEMENTS)     # further forms of a statement
    assert len(_examples()) == len(ir.STATEMENTS) + more + 3   # and the header's, the amendments', the context's


@pytest.mark.parametrize("name, text", _examples())
def test_every_example_in_the_reference_compiles(name, text):
    _compiles(name, text)


def test_every_core_parameter_is_listed_with_its_type_unit_meaning_and_what_it_drives():
    text = _section(DOC.read_text(encoding="utf-8"), "Parameters")
    for name, declared in catalogue.CORE_PARAMETERS.items():
        kind = declared.type
        assert f"| `{name}` | {kind.describe()} | {kind.unit or ''} | {declared.meaning} | " \
               f"{catalogue.CORE_USES[name]} |" in text
    _compiles("core-parameters", reference.parameters_rulebook(catalogue.CORE_PARAMETERS.values()))


@pytest.mark.parametrize("series", ["scs-1.8", "new-scs", "vcs"])
def test_every_parameter_a_library_series_declares_is_listed_and_its_example_compiles(series):
    text = _section(DOC.read_text(encoding="utf-8"), "Parameters")
    declared = library_parameters()[series]
    own = [d for d in declared.values() if d.origin == series]
    assert own, series
    assert f"### Declared by the library series `{series}`\n\n{len(own)} parameters" in text
    for d in own:
        meaning = d.meaning + (f" (descriptive: {d.descriptive})" if d.descriptive is not None else "")
        assert f"| `{d.name}` | {d.type.describe()} | {d.type.unit or ''} | {meaning} | " \
               f"`{d.name} = {reference.example_value(d.type)}` |" in text
    book = reference.parameters_rulebook(declared.values())
    assert all(f"  {name} = " in book for name in declared)
    _compiles(f"every-{series}-parameter", book)


def test_a_parameter_a_series_declares_appears_in_the_reference(tmp_path, monkeypatch):
    """The reference reads the declarations from the library rulebooks: nothing to add in Python."""
    folder = tmp_path / "library"
    folder.mkdir()
    for rules in (ROOT / "rulebooks" / "series").glob("*.rules"):
        (folder / rules.name).write_text(rules.read_text(encoding="utf-8"), encoding="utf-8")
    vcs = folder / "vcs.rules"
    vcs.write_text(vcs.read_text(encoding="utf-8").replace(
        "parameters \"Parameters: what each one means\" {\n",
        "parameters \"Parameters: what each one means\" {\n"
        "  morale.rout_distance  quantity hexes  \"how far a routed unit flees\"\n"), encoding="utf-8")
    monkeypatch.setattr(settings, "shipped_folder", lambda: folder)
    text = reference.generate()
    assert "#### morale\n" in text
    assert "| `morale.rout_distance` | a quantity in hex (like 2 hexes) | hex | how far a routed unit flees | " \
           "`morale.rout_distance = 2 hexes` |" in text


def test_units_activities_and_limits_come_from_their_tables(monkeypatch):
    text = DOC.read_text(encoding="utf-8")
    for unit, spellings in catalogue.UNITS.items():
        assert f"| `{unit}` | {', '.join(f'`{s}`' for s in spellings)} |" in text
    for activity, meaning in catalogue.ACTIVITIES.items():
        assert f"| `{activity}` | {meaning} |" in text
    for name in ("MAX_EXPRESSION_DEPTH", "MAX_CASES", "MAX_CALL_DEPTH", "MAX_NUMBER_DIGITS"):
        assert f"| `{name}` | {getattr(limits, name)} | " in text
    monkeypatch.setattr(limits, "MAX_CASES", 7)
    assert "| `MAX_CASES` | 7 | Cases of one `define name { ... }`. |" in reference.generate()


def test_every_name_of_the_expression_context_is_documented():
    text = _section(DOC.read_text(encoding="utf-8"), "Expression context")
    names = [*context.ROOT, *context.UNIT_ATTRIBUTES, *context.HEX_ATTRIBUTES, *context.TERRAIN_ATTRIBUTES,
             *context.AGGREGATES, *context.NUMERIC, *context.RESULT_FIELDS]
    for name in names:
        assert re.search(rf"(?<![\w.]){re.escape(name)}(?![\w])", text), name


def test_every_diagnostic_of_the_corpus_is_shown_with_its_input():
    text = _section(DOC.read_text(encoding="utf-8"), "Diagnostics")
    cases = sorted(CORPUS.glob("*.rules"))
    assert cases
    for rules in cases:
        expected = rules.with_suffix(".expected").read_text(encoding="utf-8")
        assert f"### {rules.stem}\n\n```text\n{expected}```\n" in text
        first = rules.read_bytes().decode("utf-8", errors="backslashreplace").splitlines()[0]
        assert first in text
