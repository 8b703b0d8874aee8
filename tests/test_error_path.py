"""The error path on error-heavy input: every diagnostic in its place, all of them printed.

(The timings are in benchmarks/bench_errors.py; tests here check behaviour, not time.)
"""
from __future__ import annotations

import re

from rulesdsl.schema import _BATCH


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
