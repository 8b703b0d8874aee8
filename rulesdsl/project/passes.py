"""The compiler's pipeline as named passes, in order: `PASSES`.  `run_passes` runs them over one `Job` (what
the compilation starts from); `build.compile_sources`, which calls it, is the one driver that check, build,
the language server, coverage (and `--mutate`), the cards and the errata's diffs all reach.

Each pass is a function whose parameters are what it reads, the `Job` and the records earlier passes returned
(each parameter annotated with its record's type), and which returns a frozen record of what it made
(`Parsed`, `Identified`, ...); it writes nothing to disk.  `run_passes` hands each pass the records its
annotations name, and `compilation` gathers them into the `Compilation` the driver returns.

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
import inspect
import types
import typing
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

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

_Made = TypeVar("_Made")     # what a pass (or `compilation`) returns

PACKAGE_INIT = (GENERATED_MARK + ".\n# Do not edit: run `rulesdsl build`.\n"
                '"""Python rule modules compiled from the rulebooks in rulebooks/."""\n')


from rulesdsl.project.records import (Checked, Compilation, Examined, Generated, Identified, Job, Labels,
                                       Options, Parsed, Reported, Resolution)


def parse_sources(job: Job) -> Parsed:
    """Parse every source, then the library rulebooks they extend (and `library_ids`), until none is
    missing; with no source at all (a library id named outside any project), start from the library's.
    A rulebook with syntax errors keeps what parsed around them (`broken`): it is checked and resolved for
    its problems, never built."""
    options = job.options
    texts: dict[str, str] = {}
    parsed: dict[str, ir.Rulebook] = {}
    broken: dict[str, Recovery] = {}
    library_paths: dict[str, str] = {}
    diagnostics: list[Diagnostic] = []
    failed = False

    def from_library() -> list[Source]:
        found, unread = _from_library(options, parsed, library_paths)
        for exc in unread:
            diagnostics.extend(exc.diagnostics)
            texts.update(exc.sources)
        return found

    wanted = list(job.sources) or from_library()
    while wanted:
        for source in wanted:
            texts[source.path] = source.text
            try:
                parsed[source.path] = _parse(source, None if source.path in options.drafts else job.code)
            except RulesError as exc:
                texts.update(exc.sources)
                diagnostics += exc.diagnostics
                failed = True
                if isinstance(exc, PartialParse) and exc.partial is not None and exc.recovery is not None:
                    parsed[source.path] = exc.partial
                    broken[source.path] = exc.recovery
        wanted = from_library()
    return Parsed(texts, parsed, broken, failed, tuple(options.library.ids()), library_paths, tuple(diagnostics))


def identify(job: Job, parsed: Parsed) -> Identified:
    """Index the parsed rulebooks by id (a second rulebook with an id is an error, and left out); with a
    focus, which ids are checked and resolved (`_focused`)."""
    index: dict[str, ir.Rulebook] = {}
    diagnostics: list[Diagnostic] = []
    for rulebook in parsed.rulebooks.values():
        key = rulebook.id.value
        if key in index:
            diagnostics.append(Diagnostic(
                f"rulebook id '{key}' is also used by {index[key].path}", rulebook.id.span,
                "each rulebook needs an id of its own"))
            continue
        index[key] = rulebook
    if job.options.focus is None:
        return Identified(index, None, None, tuple(diagnostics))
    related, resolving = _focused(index, job.options.focus)
    return Identified(index, frozenset(related), frozenset(resolving), tuple(diagnostics))


def check_rulebooks(job: Job, parsed: Parsed, identified: Identified) -> Checked:
    """Check each indexed rulebook (the focus's only) against the schema and the checks, with the vocabulary
    of its series (none when one it extends has syntax errors: what it declared is unknown); kept in the
    user's cache unless a rulebook of its series is a draft or broken.  A library file must hold the id it is
    named after."""
    index, broken = identified.index, parsed.broken
    parameters: dict[str, dict[str, ir.Declared] | None] = {}
    library: set[str] = set()
    diagnostics: list[Diagnostic] = []
    for shown, rulebook in parsed.rulebooks.items():
        key = rulebook.id.value
        if index.get(key) is not rulebook or (identified.related is not None and key not in identified.related):
            continue
        books = [index[k] for k in lineage(index, key)]     # what the vocabulary it is checked against is read from
        parameters[key] = None if any(b.path in broken for b in books[1:]) else parameters_of(rulebook, index)
        problems = _check(rulebook, parameters[key],
                          None if any(b.path in job.options.drafts or b.path in broken for b in books)
                          else ([(b.path, parsed.texts.get(b.path, "")) for b in books], job.code))
        diagnostics += _unless_consequence(problems, broken.get(rulebook.path))
        if shown in parsed.library_paths:
            library.add(key)
            if parsed.library_paths[shown] != key:
                diagnostics.append(Diagnostic(
                    f"library file {shown} holds rulebook '{key}', not '{parsed.library_paths[shown]}'",
                    rulebook.id.span, "a library file is named after the id of the rulebook it holds"))
    return Checked(parameters, frozenset(library), tuple(diagnostics))


def gather_labels(job: Job, identified: Identified) -> Labels:
    """The project's labels: the compiler's (default_labels), then each labels rulebook's."""
    labels = default_labels(job.code)
    for rulebook in identified.index.values():
        if rulebook.kind.value == "labels":
            for block in rulebook.labels:
                labels.setdefault(block.lang.value, {}).update({k.value: v.value for k, v in block.labels})
    return Labels(labels)


def resolve_rulebooks(job: Job, parsed: Parsed, identified: Identified, checked: Checked) -> Resolution:
    """Resolve each rulebook that gets a module (not a labels rulebook, nor a library one unless asked for,
    nor, with a focus, what the documents only extend) with those it extends; a rulebook whose series did not
    parse, or has syntax errors, is left for when it does.  What parsed of a broken text is resolved for its
    problems only (those recovery cannot have caused)."""
    index = identified.index
    found: list[Diagnostic] = [*parsed.diagnostics, *identified.diagnostics, *checked.diagnostics]
    earlier = len(found)
    modules: dict[str, ir.Rulebook] = {}
    resolved_by_id: dict[str, ir.Resolved] = {}
    for key, rulebook in sorted(index.items()):
        if not _to_resolve(job, parsed, identified, checked, key):
            continue
        recovery = parsed.broken.get(rulebook.path)
        unnamed = name_problems(rulebook)   # its id makes no module name (unless the schema said so already)
        resolved, problems = resolve(rulebook, index, known=parsed.library_ids)
        found += _unless_consequence([d for d in unnamed if not any(e.span == d.span for e in found)], recovery)
        found += _unless_consequence(problems, recovery)
        if resolved is None or unnamed:
            continue
        found += _unless_consequence(resolved_problems(resolved), recovery)
        if recovery is not None:
            continue    # resolved for its problems only: what parsed of a broken text has no module, no card
        name = module_name(key)
        if name in modules:
            found.append(Diagnostic(
                f"rulebook id '{key}' makes the same module name '{name}' as '{modules[name].id.value}'",
                rulebook.id.span, "rename one of them"))
            continue
        modules[name] = rulebook
        resolved_by_id[key] = resolved
    return Resolution(resolved_by_id, tuple(found[earlier:]))


def _to_resolve(job: Job, parsed: Parsed, identified: Identified, checked: Checked, key: str) -> bool:
    """Whether the resolve pass resolves the rulebook `key` by itself (resolve_rulebooks says which not)."""
    index = identified.index
    rulebook = index[key]
    if rulebook.kind.value == "labels" or (key in checked.library and key not in job.options.library_ids):
        return False   # a library rulebook is resolved as part of each rulebook that extends it
    if identified.resolving is not None and key not in identified.resolving:
        return False    # the editor's: what the documents extend is resolved as part of each of them
    if parsed.failed and rulebook.extends is not None and rulebook.extends.value not in index:
        return False  # the rulebook it extends may be one that failed to parse
    # it extends one with syntax errors: its rules are known only once that one parses
    return not any(index[k].path in parsed.broken for k in lineage(index, key)[1:])


def report(job: Job, parsed: Parsed, identified: Identified, checked: Checked, resolution: Resolution) -> Reported:
    """Keep the diagnostics so far of the targets (and of what they extend), each once: a problem in a series
    is found again when each of its games is resolved."""
    targets = job.options.targets
    every = [*parsed.diagnostics, *identified.diagnostics, *checked.diagnostics, *resolution.diagnostics]
    kept = tuple(dict.fromkeys(only_targets(every, targets, identified.index)))
    return Reported(kept, len(targets) if targets is not None else len(job.sources))


def generate_modules(job: Job, parsed: Parsed, identified: Identified, checked: Checked, resolution: Resolution,
                     reported: Reported) -> Generated:
    """When all is well and modules are asked for: each resolved rulebook's module (not a library one's; with
    a focus, the documents' only), compiled and imported before anything is written (unless this very source
    was, by this compiler: memo)."""
    options = job.options
    if not (reported.ok and options.generate):
        return Generated(False, {}, (), {}, ())
    outputs: dict[str, str | bytes] = {f"{options.package}/__init__.py": PACKAGE_INIT}
    with_examples: list[tuple[ir.Resolved, str, str]] = []
    loaded: dict[str, types.ModuleType | None] = {}
    diagnostics: list[Diagnostic] = []
    for key, resolved in sorted(resolution.resolved.items()):
        if key in checked.library:
            continue    # resolved for its card only: a library rulebook has no output
        if options.focus is not None and resolved.rulebook.path not in options.focus:
            continue    # the editor's compilation: only the documents worked on
        module, imported, problems = checked_module(resolved, functools.partial(memo.imported_before, code=job.code))
        diagnostics += problems
        if module is not None and imported is not None:
            memo.imported(module, job.code)
            loaded[resolved.id] = imported
        if module is not None and options.examples and has_examples(resolved):
            books = [identified.index[k] for k in lineage(identified.index, key)]
            with_examples.append((resolved, module, memo.stamp(
                module, [(book.path, parsed.texts.get(book.path, "")) for book in books], job.code)))
        if module is not None:
            outputs[f"{options.package}/{module_name(key)}.py"] = module
    return Generated(True, outputs, tuple(with_examples), loaded, tuple(diagnostics))


def run_worked_examples(job: Job, parsed: Parsed, identified: Identified, generated: Generated) -> Examined:
    """The worked examples run against the generated modules: each rulebook's own (a failure is an error),
    then, without a focus, those a rulebook inherits (a difference is a note; one that fails in its own
    rulebook is not rerun); an outcome computed before from the same rules and compiler is read from the cache
    (memo)."""
    if not generated.generated:
        return Examined((), ())
    targets, index = job.options.targets, identified.index
    modules = _Modules(index, parsed.library_ids, dict(generated.loaded),
                       {resolved.id: Variants(resolved) for resolved, _, _ in generated.with_examples})
    diagnostics: list[Diagnostic] = []
    failing: set[Span] = set()
    for resolved, module, stamp in generated.with_examples:
        run = _outcome(modules, stamp, resolved, module, inherited=False)
        if run is not None:
            diagnostics += only_targets(run.diagnostics, targets, index)
            failing |= run.failed
    if job.options.focus is not None:
        return Examined(tuple(diagnostics), ())     # the editor's: the inherited examples give notes, never a problem
    notes: list[Diagnostic] = []
    texts = {resolved.id: module for resolved, module, _ in generated.with_examples}
    for resolved, module, stamp in generated.with_examples:
        paths = [index[k].path for k in lineage(index, resolved.id)]
        run = _outcome(modules, memo.inherited_stamp(stamp, failing, paths), resolved, module, own_examples=False,
                       failed=failing, parent=functools.partial(_parent_module, modules, texts, resolved))
        if run is not None:
            notes += only_targets(run.diagnostics, targets, index)
    return Examined(tuple(diagnostics), tuple(notes))


# the passes in the order run_passes runs them; each takes the records of earlier passes that it reads (by
# their types: `run_passes` hands each parameter the record of its annotated type) and returns its own
PASSES: tuple[tuple[str, Callable[..., Any]], ...] = (
    ("parse", parse_sources),
    ("identify", identify),
    ("check", check_rulebooks),
    ("labels", gather_labels),
    ("resolve", resolve_rulebooks),
    ("report", report),
    ("generate", generate_modules),
    ("examples", run_worked_examples),
)


def run_passes(job: Job) -> Compilation:
    """Every pass of PASSES, in order, over `job`: each is given the records its parameters are annotated
    with (the job, and what earlier passes returned), and what they all made is the compilation."""
    records: dict[type, object] = {Job: job}
    for _, step in PASSES:
        made = _call(step, records)
        records[type(made)] = made
    return _call(compilation, records)


def _call(step: Callable[..., _Made], records: Mapping[type, object]) -> _Made:
    """`step` called with, for each parameter, the record of the type it is annotated with."""
    return step(**{name: records[kind] for name, kind in inputs(step).items()})


@functools.cache
def inputs(step: Callable[..., Any]) -> dict[str, type]:
    """The records a pass reads: its parameters' names and annotated types (the return type left out)."""
    hints = typing.get_type_hints(step)
    return {name: hints[name] for name in inspect.signature(step).parameters}


def compilation(job: Job, parsed: Parsed, identified: Identified, checked: Checked, labels: Labels,
                resolution: Resolution, reported: Reported, generated: Generated, examined: Examined) -> Compilation:
    """The compilation the passes made, as build.compile_sources returns it."""
    return Compilation(
        sources=dict(parsed.texts), diagnostics=[*reported.diagnostics, *generated.diagnostics,
                                                 *examined.diagnostics],
        rulebooks=dict(identified.index), resolved=dict(resolution.resolved), outputs=dict(generated.outputs),
        labels={lang: dict(texts) for lang, texts in labels.labels.items()}, checked=reported.checked,
        package=job.options.package, library=set(checked.library), library_paths=dict(parsed.library_paths),
        library_ids=list(parsed.library_ids), parameters=dict(checked.parameters), notes=list(examined.notes))


@dataclass
class _Modules:
    """The modules the examples pass imports as the examples need them (mutable, and the pass's own): by
    id, each rulebook's module and the variants of its rulebook under the values an example assumes."""

    index: Mapping[str, ir.Rulebook]
    library_ids: tuple[str, ...]
    loaded: dict[str, types.ModuleType | None]
    variants: dict[str, Variants]


def _loaded(modules: _Modules, resolved: ir.Resolved, module: str) -> types.ModuleType | None:
    """The rulebook's module, imported the first time an example needs it."""
    if resolved.id not in modules.loaded:
        modules.loaded[resolved.id] = load_module(module_name(resolved.id), module)[0]
    return modules.loaded[resolved.id]


def _outcome(modules: _Modules, stamp: str, resolved: ir.Resolved, module: str, **which: Any) -> Run | None:
    """The rulebook's examples (`which`: own or inherited, as examples.run takes them): their outcome kept
    under `stamp` (memo), else run and kept; None when the module does not import."""
    run = memo.recall(stamp)
    if run is None:
        found = _loaded(modules, resolved, module)
        if found is None:
            return None
        run = run_examples(resolved, found, variants=modules.variants[resolved.id].get, **which)
        memo.keep(stamp, run)
    return run


def _parent_module(modules: _Modules, texts: Mapping[str, str], resolved: ir.Resolved,
                   values: dict[str, object] | None = None) -> types.ModuleType | None:
    """The module of the rulebook `resolved` extends directly (compiled here if the build made none), with
    the values an example assumes: an inherited example it already answers otherwise is noted there, not
    again in each of its games."""
    if not resolved.ancestors:
        return None
    parent = resolved.ancestors[0].id.value
    variants, index = modules.variants, modules.index
    if parent not in variants:
        found, _ = resolve(index[parent], index, known=modules.library_ids) if parent in index else (None, [])
        if found is None:
            return None
        variants[parent] = Variants(found)
        modules.loaded.setdefault(parent, compiled_module(found)[1])
    if values:
        return variants[parent].get(values)
    if parent in texts and parent not in modules.loaded:
        return _loaded(modules, variants[parent].resolved, texts[parent])
    return modules.loaded.get(parent)


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


def _from_library(options: Options, parsed: Mapping[str, ir.Rulebook],
                  library_paths: dict[str, str]) -> tuple[list[Source], list[RulesError]]:
    """The library rulebooks that the `parsed` ones extend (and those `library_ids` names) and no parsed one
    defines (the project's own rulebook with a library id wins over the library's), each read once: each
    found is recorded in `library_paths` (its shown path -> its id); the sources read, and why the others
    could not be."""
    have = {rulebook.id.value for rulebook in parsed.values()} | set(library_paths.values())
    out: list[Source] = []
    unread: list[RulesError] = []
    extended = [r.extends.value for r in parsed.values() if r.extends is not None]
    for rulebook_id in extended + list(options.library_ids):
        if rulebook_id in have:
            continue
        found = options.library.find(rulebook_id)
        if found is None:
            continue
        file, shown = found
        have.add(rulebook_id)
        library_paths[shown] = rulebook_id
        try:
            out.append(read_source(file, shown, root=options.root))
        except RulesError as exc:
            unread.append(exc)
    return out, unread


def parameters_of(rulebook: ir.Rulebook, index: Mapping[str, ir.Rulebook]) -> dict[str, ir.Declared] | None:
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



def only_targets(diagnostics: Iterable[Diagnostic], targets: list[str] | None,
                 rulebooks: Mapping[str, ir.Rulebook]) -> list[Diagnostic]:
    """The diagnostics of `targets` and of the rulebooks they extend (all when no targets), as `rulebooks`
    (by id) say what extends what."""
    if targets is None:
        return list(diagnostics)
    wanted = set(targets)
    for rulebook in rulebooks.values():
        if rulebook.path in wanted:
            wanted |= {r.path for r in _lineage(rulebook, rulebooks)}
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


def _lineage(rulebook: ir.Rulebook, index: Mapping[str, ir.Rulebook]) -> list[ir.Rulebook]:
    """The rulebook, then those it extends, nearest first, as far as `index` (by id) holds them."""
    out, current = [rulebook], rulebook
    while current.extends is not None and current.extends.value in index:
        current = index[current.extends.value]
        if current in out:
            break
        out.append(current)
    return out
