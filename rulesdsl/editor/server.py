"""`rulesdsl lsp`: a language server over standard input and output (pygls), for any project folder.

- Diagnostics as the editor types: the project is compiled with the open documents' unsaved text, as
  `check` compiles it from disk (the worked examples run too), and each open document gets the diagnostics
  positioned in it, with their hints.
- Formatting: `fmt`'s canonical layout, as one edit; none when the text does not parse.
- Hover on a parameter: what it means, what it takes, the value in effect and the rule and rulebook that
  set it.
- Go to definition: a rule number to the rule (the series' one from an `amend` or `override`), a terrain
  to its row of the Terrain Effects Chart in effect, a parameter to its declaration.
- Completion: parameters (with their meaning), terrain, unit types, rule numbers and the language's
  keywords; document symbols: rules, charts and worked examples.

Positions: the compiler counts lines and columns from 1, in characters; the protocol from 0, in UTF-16
code units (its default), converted here.
"""
from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlparse

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from rulesdsl.errors import Diagnostic, RulesError, Span
from rulesdsl.language.fmt import FormatRefused, format_source
from rulesdsl.language.source import Source
from rulesdsl.model import ir
from rulesdsl.editor.lexer import KEYWORDS
from rulesdsl.project.build import Compilation, compile_project, find_root, shown_path
from rulesdsl.project.settings import load_config
from rulesdsl.version import __version__

SERVER = LanguageServer("rulesdsl", __version__)

_SEVERITIES = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning,
               "note": types.DiagnosticSeverity.Information}
_NAME = re.compile(r"[a-z_][a-z0-9_]*(?:[.\-][a-z0-9_]+)*|[A-Z]{0,3}[0-9]+(?:\.[0-9]+)*[a-z]?")


def _path(uri: str) -> Path:
    return Path(unquote(urlparse(uri).path))


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


# the last compilation, keyed by the document and the open documents' versions: hover, definition and
# completion after an edit read the compilation its diagnostics came from instead of compiling again
_LAST: dict[tuple[str, tuple[tuple[str, int | None], ...]], tuple[Compilation, Path | None, str]] = {}


def _compile(server: LanguageServer, uri: str) -> tuple[Compilation, Path | None, str]:
    """The project of the document compiled with every open document's text; its root, and the document's
    path as the compiler shows it."""
    documents = server.workspace.text_documents
    key = (uri, tuple(sorted((u, d.version) for u, d in documents.items())))
    if key not in _LAST:
        path = _path(uri)
        root = find_root(path.parent)
        shown = shown_path(path, root)
        unsaved = {shown_path(_path(u), root): d.source for u, d in documents.items()}
        _LAST.clear()
        _LAST[key] = compile_project(root, [path], unsaved=unsaved), root, shown
    return _LAST[key]


def publish(server: LanguageServer, uri: str) -> None:
    """The document's diagnostics, as `check` reports them."""
    compilation, _, shown = _compile(server, uri)
    document = server.workspace.get_text_document(uri)
    lines = document.source.split("\n")
    found = [lsp_diagnostic(d, lines) for d in compilation.diagnostics if d.span.path == shown]
    server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=found,
                                                                            version=document.version))


@SERVER.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(server: LanguageServer, params: types.DidOpenTextDocumentParams) -> None:
    publish(server, params.text_document.uri)


@SERVER.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(server: LanguageServer, params: types.DidChangeTextDocumentParams) -> None:
    publish(server, params.text_document.uri)


@SERVER.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(server: LanguageServer, params: types.DidSaveTextDocumentParams) -> None:
    _LAST.clear()        # the files on disk may have changed beside the open ones
    publish(server, params.text_document.uri)


@SERVER.feature(types.TEXT_DOCUMENT_FORMATTING)
def formatting(server: LanguageServer, params: types.DocumentFormattingParams) -> list[types.TextEdit] | None:
    """`fmt`'s layout of the whole document, as one edit; nothing when it does not parse."""
    document = server.workspace.get_text_document(params.text_document.uri)
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
    for match in _NAME.finditer(line):
        if _utf16(line, match.start() + 1) <= character <= _utf16(line, match.end() + 1):
            return match.group()
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


def _word_at(server: LanguageServer, params: types.HoverParams | types.DefinitionParams) -> str | None:
    """The name or rule number under the cursor."""
    lines = server.workspace.get_text_document(params.text_document.uri).source.split("\n")
    return _word(lines[params.position.line], params.position.character) \
        if params.position.line < len(lines) else None


def _resolved(server: LanguageServer, uri: str) -> tuple[ir.Resolved | None, Compilation, Path | None]:
    """The document's rulebook resolved (None when it does not resolve), its compilation and project root."""
    compilation, root, shown = _compile(server, uri)
    found = next((r for r in compilation.resolved.values() if r.rulebook.path == shown), None)
    return found, compilation, root


@SERVER.feature(types.TEXT_DOCUMENT_HOVER)
def hover(server: LanguageServer, params: types.HoverParams) -> types.Hover | None:
    word = _word_at(server, params)
    if word is None:
        return None
    resolved, _, _ = _resolved(server, params.text_document.uri)
    text = parameter_hover(resolved, word) if resolved is not None else None
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


def _location(span: Span, root: Path | None, compilation: Compilation) -> types.Location | None:
    file = _file(span.path, root, compilation)
    if file is None or not file.is_file():
        return None
    lines = file.read_text(encoding="utf-8").split("\n")
    return types.Location(uri=file.as_uri(), range=_range(span, lines))


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


@SERVER.feature(types.TEXT_DOCUMENT_COMPLETION)
def completion(server: LanguageServer, params: types.CompletionParams) -> types.CompletionList:
    """Everything a rulebook may name here: the client narrows it to what was typed."""
    resolved, _, _ = _resolved(server, params.text_document.uri)
    items = [types.CompletionItem(label=word, kind=types.CompletionItemKind.Keyword) for word in KEYWORDS]
    if resolved is not None:
        items += [types.CompletionItem(label=name, kind=types.CompletionItemKind.Property, detail=d.meaning)
                  for name, d in sorted(resolved.declared.items())]
        if resolved.terrain is not None:
            items += [types.CompletionItem(label=row.name.value, kind=types.CompletionItemKind.EnumMember,
                                           detail=f"terrain ({row.kind})") for row in resolved.terrain.node.rows]
        items += [types.CompletionItem(label=e.node.id.value, kind=types.CompletionItemKind.Reference,
                                       detail=e.node.title.value if e.node.title is not None else None)
                  for e in resolved.rules]
        items += [types.CompletionItem(label=name, kind=types.CompletionItemKind.Class,
                                       detail="unit type: " + (", ".join(capabilities) or "no capability"))
                  for name, capabilities in sorted(resolved.vocabulary.unit_types.items())]
    return types.CompletionList(is_incomplete=False, items=items)


@SERVER.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def symbols(server: LanguageServer, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
    """The document's rules, charts and worked examples, as written (no compilation needed)."""
    from rulesdsl.language.transform import parse
    document = server.workspace.get_text_document(params.text_document.uri)
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
    SERVER.start_io()
    return 0
