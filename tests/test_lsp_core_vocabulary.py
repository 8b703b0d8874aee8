"""Through a real LSP client (pytest-lsp): every parameter in effect for a shipped game, the core ones
included, goes to its declaration, and a core parameter's references include its declaration in the installed
core vocabulary (rulesdsl/core/vocabulary.rules)."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from conftest import ROOT
from rulesdsl.core.parameters import VOCABULARY_FILE
from rulesdsl.project.build import compile_project

GAME = ROOT / "rulebooks" / "games" / "bocage.rules"
_KINDS = "quantity|modifier|count|number|flag|result|choice|order"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "rulesdsl", "lsp"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(), root_uri=ROOT.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=ROOT.as_uri(), name="rulesdsl")]))
    yield
    await lsp_client.shutdown_session()


def _in_effect() -> dict[Path, list[tuple[str, int, int]]]:
    """Each file of the game's chain that sets a parameter in effect: (name, 0-based line, character) of each
    setting, as the compiler resolves the game."""
    compilation = compile_project(ROOT, [GAME], focus=True)
    [resolved] = [r for r in compilation.resolved.values() if r.rulebook.path.endswith("bocage.rules")]
    out: dict[Path, list[tuple[str, int, int]]] = {}
    for parameter in resolved.parameters:
        out.setdefault(ROOT / parameter.span.path, []).append(
            (parameter.name, parameter.span.line - 1, parameter.span.column - 1))
    return out


async def _open(client: LanguageClient, path: Path) -> tuple[str, list[str]]:
    text = path.read_text(encoding="utf-8")
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="rulesdsl", version=1, text=text)))
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return uri, text.split("\n")


def _declares(location: types.Location, name: str) -> bool:
    """Whether the location is a declaration of `name` in a `parameters` block, from its name on."""
    line = Path(location.uri.removeprefix("file://")).read_text(encoding="utf-8").split("\n")[location.range.start.line]
    written = line[location.range.start.character:]
    return written.startswith(f"{name} ") and re.match(rf"^\s+{re.escape(name)}\s+(?:{_KINDS})\b", line) is not None


@pytest.mark.asyncio
async def test_every_parameter_in_effect_for_a_shipped_game_goes_to_its_declaration(client):
    landed: dict[str, int] = {}
    wrong = []
    settings = _in_effect()
    assert GAME in settings and len(settings) >= 2, settings.keys()     # the game's own and its series'
    for path, written in sorted(settings.items()):
        uri, lines = await _open(client, path)
        for name, line, character in written:
            assert lines[line][character:character + len(name)] == name, (path, line, name)
            found = await client.text_document_definition_async(types.DefinitionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                position=types.Position(line=line, character=character + 1)))
            if not isinstance(found, types.Location) or not _declares(found, name):
                wrong.append((path.name, name, found))
                continue
            where = Path(found.uri.removeprefix("file://")).name
            landed[where] = landed.get(where, 0) + 1
    assert wrong == []
    assert landed.get(VOCABULARY_FILE.name, 0) > 50 and landed.get("scs-1.8.rules", 0) > 0, landed


@pytest.mark.asyncio
async def test_a_core_parameters_references_include_its_declaration(client):
    uri, lines = await _open(client, GAME)
    line = next(i for i, text in enumerate(lines) if re.match(r"^\s+stacking\.limit\s*=", text))
    found = await client.text_document_references_async(types.ReferenceParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=types.Position(line=line, character=lines[line].index("stacking.limit") + 1),
        context=types.ReferenceContext(include_declaration=True)))
    core = [f for f in found if f.uri == VOCABULARY_FILE.as_uri()]
    assert len(core) == 1 and _declares(core[0], "stacking.limit")
    assert any(f.uri == uri and f.range.start.line == line for f in found)
