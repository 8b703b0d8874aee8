"""Issue 41 (A): every quantity that drives the engine's work has a bound (limits.py), reported at the value
that passes it, and the engine's loops stop once nothing new is reached, whatever the bound."""
from __future__ import annotations

import dataclasses
import io
import sys
import time
from fractions import Fraction

import pytest

from generated import scs_1_8
from rulesdsl.language.limits import (MAX_DISTANCE_HEXES, MAX_MOVEMENT_POINTS, MAX_RETREAT_HEXES,
                                      MAX_SITUATION_UNITS)
from rulesdsl.runtime import movement
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.hexmap import Hex, HexMap
from rulesdsl.runtime.model import Quantity
from rulesdsl.runtime.ruleset import RuleSet
from rulesdsl.runtime.situation import Counter, Situation

H = Hex.parse
GAME = '''game demo "Demo Game" version "1.0" extends base

override rule 3.1e "Minimum move" {{
  summary "far"
  {lines}
}}

example "A ZOC and a move" [3.1e] {{
  map 1.01 - 6.06 open
  phasing friendly
  unit 1 friendly 4-4-5 at 1.01
  unit 2 enemy 4-4-5 at 4.04
  expect move 1 1.02 costs 1
}}
'''


def _game(line: str) -> str:
    """The demo game with `line` in its override of the minimum-move rule (which restates that parameter)."""
    kept = "" if line.startswith("movement.minimum_move") else "movement.minimum_move = 1 hex\n  "
    return GAME.format(lines=kept + line)


@pytest.mark.parametrize("line, column", [
    ("zoc.range = 10000000 hex", 15),
    ("zoc.range = 1" + "0" * 99 + " hex", 15),
    ("movement.minimum_move = 1000000 hex", 27),
    ("movement.minimum_move = 1" + "0" * 99 + " hex", 27),
])
def test_a_distance_beyond_the_limit_is_an_error_at_its_value_and_fast(line, column, project, capsys):
    project.add_base()
    text = _game(line)
    path = project.write("rulebooks/demo.rules", text)
    row = text.split("\n").index("  " + line) + 1
    started = time.monotonic()
    code, out, err = project.run("check", str(path), capsys=capsys)
    assert time.monotonic() - started < 30          # it was 122 s for 10^7, and never ended for 10^99
    assert code == 1, err
    name = line.split(" =")[0]
    assert err.startswith(f"rulebooks/demo.rules:{row}:{column}: error: {name} is 1"), err
    assert err.count("error:") == 1
    assert f"more than the {MAX_DISTANCE_HEXES:,} a distance may be" in err
    assert "Traceback" not in err


def test_a_cost_in_mps_beyond_the_limit_is_an_error(project, capsys):
    project.add_base()
    path = project.write("rulebooks/demo.rules", _game("zoc.entry_cost = +5000 MP"))
    code, _, err = project.run("check", str(path), capsys=capsys)
    assert code == 1
    assert f"zoc.entry_cost is 5000 MP, more than the {MAX_MOVEMENT_POINTS:,} a cost or an allowance may be" in err


def test_a_distance_at_the_limit_is_accepted(project, capsys):
    project.add_base()
    path = project.write("rulebooks/demo.rules", _game(f"movement.minimum_move = {MAX_DISTANCE_HEXES} hex"))
    code, _, err = project.run("check", str(path), capsys=capsys)
    assert code == 0, err


def test_an_assumed_distance_beyond_the_limit_is_an_error_at_the_assume_line(project, capsys):
    project.add_base()
    text = _game("movement.minimum_move = 1 hex").replace(
        "  phasing friendly", "  phasing friendly\n  assume zoc.range = 99999 hex")
    path = project.write("rulebooks/demo.rules", text)
    code, _, err = project.run("check", str(path), capsys=capsys)
    assert code == 1
    assert "rulebooks/demo.rules:11:22: error: zoc.range is 99999 hexes" in err, err


# ---- the loops stop when nothing new is reached ----------------------------------------------------------
def _rules(**values: Quantity) -> RuleSet:
    parameters = dict(scs_1_8.PARAMETERS)
    for name, value in values.items():
        name = name.replace("__", ".")
        parameters[name] = dataclasses.replace(parameters[name], value=value)
    return RuleSet(scs_1_8.RULEBOOK["id"], parameters, scs_1_8.TERRAIN, scs_1_8.TABLES, scs_1_8.RULES)


def _counting(monkeypatch) -> list[int]:
    """Count the neighbours the searches ask for (each hex stepped out from)."""
    asked = [0]
    original = Situation.neighbours

    def neighbours(self: Situation, hex: Hex) -> tuple[Hex, ...]:
        asked[0] += 1
        return original(self, hex)
    monkeypatch.setattr(Situation, "neighbours", neighbours)
    return asked


def _small_board() -> Situation:
    mover = Counter("a", "allies", H("3.03"), attack=Fraction(3), defense=Fraction(3), movement=Fraction(4))
    enemy = Counter("e", "axis", H("5.05"), attack=Fraction(3), defense=Fraction(3), movement=Fraction(4))
    return Situation(HexMap.rectangle(6, 6), default_terrain=("open",), units=(mover, enemy), phasing="allies")


def _rounds(monkeypatch) -> list[int]:
    """Count the rounds of the engine's breadth-first loops in movement.py (its `range`), refusing to go on
    past 10,000: a loop that runs on after its frontier is empty runs as many rounds as the value says."""
    rounds = [0]

    def counted(*args: int):
        for value in range(*args):
            rounds[0] += 1
            assert rounds[0] <= 10_000, "the loop runs on past an empty frontier"
            yield value
    monkeypatch.setattr(movement, "range", counted, raising=False)
    return rounds


@pytest.mark.parametrize("reach", [10, 10 ** 7, 10 ** 99])
def test_a_zoc_range_past_the_map_stops_when_nothing_new_is_reached(reach, monkeypatch):
    board = _small_board()
    near = RulesEngine(_rules(zoc__range=Quantity(Fraction(1), "hex"))).zoc(board, "axis")
    assert len(near.hexes) == 6
    asked, rounds = _counting(monkeypatch), _rounds(monkeypatch)
    far = RulesEngine(_rules(zoc__range=Quantity(Fraction(reach), "hex"))).zoc(board, "axis")
    assert set(far.hexes) == set(board.map.hexes()) - {H("5.05")}
    assert asked[0] <= 36          # each of the 36 hexes stepped out from once
    assert rounds[0] <= 12          # a round per ring of hexes, and one that finds nothing new


@pytest.mark.parametrize("least", [10, 10 ** 7, 10 ** 99])
def test_a_minimum_move_past_the_map_stops_when_nothing_new_is_reached(least, monkeypatch):
    board = _small_board()
    plain = RulesEngine(_rules(movement__minimum_move=Quantity(Fraction(8), "hex"))).reachable(board, "a")
    asked, rounds = _counting(monkeypatch), _rounds(monkeypatch)
    far = RulesEngine(_rules(movement__minimum_move=Quantity(Fraction(least), "hex"))).reachable(board, "a")
    assert far.costs == plain.costs
    assert rounds[0] <= 36          # no more rounds than states it can stand in
    assert asked[0] < 36 * 8        # a hex is stepped out from again only when reached for less


def test_the_minimum_move_keeps_its_answers_when_it_prunes():
    """The pruned minimum-move search answers as the plain one did on the series' own example hexes: a
    minimum move of 1 hex reaches each neighbour, whatever its cost."""
    board = _small_board()
    reach = RulesEngine(_rules()).reachable(board, "a")
    assert set(board.map.neighbours(H("3.03"))) <= set(reach.costs)


# ---- units in a situation ----------------------------------------------------------------------------
def _unit_lines(count: int) -> list[str]:
    return [f"unit u{i} {'axis' if i % 2 else 'allies'} 2-3-5 at {i % 100 + 1}.{(i // 100) % 99 + 1:02d}"
            for i in range(count)]


def test_an_explain_situation_of_50000_units_is_refused_at_the_first_unit_past_the_limit(project, capsys,
                                                                                          monkeypatch):
    project.add_base()
    text = "\n".join(["map 1.01 - 100.99 open", *_unit_lines(50_000)]) + "\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    started = time.monotonic()
    code, out, err = project.run("explain", "base", "-", "zoc", "axis", capsys=capsys)
    assert time.monotonic() - started < 20      # the text is refused before the parser's work
    assert code == 1, err
    assert out == ""
    assert err.startswith(f"<stdin>:{MAX_SITUATION_UNITS + 2}:1: error: a situation has more than "
                          f"{MAX_SITUATION_UNITS:,} units\n"), err[:300]


def test_an_example_of_50000_units_is_refused_at_the_first_unit_past_the_limit(project, capsys):
    project.add_base()
    units = "\n".join("  " + line for line in _unit_lines(50_000))
    path = project.write("rulebooks/demo.rules", 'game demo "Demo Game" version "1.0" extends base\n\n'
                         f'example "crowded" [3.1e] {{\n  map 1.01 - 100.99 open\n{units}\n'
                         '  expect zoc axis 1.01\n}\n')
    code, _, err = project.run("check", str(path), capsys=capsys)
    assert code == 1
    assert err.startswith(f"rulebooks/demo.rules:{MAX_SITUATION_UNITS + 5}:3: error: a situation has more than "
                          f"{MAX_SITUATION_UNITS:,} units\n"), err[:300]
    assert err.count("error:") == 1


class _Name(str):
    """A unit name that counts how often it is compared: a quadratic over the units compares each with each."""
    compared = 0

    def __eq__(self, other: object) -> bool:
        _Name.compared += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


def _compared(count: int) -> int:
    units = tuple(Counter(_Name(f"u{i}"), "axis" if i % 2 else "allies", Hex("", i % 40 + 1, (i // 40) % 40 + 1),
                          attack=Fraction(2), defense=Fraction(3), movement=Fraction(5)) for i in range(count))
    _Name.compared = 0
    situation = Situation(HexMap.rectangle(40, 40), default_terrain=("open",), units=units, phasing="allies")
    for unit in units:
        assert situation.unit(str(unit.name)) is unit
        assert unit in situation.units_at(unit.hex)
    return _Name.compared


def test_a_situation_reads_its_units_in_linear_work():
    """Building a situation and finding each of its units by name: the work grows as the units do (it was
    each unit compared with every other, 11.5 s for 16,000 units in `explain`)."""
    small, large = _compared(400), _compared(1600)
    assert large <= 4 * small + 100, (small, large)


def test_a_counter_with_an_allowance_past_the_limit_is_an_error(project, capsys):
    project.add_base()
    code, _, err = project.run("explain", "base", "map 1.01 - 4.04 open; unit a friendly 2-3-5000 at 1.01",
                               "reach", "a", capsys=capsys)
    assert code == 1
    assert err.startswith("<situation>:2:22: error: unit a has a Movement Allowance of 5000, more than the "
                          f"{MAX_MOVEMENT_POINTS:,} MPs an allowance may be"), err


@pytest.mark.parametrize("query", ["retreat a 30 from b", "advance b into 2.02 after 30"])
def test_a_retreat_past_the_limit_is_an_error(query, project, capsys):
    project.add_base()
    code, _, err = project.run("explain", "base", "map 1.01 - 9.09 open; unit a friendly 2-3-5 at 2.02; "
                               "unit b enemy 2-3-5 at 2.03", query, capsys=capsys)
    assert code == 1
    assert f"30 hexes is longer than the {MAX_RETREAT_HEXES} a retreat may be" in err, err


def test_a_combat_result_retreating_past_the_limit_is_an_error(project, capsys):
    project.add_base()
    path = project.write("rulebooks/demo.rules", '''game demo "Demo Game" version "1.0" extends base

combat results table dice 1d6 {
  odds  1:1   2:1
  1-3   D1r9  D1
  4-6   A1    D2
}
''')
    code, _, err = project.run("check", str(path), capsys=capsys)
    assert code == 1
    assert f"'D1r9' retreats 9 hexes, more than the {MAX_RETREAT_HEXES} a retreat may be" in err, err


# ---- issue 41 (B): a standalone starter makes a unit afford the hex it enters -------------------------------
@pytest.mark.parametrize("kind, name", [("game", "solo"), ("series", "house")])
def test_a_standalone_starter_makes_units_afford_the_hexes_they_enter(kind, name, tmp_path, capsys):
    """`rulesdsl new game NAME` (no series) and `new series NAME` left movement.must_afford_entry unset, so the
    engine let a unit with 1 MP left enter a hex costing 2; the starter sets it, as SCS does."""
    from rulesdsl.cli import main
    from rulesdsl.checks.examples import explain
    from rulesdsl.language.source import Source
    assert main(["--project", str(tmp_path), "new", kind, name]) == 0
    assert main(["--project", str(tmp_path), "build"]) == 0, capsys.readouterr().err
    capsys.readouterr()
    import importlib.util
    spec = importlib.util.spec_from_file_location(f"_starter_{name}", tmp_path / "generated" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
        assert module.PARAMETERS["movement.must_afford_entry"].value is True
        situation = Source("<s>", "map 1.01 - 4.04 clear\nhex 1.03 forest\nphasing first\nunit a first 1-1-2 at 1.01\n")
        answer = explain(module, situation, "move a 1.02 1.03")
        assert "illegal" in answer.answer.computed, answer.answer.computed
    finally:
        del sys.modules[spec.name]
