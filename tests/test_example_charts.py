"""Charts `for examples` (a series' charts that only its worked examples read), and the example notation
they let a series use: combat situations declared, an overrun's combat, the table's end columns, the
retreats an engagement carries out, an exploitation's readiness."""
from __future__ import annotations

import pytest

from conftest import ROOT
from rulesdsl.cards.charts import card, render_html
from rulesdsl.cli import main
from rulesdsl.language.source import Source
from rulesdsl.project import mutation
from rulesdsl.project.build import compile_project, compile_sources
from rulesdsl.project.passes import default_labels

SERIES = '''series house "House Series" version "1"

rounding standard: .50 up, keep fractions [rounding]

section rounding "Rounding" {
  summary "Odds round half up."
}

rule 7.4 "Odds" {
  summary "Off the table: the end columns."
  combat.below_table = A1
  combat.above_table = rightmost
}

terrain effects chart "Example TEC" [7.4] for examples {
  hex:
    open   1  ne
    woods  2  Dx2
}

combat results table "Example CRT" [7.4] dice 1d6 for examples {
  odds  1:1   2:1   3:1
  1-3   A1    A1    D1
  4-6   D1    D1    D2
}
'''

GAME = '''game {id} "A Game" version "1" extends house

{body}
'''

OWN_CRT = '''override combat results table "Own CRT" [7.4] dice 1d6 {
  odds  1:1   2:1
  1-6   A1    D1
}
'''

AMENDED_CRT = '''amend combat results table {
  odds  3:1
  1-3   D2
  4-6   D3
}
'''


def _cards(body: str) -> tuple[str, str]:
    """The English HTML cards of the series and of a game with `body`."""
    compilation = compile_sources([Source("rulebooks/house.rules", SERIES),
                                   Source("rulebooks/g.rules", GAME.format(id="g", body=body))], generate=False)
    assert compilation.ok, compilation.diagnostics
    return tuple(render_html(card(compilation.resolved[key], "en", default_labels())[0])   # type: ignore[return-value]
                 for key in ("house", "g"))


def test_no_card_prints_a_series_chart_for_examples():
    series, game = _cards('rule G1 "Own" {\n  summary "A rule."\n}\n')
    for html in (series, game):
        assert "Example CRT" not in html and "Example TEC" not in html
        assert 'id="crt"' not in html


def test_a_game_that_replaces_an_example_chart_prints_its_own_and_lists_no_exception():
    _, game = _cards(OWN_CRT)
    assert "Own CRT" in game and 'id="crt"' in game
    assert "(replaced)" not in game     # the series' players had no such chart to replace


def test_a_game_that_amends_an_example_chart_makes_it_its_own():
    _, game = _cards(AMENDED_CRT)
    assert "Example CRT" in game and 'id="crt"' in game
    assert "(amended)" in game


def test_the_shipped_series_cards_print_no_example_chart():
    for name in ("scs_1_8.en.html", "scs_1_8.fr.html", "vcs.en.html"):
        html = (ROOT / "generated" / "charts" / name).read_text(encoding="utf-8")
        assert "Example CRT" not in html and "Example TEC" not in html and 'id="crt"' not in html


def _explain(capsys, rulebook: str, situation: str, query: str) -> str:
    code = main(["explain", str(ROOT / "rulebooks" / "series" / rulebook), situation, query])
    out, err = capsys.readouterr()
    assert code == 0, err
    return next(line for line in out.splitlines() if line.startswith("answer:"))


VCS_RIVER = "map 1.01 - 6.06 clear; hexside 3.03/3.04 river; phase combat; phasing friendly; " \
            "unit a friendly 8-4-6 at 3.03 type infantry; unit d enemy 2-2-4 at 3.04 type infantry"


@pytest.mark.parametrize("declared, odds", [("", "4:1"), (" with river-assault", "2:1"),
                                            (" with river-assault, entrenched", "1:1"), (" with entrenched", "2:1")])
def test_declared_combat_situations_reach_the_strength_factors(capsys, declared, odds):
    assert _explain(capsys, "vcs.rules", VCS_RIVER, f"combat a on 3.04{declared}") == \
        f"answer: odds {odds} column {odds}"


def test_a_misspelt_combat_situation_is_an_error_with_a_suggestion(capsys):
    code = main(["explain", str(ROOT / "rulebooks" / "series" / "vcs.rules"), VCS_RIVER,
                 "combat a on 3.04 with entrench"])
    err = capsys.readouterr().err
    assert code == 1 and "did you mean 'entrenched'?" in err and "Traceback" not in err


SCS_OVERRUN = "map 1.01 - 6.06 open; phase movement; phasing friendly; " \
              "assume combat.non_participants_share_results = yes; " \
              "unit a friendly 7-8-9 at 3.03 steps 3 type armor can exploit; " \
              "unit b friendly 2-2-5 at 3.03 type infantry; unit d enemy 2-3-5 at 3.04 steps 2 type infantry"


def test_an_overruns_result_spares_the_units_beside_it_and_its_retreat_is_carried_out(capsys):
    answer = _explain(capsys, "scs-1.8.rules", SCS_OVERRUN, "engage a on 3.04 overrun result A1r1")
    assert answer == "answer: fighting d spared b terrain 3.04 attacker retreats 1 defender retreats 0"
    # a regular attack from the same hex: b shares the result, as the assumption says
    answer = _explain(capsys, "scs-1.8.rules", SCS_OVERRUN.replace("phase movement", "phase combat"),
                      "engage a on 3.04 result A1r1")
    assert answer == "answer: fighting d sharing b terrain 3.04 attacker retreats 1 defender retreats 0"


SCS_TABLE_ENDS = "map 1.01 - 9.09 open; hex 4.05 town; hex 6.05 town; phase combat; phasing friendly; " \
                 "unit a friendly 1-2-5 at 2.03 steps 2 type infantry; unit d enemy 2-3-5 at 3.03 steps 2 type infantry; " \
                 "unit b friendly 2-2-5 at 3.05 steps 2 type infantry; unit e enemy 2-4-5 at 4.05 steps 2 type infantry; " \
                 "unit c friendly 16-2-5 at 5.05 steps 2 type infantry; unit f enemy 1-2-5 at 6.05 steps 2 type infantry"


@pytest.mark.parametrize("query, answer", [
    ("combat a on 3.03 roll 7", "odds 1:3 column below roll 7 result A1"),     # below the left-most column
    ("combat b on 4.05 roll 7", "odds 1:2 column below roll 7 result A1"),     # shifted off the left
    ("combat c on 6.05", "odds 8:1 column 5:1"),                               # beyond the right, shifted from it
])
def test_the_series_example_table_answers_off_its_ends_as_written(capsys, query, answer):
    assert _explain(capsys, "scs-1.8.rules", SCS_TABLE_ENDS, query) == f"answer: {answer}"


def test_a_reacting_units_overrun_is_priced_on_its_reaction_allowance(capsys):
    situation = "map 1.01 - 9.09 open; phase reaction; phasing friendly; assume reaction.may_overrun = yes; " \
                "unit y friendly 0-1-8 at 7.04 steps 1 type infantry; " \
                "unit r enemy 4-4-8 at 6.04 steps 2 type armor can exploit"
    # half of its MA of 8 is 4: 3 spent on the overrun leaves 1 (not the 5 a full MA would)
    assert _explain(capsys, "new-scs.rules", situation, "overrun r from 6.04 on 7.04") == \
        "answer: allowed cost 3 left 1"


def test_an_exploitation_states_where_readiness_is_lost(capsys):
    situation = "map 1.01 - 9.09 open; phase exploitation; phasing friendly; " \
                "unit k friendly 7-8-9 at 3.03 steps 3 type armor can exploit"
    assert _explain(capsys, "new-scs.rules", situation, "exploit k") == "answer: allowed mp 9 unready-above 9/2"


@pytest.fixture(scope="module")
def repository():
    return compile_project(ROOT, examples=False, generate=False)


def test_a_games_example_catches_a_change_to_its_series_that_no_series_example_can(repository):
    """A series' rule about a game's own modifiers shows only in a game: Bocage's A1 catches it."""
    examples = [e for book in sorted(repository.rulebooks) for e in repository.rulebooks[book].examples]
    alone = mutation.mutate(repository.resolved["scs-1.8"], examples, ["overrun.game_modifiers_apply"])
    assert [v.status for v in alone.verdicts] == ["no effect"]
    found = mutation.mutate(repository.resolved["scs-1.8"], examples, ["overrun.game_modifiers_apply"],
                            extending=mutation.descendants(repository.resolved, "scs-1.8"))
    [verdict] = found.verdicts
    assert verdict.status == "caught"
    [mutant] = verdict.mutants
    assert mutant.witness is not None and mutant.witness.origin == "bocage" and mutant.witness.example.startswith("A1.")


def test_a_game_that_sets_a_value_itself_cannot_catch_its_series_change(repository):
    """Bocage sets its own stacking limit: a change to a series value it replaces cannot reach its examples."""
    extending = mutation.descendants(repository.resolved, "scs-1.8")
    assert [r.id for r in extending] == ["bocage", "corridor", "new-scs"]
    examples = [e for book in sorted(repository.rulebooks) for e in repository.rulebooks[book].examples]
    found = mutation.mutate(repository.resolved["scs-1.8"], examples, ["overrun.max_target_cost"], extending=extending)
    for mutant in found.verdicts[0].mutants:
        assert mutant.witness is None or mutant.witness.origin != "bocage"     # bocage amends 6.0c's limit
