"""A designer's title, against a non-editable install, in a folder outside the repository.

Once per session a wheel is built from a copy of the sources and installed (no editable link) into a
fresh virtual environment; its only other path is the test environment's site-packages, for the
dependencies.  The steps are the README's "Your own title" block, run line by line as written.
Skipped only when pip itself is missing; a failure to build or install fails.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from conftest import ROOT

MARK = "<!-- your-own-title -->"
WHEEL: list[Path] = []     # the wheel the `installed` fixture built


def readme_steps() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(re.escape(MARK) + r"\s*```sh\n(.*?)```", text, re.S)
    assert match, f"README.md has no shell block after {MARK}"
    return [line for line in match.group(1).splitlines() if line.strip() and not line.startswith("#")]


def expected_status(step: str) -> int:
    """The exit status a step of the README's block says it ends with (`# exit status 1: ...`), else 0."""
    said = re.search(r"#\s*exit status (\d+)", step)
    return int(said.group(1)) if said else 0


def _run(args: list[str], **kwargs) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, **kwargs)


@pytest.fixture(scope="session")
def installed(tmp_path_factory) -> Path:
    """The bin/ folder of a virtual environment with rulesdsl installed from a wheel."""
    if _run([sys.executable, "-m", "pip", "--version"]).returncode != 0:
        pytest.skip("pip is not available to build and install a wheel")
    base = tmp_path_factory.mktemp("installed")
    source = base / "source"   # a clean copy: the build writes nothing into the worktree
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "rulesdsl", source / "rulesdsl", ignore=ignore)
    shutil.copytree(ROOT / "rulebooks" / "series", source / "rulebooks" / "series")
    shutil.copytree(ROOT / "docs", source / "docs")
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source / name)
    wheels = base / "wheels"
    build = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(source)])
    assert build.returncode == 0, build.stdout + build.stderr
    [wheel] = wheels.glob("rulesdsl-*.whl")
    WHEEL[:] = [wheel]
    venv = base / "venv"
    made = _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    install = _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index",
                    "-q", str(wheel)])
    assert install.returncode == 0, install.stdout + install.stderr
    # the dependencies (lark, jinja2, ...) come from the test environment; rulesdsl does not
    purelib = _run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip()
    Path(purelib, "test-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    where = _run([str(python), "-c", "import rulesdsl; print(rulesdsl.__file__)"], cwd=base)
    assert where.returncode == 0, where.stderr
    assert Path(where.stdout.strip()).is_relative_to(venv), where.stdout   # the wheel's copy, not the worktree
    return venv / "bin"


def test_the_wheel_ships_the_series_library(installed, tmp_path):
    python = installed / "python"
    run = _run([str(python), "-c", "from rulesdsl.project.settings import Library, shipped_folder\n"
                                   "print(shipped_folder().as_posix()); print(Library().ids())"], cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    folder, ids = run.stdout.splitlines()
    assert folder.endswith("site-packages/rulesdsl/library")
    assert ids == str(sorted(p.stem for p in (ROOT / "rulebooks" / "series").glob("*.rules")))
    for path in Path(folder).glob("*.rules"):   # the same text as the repository's, not a drifting copy
        assert path.read_bytes() == (ROOT / "rulebooks" / "series" / path.name).read_bytes()


def test_the_wheel_ships_the_core_vocabulary_its_declarations_point_at(installed, tmp_path):
    """The core parameters are declared where the installed package holds their file (the language server's
    go-to-definition opens it), and it is the repository's text."""
    run = _run([str(installed / "python"), "-c",
                "from rulesdsl.model.catalogue import CORE_PARAMETERS\n"
                "print(CORE_PARAMETERS['stacking.limit'].span.path)"], cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    path = Path(run.stdout.strip())
    assert path.as_posix().endswith("site-packages/rulesdsl/core/vocabulary.rules"), path
    assert path.read_bytes() == (ROOT / "rulesdsl" / "core" / "vocabulary.rules").read_bytes()


def test_the_wheel_holds_the_licence_the_guide_and_its_metadata(installed, tmp_path):
    import zipfile
    [wheel] = WHEEL
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        metadata = archive.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
        guide = archive.read("rulesdsl/docs/language.md")
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names), names
    assert any(n.endswith("LICENSE-DejaVu.txt") for n in names)
    assert guide == (ROOT / "docs" / "language.md").read_bytes()
    assert "License-Expression: MIT" in metadata
    assert "Classifier: Topic :: Games/Entertainment :: Board Games" in metadata
    for requirement in ("weasyprint<71,>=60", "babel<3,>=2.12", "rich<16,>=13"):
        assert f"Requires-Dist: {requirement}" in metadata, metadata
    # the installed commands read what the wheel holds: the guide, and the reference it was released with
    docs = _run([str(installed / "rulesdsl"), "docs"], cwd=tmp_path)
    assert docs.returncode == 0 and docs.stdout == (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    where = _run([str(installed / "rulesdsl"), "docs", "--path"], cwd=tmp_path)
    assert where.stdout.strip().endswith("site-packages/rulesdsl/docs/language.md"), where.stdout
    reference = _run([str(installed / "rulesdsl"), "reference"], cwd=tmp_path)
    assert reference.returncode == 0, reference.stderr
    assert reference.stdout == (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")


def test_a_starter_builds_quietly_from_the_installed_package(installed, tmp_path):
    """The first half hour: `rulesdsl new game demo --extends scs-1.8 && rulesdsl build` prints only what it
    wrote."""
    new = _run([str(installed / "rulesdsl"), "new", "game", "demo", "--extends", "scs-1.8"], cwd=tmp_path)
    assert new.returncode == 0, new.stderr
    build = _run([str(installed / "rulesdsl"), "build"], cwd=tmp_path, env={**os.environ, "NO_COLOR": "1"})
    assert build.returncode == 0, build.stderr
    assert build.stderr == ""
    assert build.stdout.splitlines() and all(line.startswith("wrote ") for line in build.stdout.splitlines())


def test_your_own_title_as_the_readme_shows_it(installed, tmp_path):
    steps = readme_steps()
    for expected in ("rulesdsl new game demo --extends scs-1.8", "rulesdsl build", "rulesdsl diff "):
        assert any(step.startswith(expected) for step in steps), expected
    folder = tmp_path / "my-title"   # empty, outside the repository
    folder.mkdir()
    env = {**os.environ, "PATH": f"{installed}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("PYTHONPATH", None)
    outputs = {}
    for step in steps:
        run = _run(["bash", "-c", step], cwd=folder, env=env)
        assert "Traceback" not in run.stderr, (step, run.stderr)
        assert run.returncode == expected_status(step), (step, run.stdout, run.stderr)   # as the README says
        outputs[step.split()[0] + " " + step.split()[1]] = run.stdout
    assert (folder / "generated" / "demo.py").is_file()
    assert (folder / "generated" / "charts" / "demo.en.html").is_file()
    assert (folder / "generated" / "charts" / "demo.en.pdf").read_bytes().startswith(b"%PDF")
    assert outputs["python -c"] == "5:1\n"
    assert re.search(r"\[rules\] The most steps that may stack in one hex: 6 steps -> 3 steps\n",
                     outputs["rulesdsl diff"]), \
        outputs["rulesdsl diff"]
    # and what the smaller limit does: the series' overrun examples now answer otherwise (as the README says)
    assert "scs-1.8's example E10. Overrun example: 5 MPs in 11.08: expect overrun 5 6 from 11.08 on 10.08: " \
           "allowed cost 5 -> refused" in outputs["rulesdsl diff"], outputs["rulesdsl diff"]
    # the module repeats what it inherits, naming the library file by a machine-independent path
    assert "source='rulesdsl/library/scs-1.8.rules:" in (folder / "generated" / "demo.py").read_text(encoding="utf-8")


# ---- the "Done when" item 2: a classic game of its own, against the installed package ----------
CLASSIC_CHECKS = '''\
from generated import classic as c
from rulesdsl.runtime import AttackingHex, Combat, Unit

def attack(terrain, *hexes, roll=4, defense=2):
    combat = Combat(attacking_hexes=tuple(AttackingHex((Unit("infantry", attack=a),), hexsides=h) for a, h in hexes),
                    defenders=(Unit("infantry", defense=defense),), defender_terrain=terrain)
    return c.resolve_combat(combat, roll)

def show(name, r):
    print(name, r.column, r.result.text, r.result.exchange, r.result.defender_eliminated, r.result.not_allowed,
          r.shift, "; ".join(str(s) for s in r.shifts))

show("exchange", attack("clear", (8, ())))
show("eliminated", attack("clear", (12, ()), roll=1))
show("below", attack("clear", (3, ()), defense=4))
show("forest", attack("forest", (8, ())))
show("fortified-forest", attack(("forest", "fortification"), (8, ())))
show("all-across", attack("clear", (4, ("river",)), (4, ("river",))))
show("one-not-across", attack("clear", (4, ("river",)), (4, ())))
print("costs", c.entry_cost("clear"), c.entry_cost("forest"), c.entry_cost("clear", ("river",)),
      c.entry_cost("clear", ("river", "bridge")))
print("german", " ".join(p.name for p in c.PLAYER_TURNS["german"]))
print("soviet", " ".join(p.name for p in c.PLAYER_TURNS["soviet"]))
'''


def test_a_classic_game_of_its_own_builds_and_resolves_with_the_installed_cli(installed, tmp_path):
    from test_tec_hexsides import CLASSIC
    folder = tmp_path / "classic"     # outside the repository, no series anywhere in it
    (folder / "rulebooks").mkdir(parents=True)
    (folder / "rulebooks" / "classic.rules").write_text(CLASSIC, encoding="utf-8")
    env = {**os.environ, "PATH": f"{installed}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("PYTHONPATH", None)
    build = _run(["rulesdsl", "build"], cwd=folder, env=env)
    assert build.returncode == 0 and "Traceback" not in build.stderr, build.stdout + build.stderr
    assert (folder / "generated" / "charts" / "classic.fr.html").is_file()
    run = _run([str(installed / "python"), "-c", CLASSIC_CHECKS], cwd=folder, env=env)
    assert run.returncode == 0, run.stderr
    lines = dict(line.split(" ", 1) for line in run.stdout.splitlines())
    assert lines["exchange"] == "4:1 EX True False False 0 "
    assert lines["eliminated"] == "6:1 DE False True False 0 "
    assert lines["below"] == "None NA False False True 0 "                    # 3:4, below 1:1: not allowed
    assert lines["forest"] == "3:1 AL False False False -1 terrain: -1 [7.3]"
    assert lines["fortified-forest"] == "2:1 AL False False False -2 terrain: -2 [7.3]"   # cumulative
    assert lines["all-across"] == "3:1 AL False False False -1 river (every attacker across): -1 [7.3]"
    assert lines["one-not-across"] == "4:1 EX True False False 0 "
    assert lines["costs"] == "1.0 2.0 2.0 1.0"
    assert lines["german"] == "replacements movement combat mechanized-movement"
    assert lines["soviet"] == "replacements rail-movement movement combat"


# a publisher's house series on the shipped New SCS (itself on scs-1.8): it prints the CRT and sets the
# stacking limit scs-1.8 requires, so that a game of it can say nothing but its two corrections
ERRATA_HOUSE = '''series house "House rules" version "1.0" extends new-scs

rule H1.0 "Stacking limit" {
  summary "Up to five steps may stack in one hex."
  stacking.limit = 5 steps
}
'''

ERRATA_GAME = '''game errata "Errata" version "1.0" extends house

amend rule 7.4 {
  combat.below_table = A2
}

amend combat results table {
  odds  3:1
  4     D2r2
}
'''


def test_a_game_amending_one_cell_and_one_parameter_owns_exactly_those(installed, tmp_path):
    """Done-when 3 against the installed package: one CRT cell and one parameter amended, and exactly
    those two items are the game's own in its module, on its card and in `diff --resolved`."""
    folder = tmp_path / "errata-title"    # outside the repository
    (folder / "rulebooks").mkdir(parents=True)
    (folder / "rulebooks" / "house.rules").write_text(ERRATA_HOUSE, encoding="utf-8")
    (folder / "rulebooks" / "errata.rules").write_text(ERRATA_GAME, encoding="utf-8")
    env = {**os.environ, "PATH": f"{installed}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("PYTHONPATH", None)

    def run(*args: str, code: int = 0) -> str:
        done = _run(list(args), cwd=folder, env=env)
        assert "Traceback" not in done.stderr, (args, done.stderr)
        assert done.returncode == code, (args, done.stdout, done.stderr)
        return done.stdout

    run("rulesdsl", "build")
    # the module: one parameter and one cell carry the game's origin, nothing else
    own = run(str(installed / "python"), "-c",
              "from generated import errata\n"
              "print([p.name for p in errata.PARAMETERS.values() if p.origin == 'errata'])\n"
              "print([r for r in errata.RULES if errata.RULES[r].origin == 'errata'])\n"
              "print(errata.CRT.result('3:1', 4).text, errata.CRT.result('4:1', 4).text)")
    assert own.splitlines() == ["['combat.below_table']", "[]", "D2r2 D1r1"]
    module = (folder / "generated" / "errata.py").read_text(encoding="utf-8")
    assert [line.strip() for line in module.splitlines() if "amended by" in line] == [
        "# cell 3:1 x 4: D2r2, amended by errata (rulebooks/errata.rules:9)"]
    # the card: the one cell is marked where it is printed, and the two items are listed
    html = (folder / "generated" / "charts" / "errata.en.html").read_text(encoding="utf-8")
    assert re.findall(r'<td class="cell own">([^<]*)<sup', html) == ["D2r2"]
    listed = re.search(r'<section class="chart panel exceptions" id="exceptions">(.*?)</section>', html, re.S)
    assert listed is not None
    items = [re.sub(r"<[^>]+>", "", item) for item in re.findall(r'<li><span class="rule">(.*?)</ul></li>',
                                                                 listed.group(1), re.S)]
    assert items == ["7.4Odds Determination (amended)The result of an attack below the left-most odds column "
                     "(no roll): A2 (series: A1)",
                     "7.4Combat Results Table (amended)3:1 column, roll 4: D2r2"]
    # diff --resolved against the house series: those two changes and no other
    out = run("rulesdsl", "diff", "--resolved", "house", "rulebooks/errata.rules", "--format", "json", code=1)
    import json
    changes = [c for c in json.loads(out)["changes"] if c["area"] not in ("rulebook", "examples")]
    assert [(c["what"], c["old"], c["new"]) for c in changes] == [
        ("3:1 x 4", "D1r1", "D2r2"), ("combat.below_table", "A1", "A2")]     # the CRT is filed under 7.1
    # the inherited example they make answer otherwise (New SCS A5's attack below the table) comes apart
    assert {c["new"] for c in json.loads(out)["changes"] if c["area"] == "examples"} == {"odds 1:3 roll 7 result A2"}
    # and the shipped series' own card, by id, from this folder
    assert "<title>Standard Combat Series" in run("rulesdsl", "chart", "scs-1.8", "--out", "-")


def test_the_installed_library_is_cited_where_it_is_installed(installed, tmp_path):
    """Diagnostics, diff and explain cited `rulesdsl/library/scs-1.8.rules, line 462`, a path that is nowhere
    from where the user stands: they name the installed file, which opens at that line."""
    folder = tmp_path / "cited"
    (folder / "rulebooks").mkdir(parents=True)
    game = ('game g "G" version "1" extends scs-1.8\n\nrule G1.0 "Stacking" {\n  summary "s"\n'
            '  stacking.limit = 6 steps\n}\n')
    (folder / "g-1.1.rules").write_text(game.replace("6 steps", "3 steps"), encoding="utf-8")
    (folder / "rulebooks" / "g.rules").write_text(game + 'rule 1.0 "Mine" {\n  summary "x"\n}\n', encoding="utf-8")
    env = {**os.environ, "PATH": f"{installed}{os.pathsep}{os.environ.get('PATH', '')}", "NO_COLOR": "1"}
    env.pop("PYTHONPATH", None)
    library = Path(_run([str(installed / "python"), "-c", "from rulesdsl.project.settings import shipped_folder; "
                         "print(shipped_folder())"], cwd=folder).stdout.strip()) / "scs-1.8.rules"
    assert library.is_file() and library.is_relative_to(installed.parent)
    lines = library.read_text(encoding="utf-8").split("\n")

    check = _run(["rulesdsl", "check"], cwd=folder, env=env)
    assert check.returncode == 1, check.stderr
    cited = re.search(r"already defined by scs-1\.8 \((.*?):(\d+)\)", check.stderr)
    assert cited and Path(cited.group(1)) == library, check.stderr
    assert lines[int(cited.group(2)) - 1].startswith("rule 1.0 ")
    (folder / "rulebooks" / "g.rules").write_text(game, encoding="utf-8")

    diff = _run(["rulesdsl", "diff", "rulebooks/g.rules", "g-1.1.rules"], cwd=folder, env=env)
    assert diff.returncode == 1, diff.stderr
    details = re.findall(r"^\s+- (.*), line (\d+)$", diff.stdout, re.M)
    assert details and {Path(path) for path, _ in details} == {library}, diff.stdout
    assert all(lines[int(line) - 1].lstrip().startswith("expect ") for _, line in details)

    explain = _run(["rulesdsl", "explain", "g", "map 1.01 - 3.03 open; unit a x 3-2-4 at 2.02", "reach", "a"],
                   cwd=folder, env=env)
    assert explain.returncode == 0, explain.stderr
    assert f"scs-1.8, {library.as_posix()}:" in explain.stdout and "rulesdsl/library/" not in \
        explain.stdout.replace(library.as_posix(), ""), explain.stdout


# three titles written for these tests (tests/titles/, not shipped), each on one of the shipped series, whose
# rules are of the kinds other published games print, stated as conditions and effects: classes barred from
# terrain or paying their own cost, prohibitions on some turns and phases, hexes entered and left only by
# road, units pinned in an enemy ZOC, advances barred or stopped by terrain, units that do not count for
# stacking, exemptions from retreat losses, attacks that need a partner
TITLES = ROOT / "tests" / "titles"
TITLE_CHECKS = '''\
from generated import fords, landing, passes, winter
from rulesdsl.runtime import Hex, HexMap, Hexside
from rulesdsl.runtime.combat import AttackingHex, Combat, Unit
from rulesdsl.runtime.situation import Counter, Situation

H = Hex.parse
def unit(name, side, at, kind, **more):
    return Counter(name, side, H(at), attack=4, defense=4, movement=8, steps=2, type=kind, **more)

near = (unit("c", "blue", "4.02", "truck"), unit("e", "red", "6.02", "infantry"))
for turn in (2, 3):
    moved = passes.RULES_ENGINE.move(Situation(HexMap.rectangle(8, 8), default_terrain=("open",), units=near,
                                               phasing="blue", turn=turn), "c", [H("5.02")])
    print("night" if turn == 3 else "day", moved.legal, " ".join(r.rule or "" for r in moved.refusals) or "-")
first = Situation(HexMap.rectangle(8, 8), default_terrain=("open",), phasing="blue", turn=1,
                  units=(unit("a", "blue", "4.04", "infantry"), unit("d", "red", "4.05", "infantry")))
verdict = landing.RULES_ENGINE.may_attack(first, ["a"], H("4.05"))
print("landing", verdict.allowed, " ".join(r.rule or "" for r in verdict.refusals))
stream = Situation(HexMap.rectangle(8, 8), default_terrain=("clear",), phasing="blue", terrain={H("4.06"): ("swamp",)},
                   units=(unit("t", "blue", "4.04", "tank"),), hexsides={Hexside.between(H("4.05"), H("5.05")): ("stream",)})
reached = fords.RULES_ENGINE.advance(stream, ["t"], H("4.05"), 3, defender_destroyed=True)
print("fords", H("5.05") in reached.reachable, H("4.06") in reached.reachable)   # vehicles never into swamp
def fight(attacker, defender):
    combat = Combat((AttackingHex((Unit("infantry", attack=4, defense=4),), "clear"),),
                    (Unit("infantry", attack=2, defense=4),), "clear", attacker_side=attacker, defender_side=defender)
    told = winter.ENGINE.assess(combat)
    return f"{told.odds}/{told.column}"
print("winter", fight("german", "soviet"), fight("soviet", "german"))   # the sides the modifiers read
'''


def test_titles_of_other_games_say_their_rules_as_effects_and_build_with_the_installed_cli(installed, tmp_path):
    folder = tmp_path / "titles"      # outside the repository
    (folder / "rulebooks").mkdir(parents=True)
    names = sorted(p.name for p in TITLES.glob("*.rules"))
    assert names == ["fords.rules", "landing.rules", "passes.rules", "winter.rules"]
    for name in names:
        shutil.copy(TITLES / name, folder / "rulebooks" / name)
    env = {**os.environ, "PATH": f"{installed}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("PYTHONPATH", None)
    check = _run(["rulesdsl", "check"], cwd=folder, env=env)       # every worked example of the four holds
    assert check.returncode == 0 and "4 rulebooks checked: no problems" in check.stdout + check.stderr, \
        check.stdout + check.stderr
    build = _run(["rulesdsl", "build"], cwd=folder, env=env)
    assert build.returncode == 0 and "warning" not in build.stderr, build.stdout + build.stderr
    for title in ("fords", "landing", "passes", "winter"):
        assert (folder / "generated" / f"{title}.py").is_file()
    for title in ("landing", "passes"):
        for lang in ("en", "fr"):
            assert (folder / "generated" / "charts" / f"{title}.{lang}.pdf").is_file()
    run = _run([str(installed / "python"), "-c", TITLE_CHECKS], cwd=folder, env=env)
    assert run.returncode == 0, run.stderr
    lines = dict(line.split(" ", 1) for line in run.stdout.splitlines())
    assert lines["day"] == "True -"
    assert lines["night"] == "False G2"
    assert lines["landing"] == "False L2"
    assert lines["fords"] == "True False"
    assert lines["winter"] == "1:2/1:1 1:1/1:1"     # Soviet defense doubled, German elan one column right
