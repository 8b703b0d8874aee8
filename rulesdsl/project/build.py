"""A project: the rulebooks under `rulebooks/`, compiled together into `generated/`.

`compile_project` runs every pass (rulesdsl/project/passes.py) and collects every
diagnostic; it writes nothing.  Writing generated/ is rulesdsl/project/output.py's.
"""
from __future__ import annotations

import functools
import os
import re
import secrets
import subprocess
import types
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from functools import partial
from pathlib import Path

from rulesdsl.model import ir
from rulesdsl.modules.codegen import module_name
from rulesdsl.checks.examples import Run, has_examples, run as run_examples
from rulesdsl.modules.modcheck import (Variants, checked_module, compiled_module, load_module, name_problems,
                                       resolved_problems)
from rulesdsl.errors import Diagnostic, RulesError, Span
from rulesdsl.project import memo
from rulesdsl.project.output import GENERATED_MARK
from rulesdsl.project.settings import DEFAULT_PACKAGE, SHIPPED_SHOWN, Library, load_config, shipped_folder
from rulesdsl.model.catalogue import vocabulary
from rulesdsl.checks.resolve import chain, resolve
from rulesdsl.cards.labeler import book_labels
from rulesdsl.language.source import Source, read_source
from rulesdsl.language.transform import PartialParse, parse
from rulesdsl.language.parser import Recovery
from rulesdsl.checks.validate import check

PACKAGE_INIT = (GENERATED_MARK + ".\n# Do not edit: run `rulesdsl build`.\n"
                '"""Python rule modules compiled from the rulebooks in rulebooks/."""\n')
PDF_MANIFEST = "generated/charts/pdfs.sha256"   # under the default package (see pdf_manifest)


def pdf_manifest(package: str = DEFAULT_PACKAGE) -> str:
    return f"{package}/charts/pdfs.sha256"
PDF_MANIFEST_HEAD = (
    GENERATED_MARK + ". Do not edit: run `rulesdsl build`.\n"
    "# The PDF cards are not committed: their bytes depend on the WeasyPrint that prints them.\n"
    "# Each line is instead the SHA-256 of one card's inputs (its HTML, rulesdsl/cards/fonts/fonts.css,\n"
    "# the font files and the paper), which `rulesdsl build --check` compares.\n")


def find_root(start: Path) -> Path | None:
    for folder in (start, *start.parents):
        if (folder / "rulebooks").is_dir():
            return folder
    return None


def rulebook_files(root: Path) -> list[Path]:
    return sorted((root / "rulebooks").rglob("*.rules"))


def shown_path(file: Path, root: Path | None) -> str:
    """A path as messages and generated code show it: relative to the project, with '/'."""
    file = Path(os.path.abspath(file))
    if root is not None:
        try:
            return file.relative_to(os.path.abspath(root)).as_posix()
        except ValueError:
            pass
    return file.as_posix()


def seen_path(shown: str, root: Path | None, here: Path | None = None) -> str:
    """A shown path (`shown_path`: relative to the project, a library folder's as pyproject.toml names it, the
    shipped library's `rulesdsl/library/...`) as the user sees it from `here` (the current folder): the
    file's path relative to `here` when it is in `here` or below it, or when both are inside the project;
    else its absolute path.  What is no file (standard input, a `REV:path` side, a situation) is left as it is.
    So `rulesdsl -C dir check` names `dir/rulebooks/x.rules`, and the installed library's rulebooks are named
    where they are installed, a path that opens."""
    if not shown or shown.startswith("<") or ":" in shown.split("/")[0]:
        return shown
    if shown == SHIPPED_SHOWN or shown.startswith(SHIPPED_SHOWN + "/"):
        file = shipped_folder() / shown[len(SHIPPED_SHOWN) + 1:]
    elif Path(shown).is_absolute():
        file = Path(shown)
    elif root is not None:
        file = Path(root) / shown
    else:
        return shown
    file = Path(os.path.abspath(file))
    here = Path(os.path.abspath(here if here is not None else Path.cwd()))
    top = Path(os.path.abspath(root)) if root is not None else None
    if file.is_relative_to(here) or (top is not None and here.is_relative_to(top) and file.is_relative_to(top)):
        return Path(os.path.relpath(file, here)).as_posix()
    return file.as_posix()


@dataclass
class Compilation:
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


def compile_project(root: Path | None, paths: list[Path] | None = None,
                    library_ids: Collection[str] = (), examples: bool = True, generate: bool = True,
                    unsaved: Mapping[str, str] | None = None, focus: bool = False) -> Compilation:
    """Read every rulebook of the project (and `paths`), then compile them together, with the library
    rulebooks they extend; `paths` limits what is reported to those files and the rulebooks they extend.
    `library_ids`: library rulebooks resolved too, whether or not a rulebook extends them (a series'
    card); a rulebook of the project with the same id wins.  `examples=False` skips running the worked
    examples; `generate=False` stops after resolving: no module is generated (a card, a coverage report and
    an explanation read the resolved rules; `check` and `build` generate, import and run every module).
    `unsaved`: the text of some files as an editor holds it (by path as shown), read instead of the disk.
    `focus` (the editor's compilation, as the designer types): only the rulebooks of `paths`, those they
    extend and those that extend them are checked and resolved, only `paths` get a module and run their
    own worked examples, and the inherited examples (which give notes, never a problem) are not run."""
    try:
        config = load_config(root)
    except RulesError as exc:   # the settings are wrong: where outputs would go is unknown
        return Compilation(diagnostics=list(exc.diagnostics), sources=dict(exc.sources), package="")
    files = rulebook_files(root) if root is not None else []
    targets = None
    if paths:
        targets = [shown_path(p, root) for p in paths]
        known = {shown_path(f, root) for f in files}
        files += [p for p in paths if shown_path(p, root) not in known]
    sources: list[Source] = []
    problems: list[Diagnostic] = []
    texts: dict[str, str] = {}
    for file in files:
        shown = shown_path(file, root)
        if unsaved is not None and shown in unsaved:
            sources.append(Source(shown, unsaved[shown]))
            continue
        try:
            sources.append(read_source(file, shown, root=root))
        except RulesError as exc:
            problems += exc.diagnostics
            texts.update(exc.sources)
    result = compile_sources(sources, targets, config.library, config.package, root, library_ids,
                             examples=examples, generate=generate, focus=targets if focus else None,
                             drafts=set(unsaved or ()))
    result.diagnostics = _only(problems, targets, result) + result.diagnostics
    result.sources.update(texts)
    result.checked = len(targets) if targets is not None else len(files)
    if not result.ok:
        result.outputs = {}
    return result


def parameters_of(rulebook: ir.Rulebook, index: dict[str, ir.Rulebook]) -> dict[str, ir.Declared] | None:
    """The parameters a rulebook may set, declared by it or by the rulebooks it extends; None when that
    chain is broken (resolve reports how)."""
    books, problems = chain(rulebook, index)
    return None if problems else vocabulary(reversed(books))[0]


def library_parameters(library: Library | None = None) -> dict[str, dict[str, ir.Declared]]:
    """The parameters each library rulebook lets a title set (the core vocabulary, what it and the
    rulebooks it extends declare), by id; a library rulebook that does not parse is left out."""
    library = library or Library()
    index: dict[str, ir.Rulebook] = {}
    for rulebook_id in library.ids():
        found = library.find(rulebook_id)
        if found is None:
            continue
        try:
            index[rulebook_id] = parse(read_source(*found))
        except RulesError:
            continue
    vocabularies = {rulebook_id: parameters_of(book, index) for rulebook_id, book in index.items()}
    return {rulebook_id: known for rulebook_id, known in vocabularies.items() if known is not None}


def compile_sources(sources: list[Source], targets: list[str] | None = None, library: Library | None = None,
                    package: str = DEFAULT_PACKAGE, root: Path | None = None,
                    library_ids: Collection[str] = (), generate: bool = True,
                    examples: bool = True, focus: Collection[str] | None = None,
                    drafts: Collection[str] = ()) -> Compilation:
    """Parse, check, resolve and generate rulebooks given as text, with the library rulebooks they
    extend (read from `library`, by default the shipped one); writes nothing.  Outputs go under
    `package`; only the rulebooks in `sources` get any.  `library_ids`: library rulebooks resolved as
    well (compile_project).  `generate=False` stops after resolving (a diff reads no module).  `focus`:
    the shown paths an editor is working on (compile_project); `drafts`: those whose text is an editor's,
    unsaved (their IR is not kept in the user's cache: memo.parsed)."""
    result = Compilation(package=package)
    code = memo.code_digest()       # the compiler's identity, in every cache key below: once, not per entry
    parsed: dict[str, ir.Rulebook] = {}
    broken: dict[str, Recovery] = {}        # path -> what recovery left out of the rulebook parsed there
    failed = False
    library = library or Library()
    result.library_ids = library.ids()
    # with no rulebook of its own (a library id named outside any project), start from the library's
    wanted: list[Source] = list(sources) or _from_library(parsed, library, root, result, library_ids)
    while wanted:
        for source in wanted:
            result.sources[source.path] = source.text
            try:
                parsed[source.path] = _parse(source, None if source.path in drafts else code)
            except RulesError as exc:
                result.sources.update(exc.sources)
                result.diagnostics += exc.diagnostics
                failed = True
                if isinstance(exc, PartialParse) and exc.partial is not None and exc.recovery is not None:
                    # what parsed around its syntax errors: checked and resolved for their problems, never built
                    parsed[source.path] = exc.partial
                    broken[source.path] = exc.recovery
        wanted = _from_library(parsed, library, root, result, library_ids)

    index: dict[str, ir.Rulebook] = {}
    for shown, rulebook in parsed.items():
        key = rulebook.id.value
        if key in index:
            result.diagnostics.append(Diagnostic(
                f"rulebook id '{key}' is also used by {index[key].path}", rulebook.id.span,
                "each rulebook needs an id of its own"))
            continue
        index[key] = rulebook
    related, resolving = _focused(index, focus) if focus is not None else (None, None)
    for shown, rulebook in parsed.items():
        key = rulebook.id.value
        if index.get(key) is not rulebook or (related is not None and key not in related):
            continue
        books = [index[k] for k in lineage(index, key)]     # what the vocabulary it is checked against is read from
        # a rulebook that extends one with syntax errors is checked without a vocabulary, as when that one does
        # not parse at all: what the broken text declared is unknown
        result.parameters[key] = None if any(b.path in broken for b in books[1:]) else parameters_of(rulebook, index)
        problems = _check(rulebook, result.parameters[key],
                          None if any(b.path in drafts or b.path in broken for b in books)
                          else ([(b.path, result.sources.get(b.path, "")) for b in books], code))
        result.diagnostics += _unless_consequence(problems, broken.get(rulebook.path))
        if shown in result.library_paths:
            result.library.add(key)
            if result.library_paths[shown] != key:
                result.diagnostics.append(Diagnostic(
                    f"library file {shown} holds rulebook '{key}', not '{result.library_paths[shown]}'",
                    rulebook.id.span, "a library file is named after the id of the rulebook it holds"))
    result.rulebooks = index

    result.labels = default_labels(code)
    for rulebook in index.values():
        if rulebook.kind.value == "labels":
            for block in rulebook.labels:
                result.labels.setdefault(block.lang.value, {}).update({k.value: v.value for k, v in block.labels})
    modules: dict[str, ir.Rulebook] = {}
    for key, rulebook in sorted(index.items()):
        if rulebook.kind.value == "labels" or (key in result.library and key not in library_ids):
            continue   # a library rulebook is resolved as part of each rulebook that extends it
        if resolving is not None and key not in resolving:
            continue    # the editor's: what the documents extend is resolved as part of each of them
        if failed and rulebook.extends is not None and rulebook.extends.value not in index:
            continue  # the rulebook it extends may be one that failed to parse
        if any(index[k].path in broken for k in lineage(index, key)[1:]):
            continue  # it extends one with syntax errors: its rules are known only once that one parses
        recovery = broken.get(rulebook.path)
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

    # a problem in a series is found again when each of its games is resolved: report it once
    result.diagnostics = list(dict.fromkeys(_only(result.diagnostics, targets, result)))
    result.checked = len(targets) if targets is not None else len(sources)
    if result.ok and generate:
        # (resolved, its module's text, what its examples are computed from: memo.stamp)
        with_examples: list[tuple[ir.Resolved, str, str]] = []
        loaded_by_id: dict[str, types.ModuleType | None] = {}
        result.outputs[f"{package}/__init__.py"] = PACKAGE_INIT
        for key, resolved in sorted(result.resolved.items()):
            if key in result.library:
                continue    # resolved for its card only: a library rulebook has no output
            if focus is not None and resolved.rulebook.path not in focus:
                continue    # the editor's compilation: only the documents worked on
            # compiled and imported before anything is written (unless this very source was, by this compiler)
            module, imported, problems = checked_module(resolved, partial(memo.imported_before, code=code))
            result.diagnostics += problems
            if module is not None and imported is not None:
                memo.imported(module, code)
                loaded_by_id[resolved.id] = imported
            if module is not None and examples and has_examples(resolved):
                books = [index[k] for k in lineage(index, key)]
                with_examples.append((resolved, module, memo.stamp(
                    module, [(book.path, result.sources.get(book.path, "")) for book in books], code)))
            if module is not None:
                result.outputs[f"{package}/{module_name(key)}.py"] = module

        def loaded(resolved: ir.Resolved, module: str) -> types.ModuleType | None:
            """The rulebook's module, imported the first time an example needs it."""
            if resolved.id not in loaded_by_id:
                loaded_by_id[resolved.id] = load_module(module_name(resolved.id), module)[0]
            return loaded_by_id[resolved.id]

        def outcome(stamp: str, resolved: ir.Resolved, module: str, **which: Any) -> Run | None:
            """The rulebook's examples (`which`: own or inherited, as examples.run takes them): their outcome
            kept under `stamp` (memo), else run and kept; None when the module does not import."""
            run = memo.recall(stamp)
            if run is None:
                found = loaded(resolved, module)
                if found is None:
                    return None
                run = run_examples(resolved, found, variants=variants[resolved.id].get, **which)
                memo.keep(stamp, run)
            return run

        # the worked examples run against the modules: each rulebook's own (a failure is an error), then
        # those a rulebook inherits (a difference is a note; one that fails in its own rulebook is not rerun);
        # an outcome computed before from the same rules and the same compiler is read from the cache (memo)
        failing: set[Span] = set()
        variants = {resolved.id: Variants(resolved) for resolved, _, _ in with_examples}
        for resolved, module, stamp in with_examples:
            run = outcome(stamp, resolved, module, inherited=False)
            if run is not None:
                result.diagnostics += _only(run.diagnostics, targets, result)
                failing |= run.failed
        texts = {resolved.id: module for resolved, module, _ in with_examples}

        def parent_module(resolved: ir.Resolved, values: dict[str, object] | None = None) -> types.ModuleType | None:
            """The module of the rulebook `resolved` extends directly (compiled here if the build made none),
            with the values an example assumes: an inherited example it already answers otherwise is noted
            there, not again in each of its games."""
            if not resolved.ancestors:
                return None
            parent = resolved.ancestors[0].id.value
            if parent not in variants:
                found, _ = resolve(index[parent], index, known=result.library_ids) if parent in index else (None, [])
                if found is None:
                    return None
                variants[parent] = Variants(found)
                loaded_by_id.setdefault(parent, compiled_module(found)[1])
            if values:
                return variants[parent].get(values)
            if parent in texts and parent not in loaded_by_id:
                return loaded(variants[parent].resolved, texts[parent])
            return loaded_by_id.get(parent)

        for resolved, module, stamp in with_examples if focus is None else ():
            paths = [index[k].path for k in lineage(index, resolved.id)]
            run = outcome(memo.inherited_stamp(stamp, failing, paths), resolved, module, own_examples=False,
                          failed=failing, parent=functools.partial(parent_module, resolved))
            if run is not None:
                result.notes += _only(run.diagnostics, targets, result)
        if not result.ok:
            result.outputs = {}
    return result


def _unless_consequence(problems: list[Diagnostic], recovery: Recovery | None) -> list[Diagnostic]:
    """The problems found in what parsed of a rulebook with syntax errors that the text recovery left out
    cannot have caused (Recovery.consequence); all of them for a rulebook that parsed."""
    return problems if recovery is None else [d for d in problems if not recovery.consequence(d)]


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
        problems = memo.checked(kept[0], partial(check, rulebook, parameters), kept[1])
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


def _focused(index: Mapping[str, ir.Rulebook], paths: Collection[str]) -> tuple[set[str], set[str]]:
    """(the ids of the rulebooks at `paths`, of those they extend and of those that extend them; the ids of
    those to resolve: all but what the rulebooks at `paths` only extend)."""
    focused = {key for key, rulebook in index.items() if rulebook.path in paths}
    above = {a for key in focused for a in lineage(index, key)} - focused
    below = {key for key in index if focused & set(lineage(index, key))}
    return above | below, below


def _from_library(parsed: dict[str, ir.Rulebook], library: Library, root: Path | None,
                  result: Compilation, also: Collection[str] = ()) -> list[Source]:
    """The library rulebooks that the parsed ones extend (and those `also` names) and no parsed one
    defines (the project's own rulebook with a library id wins over the library's), each read once."""
    have = {rulebook.id.value for rulebook in parsed.values()} | set(result.library_paths.values())
    out: list[Source] = []
    for rulebook_id in [r.extends.value for r in parsed.values() if r.extends is not None] + list(also):
        if rulebook_id in have:
            continue
        found = library.find(rulebook_id)
        if found is None:
            continue
        file, shown = found
        have.add(rulebook_id)
        result.library_paths[shown] = rulebook_id
        try:
            out.append(read_source(file, shown, root=root))
        except RulesError as exc:
            result.diagnostics += exc.diagnostics
            result.sources.update(exc.sources)
    return out


def print_card(resolved: ir.Resolved, lang: str, labels: dict[str, dict[str, str]], paper: str | None = None,
               pdf: bool = True) -> tuple[dict[str, Any], str, bytes | None, list[Diagnostic]]:
    """One card as printed, on the paper and within the sides its card block asks for (`paper` overrides
    it): its data, its HTML as laid out (page and columns chosen), its PDF (None on a layout error, b""
    when not `pdf`) and its warnings and the layout check's errors."""
    from rulesdsl.cards.labeler import languages
    from rulesdsl.cards.pdf import card_pdfs
    # every language of the card is laid out, as a build does, so that it prints on the page shape they share
    editions = [lang] + [other for other in languages(resolved) if other != lang]
    prepared = [_card_job(resolved, edition, labels, paper) for edition in editions]
    html, content, problems = card_pdfs([job for _, _, job in prepared], write=pdf)[0]
    data, warnings, _ = prepared[0]
    return data, html, content, warnings + problems


def _card_job(resolved: ir.Resolved, lang: str, labels: dict[str, dict[str, str]],
              paper: str | None) -> tuple[dict[str, Any], list[Diagnostic], tuple[dict[str, Any], Span, int]]:
    """A card's data and warnings, and what pdf.card_pdf lays out: the data, where errors point, the sides."""
    from rulesdsl.cards.charts import card, card_options
    options = card_options(resolved)
    data, warnings = card(resolved, lang, labels, paper or options.paper or "a4")
    return data, warnings, (data, resolved.rulebook.id.span, options.sides)


def card_problems(result: Compilation, paths: Collection[str] | None = None) -> list[Diagnostic]:
    """What a build says of the cards of the project's rulebooks (`paths`: only those files'), each laid out
    in each of its languages as a build lays it out (through the card cache, no PDF written): the errors it
    refuses (a chart no side holds, more sides than the card block allows) and its warnings (labels missing)."""
    from rulesdsl.cards.labeler import languages
    from rulesdsl.cards.pdf import card_pdfs
    cards = [resolved for _, resolved in sorted(result.resolved.items())
             if resolved.rulebook.path not in result.library_paths
             and (paths is None or resolved.rulebook.path in paths)]
    prepared = [_card_job(resolved, lang, result.labels, None) for resolved in cards for lang in languages(resolved)]
    printed = card_pdfs([job for _, _, job in prepared], write=False)
    return list(dict.fromkeys(d for (_, warnings, _), (_, _, problems) in zip(prepared, printed)
                              for d in warnings + problems))


def add_charts(result: Compilation, formats: Collection[str] = ("html", "pdf"), paper: str | None = None,
               progress: Callable[[int, int], None] | None = None) -> None:
    """Add every rulebook's cards, in each of its languages, to the outputs (and warnings, errors), on the
    paper and within the sides each rulebook's card block asks for (`paper` overrides it).  The cards are
    laid out in parallel where the cache does not hold them (pdf.card_pdfs); `progress(done, total)`."""
    from rulesdsl.cards.labeler import languages
    from rulesdsl.cards.pdf import card_pdfs, fingerprint
    fingerprints = []
    cards = [(key, lang, resolved) for key, resolved in sorted(result.resolved.items()) for lang in languages(resolved)]
    if progress is not None:
        progress(0, len(cards))     # the total from the start: a bar that counts, not `0/?`
    prepared = [_card_job(resolved, lang, result.labels, paper) for _, lang, resolved in cards]
    printed = card_pdfs([job for _, _, job in prepared], write="pdf" in formats, progress=progress)
    for (key, lang, _), (data, warnings, _), (html, pdf, problems) in zip(cards, prepared, printed):
        result.diagnostics += warnings + problems
        stem = f"{result.package}/charts/{module_name(key)}.{lang}"
        if "html" in formats:
            result.outputs[stem + ".html"] = html
        if "pdf" in formats:
            if pdf is not None:
                result.outputs[stem + ".pdf"] = pdf
                fingerprints.append(f"{module_name(key)}.{lang}.pdf {fingerprint(html, data['paper'])}\n")
    if "pdf" in formats and fingerprints:
        result.outputs[pdf_manifest(result.package)] = PDF_MANIFEST_HEAD + "".join(fingerprints)
    if not result.ok:
        result.outputs = {}


def _only(diagnostics: Iterable[Diagnostic], targets: list[str] | None, result: Compilation) -> list[Diagnostic]:
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


def _bytes(content: str | bytes) -> bytes:
    return content if isinstance(content, bytes) else content.encode("utf-8")


# ---- one side of a diff: a rulebook file, `REV:path` from git, or a rulebook id ------------------
class SideError(Exception):
    """A diff side that names nothing readable (not a rulebook's own error)."""


@dataclass(frozen=True)
class Side:
    """One side of a diff: its rulebook; with --resolved, the rules in effect (`effective`); the parameters
    it may set (empty when the rulebooks it extends cannot be found); the rulebook resolved whenever that
    could be done (`applies`: the values a withdrawn override leaves in effect); and the project's
    rulebooks that extend it, resolved against this side (`dependents`: whose worked examples a change may
    make answer otherwise)."""

    rulebook: ir.Rulebook
    effective: ir.Resolved | None
    declared: dict[str, ir.Declared]
    applies: ir.Resolved | None
    dependents: dict[str, ir.Resolved] = field(default_factory=dict)
    labels: dict[str, dict[str, str]] = field(default_factory=dict)   # the project's: lang -> key -> text


def load_rulebook_side(root: Path | None, spec: str, resolved: bool) -> Side:
    """One side of a diff, checked, its rulebook resolved against the rulebooks it extends (found in the
    project's current tree; for REV:path, in the project's rulebooks/ as they were at REV), with the
    project's rulebooks that extend it.
    RulesError when that rulebook (or, resolved, its series) has errors; SideError when `spec` names
    nothing readable."""
    source = _side_source(root, spec)
    rulebook = parse(source)
    others: list[Source] = []
    unread: list[Diagnostic] = []
    texts: dict[str, str] = {}
    revision = _side_revision(spec)
    # REV:path is resolved against the project's rulebooks as they were at REV, read from git too
    candidates = _revision_rulebooks(root or Path.cwd(), revision) if revision is not None else \
        [partial(read_source, file, shown_path(file, root), root=root)
         for file in (rulebook_files(root) if root is not None else [])]
    for read in candidates:
        try:
            other = read()
        except RulesError as exc:
            unread += exc.diagnostics  # reported only if this side cannot be resolved
            texts.update(exc.sources)
            continue
        try:
            if other.path != source.path and parse(other).id.value != rulebook.id.value:
                others.append(other)
        except RulesError:
            others.append(other)  # reported only if this side extends it
    config = load_config(root)
    compilation = compile_sources([source] + others, [source.path], config.library, config.package, root,
                                  generate=False)
    declared = compilation.parameters.get(rulebook.id.value)
    key = rulebook.id.value
    dependents = {other: r for other, r in compilation.resolved.items()
                  if other != key and any(book.id.value == key for book in r.ancestors)}
    if not resolved:   # checked by itself, with the parameters its series declare when they can be found
        problems = [d for d in check(rulebook, declared) if d.severity == "error"]
        if problems:
            raise RulesError(problems, {source.path: source.text})
        return Side(rulebook, None, declared or {}, compilation.resolved.get(key), dependents, compilation.labels)
    problems = [d for d in compilation.diagnostics if d.severity == "error"]
    effective = compilation.resolved.get(key)
    if problems or effective is None:
        raise RulesError(problems + (unread if effective is None else []), {**texts, **compilation.sources})
    return Side(effective.rulebook, effective, dict(effective.declared), effective, dependents, compilation.labels)


def _side_revision(spec: str) -> str | None:
    """The git revision of a REV:path side (as _side_source reads it), else None."""
    path = Path(spec)
    if (path.exists() or path.is_symlink()) and not path.is_dir():
        return None
    return spec.partition(":")[0] if ":" in spec else None


def _revision_rulebooks(folder: Path, rev: str) -> list[Callable[[], Source]]:
    """A reader for each rulebook of the project at `folder` as it was at commit `rev` (the .rules files
    under its rulebooks/ in that commit), each shown as REV:path."""
    commit = _git(folder, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}")
    prefix = _git(folder, "rev-parse", "--show-prefix")
    if commit.returncode != 0 or prefix.returncode != 0:
        return []   # _side_source has already said why
    sha = commit.stdout.decode("ascii", errors="replace").strip()
    inside = prefix.stdout.decode("utf-8", errors="replace").strip() + "rulebooks/"
    listing = _git(folder, "ls-tree", "-r", "-z", "--full-tree", "--name-only", sha)
    names = [n for n in listing.stdout.decode("utf-8", errors="replace").split("\0")
             if n.startswith(inside) and n.endswith(".rules")]
    top = _git(folder, "rev-parse", "--show-toplevel").stdout.decode("utf-8", errors="replace").strip()
    return [partial(git_source, Path(top) if top else folder, sha, name, f"{rev}:{name}") for name in sorted(names)]


def _side_source(root: Path | None, spec: str) -> Source:
    path = Path(spec)
    if (path.exists() or path.is_symlink()) and not path.is_dir():   # a folder (the generated package,
        return read_source(path, shown_path(path, root), root=root)  # say) does not hide a rulebook id
    if ":" in spec:
        rev, _, inner = spec.partition(":")
        return git_source(root or Path.cwd(), rev, inner, spec)
    for file in rulebook_files(root) if root is not None else []:
        try:
            source = read_source(file, shown_path(file, root), root=root)
            if parse(source).id.value == spec:
                return source
        except RulesError:
            continue  # an unreadable or broken file is not the one asked for; check reports it
    found = load_config(root).library.find(spec)
    if found is not None:   # a library rulebook, by id
        return read_source(found[0], found[1], root=root)
    raise SideError(f"no such rulebook file, git revision or rulebook id: {spec}")


def _git(folder: Path, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["git", *args], cwd=folder, input=stdin, capture_output=True,
                              stdin=None if stdin is not None else subprocess.DEVNULL)
    except FileNotFoundError:
        raise SideError("git is not installed") from None


def git_source(folder: Path, rev: str, inner: str, spec: str) -> Source:
    """The file `inner` at commit `rev` of the git repository holding `folder`.  Nothing from the
    command line ever reaches git as an option: the revision may not start with '-', it is resolved
    to a commit after `--end-of-options`, and the object name (`<sha>:<path>`) goes on standard input."""
    from rulesdsl.language.source import MAX_SOURCE_BYTES, too_large
    if rev.startswith("-"):
        raise SideError(f"cannot read {spec} from git: '{rev}' is not a git revision (a revision does not "
                        f"start with '-'; nothing on the command line is passed to git as an option)")
    if not rev or not inner or "\n" in spec:
        raise SideError(f"cannot read {spec} from git: give REV:PATH, a git revision (branch, tag or commit) "
                        f"and a path in it")
    run = _git(folder, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}")
    commit = run.stdout.decode("ascii", errors="replace").strip()
    if run.returncode != 0 or not re.fullmatch(r"[0-9a-f]{40,64}", commit):
        raise SideError(f"cannot read {spec} from git: '{rev}' is not a commit of the repository "
                        f"at {folder}")
    check_blob = _git(folder, "cat-file", "--batch-check", stdin=f"{commit}:{inner}\n".encode())
    fields = check_blob.stdout.decode("utf-8", errors="replace").split()
    if check_blob.returncode != 0 or len(fields) != 3 or fields[1] != "blob" or not fields[2].isdigit():
        what = f"is a {fields[1]}, not a file" if len(fields) == 3 else "does not exist"
        raise SideError(f"cannot read {spec} from git: {inner} {what} in {rev}")
    if int(fields[2]) > MAX_SOURCE_BYTES:
        raise SideError(f"cannot read {spec} from git: {too_large(int(fields[2]))}")
    blob = _git(folder, "cat-file", "blob", fields[0])
    if blob.returncode != 0:
        raise SideError(f"cannot read {spec} from git: {blob.stderr.decode(errors='replace').strip()}")
    return read_source(Path(spec), spec, data=blob.stdout)


def write_atomically(file: Path, content: str | bytes) -> None:
    """Write `file` through a temporary file in its folder and a rename: it holds the old content or
    the new, never a part; the temporary file is removed when anything fails (OSError is raised).

    What is not a regular file is written to, never replaced: a device (`--out /dev/null`), a pipe, or a
    symbolic link, whose target is written the same way (the link stays a link)."""
    if file.is_symlink():
        file = file.resolve()
    if file.exists() and not file.is_file() and not file.is_dir():
        with open(file, "wb") as handle:
            handle.write(_bytes(content))
        return
    temp = file.with_name(f".{file.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(_bytes(content))
            handle.flush()
            os.fsync(handle.fileno())  # the rename must not reach the disk before the content
        os.replace(temp, file)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
