"""`rulesdsl watch`: build again whenever a rulebook is saved, and (with `--preview`) serve the cards.

- What is watched: the project's `rulebooks/` folder, its `pyproject.toml` and its library folders; only
  `.rules` files and the settings count, so that the build's own writes never start another build.
- Each build is the `build` command's own (the caller passes it in): its diagnostics, then the files it
  wrote.  The card cache means that only the cards whose inputs changed are laid out again.
- The preview is a small HTTP server on 127.0.0.1 over the generated cards.  Each HTML page it serves gets
  a script that asks the server for the build number every second and reloads the page when a build has
  finished since; the files in `generated/` are served as written, never changed.
"""
from __future__ import annotations

import html
import logging
import threading
from collections.abc import Callable, Iterable
from functools import partial
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import watchfiles

WATCHED_SUFFIXES = (".rules",)
SETTINGS = "pyproject.toml"

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

    def __init__(self, charts: Path, port: int = 0) -> None:
        self.charts = charts
        self.build = 0
        handler = partial(type("_PreviewHandler", (_Handler,), {"preview": self}), directory=str(charts))
        self.server = ThreadingHTTPServer(("127.0.0.1", port), handler)
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


class _Handler(SimpleHTTPRequestHandler):
    preview: Preview     # set on the subclass each preview makes

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
