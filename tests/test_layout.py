"""What people type: comment and blank lines at any indentation, CR, CRLF and
LF line ends, form feeds and pasted spaces.  Each parses to the rulebook the
plain text means, errors in it are positioned as an editor counts lines, and
fmt gives back text that parses to the same rulebook."""
from __future__ import annotations

import functools
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lark.grammar import Terminal

from conftest import FIXTURES, ROOT
from rulesdsl.language import fmt as fmt_module
from rulesdsl.errors import RulesError, render_all
from rulesdsl.language.fmt import FormatRefused, format_source, format_text
from rulesdsl.language.parser import _LARK, parse_tree
from rulesdsl.language.source import Source, read_source
from rulesdsl.language.transform import parse

# One block of every kind the grammar has (the header opens the file).
EVERY_BLOCK = '''\
series sample "Every block kind" version "1.0"
rounding standard: .50 up, keep fractions [rounding]
unit states: dg, out-of-supply
combat situations: ambush
parameters "Vocabulary" [rounding] {
  morale.rout_distance  quantity hexes  "how far a routed unit flees"
  morale.order  order weakest-first, owner-choice  "who tests first"
}
section rounding "Rounding" {
  summary "Halves and more round up."
  zoc.entry_cost = +2 MP
  morale.rout_distance = 2 hexes
  define lucky = dice.white <= 2
  define side {
    attacker when lucky
    neither otherwise
  }
}
override rule 1.0 "Sequence" {
  summary "Two player turns."
}
sequence of play [1.0] {
  game turn {
    player turn first
    player turn second
  }
  player turn {
    movement [1.0] movement
    combat
  }
}
terrain effects chart "TEC" [rounding] {
  hex:
    open 1 ne
    woods 2 Dx2
  hexside:
    river P P
}
combat results table "CRT" [rounding] dice 2d6 {
  odds 1:1 2:1
  2 A1 D1
  3 D1 D2
}
combat results table "Two sides" dice 1d6 {
  defender side {
    odds 1:1 2:1
    1 - D1
  }
  attacker side {
    defense 1-4 5+
    1 A1 -
  }
}
amend combat results table "Errata" [rounding] {
  odds 2:1
  3 D3
}
result codes "Legend" [rounding] family steps-first {
  DE defender loses all
  DRL defender retreats 1, defender loses 1 step
}
table sizes "Sizes" [rounding] {
  level 1 2-3
  hexes 4 3
}
example "Every example line" [rounding] {
  note "A situation."
  map 1.01 - 5.05 open
  unit a blue 3-2-6 at 1.02
  expect move a 1.03 costs 1
}
unit types [rounding] {
  infantry foot
  armor armored, exploit
}
die roll modifiers "DRM" cap 3 {
  density +1 defender when count(defenders) >= 3
}
column shifts "Shifts" max 3 per side before limits {
  cover -1 max 2 when lucky
}
strength factors "Factors" [rounding] {
  dg-attack attack combat.dg_factor when dg
}
result adjustments "Adjustments" {
  ambush-retreat defender-retreat -1 when ambush
}
labels fr "Français" {
  terrain.open "Dégagé"
}
card {
  sides 2
  reminders: odds zoc
  swatch open "#f3eed8" dots
}
'''

SHIPPED = sorted((ROOT / "rulebooks").rglob("*.rules")) + [ROOT / "rulesdsl/cards/labels/charts.rules"]


def _parses(path: Path) -> bool:
    try:
        parse(Source(str(path), path.read_text(encoding="utf-8")))
        return True
    except RulesError:
        return False


CORPUS = SHIPPED + [p for p in sorted(FIXTURES.rglob("*.rules")) if _parses(p)]


def _model(text: str):
    return parse(Source("x.rules", text))


def _fmt_keeps_meaning(text: str) -> str:
    once = format_text(text)
    assert format_text(once) == once, "fmt is not idempotent"
    assert _model(once) == _model(text), "fmt changed the rulebook"
    assert format_source(Source("x.rules", text)) == once
    return once


def _opening_lines(text: str) -> list[int]:
    return [i for i, line in enumerate(text.split("\n")) if line.rstrip().endswith("{")]


def _closing_lines(text: str) -> list[int]:
    return [i for i, line in enumerate(text.split("\n")) if line.strip() == "}"]


def _insert(text: str, index: int, new_line: str) -> str:
    lines = text.split("\n")
    lines.insert(index, new_line)
    return "\n".join(lines)


def test_every_block_kind_sample_parses_and_is_formatted():
    _fmt_keeps_meaning(EVERY_BLOCK)


def test_the_sample_has_every_block_kind_of_the_grammar_and_fmt_knows_each():
    """A block kind added to the grammar fails here until fmt (and this sample) know it."""
    braced = {rule.alias or rule.origin.name for rule in _LARK.rules if Terminal("LBRACE") in rule.expansion}
    seen: dict[str, int] = {}
    for tree in parse_tree(Source("x.rules", EVERY_BLOCK)).iter_subtrees():
        if tree.data in braced:
            seen.setdefault(str(tree.data), tree.meta.line)
    assert set(seen) == {str(b) for b in braced}, "add a block of each new kind to EVERY_BLOCK"
    lines = EVERY_BLOCK.split("\n")
    for kind, line in seen.items():
        tokens, _ = fmt_module._tokens(lines[line - 1])
        assert fmt_module._block_kind(tokens) != "other", f"fmt has no layout for '{kind}' blocks"


# ---- the reproducers -----------------------------------------------------
def _variants() -> dict[str, str]:
    out = {}
    for n, index in enumerate(_opening_lines(EVERY_BLOCK)):
        head = EVERY_BLOCK.split("\n")[index].strip()
        out[f"comment after '{head[:30]}'"] = _insert(EVERY_BLOCK, index + 1, "      # a note, indented")
    for n, index in enumerate(_closing_lines(EVERY_BLOCK)):
        out[f"comment before closing brace {n}"] = _insert(EVERY_BLOCK, index, "    # last words")
        out[f"whitespace line before closing brace {n}"] = _insert(EVERY_BLOCK, index, " \t  ")
    out["comment after the header"] = _insert(EVERY_BLOCK, 1, "  # indented, after the header")
    out["blank lines after the header"] = _insert(_insert(EVERY_BLOCK, 1, ""), 1, "   ")
    out["whitespace-only lines everywhere"] = EVERY_BLOCK.replace("\n", "\n  \t\n")
    out["comment lines everywhere"] = EVERY_BLOCK.replace("\n", "\n\t # hm\n")
    out["trailing comments"] = re.sub(r"\n", "  # why\n", EVERY_BLOCK)
    out["no final newline"] = EVERY_BLOCK.rstrip("\n")
    out["comment at the end without newline"] = EVERY_BLOCK + "  # the end"
    out["CR only"] = EVERY_BLOCK.replace("\n", "\r")
    out["CRLF"] = EVERY_BLOCK.replace("\n", "\r\n")
    out["mixed line ends"] = "".join(line + ("\n", "\r\n", "\r")[i % 3]
                                     for i, line in enumerate(EVERY_BLOCK.split("\n")[:-1]))
    out["form feed lines"] = EVERY_BLOCK.replace("\nsection", "\n\f\nsection").replace("\nlabels", "\f\nlabels")
    out["form feed indentation"] = EVERY_BLOCK.replace("\n  ", "\n\f ")
    out["tabs and pasted spaces"] = EVERY_BLOCK.replace("\n  ", "\n\t").replace(" when ", "\u00a0when\u2003")
    out["before limits with a tab"] = EVERY_BLOCK.replace("before limits", "before\tlimits")
    return out


VARIANTS = _variants()


@pytest.mark.parametrize("name", list(VARIANTS))
def test_variant_means_the_plain_rulebook(name):
    assert _model(VARIANTS[name]) == _model(EVERY_BLOCK)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_variant_formats_to_text_that_parses_the_same(name):
    once = _fmt_keeps_meaning(VARIANTS[name])
    assert "\r" not in once and once.endswith("\n")


@pytest.mark.parametrize("name", ["comment before closing brace 0", "whitespace-only lines everywhere", "CR only",
                                  "CRLF", "mixed line ends", "form feed lines", "comment lines everywhere"])
def test_fmt_command_writes_a_file_that_parses(name, project, capsys):
    path = project.write("rulebooks/sample.rules", VARIANTS[name].encode("utf-8"))
    code, out, err = project.run("fmt", str(path), capsys=capsys)
    assert code == 0, err
    assert "formatted rulebooks/sample.rules" in out
    written = read_source(path, "sample.rules")
    assert parse(written) == _model(EVERY_BLOCK)
    assert b"\r" not in path.read_bytes()
    assert project.run("fmt", "--check", str(path), capsys=capsys)[0] == 0


def test_the_shipped_rulebooks_before_this_change_were_broken_by_fmt():
    """The original reproducer: a comment line inside a block, as fmt used to indent it."""
    text = 'series x "X" version "1"\nrule 1.0 "A" {\n# about the rule\n  summary "a"\n}\n'
    once = _fmt_keeps_meaning(text)
    assert "\n  # about the rule\n" in once


# ---- comment indentation -------------------------------------------------
def test_comment_lines_are_indented_like_the_code_around_them():
    text = ("series x \"X\" version \"1\"\n"
            "terrain effects chart {\n"
            "# hexes\n"
            "hex:\n"
            "# open ground\n"
            "open 1 ne\n"
            "# forest\n"
            "woods 2 Dx2\n"
            "# nothing more\n"
            "}\n"
            "rule 1.0 \"A\" {\n"
            "        # empty so far\n"
            "}\n"
            "combat results table dice 2d6 {\n"
            "odds 1:1 10:1\n"
            "  # low\n"
            "2 A1 D1\n"
            "     # high\n"
            "12 D2r2 D3\n"
            "}\n"
            "  # the end\n")
    assert format_text(text) == (
        "series x \"X\" version \"1\"\n"
        "terrain effects chart {\n"
        "  # hexes\n"
        "  hex:\n"
        "    # open ground\n"
        "    open   1  ne\n"
        "    # forest\n"
        "    woods  2  Dx2\n"
        "    # nothing more\n"
        "}\n"
        "rule 1.0 \"A\" {\n"
        "  # empty so far\n"
        "}\n"
        "combat results table dice 2d6 {\n"
        "  odds  1:1   10:1\n"
        "  # low\n"
        "  2     A1    D1\n"
        "  # high\n"
        "  12    D2r2  D3\n"
        "}\n"
        "# the end\n")
    _fmt_keeps_meaning(text)


def test_strength_factors_are_aligned_like_their_siblings():
    text = ('series x "X" version "1"\nstrength factors {\n'
            '  dg-attack attack combat.dg_factor when dg\n  supply-defense defense 1/2 when out-of-supply\n}\n')
    assert format_text(text).split("\n")[2:4] == [
        "  dg-attack       attack   combat.dg_factor when dg",
        "  supply-defense  defense  1/2 when out-of-supply"]


# ---- positions -----------------------------------------------------------
@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"])
def test_errors_count_lines_as_an_editor_does(ending, project, capsys):
    text = 'series x "X" version "1"\n\nrule 1.0 "A" {\n  # fine\n  summary "a"\n  zoc.cost 2 MP\n}\n'
    path = project.write("rulebooks/x.rules", text.replace("\n", ending).encode("utf-8"))
    code, out, err = project.run("check", str(path), capsys=capsys)
    assert code == 1
    assert err.startswith("rulebooks/x.rules:6:12: error: expected '=' between the parameter name and its value\n"
                          "    6 |   zoc.cost 2 MP\n"
                          "      |            ^\n"), err
    assert "\r" not in err


def test_form_feed_keeps_positions():
    text = 'series x "X" version "1"\n\f\nrule 1.0 "A" {\n\f  summary "a"\n\f  zoc.cost 2 MP\n}\n'
    with pytest.raises(RulesError) as caught:
        parse_tree(Source("x.rules", text))
    (diagnostic,) = caught.value.diagnostics
    assert (diagnostic.span.line, diagnostic.span.column) == (5, 13)


def test_an_unprintable_character_is_named_not_printed():
    text = 'series x "X" version "1"\nrule 1.0 "A" {\n  \x1csummary "a"\n}\n'
    with pytest.raises(RulesError) as caught:
        parse_tree(Source("x.rules", text))
    message = render_all(caught.value.diagnostics, caught.value.sources)
    assert message.startswith("x.rules:3:3: error: unexpected character U+001C;")


def test_a_bad_byte_in_a_cr_only_file_is_positioned_by_lines(project, capsys):
    path = project.write("rulebooks/x.rules", b'series x "X" version "1"\r\rrule 1.0 "\xe9" {\r}\r')
    code, out, err = project.run("check", str(path), capsys=capsys)
    assert code == 1
    assert err.startswith("rulebooks/x.rules:3:11: error: file is not UTF-8 text"), err


def test_a_source_is_made_with_lf_line_ends():
    assert Source("x", "a\r\nb\rc\n").text == "a\nb\nc\n"


# ---- fmt refuses to write what it cannot read back -----------------------
@pytest.mark.parametrize("breakage", [
    pytest.param(lambda text: text.replace("{", "", 1), id="does not parse"),
    pytest.param(lambda text: text.replace("+2 MP", "+3 MP"), id="changes the model"),
    pytest.param(lambda text: text.replace("# the notes", "#"), id="loses a comment"),
])
def test_fmt_refuses_to_write_a_file_it_would_break(breakage, project, capsys, monkeypatch):
    path = project.write("rulebooks/sample.rules", EVERY_BLOCK.replace("\n  ", "\n      ") + "# the notes\n")
    before = path.read_bytes()
    original = fmt_module.format_text
    monkeypatch.setattr(fmt_module, "format_text", lambda text: breakage(original(text)))
    code, out, err = project.run("fmt", str(path), capsys=capsys)
    assert code == 123   # could not be formatted, not 'would be reformatted'
    assert path.read_bytes() == before
    assert err.startswith("rulebooks/sample.rules: error: not formatted, file left as it is: "), err
    assert "bug in rulesdsl fmt" in err
    assert "formatted" not in out
    assert not list(path.parent.glob(".*.tmp"))
    with pytest.raises(FormatRefused):
        format_source(Source("sample.rules", before.decode()))
    code, out, err = project.run("fmt", "--check", str(path), capsys=capsys)
    assert code == 123 and "left as it is" in err


def test_fmt_check_reports_crlf_as_not_canonical(project, capsys):
    path = project.write("rulebooks/sample.rules", format_text(EVERY_BLOCK).replace("\n", "\r\n").encode())
    code, out, err = project.run("fmt", "--check", str(path), capsys=capsys)
    assert code == 1 and "not canonical: rulebooks/sample.rules" in err
    assert project.run("fmt", str(path), capsys=capsys)[0] == 0
    assert path.read_bytes() == format_text(EVERY_BLOCK).encode()


# ---- the property --------------------------------------------------------
_SPACES = [" ", "  ", "\t", "    ", "\f", " \t ", "\u00a0", "\v"]


def _scramble(text: str, rng: random.Random) -> str:
    """Comment lines and blank or whitespace-only lines at random line boundaries and
    indentation, trailing comments, and a random line end for each line."""
    lines = []
    for line in text.split("\n"):
        for _ in range(rng.choice((0, 0, 0, 1, 2))):
            indent = "".join(rng.choice(_SPACES) for _ in range(rng.randint(0, 3)))
            lines.append(indent + rng.choice(("", "# a comment", "#", "#{ not code }", "")))
        if line.strip() and rng.random() < 0.1:
            line += rng.choice(_SPACES) + "# trailing"
        lines.append(line)
    ends = rng.choice((["\n"], ["\r\n"], ["\r"], ["\n", "\r\n", "\r"]))
    out = "".join(line + rng.choice(ends) for line in lines[:-1]) + lines[-1]
    return out.rstrip("\r\n") if rng.random() < 0.2 else out


@functools.cache
def _plain(path: Path):
    text = path.read_text(encoding="utf-8")
    return text, _model(text)


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(CORPUS), st.integers(0, 2 ** 32))
def test_comments_blank_lines_and_line_ends_change_nothing(path, seed):
    text, model = _plain(path)
    scrambled = _scramble(text, random.Random(seed))
    assert _model(scrambled) == model
    once = format_text(scrambled)
    assert format_text(once) == once
    assert _model(once) == model
