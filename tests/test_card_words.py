"""Words a player follows: no card prints code in words, a minus is a minus, French is set as French,
one term per concept in each language, and a row the compiler cannot word plainly asks for player text."""
from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

import rulesdsl
from conftest import FIXTURES, ROOT
from rulesdsl.cards.charts import card, render_html, statement
from rulesdsl.cards.labeler import typeset
from rulesdsl.errors import render_all
from rulesdsl.project.passes import default_labels

CARDS = sorted((ROOT / "generated" / "charts").glob("*.html"))
FRENCH = [path for path in CARDS if path.name.endswith(".fr.html")]


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        self._skip += tag in ("style", "title", "head")

    def handle_endtag(self, tag):
        self._skip -= tag in ("style", "title", "head")

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def printed(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return "".join(parser.parts)


# Phrases that are code in words, not rules a player follows: the publisher's review quoted most of them.
CODE_LIKE = [
    r"\bby the smaller of\b", r"\bthe larger of\b", r"\bwhen not\b", r"\bgreater than 0\b", r"\bless than 0\b",
    r"\bis 0\b", r"\bvaut 0\b", r"n'atteint pas 0", r"\bdépasse 0\b", r"\bWhether\b", r"— (?:yes|no)\b",
    r"\bleftmost\b", r"\brightmost\b", r"\bDefender steps \(average\)", r"\b[a-z]+\.[a-z_]+\b(?<!\.\.)",
    r"\bDg\b", r"\bx1\b", r"\{\{|\}\}|\{%",
]


def test_every_shipped_card_is_checked():
    assert len(CARDS) >= 10 and len(FRENCH) >= 4


@pytest.mark.parametrize("path", CARDS, ids=lambda p: p.name)
def test_no_card_prints_code_in_words(path):
    text = printed(path.read_text(encoding="utf-8"))
    found = {pattern: m.group(0) for pattern in CODE_LIKE for m in [re.search(pattern, text)] if m}
    assert found == {}


@pytest.mark.parametrize("path", CARDS, ids=lambda p: p.name)
def test_a_negative_number_prints_a_true_minus_sign(path):
    text = printed(path.read_text(encoding="utf-8"))
    hyphens = re.findall(r"(?<![\w\d])-\d+\b(?![-–]\d)", text)
    assert hyphens == []
    if path.name.startswith(("new_scs", "corridor")):
        assert "\u22121" in text       # the DRMs and shifts print their minus signs


@pytest.mark.parametrize("path", FRENCH, ids=lambda p: p.name)
def test_french_cards_are_set_as_french(path):
    text = printed(path.read_text(encoding="utf-8"))
    # a no-break space before : (not in odds like 3:1), a narrow one before ; ! ? and %
    assert re.findall(r"\S :|\S\S:(?=\s)|[^\s\u00a0]:(?=\s)", text) == []
    assert re.findall(r"(?:\S |[^\s\u202f])[;!?](?=\s)", text) == []
    assert re.findall(r"\d(?: |)%", text) == []
    assert "\u00a0:" in text


# One term per concept on a language's cards: the French edition's terms where it has them.
GLOSSARY = {
    "fr": {
        "out of supply": ("rupture de stock", [r"\bhors ravitaillement\b", r"\bsans ravitaillement\b"]),
        # the French edition's own terms (seed 003: ZOC 60 times and ZdC never, EZOC 28, MP 32 and PM twice,
        # Overrun 57 and débordement once)
        "zone of control": ("ZOC", [r"\bZdC\b", r"\bZdCE\b", r"ZdC ennemie"]),
        "movement points": ("MP", [r"\bPM\b"]),
        "overrun": ("Overrun", [r"\bdébord"]),
        "die roll modifier": ("MD", [r"\bDRMs?\b"]),
        "disrupted": ("DG", [r"\bDg\b"]),
    },
}


@pytest.mark.parametrize("path", FRENCH, ids=lambda p: p.name)
def test_a_french_card_uses_one_term_per_concept(path):
    text = printed(path.read_text(encoding="utf-8"))
    strays = {concept: m.group(0) for concept, (_, others) in GLOSSARY["fr"].items()
              for pattern in others for m in [re.search(pattern, text, re.I if "ravitaillement" in pattern else 0)] if m}
    assert strays == {}


def test_the_glossary_check_fails_on_a_second_term():
    text = "Attaque en rupture de stock · Effets hors ravitaillement"
    assert any(re.search(p, text, re.I) for p in GLOSSARY["fr"]["out of supply"][1])


def test_typesetting_touches_text_not_markup():
    html = '<style>a:b; c</style><p data-x="-1">Embuscade : x ; y! 16,7 % à 3:1, -1 et 1-2</p>'
    assert typeset(html, "fr") == ('<style>a:b; c</style><p data-x="-1">Embuscade\u00a0: x\u202f; y\u202f! '
                                   '16,7\u202f% à 3:1, \u22121 et 1-2</p>')
    assert typeset("<p>Net DRM -3, rows 1-3; x: y</p>", "en") == "<p>Net DRM \u22123, rows 1-3; x: y</p>"
    # an entity's semicolon is no punctuation: escaped rulebook text stays escaped
    assert typeset("<p>&lt;b&gt; &amp; &#34;co&#34; ; x</p>", "fr") == "<p>&lt;b&gt; &amp; &#34;co&#34;\u202f; x</p>"


@pytest.mark.parametrize("meaning, value, said", [
    ("whether a unit may move directly from one enemy ZOC hex to another", True,
     "A unit may move directly from one enemy ZOC hex to another."),
    ("whether the defender may advance after combat", False, "The defender may not advance after combat."),
    ("whether entering an enemy ZOC stops the unit", True, "Entering an enemy ZOC stops the unit."),
    ("whether effects apply once a unit is marked", False, None),      # "is" belongs to another clause
    ("how far units advance", True, None),
])
def test_a_flag_reminder_states_its_rule(meaning, value, said):
    assert statement(meaning, value) == said


PLAIN = '''game plain "Plain" version "1" extends base

result adjustments "Ambush" [7.4] {
  careful  defender-steps  -1  when result.defender_steps > 0
}
'''


def _card(text: str):
    compilation = rulesdsl.compile_text(text, "rulebooks/plain.rules",
                                        ("rulebooks/base.rules", (FIXTURES / "base.rules").read_text()))
    assert compilation.ok, render_all(compilation.diagnostics, compilation.sources)
    return card(compilation.resolved["plain"], "en", default_labels())


def test_a_row_the_compiler_cannot_word_plainly_asks_for_player_text():
    data, warnings = _card(PLAIN)
    asked = [w for w in warnings if "not words a player follows" in w.message]
    assert len(asked) == 1 and asked[0].severity == "warning"
    assert "result adjustment 'careful'" in asked[0].message and "greater than 0" in asked[0].message
    assert asked[0].hint == 'give it player text: labels en { when.adjustment.careful "..." }'
    # the rulebook's own words replace the composed ones, and the card no longer asks
    worded = PLAIN + '\nlabels en "English" {\n  when.adjustment.careful  "when the defender loses steps"\n}\n'
    data, warnings = _card(worded)
    assert not [w for w in warnings if "not words a player follows" in w.message]
    assert data["adjustments"]["entries"][0]["when"].text == "when the defender loses steps"
    assert "when the defender loses steps" in render_html(data)


def test_what_triggers_an_effect_is_printed_under_its_chart():
    html = (ROOT / "generated" / "charts" / "new_scs.en.html").read_text(encoding="utf-8")
    text = printed(html)
    assert re.search(r"Ambush: white die ≤ ambush chance", text) and re.search(r"Surprise: no ambush and red die", text)
    french = printed((ROOT / "generated" / "charts" / "new_scs.fr.html").read_text(encoding="utf-8"))
    assert "Embuscade\u00a0: dé blanc ≤ chance d'embuscade" in french
