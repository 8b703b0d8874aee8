"""HTML card to PDF with WeasyPrint: vector text, embedded fonts, reproducible bytes.

Each sheet of the card must fit one page: a sheet that runs onto a second
page, or a table wider than the page's content box, is an error, never a
clipped chart.
"""
from __future__ import annotations

import os

from .errors import Diagnostic, Span

_MM_PER_PX = 25.4 / 96


def _boxes(box):
    yield box
    for child in getattr(box, "children", ()):
        yield from _boxes(child)


def render_pdf(html: str, data: dict, span: Span) -> tuple[bytes | None, list[Diagnostic]]:
    # font subsets carry a timestamp: pin it so a rebuild writes the same bytes
    os.environ.setdefault("SOURCE_DATE_EPOCH", "0")
    import weasyprint

    document = weasyprint.HTML(string=html).render()
    problems = []
    sheets = html.count('<div class="sheet"')
    paper = data["paper"].upper() if data["paper"] == "a4" else "US Letter"
    if len(document.pages) != sheets:
        problems.append(Diagnostic(
            f"the {data['id']} card ({data['lang']}) takes {len(document.pages)} {paper} pages for {sheets} "
            "sheets: a chart does not fit its page", span, "shorten the chart, or print on larger paper"))
    for page in document.pages:
        page_box = page._page_box
        right = page_box.position_x + page_box.margin_left + page_box.width + 0.5
        for box in _boxes(page_box):
            if type(box).__name__ in ("TableBox", "TableWrapperBox", "BlockBox") and box.element_tag == "table":
                edge = box.position_x + box.margin_width()
                if edge > right:
                    over = (edge - right) * _MM_PER_PX
                    problems.append(Diagnostic(
                        f"a table on the {data['id']} card ({data['lang']}) is {over:.0f} mm too wide for "
                        f"{paper} paper", span, "fewer columns, or print on larger paper; nothing is clipped"))
                    break
    if problems:
        return None, problems
    return document.write_pdf(), []
