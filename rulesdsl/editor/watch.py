"""`rulesdsl watch`: build again whenever a rulebook is saved, and (with `--preview`) serve the cards.

- What is watched: the project's `rulebooks/` folder, its `pyproject.toml` and its library folders; only
  `.rules` files and the settings count, so that the build's own writes never start another build.
- Each build is the `build` command's own (the caller passes it in): its diagnostics, then the files it
  wrote.  The card cache means that only the cards whose inputs changed are laid out again.
- The preview is a small HTTP server on 127.0.0.1 over the generated cards.  Each HTML page it serves gets
  a script that asks the server for the build number every second and reloads the page when a build has
  finished since; the files in `generated/` are served as written, never changed.
- It answers only requests addressed to it by a loopback name (`Host: 127.0.0.1:PORT`, `localhost:PORT` or
  `[::1]:PORT`; any other gets 421), so that a web page whose name was rebound to 127.0.0.1 (DNS rebinding)
  reads nothing.  A request must arrive whole within `timeout` seconds (a slow one is closed, however
  slowly it trickles in), at most `threads` requests are served at once (one more is answered 503), and a
  connection the browser resets is one quiet line, never a traceback.
"""
from __future__ import annotations

import html
import io
import logging
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterable
from functools import partial
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import watchfiles

WATCHED_SUFFIXES = (".rules",)
SETTINGS = "pyproject.toml"
REQUEST_TIMEOUT = 5.0   # seconds a request has to arrive whole (and each write of the answer to go out)
MAX_THREADS = 16        # requests served at once; one more is answered 503

# read by each previewed page: the build number when the page loaded; a new one reloads it
_RELOAD = b"""<script>/* rulesdsl watch: reload when a build finishes */
(function () {
  var seen = null;
  setInterval(function () {
    fetch("/__build", {cache: "no-store"}).then(function (r) { return r.text(); }).then(function (n) {
      if (seen === null) { seen = n; } else if (n !== seen) { location.reload(); }
    }).catch(function () {});
  }, 1000);
})();
</script>
"""


def _counts(change: watchfiles.Change, path: str) -> bool:
    """A change that calls for a build: a rulebook or the project's settings."""
    name = Path(path).name
    return name.endswith(WATCHED_SUFFIXES) or name == SETTINGS


class Preview:
    """The generated cards over HTTP, each HTML page reloading itself after the next build."""

    def __init__(self, charts: Path, port: int = 0, *, timeout: float = REQUEST_TIMEOUT,
                 threads: int = MAX_THREADS) -> None:
        self.charts = charts
        self.build = 0
        self.timeout = timeout
        handler = partial(type("_PreviewHandler", (_Handler,), {"preview": self, "timeout": timeout}),
                          directory=str(charts))     # timeout: also each write of an answer
        self.server = _Server(("127.0.0.1", port), handler, threads)
        bound = self.server.server_address[1]
        self.hosts = {f"127.0.0.1:{bound}", f"localhost:{bound}", f"[::1]:{bound}"}
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host!s}:{port}/"

    def start(self) -> None:
        self.thread.start()

    def built(self) -> None:
        self.build += 1

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def index(self) -> bytes:
        cards = sorted(p.name for p in self.charts.glob("*.html")) if self.charts.is_dir() else []
        items = "".join(f'<li><a href="{html.escape(name)}">{html.escape(name)}</a></li>' for name in cards) \
            or "<li>no card yet: the project's build writes none, or failed</li>"
        return (f'<!doctype html><html lang="en"><meta charset="utf-8"><title>rulesdsl watch</title>'
                f"<h1>Cards</h1><ul>{items}</ul>").encode() + _RELOAD + b"</html>"


class _Server(ThreadingHTTPServer):
    """A thread a request, at most `threads` at once."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], handler: Callable[..., Any], threads: int) -> None:
        super().__init__(address, handler)
        self.slots = threading.BoundedSemaphore(threads)

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self.slots.acquire(blocking=False):
            _answer(request, HTTPStatus.SERVICE_UNAVAILABLE, b"the preview is busy: try again\n")
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self.slots.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release()

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A browser that goes away mid-request (a reload, a closed tab) is one line; anything else is a bug
        in the preview, and says so as socketserver does."""
        error = sys.exc_info()[1]
        if isinstance(error, (ConnectionError, TimeoutError)):
            why = error.strerror or type(error).__name__
            print(f"preview: a request from {client_address[0]} ended early: {why}", file=sys.stderr)
            return
        super().handle_error(request, client_address)


def _answer(connection: socket.socket, status: HTTPStatus, body: bytes) -> None:
    """A short plain answer on a connection no handler serves (best effort: the connection is closed next)."""
    try:
        connection.settimeout(1)
        connection.sendall(f"HTTP/1.0 {status.value} {status.phrase}\r\nContent-Type: text/plain; charset=utf-8\r\n"
                           f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode("ascii") + body)
    except OSError:
        pass


class _Deadline(io.RawIOBase):
    """A connection's bytes, each read given only what is left of the time the request has to arrive: a
    request trickled in a byte at a time times out as one that never comes."""

    def __init__(self, connection: socket.socket, seconds: float) -> None:
        self.connection = connection
        self.seconds = seconds
        self.until = time.monotonic() + seconds

    def restart(self) -> None:
        self.until = time.monotonic() + self.seconds

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        left = self.until - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request did not arrive in time")
        self.connection.settimeout(left)
        return self.connection.recv_into(buffer)


class _Handler(SimpleHTTPRequestHandler):
    preview: Preview     # set on the subclass each preview makes

    def setup(self) -> None:
        super().setup()
        self.deadline = _Deadline(self.connection, self.preview.timeout)
        unbounded, self.rfile = self.rfile, io.BufferedReader(self.deadline)
        unbounded.close()

    def handle_one_request(self) -> None:
        self.deadline.restart()
        super().handle_one_request()

    def parse_request(self) -> bool:
        """The request line and headers, read in time; a request addressed to any other host is refused."""
        if not super().parse_request():
            return False
        self.connection.settimeout(self.preview.timeout)
        hosts = self.headers.get_all("Host") or []
        if len(hosts) != 1 or hosts[0].strip().lower() not in self.preview.hosts:
            body = (f"{HTTPStatus.MISDIRECTED_REQUEST.value} {HTTPStatus.MISDIRECTED_REQUEST.phrase}: this preview "
                    f"answers only to {', '.join(sorted(self.preview.hosts))}\n").encode("utf-8")
            self.send_response(HTTPStatus.MISDIRECTED_REQUEST)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(body)
            self.close_connection = True
            return False
        return True

    def log_message(self, format: str, *args: object) -> None:
        pass     # the terminal shows the builds, not each request

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        if path == "/__build":
            self._send(str(self.preview.build).encode(), "text/plain; charset=utf-8")
        elif path in ("/", "/index.html"):
            self._send(self.preview.index(), "text/html; charset=utf-8")
        elif path.endswith(".html"):
            file = Path(self.translate_path(path))
            if not file.is_file() or self.preview.charts.resolve() not in file.resolve().parents:
                self.send_error(HTTPStatus.NOT_FOUND)
                return
            page = file.read_bytes()
            at = page.rfind(b"</body>")
            self._send(page[:at] + _RELOAD + page[at:] if at >= 0 else page + _RELOAD, "text/html; charset=utf-8")
        else:
            super().do_GET()

    def _send(self, body: bytes, kind: str) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)


def watch(root: Path, build: Callable[[], int], folders: Iterable[Path], *, charts: Path,
          preview_port: int | None = None, stop: threading.Event | None = None,
          say: Callable[[str], None] = print) -> int:
    """Build now, then again after each batch of saved changes, until interrupted (or `stop` is set); the
    last build's exit status."""
    preview = Preview(charts, preview_port) if preview_port is not None else None   # a port in use: before any build
    status = 1      # what an interrupted first build leaves: nothing known to be built
    try:
        status = build()
        if preview is not None:
            preview.start()
            say(f"preview: {preview.url} (the cards reload after each build)")
        logging.getLogger("watchfiles").setLevel(logging.ERROR)   # its own "stopping" line: ours says it
        watched = [p for p in (*folders, root / SETTINGS) if p.exists()]
        shown = ", ".join(_shown(p, root) for p in watched)
        say(f"watching {shown}; Ctrl-C to stop")
        for changes in watchfiles.watch(*watched, watch_filter=_counts, stop_event=stop, raise_interrupt=False):
            names = sorted({_shown(Path(path), root) for _, path in changes})
            say(f"changed: {', '.join(names)}: building")
            status = build()
            if preview is not None:
                preview.built()
            say("watching; Ctrl-C to stop")
    except KeyboardInterrupt:
        pass    # Ctrl-C outside watchfiles' wait (in a build, or just after one): the same stop as within it
    finally:
        if preview is not None:
            preview.stop()
    say("stopped")
    return status


def _shown(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix() or "."
    except ValueError:
        return str(path)
