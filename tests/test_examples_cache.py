"""The worked examples' outcomes are kept in the cache (rulesdsl/project/memo.py): a check of an unchanged
rulebook reads them instead of running the examples again, says exactly what running them says, and any
change to what they are computed from (the rulebook, a rulebook it extends, the compiler) runs them again."""
from __future__ import annotations

import pytest

from rulesdsl.project import build, memo, passes

GAME = '''game hollow "Hollow Ridge (a test title)" version "1.0" extends scs-1.8

rule G1.0 "Stacking" {
  summary "Up to four steps may stack in a hex."
  stacking.limit = 4 steps
}

example "Four steps stack, five do not" [G1.0] {
  map 1.01 - 3.03 open
  unit a friendly 4-4-5 at 2.02 steps 2
  unit b friendly 4-4-5 at 2.02 steps 2
  expect stack 2.02 legal
}
'''


@pytest.fixture
def runs(monkeypatch) -> list[str]:
    """The rulebooks whose examples actually run (own or inherited), in order."""
    seen: list[str] = []
    real = passes.run_examples

    def counted(resolved, module, **kwargs):
        seen.append(f"{resolved.id} {'own' if kwargs.get('own_examples', True) else 'inherited'}")
        return real(resolved, module, **kwargs)

    monkeypatch.setattr(passes, "run_examples", counted)
    return seen


def _check(project, capsys) -> tuple[int, str]:
    code, _, err = project.run("check", "--notes", capsys=capsys)
    return code, err


def test_an_unchanged_rulebook_runs_its_examples_once_and_says_the_same(project, capsys, own_cache, runs):
    project.write("rulebooks/hollow.rules", GAME)
    first = _check(project, capsys)
    assert first[0] == 0 and runs == ["hollow own", "hollow inherited"]
    assert "answers 5 expect lines of scs-1.8's examples otherwise" in first[1]   # the series' examples it answers otherwise: notes, read back too
    runs.clear()
    assert _check(project, capsys) == first and runs == []
    assert len(list((own_cache / memo.KIND).glob("*.json"))) == 2


def test_a_failing_example_is_the_same_error_read_from_the_cache(project, capsys, own_cache, runs):
    project.write("rulebooks/hollow.rules", GAME.replace("steps 2\n  expect", "steps 3\n  expect"))
    first = _check(project, capsys)
    assert first[0] == 1 and "rulebooks/hollow.rules:12:10: error: expected legal, computed illegal" in first[1], first[1]
    runs.clear()
    assert _check(project, capsys) == first and runs == []


def test_an_edit_of_the_rulebook_or_of_what_it_extends_runs_them_again(project, capsys, own_cache, runs):
    project.write("rulebooks/hollow.rules", GAME)
    assert _check(project, capsys)[0] == 0
    runs.clear()
    project.write("rulebooks/hollow.rules", GAME.replace("4 steps", "3 steps").replace("Up to four", "Up to three"))
    code, err = _check(project, capsys)
    assert code == 1 and "computed illegal" in err and runs == ["hollow own", "hollow inherited"]
    # the same text again: both outcomes are read back
    project.write("rulebooks/hollow.rules", GAME)
    runs.clear()
    assert _check(project, capsys)[0] == 0 and runs == []
    # the series it extends, now a project file with one changed word in a summary: run again
    found = build.Library().find("scs-1.8")
    assert found is not None
    text = found[0].read_text(encoding="utf-8")
    project.write("rulebooks/scs-1.8.rules", text.replace('summary "', 'summary "Now: ', 1))
    runs.clear()
    assert _check(project, capsys)[0] == 0
    assert "hollow own" in runs and "scs-1.8 own" in runs


_real_digest = memo.code_digest


def test_another_compiler_or_no_cache_runs_them_again(project, capsys, own_cache, runs, monkeypatch):
    project.write("rulebooks/hollow.rules", GAME)
    first = _check(project, capsys)
    runs.clear()
    monkeypatch.setattr(memo, "code_digest", lambda: "another compiler")
    assert _check(project, capsys) == first and runs == ["hollow own", "hollow inherited"]
    monkeypatch.setattr(memo, "code_digest", _real_digest)
    monkeypatch.setenv("RULESDSL_NO_CACHE", "1")
    runs.clear()
    assert _check(project, capsys) == first and runs == ["hollow own", "hollow inherited"]


def test_an_entry_that_is_not_an_outcome_is_run_again(project, capsys, own_cache, runs):
    project.write("rulebooks/hollow.rules", GAME)
    first = _check(project, capsys)
    from rulesdsl import cache
    for entry in (own_cache / memo.KIND).glob("*.json"):
        cache.write(memo.KIND, entry.stem, {"diagnostics": [{"message": 3}], "checked": 1, "failed": []})
    runs.clear()
    assert _check(project, capsys) == first and runs == ["hollow own", "hollow inherited"]


def test_the_compilers_identity_follows_its_code(tmp_path, monkeypatch):
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "a.py").write_text("x = 1\n")
    (package / "sub" / "grammar.lark").write_text("start: 'a'\n")
    (package / "font.ttf").write_bytes(b"\0" * 10)
    monkeypatch.setattr(memo, "_PACKAGE", package)
    before = memo.code_digest()
    (package / "font.ttf").write_bytes(b"\1" * 11)      # not code: the same compiler
    assert memo.code_digest() == before
    (package / "sub" / "grammar.lark").write_text("start: 'b'\n")
    assert memo.code_digest() != before
    assert memo.stamp("m", [("a.rules", "x")]) != memo.stamp("m", [("b.rules", "x")])
    assert memo.stamp("m", [("a.rules", "x")]) != memo.stamp("m2", [("a.rules", "x")])
    assert memo.stamp("ab", [("c.rules", "")]) != memo.stamp("a", [("bc.rules", "")])


def test_a_module_that_imported_is_not_imported_again_one_that_failed_always_is(project, capsys, own_cache,
                                                                                 monkeypatch):
    from rulesdsl.modules import modcheck
    imports: list[tuple[str, str]] = []
    real = modcheck.load_module
    monkeypatch.setattr(modcheck, "load_module",
                        lambda name, source: imports.append((name, source)) or real(name, source))
    project.write("rulebooks/hollow.rules", GAME)
    assert _check(project, capsys)[0] == 0
    # checked, then the same module object runs the examples (other sources: the values examples assume)
    assert ("hollow" in {name for name, _ in imports}) and len(set(imports)) == len(imports)
    imports.clear()
    assert _check(project, capsys)[0] == 0 and imports == []
    generate = modcheck.generate
    monkeypatch.setattr(modcheck, "generate", lambda resolved: generate(resolved) + "\nraise RuntimeError('no')\n")
    for _ in range(2):
        code, err = _check(project, capsys)
        assert code == 1 and "does not import: RuntimeError: no" in err
