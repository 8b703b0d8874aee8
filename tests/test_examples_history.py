"""What an example can say beyond the map (issue 21): what was already made this phase and player turn
(`done` lines), attacks on several hexes, and the whole of an answer (an overrun's MPs left, an
exploitation's allowance, a stack's size, where an advance may go, an advance after a refused retreat)."""
from __future__ import annotations

import pytest

from rulesdsl.checks.situations import build, lines, query_text, result_text
from rulesdsl.errors import RulesError
from rulesdsl.language.source import Source
from rulesdsl.language.transform import parse_situation
from rulesdsl.model import ir
from rulesdsl.runtime.hexmap import Hex
from rulesdsl.runtime.situation import Record

MAP = """map 1.01 - 7.07 open
phase combat
phasing blue
unit a blue 3-2-9 at 2.02
unit b blue 3-2-9 at 2.02
unit c blue 3-2-9 at 4.03
unit e red 2-3-5 at 3.02
unit f red 2-3-5 at 3.03
"""


def _situation(text: str) -> ir.Situation:
    return parse_situation(Source("<situation>", text))


def test_done_lines_become_the_situation_history():
    written = _situation(MAP + "done overrun c on 5.03 in movement\ndone attack a on 3.02\n"
                               "done overrun b on 3.03\n")
    assert [(d.kind, [u.value for u in d.units], d.hex.value, d.phase and d.phase.value) for d in written.done] == [
        (ir.DoneKind.OVERRUN, ["c"], "5.03", "movement"), (ir.DoneKind.ATTACK, ["a"], "3.02", None),
        (ir.DoneKind.OVERRUN, ["b"], "3.03", None)]
    situation, problems = build(written)
    assert problems == [] and situation is not None
    # in another phase: only the player turn counts it; in this one (combat): the phase's counts too
    assert situation.history == Record(
        overruns={"b": 1}, overrun_targets={Hex.parse("3.03"): 1}, overran=frozenset({"b", "c"}),
        attacks={"a": 1}, attacked={"e": 1}, turn_attacks={"a": 1, "b": 1, "c": 1},
        targets={"a": Hex.parse("3.02")}, overrun_hexes={"b": Hex.parse("3.03")})
    # `in` naming the situation's own phase is the same as no `in`
    same, _ = build(_situation(MAP + "done attack a on 3.02 in combat\n"))
    assert same is not None and same.history.attacks == {"a": 1}
    assert lines(written)["done"] == "overrun c on 5.03 in movement"


@pytest.mark.parametrize("line, message, column", [
    ("done attack a zz on 3.02", "no unit 'zz' in this situation", 15),
    ("done attack a on 9.02", "hex 9.02 is off the map", 18),
    ("done attack a e on 3.03", "the units of one attack are of one side, not blue and red", 1),
])
def test_a_bad_done_line_is_a_positioned_error(line, message, column):
    situation, problems = build(_situation(MAP + line + "\n"))
    assert situation is None
    assert [(p.message, p.span.line, p.span.column) for p in problems] == [(message, 9, column)]


def test_a_done_line_without_units_is_a_syntax_error_at_its_place():
    with pytest.raises(RulesError) as error:
        _situation(MAP + "done overrun on 3.03\n")
    [problem] = error.value.diagnostics
    assert (problem.span.line, problem.span.column) == (9, 17) and "on" in problem.message


def test_the_new_answer_parts_read_and_print_as_written():
    text = MAP + ("expect overrun a from 2.02 on 3.03 allowed cost 2 left 0\n"
                  "expect exploit a allowed mp 9\n"
                  "expect stack 2.02 legal size 2\n"
                  "expect attack c on 3.03 4.02 refused\n"
                  "expect advance a b into 3.03 after 2 refuse 1 hexes 2 to 4.03 not 2.03\n")
    written = _situation(text).expectations
    assert [f"{query_text(e)} {result_text(e)}" for e in written] == [
        "overrun a from 2.02 on 3.03 allowed cost 2 left 0", "exploit a allowed mp 9", "stack 2.02 legal size 2",
        "attack c on 3.03 4.02 refused", "advance a b into 3.03 after 2 refuse 1 hexes 2 to 4.03 not 2.03"]
    overrun, exploit, stack, attack, advance = written
    assert overrun.result.cost == 2 and overrun.result.left == 0
    assert exploit.result.mp == 9 and stack.result.size == 2
    assert [h.value for h in attack.targets] == ["3.03", "4.02"]
    assert advance.refuse == 1 and [h.value for h in advance.result.to] == ["4.03"]


def test_a_part_given_twice_is_an_error_at_the_second():
    with pytest.raises(RulesError) as error:
        _situation(MAP + "expect overrun a from 2.02 on 3.03 allowed left 1 left 2\n")
    [problem] = error.value.diagnostics
    assert problem.message == "'left' is given twice" and (problem.span.line, problem.span.column) == (9, 56)


# ---- through `check`: the engine answers, and a wrong part is an error at its line ----------------------------
GAME = '''game drill "Drill" version "0.1" extends scs-1.8

rule G1.0 "Stacking" {
  summary "Six steps a hex."
  stacking.limit = 6 steps
}

example "What was done before" [G1.0] {
  map 1.01 - 7.07 open
  phase combat
  phasing blue
  unit a blue 3-2-9 at 2.02 type infantry
  unit b blue 3-2-9 at 2.02 type infantry
  unit c blue 3-2-9 at 4.03 type infantry
  unit e red 2-3-5 at 3.02 type infantry
  unit f red 2-3-5 at 3.03 type infantry
  unit g red 2-3-5 at 4.02 type infantry
  done overrun c on 5.03 in movement
  done attack a on 3.02
  expect attack b on 3.03 allowed
  expect attack b on 3.02 refused
  expect attack a on 3.03 refused
  expect attack c on 3.03 allowed
  expect attack c on 3.03 4.02 refused
  expect stack 2.02 legal size 2
}

example "The whole answer" [G1.0] {
  map 1.01 - 7.07 open
  hex 4.04 woods
  phase exploitation
  phasing blue
  unit a blue 7-8-9 at 3.04 steps 3 type armor can exploit
  unit b blue 7-8-9 at 3.04 steps 3 type armor can exploit
  unit z red 0-1-9 at 6.04 type infantry
  expect exploit a allowed mp 9
  expect overrun a b from 5.04 on 6.04 allowed cost 3 left 0
  expect advance a b into 4.04 after 2 refuse 1 hexes 2 to 4.05 5.04 not 3.03
}
'''


def test_check_runs_the_history_and_the_whole_answers(project, capsys):
    project.add_repo_rulebooks()
    path = project.write("rulebooks/games/drill.rules", GAME)
    code, out, err = project.run("check", str(path), capsys=capsys)
    assert (code, err) == (0, ""), err


@pytest.mark.parametrize("wrong, right, message", [
    ("expect attack b on 3.02 refused", "expect attack b on 3.02 allowed",
     "expected allowed, computed refused"),
    ("allowed cost 3 left 0", "allowed cost 3 left 6", "expected allowed cost 3 left 6, computed allowed cost 3 left 0"),
    ("allowed mp 9", "allowed mp 8", "expected allowed mp 8, computed allowed mp 9"),
    ("legal size 2", "legal size 3", "expected legal size 3, computed legal size 2"),
    ("hexes 2 to 4.05 5.04 not 3.03", "hexes 2 to 3.03", "expected hexes 2 to 3.03, computed hexes 2 to not 3.03"),
])
def test_a_wrong_part_of_an_answer_is_an_error_at_its_line(project, capsys, wrong, right, message):
    project.add_repo_rulebooks()
    path = project.write("rulebooks/games/drill.rules", GAME.replace(wrong, right))
    code, _, err = project.run("check", str(path), capsys=capsys)
    assert code == 1 and f"error: {message}\n" in err, err


def test_explain_gives_the_whole_answer_and_reads_done_lines(project, capsys):
    project.add_repo_rulebooks()
    situation = "; ".join(MAP.strip().splitlines() + ["done attack a on 3.02"])
    code, out, err = project.run("explain", "scs-1.8", situation, "attack", "b", "on", "3.02", capsys=capsys)
    assert (code, err) == (0, "")
    assert "unit e was attacked once this Combat Phase, and the limit is 1 [rule 7.2d; combat.attacks_per_phase" in out
    assert out.endswith("answer: refused [7.2d]\n"), "the rules that refuse it, as an expect line writes them"
    code, out, _ = project.run("explain", "scs-1.8", situation, "stack", "2.02", capsys=capsys)
    assert code == 0 and out.endswith("answer: legal size 2\n")


def test_every_step_of_the_shipped_examples_names_its_rule():
    """`explain` cites the rule of every step of every shipped example's answer: a terrain cost the chart's
    rule, a total the chart's, a counter's printed MA the movement rule, a combat's column the CRT's; a step
    about a parameter the rulebook leaves unset names the parameter and says that no rule sets it."""
    from conftest import ROOT
    from rulesdsl.checks.examples import Unanswerable, ask, engine_of
    from rulesdsl.modules.modcheck import compiled_module
    from rulesdsl.project.build import compile_project
    project = compile_project(ROOT, examples=False, generate=False)
    uncited, asked = [], 0
    for rid, resolved in sorted(project.resolved.items()):
        _, module, _ = compiled_module(resolved)
        for example in resolved.rulebook.examples:
            situation, _ = build(example.situation, getattr(module, "TERRAIN", None))
            if situation is None:
                continue
            for expectation in example.situation.expectations:
                try:
                    answer = ask(engine_of(module), module, situation, expectation)
                except Unanswerable:
                    continue
                asked += 1
                uncited += [f"{rid}: {example.title.value}: {query_text(expectation)}: {step.text}"
                            for step in answer.steps if step.rule is None and
                            not (step.parameter and f"sets {step.parameter})" in step.text)]
    assert asked > 150 and uncited == [], "\n".join(uncited[:20])


ENGAGE = """map 1.01 - 6.06 open
phase combat
phasing blue
unit x blue 7-8-9 at 2.02 steps 3
unit y blue 3-2-9 at 2.02 steps 2
unit d red 2-3-5 at 3.02 steps 2
unit r red 1-1-5 at 3.02
"""


def test_engage_and_saved_read_and_print_as_written():
    written = _situation(ENGAGE + "expect engage x on 3.02 arrived r overrun result D1r1 fighting d sharing r spared y "
                                  "terrain 3.02 destroyed d\n"
                                  "expect engage x y on 3.02 refused\n"
                                  "expect move y 2.03 saved 2 illegal\n").expectations
    assert [f"{query_text(e)} {result_text(e)}" for e in written] == [
        "engage x on 3.02 arrived r overrun result D1r1 fighting d sharing r spared y terrain 3.02 destroyed d",
        "engage x y on 3.02 refused", "move y 2.03 saved 2 illegal"]
    engage = written[0]
    assert [u.value for u in engage.arrived] == ["r"] and engage.given.value == "D1r1" and engage.overrun
    assert [u.value for u in engage.result.sharing] == ["r"] and engage.result.terrain.value == "3.02"
    assert written[2].saved == 2


def test_explain_engages_and_refuses_saved_mps(project, capsys):
    project.add_repo_rulebooks()
    situation = ENGAGE.replace("\n", "; ")
    code, out, err = project.run("explain", "scs-1.8", situation, "engage", "x", "on", "3.02", "arrived", "r",
                                 capsys=capsys)
    assert (code, err) == (0, "") and out.endswith("answer: fighting d sharing r spared y terrain 3.02\n")
    code, out, _ = project.run("explain", "scs-1.8", situation, "move", "y", "2.03", "saved", "2", capsys=capsys)
    assert code == 0 and "may not use 2 MP saved earlier [rule 3.1d" in out and out.endswith("answer: illegal\n")
    # a result is read in the table's notation (the series' example table's): the retreats it gives are carried out
    code, out, err = project.run("explain", "scs-1.8", situation, "engage", "x", "on", "3.02", "result", "D1r1",
                                 capsys=capsys)
    assert (code, err) == (0, "") and out.endswith("attacker retreats 0 defender retreats 1\n")
    code, _, err = project.run("explain", "scs-1.8", situation, "engage", "x", "on", "3.02", "result", "Q9",
                               capsys=capsys)
    assert code == 1 and "'Q9' is no result of this rulebook's Combat Results Table" in err
    code, _, err = project.run("explain", "scs-1.8", situation, "engage", "x", "on", "3.02", "arrived", "zz",
                               capsys=capsys)
    assert code == 1 and "no unit 'zz' in this situation" in err


# ---- why not, the paths a retreat leaves, and the dice apart ---------------------------------------------------
def test_refusals_retreat_paths_and_dice_read_and_print_as_written():
    text = MAP + ("expect overrun a from 2.02 on 3.03 refused [6.0 6.0b]\n"
                  "expect retreat e 2 from a loss 0 via 4.02 5.02 not via 3.01 4.01 apart\n"
                  "expect retreat e 1 from a loss 1 together\n"
                  "expect combat a on 3.02 roll white 4 red 3 result -/D1r2\n")
    written = _situation(text).expectations
    assert [f"{query_text(e)} {result_text(e)}" for e in written] == [
        "overrun a from 2.02 on 3.03 refused [6.0 6.0b]",
        "retreat e 2 from a loss 0 via 4.02 5.02 not via 3.01 4.01 apart",
        "retreat e 1 from a loss 1 together",
        "combat a on 3.02 roll white 4 red 3 result -/D1r2"]
    overrun, apart, together, combat = written
    assert [t.value for t in overrun.result.refused_by] == ["6.0", "6.0b"]
    assert [h.value for h in apart.result.closed] == ["3.01", "4.01"] and apart.result.apart is True
    assert together.result.apart is False and together.result.closed == ()
    assert combat.result.dice == (4, 3) and combat.result.roll is None


def test_a_die_off_its_faces_is_an_error_at_the_die():
    with pytest.raises(RulesError) as error:
        _situation(MAP + "expect combat a on 3.02 roll white 3 red 7\n")
    [problem] = error.value.diagnostics
    assert problem.message == "a die shows 1 to 6, not 7" and (problem.span.line, problem.span.column) == (9, 42)


REFUSALS = '''game drill "Drill" version "0.1" extends scs-1.8

rule G1.0 "Stacking" {
  summary "Six steps a hex."
  stacking.limit = 6 steps
}

example "Why not, and where to" [G1.0] {
  map 7.02 - 13.11 open
  hexside 11.05/10.05 river
  phase movement
  phasing blue
  unit 5 blue 7-8-9 at 11.08 steps 3 type armor can exploit
  unit 6 blue 7-8-9 at 12.08 steps 3 type armor can exploit
  unit 7 red 2-3-5 at 11.05 steps 2 type infantry
  unit 8 red 2-3-5 at 11.05 steps 2 type infantry
  expect overrun 5 6 from 11.06 on 11.05 refused [6.0 6.0b]
  expect retreat 7 8 1 from 5 loss 0 via 11.04 not via 10.05 apart
}
'''


def test_check_compares_the_refusing_rules_the_paths_and_parting(project, capsys):
    project.add_repo_rulebooks()
    path = project.write("rulebooks/games/drill.rules", REFUSALS)
    code, out, err = project.run("check", str(path), capsys=capsys)
    assert (code, err) == (0, ""), err


@pytest.mark.parametrize("wrong, message, column", [
    ("refused [6.0 6.0b]", "expected refused [6.0b], computed refused [6.0 6.0b]", 10),
    ("not via 10.05", "expected loss 0 via 11.04 not via 11.06 apart, computed loss 0 via 11.04 not via "
                      "(11.06 is open) apart", 10),
    ("apart", "expected loss 0 via 11.04 not via 10.05 together, computed loss 0 via 11.04 not via 10.05 apart", 10),
])
def test_a_wrong_refusal_path_or_parting_is_an_error_at_its_line(project, capsys, wrong, message, column):
    right = {"refused [6.0 6.0b]": "refused [6.0b]", "not via 10.05": "not via 11.06", "apart": "together"}[wrong]
    project.add_repo_rulebooks()
    path = project.write("rulebooks/games/drill.rules", REFUSALS.replace(wrong, right))
    code, _, err = project.run("check", str(path), capsys=capsys)
    assert code == 1 and f":{column}: error: {message}\n" in err, err


def test_a_refusal_citing_no_rule_in_effect_is_an_error_with_a_suggestion(project, capsys):
    project.add_repo_rulebooks()
    path = project.write("rulebooks/games/drill.rules", REFUSALS.replace("[6.0 6.0b]", "[6.0 6.0x]"))
    code, _, err = project.run("check", str(path), capsys=capsys)
    assert code == 1 and "error: rule 6.0x is cited, but neither this rulebook nor its series writes it" in err and "did you mean" in err, err


DICE = '''game dykes "Dykes" version "0.1" extends new-scs

rule G1.0 "Stacking" {
  summary "Five steps a hex."
  stacking.limit = 5 steps
}

example "The dice apart" [G1.0] {
  map 1.01 - 8.08 open
  phase combat
  phasing blue
  unit a blue 6-4-4 at 4.03 type infantry
  unit d red 2-2-4 at 4.04 steps 2 type infantry
  expect combat a on 4.04 odds 3:1 roll white 4 red 3 result -/D2r2
}
'''


def test_the_white_and_the_red_die_reach_a_rulebook_that_reads_them(project, capsys):
    project.add_repo_rulebooks()
    path = project.write("rulebooks/games/dykes.rules", DICE)
    code, _, err = project.run("check", str(path), capsys=capsys)
    assert code == 0 and "error" not in err, err
    # a total where the rulebook reads the dice apart: said in the notation's words, at the line
    project.write("rulebooks/games/dykes.rules", DICE.replace("roll white 4 red 3", "roll 7"))
    code, _, err = project.run("check", str(path), capsys=capsys)
    assert code == 1 and ":14:10: error: this rulebook reads the white and the red die apart, not their total: " \
                         "write `roll white W red R`, the two dice that made 7" in err, err


@pytest.mark.parametrize("cell, steps, text", [
    ("- / D1r1", (0, 0, 0, 0), "- / -"),
    ("- / D1r1", (0, 0, 1, 0), "- / D1"),
    ("A1 / D2r2", (1, 0, 1, 1), "A1 / D1r1"),
    ("D1r1*", (0, 0, 0, 2), "Dr2*"),
    ("D2(1)", (0, 0, 0, 1), "D2(1) (adjusted)"),        # a cell in another notation keeps its text, marked
])
def test_an_adjusted_result_is_written_as_the_table_writes_its_cells(cell, steps, text):
    from rulesdsl.runtime.combat import adjusted_text
    from rulesdsl.runtime.notation import Result
    sides = cell.split(" / ")
    read = Result(text=cell, breakthrough=cell.endswith("*"))
    adjusted = Result(*steps, text=cell)
    assert len(sides) <= 2 and adjusted_text(read, adjusted) == text
