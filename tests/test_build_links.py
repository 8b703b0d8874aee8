"""Nothing outside the build's own files is ever written or removed (issue 41): a symlink or a special file
anywhere in generated/ is refused before any work, no file is written through a link, and a build removes
only the files its manifest (generated/.rulesdsl-manifest) says it wrote."""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, Project
from rulesdsl.cli import main
from rulesdsl.project import output as output_module
from rulesdsl.project.output import OutputFolderError, write_outputs

GAME = """game g "G" version "1" extends base

rule G1.0 "Stacking" {
  summary "Six steps a hex."
  stacking.limit = 6 steps
}
"""
MANIFEST = "generated/.rulesdsl-manifest"


@pytest.fixture(scope="module")
def built_once(tmp_path_factory) -> Path:
    """A project of two rulebooks (base, g), built once: each test copies it (a build lays out two cards)."""
    project = Project(tmp_path_factory.mktemp("built") / "project")
    project.add_base()
    project.write("rulebooks/g.rules", GAME)
    assert main(["--project", str(project.root), "build"]) == 0
    return project.root


@pytest.fixture
def built(built_once, tmp_path) -> Project:
    root = tmp_path / "project"
    shutil.copytree(built_once, root, symlinks=True)
    return Project(root)


@pytest.fixture
def outside(tmp_path) -> Path:
    """A folder beside the project, with a file and a PDF of the user's: what no build may touch."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "victim.txt").write_text("the user's own file\n")
    (folder / "holiday.pdf").write_bytes(b"%PDF the user's holiday photos")
    return folder


def listing(folder: Path) -> dict[str, object]:
    """Every entry under `folder`, links not followed: a file's bytes, a link's target, None for a folder (a FIFO is
    not opened)."""
    out: dict[str, object] = {}
    for here, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = Path(here, name)
            rel = path.relative_to(folder).as_posix()
            mode = os.lstat(path).st_mode
            out[rel] = (("link", os.readlink(path)) if stat.S_ISLNK(mode) else None if stat.S_ISDIR(mode)
                        else path.read_bytes() if stat.S_ISREG(mode) else ("special", mode))
    return out


def _plant(project: Project, outside: Path, how: str) -> str:
    """Plant a link in generated/ as `how` says; the path of the link under the project."""
    generated = project.root / "generated"
    rel, target, is_dir = {
        "charts -> a folder outside": ("generated/charts", outside, True),
        "x.py -> a file outside": ("generated/x.py", outside / "victim.txt", False),
        "g.py -> a file outside": ("generated/g.py", outside / "victim.txt", False),
        "charts/x.html -> a file outside": ("generated/charts/x.html", outside / "victim.txt", False),
        "charts/g.en.pdf -> a file outside": ("generated/charts/g.en.pdf", outside / "holiday.pdf", False),
        "a folder -> a folder outside": ("generated/extra", outside, True),
        "deep/down/x.txt -> a file outside": ("generated/deep/down/x.txt", outside / "victim.txt", False),
        "charts/gone.pdf -> nothing (dangling)": ("generated/charts/gone.pdf", outside / "nothing.pdf", False),
        "g.py -> a file of the project": ("generated/g.py", project.root / "rulebooks" / "g.rules", False),
        "__pycache__/x.pyc -> a file outside": ("generated/__pycache__/x.pyc", outside / "victim.txt", False),
    }[how]
    link = project.root / rel
    if link.is_dir() and not link.is_symlink():
        shutil.rmtree(link)
    elif link.exists():
        link.unlink()
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(os.path.relpath(target, link.parent), target_is_directory=is_dir)
    assert generated.is_dir() and not generated.is_symlink()
    return rel


@pytest.mark.parametrize("how", [
    "charts -> a folder outside", "x.py -> a file outside", "g.py -> a file outside",
    "charts/x.html -> a file outside", "charts/g.en.pdf -> a file outside", "a folder -> a folder outside",
    "deep/down/x.txt -> a file outside", "charts/gone.pdf -> nothing (dangling)", "g.py -> a file of the project",
    "__pycache__/x.pyc -> a file outside",
])
def test_a_symlink_anywhere_in_generated_is_refused_and_nothing_is_touched(built, outside, capsys, how):
    """`generated/charts -> ~/somefolder` made a build write the cards there and remove every .html and .pdf it
    had not written ("removed generated/charts/holiday.pdf"); `generated/demo.py -> victim.txt` overwrote the
    victim with a module; both with exit 0."""
    rel = _plant(built, outside, how)
    built.write("rulebooks/g.rules", GAME.replace("6 steps", "5 steps"))    # a build would write g.py and its card
    before = (listing(built.root), listing(outside))
    for args in (("build",), ("build", "--check")):
        code, out, err = built.run(*args, capsys=capsys)
        assert code == 2, (args, out, err)
        assert f"rulesdsl: error: {rel} is a symlink (to " in err, err
        assert "remove the link" in err and "Traceback" not in err and out == ""
        assert (listing(built.root), listing(outside)) == before, args
    assert not list(built.root.glob(".rulesdsl-*"))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_deep_in_generated_is_refused_without_waiting(built, outside):
    os.mkfifo(built.root / "generated" / "charts" / "pipe.html")
    before = listing(built.root)
    for args in (["build"], ["build", "--check"]):
        run = subprocess.run([sys.executable, "-m", "rulesdsl", *args], capture_output=True, text=True, timeout=60,
                             cwd=built.root, stdin=subprocess.DEVNULL, env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert run.returncode == 2, run.stderr
        assert "generated/charts/pipe.html is a named pipe (FIFO)" in run.stderr
    assert listing(built.root) == before


def test_a_link_that_appears_after_the_check_is_not_copied_followed_or_written_through(built, outside, monkeypatch):
    """The copy of the old tree and the writes hold their own line, should a link appear once the folder was
    checked: the staging folder is removed, generated/ and what the link names are as they were."""
    _plant(built, outside, "g.py -> a file outside")
    before = (listing(built.root), listing(outside))
    monkeypatch.setattr(output_module, "check_output_folder", lambda *args, **kwargs: None)
    with pytest.raises(OutputFolderError, match="generated/g.py is a symlink"):
        write_outputs(built.root, {"generated/g.py": "# Generated by rulesdsl\nX = 1\n"})
    assert (listing(built.root), listing(outside)) == before
    assert not list(built.root.glob(".rulesdsl-*"))


def test_a_leftover_of_a_killed_build_that_is_a_link_is_neither_restored_nor_emptied(tmp_path, outside):
    (tmp_path / ".rulesdsl-old-999999999-abcd").symlink_to(outside, target_is_directory=True)
    (tmp_path / ".rulesdsl-stage-999999999-beef").symlink_to(outside, target_is_directory=True)
    before = listing(outside)
    output_module.recover(tmp_path / "generated")
    assert not os.path.lexists(tmp_path / "generated") and listing(outside) == before


# ---- what a build removes: the files its manifest lists, and no others ---------------------------------------

def test_the_manifest_lists_what_the_build_wrote_and_build_check_compares_it(built, capsys):
    manifest = (built.root / MANIFEST).read_text(encoding="utf-8")
    listed = [line for line in manifest.splitlines() if not line.startswith("#")]
    assert manifest.startswith("# Generated by rulesdsl")
    assert listed == ["__init__.py", "base.py", "charts/base.en.html", "charts/base.en.pdf", "charts/g.en.html",
                      "charts/g.en.pdf", "charts/pdfs.sha256", "g.py"]
    for pdf in (built.root / "generated" / "charts").glob("*.pdf"):
        pdf.unlink()      # a fresh clone: the PDFs are not committed, the manifest is
    code, out, _ = built.run("build", "--check", capsys=capsys)
    assert code == 0 and "generated/ is current (7 files;" in out
    (built.root / MANIFEST).write_text(manifest.replace("g.py\n", ""), encoding="utf-8")
    code, _, err = built.run("build", "--check", capsys=capsys)
    assert code == 1 and f"out of date: {MANIFEST}" in err


def test_a_file_the_user_put_in_generated_survives_every_build(built, capsys):
    mine = {"generated/charts/mine.html": '<meta name="generator" content="rulesdsl 0.1.0"> the user\'s card',
            "generated/charts/mine.pdf": "%PDF the user's", "generated/charts/mine.sha256": "# Generated by rulesdsl",
            "generated/mine.py": "# Generated by rulesdsl, copied here by the user\n", "generated/notes/a.txt": "mine"}
    for rel, text in mine.items():
        built.write(rel, text)
    built.write("rulebooks/g.rules", GAME.replace("6 steps", "5 steps"))
    code, out, err = built.run("build", capsys=capsys)
    assert code == 0 and "wrote generated/g.py" in out and "removed" not in out and "note: kept" not in err, err
    code, out, _ = built.run("build", "--check", capsys=capsys)
    assert code == 0, out
    (built.root / "rulebooks" / "g.rules").unlink()       # a build removes its own files of g, and only those
    code, out, _ = built.run("build", capsys=capsys)
    assert code == 0 and "removed generated/g.py" in out and "mine" not in out
    for rel, text in mine.items():
        assert (built.root / rel).read_text() == text, rel


def test_a_file_the_previous_build_wrote_and_no_longer_makes_is_removed(built, capsys):
    (built.root / "rulebooks" / "g.rules").unlink()
    gone = ["generated/charts/g.en.html", "generated/charts/g.en.pdf", "generated/g.py"]
    code, _, err = built.run("build", "--check", capsys=capsys)
    assert code == 1
    assert [line for line in err.splitlines() if line.startswith(("out of date", "no longer"))] == [
        f"out of date: {MANIFEST}", "out of date: generated/charts/pdfs.sha256",
        "no longer generated: generated/charts/g.en.html", "no longer generated: generated/g.py"]
    code, out, _ = built.run("build", capsys=capsys)
    assert code == 0 and [line for line in out.splitlines() if line.startswith("removed")] == [
        f"removed {rel}" for rel in gone]
    assert not any((built.root / rel).exists() for rel in gone)
    assert "g.py" not in (built.root / MANIFEST).read_text()
    assert built.run("build", "--check", capsys=capsys)[0] == 0


def test_without_a_manifest_only_files_that_carry_the_compilers_mark_are_removed(built, capsys):
    """A generated/ an older rulesdsl wrote has no manifest: a file is the build's when it says so (a module's
    first line, a card's generator tag, a PDF the generated pdfs.sha256 names); anything else is kept, named."""
    (built.root / MANIFEST).unlink()
    (built.root / "rulebooks" / "g.rules").unlink()
    built.write("generated/charts/holiday.pdf", b"%PDF the user's")
    built.write("generated/charts/old.en.html", "<p>a card of the user's</p>")
    built.write("generated/notes.py", "# written by hand\n")
    code, _, err = built.run("build", "--check", capsys=capsys)
    assert code == 1 and "no longer generated: generated/g.py" in err
    assert "note: kept generated/charts/holiday.pdf: rulesdsl cannot tell it wrote it" in err
    code, out, err = built.run("build", capsys=capsys)
    assert code == 0
    assert [line for line in out.splitlines() if line.startswith("removed")] == [
        "removed generated/charts/g.en.html", "removed generated/charts/g.en.pdf", "removed generated/g.py"]
    assert [line.split(":")[0] for line in err.splitlines() if line.startswith("note: kept")] == [
        "note", "note"] and "generated/charts/old.en.html" in err
    for rel in ("generated/charts/holiday.pdf", "generated/charts/old.en.html", "generated/notes.py"):
        assert (built.root / rel).is_file(), rel
    assert (built.root / MANIFEST).is_file()
    code, out, err = built.run("build", capsys=capsys)      # now with a manifest: they are the user's, no note
    assert code == 0 and "up to date" in out and "note: kept" not in err


@pytest.mark.parametrize("entry", ["../outside/victim.txt", "/etc/hostname", "charts/../../../outside/victim.txt",
                                   "./g.py"])
def test_a_manifest_that_lists_a_path_out_of_generated_is_refused(built, outside, capsys, entry):
    """A cloned repository carries its manifest: what it lists is never removed unless it is a plain path
    inside generated/."""
    manifest = built.root / MANIFEST
    manifest.write_text(manifest.read_text() + entry + "\n")
    (built.root / "rulebooks" / "g.rules").unlink()
    before = (listing(built.root), listing(outside))
    code, _, err = built.run("build", capsys=capsys)
    assert code == 2 and f"{MANIFEST}:12: lists '{entry}', which is not a path inside generated/" in err
    assert (listing(built.root), listing(outside)) == before


def test_a_manifest_the_build_did_not_write_is_refused(built, capsys):
    (built.root / MANIFEST).write_text("g.py\n")
    code, _, err = built.run("build", capsys=capsys)
    assert code == 2 and f"{MANIFEST} is not a manifest a build wrote" in err
    (built.root / MANIFEST).unlink()
    (built.root / MANIFEST).mkdir()
    code, _, err = built.run("build", capsys=capsys)
    assert code == 2 and f"{MANIFEST} is not a manifest a build wrote (not a regular file" in err


def test_the_repositorys_own_generated_folder_has_its_manifest():
    listed = (ROOT / MANIFEST).read_text(encoding="utf-8").splitlines()
    assert "__init__.py" in listed and "charts/pdfs.sha256" in listed
    assert not any(line.startswith(("/", "..")) for line in listed)
