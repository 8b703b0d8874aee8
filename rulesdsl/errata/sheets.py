"""Diff output: plain text, Markdown, HTML and PDF errata sheets, JSON."""
from __future__ import annotations

import json
import re
from difflib import SequenceMatcher
from typing import Any

from jinja2 import ChoiceLoader, Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

from rulesdsl.model.catalogue import PAPERS
from rulesdsl.errata.diff import Change, Group, as_json, grouped, summary
from rulesdsl.errors import visible, visible_lines

# the sheet is set in the cards' stylesheet (card.css), so errata and cards print alike
_LOADER = ChoiceLoader([PackageLoader("rulesdsl.errata", "templates"), PackageLoader("rulesdsl.cards", "templates")])
_ENV = Environment(loader=_LOADER, undefined=StrictUndefined,
                   autoescape=select_autoescape(["html", "j2"], default=True), trim_blocks=True, lstrip_blocks=True)
_ENV.filters["id"] = id


def _title(old: dict[str, Any], new: dict[str, Any]) -> str:
    a, b = old["rulebook"], new["rulebook"]
    if a["id"] == b["id"]:
        return f"{b['title']}: {a['version']} to {b['version']}"
    return f"{a['title']} ({a['id']} {a['version']}) to {b['title']} ({b['id']} {b['version']})"


def _changes(changes: list[Change]) -> str:
    return f"{len(changes)} change{'s' if len(changes) != 1 else ''}"


def _counts(changes: list[Change]) -> str:
    counts = summary(changes)
    nouns = {"rules": ("rules change", "rules changes"), "clarification": ("clarification", "clarifications"),
             "editorial": ("editorial change", "editorial changes")}
    shown = ", ".join(f"{n} {nouns[severity][n != 1]}" for severity, n in counts.items() if severity in nouns and n)
    notes = counts.get("note", 0)
    return shown + (f"; {notes} designer's note{'s' if notes != 1 else ''} (no change to play)" if notes else "")


def what(change: Change) -> str:
    """The Change column of a table: a changed item by its name alone (its Old and New cells say the rest)."""
    return change.label if change.kind == "changed" else f"{change.kind} {change.label}"


# how a sheet heads each severity's part (errata.diff.SEVERITIES)
SEVERITY_HEADINGS = {
    "rules": "Rules changes: what players do is different",
    "clarification": "Clarifications: the words changed, not what the rules compute",
    "editorial": "Editorial: numbering, references and the version",
    "note": "Designer's notes: no change to play",
}


def _heading(group: Group) -> str:
    return group.heading


def _parts(groups: list[Group]) -> list[tuple[str, list[Group]]]:
    """The groups under their severity's heading, in sheet order."""
    parts: dict[str, list[Group]] = {}
    for group in groups:
        parts.setdefault(group.severity, []).append(group)
    return [(SEVERITY_HEADINGS[severity], members) for severity, members in parts.items()]


def text(changes: list[Change], old: dict[str, Any], new: dict[str, Any]) -> str:
    """The errata for a terminal: a control character in the rulebooks is shown as an escape."""
    if not changes:
        return "no semantic changes\n"
    out = [_title(old, new), f"{_changes(changes)}: {_counts(changes)}", ""]
    for part, groups in _parts(grouped(changes, old, new)):
        out += [part.upper(), ""]
        for group in groups:
            out.append(_heading(group))
            for section in group.sections:
                indent = "  "
                if section.chart is not None:
                    out.append(f"  {section.chart}" + (f" ({section.legend})" if section.legend else ""))
                    indent = "    "
                elif section.legend:
                    out.append(f"  ({section.legend})")
                for c in section.changes:
                    out.append(f"{indent}[{c.severity}] {c}")
                    out += [f"{indent}    - {line}" for line in c.details]
            out.append("")
    return "\n".join(visible(line) for line in out) + "\n"


# Markdown: every character that can start markup inside a heading or a table cell is backslash-escaped
# (CommonMark lets any ASCII punctuation be), so a rulebook's text is always shown as text: no HTML,
# entity, link or image (their '[' is escaped), code span, emphasis, strikethrough, math, cell break or
# closing '#'.  '_' between two letters or digits cannot emphasise, so `max_target_cost` stays as written.
_MD_SPECIAL = re.compile(r"[\\`*\[\]<>&|~#$]|(?<![^\W_])_|_(?![^\W_])")


def _md(value: str | None) -> str:
    """Rulebook text in a Markdown heading or table cell."""
    flat = " ".join((value or "").split("\n"))
    return visible(_MD_SPECIAL.sub(lambda m: "\\" + m.group(0), flat))


def markdown(changes: list[Change], old: dict[str, Any], new: dict[str, Any]) -> str:
    out = [f"# Errata: {_md(_title(old, new))}", ""]
    if not changes:
        return "\n".join(out + ["No semantic changes.", ""])
    out += [f"{_changes(changes)}: {_md(_counts(changes))}.", ""]
    for part, groups in _parts(grouped(changes, old, new)):
        out += [f"## {part}", ""]
        for group in groups:
            out += [f"### {_md(_heading(group))}", ""]
            for section in group.sections:
                if section.chart is not None:
                    out += [f"#### {_md(section.chart)}", ""]
                if section.legend:
                    out += [_md(section.legend), ""]
                out += ["| Change | Old | New | Severity |", "| --- | --- | --- | --- |"]
                for c in section.changes:
                    new_text = "; ".join(filter(None, [c.new, *c.details])) if c.kind != "removed" else c.new
                    old_text = "; ".join(filter(None, [c.old, *c.details])) if c.kind == "removed" else c.old
                    out.append(f"| {_md(what(c))} | {_md(old_text)} | {_md(new_text)} | {c.severity} |")
                out.append("")
    return "\n".join(out)


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


def _cells(change: Change) -> tuple[Markup | str, Markup | str]:
    """A change's old and new cells: words marked when a text was edited (a summary, a title: more than two
    words on a side, '1 MP -> 2 MP' needs no marking), not when it was rewritten (marks on every word help
    nobody) or when one side is '(none)'."""
    a, b = change.old or "", change.new or ""
    if change.kind != "changed" or "(none)" in (a, b) or max(len(a.split()), len(b.split())) <= 2:
        return a, b
    if SequenceMatcher(None, _WORD.findall(a), _WORD.findall(b), autojunk=False).ratio() < REWRITTEN:
        return a, b
    return marked(a, b)


REWRITTEN = 0.5   # below this likeness (difflib's ratio on words), a changed text is shown unmarked


def html(changes: list[Change], old: dict[str, Any], new: dict[str, Any], paper: str = "a4") -> str:
    """An errata sheet; jinja2 escapes the rulebook's text, and control characters are shown as escapes."""
    css = _LOADER.get_source(_ENV, "card.css")[0]
    groups = grouped(changes, old, new)
    return visible_lines(_ENV.get_template("errata.html.j2").render(
        title=_title(old, new), counts=_counts(changes), total=_changes(changes), groups=groups, css=css,
        parts=_parts(groups),
        cells={id(c): _cells(c) for g in groups for c in g.changes}, heading=_heading, what=what,
        size=PAPERS[paper]))



def pdf(changes: list[Change], old: dict[str, Any], new: dict[str, Any], paper: str = "a4") -> bytes:
    """The errata sheet as a PDF, set in the fonts rulesdsl ships, like the cards."""
    import os
    os.environ.setdefault("SOURCE_DATE_EPOCH", "0")
    import weasyprint
    from weasyprint.text.fonts import FontConfiguration

    from rulesdsl.cards.pdf import FONTS_CSS
    font_config = FontConfiguration()
    fonts = weasyprint.CSS(filename=str(FONTS_CSS), font_config=font_config)
    document = weasyprint.HTML(string=html(changes, old, new, paper)).render(stylesheets=[fonts],
                                                                               font_config=font_config)
    data: bytes = document.write_pdf()
    return data


# json.dumps escapes C0 controls; these it leaves as they are, and a terminal may act on them
_JSON_INVISIBLE = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def as_text_json(changes: list[Change], old: dict[str, Any], new: dict[str, Any]) -> str:
    dumped = json.dumps(as_json(changes, old, new), indent=2, ensure_ascii=False)
    return _JSON_INVISIBLE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", dumped) + "\n"


RENDERERS = {"text": text, "md": markdown, "json": as_text_json, "html": html}
