"""Conditions and formulas on the cards are players' words, in English and French; never the DSL."""
from __future__ import annotations

import re
from fractions import Fraction
from html.parser import HTMLParser
from typing import get_args

import pytest

from conftest import ROOT
from rulesdsl.model import ir
from rulesdsl.cards import wording
from rulesdsl.cards.charts import card, render_html
from rulesdsl.cards.labeler import Labeler, label_layers, languages
from rulesdsl.project.build import compile_project

PROJECT = compile_project(ROOT, examples=False)


def labeler(key: str, lang: str) -> Labeler:
    return Labeler(lang, label_layers(PROJECT.resolved[key], PROJECT.labels))


def say(expr: ir.Expr, key: str, lang: str, unit: bool = False) -> tuple[str, Labeler]:
    t = labeler(key, lang)
    return wording.describe(expr, t, PROJECT.resolved[key], unit=unit).text, t


def name(path: str) -> ir.Name:
    return ir.Name(path=path)


def num(value: int | Fraction) -> ir.Number:
    return ir.Number(value=Fraction(value))


def call(function: str, *args: ir.Expr, where: ir.Expr | None = None, of: ir.Expr | None = None) -> ir.Call:
    return ir.Call(function=ir.Text(value=function), args=args, where=where, of=of)


def binary(op: str, left: ir.Expr, right: ir.Expr) -> ir.Binary:
    return ir.Binary(op=ir.BinaryOp(op), left=left, right=right)


# Code a card must never show: a call's parenthesis, `where`/`of`, comparison operators, ids.
CODE = re.compile(r"\b[a-z]+\(|\bwhere\b|\bof [a-z]+\)|>=|<=|==|!=|[<>]|\w_\w|\b[a-z]+-[a-z]+(?:-[a-z]+)*\b")


def test_every_expression_node_kind_has_a_wording():
    """A node kind added to ir.Expr without a wording fails here (and in mypy: _Say.say's assert_never)."""
    assert set(get_args(ir.Expr)) == set(wording.WORDINGS)


# (expression, rulebook, unit scope, English, French): one or more per node kind
CASES = [
    (num(Fraction(3, 2)), "new-scs", False, "1½", "1½"),                                          # Number
    (num(12), "new-scs", False, "12", "12"),
    (ir.OddsLiteral(text="4:1"), "new-scs", False, "4:1", "4:1"),                                  # OddsLiteral
    (name("dg"), "new-scs", True, "the unit is DG", "l'unité est DG"),                             # Name: a state
    (name("out-of-supply"), "bocage", True, "the unit is out of supply", "l'unité est en rupture de stock"),
    (name("in-ezoc"), "new-scs", True, "the unit is in an enemy ZOC", "l'unité est dans une EZOC"),
    (name("supply.out_of_supply_attack_factor"), "bocage", True, "½", "½"),                       # a parameter
    (name("overrun"), "new-scs", False, "the combat is an overrun", "le combat est un Overrun"),
    (name("ambush"), "new-scs", False, "ambush", "embuscade"),                                     # a definition
    (call("any", name("attacking_hexes"), where=binary(">=", call("count", name("units")), num(3))),  # Call
     "new-scs", False, "an attacking hex holds 3 or more units", "un hex attaquant contient au moins 3 unités"),
    (call("all", name("defenders"), where=name("dg")), "new-scs", False,
     "every defending unit is DG", "chaque unité en défense est DG"),
    (call("max", name("defenders"), of=name("quality")), "new-scs", False,
     "the highest quality among the defending units", "le maximum de la qualité parmi les unités en défense"),
    (call("sum", name("attackers"), where=name("tank"), of=name("attack")), "new-scs", False,
     "the total attack strength of the attacking units that are tank",
     "le total de la force d'attaque des unités attaquantes qui sont de type char"),
    (call("min", num(3), name("ambush-chance")), "new-scs", False,
     "the smaller of 3 and ambush chance", "le minimum entre 3 et la chance d'embuscade"),
    (call("if", name("ambush"), num(1), num(0)), "new-scs", False,
     "1 if ambush, otherwise 0", "1 si embuscade, sinon 0"),
    (call("odds", name("armor-attack"), name("armor-defense")), "new-scs", False,
     "the odds of armor attack against armor defense",
     "le rapport de la force d'attaque des chars contre la défense contre les chars"),
    (call("floor", name("dice.white")), "new-scs", False, "the white die, rounded down",
     "le dé blanc, arrondi à l'inférieur"),
    (call("all", name("attacking_hexes"), where=call("across", name("river"))), "new-scs", False,
     "every attacking hex attacks across a river hexside",
     "chaque hex attaquant attaque à travers un côté d'hex rivière"),
    (ir.Unary(op=ir.UnaryOp.NOT, operand=call("any", name("attackers"), where=name("engineer"))),   # Unary
     "new-scs", False, "no attacking unit is engineer", "aucune unité attaquante n'est du génie"),
    (ir.Unary(op=ir.UnaryOp.NOT, operand=name("overrun")), "new-scs", False,
     "the combat is not an overrun", "le combat n'est pas un Overrun"),
    (ir.Unary(op=ir.UnaryOp.NEG, operand=num(2)), "new-scs", False, "\u22122", "\u22122"),
    (binary(">=", call("count", name("defenders")), num(3)), "new-scs", False,                     # Binary
     "there are 3 or more defending units", "il y a au moins 3 unités en défense"),
    (binary("and", name("ambush"), binary(">", name("result.defender_steps"), num(0))), "new-scs", False,
     "ambush and the defender's step loss is greater than 0",
     "embuscade et la perte de pas du défenseur dépasse 0"),
    (binary("/", num(3), num(2)), "new-scs", False, "1½", "1½"),
    (binary("and", name("ambush"), binary("or", name("surprise"), name("overrun"))), "new-scs", False,
     "ambush and either surprise or the combat is an overrun",
     "embuscade et soit surprise, soit le combat est un Overrun"),
    (ir.Is(operand=name("armor-advantage"), word=ir.Text(value="attacker")), "new-scs", False,       # Is
     "the attacker has the armor advantage", "l'attaquant a l'avantage blindé"),
    (ir.Is(operand=name("defender_terrain"), word=ir.Text(value="woods")), "new-scs", False,
     "the defender's terrain is woods", "le terrain du défenseur est forêts"),
]


@pytest.mark.parametrize("expr, key, unit, english, french", CASES)
def test_each_node_kind_in_english_and_french(expr, key, unit, english, french):
    for lang, expected in (("en", english), ("fr", french)):
        text, t = say(expr, key, lang, unit)
        assert text == expected, lang
        assert not t.missing, lang          # every word of these has a label in both languages
        assert not CODE.search(text), (lang, text)


def test_the_nodes_the_cases_cover_are_every_node_kind():
    covered = {type(expr) for expr, *_ in CASES}
    assert covered == set(get_args(ir.Expr))


def test_a_name_with_no_label_is_written_out_and_recorded():
    # VCS has no French labels: its situation is written out from its id, marked, and named as missing
    text, t = say(name("river-assault"), "vcs", "fr")
    assert text == "river assault" and "situation.river-assault" in t.missing
    label = wording.describe(name("river-assault"), labeler("vcs", "fr"), PROJECT.resolved["vcs"])
    assert label.fallback
    # in English the words are the id written out, recorded as derived (not a translation to make)
    text, t = say(name("river-assault"), "vcs", "en")
    assert text == "river assault" and "situation.river-assault" in t.derived and not t.missing
    # an unknown name still never prints as code
    text, _ = say(name("some_thing-else"), "vcs", "en")
    assert text == "some thing else"


def test_a_parameter_is_its_value_or_its_meaning_never_its_id():
    for key in ("bocage", "new-scs", "vcs"):
        resolved = PROJECT.resolved[key]
        for p in resolved.parameters:
            for lang in ("en", "fr"):
                text = wording.describe(name(p.name), labeler(key, lang), resolved).text
                assert p.name not in text and "_" not in text, (key, p.name, text)


def test_shift_amounts_say_the_side():
    t = labeler("vcs", "en")
    vcs = PROJECT.resolved["vcs"]
    said = {s.source.value: wording.shift(s.amount, t, vcs).text for s in vcs.shifts.node.shifts}
    assert said["rubble-shift"] == "1 left"
    assert said["artillery-attack-shift"] == "right, by artillery attack"
    assert said["artillery-defense-shift"] == "left, by artillery defense"
    assert said["combined-arms-attack"] == ("right, by the smaller of combined arms stacks and 1 if river assault, "
                                           "otherwise combined arms stacks")
    assert said["elevation"].startswith("by elevation difference: right when above 0")
    fr = wording.shift(vcs.shifts.node.shifts[-1].amount, labeler("vcs", "fr"), vcs).text
    assert fr == "1 à droite"


# ---- the shipped cards ---------------------------------------------------------------------------
class _Text(HTMLParser):
    """The text a reader sees, in pieces; `marked`: inside a .fallback span (shown in English, marked)."""

    SKIP = {"style", "title", "head"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, str]] = []
        self.pieces: list[tuple[str, bool, bool]] = []    # text, marked, in a cites/fallback-note

    def handle_starttag(self, tag, attrs):
        if tag in ("br", "meta", "img"):
            return
        self.stack.append((tag, dict(attrs).get("class") or ""))

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        if any(tag in self.SKIP for tag, _ in self.stack) or not data.strip():
            return
        classes = " ".join(c for _, c in self.stack).split()
        self.pieces.append((" ".join(data.split()), "fallback" in classes,
                            "cites" in classes or "fallback-note" in classes))


def pieces(html: str) -> list[tuple[str, bool, bool]]:
    parser = _Text()
    parser.feed(html)
    return parser.pieces


CARDS = [(key, lang) for key in sorted(PROJECT.resolved) for lang in ("en", "fr")]


@pytest.mark.parametrize("key, lang", CARDS)
def test_no_raw_expression_text_on_any_shipped_card(key, lang):
    resolved = PROJECT.resolved[key]
    html = render_html(card(resolved, lang, PROJECT.labels)[0])
    text = " ".join(p for p, _, aside in pieces(html) if not aside)
    for pattern in (r"\b[a-z_]+\(", r" where ", ">=", "<=", "==", "!=", r"\w_\w"):
        assert not re.search(pattern, text), (pattern, re.search(pattern, text))
    ids = {n for n in (*resolved.vocabulary.situations, *resolved.vocabulary.amounts,
                       *resolved.vocabulary.definitions) if "-" in n}      # states read as English (out-of-supply)
    ids |= {p.name for p in resolved.parameters}
    found = [i for i in ids if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", text)]
    assert not found
    # a chart's words (air-sea supply's in-ezoc) print as words too
    for table in card(resolved, lang, PROJECT.labels)[0]["tables"]:
        for word in [*table["columns"], table["key"], *(r["label"] for r in table["rows"])]:
            assert not re.fullmatch(r"[a-z]+(?:-[a-z]+)+", str(word)), (table["name"], word)
    # every expression's printed text in the charts that hold them: no code
    for section in ("modifiers", "shifts", "factors", "adjustments"):
        data = card(resolved, lang, PROJECT.labels)[0].get(section)
        for entry in (data or {}).get("entries", []):
            for field in ("when", "text", "factor"):
                if field in entry:
                    assert not CODE.search(entry[field].text), (section, entry[field].text)


FRENCH = [key for key in sorted(PROJECT.resolved) if "fr" in languages(PROJECT.resolved[key])]


@pytest.mark.parametrize("key", FRENCH)
def test_french_cards_leave_no_english_unmarked(key):
    """A piece of text the French card prints as the English card does is English left over, unless a
    French label gives those very words (Division, Phase) or it is a number or a code."""
    resolved = PROJECT.resolved[key]
    english = {p for p, _, _ in pieces(render_html(card(resolved, "en", PROJECT.labels)[0]))}
    french_words = {text for layer in label_layers(resolved, PROJECT.labels) for text in layer.get("fr", {}).values()}
    data, warnings = card(resolved, "fr", PROJECT.labels)
    left = [p for p, marked, aside in pieces(render_html(data))
            if not marked and not aside and p in english and re.search(r"[A-Za-z]{3}", p)
            and p not in french_words and not re.fullmatch(r"[\w:½¼¾/+\-−. ]*\d[\w:½¼¾/+\-−. ]*", p)
            and not re.fullmatch(r"[A-Z]+|\w{1,3}", p)]      # codes and symbols: XXX, DRM, Grp
    assert not left
    assert not warnings, [w.message for w in warnings]     # the shipped French cards are complete


def test_a_missing_label_is_marked_on_the_card_and_named_in_the_warning():
    # VCS has no French: its French card marks every English word it prints and the warning names each
    data, warnings = card(PROJECT.resolved["vcs"], "fr", PROJECT.labels)
    html = render_html(data)
    assert "situation.river-assault" in warnings[0].message and "define.combined-arms-stacks" in warnings[0].message
    assert re.search(r'<span class="fallback" lang="en">[^<]*river assault', html)
    shifts = [e["text"] for e in data["shifts"]["entries"]]
    assert all(s.fallback for s in shifts if "river assault" in s.text)


def test_numbers_follow_the_locale():
    assert wording.percent(Fraction(583, 1000), "en") == "58.3%"
    # French puts a no-break space before % (narrow in recent CLDR data)
    assert re.fullmatch("58,3[\u00a0\u202f]%", wording.percent(Fraction(583, 1000), "fr"))
    assert re.fullmatch("100,0[\u00a0\u202f]%", wording.percent(Fraction(1, 1), "fr"))
    assert wording.percent(Fraction(7, 12), "en") == "58.3%"            # exact, rounded half up
    assert wording.decimal(Fraction(61, 100), "en") == "0.61"
    assert wording.decimal(Fraction(61, 100), "fr") == "0,61"
    assert wording.decimal(Fraction(1, 200), "en") == "0.01"            # half up, not to even
    html = {lang: render_html(card(PROJECT.resolved["bocage"], lang, PROJECT.labels)[0]) for lang in ("en", "fr")}
    assert "58.3%" in html["en"] and "0.61" in html["en"]
    assert re.search("58,3[\u00a0\u202f]%", html["fr"]) and "0,61" in html["fr"]
    assert "58.3%" not in html["fr"] and "0.61" not in html["fr"]


def test_the_french_edition_terms():
    data, _ = card(PROJECT.resolved["bocage"], "fr", PROJECT.labels)
    html = render_html(data)
    assert "Deuxième joueur" in html and "Second joueur" not in html
    assert "Corps d&#39;armée<" in html
    assert "Bocage (un titre de démonstration)" in html and "a demonstration title" not in html
    assert "Out of Supply" not in html and "rupture de stock" in html
    section = re.search(r'<section[^>]* id="terrain-effects-chart".*?</section>', html, re.S).group(0)
    tec = " ".join(p for p, _, _ in pieces(section))     # the codes; French prose may say "ne ... pas"
    assert " NE " in f" {tec} " and " ne " not in f" {tec} "
