"""Precedence: a game over a series variant over the base series, with provenance."""
from conftest import FIXTURES

import rulesdsl

BASE = (FIXTURES / "base.rules").read_text(encoding="utf-8")
VARIANT = '''series variant "Variant Series" version "2.0" extends base

override rule 6.0c {
  summary "Variant: overrun targets may cost up to 3 MP."
  overrun.max_target_cost = 3 MP
}

override rule 2.1a "Entering an enemy ZOC (variant)" {
  summary "Variant: entering an enemy ZOC costs one extra MP."
  zoc.entry_cost = +1 MP
}

rule 20.0 "Variant rule" {
  summary "A rule only the variant has."
}
'''
GAME = '''game title "A Title" version "1.0" extends variant

override rule 6.0c {
  summary "Game: overrun targets may cost up to 1 MP."
  overrun.max_target_cost = 1 MP
}

rule G1.0 "Stacking" {
  summary "Five steps."
  stacking.limit = 5 steps
}
'''


def _compile():
    compilation = rulesdsl.compile_text(GAME, "rulebooks/title.rules", ("rulebooks/variant.rules", VARIANT),
                                        ("rulebooks/base.rules", BASE))
    assert compilation.ok, [d.message for d in compilation.diagnostics]
    namespace: dict = {}
    exec(compile(compilation.outputs["generated/title.py"], "title.py", "exec"), namespace)
    return compilation, namespace


def test_game_over_variant_over_base():
    compilation, game = _compile()
    rules = game["RULES"]
    assert game["RULEBOOK"]["extends"] == ("variant", "base")           # nearest first
    assert (rules["6.0c"].origin, rules["6.0c"].source) == ("title", "rulebooks/title.rules:3")
    assert (rules["2.1a"].origin, rules["2.1a"].source) == ("variant", "rulebooks/variant.rules:8")
    assert rules["2.1a"].title == "Entering an enemy ZOC (variant)"
    assert (rules["3.1e"].origin, rules["3.1e"].source) == ("base", "rulebooks/base.rules:20")
    assert rules["20.0"].origin == "variant"
    assert rules["6.0c"].title == "Overrun target hexes"                 # an override may keep the title
    assert game["OVERRUN_MAX_TARGET_COST"] == 1
    assert game["entry_cost"]("open", ezoc=True) == 2                    # the variant's +1 MP
    parameter = game["PARAMETERS"]["zoc.entry_cost"]
    assert (parameter.rule, parameter.origin) == ("2.1a", "variant")
    # the variant's own module sees its own values
    variant: dict = {}
    exec(compile(compilation.outputs["generated/variant.py"], "variant.py", "exec"), variant)
    assert variant["OVERRUN_MAX_TARGET_COST"] == 3 and variant["RULEBOOK"]["extends"] == ("base",)


def test_rule_order_is_printed_order():
    _, game = _compile()
    numbered = [r for r in game["RULES"] if r[0].isdigit() or r[0] == "G"]
    assert numbered == ["1.0", "2.1a", "3.1e", "6.0c", "7.4", "20.0", "G1.0"]
