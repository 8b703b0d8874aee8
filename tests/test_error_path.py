"""The error path on error-heavy input: every diagnostic in its place, all of them printed.

(The timings are in benchmarks/bench_errors.py; tests here check behaviour, not time.)
"""
from __future__ import annotations

import re

import pytest

from rulesdsl.errors import RulesError

from rulesdsl.checks.schema import _BATCH


def _series(count: int, broken: dict[int, str]) -> tuple[str, dict[int, int]]:
    """A series of `count` rules; rule i gets the summary line broken[i]; the line of each."""
    out, lines = ['series big "Big" version "1.0"', ""], {}
    for i in range(count):
        out.append(f'rule {i + 1}.0 "Rule {i}" {{')
        summary = broken.get(i, f'summary "Rule {i}."')
        lines[i] = len(out) + 1
        out += ["  " + summary, "}", ""]
    return "\n".join(out), lines


def test_schema_errors_of_rules_in_later_batches_point_at_their_rules(project, capsys):
    """The schema validates rules in batches; an error's rule index is counted across batches."""
    wrong = {2: 'summary ""', _BATCH - 1: 'note "none"', _BATCH: 'summary "' + "x" * 241 + '"',
             2 * _BATCH + 5: 'summary ""', 3 * _BATCH + 1: 'note "none"'}
    text, lines = _series(3 * _BATCH + 3, wrong)
    path = project.write("rulebooks/big.rules", text)
    code, out, err = project.run("check", str(path), capsys=capsys)
    assert code == 1
    found = [(int(m.group(1)), m.group(2)) for m in re.finditer(r"big\.rules:(\d+):\d+: error: (.*)", err)]
    expected = sorted([(lines[2], "summary is empty"), (lines[_BATCH - 1] - 1, "rule has no summary"),
                       (lines[_BATCH], "summary is too long (241 characters, at most 240)"),
                       (lines[2 * _BATCH + 5], "summary is empty"),
                       (lines[3 * _BATCH + 1] - 1, "rule has no summary")])
    assert found == expected


def test_check_prints_every_diagnostic_and_counts_them(project, capsys):
    """No cap: 300 errors are 300 positioned diagnostics, in file order, then the count."""
    text, lines = _series(300, {i: 'summary ""' for i in range(300)})
    path = project.write("rulebooks/big.rules", text)
    code, out, err = project.run("check", str(path), capsys=capsys)
    assert code == 1
    positions = [int(n) for n in re.findall(r"^rulebooks/big\.rules:(\d+):\d+: error: summary is empty$", err, re.M)]
    assert positions == [lines[i] for i in range(300)]
    assert err.endswith("1 rulebook checked: 300 errors\n")


def test_overrides_of_nothing_are_hinted_from_what_the_series_defines(project, capsys, monkeypatch):
    """The nearest rules come from the rulebooks extended (a game cannot override its own rule),
    and their index is built once for the book, not again after each of the game's own rules."""
    import rulesdsl.errors as errors
    from rulesdsl.project.build import compile_project
    project.add_base()
    body = ['game demo "Demo" version "1.0" extends base', ""]
    for i in range(60):
        body += [f'rule 3.{i + 2}e "Own {i}" {{', '  summary "Own."', "}", "",
                 f"override rule 3.{i + 2}f {{", '  summary "Nothing to override."', "}", ""]
    path = project.write("rulebooks/demo.rules", "\n".join(body))
    builds = 0
    init = errors.Suggester.__init__

    def counted(self, *args, **kwargs):
        nonlocal builds
        builds += 1
        init(self, *args, **kwargs)

    monkeypatch.setattr(errors, "_SUGGESTERS", {})
    monkeypatch.setattr(errors.Suggester, "__init__", counted)
    diagnostics = compile_project(project.root, [path]).diagnostics
    hints = [d.hint for d in diagnostics if d.message.startswith("override of rule")]
    assert len(hints) == 60
    named = {r for h in hints if h.startswith("the nearest rules are ") for r in h[22:].split(", ")}
    assert named and named <= {"rounding", "1.0", "2.1a", "3.1e", "6.0c", "7.4"}, named  # base's rules
    assert builds <= 2


def test_syntax_recovery_reads_a_big_file_twice_whatever_the_number_of_errors(monkeypatch):
    """Recovery goes back to the end of the line before a broken one and reads on, in one pass: a broken
    file is parsed twice (once to find it broken, once recovering), however many its syntax errors, and
    every independent one is reported, in a big file as in a small one."""
    from rulesdsl.language import parser
    from rulesdsl.language.source import Source
    calls = []
    real = parser._LARK

    class Counting:
        def parse(self, text, **kwargs):    # start=: the grammar has two start symbols
            calls.append(len(text))
            return real.parse(text, **kwargs)

        def parse_interactive(self, text, **kwargs):
            calls.append(len(text))
            return real.parse_interactive(text, **kwargs)

        def __getattr__(self, name):
            return getattr(real, name)

    monkeypatch.setattr(parser, "_LARK", Counting())
    rule = 'rule {n}.0 "R" {{\n  summary "s"\n  note "{pad}"\n}}\n'
    body = "".join(rule.format(n=n, pad="x" * 200) for n in range(1, 6000))
    broken = "".join(f'rule {n}.1 "B" {{\n  summary "s"\n  a.b 2 MP\n}}\n' for n in range(1, 20))
    text = 'series big "Big" version "1"\n' + body + broken
    with pytest.raises(RulesError) as caught:
        parser.parse_tree(Source("rulebooks/big.rules", text))
    assert len(caught.value.diagnostics) == 19
    assert len(calls) == 2
    calls.clear()
    with pytest.raises(RulesError) as caught:
        parser.parse_tree(Source("rulebooks/small.rules", 'series s "S" version "1"\n' + broken))
    assert len(caught.value.diagnostics) == 19
    assert len(calls) == 2
