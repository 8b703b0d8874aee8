"""`rulesdsl lsp` attacked (issue 41): what it reads, and how it answers what is not the protocol.

The server runs as an editor runs it, a subprocess on standard input and output, driven with raw bytes (pygls's
client cannot send a broken header).  It runs under a 2 GiB address-space limit, so that a server that
allocates what a message asks for fails here instead of taking the machine, and with an audit hook that
writes down every file it opens: a URI it refuses is proved unread, not merely unanswered.
"""
from __future__ import annotations

import json
import os
import queue
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

import pytest

from conftest import ROOT

DEMO = '''game demo "Demo" version "1" extends scs-1.8

rule G1.0 "Stacking" {
  summary "Six steps a hex."
  stacking.limit = 6 steps
}
'''
SECRET = 'game secret "Secret" version "1" extends scs-1.8\n\nrule G9.0 "SECRET-TITLE-7431" {\n  summary "x"\n}\n'

# the server, its `open` calls written to the file named by its first argument
LAUNCH = '''
import os, sys
log = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_APPEND)
def hook(event, args):
    if event == "open" and isinstance(args[0], (str, bytes)):
        os.write(log, os.fsencode(args[0]) + b"\\n")
sys.addaudithook(hook)
from rulesdsl.cli import main
sys.exit(main(["lsp"]))
'''
MEMORY_LIMIT = 2 * 2**30


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


class Server:
    """`rulesdsl lsp` in a subprocess, spoken to in raw bytes."""

    def __init__(self, root: Path, audit: Path):
        self.root, self.audit = root, audit
        self.process = subprocess.Popen([sys.executable, "-c", LAUNCH, str(audit)], cwd=root, preexec_fn=_limit,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.messages: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.stderr = bytearray()
        self.ids = 0
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._errors, daemon=True).start()

    def _errors(self) -> None:
        while line := self.process.stderr.readline():
            self.stderr.extend(line)

    def _read(self) -> None:
        out = self.process.stdout
        while True:
            length = 0
            while (line := out.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            if not line:
                self.messages.put(None)
                return
            self.messages.put(json.loads(out.read(length)))

    def raw(self, data: bytes) -> None:
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps(message).encode("utf-8")
        self.raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method: str, params: Any = None) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: Any = None, timeout: float = 20) -> dict[str, Any]:
        self.ids += 1
        self.send({"jsonrpc": "2.0", "id": self.ids, "method": method, "params": params})
        wanted = self.ids
        return self.wait(lambda m: m.get("id") == wanted and "method" not in m, timeout)

    def wait(self, test: Callable[[dict[str, Any]], bool], timeout: float = 20) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            message = self.messages.get(timeout=max(end - time.monotonic(), 0.01))
            if message is None:
                raise EOFError("the server ended")
            if test(message):
                return message

    def initialize(self) -> None:
        answer = self.request("initialize", {"processId": None, "rootUri": self.root.as_uri(), "capabilities": {}},
                              timeout=60)
        assert "result" in answer
        self.notify("initialized", {})

    def open(self, path: Path, text: str, uri: str | None = None) -> str:
        uri = uri or path.as_uri()
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "rulesdsl", "version": 1,
                                                              "text": text}})
        return uri

    def diagnostics(self, uri: str, version: int | None = None, timeout: float = 60) -> dict[str, Any]:
        return self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
                         and (version is None or m["params"].get("version") == version), timeout)["params"]

    def hover(self, uri: str, line: int = 0, character: int = 0, timeout: float = 20) -> dict[str, Any]:
        return self.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                   "position": {"line": line, "character": character}}, timeout)

    def end(self, timeout: float = 20) -> int:
        """The exit code, once the server has ended (closing its input if it has not)."""
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.stdin.close()
            return self.process.wait(timeout)

    def opened(self) -> list[str]:
        return self.audit.read_text(encoding="utf-8", errors="replace").split("\n") if self.audit.exists() else []

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "rulebooks").mkdir(parents=True)
    (root / "rulebooks" / "demo.rules").write_text(DEMO, encoding="utf-8")
    (tmp_path / "outside" / "rulebooks").mkdir(parents=True)
    (tmp_path / "outside" / "rulebooks" / "secret.rules").write_text(SECRET, encoding="utf-8")
    return root


@pytest.fixture
def server(project: Path, tmp_path: Path):
    running = Server(project, tmp_path / "opened.log")
    running.initialize()
    yield running
    running.close()


def _refused(answer: dict[str, Any]) -> str:
    """The message of an error answer with no traceback in it."""
    assert "error" in answer and "result" not in answer, answer
    assert "traceback" not in json.dumps(answer).lower() and "data" not in answer["error"], answer
    return str(answer["error"]["message"])


def _alive(server: Server, project: Path) -> None:
    """The server still answers: a hover on a parameter of an open document."""
    uri = server.open(project / "rulebooks" / "demo.rules", DEMO)
    server.diagnostics(uri)
    answer = server.hover(uri, 4, 6)
    assert "stacking.limit" in answer["result"]["contents"]["value"], answer


# ---- what it reads --------------------------------------------------------------------------------------
def test_a_hover_on_dev_zero_or_a_fifo_is_an_error_answered_at_once(server, project, tmp_path):
    fifo = tmp_path / "pipe.rules"
    os.mkfifo(fifo)
    for uri in ("file:///dev/zero", fifo.as_uri()):
        start = time.monotonic()
        message = _refused(server.hover(uri, timeout=10))
        assert "not an open document" in message and time.monotonic() - start < 5
    assert not any(line.endswith(("/dev/zero", "pipe.rules")) for line in server.opened())
    _alive(server, project)


def test_a_uri_outside_the_project_is_refused_unread(server, project, tmp_path):
    secret = tmp_path / "outside" / "rulebooks" / "secret.rules"
    for uri in (secret.as_uri(), "file:///etc/passwd", "file:///etc/shadow",
                project.as_uri() + "/rulebooks/%2e%2e/%2e%2e/outside/rulebooks/secret.rules",
                project.as_uri() + "/%2E%2E/outside/rulebooks/secret.rules"):
        for answer in (server.hover(uri, 2, 6),
                       server.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})):
            assert "not an open document" in _refused(answer)
            assert "SECRET" not in json.dumps(answer)
    opened = server.opened()
    assert [line for line in opened if "secret.rules" in line or line in ("/etc/passwd", "/etc/shadow")] == []
    _alive(server, project)


def test_an_unknown_document_is_a_clean_error(server, project):
    uri = (project / "rulebooks" / "never-opened.rules").as_uri()
    for method, extra in (("textDocument/hover", {"position": {"line": 0, "character": 0}}),
                          ("textDocument/completion", {"position": {"line": 0, "character": 0}}),
                          ("textDocument/definition", {"position": {"line": 0, "character": 0}}),
                          ("textDocument/formatting", {"options": {"tabSize": 2, "insertSpaces": True}})):
        answer = server.request(method, {"textDocument": {"uri": uri}, **extra})
        assert answer["error"]["code"] == -32602 and uri in _refused(answer)
    assert b"Traceback" not in server.stderr


# ---- the wire ---------------------------------------------------------------------------------------------
def test_a_content_length_of_a_terabyte_closes_the_session_without_allocating_it(server):
    server.raw(b"Content-Length: 1000000000000\r\n\r\n{}")
    assert server.end() == 1
    time.sleep(0.2)
    said = server.stderr.decode()
    assert "1,000,000,000,000 bytes" in said and "limit" in said
    assert "MemoryError" not in said and "Traceback" not in said


@pytest.mark.parametrize("header", [b"Content-Length: abc\r\n\r\n", b"hello there\r\n\r\n",
                                    b"Content-Type: x\r\n\r\n", b"Content-Length: " + b"9" * 2000 + b"\r\n\r\n",
                                    b"Content-Type: x\r\n\r\n" + b"x" * 5000])
def test_a_malformed_header_is_skipped_and_the_next_message_answered(server, project, header):
    server.raw(header + b'{"jsonrpc": "2.0", "id": 99, "method": "shutdown"}')
    answer = server.request("textDocument/hover", {"textDocument": {"uri": "file:///nowhere.rules"},
                                                   "position": {"line": 0, "character": 0}})
    assert "not an open document" in _refused(answer)
    _alive(server, project)
    said = server.stderr.decode()
    assert "skipping to the next message" in said and "Traceback" not in said


def test_malformed_json_is_answered_with_a_parse_error_and_one_line(server, project):
    bodies = [b"{", b"not json at all", b"[" * 100_000, b"\xff\xfe", b'{"jsonrpc": "2.0", "id": 1, "method": }']
    for body in bodies:
        server.raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        answer = server.wait(lambda m: "error" in m)
        assert answer["id"] is None and answer["error"]["code"] == -32700
    for body in (b"[1, 2]", b'{"jsonrpc": "2.0", "id": 7}', b'{"jsonrpc": "1.0", "id": 8, "method": "x"}'):
        server.raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        assert server.wait(lambda m: "error" in m)["error"]["code"] == -32600
    _alive(server, project)
    server.request("shutdown")
    server.notify("exit")
    assert server.end() == 0
    said = server.stderr.decode()
    assert "Traceback" not in said and len(said.strip().split("\n")) <= len(bodies) + 3, said


def test_a_negative_position_is_invalid_params(server, project):
    uri = server.open(project / "rulebooks" / "demo.rules", DEMO)
    server.diagnostics(uri)
    answer = server.hover(uri, -1, -5)
    assert answer["error"]["code"] == -32602 and "params" in _refused(answer)
    assert b"Traceback" not in server.stderr
    assert "stacking.limit" in server.hover(uri, 4, 6)["result"]["contents"]["value"]


def test_a_second_shutdown_is_answered_invalid_request_and_exit_then_ends_with_0(server):
    first = server.request("shutdown")
    assert "error" not in first and first["result"] is None
    again = server.request("shutdown", timeout=10)
    assert again["error"]["code"] == -32600 and "shut down" in again["error"]["message"]
    hover = server.hover("file:///x.rules", timeout=10)
    assert hover["error"]["code"] == -32600
    server.notify("exit")
    assert server.end() == 0


def test_exit_without_shutdown_ends_with_1(server):
    server.notify("exit")
    assert server.end() == 1


def test_a_request_before_initialize_is_answered(project, tmp_path):
    running = Server(project, tmp_path / "opened.log")
    try:
        answer = running.hover("file:///x.rules", timeout=60)
        assert answer["error"]["code"] == -32002
        running.initialize()
        running.request("shutdown")
        running.notify("exit")
        assert running.end() == 0
    finally:
        running.close()


# ---- typing ---------------------------------------------------------------------------------------------------
def _change(server: Server, uri: str, version: int, text: str) -> None:
    server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                             "contentChanges": [{"text": text}]})


def test_a_burst_of_keystrokes_publishes_once_for_its_last_version(server, project):
    uri = server.open(project / "rulebooks" / "demo.rules", DEMO)
    server.diagnostics(uri)
    typed = DEMO.replace("6 steps", "6 stepz")
    for version in range(2, 12):
        _change(server, uri, version, typed[:len(DEMO) - 12 + version])
        time.sleep(0.01)
    published = []
    end = time.monotonic() + 3
    while time.monotonic() < end:
        try:
            message = server.messages.get(timeout=0.1)
        except queue.Empty:
            continue
        if message is not None and message.get("method") == "textDocument/publishDiagnostics":
            published.append(message["params"])
    assert [p["version"] for p in published] == [11]
    assert any("stepz" in d["message"] or "unit" in d["message"] for d in published[0]["diagnostics"])


def _rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text(encoding="ascii").split("\n"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the server's RSS from /proc")
def test_memory_is_flat_over_ten_thousand_edits(server, project):
    """10,000 edits cycling among 9 texts, in bursts of 250 (each burst compiled once, debounced): every edit
    goes through the server's per-edit paths (the change applied, its future, the wait for the next one), and
    each burst's last version is compiled and published."""
    uri = server.open(project / "rulebooks" / "demo.rules", DEMO)
    server.diagnostics(uri)
    texts = [DEMO + f"\n# edit {n}\n" + "# padding\n" * n for n in range(9)]
    version, burst = 1, 250
    measured = []
    for round_ in range(10_000 // burst):
        for _ in range(burst):
            version += 1
            _change(server, uri, version, texts[version % 9])
        server.diagnostics(uri, version)
        if round_ in (2_000 // burst - 1, 10_000 // burst - 1):      # after 2,000 edits (the caches full), and at the end
            measured.append(_rss(server.process.pid))
    grown = measured[1] - measured[0]
    assert grown < 2 * 2**20, f"RSS grew {grown / 2**20:.1f} MiB over 8,000 edits"


@pytest.mark.parametrize("before", [b"Content-Type: x\r\n\r\n", b"hello\r\n", b"Content-Length: -3\r\n\r\n",
                                    b"Content-Length: 12" + b"3" * 3000 + b"\r\n\r\n"])
def test_the_reader_resyncs_on_the_very_next_message(before):
    """After a header it cannot read, the reader loses nothing of the message that follows it."""
    import io

    from rulesdsl.editor.wire import Reader
    stream = io.BytesIO(before + b"Content-Length: 2\r\n\r\n{}Content-Length: 3\r\n\r\n[1]")
    reader = Reader(stream.read1)
    assert (reader.message(), reader.message(), reader.message()) == (b"{}", b"[1]", None)


def test_a_document_over_the_size_limit_is_refused_not_compiled(server, project):
    from rulesdsl.language.source import MAX_SOURCE_BYTES
    uri = server.open(project / "rulebooks" / "huge.rules", "#" * (MAX_SOURCE_BYTES + 1))
    [problem] = server.diagnostics(uri)["diagnostics"]
    assert "too large for a rulebook" in problem["message"]
    assert "too large" in _refused(server.hover(uri))
    _alive(server, project)
