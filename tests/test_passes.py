"""The pipeline is a named, ordered list of typed passes (rulesdsl/project/passes.py), and every command that
compiles goes through its one driver (build.compile_sources)."""
from __future__ import annotations

import inspect
import typing
from types import SimpleNamespace

import pytest

from rulesdsl.editor import server
from rulesdsl.project import passes
from test_mutation import DRILL


def test_the_passes_are_named_ordered_and_typed():
    assert [name for name, _ in passes.PASSES] == [
        "parse", "identify", "check", "labels", "resolve", "report", "generate", "examples"]
    for name, step in passes.PASSES:
        assert inspect.isfunction(step) and step.__module__ == passes.__name__, name
        assert step.__doc__, name          # each says what it reads and fills
        hints = typing.get_type_hints(step)
        assert list(inspect.signature(step).parameters) == ["state"], name
        assert hints == {"state": passes.Compiling, "return": type(None)}, name


@pytest.fixture
def reached(monkeypatch) -> list[str]:
    """The passes run, in order, as each caller reaches them through the driver."""
    seen: list[str] = []

    def recording(name, step):
        def run(state: passes.Compiling) -> None:
            seen.append(name)
            step(state)
        return run

    monkeypatch.setattr(passes, "PASSES", tuple((name, recording(name, step)) for name, step in passes.PASSES))
    return seen


ALL = ["parse", "identify", "check", "labels", "resolve", "report", "generate", "examples"]


def test_check_and_build_run_every_pass_in_order(project, capsys, reached):
    project.write("rulebooks/drill.rules", DRILL)
    assert project.run("check", capsys=capsys)[0] == 0
    assert reached == ALL
    reached.clear()
    code, _, err = project.run("build", capsys=capsys)
    assert code == 0, err
    assert reached == ALL and (project.root / "generated" / "drill.py").is_file()


def test_mutation_and_the_errata_go_through_the_driver(project, capsys, reached):
    path = project.write("rulebooks/drill.rules", DRILL)
    code, _, err = project.run("coverage", "drill", "--mutate", "--parameter", "zoc.entry_cost", capsys=capsys)
    assert code == 0, err
    assert reached == ALL       # (with generate=False, generate and examples do nothing)
    reached.clear()
    code, _, err = project.run("diff", str(path), str(path), capsys=capsys)
    assert code == 0, err
    assert reached == ALL * 2      # one compilation for each side


def test_the_language_server_goes_through_the_driver(project, reached):
    path = project.write("rulebooks/drill.rules", DRILL)
    uri = path.resolve().as_uri()
    documents = {uri: SimpleNamespace(source=DRILL.replace('"Drill"', '"Drill drafted"'), version=1)}
    compilation, root, shown = server._compile(SimpleNamespace(workspace=SimpleNamespace(text_documents=documents)),
                                               uri)
    assert reached == ALL and shown == "rulebooks/drill.rules"
    assert compilation.rulebooks["drill"].title.value == "Drill drafted"    # the editor's text, not the disk's
