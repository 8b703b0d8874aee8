"""`check --format json` (a stable schema for tools) and `check --format github` (workflow annotations):
the same diagnostics as the text renderer, on standard output, with the same exit status."""
from __future__ import annotations

import io
import json
import re
import sys

from rulesdsl.errors import JSON_SCHEMA, Diagnostic, Span, render_github, render_json

GAME = '''game demo "Demo Game" version "1.0" extends base

override terrain effects chart "Demo TEC" {
  hex:
    wods  2  Dx2
}
'''


def test_json_gives_every_field_of_every_diagnostic_and_the_exit_status(project, capsys):
    project.add_base()
    project.write("rulebooks/demo.rules", 'game demo "Demo" version "1" extends base\n\nrule G1.0 "x" {\n  summary "y"\n  zoc.entry_cost = 2 MP\n}\n')
    code, out, err = project.run("check", "--format", "json", capsys=capsys)
    assert code == 1 and err == ""
    found = json.loads(out)
    assert found["schema"] == JSON_SCHEMA == 1
    assert (found["checked"], found["errors"]) == (2, 1) and found["errors"] == len(found["diagnostics"])
    [entry] = found["diagnostics"]
    assert set(entry) == {"path", "line", "column", "end_line", "end_column", "severity", "message", "hint"}
    assert entry["path"] == "rulebooks/demo.rules" and entry["severity"] == "error"
    assert entry["line"] == 5 and entry["column"] >= 1 and entry["end_column"] > entry["column"]
    # the text renderer says the same at the same place
    code, text_out, text_err = project.run("check", capsys=capsys)
    assert code == 1 and text_out == ""
    assert text_err.startswith(f"rulebooks/demo.rules:{entry['line']}:{entry['column']}: error: {entry['message']}")


def test_json_of_a_clean_project_is_empty_and_exits_0(project, capsys):
    project.add_base()
    code, out, err = project.run("check", "--format", "json", capsys=capsys)
    assert (code, err) == (0, "")
    assert json.loads(out) == {"schema": 1, "checked": 1, "errors": 0, "warnings": 0, "diagnostics": [], "notes": []}


def test_json_paths_are_seen_from_the_current_folder(project, capsys, monkeypatch):
    project.add_base()
    project.write("rulebooks/demo.rules", 'game demo "Demo" version "1" extends base\n\nrule G1.0 "x" {\n  summary "y"\n  zoc.entry_cost = 2 MP\n}\n')
    monkeypatch.chdir(project.root / "rulebooks")
    code, out, _ = project.run("check", "--format", "json", capsys=capsys)
    assert code == 1 and json.loads(out)["diagnostics"][0]["path"] == "demo.rules"


def test_a_syntax_error_and_a_warning_are_json_too(project, capsys):
    project.add_base()
    project.write("rulebooks/demo.rules", GAME)
    code, out, _ = project.run("check", "--format", "json", capsys=capsys)
    found = json.loads(out)
    assert code == 0 and (found["errors"], found["warnings"]) == (0, 1)
    assert "woods" in found["diagnostics"][0]["message"] + (found["diagnostics"][0]["hint"] or "")
    project.write("rulebooks/demo.rules", 'game demo "Demo" version "1" extends base\nrule {\n')
    code, out, _ = project.run("check", "--format", "json", capsys=capsys)
    [entry] = json.loads(out)["diagnostics"]
    assert code == 1 and entry["line"] == 2 and entry["message"].startswith("expected a rule number")


def test_github_annotations_escape_what_the_workflow_syntax_reads():
    span = Span("rulebooks/a,b:c.rules", 3, 5, 3, 9)
    line = render_github([Diagnostic("100% wrong\x1b[31m", span, "fix it\nhere"),
                          Diagnostic("a warning", Span("x.rules", 1, 1, 1, 2), severity="warning"),
                          Diagnostic("a note", Span("x.rules"), severity="note")])
    error, note, warning = line.splitlines()      # in the text renderer's order: by file, line, column
    assert error == ("::error file=rulebooks/a%2Cb%3Ac.rules,line=3,col=5,endLine=3,endColumn=9,title=rulesdsl::"
                     "100%25 wrong\\x1b[31m%0Ahint: fix it\\nhere")
    assert warning.startswith("::warning file=x.rules,line=1,col=1,")
    assert note == "::notice file=x.rules,line=1,col=1,endLine=1,endColumn=1,title=rulesdsl::a note"  # from 1


def test_github_format_from_the_command_line(project, capsys):
    project.add_base()
    project.write("rulebooks/demo.rules", 'game demo "Demo" version "1" extends base\n\nrule G1.0 "x" {\n  summary "y"\n  zoc.entry_cost = 2 MP\n}\n')
    code, out, err = project.run("check", "--format", "github", capsys=capsys)
    assert code == 1 and err == "" and out.startswith("::error file=rulebooks/demo.rules,line=5,")


def test_json_escapes_control_characters():
    text = render_json([Diagnostic("bad \x1b name", Span("a.rules", 1, 1, 1, 2))], [], 1)
    assert "\x1b" not in text and json.loads(text)["diagnostics"][0]["message"] == "bad \x1b name"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_diagnostics_are_coloured_on_a_terminal_only(project, capsys, monkeypatch):
    from rulesdsl.cli import main
    project.add_base()
    project.write("rulebooks/demo.rules", 'game demo "Demo" version "1" extends base\n\nrule G1.0 "x" {\n  summary "y"\n  zoc.entry_cost = 2 MP\n}\n')
    code, _, plain = project.run("check", capsys=capsys)          # captured: not a terminal, no colour
    assert code == 1 and "\x1b" not in plain
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("TERM", raising=False)
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    monkeypatch.chdir(project.root)                                 # where project.run stands
    assert main(["--project", str(project.root), "check"]) == 1
    shown = terminal.getvalue()
    assert "\x1b[1;31merror:" in shown and "\x1b[1;32mhint:" in shown
    assert _ANSI.sub("", shown) == plain                             # the colour changes no character
    for variable, value in (("NO_COLOR", "1"), ("TERM", "dumb")):
        monkeypatch.setenv(variable, value)
        terminal = _Terminal()
        monkeypatch.setattr(sys, "stderr", terminal)
        assert main(["--project", str(project.root), "check"]) == 1 and "\x1b" not in terminal.getvalue()
        monkeypatch.delenv(variable)


def test_a_rulebook_cannot_style_the_coloured_output():
    from rulesdsl.errors import coloured, render_all
    text = render_all([Diagnostic("bad [bold]x[/bold] \x1b[31m", Span("a.rules", 1, 1, 1, 2))], {"a.rules": "x\n"})
    shown = coloured(text)
    assert "[bold]x[/bold]" in shown and "\x1b[31m" not in shown     # markup stays text; an escape stays escaped
