"""The errata scenario: two versions of a title written for the test (tests/fixtures/errata/), about fifteen
edits of every kind between them, each reported once, with its content, in players' words, and nothing
else (a comment or a change of layout is no change); and `--resolved` on REV:path sides in a git fixture
whose series changed between the revisions."""
from __future__ import annotations

import json
import re
import subprocess

import pytest

from conftest import FIXTURES
from rulesdsl.errata.diff import RENUMBER_THRESHOLD, compare, snapshot
from rulesdsl.language.source import Source
from rulesdsl.language.transform import parse

ERRATA = FIXTURES / "errata"
OLD, NEW = ERRATA / "hedgerow-1.0.rules", ERRATA / "hedgerow-1.1.rules"

# every edit of the scenario: (rule it is filed under, kind, what, old, new, severity)
EXPECTED = {
    # value: a parameter, by its declared meaning (its id is in the JSON only); MP and MPs are one unit
    ("G2.0", "changed", "mud.extra_cost", "+1 MP", "+2 MP", "rules"),
    # unit: two turns become one turn
    ("G3.0", "changed", "bridge.repair_time", "2 turns", "1 turn", "rules"),
    # insert-and-shift: one insertion, three renumberings, nothing removed
    ("G3.1a", "added", "rule G3.1a Bridge ratings", None,
     "Each bridge is rated light or heavy; only light bridges may be blown by a single engineer.", "rules"),
    ("G3.1b", "renumbered", "rule Bridge demolition", "G3.1a", "G3.1b", "editorial"),
    ("G3.1c", "renumbered", "rule Bridge capture", "G3.1b", "G3.1c", "editorial"),
    ("G3.1d", "renumbered", "rule Bridge guards", "G3.1c", "G3.1d", "editorial"),
    # renumber (the same content)
    ("G8.0", "renumbered", "rule Victory", "G7.0", "G8.0", "editorial"),
    # move: renumbered and edited; found by similarity
    ("G9.0", "renumbered", "rule Air support", "G6.0", "G9.0", "editorial"),
    ("G9.0", "changed", "summary", "Each side receives two air points each day turn, spent on bombardment.",
     "Each side receives three air points each day turn, spent on bombardment.", "clarification"),
    # delete, with what the rule said
    ("G5.0", "removed", "rule G5.0 Partisans", "Partisans may cut one road hex a turn behind German lines.", None,
     "rules"),
    # add, with its summary (and its parameter in the details)
    ("G10.0", "added", "rule G10.0 Rain", None, "Rain turns cut movement allowances by a third.", "rules"),
    # summary only
    ("G4.0", "changed", "summary", "Night turns halve movement allowances and forbid exploitation.",
     "Night turns halve movement allowances and forbid both exploitation and overruns.", "clarification"),
    # a designer's note: apart, no player errata
    ("G4.0", "changed", "designer's notes", "Simplified from the designer's playtests of the night rules.",
     "Simplified from the designer's playtests of the night rules, which found overruns at night too strong.",
     "note"),
    # a withdrawn override: the series rule applies again, with the values it sets
    ("6.0c", "withdrawn", "override of rule 6.0c Target hex cost limit", "Overrun targets may cost at most 1 MP.",
     "the series rule applies again: The most the target hex may cost to enter for an overrun to be allowed: 2 MP; "
     "Whether the target hex's cost for the overrun limit counts terrain only, not enemy ZOCs: yes", "rules"),
    # phases: one inserted (with where), two swapped
    ("1.0", "added", "player turn phase air", None, "4 of 5, after combat", "rules"),
    ("1.0", "reordered", "player turn phases", "reinforcements, movement, combat, exploitation",
     "movement, reinforcements, combat, exploitation", "rules"),
    # TEC cells
    ("3.2", "changed", "woods combat", "Dx2", "Dx1½", "rules"),
    ("3.2", "changed", "bocage movement", "3", "2", "rules"),
    # CRT: a cell and a column, with its results
    ("7.1", "changed", "3:1 x 4", "D1r1", "D1r2", "rules"),
    ("7.1", "added", "column 4:1", None, "1-2 D1, 3 D1r1, 4 D1r2, 5-6 D2r2", "rules"),
    # the header
    (None, "changed", "version", "1.0", "1.1", "editorial"),
    # what the TEC change does: the worked example, left as it was, now answers otherwise
    ("3.2", "answers otherwise", "example Into the bocage: expect move 1 1.02", "costs 3", "costs 2", "examples"),
    # and the withdrawn 6.0c override: the series' own example of an overrun into woods (2 MPs) is allowed again
    ("2.1b", "answers otherwise", "scs-1.8's example A4. Exploitation: from an enemy ZOC, and overruns: "
     "expect overrun y from 5.05 on 6.05", "refused", "allowed cost 5", "examples"),
}


def _report(project, capsys, *args: str, fmt: str = "json"):
    project.add_base()
    code, out, err = project.run("diff", "--format", fmt, *args, str(OLD), str(NEW), capsys=capsys)
    assert code == 1, err
    return json.loads(out) if fmt == "json" else out


def test_every_edit_is_reported_once_with_content_and_nothing_else(project, capsys):
    report = _report(project, capsys)
    found = [(c["rule"], c["kind"], c["what"], c["old"], c["new"], c["severity"]) for c in report["changes"]]
    assert len(found) == len(set(found))
    assert set(found) == EXPECTED
    by_what = {c["what"]: c for c in report["changes"]}
    # the content of what was added or removed, in players' words
    assert by_what["rule G10.0 Rain"]["details"] == ["What movement allowances are multiplied by in rain: 2/3"]
    assert by_what["player turn phase air"]["details"] == ["rule G9.0", "air points are allotted and flown"]
    assert by_what["override of rule 6.0c Target hex cost limit"]["details"] == [
        "The most the target hex may cost to enter for an overrun to be allowed: 1 MP",
        "Whether the target hex's cost for the overrun limit counts terrain only, not enemy ZOCs: yes"]
    # ids in the JSON, meanings beside them
    assert by_what["mud.extra_cost"]["meaning"] == "the extra MPs a unit spends to enter a mud hex"
    # severity by effect on play: every value, cell, phase and rule is a rules change; a summary's words a
    # clarification; renumberings and the version editorial
    assert report["summary"] == {"rules": 12, "examples": 2, "clarification": 2, "editorial": 6, "note": 1}
    # the example a change breaks, with where its line is
    [where] = by_what["example Into the bocage: expect move 1 1.02"]["details"]
    assert where == f"{OLD}, line 97"


def test_the_text_errata_reads_in_players_words_in_rule_order(project, capsys):
    out = _report(project, capsys, fmt="text")
    assert out.startswith("Hedgerow Test: 1.0 to 1.1\n21 changes: 12 rules changes, 2 changed example answers, "
                          "2 clarifications, 6 editorial changes; 1 designer's note (no change to play)\n\n"
                          "RULES CHANGES: WHAT PLAYERS DO IS DIFFERENT\n")
    # each severity apart, rules changes first
    parts = [line for line in out.splitlines() if line.isupper()]
    assert parts == ["RULES CHANGES: WHAT PLAYERS DO IS DIFFERENT",
                     "WORKED EXAMPLES: THE NEW RULES ANSWER THEM OTHERWISE",
                     "CLARIFICATIONS: THE WORDS CHANGED, NOT WHAT THE RULES COMPUTE",
                     "EDITORIAL: NUMBERING, REFERENCES AND THE VERSION", "DESIGNER'S NOTES: NO CHANGE TO PLAY"]
    assert "The extra MPs a unit spends to enter a mud hex: +1 MP -> +2 MP" in out
    assert "How long engineers take to repair a blown bridge: 2 turns -> 1 turn" in out
    # no parameter id on the page, and no false removal
    assert not re.search(r"\b(mud|bridge|night|rain|overrun)\.[a-z_]+", out)
    assert "removed rule G3" not in out and "removed rule 6.0c" not in out
    assert "withdrawn override of rule 6.0c Target hex cost limit: the series rule applies again" in out
    assert "added column 4:1: 1-2 D1, 3 D1r1, 4 D1r2, 5-6 D2r2" in out
    assert "A cell is named column x die roll: 3:1 x 4 is the 3:1 column at a roll of 4." in out
    # within each severity, in rule order, charts filed under the rules they cite; designer's notes last, apart
    headings = [line for line in out.splitlines() if line and not line.startswith(" ")][2:]
    assert headings == ["RULES CHANGES: WHAT PLAYERS DO IS DIFFERENT",
                        "1.0 Sequence of play", "3.2 Terrain Effects Chart", "6.0c Target hex cost limit",
                        "7.1 Combat Results Table", "G2.0 Mud", "G3.0 Bridges", "G3.1a Bridge ratings", "G5.0 Partisans",
                        "G10.0 Rain",
                        "WORKED EXAMPLES: THE NEW RULES ANSWER THEM OTHERWISE", "2.1b Worked examples",
                        "3.2 Worked examples",
                        "CLARIFICATIONS: THE WORDS CHANGED, NOT WHAT THE RULES COMPUTE", "G4.0 Night turns",
                        "G9.0 Air support",
                        "EDITORIAL: NUMBERING, REFERENCES AND THE VERSION", "Rulebook", "G3.1b Bridge demolition",
                        "G3.1c Bridge capture", "G3.1d Bridge guards", "G8.0 Victory", "G9.0 Air support",
                        "DESIGNER'S NOTES: NO CHANGE TO PLAY", "G4.0 Night turns"]
    assert "      - What movement allowances are multiplied by in rain: 2/3" in out


def test_comments_and_layout_alone_are_no_change():
    text = OLD.read_text(encoding="utf-8")
    varied = re.sub(r"\n  ", "\n      ", text).replace("\nrule ", "\n# a new comment\nrule ")
    varied = varied.replace("+1 MP", "+1 MPs").replace('summary "Mud', 'summary   "Mud')
    assert varied != text
    assert compare(snapshot(parse(Source("a.rules", text))), snapshot(parse(Source("b.rules", varied)))) == []


def test_the_resolved_errata_says_the_series_rule_applies_again(project, capsys):
    report = _report(project, capsys, "--resolved")
    changes = {(c["rule"], c["kind"], c["what"], c["old"], c["new"]) for c in report["changes"]}
    withdrawn = [c for c in changes if c[1] == "withdrawn"]
    assert [c[:4] for c in withdrawn] == [("6.0c", "withdrawn", "override of rule 6.0c Target hex cost limit", None)]
    # it says what now applies: the series value
    assert withdrawn[0][4].startswith("the series rule applies again: The most the target hex may cost to enter "
                                      "for an overrun to be allowed: 2 MP")
    assert ("6.0c", "changed", "overrun.max_target_cost", "1 MP", "2 MP") in changes   # what that means in play
    assert not any(kind == "removed" and what.startswith("rule 6.") for _, kind, what, _, _ in changes)


def test_a_rewritten_rule_keeps_its_number_and_a_dissimilar_one_is_not_a_renumbering():
    head = 'game g "G" version "1" extends base\n\n'
    old = head + 'rule G1.0 "Fog" {\n  summary "Units are hidden until an enemy unit is adjacent."\n}\n'
    rewritten = head + 'rule G1.0 "Fog" {\n  summary "Stacks may be inspected only by the owner."\n}\n'
    [change] = compare(snapshot(parse(Source("a.rules", old))), snapshot(parse(Source("b.rules", rewritten))))
    assert (change.kind, change.what) == ("changed", "summary")
    other = head + 'rule G2.0 "Supply" {\n  summary "A unit traces supply five hexes to a road."\n}\n'
    kinds = sorted(c.kind for c in compare(snapshot(parse(Source("a.rules", old))),
                                           snapshot(parse(Source("b.rules", other)))))
    assert kinds == ["added", "removed"]
    assert 0 < RENUMBER_THRESHOLD < 1


# ---- REV:path sides, resolved against the rulebooks as they were at that revision --------------------

# the test fixtures' base series, with a parameter of its own
SERIES = (FIXTURES / "base.rules").read_text(encoding="utf-8").replace('series base "Base Series (test fixture)"', 'series house "House Series"') + """
parameters "House parameters" [2.1a] {
  house.bonus  count  "the bonus a unit gets in its home hex"
}
"""

GAME = """game x "X" version "1" extends house

rule G1.0 "Home" {
  summary "Units defend better at home."
  house.bonus = 1
}
"""


def _git(folder, *args):
    subprocess.run(["git", "-c", "user.name=test", "-c", "user.email=test@example.invalid",
                    "-c", "init.defaultBranch=main", *args], cwd=folder, check=True, capture_output=True)


@pytest.fixture
def history(project, monkeypatch):
    """A project in git: the series and the game committed, then the series changed (its parameter renamed,
    the ZOC cost lowered) and the game following it, committed again."""
    project.write("rulebooks/series/house.rules", SERIES)
    project.write("rulebooks/games/x.rules", GAME)
    _git(project.root, "init", "-q")
    _git(project.root, "add", "-A")
    _git(project.root, "commit", "-qm", "1")
    project.write("rulebooks/series/house.rules", SERIES.replace("house.bonus", "house.home_bonus")
                  .replace("zoc.entry_cost = +2 MP", "zoc.entry_cost = +1 MP"))
    project.write("rulebooks/games/x.rules", GAME.replace("house.bonus", "house.home_bonus"))
    _git(project.root, "add", "-A")
    _git(project.root, "commit", "-qm", "2")
    monkeypatch.chdir(project.root)
    return project


def test_resolved_rev_path_reads_the_series_of_that_revision(history, capsys):
    code, out, err = history.run("diff", "--resolved", "--format", "json", "HEAD~1:rulebooks/games/x.rules",
                                 "rulebooks/games/x.rules", capsys=capsys)
    # the old revision was valid when committed: its parameter is declared by the series of its time
    assert code == 1, err
    changes = {(c["rule"], c["kind"], c["what"], c["old"], c["new"]) for c in json.loads(out)["changes"]}
    # the committed series change is reported, though the game's own text hardly changed
    assert ("2.1a", "changed", "zoc.entry_cost", "+2 MP", "+1 MP") in changes
    assert ("G1.0", "removed", "house.bonus", "1", None) in changes
    assert ("G1.0", "added", "house.home_bonus", None, "1") in changes
    text = history.run("diff", "--resolved", "HEAD~1:rulebooks/games/x.rules", "HEAD:rulebooks/games/x.rules",
                       capsys=capsys)[1]
    assert "The extra MPs to enter a hex in an enemy ZOC: +2 MP -> +1 MP" in text
    assert "The bonus a unit gets in its home hex: 1" in text
    # the same revision on both sides: no change
    same = history.run("diff", "--resolved", "HEAD~1:rulebooks/games/x.rules", "HEAD~1:rulebooks/games/x.rules",
                       capsys=capsys)
    assert same[:2] == (0, "no semantic changes\n")


def test_a_series_change_alone_is_seen_between_revisions(history, capsys):
    _git(history.root, "tag", "v2")
    history.write("rulebooks/series/house.rules", (history.root / "rulebooks/series/house.rules").read_text()
                  .replace("woods     2 ", "woods     3 "))
    _git(history.root, "commit", "-qam", "3")
    code, out, err = history.run("diff", "--resolved", "v2:rulebooks/games/x.rules", "HEAD:rulebooks/games/x.rules",
                                 capsys=capsys)
    assert code == 1 and "woods movement: 2 -> 3" in out, err
    unresolved = history.run("diff", "v2:rulebooks/games/x.rules", "HEAD:rulebooks/games/x.rules", capsys=capsys)
    assert unresolved[:2] == (0, "no semantic changes\n")    # the game's own text did not change


def test_inserting_3_1b_in_the_series_reads_as_one_insertion_and_renumberings():
    """The issue's reproducer: insert 3.1b in SCS 1.8 and shift 3.1b-3.1e down a letter (their cross
    references following): 18 changes with a false 'removed' before; now one addition, four renumberings."""
    from conftest import ROOT
    text = (ROOT / "rulebooks/series/scs-1.8.rules").read_text(encoding="utf-8")
    shifted = text
    for was, now in (("3.1e", "3.1f"), ("3.1d", "3.1e"), ("3.1c", "3.1d"), ("3.1b", "3.1c")):
        shifted = re.sub(rf"\b{re.escape(was)}\b", now, shifted)
    shifted = shifted.replace('rule 3.1c "Movement Allowance"', 'rule 3.1b "Road march" {\n  summary "Units in '
                              'road march double their MA."\n}\n\nrule 3.1c "Movement Allowance"')
    changes = compare(snapshot(parse(Source("a.rules", text))), snapshot(parse(Source("b.rules", shifted))))
    rules = sorted((c.kind, c.old, c.new) for c in changes if c.area == "rule" and c.severity != "note")
    assert rules == [("added", None, "Units in road march double their MA."),
                     ("renumbered", "3.1b", "3.1c"), ("renumbered", "3.1c", "3.1d"),
                     ("renumbered", "3.1d", "3.1e"), ("renumbered", "3.1e", "3.1f")]
    assert not any(c.kind == "removed" for c in changes)


def test_a_phase_whose_activities_change_reads_in_players_words():
    text = OLD.read_text(encoding="utf-8")
    edited = text.replace("movement        [3.0]   movement, overrun", "movement        [3.0]   movement")
    assert edited != text
    [change] = compare(snapshot(parse(Source("a.rules", text))), snapshot(parse(Source("b.rules", edited))))
    assert str(change) == "movement activities: units move; units may overrun -> units move"
    assert change.rule == "1.0"


def test_a_withdrawn_chart_override_reads_as_the_series_chart_applying_again():
    text = OLD.read_text(encoding="utf-8")
    start = text.index("override terrain effects chart")
    without = text[:start] + text[text.index("combat results table"):]
    [change] = compare(snapshot(parse(Source("a.rules", text))), snapshot(parse(Source("b.rules", without))))
    assert str(change) == "withdrawn override of the Terrain Effects Chart: the series chart applies again"
    assert (change.rule, change.severity) == ("3.2", "rules")
    start = text.index("override sequence of play")
    without = text[:start] + text[text.index("override terrain effects chart"):]
    [change] = compare(snapshot(parse(Source("a.rules", text))), snapshot(parse(Source("b.rules", without))))
    assert str(change) == "withdrawn override of the Sequence of play: the series chart applies again"


# ---- the worked examples a change makes answer otherwise -------------------------------------------------

def test_a_series_change_names_the_example_of_a_game_it_breaks(project, capsys):
    """The issue's case: a change in the series makes a game's worked example answer otherwise, and the sheet
    says which example of which rulebook, its line and both answers."""
    project.add_base()
    project.write("rulebooks/games/g.rules", '''game g "G" version "1" extends base

rule G1.0 "Stacking" {
  summary "Six steps a hex."
  stacking.limit = 6 steps
}

example "Into the woods" [3.1e] {
  map 1.01 - 3.03 open
  hex 1.02 woods
  phasing friendly
  unit 1 friendly 4-4-5 at 1.01 type infantry
  expect move 1 1.02 costs 2
}

example "Across the open" [3.1e] {
  map 1.01 - 3.03 open
  phasing friendly
  unit 1 friendly 4-4-5 at 1.01 type infantry
  expect move 1 2.01 costs 1
}
''')
    series = project.root / "rulebooks/base.rules"
    edited = project.root / "base-2.rules"
    text = series.read_text(encoding="utf-8")
    assert "    woods     2 " in text
    edited.write_text(text.replace("    woods     2 ", "    woods     3 "), encoding="utf-8")
    code, out, err = project.run("diff", "--format", "json", str(series), str(edited), capsys=capsys)
    assert code == 1, err
    report = json.loads(out)
    broken = [c for c in report["changes"] if c["kind"] == "answers otherwise"]
    # only the example that moves through woods: the one across open ground answers as before
    assert [(c["what"], c["old"], c["new"], c["severity"], c["rule"]) for c in broken] == [
        ("g's example Into the woods: expect move 1 1.02", "costs 2", "costs 3", "examples", "3.1e")]
    assert broken[0]["details"] == ["rulebooks/games/g.rules, line 13"]
    assert report["summary"]["rules"] == 1 and report["summary"]["examples"] == 1
    text = project.run("diff", str(series), str(edited), capsys=capsys)[1]
    assert "1 change: 1 rules change, 1 changed example answer\n" in text
    assert "g's example Into the woods: expect move 1 1.02: costs 2 -> costs 3" in text


def test_a_change_of_words_alone_lists_no_example(project, capsys):
    """A change of words alone cannot change an answer: no example is listed (and none is run)."""
    text = OLD.read_text(encoding="utf-8")
    project.add_base()
    target = project.root / "reworded.rules"
    target.write_text(text.replace("Mud hexes cost extra MPs to enter.", "Mud costs more to enter."),
                      encoding="utf-8")
    code, out, err = project.run("diff", "--format", "json", str(OLD), str(target), capsys=capsys)
    assert code == 1, err
    assert [(c["kind"], c["what"]) for c in json.loads(out)["changes"]] == [("changed", "summary")]


# ---- --lang: the sheet in the language of the cards ---------------------------------------------------------

def test_diff_lang_fr_gives_a_french_sheet(project, capsys):
    out = _report(project, capsys, "--lang", "fr", fmt="text")
    lines = out.splitlines()
    assert lines[0] == "Hedgerow Test\u00a0: de la version 1.0 à la version 1.1"
    assert lines[1].startswith("21 changements\u00a0: 12 changements de règles, 2 réponses d'exemples qui changent, ")
    parts = [line for line in lines if line.isupper()]
    assert parts == ["CHANGEMENTS DE RÈGLES\u00a0: CE QUE FONT LES JOUEURS CHANGE",
                     "EXEMPLES DE JEU\u00a0: LES NOUVELLES RÈGLES Y RÉPONDENT AUTREMENT",
                     "CLARIFICATIONS\u00a0: LE TEXTE CHANGE, PAS CE QUE CALCULENT LES RÈGLES",
                     "ÉDITION\u00a0: NUMÉROTATION, RENVOIS ET VERSION", "NOTES DU CONCEPTEUR\u00a0: SANS EFFET SUR LE JEU"]
    # the sheet's frame, the kinds of change, the charts, the values' units and the override's sentence
    assert "3.2 Tableau des Effets de Terrain" in lines
    assert "  [règle] suppression\u00a0: règle G5.0 Partisans\u00a0: Partisans may cut one road hex a turn " \
           "behind German lines." in lines
    assert "  [règle] The extra MPs a unit spends to enter a mud hex\u00a0: +1 MP -> +2 MP" in lines
    assert any("la règle de la série s'applique de nouveau" in line for line in lines)
    assert "  [édition] renumérotation\u00a0: Victory\u00a0: G7.0 -> G8.0" not in lines
    assert "  [édition] Victory\u00a0: renumérotée de G7.0 en G8.0" in lines
    assert f"      - {OLD}, ligne 97" in lines
    # no English of the frame is left
    for english in ("RULES CHANGES", "added ", "removed ", "renumbered", "Terrain Effects Chart", "line 97"):
        assert english not in out


def test_a_french_sheet_uses_the_rulebooks_french_labels_and_marks_its_english(project, capsys, tmp_path):
    """A rule's title and a parameter's meaning come from the rulebook's French labels; what has none stays in
    English, marked lang="en" in the HTML."""
    project.add_base()
    labelled = tmp_path / "hedgerow-1.1.rules"
    labelled.write_text(NEW.read_text(encoding="utf-8") + '''
labels fr "Français" {
  rule.g10.0.title    "Pluie"
  param.mud.extra_cost "PM de plus pour entrer dans un hex de boue"
}
''', encoding="utf-8")
    code, out, err = project.run("diff", "--lang", "fr", "--format", "html", str(OLD), str(labelled),
                                 capsys=capsys)
    assert code == 1, err
    assert '<html lang="fr">' in out
    assert "ajout\u00a0: règle G10.0 Pluie" in out
    assert "<h2>G10.0 Pluie</h2>" in out
    assert "PM de plus pour entrer dans un hex de boue" in out and "The extra MPs a unit spends" not in out
    # a rule without a French title: its English title marked as English
    assert 'règle G5.0 <span lang="en">Partisans</span>' in out
    # a summary is the rulebook's English prose: its cells are marked
    assert re.search(r'<td class="old" lang="en">Night turns halve', out)
    # the page footer in French, as CSS strings and counters
    assert '"page " counter(page) " sur " counter(pages)' in out


def test_the_french_sheet_frame_cannot_inject_css(project, capsys, tmp_path):
    """A project's label for the page footer is a CSS string: quotes and a closing tag cannot leave it."""
    project.add_base()
    project.write("rulebooks/labels.rules", 'labels house "House" version "1"\n\nlabels fr "Français" {\n'
                                            '  errata.page "p. {n}\\" } body { display: none } </style>"\n}\n')
    code, out, err = project.run("diff", "--lang", "fr", "--format", "html", str(OLD), str(NEW), capsys=capsys)
    assert code == 1, err
    style = out[out.index("<style>"):out.index("</style>")]
    assert '"p. " counter(page) "\\22  } body { display: none } \\3c /style\\3e "' in style


def test_the_english_sheet_heads_each_area_as_the_diff_names_it():
    """The errata labels' English area headings are the diff's own (a sheet in English reads as before)."""
    from rulesdsl.errata.diff import _KEYED
    from rulesdsl.errata.sheets import Words
    words = Words.of()
    for area, heading, _ in _KEYED.values():
        assert words.area(area) == heading
    assert (words.area("sequence"), words.area("results")) == ("Sequence of play", "Combat Results Table")
    french = Words.of("fr")
    assert {french.area(area) for area, _, _ in _KEYED.values()}.isdisjoint(h for _, h, _ in _KEYED.values())
