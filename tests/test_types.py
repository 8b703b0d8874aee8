"""mypy --strict is clean over the generated modules, over rulesdsl, and over the
modules the template writes for small rulebooks written here, so that a change to
the template or the runtime that breaks the types of some rulebook's module cannot
pass unseen.

mypy runs in-process (mypy.api.run) with one cache directory per test session
under a temporary folder: nothing is written into the repository.
"""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import mypy.api
import pytest

import rulesdsl
from rulesdsl.runtime import AttackingHex, Combat, CombatEngine, CombatResultsTable, RulesInputError, Unit

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def mypy_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("mypy_cache")


def mypy_strict(cache: Path, *paths: Path, silent_imports: bool = False, no_any: bool = False) -> tuple[int, str]:
    """Run `mypy --strict` over `paths`; return its exit status and its report.

    With `silent_imports`, what the files import is still analysed (its types are
    used) but only the files named are reported on.  With `no_any`, no expression
    may have a type containing Any, not even one mypy --strict lets through.
    """
    args = ["--strict", "--cache-dir", str(cache), "--no-color-output", "--no-error-summary",
            "--show-error-codes", "--hide-error-context"]
    if silent_imports:
        args.append("--follow-imports=silent")
    if no_any:
        args += ["--disallow-any-expr", "--disallow-any-explicit"]
    stdout, stderr, status = mypy.api.run(args + [str(p) for p in paths])
    return status, stdout + stderr


def test_generated_modules_and_the_runtime_are_strictly_typed(mypy_cache: Path) -> None:
    """Every module of generated/ and the runtime they import, with no Any anywhere.  The
    rest of rulesdsl is checked by the next test; here it is read for its types only."""
    modules = sorted((ROOT / "generated").glob("*.py"))
    assert len(modules) > 1, "generated/ holds no modules"
    status, report = mypy_strict(mypy_cache, *modules, ROOT / "rulesdsl" / "runtime", silent_imports=True, no_any=True)
    assert status == 0, report


def test_rulesdsl_is_strictly_typed(mypy_cache: Path) -> None:
    status, report = mypy_strict(mypy_cache, ROOT / "rulesdsl")
    assert status == 0, report


def test_rulesdsl_silences_no_type_error_inline() -> None:
    """The libraries without types are declared once, in pyproject's [tool.mypy]; nothing in
    rulesdsl hides a type error with an inline ignore."""
    ignored = [f"{path.relative_to(ROOT)}:{n}" for path in sorted((ROOT / "rulesdsl").rglob("*.py"))
               for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if "type: ignore" in line]
    assert ignored == []
    config = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    for module in ("cerberus", "weasyprint", "fontTools"):
        assert f'"{module}"' in config, module


# ---- modules of rulebooks written here: every branch of the template -------------
# `full` has every block a module can hold and a definition of every kind the
# expression compiler gives (number, odds, bool, a case, units, hexes, terrain);
# `bare` has a parameter and nothing else; `empty` has not even a rule.
FULL = '''\
series full "Every block" version "1.0"

section rounding "Rounding" {
  summary "Halves round up."
}
section combat "Combat" {
  summary "How a combat is resolved."
}

rule 1.0 "Zones and definitions" {
  summary "Entering an enemy zone costs two more movement points."
  zoc.entry_cost = +2 MP
  combat.below_table = A1
  define strong = count(attackers where armored) >= 2
  define total-attack = sum(attackers of attack)
  define rounded = round(total-attack / 3) + floor(total-attack / 4) + ceil(total-attack / 5)
  define armor-odds = odds(sum(attackers where armored of attack), sum(defenders of defense))
  define advantage {
    attacker  when armor-odds >= 3:1 and strong
    defender  when defender_terrain is woods
    none      otherwise
  }
  define rough = any(attacking_hexes where across(stream) or terrain.level > 1) and not overrun
  define everyone = if(strong, attackers, defenders)
  define ground = defender_terrain
  define fronts = attacking_hexes
  define big = count(everyone) + count(fronts) > 2 and ground is woods
  define best = max(rounded, zoc.entry_cost, support, 1) - min(dice.white, dice.red)
}

rounding standard: .50 up, keep fractions [rounding]

sequence of play [combat] {
  game turn {
    player turn first
    player turn second
  }
  player turn {
    movement  [1.0]  movement
    combat    [combat]  combat
  }
}

terrain effects chart "TEC" [combat] {
  hex:
    open      1       ne      level 1
    woods     2       Dx2 1L  level 2
    rough     3       -1
  roads:
    road      1/2     ot
  hexside:
    stream    +1      Ax1/2
    canal     +2      1L +1 all-across
}

combat results table "CRT" [combat] dice 2d6 {
  odds   1:2    1:1    2:1
  2-     A1     A1     -
  3-11   -      D1     D1r1
  12+    DE     D1r1   D2r2
}
result codes "Legend" [combat] family steps-first {
  DE   defender loses all, attacker advances 1, defender becomes dg
}

unit types [combat] {
  tank       armored
  infantry   soft
}
unit states: dg
combat situations: surprise
combat amounts: support

die roll modifiers [combat] cap 2 {
  surprised  +1  both  when surprise and advantage is attacker
}
column shifts [combat] max 2 per side {
  support    support  max 1  when rough
}
result adjustments [combat] {
  cover   defender-retreat  -1  when defender_terrain is woods and result.defender_retreat > 0
}
strength factors "Factors" [combat] {
  dg-attack   attack   1/2   when dg
}
table weather "Weather" [combat] {
  roll   1-2   3-6
  sky    rain  1/2
}
table losses "Losses" [combat] {
  die/size   1    2-3
  1-3        0    1
  4-6        1    2
}
'''

BARE = '''\
series bare "A parameter and nothing else" version "1.0"

rule 1.0 "Stacking" {
  summary "Three steps a hex."
  stacking.limit = 3 steps
  define half = round(1/2) + 1
}
'''

EMPTY = 'series empty "No rules at all" version "1.0"\n'


def write_module(project: Path, text: str, name: str) -> Path:
    compilation = rulesdsl.compile_text(text, f"rulebooks/{name}.rules")
    assert compilation.ok, [f"{d.span.line}: {d.message}" for d in compilation.diagnostics]
    for path, content in compilation.outputs.items():
        if path.endswith(".py"):
            assert isinstance(content, str)
            target = project / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(content, encoding="utf-8")
    return project / "generated" / f"{name}.py"


def test_modules_of_small_rulebooks_are_strictly_typed(mypy_cache: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    modules = [write_module(tmp_path, text, name) for text, name in ((FULL, "full"), (BARE, "bare"), (EMPTY, "empty"))]
    full = modules[0].read_text(encoding="utf-8")
    for returns in ("-> Fraction:", "-> bool:", "-> str:", "-> tuple[BoundUnit, ...]:", "-> tuple[BoundHex, ...]:",
                    "-> BoundTerrain:"):   # a definition of every kind, so every annotation is checked
        assert returns in full, returns
    for block in ("RESULT_CODES: MappingProxyType[str, Result]", "CRT = CombatResultsTable(", "TERRAIN = TerrainEffectsChart((", "MODIFIERS = (", "SHIFTS = (",
                  "FACTORS = (", "ADJUSTMENTS = (", "TABLES:"):
        assert block in full, block
    monkeypatch.setenv("MYPYPATH", str(ROOT))   # the temporary project imports this rulesdsl
    status, report = mypy_strict(mypy_cache, *modules, silent_imports=True, no_any=True)
    assert status == 0, report


# ---- what typing the runtime changed at run time -------------------------------------
@pytest.fixture(scope="module")
def full() -> dict[str, object]:
    compilation = rulesdsl.compile_text(FULL, "rulebooks/full.rules")
    assert compilation.ok
    namespace: dict[str, object] = {}
    exec(compile(compilation.outputs["generated/full.py"], "generated/full.py", "exec"), namespace)
    return namespace


def combat(terrain: str = "open", hexsides: tuple[str, ...] = ()) -> Combat:
    return Combat(attacking_hexes=(AttackingHex((Unit("tank", attack=7), Unit("tank", attack=3)), terrain, hexsides),),
                  defenders=(Unit("infantry", defense=2),), defender_terrain="woods", amounts={"support": 1})


def test_round_in_an_expression_gives_a_fraction_like_floor_and_ceil(full: dict[str, object]) -> None:
    rounded = full["rounded"]
    assert callable(rounded)
    value = rounded(combat())           # round(10/3) + floor(10/4) + ceil(10/5) = 3 + 2 + 2
    assert value == 7 and type(value) is Fraction


def test_a_module_without_rounding_says_so_when_an_expression_rounds() -> None:
    compilation = rulesdsl.compile_text(BARE, "rulebooks/bare.rules")
    namespace: dict[str, object] = {}
    exec(compile(compilation.outputs["generated/bare.py"], "generated/bare.py", "exec"), namespace)
    for name, args in (("round_", (Fraction(1, 2),)), ("odds_ratio", (2, 1)), ("odds", (2, 1))):
        function = namespace[name]
        assert callable(function)
        with pytest.raises(LookupError, match="bare has no rounding rule"):
            function(*args)


def test_reading_the_terrain_of_a_hex_given_none_is_an_input_error(full: dict[str, object]) -> None:
    rough = full["rough"]
    assert callable(rough)
    assert rough(combat("woods")) is True
    assert rough(combat("", ("stream",))) is True          # across(stream) decides: the terrain is not read
    with pytest.raises(RulesInputError, match="terrain of an attacking hex"):
        rough(combat(""))


def test_the_result_is_read_only_while_adjusting(full: dict[str, object]) -> None:
    engine = full["ENGINE"]
    assert isinstance(engine, CombatEngine)
    with pytest.raises(LookupError, match="result adjustments"):
        engine.bind(combat()).result
    resolve_combat = full["resolve_combat"]
    assert callable(resolve_combat)
    assert resolve_combat(combat(), (3, 4)).result.text == "D1"     # adjustments read it during the resolution


def test_a_table_cell_that_is_no_result_is_an_error_not_none() -> None:
    table = CombatResultsTable("2d6", ("1:1",), {"2-12": ("X9",)})
    with pytest.raises(ValueError, match="'X9' is not a combat result"):
        table.result("1:1", 7)
