"""The card's legend of result codes words each code as correct English (and French): a plural subject,
both sides, takes the verb's plural ("Br: both sides retreat 1 hex", not "retreats")."""
from __future__ import annotations

import html
import itertools
import re

import pytest

from conftest import ROOT

SIDES = ("attacker", "defender", "both")
CLAUSES = ("loses 1", "loses 2", "loses 1 unit", "loses 2 units", "loses all", "retreats 1", "retreats 2",
           "advances 1", "advances 2")
CODES = {f"X{i}": f"{side} {clause}" for i, (side, clause) in enumerate(itertools.product(SIDES, CLAUSES))}
CODES["Br"] = "both retreats 1"

SKIRMISH = '''game skirmish "Skirmish (a test title)" version "1.0"

rule 1.0 "Sequence of Play" {
  summary "Each side attacks."
}

sequence of play [1.0] {
  game turn {
    player turn red
    player turn blue
  }
  player turn {
    combat    [7.0]  combat
  }
}

rule 7.0 "Combat" {
  summary "Odds, one die."
  combat.below_table = AE
}

rounding standard: .50 up, keep fractions   [7.0]

result codes "Results" [7.0] {
  AE  attacker loses all
  DE  defender loses all
%s
}

combat results table "Combat Results" [7.0] dice 1d6 {
  odds  1:1  2:1
  1-3   AE   Br
  4-6   DE   X0
}

labels fr "Français" {
  title.rulebook     "Escarmouche"
  player-turn.red    "Rouge"
  player-turn.blue   "Bleu"
  phase.combat       "Combat"
  activity.combat    "combat"
  title.results      "Résultats des combats"
}
''' % "\n".join(f"  {code}  {meaning}" for code, meaning in CODES.items())


def _text(page: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


# an English third-person singular verb after a plural subject: "both sides retreats"
_DISAGREES = re.compile(r"\bboth sides (loses|retreats|advances|is|has)\b")
_FRENCH_DISAGREES = re.compile(r"les deux camps : (éliminé|1 pas perdu|\d+ pas perdus|1 unité perdue)(?! chacun|s)")


@pytest.fixture(scope="module")
def cards(tmp_path_factory):
    from conftest import Project
    from rulesdsl.cli import main
    project = Project(tmp_path_factory.mktemp("skirmish"))
    project.write("rulebooks/skirmish.rules", SKIRMISH)
    assert main(["--project", str(project.root), "build"]) == 0
    charts = project.root / "generated" / "charts"
    return {lang: _text((charts / f"skirmish.{lang}.html").read_text(encoding="utf-8")) for lang in ("en", "fr")}


def test_br_reads_both_sides_retreat_one_hex(cards):
    assert "Br both sides retreat 1 hex" in cards["en"]
    assert "both sides retreats" not in cards["en"]
    assert "Br les deux camps : recul de 1 hex" in cards["fr"]


def test_every_code_agrees_with_its_subject(cards):
    english, french = cards["en"], cards["fr"]
    expected = {"loses 1": "lose 1 step", "loses 2": "lose 2 steps", "loses 1 unit": "lose 1 unit",
                "loses 2 units": "lose 2 units", "loses all": "eliminated", "retreats 1": "retreat 1 hex",
                "retreats 2": "retreat 2 hexes", "advances 1": "advance 1 hex", "advances 2": "advance 2 hexes"}
    for code, meaning in CODES.items():
        side, clause = meaning.split(" ", 1)
        if side == "both":
            assert f"{code} both sides {expected[clause]}" in english, code
        else:
            singular = expected[clause] if clause == "loses all" else \
                re.sub(r"^(\w+)", r"\1s", expected[clause])       # attacker loses, retreats, advances
            assert f"{code} {side} {singular}" in english, (code, singular)
    assert not _DISAGREES.search(english) and not _FRENCH_DISAGREES.search(french)
    assert "les deux camps : éliminés" in french


@pytest.mark.parametrize("card", sorted(p.name for p in (ROOT / "generated" / "charts").glob("*.html")))
def test_no_shipped_legend_has_a_plural_subject_with_a_singular_verb(card):
    text = _text((ROOT / "generated" / "charts" / card).read_text(encoding="utf-8"))
    assert not _DISAGREES.search(text) and not _FRENCH_DISAGREES.search(text), card
