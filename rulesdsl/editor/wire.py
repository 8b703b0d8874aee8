"""The language server's wire: the LSP base protocol (header lines, a blank line, a JSON-RPC body) read with
bounds, and pygls's JSON-RPC protocol made to answer what the specifications say it answers.

pygls 2 reads a header line without bound, allocates whatever `Content-Length` says, logs a traceback for
each body it cannot decode and answers nothing; after a header it cannot read it ignores the stream for
good.  Here:

- `Reader` reads header lines of at most MAX_HEADER_LINE bytes and bodies of at most MAX_MESSAGE_BYTES
  (a rulebook at its size limit, escaped as JSON); a larger `Content-Length` ends the session (exit 1)
  before anything is allocated.  After a header it cannot read it skips to the next `Content-Length:`
  and reads on (one line on standard error says so).
- A body that is not JSON is answered with a Parse error (-32700), one that is not a JSON-RPC message with
  Invalid Request (-32600), a request whose parameters do not fit its method (a negative position) with
  Invalid params (-32602): one line on standard error each, never a traceback.
- After `shutdown` every request is answered with Invalid Request; `exit` ends the session with 0 after
  `shutdown` and 1 without (so does the end of input); a request before `initialize` is answered with
  ServerNotInitialized (-32002).
- An error a handler raises on purpose (`Refused`) is its answer as it stands, with no traceback in its
  data; any other is a bug in rulesdsl: InternalError (-32603), its traceback on standard error only.

pygls leaves the future of every notification it handles in its table of requests in flight (memory grew
with each edit); `_execute_handler` takes it out when it is done.
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import sys
import threading
import traceback
from collections.abc import Callable, Generator
from concurrent.futures import Future
from typing import Any

import cattrs
from cattrs.errors import ClassValidationError
from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcRequestCancelled
from pygls.io_ import StdoutWriter
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import JsonRPCNotification, JsonRPCRequestMessage, JsonRPCResponseMessage
from pygls.protocol.language_server import lsp_method

from rulesdsl.language.source import MAX_SOURCE_BYTES

# The largest body read: a rulebook at its limit sent whole in a didOpen or didChange, escaped as JSON
# (a newline or a quote is two bytes there), with room for the rest of the message.
MAX_MESSAGE_BYTES = 2 * MAX_SOURCE_BYTES
# The longest header line read (a header is `Content-Length: 123` and `Content-Type: ...`).
MAX_HEADER_LINE = 1024
# Header lines before the blank line that ends them.
MAX_HEADER_LINES = 16

PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS, INTERNAL_ERROR, NOT_INITIALIZED = \
    -32700, -32600, -32602, -32603, -32002

LOG = logging.getLogger("rulesdsl.lsp")
_MARK = b"content-length:"
_LENGTH = re.compile(rb"[ \t]*([0-9]{1,20})[ \t]*")


class Refused(JsonRpcException):
    """An error answer a handler gives on purpose (a document it may not read): sent as it is."""

    def __init__(self, message: str, code: int = INVALID_PARAMS) -> None:
        super().__init__(message=message, code=code)


class Malformed(Exception):
    """The input is not the base protocol.  `fatal`: the session cannot go on (else the reader has skipped
    to the next message)."""

    def __init__(self, message: str, fatal: bool = False) -> None:
        super().__init__(message)
        self.fatal = fatal


class Reader:
    """The bodies of the messages of a byte stream, read through `read` (os.read on a descriptor: a thread
    blocked in it holds no lock of Python's, so the process can end while it waits)."""

    def __init__(self, read: Callable[[int], bytes]) -> None:
        self._read = read
        self._buffer = bytearray()
        self._ended = False

    def _fill(self) -> bool:
        if self._ended:
            return False
        chunk = self._read(65536)
        if not chunk:
            self._ended = True
            return False
        self._buffer += chunk
        return True

    def _line(self) -> bytes | None:
        """The next line, its end cut off; None at the end of the input."""
        while True:
            at = self._buffer.find(b"\n", 0, MAX_HEADER_LINE + 1)
            if at >= 0:
                line = bytes(self._buffer[:at])
                del self._buffer[:at + 1]
                return line[:-1] if line.endswith(b"\r") else line
            if len(self._buffer) > MAX_HEADER_LINE:
                del self._buffer[:MAX_HEADER_LINE]     # read: what follows is skipped to the next message
                raise Malformed(f"a header line longer than {MAX_HEADER_LINE} bytes")
            if not self._fill():
                return None

    def _skip(self) -> bool:
        """Drop the input up to the next `Content-Length:`; False when the input ends first."""
        while True:
            at = self._buffer.lower().find(_MARK)
            if at >= 0:
                del self._buffer[:at]
                return True
            del self._buffer[:max(len(self._buffer) - len(_MARK) + 1, 0)]
            if not self._fill():
                return False

    def message(self) -> bytes | None:
        """The next body; None at the end of the input.  After a header it cannot read, it says so on
        standard error and skips to the next `Content-Length:`; Malformed when the session cannot go on (a
        body announced over MAX_MESSAGE_BYTES: never read, never allocated)."""
        while True:
            try:
                length = self._header()
            except Malformed as exc:
                if exc.fatal:
                    raise
                LOG.warning("%s; skipping to the next message", exc)
                if not self._skip():
                    return None
                continue
            if length is None:
                return None
            while len(self._buffer) < length:
                if not self._fill():
                    return None
            body = bytes(self._buffer[:length])
            del self._buffer[:length]
            return body

    def _header(self) -> int | None:
        """The Content-Length of the next header; None at the end of the input."""
        length: int | None = None
        seen = 0
        while seen < MAX_HEADER_LINES:
            line = self._line()
            if line is None:
                return None
            if not line.strip():
                if length is not None:
                    return length
                if seen == 0:
                    continue        # a blank line between messages
                raise Malformed("a header without Content-Length")
            seen += 1
            name, colon, value = line.partition(b":")
            if not colon:
                raise Malformed(f"a header line that is not 'Name: value': {_shown(line)}")
            if name.strip().lower() == b"content-length":
                match = _LENGTH.fullmatch(value)
                if match is None:
                    raise Malformed(f"Content-Length is not a number of bytes: {_shown(value.strip())}")
                length = int(match.group(1))
                if length > MAX_MESSAGE_BYTES:
                    raise Malformed(f"a message of {length:,} bytes (the limit is "
                                    f"{MAX_MESSAGE_BYTES // 2**20} MiB); closing the session", fatal=True)
        raise Malformed(f"more than {MAX_HEADER_LINES} header lines")


def _shown(data: bytes) -> str:
    text = data[:60].decode("utf-8", errors="replace")
    return repr(text + ("..." if len(data) > 60 else ""))


def _error(message_id: object, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": message_id, "error": {"code": code, "message": message}}


def _valid_id(message_id: object) -> bool:
    return isinstance(message_id, (str, int)) and not isinstance(message_id, bool)


class Protocol(LanguageServerProtocol):
    """pygls's language server protocol, answering as the specifications say (see the module's text)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.exit_code: int | None = None
        self.ended = asyncio.Event()
        # the newest version of each document the reader has seen a didChange for, by URI (the reader's
        # thread writes it as the messages arrive, ahead of their handling: see newest_version)
        self._newest: dict[str, int] = {}

    def newest_version(self, uri: str) -> int | None:
        """The version of the newest change of `uri` read from the wire so far, handled or not yet: a
        compilation of an older version is stale."""
        return self._newest.get(uri)

    # ---- the messages ---------------------------------------------------------------------------------
    def receive(self, body: bytes) -> None:
        """One body from the wire: decoded, checked, handled or answered with an error."""
        try:
            data = json.loads(body)
        except (ValueError, RecursionError) as exc:
            LOG.warning("a message that is not JSON (%s)", str(exc).split("\n")[0][:200])
            self._send_data(_error(None, PARSE_ERROR, f"Parse error: the message is not JSON ({exc})"))
            return
        if not isinstance(data, dict) or data.get("jsonrpc") != "2.0":
            LOG.warning("a message that is not JSON-RPC 2.0")
            message_id = data.get("id") if isinstance(data, dict) else None
            self._send_data(_error(message_id if _valid_id(message_id) else None, INVALID_REQUEST,
                                   "Invalid Request: not a JSON-RPC 2.0 message"))
            return
        method, message_id = data.get("method"), data.get("id")
        is_request = "method" in data and "id" in data
        problem = None
        if "method" in data:
            if not isinstance(method, str):
                problem = "'method' must be a string"
            elif "id" in data and not _valid_id(message_id):
                problem = "'id' must be a number or a string"
        elif "id" not in data or not ("result" in data or "error" in data):
            problem = "neither a request, a notification nor a response"
        if problem is not None:
            LOG.warning("an invalid JSON-RPC message: %s", problem)
            if "method" not in data or "id" in data:    # a notification is never answered
                self._send_data(_error(message_id if _valid_id(message_id) else None, INVALID_REQUEST,
                                       f"Invalid Request: {problem}"))
            return
        try:
            message = self.structure(data)
        except JsonRpcException as exc:
            LOG.warning("%s %s: %s", "request" if is_request else "notification", method, exc.message)
            if is_request:
                self._send_data(_error(message_id, exc.code, exc.message))
            return
        self.handle_message(message)

    def structure(self, data: dict[str, Any]) -> Any:
        """The message as lsprotocol's type for its method (pygls's structure_message, without the
        traceback it logs): Invalid params when its parameters do not fit."""
        try:
            if "id" in data and "error" in data:
                return self._converter.structure(data, types.ResponseErrorMessage)
            if "id" in data and "method" in data:
                return self._converter.structure(data, self.get_message_type(data["method"]) or JsonRPCRequestMessage)
            if "id" in data:
                kind = self._result_types.pop(data["id"], None) or JsonRPCResponseMessage
                return self._converter.structure(data, kind)
            return self._converter.structure(data, self.get_message_type(data.get("method", "")) or JsonRPCNotification)
        except ClassValidationError as exc:
            where = "; ".join(cattrs.transform_error(exc, path="params")[:3])
            raise Refused(f"Invalid params: {where}") from None
        except Exception as exc:    # cattrs raises more than one kind for a value of the wrong shape
            raise Refused(f"Invalid params: {type(exc).__name__}: {exc}"[:500]) from None

    def handle_message(self, message: Any) -> None:
        method = getattr(message, "method", None)
        is_request = method is not None and hasattr(message, "id")
        if self._shutdown and method != types.EXIT:
            if is_request:
                self._send_data(_error(message.id, INVALID_REQUEST,
                                       f"Invalid Request: the server is shut down ({method} after shutdown); "
                                       "only exit is accepted"))
            return
        if self._workspace is None and is_request and method != types.INITIALIZE:
            self._send_data(_error(message.id, NOT_INITIALIZED, f"the server is not initialized ({method} "
                                                                "before initialize)"))
            return
        if self._workspace is None and method not in (None, types.INITIALIZE, types.EXIT):
            return          # a notification before initialize is dropped (the specification)
        if method == types.TEXT_DOCUMENT_DID_CHANGE:
            uri, version = message.params.text_document.uri, message.params.text_document.version
            self._newest[uri] = max(version, self._newest.get(uri, version))
        super().handle_message(message)

    def peek(self, body: bytes) -> None:
        """Called in the reader's thread for each body before it is handled: the versions of the changes
        on their way (a didChange not yet handled makes the compilations of older versions stale)."""
        if b'"textDocument/didChange"' not in body:
            return
        try:
            document = json.loads(body)["params"]["textDocument"]
            uri, version = document["uri"], document["version"]
        except (ValueError, RecursionError, KeyError, TypeError):
            return
        if isinstance(uri, str) and isinstance(version, int):
            self._newest[uri] = max(version, self._newest.get(uri, version))

    # ---- the handlers' results ------------------------------------------------------------------------
    def _execute_handler(self, msg_id: Any, handler: Any, callback: Any, args: Any = None, kwargs: Any = None) -> None:
        def done(future: Future[Any]) -> None:
            if self._request_futures.get(msg_id) is future:
                del self._request_futures[msg_id]      # pygls keeps a notification's future for good
            callback(future)
        super()._execute_handler(msg_id, handler, done, args, kwargs)

    def _send_handler_result(self, future: Future[Any], *, msg_id: Any) -> None:
        self._request_futures.pop(msg_id, None)
        if future.cancelled():
            self._send_response(msg_id, error=JsonRpcRequestCancelled(
                f'Request with id "{msg_id}" is canceled').to_response_error())
            return
        exc = future.exception()
        if exc is None:
            self._send_response(msg_id, result=future.result())
        elif isinstance(exc, JsonRpcException):
            LOG.info("request %s answered with an error: %s", msg_id, exc.message)
            self._send_response(msg_id, error=types.ResponseError(code=exc.code, message=exc.message))
        else:
            bug(exc)
            self._send_response(msg_id, error=types.ResponseError(
                code=INTERNAL_ERROR, message=f"internal error (a bug in rulesdsl): {type(exc).__name__}: {exc}"))

    def _check_handler_result(self, future: Future[Any]) -> None:
        if not future.cancelled() and (exc := future.exception()) is not None:
            if isinstance(exc, JsonRpcException):
                LOG.warning("%s", exc.message)
            else:
                bug(exc)

    # ---- the documents and the end of the session -----------------------------------------------------
    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> Any:
        if not self._open(params.text_document.uri):
            return
        yield from super().lsp_text_document__did_change(params)

    @lsp_method(types.TEXT_DOCUMENT_DID_SAVE)
    def lsp_text_document__did_save(self, params: types.DidSaveTextDocumentParams) -> Any:
        if not self._open(params.text_document.uri):
            return
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_SAVE)) is not None:
            yield handler, (params,), None

    def _open(self, uri: str) -> bool:
        from urllib.parse import unquote
        if unquote(uri) in self.workspace.text_documents:
            return True
        LOG.warning("a change of a document that is not open, ignored: %s", uri[:200])
        return False

    @lsp_method(types.EXIT)
    def lsp_exit(self, *args: Any) -> Generator[Any, Any, None]:
        """The end of the session: 0 after shutdown, 1 without (the specification)."""
        self.end(0 if self._shutdown else 1)
        yield from ()

    def end(self, code: int) -> None:
        if self.exit_code is None:
            self.exit_code = code
        self.ended.set()


def bug(exc: BaseException) -> None:
    LOG.error("internal error (a bug in rulesdsl):\n%s",
              "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)).rstrip())


class _OneLine(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        return super().format(record)


def _logging() -> None:
    """One line on standard error for what the server refuses or skips; pygls's own at warning level and
    never with a traceback (its tracebacks are of the client's mistakes, answered already)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_OneLine("rulesdsl lsp: %(message)s"))
    for name, level in (("rulesdsl.lsp", logging.WARNING), ("pygls", logging.ERROR)):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(level)
        logger.propagate = False


def serve(protocol: Protocol, stdin: int | None = None, stdout: Any = None) -> int:
    """Run the session over standard input and output until `exit` or the end of the input; the exit
    code (0 after shutdown and exit, 1 otherwise)."""
    _logging()
    fd = sys.stdin.fileno() if stdin is None else stdin
    protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
    reader = Reader(lambda n: os.read(fd, n))

    async def session() -> None:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[bytes | Malformed | None] = asyncio.Queue()

        def read() -> None:
            while True:
                try:
                    item: bytes | Malformed | None = reader.message()
                except Malformed as exc:
                    item = exc
                except OSError as exc:
                    item = Malformed(f"cannot read standard input: {exc.strerror or exc}", fatal=True)
                if isinstance(item, bytes):
                    protocol.peek(item)
                loop.call_soon_threadsafe(queue.put_nowait, item)
                if not isinstance(item, bytes):
                    return

        threading.Thread(target=read, name="lsp-reader", daemon=True).start()
        ended = asyncio.ensure_future(protocol.ended.wait())
        while not protocol.ended.is_set():
            getting = asyncio.ensure_future(queue.get())
            await asyncio.wait({getting, ended}, return_when=asyncio.FIRST_COMPLETED)
            if not getting.done():
                getting.cancel()
                break
            item = getting.result()
            if item is None:
                protocol.end(0 if protocol._shutdown else 1)
            elif isinstance(item, Malformed):
                LOG.warning("%s", item)
                protocol.end(1)
            else:
                protocol.receive(item)
        ended.cancel()

    try:
        asyncio.run(session())
    except BrokenPipeError:
        LOG.warning("the client closed its end of the connection")
        return 1
    return protocol.exit_code if protocol.exit_code is not None else 1
