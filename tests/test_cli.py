"""The command line as a user runs it: the installed console script."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulesdsl.version import __version__

ROOT = Path(__file__).resolve().parent.parent


def _rulesdsl(*args, cwd):
    exe = shutil.which("rulesdsl")
    command = [exe] if exe else [sys.executable, "-m", "rulesdsl"]
    return subprocess.run(command + list(args), cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, stdin=subprocess.DEVNULL)


def test_console_script_is_installed():
    assert shutil.which("rulesdsl"), "pip install should put the rulesdsl console script on PATH"


def test_version_and_help(tmp_path):
    run = _rulesdsl("--version", cwd=tmp_path)
    assert (run.returncode, run.stdout.strip()) == (0, f"rulesdsl {__version__}")
    run = _rulesdsl("--help", cwd=tmp_path)
    assert run.returncode == 0
    for word in ("check", "build", "Exit status"):
        assert word in run.stdout


@pytest.mark.parametrize("args, message", [
    ((), "required: COMMAND"),
    (("frobnicate",), "invalid choice"),
    (("build", "--nope"), "unrecognized arguments"),
    (("check",), "no rulebooks/ folder"),
])
def test_usage_errors_exit_2(args, message, tmp_path):
    run = _rulesdsl(*args, cwd=tmp_path)
    assert run.returncode == 2
    assert message in run.stderr
    assert "Traceback" not in run.stderr


def test_project_without_rulebooks_is_a_usage_error(tmp_path):
    (tmp_path / "rulebooks").mkdir()
    run = _rulesdsl("check", cwd=tmp_path)
    assert run.returncode == 2 and "no rulebook (*.rules)" in run.stderr


def test_check_finds_the_project_from_a_subfolder():
    run = _rulesdsl("check", cwd=ROOT / "rulebooks" / "games")
    assert run.returncode == 0, run.stderr
    assert "rulebooks checked: no problems" in run.stdout


def test_check_one_file_outside_any_project(tmp_path):
    path = tmp_path / "lone.rules"
    path.write_text('series lone "Lone" version "1"\n'   # overrun.cost is core: the engine's contract declares it
                    'rule 1.0 "One" {\n  summary "x"\n  overrun.cost = 2 hexes\n}\n')
    run = _rulesdsl("check", str(path), cwd=tmp_path)     # named as seen from the current folder
    assert run.returncode == 1
    assert run.stderr.startswith("lone.rules:4:20: error: overrun.cost is measured in MP, not hexes")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    run = _rulesdsl("check", str(path), cwd=elsewhere)    # not below it: the absolute path
    assert run.stderr.startswith(f"{path.as_posix()}:4:20: error: overrun.cost is measured in MP, not hexes")


def test_version_help_and_usage_errors_import_no_stage_of_the_compiler():
    """`--version`, `--help` and a wrong command end before any stage is imported (each costs start-up time
    that an editor hook pays on every call): only the command line, the version and the standard library."""
    import subprocess
    import sys
    probe = ("import sys\nfrom rulesdsl.cli import main\n"
             "for argv in (['--version'], ['--help'], ['frob']):\n"
             "    try:\n        main(argv)\n    except SystemExit:\n        pass\n"
             "print(sorted(m for m in sys.modules if m.startswith('rulesdsl')))\n"
             "print(sorted(m for m in ('lark', 'jinja2', 'weasyprint', 'cerberus', 'rich', 'babel', 'pygls') "
             "if m in sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    package, libraries = done.stdout.strip().splitlines()[-2:]
    assert package == "['rulesdsl', 'rulesdsl.cli', 'rulesdsl.model', 'rulesdsl.model.papers', 'rulesdsl.version']"
    assert libraries == "[]"
