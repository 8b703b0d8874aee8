"""`rulesdsl lsp`, driven as an editor drives it (pytest-lsp starts the server in a subprocess): diagnostics
as the designer types, hover on a parameter, formatting through `fmt`."""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from conftest import ROOT

PROJECT_TEXT = '''game demo "Demo" version "1" extends scs-1.8

rule G1.0 "Stacking" {
  summary "Six steps a hex."
  stacking.limit = 6 steps
}

override terrain effects chart "Demo TEC" [3.2] {
  hex:
    open   1  ne
    woods  2  Dx2
}
'''


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("lsp")
    (root / "rulebooks").mkdir()
    (root / "rulebooks" / "demo.rules").write_text(PROJECT_TEXT, encoding="utf-8")
    return root


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "rulesdsl", "lsp"]))
async def client(lsp_client: LanguageClient, folder: Path):
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(), root_uri=folder.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=folder.as_uri(), name="demo")]))
    yield
    await lsp_client.shutdown_session()


def _open(client: LanguageClient, path: Path, text: str) -> str:
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="rulesdsl", version=1, text=text)))
    return uri


async def _diagnostics(client: LanguageClient, uri: str) -> list[types.Diagnostic]:
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return client.diagnostics[uri]


@pytest.mark.asyncio
async def test_a_misspelt_terrain_is_published_at_its_position_and_clears_when_fixed(client, folder):
    path = folder / "rulebooks" / "demo.rules"
    typo = PROJECT_TEXT.replace("    woods  2  Dx2", "    wods   2  Dx2")
    uri = _open(client, path, typo)
    found = await _diagnostics(client, uri)
    [problem] = [d for d in found if "wods" in d.message]
    assert problem.range.start == types.Position(line=10, character=4)
    assert problem.range.end == types.Position(line=10, character=8)
    assert problem.severity == types.DiagnosticSeverity.Warning
    assert "did you mean 'woods'?" in problem.message and problem.source == "rulesdsl"
    # the unsaved edit, fixed: the diagnostics go
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=PROJECT_TEXT)]))
    assert list(await _diagnostics(client, uri)) == []


@pytest.mark.asyncio
async def test_hover_on_a_parameter_shows_its_meaning_and_where_its_value_comes_from(client, folder):
    uri = _open(client, folder / "rulebooks" / "demo.rules", PROJECT_TEXT)
    await _diagnostics(client, uri)
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=4, character=6)))
    assert hover is not None
    text = hover.contents.value
    assert text.startswith("**stacking.limit**: ") and "set by rule G1.0 of demo" in text
    nothing = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=1, character=0)))
    assert nothing is None


@pytest.mark.asyncio
async def test_formatting_returns_fmts_text(client, folder):
    from rulesdsl.language.fmt import format_source
    from rulesdsl.language.source import Source
    messy = PROJECT_TEXT.replace("    open   1  ne", "    open 1 ne")
    uri = _open(client, folder / "rulebooks" / "demo.rules", messy)
    await _diagnostics(client, uri)
    edits = await client.text_document_formatting_async(types.DocumentFormattingParams(
        text_document=types.TextDocumentIdentifier(uri=uri), options=types.FormattingOptions(tab_size=2, insert_spaces=True)))
    assert edits is not None and len(edits) == 1
    assert edits[0].new_text == format_source(Source("demo.rules", messy)) == PROJECT_TEXT
    broken = _open(client, folder / "rulebooks" / "broken.rules", 'game broken "B" version "1" extends scs-1.8\nrule {\n')
    await _diagnostics(client, broken)
    assert await client.text_document_formatting_async(types.DocumentFormattingParams(
        text_document=types.TextDocumentIdentifier(uri=broken),
        options=types.FormattingOptions(tab_size=2, insert_spaces=True))) is None


@pytest.mark.asyncio
async def test_go_to_definition_of_an_amended_rule_lands_on_the_series_rule(client, folder):
    text = PROJECT_TEXT + '\namend rule 6.0c {\n  overrun.max_target_cost = 1 MP\n}\n'
    uri = _open(client, folder / "rulebooks" / "demo.rules", text)
    await _diagnostics(client, uri)
    line = text.split("\n").index("amend rule 6.0c {")
    found = await client.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=12)))
    assert isinstance(found, types.Location) and found.uri.endswith("/scs-1.8.rules")
    series = Path(found.uri.removeprefix("file://")).read_text(encoding="utf-8").split("\n")
    assert series[found.range.start.line].startswith('rule 6.0c "')
    # a terrain: its row of the chart in effect (the game's own)
    woods = text.split("\n").index("    woods  2  Dx2")
    found = await client.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=woods, character=5)))
    assert isinstance(found, types.Location) and found.uri == uri and found.range.start.line == woods


@pytest.mark.asyncio
async def test_completion_lists_parameters_with_their_meaning_and_symbols_list_the_blocks(client, folder):
    uri = _open(client, folder / "rulebooks" / "demo.rules", PROJECT_TEXT)
    await _diagnostics(client, uri)
    found = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=4, character=10)))
    items = {item.label: item for item in (found.items if isinstance(found, types.CompletionList) else found)}
    assert items["zoc.entry_cost"].kind == types.CompletionItemKind.Property and items["zoc.entry_cost"].detail
    assert "woods" in items and "6.0c" in items and "terrain" in items and "armor" in items
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    assert [s.name for s in symbols] == ["G1.0 Stacking", "Demo TEC"]
