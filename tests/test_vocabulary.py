"""Vocabulary as data: a rulebook declares the parameters it adds (name, kind, unit or options, meaning);
the compiler itself knows only the few it acts on.  A title can add a concept nobody foresaw with no
compiler change, and what a parameter means reaches the module, the card and the errata."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from rulesdsl.model import catalogue, ir
from rulesdsl.project.build import compile_project, compile_sources, library_parameters
from rulesdsl.language.source import Source
from rulesdsl.language.transform import parse

# A standalone title with a concept no shipped series has: a rout distance and a morale order.
ROUT = '''game rout "Rout" version "1.0"

parameters "Morale" [9.0] {
  morale.rout_distance  quantity hexes  "how far a routed unit flees"
  morale.check_order    choice weakest-first, owner-choice  "which unit tests its morale first"
  morale.steps          order infantry, armor  "which units lose steps first"
  morale.cumulative     flag  "whether several morale losses add up"
}

rule 9.0 "Morale" {
  summary "Routed units flee two hexes, the weakest testing first."
  morale.rout_distance = 2 hexes
  morale.check_order = weakest-first
  morale.steps = armor, infantry
  morale.cumulative = no
}
'''


def _compile(*texts: tuple[str, str]):
    return compile_sources([Source(path, text) for path, text in texts])


def _module(source: str, name: str):
    spec = importlib.util.spec_from_loader(name, loader=None)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    exec(compile(source, name, "exec"), module.__dict__)
    return module


def test_the_core_vocabulary_is_only_what_the_compiler_and_the_engine_act_on():
    from rulesdsl.runtime.contract import ENGINE_PARAMETERS
    assert sorted(catalogue.CORE_PARAMETERS) == sorted([
        "combat.above_table", "combat.below_table", "combat.below_table_forced", "combat.terrain_combination",
        # the variants of the combat procedure the generated CombatEngine reads
        "combat.imaginary_columns", "combat.shift_off_left_is_below_table", "combat.terrain_per_unit",
        "combat.hexside_combination", "overrun.game_modifiers_apply", "supply.minimum_strength",
        "combat.exchange_measure", "combat.exchange_counts_terrain", "combat.exchange_loser",
        *(p.name for p in ENGINE_PARAMETERS)])
    assert set(catalogue.CORE_USES) == set(catalogue.CORE_PARAMETERS)
    # the engine's parameters are core with the contract's kind, unit, options and meaning, and say what they drive
    for p in ENGINE_PARAMETERS:
        core = catalogue.CORE_PARAMETERS[p.name]
        assert (core.type.kind, core.type.unit, core.type.options, core.meaning) == (
            p.kind, p.unit, p.options, p.meaning)
        assert f"`{p.drives}`" in catalogue.CORE_USES[p.name]
    # the compiler reads no other parameter by name (the engine's are named only in the core vocabulary's
    # compiled declarations and the engine's stages)
    compiled = ROOT / "rulesdsl" / "core" / "vocabulary.py"
    for path in (ROOT / "rulesdsl").rglob("*.py"):
        if path.name == "catalogue.py" or path.parent.name == "runtime" or path == compiled:
            continue
        text = path.read_text(encoding="utf-8")
        for name in ("movement.minimum_move", "overrun.cost", "bombardment.", "supply.method"):
            assert name not in text, (path, name)
    for path in (*(ROOT / "rulesdsl" / "runtime").glob("*.py"), compiled):
        assert "bombardment." not in path.read_text(encoding="utf-8"), path


def test_a_series_does_not_redeclare_an_engine_parameter_it_sets():
    for path in (ROOT / "rulebooks").rglob("*.rules"):
        rulebook = parse(Source(str(path), path.read_text(encoding="utf-8")))
        declared = {d.name.value for block in rulebook.parameter_declarations for d in block.declarations}
        assert not declared & set(catalogue.CORE_PARAMETERS), path


def test_a_title_declares_its_own_parameters_and_its_module_carries_value_and_meaning():
    compilation = _compile(("rulebooks/rout.rules", ROUT))
    assert compilation.diagnostics == []
    module = _module(compilation.outputs["generated/rout.py"], "rout_vocabulary")
    rout = module.PARAMETERS["morale.rout_distance"]
    assert (rout.value.amount, rout.value.unit) == (2, "hex")
    assert rout.meaning == "how far a routed unit flees"
    assert module.PARAMETERS["morale.check_order"].value == "weakest-first"
    assert module.PARAMETERS["morale.steps"].value == ("armor", "infantry")
    assert module.PARAMETERS["morale.cumulative"].value is False
    # someone reading the module sees the meaning above the constant
    assert "#   how far a routed unit flees\nMORALE_ROUT_DISTANCE = " in compilation.outputs["generated/rout.py"]


@pytest.mark.parametrize("line, message", [
    ("  morale.rout_distance = 2 MP", "morale.rout_distance is measured in hexes, not MP"),
    ("  morale.rout_distance = yes", "morale.rout_distance takes a quantity in hex (like 2 hexes), not 'yes'"),
    ("  morale.check_order = bravest-first", "morale.check_order takes one of weakest-first, owner-choice, "
                                              "not 'bravest-first'"),
    ("  morale.steps = armor, cavalry", "'cavalry' is not one of infantry, armor"),
    ("  morale.rout_distanse = 2 hexes", "unknown parameter 'morale.rout_distanse'"),
])
def test_a_value_is_checked_against_its_declaration(line, message):
    text = ROUT.replace("  morale.rout_distance = 2 hexes", line)
    compilation = _compile(("rulebooks/rout.rules", text))
    assert [d.message for d in compilation.diagnostics if d.severity == "error"] == [message]
    assert compilation.diagnostics[0].span.line == 12


def test_an_unknown_parameter_suggests_from_the_chain_vocabulary(project):
    project.write("rulebooks/rout.rules", ROUT.replace("morale.cumulative = no", "morale.cumulatve = no"))
    compilation = compile_project(project.root)
    [problem] = compilation.diagnostics
    assert problem.message == "unknown parameter 'morale.cumulatve'"
    assert problem.hint == "did you mean 'morale.cumulative'?"


def test_a_game_sets_what_its_series_declares_and_may_not_declare_it_again(project):
    project.write("rulebooks/house.rules", 'series house "House" version "1"\n\n'
                  'parameters {\n  morale.rout_distance  quantity hexes  "how far a routed unit flees"\n}\n')
    project.write("rulebooks/game.rules", 'game game "Game" version "1" extends house\n\n'
                  'rule G1 "Rout" {\n  summary "Three hexes."\n  morale.rout_distance = 3 hexes\n}\n')
    compilation = compile_project(project.root)
    assert compilation.diagnostics == []
    assert compilation.resolved["game"].declared["morale.rout_distance"].origin == "house"
    project.write("rulebooks/game.rules", 'game game "Game" version "1" extends house\n\n'
                  'parameters {\n  morale.rout_distance  count  "how far"\n}\n')
    [problem] = compile_project(project.root).diagnostics
    assert problem.message.startswith("parameter 'morale.rout_distance' is already declared by house at "
                                      "rulebooks/house.rules:4")
    # nor may anything redeclare the core vocabulary
    project.write("rulebooks/game.rules", 'game game "Game" version "1" extends house\n\n'
                  'parameters {\n  stacking.limit  count  "how many"\n}\n')
    [problem] = compile_project(project.root).diagnostics
    assert problem.message == "parameter 'stacking.limit' is already declared by the core vocabulary"


def test_a_series_parameter_is_unknown_to_a_rulebook_outside_that_series():
    # vcs declares isolation; neither SCS nor a standalone game has it
    vocabularies = library_parameters()
    assert "isolation.defense_factor" in vocabularies["vcs"]
    assert "isolation.defense_factor" not in vocabularies["new-scs"]
    compilation = _compile(("rulebooks/lone.rules", 'game lone "Lone" version "1"\n\n'
                            'rule 1 "Cut off" {\n  summary "Halved."\n  isolation.defense_factor = 1/2\n}\n'))
    assert [d.message for d in compilation.diagnostics] == ["unknown parameter 'isolation.defense_factor'"]


def test_every_parameter_the_shipped_rulebooks_set_is_declared_once_with_a_meaning():
    vocabularies = library_parameters()
    assert set(vocabularies) == {"scs-1.8", "new-scs", "vcs"}
    for series, known in vocabularies.items():
        for declared in known.values():
            assert declared.meaning and declared.meaning == declared.meaning.strip(), declared
    # new-scs inherits what scs-1.8 declares and declares only what it adds
    own = {n for n, d in vocabularies["new-scs"].items() if d.origin == "new-scs"}
    assert own and not own & {n for n, d in vocabularies["scs-1.8"].items()}


def test_the_card_and_the_errata_print_what_an_amended_parameter_means(project, capsys):
    project.write("rulebooks/rout.rules", ROUT)
    project.write("rulebooks/rout2.rules", ROUT.replace('game rout "Rout"', 'game rout2 "Rout"')
                  .replace("parameters \"Morale\" [9.0] {", "parameters \"Morale\" [9.0] {", 1)
                  .replace("morale.rout_distance = 2 hexes", "morale.rout_distance = 3 hexes"))
    code, out, err = project.run("diff", str(project.root / "rulebooks/rout.rules"),
                                 str(project.root / "rulebooks/rout2.rules"), capsys=capsys)
    assert code == 1, err
    assert "How far a routed unit flees: 2 hexes -> 3 hexes" in out and "morale.rout_distance" not in out


def test_fmt_round_trips_a_declarations_block():
    from rulesdsl.language.fmt import format_source
    messy = ROUT.replace("  morale.cumulative     flag  ", "morale.cumulative flag ")
    formatted = format_source(Source("rout.rules", messy))
    assert parse(Source("rout.rules", formatted)) == parse(Source("rout.rules", ROUT))
    assert format_source(Source("rout.rules", formatted)) == formatted
    assert "  morale.cumulative     flag" in formatted
