"""The shipped rulebooks in the issue-9 forms: the series declare their result codes, the games amend
what they change by one or two parameters, and each move is a change of form only (diff --resolved)."""
from __future__ import annotations

import json

import pytest

from conftest import ROOT
from rulesdsl.project.build import compile_project

PROJECT = compile_project(ROOT, examples=False, generate=False)  # no example run: resolved rulebooks only
GAMES = ROOT / "rulebooks" / "games"


def _family(key: str) -> str | None:
    codes = PROJECT.resolved[key].result_codes
    return codes.node.family.value if codes is not None and codes.node.family is not None else None


def test_each_series_declares_its_result_notation():
    assert (_family("scs-1.8"), _family("new-scs"), _family("vcs")) == ("steps-first", "steps-first", "retreat-first")
    assert PROJECT.resolved["new-scs"].result_codes.origin == "scs-1.8"      # New SCS inherits SCS's
    for key in ("bocage", "corridor", "ridgeline"):
        assert PROJECT.resolved[key].result_codes.origin in ("scs-1.8", "vcs"), key
        assert PROJECT.resolved[key].results.node.notation is None, key   # no game restates its notation


def test_ridgeline_reads_its_table_in_the_vcs_family(capsys, project):
    project.add_repo_rulebooks()
    code, _, err = project.run("build", capsys=capsys)
    assert code == 0, err
    text = (project.root / "generated" / "ridgeline.py").read_text(encoding="utf-8")
    assert "retreat-first" in text
    # the family the series declares is the one the table is checked against
    path = project.root / "rulebooks/games/ridgeline.rules"
    source = path.read_text(encoding="utf-8")
    path.write_text(source.replace("dice 2d6 {", "dice 2d6 notation steps-first {"), encoding="utf-8")
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1
    assert "ridgeline.rules:" in err and ("error: the table is written in steps-first notation, but the result "
                                          "codes say family retreat-first") in err
    assert "hint: write 'retreat-first'" in err


def test_diff_resolved_reads_the_notation_in_effect(capsys, project):
    """A table that stops restating its series' family means the same: no CRT change."""
    project.add_repo_rulebooks()
    new = GAMES / "ridgeline.rules"
    old = project.write("old-ridgeline.rules", new.read_text(encoding="utf-8").replace(
        "dice 2d6 {", "dice 2d6 notation retreat-first {"))
    code, out, err = project.run("diff", "--resolved", str(old), str(new), capsys=capsys)
    assert code == 0, out + err
    assert "notation" not in out and "Combat Results Table" not in out


# the override each game wrote before it amended: the same meaning, restated whole
OLD = {
    "bocage": ('''amend rule 6.0c {
  summary "In hedgerow country an overrun target hex may cost at most 1 MP to enter, counting its terrain only and no EZOC."
  overrun.max_target_cost = 1 MP
''', '''override rule 6.0c "Target hex cost limit" {
  summary "In hedgerow country an overrun target hex may cost at most 1 MP to enter, counting its terrain only and no EZOC."
  overrun.max_target_cost         = 1 MP
  overrun.target_cost_ignores_zoc = yes
'''),
    "corridor": ('''amend rule 12.2 {
  summary "Out-of-supply units attack at half strength but defend at full strength, and may not bombard, exploit or react."
  supply.out_of_supply_defense_factor = 1
''', '''override rule 12.2 "Out of Supply Effects" {
  summary "Out-of-supply units attack at half strength but defend at full strength, and may not bombard, exploit or react."
  supply.effects_from_marking          = yes
  supply.out_of_supply_attack_factor   = 1/2
  supply.out_of_supply_defense_factor  = 1
  supply.out_of_supply_movement_factor = 1/2
  supply.out_of_supply_may_exploit     = no
  supply.out_of_supply_may_react       = no
  bombardment.out_of_supply_allowed   = no
'''),
    "ridgeline": ('''amend rule 12.1 {
  summary "Mountain supply lines wear out quickly: a side that attacks more than three times in a game turn loses two support points."
  support.depreciation_attacks = 3
''', '''override rule 12.1 "Support Depreciation" {
  summary "Mountain supply lines wear out quickly: a side that attacks more than three times in a game turn loses two support points."
  support.depreciation_attacks = 3
  support.depreciation_cost    = 2
'''),
}


@pytest.mark.parametrize("game", sorted(OLD))
def test_an_amendment_means_what_the_whole_override_meant(game, capsys, project):
    project.add_repo_rulebooks()
    new = GAMES / f"{game}.rules"
    amended, whole = OLD[game]
    text = new.read_text(encoding="utf-8")
    assert amended in text
    old = project.write(f"old-{game}.rules", text.replace(amended, whole))
    code, out, err = project.run("diff", "--resolved", str(old), str(new), "--format", "json", capsys=capsys)
    assert code in (0, 1), err
    changes = json.loads(out)["changes"] if out.strip() else []
    # the amendment inherits the series' notes and references; no parameter, chart or title changes; the whole
    # override is withdrawn, the series rule applying again with the game's amendment
    assert all((c["what"], c["severity"]) in (("designer's notes", "note"), ("cross references", "editorial"),
                                              ("why nothing executes it", "note"))
               or (c["kind"] == "withdrawn" and c["new"].startswith("the series rule applies again, as this title "
                                                                     "amends it: "))
               for c in changes), changes
    assert [c["kind"] for c in changes].count("withdrawn") == 1


@pytest.mark.parametrize("game, name, rule", [
    ("bocage", "overrun.max_target_cost", "6.0c"),
    ("corridor", "supply.out_of_supply_defense_factor", "12.2"),
    ("ridgeline", "support.depreciation_attacks", "12.1"),
])
def test_the_amended_parameter_is_the_games_and_the_rest_of_the_rule_the_series(game, name, rule):
    resolved = PROJECT.resolved[game]
    effective = next(e for e in resolved.rules if e.node.id.value == rule)
    assert effective.origin != game                       # the rule is still the series'
    assert [a.key for a in effective.amended if a.origin == game] == [name, "(summary)"]
    others = [p.name.value for p in effective.node.parameters if p.name.value != name]
    assert all(effective.item_origin(other) != game for other in others)
