"""The parser keeps Lark's analysed tables in the user's cache folder: made on first use, read after, and a
damaged or foreign file never stops a run."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PARSE = ("from rulesdsl.language.transform import parse; from rulesdsl.language.source import Source; "
         "r = parse(Source('x.rules', 'series s \"S\" version \"1\"\\n')); print(r.id.value)")


def _run(cache: Path) -> subprocess.CompletedProcess[str]:
    env = {**{k: v for k, v in os.environ.items() if k != "RULESDSL_CACHE_DIR"}, "XDG_CACHE_HOME": str(cache)}
    return subprocess.run([sys.executable, "-c", PARSE], env=env, capture_output=True, text=True, timeout=120)


def test_the_tables_are_cached_in_a_private_folder_and_read_back(tmp_path):
    first = _run(tmp_path)
    assert first.returncode == 0 and first.stdout.strip() == "s", first.stderr
    tables = tmp_path / "rulesdsl" / "grammar.lark-tables"
    assert tables.is_file() and tables.stat().st_size > 10_000
    assert (tables.parent.stat().st_mode & 0o077) == 0          # the folder is the user's alone
    written = tables.stat().st_mtime_ns
    again = _run(tmp_path)
    assert again.returncode == 0 and again.stdout.strip() == "s"
    assert tables.stat().st_mtime_ns == written                  # read, not rebuilt


def test_a_damaged_cache_or_an_unwritable_folder_changes_nothing(tmp_path):
    tables = tmp_path / "rulesdsl" / "grammar.lark-tables"
    tables.parent.mkdir(parents=True)
    _run(tmp_path)
    good = tables.read_bytes()
    tables.write_bytes(good[: len(good) // 3])                    # the right hash, then a cut-off pickle
    damaged = _run(tmp_path)
    assert damaged.returncode == 0 and damaged.stdout.strip() == "s", damaged.stderr
    assert "Traceback" not in damaged.stderr
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("x")
    result = _run(blocked)                                        # the cache folder cannot be made
    assert result.returncode == 0 and result.stdout.strip() == "s", result.stderr


def test_rulesdsl_cache_dir_overrides_and_rulesdsl_no_cache_turns_it_off(tmp_path):
    env = {**os.environ, "RULESDSL_CACHE_DIR": str(tmp_path / "here"), "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    assert subprocess.run([sys.executable, "-c", PARSE], env=env, capture_output=True, timeout=120).returncode == 0
    assert (tmp_path / "here" / "grammar.lark-tables").is_file() and not (tmp_path / "xdg").exists()
    env = {**env, "RULESDSL_CACHE_DIR": str(tmp_path / "off"), "RULESDSL_NO_CACHE": "1"}
    done = subprocess.run([sys.executable, "-c", PARSE], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "s" and not (tmp_path / "off").exists()


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
