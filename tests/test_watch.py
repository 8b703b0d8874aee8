"""`rulesdsl watch`, run as a designer runs it: one build at the start, one build after a saved edit (not one
per file the build itself writes), the preview serving cards that reload after the build, and Ctrl-C
stopping it with no traceback."""
from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request

GAME = '''game demo "Demo" version "1.0" extends scs-1.8

rule G1.0 "Stacking" {
  summary "Six steps a hex."
  stacking.limit = 6 steps
}
'''


class Lines:
    """The process's output lines as they come, read on a thread so that a wait can time out."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.seen: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, args=(process,), daemon=True).start()

    def _read(self, process: subprocess.Popen[str]) -> None:
        assert process.stdout is not None
        for line in process.stdout:
            self._queue.put(line.rstrip("\n"))
        self._queue.put(None)

    def drain(self) -> list[str]:
        """The lines that came since the last read, without waiting."""
        new = []
        while not self._queue.empty():
            line = self._queue.get()
            if line is not None:
                new.append(line)
        self.seen += new
        return new

    def until(self, pattern: str, timeout: float = 120) -> str:
        end = time.monotonic() + timeout
        while True:
            try:
                line = self._queue.get(timeout=max(end - time.monotonic(), 0.01))
            except queue.Empty:
                raise AssertionError(f"no line matching {pattern!r} in {timeout}s; seen: {self.seen}") from None
            if line is None:
                raise AssertionError(f"the process ended before {pattern!r}; seen: {self.seen}")
            self.seen.append(line)
            if re.search(pattern, line):
                return line


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read().decode("utf-8")


def test_watch_builds_once_per_save_and_the_preview_reloads(tmp_path):
    (tmp_path / "rulebooks").mkdir()
    rulebook = tmp_path / "rulebooks" / "demo.rules"
    rulebook.write_text(GAME, encoding="utf-8")
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "NO_COLOR": "1"}
    process = subprocess.Popen([sys.executable, "-m", "rulesdsl", "watch", "--preview"], cwd=tmp_path, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        lines = Lines(process)
        url = re.search(r"http://\S+/", lines.until(r"^preview: ")).group()
        lines.until(r"^watching rulebooks")
        assert "wrote generated/demo.py" in lines.seen and "wrote generated/charts/demo.en.html" in lines.seen
        index = _get(url)
        assert 'href="demo.en.html"' in index
        card = _get(url + "demo.en.html")
        assert "/__build" in card and "Stacking limit per hex: 6 steps" in card
        assert _get(url + "__build") == "0"
        assert (tmp_path / "generated" / "charts" / "demo.en.html").read_text(encoding="utf-8").count("/__build") == 0

        # a saved edit: one build, which rewrites the module, and the preview's build number moves on
        rulebook.write_text(GAME.replace("stacking.limit = 6 steps", "stacking.limit = 7 steps"), encoding="utf-8")
        assert lines.until(r"^changed: ") == "changed: rulebooks/demo.rules: building"
        lines.until(r"^watching; ")
        built = lines.seen[len(lines.seen) - 1 - lines.seen[::-1].index("changed: rulebooks/demo.rules: building"):-1]
        assert "wrote generated/demo.py" in built
        module = (tmp_path / "generated" / "demo.py").read_text(encoding="utf-8")
        assert re.search(r"^STACKING_LIMIT = .*\b7\b", module, re.M), "the module holds the saved value"
        assert _get(url + "__build") == "1"
        assert "wrote generated/charts/demo.en.html" in built, "the card shows the limit: laid out again"
        assert "Stacking limit per hex: 7 steps" in _get(url + "demo.en.html")
        time.sleep(2)      # the build's own writes to generated/ start no other build
        assert lines.drain() == []

        # a broken edit: its diagnostic, positioned, and the watch goes on
        rulebook.write_text(GAME.replace("stacking.limit = 6 steps", "stacking.limt = 6 steps"), encoding="utf-8")
        lines.until(r"^changed: ")
        problem = lines.until(r"^rulebooks/demo.rules:5:3: error: ")
        assert "stacking.limt" in problem
        lines.until(r"^nothing was written")
        lines.until(r"^watching; ")

        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=30) in (0, 1)
        lines.until(r"^stopped$")
        assert not any("Traceback" in line for line in lines.seen)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_a_preview_port_in_use_is_refused_before_any_build(tmp_path):
    import socket
    (tmp_path / "rulebooks").mkdir()
    (tmp_path / "rulebooks" / "demo.rules").write_text(GAME, encoding="utf-8")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "rulesdsl", "watch", "--preview", str(port)], cwd=tmp_path,
                              capture_output=True, text=True, timeout=60, env={**os.environ, "NO_COLOR": "1"})
    assert done.returncode == 2
    assert done.stderr.strip() == f"rulesdsl: error: cannot serve the preview on port {port}: Address already in use"
    assert done.stdout == "" and not (tmp_path / "generated").exists()


def test_ctrl_c_during_a_build_stops_the_watch_as_one_during_a_wait(tmp_path):
    """Ctrl-C lands where it lands: a build, or the instant after one, is not inside watchfiles' wait (which
    swallows it). It must end the same way: "stopped", the last build's status, no traceback. The failure
    this holds came from CI, where a signal sent just after "watching" reached the loop between two waits."""
    from rulesdsl.editor.watch import watch
    (tmp_path / "rulebooks").mkdir()
    rulebook = tmp_path / "rulebooks" / "demo.rules"
    rulebook.write_text(GAME, encoding="utf-8")
    said: list[str] = []
    builds: list[int] = []

    def build() -> int:
        builds.append(1)
        if len(builds) == 2:
            raise KeyboardInterrupt
        return 0

    def save_after_start() -> None:
        for _ in range(200):
            if any(line.startswith("watching ") for line in said):
                break
            time.sleep(0.05)
        rulebook.write_text(GAME.replace("6 steps", "7 steps"), encoding="utf-8")

    saver = threading.Thread(target=save_after_start)
    saver.start()
    status = watch(tmp_path, build, [tmp_path / "rulebooks"], charts=tmp_path / "generated" / "charts",
                   say=said.append)
    saver.join()
    assert len(builds) == 2
    assert said[-2:] == ["changed: rulebooks/demo.rules: building", "stopped"]
    assert status == 0, "the last build that finished succeeded"


def test_ctrl_c_during_the_first_build_stops_with_nothing_built():
    from pathlib import Path
    from rulesdsl.editor.watch import watch
    said: list[str] = []

    def build() -> int:
        raise KeyboardInterrupt

    assert watch(Path("."), build, [], charts=Path("generated/charts"), say=said.append) == 1
    assert said == ["stopped"]


class Served:
    """A preview of `charts` on a free loopback port, with a short time for a request to arrive."""

    def __init__(self, charts, timeout: float = 0.5, threads: int = 16) -> None:
        from rulesdsl.editor.watch import Preview
        self.preview = Preview(charts, 0, timeout=timeout, threads=threads)
        self.port = self.preview.server.server_address[1]

    def __enter__(self) -> "Served":
        self.preview.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.preview.stop()

    def connect(self):
        import socket
        return socket.create_connection(("127.0.0.1", self.port), timeout=5)

    def ask(self, head: bytes) -> bytes:
        """The whole answer to a request of these bytes."""
        with self.connect() as connection:
            connection.sendall(head)
            answer = b""
            while chunk := connection.recv(65536):
                answer += chunk
            return answer


def _status(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1])


def test_the_preview_answers_only_requests_addressed_to_its_loopback_names(tmp_path):
    """Issue 41: the Host header was never looked at, so a page whose name a DNS server rebinds to 127.0.0.1
    could read the cards.  Only the preview's loopback names are answered; any other gets 421 and a short body."""
    with Served(tmp_path) as served:
        port = served.port
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", f"LocalHost:{port}"):
            answer = served.ask(f"GET /__build HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
            assert _status(answer) == 200 and answer.endswith(b"\r\n\r\n0"), (host, answer)
        for head in (f"Host: evil.example:{port}\r\n", "Host: evil.example\r\n", "Host: localhost\r\n",
                     f"Host: 127.0.0.1:{port + 1}\r\n", "", f"Host: 127.0.0.1:{port}\r\nHost: evil.example\r\n"):
            answer = served.ask(f"GET /__build HTTP/1.1\r\n{head}\r\n".encode())
            body = answer.split(b"\r\n\r\n", 1)[1]
            assert _status(answer) == 421 and body.startswith(b"421 Misdirected Request") and len(body) < 200, head


def test_a_slow_request_is_closed_in_time_and_others_are_served_meanwhile(tmp_path):
    """Issue 41: a request that never finishes held its thread for ever.  One that does not arrive whole within
    the timeout is closed, even trickled in a byte at a time, and the preview serves others all the while."""
    with Served(tmp_path, timeout=0.5) as served:
        host = f"Host: 127.0.0.1:{served.port}\r\n".encode()
        silent = served.connect()
        silent.sendall(b"GET /__build HTTP/1.1\r\n" + host)          # and then nothing
        trickle = served.connect()
        trickle.sendall(b"GET /__build HTTP/1.1\r\n")
        start = time.monotonic()
        assert _status(served.ask(b"GET /__build HTTP/1.1\r\n" + host + b"\r\n")) == 200     # meanwhile
        closed = None
        while closed is None and time.monotonic() - start < 3:
            try:
                trickle.sendall(b"X")                                    # a header byte every 50 ms, never a line
            except OSError:
                closed = time.monotonic() - start
            time.sleep(0.05)
            trickle.setblocking(False)
            try:
                if trickle.recv(1024) == b"":
                    closed = time.monotonic() - start
            except BlockingIOError:
                pass
            except OSError:
                closed = time.monotonic() - start
            trickle.setblocking(True)
        assert closed is not None and closed < 1.5, closed            # the timeout, not each byte's
        silent.settimeout(2)
        assert silent.recv(1024) == b""                                # closed, with no answer
        silent.close(), trickle.close()
        assert _status(served.ask(b"GET /__build HTTP/1.1\r\n" + host + b"\r\n")) == 200


def test_a_reset_connection_is_one_quiet_line(tmp_path, capsys):
    """Issue 41: each connection a browser reset printed socketserver's traceback."""
    import socket
    import struct
    with Served(tmp_path) as served:
        reset = served.connect()
        reset.sendall(b"GET /__build HTTP/1.1\r\n")
        reset.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        reset.close()                                                  # an RST, not a FIN
        err = ""
        for _ in range(100):                                           # what the server says of it, once said
            err += capsys.readouterr().err
            if err:
                break
            time.sleep(0.02)
        assert _status(served.ask(f"GET /__build HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n\r\n".encode())) == 200
    err += capsys.readouterr().err
    assert "Traceback" not in err
    assert err == "preview: a request from 127.0.0.1 ended early: Connection reset by peer\n"


def test_requests_beyond_the_threads_allowed_are_answered_busy(tmp_path):
    with Served(tmp_path, timeout=1, threads=2) as served:
        held = [served.connect() for _ in range(2)]
        for connection in held:
            connection.sendall(b"GET /__build HTTP/1.1\r\n")          # each holds a thread until its timeout
        time.sleep(0.2)
        answer = served.ask(f"GET /__build HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n\r\n".encode())
        assert _status(answer) == 503
        for connection in held:
            connection.settimeout(3)
            assert connection.recv(1024) == b""                        # closed at the timeout ...
            connection.close()
        time.sleep(0.1)
        answer = served.ask(f"GET /__build HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n\r\n".encode())
        assert _status(answer) == 200                                   # ... and their threads free again
