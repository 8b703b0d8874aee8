"""The build is the same on every machine: PDF cards are set in the fonts rulesdsl ships, git holds
what does not depend on the machine, and the package carries everything a card needs."""
from __future__ import annotations

import fnmatch
import hashlib
import io
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import ROOT
from rulesdsl.cards import pdf as pdf_module
from rulesdsl.cards.charts import card
from rulesdsl.project.build import compile_project
from rulesdsl.project.output import committed

RENDER = """
import hashlib, sys
from pathlib import Path
from rulesdsl.cards.charts import card, card_options
from rulesdsl.cards.pdf import card_pdf
from rulesdsl.project.build import compile_project
project = compile_project(Path(sys.argv[1]))
for key in ("bocage", "vcs"):
    resolved = project.resolved[key]
    data, _ = card(resolved, "en", project.labels)
    _, pdf, problems = card_pdf(data, resolved.rulebook.span, card_options(resolved).sides)
    assert problems == [], problems
    print(key, hashlib.sha256(pdf).hexdigest())
"""


def _fontconfig(folder: Path, fonts: list[Path]) -> Path:
    """A fontconfig set-up that offers only `fonts` (none at all when empty)."""
    (folder / "fonts").mkdir(parents=True)
    for font in fonts:
        shutil.copy(font, folder / "fonts" / font.name)
    config = folder / "fonts.conf"
    config.write_text('<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n'
                      f'  <dir>{folder / "fonts"}</dir>\n  <cachedir>{folder / "cache"}</cachedir>\n'
                      '</fontconfig>\n')
    return config


def _render(config: Path | None) -> str:
    env = {k: v for k, v in os.environ.items() if k != "FONTCONFIG_FILE"}
    if config is not None:
        env["FONTCONFIG_FILE"] = str(config)
    run = subprocess.run([sys.executable, "-W", "ignore", "-c", RENDER, str(ROOT)], env=env, cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    return run.stdout


def test_pdf_bytes_do_not_depend_on_the_machines_fonts(tmp_path):
    """The reproducer: without DejaVuSans-Oblique.ttf (fonts-dejavu-extra) the italic came out
    synthesised from the regular face, and every PDF's bytes changed."""
    shipped = pdf_module.FONTS / "DejaVuSans.ttf"
    machine = _render(None)
    assert _render(_fontconfig(tmp_path / "regular-only", [shipped])) == machine
    assert _render(_fontconfig(tmp_path / "no-fonts", [])) == machine


def test_cards_embed_only_the_shipped_fonts():
    project = compile_project(ROOT)
    data, _ = card(project.resolved["vcs"], "en", project.labels)
    _, pdf, problems = pdf_module.card_pdf(data, project.resolved["vcs"].rulebook.span)     # as the build lays it out
    assert pdf, problems
    reader = PdfReader(io.BytesIO(pdf))
    names = {str(font.get_object()["/BaseFont"]).split("+")[1]
             for page in reader.pages for font in page["/Resources"]["/Font"].values()}
    # no monospace since conditions print as words (rulesdsl.cards.wording), not as code
    assert {"rulesdsl-Sans", "rulesdsl-Sans-Bold"} <= names <= {"rulesdsl-Sans", "rulesdsl-Sans-Bold",
                                                                 "rulesdsl-Sans-Italic", "rulesdsl-Mono"}


def test_the_fingerprint_covers_html_paper_stylesheet_and_fonts(tmp_path, monkeypatch):
    first = pdf_module.fingerprint("<p>x</p>", "a4")
    assert pdf_module.fingerprint("<p>x</p>", "a4") == first
    assert pdf_module.fingerprint("<p>y</p>", "a4") != first
    assert pdf_module.fingerprint("<p>x</p>", "letter") != first
    fonts = tmp_path / "fonts"
    shutil.copytree(pdf_module.FONTS, fonts)
    monkeypatch.setattr(pdf_module, "FONTS", fonts)
    monkeypatch.setattr(pdf_module, "FONTS_CSS", fonts / "fonts.css")
    assert pdf_module.fingerprint("<p>x</p>", "a4") == first
    (fonts / "fonts.css").write_text((fonts / "fonts.css").read_text() + "\n")
    assert pdf_module.fingerprint("<p>x</p>", "a4") != first
    shutil.copy(Path(pdf_module.__file__).parent / "fonts" / "fonts.css", fonts / "fonts.css")
    data = bytearray((fonts / "DejaVuSansMono.ttf").read_bytes())
    data[-1] ^= 1
    (fonts / "DejaVuSansMono.ttf").write_bytes(bytes(data))
    assert pdf_module.fingerprint("<p>x</p>", "a4") != first


def test_the_wheel_lists_every_subpackage():
    """setuptools installs only the packages pyproject.toml names: a new stage folder must be named there."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    listed = set(config["tool"]["setuptools"]["packages"])
    folders = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "rulesdsl").rglob("__init__.py")}
    assert folders - listed == set()


def test_the_package_data_ships_everything_a_card_needs():
    """A non-editable install carries only what package-data names: every file the compiler keeps beside
    its code (grammar, templates, labels, fonts, in whichever stage's folder) must match one of the
    patterns of its own subpackage."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    data = config["tool"]["setuptools"]["package-data"]
    package = ROOT / "rulesdsl"
    needed = [p for p in package.rglob("*") if p.is_file() and p.suffix not in (".py", ".pyc")
              and "__pycache__" not in p.parts]
    assert package / "cards" / "fonts" / "LICENSE-DejaVu.txt" in needed
    assert package / "language" / "grammar.lark" in needed
    missing = []
    for path in needed:
        folder = path.parent
        while not (folder / "__init__.py").exists():
            folder = folder.parent
        owner = ".".join(folder.relative_to(ROOT).parts)
        rel = path.relative_to(folder).as_posix()
        if not any(fnmatch.fnmatch(rel, pattern) for pattern in data.get(owner, [])):
            missing.append(f"{owner}: {rel}")
    assert missing == []
    css = pdf_module.FONTS_CSS.read_text()
    for font in pdf_module.font_files():
        assert f'url("{font.name}")' in css, f"{font.name} is shipped but not declared"


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_git_holds_the_pdf_fingerprints_and_ignores_pdfs_and_staging_folders():
    def ignored(rel):
        return subprocess.run(["git", "check-ignore", "-q", "--no-index", rel], cwd=ROOT).returncode == 0
    assert ignored("generated/charts/bocage.en.pdf")
    assert ignored(".rulesdsl-stage-123-abcd") and ignored(".rulesdsl-old-123-abcd")
    assert not ignored("generated/charts/bocage.en.html") and not ignored("generated/charts/pdfs.sha256")
    assert not committed("generated/charts/bocage.en.pdf") and committed("generated/charts/pdfs.sha256")
    manifest = (ROOT / "generated" / "charts" / "pdfs.sha256").read_text()
    html = (ROOT / "generated" / "charts" / "bocage.en.html").read_text(encoding="utf-8")
    assert f"bocage.en.pdf {pdf_module.fingerprint(html, 'a4')}\n" in manifest
    assert hashlib.sha256(b"").hexdigest() not in manifest


def test_characters_the_shipped_fonts_lack_are_a_warning_naming_them(project, capsys):
    project.add_base()
    project.write("rulebooks/demo.rules", 'game demo "Demo 漢字 game → ok" version "1.0" extends base\n')
    out = project.root / "demo.pdf"
    code, _, err = project.run("chart", "demo", "--format", "pdf", "--out", str(out), capsys=capsys)
    assert code == 0 and out.read_bytes().startswith(b"%PDF")
    assert "rulebooks/demo.rules:1:6: warning: the demo card (en) prints characters the fonts rulesdsl " \
           "ships lack: '字' (U+5B57), '漢' (U+6F22)" in err
    assert "→" not in err.split("warning:")[1].splitlines()[0]   # DejaVu has the arrow
    assert pdf_module.uncovered("<html><head><title>漢</title></head><body>Dégagé → x</body></html>") == []
