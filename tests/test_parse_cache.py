"""A rulebook's IR and the problems validate finds in it are kept in the user's cache (memo.parsed,
memo.checked): a later process that checks an unchanged rulebook neither parses nor validates it again, and
says exactly what parsing and validating it would say.  Any change to what they come from (the text, a
rulebook it extends, the compiler) parses or validates again; an entry that is damaged, or that is not what
this compiler wrote, is never trusted; an editor's unsaved text is not kept."""
from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

from conftest import foreign, plant
from rulesdsl import cache
from rulesdsl.language.source import Source
from rulesdsl.project import build, memo, passes

PATH = "rulebooks/hollow.rules"
LABELS = ["rulesdsl/cards/labels/charts.rules", "rulesdsl/cards/labels/words.rules",
          "rulesdsl/errata/labels/errata.rules"]
SERIES = build.Library().find("scs-1.8")[1]    # the shipped series it extends, as shown
GAME = '''game hollow "Hollow Ridge (a test title)" version "1.0" extends scs-1.8

rule G1.0 "Stacking" {
  summary "Up to four steps may stack in a hex."
  stacking.limit = 4 steps
}

die roll modifiers "Odd ratio" [7.4] {
  ratio  +1  both  when count(attackers) / count(defenders where steps > 3) > 1
}

rule G2.0 "A misspelt parameter" {
  summary "Stands for a designer's typing error."
  stacking.limt = 4 steps
}
'''


@pytest.fixture
def calls(monkeypatch) -> dict[str, list[str]]:
    """The paths actually parsed and validated, as a new process would: nothing remembered in memory."""
    seen: dict[str, list[str]] = {"parse": [], "check": []}
    real_parse, real_check = passes.parse, passes.check

    def parse(source):
        seen["parse"].append(source.path)
        return real_parse(source)

    def check(rulebook, parameters):
        seen["check"].append(rulebook.path)
        return real_check(rulebook, parameters)

    monkeypatch.setattr(passes, "parse", parse)
    monkeypatch.setattr(passes, "check", check)
    _forget()
    yield seen
    _forget()


def _forget() -> None:
    """What one process remembers and the next does not."""
    passes._parse.cache_clear()
    passes._CHECKED.clear()


def _compile(text: str = GAME) -> passes.Compilation:
    _forget()
    return build.compile_sources([Source(PATH, text)], generate=False)


def _entries(folder: Path, kind: str) -> list[Path]:
    return sorted((folder / kind).glob("*.json"))


def test_an_unchanged_rulebook_is_neither_parsed_nor_validated_again(own_cache, calls):
    first = _compile()
    assert sorted(calls["check"]) == sorted([PATH, SERIES])
    assert sorted(calls["parse"]) == sorted([PATH, SERIES, *LABELS])     # the compiler's own labels too
    messages = [(d.severity, d.message) for d in first.diagnostics]
    assert ("error", "unknown parameter 'stacking.limt'") in messages
    assert any(s == "warning" and m.startswith("this divides by an amount that may be 0") for s, m in messages)

    calls["parse"].clear(), calls["check"].clear()
    again = _compile()
    assert calls == {"parse": [], "check": []}
    assert again.diagnostics == first.diagnostics      # the same problems, spans, hints and severities
    assert again.rulebooks == first.rulebooks          # the same IR, read back
    assert again.resolved == first.resolved
    assert again.labels == first.labels


def test_a_changed_text_is_parsed_and_validated_again_and_nothing_else_is(own_cache, calls):
    _compile()
    calls["parse"].clear(), calls["check"].clear()
    changed = _compile(GAME.replace("stacking.limt", "stacking.limit"))
    assert calls == {"parse": [PATH], "check": [PATH]}
    messages = [d.message for d in changed.diagnostics]
    assert "unknown parameter 'stacking.limt'" not in messages          # the problems of the new text
    assert any(m.startswith("stacking.limit is set by both rule G1.0") for m in messages)


def test_another_compiler_parses_and_validates_again(own_cache, calls, monkeypatch):
    _compile()
    calls["parse"].clear(), calls["check"].clear()
    monkeypatch.setattr(memo, "code_digest", lambda: "0" * 64)
    _compile()
    assert PATH in calls["parse"] and PATH in calls["check"]


def test_a_change_to_the_series_validates_the_game_again(own_cache, calls, tmp_path):
    series = Source("rulebooks/mini.rules", 'series mini "A mini series" version "1.0"\n\n'
                    'rule 1.0 "Stacking" {\n  summary "Stacking."\n  stacking.limit = 3 steps\n}\n')
    game = Source(PATH, 'game hollow "Hollow" version "1.0" extends mini\n\n'
                  'rule G1.0 "Stacking" {\n  summary "Four."\n  stacking.limit = 4 steps\n}\n')
    build.compile_sources([series, game], generate=False)
    calls["parse"].clear(), calls["check"].clear()
    _forget()
    build.compile_sources([Source(series.path, series.text.replace('"Stacking."', '"Three steps."')), game],
                          generate=False)
    assert calls["parse"] == ["rulebooks/mini.rules"]      # the game's own text is read back ...
    assert sorted(calls["check"]) == sorted(["rulebooks/mini.rules", PATH])     # ... and checked again


def _damage(folder: Path, kind: str, blob: bytes) -> None:
    for entry in _entries(folder, kind):
        entry.with_suffix(".bin").write_bytes(blob)


def test_a_damaged_entry_is_parsed_again_and_replaced(own_cache, calls):
    first = _compile()
    _damage(own_cache, memo.PARSED, b"not a pickle")
    calls["parse"].clear()
    assert _compile().rulebooks == first.rulebooks
    assert PATH in calls["parse"]
    calls["parse"].clear()
    _compile()
    assert calls["parse"] == []        # the damaged entry was replaced by a good one


def test_an_entry_that_is_not_a_rulebook_is_never_used(own_cache, calls):
    first = _compile()
    key = next(e.stem for e in _entries(own_cache, memo.PARSED)
               if pickle.loads(e.with_suffix(".bin").read_bytes()).path == PATH)
    cache.write(memo.PARSED, key, {}, pickle.dumps({"path": PATH}))     # well formed, with a good digest
    calls["parse"].clear()
    assert _compile().rulebooks == first.rulebooks and calls["parse"] == [PATH]


def test_unreadable_problems_are_checked_again(own_cache, calls):
    first = _compile()
    for entry in _entries(own_cache, memo.CHECKED):
        cache.write(memo.CHECKED, entry.stem, {"problems": [{"message": 3}]})
    calls["check"].clear()
    assert _compile().diagnostics == first.diagnostics and PATH in calls["check"]


def test_an_editors_unsaved_text_is_not_kept(own_cache, calls, project):
    project.write(PATH, GAME)
    draft = GAME.replace("Hollow Ridge", "Hollow Ridge, being typed")
    _forget()
    build.compile_project(project.root, unsaved={PATH: draft}, generate=False)
    kept = [pickle.loads(e.with_suffix(".bin").read_bytes()).path for e in _entries(own_cache, memo.PARSED)]
    assert PATH not in kept and kept     # the series it extends is kept, the draft is not
    calls["parse"].clear(), calls["check"].clear()
    _forget()
    build.compile_project(project.root, unsaved={PATH: draft}, generate=False)
    assert calls == {"parse": [PATH], "check": [PATH]}


def test_nothing_is_kept_when_caching_is_off(own_cache, calls, monkeypatch):
    monkeypatch.setenv("RULESDSL_NO_CACHE", "1")
    _compile()
    calls["parse"].clear(), calls["check"].clear()
    _compile()
    assert PATH in calls["parse"] and PATH in calls["check"]
    assert not _entries(own_cache, memo.PARSED) and not _entries(own_cache, memo.CHECKED)


def test_a_rulebook_that_does_not_parse_is_an_error_every_time_and_kept_nowhere(own_cache, calls):
    broken = GAME.replace('rule G1.0 "Stacking" {', 'rule G1.0 "Stacking" {{')
    first = _compile(broken)
    assert [d for d in first.diagnostics if d.severity == "error" and d.span.path == PATH]
    calls["parse"].clear()
    assert _compile(broken).diagnostics == first.diagnostics and calls["parse"] == [PATH]


def test_a_cache_folder_others_may_write_is_no_cache(tmp_path, monkeypatch, calls):
    """Some entries are pickles, and loading one runs what it says: a folder another user could have
    written is neither read nor written."""
    shared = tmp_path / "shared"
    shared.mkdir()
    monkeypatch.setenv("RULESDSL_CACHE_DIR", str(shared))
    monkeypatch.delenv("RULESDSL_NO_CACHE", raising=False)
    _compile()
    kept = sorted(p.relative_to(shared).as_posix() for p in shared.rglob("*.bin"))
    assert kept      # a private folder is a cache
    shared.chmod(0o777)
    try:
        calls["parse"].clear()
        _compile()
        assert PATH in calls["parse"]       # not read back from a folder anyone may write
        (shared / memo.PARSED).rename(shared / "moved")
        _compile()
        assert not (shared / memo.PARSED).exists()      # nor written into
    finally:
        shared.chmod(0o700)


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_a_planted_pickle_in_the_users_own_folder_is_what_the_checks_guard(own_cache, calls, tmp_path):
    """The control for the tests below: in the user's own folders, with its files the user's own, a planted
    entry whose hash matches is loaded (only the user, or root, could have written it there)."""
    _compile()
    marker = tmp_path / "loaded"
    plant(own_cache / memo.PARSED, marker)
    _compile()
    assert marker.exists()


@pytest.mark.parametrize("how", ["owned by another user", "a symlink", "writable by its group or others"])
def test_a_parsed_folder_another_user_could_write_is_no_cache(own_cache, calls, tmp_path, how):
    """Issue 41: a `parsed/` folder owned by another user (or a symlink to one) in a private cache folder, holding
    a pickle with a recomputed SHA-256, ran the pickle's code.  Now such a folder is neither read nor written
    (nothing in it changes), the rulebook is parsed again, and the check says what it always says."""
    first = _compile()
    parsed, marker = own_cache / memo.PARSED, tmp_path / "loaded"
    plant(parsed, marker)
    if how == "owned by another user":
        foreign(parsed)
    elif how == "a symlink":
        elsewhere = tmp_path / "elsewhere"
        elsewhere.mkdir(mode=0o700)
        for entry in parsed.iterdir():
            entry.rename(elsewhere / entry.name)
        parsed.rmdir()
        parsed.symlink_to(elsewhere, target_is_directory=True)
    else:
        parsed.chmod(0o770)
    before = _tree(parsed)
    calls["parse"].clear()
    again = _compile()
    assert not marker.exists()                                  # never loaded
    assert PATH in calls["parse"] and again.diagnostics == first.diagnostics and again.rulebooks == first.rulebooks
    assert _tree(parsed) == before                              # nothing written, removed or replaced there
    assert cache.refused[str(parsed)] == how                    # for the one note a command prints
    assert cache.read(memo.CHECKED, next(iter((own_cache / memo.CHECKED).glob("*.json"))).stem)   # the rest is


@pytest.mark.parametrize("how", ["owned by another user", "a symlink", "writable by its group or others"])
def test_an_entry_file_another_user_could_write_is_never_loaded(own_cache, calls, tmp_path, how):
    """An entry's own files are checked too: each must be a regular file of the user's, writable by no one
    else, not a link.  One that is not is discarded (the link itself, never what it points at) and made again."""
    first = _compile()
    parsed, marker = own_cache / memo.PARSED, tmp_path / "loaded"
    plant(parsed, marker)
    files = sorted(parsed.iterdir())
    outside = tmp_path / "elsewhere"
    if how == "owned by another user":
        foreign(*files)
    elif how == "a symlink":
        outside.mkdir(mode=0o700)
        for file in files:
            file.rename(outside / file.name)
            file.symlink_to(outside / file.name)
    else:
        for file in files:
            file.chmod(0o660)
    cache.discarded.clear()
    calls["parse"].clear()
    again = _compile()
    assert not marker.exists()
    assert PATH in calls["parse"] and again.diagnostics == first.diagnostics
    assert len(cache.discarded) == len(files) // 2                  # each one discarded ...
    if how == "a symlink":
        assert len(list(outside.iterdir())) == len(files)          # ... never what a link points at
    calls["parse"].clear()
    _compile()
    assert calls["parse"] == [] and not marker.exists()            # ... and made again, whole and trusted


def test_check_says_once_that_an_untrusted_cache_folder_was_not_used(own_cache, project, capsys, tmp_path):
    project.add_base()
    code, out, _ = project.run("check", capsys=capsys)
    assert code == 0, out
    parsed, marker = own_cache / memo.PARSED, tmp_path / "loaded"
    plant(parsed, marker)
    foreign(parsed)
    _forget()
    code, out, err = project.run("check", capsys=capsys)
    assert code == 0 and "no problems" in out and not marker.exists()
    assert err == f"note: the cache folder {parsed} was not used: owned by another user\n"
