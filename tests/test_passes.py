"""The pipeline is a named, ordered list of typed passes (rulesdsl/project/passes.py), and every command that
compiles goes through its one driver (build.compile_sources)."""
from __future__ import annotations

import dataclasses
import functools
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
    made: list[type] = []
    for name, step in passes.PASSES:
        assert inspect.isfunction(step) and step.__module__ == passes.__name__, name
        assert step.__doc__, name          # each says what it reads and makes
        hints = typing.get_type_hints(step)
        returned = hints.pop("return")
        assert list(hints) == list(inspect.signature(step).parameters), name    # every input is typed
        assert dataclasses.is_dataclass(returned) and returned.__dataclass_params__.frozen, name
        assert returned.__doc__ and returned not in made and returned is not passes.Job, name
        made.append(returned)
    assert list(passes.inputs(passes.compilation).values()) == [passes.Job, *made]
    assert typing.get_type_hints(passes.compilation)["return"] is passes.Compilation


def test_each_pass_reads_only_the_job_and_what_earlier_passes_made():
    available: set[type] = {passes.Job}
    for name, step in passes.PASSES:
        needs = set(passes.inputs(step).values())
        assert needs <= available, (name, needs - available)
        available.add(typing.get_type_hints(step)["return"])
    assert set(passes.inputs(passes.compilation).values()) <= available


def test_the_records_cannot_be_changed_once_made():
    job = passes.Job((), passes.Options(), "code")
    parsed = passes.parse_sources(job)
    with pytest.raises(dataclasses.FrozenInstanceError):
        parsed.failed = True        # type: ignore[misc]
    assert isinstance(parsed.diagnostics, tuple) and isinstance(parsed.library_ids, tuple)


@pytest.fixture
def reached(monkeypatch) -> list[str]:
    """The passes run, in order, as each caller reaches them through the driver."""
    seen: list[str] = []

    def recording(name, step):
        @functools.wraps(step)
        def run(**records):
            seen.append(name)
            return step(**records)
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


def test_coverage_mutation_and_the_errata_go_through_the_driver(project, capsys, reached):
    path = project.write("rulebooks/drill.rules", DRILL)
    code, _, err = project.run("coverage", "drill", capsys=capsys)
    assert code == 0, err
    assert reached == ALL
    reached.clear()
    code, _, err = project.run("coverage", "drill", "--mutate", "--parameter", "zoc.entry_cost", capsys=capsys)
    assert code == 0, err
    assert reached == ALL       # (with generate=False, generate and examples make nothing)
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
