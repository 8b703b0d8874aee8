"""What the compiler's passes hand on (rulesdsl.project.passes): the `Job` a compilation starts from, the
frozen record each pass returns, and the `Compilation` the driver gathers from them."""
from __future__ import annotations

import types
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from rulesdsl.errors import Diagnostic
from rulesdsl.language.parser import Recovery
from rulesdsl.language.source import Source
from rulesdsl.model import ir
from rulesdsl.project.settings import DEFAULT_PACKAGE, Library


@dataclass
class Compilation:
    """What a compilation found and made (build.compile_sources' result): every diagnostic, the rulebooks
    parsed and resolved, the outputs (nothing is written here), the project's labels."""

    sources: dict[str, str] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    rulebooks: dict[str, ir.Rulebook] = field(default_factory=dict)
    resolved: dict[str, ir.Resolved] = field(default_factory=dict)
    outputs: dict[str, str | bytes] = field(default_factory=dict)   # path under the project -> content
    labels: dict[str, dict[str, str]] = field(default_factory=dict)  # the project's labels: lang -> key -> text
    checked: int = 0
    package: str = DEFAULT_PACKAGE      # the folder the outputs go to (pyproject.toml [tool.rulesdsl] package)
    library: set[str] = field(default_factory=set)   # ids of the library rulebooks read (no outputs)
    library_paths: dict[str, str] = field(default_factory=dict)   # their shown paths -> the id asked for
    library_ids: list[str] = field(default_factory=list)    # every id the library folders offer
    parameters: dict[str, dict[str, ir.Declared] | None] = field(default_factory=dict)   # id -> what it may set
    # where a rulebook's own rules answer an example it inherits otherwise (examples.py): printed with the
    # diagnostics, never a problem
    notes: list[Diagnostic] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)


@dataclass(frozen=True)
class Options:
    """What a compilation is asked for (build.compile_sources' arguments)."""

    targets: list[str] | None = None     # the shown paths reported on (None: all)
    library: Library = field(default_factory=Library)
    root: Path | None = None
    library_ids: Collection[str] = ()    # library rulebooks resolved whether or not one extends them
    generate: bool = True                # False: stop after resolving
    examples: bool = True                # False: no worked example is run
    focus: Collection[str] | None = None  # the editor's documents: only what they touch is checked and built
    drafts: Collection[str] = ()         # shown paths whose text is an editor's, unsaved: kept in no user cache
    package: str = DEFAULT_PACKAGE       # the folder the outputs go to


@dataclass(frozen=True)
class Job:
    """What the pipeline starts from (build.compile_sources' arguments): the sources given, what is asked
    for, and the compiler's identity (memo.code_digest), in every cache key: once, not per entry."""

    sources: tuple[Source, ...]
    options: Options
    code: str


@dataclass(frozen=True)
class Parsed:
    """What the parse pass made: the text of every file read, each rulebook's IR by shown path, what
    recovery left out of each rulebook with syntax errors (by path), whether some text did not parse, the
    ids the library folders offer and the library files read (shown path -> the id asked for)."""

    texts: Mapping[str, str]
    rulebooks: Mapping[str, ir.Rulebook]
    broken: Mapping[str, Recovery]
    failed: bool
    library_ids: tuple[str, ...]
    library_paths: Mapping[str, str]
    diagnostics: tuple[Diagnostic, ...]


@dataclass(frozen=True)
class Identified:
    """What the identify pass made: the rulebooks by id and, with a focus, the ids checked (`related`) and
    the ids resolved (`resolving`); None without a focus."""

    index: Mapping[str, ir.Rulebook]
    related: frozenset[str] | None
    resolving: frozenset[str] | None
    diagnostics: tuple[Diagnostic, ...]


@dataclass(frozen=True)
class Checked:
    """What the check pass made: the parameters each checked rulebook may set (None when a rulebook it
    extends is broken), the ids of the library rulebooks among them, their problems."""

    parameters: Mapping[str, dict[str, ir.Declared] | None]
    library: frozenset[str]
    diagnostics: tuple[Diagnostic, ...]


@dataclass(frozen=True)
class Labels:
    """What the labels pass made: the project's labels, lang -> key -> text."""

    labels: Mapping[str, Mapping[str, str]]


@dataclass(frozen=True)
class Resolution:
    """What the resolve pass made: each rulebook that gets a module, resolved, by id; the problems found."""

    resolved: Mapping[str, ir.Resolved]
    diagnostics: tuple[Diagnostic, ...]


@dataclass(frozen=True)
class Reported:
    """What the report pass made: the diagnostics so far of the targets, each once; how many files were
    checked."""

    diagnostics: tuple[Diagnostic, ...]
    checked: int

    @property
    def ok(self) -> bool:
        """No error so far: modules may be generated."""
        return not any(d.severity == "error" for d in self.diagnostics)


@dataclass(frozen=True)
class Generated:
    """What the generate pass made: whether modules were generated (so the examples may run), the outputs
    (path under the project -> content), each module whose examples are to run (its rulebook resolved, its
    text, its memo.stamp), the modules imported so far by id, the problems found."""

    generated: bool
    outputs: Mapping[str, str | bytes]
    with_examples: tuple[tuple[ir.Resolved, str, str], ...]
    loaded: Mapping[str, types.ModuleType | None]
    diagnostics: tuple[Diagnostic, ...]


@dataclass(frozen=True)
class Examined:
    """What the examples pass made: the failures of the rulebooks' own examples (errors) and where a
    rulebook's own rules answer an example it inherits otherwise (notes, never a problem)."""

    diagnostics: tuple[Diagnostic, ...]
    notes: tuple[Diagnostic, ...]
