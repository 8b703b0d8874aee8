"""What a title's repository takes from this one: the pre-commit hooks (`.pre-commit-hooks.yaml`) and the CI
workflow template (`docs/ci/github-workflow.yml`). Each is read as its tool reads it, and each rulesdsl command
it runs is run, as that tool would run it, in a title project made by `rulesdsl new game`."""
from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from conftest import ROOT
from rulesdsl import cli

HOOKS = ROOT / ".pre-commit-hooks.yaml"
WORKFLOW = ROOT / "docs" / "ci" / "github-workflow.yml"


@pytest.fixture(scope="module")
def title(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A title's repository as `rulesdsl new game` starts it, built (generated/ is committed there). A standalone
    game: its one card lays out in half the time of a series game's (a cold build is the fixture's cost)."""
    folder = tmp_path_factory.mktemp("title")
    with contextlib.chdir(folder), contextlib.redirect_stdout(open(os.devnull, "w")):
        assert cli.main(["new", "game", "demo"]) == 0
        assert cli.main(["build"]) == 0
    yield folder


def _run(folder: Path, argv: list[str]) -> int:
    with contextlib.chdir(folder):
        return cli.main(argv)


def _rulesdsl(command: str) -> list[str]:
    """A `rulesdsl ...` command line as the arguments of cli.main."""
    words = shlex.split(command)
    assert words[0] == "rulesdsl", command
    return words[1:]


@contextlib.contextmanager
def _edited(path: Path, text: str) -> Iterator[None]:
    before = path.read_bytes()
    path.write_text(text, encoding="utf-8")
    try:
        yield
    finally:
        path.write_bytes(before)


def _misspelt(text: str) -> str:
    """The starter with an error `check` reports at its line: a misspelt activity."""
    assert "  movement\n" in text
    return text.replace("  movement\n", "  movment\n", 1)


# -- pre-commit ------------------------------------------------------------------------------------------------

def _hooks() -> dict[str, dict[str, object]]:
    hooks = yaml.safe_load(HOOKS.read_text(encoding="utf-8"))
    assert isinstance(hooks, list)
    return {hook["id"]: hook for hook in hooks}


def test_pre_commit_reads_the_hooks_manifest():
    """pre-commit's own schema check of the manifest, and the fields a title's repository relies on."""
    pre_commit = pytest.importorskip("pre_commit", reason="pre-commit is not installed (pip install -e '.[test]')")
    assert pre_commit
    done = subprocess.run([sys.executable, "-m", "pre_commit", "validate-manifest", str(HOOKS)],
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout + done.stderr) == (0, "")
    hooks = _hooks()
    assert set(hooks) == {"rulesdsl-check", "rulesdsl-fmt"}
    for hook in hooks.values():
        assert hook["language"] == "python"      # pre-commit installs this repository, with rulesdsl's dependencies
        files = re.compile(str(hook["files"]))
        assert files.search("rulebooks/games/bocage.rules") and not files.search("rulebooks/notes.rules.txt")
    assert (hooks["rulesdsl-check"]["entry"], hooks["rulesdsl-check"]["pass_filenames"]) == ("rulesdsl check", False)
    assert (hooks["rulesdsl-fmt"]["entry"], hooks["rulesdsl-fmt"]["pass_filenames"]) == ("rulesdsl fmt --check", True)


def _hook(folder: Path, hook: dict[str, object], staged: list[str]) -> int:
    """Run a hook as pre-commit does: its entry, then (with pass_filenames) the staged files its `files` matches."""
    files = [name for name in staged if re.search(str(hook["files"]), name)]
    return _run(folder, _rulesdsl(str(hook["entry"])) + (files if hook["pass_filenames"] else []))


def test_the_hooks_pass_a_clean_title_and_fail_a_broken_one(title, capsys):
    hooks = _hooks()
    staged = ["rulebooks/demo.rules", "pyproject.toml"]
    assert _hook(title, hooks["rulesdsl-check"], staged) == 0
    assert _hook(title, hooks["rulesdsl-fmt"], staged) == 0
    rulebook = title / "rulebooks" / "demo.rules"
    text = rulebook.read_text(encoding="utf-8")
    capsys.readouterr()
    with _edited(rulebook, text.replace("\n", "   \n", 1)):        # trailing blanks: not canonical, still right
        assert _hook(title, hooks["rulesdsl-fmt"], staged) == 1
        assert "not canonical: rulebooks/demo.rules" in capsys.readouterr().err
        assert _hook(title, hooks["rulesdsl-check"], staged) == 0
    with _edited(rulebook, _misspelt(text)):
        assert _hook(title, hooks["rulesdsl-check"], staged) == 1
        assert "rulebooks/demo.rules:" in capsys.readouterr().err
    assert rulebook.read_text(encoding="utf-8") == text   # fmt --check wrote nothing


@pytest.mark.packaging
def test_pre_commit_try_repo_runs_the_hooks_in_a_title_repository(title, tmp_path):
    """pre-commit itself: it installs this repository in an environment of its own and runs both hooks."""
    pytest.importorskip("pre_commit", reason="pre-commit is not installed (pip install -e '.[test]')")
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "title"
    shutil.copytree(title, repo)
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"), "GIT_AUTHOR_NAME": "t",
           "GIT_AUTHOR_EMAIL": "t@example.invalid", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid"}
    for command in (["git", "init", "-q"], ["git", "add", "-A"], ["git", "commit", "-qm", "a title"]):
        subprocess.run(command, cwd=repo, check=True, env=env, timeout=60)
    done = subprocess.run([sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), "--all-files"], cwd=repo,
                          env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"^rulesdsl check\.+Passed$", done.stdout, re.M), done.stdout
    assert re.search(r"^rulesdsl fmt --check\.+Passed$", done.stdout, re.M), done.stdout


# -- the CI workflow template ----------------------------------------------------------------------------------

def _steps() -> list[dict[str, object]]:
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    assert set(workflow[True]) == {"push", "pull_request"}       # YAML 1.1 reads the key `on` as true
    (job,) = workflow["jobs"].values()
    assert job["runs-on"].startswith("ubuntu")
    steps = job["steps"]
    assert isinstance(steps, list)
    return steps


def test_the_workflow_installs_rulesdsl_and_runs_real_commands(title, capsys):
    steps = _steps()
    uses = [step["uses"].split("@")[0] for step in steps if "uses" in step]
    assert uses == ["actions/checkout", "actions/setup-python"]
    lines = [line.strip() for step in steps if "run" in step for line in str(step["run"]).splitlines()]
    assert 'python -m pip install "$RULESDSL"' in lines
    commands = [line for line in lines if line.startswith("rulesdsl ")]
    assert commands == ["rulesdsl check --format github", "rulesdsl fmt --check", "rulesdsl build --check"]
    capsys.readouterr()
    for command in commands:              # each passes in a title as `rulesdsl new game` and `build` leave it
        assert _run(title, _rulesdsl(command)) == 0, (command, capsys.readouterr())
    rulebook = title / "rulebooks" / "demo.rules"
    text = rulebook.read_text(encoding="utf-8")
    capsys.readouterr()
    with _edited(rulebook, _misspelt(text)):
        assert _run(title, _rulesdsl(commands[0])) == 1      # the step fails, and marks the line on the pull request
        assert capsys.readouterr().out.startswith("::error file=rulebooks/demo.rules,line=")
    module = title / "generated" / "demo.py"
    kept = module.read_bytes()
    module.unlink()
    try:
        assert _run(title, _rulesdsl(commands[2])) == 1      # generated/ no longer what a build writes
        assert "generated/ is not current" in capsys.readouterr().err
    finally:
        module.write_bytes(kept)


def test_the_workflow_installs_from_a_url_a_user_must_set():
    """No index serves rulesdsl: the template installs it from its repository, a placeholder to replace."""
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    spec = workflow["env"]["RULESDSL"]
    assert spec.startswith("rulesdsl @ git+https://") and "REPLACE-WITH" in spec
