"""The user's cache folder: the parser's LALR tables, laid-out cards, each chart's measures at each column
width (cards/pdf.py), and what project/memo.py keeps (the worked examples' outcomes, each rulebook's IR
and the problems validation found in it), each keyed by a hash of what made it.

It lives in the user's own cache folder ($XDG_CACHE_HOME/rulesdsl, else ~/.cache/rulesdsl; mode 0700, so
no other user can plant an entry), or in $RULESDSL_CACHE_DIR.  RULESDSL_NO_CACHE=1 turns it off, and so
does a folder that another user owns or that its group or others may write (some entries are pickles).  An entry
is named by the SHA-256 of everything its content is made from, so a stale entry is never read: it is only
left unused.  Everything here is safe to delete, and nothing in it is committed: a build without it
writes the same bytes, only more slowly.  A cache that cannot be read or written is no cache, never an error.

Each entry carries the SHA-256 of its data and blob and the blob's size: an entry that does not match them
(left half written by a crash, truncated by a full disk, edited by hand) is deleted and counted in
`discarded`, and its content is made again; it is never used.  A cache file that is not a regular file (a
FIFO, a device, a symlink) is never opened.
"""
from __future__ import annotations

import hashlib
import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

KEEP = 400          # entries of one kind kept; the least recently written beyond that are deleted
discarded: list[str] = []    # "kind/key" of each entry found damaged and deleted in this process


def regular(path: Path) -> bool:
    """Whether `path` is a regular file (not followed if it is a symlink): only those are read."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def _digest(meta: dict[str, Any], blob: bytes | None) -> str:
    data = json.dumps(meta, sort_keys=True, ensure_ascii=True).encode("utf-8")
    return hashlib.sha256(len(data).to_bytes(8, "big") + data + (blob or b"")).hexdigest()


def folder() -> Path | None:
    """The cache folder, made if need be; None when caching is off or the folder cannot be made."""
    if os.environ.get("RULESDSL_NO_CACHE"):
        return None
    base = os.environ.get("RULESDSL_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "rulesdsl")
    try:
        os.makedirs(base, mode=0o700, exist_ok=True)
        if not _private(os.stat(base)):
            return None
    except OSError:
        return None
    return Path(base)


def _private(status: os.stat_result) -> bool:
    """Whether only this user can write the folder: some entries are pickles (Lark's tables, a rulebook's
    IR), and loading a pickle runs what it says, so a folder another user could write is no cache."""
    if not hasattr(os, "getuid"):
        return True     # no POSIX owners to compare: the user's profile folder is its own
    return status.st_uid == os.getuid() and not status.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def read(kind: str, key: str) -> tuple[dict[str, Any], bytes | None] | None:
    """An entry's data and its blob (None when it was stored without one); None when there is no entry."""
    base = folder()
    if base is None:
        return None
    entry, bin_ = base / kind / f"{key}.json", base / kind / f"{key}.bin"
    if not entry.exists() and not entry.is_symlink():
        return None
    try:
        if not regular(entry):
            raise ValueError("not a regular file")
        meta = json.loads(entry.read_text(encoding="utf-8"))
        if not isinstance(meta, dict) or meta.get("key") != key:
            raise ValueError("not this entry")
        blob = None
        if meta.get("blob"):
            if not regular(bin_):
                raise ValueError("no blob")
            blob = bin_.read_bytes()
            if len(blob) != meta.get("size"):
                raise ValueError("a blob of another size")
        content = {k: v for k, v in meta.items() if k != "sha256"}
        if meta.get("sha256") != _digest(content, blob):
            raise ValueError("content that does not match its hash")
    except (OSError, ValueError, UnicodeDecodeError):
        _discard(entry, bin_, f"{kind}/{key}")
        return None
    return content, blob


def _discard(entry: Path, blob: Path, name: str) -> None:
    """A damaged entry: deleted, so that the next write replaces it, and counted."""
    for path in (entry, blob):
        try:
            if path.is_symlink() or path.is_file():
                path.unlink()
        except OSError:
            pass
    discarded.append(name)


def write(kind: str, key: str, meta: dict[str, Any], blob: bytes | None = None) -> None:
    """Stores an entry (its blob first, its data last, each replaced whole: a reader never sees half)."""
    write_many(kind, [(key, meta, blob)])


def write_many(kind: str, entries: list[tuple[str, dict[str, Any], bytes | None]],
               keep: int | None = None) -> None:
    """Stores each (key, data, blob) as `write` does, and then keeps the `keep` (else KEEP) entries of the
    kind written last (the folder is listed once, not once an entry)."""
    base = folder()
    if base is None or not entries:
        return
    where = base / kind
    try:
        where.mkdir(mode=0o700, exist_ok=True)
        for key, meta, blob in entries:
            if blob is not None:
                _replace(where / f"{key}.bin", blob)
            content = {**meta, "key": key, "blob": blob is not None, "size": len(blob) if blob is not None else 0}
            content["sha256"] = _digest(content, blob)
            _replace(where / f"{key}.json", json.dumps(content).encode("utf-8"))
        _prune(where, KEEP if keep is None else keep)
    except OSError:
        return


def _replace(path: Path, data: bytes) -> None:
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _prune(where: Path, keep: int) -> None:
    entries = sorted(where.glob("*.json"), key=lambda p: p.stat().st_mtime_ns)
    for stale in entries[:max(0, len(entries) - keep)]:
        stale.unlink(missing_ok=True)
        stale.with_suffix(".bin").unlink(missing_ok=True)
