"""`rulesdsl diff`: semantic differences, severities, formats, git revisions."""
from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulesdsl
from conftest import FIXTURES, ROOT
from rulesdsl.errata.diff import compare, snapshot
from rulesdsl.language.fmt import format_text
from rulesdsl.language.source import Source
from rulesdsl.language.transform import parse

SHIPPED = sorted((ROOT / "rulebooks").rglob("*.rules"))
from rulesdsl.project.build import compile_project

PROJECT = compile_project(ROOT, examples=False, generate=False)  # no example run: resolved rulebooks only
DIFF = FIXTURES / "diff"


def raw(text: str, path="x.rules"):
    return snapshot(parse(Source(path, text)))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_a_rulebook_against_itself_and_its_formatting_is_no_change(path):
    text = path.read_text(encoding="utf-8")
    assert compare(raw(text), raw(text)) == []
    assert compare(raw(text), raw(format_text(text))) == []
    resolved = PROJECT.resolved[parse(Source(str(path), text)).id.value]
    assert compare(snapshot(resolved.rulebook, resolved), snapshot(resolved.rulebook, resolved)) == []


def _blocks(text: str) -> tuple[str, list[str]]:
    """The header, and each top-level statement with the comments and blank lines before it."""
    lines = text.split("\n")
    start = next(i for i, l in enumerate(lines) if re.match(r"^(series|game|labels) ", l))
    header, blocks, current, depth = "\n".join(lines[: start + 1]), [], [], 0
    for line in lines[start + 1:]:
        current.append(line)
        code = re.sub(r'"(?:[^"\\\n]|\\.)*"|#.*', "", line)
        depth += code.count("{") - code.count("}")
        if depth == 0 and code.strip():
            blocks.append("\n".join(current))
            current = []
    blocks.append("\n".join(current))
    return header, blocks


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(SHIPPED), st.integers(0, 2 ** 32))
def test_reordering_rules_and_adding_comments_is_no_change(path, seed):
    rng = random.Random(seed)
    text = path.read_text(encoding="utf-8")
    header, blocks = _blocks(text)
    rng.shuffle(blocks)
    varied = header + "\n" + "\n".join(f"# note {rng.random()}\n{b}" for b in blocks)
    varied = re.sub(r"\n  ", lambda m: "\n" + " " * rng.randint(2, 5), varied)
    assert compare(raw(text), raw(varied)) == []


def _demo_changes(*, resolved=False):
    old = (DIFF / "demo-1.0.rules").read_text()
    new = (DIFF / "demo-1.1.rules").read_text()
    series = ("rulebooks/series/scs-1.8.rules", (ROOT / "rulebooks/series/scs-1.8.rules").read_text())
    if not resolved:
        return compare(raw(old), raw(new))
    sides = []
    for text in (old, new):
        compilation = rulesdsl.compile_text(text, "rulebooks/games/demo.rules", series)
        assert compilation.ok, [d.message for d in compilation.diagnostics]
        resolved_book = compilation.resolved["demo"]
        sides.append(snapshot(resolved_book.rulebook, resolved_book))
    return compare(*sides)


def test_known_changes_between_two_versions_and_nothing_else():
    found = {(c.area, c.kind, c.what, c.old, c.new, c.severity) for c in _demo_changes()}
    assert found == {
        ("rulebook", "changed", "version", "1.0", "1.1", "editorial"),
        ("rule", "changed", "summary", "Overrun targets may cost at most 1 MP.",
         "Overrun targets may cost at most 2 MP.", "clarification"),
        ("rule", "changed", "overrun.max_target_cost", "1 MP", "2 MP", "rules"),
        ("rule", "renumbered", "rule Night turns", "G2.0", "G4.0", "editorial"),
        ("rule", "removed", "rule G3.0 Bridges", "Engineers may repair a blown bridge in one turn.", None,
         "rules"),
        ("rule", "added", "rule G5.0 Weather", None, "Rain halves movement allowances.", "rules"),
        ("sequence", "added", "player turn phase supply", None, "4 of 4, after exploitation", "rules"),
        ("terrain", "changed", "woods combat", "Dx2", "Dx1½", "rules"),
        ("terrain", "added", "terrain marsh", None, "kind hex, movement 3, combat Ax½", "rules"),
        ("results", "added", "column 4:1", None, "1-2 D1, 3 D1r1, 4 D1r2, 5-6 D2r2", "rules"),
        ("results", "changed", "3:1 x 4", "D1r1", "D1r2", "rules"),
    }


def test_resolved_diff_sees_inherited_rules_too():
    found = _demo_changes(resolved=True)
    assert ("rule", "changed", "overrun.max_target_cost") in {(c.area, c.kind, c.what) for c in found}
    assert not any(c.area == "rule" and c.kind == "removed" and c.what.startswith("rule 6.") for c in found)


def run(*args, cwd=ROOT):
    exe = shutil.which("rulesdsl")
    return subprocess.run([exe, *args], cwd=cwd, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_resolved_scs_to_new_scs_lists_sequence_and_overrun_changes():
    result = run("diff", "--resolved", "scs-1.8", "new-scs", "--format", "json")
    assert result.returncode == 1, result.stderr
    report = json.loads(result.stdout)
    changes = {(c["area"], c["kind"], c["what"], c["old"], c["new"]) for c in report["changes"]}
    for phase in ("ready", "air", "road-movement", "bombardment", "reaction", "dg-removal"):
        assert any(area == "sequence" and kind == "added" and what == f"player turn phase {phase}"
                   for area, kind, what, _, _ in changes)
    assert ("rule", "changed", "overrun.cost", "2 MP", "3 MP") in changes
    assert ("rule", "changed", "overrun.max_target_cost", "2 MP", "none") in changes
    assert ("rule", "added", "overrun.who", None, "exploit-capable") in changes
    assert report["summary"]["rules"] >= 1


def test_formats_and_exit_codes():
    old, new = str(DIFF / "demo-1.0.rules"), str(DIFF / "demo-1.1.rules")
    same = run("diff", old, old)
    assert (same.returncode, same.stdout) == (0, "no semantic changes\n")
    text = run("diff", old, new)
    assert text.returncode == 1 and "6.0c Target hex cost limit" in text.stdout
    # a parameter reads as what it means (its declaration in the series); its id is only in the JSON
    assert "[rules] The most the target hex may cost to enter for an overrun to be allowed: " \
           "1 MP -> 2 MP" in text.stdout
    assert "overrun.max_target_cost" not in text.stdout
    assert run("diff", "--exit-zero", old, new).returncode == 0
    md = run("diff", "--format", "md", old, new).stdout
    assert md.startswith("# Errata: Demo Game: 1.0 to 1.1") and "to be allowed | 1 MP | 2 MP |" in md
    # rules changes first, in rule order, charts filed under the rule they cite; then the renumbering
    assert md.index("## Rules changes") < md.index("### 1.0 Sequence of play") \
        < md.index("### 3.2 Terrain Effects Chart") < md.index("### 6.0c") < md.index("### 7.1 Combat Results Table") \
        < md.index("### G3.0") < md.index("### G5.0") < md.index("## Editorial") < md.index("### G4.0")
    assert "overrun.max_target_cost" not in md
    report = json.loads(run("diff", "--format", "json", old, new).stdout)
    [parameter] = [c for c in report["changes"] if c["what"] == "overrun.max_target_cost"]
    assert parameter["meaning"].startswith("the most the target hex may cost") and parameter["rule"] == "6.0c"
    html = run("diff", "--format", "html", old, new).stdout
    assert '<td class="old">1 MP</td><td class="new">2 MP</td>' in html
    missing = run("diff", old, "no-such-thing")
    assert missing.returncode == 2 and "no such rulebook file, git revision or rulebook id" in missing.stderr
    series = DIFF.parent / "base.rules"                      # two different rulebooks: every difference
    assert run("diff", str(series), str(DIFF / "demo-1.0.rules")).returncode == 1


def test_git_revision_paths(tmp_path):
    git = ["git", "-c", "user.name=test", "-c", "user.email=test@example.invalid", "-c", "init.defaultBranch=main"]
    (tmp_path / "rulebooks").mkdir()
    target = tmp_path / "rulebooks" / "demo.rules"
    shutil.copy(ROOT / "rulebooks/series/scs-1.8.rules", tmp_path / "rulebooks" / "scs-1.8.rules")
    target.write_text((DIFF / "demo-1.0.rules").read_text())
    subprocess.run(git + ["init", "-q"], cwd=tmp_path, check=True)
    subprocess.run(git + ["add", "-A"], cwd=tmp_path, check=True)
    subprocess.run(git + ["commit", "-qm", "v1.0"], cwd=tmp_path, check=True)
    subprocess.run(git + ["tag", "v1.0"], cwd=tmp_path, check=True)
    target.write_text((DIFF / "demo-1.1.rules").read_text())
    result = run("diff", "v1.0:rulebooks/demo.rules", "rulebooks/demo.rules", "--format", "json", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    report = json.loads(result.stdout)
    assert report["old"]["version"] == "1.0" and report["new"]["version"] == "1.1"
    resolved = run("diff", "--resolved", "v1.0:rulebooks/demo.rules", "rulebooks/demo.rules", cwd=tmp_path)
    assert resolved.returncode == 1 and "for an overrun to be allowed: 1 MP -> 2 MP" in resolved.stdout
    bad = run("diff", "v9.9:rulebooks/demo.rules", "rulebooks/demo.rules", cwd=tmp_path)
    assert bad.returncode == 2 and "cannot read v9.9:rulebooks/demo.rules from git" in bad.stderr


def test_one_change_reads_in_the_singular_and_units_read_as_written():
    from rulesdsl.errata.sheets import markdown, text
    old_text = (ROOT / "rulebooks/games/bocage.rules").read_text(encoding="utf-8")
    new_text = old_text.replace("stacking.limit = 6 steps", "stacking.limit = 1 step")
    assert new_text != old_text
    old, new = raw(old_text), raw(new_text)
    changes = compare(old, new)
    # the core vocabulary gives its meaning even to a rulebook read by itself
    assert [str(c) for c in changes] == ["The most steps that may stack in one hex: 6 steps -> 1 step"]
    assert "\n1 change: 1 rules change" in text(changes, old, new)
    assert "\n1 change: 1 rules change" in markdown(changes, old, new)
    assert "1 changes" not in text(changes, old, new) + markdown(changes, old, new)


def test_an_added_or_withdrawn_amendment_reads_as_one_with_what_it_sets():
    old = raw('game g "G" version "1" extends base\n')
    new = raw('game g "G" version "1" extends base\n\namend rule 7.4 {\n  combat.below_table = A2\n}\n')
    sets = ("The result of an attack below the left-most odds column (no roll): A2",)   # in words, not ids
    [added] = compare(old, new)
    assert str(added) == "added amendment of rule 7.4" and added.details == sets
    [withdrawn] = compare(new, old)      # the series rule is in effect again: nothing is removed
    assert str(withdrawn) == "withdrawn amendment of rule 7.4: the series rule applies again"
    assert withdrawn.severity == "rules" and withdrawn.details == sets


def test_a_folder_named_like_a_rulebook_id_does_not_hide_it(project, capsys, monkeypatch):
    """With package = "demo", the generated folder demo/ sits beside rulebooks/: `diff base demo` means
    the rulebooks, not the folder."""
    project.add_base()
    project.write("rulebooks/demo.rules", 'game demo "Demo" version "1" extends base\n\n'
                  'amend rule 7.4 {\n  combat.below_table = A2\n}\n')
    (project.root / "demo").mkdir()
    monkeypatch.chdir(project.root)
    code, out, err = project.run("diff", "--resolved", "base", "demo", capsys=capsys)
    assert code == 1 and "is a directory" not in err, err
    assert "The result of an attack below the left-most odds column (no roll): A1 -> A2" in out


@pytest.mark.parametrize("area, kind, what, severity", [
    ("terrain", "changed", "woods combat", "rules"),             # a cell: players do something else
    ("sequence", "reordered", "player turn phases", "rules"),    # the order of play
    ("rule", "withdrawn", "override of rule 6.0c", "rules"),
    ("rule", "changed", "summary", "clarification"),             # the words, not what the rules compute
    ("adjustments", "changed", "title", "clarification"),        # a chart's title
    ("labels", "added", "language fr", "clarification"),
    ("rule", "renumbered", "rule Victory", "editorial"),
    ("adjustments", "changed", "cites", "editorial"),
    ("rulebook", "changed", "version", "editorial"),
    ("rulebook", "changed", "extends", "rules"),                  # another series
    ("rule", "changed", "designer's notes", "note"),
])
def test_each_change_is_graded_by_what_it_does_to_play(area, kind, what, severity):
    from rulesdsl.errata.diff import severity_of
    assert severity_of(area, kind, what) == severity
