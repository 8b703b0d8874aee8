"""What README's "Command line" promises, held to it (issue 41): a closed or broken standard output, `-C` after
the command, positions from 1 for tools, a header's syntax error in words, paths as seen from where the user
stands (the shipped library's too), the build's counts, and `diff`'s exit 1 written where it happens."""
from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT, Project

SERIES_SOURCE = ROOT / "rulebooks" / "series" / "scs-1.8.rules"   # the shipped library, in this source tree
SITUATION = "map 1.01 - 3.03 open; unit a x 3-2-4 at 2.02"


def _command() -> list[str]:
    exe = shutil.which("rulesdsl")
    return [exe] if exe else [sys.executable, "-m", "rulesdsl"]


def _base_project(root: Path) -> Project:
    project = Project(root)
    project.add_base()
    return project


# every command, with arguments that would print on standard output (the folder: a project with base.rules)
COMMANDS = {
    "check": ["check"],
    "check-json": ["check", "--format", "json"],
    "build": ["build"],
    "fmt": ["fmt"],
    "reference": ["reference"],
    "docs": ["docs"],
    "chart": ["chart", "base", "--out", "-"],
    "coverage": ["coverage", "base"],
    "diff": ["diff", "rulebooks/base.rules", "rulebooks/base.rules"],
    "explain": ["explain", "base", SITUATION, "reach", "a"],
    "new": ["new", "series", "other"],
    "version": ["--version"],
    "help": ["--help"],
}


@pytest.fixture(scope="module")
def base_root(tmp_path_factory) -> Path:
    return _base_project(tmp_path_factory.mktemp("promises") / "project").root


def _untouched(root: Path) -> None:
    assert sorted(p.relative_to(root).as_posix() for p in root.rglob("*")) == ["rulebooks", "rulebooks/base.rules"]


@pytest.mark.parametrize("name", [*COMMANDS, "lsp", "watch"])
def test_a_closed_standard_output_exits_2_for_every_command(name, tmp_path):
    """`rulesdsl check >&-` was exit 3, "internal error: AttributeError" (Python sets sys.stdout to None)."""
    root = _base_project(tmp_path / "project").root
    args = COMMANDS.get(name, [name])
    done = subprocess.run([*_command(), *args], cwd=root, preexec_fn=lambda: os.close(1),
                          stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert done.stderr == ("rulesdsl: error: standard output is closed; nothing was done (send it to /dev/null "
                           "to discard it)\n")
    _untouched(root)     # nothing was done: no generated/, no starter


def test_a_closed_standard_output_through_the_shell(tmp_path):
    root = _base_project(tmp_path / "project").root
    done = subprocess.run(["sh", "-c", 'exec "$@" >&-', "sh", *_command(), "check"], cwd=root,
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, "Traceback" in done.stderr) == (2, False), done.stderr


@pytest.mark.parametrize("name", [n for n in COMMANDS if n != "new"] + ["new"])
def test_a_standard_output_whose_reader_left_exits_2_quietly(name, tmp_path):
    """A pipe with no reader (`rulesdsl X | true`): each command stops quietly, with 2 as README says of a
    closed standard output (it was 0, as if all had been printed), no traceback, no "Exception ignored"."""
    root = _base_project(tmp_path / "project").root
    read, write = os.pipe()
    os.close(read)        # the reader went away before anything was written: every write is EPIPE
    try:
        done = subprocess.run([*_command(), *COMMANDS[name]], cwd=root, stdout=write, stderr=subprocess.PIPE,
                              stdin=subprocess.DEVNULL, text=True, timeout=120)
    finally:
        os.close(write)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr
    assert "error" not in done.stderr, done.stderr     # quietly: the reader chose to stop


def test_a_pipe_closed_midway_exits_2_quietly(tmp_path):
    """`rulesdsl reference | head -c 10`: the reader takes 10 bytes of the 190 kB and leaves while rulesdsl
    writes (the pipe made small, so the write is still going on when it leaves)."""
    read, write = os.pipe()
    fcntl.fcntl(write, fcntl.F_SETPIPE_SZ, 4096)
    process = subprocess.Popen([*_command(), "reference"], cwd=tmp_path, stdout=write, stderr=subprocess.PIPE,
                               stdin=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read, "rb") as reader:
        assert len(reader.read(10)) == 10
    _, err = process.communicate(timeout=60)
    assert process.returncode == 2, err
    assert err == b""


def test_head_of_the_reference_through_the_shell(tmp_path):
    done = subprocess.run(["bash", "-c", '"$@" | head -c 10; exit "${PIPESTATUS[0]}"', "bash", *_command(),
                           "reference"], cwd=tmp_path, capture_output=True, timeout=60)
    assert len(done.stdout) == 10 and done.returncode in (0, 2) and done.stderr == b""   # 0: it all fit the pipe


# ---- -C after the command ---------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [["check"], ["fmt"], ["chart", "base", "--format", "html", "--out", "-"],
                                  ["coverage", "base"], ["new", "series", "other"],
                                  ["explain", "base", SITUATION, "reach", "a"],
                                  ["diff", "base", "base"]])
def test_the_project_may_be_named_after_the_command(args, tmp_path, capsys, monkeypatch):
    """`rulesdsl check -C DIR` was a usage error: only `rulesdsl -C DIR check` worked."""
    from rulesdsl.cli import main
    root = _base_project(tmp_path / "project").root
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    assert main([*args, "-C", str(root)]) == 0, capsys.readouterr().err
    if args[0] == "new":
        assert (root / "rulebooks" / "other.rules").is_file()
    # and after the command it wins over the one before it, as a later option does
    assert main(["-C", str(tmp_path / "elsewhere"), "check", "--project", str(root)]) == 0


def test_commands_with_no_project_take_no_project_option(capsys):
    from rulesdsl.cli import main
    for args in (["reference", "-C", "."], ["docs", "-C", "."], ["lsp", "-C", "."]):
        with pytest.raises(SystemExit) as exit:
            main(args)
        assert exit.value.code == 2
    assert "unrecognized arguments: -C" in capsys.readouterr().err


# ---- positions from 1 -------------------------------------------------------------------------------------

def test_a_whole_file_problem_is_at_line_1_column_1_for_tools(tmp_path, capsys, monkeypatch):
    """`check --format json` gave line 0, column 0 to a problem of a whole file (README: from 1)."""
    from rulesdsl.cli import main
    project = _base_project(tmp_path / "project")
    (project.root / "rulebooks" / "folder.rules").mkdir()
    code, out, _ = project.run("check", "--format", "json", capsys=capsys)
    [entry] = json.loads(out)["diagnostics"]
    assert code == 1 and entry["message"] == "is a directory, not a rulebook file"
    assert [entry[k] for k in ("line", "column", "end_line", "end_column")] == [1, 1, 1, 1]
    code, out, _ = project.run("check", "--format", "github", capsys=capsys)
    assert out == ("::error file=rulebooks/folder.rules,line=1,col=1,endLine=1,endColumn=1,title=rulesdsl::"
                   "is a directory, not a rulebook file\n")


def test_every_position_for_tools_counts_from_1():
    from rulesdsl.errors import Diagnostic, Span, render_github, render_json
    spans = [Span("a.rules"), Span("a.rules", 3, 0), Span("a.rules", 3, 4), Span("a.rules", 3, 4, 3, 9)]
    entries = json.loads(render_json([Diagnostic(f"m{i}", s) for i, s in enumerate(spans)], [], 1))["diagnostics"]
    assert [[e[k] for k in ("line", "column", "end_line", "end_column")] for e in entries] == [
        [1, 1, 1, 1], [3, 1, 3, 1], [3, 4, 3, 4], [3, 4, 3, 9]]
    annotations = render_github([Diagnostic(f"m{i}", s) for i, s in enumerate(spans)])
    numbers = [int(n) for n in re.findall(r"(?:line|col|endLine|endColumn)=(\d+)", annotations)]
    assert len(numbers) == 16 and min(numbers) == 1


# ---- a header's syntax error --------------------------------------------------------------------------------

def _syntax_error(text: str) -> tuple[str, str | None]:
    from rulesdsl.errors import RulesError
    from rulesdsl.language.parser import parse_tree
    from rulesdsl.language.source import Source
    with pytest.raises(RulesError) as raised:
        parse_tree(Source("g.rules", text))
    first = raised.value.diagnostics[0]
    return f"{first.span}: {first.message}", first.hint


def test_junk_after_a_complete_header_says_the_header_ends_its_line():
    """It said "expected one of 'extends', 'version' or end of line" although both were given."""
    message, hint = _syntax_error('game g "G" version "1" extends base foo\n')
    assert message == "g.rules:1:37: unexpected 'foo' after the header, which ends its line"
    assert hint is not None and "start on the lines below it" in hint
    message, _ = _syntax_error('game g "G version 2" version "1" foo\n')      # 'version' in the title is no field
    assert message == ("g.rules:1:34: unexpected 'foo' after the header; expected 'extends' and the id of the "
                       "rulebook it extends, or the end of the line")
    message, _ = _syntax_error('game g "G" foo\n')
    assert message == ("g.rules:1:12: unexpected 'foo' in the header; expected its version, like version \"1.0\" "
                       "or 'extends' and the id of the rulebook it extends")


def test_junk_on_the_line_after_the_header_says_what_starts_a_statement_in_words():
    message, hint = _syntax_error('game g "G" version "1" extends base\nfoo bar\n')
    assert message == "g.rules:2:1: unexpected 'foo'; expected a block or statement of the rulebook here, like " \
                      'rule 6.0 "Title" {'
    assert hint is not None and "a terrain effects chart, a combat results table" in hint
    assert "'version'" not in message + hint and "'extends'" not in message + hint


# ---- paths as seen from where the user stands -----------------------------------------------------------------

GAME = 'game g "G" version "1" extends base\n\nrule 1.0 "x" {\n  summary "y"\n}\n'
LIBRARY_GAME = 'game g "G" version "1" extends scs-1.8\n\nrule 1.0 "x" {\n  summary "y"\n}\n'


def test_paths_are_seen_from_the_current_folder_outside_the_project(tmp_path, capsys, monkeypatch):
    """`rulesdsl -C dir check` from outside printed `rulebooks/g.rules`, a path that is not there."""
    from rulesdsl.cli import main
    project = _base_project(tmp_path / "dir")
    project.write("rulebooks/g.rules", GAME)
    monkeypatch.chdir(tmp_path)
    for args in (["-C", "dir", "check"], ["check", "-C", "dir"]):
        assert main(args) == 1
        err = capsys.readouterr().err
        assert err.startswith("dir/rulebooks/g.rules:3:6: error: rule 1.0 is already defined by base "
                              "(dir/rulebooks/base.rules:11)"), err
    assert main(["-C", "dir", "check", "--format", "json"]) == 1
    assert json.loads(capsys.readouterr().out)["diagnostics"][0]["path"] == "dir/rulebooks/g.rules"
    assert main(["-C", "dir", "check", "--format", "github"]) == 1
    assert capsys.readouterr().out.startswith("::error file=dir/rulebooks/g.rules,line=3,")
    (tmp_path / "away").mkdir()
    monkeypatch.chdir(tmp_path / "away")                # not below it: the absolute path
    assert main(["-C", str(project.root), "check"]) == 1
    assert capsys.readouterr().err.startswith(f"{project.root.as_posix()}/rulebooks/g.rules:3:6: error:")
    monkeypatch.chdir(project.root / "rulebooks")        # inside the project, as before
    assert main(["check"]) == 1
    assert capsys.readouterr().err.startswith("g.rules:3:6: error: rule 1.0 is already defined by base "
                                              "(base.rules:11)")


def test_the_shipped_library_is_named_where_it_is_in_a_source_tree(tmp_path, capsys, monkeypatch):
    """Diagnostics, diff and explain cited `rulesdsl/library/scs-1.8.rules`, which is nowhere; in a source
    tree (an editable install) the shipped series are rulebooks/series/, a real path."""
    from rulesdsl.cli import main
    project = Project(tmp_path / "project")
    project.write("rulebooks/g.rules", LIBRARY_GAME)
    monkeypatch.chdir(ROOT)                      # the repository: the library is below the current folder
    assert main(["-C", str(project.root), "check"]) == 1
    assert "(rulebooks/series/scs-1.8.rules:" in capsys.readouterr().err
    monkeypatch.chdir(project.root)              # elsewhere: its absolute path
    assert main(["check"]) == 1
    cited = re.search(r"already defined by scs-1\.8 \((.*?):(\d+)\)", capsys.readouterr().err)
    assert cited and Path(cited.group(1)) == SERIES_SOURCE, cited
    lines = SERIES_SOURCE.read_text(encoding="utf-8").split("\n")
    assert lines[int(cited.group(2)) - 1].startswith('rule 1.0 ')
    # explain's citations, text and json (from a folder of no project)
    (tmp_path / "away").mkdir()
    monkeypatch.chdir(tmp_path / "away")
    assert main(["explain", "scs-1.8", "map 1.01 - 3.03 open; unit a x 3-2-4 at 2.02", "reach", "a"]) == 0
    out = capsys.readouterr().out
    assert f"scs-1.8, {SERIES_SOURCE.as_posix()}:" in out and "rulesdsl/library" not in out
    assert main(["explain", "scs-1.8", "map 1.01 - 3.03 open; unit a x 3-2-4 at 2.02", "reach", "a",
                 "--format", "json"]) == 0
    sources = {s["source"].rsplit(":", 1)[0] for s in json.loads(capsys.readouterr().out)["steps"] if s["source"]}
    assert sources == {SERIES_SOURCE.as_posix()}


def test_diff_cites_the_shipped_library_where_it_is(tmp_path, capsys, monkeypatch):
    from rulesdsl.cli import main
    project = Project(tmp_path / "project")
    text = SERIES_SOURCE.read_text(encoding="utf-8")
    project.write("rulebooks/g.rules", 'game g "G" version "1" extends scs-1.8\n\nrule G1.0 "Stacking" {\n'
                  '  summary "s"\n  stacking.limit = 6 steps\n}\n')
    project.write("g-1.1.rules", project.root.joinpath("rulebooks/g.rules").read_text().replace("6 steps", "3 steps"))
    assert "stacking.limit" in text
    monkeypatch.chdir(project.root)
    assert main(["diff", "rulebooks/g.rules", "g-1.1.rules"]) == 1
    cited = re.findall(r"^\s+- (.*), line (\d+)$", capsys.readouterr().out, re.M)
    assert cited and {path for path, _ in cited} == {SERIES_SOURCE.as_posix()}
    assert main(["diff", "rulebooks/g.rules", "g-1.1.rules", "--format", "json"]) == 1
    changes = [c for c in json.loads(capsys.readouterr().out)["changes"] if c["area"] == "examples"]
    assert changes and {c["parts"][3] for c in changes} == {SERIES_SOURCE.as_posix()}


def test_seen_path():
    from rulesdsl.project.build import seen_path
    from rulesdsl.project.settings import shipped_folder
    root, here = Path("/p/proj"), Path("/p")
    assert seen_path("rulebooks/x.rules", root, here) == "proj/rulebooks/x.rules"
    assert seen_path("rulebooks/x.rules", root, Path("/p/proj/rulebooks/games")) == "../x.rules"
    assert seen_path("rulebooks/x.rules", root, Path("/q")) == "/p/proj/rulebooks/x.rules"
    assert seen_path("../house/h.rules", root, Path("/q")) == "/p/house/h.rules"      # a library folder's
    assert seen_path("rulesdsl/library/scs-1.8.rules", root, Path("/q")) == \
        (shipped_folder() / "scs-1.8.rules").as_posix()
    for left in ("<stdin>", "<situation>", "HEAD:rulebooks/x.rules", ""):
        assert seen_path(left, root, here) == left


# ---- the build's progress ---------------------------------------------------------------------------------

def test_the_build_progress_counts_a_known_total_from_the_start(tmp_path, capsys, monkeypatch):
    """The bar showed `0/?` until the first card was laid out, and "2 rulebooks compiled" in a project of one."""
    import contextlib
    from rulesdsl import cli
    project = _base_project(tmp_path / "project")
    steps: list[tuple[str, list[tuple[int, int]]]] = []

    @contextlib.contextmanager
    def recorder():
        def step(what):
            calls: list[tuple[int, int]] = []
            steps.append((what, calls))
            return lambda done, total: calls.append((done, total))
        yield step
    monkeypatch.setattr(cli, "_progress", recorder)
    code, _, err = project.run("build", capsys=capsys)
    assert code == 0, err
    [(what, calls)] = steps
    assert what == "1 rulebook compiled; cards"
    cards = len(list((project.root / "generated" / "charts").glob("*.html")))
    assert calls[0] == (0, cards) and calls[-1] == (cards, cards) and all(t == cards for _, t in calls)


def test_the_build_counts_the_projects_rulebooks_not_the_librarys():
    from rulesdsl.cli import compiled
    from rulesdsl.project.passes import Compilation
    one = Compilation(rulebooks=dict.fromkeys(["g", "scs-1.8"]), library={"scs-1.8"})   # type: ignore[arg-type]
    assert compiled(one) == "1 rulebook compiled (and the library's scs-1.8)"
    two = Compilation(rulebooks=dict.fromkeys(["a", "b", "new-x", "scs-1.8"]),  # type: ignore[arg-type]
                      library={"scs-1.8", "new-x"})
    assert compiled(two) == "2 rulebooks compiled (and the library's new-x and scs-1.8)"
    assert compiled(Compilation(rulebooks=dict.fromkeys(["a"]))) == "1 rulebook compiled"   # type: ignore[arg-type]


# ---- diff's exit status, as the README shows it ---------------------------------------------------------------

def test_the_readme_says_diff_exits_1_where_its_own_title_block_runs_it():
    from test_installed import expected_status, readme_steps
    [diff] = [step for step in readme_steps() if step.startswith("rulesdsl diff ")]
    assert expected_status(diff) == 1
    assert all(expected_status(step) == 0 for step in readme_steps() if step != diff)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    title = readme[readme.index("## Your own title"):readme.index("## A short tour")]
    assert "exits 1" in title and "diff(1)" in title


def test_what_build_writes_is_named_as_seen_from_the_current_folder(tmp_path, capsys, monkeypatch):
    """`rulesdsl -C dir build` from outside said `wrote generated/base.py`, which is not there.  (`new` keeps
    naming what it wrote from the project folder: its next steps are commands to run there.)"""
    from rulesdsl.cli import main
    _base_project(tmp_path / "dir")
    monkeypatch.chdir(tmp_path)
    assert main(["build", "-C", "dir"]) == 0
    wrote = [line.split(" ", 1)[1] for line in capsys.readouterr().out.splitlines() if line.startswith("wrote ")]
    assert "dir/generated/base.py" in wrote and all((tmp_path / path).is_file() for path in wrote)
