"""Sides in the sequence of play: each side's own player turn, game-turn phases among the player turns.

The game below is written here, by hand: the German player replaces, moves, fights and moves his
armour again; the Soviet player replaces, moves by rail, moves and fights; weather and initiative are
played once per game turn, before either side.
"""
from __future__ import annotations

import importlib.util
import re
import sys

from conftest import FIXTURES, ROOT

import rulesdsl
from rulesdsl.cards.charts import card, render_html
from rulesdsl.errata.diff import compare, snapshot
from rulesdsl.language.fmt import format_text
from rulesdsl.project.build import add_charts
from rulesdsl.project.passes import default_labels
from rulesdsl.language.source import Source
from rulesdsl.language.transform import parse

BASE = ("rulebooks/base.rules", (FIXTURES / "base.rules").read_text(encoding="utf-8"))

# written loosely on purpose: fmt must align it
GAME = '''game east "Eastern Front Demo" version "1.0" extends base

override sequence of play [1.0] {
  game turn {
    weather [1.0] weather "roll for the turn's weather"
    initiative [1.0] "the side with the initiative plays first"
    player turn german
    player turn soviet
    end-of-turn turn-marker
  }
  player turn german {
    replacements [1.0] replacement
    movement [3.1e] movement, overrun
    combat [7.4] combat, advance
    mechanized-movement movement "armored units only"
  }
  player turn soviet {
    replacements replacement
    rail-movement strategic-movement
    movement movement
    combat [7.4] combat
  }
}

labels fr "Français" {
  player-turn.german "Allemand"
  player-turn.soviet "Soviétique"
}
'''

GERMAN = ["replacements", "movement", "combat", "mechanized-movement"]
SOVIET = ["replacements", "rail-movement", "movement", "combat"]


def compile_game(text: str = GAME, charts: bool = False) -> rulesdsl.Compilation:
    compilation = rulesdsl.compile_text(text, "rulebooks/east.rules", BASE)
    if charts:
        add_charts(compilation, ("html",))
    return compilation


def load(source: str, name: str):
    spec = importlib.util.spec_from_loader(name, loader=None)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module          # dataclasses look their module up while the module runs
    try:
        exec(compile(source, name, "exec"), module.__dict__)
    finally:
        del sys.modules[name]
    return module


def errors(text: str) -> list[tuple[int, str, str | None]]:
    return [(d.span.line, d.message, d.hint) for d in compile_game(text).diagnostics if d.severity == "error"]


def test_two_sides_with_their_own_phases_compile_and_build():
    compilation = compile_game(charts=True)
    assert compilation.ok, compilation.diagnostics
    [sequence] = compilation.rulebooks["east"].sequence
    assert [(b.kind.value, b.side.value if b.side else None) for b in sequence.blocks] == [
        ("game", None), ("player", "german"), ("player", "soviet")]
    assert "generated/east.py" in compilation.outputs and "generated/charts/east.en.html" in compilation.outputs


def test_the_module_exposes_the_game_turn_in_order_with_each_sides_phases():
    module = load(compile_game().outputs["generated/east.py"], "east_under_test")
    assert [item.name for item in module.GAME_TURN] == ["weather", "initiative", "german", "soviet", "end-of-turn"]
    weather, initiative, german, soviet, end = module.GAME_TURN
    assert isinstance(weather, module.Phase) and weather.activities == ("weather",) and weather.rules == ("1.0",)
    assert initiative.note == "the side with the initiative plays first" and initiative.activities == ()
    assert isinstance(german, module.PlayerTurn) and isinstance(soviet, module.PlayerTurn)
    assert [p.name for p in german.phases] == GERMAN and [p.name for p in soviet.phases] == SOVIET
    assert german.phases[3].note == "armored units only"
    assert soviet.phases[1].activities == ("strategic-movement",)
    assert list(module.PLAYER_TURNS) == ["german", "soviet"]
    assert module.PLAYER_TURNS["german"] is german.phases
    # no player turn is shared by both sides
    assert module.PLAYER_TURN_PHASES == () and module.PLAYER_TURN == ()


def test_one_shared_player_turn_means_the_same_for_every_run():
    """The existing one-block form: GAME_TURN, PLAYER_TURN_PHASES and PLAYER_TURN as before."""
    source = compile_game(GAME.replace("override sequence", "sequence x", 0)).outputs["generated/base.py"]
    base = load(source, "base_under_test")
    assert base.PLAYER_TURN == ("movement", "combat")
    assert [item.name for item in base.GAME_TURN] == ["first", "second"]
    assert all(item.phases is base.PLAYER_TURN_PHASES for item in base.GAME_TURN)
    assert dict(base.PLAYER_TURNS) == {"first": base.PLAYER_TURN_PHASES, "second": base.PLAYER_TURN_PHASES}
    [sequence] = parse(Source(*BASE)).sequence
    assert [b.side for b in sequence.blocks] == [None, None]


def test_shipped_rulebooks_keep_one_shared_player_turn():
    from rulesdsl.project.build import compile_project
    project = compile_project(ROOT)
    for resolved in project.resolved.values():
        if resolved.sequence is not None:
            assert all(block.side is None for block in resolved.sequence.node.blocks), resolved.id


def test_the_card_shows_the_game_turn_in_place_and_each_sides_turn():
    compilation = compile_game(charts=True)
    html = compilation.outputs["generated/charts/east.en.html"]
    assert isinstance(html, str)
    section = html[html.index('id="sequence-of-play"'):]
    section = section[:section.index("</section>")]
    game_turn = re.findall(r'<li><span class="break">([^<]+)</span>', section)
    assert game_turn == ["Weather", "Initiative", "German", "Soviet", "End of turn"]
    assert '<span class="break">German</span> player turn' in section
    headings = re.findall(r"<h3>([^<]+)</h3>", section)
    assert headings == ["Game Turn", "Player Turn — German", "Player Turn — Soviet"]
    german = section[section.index("Player Turn — German"):section.index("Player Turn — Soviet")]
    soviet = section[section.index("Player Turn — Soviet"):]
    rows = lambda part: re.findall(r'<td class="break">\d+\. ([^<]+)</td>', part)
    assert rows(german) == ["Replacements", "Movement", "Combat", "Mechanized movement"]
    assert rows(soviet) == ["Replacements", "Rail movement", "Movement", "Combat"]


def test_the_french_card_names_the_sides_in_french():
    data, _ = card(compile_game().resolved["east"], "fr", default_labels())
    html = render_html(data)
    assert "<h3>Phases du joueur — Allemand</h3>" in html and "<h3>Phases du joueur — Soviétique</h3>" in html
    assert '<span class="break">Allemand</span> — tour de joueur' in html


def test_diff_reports_a_phase_added_to_one_side_under_that_side():
    edited = GAME.replace("    combat [7.4] combat\n  }\n}", "    combat [7.4] combat\n    supply supply-check\n  }\n}")
    assert edited != GAME
    changes = compare(snapshot(parse(Source("a.rules", GAME))), snapshot(parse(Source("b.rules", edited))))
    assert [(c.group, c.kind, c.what, c.new) for c in changes] == [
        ("Sequence of play: soviet player turn", "added", "phase supply", "5 of 5, after combat")]
    # a change of one side's phase is reported under that side, not the other's
    edited = GAME.replace("mechanized-movement movement", "mechanized-movement exploitation")
    changes = compare(snapshot(parse(Source("a.rules", GAME))), snapshot(parse(Source("b.rules", edited))))
    assert [(c.group, c.kind, c.what) for c in changes] == [
        ("Sequence of play: german player turn", "changed", "mechanized-movement activities")]
    # moving a phase from one side to the other is two changes, one per side
    edited = GAME.replace("    rail-movement strategic-movement\n", "").replace(
        "    mechanized-movement", "    rail-movement strategic-movement\n    mechanized-movement")
    changes = compare(snapshot(parse(Source("a.rules", GAME))), snapshot(parse(Source("b.rules", edited))))
    assert sorted((c.group, c.kind, c.what) for c in changes) == [
        ("Sequence of play: german player turn", "added", "phase rail-movement"),
        ("Sequence of play: soviet player turn", "removed", "phase rail-movement")]


def test_diff_sees_a_change_to_any_field_of_the_side_blocks():
    """As tests/test_walk.py does for the shipped rulebooks (which have no side blocks)."""
    import dataclasses
    from test_walk import _mutated
    from rulesdsl.model import ir
    from rulesdsl.model.walk import iter_fields, replace_node, walk
    book = parse(Source("a.rules", GAME))
    base = snapshot(book)
    blocks = [b for b in book.sequence[0].blocks if b.side is not None]
    silent, tried = [], 0
    for node in [n for block in blocks for n in walk(block)]:
        for name, value in iter_fields(node):
            new = _mutated(value)
            if new is None or isinstance(value, ir.Text):
                continue
            changed = replace_node(book, node, lambda n: dataclasses.replace(n, **{name: new}))
            tried += 1
            if compare(base, snapshot(changed)) == []:
                silent.append(f"{type(node).__name__}.{name} {value!r} -> {new!r}")
    assert silent == [] and tried > 20


def test_fmt_aligns_the_side_blocks_and_round_trips():
    formatted = format_text(GAME)
    assert formatted != GAME
    assert format_text(formatted) == formatted
    assert parse(Source("a.rules", formatted)) == parse(Source("a.rules", GAME))
    assert compare(snapshot(parse(Source("a.rules", GAME))), snapshot(parse(Source("b.rules", formatted)))) == []
    lines = formatted.splitlines()
    german = lines[lines.index("  player turn german {") + 1:lines.index("  player turn soviet {") - 1]
    assert german == [
        "    replacements         [1.0]   replacement",
        "    movement             [3.1e]  movement, overrun",
        "    combat               [7.4]   combat, advance",
        '    mechanized-movement          movement "armored units only"']


def test_the_reference_example_compiles():
    language = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    start = language.index("When the sides play different phases")
    example = language[language.index("```\n", start) + 4:]
    example = example[:example.index("```")]
    text = 'game east "Eastern Front Demo" version "1.0" extends base\n\n' + example
    compilation = compile_game(text)
    assert compilation.ok, compilation.diagnostics
    assert format_text(text) == text
    [sequence] = compilation.rulebooks["east"].sequence
    assert [b.side.value for b in sequence.blocks if b.side] == ["german", "soviet"]


# -- what validate reports ---------------------------------------------------------------
def test_a_slot_naming_no_declared_side_is_an_error_with_a_suggestion():
    assert errors(GAME.replace("player turn soviet\n", "player turn sovet\n", 1)) == [
        (8, "the game turn runs the player turn of 'sovet', which no 'player turn sovet' block declares",
         "did you mean 'soviet'?")]
    assert errors(GAME.replace("player turn soviet\n", "player turn first\n", 1))[0] == (
        8, "the game turn runs the player turn of 'first', which no 'player turn first' block declares",
        "the sides are 'german', 'soviet'")


def test_a_side_the_game_turn_never_plays_is_an_error():
    assert errors(GAME.replace("    player turn soviet\n", "", 1)) == [
        (4, "the game turn never runs the player turn of 'soviet'", "add a line such as 'player turn soviet'")]


def test_a_side_declared_twice_is_an_error():
    twice = GAME.replace("  player turn soviet {", "  player turn german {\n    movement movement\n  }\n"
                                                    "  player turn soviet {")
    assert errors(twice) == [(17, "two 'player turn german' blocks in one sequence of play",
                              "the first is at line 11")]


def test_a_shared_player_turn_beside_side_turns_is_an_error():
    both = GAME.replace("  player turn german {", "  player turn {\n    movement movement\n  }\n"
                                                  "  player turn german {")
    assert errors(both) == [(11, "a shared 'player turn' block beside per-side player turns",
                             "each side's phases go in its own 'player turn <side>' block, one per side")]


def test_a_phase_twice_in_one_sides_turn_names_the_side():
    twice = GAME.replace("    rail-movement strategic-movement\n", "    rail-movement strategic-movement\n"
                                                                   "    replacements replacement\n")
    assert errors(twice) == [(20, "phase 'replacements' appears twice in the player turn of 'soviet'",
                              "the first is at line 18")]


def test_a_game_turn_cannot_name_a_side():
    compilation = compile_game(GAME.replace("  game turn {", "  game turn german {"))
    [problem] = [d for d in compilation.diagnostics if d.severity == "error"]
    assert problem.span.line == 4 and "german" in problem.message


def test_the_module_with_side_turns_is_strictly_typed(tmp_path, monkeypatch):
    from test_types import mypy_strict
    outputs = compile_game().outputs
    folder = tmp_path / "generated"
    folder.mkdir()
    for name in ("__init__.py", "east.py"):
        content = outputs[f"generated/{name}"]
        assert isinstance(content, str)
        (folder / name).write_text(content, encoding="utf-8")
    monkeypatch.setenv("MYPYPATH", str(ROOT))   # the temporary project imports this rulesdsl
    status, report = mypy_strict(tmp_path / "cache", folder / "east.py", silent_imports=True, no_any=True)
    assert status == 0, report


def test_the_cli_builds_the_game_and_diffs_an_edited_version(project, capsys):
    project.add_base()
    project.write("rulebooks/east.rules", format_text(GAME))
    code, out, err = project.run("build", capsys=capsys)
    assert code == 0 and "error" not in err     # warnings only: the French labels of the phases
    assert "wrote generated/east.py" in out and "wrote generated/charts/east.fr.html" in out
    spec = importlib.util.spec_from_file_location("east_built", project.root / "generated" / "east.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert [p.name for p in module.PLAYER_TURNS["soviet"]] == SOVIET
    assert "Player Turn — Soviet" in (project.root / "generated/charts/east.en.html").read_text(encoding="utf-8")
    assert project.run("fmt", "--check", str(project.root / "rulebooks/east.rules"), capsys=capsys)[0] == 0
    edited = project.write("edited/east.rules", format_text(GAME).replace(
        "    rail-movement", "    supply                supply-check\n    rail-movement"))
    code, out, err = project.run("diff", str(project.root / "rulebooks/east.rules"), str(edited), capsys=capsys)
    assert code == 1, err
    assert "Sequence of play: soviet player turn" in out and "phase supply" in out
    assert "german" not in out
