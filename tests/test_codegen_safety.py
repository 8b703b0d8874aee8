"""A build that passes gives modules that import and compute what the rulebook says:
rulebook names cannot clash in Python, limits are positioned errors, and a module
that would not import stops the build before anything is written."""
from __future__ import annotations

import ast
import symtable
import sys

import pytest
from conftest import FIXTURES, ROOT

import rulesdsl
import rulesdsl.project.build
from rulesdsl.modules import codegen, modcheck
from rulesdsl.project.build import library_parameters
from rulesdsl.modules.codegen import MODULE_NAMES, KEYWORDS, constant_name, module_name
from rulesdsl.errors import render
from rulesdsl.language.limits import MAX_CALL_DEPTH, MAX_CASES, MAX_EXPRESSION_DEPTH, MAX_NUMBER_DIGITS
from rulesdsl.runtime import Combat

BASE = (FIXTURES / "base.rules").read_text(encoding="utf-8")
HEADER = 'game demo "Demo" version "1.0" extends base\n\ncombat amounts: n\n\n'


def compile_game(text: str, *others: tuple[str, str]):
    return rulesdsl.compile_text(text, "rulebooks/demo.rules", ("rulebooks/base.rules", BASE), *others)


def game(*lines: str, header: str = HEADER) -> str:
    return header + 'rule G1.0 "Demo" {\n  summary "s"\n' + "".join(f"  {line}\n" for line in lines) + "}\n"


def load(text: str, name: str = "demo", *others: tuple[str, str]):
    """Compile, then import the module as a build would write it."""
    compilation = compile_game(text, *others)
    assert compilation.ok, [f"{d.span}: {d.message}" for d in compilation.diagnostics]
    source = compilation.outputs[f"generated/{name}.py"]
    namespace: dict = {"__name__": f"generated.{name}"}
    exec(compile(source, f"generated/{name}.py", "exec"), namespace)
    return namespace


def errors(text: str, *others: tuple[str, str]) -> list:
    compilation = compile_game(text, *others)
    assert not compilation.ok
    assert compilation.outputs == {}
    return [d for d in compilation.diagnostics if d.severity == "error"]


def combat(n=0) -> Combat:
    return Combat((), (), "open", amounts={"n": n})


# -- names ---------------------------------------------------------------------
def test_two_definitions_that_mangle_alike_are_an_error_at_the_second():
    text = game("define a-b = 1", "define a_b = 2")
    [problem] = errors(text)
    assert problem.message == ("definition 'a_b' becomes the Python name a_b, which is already "
                               "definition 'a-b' (rulebooks/demo.rules:7)")
    assert (problem.span.path, problem.span.line, problem.span.column) == ("rulebooks/demo.rules", 8, 10)
    shown = render(problem, {"rulebooks/demo.rules": text})
    assert "rulebooks/demo.rules:8:10: error:" in shown and "^" in shown


def test_a_game_definition_that_mangles_like_a_series_one_is_reported_in_the_game():
    series = BASE.replace('rule 1.0 "Sequence of Play" {\n', 'rule 1.0 "Sequence of Play" {\n  define x-y = 1\n')
    compilation = rulesdsl.compile_text(game("define x_y = 2"), "rulebooks/demo.rules",
                                        ("rulebooks/base.rules", series))
    [problem] = [d for d in compilation.diagnostics if d.severity == "error"]
    assert problem.span.path == "rulebooks/demo.rules"
    assert "definition 'x-y' (rulebooks/base.rules:" in problem.message


def test_definitions_named_like_runtime_helpers_build_and_compute():
    module = load(game("define round_from = n + 1", "define divide = 6 / 3", "define count_where = 4",
                       "define frozen_mapping = round_from * 10", "define x = round(n / 2)"))
    assert module["round_from"](combat(2)) == 3
    assert module["divide"](combat()) == 2
    assert module["count_where"](combat()) == 4
    assert module["frozen_mapping"](combat(2)) == 30
    assert module["x"](combat(3)) == 2          # 1.5 rounds up: the base's standard rounding
    assert module["odds"](6, 2) == "3:1"        # the helpers the module uses are its own


@pytest.mark.parametrize("name, clash", [
    ("odds", "the module's function odds(attack, defense)"),
    ("resolve", "the module's function resolve(attack, defense, roll)"),
    ("max", "Python's built-in max, which the module uses"),
    ("odds-ratio", "the module's function odds_ratio(attack, defense)"),
])
def test_a_definition_named_like_the_modules_own_names_is_an_error(name, clash):
    [problem] = errors(game(f"define {name} = 1"))
    python = name.replace("-", "_")
    assert problem.message == f"definition '{name}' becomes the Python name {python}, which is already {clash}"
    assert problem.span.line == 7


def test_a_definition_clashing_with_the_rounding_function_is_an_error():
    [problem] = errors(game("define round-standard = 1"))
    assert problem.message.startswith("definition 'round-standard' becomes the Python name round_standard, "
                                      "which is already rounding 'standard' (rulebooks/base.rules:")


@pytest.mark.parametrize("name", ["class", "if", "lambda", "async", "match", "case", "type"])
def test_keywords_and_soft_keywords_get_a_trailing_underscore(name):
    module = load(game(f"define {name} = n * 2", f"define other = {name} + 1"))
    assert module[name + "_"](combat(5)) == 10
    assert module["other"](combat(5)) == 11


@pytest.mark.parametrize("name", ["_", "__", "_-_"])
def test_a_definition_that_makes_no_python_name_is_an_error(name):
    [problem] = errors(game(f"define {name} = 1"))
    assert problem.message == f"definition '{name}' makes no Python name"
    assert problem.span.line == 7


def test_a_rulebook_id_that_is_a_keyword_builds_a_module_with_a_trailing_underscore():
    text = game(header='game class "Demo" version "1.0" extends base\n\ncombat amounts: n\n\n')
    module = load(text.replace("define", "define"), "class_")
    assert module["RULEBOOK"]["id"] == "class"
    assert module_name("class") == "class_"


@pytest.mark.parametrize("rulebook_id", ["_", "_1x"])
def test_a_rulebook_id_that_makes_no_module_name_is_one_error_not_a_crash(rulebook_id):
    [problem] = errors(game(header=f'game {rulebook_id} "Demo" version "1.0" extends base\n\n'))
    assert problem.message == f"'{rulebook_id}' is not a valid rulebook id"   # the schema's, said once
    assert (problem.span.line, problem.span.column) == (1, 6)


@pytest.mark.parametrize("rulebook_id, why", [("_", "has no letter or digit"), ("_1x", "starts with a digit")])
def test_module_problem_says_why(rulebook_id, why):
    assert why in codegen.module_problem(rulebook_id)
    with pytest.raises(ValueError):
        module_name(rulebook_id)


def test_the_keywords_include_every_soft_keyword():
    import keyword
    assert set(keyword.softkwlist) <= KEYWORDS and set(keyword.kwlist) <= KEYWORDS


def test_a_rounding_named_from_or_with_a_dot_builds():
    series = BASE.replace("rounding standard:", "rounding from:")
    module = load(game("define x = round(n / 2)"), "demo", )  # the base as shipped
    assert module["x"](combat(1)) == 1
    compilation = rulesdsl.compile_text(game("define x = round(n / 2)"), "rulebooks/demo.rules",
                                        ("rulebooks/base.rules", series))
    assert compilation.ok, [d.message for d in compilation.diagnostics]
    namespace: dict = {}
    exec(compile(compilation.outputs["generated/demo.py"], "demo", "exec"), namespace)
    assert namespace["round_from"](Fraction_(5, 2)) == 3
    assert namespace["odds"](7, 2) == "4:1"     # 3.5 rounds up with the rulebook's own round_from
    assert namespace["x"](combat(1)) == 1


def Fraction_(a, b):
    from fractions import Fraction
    return Fraction(a, b)


def test_every_library_parameter_makes_a_distinct_constant_the_module_does_not_use():
    names = {name for vocabulary in library_parameters().values() for name in vocabulary}
    constants = [constant_name(name) for name in names]
    assert len(set(constants)) == len(constants)
    assert not set(constants) & set(MODULE_NAMES)
    assert all(c.isidentifier() and c not in KEYWORDS for c in constants)


def _global_names(source: str) -> set[str]:
    """Every name the module binds at top level or reads from its globals (or builtins)."""
    names: set[str] = set()
    tables = [symtable.symtable(source, "m", "exec")]
    while tables:
        table = tables.pop()
        for symbol in table.get_symbols():
            if table.get_type() == "module" or symbol.is_global():
                names.add(symbol.get_name())
        tables += table.get_children()
    return names


def test_module_names_lists_everything_a_module_binds_or_reads():
    """MODULE_NAMES must hold every name of a module that no rulebook introduced, or a
    rulebook could shadow it; checked on every shipped module and a module using every feature."""
    compilation = rulesdsl.project.build.compile_project(ROOT)
    assert compilation.ok
    sources = [s for rel, s in compilation.outputs.items() if rel.endswith(".py") and "__init__" not in rel]
    assert len(sources) >= 5
    for key, resolved in compilation.resolved.items():
        source = compilation.outputs[f"generated/{module_name(key)}.py"]
        names, problems = codegen.python_names(resolved)
        assert not problems
        introduced = set(names.definitions.values()) | set(names.constants.values()) | {names.rounding}
        introduced |= {codegen.function_name(d) for d in names.definitions}
        dunders = {n for n in _global_names(source) if n.startswith("__")}
        missing = _global_names(source) - introduced - set(MODULE_NAMES) - dunders
        assert not missing, (key, sorted(missing))


def test_module_names_are_all_needed():
    compilation = rulesdsl.project.build.compile_project(ROOT)
    extra = compile_game(game("define x = max(n, 1)"))
    used: set[str] = set()
    for rel, source in extra.outputs.items():
        if rel.endswith(".py"):
            used |= _global_names(source)
    for rel, source in compilation.outputs.items():
        if rel.endswith(".py"):
            used |= _global_names(source)
    assert set(MODULE_NAMES) - used == set()


# -- limits --------------------------------------------------------------------
def test_an_expression_at_the_depth_limit_builds_and_computes():
    terms = MAX_EXPRESSION_DEPTH
    module = load(game("define x = " + " + ".join(["n"] * terms),
                       "define y = " + "-" * (MAX_EXPRESSION_DEPTH - 1) + "n",
                       "define z = " + "max(" * (MAX_EXPRESSION_DEPTH // 2 - 1) + "n" + ", 1)" * (MAX_EXPRESSION_DEPTH // 2 - 1)))
    assert module["x"](combat(2)) == 2 * terms
    assert module["y"](combat(2)) == (2 if MAX_EXPRESSION_DEPTH % 2 else -2)
    assert module["z"](combat(7)) == 7


@pytest.mark.parametrize("terms", [MAX_EXPRESSION_DEPTH + 1, 201, 500, 5000])
def test_a_longer_chain_is_a_positioned_error_not_a_crash(terms):
    text = game("define x = " + " + ".join(["1"] * terms))
    [problem] = errors(text)
    assert problem.message == f"expression too deeply nested (limit {MAX_EXPRESSION_DEPTH})"
    assert (problem.span.line, problem.span.column) == (7, 14)


def test_deep_nesting_anywhere_is_reported_once_per_expression():
    deep = " and ".join(["n > 1"] * 300)
    text = game("define x = " + "-" * 400 + "n") + (
        "\ndie roll modifiers {\n  m  +1  both  when " + deep + "\n}\n")
    problems = errors(text)
    assert [(p.message, p.span.line) for p in problems] == [
        (f"expression too deeply nested (limit {MAX_EXPRESSION_DEPTH})", 7),
        (f"expression too deeply nested (limit {MAX_EXPRESSION_DEPTH})", 11)]


def test_too_many_cases_is_an_error_and_the_limit_builds():
    cases = [f"c{i} when n == {i}" for i in range(MAX_CASES - 1)] + ["last otherwise"]
    module = load(game("define pick {", *("  " + c for c in cases), "}"))
    assert module["pick"](combat(3)) == "c3"
    assert module["pick"](combat(MAX_CASES + 5)) == "last"
    [problem] = errors(game("define pick {", *("  " + c for c in ["c0 when n == 0"] + cases), "}"))
    assert problem.message == f"too many cases in one definition (limit {MAX_CASES})"
    assert problem.span.line == 7


def chain(length: int, reverse: bool = False) -> list[str]:
    lines = ["define d0 = n"] + [f"define d{i} = d{i - 1} + 1" for i in range(1, length)]
    return lines[::-1] if reverse else lines


def test_a_chain_of_definitions_at_the_call_limit_builds_and_computes():
    module = load(game(*chain(MAX_CALL_DEPTH, reverse=True)))
    assert module[f"d{MAX_CALL_DEPTH - 1}"](combat(1)) == MAX_CALL_DEPTH


@pytest.mark.parametrize("length, reverse", [(MAX_CALL_DEPTH + 1, False), (2000, False), (2000, True)])
def test_a_longer_chain_of_definitions_is_one_positioned_error_not_a_crash(length, reverse):
    [problem] = errors(game(*chain(length, reverse)))
    assert problem.message == (f"definition 'd{MAX_CALL_DEPTH}' nests too deeply: computing it takes "
                               f"{MAX_CALL_DEPTH + 1} nested calls (limit {MAX_CALL_DEPTH})")
    line = 7 + (length - 1 - MAX_CALL_DEPTH if reverse else MAX_CALL_DEPTH)
    assert (problem.span.line, problem.span.column) == (line, 10)


def test_a_long_cycle_of_definitions_is_reported_not_a_crash():
    lines = [f"define d{i} = d{(i + 1) % 2000} + 1" for i in range(2000)]
    problems = errors(game(*lines))
    assert problems[0].message.startswith("definitions use each other in a cycle: d0 -> d1 -> d2 -> ")
    assert problems[0].message.endswith(" -> d1999 -> d0")


def test_calls_are_counted_through_definitions_and_collections():
    from rulesdsl.checks.expressions import Checker
    compilation = compile_game(game("define x = count(attackers where n > 0)", "define y = x + 1",
                                    "define z = count(attackers where any(defenders where y > 0))"))
    checker = Checker(compilation.resolved["demo"].vocabulary)
    checker.compile_definitions()
    assert checker.frames == {"x": 4, "y": 5, "z": 1 + 3 + 3 + 5}


LONG = "1" * (MAX_NUMBER_DIGITS + 1)


@pytest.mark.parametrize("where, text, column", [
    ("expression", game(f"define x = {LONG} + 1"), 14),
    ("parameter", game(f"zoc.entry_cost = +{LONG} MP"), 20),
    ("decimal", game(f"combat.dg_factor = 0.{LONG}"), 22),
    ("table cell", game() + f"\ntable t {{\n  k 1 2\n  v {LONG} 3\n}}\n", 5),
    ("terrain", game() + f"\noverride terrain effects chart {{\n  hex:\n    open {LONG} ne\n}}\n", 10),
    ("terrain level", game() + f"\noverride terrain effects chart {{\n  hex:\n    open 1 ne level {LONG}\n}}\n", 21),
    ("rule number", game() + f'\nrule {LONG} "x" {{\n  summary "s"\n}}\n', 6),
    ("huge", game(f"define x = {'9' * 5000}"), 14),
])
def test_a_number_too_long_is_a_positioned_error(where, text, column):
    problems = errors(text)
    assert [p.message for p in problems] == [f"number too long (limit {MAX_NUMBER_DIGITS} digits)"], where
    assert problems[0].span.column == column, where


def test_a_number_at_the_digit_limit_builds_and_computes():
    big = "9" * MAX_NUMBER_DIGITS
    module = load(game(f"define x = {big} + n"))
    assert module["x"](combat(1)) == 10 ** MAX_NUMBER_DIGITS


def test_the_limits_are_documented():
    language = (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")   # generated from limits.py
    for name, value in (("MAX_EXPRESSION_DEPTH", MAX_EXPRESSION_DEPTH), ("MAX_CASES", MAX_CASES),
                        ("MAX_CALL_DEPTH", MAX_CALL_DEPTH),
                        ("MAX_NUMBER_DIGITS", MAX_NUMBER_DIGITS)):
        assert f"`{name}`" in language and str(value) in language, name


# -- the module check ------------------------------------------------------------
def test_a_module_that_does_not_import_stops_the_build(monkeypatch):
    real = codegen.generate
    monkeypatch.setattr(modcheck, "generate", lambda resolved: real(resolved) + (
        "\nraise TypeError('boom')\n" if resolved.id == "demo" else ""))
    compilation = compile_game(game("define x = 1"))
    assert compilation.outputs == {}
    [problem] = compilation.diagnostics
    assert problem.message == ("internal error: the generated module for demo does not import: "
                               "TypeError: boom; please report")
    assert (problem.span.path, problem.span.line, problem.span.column) == ("rulebooks/demo.rules", 1, 6)


def test_a_module_that_does_not_compile_stops_the_build(monkeypatch):
    real = codegen.generate
    monkeypatch.setattr(modcheck, "generate", lambda resolved: "def f(:\n" if resolved.id == "demo" else real(resolved))
    compilation = compile_game(game())
    assert compilation.outputs == {}
    assert compilation.diagnostics[0].message.startswith(
        "internal error: the generated module for demo does not import: SyntaxError")


def test_the_check_registers_nothing_in_sys_modules():
    before = set(sys.modules)
    assert modcheck.import_problem("demo_check", "import sys\nX = 1\n") is None
    assert set(sys.modules) - before == set()
    assert modcheck.import_problem("demo_check", "X = 1 / 0\n") == "ZeroDivisionError: division by zero"


def test_build_writes_nothing_and_fails_when_a_module_does_not_import(project, capsys, monkeypatch):
    project.add_base()
    project.write("rulebooks/demo.rules", game("define x = 1"))
    real = codegen.generate
    monkeypatch.setattr(modcheck, "generate", lambda resolved: real(resolved) + "\n1/0\n")
    code, out, err = project.run("build", capsys=capsys)
    assert code not in (0, 3)
    assert "internal error: the generated module for" in err
    assert project.tree() == {}


# -- overrides -------------------------------------------------------------------
def test_an_override_without_a_title_keeps_its_definitions():
    text = HEADER + ('override rule 6.0c {\n  summary "Overrun targets cost at most 3 MP."\n'
                     "  overrun.max_target_cost = 3 MP\n  define bonus = n + 2\n  note \"kept\"\n}\n")
    module = load(text)
    assert module["bonus"](combat(1)) == 3
    rule = module["RULES"]["6.0c"]
    assert (rule.title, rule.summary, rule.notes) == ("Overrun target hexes", "Overrun targets cost at most 3 MP.",
                                                      ("kept",))
    assert module["OVERRUN_MAX_TARGET_COST"].amount == 3


def test_generated_code_is_valid_python_for_every_shipped_rulebook():
    compilation = rulesdsl.project.build.compile_project(ROOT)
    for rel, source in compilation.outputs.items():
        if rel.endswith(".py"):
            ast.parse(source)


# -- resolve gives a model; codegen writes the Python ----------------------------------
def _strings(value, depth=0):
    """Every str inside a resolved model's fields, through tuples and Effective wrappers (not into nodes)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, (tuple, list)) and depth < 3:
        for item in value:
            yield from _strings(item, depth + 1)


def test_resolve_produces_a_model_without_python_source():
    import dataclasses

    from rulesdsl.model import ir
    assert not [f.name for f in dataclasses.fields(ir.Resolved) if f.name.endswith("_code")]
    compilation = rulesdsl.project.build.compile_project(ROOT)
    assert compilation.resolved
    for resolved in compilation.resolved.values():
        for f in dataclasses.fields(resolved):
            for text in _strings(getattr(resolved, f.name)):
                assert not any(code in text for code in ("ctx", "lambda", "Fraction(", "_rt.")), (f.name, text)
        for definition, kind, rule, origin in resolved.definitions:
            assert kind in ("number", "bool", "odds") or kind.startswith("enum:"), kind


def test_the_checker_alone_writes_nothing_and_codegen_writes_python():
    from rulesdsl.checks.expressions import Checker
    compilation = compile_game(game("define x = max(n, 2) + count(attackers)", "define y = x * 2"))
    resolved = compilation.resolved["demo"]
    checker = Checker(resolved.vocabulary)
    checker.compile_definitions()
    assert checker.problems == [] and set(checker.sources.values()) == {None}
    assert checker.kinds == {"x": "number", "y": "number"}
    python = codegen.translate(resolved).definitions
    # whole numbers are int literals (exact beside Fractions), as the rulebook writes them
    assert python["x"] == "(max(ctx.amount('n'), 2) + _rt.count_where(ctx.attackers, None))"
    assert python["y"] == "(_def_x(ctx) * 2)"


def test_checking_errors_are_still_reported_by_resolve_with_positions():
    problems = errors(game("define x = nn + 1", "define y = y + 1"))
    assert [(p.message, p.span.line, p.span.column) for p in problems] == [
        ("unknown name 'nn'", 7, 14), ("definitions use each other in a cycle: y -> y", 8, 10)]


def test_a_table_cell_over_zero_is_a_positioned_error_not_an_internal_one():
    text = game() + '\ntable t "T" [G1.0] {\n  k 1 2\n  v 3/0 3\n}\n'
    [problem] = errors(text)
    assert problem.message == "'3/0' divides by zero"
    assert (problem.span.line, problem.span.column) == (11, 5)


def test_a_rounding_named_with_a_dot_or_hyphen_builds():
    for name, function in (("half.up", "round_half_up"), ("half-up", "round_half_up")):
        series = BASE.replace("rounding standard:", f"rounding {name}:")
        compilation = rulesdsl.compile_text(game("define x = round(n / 2)"), "rulebooks/demo.rules",
                                            ("rulebooks/base.rules", series))
        assert compilation.ok, [d.message for d in compilation.diagnostics]
        namespace: dict = {}
        exec(compile(compilation.outputs["generated/demo.py"], "demo", "exec"), namespace)
        assert namespace[function](Fraction_(5, 2)) == 3
        assert namespace["x"](combat(3)) == 2
