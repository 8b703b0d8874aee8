"""Every parameter accounted for: `descriptive REASON` in a declaration, and `rulesdsl coverage`."""
from __future__ import annotations

import json
import re

import pytest

from conftest import ROOT
from rulesdsl.model import catalogue, ir
from rulesdsl.errata import diff
from rulesdsl.project.coverage import CATEGORIES, category, measure, render_text
from rulesdsl.language.fmt import format_text
from rulesdsl.project.build import compile_project, compile_sources
from rulesdsl.project.reference import declaration_text
from rulesdsl.runtime.contract import ENGINE_PARAMETERS
from rulesdsl.language.source import Source
from rulesdsl.language.transform import parse

# A standalone game: one engine parameter, two combat parameters (one descriptive), one outside the engine.
GAME = '''game drill "Drill" version "1.0"

parameters "Drill" [1.0] {
  combat.announced  flag  descriptive table-talk  "whether attacks are announced before any is rolled"
  combat.pairs      flag  "whether attackers pair off"
  victory.points    count  "how many points win"
  counters.colour   choice red, blue  descriptive components  "the colour of the counters"
}

rule 1.0 "Drill" {
  summary "Everything the drill sets."
  zoc.range = 1 hex
  combat.announced = yes
  combat.pairs = no
  victory.points = 10
}
'''


def _resolved(text: str = GAME) -> ir.Resolved:
    compilation = compile_sources([Source("rulebooks/drill.rules", text)])
    assert compilation.diagnostics == []
    return compilation.resolved["drill"]


# ---- descriptive: grammar, IR, fmt, diff, reference ---------------------------------------------------
def test_a_declaration_says_why_no_engine_function_reads_it():
    book = parse(Source("drill.rules", GAME))
    declarations = {d.name.value: d for d in book.parameter_declarations[0].declarations}
    assert declarations["combat.announced"].descriptive is ir.Reason.TABLE_TALK
    assert declarations["counters.colour"].descriptive is ir.Reason.COMPONENTS
    assert [o.value for o in declarations["counters.colour"].options] == ["red", "blue"]
    assert declarations["combat.pairs"].descriptive is None
    assert _resolved().declared["combat.announced"].descriptive == "table-talk"


def test_an_unknown_reason_is_a_positioned_error(project, capsys):
    project.write("rulebooks/drill.rules", GAME.replace("descriptive table-talk", "descriptive whim"))
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1
    assert "rulebooks/drill.rules:4:39: error: unexpected 'whim'; expected why no engine function reads it " \
           "(table-talk, components or intent)" in err


def test_fmt_gives_the_reason_a_column_of_its_own():
    text = format_text(GAME)
    assert '  combat.announced  flag              descriptive table-talk  "whether attacks' in text
    assert '  combat.pairs      flag                                      "whether attackers pair off"' in text
    assert '  counters.colour   choice red, blue  descriptive components  "the colour' in text
    assert format_text(text) == text
    assert parse(Source("drill.rules", text)) == parse(Source("drill.rules", GAME))


def test_diff_reports_a_parameter_becoming_descriptive():
    old = parse(Source("drill.rules", GAME.replace("descriptive table-talk  ", "")))
    changes = diff.compare(diff.snapshot(old), diff.snapshot(parse(Source("drill.rules", GAME))))
    assert any("table-talk" in str(change) for change in changes), changes


def test_the_reference_writes_the_reason_in_the_declaration():
    declared = _resolved().declared["counters.colour"]
    assert declaration_text(declared) == \
        'counters.colour  choice red, blue  descriptive components  "the colour of the counters"'


# ---- coverage -------------------------------------------------------------------------------------------
def test_each_parameter_in_effect_is_executed_descriptive_unaccounted_or_outside():
    coverage = measure(_resolved())
    status = {e.name: e.status for e in coverage.entries}
    assert status == {"zoc.range": "executed", "combat.announced": "descriptive", "combat.pairs": "unaccounted",
                      "victory.points": "outside"}   # counters.colour is declared, not in effect
    assert coverage.counts() == {"in_effect": 3, "executed": 1, "descriptive": 1, "unaccounted": 1}
    assert coverage.counts("combat") == {"in_effect": 2, "executed": 0, "descriptive": 1, "unaccounted": 1}
    zoc = next(e for e in coverage.entries if e.name == "zoc.range")
    assert (zoc.drives, zoc.rule, zoc.source) == ("the engine's `zoc`", "1.0", "rulebooks/drill.rules:12")
    text = render_text(coverage)
    assert "combat.pairs" in text.split("unaccounted: neither")[1].split("descriptive:")[0]
    assert "executed: 1 of 3 (33%)" in text


def test_a_parameter_read_by_the_rulebooks_own_expression_is_executed():
    text = GAME.replace('  combat.pairs      flag  "whether attackers pair off"',
                        '  combat.pairs      flag  "whether attackers pair off"\n'
                        '  combat.pair_factor  number  "what a paired attacker\'s strength is multiplied by"')
    text = text.replace("  combat.pairs = no\n", "  combat.pairs = no\n  combat.pair_factor = 2\n") + """
strength factors [1.0] {
  paired  attack  combat.pair_factor when attack > 1
}
"""
    entries = {e.name: e for e in measure(_resolved(text)).entries}
    assert entries["combat.pair_factor"].status == "executed"
    assert "strength factor paired" in (entries["combat.pair_factor"].drives or "")
    assert entries["combat.pairs"].status == "unaccounted"


def test_every_engine_parameter_falls_in_a_category_of_its_function():
    assert all(category(p.name) in CATEGORIES for p in ENGINE_PARAMETERS)
    assert category("map.off_map_movement") == "movement" and category("map.leaving_map_destroys") == "retreat"
    assert category("road_movement.road_cost") == category("reaction.may_enter_ezoc") == "movement"
    assert category("bombardment.air_rating") is None and category("map.hex_number_interval") is None


@pytest.mark.parametrize("spec", ["scs-1.8", "rulebooks/games/ridgeline.rules"])
def test_the_command_prints_the_figure_per_category_and_json(spec, capsys, monkeypatch):
    from rulesdsl.cli import main
    monkeypatch.chdir(ROOT)
    assert main(["coverage", spec]) == 0
    out = capsys.readouterr().out
    for name in CATEGORIES:
        assert re.search(rf"^{name} +\d+ +\d+ +\d+ +\d+ +(\d+%|-)$", out, re.M), name
    assert "outside the engine's scope" in out
    assert main(["coverage", spec, "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert set(document["categories"]) == set(CATEGORIES)
    total = document["total"]
    assert total["in_effect"] == total["executed"] + total["descriptive"] + total["unaccounted"] \
        == len(document["executed"]) + len(document["descriptive"]) + len(document["unaccounted"])


def test_an_unknown_rulebook_is_a_usage_error(capsys, monkeypatch):
    from rulesdsl.cli import main
    monkeypatch.chdir(ROOT)
    assert main(["coverage", "no-such-series"]) == 2
    assert "no rulebook 'no-such-series'" in capsys.readouterr().err


def test_the_readme_figures_are_the_measured_ones():
    """The README's coverage table is what `rulesdsl coverage` measures today (refresh it when it moves)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    compilation = compile_project(ROOT)
    for rulebook_id in ("scs-1.8", "new-scs", "vcs"):
        coverage = measure(compilation.resolved[rulebook_id])
        counts = coverage.counts()
        share = coverage.executed_share()
        assert share is not None
        row = (f"| `{rulebook_id}` | {counts['in_effect']} | {counts['executed']} | {counts['descriptive']} | "
               f"{counts['unaccounted']} | {round(share * 100)}% |")
        assert row in readme, row


def test_the_shipped_series_leave_nothing_in_an_engine_category_undeclared():
    # every parameter in effect is declared (core or by the chain): a meaning to print for each entry
    compilation = compile_project(ROOT)
    for rulebook_id in ("scs-1.8", "new-scs", "vcs"):
        assert all(e.meaning for e in measure(compilation.resolved[rulebook_id]).entries), rulebook_id


# ---- every rule accounted for ---------------------------------------------------------------------------
RULES = '''game drill "Drill" version "1.0"

rule 1.0 "Drill" {
  summary "Everything the drill sets."
  zoc.range = 1 hex
}

rule 2.0 "Movement" {
  summary "Heading for the movement rules."
}

rule 2.1 "Prose" {
  summary "Units move; nothing here says how far."
}

rule 2.2 "Table-talk" {
  summary "Move one stack at a time."
  descriptive table-talk "the order stacks move in is the players' business"
}

rule 2.3 "Effect" {
  summary "Artillery exerts no ZOC."
  forbid exert-zoc when unit is artillery
}

rule 3.0 "Victory" {
  summary "Hold the town."
  victory.points = 10
}

parameters "Drill" [1.0] {
  victory.points    count  "how many points win"
}

terrain effects chart [1.0] {
  hex:
    clear  1  ne
}
'''


def test_each_rule_is_executed_descriptive_a_heading_or_unaccounted():
    coverage = measure(_resolved(RULES))
    status = {r.id: (r.status, r.how) for r in coverage.rules}
    assert status["1.0"] == ("executed", "sets zoc.range")
    assert status["2.0"][0] == "heading" and "2.1" in status["2.0"][1]
    assert status["2.1"] == ("unaccounted", "prose only")
    assert status["2.2"] == ("descriptive", "table-talk: the order stacks move in is the players' business")
    assert status["2.3"][0] == "executed" and "forbid exert-zoc" in status["2.3"][1]
    # a rule setting only parameters outside the engine's scope states a mechanic nothing runs: unaccounted
    assert status["3.0"] == ("unaccounted", "sets only victory.points, which nothing runs")
    text = render_text(coverage)
    assert "rules in effect: 6: 2 executed, 1 descriptive, 1 heading, 2 unaccounted" in text
    assert re.search(r"^  2\.1 +Prose: prose only", text, re.M)


def test_a_rule_the_engine_runs_without_a_parameter_is_claimed_and_the_claim_is_checked(project, capsys):
    rule = ('rule 2.1 "Prose" {\n  summary "Units move; nothing here says how far."\n'
            '  executed by move\n}\n')
    text = RULES.replace('rule 2.1 "Prose" {\n  summary "Units move; nothing here says how far."\n}\n', rule)
    project.write("rulebooks/drill.rules", text)
    code, out, err = project.run("check", capsys=capsys)
    assert code == 1 and "rulebooks/drill.rules:14:15: error: no worked example citing rule 2.1 asks 'move'" in out + err
    project.write("rulebooks/drill.rules", text.replace("executed by move", "executed by moving"))
    code, out, err = project.run("check", capsys=capsys)
    assert code == 1 and "error: no question 'moving' an example asks the engine" in out + err
    assert "did you mean 'move'?" in out + err
    example = ('example "E1. A move" [2.1] {\n  map 1.01 - 3.03 clear\n  unit a blue 1-1-4 at 1.01\n'
               '  expect move a 1.02 legal\n}\n')
    project.write("rulebooks/drill.rules", text + "\n" + example)
    code, out, err = project.run("check", capsys=capsys)
    assert code == 0, out + err
    status = {r.id: (r.status, r.how) for r in measure(_resolved(text + "\n" + example)).rules}
    assert status["2.1"] == ("executed", "the engine's own `move`, which worked example E1 asks")


def test_a_rule_says_once_how_it_is_accounted_for(project, capsys):
    text = RULES.replace('  descriptive table-talk "the order stacks move in is the players\' business"\n',
                         '  descriptive table-talk "the order stacks move in is the players\' business"\n'
                         '  descriptive intent\n')
    project.write("rulebooks/drill.rules", text)
    code, out, err = project.run("check", capsys=capsys)
    assert code == 1 and "rulebooks/drill.rules:19:3: error: a rule says once how it is accounted for" in out + err


def test_the_shipped_rulebooks_leave_no_rule_unaccounted():
    compilation = compile_project(ROOT)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for rulebook_id in ("scs-1.8", "new-scs", "vcs", "bocage", "corridor", "ridgeline"):
        coverage = measure(compilation.resolved[rulebook_id])
        assert coverage.rules_of("unaccounted") == [], rulebook_id
        counts = [len(coverage.rules_of(s)) for s in ("executed", "descriptive", "heading", "unaccounted")]
        row = f"| `{rulebook_id}` | {len(coverage.rules)} | " + " | ".join(map(str, counts)) + " |"
        assert row in readme, row      # the README's table is the measured one
        # a rule stating effects is executed, whatever else it says
        status = {r.id: r.status for r in coverage.rules}
        stating = [e.node.id.value for e in compilation.resolved[rulebook_id].rules if e.node.effects]
        assert stating and all(status[rule] == "executed" for rule in stating), rulebook_id
