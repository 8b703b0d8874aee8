"""What the generated runtime leaves out until asked, and what it works out once: a combat's derivation is
written only when read (and is the one the procedure writes step by step), a definition is worked out once
per combat, and the Terrain Effects Chart's multipliers stay exact."""
from __future__ import annotations

import pickle
from pathlib import Path
from dataclasses import replace
from fractions import Fraction
from types import ModuleType

import pytest
from hypothesis import given, settings, strategies as st

import generated
from generated import bocage, new_scs, ridgeline, vcs
from rulesdsl.runtime.combat import (AttackingHex, Combat, CombatEngine, Unit, Vocabulary, once_per_combat)
from rulesdsl.runtime.hexmap import Hex
from rulesdsl.runtime.terrain import CombatEffect, Movement, Terrain, TerrainEffectsChart


def bocage_combat(attack: int = 4, hexsides: tuple[str, ...] = ("stream",), terrain: str = "open",
                  states: frozenset[str] = frozenset()) -> Combat:
    return Combat(attacking_hexes=(AttackingHex(units=(Unit("infantry", attack=attack, states=states),
                                                       Unit("armor", attack=6))),
                                   AttackingHex(units=(Unit("infantry", attack=4),), hexsides=hexsides)),
                  defenders=(Unit("infantry", defense=4),), defender_terrain=terrain)


def test_a_resolution_writes_its_derivation_only_when_read(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[object] = []
    original = CombatEngine._explain_resolution

    def counted(self: CombatEngine, combat: Combat, total: int) -> tuple[str, ...]:
        calls.append(combat)
        return original(self, combat, total)
    monkeypatch.setattr(CombatEngine, "_explain_resolution", counted)
    resolution = bocage.resolve_combat(bocage_combat(), 7)
    assert resolution.result.text == "D1r2" and calls == []
    first = resolution.derivation
    assert first == resolution.derivation and len(calls) == 1       # worked out once, then kept
    assert first[0] == "hex 2: attack 4 x 1/2 for terrain [3.2 7.3 G1.1]"
    assert first[-1] == "roll 7: D1r2 [7.1 7.4]"


COMBATS = {
    bocage: lambda attack, roll: (bocage_combat(attack, states=frozenset({"out-of-supply"}) if attack % 2 else
                                                frozenset(), terrain="woods"), roll),
    new_scs: lambda attack, roll: (Combat((AttackingHex((Unit("tank", attack=attack, quality=2),
                                                         Unit("infantry", attack=3, quality=1))),),
                                          (Unit("infantry", defense=5, quality=2),), "woods",
                                          situations=("intelligence-favours-defender",)), (roll % 6 + 1, 3)),
}


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(COMBATS, key=lambda m: m.__name__)), st.integers(0, 30), st.integers(2, 12))
def test_the_lazy_derivation_is_the_one_written_step_by_step(module: ModuleType, attack: int, roll: int) -> None:
    combat, dice = COMBATS[module](attack, roll)
    resolution = module.resolve_combat(combat, dice)  # type: ignore[attr-defined]
    engine: CombatEngine = module.ENGINE  # type: ignore[attr-defined]
    steps: list[str] = []
    total = dice if isinstance(dice, int) else sum(dice)
    eager = engine._resolve(combat if isinstance(dice, int) else replace(combat, dice=tuple(dice)), total, steps)
    assert resolution == eager
    assert resolution.derivation == tuple(steps) and steps
    assessment = engine.assess(combat)
    assert (assessment.odds, assessment.column, assessment.attack) == (resolution.odds, resolution.column,
                                                                       resolution.attack)
    assert assessment.derivation and assessment.derivation[:3] == tuple(steps[:3])


def test_a_definition_is_worked_out_once_per_combat() -> None:
    calls: list[int] = []

    @once_per_combat
    def strength(ctx: object) -> int:
        calls.append(1)
        return 7
    ctx = bocage.ENGINE.bind(bocage_combat())
    assert strength(ctx) == strength(ctx) == 7 and len(calls) == 1
    assert strength(bocage.ENGINE.bind(bocage_combat())) == 7 and len(calls) == 2    # a new combat: again
    assert strength.__name__ == "strength"


@pytest.mark.parametrize("module", [bocage, new_scs, ridgeline, vcs], ids=lambda m: m.__name__)
def test_every_generated_definition_is_worked_out_once_per_combat(module: ModuleType) -> None:
    definitions = [name for name in vars(module) if name.startswith("_def_")]
    assert all(hasattr(getattr(module, name), "__wrapped__") for name in definitions)
    if module is new_scs:
        assert "_def_ambush_chance" in definitions


def test_the_generated_modules_write_whole_numbers_as_ints() -> None:
    text = (Path(generated.__file__).parent / "new_scs.py").read_text(encoding="utf-8")
    assert "Fraction(1)" not in text.split("# Definitions")[1].split("# Die roll modifiers")[0]
    assert "min(3, ((1 + (1 if " in text


def third_chart() -> TerrainEffectsChart:
    return TerrainEffectsChart((
        Terrain("clear", "hex", Movement("cost", Fraction(1)), CombatEffect("none")),
        Terrain("ford", "hexside", Movement("add", Fraction(1)), CombatEffect("multiply", attacker=Fraction(1, 3))),
    ))


def test_terrain_multipliers_stay_exact_through_a_combat() -> None:
    """A third is a third: the chart's multiplier is not read through a float (0.333...)."""
    chart = third_chart()
    assert chart.attack_factor("clear", ("ford",)) == Fraction(1, 3)
    engine = CombatEngine(vocabulary=Vocabulary({"infantry": ()}), terrain=chart, table=None,
                          odds=lambda a, d: (1, 1))
    two = Combat((AttackingHex((Unit("infantry", attack=1), Unit("infantry", attack=1)), hexsides=("ford",)),),
                 (Unit("infantry", defense=1),), "clear")
    assert engine.assess(two).attack == Fraction(2, 3)
    three = replace(two, attacking_hexes=(replace(two.attacking_hexes[0], units=(Unit("infantry", attack=1),) * 3),))
    attack = engine.assess(three).attack
    assert attack == 1 and type(attack) is int        # whole numbers are kept as ints, exactly


def test_a_hex_keeps_its_hash_through_pickling_and_replacing() -> None:
    hex = Hex("A", 12, 7)
    again = pickle.loads(pickle.dumps(hex))
    assert again == hex and hash(again) == hash(hex) and {hex: 1}[again] == 1
    moved = replace(hex, row=8)
    assert moved == Hex("A", 12, 8) and hash(moved) == hash(Hex("A", 12, 8)) and str(moved) == "A12.08"
    assert repr(hex) == "Hex(map='A', column=12, row=7)" and sorted([moved, hex]) == [hex, moved]
