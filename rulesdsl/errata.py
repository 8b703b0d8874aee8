"""Diff output: plain text, Markdown and HTML errata sheets, JSON."""
from __future__ import annotations

import json

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from .diff import Change, as_json, grouped, summary

_ENV = Environment(loader=PackageLoader("rulesdsl", "templates"), undefined=StrictUndefined,
                   autoescape=select_autoescape(["html", "j2"], default=True), trim_blocks=True, lstrip_blocks=True)


def _title(old: dict, new: dict) -> str:
    a, b = old["rulebook"], new["rulebook"]
    if a["id"] == b["id"]:
        return f"{b['title']}: {a['version']} to {b['version']}"
    return f"{a['title']} ({a['id']} {a['version']}) to {b['title']} ({b['id']} {b['version']})"


def _counts(changes: list[Change]) -> str:
    counts = summary(changes)
    nouns = {"correction": ("correction", "corrections"), "addition": ("addition", "additions"),
             "breaking": ("breaking change", "breaking changes")}
    return ", ".join(f"{n} {nouns[severity][n != 1]}" for severity, n in counts.items())


def text(changes: list[Change], old: dict, new: dict) -> str:
    if not changes:
        return "no semantic changes\n"
    out = [_title(old, new), f"{len(changes)} changes: {_counts(changes)}", ""]
    for heading, group in grouped(changes, old, new):
        out.append(heading)
        out += [f"  [{c.severity}] {c}" for c in group]
    return "\n".join(out) + "\n"


def _md_cell(value: str | None) -> str:
    return (value or "").replace("|", "\\|").replace("\n", " ")


def markdown(changes: list[Change], old: dict, new: dict) -> str:
    out = [f"# Errata: {_md_cell(_title(old, new))}", ""]
    if not changes:
        return "\n".join(out + ["No semantic changes.", ""])
    out += [f"{len(changes)} changes: {_counts(changes)}.", ""]
    for heading, group in grouped(changes, old, new):
        out += [f"## {_md_cell(heading)}", "", "| Change | Old | New | Severity |", "| --- | --- | --- | --- |"]
        for c in group:
            out.append(f"| {c.kind} {_md_cell(c.what)} | {_md_cell(c.old)} | {_md_cell(c.new)} | {c.severity} |")
        out.append("")
    return "\n".join(out)


def html(changes: list[Change], old: dict, new: dict) -> str:
    css = _ENV.loader.get_source(_ENV, "card.css")[0]
    return _ENV.get_template("errata.html.j2").render(
        title=_title(old, new), counts=_counts(changes), groups=grouped(changes, old, new), css=css,
        size=("210mm", "297mm"))


def as_text_json(changes: list[Change], old: dict, new: dict) -> str:
    return json.dumps(as_json(changes, old, new), indent=2, ensure_ascii=False) + "\n"


RENDERERS = {"text": text, "md": markdown, "json": as_text_json, "html": html}
