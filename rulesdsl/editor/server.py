"""`rulesdsl lsp`: a language server over standard input and output (pygls), for any project folder.

- Diagnostics as the editor types: the project is compiled with the open documents' unsaved text, as
  `check` compiles it from disk (the worked examples run too), and each open document gets the diagnostics
  positioned in it, with their hints.
- Formatting: `fmt`'s canonical layout, as one edit; none when the text does not parse.
- Hover on a parameter: what it means, what it takes, the value in effect and the rule and rulebook that
  set it.

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
from rulesdsl.project.build import Compilation, compile_project, find_root, shown_path
from rulesdsl.version import __version__

SERVER = LanguageServer("rulesdsl", __version__)

_SEVERITIES = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning,
               "note": types.DiagnosticSeverity.Information}
_NAME = re.compile(r"[a-z_][a-z0-9_]*(?:[.\-][a-z0-9_]+)*")


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


def _compile(server: LanguageServer, uri: str) -> tuple[Compilation | None, Path | None, str]:
    """The project of the document compiled with every open document's text; its root, and the document's
    path as the compiler shows it."""
    path = _path(uri)
    root = find_root(path.parent)
    shown = shown_path(path, root)
    texts = {}
    for open_uri, document in server.workspace.text_documents.items():
        texts[shown_path(_path(open_uri), root)] = document.source
    try:
        return compile_project(root, [path], unsaved=texts), root, shown
    except RulesError as exc:        # settings the project cannot be read with
        return Compilation(diagnostics=list(exc.diagnostics), sources=dict(exc.sources), package=""), root, shown


def publish(server: LanguageServer, uri: str) -> None:
    """The document's diagnostics, as `check` reports them."""
    compilation, _, shown = _compile(server, uri)
    document = server.workspace.get_text_document(uri)
    lines = document.source.split("\n")
    found = [lsp_diagnostic(d, lines) for d in (compilation.diagnostics if compilation else [])
             if d.span.path == shown]
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


@SERVER.feature(types.TEXT_DOCUMENT_HOVER)
def hover(server: LanguageServer, params: types.HoverParams) -> types.Hover | None:
    document = server.workspace.get_text_document(params.text_document.uri)
    lines = document.source.split("\n")
    if params.position.line >= len(lines):
        return None
    word = _word(lines[params.position.line], params.position.character)
    if word is None:
        return None
    compilation, _, shown = _compile(server, params.text_document.uri)
    resolved = next((r for r in (compilation.resolved.values() if compilation else []) if r.rulebook.path == shown),
                    None)
    text = parameter_hover(resolved, word) if resolved is not None else None
    if text is None:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))


def main() -> int:
    SERVER.start_io()
    return 0
