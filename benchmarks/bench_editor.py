"""How long a designer waits for diagnostics in the editor, against running `check` on the same file.

Run: python benchmarks/bench_editor.py [--rounds N] [--write]

The language server (`rulesdsl lsp`) is started as an editor starts it, over standard input and output,
and driven by pygls's client.  For each shipped game: open it, wait for the first diagnostics (a cold
server), then edit it N times (each edit a whole-document change that adds a comment line, alternating
with one that misspells a terrain, so that the diagnostics differ) and time each edit from the moment the
change is sent to the moment its diagnostics arrive (the server waits DEBOUNCE_SECONDS for a next keystroke
first).  Then a burst: KEYS keystrokes KEY_GAP apart, each a change of one character; timed from the last
keystroke sent to its diagnostics, and the diagnostics published for the burst counted (the server compiles
a burst once, for its last version).  The floor is `rulesdsl check <the game's file>` in a
fresh process, which is what a designer without the server runs after each edit, measured in the same run.

The issues' targets: under 300 ms on a warm server, after an edit and after a burst's last keystroke, and
one publication a burst.  --write adds the table to benchmarks/RESULTS.md
(replacing the section of an earlier run).
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("bocage", "corridor", "ridgeline")
TARGET_MS = 300
KEYS = 10
KEY_GAP = 0.03       # seconds between keystrokes: a fast typist
HEADING = "## Diagnostics in the editor"


async def _session(game: str, rounds: int) -> tuple[float, list[float], int, float, int]:
    """(the first diagnostics' wait, each edit's wait, the diagnostics of the misspelt text, a burst's wait
    from its last keystroke, the diagnostics published for the burst) in seconds."""
    client = LanguageClient("bench", "1")
    arrived: asyncio.Queue[types.PublishDiagnosticsParams] = asyncio.Queue()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def diagnostics(params: types.PublishDiagnosticsParams) -> None:
        arrived.put_nowait(params)

    await client.start_io(sys.executable, "-m", "rulesdsl", "lsp", cwd=str(ROOT))
    await client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities(),
                                                         root_uri=ROOT.as_uri()))
    client.initialized(types.InitializedParams())
    path = ROOT / "rulebooks" / "games" / f"{game}.rules"
    uri, text = path.as_uri(), path.read_text(encoding="utf-8")
    misspelt_text = misspell(text)
    start = time.perf_counter()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="rulesdsl", version=1, text=text)))
    await arrived.get()
    cold = time.perf_counter() - start
    waits, misspelt = [], 0
    for version in range(2, rounds + 2):
        edited = text + f"\n# edit {version}\n" if version % 2 else misspelt_text
        start = time.perf_counter()
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=edited)]))
        while True:
            found = await arrived.get()
            if found.version == version:
                break
        waits.append(time.perf_counter() - start)
        if not version % 2:
            misspelt = len(found.diagnostics)
    burst, published = await _burst(client, arrived, uri, text, rounds + 2)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return cold, waits, misspelt, burst, published


async def _burst(client: LanguageClient, arrived: asyncio.Queue[types.PublishDiagnosticsParams], uri: str,
                 text: str, first: int) -> tuple[float, int]:
    """KEYS keystrokes (a comment typed one letter at a time): the wait from the last one to its diagnostics,
    and how many publications the burst gave (counted for a second after them)."""
    last = first + KEYS - 1
    for version in range(first, last + 1):
        typed = text + "\n# " + "x" * (version - first + 1) + "\n"
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=typed)]))
        sent = time.perf_counter()
        if version < last:
            await asyncio.sleep(KEY_GAP)
    published = 0
    while True:
        found = await arrived.get()
        published += found.uri == uri
        if found.uri == uri and found.version == last:
            wait = time.perf_counter() - sent
            break
    try:
        while True:
            found = await asyncio.wait_for(arrived.get(), 1.0)
            published += found.uri == uri
    except asyncio.TimeoutError:
        pass
    return wait, published


def misspell(text: str) -> str:
    """The text with the first terrain of its Terrain Effects Chart's hex rows misspelt (a letter dropped)."""
    lines = text.split("\n")
    at = lines.index("  hex:") + 1
    name = lines[at].split()[0]
    lines[at] = lines[at].replace(name, name[:-1], 1)
    return "\n".join(lines)


def _check(game: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "rulesdsl", "check", f"rulebooks/games/{game}.rules"], cwd=ROOT,
                   capture_output=True, check=True, env={**os.environ, "NO_COLOR": "1"})
    return time.perf_counter() - start


def table(rounds: int) -> list[str]:
    rows = [HEADING, "",
            f"`rulesdsl lsp` driven over stdio by pygls's client; {rounds} edits a game, each timed from the change "
            "sent to its diagnostics received; the floor is `rulesdsl check FILE` in a fresh process, "
            f"{max(rounds // 2, 3)} runs.  Target: under {TARGET_MS} ms warm.", "",
            f"A burst: {KEYS} keystrokes {KEY_GAP * 1000:.0f} ms apart, timed from the last one sent to its "
            "diagnostics; publications counted for the burst.", "",
            "| game | first diagnostics (cold) | edit, median | edit, max | `check FILE`, median | "
            f"edit / check | burst of {KEYS}: last key to diagnostics | burst: publications | under target |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for game in GAMES:
        cold, waits, misspelt, burst, published = asyncio.run(_session(game, rounds))
        assert misspelt, f"{game}: the misspelt terrain was not reported"
        checks = [_check(game) for _ in range(max(rounds // 2, 3))]
        edit, check = statistics.median(waits), statistics.median(checks)
        rows.append(f"| {game} | {cold * 1000:.0f} ms | {edit * 1000:.0f} ms | {max(waits) * 1000:.0f} ms | "
                    f"{check * 1000:.0f} ms | {edit / check:.2f} | {burst * 1000:.0f} ms | {published} | "
                    f"{'yes' if max(edit, burst) * 1000 < TARGET_MS and published == 1 else 'no'} |")
        print(rows[-1], flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    rows = table(args.rounds)
    print("\n".join(rows))
    if args.write:
        results = ROOT / "benchmarks" / "RESULTS.md"
        text = results.read_text(encoding="utf-8")
        if HEADING in text:
            before, _, after = text.partition(HEADING)
            rest = after.split("\n## ", 1)
            text = before + "\n".join(rows) + "\n" + ("\n## " + rest[1] if len(rest) > 1 else "")
        else:
            text = text.rstrip("\n") + "\n\n" + "\n".join(rows) + "\n"
        results.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
