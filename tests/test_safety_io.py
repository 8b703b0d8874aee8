"""What rulesdsl reads and writes around the rulebooks, used with hostile input: git never gets an option
from the command line, files outside the project are not followed, inputs are regular files under a size
limit, terminal and Markdown output show a rulebook's text as text, and `chart --out` never crashes."""
from __future__ import annotations

import html as html_module
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from conftest import FIXTURES, ROOT, Project
from rulesdsl.project import build as project_module
from rulesdsl.language import source as source_module
from rulesdsl.errors import Diagnostic, Span, render, visible
from rulesdsl.language.source import MAX_SOURCE_BYTES, read_source

DEMO = (FIXTURES / "diff" / "demo-1.0.rules").read_text(encoding="utf-8")
SERIES = ROOT / "rulebooks" / "series" / "scs-1.8.rules"
# what a terminal acts on: ESC (colours, cursor, window title), BEL, CSI as one C1 byte, a bidi override
TERMINAL = ("\x1b", "\x07", "\x9b", "\u202e")


@pytest.fixture
def demo(tmp_path) -> Project:
    """A project with scs-1.8 and the demo game, committed to git and tagged v1.0."""
    project = Project(tmp_path / "project")
    shutil.copy(SERIES, project.root / "rulebooks" / "scs-1.8.rules")
    project.write("rulebooks/demo.rules", DEMO)
    return project


def git(project: Project, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=test", "-c", "user.email=test@example.invalid",
                    "-c", "init.defaultBranch=main", *args], cwd=project.root, check=True, capture_output=True)


def committed(project: Project) -> Project:
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "v1.0")
    git(project, "tag", "v1.0")
    return project


def files_under(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if ".git" not in p.parts}


# ---- 1. git ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("spec, says", [
    ("--output=victim:x", "'--output=victim' is not a git revision"),
    ("-o:victim", "'-o' is not a git revision"),
    ("--end-of-options:victim", "is not a git revision"),
    ("HEAD:--output=victim", "--output=victim does not exist in HEAD"),
    ("--output=victim HEAD:rulebooks/demo.rules", "is not a git revision"),
    ("HEAD --output=victim:rulebooks/demo.rules", "is not a commit"),
    (":rulebooks/demo.rules", "give REV:PATH"),
])
def test_a_diff_side_never_reaches_git_as_an_option(demo, capsys, monkeypatch, spec, says):
    committed(demo)
    monkeypatch.chdir(demo.root)
    before = files_under(demo.root)
    code, out, err = demo.run("diff", "--", "rulebooks/demo.rules", spec, capsys=capsys)
    assert code == 2, err
    assert says in err and err.startswith("rulesdsl: error: cannot read ")
    assert files_under(demo.root) == before          # git wrote no file (it did: --output=victim:x)
    assert not any("victim" in name for name in os.listdir(demo.root))


def test_git_sides_still_read_a_tagged_file_and_refuse_what_is_not_a_file(demo, capsys, monkeypatch):
    committed(demo)
    monkeypatch.chdir(demo.root)
    demo.write("rulebooks/demo.rules", DEMO.replace("at most 1 MP", "at most 2 MP"))
    code, out, err = demo.run("diff", "v1.0:rulebooks/demo.rules", "rulebooks/demo.rules", capsys=capsys)
    assert code == 1 and "Overrun targets may cost at most 2 MP." in out, err
    code, out, err = demo.run("diff", "v1.0:rulebooks", "rulebooks/demo.rules", capsys=capsys)
    assert code == 2 and "rulebooks is a tree, not a file in v1.0" in err
    code, out, err = demo.run("diff", "v1.0~3:rulebooks/demo.rules", "rulebooks/demo.rules", capsys=capsys)
    assert code == 2 and "'v1.0~3' is not a commit" in err


def test_a_git_blob_that_is_not_utf8_is_a_positioned_error(demo, capsys, monkeypatch):
    demo.write("rulebooks/demo.rules", DEMO.encode() + b"\n# caf\xe9\n")
    committed(demo)
    monkeypatch.chdir(demo.root)
    code, out, err = demo.run("diff", "v1.0:rulebooks/demo.rules", "rulebooks/scs-1.8.rules", capsys=capsys)
    lines = DEMO.count("\n") + 2
    assert code == 2 and f"v1.0:rulebooks/demo.rules:{lines}:6: error: file is not UTF-8 text (byte 0xe9" in err


def test_a_git_blob_over_the_size_limit_is_refused(demo, capsys, monkeypatch):
    committed(demo)
    monkeypatch.chdir(demo.root)
    monkeypatch.setattr(source_module, "MAX_SOURCE_BYTES", 100)
    code, out, err = demo.run("diff", "v1.0:rulebooks/demo.rules", "v1.0:rulebooks/demo.rules", capsys=capsys)
    assert code == 2 and "file is too large for a rulebook" in err


def test_side_loading_belongs_to_the_project_loader():
    import rulesdsl.errata.diff as diff
    assert not hasattr(diff, "load_snapshot") and not hasattr(diff, "load_source")
    assert "subprocess" not in Path(diff.__file__).read_text(encoding="utf-8")
    assert callable(project_module.load_rulebook_side)


# ---- 2. Markdown (and HTML, JSON) ------------------------------------------------------------------
HOSTILE_MD = "<script>x</script> | *b* **s** _e_ `c` [l](javascript:x) ![i](x) ~~s~~ &amp; <b>b</b> \\*n # h ##"


def quoted(text: str) -> str:
    """`text` as a rulebook string literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def hostile_pair(project: Project, title: str) -> tuple[str, str]:
    """Two versions of the demo game; the new one has `title` as its title, two rule titles and a summary."""
    old = project.write("old.rules", DEMO)
    new = project.write("new.rules", DEMO.replace('"Demo Game"', quoted(title))
                        .replace('"Stacking limit"', quoted(title)).replace('"Bridges"', quoted(title))
                        .replace('"Engineers may repair a blown bridge in one turn."', quoted(title)))
    return str(old), str(new)


def test_markdown_shows_every_rulebook_text_as_text(demo, capsys):
    old, new = hostile_pair(demo, HOSTILE_MD)
    code, out, err = demo.run("diff", "--format", "md", old, new, capsys=capsys)
    assert code == 1, err
    assert "<script>" not in out and "<b>" not in out
    md = MarkdownIt("commonmark").enable("table").enable("strikethrough")
    tokens = md.parse(out)
    every = tokens + [child for t in tokens for child in (t.children or [])]
    markup = {t.type for t in every} - {"heading_open", "heading_close", "inline", "text", "paragraph_open",
                                        "paragraph_close", "table_open", "table_close", "thead_open",
                                        "thead_close", "tbody_open", "tbody_close", "tr_open", "tr_close",
                                        "th_open", "th_close", "td_open", "td_close", "softbreak"}
    assert markup == set(), markup                     # no html, link, image, code, em, strong, s
    rendered = md.render(out)
    headings = ["".join(c.content for c in tokens[i + 1].children) for i, t in enumerate(tokens)
                if t.type == "heading_open"]
    assert headings[0] == f"Errata: {HOSTILE_MD}: 1.0 to 1.0"
    assert f"G1.0 {HOSTILE_MD}" in headings               # with its closing '#'s kept
    rows = [line for line in out.splitlines() if line.startswith("| title")]
    assert rows and all(line.count("|") - line.count("\\|") == 5 for line in rows)   # four cells each
    cells = [html_module.unescape(c) for c in __import__("re").findall(r"<td>(.*?)</td>", rendered)]
    assert HOSTILE_MD in cells


def test_markdown_leaves_ordinary_names_alone(demo, capsys):
    old, new = str(FIXTURES / "diff" / "demo-1.0.rules"), str(FIXTURES / "diff" / "demo-1.1.rules")
    code, out, err = demo.run("diff", "--format", "md", old, new, capsys=capsys)
    assert "to be allowed | 1 MP | 2 MP | rules |" in out and "### 6.0c Target hex cost limit" in out


def test_html_errata_is_escaped_and_json_keeps_the_text(demo, capsys):
    old, new = hostile_pair(demo, HOSTILE_MD)
    code, out, err = demo.run("diff", "--format", "html", old, new, capsys=capsys)
    assert code == 1 and "<script>x" not in out and "&lt;script&gt;x&lt;/script&gt;" in out
    assert "<b>b</b>" not in out
    code, out, err = demo.run("diff", "--format", "json", old, new, capsys=capsys)
    report = json.loads(out)
    assert report["new"]["title"] == HOSTILE_MD


# ---- 3. terminal output ----------------------------------------------------------------------------
def test_visible_shows_control_characters_as_escapes():
    assert visible("a\x1b[31mb\x07c\x9bd\u202ee\x00f\x7f\tg\nh\ri") == \
        "a\\x1b[31mb\\x07c\\x9bd\\u202ee\\x00f\\x7f\tg\\nh\\ri"
    assert visible("ünïcødé ⚔ 1/2 «» \u200d") == "ünïcødé ⚔ 1/2 «» \u200d"


def test_the_caret_stays_under_the_token_after_escapes():
    line = 'rule G1.0 "\x1b[31mred\x9b\u202e" oops {'
    column = line.index("oops") + 1
    span = Span("x\x1b[2J.rules", 1, column, 1, column + 4)
    text = render(Diagnostic("unexpected 'oops\x1b]0;title\x07'", span, hint="remove \x1b[1mit"), {span.path: line})
    assert not any(c in text for c in TERMINAL)
    header, echoed, caret, hint = text.split("\n")
    assert header == f"x\\x1b[2J.rules:1:{column}: error: unexpected 'oops\\x1b]0;title\\x07'"
    assert hint == "hint: remove \\x1b[1mit"
    assert echoed == '    1 | rule G1.0 "\\x1b[31mred\\x9b\\u202e" oops {'
    assert caret.index("^") == echoed.index("oops") and caret.endswith("^~~~")


def test_the_caret_under_an_escaped_character_covers_its_escape():
    span = Span("x.rules", 1, 4, 1, 5)
    text = render(Diagnostic("bad character", span), {"x.rules": "ab \x1b z"})
    echoed, caret = text.split("\n")[1:]
    assert echoed.endswith("ab \\x1b z") and caret.index("^") == echoed.index("\\x1b")
    assert caret.endswith("^~~~")


def test_check_and_fmt_show_escapes_for_rulebook_text_and_file_names(demo, capsys):
    demo.write("rulebooks/\x1b[31mred.rules", 'game red "Red\x1b]0;pwned\x07" version "1.0" extends nothing\n'
               'rule G1.0 "\x1b[2J" {\n  summary "x"\n  \x9b31m\n}\n')
    code, out, err = demo.run("check", capsys=capsys)
    assert code == 1 and "rulebooks/\\x1b[31mred.rules:" in err
    assert not any(c in out + err for c in TERMINAL)
    demo.write("rulebooks/\x1b[31mred.rules", DEMO.replace("demo", "red").replace("rule G1.0", "rule   G1.0"))
    code, out, err = demo.run("fmt", "--check", capsys=capsys)
    assert code == 1 and "not canonical: rulebooks/\\x1b[31mred.rules" in err
    assert not any(c in out + err for c in TERMINAL)


@pytest.mark.parametrize("fmt", ["text", "md", "json", "html"])
def test_diff_output_shows_escapes_in_every_format(demo, capsys, fmt):
    title = "Red\x1b[31m \x9b2J \u202eevil\x07"
    old, new = hostile_pair(demo, title)
    code, out, err = demo.run("diff", "--format", fmt, old, new, capsys=capsys)
    assert code == 1, err
    assert not any(c in out + err for c in TERMINAL)
    if fmt == "json":
        assert json.loads(out)["new"]["title"] == title        # the data survives, escaped
    else:
        shown = "Red\\x1b[31m \\x9b2J \\u202eevil\\x07"
        assert (shown.replace("[", "\\[") if fmt == "md" else shown) in out


def test_chart_to_standard_output_shows_escapes(demo, capsys):
    demo.write("rulebooks/demo.rules", DEMO.replace("Demo Game", "Demo\x1b]0;pwned\x07 Game"))
    code, out, err = demo.run("chart", "demo", "--out", "-", capsys=capsys)
    assert code == 0, err
    assert "Demo\\x1b]0;pwned\\x07 Game" in out and not any(c in out for c in TERMINAL)


# ---- 4. files outside the project ------------------------------------------------------------------
@pytest.fixture
def outside(tmp_path) -> Path:
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    (folder / "secret.rules").write_text("SECRET-FIRST-LINE do not show\n", encoding="utf-8")
    return folder


REFUSED = "error: symlink to a file outside the project (not followed)"


def test_a_rulebook_symlinked_out_of_the_project_is_refused_unread(demo, capsys, outside):
    (demo.root / "rulebooks" / "evil.rules").symlink_to(outside / "secret.rules")
    for command in (["check"], ["build", "--check"], ["fmt", "--check"], ["check", "rulebooks/evil.rules"]):
        code, out, err = demo.run(*command, capsys=capsys) if command[-1] != "rulebooks/evil.rules" else \
            demo.run("check", str(demo.root / "rulebooks" / "evil.rules"), capsys=capsys)
        assert code == (123 if command[0] == "fmt" else 1), command   # fmt: a file it cannot read
        assert f"rulebooks/evil.rules: {REFUSED}" in err, (command, err)
        assert "SECRET" not in out + err
    assert (outside / "secret.rules").read_text(encoding="utf-8").startswith("SECRET")   # fmt left it be


def test_a_symlinked_folder_out_of_the_project_is_refused(demo, capsys, outside):
    (demo.root / "rulebooks" / "ext").symlink_to(outside, target_is_directory=True)
    code, out, err = demo.run("check", str(demo.root / "rulebooks" / "ext" / "secret.rules"), capsys=capsys)
    assert code == 1 and f"rulebooks/ext/secret.rules: {REFUSED}" in err and "SECRET" not in err
    code, out, err = demo.run("diff", str(demo.root / "rulebooks/ext/secret.rules"), "demo", capsys=capsys)
    assert code == 2 and REFUSED in err and "SECRET" not in err


def test_a_symlink_out_is_refused_when_named_through_another_name_of_the_project(demo, capsys, outside, tmp_path):
    (demo.root / "rulebooks" / "evil.rules").symlink_to(outside / "secret.rules")
    alias = tmp_path / "alias"
    alias.symlink_to(demo.root, target_is_directory=True)
    code, out, err = demo.run("check", str(alias / "rulebooks" / "evil.rules"), capsys=capsys)
    assert code == 1 and REFUSED in err and "SECRET" not in err


def test_diff_never_reads_an_outside_symlink_even_to_look_up_an_id(demo, capsys, outside):
    (demo.root / "rulebooks" / "evil.rules").symlink_to(outside / "secret.rules")
    code, out, err = demo.run("diff", "demo", "demo", capsys=capsys)      # ids: the symlink is skipped
    assert (code, out) == (0, "no semantic changes\n"), err
    code, out, err = demo.run("diff", "--resolved", "demo", "demo", capsys=capsys)
    assert (code, out) == (0, "no semantic changes\n"), err


def test_symlinks_inside_the_project_and_files_named_outside_it_are_read(demo, capsys, outside, tmp_path):
    demo.write("shared/demo.rules", DEMO)
    (demo.root / "rulebooks" / "demo.rules").unlink()
    (demo.root / "rulebooks" / "demo.rules").symlink_to(Path("..") / "shared" / "demo.rules")
    code, out, err = demo.run("check", capsys=capsys)
    assert code == 0, err
    mine = tmp_path / "mine.rules"                    # named by the user, outside the project: their choice
    mine.write_text(DEMO.replace("game demo", "game mine"), encoding="utf-8")
    code, out, err = demo.run("check", str(mine), capsys=capsys)
    assert code == 0, err


# ---- 5. size limit, non-regular files --------------------------------------------------------------
def test_the_size_limit_leaves_room_for_big_rulebooks():
    assert MAX_SOURCE_BYTES >= 16 * 1024 * 1024     # a 50,000-line rulebook is about 3 MB


def test_a_file_over_the_limit_is_refused_unread(demo, capsys):
    big = demo.root / "rulebooks" / "big.rules"
    with big.open("wb") as handle:
        handle.truncate(MAX_SOURCE_BYTES + 1)          # sparse: nothing is written
    code, out, err = demo.run("check", capsys=capsys)
    assert code == 1 and "rulebooks/big.rules: error: file is too large for a rulebook " \
        f"({MAX_SOURCE_BYTES + 1:,} bytes; the limit is 16 MiB)" in err


def test_a_file_at_the_limit_is_read(tmp_path):
    file = tmp_path / "limit.rules"
    file.write_bytes(b"#" * (MAX_SOURCE_BYTES - 1) + b"\n")
    assert len(read_source(file, "limit.rules").text) == MAX_SOURCE_BYTES


def test_reading_stops_after_the_limit_even_when_the_size_said_less(tmp_path, monkeypatch):
    file = tmp_path / "grows.rules"
    file.write_bytes(b"# x\n" * 100)
    monkeypatch.setattr(source_module, "MAX_SOURCE_BYTES", 10)
    real_fstat = os.fstat
    monkeypatch.setattr(source_module.os, "fstat", lambda fd: os.stat_result(
        (*real_fstat(fd)[:6], 5, *real_fstat(fd)[7:])))   # st_size = 5: it grew after fstat
    with pytest.raises(source_module.RulesError) as caught:
        read_source(file, "grows.rules")
    assert "file is too large for a rulebook (more than 10 bytes" in caught.value.diagnostics[0].message


def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    # a subprocess, so that a hang shows as a failure rather than a stuck test run
    return subprocess.run([sys.executable, "-m", "rulesdsl", *args], cwd=cwd, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_dev_zero_is_refused_not_read(demo):
    diff = run_cli("diff", "/dev/zero", "rulebooks/demo.rules", cwd=demo.root)
    assert diff.returncode == 2 and "/dev/zero: error: is a device, not a rulebook file" in diff.stderr
    check = run_cli("check", "/dev/zero", cwd=demo.root)
    assert check.returncode == 1 and "/dev/zero: error: is a device, not a rulebook file" in check.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_is_refused_without_waiting_for_a_writer(demo):
    os.mkfifo(demo.root / "rulebooks" / "pipe.rules")
    check = run_cli("check", cwd=demo.root)
    assert check.returncode == 1
    assert "rulebooks/pipe.rules: error: is a named pipe (FIFO), not a rulebook file" in check.stderr
    diff = run_cli("diff", "rulebooks/pipe.rules", "demo", cwd=demo.root)
    assert diff.returncode == 2 and "is a named pipe (FIFO)" in diff.stderr


def test_a_directory_is_still_reported_as_one(demo, capsys):
    (demo.root / "rulebooks" / "folder.rules").mkdir()
    code, out, err = demo.run("check", str(demo.root / "rulebooks" / "folder.rules"), capsys=capsys)
    assert code == 1 and "rulebooks/folder.rules: error: is a directory, not a rulebook file" in err


# ---- 6. chart --out ----------------------------------------------------------------------------------
def test_chart_into_a_missing_folder_is_a_clear_error(demo, capsys, monkeypatch):
    monkeypatch.chdir(demo.root)
    before = files_under(demo.root)
    code, out, err = demo.run("chart", "rulebooks/demo.rules", "--out", "missing-dir/x.html", capsys=capsys)
    assert code == 2, err
    assert err == ("rulesdsl: error: cannot write missing-dir/x.html: the folder missing-dir does not exist "
                   "(nothing was written)\n")
    assert files_under(demo.root) == before


def test_chart_onto_a_folder_fails_cleanly_and_leaves_no_temporary_file(demo, capsys, monkeypatch):
    monkeypatch.chdir(demo.root)
    (demo.root / "taken.html").mkdir()
    before = files_under(demo.root)
    code, out, err = demo.run("chart", "demo", "--out", "taken.html", capsys=capsys)
    assert code == 2 and "rulesdsl: error: cannot write taken.html: it is a folder; give a file name (nothing was written)" in err
    assert files_under(demo.root) == before


def test_chart_writes_atomically(demo, capsys, monkeypatch):
    monkeypatch.chdir(demo.root)
    (demo.root / "card.html").write_text("old card", encoding="utf-8")
    code, out, err = demo.run("chart", "demo", "--out", "card.html", capsys=capsys)
    assert (code, out) == (0, "wrote card.html\n"), err
    assert (demo.root / "card.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert sorted(os.listdir(demo.root)) == ["card.html", "rulebooks"]

    def fail(*args):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(project_module.os, "replace", fail)
    (demo.root / "card.html").write_text("old card", encoding="utf-8")
    code, out, err = demo.run("chart", "demo", "--out", "card.html", capsys=capsys)
    assert code == 2 and "cannot write card.html: No space left on device (nothing was written)" in err
    assert (demo.root / "card.html").read_text(encoding="utf-8") == "old card"
    assert sorted(os.listdir(demo.root)) == ["card.html", "rulebooks"]


def test_chart_writes_through_a_link_and_into_a_pipe_never_replacing_them(demo, capsys, monkeypatch):
    """`--out` onto something that is not a regular file writes into it: a symbolic link stays a link (its
    target gets the card), a pipe gets the card (as /dev/null would, which a rename would replace)."""
    import threading
    monkeypatch.chdir(demo.root)
    (demo.root / "cards").mkdir()
    (demo.root / "cards" / "real.html").write_text("old card", encoding="utf-8")
    (demo.root / "link.html").symlink_to(demo.root / "cards" / "real.html")
    code, out, err = demo.run("chart", "demo", "--out", "link.html", capsys=capsys)
    assert code == 0, err
    assert (demo.root / "link.html").is_symlink()
    assert (demo.root / "cards" / "real.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")

    pipe = demo.root / "pipe"
    os.mkfifo(pipe)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(pipe.read_bytes()))
    reader.start()
    code, out, err = demo.run("chart", "demo", "--out", "pipe", capsys=capsys)
    reader.join(timeout=60)
    assert code == 0, err
    assert pipe.exists() and not pipe.is_file()                  # still a pipe, not a file put in its place
    assert received and received[0].startswith(b"<!DOCTYPE html>")
    assert not [n for n in os.listdir(demo.root) if n.endswith(".tmp")]
