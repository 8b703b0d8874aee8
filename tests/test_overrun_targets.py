"""What an overrun may not target (issue 21, New SCS 6.0c): terrain a Terrain Effects Chart marks
`no-overrun` (a hex an overrun may not target, a hexside it may not cross) and the target terrain's left
shift, limited by `overrun.max_target_shift`."""
from __future__ import annotations

import json

from rulesdsl.errata import diff
from rulesdsl.language.fmt import format_text
from rulesdsl.language.source import Source
from rulesdsl.language.transform import parse

SITUATION = ("map 1.01 - 9.09 open; hex 4.03 swamp; hex 4.05 city; hex 6.05 woods; hexside 6.02/7.02 major-river; "
             "unit k friendly 7-8-9 at 3.03 steps 3 type armor can exploit; "
             "unit l friendly 7-8-9 at 3.05 steps 3 type armor can exploit; "
             "unit m friendly 7-8-9 at 5.05 steps 3 type armor can exploit; "
             "unit n friendly 7-8-9 at 6.02 steps 3 type armor can exploit; "
             "unit e enemy 2-3-5 at 4.03 type infantry; unit f enemy 2-3-5 at 4.05 type infantry; "
             "unit g enemy 2-3-5 at 6.05 type infantry; unit h enemy 2-3-5 at 7.02 type infantry")


def _explain(project, capsys, *query: str) -> dict:
    code, out, err = project.run("explain", "new-scs", SITUATION, *query, "--format", "json", capsys=capsys)
    assert code == 0, err
    return json.loads(out)


def test_new_scs_bans_swamp_major_rivers_and_two_left_shifts(project, capsys):
    project.add_repo_rulebooks()
    swamp = _explain(project, capsys, "overrun", "k", "from", "3.03", "on", "4.03")
    assert swamp["data"]["allowed"] is False
    assert "4.03 is swamp, which may not be overrun" in swamp["data"]["reasons"]
    cited = [s for s in swamp["steps"] if s["text"] == "4.03 is swamp, which may not be overrun"]
    assert [(s["rule"], s["origin"]) for s in cited] == [("6.0c", "new-scs")]
    river = _explain(project, capsys, "overrun", "n", "from", "6.02", "on", "7.02")
    assert "no overrun across the major-river between 6.02 and 7.02" in river["data"]["reasons"]
    city = _explain(project, capsys, "overrun", "l", "from", "3.05", "on", "4.05")
    assert city["data"]["reasons"] == ["4.05's terrain shifts the column 2 left, more than the 1 an overrun allows"]
    woods = _explain(project, capsys, "overrun", "m", "from", "5.05", "on", "6.05")
    assert woods["data"]["allowed"] is True and woods["answer"] == "allowed cost 3 left 6"
    assert woods["data"]["remaining"] == "6"


def test_scs_1_8_has_no_such_ban(project, capsys):
    """SCS 1.8 bars targets by their cost (6.0c), not by name or shift: its chart marks nothing."""
    project.add_repo_rulebooks()
    code, out, _ = project.run("explain", "scs-1.8", "map 1.01 - 6.06 open; hex 4.03 woods; unit k a 7-8-9 at 3.03; "
                               "unit e b 2-3-5 at 4.03", "overrun", "k", "from", "3.03", "on", "4.03", capsys=capsys)
    assert code == 0 and "may not be overrun" not in out and "max_target_shift" not in out


GAME = '''game marsh "Marsh (a test title)" version "1.0" extends new-scs

rule G1.0 "Stacking" {
  summary "Six steps a hex."
  stacking.limit = 6 steps
}

amend terrain effects chart [G1.0] {
  hex:
    bog  4  ne  no-overrun
}
'''


def test_the_mark_is_printed_diffed_and_laid_out(project, capsys):
    project.add_repo_rulebooks()
    project.write("rulebooks/games/marsh.rules", GAME)
    from rulesdsl.cards.charts import card, render_html
    from rulesdsl.project.build import compile_project
    compiled = compile_project(project.root, examples=False, generate=False)
    html = render_html(card(compiled.resolved["marsh"], "en", compiled.labels)[0])
    assert "Bog<sup class=\"own-mark\">†</sup></td><td class=\"num\">4 (no overrun)</td>" in html
    old, new = parse(Source("a.rules", GAME)), parse(Source("b.rules", GAME.replace("ne  no-overrun", "ne")))
    assert any("bog" in str(c) for c in diff.compare(diff.snapshot(old), diff.snapshot(new)))
    assert format_text(GAME.replace("4  ne  no-overrun", "4 ne no-overrun level 2")) \
        .count("bog  4  ne  no-overrun  level 2") == 1
