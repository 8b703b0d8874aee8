"""No input reaches exit 3: the fuzzer (tests/fuzzing.py) with its fixed budget, the oracle
it judges each input by, and regression tests for the failure classes it found."""
from __future__ import annotations

import time

import pytest

import fuzzing
from fuzzing import FAMILIES, Failure, check_output, claimed_by, run, run_all


# ---- the fuzzer, as CI runs it: its own job (`pytest -m fuzz`), each family in shards ----------------------
# About 1.4 s an input (check, build, import, diff and fmt each run): the thousand mutants take some 20 minutes
# of CPU. In shards, `-n auto` spreads them over every core; the tests' own command leaves them out (README).
SHARDS = {"mutants": 16, "blocks": 4, "huge": 2, "unicode": 2, "names": 2}
RUNS = [(family, shard) for family in FAMILIES for shard in range(SHARDS.get(family, 1))]


@pytest.mark.fuzz
@pytest.mark.parametrize("family, shard", RUNS,
                         ids=[f"{f}-{s + 1}of{SHARDS.get(f, 1)}" for f, s in RUNS])
def test_no_input_breaks_the_compiler(family, shard, tmp_path):
    everything = FAMILIES[family]()
    items = everything[shard::SHARDS.get(family, 1)]
    assert items, family
    start, cpu = time.perf_counter(), time.process_time()
    report = run_all(items, tmp_path)
    print(f"\nfuzz {family}: {report.counts[family]} inputs in {time.perf_counter() - start:.1f} s "
          f"({time.process_time() - cpu:.1f} s of CPU)")
    unclaimed = [f for f in report.failures if claimed_by(f) is None]
    classes: dict[str, Failure] = {}
    for failure in unclaimed:
        best = classes.get(failure.signature)
        if best is None or len(failure.input.content()) < len(best.input.content()):
            classes[failure.signature] = failure
    assert not classes, "\n" + "\n".join(str(f) for f in classes.values()) + \
        f"\n({len(unclaimed)} failing inputs; shrink them with: python tests/fuzzing.py --shrink)"


def test_the_shards_cover_every_input_of_every_family_once():
    for family in FAMILIES:
        shards = SHARDS.get(family, 1)
        assert sum(1 for f, _ in RUNS if f == family) == shards
    every = fuzzing.mutants()
    split = [i for s in range(SHARDS["mutants"]) for i in every[s::SHARDS["mutants"]]]
    assert sorted(i.name for i in split) == sorted(i.name for i in every) and len(split) == len(every)


def test_the_budget_is_about_a_thousand_mutants_of_every_corpus_file():
    items = fuzzing.mutants()
    assert len(items) == fuzzing.MUTANTS >= 1000
    corpus = fuzzing.corpus()
    assert {i.name.split(":")[0] for i in items} == set(corpus)
    originals = {fuzzing.project_path(rel): text.encode() for rel, text in corpus.items()}
    assert sum(i.content() != originals[i.target] for i in items) > 0.95 * len(items)
    # seeded: the same inputs on every run and every machine
    assert [i.content() for i in fuzzing.mutants(20)] == [i.content() for i in items[:20]]
    assert [i.content() for i in fuzzing.mutants(20, seed=1)] != [i.content() for i in items[:20]]


def test_a_mutant_project_holds_the_series_it_extends():
    corridor = next(i for i in fuzzing.mutants(30) if i.target == "rulebooks/games/corridor.rules")
    assert [path for path, _ in corridor.files] == [
        "rulebooks/games/corridor.rules", "rulebooks/series/new-scs.rules", "rulebooks/series/scs-1.8.rules"]
    demo = next(i for i in fuzzing.mutants(30) if i.target.endswith("demo-1.0.rules"))
    assert [path for path, _ in demo.files] == ["rulebooks/fixtures/diff/demo-1.0.rules",
                                                "rulebooks/series/scs-1.8.rules"]


def test_the_unmutated_game_template_builds(tmp_path):
    """Each family starts from rulebooks that build: a failure is the edit's, not the template's."""
    game = fuzzing._game("template", "the game template", fuzzing.GAME)
    assert run(game, tmp_path) == []
    assert (tmp_path / "project/generated/demo.py").is_file()


# The fuzz job's precondition for the corpus families, so it runs in that job (each file a test of its own,
# spread over the cores): every input goes through check, build, import, diff and fmt, two minutes of CPU.
@pytest.mark.fuzz
@pytest.mark.parametrize("rel", sorted(fuzzing.corpus()))
def test_each_unmutated_corpus_file_passes(rel, tmp_path):
    corpus = fuzzing.corpus()
    parents = [(fuzzing.project_path(p), corpus[p]) for p in fuzzing.lineage(rel, corpus)]
    item = fuzzing.make_input("template", rel, fuzzing.project_path(rel), corpus[rel], parents)
    with fuzzing.stage_cache():
        assert run(item, tmp_path) == [], rel


# ---- the oracle can fail ---------------------------------------------------------------
ITEM = fuzzing._game("oracle", "the game template", fuzzing.GAME)


def _kinds(failures: list[Failure]) -> list[str]:
    return [f.kind for f in failures]


def test_the_oracle_rejects_exit_3_escapes_and_unpositioned_errors():
    internal = "rulesdsl: internal error: KeyError: 'x'\nthis is a bug in rulesdsl, not in your rulebook\n"
    assert _kinds(check_output("check", 3, internal, None, ITEM, {})) == ["check-exit-3"]
    assert check_output("check", 3, internal, None, ITEM, {})[0].detail == "KeyError: 'x'"
    assert _kinds(check_output("check", None, "", RecursionError("deep"), ITEM, {})) == ["check-escaped"]
    assert _kinds(check_output("check", 2, "rulesdsl: error: usage", None, ITEM, {})) == ["check-exit-2"]
    assert _kinds(check_output("check", 1, "rulebooks/demo.rules: error: boom\n", None, ITEM, {})) == \
        ["check-unpositioned"]
    assert _kinds(check_output("check", 1, "rulebooks/demo.rules:0:0: error: boom\n", None, ITEM, {})) == \
        ["check-unpositioned"]
    assert _kinds(check_output("check", 1, "1 rulebook checked: 1 error\n", None, ITEM, {})) == \
        ["check-no-error-reported"]
    assert _kinds(check_output("check", 1, "x.rules:9:1: error: past\n", None, ITEM, {"x.rules": 3})) == \
        ["check-position-past-end"]
    assert _kinds(check_output("check", 1, "a\x1b[31mb.rules:1:1: error: x\n", None, ITEM, {})) == \
        ["check-terminal-control-characters"]
    positioned = ("rulebooks/demo.rules:2:3: error: boom\n    2 |   x\n      |   ^\n"
                  "hint: rulebooks/demo.rules: error: looks like one\n1 rulebook checked: 1 error\n")
    assert check_output("check", 1, positioned, None, ITEM, {"rulebooks/demo.rules": 5}) == []


def test_the_oracle_rejects_a_build_whose_module_does_not_import(tmp_path, monkeypatch):
    """The oracle itself: with the build's own module check bypassed, a module that does not import,
    lacks RULES or does not compile is caught."""
    import rulesdsl.project.passes
    checked_module = rulesdsl.project.passes.checked_module

    def bypass(extra):
        def patched(resolved, imported_before=None):
            source, _, problems = checked_module(resolved)
            return (None if source is None else source + extra), None, problems
        return patched

    monkeypatch.setattr(rulesdsl.project.passes, "checked_module", bypass("\nraise RuntimeError('broken module')\n"))
    failures = run(ITEM, tmp_path)
    assert {f.kind for f in failures} == {"module-does-not-import"}
    assert "RuntimeError: broken module" in failures[0].detail
    monkeypatch.setattr(rulesdsl.project.passes, "checked_module", bypass("\ndel RULES\n"))
    assert {f.kind for f in run(ITEM, tmp_path)} == {"module-without-RULES"}
    monkeypatch.setattr(rulesdsl.project.passes, "checked_module", bypass("\nx = (" + "\n"))
    assert {f.kind for f in run(ITEM, tmp_path)} == {"module-does-not-compile"}


def test_the_build_itself_stops_a_module_that_does_not_import(tmp_path, monkeypatch):
    """With the module check in place, the same broken generator stops the build: exit 1 with a
    positioned internal error, and nothing is written."""
    import rulesdsl.modules.modcheck
    generate = rulesdsl.modules.modcheck.generate
    monkeypatch.setattr(rulesdsl.modules.modcheck, "generate",
                        lambda resolved: generate(resolved) + "\nraise RuntimeError('broken module')\n")
    failures = run(ITEM, tmp_path)
    assert {f.kind for f in failures} == {"check-internal-error"}
    assert "does not import: RuntimeError: broken module" in failures[0].detail


def test_the_oracle_rejects_fmt_output_that_does_not_parse_or_means_something_else(tmp_path, monkeypatch):
    import rulesdsl.language.fmt
    monkeypatch.setattr(rulesdsl.language.fmt, "format_source", lambda source: source.text + "\n  # indented\n}\n")
    assert _kinds(run(ITEM, tmp_path)) == ["fmt-output-does-not-parse"]
    monkeypatch.setattr(rulesdsl.language.fmt, "format_source", lambda source: source.text.replace("6 steps", "7 steps"))
    assert _kinds(run(ITEM, tmp_path)) == ["fmt-changes-the-model"]
    monkeypatch.setattr(rulesdsl.language.fmt, "format_source", lambda source: source.text + "\n\n\n")
    assert _kinds(run(ITEM, tmp_path)) == ["fmt-not-idempotent"]


def test_the_stage_cache_puts_everything_back():
    import rulesdsl.language.fmt
    import rulesdsl.project.build
    import rulesdsl.project.passes
    passes, build = rulesdsl.project.passes, rulesdsl.project.build
    before = (passes.parse, passes.check, build.parse, build.check, rulesdsl.language.fmt.parse)
    with fuzzing.stage_cache():
        assert passes.parse is not before[0] and build.parse is not before[2]
    assert (passes.parse, passes.check, build.parse, build.check, rulesdsl.language.fmt.parse) == before


def test_the_issue_reproducers_end_in_a_build_or_a_positioned_error(tmp_path):
    """Each reproducer the issue lists (and the fuzzer found) passes every check of the fuzzer."""
    def game(old, new):
        return fuzzing._game("claimed", new, fuzzing.GAME.replace(old, new, 1))
    reproducers = [
        fuzzing._game("claimed", "CR line endings", fuzzing.GAME.replace("\n", "\r")),
        fuzzing._game("claimed", "form feed", fuzzing.GAME.replace("\n\n", "\n\f\n")),
        game('  note "A note."', '  note "A note."\n  # indented comment'),
        game('  note "A note."', '  note "A note."\n   '),
        game("define two = 1 + 1", "define class = 1"),
        game("define two = 1 + 1", "define a-b = 1\n  define a_b = 2"),
        game("define two = 1 + 1", "define round_from = 1"),
        game("define two = 1 + 1", "define _ = 1"),
        game("game demo", "game class"),
        game("6 steps", "9" * 4301 + " steps"),
        game("define two = 1 + 1", "define two = " + " + ".join(["1"] * 201)),
        game("define two = 1 + 1", "define two = " + " + ".join(["1"] * 500)),
        game('  note "A note."', '  summary "Two summaries."\n  see nowhere'),
        game("Six steps", "Six \x1b[31msteps"),
    ]
    assert fuzzing.KNOWN_CLAIMED == []
    for item in reproducers:
        failures = run(item, tmp_path)
        assert failures == [], (item.name, [f.detail[:300] for f in failures])


# ---- regression tests for what the fuzzer found ----------------------------------------
def test_a_multiplier_dividing_by_zero_is_a_positioned_error(project, capsys):
    project.add_base()
    text = (fuzzing.ROOT / "tests/fixtures/base.rules").read_text(encoding="utf-8").replace("Dx2", "Dx1/0")
    project.write("rulebooks/base.rules", text)
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1
    assert err.startswith("rulebooks/base.rules:50:30: error: 'Dx1/0' is not a multiplier\n")
    assert "  |                              ^~~~~\n" in err


def test_a_table_without_cites_keeps_its_first_line(project, capsys):
    """Both a table's cites and its lines were tuples of texts, so with no cites its first line
    was read as cites: an error about rule 'level', or, when the cells were rule ids, a table
    silently missing its header."""
    from rulesdsl.language.source import Source
    from rulesdsl.language.transform import parse
    table = fuzzing.GAME + 'table supply "Supply" {\n  level 1 2-3\n  hexes 4 3\n}\n'
    model = parse(Source("demo.rules", table))
    assert [t.value for t in model.tables[0].header] == ["level", "1", "2-3"] and model.tables[0].cites == ()
    assert [[t.value for t in row] for row in model.tables[0].rows] == [["hexes", "4", "3"]]
    ids = parse(Source("demo.rules", fuzzing.GAME + 'table t "T" {\n  G1.0 G2.0\n  x 1\n}\n')).tables[0]
    assert ids.cites == () and [t.value for t in ids.header] == ["G1.0", "G2.0"]
    cited = parse(Source("demo.rules", fuzzing.GAME + 'table t "T" [G1.0] {\n  level 1\n  x 1\n}\n')).tables[0]
    assert [t.value for t in cited.cites] == ["G1.0"] and [t.value for t in cited.header] == ["level", "1"]
    project.add_base()
    project.write("rulebooks/demo.rules", table)
    assert project.run("check", capsys=capsys)[0] == 0
    project.write("rulebooks/demo.rules", fuzzing.GAME + 'table lone "One line" {\n  a\n}\n')
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1 and err.startswith("rulebooks/demo.rules:25:3: error: a table's first row names its key")


def test_a_definition_without_cases_is_a_positioned_error(project, capsys):
    project.add_base()
    project.write("rulebooks/demo.rules",
                  fuzzing.GAME.replace("  define two = 1 + 1", "  define two {\n  }"))
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1
    assert err.startswith("rulebooks/demo.rules:11:10: error: definition 'two' has no cases\n")


def test_the_readme_states_the_fuzzers_budget():
    """The README says how many inputs CI runs: the number the families make."""
    from conftest import ROOT
    total = sum(len(family()) for family in FAMILIES.values())
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"{total:,} inputs" in readme, total
