"""One model, walked one way: every consumer handles every kind of statement, the walk reaches every
node, a change to any field is a change to diff, and transform leaves every semantic problem to validate."""
from __future__ import annotations

import dataclasses
import random
import re
import types
import typing
from fractions import Fraction

import pytest

from conftest import FIXTURES, ROOT
from rulesdsl.cards import charts
from rulesdsl.modules import codegen
from rulesdsl.errata import diff
from rulesdsl.language import fmt, transform
from rulesdsl.model import ir
from rulesdsl.project import reference
from rulesdsl.checks import resolve, schema, validate
from rulesdsl.language.source import Source
from rulesdsl.language.transform import parse
from rulesdsl.model.walk import iter_children, iter_fields, meaning_fields, replace_node, walk

SHIPPED = sorted((ROOT / "rulebooks").rglob("*.rules")) + [FIXTURES / "base.rules"]


def _parse(path) -> ir.Rulebook:
    return parse(Source(str(path), path.read_text(encoding="utf-8")))


# ---- every consumer, every kind --------------------------------------------------------
CONSUMERS = {
    "transform.BUILDERS": transform.BUILDERS,
    "validate.CHECKS": validate.CHECKS,
    "resolve.RESOLUTION": resolve.RESOLUTION,
    "schema.DOCUMENT": schema.DOCUMENT,
    "diff.SNAPSHOTS": diff.SNAPSHOTS,
    "charts.SECTIONS": charts.SECTIONS,
    "codegen.SECTIONS": codegen.SECTIONS,
    "fmt.BLOCKS": fmt.BLOCKS,
    "reference.KINDS": reference.KINDS,
}


def test_statement_kinds_are_read_off_the_rulebook():
    assert set(ir.STATEMENTS) == set(typing.get_args(ir.Statement))
    for kind, field in ir.STATEMENT_FIELD.items():
        assert typing.get_type_hints(ir.Rulebook)[field] == tuple[kind, ...]


@pytest.mark.parametrize("name", CONSUMERS)
def test_every_consumer_handles_every_kind_of_statement(name):
    table = CONSUMERS[name]
    missing = [k.__name__ for k in ir.STATEMENTS if k not in table]
    unknown = [k for k in table if k not in ir.STATEMENTS]
    assert (missing, unknown) == ([], []), f"{name} forgets {missing}"


def test_codegen_sections_are_filled_and_read_by_the_template():
    from rulesdsl.project.build import compile_project
    resolved = compile_project(ROOT).resolved["new-scs"]
    names, problems = codegen.python_names(resolved)
    assert problems == []
    context = codegen._context(resolved, {}, names)
    template = (ROOT / "rulesdsl/modules/templates/module.py.j2").read_text(encoding="utf-8")
    for kind, keys in codegen.SECTIONS.items():
        for key in keys:
            assert key in context, (kind.__name__, key)
            assert key in template, (kind.__name__, key)


def test_fmt_finds_the_block_of_every_kind_written_as_a_block():
    written = {type(s): s for path in SHIPPED for s in _parse(path).statements()}
    for kind, layout in fmt.BLOCKS.items():
        if layout is None or kind not in written:
            continue
        statement = written[kind]
        line = (ROOT / statement.span.path).read_text(encoding="utf-8").split("\n")[statement.span.line - 1] \
            if not statement.span.path.startswith("/") else \
            open(statement.span.path, encoding="utf-8").read().split("\n")[statement.span.line - 1]
        assert fmt._block_kind(line.split()) == layout[0], (kind.__name__, line)


def test_a_labels_file_holds_only_labels_of_any_kind_of_statement():
    text = ('labels extra "Extra labels" version "1.0"\n\n'
            'labels en {\n  terrain.x "X"\n}\n\n'
            'strength factors {\n  dg-attack attack 1/2 when dg\n}\n\n'
            'unit states: dg\n\n'
            'result adjustments {\n  a defender-retreat -1 when dg\n}\n')
    problems = validate.check(parse(Source("extra.rules", text)))
    lines = sorted(d.span.line for d in problems if d.message == "a labels file holds only 'labels' blocks")
    assert lines == [7, 11, 13]


# ---- the walk --------------------------------------------------------------------------
# what no shipped rulebook writes: a quoted value, a second summary, a repeated shift in a cell, declared
# result codes, a TEC DRM and an all-across hexside, single TEC cells (an amendment's; validate reports
# them here), roads whose cost depends on the terrain entered, a turn set and phases on some game turns only,
# a value on some game turns only and an example on a given game turn
ODD = """game odd "Odd" version "1" extends base

parameters "Odd words" [1.0] {
  odd.flag  flag  "whether it is odd"
}

rule 1.0 "One" {
  summary "First."
  summary "Second."
  note.text = "quoted"
  zoc.entry_cost = +0 MP  on night
}

terrain effects chart {
  hex:
    woods 2 Dx2 1L 2L no-zoc exerts-no-zoc
    forest combat 1L
  hexside:
    river +1 1L -1 all-across
    canal +1 Ax1/2 attacking axis no-overrun no-zoc
    ford movement +1
  roads:
    trail 1, woods 2 ne
    track 1 lower ne
}

column shifts max 2 per side {
  surprise 1
}

amend sequence of play {
  turns night  3 6 9+
  player turn {
    movement  [2.1a 3.1e]  movement, overrun  on turns 2-4  "late"
    combat    [7.4]        combat             not on night
  }
}

result codes "Legend" [1.0] family steps-first {
  DE   defender loses all
  DRL  defender loses 1 step, defender retreats 2 hexes
  AL   attacker loses 1 unit, defender advances 1
  DD   defender becomes disrupted, breakthrough
  EX   exchange
  NA   not allowed
}

card {
  sides 2
  paper letter
  reminders: odds zoc
  swatch woods "#3a7d44" hatch
  swatch forest "#2f6b3a"
  charts: turns
  sides 1
}

example "Every line" [1.0] {
  note "Every kind of line and result."
  map 1.01 - 9.09 open
  hex 2.02 woods
  hexside 2.02/3.02 river bridge
  road 3.03 3.04 3.05
  road trail 4.03 4.04
  source blue 1.01 1.02
  phasing blue
  phase exploitation
  turn 3
  unit 6 blue 3-2-9 at 1.02
  unit 7 red 2-3-5 at 5.05 steps 2 type armor size division can exploit, mechanized marked out-of-supply, dg started 5.06 no-attack-strength
  done overrun 6 on 5.05 in movement
  assume stacking.limit = 2 steps
  expect move 6 2.02 3.02 mode road costs 2 2 total 4 legal
  expect reach 6 mode road 2.02 not 9.09
  expect zoc red 5.04 not 1.01
  expect stack 1.02 when overrun by 6 arrived 7 illegal size 3 excess 7 destroyed
  expect engage 6 on 5.05 exposed 7
  expect engage 6 on 5.05 defending 7 refused
  expect attack 6 on 5.05 allowed must-attack 7
  expect advance 6 into 5.05 after 1 overrun hexes 1 must-enter
  expect advance 6 into 5.05 after 2 breakthrough via 6.05 hexes 3
  expect supply 6 in
  expect overrun 6 from 4.04 on 5.05 allowed cost 5
  expect exploit 7 refused [1.0]
  expect retreat 7 2 from 6 loss 0 via 6.05 7.05 not via 4.05 3.05 apart
  expect combat 6 on 5.05 roll white 1 red 6 result A1
  expect attack 6 on 5.05 allowed
  expect retreat 7 2 from 6 refuse 1 loss 1 via 6.05 7.05
  expect retreat 7 1 eliminated
  expect advance 6 into 5.05 after 2 destroyed overrun hexes 2
  expect engage 6 on 5.05 arrived 6 result D1 fighting 7 sharing 6 spared 6 terrain 5.05 destroyed 7
  expect combat 6 on 5.05 odds 1:1 column 1:1 roll 2 result A1 exchange 3 by 6
  expect combat 6 on 5.05 with river-assault, entrenched overrun forced column below
  expect engage 6 on 5.05 overrun result A1 attacker retreats 1 defender retreats 0
  expect exploit 7 allowed mp 4 unready-above 2
  expect phases red turn 3 movement combat
}
"""


def test_the_walk_reaches_every_kind_of_node():
    seen = {type(node) for path in SHIPPED for node in walk(_parse(path))}
    seen |= {type(node) for node in walk(parse(Source("odd.rules", ODD)))}
    # NotWhole records how a number was mis-written: it is not part of the meaning, so not walked
    assert set(ir.NODES) - seen == {ir.NotWhole}


def test_fields_are_the_meaning_children_are_the_nodes_in_them():
    book = _parse(ROOT / "rulebooks/series/new-scs.rules")
    names = [name for name, _ in iter_fields(book)]
    assert "span" not in names and "not_whole" not in names
    assert names[:5] == ["kind", "id", "title", "version", "extends"]
    modifier = next(n for n in walk(book) if isinstance(n, ir.Modifier))
    assert "text" not in meaning_fields(ir.Modifier)
    assert list(iter_children(modifier))[0] is modifier.name


def test_the_walk_survives_any_depth():
    expr: ir.Expr = ir.Number(value=Fraction(1))
    for _ in range(20000):
        expr = ir.Binary(op=ir.BinaryOp.ADD, left=expr, right=ir.Number(value=Fraction(1)))
    assert sum(1 for _ in walk(expr)) == 40001


def test_nodes_are_built_by_keyword_and_every_field_is_required():
    with pytest.raises(TypeError):
        ir.Text(ir.Span("x"), "positional")              # type: ignore[misc]
    with pytest.raises(TypeError):
        ir.Rule(id=ir.Text(value="1.0"))                  # type: ignore[call-arg]


def test_kinds_are_types_that_read_as_the_words_written():
    book = _parse(ROOT / "rulebooks/series/new-scs.rules")
    row = book.terrain[0].rows[0]
    assert isinstance(row.kind, ir.TerrainKind) and row.kind == "hex" and repr(row.kind) == "'hex'"
    assert all(isinstance(f.role, ir.Role) for f in book.unit_factors[0].factors)
    assert all(isinstance(a.target, ir.ResultField) for a in book.adjustments[0].adjustments)
    assert all(isinstance(n.op, ir.BinaryOp) for n in walk(book) if isinstance(n, ir.Binary))


# ---- diff sees every field -------------------------------------------------------------
def _mutated(value):
    """Another value of the same kind, or None when there is nothing to change it to."""
    if isinstance(value, ir.Kind):
        return next((v for v in type(value) if v != value), None)   # a kind of one value: nothing
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, Fraction):
        return value + 1
    if isinstance(value, str):    # a roll label stays a roll label (`13+9` is no roll the grammar reads)
        return "99" if re.fullmatch(r"[0-9]+(?:-[0-9]*|\+)?", value) and value != "99" else value + "9"
    if isinstance(value, tuple) and value and all(type(v) is int for v in value):   # the dice: each stays a die
        return value[:-1] + (value[-1] % 6 + 1,)
    if isinstance(value, tuple) and value:
        return value[:-1]
    return None


def _replaced_everywhere(root, target, make):
    """replace_node as it used to be written: every node rebuilt, the target swapped wherever it is."""
    if root is target:
        return make(root)

    def rebuild(value):
        if isinstance(value, tuple):
            items = tuple(rebuild(v) for v in value)
            return value if all(a is b for a, b in zip(items, value)) else items
        return _replaced_everywhere(value, target, make) if type(value) in ir.NODES else value

    changes = {name: new for name, value in iter_fields(root) if (new := rebuild(value)) is not value}
    return dataclasses.replace(root, **changes) if changes else root


def test_replacing_a_node_rebuilds_only_what_is_above_it_and_finds_every_occurrence():
    marker = object()
    book = _parse(ROOT / "rulebooks" / "series" / "scs-1.8.rules")
    for node in random.Random(3).sample(list(walk(book))[1:], 80):
        changed = replace_node(book, node, lambda n: marker)
        assert changed != book and changed == _replaced_everywhere(book, node, lambda n: marker)
        assert all(n is not node for n in walk(changed))      # gone by identity, wherever it was
    # a node held twice is replaced at both places; a node that is not there leaves the root as it is
    name = ir.Name(path="attackers")
    twice = ir.Binary(op=ir.BinaryOp.ADD, left=name, right=ir.Binary(op=ir.BinaryOp.MUL, left=name, right=name))
    other = ir.Name(path="defenders")
    assert replace_node(twice, name, lambda n: other) == ir.Binary(
        op=ir.BinaryOp.ADD, left=other, right=ir.Binary(op=ir.BinaryOp.MUL, left=other, right=other))
    assert replace_node(twice, ir.Name(path="attackers"), lambda n: other) is twice     # equal, not the same


def test_a_change_to_any_field_of_any_node_is_a_change_to_diff():
    """Mutate each field of each kind of node (a few instances of each) in the shipped rulebooks: every
    mutation must show in `diff`. A field added to a node and forgotten by diff fails here."""
    rng = random.Random(8)
    tried: set[tuple[str, str]] = set()
    silent = []
    for path, book in [(p, _parse(p)) for p in SHIPPED] + [(ROOT / "odd.rules", parse(Source("odd.rules", ODD)))]:
        base = diff.snapshot(book)
        nodes = list(walk(book))
        by_field: dict[tuple[str, str], list] = {}
        for node in nodes:
            if node is book.id:
                continue     # the rulebook's id names the errata sheet; two versions compared share it (diff.py)
            for name, value in iter_fields(node):
                if getattr(node, "refused", False) is True and name != "refused":
                    continue     # a refused answer has no hexes nor must-enter: no line writes one (diff reads lines)
                if _mutated(value) is not None and not is_node_value(value):
                    by_field.setdefault((type(node).__name__, name), []).append(node)
        for key, candidates in by_field.items():
            for node in rng.sample(candidates, min(3, len(candidates))):
                name = key[1]
                new = _mutated(getattr(node, name))
                changed = replace_node(book, node, lambda n: dataclasses.replace(n, **{name: new}))
                if diff.compare(base, diff.snapshot(changed)) == []:
                    silent.append(f"{path.name}: {key[0]}.{name} {getattr(node, name)!r} -> {new!r}")
                tried.add(key)
    assert silent == [], "\n".join(silent)
    # every field that can hold a plain value (a word, number, flag, kind or tuple) was tried somewhere;
    # the others hold one node, whose own fields were tried
    untried = [key for t in ir.NODES if t is not ir.NotWhole for key in ((t.__name__, f) for f in meaning_fields(t))
               if key not in tried and _plain(typing.get_type_hints(t)[key[1]])]
    assert untried == []


def _plain(hint) -> bool:
    args = [a for a in (typing.get_args(hint) if typing.get_origin(hint) in (typing.Union, types.UnionType)
                        else (hint,)) if a is not type(None)]
    return any(a not in ir.NODES for a in args)


def is_node_value(value) -> bool:
    """A field holding one node: that node's own fields are mutated instead."""
    from rulesdsl.model.walk import is_node
    return is_node(value)


# ---- what diff used to miss (issue 8) ---------------------------------------------------
MINI = """series mini "Mini" version "1.0"

unit states: dg, out-of-supply

rule 1.0 "One" {
  summary "S."
}

strength factors "Factors" [1.0] {
  dg-attack attack 1/2 when dg
}

terrain effects chart "TEC" [1.0] {
  hex:
    clear 1 ne
}

labels fr "Français" {
  terrain.clear "Clair"
}
"""


@pytest.mark.parametrize("old, new, shown", [
    ("unit states: dg, out-of-supply", "unit states: dg", "names: dg, out-of-supply -> dg"),
    ('chart "TEC"', 'chart "Terrain"', "title: TEC -> Terrain"),
    ('"TEC" [1.0]', '"TEC" [1.0 2.0]', "cites: 1.0 -> 1.0, 2.0"),
    ('"Clair"', '"Dégagé"', "fr terrain.clear: Clair -> Dégagé"),
    ("rule 1.0", "override rule 1.0", "override: no -> yes"),
    ("attack 1/2 when dg", "attack 1/3 when dg", "dg-attack factor: 1/2 -> 1/3"),
    ("attack 1/2 when dg", "defense 1/2 when dg", "dg-attack role: attack -> defense"),
    ('"Factors" [1.0]', '"Factors" [2.0]', "cites: 1.0 -> 2.0"),
], ids=["unit-states", "chart-title", "citations", "labels", "override", "factor", "factor-role",
        "factor-cites"])
def test_diff_sees_what_it_used_to_miss(project, capsys, old, new, shown):
    assert old in MINI
    a = project.write("rulebooks/a.rules", MINI)
    b = project.write("rulebooks/b.rules", MINI.replace(old, new))
    code, out, err = project.run("diff", str(a), str(b), capsys=capsys)
    assert (code, err) == (1, ""), out
    assert shown in out, out
    assert project.run("diff", str(a), str(a), capsys=capsys)[:2] == (0, "no semantic changes\n")


def test_resolved_diff_sees_a_changed_strength_factor():
    from rulesdsl.project.build import compile_sources
    sides = []
    for text in (MINI, MINI.replace("attack 1/2 when dg", "attack 1/4 when dg")):
        compilation = compile_sources([Source("mini.rules", text)])
        assert compilation.ok, [d.message for d in compilation.diagnostics]
        resolved = compilation.resolved["mini"]
        sides.append(diff.snapshot(resolved.rulebook, resolved))
    assert [(c.area, c.what, c.old, c.new) for c in diff.compare(*sides)] == [
        ("unit-factors", "dg-attack factor", "1/2", "1/4")]


# ---- transform leaves semantic problems to validate --------------------------------------
MANY = """game many "Many problems" version "1.0" extends base

rule G1.0 "One" {
  summary "First."
  summary "Second."
}

rule G2.0 "Two" {
  summary "Fine."
  movement.no_such_thing = 3
}

terrain effects chart {
    marsh 3 ne
  hex:
    woods 2 Dx2 Dx3 1L 2R
}

die roll modifiers cap 1.5 {
  surprise 1 both when dg
}

combat results table dice 2d6 {
  defender side {
    defense 1-4 5+
  }
  defender side {
    odds 1:1 2:1
  }
}

rule G3.0 "Three" {
  summary "Also fine."
  see 99.9
  combat.nothing = yes
}
"""


def test_a_second_summary_hides_no_later_error(project, capsys):
    project.add_base()
    path = project.write("rulebooks/many.rules", MANY)
    code, out, err = project.run("check", str(path), capsys=capsys)
    assert code == 1 and "Traceback" not in err
    for message in ("rule G1.0 has more than one summary",
                    "unknown parameter 'movement.no_such_thing'",
                    "terrain row before any heading",
                    "two defender multipliers in one cell",
                    "two column shifts in one cell",
                    "'1.5' must be a whole number",
                    "the defender side is read by odds: its header is an 'odds' row",
                    "two 'defender side' blocks",
                    "unknown parameter 'combat.nothing'"):
        assert f"error: {message}" in err, (message, err)


def test_a_second_modifiers_block_is_an_error_not_lost(project, capsys):
    project.add_base()
    text = MANY.split("terrain effects chart")[0].replace('  summary "Second."\n', "")
    text = text.replace("  movement.no_such_thing = 3\n", "") + (
        "die roll modifiers {\n  a 1 both when dg\n}\n\ndie roll modifiers {\n  b 1 both when dg\n}\n")
    path = project.write("rulebooks/twice.rules", text)
    code, out, err = project.run("check", str(path), capsys=capsys)
    assert code == 1
    assert "a rulebook has at most 1 die roll modifiers block; this is number 2" in err, err


# ---- the card ----------------------------------------------------------------------------
def test_the_card_shows_strength_factors_and_result_adjustments():
    from rulesdsl.project.build import compile_project
    project = compile_project(ROOT)
    data, _ = charts.card(project.resolved["new-scs"], "en", project.labels)
    assert [e["name"].text for e in data["factors"]["entries"]][:2] == ["DG attack", "DG defense"]
    assert data["factors"]["entries"][0]["factor"].text == "½"     # combat.dg_factor's value, not its id
    assert data["factors"]["entries"][0]["when"].text == "the unit is DG"   # in words (rulesdsl.cards.wording)
    assert data["adjustments"]["entries"][0]["change"] == "\u22121"      # a true minus sign
    html = charts.render_html(data)
    assert 'id="strength-factors"' in html and 'id="result-adjustments"' in html
    assert "attacking units&#39; attack strength" in html


def test_a_resolved_diff_does_not_report_overrides_as_changes():
    """Resolution uses `override` up choosing what is in effect: a game's override is no change to its rules."""
    from rulesdsl.project.build import compile_project
    project = compile_project(ROOT)
    old, new = (diff.snapshot(project.resolved[k].rulebook, project.resolved[k]) for k in ("scs-1.8", "new-scs"))
    changes = diff.compare(old, new)
    assert changes and not any(c.what == "override" for c in changes)
