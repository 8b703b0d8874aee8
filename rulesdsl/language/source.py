"""Reading rulebook files: UTF-8 text or a positioned error, never a traceback."""
from __future__ import annotations

import os
import sys
import stat
from dataclasses import dataclass
from pathlib import Path

from rulesdsl.errors import Diagnostic, RulesError, Span

# The largest rulebook read, in bytes: a 50,000-line rulebook is about 3 MB.  Anything larger is
# refused rather than read, so that no input (a huge file, /dev/zero) can use up the memory.
MAX_SOURCE_BYTES = 16 * 1024 * 1024


def normalise_newlines(text: str) -> str:
    """CRLF and lone CR become LF: lines then count as an editor counts them
    (a file saved with CR-only line ends is not one long line), for the
    parser's positions, the error renderer and fmt alike."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


@dataclass(frozen=True, slots=True)
class Source:
    path: str  # as shown in messages and recorded in generated code
    text: str  # line ends are always LF (see normalise_newlines)

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", normalise_newlines(self.text))


def read_source(file: Path, shown_as: str, *, root: Path | None = None, data: bytes | None = None) -> Source:
    """A rulebook's text.  Only a regular file is read, and at most MAX_SOURCE_BYTES of it.  With `root`
    (the project folder), a file in the project that resolves outside it is refused, unread; a file
    outside the project is read where it is.  `data`: the bytes, read elsewhere (a git blob)."""
    if data is None:
        data = read_bytes(file, shown_as, root)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = normalise_newlines(data[: exc.start].decode("utf-8"))
        line = before.count("\n") + 1
        column = len(before) - (before.rfind("\n") + 1) + 1
        bad = data[exc.start : exc.start + 1].hex()
        raise RulesError([Diagnostic(
            f"file is not UTF-8 text (byte 0x{bad} at offset {exc.start})",
            Span(shown_as, line, column, line, column + 1),
            hint="rulebooks are UTF-8; re-save the file with UTF-8 encoding",
        )], {shown_as: normalise_newlines(data.decode("utf-8", errors="replace"))}) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return Source(shown_as, text)


def read_stdin(shown_as: str) -> bytes:
    """Standard input, at most MAX_SOURCE_BYTES of it (a rulebook's limit): RulesError beyond, or when there is
    none or it cannot be read."""
    try:
        if sys.stdin is None:       # no standard input at all
            raise OSError("there is none")
        stream = getattr(sys.stdin, "buffer", None)
        if stream is not None:
            data: bytes = stream.read(MAX_SOURCE_BYTES + 1)
        else:                       # a text stream only (an embedding program's, a test's)
            data = sys.stdin.read(MAX_SOURCE_BYTES + 1).encode("utf-8")
    except OSError as exc:
        raise RulesError([Diagnostic(f"cannot read standard input: {exc.strerror or exc}", Span(shown_as))]) from None
    if len(data) > MAX_SOURCE_BYTES:
        raise RulesError([Diagnostic(too_large(None), Span(shown_as))])
    return data


def _refuse(message: str, shown_as: str) -> RulesError:
    return RulesError([Diagnostic(message, Span(shown_as))])


def inside(path: str, folder: str) -> bool:
    """Whether `path` is `folder` or under it (both absolute, as strings)."""
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def special_kind(mode: int) -> str | None:
    """What a file that is neither a folder, a regular file nor a symlink is ('a named pipe (FIFO)', ...);
    None for those three."""
    if stat.S_ISDIR(mode) or stat.S_ISREG(mode) or stat.S_ISLNK(mode):
        return None
    return ("a named pipe (FIFO)" if stat.S_ISFIFO(mode) else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "not a regular file")


def _in_project(where: str, root: str, real_root: str) -> bool:
    """Whether the path `where` is in the project: under it as written, or through a folder that is
    the project's own folder under another name (a symlink to it)."""
    if inside(where, root) or inside(where, real_root):
        return True
    folder = os.path.dirname(where)
    while folder != os.path.dirname(folder):
        if os.path.realpath(folder) == real_root:
            return True
        folder = os.path.dirname(folder)
    return False


def too_large(size: int | None) -> str:
    what = f"{size:,} bytes" if size is not None else f"more than {MAX_SOURCE_BYTES:,} bytes"
    return f"file is too large for a rulebook ({what}; the limit is {MAX_SOURCE_BYTES // 2**20} MiB)"


def read_bytes(file: Path, shown_as: str, root: Path | None = None, what: str = "rulebook file") -> bytes:
    """At most MAX_SOURCE_BYTES of a regular file; see read_source.  `what` the file is, in messages."""
    target = str(file)
    if root is not None:
        real_root = os.path.realpath(root)
        if _in_project(os.path.abspath(file), os.path.abspath(root), real_root):
            target = os.path.realpath(file)
            if not inside(target, real_root):
                raise _refuse("symlink to a file outside the project (not followed)", shown_as)
    # O_NONBLOCK: opening a FIFO must not wait for a writer (it does nothing to a regular file)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    if target != str(file):
        flags |= getattr(os, "O_NOFOLLOW", 0)  # resolved already: a symlink there now was swapped in
    try:
        fd = os.open(target, flags)
    except FileNotFoundError:
        raise _refuse("no such file", shown_as) from None
    except IsADirectoryError:
        raise _refuse(f"is a directory, not a {what}", shown_as) from None
    except OSError as exc:
        raise _refuse(f"cannot read file: {exc.strerror}", shown_as) from None
    try:
        info = os.fstat(fd)
        mode, size = info.st_mode, info.st_size
        if stat.S_ISDIR(mode):
            raise _refuse(f"is a directory, not a {what}", shown_as)
        if not stat.S_ISREG(mode):
            kind = special_kind(mode)
            raise _refuse(f"is {kind}, not a {what} (only regular files are read)", shown_as)
        if size > MAX_SOURCE_BYTES:
            raise _refuse(too_large(size), shown_as)
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(MAX_SOURCE_BYTES + 1)
    except OSError as exc:
        raise _refuse(f"cannot read file: {exc.strerror}", shown_as) from None
    finally:
        os.close(fd)
    if len(data) > MAX_SOURCE_BYTES:  # it grew since fstat
        raise _refuse(too_large(None), shown_as)
    return data
