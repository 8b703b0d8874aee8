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
`discarded`, and its content is made again; it is never used.

Some entries are pickles (Lark's tables, a rulebook's IR), and loading a pickle runs what it says, so the cache
trusts only what no other user could have written, at every level: the cache folder, the folder of each kind
of entry and each entry's files must each be owned by this user, writable by neither group nor others, and
not a symlink (each folder is lstat-ed, each file opened with O_NOFOLLOW and checked again on the open file,
which must be a regular file: a FIFO or a device is never read).  A folder that fails is no cache (neither
read nor written; nothing in it is touched), named in `refused` for one note; an entry file that fails is
discarded as a damaged one is.
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
refused: dict[str, str] = {}    # each folder found untrusted in this process (so no cache): why

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)       # POSIX: a symlink is not opened
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)       # a FIFO opens at once (and is then refused), never hangs
_READ = os.O_RDONLY | _NOFOLLOW | _NONBLOCK | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)


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
    """The cache folder, made if need be; None when caching is off, the folder cannot be made, or it is not
    this user's alone (then named in `refused`)."""
    if os.environ.get("RULESDSL_NO_CACHE"):
        return None
    base = os.environ.get("RULESDSL_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "rulesdsl")
    return _trusted(Path(base), make=True, parents=True)


def _trusted(where: Path, make: bool, parents: bool = False) -> Path | None:
    """`where`, a folder this user alone can write (made, mode 0700, if `make`); None when it is missing, is
    not that or cannot be made."""
    try:
        try:
            status = os.lstat(where)
        except FileNotFoundError:
            if not make:
                return None
            if parents:
                os.makedirs(where, mode=0o700, exist_ok=True)
            else:
                os.mkdir(where, 0o700)
            status = os.lstat(where)
    except OSError:
        return None
    why = _untrusted(status, directory=True)
    if why is not None:
        refused.setdefault(str(where), why)
        return None
    return where


def _untrusted(status: os.stat_result, directory: bool) -> str | None:
    """Why a folder (or an entry's file) may hold what another user wrote; None when only this user could
    have.  Some entries are pickles (Lark's tables, a rulebook's IR), and loading a pickle runs what it says."""
    if stat.S_ISLNK(status.st_mode):
        return "a symlink"
    if directory and not stat.S_ISDIR(status.st_mode):
        return "not a folder"
    if not directory and not stat.S_ISREG(status.st_mode):
        return "not a regular file"
    if not hasattr(os, "getuid"):
        return None     # no POSIX owners to compare: the user's profile folder is its own
    if status.st_uid != os.getuid():
        return "owned by another user"
    if status.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return "writable by its group or others"
    return None


def _contents(path: Path) -> bytes:
    """The bytes of an entry's file: opened without following a symlink, and read only when the open file is a
    regular one that only this user could have written (else ValueError)."""
    why = None if regular(path) else "not a regular file"
    if why is None:
        handle = os.open(path, _READ)
        with os.fdopen(handle, "rb") as file:
            why = _untrusted(os.fstat(file.fileno()), directory=False)
            if why is None:
                return file.read()
    raise ValueError(why)


def read(kind: str, key: str) -> tuple[dict[str, Any], bytes | None] | None:
    """An entry's data and its blob (None when it was stored without one); None when there is no entry."""
    base = folder()
    where = None if base is None else _trusted(base / kind, make=False)
    if where is None:
        return None
    entry, bin_ = where / f"{key}.json", where / f"{key}.bin"
    try:
        os.lstat(entry)
    except OSError:
        return None
    try:
        meta = json.loads(_contents(entry).decode("utf-8"))
        if not isinstance(meta, dict) or meta.get("key") != key:
            raise ValueError("not this entry")
        blob = None
        if meta.get("blob"):
            blob = _contents(bin_)
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
    """A damaged entry: deleted (a symlink itself, never what it points at), so that the next write replaces
    it, and counted."""
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
    kind written last (the folder is listed once, not once an entry).  Nothing is written into a folder that
    is not this user's alone."""
    base = folder() if entries else None
    where = None if base is None else _trusted(base / kind, make=True)
    if where is None:
        return
    try:
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
    """`path` replaced whole by `data`, from a new file of this user's (mode 0600: mkstemp's); a symlink there is
    replaced itself, never followed."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _prune(where: Path, keep: int) -> None:
    entries = sorted(where.glob("*.json"), key=lambda p: os.lstat(p).st_mtime_ns)
    for stale in entries[:max(0, len(entries) - keep)]:
        stale.unlink(missing_ok=True)
        stale.with_suffix(".bin").unlink(missing_ok=True)
