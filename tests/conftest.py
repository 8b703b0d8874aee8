"""Shared fixtures: the repository root, throwaway projects, golden files."""
from __future__ import annotations

import atexit
import importlib.util
import itertools
import json
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
_BUILT = itertools.count()      # a fresh module name for each import of a generated module

if str(ROOT) not in sys.path:  # `generated` is imported from the repository root
    sys.path.insert(0, str(ROOT))

# The tests' own cache (parser tables, laid-out cards: rulesdsl/cache.py), never the user's: set before
# rulesdsl is imported, and deleted when the run ends.  Under pytest-xdist the main process makes it and its
# workers inherit it, so a card one worker has laid out is not laid out again by the other (entries are
# named by a hash of everything they are made from, and written whole: sharing them changes no answer).
if "PYTEST_XDIST_WORKER" not in os.environ or "RULESDSL_TEST_CACHE" not in os.environ:
    os.environ["RULESDSL_TEST_CACHE"] = tempfile.mkdtemp(prefix="rulesdsl-test-cache-")
    atexit.register(shutil.rmtree, os.environ["RULESDSL_TEST_CACHE"], True)
os.environ["RULESDSL_CACHE_DIR"] = os.environ["RULESDSL_TEST_CACHE"]
os.environ.pop("RULESDSL_NO_CACHE", None)


def pytest_addoption(parser):
    parser.addoption("--update-goldens", action="store_true",
                     help="rewrite the expected outputs of golden tests instead of comparing")


@pytest.fixture
def update_goldens(request) -> bool:
    return request.config.getoption("--update-goldens")


class Project:
    """A project folder in tmp_path: write rulebooks, run the CLI on it."""

    def __init__(self, root: Path):
        self.root = root
        (root / "rulebooks").mkdir(parents=True, exist_ok=True)

    def write(self, rel: str, text: str | bytes) -> Path:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        return path

    def add_base(self) -> Path:
        return self.write("rulebooks/base.rules", (FIXTURES / "base.rules").read_text(encoding="utf-8"))

    def add_repo_rulebooks(self) -> None:
        shutil.copytree(ROOT / "rulebooks", self.root / "rulebooks", dirs_exist_ok=True)

    def run(self, *args: str, capsys) -> tuple[int, str, str]:
        """The command run in the project folder (or the folder of it the test stands in), as a designer runs
        it there: messages name its files as seen from there (`rulebooks/x.rules`)."""
        from rulesdsl.cli import main
        here = os.getcwd()
        if not Path(here).is_relative_to(self.root):    # a test that stands in a folder of it stays there
            os.chdir(self.root)
        try:
            code = main(["--project", str(self.root), *args])
        finally:
            os.chdir(here)
        out, err = capsys.readouterr()
        return code, out, err

    def module(self, name: str) -> types.ModuleType:
        """The generated module `generated/NAME.py` of the last build, imported under a name of its own (so
        that modules of several projects, or of one project built twice, never stand in for each other)."""
        path = self.root / "generated" / f"{name}.py"
        spec = importlib.util.spec_from_file_location(f"_generated_{name}_{next(_BUILT)}", path)
        assert spec is not None and spec.loader is not None, path
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module      # dataclasses the module defines look their module up by name
        spec.loader.exec_module(module)
        return module

    def built(self, name: str, text: str, *, capsys) -> types.ModuleType:
        """Write `text` as rulebooks/NAME.rules, build it (no error allowed) and import its module."""
        self.write(f"rulebooks/{name}.rules", text)
        code, _, err = self.run("build", capsys=capsys)
        assert code == 0, err
        return self.module(name.replace("-", "_"))

    def tree(self) -> dict[str, bytes]:
        """Every file under generated/, for before/after comparisons."""
        folder = self.root / "generated"
        if not folder.exists():
            return {}
        return {p.relative_to(self.root).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


class Planted:
    """What another user could plant in the cache: a pickle whose loading writes a marker file, so that a test
    sees whether it was loaded."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (exec, (f"open({str(self.marker)!r}, 'w').write('loaded')",))


def plant(folder: Path, marker: Path, rehash: bool = True) -> None:
    """Each entry's blob in a cache folder (rulesdsl/cache.py) replaced by a Planted pickle, and (`rehash`) the
    entry's size and SHA-256 recomputed to match it, as whoever plants it would."""
    from rulesdsl import cache
    for entry in folder.glob("*.json"):
        blob = pickle.dumps(Planted(marker))
        entry.with_suffix(".bin").write_bytes(blob)
        if rehash:
            content = {k: v for k, v in json.loads(entry.read_text(encoding="utf-8")).items() if k != "sha256"}
            content["size"] = len(blob)
            entry.write_text(json.dumps({**content, "sha256": cache._digest(content, blob)}), encoding="utf-8")


def foreign(*paths: Path) -> None:
    """`paths` given to another user (nobody's uid); the test is skipped where that cannot be done."""
    if not hasattr(os, "getuid"):
        pytest.skip("no POSIX owners here")
    for path in paths:
        try:
            os.chown(path, 65534, 65534, follow_symlinks=False)
        except PermissionError:
            pytest.skip("chown to another user needs root")


@pytest.fixture
def own_cache(tmp_path, monkeypatch) -> Path:
    """A cache folder of the test's own, empty, with caching on (rulesdsl/cache.py)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("RULESDSL_CACHE_DIR", str(folder))
    monkeypatch.delenv("RULESDSL_NO_CACHE", raising=False)
    return folder


@pytest.fixture
def project(tmp_path) -> Project:
    return Project(tmp_path / "project")


def python_in(root: Path, statement: str) -> str:
    """Run `statement` in a fresh interpreter in a project folder, as a designer would; its output."""
    run = subprocess.run([sys.executable, "-c", statement], cwd=root, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return run.stdout
