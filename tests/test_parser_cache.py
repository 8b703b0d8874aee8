"""The parser keeps Lark's analysed tables in the user's cache folder: made on first use, read after, and a
damaged or foreign file never stops a run."""
from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, Planted, foreign, plant

PARSE = ("from rulesdsl.language.transform import parse; from rulesdsl.language.source import Source; "
         "r = parse(Source('x.rules', 'series s \"S\" version \"1\"\\n')); print(r.id.value)")


def _run(cache: Path) -> subprocess.CompletedProcess[str]:
    env = {**{k: v for k, v in os.environ.items() if k != "RULESDSL_CACHE_DIR"}, "XDG_CACHE_HOME": str(cache)}
    return subprocess.run([sys.executable, "-c", PARSE], env=env, capture_output=True, text=True, timeout=120)


def _tables(cache: Path) -> Path:
    """The cache entry holding Lark's tables (its data beside it, with their SHA-256 and size)."""
    [tables] = (cache / "tables").glob("*.bin")
    return tables


def test_the_tables_are_cached_in_a_private_folder_and_read_back(tmp_path):
    first = _run(tmp_path)
    assert first.returncode == 0 and first.stdout.strip() == "s", first.stderr
    tables = _tables(tmp_path / "rulesdsl")
    assert tables.is_file() and tables.stat().st_size > 10_000 and tables.with_suffix(".json").is_file()
    assert (tables.parent.stat().st_mode & 0o077) == 0          # the folders are the user's alone
    assert (tables.parent.parent.stat().st_mode & 0o077) == 0
    written = tables.stat().st_mtime_ns
    again = _run(tmp_path)
    assert again.returncode == 0 and again.stdout.strip() == "s"
    assert tables.stat().st_mtime_ns == written                  # read, not rebuilt


def test_a_damaged_cache_or_an_unwritable_folder_changes_nothing(tmp_path):
    _run(tmp_path)
    tables = _tables(tmp_path / "rulesdsl")
    good = tables.read_bytes()
    tables.write_bytes(good[: len(good) // 3])                    # a cut-off pickle
    damaged = _run(tmp_path)
    assert damaged.returncode == 0 and damaged.stdout.strip() == "s", damaged.stderr
    assert "Traceback" not in damaged.stderr
    again = _tables(tmp_path / "rulesdsl")                        # discarded and made again, whole
    assert json.loads(again.with_suffix(".json").read_text())["size"] == again.stat().st_size > len(good) // 3
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("x")
    result = _run(blocked)                                        # the cache folder cannot be made
    assert result.returncode == 0 and result.stdout.strip() == "s", result.stderr


def test_rulesdsl_cache_dir_overrides_and_rulesdsl_no_cache_turns_it_off(tmp_path):
    env = {**os.environ, "RULESDSL_CACHE_DIR": str(tmp_path / "here"), "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    assert subprocess.run([sys.executable, "-c", PARSE], env=env, capture_output=True, timeout=120).returncode == 0
    assert _tables(tmp_path / "here").is_file() and not (tmp_path / "xdg").exists()
    env = {**env, "RULESDSL_CACHE_DIR": str(tmp_path / "off"), "RULESDSL_NO_CACHE": "1"}
    done = subprocess.run([sys.executable, "-c", PARSE], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "s" and not (tmp_path / "off").exists()


def test_lark_s_own_cache_file_is_never_loaded(tmp_path):
    """Issue 41: the tables were kept in Lark's own cache file, whose only check is a hash of the grammar and
    options on its first line; a file with that line and any pickle after it was loaded, its code run.  The
    file is read no more (the tables are an entry of the cache, hashed like every other)."""
    from lark import Lark
    old = tmp_path / "rulesdsl" / "grammar.lark-tables"
    old.parent.mkdir(mode=0o700)
    Lark.open(str(ROOT / "rulesdsl" / "language" / "grammar.lark"), parser="lalr", propagate_positions=True,
              start=["start", "situation"], cache=str(old))        # what the parser made, as it made it
    marker = tmp_path / "loaded"
    old.write_bytes(old.read_bytes().split(b"\n", 1)[0] + b"\n" + pickle.dumps(Planted(marker)))
    run = _run(tmp_path)
    assert run.returncode == 0 and run.stdout.strip() == "s", run.stderr
    assert not marker.exists()


@pytest.mark.parametrize("how", ["its hash not matching", "owned by another user", "writable by its group or others",
                                 "in a folder another user owns", "in a symlinked folder"])
def test_tampered_tables_are_never_loaded(own_cache, tmp_path, how):
    """Tables whose blob was replaced by a pickle that runs code: with the entry's SHA-256 left as it was (a
    mismatch: discarded), or recomputed to match but in a file or folder another user could have written.
    None is loaded; the tables are analysed again, and parse."""
    from rulesdsl.language import parser
    parser._lark()
    tables, marker = own_cache / parser.TABLES, tmp_path / "loaded"
    plant(tables, marker, rehash=how != "its hash not matching")
    if how == "owned by another user":
        foreign(*tables.iterdir())
    elif how == "writable by its group or others":
        for file in tables.iterdir():
            file.chmod(0o666)
    elif how == "in a folder another user owns":
        foreign(tables)
    elif how == "in a symlinked folder":
        tables.rename(tmp_path / "elsewhere")
        tables.symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    made = parser._lark()
    assert not marker.exists()
    assert made.parse('series s "S" version "1"\n', start="start").data == "start"


def test_parsing_pauses_the_collector_and_gives_it_back_as_it_was():
    import gc

    from rulesdsl.errors import RulesError
    from rulesdsl.language.source import Source
    from rulesdsl.language.transform import parse

    text = 'series s "S" version "1"\n'
    assert gc.isenabled()
    parse(Source("x.rules", text))
    assert gc.isenabled()
    try:
        parse(Source("y.rules", "not a rulebook"))
    except RulesError:
        pass
    assert gc.isenabled()                           # after an error too
    gc.disable()
    try:
        parse(Source("x.rules", text))
        assert not gc.isenabled()                   # a caller that paused it keeps it paused
    finally:
        gc.enable()
