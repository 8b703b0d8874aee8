"""The worked examples' outcomes, kept in the user's cache (rulesdsl/cache.py) between runs.

Running the examples is most of what `check` and `build` cost (some 2 s of the 2.6 s a check of the shipped
rulebooks takes), and an unchanged rulebook's examples answer the same every time.  An outcome is stored
under the SHA-256 of everything it is computed from:
- the rulebook's generated module (what its rules compute);
- the path and text of the rulebook and of each rulebook it extends (the examples, the values they assume,
  the parent module an inherited example is compared with, the places a diagnostic points at);
- the code of rulesdsl itself (the installed package's Python files and grammar), the Python running it and
  the versions of Lark and Cerberus;
- for the inherited examples, the expect lines that failed in their own rulebook (they are not run again).
So an entry is never read for anything else; one that was damaged is discarded by the cache.  The same
goes for the check that a generated module compiles and imports before it is written: a source that did,
with this compiler, is not imported again (the examples import it when they run).  With RULESDSL_NO_CACHE=1
every module is imported and every example runs, as the first time.

A rulebook's IR is kept too, under the SHA-256 of the compiler's identity and the rulebook's path and text
(`parsed`): parsing is most of what is left of a check once the examples are read back, and the series a
game extends seldom changes when the game does.  The IR is stored as a pickle, read back only from the
user's own cache folder (mode 0700), and only after its SHA-256 matches, like every entry; a pickle that
does not load, or loads as anything but a Rulebook, is parsed again.  The text an editor holds unsaved is
parsed but not kept (each keystroke would write an entry and push out those worth keeping).  So are the
problems the checks of one rulebook by itself find (validate.check: `checked`), under the rulebook's text and
those of the rulebooks it extends, which give the vocabulary it is checked against.
"""
from __future__ import annotations

import functools
import gc
import hashlib
import pickle
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rulesdsl import cache
from rulesdsl.checks.examples import Run
from rulesdsl.errors import Diagnostic, Span
from rulesdsl.language.source import Source
from rulesdsl.model import ir

KIND = "examples"
MODULES = "modules"     # the generated modules that compile and import
PARSED = "parsed"       # rulebooks' IR
CHECKED = "checked"     # the problems validate finds in a rulebook by itself
_PACKAGE = Path(__file__).resolve().parents[1]     # the rulesdsl package


def code_digest() -> str:
    """The identity of the running compiler: a hash of its code (every Python file and the grammar of the
    package, hashed again only when a file's size or time changes), of the Python version and of the versions
    of the libraries whose output is kept: Lark's trees (the IR) and Cerberus's messages (validate's problems)."""
    files = sorted(p for suffix in ("*.py", "*.lark") for p in _PACKAGE.rglob(suffix) if p.is_file())
    return _digest_of(tuple((p.relative_to(_PACKAGE).as_posix(), p.stat().st_mtime_ns, p.stat().st_size)
                            for p in files))


@functools.lru_cache(maxsize=4)
def _digest_of(files: tuple[tuple[str, int, int], ...]) -> str:
    import cerberus
    import lark
    digest = hashlib.sha256(f"{sys.version}\0lark {lark.__version__}\0cerberus {cerberus.__version__}".encode("utf-8"))
    for rel, _, _ in files:
        data = (_PACKAGE / rel).read_bytes()
        digest.update(f"{rel}\0{len(data)}\0".encode("utf-8") + data)
    return digest.hexdigest()


def stamp(module: str, lineage: Sequence[tuple[str, str]], code: str | None = None) -> str:
    """What a rulebook's examples are computed from: its module's text and each (path, text) of the rulebook
    and those it extends, with the compiler's identity (`code`: code_digest(), worked out once by a caller
    that stamps many)."""
    digest = hashlib.sha256((code or code_digest()).encode("ascii"))
    for part in (module, *(f"{path}\0{text}" for path, text in lineage)):
        data = part.encode("utf-8")
        digest.update(len(data).to_bytes(8, "big") + data)
    return digest.hexdigest()


def inherited_stamp(base: str, failed: Iterable[Span], paths: Iterable[str]) -> str:
    """`stamp` for a rulebook's inherited examples: also the failed expect lines of its lineage's `paths`."""
    within = set(paths)
    skipped = sorted(repr(_span_data(span)) for span in failed if span.path in within)
    return hashlib.sha256("\n".join([base, "inherited", *skipped]).encode("utf-8")).hexdigest()


def imported_before(module: str, code: str | None = None) -> bool:
    """Whether this module's source was compiled and imported, with no error, by this compiler before."""
    return cache.read(MODULES, _module_key(module, code)) is not None


def imported(module: str, code: str | None = None) -> None:
    """Note that this module's source compiles and imports."""
    cache.write(MODULES, _module_key(module, code), {})


def _module_key(module: str, code: str | None) -> str:
    return hashlib.sha256(f"{code or code_digest()}\0module\0{module}".encode("utf-8")).hexdigest()


def parsed(source: Source, parse: Callable[[Source], ir.Rulebook], code: str | None = None) -> ir.Rulebook:
    """`parse(source)`, read back from the cache when this compiler parsed the same path and text before,
    else parsed and kept.  A parse that fails raises as `parse` does, and nothing is kept."""
    key = stamp(PARSED, [(source.path, source.text)], code)
    hit = cache.read(PARSED, key)
    if hit is not None and hit[1] is not None:
        enabled = gc.isenabled()
        gc.disable()    # as parse does: loading makes many objects and frees none
        try:
            rulebook = pickle.loads(hit[1])
        except Exception:   # noqa: BLE001 - whatever a pickle of another build raises: parse again
            rulebook = None
        finally:
            if enabled:
                gc.enable()
        if isinstance(rulebook, ir.Rulebook) and rulebook.path == source.path:
            return rulebook
    rulebook = parse(source)
    try:
        blob = pickle.dumps(rulebook, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return rulebook     # an IR that does not pickle is only not kept
    cache.write(PARSED, key, {}, blob)
    return rulebook


def checked(lineage: Sequence[tuple[str, str]], check: Callable[[], list[Diagnostic]],
            code: str | None = None) -> list[Diagnostic]:
    """`check()`'s problems of a rulebook, read back when this compiler checked the same rulebook, with the
    same rulebooks above it (`lineage`: each one's (path, text), the rulebook's first), else checked and
    kept."""
    key = stamp(CHECKED, lineage, code)
    hit = cache.read(CHECKED, key)
    if hit is not None:
        try:
            return [_diagnostic(d) for d in hit[0]["problems"]]
        except (KeyError, TypeError, ValueError):
            pass        # not what this code wrote: check again
    problems = check()
    cache.write(CHECKED, key, {"problems": [_diagnostic_data(d) for d in problems]})
    return problems


def recall(key: str) -> Run | None:
    """The outcome stored under `key`; None when there is none (or caching is off)."""
    hit = cache.read(KIND, key)
    if hit is None:
        return None
    try:
        meta = hit[0]
        return Run([_diagnostic(d) for d in meta["diagnostics"]], int(meta["checked"]),
                   {_span(s) for s in meta["failed"]})
    except (KeyError, TypeError, ValueError):
        return None         # not an outcome this code wrote: run the examples again


def keep(key: str, run: Run) -> None:
    cache.write(KIND, key, {"diagnostics": [_diagnostic_data(d) for d in run.diagnostics], "checked": run.checked,
                            "failed": sorted((_span_data(s) for s in run.failed), key=repr)})


def _span_data(span: Span) -> list[Any]:
    return [span.path, span.line, span.column, span.end_line, span.end_column]


def _span(data: list[Any]) -> Span:
    path, line, column, end_line, end_column = data
    if not isinstance(path, str) or not all(isinstance(n, int) for n in (line, column, end_line, end_column)):
        raise TypeError("not a span")
    return Span(path, line, column, end_line, end_column)


def _diagnostic_data(diagnostic: Diagnostic) -> Mapping[str, Any]:
    return {"message": diagnostic.message, "span": _span_data(diagnostic.span), "hint": diagnostic.hint,
            "severity": diagnostic.severity}


def _diagnostic(data: Mapping[str, Any]) -> Diagnostic:
    message, hint, severity = data["message"], data["hint"], data["severity"]
    if not isinstance(message, str) or not isinstance(severity, str) or not (hint is None or isinstance(hint, str)):
        raise TypeError("not a diagnostic")
    return Diagnostic(message, _span(data["span"]), hint, severity)
