"""Diff output: plain text, Markdown and HTML errata sheets, JSON."""
from __future__ import annotations

import json
import re
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from .diff import Change, as_json, grouped, summary
from .errors import visible, visible_lines

_LOADER = PackageLoader("rulesdsl", "templates")
_ENV = Environment(loader=_LOADER, undefined=StrictUndefined,
                   autoescape=select_autoescape(["html", "j2"], default=True), trim_blocks=True, lstrip_blocks=True)


def _title(old: dict[str, Any], new: dict[str, Any]) -> str:
    a, b = old["rulebook"], new["rulebook"]
    if a["id"] == b["id"]:
        return f"{b['title']}: {a['version']} to {b['version']}"
    return f"{a['title']} ({a['id']} {a['version']}) to {b['title']} ({b['id']} {b['version']})"


def _changes(changes: list[Change]) -> str:
    return f"{len(changes)} change{'s' if len(changes) != 1 else ''}"


def _counts(changes: list[Change]) -> str:
    counts = summary(changes)
    nouns = {"correction": ("correction", "corrections"), "addition": ("addition", "additions"),
             "breaking": ("breaking change", "breaking changes")}
    return ", ".join(f"{n} {nouns[severity][n != 1]}" for severity, n in counts.items())


def text(changes: list[Change], old: dict[str, Any], new: dict[str, Any]) -> str:
    """The errata for a terminal: a control character in the rulebooks is shown as an escape."""
    if not changes:
        return "no semantic changes\n"
    out = [_title(old, new), f"{_changes(changes)}: {_counts(changes)}", ""]
    for heading, group in grouped(changes, old, new):
        out.append(heading)
        out += [f"  [{c.severity}] {c}" for c in group]
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
    out += [f"{_changes(changes)}: {_counts(changes)}.", ""]
    for heading, group in grouped(changes, old, new):
        out += [f"## {_md(heading)}", "", "| Change | Old | New | Severity |", "| --- | --- | --- | --- |"]
        for c in group:
            out.append(f"| {c.kind} {_md(c.label)} | {_md(c.old)} | {_md(c.new)} | {c.severity} |")
        out.append("")
    return "\n".join(out)


def html(changes: list[Change], old: dict[str, Any], new: dict[str, Any]) -> str:
    """An errata sheet; jinja2 escapes the rulebook's text, and control characters are shown as escapes."""
    css = _LOADER.get_source(_ENV, "card.css")[0]
    return visible_lines(_ENV.get_template("errata.html.j2").render(
        title=_title(old, new), counts=_counts(changes), groups=grouped(changes, old, new), css=css,
        size=("210mm", "297mm")))


# json.dumps escapes C0 controls; these it leaves as they are, and a terminal may act on them
_JSON_INVISIBLE = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def as_text_json(changes: list[Change], old: dict[str, Any], new: dict[str, Any]) -> str:
    dumped = json.dumps(as_json(changes, old, new), indent=2, ensure_ascii=False)
    return _JSON_INVISIBLE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", dumped) + "\n"


RENDERERS = {"text": text, "md": markdown, "json": as_text_json, "html": html}
