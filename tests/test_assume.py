"""What a series example takes from a game (`assume stacking.limit = 6 steps`), the whole answer about a stack
(who goes, what becomes of them, the overrun taken back, the grace of a retreat), the units any adverse result
destroys (`exposed`), and a move across the map's edge: each through `rulesdsl check`, `explain` and mutation."""
from __future__ import annotations

from fractions import Fraction

import pytest

from rulesdsl.model import ir
from rulesdsl.project import mutation
from rulesdsl.runtime.model import Quantity

# A series that leaves the stacking limit to its games, as SCS does (4.0), and says everything else of stacking.
SERIES = """series line "Line" version "1.0"

rule 1.0 "Stacking" {
  summary "Each game sets the limit; it holds at the end of each phase and at an overrun."
  requires stacking.limit
  stacking.checked_at                    = phase-end, overrun
  stacking.excess_eliminated             = yes
  stacking.owner_chooses_excess          = no
  stacking.overrun_counts_all_units      = yes
  stacking.overrun_violation_undoes_move = yes
  stacking.retreat_overstack_grace       = phase-end
}

terrain effects chart [1.0] {
  hex:
    open   1  ne
}

example "A1. A stack of three" [1.0] {
  assume stacking.limit = 4 steps
  map 1.01 - 6.06 open
  phase combat
  phasing blue
  unit a blue 3-2-6 at 2.02 steps 2
  unit b blue 3-2-6 at 2.02 steps 2
  unit c blue 3-2-6 at 2.02 steps 1
  unit d blue 3-2-6 at 4.04 steps 3
  unit e blue 3-2-6 at 4.04 steps 2
  EXPECT
}
"""

LINES = """expect stack 2.02 illegal size 5 excess c destroyed
  expect stack 2.02 when overrun by c illegal size 5 undone
  expect stack 4.04 arrived e illegal size 5 excess e destroyed
  expect stack 4.04 when overrun arrived e legal"""


def _series(lines: str = LINES, assume: str = "  assume stacking.limit = 4 steps\n") -> str:
    return SERIES.replace("  EXPECT\n", "  " + lines + "\n").replace("  assume stacking.limit = 4 steps\n", assume)


def test_an_example_runs_with_the_values_it_assumes(project, capsys):
    path = project.write("rulebooks/line.rules", _series())
    code, out, err = project.run("check", str(path), capsys=capsys)
    assert (code, err) == (0, "")
    # without the assumption the series has no limit: the same lines are wrong, each at its place
    project.write("rulebooks/line.rules", _series(assume=""))
    code, out, err = project.run("check", str(path), capsys=capsys)
    assert code == 1
    assert "rulebooks/line.rules:28:10: error: expected illegal size 5 excess c destroyed, computed legal size 5 " \
           "(no excess)" in err


def test_each_part_of_a_stack_answer_is_compared(project, capsys):
    path = project.write("rulebooks/line.rules", _series("expect stack 2.02 illegal excess chosen leave"))
    code, out, err = project.run("check", str(path), capsys=capsys)
    assert code == 1
    assert "error: expected illegal excess chosen leave, computed illegal excess c destroyed" in err


def test_a_game_inherits_the_example_with_its_assumption(project, capsys):
    project.write("rulebooks/line.rules", _series())
    game = project.write("rulebooks/hills.rules", 'game hills "Hills" version "1.0" extends line\n\n'
                                                  'rule G1 "Stacking" {\n  summary "Twelve steps a hex."\n  stacking.limit = 12 steps\n}\n')
    code, out, err = project.run("check", str(game), capsys=capsys)
    # the example's own 4 steps stand in the game with 12: its lines answer as in the series, no note
    assert (code, err) == (0, "")


@pytest.mark.parametrize("line, message, hint", [
    ("assume stacking.limt = 4 steps", "unknown parameter 'stacking.limt'", "did you mean 'stacking.limit'?"),
    ("assume stacking.limit = 4 MP", "stacking.limit is measured in steps, not MP", "write '4 steps'"),
    ("assume stacking.limit = 4", "stacking.limit takes", "values carry units"),
])
def test_a_bad_assumption_is_a_positioned_error(project, capsys, line, message, hint):
    path = project.write("rulebooks/line.rules", _series(assume=f"  {line}\n"))
    code, out, err = project.run("check", str(path), capsys=capsys)
    assert code == 1 and "Traceback" not in err
    first = err.splitlines()[0]
    assert first.startswith("rulebooks/line.rules:20:") and message in first, err
    assert f"   20 |   {line}" in err and hint in err


def test_an_assumption_given_twice_and_stack_parts_out_of_place_are_errors(project, capsys):
    path = project.write("rulebooks/line.rules", _series(
        "expect stack 2.02 by c illegal\n  expect stack 2.02 illegal excess z destroyed",
        assume="  assume stacking.limit = 4 steps\n  assume stacking.limit = 5 steps\n"))
    code, out, err = project.run("check", str(path), capsys=capsys)
    assert code == 1
    assert "rulebooks/line.rules:21:10: error: stacking.limit is assumed twice" in err
    assert "error: `by` names the units of an overrun: it goes with `when overrun`" in err
    assert "hint: write: stack 2.02 when overrun by c" in err
    assert "error: no unit 'z' in this situation" in err


def test_explain_takes_an_assumption_and_cites_its_line(project, capsys):
    project.write("rulebooks/line.rules", _series())
    situation = ("map 1.01 - 4.04 open; assume stacking.limit = 2 steps; unit a blue 3-2-6 at 2.02 steps 2; "
                 "unit b blue 3-2-6 at 2.02")
    code, out, err = project.run("explain", "line", situation, "stack", "2.02", capsys=capsys)
    assert (code, err) == (0, "")
    assert "3 steps against a limit of 2 [rule 1.0; stacking.limit; line, <situation>:2]" in out
    assert out.endswith("answer: illegal size 3 excess b destroyed\n")
    code, out, err = project.run("explain", "line", situation.replace("stacking.limit", "stacking.limits"),
                                 "stack", "2.02", capsys=capsys)
    assert code == 1 and "<situation>:2:9: error: unknown parameter 'stacking.limits'" in err


def test_mutation_judges_an_example_under_its_assumption(project, capsys):
    path = project.write("rulebooks/line.rules", _series())
    code, out, err = project.run("coverage", "line", "--mutate", "--format", "json", capsys=capsys)
    assert code == 0, err
    import json
    found = {p["name"]: p for p in json.loads(out)["parameters"]}
    # every stacking parameter the series sets is caught, each by a line of the example that assumes the limit
    for name in ("stacking.checked_at", "stacking.excess_eliminated", "stacking.owner_chooses_excess",
                 "stacking.overrun_counts_all_units", "stacking.overrun_violation_undoes_move",
                 "stacking.retreat_overstack_grace"):
        assert found[name]["status"] == "caught", (name, found[name])
    assert path.exists()


def test_an_unordered_list_is_mutated_by_forgetting_one_word():
    declared = ir.Declared("stacking.checked_at", ir.ParamType("order", options=("phase-end", "overrun",
                                                                                "advance-end")), "", "core")
    assert mutation.alternatives(("phase-end", "overrun", "advance-end"), declared, None) == [
        ("overrun", "advance-end"), ("phase-end", "advance-end"), ("phase-end", "overrun")]
    # an order whose words rank (retreat.path) is reversed instead
    ranked = ir.Declared("retreat.path", ir.ParamType("order", options=("a", "b")), "", "core")
    assert mutation.alternatives(("a", "b"), ranked, None) == [("b", "a")]


# ---- units any adverse result destroys -------------------------------------------------------------------
def test_engage_says_who_any_adverse_result_destroys(project, capsys):
    project.add_repo_rulebooks()
    situation = ("map 2.02 - 8.08; phase combat; phasing friendly; unit x friendly 4-3-8 at 3.04 type infantry; "
                 + "; ".join(f"unit e{i} enemy 2-4-4 at 4.04 type infantry" for i in range(1, 5)))
    code, out, err = project.run("explain", "vcs", situation, "engage", "x", "on", "4.04", capsys=capsys)
    assert (code, err) == (0, "")
    assert out.endswith("answer: fighting e1 e2 e3 sharing e4 exposed e4 terrain 4.04\n")
    code, out, err = project.run("explain", "vcs", situation, "engage", "x", "on", "4.04", "exposed", "e3",
                                 capsys=capsys)
    assert code == 0 and "(differs)" in out


# ---- a move across the map's edge ------------------------------------------------------------------------
def test_a_move_may_end_just_across_the_maps_edge(project, capsys):
    project.add_repo_rulebooks()
    situation = "map 1.01 - 4.04 open; unit a friendly 3-2-9 at 2.01"
    code, out, err = project.run("explain", "scs-1.8", situation, "move", "a", "2.00", capsys=capsys)
    assert (code, err) == (0, "")
    assert "2.00 is off the map: units may not leave it [rule map; map.off_map_movement;" in out
    assert out.endswith("answer: costs x illegal\n")
    # a hex farther off, or an off-map hex before the move's end, is still an error in place
    for path, bad in (("2.99", "2.99"), ("2.00 2.99", "2.00")):
        code, out, err = project.run("explain", "scs-1.8", situation, "move", "a", *path.split(), capsys=capsys)
        assert code == 1 and f"error: hex {bad} is off the map" in err, err


# ---- who defends, and who must be attacked too ----------------------------------------------------------
SCS_SITUATION = ("map 1.01 - 6.06 open; phase combat; phasing friendly; unit x friendly 7-8-9 at 2.02 type armor; "
                 "unit d enemy 2-3-5 at 3.02 type infantry; unit r enemy 1-1-5 at 3.02 type infantry; "
                 "unit w friendly 3-2-9 at 5.05 type infantry; unit g enemy 2-3-5 at 5.04 type infantry")


def test_a_defender_may_not_be_held_out_where_the_stack_defends_together(project, capsys):
    project.add_repo_rulebooks()
    code, out, err = project.run("explain", "scs-1.8", SCS_SITUATION, "engage", "x", "on", "3.02", "defending", "d",
                                 capsys=capsys)
    assert (code, err) == (0, "")
    assert "every unit in a defending hex defends, with one Defense Strength [rule 7.2c;" in out
    assert out.endswith("answer: refused\n")


def test_an_attack_says_which_enemy_units_must_be_attacked_too(project, capsys):
    project.add_repo_rulebooks()
    code, out, err = project.run("explain", "scs-1.8", SCS_SITUATION, "attack", "x", "on", "3.02", "allowed",
                                 "must-attack", "none", capsys=capsys)
    assert (code, err) == (0, "")
    assert "expected: allowed must-attack none (as computed)" in out
    # a game that makes combat compulsory (SCS 7.2a's option) names unit g, next to unit w
    project.write("rulebooks/games/hard.rules", 'game hard "Hard" version "1" extends scs-1.8\n\n'
                  'rule G1 "Stacking" {\n  summary "Six steps a hex."\n  stacking.limit = 6 steps\n}\n\n'
                  'amend rule 7.2a {\n  combat.mandatory = yes\n}\n')
    code, out, err = project.run("explain", "hard", SCS_SITUATION, "attack", "x", "on", "3.02", "allowed",
                                 "must-attack", "none", capsys=capsys)
    assert (code, err) == (0, "")
    assert "units next to the enemy must attack: unit g must be attacked too [rule 7.2a; combat.mandatory; hard," \
        in out
    assert "answer: allowed must-attack g\nexpected: allowed must-attack none (differs)" in out
    code, out, err = project.run("explain", "hard", SCS_SITUATION, "attack", "x", "on", "3.02", "allowed",
                                 "must-attack", "q", capsys=capsys)
    assert code == 1 and "error: no unit 'q' in this situation" in err


def test_an_assumed_value_no_rule_sets_gets_its_constant(project, capsys):
    # the series sets no stacking.limit_units: the module made for the assumption still declares it
    project.write("rulebooks/line.rules", _series())
    situation = ("map 1.01 - 4.04 open; assume stacking.limit_units = 1 unit; unit a blue 3-2-6 at 2.02; "
                 "unit b blue 3-2-6 at 2.02")
    code, out, err = project.run("explain", "line", situation, "stack", "2.02", capsys=capsys)
    assert (code, err) == (0, "")
    assert "2 units against a limit of 1 [stacking.limit_units; line, <situation>:2]" in out
    assert out.endswith("answer: illegal size 2 excess b destroyed\n")
