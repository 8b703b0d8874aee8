"""The series library, and a project's settings (pyproject.toml [tool.rulesdsl]).

A library is a folder of rulebooks, each named after its id (`scs-1.8.rules` holds `series scs-1.8 ...`).
The compiler ships one: the repository's `rulebooks/series/`, installed as the package data
`rulesdsl/library/` (pyproject.toml maps the one folder onto the other, so there is no second copy).
A project may name more library folders in `pyproject.toml`:

    [tool.rulesdsl]
    library = ["../house-series"]    # folders of <id>.rules, searched before the shipped library
    package = "mytitle_rules"        # where `rulesdsl build` writes the modules (default: generated)

A rulebook `extends` an id that the project's own rulebooks define first, then one of the library
folders, in the order given, the shipped library last: the nearest definition wins, and a project's
own rulebook with a library id (a local edition of the series) hides the library's without any
error.  Library rulebooks are read only when something extends them; a build writes modules and
cards for the project's own rulebooks only (a game's module repeats everything it inherits).
"""
from __future__ import annotations

import keyword
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from rulesdsl.language.source import read_bytes
from rulesdsl.errors import Diagnostic, RulesError, Span, suggest

DEFAULT_PACKAGE = "generated"
CONFIG_FILE = "pyproject.toml"
SHIPPED_SHOWN = "rulesdsl/library"
_KEYS = ("library", "package")


def shipped_folder() -> Path:
    """The series rulebooks the compiler ships: the installed package data, or, in a source tree
    (and an editable install), the repository's rulebooks/series itself."""
    here = Path(__file__).resolve().parent.parent     # the rulesdsl package
    installed = here / "library"
    if installed.is_dir():
        return installed
    return here.parent / "rulebooks" / "series"


@dataclass(frozen=True)
class Folder:
    path: Path
    shown: str      # how messages and generated code name the folder


@dataclass(frozen=True)
class Library:
    """Library folders, searched in order."""

    folders: tuple[Folder, ...] = field(default_factory=lambda: (Folder(shipped_folder(), SHIPPED_SHOWN),))

    def find(self, rulebook_id: str) -> tuple[Path, str] | None:
        """The file of a library rulebook and its shown path, by id (None: no folder has it)."""
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9.\-]*", rulebook_id):
            return None
        for folder in self.folders:
            file = folder.path / f"{rulebook_id}.rules"
            if file.is_file():
                return file, f"{folder.shown}/{rulebook_id}.rules"
        return None

    def ids(self) -> list[str]:
        found: set[str] = set()
        for folder in self.folders:
            if folder.path.is_dir():
                found |= {f.stem for f in folder.path.glob("*.rules")}
        return sorted(found)


@dataclass(frozen=True)
class Config:
    library: Library = field(default_factory=Library)
    package: str = DEFAULT_PACKAGE

    @property
    def module_prefix(self) -> str:
        """The import name of the generated package ('generated', 'mytitle.rules')."""
        return self.package.replace("/", ".")


def load_config(root: Path | None) -> Config:
    """The project's settings from `pyproject.toml` `[tool.rulesdsl]` (defaults when there is none);
    RulesError with positioned diagnostics when they are wrong."""
    if root is None or not os.path.lexists(root / CONFIG_FILE):
        return Config()
    file = root / CONFIG_FILE
    # read as a rulebook is: a regular file of the project, not a symlink out of it, not too large
    raw = read_bytes(file, CONFIG_FILE, root, what="settings file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RulesError([Diagnostic(f"cannot read the project settings: not UTF-8 (byte {exc.start})",
                                     Span(CONFIG_FILE))]) from None
    sources = {CONFIG_FILE: text}
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        where = re.search(r"\(at line (\d+), column (\d+)\)", message)
        line, column = (int(where.group(1)), int(where.group(2))) if where else (1, 1)
        message = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", message)
        raise RulesError([Diagnostic(f"not valid TOML: {message}", Span(CONFIG_FILE, line, column, line, column + 1),
                                     "see https://toml.io for the syntax")], sources) from None
    tool = data.get("tool", {})
    settings = tool.get("rulesdsl") if isinstance(tool, dict) else None
    if settings is None:
        return Config()
    problems: list[Diagnostic] = []
    if not isinstance(settings, dict):
        raise RulesError([Diagnostic("tool.rulesdsl must be a table", _span(text, None, "rulesdsl"),
                                     "write the settings under a [tool.rulesdsl] header")], sources)
    for key in settings:
        if key not in _KEYS:
            near = suggest(key, _KEYS)
            problems.append(Diagnostic(f"unknown setting '{key}' in [tool.rulesdsl]", _span(text, key),
                                       near or f"the settings are: {', '.join(_KEYS)}"))
    folders: list[Folder] = []
    paths = settings.get("library", [])
    if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
        problems.append(Diagnostic("library must be a list of folder paths", _span(text, "library"),
                                   'write, for example: library = ["../house-series"]'))
        paths = []
    for entry in paths:
        folder = root / entry
        if not folder.is_dir():
            problems.append(Diagnostic(f"library folder '{entry}' does not exist (relative to {root})",
                                       _span(text, "library", entry),
                                       "a library folder holds series rulebooks named after their ids"))
            continue
        shown = Path(entry).as_posix().rstrip("/") or "."
        folders.append(Folder(folder, shown))
    package = settings.get("package", DEFAULT_PACKAGE)
    if not isinstance(package, str) or not _valid_package(package):
        problems.append(Diagnostic(f"package must name a Python package folder, not {package!r}",
                                   _span(text, "package", package if isinstance(package, str) else None),
                                   'one name, or names joined by "/", each a Python identifier: '
                                   'package = "mytitle_rules"'))
        package = DEFAULT_PACKAGE
    if problems:
        raise RulesError(problems, sources)
    return Config(Library((*folders, *Library().folders)), package)


def _valid_package(package: str) -> bool:
    parts = package.split("/")
    return all(p.isidentifier() and not keyword.iskeyword(p) and p.isascii() for p in parts) and \
        parts[0] not in ("rulesdsl", "rulebooks")


def _span(text: str, key: str | None, value: str | None = None) -> Span:
    """Where `key` (and `value` in it) is set in the [tool.rulesdsl] table; its header otherwise."""
    lines = text.split("\n")
    header, start = 1, 0
    for number, line in enumerate(lines):
        if re.match(r"\s*\[\s*tool\s*\.\s*rulesdsl\s*\]", line):
            header, start = number + 1, number
            break
    if key is None:
        return Span(CONFIG_FILE, header, 1, header, len(lines[header - 1]) + 1)
    for number in range(start, len(lines)):
        line = lines[number]
        if number > start and re.match(r"\s*\[", line):
            break
        match = re.match(rf"\s*({re.escape(key)}|\"{re.escape(key)}\")\s*=", line)
        if match:
            column, end = match.start(1) + 1, match.end(1) + 1
            if value is not None:
                # the value may be on a following line of a multi-line array
                for later in range(number, min(number + 50, len(lines))):
                    at = lines[later].find(f'"{value}"')
                    if at >= 0:
                        return Span(CONFIG_FILE, later + 1, at + 1, later + 1, at + len(value) + 3)
            return Span(CONFIG_FILE, number + 1, column, number + 1, end)
    return Span(CONFIG_FILE, header, 1, header, len(lines[header - 1]) + 1)
