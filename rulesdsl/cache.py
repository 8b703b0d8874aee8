"""The user's cache folder: the parser's LALR tables and laid-out cards, keyed by a hash of what made them.

It lives in the user's own cache folder ($XDG_CACHE_HOME/rulesdsl, else ~/.cache/rulesdsl; mode 0700, so
no other user can plant an entry), or in $RULESDSL_CACHE_DIR.  RULESDSL_NO_CACHE=1 turns it off.  An entry
is named by the SHA-256 of everything its content is made from, so a stale entry is never read: it is only
left unused.  Everything here is safe to delete, and nothing in it is committed: a build without it
writes the same bytes, only more slowly.  A cache that cannot be read or written is no cache, never an error.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

KEEP = 400          # entries of one kind kept; the least recently written beyond that are deleted


def folder() -> Path | None:
    """The cache folder, made if need be; None when caching is off or the folder cannot be made."""
    if os.environ.get("RULESDSL_NO_CACHE"):
        return None
    base = os.environ.get("RULESDSL_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "rulesdsl")
    try:
        os.makedirs(base, mode=0o700, exist_ok=True)
    except OSError:
        return None
    return Path(base)


def read(kind: str, key: str) -> tuple[dict[str, Any], bytes | None] | None:
    """An entry's data and its blob (None when it was stored without one); None when there is no entry."""
    base = folder()
    if base is None:
        return None
    entry = base / kind / f"{key}.json"
    try:
        meta = json.loads(entry.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(meta, dict) or meta.get("key") != key:
        return None
    try:
        blob = (base / kind / f"{key}.bin").read_bytes() if meta.get("blob") else None
    except OSError:
        return None
    return meta, blob


def write(kind: str, key: str, meta: dict[str, Any], blob: bytes | None = None) -> None:
    """Stores an entry (its blob first, its data last, each replaced whole: a reader never sees half)."""
    base = folder()
    if base is None:
        return
    where = base / kind
    try:
        where.mkdir(mode=0o700, exist_ok=True)
        if blob is not None:
            _replace(where / f"{key}.bin", blob)
        _replace(where / f"{key}.json", json.dumps({**meta, "key": key, "blob": blob is not None}).encode("utf-8"))
        _prune(where)
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


def _prune(where: Path) -> None:
    entries = sorted(where.glob("*.json"), key=lambda p: p.stat().st_mtime_ns)
    for stale in entries[:max(0, len(entries) - KEEP)]:
        stale.unlink(missing_ok=True)
        stale.with_suffix(".bin").unlink(missing_ok=True)
