"""A cold card layout measures the charts once and prints the card once (issue 24): `pdf._probe` measures
every chart at every candidate's column width in one WeasyPrint document, the charts are dealt to sides on
paper, and only the best deal is printed (the next best too when the print breaks the deal's word).  The
measures are the ones a card printed as one flow gives, to the last bit that counts, so the choice is the
one printing every candidate made."""
from __future__ import annotations

import re

import pytest

import rulesdsl
from conftest import FIXTURES, ROOT
from rulesdsl.cards import pdf
from rulesdsl.cards.charts import card
from rulesdsl.project.build import compile_project
from rulesdsl.project.passes import default_labels

PROJECT = compile_project(ROOT, examples=False, generate=False)

ROWS = "\n".join(f"  {n:<4} {n % 3}    {n % 5}" for n in range(1, 31))
MANY = 'game many "Many" version "1" extends base\n\n' + "\n".join(
    f'table part-{k} "Table {k}, a title long enough to take two lines in a narrow column" {{\n'
    f'  roll/units  1-2  3+\n{ROWS}\n}}\n' for k in range(6))


def _many() -> tuple[dict, object]:
    compilation = rulesdsl.compile_text(MANY, "rulebooks/many.rules",
                                        ("rulebooks/base.rules", (FIXTURES / "base.rules").read_text()))
    assert compilation.ok
    resolved = compilation.resolved["many"]
    return card(resolved, "en", default_labels())[0], resolved.rulebook.id.span


@pytest.fixture
def renders(monkeypatch, own_cache) -> list[str]:
    """The HTML of every document WeasyPrint lays out, in order (no chart measured before: a cache of the
    test's own)."""
    laid: list[str] = []
    real = pdf._render

    def counting(html: str):
        laid.append(html)
        return real(html)
    monkeypatch.setattr(pdf, "_render", counting)
    pdf._best.cache_clear()
    yield laid
    pdf._best.cache_clear()


def test_a_cold_layout_measures_once_and_prints_once_what_printing_every_candidate_measures(renders):
    data, _ = card(PROJECT.resolved["bocage"], "en", PROJECT.labels)
    candidates = pdf._candidates(data)
    layout = pdf._best(candidates)
    assert len(renders) == 2 and 'class="probe"' in renders[0] and renders[1] == layout.html
    probe = pdf._probe(candidates)
    assert probe is not None
    for index, (orientation, columns, html) in enumerate(candidates[:len(pdf.CANDIDATES)]):
        document = pdf._render(html)          # the candidate printed as one flow, as a layout used to
        parts, full, first = pdf._measured(document)
        sides, fill, over = pdf.measure(document)
        width, predicted_full, header = probe.page[orientation]
        assert [p.id for p in parts] == [p.id for p in probe.parts[index]]
        assert all(abs(a.height - b.height) < 1e-6 and a.follows == b.follows
                   for a, b in zip(parts, probe.parts[index])), orientation
        assert (full, first) == (predicted_full, predicted_full - header)
        assert {chart.width for page in document.pages for chart in pdf._charts(page._page_box)} == \
            {probe.width[index]}
        assert abs(over - probe.over[index] * pdf._MM_PER_PX) < 1e-6
        assert abs(fill * sides - probe.area[index] / (width * full)) < 1e-9
        assert probe.deal(index).sides == pdf._paginate(document, columns).sides
    # the card printed is the best deal, and it keeps the deal's word
    assert not any(probe.tall(i) for i in probe.parts)     # no chart as tall as a column: no flow printed
    best = min((probe.deal(i) for i in probe.parts), key=lambda d: d.key)
    assert (layout.orientation, layout.columns) == candidates[best.key[-1]][:2] and not layout.split
    assert layout.sides == best.key[2] and -round(layout.fill, 3) == best.key[3]


def test_a_print_that_breaks_the_deals_word_is_printed_again_with_the_next_best(renders, monkeypatch):
    data, span = _many()
    candidates = pdf._candidates(data)
    honest = pdf._best(candidates)
    assert len(renders) == 2
    real = pdf._probe

    def lying(candidates, fallback=False):      # every chart a third of its height: fewer sides than printed
        probe = real(candidates, fallback)
        assert probe is not None
        return pdf._Probe(probe.candidates, probe.width,
                          {i: [pdf._Part(p.id, p.height / 3, p.follows) for p in parts] for i, parts in probe.parts.items()},
                          probe.area, probe.over, probe.page)
    monkeypatch.setattr(pdf, "_probe", lying)
    renders.clear()
    pdf._best.cache_clear()
    layout = pdf._best(candidates)
    printed = renders       # the charts were measured by the honest probe: the best deal, the next best...
    assert 2 <= len(printed) <= 3 and all('class="probe"' not in html for html in printed)
    assert layout.html in printed and layout.sides >= honest.sides and not layout.split
    # what is reported is what WeasyPrint printed, never the deal's word
    assert len(layout.document.pages) == layout.sides
    assert pdf.lay_out(data, span, sides=layout.sides)[1] == []


LONG = "\n".join(f"  {n:<4} {n % 3}    {n % 5}" for n in range(1, 56))
TALL = MANY.replace("many", "tall") + f'table long "A table taller than a landscape column" {{\n  roll/units  1-2  3+\n{LONG}\n}}\n'


def test_a_candidate_with_a_chart_as_tall_as_its_columns_is_printed_as_one_flow_to_be_measured(renders):
    compilation = rulesdsl.compile_text(TALL, "rulebooks/tall.rules",
                                        ("rulebooks/base.rules", (FIXTURES / "base.rules").read_text()))
    assert compilation.ok
    data = card(compilation.resolved["tall"], "en", default_labels())[0]
    candidates = pdf._candidates(data)
    probe = pdf._probe(candidates)
    assert probe is not None
    tall = [html for i, (_, _, html) in enumerate(candidates) if i in probe.parts and probe.tall(i)]
    assert tall and len(tall) < len(pdf.CANDIDATES)     # too tall for a landscape column, not for a portrait one
    renders.clear()
    layout = pdf._best(candidates)
    assert [html for html in renders if html in tall] == tall
    assert not layout.split and len(layout.document.pages) == layout.sides


def test_charts_that_are_not_one_flow_are_printed_on_every_candidate_to_be_measured(renders, monkeypatch):
    data, _ = _many()
    candidates = pdf._candidates(data)
    odd = tuple((o, c, html.replace('</section>\n<section', '</section>\n<p>x</p>\n<section', 1))
                for o, c, html in candidates)
    assert odd != candidates and pdf._probe(odd) is None and renders == []
    printed: list[tuple] = []
    monkeypatch.setattr(pdf, "_best_printed", lambda candidates: printed.append(candidates) or "printed")
    assert pdf._best(odd) == "printed" and printed == [odd] and renders == []


def test_a_probe_is_one_document_of_every_column_width_and_names_no_chart(renders):
    data, _ = _many()
    probe = pdf._probe(pdf._candidates(data))
    assert probe is not None and len(renders) == 1
    html = renders[0]
    assert html.count('class="probe"') == len(pdf.CANDIDATES)          # the fallback only when every table is too wide
    assert not re.search(r'<[^>]*\sid="', html.split("<body>")[1])      # copies of charts name no anchor twice
    assert sorted(round(w * pdf._MM_PER_PX, 1) for w in probe.width.values()) == [91.0, 95.0, 138.5, 194.0]


# ---- a chart measured once is not measured again (pdf._Measures) ------------------------------------------------
def _same(a, b) -> bool:
    """Two probes of the same card agree, to the last bit that counts (heights to 1e-6 px)."""
    return (a.width, a.over, a.page) == (b.width, b.over, b.page) and a.parts.keys() == b.parts.keys() and all(
        [(p.id, p.follows) for p in a.parts[i]] == [(p.id, p.follows) for p in b.parts[i]]
        and all(abs(p.height - q.height) < 1e-6 for p, q in zip(a.parts[i], b.parts[i]))
        and abs(a.area[i] - b.area[i]) <= 1e-9 * a.area[i] for i in a.parts)


def test_a_probe_of_charts_measured_before_lays_nothing_out_and_measures_the_same(renders):
    data, _ = _many()
    candidates = pdf._candidates(data)
    cold = pdf._probe(candidates)
    assert cold is not None and len(renders) == 1
    assert pdf._probe(candidates) == cold and len(renders) == 1       # read back whole: not one render more
    # the card on one shape (a language made to share its card's shape) measures nothing again either
    shaped = pdf._candidates({**data, "shape": candidates[2][:2]})
    alone = pdf._probe(shaped)
    assert alone is not None and len(renders) == 1
    assert alone.parts[0] == cold.parts[2] and alone.area[0] == cold.area[2] and alone.page == {
        "landscape": cold.page["landscape"]}


def test_after_an_edit_to_one_chart_only_that_chart_is_measured_again(renders, own_cache, monkeypatch):
    data, _ = _many()
    assert pdf._probe(pdf._candidates(data)) is not None
    edited, _ = _card_of(MANY.replace("Table 3, a title long enough", "Table 3, now a title much longer, long enough"))
    renders.clear()
    warm = pdf._probe(pdf._candidates(edited))
    assert warm is not None and len(renders) == 1
    probe = renders[0].split("<body>")[1]
    assert probe.count('class="probe"') == len(pdf.CANDIDATES)
    assert probe.count("<section") == len(pdf.CANDIDATES) and probe.count('data-id="table-part-3"') == len(pdf.CANDIDATES)
    # what it measures is what measuring every chart again gives
    monkeypatch.setenv("RULESDSL_CACHE_DIR", str(own_cache.parent / "another"))
    cold = pdf._probe(pdf._candidates(edited))
    assert cold is not None and len(renders) == 2 and _same(warm, cold)


def test_a_damaged_measure_is_discarded_and_measured_again(renders, own_cache):
    from rulesdsl import cache
    data, _ = _many()
    candidates = pdf._candidates(data)
    cold = pdf._probe(candidates)
    entries = sorted((own_cache / "measures").glob("*.json"))
    assert len(entries) == len(pdf.CANDIDATES) * len(cold.parts[0]) + 2     # each chart at four widths, two frames
    entries[0].write_text(entries[0].read_text().replace('"height": ', '"height": 1'))
    before = len(cache.discarded)
    warm = pdf._probe(candidates)
    assert len(renders) == 2 and len(cache.discarded) == before + 1 and _same(warm, cold)
    assert pdf._probe(candidates) == warm and len(renders) == 2       # measured again, and kept


def _card_of(text: str) -> tuple[dict, object]:
    compilation = rulesdsl.compile_text(text, "rulebooks/many.rules",
                                        ("rulebooks/base.rules", (FIXTURES / "base.rules").read_text()))
    assert compilation.ok
    resolved = compilation.resolved["many"]
    return card(resolved, "en", default_labels())[0], resolved.rulebook.id.span
