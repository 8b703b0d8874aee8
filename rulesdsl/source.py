"""Reading rulebook files: UTF-8 text or a positioned error, never a traceback."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .errors import Diagnostic, RulesError, Span


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


def read_source(file: Path, shown_as: str) -> Source:
    try:
        data = file.read_bytes()
    except FileNotFoundError:
        raise RulesError([Diagnostic("no such file", Span(shown_as))]) from None
    except IsADirectoryError:
        raise RulesError([Diagnostic("is a directory, not a rulebook file", Span(shown_as))]) from None
    except OSError as exc:
        raise RulesError([Diagnostic(f"cannot read file: {exc.strerror}", Span(shown_as))]) from None
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
