"""HTML card to PDF with WeasyPrint: vector text, embedded fonts, reproducible bytes.

Cards are set in the fonts rulesdsl ships (rulesdsl/fonts/, declared by
fonts.css there), never in whatever fonts the machine offers: a machine without
fonts-dejavu-extra used to synthesise the italic from the regular face and
write other PDF bytes.  `fingerprint` hashes everything a PDF is made from but
the renderer itself, which is what `generated/charts/pdfs.sha256` commits.

Each sheet of the card must fit one page: a sheet that runs onto a second
page, or a table wider than the page's content box, is an error, never a
clipped chart.
"""
from __future__ import annotations

import functools
import hashlib
import os
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, Iterator

from .errors import Diagnostic, Span

_MM_PER_PX = 25.4 / 96
FONTS = Path(__file__).parent / "fonts"
FONTS_CSS = FONTS / "fonts.css"


def font_files() -> list[Path]:
    return sorted(FONTS.glob("*.ttf"))


def fingerprint(html: str, paper: str) -> str:
    """SHA-256 of a PDF card's inputs: its HTML, the font stylesheet, the font files and the paper."""
    digest = hashlib.sha256(b"rulesdsl pdf inputs 1\0")
    parts = [("paper", paper.encode()), ("html", html.encode("utf-8")), ("fonts.css", FONTS_CSS.read_bytes())]
    parts += [(f"fonts/{file.name}", file.read_bytes()) for file in font_files()]
    for name, data in parts:
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def _boxes(box: Any) -> Iterator[Any]:   # weasyprint's layout boxes
    yield box
    for child in getattr(box, "children", ()):
        yield from _boxes(child)


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


def render_pdf(html: str, data: dict[str, Any], span: Span) -> tuple[bytes | None, list[Diagnostic]]:
    # font subsets carry a timestamp: pin it so a rebuild writes the same bytes
    os.environ.setdefault("SOURCE_DATE_EPOCH", "0")
    import weasyprint
    from weasyprint.text.fonts import FontConfiguration

    font_config = FontConfiguration()
    fonts = weasyprint.CSS(filename=str(FONTS_CSS), font_config=font_config)
    document = weasyprint.HTML(string=html).render(stylesheets=[fonts], font_config=font_config)
    problems: list[Diagnostic] = []
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
    lacking = uncovered(html)
    if lacking:
        shown = ", ".join(f"'{c}' (U+{ord(c):04X})" for c in lacking[:5]) + (", ..." if len(lacking) > 5 else "")
        problems.append(Diagnostic(
            f"the {data['id']} card ({data['lang']}) prints characters the fonts rulesdsl ships lack: {shown}",
            span, "the PDF takes them from this machine's fonts, so its bytes may differ on another machine",
            severity="warning"))
    return document.write_pdf(), problems
