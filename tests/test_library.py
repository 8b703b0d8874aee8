"""The series as a library, project settings, `rulesdsl new`, and standalone games (in-process;
tests/test_installed.py runs the same steps against a non-editable install)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import ROOT, python_in
from rulesdsl.project.build import compile_project
from rulesdsl.project.settings import Library, load_config, shipped_folder

GAME = '''game demo "Demo" version "1.0" extends scs-1.8

rule G1.0 "Stacking limit" {
  summary "Six steps."
  stacking.limit = 6 steps
}
'''

STANDALONE = '''game classic "Classic" version "1.0"

rounding standard: .50 up, keep fractions [rounding]

section rounding "Rounding" {
  summary "Half up."
}

terrain effects chart "TEC" {
  hex:
    clear   1  ne
    forest  2  Dx2
}

combat results table "CRT" [rounding] dice 1d6 {
  odds  1:1  2:1
  1-3   A1   A1
  4-6   D1   D1
}
'''


def _positioned(err: str, path: str) -> None:
    assert re.match(rf"{re.escape(path)}:\d+:\d+: error: ", err), err
    assert "Traceback" not in err


_import = python_in


# ---- the library ---------------------------------------------------------------------------------
def test_the_shipped_library_is_the_repository_series_folder():
    # in the source tree (and an editable install) the library is rulebooks/series itself: no copy
    assert shipped_folder() == ROOT / "rulebooks" / "series"
    assert Library().ids() == sorted(p.stem for p in (ROOT / "rulebooks" / "series").glob("*.rules"))


def test_a_project_anywhere_extends_a_shipped_series(project, capsys):
    project.write("rulebooks/demo.rules", GAME)
    code, out, err = project.run("build", capsys=capsys)
    assert code == 0, err
    # modules and cards for the project's own rulebook only; the module repeats what it inherits
    assert sorted(p.name for p in (project.root / "generated").glob("*.py")) == ["__init__.py", "demo.py"]
    assert (project.root / "generated" / "charts" / "demo.en.html").is_file()
    module = (project.root / "generated" / "demo.py").read_text(encoding="utf-8")
    assert "source='rulesdsl/library/scs-1.8.rules:" in module   # a stable name, not a machine's path
    assert _import(project.root, "from generated import demo; print(demo.odds(9.875, 2.125))") == "5:1\n"


def test_a_project_rulebook_with_a_library_id_wins_without_a_duplicate_error(project, capsys):
    project.write("rulebooks/scs-1.8.rules", 'series scs-1.8 "Local edition" version "9"\n\n'
                  'rounding standard: .50 up, keep fractions\n')
    project.write("rulebooks/demo.rules", 'game demo "Demo" version "1.0" extends scs-1.8\n')
    compilation = compile_project(project.root)
    assert compilation.ok, compilation.diagnostics
    assert compilation.library == set()          # the library's scs-1.8 was never read
    assert compilation.rulebooks["scs-1.8"].path == "rulebooks/scs-1.8.rules"
    assert sorted(compilation.resolved) == ["demo", "scs-1.8"]   # both are the project's own


def test_library_rulebooks_are_read_only_when_extended(project):
    project.write("rulebooks/classic.rules", STANDALONE)
    compilation = compile_project(project.root)
    assert compilation.ok, compilation.diagnostics
    assert compilation.library == set() and "scs-1.8" not in compilation.rulebooks
    project.write("rulebooks/demo.rules", 'game demo "Demo" version "1.0" extends new-scs\n\nrule G1.0 "S" {\n'
                  '  summary "Six."\n  stacking.limit = 6 steps\n}\n')
    compilation = compile_project(project.root)
    assert compilation.ok, compilation.diagnostics
    assert compilation.library == {"new-scs", "scs-1.8"}    # new-scs extends scs-1.8: read in turn
    assert sorted(compilation.resolved) == ["classic", "demo"]


def test_an_unknown_series_is_suggested_from_the_library(project, capsys):
    project.write("rulebooks/demo.rules", 'game demo "Demo" version "1.0" extends scs-18\n')
    code, out, err = project.run("check", capsys=capsys)
    assert code == 1
    _positioned(err, "rulebooks/demo.rules")
    assert "extends unknown rulebook 'scs-18'" in err and "hint: did you mean 'scs-1.8'?" in err


def test_the_repository_builds_from_its_own_series(capsys):
    compilation = compile_project(ROOT)
    assert compilation.ok
    assert compilation.library == set()
    assert all(not r.path.startswith("rulesdsl/") for r in compilation.rulebooks.values())


# ---- settings --------------------------------------------------------------------------------------
HOUSE = '''series house "House Series" version "2"

rounding standard: .50 up, keep fractions [rounding]

section rounding "Rounding" {
  summary "Half up."
}

rule 4.0 "Stacking" {
  summary "Each game sets it."
  requires stacking.limit
}
'''


def test_a_house_library_folder_and_a_package_name(project, capsys):
    house = project.root.parent / "house"
    house.mkdir()
    (house / "house.rules").write_text(HOUSE, encoding="utf-8")
    project.write("pyproject.toml", '[project]\nname = "mytitle"\n\n[tool.rulesdsl]\n'
                  'library = ["../house"]\npackage = "mytitle/rules"\n')
    project.write("rulebooks/mine.rules", 'game mine "Mine" version "1.0" extends house\n\nrule G1.0 "S" {\n'
                  '  summary "Two."\n  stacking.limit = 2 steps\n}\n')
    code, out, err = project.run("build", capsys=capsys)
    assert code == 0, err
    assert not (project.root / "generated").exists()
    assert (project.root / "mytitle" / "rules" / "charts" / "mine.en.html").is_file()
    assert _import(project.root, "from mytitle.rules import mine; print(mine.RULES['4.0'].source, "
                                 "mine.odds(3, 1))") == "../house/house.rules:9 3:1\n"
    code, out, err = project.run("build", "--check", capsys=capsys)
    assert code == 0 and "mytitle/rules/ is current" in out, err


def test_a_house_library_is_searched_before_the_shipped_one(project):
    house = project.root / "vendor"
    house.mkdir()
    (house / "scs-1.8.rules").write_text('series scs-1.8 "House edition" version "h"\n', encoding="utf-8")
    project.write("pyproject.toml", '[tool.rulesdsl]\nlibrary = ["vendor"]\n')
    project.write("rulebooks/demo.rules", 'game demo "Demo" version "1.0" extends scs-1.8\n')
    compilation = compile_project(project.root)
    assert compilation.ok, compilation.diagnostics
    assert compilation.rulebooks["scs-1.8"].path == "vendor/scs-1.8.rules"


def test_a_library_file_holds_the_rulebook_it_is_named_after(project, capsys):
    (project.root / "lib").mkdir()
    (project.root / "lib" / "house.rules").write_text('series other "Other" version "1"\n', encoding="utf-8")
    project.write("pyproject.toml", '[tool.rulesdsl]\nlibrary = ["lib"]\n')
    project.write("rulebooks/demo.rules", 'game demo "Demo" version "1.0" extends house\n')
    code, out, err = project.run("check", capsys=capsys)
    assert code == 1
    assert "lib/house.rules:1:8: error: library file lib/house.rules holds rulebook 'other', not 'house'" in err


@pytest.mark.parametrize("settings, where, message", [
    ('[tool.rulesdsl]\nlibary = []\n', "2:1", "unknown setting 'libary' in [tool.rulesdsl]"),
    ('[tool.rulesdsl]\npackage = "1x"\n', "2:11", "package must name a Python package folder, not '1x'"),
    ('[tool.rulesdsl]\npackage = "rulesdsl"\n', "2:11", "package must name a Python package folder"),
    ('[tool.rulesdsl]\nlibrary = "lib"\n', "2:1", "library must be a list of folder paths"),
    ('[tool.rulesdsl]\nlibrary = [\n  "nope",\n]\n', "3:3", "library folder 'nope' does not exist"),
    ('[tool.rulesdsl]\npackage = \n', "2:11", "not valid TOML: "),
    ('[tool]\nrulesdsl = 3\n', "1:1", "tool.rulesdsl must be a table"),
])
def test_wrong_settings_are_positioned_errors(project, capsys, settings, where, message):
    project.write("pyproject.toml", settings)
    project.write("rulebooks/classic.rules", STANDALONE)
    for command in (("check",), ("build",), ("new", "game", "other")):
        code, out, err = project.run(*command, capsys=capsys)
        assert code == 1, (command, err)
        assert err.startswith(f"pyproject.toml:{where}: error: {message}"), err
        assert "Traceback" not in err and "\n    " in err   # the source line is shown
        if command == ("build",):   # where the outputs would go is unknown: no folder is named
            assert err.endswith("\nnothing was written\n"), err
    assert not (project.root / "generated").exists() and not (project.root / "rulebooks" / "other.rules").exists()


def test_settings_default_without_a_tool_table(project):
    project.write("pyproject.toml", '[project]\nname = "x"\n')
    config = load_config(project.root)
    assert config.package == "generated" and config.library == Library()


# ---- standalone games -------------------------------------------------------------------------------
def test_a_standalone_game_builds_imports_and_computes(project, capsys):
    project.write("rulebooks/classic.rules", STANDALONE)
    code, out, err = project.run("build", capsys=capsys)
    assert code == 0, err
    out = _import(project.root, "from generated import classic as c\n"
                                "print(c.RULEBOOK['kind'], c.odds(5, 2), c.resolve(5, 2, roll=5).text, "
                                "c.entry_cost('forest'))")
    assert out == "game 3:1 D1 2.0\n"   # 5:2 rounds to 3:1, beyond the table: its right-most column


def test_a_standalone_game_without_charts_has_functions_that_say_so(project, capsys):
    project.write("rulebooks/bare.rules", 'game bare "Bare" version "1.0"\n')
    code, out, err = project.run("build", capsys=capsys)
    assert code == 0, err
    out = _import(project.root, "from generated import bare\n"
                                "for f in (lambda: bare.odds(1, 1), lambda: bare.entry_cost('x')):\n"
                                "    try: f()\n"
                                "    except LookupError as e: print(e)\n")
    assert out == "bare has no rounding rule\nbare has no Terrain Effects Chart\n"


# ---- rulesdsl new ---------------------------------------------------------------------------------------
def _new(root: Path, capsys, *args: str) -> tuple[int, str, str]:
    from rulesdsl.cli import main
    code = main(["-C", str(root), "new", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("series", ["scs-1.8", "new-scs", "vcs"])
def test_new_game_of_each_shipped_series_builds_as_it_is(tmp_path, capsys, series):
    code, out, err = _new(tmp_path, capsys, "game", "my-title", "--extends", series)
    assert code == 0, err
    assert out.startswith("wrote rulebooks/my-title.rules\nwrote pyproject.toml\nnext:\n  1. edit ")
    text = (tmp_path / "rulebooks" / "my-title.rules").read_text(encoding="utf-8")
    assert f"extends {series}\n" in text and text.startswith("# my-title: a game of ")
    from rulesdsl.cli import main
    assert main(["-C", str(tmp_path), "fmt", "--check"]) == 0
    capsys.readouterr()
    compilation = compile_project(tmp_path)
    assert compilation.ok, compilation.diagnostics
    assert sorted(compilation.resolved) == ["my-title"]
    assert "generated/my_title.py" in compilation.outputs


def test_the_starter_sets_what_the_series_requires(tmp_path, capsys):
    # the requirements come from the resolved series, not from a list in the compiler
    (tmp_path / "rulebooks").mkdir()
    (tmp_path / "rulebooks" / "house.rules").write_text(HOUSE.replace(
        "  requires stacking.limit\n", "  requires stacking.limit\n  requires zoc.entry_cost\n"), encoding="utf-8")
    code, out, err = _new(tmp_path, capsys, "game", "mine", "--extends", "house")
    assert code == 0, err
    text = (tmp_path / "rulebooks" / "mine.rules").read_text(encoding="utf-8")
    assert "stacking.limit = 1 step" in text and "zoc.entry_cost = +1 MP" in text and "see 4.0" in text
    assert compile_project(tmp_path).ok


def test_new_series_then_a_game_of_it(tmp_path, capsys):
    code, out, err = _new(tmp_path, capsys, "series", "house")
    assert code == 0, err
    assert "rulesdsl new game my-title --extends house" in out
    assert not (tmp_path / "pyproject.toml").exists()    # a series is a rulebook, not a project
    code, out, err = _new(tmp_path, capsys, "series", "house-variant", "--extends", "house")
    assert code == 0, err
    code, out, err = _new(tmp_path, capsys, "game", "mine", "--extends", "house-variant")
    assert code == 0, err
    assert "stacking.limit" in (tmp_path / "rulebooks" / "mine.rules").read_text(encoding="utf-8")
    code, out, err = _new(tmp_path, capsys, "game", "classic")
    assert code == 0, err
    compilation = compile_project(tmp_path)
    assert compilation.ok, compilation.diagnostics
    assert sorted(compilation.resolved) == ["classic", "house", "house-variant", "mine"]


def test_new_builds_a_card_and_a_module(tmp_path, capsys):
    code, out, err = _new(tmp_path, capsys, "game", "demo", "--extends", "scs-1.8")
    assert code == 0, err
    from rulesdsl.cli import main
    assert main(["-C", str(tmp_path), "build"]) == 0
    # the first build prints only what it wrote: no warning, no note about the series' examples
    out, err = capsys.readouterr()
    assert err == "" and all(line.startswith("wrote ") for line in out.splitlines()), (out, err)
    assert (tmp_path / "generated" / "charts" / "demo.en.html").is_file()
    # the placeholder stacking limit is the first amount that leaves the series' overrun examples answering
    # as they do (1 step refuses them)
    assert _import(tmp_path, "from generated import demo; print(demo.odds(9, 2), demo.STACKING_LIMIT)") == \
        "5:1 6 steps\n"


def test_a_game_of_a_series_variant_builds_quietly_too(tmp_path, capsys):
    """New SCS answers ten of SCS 1.8's expect lines otherwise (noted at new-scs); a game of New SCS that
    changes none of those answers itself gets no note for them."""
    code, out, err = _new(tmp_path, capsys, "game", "pontoon", "--extends", "new-scs")
    assert code == 0, err
    from rulesdsl.cli import main
    assert main(["-C", str(tmp_path), "build"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and all(line.startswith("wrote ") for line in out.splitlines()), (out, err)


def test_new_never_overwrites(tmp_path, capsys):
    (tmp_path / "rulebooks").mkdir()
    (tmp_path / "rulebooks" / "demo.rules").write_text("mine\n", encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "mine"\n', encoding="utf-8")
    code, out, err = _new(tmp_path, capsys, "game", "demo", "--extends", "scs-1.8")
    assert code == 2 and "rulebooks/demo.rules exists already; nothing was written" in err
    assert (tmp_path / "rulebooks" / "demo.rules").read_text(encoding="utf-8") == "mine\n"
    code, out, err = _new(tmp_path, capsys, "game", "other", "--extends", "scs-1.8")
    assert code == 0, err
    assert out.startswith("wrote rulebooks/other.rules\nnext:")     # the project's pyproject.toml is kept
    assert (tmp_path / "pyproject.toml").read_text(encoding="utf-8") == '[project]\nname = "mine"\n'


@pytest.mark.parametrize("args, message", [
    (("game", "x", "--extends", "scs18"), "no series 'scs18' in this project or the library; did you mean 'scs-1.8'?"),
    (("game", "Bad_Name"), "'Bad_Name' is not a rulebook id"),
    (("series", "s", "--extends", "zzz"), "no series 'zzz' in this project or the library; known: new-scs, "),
])
def test_new_refuses_what_it_cannot_write(tmp_path, capsys, args, message):
    code, out, err = _new(tmp_path, capsys, *args)
    assert code == 2 and message in err, err
    assert list(tmp_path.iterdir()) == []


def test_new_game_cannot_extend_a_game(tmp_path, capsys):
    assert _new(tmp_path, capsys, "game", "first")[0] == 0
    code, out, err = _new(tmp_path, capsys, "game", "second", "--extends", "first")
    assert code == 2 and "'first' is a game, not a series" in err


def test_diff_reads_a_library_rulebook_by_id(project, capsys):
    game = project.write("rulebooks/demo.rules", GAME)
    code, out, err = project.run("diff", "--resolved", "scs-1.8", str(game), capsys=capsys)
    assert code == 1, err
    assert "scs-1.8 1.8" in out and "[rules] added rule G1.0 Stacking limit" in out


@pytest.mark.parametrize("doc", ["README.md", "docs/language.md"])
def test_the_documented_settings_are_valid(doc, tmp_path):
    [block] = re.findall(r"```toml\n(.*?)```", (ROOT / doc).read_text(encoding="utf-8"), re.S)
    project = tmp_path / "project"
    (project / "rulebooks").mkdir(parents=True)
    (tmp_path / "house-series").mkdir()
    (project / "pyproject.toml").write_text(block, encoding="utf-8")
    config = load_config(project)
    assert config.package == "mytitle/rules" and config.module_prefix == "mytitle.rules"
    assert config.library.folders[0].path == project / "../house-series"


# ---- a library series' card, from a designer's project ----------------------------------------------------
def test_chart_prints_a_library_series_by_id_in_a_designer_project(tmp_path, capsys):
    """`rulesdsl chart scs-1.8` in a project outside the repository: the series is resolved for its card,
    whether a rulebook of the project extends it (scs-1.8) or not (vcs); nothing else changes."""
    assert _new(tmp_path, capsys, "game", "mytitle", "--extends", "scs-1.8")[0] == 0
    from rulesdsl.cli import main
    assert main(["-C", str(tmp_path), "chart", "scs-1.8", "--out", "-"]) == 0
    html = capsys.readouterr().out
    assert "<title>Standard Combat Series" in html and "<h2>Sequence of Play</h2>" in html and "Reminders" in html
    assert 'class="tec"' not in html        # the series' example TEC is not for the table
    assert main(["-C", str(tmp_path), "chart", "vcs", "--lang", "fr", "--out", str(tmp_path / "vcs.html")]) == 0
    assert "Variable Combat System" in (tmp_path / "vcs.html").read_text(encoding="utf-8")
    assert main(["-C", str(tmp_path), "chart", "mytitle", "--out", "-"]) == 0    # the game's own, as before
    assert "extends Standard Combat Series" in capsys.readouterr().out
    assert main(["-C", str(tmp_path), "chart", "scs-1.9"]) == 2
    err = capsys.readouterr().err
    assert "no rulebook 'scs-1.9' in this project (rulebooks: mytitle; library: new-scs, scs-1.8, vcs)" in err
    compilation = compile_project(tmp_path, library_ids=("scs-1.8",))
    assert compilation.ok and sorted(compilation.resolved) == ["mytitle", "scs-1.8"]
    assert sorted(compilation.outputs) == ["generated/__init__.py", "generated/mytitle.py"]   # no library module


def test_chart_of_a_library_id_prefers_the_projects_own_rulebook(project, capsys):
    project.write("rulebooks/scs-1.8.rules", 'series scs-1.8 "Local edition" version "9"\n\n'
                  'rounding standard: .50 up, keep fractions\n')
    code, out, err = project.run("chart", "scs-1.8", "--out", "-", capsys=capsys)
    assert code == 0, err
    assert "<title>Local edition" in out


def test_a_standalone_starter_resolves_a_combat_of_its_own_unit_type(tmp_path, capsys):
    """A standalone game declares the unit types its combats name: the starter's counters are infantry, so
    resolve_combat answers for them at once instead of 'unknown unit type' (issue 25)."""
    code, _, err = _new(tmp_path, capsys, "game", "classic")
    assert code == 0, err
    text = (tmp_path / "rulebooks" / "classic.rules").read_text(encoding="utf-8")
    assert "unit types [units] {\n  infantry\n}" in text
    from rulesdsl.cli import main
    assert main(["-C", str(tmp_path), "build"]) == 0
    assert _import(tmp_path, "from generated import classic\n"
                             "from rulesdsl.runtime import AttackingHex, Combat, Unit\n"
                             "combat = Combat((AttackingHex((Unit('infantry', attack=6),), 'clear'),), "
                             "(Unit('infantry', defense=2),), 'clear')\n"
                             "print(classic.resolve_combat(combat, 4).result.text)") == "D2\n"
