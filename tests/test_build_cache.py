"""Incremental builds: a card's placement and PDF are cached by a hash of what they are made from
(rulesdsl/cache.py, pdf.cache_key), so a build that changes nothing lays nothing out again, an edited game
lays out only its own cards, and the cache never changes a byte of what is written."""
from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT
from rulesdsl import cache
from rulesdsl.cards import pdf

# a small series and a game of it: what the cache does is the same for any card, and a small one is laid out
# in a second where the SCS series card takes several
SERIES = (FIXTURES / "base.rules").read_text(encoding="utf-8")
GAME = '''game hollow "Hollow Ridge (a test title)" version "1.0" extends base

rule G1.0 "Stacking" {
  summary "Up to four steps may stack in a hex."
  stacking.limit = 4 steps
}

override terrain effects chart "Hollow Ridge TEC" {
  hex:
    open    1   ne
    woods   2   Dx2
  hexside:
    river   P   P
}
'''


def _entries(folder: Path) -> set[str]:
    return {p.stem for p in (folder / "cards").glob("*.json")}


def _built(project, capsys) -> dict[str, bytes]:
    code, _, err = project.run("build", capsys=capsys)
    assert code == 0, err
    return project.tree()


def test_a_second_build_lays_nothing_out_and_writes_the_same_bytes(project, capsys, own_cache, monkeypatch):
    project.write("rulebooks/series/base.rules", SERIES)
    project.write("rulebooks/games/hollow.rules", GAME)
    first = _built(project, capsys)
    assert len(_entries(own_cache)) == len([p for p in first if p.endswith(".pdf")]) >= 2
    monkeypatch.setattr(pdf, "_render", lambda html: pytest.fail("a no-op build laid a card out again"))
    (project.root / "generated" / "charts" / "hollow.en.pdf").unlink()      # written again, from the cache
    assert _built(project, capsys) == first


def test_an_edited_game_lays_out_only_its_own_cards(project, capsys, own_cache):
    project.write("rulebooks/series/base.rules", SERIES)
    game = project.write("rulebooks/games/hollow.rules", GAME)
    _built(project, capsys)
    before = _entries(own_cache)
    game.write_text(GAME.replace("woods   2   Dx2", "woods   3   Dx2"), encoding="utf-8")
    after = _built(project, capsys)
    new = _entries(own_cache) - before
    hollow = [p for p in after if p.startswith("generated/charts/hollow.") and p.endswith(".pdf")]
    series = [p for p in after if p.startswith("generated/charts/base.") and p.endswith(".pdf")]
    assert len(new) == len(hollow) == 1 and len(series) == 1      # its own card; not the series'
    assert len(_entries(own_cache)) == 3
    assert "<td class=\"num\">3</td>" in after["generated/charts/hollow.en.html"].decode()


def test_the_cache_never_changes_what_a_build_writes(project, capsys, own_cache, monkeypatch):
    project.write("rulebooks/series/base.rules", SERIES)
    project.write("rulebooks/games/hollow.rules", GAME)
    cached = _built(project, capsys)
    monkeypatch.setenv("RULESDSL_NO_CACHE", "1")
    for path in (project.root / "generated").rglob("*"):
        if path.is_file():
            path.unlink()
    assert _built(project, capsys) == cached


def test_a_damaged_or_unwritable_cache_is_no_cache(project, capsys, own_cache, monkeypatch):
    project.write("rulebooks/series/base.rules", SERIES)
    project.write("rulebooks/games/hollow.rules", GAME)
    first = _built(project, capsys)
    for entry in (own_cache / "cards").glob("*.json"):
        entry.write_text("{ not json", encoding="utf-8")         # a crash mid-write, a full disk
    for blob in (own_cache / "cards").glob("*.bin"):
        blob.write_bytes(b"")
    assert _built(project, capsys) == first
    blocked = project.write("not-a-folder", "a file where the cache folder would be")
    monkeypatch.setenv("RULESDSL_CACHE_DIR", str(blocked))
    assert cache.folder() is None
    assert _built(project, capsys) == first


@pytest.mark.parametrize("damage", ["empty blob", "truncated blob", "edited html", "blob is a fifo"])
def test_a_damaged_entry_is_discarded_with_a_note_never_written_out(project, capsys, own_cache, damage):
    """The issue's reproducers: an entry whose PDF a crash left empty, or whose HTML was edited by hand, was
    copied into generated/ with exit 0, and `build --check` said it was current.  Each entry carries the hash of
    what it holds: a damaged one is deleted, the card laid out again, and the build says so."""
    project.write("rulebooks/series/base.rules", SERIES)
    project.write("rulebooks/games/hollow.rules", GAME)
    first = _built(project, capsys)
    cards = own_cache / "cards"
    for entry in cards.glob("*.json"):
        blob = entry.with_suffix(".bin")
        if damage == "empty blob":
            blob.write_bytes(b"")
        elif damage == "truncated blob":
            blob.write_bytes(blob.read_bytes()[:100])
        elif damage == "blob is a fifo":
            blob.unlink()
            os.mkfifo(blob)
        else:
            meta = json.loads(entry.read_text(encoding="utf-8"))
            meta["html"] = meta["html"].replace("Hollow Ridge", "Hollow Ridge <script>alert(1)</script>")
            entry.write_text(json.dumps(meta), encoding="utf-8")
    for path in (project.root / "generated").rglob("*"):
        if path.is_file():
            path.unlink()
    code, out, err = project.run("build", capsys=capsys)
    assert code == 0, err
    assert project.tree() == first                     # the same bytes as without a cache: no 0-byte PDF
    assert all(len(data) > 1000 for name, data in first.items() if name.endswith(".pdf"))
    damaged = 1 if damage == "edited html" else 2      # only the game's card names Hollow Ridge
    assert ("1 damaged cache entry was" if damaged == 1 else f"{damaged} damaged cache entries were") + \
        " discarded and made again" in err
    code, out, err = project.run("build", "--check", capsys=capsys)
    assert code == 0 and "damaged" not in err, err     # made again: the next run finds whole entries


def test_an_entry_is_read_only_as_it_was_written(tmp_path, monkeypatch):
    monkeypatch.setenv("RULESDSL_CACHE_DIR", str(tmp_path / "c"))
    cache.discarded.clear()
    cache.write("cards", "a" * 64, {"html": "<p>card</p>"}, b"%PDF-1.7 whole")
    assert cache.read("cards", "a" * 64) == ({"html": "<p>card</p>", "key": "a" * 64, "blob": True, "size": 14},
                                             b"%PDF-1.7 whole")
    (tmp_path / "c" / "cards" / ("a" * 64 + ".bin")).write_bytes(b"%PDF-1.7 WHOLE")   # the same size, edited
    assert cache.read("cards", "a" * 64) is None
    assert cache.discarded == ["cards/" + "a" * 64]
    assert not list((tmp_path / "c" / "cards").glob("a*"))    # deleted, so the next write replaces it
    assert cache.read("cards", "b" * 64) is None and cache.discarded == ["cards/" + "a" * 64]   # a miss is no damage


def test_a_fifo_named_as_the_grammar_cache_is_not_opened(tmp_path, monkeypatch):
    """A FIFO where the parser's tables are kept hung every command; now it is a damaged entry, never opened
    for reading in a way that waits, and made again."""
    from rulesdsl.language import parser
    monkeypatch.setenv("RULESDSL_CACHE_DIR", str(tmp_path))
    parser._lark()
    [tables] = (tmp_path / parser.TABLES).glob("*.bin")
    tables.unlink()
    os.mkfifo(tables)
    cache.discarded.clear()
    assert parser._lark().parse('series s "S" version "1"\n', start="start")
    assert cache.discarded == [f"{parser.TABLES}/{tables.stem}"] and cache.regular(tables)


def test_an_entry_is_named_by_everything_the_card_is_made_from(monkeypatch):
    from rulesdsl.cards.charts import card
    from rulesdsl.project.build import compile_project
    shipped = compile_project(ROOT, examples=False, generate=False)
    data, _ = card(shipped.resolved["bocage"], "en", shipped.labels)
    key = pdf.cache_key(data)
    assert pdf.cache_key(dict(data)) == key
    assert pdf.cache_key({**data, "paper": "letter"}) != key                    # the card's own content
    assert pdf.cache_key({**data, "title": data["title"].__class__("Bocage!")}) != key
    monkeypatch.setattr(pdf, "CANDIDATES", pdf.CANDIDATES[:2])                  # the pages tried
    assert pdf.cache_key(data) != key
    monkeypatch.undo()
    monkeypatch.setattr(pdf, "SLACK", pdf.SLACK.replace("14mm", "15mm"))     # the renderer changed
    pdf._renderer_of.cache_clear()
    assert pdf.cache_key(data) != key


def test_the_cache_stays_in_its_folder_and_keeps_no_more_than_its_limit(tmp_path, monkeypatch):
    monkeypatch.setenv("RULESDSL_CACHE_DIR", str(tmp_path / "c"))
    monkeypatch.setattr(cache, "KEEP", 3)
    for n in range(5):
        cache.write("cards", f"{n:064x}", {"n": n}, b"pdf")
        os.utime(tmp_path / "c" / "cards" / f"{n:064x}.json", ns=(n * 10**9, n * 10**9))
    cache.write("cards", "f" * 64, {"n": 9})
    kept = sorted(p.name for p in (tmp_path / "c" / "cards").iterdir())
    assert len([k for k in kept if k.endswith(".json")]) == 3
    assert cache.read("cards", "f" * 64) == ({"n": 9, "key": "f" * 64, "blob": False, "size": 0}, None)
    assert json.loads((tmp_path / "c" / "cards" / f"{4:064x}.json").read_text())["n"] == 4
    assert cache.read("cards", f"{0:064x}") is None             # the oldest went first
    assert not [p for p in (tmp_path / "c" / "cards").iterdir() if p.name.startswith(".tmp-")]


def test_an_entry_without_a_whole_placement_is_a_miss():
    import dataclasses
    assert set(pdf._TYPES) == {f.name for f in dataclasses.fields(pdf.Placement)}
    whole = {"orientation": "portrait", "columns": 2, "html": "<p>card</p>", "sides": 1, "fill": 0.5, "over": 0,
             "split": ""}
    assert pdf._placement(whole) == pdf.Placement("portrait", 2, "<p>card</p>", 1, 0.5, 0)
    # an entry written before charts were kept whole (no `split`) is laid out again, like any incomplete one
    for name in whole:
        assert pdf._placement({k: v for k, v in whole.items() if k != name}) is None
    assert pdf._placement({**whole, "columns": "2"}) is None


def test_cards_laid_out_in_parallel_are_the_cards_laid_out_one_by_one(tmp_path, monkeypatch):
    from rulesdsl.project.build import _card_job, compile_project
    (tmp_path / "rulebooks" / "games").mkdir(parents=True)
    (tmp_path / "rulebooks" / "series").mkdir()
    (tmp_path / "rulebooks" / "series" / "base.rules").write_text(SERIES, encoding="utf-8")
    (tmp_path / "rulebooks" / "games" / "hollow.rules").write_text(GAME, encoding="utf-8")
    small = compile_project(tmp_path, examples=False, generate=False)
    jobs = [_card_job(small.resolved[key], "en", small.labels, None)[2] for key in ("base", "hollow")]
    monkeypatch.setenv("RULESDSL_CACHE_DIR", str(tmp_path / "parallel"))
    told: list[tuple[int, int]] = []
    parallel = pdf.card_pdfs(jobs, progress=lambda done, total: told.append((done, total)))
    assert told == [(0, 2), (1, 2), (2, 2)]     # the total from the start, then each card as it is done
    monkeypatch.setenv("RULESDSL_CACHE_DIR", str(tmp_path / "serial"))
    monkeypatch.setattr(pdf.os, "cpu_count", lambda: 1)
    serial = pdf.card_pdfs(jobs)
    assert [(html, content) for html, content, _ in parallel] == [(html, content) for html, content, _ in serial]
    assert all(content for _, content, _ in serial)


def test_a_card_whose_languages_differ_in_shape_is_tried_on_one_shape_beside_the_other_cards(tmp_path, monkeypatch):
    """Bocage's English and French cards, the French given a long heading that makes it best on another shape
    (the shipped editions share one now): the trials of each on the other's are laid out in the worker
    processes as soon as both are, so that `_one_shape` only reads them back, and both end on one shape."""
    from rulesdsl.project.build import _card_job, compile_project
    shipped = compile_project(ROOT, examples=False, generate=False)
    labels = {lang: dict(texts) for lang, texts in shipped.labels.items()}
    labels["fr"]["heading.sequence-of-play"] = ("Séquence de jeu, avec toutes ses phases et toutes ses sous-phases, "
                                                "dans l'ordre où les joueurs les jouent à chaque tour de la partie")
    jobs = [_card_job(shipped.resolved["bocage"], lang, labels, None)[2] for lang in ("en", "fr")]
    monkeypatch.setattr(pdf.os, "cpu_count", lambda: 2)
    # no card laid out before; the charts' measures other tests took are welcome (they only save time)
    shared = Path(os.environ["RULESDSL_TEST_CACHE"]) / "measures"
    if shared.is_dir():
        shutil.copytree(shared, tmp_path / "parallel" / "measures")
    monkeypatch.setenv("RULESDSL_CACHE_DIR", str(tmp_path / "parallel"))
    laid: list[str] = []        # what this process lays out (the workers lay out in their own)
    real = pdf._render
    monkeypatch.setattr(pdf, "_render", lambda html: laid.append(html) or real(html))
    pdf._best.cache_clear()
    parallel = pdf.card_pdfs(jobs)
    assert laid == []
    placed = [json.loads(p.read_text()) for p in (tmp_path / "parallel" / "cards").glob("*.json")]
    assert len({(meta["orientation"], meta["columns"]) for meta in placed}) == 2     # each best on its own
    assert len(placed) > len(jobs)          # the cards, and a card on the other's shape
    assert all(content for _, content, _ in parallel)
    shape = re.compile(r'data-orientation="(\w+)" data-columns="(\d)"')
    assert len({shape.search(html).groups() for html, _, _ in parallel}) == 1      # one shape
