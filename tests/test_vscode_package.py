"""The VS Code extension (editors/vscode) packages cleanly: one bundle (esbuild) instead of node_modules, the
licence, a repository, a README that installs rulesdsl the way it can be installed. The files are checked here;
`vsce package` itself runs in the packaging job (`pytest -m packaging`: npm installs from the network)."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT

FOLDER = ROOT / "editors" / "vscode"


def _package() -> dict[str, object]:
    package = json.loads((FOLDER / "package.json").read_text(encoding="utf-8"))
    assert isinstance(package, dict)
    return package


def test_the_extension_runs_from_one_bundle_made_by_esbuild():
    package = _package()
    assert package["main"] == "./dist/extension.js"
    scripts = package["scripts"]
    assert isinstance(scripts, dict)
    assert scripts["vscode:prepublish"] == "npm run build"          # vsce package bundles first
    build = scripts["build"].split()
    assert build[:3] == ["esbuild", "extension.js", "--bundle"]
    assert "--outfile=dist/extension.js" in build and "--external:vscode" in build and "--platform=node" in build
    assert set(package["devDependencies"]) == {"esbuild", "@vscode/vsce"}   # pinned in package-lock.json
    lock = json.loads((FOLDER / "package-lock.json").read_text(encoding="utf-8"))
    assert lock["packages"][""]["dependencies"] == package["dependencies"]
    assert lock["packages"][""]["devDependencies"] == package["devDependencies"]


def test_the_package_leaves_out_the_sources_and_node_modules():
    ignored = [line for line in (FOLDER / ".vscodeignore").read_text(encoding="utf-8").splitlines()
               if line and not line.startswith("#")]
    assert {"node_modules/**", "extension.js", "*.vsix"} <= set(ignored)
    assert not any(line.startswith(("dist", "syntaxes", "LICENSE")) for line in ignored)
    gitignore = (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert {"node_modules/", "editors/vscode/dist/", "*.vsix"} <= set(gitignore)


def test_the_extension_has_the_licence_and_a_repository():
    assert (FOLDER / "LICENSE").read_bytes() == (ROOT / "LICENSE").read_bytes()
    package = _package()
    assert package["license"] == "MIT"
    repository = package["repository"]
    assert isinstance(repository, dict) and repository["type"] == "git"
    assert repository["url"].startswith("https://") and repository["directory"] == "editors/vscode"


def test_the_readme_installs_rulesdsl_as_it_can_be_installed():
    """No index serves rulesdsl: the README installs it from the repository or a wheel, never by name alone."""
    readme = (FOLDER / "README.md").read_text(encoding="utf-8")
    assert not re.search(r"pip install rulesdsl\b(?! @)", readme)
    assert "git+" in readme and ".whl" in readme and "npm ci" in readme and "vsce package" in readme


def _skip_without_network(done: subprocess.CompletedProcess[str], what: str) -> None:
    if done.returncode != 0 and re.search(r"ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNREFUSED|ENETUNREACH", done.stderr):
        pytest.skip(f"{what} could not reach the npm registry: {done.stderr.strip().splitlines()[-1]}")


@pytest.mark.packaging
def test_vsce_packages_the_bundle_without_a_warning(tmp_path: Path):
    """`npm ci` and `npx @vscode/vsce package` in a copy of the folder: vsce warns of nothing (a missing licence
    or repository, many unbundled files), and the .vsix holds the bundle, the licence and the grammar, and
    no node_modules."""
    npm, npx = shutil.which("npm"), shutil.which("npx")
    if npm is None or npx is None:
        pytest.skip("npm is not installed: the extension is not packaged here")
    folder = tmp_path / "vscode"
    shutil.copytree(FOLDER, folder, ignore=shutil.ignore_patterns("node_modules", "dist", "*.vsix"))
    installed = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=folder, capture_output=True, text=True,
                               timeout=600)
    _skip_without_network(installed, "npm ci")
    assert installed.returncode == 0, installed.stderr
    packaged = subprocess.run([npx, "--no-install", "@vscode/vsce", "package"], cwd=folder, capture_output=True,
                              text=True, timeout=600)
    output = packaged.stdout + packaged.stderr
    assert packaged.returncode == 0, output
    assert not re.search(r"warning", output, re.I), output
    (vsix,) = folder.glob("*.vsix")
    names = zipfile.ZipFile(vsix).namelist()
    assert {"extension/dist/extension.js", "extension/LICENSE.txt", "extension/package.json",
            "extension/syntaxes/rulesdsl.tmLanguage.json", "extension/language-configuration.json"} <= set(names)
    assert not [name for name in names if "node_modules" in name]
    assert "extension/extension.js" not in names                  # the source is in the bundle, not beside it
    bundle = zipfile.ZipFile(vsix).read("extension/dist/extension.js").decode("utf-8")
    assert "LanguageClient" in bundle and 'require("vscode")' in bundle   # the client bundled, vscode left to VS Code
