"""HTML card to PDF with WeasyPrint: vector text, embedded fonts, reproducible bytes.

Cards are set in the fonts rulesdsl ships (rulesdsl/cards/fonts/, declared by
fonts.css there), never in whatever fonts the machine offers: a machine without
fonts-dejavu-extra used to synthesise the italic from the regular face and
write other PDF bytes.  `fingerprint` hashes everything a PDF is made from but
the renderer itself, which is what `generated/charts/pdfs.sha256` commits.

The charts of a card flow in columns, several to a side, each chart whole.
`lay_out` weighs the card on each orientation and column count of
`CANDIDATES` and keeps the one that needs the fewest sides, then the one
that fills them best (ties go to the earlier candidate, so the choice is
deterministic).  A table wider than its column on every candidate, or a card
that needs more sides than the rulebook allows, is an error, never a clipped
or sprawling card.

Laying a card out is what a cold build waits for, a few seconds a
WeasyPrint document, so a card is measured once and printed once: one
document holds every chart at every candidate's column width (`_probe`),
the charts are dealt to sides on paper from those measures, and only the
best deal is printed; the next best too when the print breaks the deal's
word.  What is reported (sides, a table too wide, a chart across sides) is
always what WeasyPrint printed.  A chart's measures at a width are kept in
the user's cache (`_Measures`), so a chart measured once is not measured
again: not after an edit to another chart, not when a language's card is
tried on its English card's shape, not by a game's card that prints its
series' chart unchanged.
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import html as html_module
import logging
import os
import re
import sys
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, Iterator

from rulesdsl import cache
from rulesdsl.errors import Diagnostic, Span

_MM_PER_PX = 25.4 / 96
# (orientation, columns), in the order a tie is settled: portrait first, fewer columns first
CANDIDATES = (("portrait", 1), ("portrait", 2), ("landscape", 2), ("landscape", 3))
# tried only when a table is too wide for every candidate: the widest column there is
FALLBACK = ("landscape", 1)
SIDES = 2      # the most sides a card may take unless its rulebook allows more
# WeasyPrint lays a card out a little shorter than its HTML asks (the page's bottom margin is larger), so that
# a browser, whose line boxes run a little taller, prints the same HTML on no more sides than the PDF takes.
SLACK = "@page { margin-bottom: 14mm !important; }"    # a user sheet: !important outranks the card's own
FONTS = Path(__file__).parent / "fonts"
FONTS_CSS = FONTS / "fonts.css"


def font_files() -> list[Path]:
    return sorted(FONTS.glob("*.ttf"))


def fingerprint(html: str, paper: str) -> str:
    """SHA-256 of a PDF card's inputs: its HTML, the font stylesheet, the font files and the paper."""
    digest = hashlib.sha256(b"rulesdsl pdf inputs 1\0")
    parts = [("paper", paper.encode()), ("html", html.encode("utf-8")), ("fonts.css", FONTS_CSS.read_bytes()),
             ("slack", SLACK.encode())]
    parts += [(f"fonts/{file.name}", file.read_bytes()) for file in font_files()]
    for name, data in parts:
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


class _Text(HTMLParser):
    """The characters a card prints: its text, not its markup, stylesheet or title."""

    def __init__(self) -> None:
        super().__init__()
        self.chars: set[str] = set()
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._skip += tag in ("style", "script", "title", "head")

    def handle_endtag(self, tag: str) -> None:
        self._skip -= tag in ("style", "script", "title", "head")

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.chars.update(data)


@functools.cache
def _covered() -> frozenset[int]:
    from fontTools.ttLib import TTFont
    faces = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf", "DejaVuSans-BoldOblique.ttf")
    return frozenset.intersection(*(frozenset(TTFont(FONTS / face, lazy=True).getBestCmap()) for face in faces))


def uncovered(html: str) -> list[str]:
    """The characters of a card that the shipped fonts lack (the PDF would take them from the
    machine's fonts, and so differ between machines)."""
    parser = _Text()
    parser.feed(html)
    parser.close()
    return sorted(c for c in parser.chars if not c.isspace() and ord(c) not in _covered())


@dataclass(frozen=True)
class Placement:
    """How a card is printed: its page, how many sides it takes and how full they are."""

    orientation: str
    columns: int
    html: str
    sides: int
    fill: float                 # the charts' area over the pages' content area, 0..1
    over: float                 # how far (mm) the widest table runs out of its column or page; 0 when none
    split: str = ""             # a chart that runs onto another side, with its size; "" when every chart is whole


@dataclass(frozen=True)
class Layout(Placement):
    """A placement as WeasyPrint laid it out."""

    document: Any = field(default=None, compare=False)     # weasyprint's laid-out Document


class _ForBrowsers(logging.Filter):
    """Drops WeasyPrint's notice that it ignores `print-color-adjust`: the property is for browsers (a
    PDF always prints its colours), and the notice would reach the user's terminal."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "print-color-adjust" not in record.getMessage()


_FOR_BROWSERS = _ForBrowsers()


_FONT_FOLDERS: dict[int, str] = {}     # process id -> the folder its font configurations are written under


def font_configuration() -> Any:
    """A WeasyPrint FontConfiguration whose temporary folder is removed when the process ends.

    WeasyPrint writes each configuration's fontconfig files to a fresh temporary folder (4-5 MB) and removes
    it only when the object is collected, which a card-layout worker process, ending with os._exit, never
    does: every cold build left a folder per card in the user's temporary folder.  Here they go under one
    folder per process, removed at exit by multiprocessing's finalizers (run by pool workers and, through
    atexit, by the main process)."""
    import shutil
    import tempfile
    from multiprocessing import util

    from weasyprint.text.fonts import FontConfiguration
    folder = _FONT_FOLDERS.get(os.getpid())
    if folder is None or not os.path.isdir(folder):
        folder = _FONT_FOLDERS[os.getpid()] = tempfile.mkdtemp(prefix="rulesdsl-fonts-")
        util.Finalize(None, shutil.rmtree, args=(folder,), kwargs={"ignore_errors": True}, exitpriority=0)
    config = FontConfiguration()
    if getattr(config, "_folder", "absent") is None:     # WeasyPrint 60-70 make it at the first @font-face
        config._folder = Path(tempfile.mkdtemp(prefix="weasyprint-", dir=folder))
    return config


def _render(html: str) -> Any:
    # font subsets carry a timestamp: pin it so a rebuild writes the same bytes
    os.environ.setdefault("SOURCE_DATE_EPOCH", "0")
    import weasyprint
    logging.getLogger("weasyprint").addFilter(_FOR_BROWSERS)    # once: filters are a set

    font_config = font_configuration()
    fonts = weasyprint.CSS(filename=str(FONTS_CSS), font_config=font_config)
    slack = weasyprint.CSS(string=SLACK)
    return weasyprint.HTML(string=html).render(stylesheets=[fonts, slack], font_config=font_config)


def _is_chart(box: Any) -> bool:
    element = getattr(box, "element", None)
    return (getattr(box, "element_tag", None) in ("section", "header") and element is not None
            and bool({"chart", "card"} & set((element.get("class") or "").split())))


def _measure(page_box: Any, wider: dict[str, float]) -> tuple[float, float]:
    """A page's charts: the area they occupy (px², to the right edge of their widest line or table), and
    how far (px) a table runs out of its chart's column or the page's content box (each chart that runs
    out of its column is added to `wider`, by id, with how far, px)."""
    right = page_box.position_x + page_box.margin_left + page_box.width + 0.5
    area = over = 0.0

    def walk(box: Any, chart: Any) -> float:
        nonlocal over
        reach = 0.0
        if chart is None and _is_chart(box):
            chart = box
        for child in getattr(box, "children", ()):
            reach = max(reach, walk(child, chart))
        if type(box).__name__ in ("TableBox", "TextBox"):     # what is printed, not the lines it sits on
            edge = box.position_x + box.margin_width()
            reach = max(reach, edge)
            if type(box).__name__ == "TableBox":
                limit = right if chart is None else min(right, chart.position_x + chart.margin_width() + 0.5)
                over = max(over, edge - limit)
                if chart is not None and edge > limit and chart.element.get("id"):
                    key = chart.element.get("id")
                    wider[key] = max(wider.get(key, 0.0), edge - limit)
        return reach

    def charts(box: Any) -> Iterator[Any]:
        if _is_chart(box):
            yield box
            return
        for child in getattr(box, "children", ()):
            yield from charts(child)

    for chart in charts(page_box):
        reach = walk(chart, chart)
        area += max(0.0, min(reach, chart.position_x + chart.margin_width()) - chart.position_x) * chart.margin_height()
    walk(page_box, None)
    return area, over


def measure(document: Any, wider: dict[str, float] | None = None) -> tuple[int, float, float]:
    """A laid-out card's sides, fill (0..1) and widest overflow (mm)."""
    area = over = 0.0
    content = 0.0
    wider = {} if wider is None else wider
    for page in document.pages:
        box = page._page_box
        used, out = _measure(box, wider)
        area += used
        over = max(over, out)
        content += box.width * box.height
    return len(document.pages), (area / content if content else 0.0), over * _MM_PER_PX


def _paper_name(paper: str) -> str:
    return {"letter": "US Letter", "tabloid": "US Tabloid (11x17 in)"}.get(paper, paper.upper())


def _html(data: dict[str, Any], orientation: str, columns: int) -> str:
    """The card's HTML on one page orientation and column count."""
    from rulesdsl.cards.charts import page_size, render_html
    return render_html({**data, "orientation": orientation, "columns": columns,
                        "size": page_size(data["paper"], orientation)})


def _candidates(data: dict[str, Any]) -> tuple[tuple[str, int, str], ...]:
    """The card's HTML on every candidate page and column count (on one, when `data["shape"]` names it)."""
    shapes = (tuple(data["shape"]),) if data.get("shape") else CANDIDATES + (FALLBACK,)
    return tuple((orientation, columns, _html(data, orientation, columns)) for orientation, columns in shapes)


def choose(data: dict[str, Any]) -> Layout:
    """The card laid out on every candidate page and column count; the best: no table out of its column,
    then the fewest sides, then the fullest, then the first candidate."""
    return _best(_candidates(data))


def _key(layout: Layout) -> tuple[bool, bool, int, float]:
    return layout.over > 0.5, bool(layout.split), layout.sides, -round(layout.fill, 3)


@functools.lru_cache(maxsize=8)     # a build, `chart` and the tests lay the same card out more than once
def _best(candidates: tuple[tuple[str, int, str], ...]) -> Layout:
    """The best layout of the candidates: no table out of its column, no chart across two sides, the fewest
    sides, the fullest, the first candidate.  The charts are measured once, at every column width of the
    candidates in one document (`_probe`), and dealt to sides on paper (`_paginate`); the best deal is
    printed, and the next best (three in all at most) while the card printed breaks the deal's word (more
    sides, a chart across two sides).  A candidate with a chart as tall as its first side's columns is
    printed as one flow to be measured, as WeasyPrint then moves or splits charts no measure foretells."""
    probe = _probe(candidates)
    if probe is None:       # charts not written as one flow of sections: each candidate is printed
        return _best_printed(candidates)
    if all(probe.over[i] * _MM_PER_PX > 0.5 for i in probe.parts) and len(probe.parts) < len(candidates):
        probe = _probe(candidates, fallback=True)       # every table too wide: the fallback's widest column too
        assert probe is not None        # the same HTML as the first probe's
    flows: list[Layout] = []            # the candidates printed as one flow to be measured
    deals: list[_Predicted] = []
    for index, (orientation, columns, html) in enumerate(candidates):
        if index not in probe.parts:
            continue
        if not probe.tall(index):
            deals.append(probe.deal(index))
            continue
        document = _render(html)
        sides, fill, over = measure(document)
        flows.append(Layout(orientation, columns, html, sides, fill, over, _split(document), document))
        dealt = _paginate(document, columns)
        estimate = max(1, len(dealt.sides))
        deals.append(_Predicted((over > 0.5, bool(dealt.too_tall), estimate, -round(fill * sides / estimate, 3), index),
                                dealt.sides))
        if not flows[-1].split and sides > 1:       # the flow kept every chart on one side: its own deal
            deals.append(_Predicted((over > 0.5, False, sides, -round(fill, 3), index), _as_printed(document)))
    printed: list[Layout] = []
    for deal in sorted(deals, key=lambda deal: deal.key)[:3]:       # until one keeps its word
        orientation, columns, html = candidates[deal.key[-1]]
        paged = _with_sides(html, deal.sides)
        document = _render(paged)
        printed.append(Layout(orientation, columns, paged, *measure(document), _split(document), document))
        if printed[-1].sides <= deal.key[2] and not printed[-1].split:
            break
    # a card of one side prints the same as one flow; one of more sides is printed only with its breaks
    pool = printed + [l for l in flows if l.sides == 1 and not l.split]
    return min(pool, key=lambda l: (*_key(l), pool.index(l)))


@dataclass(frozen=True)
class _Predicted:
    """A candidate's charts dealt to sides: the deal and how it compares (as `_key` does, with the sides and
    the fill the deal foretells, and then the candidate's place)."""

    key: tuple[bool, bool, int, float, int]     # table out of its column, chart too tall for a side, sides, -fill, index
    sides: list[list[str]]


@dataclass(frozen=True)
class _Probe:
    """The charts of a card measured at each candidate's column width (`_probe`)."""

    candidates: tuple[tuple[str, int, str], ...]
    width: dict[int, float]               # candidate index -> its column's width (px), as WeasyPrint sets it
    parts: dict[int, list[_Part]]         # candidate index -> its charts, in the order printed, heights in px
    area: dict[int, float]                # candidate index -> the charts' area (px², as `_measure` counts it)
    over: dict[int, float]                # candidate index -> how far (px) the widest table runs out of its column
    page: dict[str, tuple[float, float, float]]     # orientation -> content width, content height, header height (px)

    def _columns(self, index: int) -> tuple[float, float]:
        """The height (px) of a column of the candidate's sides, and of its first side's (below the header)."""
        _, full, header = self.page[self.candidates[index][0]]
        return full, (full - header if self.parts[index] else full)     # as `_measured` finds them

    def tall(self, index: int) -> bool:
        """Whether a chart is about as tall as the first side's columns, or taller (WeasyPrint then moves
        the flow to the next side, or splits the chart, as no measure of the chart alone foretells)."""
        return any(part.height > min(self._columns(index)) - 1.0 for part in self.parts[index])

    def deal(self, index: int) -> _Predicted:
        """The candidate's charts dealt to sides from their measures."""
        orientation, columns, _ = self.candidates[index]
        width, _, _ = self.page[orientation]
        parts = self.parts[index]
        full, first = self._columns(index)
        deal = _dealt(parts, columns, full, first)
        estimate = max(1, len(deal.sides))       # a card with no chart still prints its header on a side
        fill = self.area[index] / (width * full * estimate)
        return _Predicted((self.over[index] * _MM_PER_PX > 0.5, bool(deal.too_tall), estimate, -round(fill, 3), index),
                          deal.sides)


_PAGE = re.compile(r"@page \{ size: (\S+) (\S+); margin: (\S+); \}")
_HEADER = re.compile(r'<header class="card">.*?</header>', re.S)
_LENGTH = re.compile(r"(\d+(?:\.\d+)?)(mm|cm|in|pt|px)")
_SLACK_BOTTOM = re.compile(r"margin-bottom: (\S+) !important")
_GAP = "4mm"            # card.css: .flow { column-gap }
_PROBE_HEIGHT = "20000mm"       # a probe's page: taller than every chart of a card at every width


def _px(length: str) -> float | None:
    """A CSS length in px, as WeasyPrint computes it; None for one it is not written as here."""
    from weasyprint.css.units import LENGTHS_TO_PIXELS
    found = _LENGTH.fullmatch(length)
    if found is None:
        return None
    value = float(found.group(1))
    return float((int(value) if value.is_integer() else value) * LENGTHS_TO_PIXELS[found.group(2)])


def _probe(candidates: tuple[tuple[str, int, str], ...], fallback: bool = False) -> _Probe | None:
    """The charts of a card measured in one WeasyPrint document: for each orientation, a page as wide as
    the card's and taller than all its charts, with the card's header and then the charts again at each
    column width of the candidates on that orientation (the FALLBACK's only with `fallback`).  Each chart
    is measured whole, as the flow prints it when it fits a column: its height, the area to the right edge
    of its widest line or table, how far a table runs out of its column.  None when the candidates are not
    one flow of the same charts, or their page is not written as the template writes it (each is then
    printed to be measured)."""
    shapes: dict[str, list[int]] = {}
    sections: list[str] | None = None
    pages: dict[str, tuple[str, str, str]] = {}
    head = body = ""
    for index, (orientation, columns, html) in enumerate(candidates):
        found = [m.group(0) for m in _SECTION.finditer(html)]
        page, header = _PAGE.search(html), _HEADER.search(html)
        if page is None or header is None or not _one_flow(html) or sections not in (None, found):
            return None
        sections = found
        pages[orientation] = (page.group(1), page.group(2), page.group(3))
        head, body = html[:page.start()] + html[page.end():html.index("<body>")], header.group(0)
        if (orientation, columns) != FALLBACK or fallback or len(candidates) == 1:
            shapes.setdefault(orientation, []).append(index)
    assert sections is not None
    slack = _SLACK_BOTTOM.search(SLACK)
    gap = _px(_GAP)
    sizes = {o: tuple(_px(length) for length in page) for o, page in pages.items()}
    if slack is None or gap is None or _px(slack.group(1)) is None or any(None in size for size in sizes.values()):
        return None
    bottom = typing.cast(float, _px(slack.group(1)))
    widths: dict[int, float] = {}
    for orientation, indexes in shapes.items():
        width, height, margin = typing.cast(tuple[float, float, float], sizes[orientation])
        content = width - margin - margin           # as WeasyPrint solves the page box's width and height
        for index in indexes:
            columns = candidates[index][1]
            widths[index] = content if columns == 1 else max(0, content - (columns - 1) * gap) / columns
    copies = [_PROBE_ID.sub(r'\1data-id="', section) for section in sections]
    measures = _Measures(head, pages, body, copies, widths, shapes)
    if not measures.complete():
        taken = _measure_missing(measures)
        if taken is None:
            return None
        measures.learn(*taken)
    parts: dict[int, list[_Part]] = {index: [] for index in widths}
    area = {index: 0.0 for index in widths}
    over = {index: 0.0 for index in widths}
    for index in widths:
        for number in range(len(copies)):
            chart = measures.charts[index, number]
            parts[index].append(_Part(chart.id, chart.height, chart.follows))
            area[index] += chart.used
            over[index] = max(over[index], chart.over)
        area[index] += measures.frames[candidates[index][0]][1]      # the header's, printed on the first side
    measured = {}
    for orientation in shapes:
        width, height, margin = typing.cast(tuple[float, float, float], sizes[orientation])
        measured[orientation] = (width - margin - margin, height - margin - bottom, measures.frames[orientation][0])
    return _Probe(candidates, widths, parts, area, over, measured)


@dataclass(frozen=True)
class _Chart:
    """A chart measured whole in a column of one width (`_probe`): its id, height (px) and the chart it
    belongs to, the area to the right edge of its widest line or table (px²), how far a table runs out (px)."""

    id: str
    height: float
    follows: str
    used: float
    over: float


class _Measures:
    """What a probe needs measured, and what the cache already holds of it.  A chart's measures depend only
    on its HTML, the column's width, the card's page and stylesheet and the renderer (no rule of card.css
    looks at a chart's neighbours), so a chart measured once is not measured again: not by the next build
    after an edit to another chart, nor when the card is tried on one shape (`_one_shape`), nor by a
    fallback probe, nor by a game's card printing its series' chart unchanged.  A page's frame (where its
    first chart starts below the header, and the header's area) is kept the same way, with the first chart
    it is measured against (at any width: the chart's top margin does not depend on it)."""

    def __init__(self, head: str, pages: dict[str, tuple[str, str, str]], body: str, copies: list[str],
                 widths: dict[int, float], shapes: dict[str, list[int]]) -> None:
        context = _renderer() + "\0" + _UNMEASURED.sub("", head)
        self.head, self.pages, self.body, self.copies = head, pages, body, copies
        self.widths, self.shapes = widths, shapes
        self.keys: dict[tuple[int, int], str] = {}          # (candidate, chart number) -> its cache key
        self.frame_keys: dict[str, str] = {}                 # orientation -> its frame's cache key
        for orientation, indexes in shapes.items():
            page = repr(pages[orientation])
            first = copies[0] if copies else ""
            self.frame_keys[orientation] = _measure_key("frame", context, page, body, first)
            for index in indexes:
                for number, copy in enumerate(copies):
                    self.keys[index, number] = _measure_key("chart", context, page, repr(widths[index]), copy)
        self.charts: dict[tuple[int, int], _Chart] = {}
        self.frames: dict[str, tuple[float, float]] = {}
        for place, key in self.keys.items():
            hit = cache.read("measures", key)
            chart = _chart(hit[0]) if hit is not None else None
            if chart is not None:
                self.charts[place] = chart
        for orientation, key in self.frame_keys.items():
            hit = cache.read("measures", key)
            frame = hit[0].get("frame") if hit is not None else None
            if isinstance(frame, list) and len(frame) == 2 and all(isinstance(v, (int, float)) for v in frame):
                self.frames[orientation] = (float(frame[0]), float(frame[1]))

    def complete(self) -> bool:
        return len(self.charts) == len(self.keys) and len(self.frames) == len(self.frame_keys)

    def missing(self, index: int) -> list[int]:
        """The chart numbers of a candidate still to measure, in the order printed."""
        return [number for (candidate, number) in self.keys
                if candidate == index and (index, number) not in self.charts]

    def learn(self, charts: dict[tuple[int, int], _Chart], frames: dict[str, tuple[float, float]]) -> None:
        """Measures just taken: kept here and in the cache (one write, the folder pruned once)."""
        entries: list[tuple[str, dict[str, Any], bytes | None]] = []
        for place, chart in charts.items():
            self.charts[place] = chart
            entries.append((self.keys[place], dataclasses.asdict(chart), None))
        for orientation, frame in frames.items():
            self.frames[orientation] = frame
            entries.append((self.frame_keys[orientation], {"frame": list(frame)}, None))
        cache.write_many("measures", entries, keep=_KEEP_MEASURES)


_KEEP_MEASURES = 6000       # a chart's measures at one width: a few dozen per card and orientation
# what has no bearing on a measure: the title, the generator, the sheet's size on a screen (card.html.j2)
_UNMEASURED = re.compile(r"<title>.*?</title>|<meta name=\"generator\"[^<>]*>"
                         r"|@media screen \{ \.sheet \{[^{}]*\} \}", re.S)


def _measure_key(*parts: str) -> str:
    digest = hashlib.sha256(b"rulesdsl chart measure 1\0")
    for part in parts:
        data = part.encode("utf-8")
        digest.update(f"{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def _chart(meta: dict[str, Any]) -> _Chart | None:
    """The measures a cache entry holds; None when it holds no whole one."""
    try:
        chart = _Chart(meta["id"], float(meta["height"]), meta["follows"], float(meta["used"]), float(meta["over"]))
    except (KeyError, TypeError, ValueError):
        return None
    return chart if isinstance(chart.id, str) and isinstance(chart.follows, str) else None


def _measure_missing(measures: _Measures
                     ) -> tuple[dict[tuple[int, int], _Chart], dict[str, tuple[float, float]]] | None:
    """The charts the cache lacks measured in one WeasyPrint document: for each orientation with any, a page
    as wide as the card's and taller than all its charts, with the card's header and then each candidate's
    missing charts at its column width.  A page whose frame is missing measures it against its first chart.
    None when WeasyPrint does not print the charts asked for, one box each."""
    head, pages, body, copies, shapes = measures.head, measures.pages, measures.body, measures.copies, measures.shapes
    style, sheets = [], []
    asked: dict[int, list[int]] = {}
    for orientation, indexes in shapes.items():
        framed = orientation not in measures.frames
        for index in indexes:
            missing = measures.missing(index)
            if framed and index == indexes[0] and copies and 0 not in missing:
                missing = [0] + missing         # the frame is measured against the page's first chart
            if missing:
                asked[index] = missing
        if not framed and not any(index in asked for index in indexes):
            continue
        style.append(f"@page rulesdsl-probe-{orientation} {{ size: {pages[orientation][0]} {_PROBE_HEIGHT}; "
                     f"margin: {pages[orientation][2]}; }}")
        groups = "\n".join(
            f'<div class="probe" data-candidate="{index}" style="width: {measures.widths[index]!r}px">\n'
            + "\n".join(copies[number] for number in asked[index]) + "\n</div>"
            for index in indexes if index in asked)
        named = body.replace('<header class="card"', f'<header class="card" data-orientation="{orientation}"', 1)
        sheets.append(f'<div class="sheet" style="page: rulesdsl-probe-{orientation}">\n{named}\n{groups}\n</div>')
    html = head.replace("</style>", "\n".join(style) + "\n</style>", 1) + "<body>\n" + "\n".join(sheets) + \
        "\n</body>\n</html>\n"
    document = _render(html)
    charts: dict[tuple[int, int], _Chart] = {}
    headers: dict[str, float] = {}      # orientation -> the first chart's top below the page's content top
    headed: dict[str, float] = {}       # orientation -> the header's area
    printed = {index: 0 for index in asked}
    owner = {index: orientation for orientation, indexes in shapes.items() for index in indexes}
    for page_box in (page._page_box for page in document.pages):
        top = page_box.position_y + page_box.margin_top
        for index, box in _probed(page_box, -1):
            reach, out = _reach(box)
            right = box.position_x + box.margin_width()
            used = max(0.0, min(reach, right) - box.position_x) * box.margin_height()
            if box.element_tag == "header":     # printed once, on the first side
                headed[box.element.get("data-orientation") or ""] = used
            if index not in asked or printed[index] >= len(asked[index]):
                if index in asked:
                    return None     # more charts than were asked for
                continue
            headers.setdefault(owner[index], box.position_y - top)
            number = asked[index][printed[index]]
            printed[index] += 1
            charts[index, number] = _Chart(box.element.get("data-id") or "", box.margin_height(),
                                           box.element.get("data-follows") or "", used, out)
    if any(printed[index] != len(numbers) for index, numbers in asked.items()):
        return None
    frames = {}
    for orientation in shapes:
        if orientation in measures.frames:
            continue
        if orientation not in headed or (copies and orientation not in headers):
            return None
        frames[orientation] = (headers.get(orientation, 0.0), headed[orientation])
    return charts, frames


_PROBE_ID = re.compile(r'(<[a-z0-9]+\b[^<>]*?\s)id="')     # an id in a tag: a copy of a chart names none


def _probed(box: Any, index: int) -> Iterator[tuple[int, Any]]:
    """The charts of a probe, each with the candidate whose column it is measured in (-1 for a header)."""
    element = getattr(box, "element", None)
    if element is not None and element.get("data-candidate") is not None:
        index = int(element.get("data-candidate"))
    if _is_chart(box):      # a chart, or the card's header
        yield index, box
        return
    for child in getattr(box, "children", ()):
        yield from _probed(child, index)


def _boxes(box: Any) -> Iterator[Any]:
    yield box
    for child in getattr(box, "children", ()):
        yield from _boxes(child)


def _reach(chart: Any) -> tuple[float, float]:
    """The right edge (px) of a chart's widest line or table, and how far (px) a table runs out of it, as
    `_measure` counts them."""
    limit = chart.position_x + chart.margin_width() + 0.5
    reach = over = 0.0
    for box in _boxes(chart):
        if type(box).__name__ in ("TableBox", "TextBox"):
            edge = box.position_x + box.margin_width()
            reach = max(reach, edge)
            if type(box).__name__ == "TableBox":
                over = max(over, edge - limit)
    return reach, over


def _best_printed(candidates: tuple[tuple[str, int, str], ...]) -> Layout:
    """`_best` of a card whose charts are not one flow of sections (`_probe` cannot copy them), the slow way.
    Each candidate is printed as one flow of charts to measure them; its charts are then dealt to sides,
    each chart with what belongs to it on one side (`_paginate`), and the most promising deals are printed
    with a page break between sides.  The best of those: no table out of its column, no chart across two
    sides, the fewest sides, the fullest, the first candidate."""
    layouts: list[Layout] = []
    deals: list[tuple[tuple[bool, bool, int, float, int], str, int, str]] = []
    for index, (orientation, columns, html) in enumerate(candidates):
        if (orientation, columns) == FALLBACK and any(l.over <= 0.5 for l in layouts):
            break
        document = _render(html)
        sides, fill, over = measure(document)
        layouts.append(Layout(orientation, columns, html, sides, fill, over, _split(document), document))
        deal = _paginate(document, columns)
        paged = _with_sides(html, deal.sides)
        estimate = max(1, len(deal.sides))       # a card with no chart still prints its header on a side
        deals.append(((over > 0.5, bool(deal.too_tall), estimate, -round(fill * sides / estimate, 3), index),
                      orientation, columns, paged))
    printed: list[Layout] = []
    for (_, _, estimate, _, _), orientation, columns, html in sorted(deals)[:3]:    # until one keeps its word
        document = _render(html)
        printed.append(Layout(orientation, columns, html, *measure(document), _split(document), document))
        if printed[-1].sides <= estimate and not printed[-1].split:
            break
    if not printed:
        return min(layouts, key=lambda l: (*_key(l), layouts.index(l)))
    # a card of one side prints the same as one flow; one of more sides is printed only with its breaks
    whole = [l for l in layouts if l.sides == 1 and not l.split]
    pool = printed + whole
    return min(pool, key=lambda l: (*_key(l), pool.index(l)))


def _charts(box: Any) -> Iterator[Any]:
    if _is_chart(box) and box.element_tag == "section":
        yield box
        return
    for child in getattr(box, "children", ()):
        yield from _charts(child)


def _chart_sides(document: Any) -> dict[str, list[int]]:
    """Each chart (id) and the sides it is printed on."""
    found: dict[str, list[int]] = {}
    for number, page in enumerate(document.pages):
        for chart in _charts(page._page_box):
            sides = found.setdefault(chart.element.get("id") or "", [])
            if number not in sides:
                sides.append(number)
    return found


def _as_printed(document: Any) -> list[list[str]]:
    """The charts of a card printed as one flow, by the side each is printed on, in the order printed."""
    sides: list[list[str]] = [[] for _ in document.pages]
    for chart, on in _chart_sides(document).items():
        sides[on[0]].append(chart)
    return [side for side in sides if side]


def _split(document: Any) -> str:
    """The first chart, with what belongs to it (`data-follows`), printed on more than one side: its name
    and size; "" when every chart is on one side."""
    where = _chart_sides(document)
    for unit in _units(_measured(document)[0]):
        sides = {side for part in unit for side in where.get(part.id, [])}
        if len(sides) > 1:
            height = sum(part.height for part in unit) * _MM_PER_PX
            return f"{unit[0].id} ({height:.0f} mm)"
    return ""


@dataclass(frozen=True)
class _Part:
    """A chart as printed in the flow: its id, its height (px, all its pieces) and the chart it belongs to."""

    id: str
    height: float
    follows: str


@dataclass(frozen=True)
class _Deal:
    """Charts dealt to sides: each side's chart ids, column by column; the units that fit no side."""

    sides: list[list[str]]
    too_tall: list[tuple[str, float, float]]      # (chart id, its unit's height, what one side holds), mm


def _measured(document: Any) -> tuple[list[_Part], float, float]:
    """The card's charts in the order printed, the height of a column on a side, and on the first side
    (below the card's header), in px."""
    parts: dict[str, _Part] = {}
    first_top = None
    for page in document.pages:
        for chart in _charts(page._page_box):
            key = chart.element.get("id") or ""
            before = parts.get(key)
            parts[key] = _Part(key, (before.height if before else 0.0) + chart.margin_height(),
                               chart.element.get("data-follows") or "")
            if first_top is None:
                first_top = chart.position_y
    if not document.pages:
        return [], 0.0, 0.0
    page = document.pages[0]._page_box
    full = page.height
    top = page.position_y + page.margin_top
    return list(parts.values()), full, full - ((first_top if first_top is not None else top) - top)


def _units(parts: list[_Part]) -> list[list[_Part]]:
    """The charts grouped with what belongs to them (a part follows its chart), in the order printed."""
    ids = {part.id for part in parts}
    leader: dict[str, str] = {}
    for part in parts:
        head = part.follows if part.follows in ids and part.follows != part.id else part.id
        leader[part.id] = leader.get(head, head)
    groups: dict[str, list[_Part]] = {}
    for part in parts:
        groups.setdefault(leader[part.id], []).append(part)
    # a chart printed after a part that follows it still leads its unit
    return [sorted(group, key=lambda p: p.id != lead) for lead, group in groups.items()]


def _paginate(document: Any, columns: int) -> _Deal:
    """The charts of a card printed as one flow, dealt to sides: each unit (a chart and what follows it) on
    one side, each chart in the first column with room for it, a chart taller than a column in empty
    columns side by side; a unit that fits no side where it would go opens a new one.  The units are dealt
    in the order printed, and again tallest first; the deal with fewer sides wins (the order printed on a
    tie).  On each side the charts keep the order printed, column by column."""
    parts, full, first = _measured(document)
    return _dealt(parts, columns, full, first)


def _dealt(parts: list[_Part], columns: int, full: float, first: float) -> _Deal:
    """`_paginate` of charts measured (heights in px), a side's column `full` high, the first side's `first`."""
    units = _units(parts)
    printed = _deal(parts, units, columns, full, first)
    tallest = _deal(parts, sorted(units, key=lambda unit: -sum(p.height for p in unit)), columns, full, first)
    best = tallest if (len(tallest.sides), len(tallest.too_tall)) < (len(printed.sides), len(printed.too_tall)) \
        else printed
    if best.too_tall or len(best.sides) < 2:
        return best
    packed = _packed(parts, units, columns, full, first, len(best.sides) - 1)
    return packed if packed is not None else best


# what a column keeps spare of a deal's measures: a chart measured alone prints a pixel or two taller in a
# column of others (margins, rounding), and a deal that fills a column to the pixel breaks its word
_SPARE = 2.0
_PACKING_TRIALS = 20000     # the most placements `_packed` tries: a card has a dozen charts, a search ends fast


def _packed(parts: list[_Part], units: list[list[_Part]], columns: int, full: float, first: float,
            sides: int) -> _Deal | None:
    """The units packed on `sides` sides when some packing fits, which the greedy deals can miss on a card
    that fills its sides: a bounded depth-first search, tallest units first, that tries each column with a
    room of its own once, and then, for a unit of several charts (three tables under one rule, the reminders'
    topics), its charts in order down the columns of one side: a unit is never on two sides.  None when
    none is found within _PACKING_TRIALS."""
    heights = [sum(part.height for part in unit) for unit in units]
    empty = [first if side == 0 else full for side in range(sides) for _ in range(columns)]
    if sum(heights) > sum(empty) + 0.5 or max(p.height for p in parts) > max(empty) + 0.5:
        return None
    room = list(empty)
    order: list[int] = []
    where: dict[str, int] = {}      # each chart's column, counting across the sides
    trials = 0

    def whole(unit: int, first_placed: bool) -> Iterator[None]:
        """Each placement of the unit whole in one column, undone when the search backs out of it."""
        tried: set[float] = set()
        for column, left in enumerate(room[:1] if first_placed and pinned else room):
            if left - _SPARE < heights[unit] or round(left, 1) in tried:
                continue
            tried.add(round(left, 1))
            room[column] -= heights[unit]
            where.update((part.id, column) for part in units[unit])
            yield
            room[column] += heights[unit]

    def split(unit: int) -> Iterator[None]:
        """Each side whose columns take the unit's charts in order, each chart in the first with room left."""
        if len(units[unit]) < 2:
            return
        for side in range(sides):
            taken: list[tuple[int, float]] = []
            column = side * columns
            for part in units[unit]:
                while column < (side + 1) * columns and room[column] - _SPARE < part.height:
                    column += 1
                if column == (side + 1) * columns:
                    break
                room[column] -= part.height
                taken.append((column, part.height))
                where[part.id] = column
            if len(taken) == len(units[unit]):
                yield
            for column, height in taken:
                room[column] += height

    def place(k: int) -> bool:
        nonlocal trials
        if k == len(order):
            return True
        for _ in whole(order[k], k == 0):
            trials += 1
            if trials > _PACKING_TRIALS:
                return False
            if place(k + 1):
                return True
        for _ in split(order[k]):       # a unit of several charts down the columns of one side
            trials += 1
            if trials > _PACKING_TRIALS:
                return False
            if place(k + 1):
                return True
        return False

    # the chart printed first (the sequence of play) keeps the first column of the first side, where a packing
    # allows it; the rest go tallest first
    for pinned in (True, False):
        order = [0] + sorted(range(1, len(units)), key=lambda u: -heights[u]) if pinned else \
            sorted(range(len(units)), key=lambda u: -heights[u])
        trials = 0
        where.clear()
        room[:] = empty     # a search cut short leaves its placements made
        if place(0):
            break
    else:
        return None
    rank = {part.id: i for i, part in enumerate(parts)}
    placed: list[list[tuple[int, int, str]]] = [[] for _ in range(sides)]
    for part in parts:
        column = where[part.id]
        placed[column // columns].append((column % columns, rank[part.id], part.id))
    return _Deal([_in_reading_order(side, units) for side in placed if side], [])


def _in_reading_order(side: list[tuple[int, int, str]], units: list[list[_Part]]) -> list[str]:
    """A side's charts (column, order printed, id) in the order they print, column by column, each column
    in the order printed; but a unit that runs on from one column to the next (the reminders' topics) ends
    its first column and opens the next, so that it reads on unbroken."""
    leader = {part.id: unit[0].id for unit in units for part in unit}
    columns: dict[str, list[int]] = {}
    for column, _, chart in side:
        columns.setdefault(leader.get(chart, chart), []).append(column)

    def key(entry: tuple[int, int, str]) -> tuple[int, int, int]:
        column, rank, chart = entry
        spread = columns[leader.get(chart, chart)]
        if min(spread) == max(spread):
            return column, 0, rank
        return column, 1 if column == min(spread) else -1, rank
    return [chart for _, _, chart in sorted(side, key=key)]


def _deal(parts: list[_Part], units: list[list[_Part]], columns: int, full: float, first: float) -> _Deal:
    """The units dealt to sides in the order given (see `_paginate`)."""
    sides: list[list[float]] = []                   # the room left in each column of each side, px
    placed: list[list[tuple[int, int, str]]] = []   # per side: (column, order printed, id)
    order = {part.id: i for i, part in enumerate(parts)}
    too_tall: list[tuple[str, float, float]] = []

    def fit(unit: list[_Part], room: list[float], height: float) -> list[tuple[int, str]] | None:
        taken: list[tuple[int, str]] = []
        start = 0
        for part in unit:
            column = next((c for c in range(start, columns) if room[c] - _SPARE >= part.height), None)
            if column is None:              # taller than a column: empty columns side by side
                need = max(1, -int(-part.height // height))
                column = next((c for c in range(start, columns - need + 1)
                               if all(room[k] >= height - 0.5 for k in range(c, c + need))), None)
                if column is None:
                    return None
                for k in range(column, column + need - 1):
                    room[k] = 0.0
                room[column + need - 1] -= part.height - height * (need - 1)
            else:
                room[column] -= part.height
            taken.append((column, part.id))
            start = column
        return taken

    for unit in units:
        for number, room in enumerate(sides):
            trial = list(room)
            taken = fit(unit, trial, first if number == 0 else full)
            if taken is not None:
                sides[number] = trial
                placed[number] += [(c, order[i], i) for c, i in taken]
                break
        else:
            height = first if not sides else full
            trial = [height] * columns
            taken = fit(unit, trial, height)
            if taken is None:       # it fits no side: it prints across sides, and the check says so
                total = sum(part.height for part in unit)
                too_tall.append((unit[0].id, total * _MM_PER_PX, height * columns * _MM_PER_PX))
                taken, trial = [(0, part.id) for part in unit], [0.0] * columns
            sides.append(trial)
            placed.append([(c, order[i], i) for c, i in taken])
    return _Deal([_in_reading_order(side, units) for side in placed], too_tall)


_FLOW = re.compile(r'<div class="flow cols-(\d+)">')


def _one_flow(html: str) -> bool:
    """Whether a card's charts are one flow with nothing but charts between the first and the last."""
    positions = [m.span() for m in _SECTION.finditer(html)]
    return _FLOW.search(html) is not None and not any(
        html[b:c].strip() for (_, b), (c, _) in zip(positions, positions[1:]))


def _with_sides(html: str, sides: list[list[str]]) -> str:
    """The card's HTML with its charts in the order dealt, a page break before each side after the first."""
    found = {m.group(1): m.group(0) for m in _SECTION.finditer(html)}
    flow = _FLOW.search(html)
    if flow is None or set(found) != {i for side in sides for i in side} or not found:
        return html
    if not _one_flow(html):
        return html         # something other than charts between them: keep the flow as written
    positions = [m.span() for m in _SECTION.finditer(html)]
    start, end = positions[0][0], positions[-1][1]
    breaks = f'\n</div>\n<div class="flow cols-{flow.group(1)} side">\n'
    return html[:start] + breaks.join("\n".join(found[i] for i in side) for side in sides) + html[end:]


_SECTION = re.compile(r'<section class="[^"]*\bchart\b[^"]*" id="([^"]+)".*?</section>', re.S)


def _chart_title(html: str, chart: str) -> str:
    """The heading a chart prints (its id when it prints none), as text."""
    found = re.search(rf'id="{re.escape(chart)}"[^>]*>\s*<h[23]>(.*?)</h[23]>', html, re.S)
    if found is None:
        return chart
    return html_module.unescape(re.sub(r"<[^>]+>", "", found.group(1))).strip()


def _check(layout: Placement, data: dict[str, Any], span: Span, sides: int) -> list[Diagnostic]:
    paper = _paper_name(data["paper"])
    problems = []
    if layout.over > 0.5:
        problems.append(Diagnostic(
            f"a table on the {data['id']} card ({data['lang']}) is {layout.over:.0f} mm too wide for "
            f"{paper} paper, even {layout.orientation} in {layout.columns} column{'s' if layout.columns > 1 else ''}",
            span, "fewer columns, or print on larger paper; nothing is clipped"))
    if layout.split:
        chart, _, size = layout.split.partition(" ")
        problems.append(Diagnostic(
            f"the chart '{_chart_title(layout.html, chart)}' of the {data['id']} card ({data['lang']}), with what "
            f"belongs to it, measures {size.strip('()')}: more than one side of {paper} paper holds, even "
            f"{layout.orientation} in {layout.columns} column{'s' if layout.columns > 1 else ''}", span,
            "a chart is never split between sides: shorten it, or print on larger paper (card { paper a3 })"))
    if layout.sides > sides:
        problems.append(Diagnostic(
            f"the {data['id']} card ({data['lang']}) needs {layout.sides} sides of {paper} paper, more than the "
            f"{sides} allowed", span,
            "shorten a chart, allow more sides (card { sides N }), or print on larger paper"))
    return problems


def lay_out(data: dict[str, Any], span: Span, sides: int = SIDES) -> tuple[Layout, list[Diagnostic]]:
    """The best layout of a card (its HTML is what the card prints), printed, and the layout check's errors.
    The placement comes from the card cache when the same candidates were laid out before by the same renderer
    (as `card_pdf`'s does), and is then printed once; a placement worked out here is stored for the next."""
    key = cache_key(data)
    cached = _cached(key)
    if cached is None:
        layout = choose(data)
        placement = Placement(**{f.name: getattr(layout, f.name) for f in dataclasses.fields(Placement)})
        cache.write("cards", key, dataclasses.asdict(placement), None)
    else:
        placement = cached[0]
        layout = Layout(**dataclasses.asdict(placement), document=_render(placement.html))
    return layout, _check(layout, data, span, sides)


def card_pdf(data: dict[str, Any], span: Span, sides: int = SIDES, write: bool = True,
             key: str | None = None) -> tuple[str, bytes | None, list[Diagnostic]]:
    """A card's HTML as laid out, its PDF (None on an error, or b"" when not `write`) and the problems found.
    The placement and the PDF come from the cache when the same candidates were laid out before by the same
    renderer (cache_key, or `key` when it is known); the cache never changes what is printed, only how soon."""
    key = key or cache_key(data)
    placement, content, problems = _printed(data, span, sides, write, key, _cached(key))
    return placement.html, content, problems


def _cached(key: str) -> tuple[Placement, bytes | None] | None:
    """The placement (and PDF, if one was stored) of a card's cache entry; None for no whole entry."""
    hit = cache.read("cards", key)
    placement = None if hit is None else _placement(hit[0])
    return None if hit is None or placement is None else (placement, hit[1])


def _printed(data: dict[str, Any], span: Span, sides: int, write: bool, key: str,
             cached: tuple[Placement, bytes | None] | None) -> tuple[Placement, bytes | None, list[Diagnostic]]:
    """card_pdf, given what the cache holds for the card."""
    content: bytes | None = None
    if cached is not None:
        placement, content = cached
    else:
        layout = _best(_candidates(data))
        placement = Placement(**{f.name: getattr(layout, f.name) for f in dataclasses.fields(Placement)})
        content = layout.document.write_pdf() if write and layout.over <= 0.5 else None
        cache.write("cards", key, dataclasses.asdict(placement), content)
    problems = _check(placement, data, span, sides)
    if problems:
        return placement, None, problems
    if write and content is None:       # stored by a run that wrote no PDF
        content = _render(placement.html).write_pdf()
        cache.write("cards", key, dataclasses.asdict(placement), content)
    return placement, content if write else b"", _uncovered(placement.html, data, span)


# what each field of a cached placement must be (JSON writes a whole float like 0.0 as 0)
_TYPES: dict[str, type | tuple[type, ...]] = {
    name: (int, float) if kind is float else kind for name, kind in typing.get_type_hints(Placement).items()}


def _placement(meta: dict[str, Any]) -> Placement | None:
    """The placement a cache entry holds; None when it holds no whole one (an entry damaged by hand)."""
    if any(not isinstance(meta.get(name), kind) for name, kind in _TYPES.items()):
        return None
    return Placement(**{name: meta[name] for name in _TYPES})


def card_pdfs(jobs: list[tuple[dict[str, Any], Span, int]], write: bool = True,
              progress: Callable[[int, int], None] | None = None) -> list[tuple[str, bytes | None, list[Diagnostic]]]:
    """`card_pdf` of each (data, span, sides), in order.  The cards the cache does not hold are laid out in
    parallel, a process per core (WeasyPrint is pure CPU); `progress(done, total)` is told as they finish."""
    keys = [cache_key(data) for data, _, _ in jobs]
    cached = [_cached(key) for key in keys]         # each entry read once
    misses = [i for i, hit in enumerate(cached) if hit is None]
    hits = len(jobs) - len(misses)      # counted as done from the start: only the misses take time
    if progress is not None:
        progress(hits, len(jobs))
    workers = min(len(misses), os.cpu_count() or 1)
    done: dict[int, tuple[Placement, bytes | None, list[Diagnostic]]] = {}
    if workers > 1 and sys.platform.startswith("linux"):    # forked workers: where fork is safe and cheap
        import concurrent.futures
        import multiprocessing
        try:
            with concurrent.futures.ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
                # each future: the job it lays out, and whether it is a trial of that card on another shape
                # (`_one_shape` reads a trial back from the cache)
                pending = {pool.submit(_printed, *jobs[i], write, keys[i], None): (i, False) for i in misses}
                tried: set[str] = set()
                while pending:
                    finished, _ = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
                    for future in finished:
                        index, trial = pending.pop(future)
                        result = future.result()
                        if not trial:
                            done[index] = result
                            if progress is not None:
                                progress(hits + len(done), len(jobs))
                        for shaped, span, sides, key in _shape_trials(jobs, done, cached, index, tried):
                            pending[pool.submit(_printed, shaped, span, sides, write, key, None)] = (index, True)
        except (OSError, concurrent.futures.process.BrokenProcessPool):
            done = {}           # no processes here: one at a time
    for i, job in enumerate(jobs):
        if i not in done:
            done[i] = _printed(*job, write, keys[i], cached[i])
            if progress is not None and cached[i] is None:
                progress(hits + sum(cached[j] is None for j in done), len(jobs))
    _one_shape(jobs, done, write)
    return [(placement.html, content, problems) for placement, content, problems in (done[i] for i in range(len(jobs)))]


def _editions(jobs: list[tuple[dict[str, Any], Span, int]]) -> dict[str, list[int]]:
    """Each card's jobs, one per language: the English one first, then the others by language."""
    editions: dict[str, list[int]] = {}
    for i in sorted(range(len(jobs)), key=lambda i: (jobs[i][0]["lang"] != "en", jobs[i][0]["lang"], i)):
        editions.setdefault(jobs[i][0]["id"], []).append(i)
    return editions


def _shape_trials(jobs: list[tuple[dict[str, Any], Span, int]],
                  done: dict[int, tuple[Placement, bytes | None, list[Diagnostic]]],
                  cached: list[tuple[Placement, bytes | None] | None], index: int, tried: set[str]
                  ) -> list[tuple[dict[str, Any], Span, int, str]]:
    """The layouts `_one_shape` will ask for next about the card of job `index` and the cache lacks, once
    every language of the card is laid out: each language on the first shape whose trials are not all in
    the cache yet (the English card's shape first), unless a shape already tried keeps every language's
    sides.  They are laid out beside the other cards, so that `_one_shape` mostly reads them back; it alone
    decides, so a trial it never reads is only a cache entry."""
    indexes = _editions(jobs)[jobs[index][0]["id"]]
    placed: dict[int, Placement] = {}
    for i in indexes:
        hit = cached[i]
        placement = done[i][0] if i in done else (hit[0] if hit is not None else None)
        if placement is None:
            return []
        placed[i] = placement
    for shape in dict.fromkeys((placed[i].orientation, placed[i].columns) for i in indexes):
        missing, kept = [], True
        for i in indexes:
            if (placed[i].orientation, placed[i].columns) == shape:
                continue
            data, span, sides = jobs[i]
            shaped = {**data, "shape": shape}
            key = cache_key(shaped)
            hit = _cached(key)
            if hit is None:
                if key not in tried:
                    missing.append((shaped, span, sides, key))
                kept = False
            elif hit[0].sides > placed[i].sides or _check(hit[0], shaped, span, sides):
                kept = False
        if missing:
            tried.update(key for *_, key in missing)
            return missing
        if kept:
            return []
    return []


def _one_shape(jobs: list[tuple[dict[str, Any], Span, int]],
               done: dict[int, tuple[Placement, bytes | None, list[Diagnostic]]], write: bool) -> None:
    """Every language of a card on one page shape (orientation and columns) where that costs none of them a
    side: the English card's shape is tried first, then the others', whatever the order of `jobs`.  A card whose languages cannot share
    a shape keeps each its own."""
    for indexes in _editions(jobs).values():
        shapes = list(dict.fromkeys((done[i][0].orientation, done[i][0].columns) for i in indexes))
        if len(shapes) < 2 or any(done[i][2] and done[i][1] is None for i in indexes):
            continue
        for shape in shapes:
            trial = {}
            for i in indexes:
                if (done[i][0].orientation, done[i][0].columns) == shape:
                    trial[i] = done[i]
                    continue
                data, span, sides = jobs[i]
                shaped = {**data, "shape": shape}
                key = cache_key(shaped)
                trial[i] = _printed(shaped, span, sides, write, key, _cached(key))
            if all(trial[i][1] is not None and trial[i][0].sides <= done[i][0].sides for i in indexes):
                done.update(trial)
                break


def cache_key(data: dict[str, Any]) -> str:
    """What a card's placement and PDF are made from: its HTML on the first candidate page (the others differ
    from it only by what the template makes of the page and the column count, so the candidates, the template
    and its code stand for them) and the renderer (WeasyPrint's version, this module's code, the fonts and
    their stylesheet, rulesdsl's version)."""
    html = _html(data, *CANDIDATES[0])
    digest = hashlib.sha256(b"rulesdsl card 3\0")
    digest.update(_renderer().encode())
    digest.update(repr((CANDIDATES, FALLBACK, SIDES, data.get("shape"))).encode())
    digest.update(f"{len(html)}\0".encode())
    digest.update(html.encode("utf-8"))
    return digest.hexdigest()


def _renderer() -> str:
    """The renderer's identity, hashed again only when a font file, the stylesheet, the card's template, or
    this module or the one that renders the template changes."""
    here = Path(__file__).parent
    files = (Path(__file__), here / "charts.py", *sorted((here / "templates").glob("card*")), FONTS_CSS, *font_files())
    return _renderer_of(tuple((str(f), f.stat().st_mtime_ns, f.stat().st_size) for f in files))


@functools.lru_cache(maxsize=4)
def _renderer_of(files: tuple[tuple[str, int, int], ...]) -> str:
    from importlib.metadata import version
    from rulesdsl.version import __version__
    digest = hashlib.sha256(f"weasyprint {version('weasyprint')}\0rulesdsl {__version__}\0{SLACK}\0".encode())
    for name, _, _ in files:
        digest.update(Path(name).read_bytes())
    return digest.hexdigest()


def render_pdf(html: str, data: dict[str, Any], span: Span, sides: int = SIDES) -> tuple[bytes | None, list[Diagnostic]]:
    """The PDF of a card's HTML as it is (its page already chosen), with the same checks as `lay_out`."""
    document = _render(html)
    pages, fill, over = measure(document)
    layout = Layout(data.get("orientation", "portrait"), data.get("columns", 1), html, pages, fill, over,
                    _split(document), document)
    problems = _check(layout, data, span, sides)
    if problems:
        return None, problems
    return document.write_pdf(), _uncovered(html, data, span)


def _uncovered(html: str, data: dict[str, Any], span: Span) -> list[Diagnostic]:
    problems: list[Diagnostic] = []
    lacking = uncovered(html)
    if lacking:
        shown = ", ".join(f"'{c}' (U+{ord(c):04X})" for c in lacking[:5]) + (", ..." if len(lacking) > 5 else "")
        problems.append(Diagnostic(
            f"the {data['id']} card ({data['lang']}) prints characters the fonts rulesdsl ships lack: {shown}",
            span, "the PDF takes them from this machine's fonts, so its bytes may differ on another machine",
            severity="warning"))
    return problems
