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


def readme_steps() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(re.escape(MARK) + r"\s*```sh\n(.*?)```", text, re.S)
    assert match, f"README.md has no shell block after {MARK}"
    return [line for line in match.group(1).splitlines() if line.strip() and not line.startswith("#")]


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
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    wheels = base / "wheels"
    build = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(source)])
    assert build.returncode == 0, build.stdout + build.stderr
    [wheel] = wheels.glob("rulesdsl-*.whl")
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
    run = _run([str(python), "-c", "from rulesdsl.settings import Library, shipped_folder\n"
                                   "print(shipped_folder().as_posix()); print(Library().ids())"], cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    folder, ids = run.stdout.splitlines()
    assert folder.endswith("site-packages/rulesdsl/library")
    assert ids == str(sorted(p.stem for p in (ROOT / "rulebooks" / "series").glob("*.rules")))
    for path in Path(folder).glob("*.rules"):   # the same text as the repository's, not a drifting copy
        assert path.read_bytes() == (ROOT / "rulebooks" / "series" / path.name).read_bytes()


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
        expected_code = 1 if step.startswith("rulesdsl diff ") else 0   # diff exits 1 when there are changes
        assert run.returncode == expected_code, (step, run.stdout, run.stderr)
        outputs[step.split()[0] + " " + step.split()[1]] = run.stdout
    assert (folder / "generated" / "demo.py").is_file()
    assert (folder / "generated" / "charts" / "demo.en.html").is_file()
    assert (folder / "generated" / "charts" / "demo.en.pdf").read_bytes().startswith(b"%PDF")
    assert outputs["python -c"] == "5:1\n"
    assert re.search(r"\[correction\] .*\(stacking\.limit\): 1 step -> 3 steps?\n", outputs["rulesdsl diff"]), \
        outputs["rulesdsl diff"]
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
