"""A project: the rulebooks under `rulebooks/`, compiled together into `generated/`.

`compile_project` runs every pass (rulesdsl/project/passes.py) and collects every
diagnostic; it writes nothing.  Writing generated/ is rulesdsl/project/output.py's.
"""
from __future__ import annotations

import os
import re
import secrets
import subprocess
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any
from functools import partial
from pathlib import Path

from rulesdsl.model import ir
from rulesdsl.modules.codegen import module_name
from rulesdsl.errors import Diagnostic, RulesError, Span
from rulesdsl.project import memo
from rulesdsl.project.output import GENERATED_MARK
from rulesdsl.project import passes
from rulesdsl.project.passes import only_targets, parameters_of
from rulesdsl.project.records import Compilation, Job, Options
from rulesdsl.project.settings import DEFAULT_PACKAGE, SHIPPED_SHOWN, Library, load_config, shipped_folder
from rulesdsl.language.source import Source, read_source
from rulesdsl.language.transform import parse
from rulesdsl.checks.validate import check

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
    result.diagnostics = only_targets(problems, targets, result.rulebooks) + result.diagnostics
    result.sources.update(texts)
    result.checked = len(targets) if targets is not None else len(files)
    if not result.ok:
        result.outputs = {}
    return result


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
    unsaved (their IR is not kept in the user's cache: memo.parsed).
    The one driver of the pipeline: every pass of passes.PASSES, in order (passes.run_passes)."""
    options = Options(targets, library or Library(), root, library_ids, generate, examples, focus, drafts, package)
    result = passes.run_passes(Job(tuple(sources), options, memo.code_digest()))
    if not result.ok:
        result.outputs = {}
    return result


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
