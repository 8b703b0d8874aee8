"""`rulesdsl lsp`: a language server over standard input and output (pygls), for any project folder.

- Diagnostics as the editor types: the project is compiled with the open documents' unsaved text, as
  `check` compiles it from disk, and the document gets the diagnostics positioned in it, with their hints;
  then each open document whose rulebook extends it (a series' open games) gets its own again.
  Only what the document needs is compiled: the rulebooks it extends and those that extend it, and only its
  own worked examples run (`compile_project(focus=True)`; a test holds that the document's diagnostics are
  `check`'s).  Unchanged rulebooks are not parsed or validated again.  benchmarks/bench_editor.py measures
  the wait after an edit.
- Formatting: `fmt`'s canonical layout, as one edit; none when the text does not parse.
- Hover: a parameter's meaning, what it takes, the value in effect and the rule and rulebook that set
  it; a rule's title, summary and rulebook; a terrain's row of the chart in effect; a result code's
  meaning.
- Go to definition: a rule number to the rule (the series' one from an `amend` or `override`), a terrain
  to its row of the Terrain Effects Chart in effect, a parameter to its declaration (a core parameter's is in
  the installed core vocabulary, rulesdsl/core/vocabulary.rules).  Find references: every place the
  project's rulebooks write that name (outside strings and comments), and a core parameter's declaration.
- Completion: what may stand where the cursor is (a parameter after its prefix, a rule number after
  `amend rule`, a terrain after a hex, a unit type after `type`, a phase after `phase`), else every name,
  result code, phase and keyword; when the text stops parsing, the names of its last version that did; document
  symbols: rules, charts and worked examples.
- Code actions: each fix a diagnostic's hint proposes (`fixes.py`): a misspelt name, a rule to
  `override`, a series' parameter set again moved into `amend rule N`.

What it reads: the documents the editor has opened (their text as the editor holds it) and the rulebooks
of their projects and of the library, as `check` reads them (regular files only, at most 16 MiB, nothing
through a symlink out of the project).  A request about any other URI (a file never opened, /dev/zero, a
FIFO, /etc/passwd, a `%2e%2e` path) is answered with an error, unread.  A document's path is resolved
(realpath) before its project is looked for.  The wire (bounds, protocol errors, the end of the session)
is `wire.py`'s.

Diagnostics after an edit wait DEBOUNCE_SECONDS for the next keystroke: a burst of typing is compiled
once, for its last version, and a compilation that a newer change overtook while it ran is not published.

Positions: the compiler counts lines and columns from 1, in characters; the protocol from 0, in UTF-16
code units (its default), converted here.
"""
from __future__ import annotations

import asyncio
import functools
import os
import re
from pathlib import Path
from urllib.parse import unquote, urlparse

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.workspace import TextDocument
from pygments.token import Comment, String

from rulesdsl.checks.resolve import resolve
from rulesdsl.core.facts import FACTS, QUESTIONS
from rulesdsl.core.parameters import VOCABULARY_FILE
from rulesdsl.editor.fixes import fix, smallest_edit
from rulesdsl.editor.lexer import KEYWORDS, RulesdslLexer
from rulesdsl.editor.wire import Protocol, Refused, bug, serve
from rulesdsl.errors import Diagnostic, RulesError, Span
from rulesdsl.language.fmt import FormatRefused, format_source
from rulesdsl.language.source import MAX_SOURCE_BYTES, Source, too_large
from rulesdsl.model import catalogue, codes, ir
from rulesdsl.model.walk import walk
from rulesdsl.runtime.notation import Result
from rulesdsl.project.build import compile_project, find_root, shown_path
from rulesdsl.project.passes import lineage
from rulesdsl.project.records import Compilation
from rulesdsl.project.settings import load_config
from rulesdsl.version import __version__

SERVER = LanguageServer("rulesdsl", __version__, protocol_cls=Protocol)
# how long diagnostics wait after a change for the next one (a burst of typing is compiled once)
DEBOUNCE_SECONDS = 0.08

_SEVERITIES = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning,
               "note": types.DiagnosticSeverity.Information}
# a name (a parameter, a terrain, a unit type), a rule number (6.0c, G1.2) or a result code (D1r2, DE)
_NAME = re.compile(r"[a-z_][a-z0-9_]*(?:[.\-][a-z0-9_]+)*|[A-Z]{0,3}[0-9]+(?:\.[0-9]+)*[a-z]?(?![A-Za-z0-9])"
                   r"|[A-Z][A-Za-z0-9]*")


def _path(uri: str) -> Path:
    """The file a document's URI names, resolved (symlinks and `..`, `%2e%2e` included)."""
    parsed = urlparse(uri)
    if parsed.scheme != "file" or parsed.netloc not in ("", "localhost"):   # an editor's unsaved buffer, a remote
        return Path(os.sep + re.sub(r"[^A-Za-z0-9._-]", "_", uri))           # file: in no project, never read
    return Path(os.path.realpath(unquote(parsed.path)))


def _document(server: LanguageServer, uri: str, sized: bool = True) -> TextDocument:
    """An open document: the only ones the server answers about (a URI never opened is not read).  `sized`:
    one larger than a rulebook may be is refused too (as `check` refuses the file)."""
    found: TextDocument | None = server.workspace.text_documents.get(unquote(uri))
    if found is None:
        raise Refused(f"not an open document: {uri[:300]} (the server answers only about the documents the "
                      "editor has opened, textDocument/didOpen)")
    if sized and _too_large(found.source):
        raise Refused(f"{uri[:300]}: {too_large(None)}")
    return found


def _current(server: LanguageServer, uri: str) -> bool:
    """Whether the document is open at the newest version the client has sent (else its compilation is
    stale: a newer change is on its way)."""
    document = server.workspace.text_documents.get(unquote(uri))
    if document is None:
        return False
    newest = server.protocol.newest_version(uri) if isinstance(server.protocol, Protocol) else None
    return newest is None or document.version is None or document.version >= newest


def _utf16(line: str, column: int) -> int:
    """A 1-based character column of `line` as a 0-based UTF-16 offset."""
    return len(line[:max(column - 1, 0)].encode("utf-16-le")) // 2


def _range(span: Span, lines: list[str]) -> types.Range:
    def position(line: int, column: int) -> types.Position:
        if line < 1:
            return types.Position(line=0, character=0)
        text = lines[line - 1] if line <= len(lines) else ""
        return types.Position(line=line - 1, character=_utf16(text, column))
    start = position(span.line, span.column)
    end = position(span.end_line, span.end_column) if span.end_line else \
        types.Position(line=start.line, character=start.character + 1)
    return types.Range(start=start, end=end)


def lsp_diagnostic(diagnostic: Diagnostic, lines: list[str]) -> types.Diagnostic:
    message = diagnostic.message + (f"\nhint: {diagnostic.hint}" if diagnostic.hint else "")
    return types.Diagnostic(range=_range(diagnostic.span, lines), message=message, source="rulesdsl",
                            severity=_SEVERITIES.get(diagnostic.severity, types.DiagnosticSeverity.Information))


# the last compilations, keyed by the document and the open documents' versions: hover, definition and
# completion after an edit read the compilation its diagnostics came from instead of compiling again
_LAST: dict[tuple[str, tuple[tuple[str, int | None], ...]], tuple[Compilation, Path | None, str]] = {}


# the last compilation in which each open document's rulebook resolved: while the designer types, the text
# seldom parses, and completion and hover read the rulebook as it last stood
_GOOD: dict[str, tuple[ir.Resolved, Compilation, Path | None]] = {}


def _compile(server: LanguageServer, uri: str) -> tuple[Compilation, Path | None, str]:
    """The project of the document compiled with every open document's text; its root, and the document's
    path as the compiler shows it."""
    documents = server.workspace.text_documents
    key = (uri, tuple(sorted((u, d.version) for u, d in documents.items())))
    if key not in _LAST:
        _document(server, uri)
        path = _path(uri)
        root = find_root(path.parent)
        shown = shown_path(path, root)
        unsaved = {shown_path(_path(u), root): d.source for u, d in documents.items()}
        if len(_LAST) >= 8:
            _LAST.clear()
        compilation = _LAST[key] = compile_project(root, [path], unsaved=unsaved, focus=True), root, shown
        for resolved in compilation[0].resolved.values():    # remembered for when the text stops resolving
            if resolved.rulebook.path == shown:
                _GOOD[uri] = resolved, compilation[0], root
    return _LAST[key]


def _too_large(text: str) -> bool:
    return len(text) > MAX_SOURCE_BYTES // 4 and len(text.encode("utf-8")) > MAX_SOURCE_BYTES


def publish(server: LanguageServer, uri: str) -> None:
    """The document's diagnostics, as `check` reports them; nothing when it is not open or a newer change of
    it arrived while it was compiled."""
    if not _current(server, uri):
        return
    document = _document(server, uri, sized=False)
    if _too_large(document.source):     # as `check` refuses such a file: not compiled
        found = [types.Diagnostic(range=types.Range(start=types.Position(line=0, character=0),
                                                    end=types.Position(line=0, character=1)),
                                  message=too_large(None), source="rulesdsl", severity=types.DiagnosticSeverity.Error)]
    else:
        compilation, _, shown = _compile(server, uri)
        if not _current(server, uri):
            return
        lines = document.source.split("\n")
        found = [lsp_diagnostic(d, lines) for d in compilation.diagnostics if d.span.path == shown]
    server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=found,
                                                                            version=document.version))


@SERVER.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(server: LanguageServer, params: types.DidOpenTextDocumentParams) -> None:
    publish(server, params.text_document.uri)


# the edits waiting for DEBOUNCE_SECONDS before their diagnostics are compiled, by document
_PENDING: dict[str, asyncio.TimerHandle] = {}


@SERVER.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(server: LanguageServer, params: types.DidChangeTextDocumentParams) -> None:
    uri = params.text_document.uri
    _cancel_pending(uri)
    _PENDING[uri] = asyncio.get_running_loop().call_later(DEBOUNCE_SECONDS, _edited, server, uri)


def _cancel_pending(uri: str) -> None:
    """Drop the compilation an earlier edit of `uri` is still waiting to start, if any."""
    waiting = _PENDING.pop(uri, None)
    if waiting is not None:
        waiting.cancel()


def _edited(server: LanguageServer, uri: str) -> None:
    """The diagnostics of an edited document, then of the open documents that extend it."""
    _PENDING.pop(uri, None)
    try:
        if not _current(server, uri):
            return
        publish(server, uri)
        for other in dependents(server, uri):     # after the edited document's, so as not to delay it
            if not _current(server, uri):
                return      # typed on: the next edit's diagnostics publish them
            publish(server, other)
    except BrokenPipeError:     # the editor has gone
        if isinstance(server.protocol, Protocol):
            server.protocol.end(1)
    except Exception as exc:
        bug(exc)


@SERVER.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(server: LanguageServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    _cancel_pending(uri)
    _GOOD.pop(unquote(uri), None)
    _GOOD.pop(uri, None)


def dependents(server: LanguageServer, uri: str) -> list[str]:
    """The other open documents whose rulebooks extend the document's (a series' open games): an edit of
    the series may change their diagnostics."""
    compilation, root, shown = _compile(server, uri)
    books = compilation.rulebooks
    edited = next((key for key, book in books.items() if book.path == shown), None)
    extending = {book.path for key, book in books.items() if edited is not None and edited in lineage(books, key)[1:]}
    return sorted(u for u in server.workspace.text_documents if u != uri and shown_path(_path(u), root) in extending)


@SERVER.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(server: LanguageServer, params: types.DidSaveTextDocumentParams) -> None:
    _LAST.clear()        # the files on disk may have changed beside the open ones
    uri = params.text_document.uri
    waiting = _PENDING.pop(uri, None)
    if waiting is not None:
        waiting.cancel()
    _edited(server, uri)


@SERVER.feature(types.TEXT_DOCUMENT_FORMATTING)
def formatting(server: LanguageServer, params: types.DocumentFormattingParams) -> list[types.TextEdit] | None:
    """`fmt`'s layout of the whole document, as one edit; nothing when it does not parse."""
    document = _document(server, params.text_document.uri)
    try:
        text = format_source(Source(str(_path(params.text_document.uri)), document.source))
    except (RulesError, FormatRefused):
        return None
    if text == document.source:
        return []
    lines = document.source.split("\n")
    end = types.Position(line=len(lines) - 1, character=_utf16(lines[-1], len(lines[-1]) + 1))
    return [types.TextEdit(range=types.Range(start=types.Position(line=0, character=0), end=end), new_text=text)]


def _word(line: str, character: int) -> str | None:
    """The name under the 0-based UTF-16 `character` of `line`."""
    at = _column(line, character)
    for match in _NAME.finditer(line):
        if match.start() <= at <= match.end():
            return match.group()
        if match.start() > at:
            break
    return None


def parameter_hover(resolved: ir.Resolved, name: str) -> str | None:
    """What a parameter means, what it takes, and the value in effect with the rule and rulebook setting it."""
    declared = resolved.declared.get(name)
    if declared is None:
        return None
    kind = declared.type.kind.value if hasattr(declared.type.kind, "value") else str(declared.type.kind)
    takes = kind + (f" ({declared.type.unit})" if declared.type.unit else "") + \
        (f": {', '.join(declared.type.options)}" if declared.type.options else "")
    lines = [f"**{name}**: {declared.meaning}", "", f"takes: {takes}"]
    effective = next((p for p in resolved.parameters if p.name == name), None)
    if effective is not None:
        lines.append(f"in effect in {resolved.id}: `{_value(effective.value)}`, set by rule {effective.rule} "
                     f"of {effective.origin}")
    else:
        lines.append(f"no rule of {resolved.id} or its series sets it")
    return "\n".join(lines)


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return ", ".join(map(str, value))
    return str(value)


def _word_at(server: LanguageServer,
             params: types.HoverParams | types.DefinitionParams | types.ReferenceParams) -> str | None:
    """The name or rule number under the cursor."""
    lines = _document(server, params.text_document.uri).source.split("\n")
    return _word(lines[params.position.line], params.position.character) \
        if params.position.line < len(lines) else None


def _resolved(server: LanguageServer, uri: str) -> tuple[ir.Resolved | None, Compilation, Path | None]:
    """The document's rulebook resolved, its compilation and project root; when the text as it stands does
    not resolve, the last text that did (None when none ever has)."""
    compilation, root, shown = _compile(server, uri)
    found = next((r for r in compilation.resolved.values() if r.rulebook.path == shown), None)
    if found is None and uri in _GOOD:
        return _GOOD[uri]
    if found is None:   # opened with an error, and never resolved since: its rules as far as they can be read
        book = next((b for b in compilation.rulebooks.values() if b.path == shown), None)
        if book is not None:
            found = resolve(book, compilation.rulebooks, known=compilation.library_ids, partial=True)[0]
    return found, compilation, root


def rule_hover(resolved: ir.Resolved, word: str) -> str | None:
    """A rule's title and summary in effect, the rulebook it comes from, and who amended it."""
    found = next((e for e in resolved.rules if e.node.id.value == word), None)
    if found is None:
        return None
    rule = found.node
    title = f" {rule.title.value}" if rule.title is not None else ""
    lines = [f"**rule {word}**{title} ({found.origin})"]
    if rule.summary is not None:
        lines += ["", rule.summary.value]
    amenders = sorted({a.origin for a in found.amended} - {found.origin})
    if amenders:
        lines += ["", "amended by " + ", ".join(amenders)]
    return "\n".join(lines)


def terrain_hover(resolved: ir.Resolved, word: str, sources: dict[str, str]) -> str | None:
    """A terrain's row of the Terrain Effects Chart in effect, as its rulebook writes it."""
    chart = resolved.terrain
    row = next((r for r in chart.node.rows if r.name.value == word), None) if chart is not None else None
    if chart is None or row is None:
        return None
    text = sources.get(row.span.path, "").split("\n")
    written = text[row.span.line - 1].strip() if 0 < row.span.line <= len(text) else word
    title = chart.node.title.value if chart.node.title is not None else "Terrain Effects Chart"
    return f"**{word}** ({row.kind} terrain)\n\n```rulesdsl\n{written}\n```\n\n{title} ({chart.origin})"


def code_hover(resolved: ir.Resolved, word: str) -> str | None:
    """What a result code means, read as the rulebook's Combat Results Table reads its cells."""
    table = resolved.results.node if resolved.results is not None else None
    block = resolved.result_codes.node if resolved.result_codes is not None else None
    if table is None and block is None:
        return None
    result = codes.reader(block, table)(word)
    if result is None:
        return None
    declared = next((c for c in block.codes if c.code.value == word), None) if block is not None else None
    where = f"declared in {resolved.result_codes.origin}" if declared is not None and resolved.result_codes \
        else f"in {codes.family(block, table)} notation"
    return f"**{word}**: {describe_result(result)} ({where})"


def describe_result(result: Result) -> str:
    """A result in plain words: 'defender loses 1 step and retreats 2 hexes'."""
    def plural(n: int, word: str) -> str:
        return f"{n} {word}" + ("" if n == 1 else ("es" if word == "hex" else "s"))
    parts: list[str] = []
    for side in ("attacker", "defender"):
        said: list[str] = []
        if getattr(result, f"{side}_eliminated"):
            said.append("is eliminated")
        if steps := getattr(result, f"{side}_steps"):
            said.append("loses " + plural(steps, "step"))
        if units := getattr(result, f"{side}_units"):
            said.append("loses " + plural(units, "unit"))
        if retreat := getattr(result, f"{side}_retreat"):
            said.append("retreats " + plural(retreat, "hex"))
        if advance := getattr(result, f"{side}_advance"):
            said.append("advances " + plural(advance, "hex"))
        said += [f"becomes {state}" for state in getattr(result, f"{side}_states")]
        if said:
            parts.append(f"{side} " + " and ".join(said))
    if result.exchange:
        parts.append("exchange")
    if result.breakthrough:
        parts.append("breakthrough")
    if result.not_allowed:
        parts.append("the attack is not allowed")
    return "; ".join(parts) or "no effect"


@SERVER.feature(types.TEXT_DOCUMENT_HOVER)
def hover(server: LanguageServer, params: types.HoverParams) -> types.Hover | None:
    """A parameter, a rule number, a terrain or a result code: what it is in the rulebook in effect."""
    word = _word_at(server, params)
    if word is None:
        return None
    resolved, compilation, _ = _resolved(server, params.text_document.uri)
    if resolved is None:
        return None
    text = parameter_hover(resolved, word) or rule_hover(resolved, word) or \
        terrain_hover(resolved, word, compilation.sources) or \
        (code_hover(resolved, word) if word[:1].isupper() else None)
    if text is None:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))


def _file(shown: str, root: Path | None, compilation: Compilation) -> Path | None:
    """The file a shown path names: the project's, or a library rulebook's."""
    if shown in compilation.library_paths:
        try:
            found = load_config(root).library.find(compilation.library_paths[shown])
        except RulesError:
            return None
        return found[0] if found else None
    path = Path(shown)
    return path if path.is_absolute() else (root / path if root is not None else None)


@functools.cache
def _core_text() -> str:
    """The installed core vocabulary's text (the core parameters' declarations), which no compilation reads:
    the compiler holds its compiled form.  Read once: it changes with rulesdsl only."""
    return VOCABULARY_FILE.read_text(encoding="utf-8")


def _location(span: Span, root: Path | None, compilation: Compilation) -> types.Location | None:
    """Where a span is, positioned in the text the compilation read (no file is read again), or in the
    core vocabulary."""
    if span.path == str(VOCABULARY_FILE):
        return types.Location(uri=VOCABULARY_FILE.as_uri(), range=_range(span, _core_text().split("\n")))
    file = _file(span.path, root, compilation)
    if file is None or span.path not in compilation.sources:
        return None
    return types.Location(uri=file.as_uri(), range=_range(span, compilation.sources[span.path].split("\n")))


def _definition_span(resolved: ir.Resolved, word: str) -> Span | None:
    """Where `word` is defined: a rule (the first rulebook of the chain that defines it, from the series
    down), a terrain's row of the chart in effect, a parameter's declaration."""
    for book in (*reversed(resolved.ancestors), resolved.rulebook):
        for rule in book.rules:
            if rule.id.value == word and not rule.amend:
                return rule.span
    if resolved.terrain is not None:
        for row in resolved.terrain.node.rows:
            if row.name.value == word:
                return row.span
    declared = resolved.declared.get(word)
    return declared.span if declared is not None else None


@SERVER.feature(types.TEXT_DOCUMENT_DEFINITION)
def definition(server: LanguageServer, params: types.DefinitionParams) -> types.Location | None:
    word = _word_at(server, params)
    if word is None:
        return None
    resolved, compilation, root = _resolved(server, params.text_document.uri)
    span = _definition_span(resolved, word) if resolved is not None else None
    return _location(span, root, compilation) if span is not None else None


# what the text before the cursor asks for: a parameter after its dotted prefix, a rule number after
# `amend rule` (and `override rule`, `see`), a terrain after a hex or hexside of an example, a unit type
# after `type`
_AFTER = (
    ("parameter", re.compile(r"^\s*(?:assume )?(?P<word>[a-z_]+\.[a-z0-9_.]*)$")),
    ("rule", re.compile(r"(?:\b(?:amend|override) (?:rule|section)|^\s*see(?: [^ ]+,)*) (?P<word>[A-Za-z0-9.\-]*)$")),
    ("terrain", re.compile(r"^\s*(?:hex \S+|hexside \S+|map \S+ - \S+)(?: [a-z\-]+)* (?P<word>[a-z\-]*)$")),
    ("type", re.compile(r"\btype (?P<word>[a-z\-]*)$")),
    ("phase", re.compile(r"^\s*phase (?P<word>[a-z\-]*)$")),
    # a rule's effect: the question after its kind, then the facts that question knows after `when`
    ("question", re.compile(r"^\s*(?P<effect>forbid|allow|exempt|stop|cost|eliminate) (?P<word>[a-z\-]*)$")),
    ("fact", re.compile(r"^\s*(?:forbid|allow|exempt|stop|cost|eliminate) (?P<question>[a-z\-]+)\b.*\bwhen\b(?:.*[\s(])?"
                        r"(?P<word>[a-z_.]*)$")),
)


def completions(resolved: ir.Resolved | None, before: str) -> tuple[list[types.CompletionItem], str]:
    """What may be written where the text before the cursor is `before`, and the word being written."""
    wanted, typed, asked, effect = None, "", "", ""
    for kind, pattern in _AFTER:
        if m := pattern.search(before):
            wanted, typed = kind, m.group("word")
            asked = m.groupdict().get("question") or ""
            effect = m.groupdict().get("effect") or ""
            break
    items: list[types.CompletionItem] = []
    if wanted is None:
        items += [types.CompletionItem(label=word, kind=types.CompletionItemKind.Keyword) for word in KEYWORDS]
    if wanted == "question":
        return [types.CompletionItem(label=q.word, kind=types.CompletionItemKind.Function,
                                     detail=f"{q.meaning} ({', '.join(q.effects)})")
                for q in QUESTIONS.values() if q.word.startswith(typed) and effect in q.effects], typed
    if wanted == "fact":
        return [types.CompletionItem(label=f.name, kind=types.CompletionItemKind.Field, detail=f"{f.kind}: {f.meaning}")
                for f in FACTS.values() if asked in f.questions and f.name.startswith(typed)], typed
    if resolved is None:
        return items, typed
    if wanted in (None, "parameter"):
        items += [types.CompletionItem(label=name, kind=types.CompletionItemKind.Property, detail=d.meaning)
                  for name, d in sorted(resolved.declared.items()) if name.startswith(typed)]
    if wanted in (None, "terrain") and resolved.terrain is not None:
        items += [types.CompletionItem(label=row.name.value, kind=types.CompletionItemKind.EnumMember,
                                       detail=f"terrain ({row.kind})") for row in resolved.terrain.node.rows]
    if wanted in (None, "rule"):
        items += [types.CompletionItem(label=e.node.id.value, kind=types.CompletionItemKind.Reference,
                                       detail=e.node.title.value if e.node.title is not None else None)
                  for e in resolved.rules]
    if wanted in (None, "type"):
        items += [types.CompletionItem(label=name, kind=types.CompletionItemKind.Class,
                                       detail="unit type: " + (", ".join(capabilities) or "no capability"))
                  for name, capabilities in sorted(resolved.vocabulary.unit_types.items())]
    if wanted in (None, "phase") and resolved.sequence is not None:
        phases = {p.name.value: p for p in walk(resolved.sequence.node) if isinstance(p, ir.Phase)}
        items += [types.CompletionItem(label=name, kind=types.CompletionItemKind.Event,
                                       detail="phase: " + (", ".join(a.value for a in phase.activities) or "no activity"))
                  for name, phase in sorted(phases.items())]
    if wanted is None and resolved.result_codes is not None:
        items += [types.CompletionItem(label=code.code.value, kind=types.CompletionItemKind.Constant,
                                       detail="result code: " + code_text(code))
                  for code in resolved.result_codes.node.codes]
    return items, typed


def code_text(code: ir.ResultCode) -> str:
    return describe_result(codes.meaning(code))


@SERVER.feature(types.TEXT_DOCUMENT_COMPLETION)
def completion(server: LanguageServer, params: types.CompletionParams) -> types.CompletionList:
    """What may stand at the cursor; each item replaces the whole word typed so far (a dotted parameter
    prefix included, which editors would otherwise cut at the dot)."""
    resolved, _, _ = _resolved(server, params.text_document.uri)
    lines = _document(server, params.text_document.uri).source.split("\n")
    line = lines[params.position.line] if params.position.line < len(lines) else ""
    before = line[:_column(line, params.position.character)]
    items, typed = completions(resolved, before)
    if typed:
        start = types.Position(line=params.position.line, character=params.position.character - _utf16(typed, len(typed) + 1))
        where = types.Range(start=start, end=params.position)
        for item in items:
            item.text_edit = types.TextEdit(range=where, new_text=item.label)
    return types.CompletionList(is_incomplete=False, items=items)


def _column(line: str, character: int) -> int:
    """The 0-based character index of a 0-based UTF-16 offset in `line` (in one pass: a long line costs
    its length once, not its square)."""
    units = 0
    for index, char in enumerate(line):
        if units >= character:
            return index
        units += 2 if ord(char) > 0xFFFF else 1
    return len(line)


# ---- find references ---------------------------------------------------------------------------------
def occurrences(text: str, word: str) -> list[tuple[int, int]]:
    """Where `text` writes `word` as a token of its own: (0-based line, 0-based character) of each, read off
    the lexer's tokens, so a word in a string or a comment, or a piece of a longer token (`forest` of
    `forest-road`, `d6` of `2d6`, `3` of `3-2-9`), is none."""
    found = []
    for index, kind, value in RulesdslLexer().get_tokens_unprocessed(text):
        if value == word and kind[:2] != String and kind[:1] != Comment:    # a string's escapes too
            line_start = text.rfind("\n", 0, index) + 1
            found.append((text.count("\n", 0, index), index - line_start))
    return found


@SERVER.feature(types.TEXT_DOCUMENT_REFERENCES)
def references(server: LanguageServer, params: types.ReferenceParams) -> list[types.Location]:
    """Every place the project's rulebooks (and the library rulebooks they read) write the name under the
    cursor, the open documents as they are in the editor."""
    word = _word_at(server, params)
    if word is None:
        return []
    compilation, root, _ = _compile(server, params.text_document.uri)
    files = [(_file(shown, root, compilation), text) for shown, text in sorted(compilation.sources.items())]
    if word in catalogue.CORE_PARAMETERS:     # its declaration, in the core vocabulary
        files.append((VOCABULARY_FILE, _core_text()))
    out = []
    for file, text in files:
        if file is None:
            continue
        lines = text.split("\n")
        for line, start in occurrences(text, word):
            begin = types.Position(line=line, character=_utf16(lines[line], start + 1))
            end = types.Position(line=line, character=_utf16(lines[line], start + len(word) + 1))
            out.append(types.Location(uri=file.as_uri(), range=types.Range(start=begin, end=end)))
    return out


# ---- code actions ------------------------------------------------------------------------------------
@SERVER.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
def code_actions(server: LanguageServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    """The fix each diagnostic's hint proposes, for the diagnostics on the lines asked about; a fix that
    would change a library rulebook is not offered."""
    uri = params.text_document.uri
    compilation, root, shown = _compile(server, uri)
    document = _document(server, uri)
    lines = document.source.split("\n")
    files = {**compilation.sources, shown: document.source}
    wanted = params.range
    actions = []
    for diagnostic in compilation.diagnostics:
        if diagnostic.span.path != shown:
            continue
        where = _range(diagnostic.span, lines)
        if where.end.line < wanted.start.line or where.start.line > wanted.end.line:
            continue    # on no line of the range: editors ask about the cursor's line
        found = fix(diagnostic, files)
        if found is None or any(path in compilation.library_paths for path in found.files):
            continue
        changes: dict[str, list[types.TextEdit]] = {}
        for path, after in found.files.items():
            file = _file(path, root, compilation)
            if file is None:
                break
            before = files[path]
            start, end, text = smallest_edit(before, after)
            changes[file.as_uri()] = [types.TextEdit(range=types.Range(start=_position(before, start),
                                                                       end=_position(before, end)), new_text=text)]
        else:
            actions.append(types.CodeAction(title=found.title, kind=types.CodeActionKind.QuickFix,
                                            diagnostics=[lsp_diagnostic(diagnostic, lines)],
                                            edit=types.WorkspaceEdit(changes=changes)))
    return actions


def _position(text: str, offset: int) -> types.Position:
    """The protocol position of a character offset of `text`."""
    line = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    return types.Position(line=line, character=_utf16(text[start:offset], offset - start + 1))


@SERVER.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def symbols(server: LanguageServer, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
    """The document's rules, charts and worked examples, as written (no compilation needed)."""
    from rulesdsl.language.transform import parse
    document = _document(server, params.text_document.uri)
    lines = document.source.split("\n")
    try:
        book = parse(Source("<editor>", document.source))
    except RulesError:
        return []
    out = []
    for statement in book.statements():
        if isinstance(statement, ir.Rule):
            name = f"{statement.id.value} {statement.title.value if statement.title else ''}".strip()
            kind = types.SymbolKind.Function
        elif isinstance(statement, ir.Example):
            name, kind = statement.title.value, types.SymbolKind.Event
        elif isinstance(statement, (ir.TerrainChart, ir.ResultsTable, ir.LookupTable)):
            untitled = {ir.TerrainChart: "Terrain Effects Chart", ir.ResultsTable: "Combat Results Table"}
            name = statement.title.value if statement.title is not None else \
                untitled.get(type(statement)) or getattr(statement, "name").value
            kind = types.SymbolKind.Struct
        else:
            continue
        where = _range(statement.span, lines)
        out.append(types.DocumentSymbol(name=name, kind=kind, range=where, selection_range=where))
    return out


def main() -> int:
    """The session over standard input and output; its exit code (0 after shutdown and exit, else 1)."""
    assert isinstance(SERVER.protocol, Protocol)
    return serve(SERVER.protocol)
