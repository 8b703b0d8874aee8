"""`rulesdsl lsp`, driven as an editor drives it (pytest-lsp starts the server in a subprocess): diagnostics
as the designer types, hover on a parameter, formatting through `fmt`."""
from __future__ import annotations

import re
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


def _apply(text: str, edits: list[types.TextEdit]) -> str:
    """The document after the edits (each within the ASCII text these tests use)."""
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        start = offsets[edit.range.start.line] + edit.range.start.character
        end = offsets[edit.range.end.line] + edit.range.end.character
        text = text[:start] + edit.new_text + text[end:]
    return text


async def _complete(client: LanguageClient, uri: str, line: int, character: int) -> dict[str, types.CompletionItem]:
    found = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=character)))
    return {item.label: item for item in (found.items if isinstance(found, types.CompletionList) else found)}


@pytest.mark.asyncio
async def test_completion_offers_what_may_stand_at_the_cursor(client, folder):
    uri = _open(client, folder / "rulebooks" / "demo.rules", PROJECT_TEXT)
    await _diagnostics(client, uri)
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    assert [s.name for s in symbols] == ["G1.0 Stacking", "Demo TEC"]
    # the designer types: the text does not parse, and completion reads the rulebook as it last resolved
    text = PROJECT_TEXT.replace("  stacking.limit = 6 steps\n", "  stacking.limit = 6 steps\n  zoc.\n\n") + \
        "\namend rule \n"
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))
    assert await _diagnostics(client, uri)
    lines = text.split("\n")
    # after a parameter's prefix: the parameters that start with it, each replacing the whole prefix
    items = await _complete(client, uri, lines.index("  zoc."), 6)
    assert items and all(label.startswith("zoc.") for label in items)
    assert items["zoc.entry_cost"].kind == types.CompletionItemKind.Property and items["zoc.entry_cost"].detail
    assert items["zoc.entry_cost"].text_edit.range.start == types.Position(line=lines.index("  zoc."), character=2)
    assert _apply(text, [items["zoc.range"].text_edit]).split("\n")[lines.index("  zoc.")] == "  zoc.range"
    # after 'amend rule': the rule numbers in effect, the series' included
    items = await _complete(client, uri, len(lines) - 2, len("amend rule "))
    assert "6.0c" in items and "G1.0" in items and "woods" not in items and "zoc.range" not in items
    assert items["6.0c"].detail == "Target hex cost limit"
    # on an empty line: everything, keywords and names
    items = await _complete(client, uri, lines.index("  zoc.") + 1, 0)
    assert {"woods", "6.0c", "terrain", "armor", "zoc.entry_cost"} <= set(items)


async def _hover(client: LanguageClient, uri: str, line: int, character: int) -> str | None:
    found = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=character)))
    return found.contents.value if found is not None else None


@pytest.mark.asyncio
async def test_hover_on_a_rule_a_terrain_and_a_result_code(client, folder):
    text = PROJECT_TEXT + '\namend rule 7.4 {\n  combat.below_table = A1r1\n}\n'
    uri = _open(client, folder / "rulebooks" / "demo.rules", text)
    await _diagnostics(client, uri)
    lines = text.split("\n")
    rule = await _hover(client, uri, lines.index("amend rule 7.4 {"), 12)
    assert rule is not None and rule.startswith("**rule 7.4**") and "(scs-1.8)" in rule and "amended by demo" in rule
    woods = await _hover(client, uri, lines.index("    woods  2  Dx2"), 6)
    assert woods is not None and "woods  2  Dx2" in woods and "Demo TEC (demo)" in woods
    code = await _hover(client, uri, lines.index("  combat.below_table = A1r1"), 24)
    assert code == "**A1r1**: attacker loses 1 step and retreats 1 hex (declared in scs-1.8)" or \
        (code is not None and "attacker loses 1 step and retreats 1 hex" in code)


@pytest.mark.asyncio
async def test_find_references_lists_every_place_a_name_is_written(client, folder):
    text = PROJECT_TEXT + '\nrule G2.0 "Woods" {\n  summary "Woods are dense."  # woods everywhere\n  see 6.0c\n}\n'
    uri = _open(client, folder / "rulebooks" / "demo.rules", text)
    await _diagnostics(client, uri)
    lines = text.split("\n")
    found = await client.text_document_references_async(types.ReferenceParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=lines.index("  see 6.0c"), character=7),
        context=types.ReferenceContext(include_declaration=True)))
    here = [f for f in found if f.uri == uri]
    assert [(f.range.start.line, f.range.start.character) for f in here] == [(lines.index("  see 6.0c"), 6)]
    series = [f for f in found if f.uri.endswith("/scs-1.8.rules")]
    assert series, "the series rulebook writes 6.0c too"
    for location in series:
        written = Path(location.uri.removeprefix("file://")).read_text(encoding="utf-8").split("\n")
        line = written[location.range.start.line]
        assert line[location.range.start.character:location.range.end.character] == "6.0c"
    # a name in a string or a comment is prose, not a reference
    woods = await client.text_document_references_async(types.ReferenceParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=lines.index("    woods  2  Dx2"), character=5),
        context=types.ReferenceContext(include_declaration=True)))
    assert [(f.range.start.line, f.range.start.character) for f in woods if f.uri == uri] == \
        [(lines.index("    woods  2  Dx2"), 4)]


@pytest.mark.asyncio
async def test_find_references_finds_whole_names_not_pieces_of_longer_tokens(client, folder):
    """A unit numbered 3 is not written in the counter 3-2-9 or the odds 3:1, nor `forest` in forest-road or
    in a string or a comment (the text search found the 3s inside the counter and the odds)."""
    text = (PROJECT_TEXT + '\nexample "Forest" {\n  note "forest"  # forest\n  hex 1.01 forest-road\n'
            '  hex 1.02 forest\n  unit 3 allies 3-2-9 at 1.01\n  expect combat 3 on 1.02 odds 3:1\n}\n')
    uri = _open(client, folder / "rulebooks" / "demo.rules", text)
    await _diagnostics(client, uri)
    lines = text.split("\n")

    async def here(line: str, character: int) -> list[tuple[int, int]]:
        found = await client.text_document_references_async(types.ReferenceParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=lines.index(line), character=character),
            context=types.ReferenceContext(include_declaration=True)))
        return sorted((f.range.start.line, f.range.start.character) for f in found if f.uri == uri)

    unit, expect = lines.index("  unit 3 allies 3-2-9 at 1.01"), lines.index("  expect combat 3 on 1.02 odds 3:1")
    assert await here("  unit 3 allies 3-2-9 at 1.01", 7) == [(unit, 7), (expect, 16)]
    assert await here("  hex 1.02 forest", 12) == [(lines.index("  hex 1.02 forest"), 11)]


async def _actions(client: LanguageClient, uri: str, line: int) -> list[types.CodeAction]:
    found = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=types.Position(line=line, character=0), end=types.Position(line=line, character=0)),
        context=types.CodeActionContext(diagnostics=[])))
    return [a for a in found or [] if isinstance(a, types.CodeAction)]


@pytest.mark.asyncio
async def test_code_actions_fix_a_misspelling_and_move_a_series_parameter_into_an_amendment(client, folder):
    typo = PROJECT_TEXT.replace("    woods  2  Dx2", "    wods   2  Dx2")
    uri = _open(client, folder / "rulebooks" / "demo.rules", typo)
    await _diagnostics(client, uri)
    [action] = await _actions(client, uri, typo.split("\n").index("    wods   2  Dx2"))
    assert action.title == "Change to 'woods'" and action.kind == types.CodeActionKind.QuickFix
    assert "wods" in action.diagnostics[0].message
    assert _apply(typo, action.edit.changes[uri]) == PROJECT_TEXT.replace("    woods  2  Dx2", "    woods   2  Dx2")
    # a series' parameter set in a rule of the game's own: moved into 'amend rule 6.0'
    both = PROJECT_TEXT.replace("  stacking.limit = 6 steps\n", "  stacking.limit = 6 steps\n  overrun.cost = 3 MP\n")
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=both)]))
    await _diagnostics(client, uri)
    [action] = await _actions(client, uri, both.split("\n").index("  overrun.cost = 3 MP"))
    assert action.title == "Move it into 'amend rule 6.0'"
    fixed = _apply(both, action.edit.changes[uri])
    assert fixed == PROJECT_TEXT + "\namend rule 6.0 {\n  overrun.cost = 3 MP\n}\n"
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=3),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=fixed)]))
    assert list(await _diagnostics(client, uri)) == []


async def _until(condition, timeout: float = 60) -> None:
    import asyncio
    for _ in range(int(timeout * 10)):
        if condition():
            return
        await asyncio.sleep(0.1)
    raise AssertionError("the server published nothing that meets the condition")


SERIES_TEXT = (ROOT / "tests" / "fixtures" / "base.rules").read_text(encoding="utf-8")
OWN_GAME = 'game mine "Mine" version "1.0" extends base\n\namend rule 6.0c {\n  overrun.max_target_cost = 1 MP\n}\n'


@pytest.mark.asyncio
async def test_an_edit_of_a_series_republishes_its_open_games_and_phases_complete(client, tmp_path):
    (tmp_path / "rulebooks").mkdir()
    series, game = tmp_path / "rulebooks" / "base.rules", tmp_path / "rulebooks" / "mine.rules"
    series.write_text(SERIES_TEXT, encoding="utf-8")
    game.write_text(OWN_GAME, encoding="utf-8")
    game_uri = _open(client, game, OWN_GAME)
    assert list(await _diagnostics(client, game_uri)) == []
    series_uri = _open(client, series, SERIES_TEXT)
    await _until(lambda: series_uri in client.diagnostics)
    # the series renumbers 6.0c: the open game's amendment now names no rule, and its diagnostics say so
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=series_uri, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(
            text=SERIES_TEXT.replace('rule 6.0c "Overrun target hexes"', 'rule 6.0d "Overrun target hexes"'))]))
    await _until(lambda: len(client.diagnostics[game_uri]) > 0)
    [problem] = client.diagnostics[game_uri]
    assert "6.0c" in problem.message and problem.range.start.line == 2
    assert list(client.diagnostics[series_uri]) == []
    # after `phase` in an example: the phases of the sequence of play
    text = OWN_GAME + 'example "E" {\n  map 1.01 - 3.03 open\n  phase \n}\n'
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=game_uri, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))
    items = await _complete(client, game_uri, text.split("\n").index("  phase "), len("  phase "))
    assert set(items) == {"movement", "combat"} and items["combat"].detail == "phase: combat"


# ---- the editor's compilation: only what the document needs, the same diagnostics ----------------------------
def _text(rulebook: str) -> str:
    return (ROOT / f"rulebooks/{rulebook}.rules").read_text(encoding="utf-8")


def _misspell_terrain(text: str) -> str:
    lines = text.split("\n")
    at = lines.index("  hex:") + 1
    name = lines[at].split()[0]
    lines[at] = lines[at].replace(name, name[:-1], 1)
    return "\n".join(lines)


def _wrong_expectation(text: str) -> str:
    """The first `expect ... odds A:B` of the text expecting other odds."""
    return re.sub(r"(expect [^\n]* odds )(\d+):(\d+)", lambda m: f"{m.group(1)}{int(m.group(2)) + 7}:{m.group(3)}", text,
                  count=1)


@pytest.mark.parametrize("rulebook, change", [
    (rulebook, change) for rulebook in ("games/bocage", "games/corridor", "games/ridgeline", "series/new-scs")
    for change in (_misspell_terrain, _wrong_expectation)
    if change is _misspell_terrain or _wrong_expectation(_text(rulebook)) != _text(rulebook)])
def test_the_editors_compilation_reports_what_check_reports_for_the_document(rulebook, change):
    """The server compiles a document with only the rulebooks it extends and those that extend it, and runs only
    its own worked examples (benchmarks/bench_editor.py measures why); the document's diagnostics are the ones
    `check` gives, examples included."""
    from rulesdsl.project.build import compile_project
    shown = f"rulebooks/{rulebook}.rules"
    text = change((ROOT / shown).read_text(encoding="utf-8"))
    assert text != (ROOT / shown).read_text(encoding="utf-8")
    full = compile_project(ROOT, [ROOT / shown], unsaved={shown: text})
    focused = compile_project(ROOT, [ROOT / shown], unsaved={shown: text}, focus=True)
    mine = [d for d in full.diagnostics if d.span.path == shown]
    assert mine, "the change is meant to break the rulebook"
    assert [d for d in focused.diagnostics if d.span.path == shown] == mine


@pytest.mark.asyncio
async def test_hover_works_on_a_document_opened_with_an_error(client, folder):
    """Opened with an error (a misspelt terrain in an example), the rulebook never resolved: hover still reads
    its rules as far as they can be read, not nothing until the error is fixed."""
    text = PROJECT_TEXT + ('\nexample "Broken" {\n  map 1.01 - 3.03 open\n  hex 2.02 wods\n'
                           '  unit a blue 3-2-6 at 1.01\n  expect move a 1.02 costs 1\n}\n')
    uri = _open(client, folder / "rulebooks" / "opened-broken.rules", text.replace("game demo", "game broken"))
    found = await _diagnostics(client, uri)
    assert any("unknown hex terrain 'wods'" in d.message for d in found)
    lines = text.split("\n")
    woods = await _hover(client, uri, lines.index("    woods  2  Dx2"), 6)
    assert woods is not None and "woods  2  Dx2" in woods
    limit = await _hover(client, uri, lines.index("  stacking.limit = 6 steps"), 6)
    assert limit is not None and "6 steps" in limit


@pytest.mark.asyncio
async def test_a_syntax_error_and_the_problems_elsewhere_are_published_together(client, folder):
    """A syntax error no longer hides the other problems of the document: both kinds, at their positions."""
    text = PROJECT_TEXT.replace("  stacking.limit = 6 steps", "  stacking.limit = 6 steps\n  zoc.entry_cots = +1 MP") \
        .replace("    woods  2  Dx2", "    woods  2  Dx2 @")
    uri = _open(client, folder / "rulebooks" / "both.rules", text.replace("game demo", "game both"))
    found = sorted(await _diagnostics(client, uri), key=lambda d: (d.range.start.line, d.range.start.character))
    assert [(d.range.start.line, d.range.start.character) for d in found] == [(5, 2), (11, 18)]
    assert found[0].message.startswith("unknown parameter 'zoc.entry_cots'")
    assert found[1].message.startswith("unexpected '@'")
    assert all(d.severity == types.DiagnosticSeverity.Error for d in found)


def test_completion_offers_an_effects_questions_and_the_facts_its_question_knows():
    from rulesdsl.editor.server import completions
    items, typed = completions(None, "  forbid ex")
    assert typed == "ex" and [i.label for i in items] == ["exert-zoc"]
    assert "whether a unit exerts a ZOC" in (items[0].detail or "")
    items, typed = completions(None, "  exempt retreat-loss when unit is armored and not ezoc.f")
    assert typed == "ezoc.f" and [i.label for i in items] == ["ezoc.from"]
    labels = {i.label for i in completions(None, "  forbid react when unit is dg or (")[0]}
    assert {"unit.started_in_ezoc", "turn", "phase", "unit"} <= labels and "hex" not in labels
    labels = {i.label for i in completions(None, "  cost enter +1 MP when ")[0]}
    assert {"hex", "from", "road", "mode"} <= labels and "attackers" not in labels
