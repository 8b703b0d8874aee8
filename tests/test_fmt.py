"""`rulesdsl fmt`: canonical, idempotent, comment-keeping, and never changes meaning."""
from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import FIXTURES, ROOT
from rulesdsl.errors import RulesError
from rulesdsl.language.fmt import format_source, format_text
from rulesdsl.language.source import Source
from rulesdsl.language.transform import parse

SHIPPED = sorted((ROOT / "rulebooks").rglob("*.rules")) + [ROOT / "rulesdsl/cards/labels/charts.rules"]


def _parses(path: Path) -> bool:
    try:
        parse(Source(str(path), path.read_text(encoding="utf-8")))
        return True
    except (RulesError, UnicodeDecodeError):
        return False


FIXTURE_FILES = [p for p in sorted((ROOT / "tests/errors").glob("*.rules")) + [FIXTURES / "base.rules"]
                 if _parses(p)]


@pytest.mark.parametrize("path", SHIPPED + FIXTURE_FILES, ids=lambda p: p.name)
def test_format_is_idempotent_and_keeps_meaning(path):
    text = path.read_text(encoding="utf-8")
    once = format_text(text)
    assert format_text(once) == once
    assert parse(Source("x.rules", once)) == parse(Source("x.rules", text))
    comments = re.findall(r"#.*", re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', text))
    assert re.findall(r"#.*", re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', once)) == [c.rstrip() for c in comments]


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_shipped_rulebooks_are_canonical(path):
    assert format_text(path.read_text(encoding="utf-8")) == path.read_text(encoding="utf-8")


def _perturb(text: str, rng: random.Random) -> str:
    """The same tokens with other whitespace: runs of spaces, indentation, trailing spaces,
    and more blank lines where there is a blank line (one blank line is kept as written)."""
    out = []
    for line in text.split("\n"):
        if not line.strip():
            out.extend([" " * rng.randint(0, 3)] * rng.randint(1, 3))
            continue
        pieces = re.split(r'("(?:[^"\\\n]|\\.)*"|#.*)', line)
        rebuilt = [piece if i % 2 else re.sub(r" +", lambda m: " " * rng.randint(1, 4), piece)
                   for i, piece in enumerate(pieces)]
        out.append(" " * rng.randint(0, 6) + "".join(rebuilt).strip() + " " * rng.randint(0, 2))
    return "\n".join(out)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(SHIPPED + [FIXTURES / "base.rules"]), st.integers(0, 2 ** 32))
def test_any_whitespace_formats_back_to_the_canonical_text(path, seed):
    text = path.read_text(encoding="utf-8")
    assert format_text(_perturb(text, random.Random(seed))) == format_text(text)


def test_a_broken_rulebook_is_reported_and_left_alone(project, capsys):
    broken = project.write("rulebooks/broken.rules", 'series x "X" version "1"\nrule 1.0 "A" {\n  summary "a"\n')
    before = broken.read_bytes()
    code, out, err = project.run("fmt", str(broken), capsys=capsys)
    assert code == 123 and "unterminated block" in err
    assert broken.read_bytes() == before
    with pytest.raises(RulesError):
        format_source(Source("broken.rules", before.decode()))


def test_fmt_check_and_rewrite(project, capsys):
    path = project.write("rulebooks/base.rules", (FIXTURES / "base.rules").read_text().replace("  summary", "      summary"))
    code, _, err = project.run("fmt", "--check", capsys=capsys)
    assert code == 1 and "not canonical: rulebooks/base.rules" in err
    code, out, _ = project.run("fmt", capsys=capsys)
    assert code == 0 and "formatted rulebooks/base.rules" in out
    assert project.run("fmt", "--check", capsys=capsys)[0] == 0
    assert path.read_text() == format_text(path.read_text())


# fmt as black and ruff format behave: --diff, '-' for standard input and output, a count, exit 123.

CANONICAL = format_text((FIXTURES / "base.rules").read_text(encoding="utf-8"))
MESSY = CANONICAL.replace("\n  summary", "\n      summary")
BROKEN = 'series x "X" version "1"\nrule 1.0 "A" {\n  summary "a"\n'


def _rulesdsl(*args: str, cwd: Path, stdin: bytes = b"") -> subprocess.CompletedProcess:
    exe = shutil.which("rulesdsl")
    command = [exe] if exe else [sys.executable, "-m", "rulesdsl"]
    return subprocess.run(command + list(args), cwd=cwd, input=stdin, capture_output=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def _apply(text: str, diff: str) -> str:
    """`text` with a unified diff applied (hunks in order), as patch would."""
    lines, out, at = text.split("\n"), [], 0
    for hunk in re.split(r"^(?=@@ )", diff, flags=re.M)[1:]:
        start = int(re.match(r"@@ -(\d+)", hunk).group(1)) - 1
        out += lines[at:start]
        at = start
        for line in hunk.split("\n")[1:]:
            if line[:1] == "+":
                out.append(line[1:])
            elif line[:1] in (" ", "-"):
                assert lines[at] == line[1:], (at, line)
                at += 1
                if line[:1] == " ":
                    out.append(line[1:])
    return "\n".join(out + lines[at:])


def test_fmt_diff_prints_what_would_change_and_writes_nothing(project, capsys):
    messy = project.write("rulebooks/messy.rules", MESSY)
    project.write("rulebooks/tidy.rules", CANONICAL.replace("series base", "series tidy"))
    code, out, err = project.run("fmt", "--diff", capsys=capsys)
    assert code == 1, err
    assert out.startswith("--- rulebooks/messy.rules\t(original)\n+++ rulebooks/messy.rules\t(formatted)\n@@ ")
    assert '-      summary "Halves and more round up."\n+  summary "Halves and more round up."\n' in out
    assert "tidy.rules" not in out
    assert _apply(MESSY, out) == CANONICAL
    assert messy.read_text(encoding="utf-8") == MESSY
    assert err.splitlines() == ["not canonical: rulebooks/messy.rules",
                                "1 file would be reformatted, 1 file already canonical"]
    assert project.run("fmt", capsys=capsys)[0] == 0
    code, out, err = project.run("fmt", "--diff", capsys=capsys)
    assert (code, out, err) == (0, "", "2 files already canonical\n")


@pytest.mark.skipif(not shutil.which("git"), reason="git applies the patch")
def test_git_apply_takes_the_diff_as_it_is(project, capsys):
    messy = project.write("rulebooks/messy.rules", MESSY.rstrip("\n") + "\n  # the end")   # no final newline
    code, out, _ = project.run("fmt", "--diff", capsys=capsys)
    assert code == 1 and "\\ No newline at end of file" in out
    project.write("fix.patch", out)
    run = subprocess.run(["git", "apply", "-p0", "fix.patch"], cwd=project.root, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert messy.read_text(encoding="utf-8") == CANONICAL + "# the end\n"
    assert project.run("fmt", "--check", capsys=capsys)[0] == 0


def test_the_diff_marks_a_last_line_without_a_newline():
    from rulesdsl.language.fmt import unified_diff
    diff = unified_diff("x.rules", 'series x "X"  version "1"', 'series x "X" version "1"\n')
    assert diff.splitlines() == ["--- x.rules\t(original)", "+++ x.rules\t(formatted)", "@@ -1 +1 @@",
                                 '-series x "X"  version "1"', "\\ No newline at end of file",
                                 '+series x "X" version "1"']
    assert unified_diff("x.rules", "a\n", "a\n") == ""


@pytest.mark.parametrize("messy, tidy, wording", [
    (1, 2, "1 file would be reformatted, 2 files already canonical"),
    (2, 1, "2 files would be reformatted, 1 file already canonical"),
    (2, 0, "2 files would be reformatted"),
])
def test_fmt_check_counts_the_files_like_black(messy, tidy, wording, project, capsys):
    for i in range(messy):
        project.write(f"rulebooks/m{i}.rules", MESSY.replace("series base", f"series m{i}"))
    for i in range(tidy):
        project.write(f"rulebooks/t{i}.rules", CANONICAL.replace("series base", f"series t{i}"))
    code, out, err = project.run("fmt", "--check", capsys=capsys)
    assert code == 1 and out == ""
    assert err.splitlines()[-1] == wording
    assert err.count("not canonical: ") == messy
    code, out, err = project.run("fmt", capsys=capsys)
    assert code == 0 and out.splitlines()[-1] == ", ".join(
        [f"{messy} file{'s' if messy > 1 else ''} formatted"]
        + ([f"{tidy} file{'s' if tidy > 1 else ''} already canonical"] if tidy else []))
    code, out, err = project.run("fmt", "--check", capsys=capsys)
    assert (code, out, err) == (0, f"{messy + tidy} files already canonical\n", "")


def test_a_file_named_twice_is_counted_once(project, capsys):
    path = project.write("rulebooks/m.rules", MESSY)
    code, out, err = project.run("fmt", "--check", str(path), str(project.root / "rulebooks/../rulebooks/m.rules"),
                                 capsys=capsys)
    assert code == 1 and err.splitlines()[-1] == "1 file would be reformatted"


def test_a_rulebook_that_does_not_parse_exits_123_with_a_positioned_error(project, capsys):
    broken = project.write("rulebooks/broken.rules", BROKEN)
    for mode in ((), ("--check",), ("--diff",)):
        code, out, err = project.run("fmt", *mode, str(broken), capsys=capsys)
        assert code == 123, mode
        assert out == "", mode
        assert err.splitlines() == [
            "rulebooks/broken.rules:2:14: error: unterminated block: this '{' is never closed",
            '    2 | rule 1.0 "A" {',
            "      |              ^",
            "hint: add the closing '}' at the end of the block",
            "1 file could not be formatted"], mode
        assert broken.read_text(encoding="utf-8") == BROKEN


def test_one_bad_file_does_not_stop_the_others(project, capsys):
    broken = project.write("rulebooks/broken.rules", BROKEN)
    messy = project.write("rulebooks/messy.rules", MESSY)
    tidy = project.write("rulebooks/tidy.rules", CANONICAL.replace("series base", "series tidy"))
    code, out, err = project.run("fmt", "--check", capsys=capsys)
    assert code == 123   # could not be formatted outranks would be reformatted
    assert "rulebooks/broken.rules:2:14: error: unterminated block" in err
    assert "not canonical: rulebooks/messy.rules" in err
    assert err.splitlines()[-1] == \
        "1 file would be reformatted, 1 file already canonical, 1 file could not be formatted"
    assert messy.read_text(encoding="utf-8") == MESSY
    code, out, err = project.run("fmt", capsys=capsys)
    assert code == 123
    assert out == "formatted rulebooks/messy.rules\n"
    assert err.splitlines()[-1] == "1 file formatted, 1 file already canonical, 1 file could not be formatted"
    assert messy.read_text(encoding="utf-8") == CANONICAL
    assert broken.read_text(encoding="utf-8") == BROKEN
    assert tidy.read_text(encoding="utf-8") == CANONICAL.replace("series base", "series tidy")
    assert not list(project.root.rglob("*.tmp"))


def test_a_file_that_cannot_be_written_is_left_whole_and_the_others_are_written(project, capsys, monkeypatch):
    import rulesdsl.project.build as build     # the command line imports it when a command runs
    first = project.write("rulebooks/a.rules", MESSY)
    second = project.write("rulebooks/b.rules", MESSY.replace("series base", "series b"))
    real = build.write_atomically

    def failing(file, content):
        if file.name == "a.rules":
            raise PermissionError(13, "Permission denied")
        real(file, content)

    monkeypatch.setattr(build, "write_atomically", failing)
    code, out, err = project.run("fmt", capsys=capsys)
    assert code == 123
    assert "rulebooks/a.rules: error: cannot write the formatted file: Permission denied (file left as it is)" in err
    assert out == "formatted rulebooks/b.rules\n"
    assert err.splitlines()[-1] == "1 file formatted, 1 file could not be formatted"
    assert first.read_text(encoding="utf-8") == MESSY
    assert second.read_text(encoding="utf-8") == CANONICAL.replace("series base", "series b")


def test_stdin_to_stdout_outside_any_project(tmp_path):
    run = _rulesdsl("fmt", "-", cwd=tmp_path, stdin=MESSY.encode())
    assert (run.returncode, run.stdout, run.stderr) == (0, CANONICAL.encode(), b"")
    again = _rulesdsl("fmt", "-", cwd=tmp_path, stdin=run.stdout)
    assert (again.returncode, again.stdout, again.stderr) == (0, CANONICAL.encode(), b"")
    crlf = _rulesdsl("fmt", "-", cwd=tmp_path, stdin=MESSY.replace("\n", "\r\n").encode())
    assert (crlf.returncode, crlf.stdout) == (0, CANONICAL.encode())
    assert list(tmp_path.iterdir()) == []   # nothing written


def test_stdin_with_check_and_diff_prints_only_the_status_or_the_diff(tmp_path):
    run = _rulesdsl("fmt", "--check", "-", cwd=tmp_path, stdin=CANONICAL.encode())
    assert (run.returncode, run.stdout) == (0, b"")
    run = _rulesdsl("fmt", "--check", "-", cwd=tmp_path, stdin=CANONICAL.replace("\n", "\r\n").encode())
    assert (run.returncode, run.stdout) == (1, b"")
    assert run.stderr.decode().splitlines() == ["not canonical: <stdin>", "1 file would be reformatted"]
    run = _rulesdsl("fmt", "--diff", "-", cwd=tmp_path, stdin=CANONICAL.replace("\n", "\r\n").encode())
    assert (run.returncode, run.stdout) == (1, b"")   # the text is canonical: only its line ends are not
    assert run.stderr.decode().splitlines()[0] == "<stdin>: would lose its CRLF or CR line ends"
    run = _rulesdsl("fmt", "--diff", "--stdin-filename", "rulebooks/x.rules", cwd=tmp_path,
                    stdin=MESSY.replace("\n", "\r\n").encode())
    assert run.returncode == 1
    diff = run.stdout.decode()
    assert diff.startswith("--- rulebooks/x.rules\t(original)\n+++ rulebooks/x.rules\t(formatted)\n")
    assert _apply(MESSY, diff) == CANONICAL


def test_stdin_that_does_not_parse_exits_123_under_its_given_name(tmp_path):
    run = _rulesdsl("fmt", "--stdin-filename", "rulebooks/x.rules", "-", cwd=tmp_path, stdin=BROKEN.encode())
    assert (run.returncode, run.stdout) == (123, b"")
    err = run.stderr.decode().splitlines()
    assert err[0] == "rulebooks/x.rules:2:14: error: unterminated block: this '{' is never closed"
    assert err[1:3] == ['    2 | rule 1.0 "A" {', "      |              ^"]
    run = _rulesdsl("fmt", "-", cwd=tmp_path, stdin=b"series \xff")
    assert (run.returncode, run.stdout) == (123, b"")
    assert run.stderr.decode().startswith("<stdin>:1:8: error: file is not UTF-8 text")


def test_stdin_is_the_only_path(project, capsys):
    path = project.write("rulebooks/a.rules", CANONICAL)
    code, _, err = project.run("fmt", "-", str(path), capsys=capsys)
    assert code == 2 and "'-' (standard input) must be the only PATH" in err
    code, _, err = project.run("fmt", "--stdin-filename", "x.rules", str(path), capsys=capsys)
    assert code == 2 and "--stdin-filename names standard input" in err


def test_no_standard_input_is_a_reported_error(project, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", None)
    code, out, err = project.run("fmt", "-", capsys=capsys)
    assert (code, out) == (123, "")
    assert err.splitlines() == ["<stdin>: error: cannot read standard input: there is none",
                                "1 file could not be formatted"]
