"""Every hint is correct: a hint that proposes concrete text is applied to the failing input, and
the error it came with must be gone, with no syntax error in its place.

The cases are the broken-rulebook corpus (tests/errors/*.rules, each beside tests/fixtures/base.rules)
and the extra cases below.  `apply` knows how to carry out each kind of proposal; a hint that proposes
text but that no rule of `apply` can carry out makes the test fail, unless it is one of the hints listed
in NOT_MECHANICAL with the reason it needs a person.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulesdsl.editor.fixes import fix
from rulesdsl.errors import Diagnostic, RulesError
from rulesdsl.language.source import Source
from rulesdsl.language.transform import parse
from rulesdsl.project.build import compile_project

from test_errors import CASES, _install

# Hints that propose text a program cannot choose: each needs the designer's knowledge.
NOT_MECHANICAL = {
    r"^write the game turn the phases are asked for": "which game turn an example asks about is the designer's choice",
    r"^give the rule its printed title: ": "the title is the one printed in the rules; the hint shows the form",
    r"add 'extends <series-id>'": "which series a game belongs to is the designer's choice",
    r"^add 'odds \S+ \.\.\.' to the table, or give the row 'line <name>'":
        "the odds of a new terrain line come from the printed chart",
    r"add 'max N'": "the maximum shift comes from the printed rules",
    r"^use 'both', or give the table an attacker side and a defender side":
        "whether the DRM applies to both sides or the table needs two sides is a rules question",
    r"^a rulebook starts with a header, like: ": "the header's id and title are the designer's",
    r"^add rows under 'hex:'": "the rows of a terrain chart come from the printed chart",
    r"^write 'odds open 1:2 1:1 \.\.\.'": "the names and odds of the terrain lines come from the printed chart",
    r"^merge them into one|merge the two": "which lines to keep is the designer's choice",
    r"^write them after (choice|order), like: ": "the words a parameter may take come from the printed rules",
    r"^give the playable hexes and their terrain, like: ": "an example's map comes from the printed figure",
    r"^give the lower-left hex first": "an example's map comes from the printed figure",
    r"^end it with ": "what the rules answer is the printed example's conclusion",
    r"^name the retreating units, then how many hexes": "the retreat comes from the printed example",
    r"^give the roll before the result": "the roll comes from the printed example",
    r"^like: attacker retreats 1 defender retreats 0": "which side retreats how far is the result's to say",
    r"^write '[0-9]+\+' for turn [0-9]+ and every later one, or '1-":
        "whether the turns run on to the game's end or stop there is the printed rules' to say",
}

# Hints that describe the problem or point elsewhere, without proposing text to write.
_PROPOSES = re.compile(r"did you mean '|write '|add |remove '|like: |such as '|nearest rules are |"
                       r"restate it|put the rest in a note|close the string|closing '\}'|use '|cannot be overridden|"
                       r"NE for no effect|use P |full cost, like |line like: |amend its rule: ")


def _lines(text: str) -> list[str]:
    return text.split("\n")


def apply(diagnostic: Diagnostic, files: dict[str, str]) -> dict[str, str] | None:
    """The files after carrying out the hint's proposal (the editor's code action), or None when no rule
    knows how.  One proposal the editor does not offer is carried out here too: a rule of the game's own
    that sets a parameter needs a rule number only the designer can choose, so the test invents one."""
    found = fix(diagnostic, files)
    if found is not None:
        return {**files, **found.files}
    hint, span = diagnostic.hint or "", diagnostic.span
    if (m := re.fullmatch(r"add a rule of the game's own that sets it, like: (\S+ = .+)", hint)) \
            and "..." not in m.group(1) and span.path in files:
        rule = ['', 'rule 99.0 "Added by the hint" {', '  summary "Sets what the series requires."',
                "  " + m.group(1), "}"]
        return {**files, span.path: files[span.path] + "\n" + "\n".join(rule)}
    return None


def _not_mechanical(hint: str) -> str | None:
    return next((why for pattern, why in NOT_MECHANICAL.items() if re.search(pattern, hint)), None)


def _check(root: Path, target: Path) -> list[Diagnostic]:
    return compile_project(root, [target]).diagnostics


def _files(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8", errors="replace")
            for p in (root / "rulebooks").rglob("*.rules")}


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).write_text(text, encoding="utf-8")


def _same(a: Diagnostic, b: Diagnostic) -> bool:
    """The same problem: a hint applied on its line may move its column, never its line."""
    return a.message == b.message and (a.span.path, a.span.line) == (b.span.path, b.span.line)


def verdict(project, target: Path, diagnostic: Diagnostic, diagnostics: list[Diagnostic],
            changed: dict[str, str]) -> str | None:
    """What is wrong once `changed` replaces the files, or None when the hint did its job: its error
    is gone and the file it changed still parses.  (Other errors may appear: a rule id the hint
    gave may reveal that the override must restate a parameter, with a hint of its own.)"""
    root = project.root
    original = _files(root)
    _write(root, changed)
    try:
        after = _check(root, target)
    finally:
        _write(root, original)
    if any(_same(diagnostic, d) for d in after):
        return f"still reported after applying {diagnostic.hint!r}: {diagnostic.message}"
    for path, text in changed.items():  # what the hint wrote must parse (if the file did before)
        if text != original.get(path) and _parses(path, original[path]) and not _parses(path, text):
            return f"applying {diagnostic.hint!r} makes {path} fail to parse"
    return None


def _parses(path: str, text: str) -> bool:
    try:
        parse(Source(path, text))
    except RulesError:
        return False
    return True


def check_every_hint(project, target: Path) -> list[str]:
    """Apply each proposing hint of `target`'s diagnostics on a fresh copy; the problems found."""
    original = _files(project.root)
    diagnostics = _check(project.root, target)
    problems = []
    for diagnostic in diagnostics:
        hint = diagnostic.hint or ""
        if not _PROPOSES.search(hint) or _not_mechanical(hint):
            continue
        changed = apply(diagnostic, original)
        if changed is None:
            problems.append(f"no way to apply: {hint!r} ({diagnostic.message})")
            continue
        problem = verdict(project, target, diagnostic, diagnostics, changed)
        if problem:
            problems.append(problem)
    return problems


@pytest.mark.parametrize("case", CASES)
def test_every_hint_of_the_corpus_applies(case, project):
    project.add_base()
    target = _install(project, case)
    assert check_every_hint(project, target) == []


GAME = 'game demo "Demo Game" version "1.0" extends base\n\n'

EXTRA = {
    # a chart given again without 'override': the hint's syntax must parse (it said 'override rounding rule')
    "redefine-tec": GAME + 'terrain effects chart "Again" {\n  hex:\n    open  1  ne\n}\n',
    "redefine-sequence": GAME + "sequence of play {\n  player turn {\n    movement  movement\n  }\n}\n",
    "redefine-rounding": GAME + "rounding standard: .50 up, keep fractions\n",
    "redefine-section": GAME + 'section rounding "Rounding" {\n  summary "Round halves down."\n}\n',
    # a result parameter: the hint offered '-', which does not parse in a parameter
    "result-parameter": GAME + 'override rule 7.4 {\n  summary "Below the table."\n'
                               "  combat.below_table = X2\n  combat.above_table = rightmost\n}\n",
    "unit-value": GAME + 'override rule 2.1a {\n  summary "More."\n  zoc.entry_cost = 2 hexes\n}\n',
    "unknown-parameter": GAME + 'rule 9.0 "Nine" {\n  summary "Nine."\n  stacking.limt = 3 steps\n}\n',
    "rounding-nothing": 'series other "Other" version "1.0"\n\nrounding standard: keep fractions\n',
    "summary-twice": GAME + 'rule 9.0 "Nine" {\n  summary "One."\n  summary "Two."\n}\n',
    "tec-costs": GAME + 'override terrain effects chart {\n  hex:\n    open  1  ne\n    woods  0  ne\n'
                        '    swamp  +1  ne\n}\n',
    # a game setting a series' parameter in a rule of its own: the fix moves it into an amendment
    "set-by-both": GAME + 'rule G1.0 "Cost" {\n  summary "Two left."\n  movement.minimum_move = 2 hexes\n}\n',
    "set-by-both-amended": GAME + 'amend rule 3.1e {\n  summary "Two hexes."\n}\n\n'
                                  'rule G1.0 "Cost" {\n  summary "Two left."\n  movement.minimum_move = 2 hexes\n}\n',
    "cases-without-otherwise": GAME + 'rule 9.0 "Nine" {\n  summary "Nine."\n  define edge {\n'
                                      '    attacker  when count(defenders) >= 3\n  }\n}\n',
}


@pytest.mark.parametrize("case", sorted(EXTRA))
def test_every_hint_of_the_extra_cases_applies(case, project):
    project.add_base()
    target = project.write(f"rulebooks/{case}.rules", EXTRA[case])
    diagnostics = _check(project.root, target)
    assert diagnostics, "the case is meant to be broken"
    assert any(_PROPOSES.search(d.hint or "") for d in diagnostics), [d.hint for d in diagnostics]
    assert check_every_hint(project, target) == []


def test_a_wrong_hint_is_caught(project):
    """The checker itself fails on the hint this issue found wrong: 'override rounding rule' does not parse."""
    project.add_base()
    target = project.write("rulebooks/demo.rules", EXTRA["redefine-rounding"])
    diagnostics = _check(project.root, target)
    diagnostic = next(d for d in diagnostics if "already defined" in d.message)
    wrong = Diagnostic(diagnostic.message, diagnostic.span, "write 'override rounding rule' to replace it")
    changed = apply(wrong, _files(project.root))
    assert changed is not None
    assert verdict(project, target, wrong, diagnostics, changed) is not None


# ---- regression tests for the hints issue 8 found wrong -------------------------------------------
_CHART_BLOCKS = {  # the smallest block of each chart kind, after its opening words
    "unit_types": " {\n  tank  armored\n}\n",
    "sequence": " {\n  player turn {\n    movement  movement\n  }\n}\n",
    "terrain": " {\n  hex:\n    open  1  ne\n}\n",
    "results": " dice 1d6 {\n  odds 1:1\n  1-6  A1\n}\n",
    "modifiers": " {\n  density  +1  defender  when count(defenders) >= 3\n}\n",
    "shifts": " {\n  engineers  1\n}\n",
    "adjustments": " {\n  ambush-losses  defender-steps  -1  when ambush\n}\n",
    "unit_factors": " {\n  dg-attack  attack  1/2  when dg\n}\n",
    "result_codes": " {\n  DE  defender loses all\n}\n",
}


def test_every_override_hint_is_syntax_the_grammar_accepts():
    """It said 'write override rounding rule', which does not parse; each chart's hint is now the
    opening words of its block in grammar.lark, and rounding (which has no override) gets none."""
    from rulesdsl.language.parser import parse_tree
    from rulesdsl.checks.resolve import _CHARTS, _OVERRIDE_SYNTAX
    assert set(_OVERRIDE_SYNTAX) | {"rounding"} == set(_CHARTS)
    for field, syntax in _OVERRIDE_SYNTAX.items():
        parse_tree(Source("x.rules", 'series x "X" version "1"\n\n' + syntax + _CHART_BLOCKS[field]))
    with pytest.raises(RulesError):
        parse_tree(Source("x.rules", 'series x "X" version "1"\n\noverride rounding standard: .50 up\n'))


def test_a_redefined_rounding_is_not_told_to_write_an_override(project):
    project.add_base()
    target = project.write("rulebooks/demo.rules", EXTRA["redefine-rounding"])
    [diagnostic] = _check(project.root, target)
    assert diagnostic.message.startswith("the rounding rule is already defined by base")
    assert "override" not in diagnostic.hint and "remove this one" in diagnostic.hint


def test_a_redefined_section_is_told_to_override_the_section(project):
    project.add_base()
    target = project.write("rulebooks/demo.rules", EXTRA["redefine-section"])
    [diagnostic] = _check(project.root, target)
    assert diagnostic.hint == "write 'override section rounding' to replace it in demo"


def test_the_result_parameter_hint_offers_what_parses_there(project):
    """It offered '-' for no effect, which a parameter value cannot be; NE is."""
    project.add_base()
    target = project.write("rulebooks/demo.rules", EXTRA["result-parameter"])
    [diagnostic] = _check(project.root, target)
    assert "- for no effect" not in diagnostic.hint and "NE for no effect" in diagnostic.hint
    with pytest.raises(RulesError):
        parse(Source("x.rules", EXTRA["result-parameter"].replace("= X2", "= -")))
    for value in ("NE", "leftmost", "A1D1", "Dr1"):
        project.write("rulebooks/demo.rules", EXTRA["result-parameter"].replace("= X2", "= " + value))
        assert _check(project.root, target) == [], value


def test_a_crt_cell_may_still_be_a_dash(project):
    """The CRT's own hint keeps '-': a cell is not a parameter value and '-' parses there."""
    project.add_base()
    target = project.write("rulebooks/demo.rules", GAME + "combat results table dice 1d6 {\n"
                           "  odds 1:1 2:1\n  1-3  A1  X2\n  4-6  -   D1\n}\n")
    [diagnostic] = [d for d in _check(project.root, target) if "combat result" in d.message]
    assert "- for no effect" in diagnostic.hint


SERIES_REQUIRING = '''series req "Requires" version "1.0"

rule 5.0 "Stacking" {
  summary "Every game sets its own stacking limit."
  requires stacking.limit
}
'''


def test_a_parameter_set_with_a_wrong_unit_is_not_also_missing(project):
    """`stacking.limit = 3 MP` gave the unit error and 'game sets no stacking.limit' besides."""
    project.write("rulebooks/req.rules", SERIES_REQUIRING)
    target = project.write("rulebooks/demo.rules", 'game demo "Demo" version "1.0" extends req\n\n'
                           'rule G1.0 "Stacking" {\n  summary "Three."\n  stacking.limit = 3 MP\n}\n')
    [diagnostic] = _check(project.root, target)
    assert diagnostic.message == "stacking.limit is measured in steps, not MP"
    assert diagnostic.hint == "write '3 steps'"
    assert check_every_hint(project, target) == []


def test_a_parameter_not_set_at_all_is_still_missing_with_a_hint_that_applies(project):
    project.write("rulebooks/req.rules", SERIES_REQUIRING)
    target = project.write("rulebooks/demo.rules", 'game demo "Demo" version "1.0" extends req\n')
    [diagnostic] = _check(project.root, target)
    assert diagnostic.message.startswith("game sets no stacking.limit")
    assert diagnostic.hint.endswith("like: stacking.limit = 1 step")
    assert check_every_hint(project, target) == []


def test_a_modifier_in_the_wrong_unit_is_told_its_sign(project):
    """`zoc.entry_cost = 2 hexes` was told to write '2 MP', which is the next error."""
    project.add_base()
    target = project.write("rulebooks/demo.rules", EXTRA["unit-value"])
    [diagnostic] = _check(project.root, target)
    assert diagnostic.hint == "write '+2 MP'"


TABLE_GAME = GAME + '''table odds-shift "Odds shift" [1.0] {
  level  1   2   3     4   5    6
  shift  +1  -1  1/2  -1/2  1.5  2
}
'''


def test_lookup_table_cells_are_numbers_whatever_their_sign():
    """Cells came back as a mix: '+1' a string, 1 an int."""
    import rulesdsl
    from fractions import Fraction
    from rulesdsl.cards.charts import card
    base = (Path(__file__).parent / "fixtures" / "base.rules").read_text(encoding="utf-8")
    compilation = rulesdsl.compile_text(TABLE_GAME, "rulebooks/demo.rules", ("rulebooks/base.rules", base))
    assert compilation.ok, [d.message for d in compilation.diagnostics]
    namespace: dict = {}
    exec(compile(compilation.outputs["generated/demo.py"], "demo.py", "exec"), namespace)
    table = namespace["table"]("odds-shift")
    assert [table(n) for n in range(1, 7)] == [1, -1, Fraction(1, 2), Fraction(-1, 2), Fraction(3, 2), 2]
    assert all(type(table(n)) in (int, Fraction) for n in range(1, 7))
    data, _ = card(compilation.resolved["demo"], "en", compilation.labels)
    [printed] = data["tables"]
    assert [c.text for c in printed["rows"][0]["cells"]] == ["+1", "-1", "1/2", "-1/2", "1.5", "2"]


def test_a_cell_that_divides_by_zero_is_an_error(project):
    project.add_base()
    target = project.write("rulebooks/demo.rules", TABLE_GAME.replace(" 1/2 ", " 1/0 "))
    [diagnostic] = _check(project.root, target)
    assert (diagnostic.message, diagnostic.span.line, diagnostic.span.column) == ("'1/0' divides by zero", 5, 18)
