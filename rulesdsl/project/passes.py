"""The compiler's pipeline as named passes, in order: `PASSES`.  `build.compile_sources` runs them over one
`Compiling` (the compilation in progress) and is the one driver that check, build, the language server,
coverage (and `--mutate`), the cards and the errata's diffs all reach.

Each pass is a function of the `Compiling` state: it reads the fields earlier passes filled and fills its own
(each pass's docstring says which); it writes nothing to disk.

  parse     the rulebooks' text, and the library rulebooks they extend, to IR (what recovery kept of a text
            with syntax errors too)
  identify  the rulebooks by id (an id used twice is an error); the editor's focus
  check     each rulebook against the schema and the checks, with the vocabulary its series declare
  labels    the project's labels: the compiler's, then the labels rulebooks'
  resolve   each rulebook with those it extends: the rules in effect
  report    the diagnostics of the targets only, each once
  generate  each resolved rulebook's module, compiled and imported (when all is well and asked for)
  examples  the worked examples run against the modules: own ones (errors), then inherited ones (notes)
"""
from __future__ import annotations

import functools
import types
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulesdsl.cards.labeler import book_labels
from rulesdsl.checks.examples import Run, has_examples, run as run_examples
from rulesdsl.checks.resolve import chain, resolve
from rulesdsl.checks.validate import check
from rulesdsl.errors import Diagnostic, RulesError, Span
from rulesdsl.language.parser import Recovery
from rulesdsl.language.source import Source, read_source
from rulesdsl.language.transform import PartialParse, parse
from rulesdsl.model import ir
from rulesdsl.model.catalogue import vocabulary
from rulesdsl.modules.codegen import module_name
from rulesdsl.modules.modcheck import (Variants, checked_module, compiled_module, load_module, name_problems,
                                       resolved_problems)
from rulesdsl.project import memo
from rulesdsl.project.output import GENERATED_MARK
from rulesdsl.project.settings import DEFAULT_PACKAGE, Library

PACKAGE_INIT = (GENERATED_MARK + ".\n# Do not edit: run `rulesdsl build`.\n"
                '"""Python rule modules compiled from the rulebooks in rulebooks/."""\n')


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


@dataclass
class Compiling:
    """A compilation in progress: what the passes hand on to each other, and the `result` they fill."""

    sources: list[Source]
    options: Options
    result: Compilation
    code: str       # the compiler's identity (memo.code_digest), in every cache key: once, not per entry
    # parse
    parsed: dict[str, ir.Rulebook] = field(default_factory=dict)     # shown path -> its IR
    broken: dict[str, Recovery] = field(default_factory=dict)   # path -> what recovery left out of its rulebook
    failed: bool = False                 # some text did not parse
    # identify
    index: dict[str, ir.Rulebook] = field(default_factory=dict)      # id -> the rulebook holding it
    related: set[str] | None = None      # focus: the ids checked
    resolving: set[str] | None = None    # focus: the ids resolved
    # generate
    generated: bool = False              # the modules were generated (so the examples may run)
    with_examples: list[tuple[ir.Resolved, str, str]] = field(default_factory=list)   # (its module, memo.stamp)
    loaded_by_id: dict[str, types.ModuleType | None] = field(default_factory=dict)
    # examples
    variants: dict[str, Variants] = field(default_factory=dict)


def parse_sources(state: Compiling) -> None:
    """Parse every source, then the library rulebooks they extend (and `library_ids`), until none is
    missing; with no source at all (a library id named outside any project), start from the library's.
    Fills `parsed`, `broken` (a rulebook with syntax errors: what parsed around them is checked and resolved
    for its problems, never built), `failed`; the result's sources, library ids and paths, diagnostics."""
    result, options = state.result, state.options
    result.library_ids = options.library.ids()
    wanted = list(state.sources) or _from_library(state)
    while wanted:
        for source in wanted:
            result.sources[source.path] = source.text
            try:
                state.parsed[source.path] = _parse(source, None if source.path in options.drafts else state.code)
            except RulesError as exc:
                result.sources.update(exc.sources)
                result.diagnostics += exc.diagnostics
                state.failed = True
                if isinstance(exc, PartialParse) and exc.partial is not None and exc.recovery is not None:
                    state.parsed[source.path] = exc.partial
                    state.broken[source.path] = exc.recovery
        wanted = _from_library(state)


def identify(state: Compiling) -> None:
    """Index the parsed rulebooks by id (a second rulebook with an id is an error, and left out); with a
    focus, which ids are checked and resolved (`_focused`).  Fills `index`, `related`, `resolving`."""
    for rulebook in state.parsed.values():
        key = rulebook.id.value
        if key in state.index:
            state.result.diagnostics.append(Diagnostic(
                f"rulebook id '{key}' is also used by {state.index[key].path}", rulebook.id.span,
                "each rulebook needs an id of its own"))
            continue
        state.index[key] = rulebook
    if state.options.focus is not None:
        state.related, state.resolving = _focused(state.index, state.options.focus)


def check_rulebooks(state: Compiling) -> None:
    """Check each indexed rulebook (the focus's only) against the schema and the checks, with the vocabulary
    of its series (none when one it extends has syntax errors: what it declared is unknown); kept in the
    user's cache unless a rulebook of its series is a draft or broken.  A library file must hold the id it is
    named after.  Fills the result's parameters, library, rulebooks and diagnostics."""
    result, index, broken = state.result, state.index, state.broken
    for shown, rulebook in state.parsed.items():
        key = rulebook.id.value
        if index.get(key) is not rulebook or (state.related is not None and key not in state.related):
            continue
        books = [index[k] for k in lineage(index, key)]     # what the vocabulary it is checked against is read from
        result.parameters[key] = None if any(b.path in broken for b in books[1:]) else parameters_of(rulebook, index)
        problems = _check(rulebook, result.parameters[key],
                          None if any(b.path in state.options.drafts or b.path in broken for b in books)
                          else ([(b.path, result.sources.get(b.path, "")) for b in books], state.code))
        result.diagnostics += _unless_consequence(problems, broken.get(rulebook.path))
        if shown in result.library_paths:
            result.library.add(key)
            if result.library_paths[shown] != key:
                result.diagnostics.append(Diagnostic(
                    f"library file {shown} holds rulebook '{key}', not '{result.library_paths[shown]}'",
                    rulebook.id.span, "a library file is named after the id of the rulebook it holds"))
    result.rulebooks = index


def gather_labels(state: Compiling) -> None:
    """The project's labels: the compiler's (default_labels), then each labels rulebook's.  Fills the
    result's labels."""
    state.result.labels = default_labels(state.code)
    for rulebook in state.index.values():
        if rulebook.kind.value == "labels":
            for block in rulebook.labels:
                state.result.labels.setdefault(block.lang.value, {}).update(
                    {k.value: v.value for k, v in block.labels})


def resolve_rulebooks(state: Compiling) -> None:
    """Resolve each rulebook that gets a module (not a labels rulebook, nor a library one unless asked for,
    nor, with a focus, what the documents only extend) with those it extends; a rulebook whose series did not
    parse, or has syntax errors, is left for when it does.  What parsed of a broken text is resolved for its
    problems only (those recovery cannot have caused).  Fills the result's resolved and diagnostics."""
    result, index = state.result, state.index
    modules: dict[str, ir.Rulebook] = {}
    for key, rulebook in sorted(index.items()):
        if rulebook.kind.value == "labels" or (key in result.library and key not in state.options.library_ids):
            continue   # a library rulebook is resolved as part of each rulebook that extends it
        if state.resolving is not None and key not in state.resolving:
            continue    # the editor's: what the documents extend is resolved as part of each of them
        if state.failed and rulebook.extends is not None and rulebook.extends.value not in index:
            continue  # the rulebook it extends may be one that failed to parse
        if any(index[k].path in state.broken for k in lineage(index, key)[1:]):
            continue  # it extends one with syntax errors: its rules are known only once that one parses
        recovery = state.broken.get(rulebook.path)
        unnamed = name_problems(rulebook)   # its id makes no module name (unless the schema said so already)
        resolved, problems = resolve(rulebook, index, known=result.library_ids)
        result.diagnostics += _unless_consequence(
            [d for d in unnamed if not any(e.span == d.span for e in result.diagnostics)], recovery)
        result.diagnostics += _unless_consequence(problems, recovery)
        if resolved is None or unnamed:
            continue
        result.diagnostics += _unless_consequence(resolved_problems(resolved), recovery)
        if recovery is not None:
            continue    # resolved for its problems only: what parsed of a broken text has no module, no card
        name = module_name(key)
        if name in modules:
            result.diagnostics.append(Diagnostic(
                f"rulebook id '{key}' makes the same module name '{name}' as '{modules[name].id.value}'",
                rulebook.id.span, "rename one of them"))
            continue
        modules[name] = rulebook
        result.resolved[key] = resolved


def report(state: Compiling) -> None:
    """Keep the diagnostics of the targets (and of what they extend), each once: a problem in a series is
    found again when each of its games is resolved.  Fills the result's diagnostics and checked count."""
    targets = state.options.targets
    state.result.diagnostics = list(dict.fromkeys(only_targets(state.result.diagnostics, targets, state.result)))
    state.result.checked = len(targets) if targets is not None else len(state.sources)


def generate_modules(state: Compiling) -> None:
    """When all is well and modules are asked for: each resolved rulebook's module (not a library one's; with
    a focus, the documents' only), compiled and imported before anything is written (unless this very source
    was, by this compiler: memo).  Fills `generated`, `with_examples`, `loaded_by_id`, the result's outputs
    and diagnostics."""
    result = state.result
    if not (result.ok and state.options.generate):
        return
    state.generated = True
    result.outputs[f"{result.package}/__init__.py"] = PACKAGE_INIT
    for key, resolved in sorted(result.resolved.items()):
        if key in result.library:
            continue    # resolved for its card only: a library rulebook has no output
        if state.options.focus is not None and resolved.rulebook.path not in state.options.focus:
            continue    # the editor's compilation: only the documents worked on
        module, imported, problems = checked_module(resolved, functools.partial(memo.imported_before, code=state.code))
        result.diagnostics += problems
        if module is not None and imported is not None:
            memo.imported(module, state.code)
            state.loaded_by_id[resolved.id] = imported
        if module is not None and state.options.examples and has_examples(resolved):
            books = [state.index[k] for k in lineage(state.index, key)]
            state.with_examples.append((resolved, module, memo.stamp(
                module, [(book.path, result.sources.get(book.path, "")) for book in books], state.code)))
        if module is not None:
            result.outputs[f"{result.package}/{module_name(key)}.py"] = module


def run_worked_examples(state: Compiling) -> None:
    """The worked examples run against the generated modules: each rulebook's own (a failure is an error),
    then, without a focus, those a rulebook inherits (a difference is a note; one that fails in its own
    rulebook is not rerun); an outcome computed before from the same rules and compiler is read from the cache
    (memo).  Fills `variants`, the result's diagnostics and notes."""
    if not state.generated:
        return
    result, targets = state.result, state.options.targets
    failing: set[Span] = set()
    state.variants = {resolved.id: Variants(resolved) for resolved, _, _ in state.with_examples}
    for resolved, module, stamp in state.with_examples:
        run = _outcome(state, stamp, resolved, module, inherited=False)
        if run is not None:
            result.diagnostics += only_targets(run.diagnostics, targets, result)
            failing |= run.failed
    if state.options.focus is not None:
        return      # the editor's: the inherited examples give notes, never a problem
    texts = {resolved.id: module for resolved, module, _ in state.with_examples}
    for resolved, module, stamp in state.with_examples:
        paths = [state.index[k].path for k in lineage(state.index, resolved.id)]
        run = _outcome(state, memo.inherited_stamp(stamp, failing, paths), resolved, module, own_examples=False,
                       failed=failing, parent=functools.partial(_parent_module, state, texts, resolved))
        if run is not None:
            result.notes += only_targets(run.diagnostics, targets, result)


Pass = Callable[[Compiling], None]

# the passes in the order build.compile_sources runs them
PASSES: tuple[tuple[str, Pass], ...] = (
    ("parse", parse_sources),
    ("identify", identify),
    ("check", check_rulebooks),
    ("labels", gather_labels),
    ("resolve", resolve_rulebooks),
    ("report", report),
    ("generate", generate_modules),
    ("examples", run_worked_examples),
)


def _loaded(state: Compiling, resolved: ir.Resolved, module: str) -> types.ModuleType | None:
    """The rulebook's module, imported the first time an example needs it."""
    if resolved.id not in state.loaded_by_id:
        state.loaded_by_id[resolved.id] = load_module(module_name(resolved.id), module)[0]
    return state.loaded_by_id[resolved.id]


def _outcome(state: Compiling, stamp: str, resolved: ir.Resolved, module: str, **which: Any) -> Run | None:
    """The rulebook's examples (`which`: own or inherited, as examples.run takes them): their outcome kept
    under `stamp` (memo), else run and kept; None when the module does not import."""
    run = memo.recall(stamp)
    if run is None:
        found = _loaded(state, resolved, module)
        if found is None:
            return None
        run = run_examples(resolved, found, variants=state.variants[resolved.id].get, **which)
        memo.keep(stamp, run)
    return run


def _parent_module(state: Compiling, texts: Mapping[str, str], resolved: ir.Resolved,
                   values: dict[str, object] | None = None) -> types.ModuleType | None:
    """The module of the rulebook `resolved` extends directly (compiled here if the build made none), with
    the values an example assumes: an inherited example it already answers otherwise is noted there, not
    again in each of its games."""
    if not resolved.ancestors:
        return None
    parent = resolved.ancestors[0].id.value
    variants, index = state.variants, state.index
    if parent not in variants:
        found, _ = resolve(index[parent], index, known=state.result.library_ids) if parent in index else (None, [])
        if found is None:
            return None
        variants[parent] = Variants(found)
        state.loaded_by_id.setdefault(parent, compiled_module(found)[1])
    if values:
        return variants[parent].get(values)
    if parent in texts and parent not in state.loaded_by_id:
        return _loaded(state, variants[parent].resolved, texts[parent])
    return state.loaded_by_id.get(parent)


def _unless_consequence(problems: list[Diagnostic], recovery: Recovery | None) -> list[Diagnostic]:
    """The problems found in what parsed of a rulebook with syntax errors that the text recovery left out
    cannot have caused (Recovery.consequence); all of them for a rulebook that parsed."""
    return problems if recovery is None else [d for d in problems if not recovery.consequence(d)]


def _focused(index: Mapping[str, ir.Rulebook], paths: Collection[str]) -> tuple[set[str], set[str]]:
    """(the ids of the rulebooks at `paths`, of those they extend and of those that extend them; the ids of
    those to resolve: all but what the rulebooks at `paths` only extend)."""
    focused = {key for key, rulebook in index.items() if rulebook.path in paths}
    above = {a for key in focused for a in lineage(index, key)} - focused
    below = {key for key in index if focused & set(lineage(index, key))}
    return above | below, below


def _from_library(state: Compiling) -> list[Source]:
    """The library rulebooks that the parsed ones extend (and those `library_ids` names) and no parsed one
    defines (the project's own rulebook with a library id wins over the library's), each read once."""
    result = state.result
    have = {rulebook.id.value for rulebook in state.parsed.values()} | set(result.library_paths.values())
    out: list[Source] = []
    extended = [r.extends.value for r in state.parsed.values() if r.extends is not None]
    for rulebook_id in extended + list(state.options.library_ids):
        if rulebook_id in have:
            continue
        found = state.options.library.find(rulebook_id)
        if found is None:
            continue
        file, shown = found
        have.add(rulebook_id)
        result.library_paths[shown] = rulebook_id
        try:
            out.append(read_source(file, shown, root=state.options.root))
        except RulesError as exc:
            result.diagnostics += exc.diagnostics
            result.sources.update(exc.sources)
    return out


def parameters_of(rulebook: ir.Rulebook, index: dict[str, ir.Rulebook]) -> dict[str, ir.Declared] | None:
    """The parameters a rulebook may set, declared by it or by the rulebooks it extends; None when that
    chain is broken (resolve reports how)."""
    books, problems = chain(rulebook, index)
    return None if problems else vocabulary(reversed(books))[0]



@functools.lru_cache(maxsize=32)
def _parse(source: Source, code: str | None = None) -> ir.Rulebook:
    """A rulebook's IR, remembered by its text: the editor compiles after each change, and the series a game
    extends seldom changes with it (the IR is immutable, so one copy serves every compilation).  With the
    compiler's identity `code`, it is also kept in the user's cache for later processes (memo.parsed)."""
    if code is None:
        return parse(source)
    return memo.parsed(source, parse, code)


_CHECKED: dict[int, tuple[ir.Rulebook, dict[str, ir.Declared] | None, list[Diagnostic]]] = {}


def _check(rulebook: ir.Rulebook, parameters: dict[str, ir.Declared] | None,
           kept: tuple[list[tuple[str, str]], str] | None = None) -> list[Diagnostic]:
    """validate's `check`, remembered for the last rulebooks checked: a rulebook parsed from the same text is
    the same object (`_parse`), and with the same vocabulary it has the same problems.  `kept`: the (path,
    text) of the rulebook and of those it extends, and the compiler's identity, under which the problems are
    also kept in the user's cache for later processes (memo.checked)."""
    seen = _CHECKED.get(id(rulebook))
    if seen is not None and seen[0] is rulebook and seen[1] == parameters:
        return list(seen[2])
    if kept is None:
        problems = check(rulebook, parameters)
    else:
        problems = memo.checked(kept[0], functools.partial(check, rulebook, parameters), kept[1])
    if len(_CHECKED) > 64:
        _CHECKED.clear()
    _CHECKED[id(rulebook)] = rulebook, parameters, list(problems)
    return problems


def lineage(index: Mapping[str, ir.Rulebook], key: str) -> list[str]:
    """The id `key`, then the ids of the rulebooks it extends, nearest first, as far as `index` holds them."""
    out: list[str] = []
    while key in index and key not in out:
        out.append(key)
        extends = index[key].extends
        key = extends.value if extends is not None else ""
    return out



def only_targets(diagnostics: Iterable[Diagnostic], targets: list[str] | None, result: Compilation) -> list[Diagnostic]:
    """The diagnostics of `targets` and of the rulebooks they extend (all when no targets)."""
    if targets is None:
        return list(diagnostics)
    wanted = set(targets)
    for rulebook in result.rulebooks.values():
        if rulebook.path in wanted:
            wanted |= {r.path for r in _lineage(rulebook, result.rulebooks)}
    return [d for d in diagnostics if d.span.path in wanted]


def default_labels(code: str | None = None) -> dict[str, dict[str, str]]:
    """The labels the compiler ships: the charts' (rulesdsl/cards/labels/charts.rules), how the cards word
    conditions (words.rules) and the errata sheets' frame (rulesdsl/errata/labels/errata.rules); with the
    compiler's identity `code`, their IR is kept in the user's cache (memo.parsed)."""
    labels: dict[str, dict[str, str]] = {}
    for stage, name in (("cards", "charts.rules"), ("cards", "words.rules"), ("errata", "errata.rules")):
        file = Path(__file__).parent.parent / stage / "labels" / name
        for lang, texts in book_labels(_parse(read_source(file, f"rulesdsl/{stage}/labels/{name}"), code)).items():
            labels.setdefault(lang, {}).update(texts)
    return labels


def _lineage(rulebook: ir.Rulebook, index: dict[str, ir.Rulebook]) -> list[ir.Rulebook]:
    out, current = [rulebook], rulebook
    while current.extends is not None and current.extends.value in index:
        current = index[current.extends.value]
        if current in out:
            break
        out.append(current)
    return out
