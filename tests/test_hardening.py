"""Hostile input and a hostile environment (issue 23): each reproducer of the issue gives a clear error, or the
right result, and nothing the build did not write is deleted or replaced."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES

GAME = """game g "G" version "1" extends base

rule G1.0 "Stacking" {
  summary "Six steps a hex."
  stacking.limit = 6 steps
}
"""


def _files(root: Path) -> dict[str, bytes]:
    """Every regular file of a project, outside generated/: what no build may touch."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and not p.is_symlink() and "generated" not in p.relative_to(root).parts}


# ---- division by zero --------------------------------------------------------------------------------------

@pytest.mark.parametrize("line", [
    "define z = 1 / 0",
    "define z = 2 / (1 - 1)",
    "define zero = 0\n  define z = 3 / zero",
    "define z = 1 / g.nothing",          # a parameter set to 0
])
def test_division_by_a_constant_zero_is_a_compile_error(project, capsys, line):
    project.add_base()
    project.write("rulebooks/g.rules", GAME + f"""
parameters "G's own" {{
  g.nothing  number  "a value set to zero"
}}

rule G2.0 "Zero" {{
  summary "Divides."
  g.nothing = 0
  {line}
}}
""")
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1
    assert "error: division by zero: the divisor is always 0" in err
    assert "Traceback" not in err


def test_a_divisor_that_may_be_zero_warns_and_names_its_place_when_it_is(project, capsys):
    """A DRM condition that divides by a count: a warning at check; the example where the count is 0 fails at
    its expect line, naming where the rulebook divides, never a traceback."""
    project.write("rulebooks/g.rules", GAME.replace("extends base", "extends scs-1.8") + """
die roll modifiers "Odd ratio" [7.4] {
  ratio  +1  both  when count(attackers) / count(defenders where steps > 3) > 1
}

combat results table "G CRT" [7.4] dice 2d6 {
  odds   1:1  2:1  3:1  4:1
  2-6    A1   A1   D1   D1
  7-12   A1   D1   D1   D1
}

example "Ratio" [7.4] {
  map 1.01 - 3.03 open
  phasing friendly
  unit 1 friendly 4-4-5 at 1.01 type infantry
  unit 2 enemy 1-1-5 at 2.01 type infantry
  expect combat 1 on 2.01 roll 4
}
""")
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1, err
    assert "rulebooks/g.rules:9:44: warning: this divides by an amount that may be 0" in err
    assert "rulebooks/g.rules:23:10: error: the combat cannot be resolved: rulebooks/g.rules:9:44: a rulebook " \
           "expression divided by 0" in err
    assert "Traceback" not in err


def test_a_guarded_divisor_is_no_warning(project, capsys):
    project.add_base()
    project.write("rulebooks/g.rules", GAME + """
die roll modifiers "Odd ratio" [7.4] {
  ratio  +1  both  when count(attackers) / max(count(defenders where steps > 3), 1) > 1
}
""")
    code, _, err = project.run("check", capsys=capsys)
    assert code == 0 and "warning" not in err, err


# ---- the folder a build writes -----------------------------------------------------------------------------

def _game_project(project) -> None:
    project.add_base()
    project.write("rulebooks/g.rules", GAME)
    project.write("charts/mine.html", "<p>the user's own chart</p>")


@pytest.mark.parametrize("how, says", [
    ("symlink to the project", "generated is a symlink (to .)"),
    ("symlink elsewhere", "generated is a symlink"),
    ("a file", "generated is in the way: it is a file, not a folder"),
    ("a fifo inside", "generated/p is a named pipe (FIFO)"),
])
def test_a_build_refuses_a_folder_it_may_not_replace(project, capsys, how, says, tmp_path):
    """`generated` as a symlink to `.` made a build swap the project folder itself for a copy and delete the
    user's charts/*.html, with exit 0; a file named generated was hidden as a staging folder."""
    _game_project(project)
    target = project.root / "generated"
    if how == "symlink to the project":
        target.symlink_to(".")
    elif how == "symlink elsewhere":
        (tmp_path / "elsewhere").mkdir()
        target.symlink_to(tmp_path / "elsewhere")
    elif how == "a file":
        target.write_text("mine")
    else:
        target.mkdir()
        os.mkfifo(target / "p")
    before = _files(project.root)
    for args in (("build",), ("build", "--check")):
        code, _, err = project.run(*args, capsys=capsys)
        assert code == 2, err
        assert says in err and "Traceback" not in err
    assert _files(project.root) == before
    assert not list(project.root.glob(".rulesdsl-*")) and not list(project.root.parent.glob(".rulesdsl-*"))
    if how == "symlink elsewhere":
        assert list((tmp_path / "elsewhere").iterdir()) == []


def test_a_package_inside_the_rulebooks_is_refused(project, capsys):
    _game_project(project)
    project.write("pyproject.toml", '[tool.rulesdsl]\npackage = "rulebooks_out"\n')
    (project.root / "rulebooks_out").symlink_to("rulebooks")
    code, _, err = project.run("build", capsys=capsys)
    assert code == 2 and "rulebooks_out is a symlink" in err


def test_a_settings_file_linked_outside_the_project_is_not_read(project, capsys, tmp_path):
    """A project could make the compiler print the first bad line of any readable file."""
    _game_project(project)
    secret = tmp_path / "secret.txt"
    secret.write_text("password = hunter2 [\n")
    (project.root / "pyproject.toml").symlink_to(secret)
    code, out, err = project.run("build", capsys=capsys)
    assert code == 1
    assert "pyproject.toml: error: symlink to a file outside the project (not followed)" in err
    assert "hunter2" not in out + err


# ---- rulesdsl new ------------------------------------------------------------------------------------------

def test_new_refuses_a_name_whose_module_collides(project, capsys):
    project.add_base()
    project.write("rulebooks/a.1.rules", GAME.replace("game g \"G\"", "game a.1 \"A\""))
    before = _files(project.root)
    code, _, err = project.run("new", "game", "a-1", "--extends", "base", capsys=capsys)
    assert code == 2
    assert "'a-1' makes the module name 'a_1', which 'a.1' (rulebooks/a.1.rules) makes already" in err
    assert _files(project.root) == before


def test_new_extends_lists_series_only(project, capsys):
    project.add_base()
    project.write("rulebooks/g.rules", GAME)
    code, _, err = project.run("new", "game", "x", "--extends", "nope", capsys=capsys)
    assert code == 2
    known = err.split("known: ")[1].split(", ")
    assert "g" not in [k.strip() for k in known] and "base" in err


# ---- the environment is not an internal error -------------------------------------------------------------

@pytest.mark.parametrize("out, says", [("", "an empty name"), (".", "it is a folder"), ("/", "it is a folder"),
                                       ("/nonexistent-folder/x.md", "does not exist")])
def test_a_bad_out_path_is_a_usage_error(project, capsys, out, says):
    _game_project(project)
    for args in (("reference", "-o", out), ("chart", "g", "--format", "html", "--out", out),
                 ("diff", str(project.root / "rulebooks/g.rules"), str(project.root / "rulebooks/g.rules"),
                  "--out", out)):
        with pytest.raises(SystemExit) if out == "" else _nothing():
            code, _, err = project.run(*args, capsys=capsys)
            assert code == 2 and (says in err or "No such file or directory" in err), (args, err)


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> bool:
        return False


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
@pytest.mark.parametrize("args", [["reference"], ["check"]])
def test_a_full_standard_output_is_an_error_not_a_bug(args):
    base = FIXTURES / "base.rules"
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "rulesdsl", *args, *([str(base)] if args == ["check"] else [])],
                              stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().endswith("rulesdsl: error: standard output: No space left on device")
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr


def test_control_characters_in_a_rulebook_never_reach_a_card_raw(project, capsys):
    """NUL and ESC in rulebook strings reached the committed HTML cards as they were."""
    project.write("rulebooks/g.rules", GAME.replace("extends base", "extends scs-1.8")
                  .replace('"G" version', '"G\x00\x1b[31m" version') + """
rule G2.0 "Red\x1b[31m" {
  summary "A NUL\x00 and an ESC\x1b[2J in a summary."
}
""")
    code, _, err = project.run("build", capsys=capsys)
    assert code == 0, err
    for card in (project.root / "generated" / "charts").glob("*.html"):
        html = card.read_text(encoding="utf-8")
        assert "\x00" not in html and "\x1b" not in html
    html = (project.root / "generated" / "charts" / "g.en.html").read_text(encoding="utf-8")
    assert "\\x1b[31m" in html


def test_pdf_rendering_leaves_no_font_folder_behind(tmp_path):
    """WeasyPrint writes a 4-5 MB font folder per configuration and removes it only when the object is
    collected; a card-layout worker never collects it, and every cold build left one folder per card in the
    user's temporary folder. A process, and a pool worker, now leave nothing there."""
    import subprocess
    import sys
    script = (
        "import concurrent.futures, multiprocessing\n"
        "from rulesdsl.cards import pdf\n"
        "def card(_):\n"
        "    return len(pdf._render('<p>Woods</p>').write_pdf())\n"
        "if __name__ == '__main__':\n"
        "    assert card(0) > 0\n"
        "    with concurrent.futures.ProcessPoolExecutor(2, mp_context=multiprocessing.get_context('fork')) as pool:\n"
        "        assert all(size > 0 for size in pool.map(card, range(3)))\n"
    )
    folder = tmp_path / "tmp"
    folder.mkdir()
    run = subprocess.run([sys.executable, "-c", script], env={**os.environ, "TMPDIR": str(folder)},
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert list(folder.iterdir()) == []


def test_explain_takes_inline_lines_of_any_length(project, capsys):
    """The lines of a situation given inline are never looked up as a file name (a long one made the system
    refuse the name: 'File name too long')."""
    project.add_repo_rulebooks()
    units = "; ".join(f"unit u{i} blue 1-1-4 at 2.{i + 2:02d}" for i in range(40))
    code, out, err = project.run("explain", "scs-1.8", f"map 1.01 - 9.50 open; {units}", "stack", "2.02",
                                 capsys=capsys)
    assert (code, err) == (0, "") and out.endswith("answer: legal size 1\n")


def test_a_long_unexpected_token_is_cut_in_the_message(project, capsys):
    project.add_repo_rulebooks()
    code, _, err = project.run("explain", "scs-1.8", "x" * 5000, "stack", "2.02", capsys=capsys)
    first = err.splitlines()[0]
    assert code == 1 and first.startswith("<situation>:1:1: error: unexpected '" + "x" * 60 + "...' (5,000 characters);")
    assert len(first) < 400
