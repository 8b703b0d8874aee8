"""Diff output: plain text, Markdown, HTML and PDF errata sheets, JSON."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from functools import lru_cache
from pathlib import Path
from typing import Any

from jinja2 import ChoiceLoader, Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

from rulesdsl.cards.labeler import Labeler, book_labels, filled, typeset
from rulesdsl.errata.diff import (CHART_AGAIN, OWN_RULE, RULE_AGAIN, RULE_AGAIN_AMENDED, Change, Group, Section,
                                  as_json, grouped, summary)
from rulesdsl.errata.examples import NO_ANSWER
from rulesdsl.model.catalogue import PAPERS
from rulesdsl.errors import visible, visible_lines

# the sheet is set in the cards' stylesheet (card.css), so errata and cards print alike
_LOADER = ChoiceLoader([PackageLoader("rulesdsl.errata", "templates"), PackageLoader("rulesdsl.cards", "templates")])
_ENV = Environment(loader=_LOADER, undefined=StrictUndefined,
                   autoescape=select_autoescape(["html", "j2"], default=True), trim_blocks=True, lstrip_blocks=True)
_ENV.filters["id"] = id


def _english(text: str, w: Words) -> Markup:
    """Text escaped, with each English phrase it holds in a sheet of another language marked lang="en"."""
    escaped = str(escape(text))
    if w.lang == "en" or not w.english:
        return Markup(escaped)
    phrases = sorted((str(escape(p)) for p in w.english if p), key=len, reverse=True)
    pattern = re.compile("|".join(re.escape(p) for p in phrases))
    return Markup(pattern.sub(lambda m: f'<span lang="en">{m.group(0)}</span>', escaped))


_ENV.filters["en"] = _english


@lru_cache(maxsize=1)
def _shipped() -> dict[str, dict[str, str]]:
    """The sheet's frame as the compiler ships it (labels/errata.rules): lang -> key -> text."""
    from rulesdsl.language.source import Source
    from rulesdsl.language.transform import parse
    file = Path(__file__).parent / "labels" / "errata.rules"
    return book_labels(parse(Source("rulesdsl/errata/labels/errata.rules", file.read_text(encoding="utf-8"))))


# the English units a value prints (catalogue.parameter_text) and the card labels that say them in another language
# (a value by itself or after a meaning's colon, never inside a rulebook's sentence)
_UNITS = re.compile(r"(?:^|(?<=: ))([+-]?\d[\d/]*) (MPs?|steps?|hexes|hex|SPs?)(?=;|$)")
_UNIT_KEYS = {"MP": "mp", "MPs": "mp", "step": "step", "steps": "step", "hex": "hex", "hexes": "hex", "SP": "sp",
              "SPs": "sp"}


# the fields of a rule or a rulebook a change may name, and their labels (errata.field.*)
_FIELDS = {"summary": "summary", "title": "title", "version": "version", "designer's notes": "notes",
           "cites": "cites", "cross references": "see", "more summaries": "more-summaries"}


@dataclass
class Words:
    """What a sheet prints in one language: its frame (the errata labels), the rulebook's own words through
    its labels (a rule's title, a parameter's meaning, a unit), and English where the language has no label
    (each such text is noted in `english`, so that HTML marks it as English)."""

    t: Labeler
    english: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, lang: str = "en", layers: list[dict[str, dict[str, str]]] | None = None) -> Words:
        return cls(Labeler(lang, [*(layers or []), _shipped()]))

    @property
    def lang(self) -> str:
        return self.t.lang

    def __call__(self, key: str, **values: str) -> str:
        return str(filled(self.t(f"errata.{key}"), **values))

    def _own(self, key: str, english: str) -> str:
        """A rulebook's own word: its label in the sheet's language, else its English, noted as such."""
        if self.lang != "en" and self.t.has(key):
            label = self.t(key, english)
            if not label.fallback:
                return label.text
        if self.lang != "en" and english:
            self.english.add(english)
        return english

    def total(self, changes: list[Change]) -> str:
        """How many changes: an example answered otherwise is what changes do, not one more change."""
        n = sum(c.severity != "examples" for c in changes)
        return self(f"total.{'one' if n == 1 else 'many'}", n=str(n))

    def counts(self, changes: list[Change]) -> str:
        counts = summary(changes)
        shown = ", ".join(self(f"count.{severity}.{'one' if n == 1 else 'many'}", n=str(n))
                          for severity, n in counts.items() if severity != "note" and n)
        notes = counts.get("note", 0)
        if not notes:
            return shown
        return f"{shown}; " + self("count.note." + ("one" if notes == 1 else "many"), n=str(notes))

    def title(self, old: dict[str, Any], new: dict[str, Any]) -> str:
        a, b = old["rulebook"], new["rulebook"]
        title = self.t.own("title.rulebook", b["title"]).text if self.lang != "en" else b["title"]
        if a["id"] == b["id"]:
            return self("versions", title=title, old=a["version"], new=b["version"])
        return self("rulebooks", old=f"{a['title']} ({a['id']} {a['version']})",
                    new=f"{title} ({b['id']} {b['version']})")

    def typeset(self, line: str) -> str:
        """A line of a text or Markdown sheet in the language's typography (English: as it is, for a terminal)."""
        return line if self.lang == "en" else typeset(line, self.lang)

    def severity(self, change: Change) -> str:
        return self(f"severity.{change.severity}")

    def part(self, severity: str) -> str:
        return self(f"part.{severity}")

    def area(self, area: str) -> str:
        return self(f"area.{area}")

    def _rule_title(self, rule: str, english: str) -> str:
        return self._own(f"rule.{rule.lower()}.title", english) if english else ""

    def label(self, change: Change) -> str:
        """What changed, in the sheet's language where a label says it: a parameter by its meaning, a rule by
        its number and title, an example by its title and query; else as the rulebook wrote it."""
        c = change
        if self.lang == "en":
            return c.label
        if c.meaning:
            return self._own(f"param.{c.what}", c.label)
        if c.area == "examples" and c.parts:
            rulebook, title, query = c.parts[:3]
            key = "example-of" if rulebook else "example"
            return self(key, rulebook=rulebook, title=title, query=query)
        if c.area == "rule" and c.rule is not None:
            for form, key in ((f"rule {c.rule}", "rule"), (f"override of rule {c.rule}", "override")):
                if c.what == form or c.what.startswith(form + " "):
                    return self(key, id=c.rule, title=self._rule_title(c.rule, c.what[len(form):].strip())).rstrip()
            if c.kind == "renumbered" and c.what.startswith("rule "):
                return self._rule_title(c.rule, c.what[len("rule "):]) or c.what
        if c.what in _FIELDS:
            return self(f"field.{_FIELDS[c.what]}")
        return self._own("", c.what)

    def what(self, change: Change) -> str:
        """The Change column of a table: a changed item by its name alone (its Old and New cells say the rest)."""
        if change.kind in ("changed", "answers otherwise"):
            return self.label(change)
        return self(f"kind.{change.kind}", x=self.label(change))

    def value(self, text: str | None) -> str | None:
        """An Old or New cell: the sentences the diff composes and the units of its values, in the sheet's
        language."""
        if text is None or self.lang == "en":
            return text
        for english, key in ((RULE_AGAIN_AMENDED, "applies-again-amended"), (RULE_AGAIN, "applies-again"),
                             (CHART_AGAIN, "chart-again"), (OWN_RULE, "own-rule"), (NO_ANSWER, "no-answer")):
            if text.startswith(english):
                text = self(key) + text[len(english):]
                break
        return _UNITS.sub(lambda m: f"{m.group(1)} " + self.t(f"unit.{_UNIT_KEYS[m.group(2)]}", m.group(2)).text,
                          text)

    def prose(self, change: Change) -> bool:
        """Whether a change's Old and New cells are the rulebook's own English prose (a summary, a title, a
        note) in a sheet of another language."""
        if self.lang == "en":
            return False
        return change.what in ("summary", "title", "designer's notes", "more summaries") or (
            change.area == "rule" and change.kind in ("added", "removed") and not change.meaning)

    def details(self, change: Change) -> list[str]:
        if change.area == "examples" and len(change.parts) == 5:
            return [self("line", path=change.parts[3], line=change.parts[4])]
        return [self.value(line) or "" for line in change.details]

    def line(self, change: Change) -> str:
        """A change on one line of the text sheet."""
        old, new = self.value(change.old), self.value(change.new)
        if change.kind in ("changed", "answers otherwise", "reordered"):
            return f"{self.label(change)}: {old} -> {new}"
        if change.kind == "renumbered":
            return self("renumbered-line", x=self.label(change), old=old or "", new=new or "")
        value = new if change.kind in ("added", "withdrawn", "overridden") else old
        return self.what(change) + (f": {value}" if value else "")

    def _group(self, change: Change) -> str:
        """The chart a change is in (its group: 'Sequence of play: soviet player turn'), the area's name in
        the sheet's language."""
        english = _ENGLISH.area(change.area) if self.lang != "en" else None
        if english is not None and change.group.startswith(english):
            return self.area(change.area) + self._own("", change.group[len(english):])
        return self._own("", change.group)

    def heading(self, group: Group) -> str:
        """A group's heading: its rule's number and title, or the chart that cites no rule."""
        first = group.changes[0]
        if first.area == "rulebook":
            return self.area("rulebook")
        if first.rule is not None:
            title = group.heading[len(first.rule):].strip()
            if title == first.group:       # filed under a number no rule of this rulebook has: the chart's
                return f"{first.rule} {self._group(first)}"
            return f"{first.rule} {self._rule_title(first.rule, title)}".strip()
        return self._group(first)

    def chart(self, section: Section) -> str | None:
        return None if section.chart is None else self._group(section.changes[0])

    def legend(self, section: Section) -> str | None:
        if section.legend is None:
            return None
        cell = next(c.what for c in section.changes if " x " in c.what)
        first, _, second = cell.partition(" x ")
        if section.changes[0].area == "results":
            return self("legend.results", cell=cell, column=first, roll=second)
        return self("legend.tables", cell=cell, row=first.split()[-1], column=second)


_ENGLISH = Words.of()      # the diff names its charts in English: how a sheet in another language finds them


def _parts(groups: list[Group]) -> list[tuple[str, list[Group]]]:
    """The groups under their severity's part, in sheet order."""
    parts: dict[str, list[Group]] = {}
    for group in groups:
        parts.setdefault(group.severity, []).append(group)
    return list(parts.items())


def text(changes: list[Change], old: dict[str, Any], new: dict[str, Any], words: Words | None = None) -> str:
    """The errata for a terminal: a control character in the rulebooks is shown as an escape."""
    w = words or Words.of()
    if not changes:
        return w("none-line") + "\n"
    out = [w.title(old, new), w("counts", total=w.total(changes), counts=w.counts(changes)), ""]
    for severity, groups in _parts(grouped(changes, old, new)):
        out += [w.part(severity).upper(), ""]
        for group in groups:
            out.append(w.heading(group))
            for section in group.sections:
                indent = "  "
                legend = w.legend(section)
                if section.chart is not None:
                    out.append(f"  {w.chart(section)}" + (f" ({legend})" if legend else ""))
                    indent = "    "
                elif legend:
                    out.append(f"  ({legend})")
                for c in section.changes:
                    out.append(f"{indent}[{w.severity(c)}] {w.line(c)}")
                    out += [f"{indent}    - {line}" for line in w.details(c)]
            out.append("")
    return "\n".join(visible(w.typeset(line)) for line in out) + "\n"


# Markdown: every character that can start markup inside a heading or a table cell is backslash-escaped
# (CommonMark lets any ASCII punctuation be), so a rulebook's text is always shown as text: no HTML,
# entity, link or image (their '[' is escaped), code span, emphasis, strikethrough, math, cell break or
# closing '#'.  '_' between two letters or digits cannot emphasise, so `max_target_cost` stays as written.
_MD_SPECIAL = re.compile(r"[\\`*\[\]<>&|~#$]|(?<![^\W_])_|_(?![^\W_])")


def _md(value: str | None) -> str:
    """Rulebook text in a Markdown heading or table cell."""
    flat = " ".join((value or "").split("\n"))
    return visible(_MD_SPECIAL.sub(lambda m: "\\" + m.group(0), flat))


def markdown(changes: list[Change], old: dict[str, Any], new: dict[str, Any], words: Words | None = None) -> str:
    w = words or Words.of()
    out = [f"# {_md(w('title', x=w.title(old, new)))}", ""]
    if not changes:
        return "\n".join(out + [w("none"), ""])
    out += [_md(w("counts", total=w.total(changes), counts=w.counts(changes))) + ".", ""]
    head = [w(f"column.{name}") for name in ("change", "old", "new", "severity")]
    for severity, groups in _parts(grouped(changes, old, new)):
        out += [f"## {_md(w.part(severity))}", ""]
        for group in groups:
            out += [f"### {_md(w.heading(group))}", ""]
            for section in group.sections:
                if section.chart is not None:
                    out += [f"#### {_md(w.chart(section))}", ""]
                legend = w.legend(section)
                if legend:
                    out += [_md(legend), ""]
                out += ["| " + " | ".join(_md(h) for h in head) + " |", "| --- | --- | --- | --- |"]
                for c in section.changes:
                    details = w.details(c)
                    old_value, new_value = w.value(c.old), w.value(c.new)
                    new_text = "; ".join(filter(None, [new_value, *details])) if c.kind != "removed" else new_value
                    old_text = "; ".join(filter(None, [old_value, *details])) if c.kind == "removed" else old_value
                    out.append(f"| {_md(w.what(c))} | {_md(old_text)} | {_md(new_text)} | {_md(w.severity(c))} |")
                out.append("")
    return "\n".join(w.typeset(line) for line in out)


_WORD = re.compile(r"\w+|[^\w\s]+|\s+")


def marked(old: str, new: str) -> tuple[Markup, Markup]:
    """Two texts, escaped, with the words only the old one has in <del> and those only the new one has
    in <ins> (difflib on words)."""
    a, b = _WORD.findall(old), _WORD.findall(new)
    left: list[str] = []
    right: list[str] = []
    for op, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        gone, came = str(escape("".join(a[i1:i2]))), str(escape("".join(b[j1:j2])))
        if op == "equal":
            left.append(gone)
            right.append(came)
            continue
        if gone:
            left.append(f"<del>{gone}</del>")
        if came:
            right.append(f"<ins>{came}</ins>")
    return Markup("".join(left)), Markup("".join(right))


def _cells(change: Change, w: Words | None = None) -> tuple[Markup | str, Markup | str]:
    """A change's old and new cells: words marked when a text was edited (a summary, a title: more than two
    words on a side, '1 MP -> 2 MP' needs no marking), not when it was rewritten (marks on every word help
    nobody) or when one side is '(none)'."""
    w = w or Words.of()
    a, b = w.value(change.old) or "", w.value(change.new) or ""
    if change.kind != "changed" or "(none)" in (a, b) or max(len(a.split()), len(b.split())) <= 2:
        return a, b
    if SequenceMatcher(None, _WORD.findall(a), _WORD.findall(b), autojunk=False).ratio() < REWRITTEN:
        return a, b
    return marked(a, b)


def _css_string(text: str) -> str:
    """Text as a CSS string: every character that could end it or the style sheet written as an escape."""
    return '"' + "".join(f"\\{ord(ch):x} " if ch in '"\\<>&\n\r' or ord(ch) < 32 else ch for ch in text) + '"'


def _counters(template: str) -> list[str]:
    """'page {n} of {total}' as ['page ', 'page', ' of ', 'pages', '']: text and CSS counters in turn."""
    out: list[str] = []
    for piece in re.split(r"(\{n\}|\{total\})", template):
        out.append({"{n}": "page", "{total}": "pages"}.get(piece, piece))
    return out


REWRITTEN = 0.5   # below this likeness (difflib's ratio on words), a changed text is shown unmarked


def html(changes: list[Change], old: dict[str, Any], new: dict[str, Any], paper: str = "a4",
         words: Words | None = None) -> str:
    """An errata sheet; jinja2 escapes the rulebook's text, and control characters are shown as escapes.
    In another language than English, the rulebook's English (a summary, a title without a label) is marked
    lang="en", and the sheet is set in that language's typography."""
    w = words or Words.of()
    css = _LOADER.get_source(_ENV, "card.css")[0]
    groups = grouped(changes, old, new)
    page = Markup(" ".join(_css_string(part) if i % 2 == 0 else f"counter({part})"
                           for i, part in enumerate(_counters(w("page")))))
    rendered = _ENV.get_template("errata.html.j2").render(
        w=w, lang=w.lang, title=w.title(old, new), counts=w.counts(changes), total=w.total(changes),
        groups=groups, css=css, parts=_parts(groups), page=page,
        cells={id(c): _cells(c, w) for g in groups for c in g.changes}, size=PAPERS[paper])
    return visible_lines(typeset(rendered, w.lang))


def pdf(changes: list[Change], old: dict[str, Any], new: dict[str, Any], paper: str = "a4",
        words: Words | None = None) -> bytes:
    """The errata sheet as a PDF, set in the fonts rulesdsl ships, like the cards."""
    import os
    os.environ.setdefault("SOURCE_DATE_EPOCH", "0")
    import weasyprint

    from rulesdsl.cards.pdf import FONTS_CSS, font_configuration
    font_config = font_configuration()
    fonts = weasyprint.CSS(filename=str(FONTS_CSS), font_config=font_config)
    document = weasyprint.HTML(string=html(changes, old, new, paper, words)).render(stylesheets=[fonts],
                                                                               font_config=font_config)
    data: bytes = document.write_pdf()
    return data


# json.dumps escapes C0 controls; these it leaves as they are, and a terminal may act on them
_JSON_INVISIBLE = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def as_text_json(changes: list[Change], old: dict[str, Any], new: dict[str, Any]) -> str:
    dumped = json.dumps(as_json(changes, old, new), indent=2, ensure_ascii=False)
    return _JSON_INVISIBLE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", dumped) + "\n"


RENDERERS = {"text": text, "md": markdown, "json": as_text_json, "html": html}
