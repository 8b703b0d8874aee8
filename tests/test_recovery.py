"""A syntax error no longer hides the rest of its file: the parser recovers line by line (parser.py,
`parse_recovering`), the checks run on what parsed, and syntax and other errors are reported together in
source order.  What the dropped text may have caused is not reported (`Recovery.consequence`), a file with
syntax errors is still never built, and what parsed of it is kept in no cache."""
from __future__ import annotations

import random
import re
import zlib

import pytest

from rulesdsl import cache
from rulesdsl.language.parser import parse_recovering
from rulesdsl.language.source import Source
from rulesdsl.language.transform import PartialParse, parse
from rulesdsl.project import build, memo, passes

import fuzzing

HEADER = 'game demo "Demo" version "1.0" extends base\n'

# one syntax error (line 12, a stray '@' on a terrain row), two other errors elsewhere (lines 5 and 21),
# and marsh, the terrain of the broken row, used on line 16: no "unknown terrain 'marsh'" there
THREE = HEADER + '''
rule G1.0 "Stacking" {
  summary "Six steps a hex."
  stacking.limit = 6 hexes
}

override terrain effects chart "Demo TEC" {
  hex:
    open    1  ne
    woods   2  Dx2
    marsh   3  Dx2 @
}

die roll modifiers [G1.0] {
  bog  -1  both  when defender_terrain is marsh
}

rule G2.0 "Zones of control" {
  summary "Entering one costs a point more."
  zoc.entry_cots = +1 MP
}
'''


def _check(project, text: str, capsys, name: str = "demo") -> tuple[int, str]:
    project.add_base()
    project.write(f"rulebooks/{name}.rules", text)
    code, out, err = project.run("check", capsys=capsys)
    assert out == "" and "Traceback" not in err
    return code, err


def _errors(err: str) -> list[str]:
    return re.findall(r"^(rulebooks/\S+:\d+:\d+): error: (.*)$", err, re.M)


def test_a_syntax_error_and_two_errors_elsewhere_are_reported_together_in_order(project, capsys):
    code, err = _check(project, THREE, capsys)
    assert code == 1
    assert _errors(err) == [
        ("rulebooks/demo.rules:5:22", "stacking.limit is measured in steps, not hexes"),
        ("rulebooks/demo.rules:12:20", "unexpected '@'; expected one of 'exerts-no-zoc', 'level', 'line', "
         "'no-overrun', 'no-zoc', a column shift (like 1L or 2R), a combat multiplier (like Dx2 or Ax1/2), a die "
         "roll modifier (like -1 or +2), all-across or any-across, end of line or only_role"),
        ("rulebooks/demo.rules:21:3", "unknown parameter 'zoc.entry_cots'"),
    ]
    # each positioned, with its source line and caret, by the one renderer
    assert "   12 |     marsh   3  Dx2 @\n      |                    ^\n" in err
    assert "   21 |   zoc.entry_cots = +1 MP\n      |   ^~~~~~~~~~~~~~\nhint: did you mean 'zoc.entry_cost'?" in err
    assert err.endswith("2 rulebooks checked: 3 errors\n")


def test_a_broken_parameter_line_hides_no_error_of_another_line_setting_it(project, capsys):
    """A parameter is declared by the series, never by the line that did not parse: another rule that sets
    the same parameter wrongly is reported beside the syntax error (it was held back for sharing the name)."""
    code, err = _check(project, HEADER + '''
rule G1.0 "Broken" {
  summary "A line that does not parse."
  stacking.limit = = 6 steps
}

rule G2.0 "Stacking" {
  summary "Six hexes a hex."
  stacking.limit = 6 hexes
}
''', capsys)
    assert code == 1
    assert [where for where, _ in _errors(err)] == ["rulebooks/demo.rules:5:20", "rulebooks/demo.rules:10:22"]
    assert "stacking.limit is measured in steps, not hexes" in err


def test_a_broken_terrain_row_used_later_is_no_unknown_terrain(project, capsys):
    """The row's terrain is used on line 16: with the row left out it would be unknown there, but the
    broken text names it, so that is no error of its own; the other problems of the file are."""
    _, err = _check(project, THREE, capsys)
    assert "marsh'" not in err and ":16:" not in err
    # without the row at all, the same use is an error: it is the broken text that excuses it
    _, err = _check(project, THREE.replace("    marsh   3  Dx2 @\n", "\n"), capsys)
    assert ("rulebooks/demo.rules:16:43", "unknown terrain 'marsh'") in _errors(err)


def test_a_block_that_lost_a_line_says_nothing_of_itself(project, capsys):
    """Its heading left out, the rows after it would be 'before any heading': a statement that lost a line
    reports its syntax error only, and the rest of the file its own problems."""
    text = THREE.replace("    marsh   3  Dx2 @\n", "    marsh   3  Dx2\n").replace("  hex:\n", "  hex: @\n")
    _, err = _check(project, text, capsys)
    assert [line for line, _ in _errors(err)] == ["rulebooks/demo.rules:5:22", "rulebooks/demo.rules:9:8",
                                                 "rulebooks/demo.rules:21:3"]
    assert "before any heading" not in err


def test_a_broken_line_that_opens_a_block_drops_that_statement_and_the_file_reads_on(project, capsys):
    text = THREE.replace('rule G2.0 "Zones of control" {', 'rule "Zones of control" {') \
        + '\nrule G3.0 "More" {\n  summary "s"\n  stacking.limitt = 6 steps\n}\n'
    _, err = _check(project, text, capsys)
    found = _errors(err)
    assert [line for line, _ in found] == ["rulebooks/demo.rules:5:22", "rulebooks/demo.rules:12:20",
                                           "rulebooks/demo.rules:19:6", "rulebooks/demo.rules:26:3"]
    assert found[2][1] == "expected a rule number (like 6.0c) after 'rule'"
    assert found[3][1] == "unknown parameter 'stacking.limitt'"
    assert "zoc.entry_cots" not in err      # in the statement left out


def test_a_file_with_only_syntax_errors_reports_them_as_before(project, capsys):
    """What the compiler said before recovery went on to the checks (the same two errors, the same words)."""
    text = HEADER + '''
rule G1.0 "Stacking" {
  summary "Six steps a hex."
  stacking.limit 6 steps
}

rule G2.0 "Zones of control" {
  summary "Entering one costs a point more."
  zoc.entry_cost =
}
'''
    code, err = _check(project, text, capsys)
    assert code == 1
    assert err == '''rulebooks/demo.rules:5:18: error: expected '=' between the parameter name and its value
    5 |   stacking.limit 6 steps
      |                  ^
hint: found '6'
rulebooks/demo.rules:10:19: error: expected a value after '=' (like 2 MP, +1 MP, yes, A1)
   10 |   zoc.entry_cost =
      |                   ^
hint: found end of line
2 rulebooks checked: 2 errors
'''


def test_a_block_never_closed_stops_recovery_and_nothing_else_is_checked(project, capsys):
    text = THREE.replace("  zoc.entry_cots = +1 MP\n}\n", "  zoc.entry_cots = +1 MP\n")
    _, err = _check(project, text, capsys)
    assert [message for _, message in _errors(err)] == [
        _errors(_check(project, THREE, capsys)[1])[1][1], "unterminated block: this '{' is never closed"]


def test_a_file_with_syntax_errors_is_never_built(project, capsys):
    project.add_base()
    project.write("rulebooks/demo.rules", THREE)
    code, out, err = project.run("build", capsys=capsys)
    assert code == 1 and len(_errors(err)) == 3
    assert project.tree() == {}      # nothing written


def test_what_parsed_of_a_broken_file_is_kept_in_no_cache(own_cache):
    path = "rulebooks/hollow.rules"
    text = THREE.replace("extends base", "extends scs-1.8").replace("Dx2 @", "Dx2 @ ").replace("demo", "hollow")
    series = build.Library().find("scs-1.8")
    series_path, series_text = series[1], build.read_source(*series).text
    code = memo.code_digest()
    for _ in range(2):
        passes._parse.cache_clear()
        passes._CHECKED.clear()
        result = build.compile_sources([Source(path, text)], generate=False)
        assert sorted(d.span.line for d in result.diagnostics if d.span.path == path) == [5, 12, 21]
        assert result.outputs == {} and "hollow" not in result.resolved
    assert cache.read(memo.PARSED, memo.stamp(memo.PARSED, [(path, text)], code)) is None
    assert cache.read(memo.CHECKED, memo.stamp(memo.CHECKED, [(path, text), (series_path, series_text)], code)) is None
    # the series it extends parsed, and is kept as ever
    assert cache.read(memo.PARSED, memo.stamp(memo.PARSED, [(series_path, series_text)], code)) is not None


def test_a_game_extending_a_broken_series_is_checked_without_its_vocabulary(project, capsys):
    """What the series' broken text declared is unknown: its game is checked as when the series does not
    parse at all (no unknown parameter of it), and the series' own problems are reported."""
    project.write("rulebooks/series.rules", '''series mini "Mini" version "1"

parameters {
  mini.extra  count  "a count" @
}

rule 1.0 "One" {
  summary "s"
  zoc.entry_cots = +1 MP
}
''')
    project.write("rulebooks/game.rules", '''game minigame "Mini game" version "1" extends mini

rule G1.0 "G" {
  summary "s"
  mini.extra = 2
}
''')
    code, out, err = project.run("check", capsys=capsys)
    assert code == 1
    assert [line for line, _ in _errors(err)] == ["rulebooks/series.rules:4:32", "rulebooks/series.rules:9:3"]


def test_what_recovery_keeps_is_the_text_with_the_dropped_lines_blank():
    """Recovery is deletion: the model of what parsed is the model of the text with the lines it left out
    blanked (so positions hold), one line or a whole statement."""
    text = THREE.replace('rule G2.0 "Zones of control" {', 'rule "Zones of control" {')
    with pytest.raises(PartialParse) as caught:
        parse(Source("rulebooks/demo.rules", text))
    recovery = caught.value.recovery
    assert recovery is not None and recovery.dropped == ((12, 12), (19, 22))
    lines = text.split("\n")
    for first, last in recovery.dropped:
        lines[first - 1:last] = [""] * (last - first + 1)
    assert parse(Source("rulebooks/demo.rules", "\n".join(lines))) == caught.value.partial


def test_a_broken_file_is_parsed_in_two_passes_and_a_clean_one_in_one(monkeypatch):
    from rulesdsl.language import parser
    passes = []
    real = parser._LARK

    class Counting:
        def parse(self, text, **kwargs):
            passes.append("parse")
            return real.parse(text, **kwargs)

        def parse_interactive(self, text, **kwargs):
            passes.append("recover")
            return real.parse_interactive(text, **kwargs)

        def __getattr__(self, name):
            return getattr(real, name)

    monkeypatch.setattr(parser, "_LARK", Counting())
    tree, problems, _ = parse_recovering(Source("x.rules", THREE.replace("@", "")))
    assert tree is not None and problems == [] and passes == ["parse"]
    passes.clear()
    broken = THREE.replace("  summary", "  summary @")      # every summary line broken
    tree, problems, recovery = parse_recovering(Source("x.rules", broken))
    assert tree is not None and [p.span.line for p in problems] == [4, 12, 20] and passes == ["parse", "recover"]


# ---- random corruptions of the shipped games: no traceback, and no problem the unbroken game has not --------
# One stray token put between two tokens of one line (so every word of the line is still there, and no line
# moves).  The property: the check of the corrupted game never raises (check would exit 3) and positions every
# problem; and when the corruption is a syntax error, every other problem it reports is one the unbroken game
# has too (by file, line and message): a cascade from the broken line would be a problem of a line that has
# none.  (A corruption that still parses may mean something else: only its not raising is checked.)
STRAYS = ["@", "=", ")", "(", "[", "]", "{", "}", "?", "$", "::", '"', ",", "-", "x2", "when", "rule"]
GAMES = sorted(rel for rel in fuzzing.corpus() if rel.startswith("rulebooks/games/"))


def corruptions(count: int, seed: int = 41) -> list[tuple[str, int, str]]:
    """`count` (game, line, text) corruptions, spread over the shipped games, seeded."""
    files = fuzzing.corpus()
    out = []
    for n in range(count):
        rel = GAMES[n % len(GAMES)]
        rng = random.Random(zlib.crc32(f"{seed}:{rel}:{n}".encode()))
        lines = files[rel].split("\n")
        k = rng.choice([i for i, line in enumerate(lines) if line.strip() and not line.strip().startswith("#")])
        line = lines[k]
        gaps = [i for i, c in enumerate(line) if c == " " and (i == 0 or line[i - 1] != " ")] + [len(line)]
        at = rng.choice(gaps)
        lines[k] = line[:at] + " " + rng.choice(STRAYS) + line[at:]
        out.append((rel, k + 1, "\n".join(lines)))
    return out


def _problems(rel: str, text: str) -> list:
    return build.compile_sources([Source(rel, text)], examples=False, generate=False).diagnostics


@pytest.fixture(scope="module")
def unbroken() -> dict[str, set[tuple[str, int, str]]]:
    files = fuzzing.corpus()
    return {rel: {(d.span.path, d.span.line, d.message) for d in _problems(rel, files[rel])} for rel in GAMES}


def _judge(rel: str, line: int, text: str, unbroken: dict[str, set[tuple[str, int, str]]]) -> str | None:
    try:
        found = _problems(rel, text)
    except Exception as exc:     # noqa: BLE001 - what `check` would print as a bug (exit 3)
        return f"{rel}:{line}: {type(exc).__name__}: {exc}"
    for d in found:
        if d.span.line <= 0:
            return f"{rel}:{line}: unpositioned: {d.message}"
    _, syntax, _ = parse_recovering(Source(rel, text))
    if not syntax:
        return None
    for d in found:
        if d not in syntax and (d.span.path, d.span.line, d.message) not in unbroken[rel]:
            return f"{rel}:{line} {text.split(chr(10))[line - 1].strip()!r}: {d.span}: {d.message}"
    return None


SAMPLE = 45             # in every run of the tests (about a second)
BUDGET = 300            # the fuzz job's (`pytest -m fuzz`), in shards
SHARDS = 3


def test_corruptions_of_the_shipped_games_cascade_nowhere(unbroken):
    failures = [f for rel, line, text in corruptions(SAMPLE) if (f := _judge(rel, line, text, unbroken))]
    assert failures == []


@pytest.mark.fuzz
@pytest.mark.parametrize("shard", range(SHARDS))
def test_a_few_hundred_corruptions_cascade_nowhere(shard, unbroken):
    items = corruptions(BUDGET)[shard::SHARDS]
    failures = [f for rel, line, text in items if (f := _judge(rel, line, text, unbroken))]
    assert failures == []
    assert sum(bool(parse_recovering(Source(rel, text))[1]) for rel, _, text in items) > len(items) / 2


def test_corruptions_through_the_command_line_exit_1_never_3(project, capsys):
    from rulesdsl.cli import main
    project.add_repo_rulebooks()
    for rel, line, text in corruptions(6, seed=7):
        original = (fuzzing.ROOT / rel).read_text(encoding="utf-8")
        project.write(rel, text)
        try:
            code = main(["--project", str(project.root), "check", rel])
        finally:
            project.write(rel, original)
        _, err = capsys.readouterr()
        assert code in (0, 1) and "Traceback" not in err, (rel, line, err)


def test_twenty_syntax_errors_still_get_the_checks_and_a_21st_stops_there():
    from rulesdsl.language.parser import MAX_SYNTAX_ERRORS
    rule = 'rule G{n}.0 "R" {{\n  summary "s"\n  stacking.limit 6 steps\n}}\n'

    def text(count: int) -> str:
        return HEADER + "".join(rule.format(n=n) for n in range(1, count + 1))
    tree, problems, recovery = parse_recovering(Source("x.rules", text(MAX_SYNTAX_ERRORS)))
    assert tree is not None and recovery is not None and len(problems) == MAX_SYNTAX_ERRORS
    tree, problems, recovery = parse_recovering(Source("x.rules", text(MAX_SYNTAX_ERRORS + 1)))
    assert tree is None and recovery is None and len(problems) == MAX_SYNTAX_ERRORS
