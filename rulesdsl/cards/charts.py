"""Player-aid cards: the resolved rulebook laid out as printed charts.

`card(resolved, lang, ...)` builds plain data (what each chart shows, every
printed word already looked up in the labels); `render_html` fills the
autoescaping template; pdf.py prints the same HTML with WeasyPrint.

Labels come from the rulebooks: a rulebook's own `labels <lang>` blocks
(nearest rulebook first), then the project's labels file.  A label missing
in the chosen language falls back to English, marked on the card and
reported as a warning naming the key.
"""
from __future__ import annotations

import colorsys
import hashlib
import re
from dataclasses import dataclass, field, replace
from fractions import Fraction
from operator import attrgetter
from typing import Any, Callable, Iterator, Mapping

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from rulesdsl.version import __version__
from rulesdsl.model.walk import walk
from rulesdsl.model import catalogue, codes as result_codes, ir
from rulesdsl.cards import wording
from rulesdsl.checks.expressions import Checker, numeric_values
from rulesdsl.cards.labeler import (LANGS, Label, Labeler, filled, fraction, label_layers, languages, player_text,
                                   typeset)
from rulesdsl.errors import Diagnostic, visible_lines
from rulesdsl.cards.outcomes import Odds, column_odds
from rulesdsl.core.facts import QUESTIONS
from rulesdsl.model.catalogue import PAPERS, UNIT_SPELLINGS
from rulesdsl.runtime.model import PLURALS, Quantity
from rulesdsl.runtime.combat import EXCHANGE_EXEMPT
from rulesdsl.runtime.notation import OPEN_DIFFERENCE, Result, parse_difference

ORIENTATIONS = ("portrait", "landscape")


def page_size(paper: str, orientation: str) -> tuple[str, str]:
    """The sheet's width and height."""
    width, height = PAPERS[paper]
    return (height, width) if orientation == "landscape" else (width, height)


def movement_text(cell: ir.MovementCell, t: Labeler) -> list[str | Label]:
    amount = cell.amount if cell.amount is not None else Fraction(0)
    stop: list[str | Label] = [", ", t("code.tec.stop")] if cell.stop else []
    if cell.kind == "cost" and cell.by_terrain:      # a road's cost into each terrain: 1; Forest 2
        into: list[str | Label] = [fraction(amount)]
        for cost in cell.by_terrain:
            into += ["; ", t.name("terrain", cost.terrain.value), " " + fraction(cost.amount)]
        return into
    if cell.kind == "cost" and cell.lower:           # the road's cost, or the hex's if lower: 1 or less
        return [fraction(amount), " ", t("code.tec.lower")]
    if cell.kind == "cost":
        return [fraction(amount), *stop]
    if cell.kind == "add":
        return ["+" + fraction(amount), *stop]
    if cell.kind == "prohibited":
        return [t("code.tec.prohibited")]
    if cell.kind == "other":
        return [t("code.tec.other")]
    if cell.kind == "road-like":
        return [t("tec.road-like", "road-like")]
    return [t("tec.negates", "negates"), " ", t.name("terrain", cell.target.value if cell.target else "")]


def combat_text(cell: ir.CombatCell) -> str:
    if cell.kind == "none":
        return "ne"
    if cell.kind == "prohibited":
        return "P"
    if cell.kind == "other":
        return "ot"
    parts = []
    if cell.attacker is not None:
        parts.append("Ax" + fraction(cell.attacker))
    if cell.defender is not None:
        parts.append("Dx" + fraction(cell.defender))
    if cell.shift:
        parts.append(f"{abs(cell.shift)}{'L' if cell.shift < 0 else 'R'}")
    if cell.drm:
        parts.append(f"{cell.drm:+d}")
    if cell.across != ir.Crossing.ANY:
        parts.append(cell.across.value)
    if cell.only is not None:
        parts += [cell.only.role.value, cell.only.side.value]
    return " ".join(parts)


def combat_card_text(cell: ir.CombatCell, t: Labeler) -> list[str | Label]:
    """The combat cell as the card prints it: its codes in the card's language (NE, G/D in French), a
    DRM and the all-across qualifier in words."""
    codes = {"none": "no-effect", "prohibited": "prohibited", "other": "other"}
    parts: list[str | Label] = []
    if cell.kind in codes:
        parts.append(t(f"code.tec.{codes[cell.kind]}"))
    else:
        text = combat_text(replace(cell, drm=0, across=ir.Crossing.ANY, shift=0, only=None))
        parts = [text] if text else []
        if cell.shift:
            parts += [" " if parts else "", str(abs(cell.shift)), t("code.tec.left" if cell.shift < 0 else "code.tec.right")]
    if cell.drm:
        parts += [" " if parts else "", signed(cell.drm), " ", t("tec.drm", "DRM")]
    if cell.across == ir.Crossing.ALL:
        parts += [" (", t("tec.all-across", "only when every attacker is across"), ")"]
    if cell.only is not None:    # one side's effect: "(only with Allies defending)"
        key = f"tec.only-{cell.only.role.value}"
        english = f"only with {{side}} {cell.only.role.value}"
        parts += [" (", filled(t(key, english), side=t.name("player-turn", cell.only.side.value)), ")"]
    return parts


# ---- the card ------------------------------------------------------------------------
def card(resolved: ir.Resolved, lang: str, project_labels: dict[str, Any], paper: str = "a4") -> tuple[dict[str, Any], list[Diagnostic]]:
    t = Labeler(lang, label_layers(resolved, project_labels))
    book = resolved.rulebook
    params = {p.name: p for p in resolved.parameters}
    data: dict[str, Any] = {
        # the page: pdf.py lays the card out on each orientation and column count and keeps the best
        "lang": lang, "paper": paper, "orientation": "portrait", "columns": 1, "size": page_size(paper, "portrait"),
        "version": __version__,
        "title": t.own("title.rulebook", book.title.value), "id": book.id.value,
        "book_version": book.version.value if book.version else "",
        "ancestors": [a.title.value for a in resolved.ancestors],
        "t": {key: t(key) for key in _CHROME},
    }
    for kind, (key, make) in SECTIONS.items():
        if key is not None:
            data[key] = make(resolved, t)
    stacking = params.get("stacking.limit") or params.get("stacking.limit_units")
    data["stacking"] = None
    if stacking is not None and isinstance(stacking.value, Quantity):
        data["stacking"] = {"amount": fraction(stacking.value.amount),
                            "unit": t.name("unit", stacking.value.unit or ""),
                            "rule": " ".join(printed_cites(resolved, [stacking.rule]))}
    data["own"] = _own(resolved, data, t)
    warnings = []
    if t.missing:
        keys = ", ".join(t.missing)
        warnings.append(Diagnostic(
            f"{len(t.missing)} label{'s' if len(t.missing) != 1 else ''} missing in '{lang}', shown in English on "
            f"the {book.id.value} card: {keys}", book.id.span,
            f"add them to a 'labels {lang}' block", severity="warning"))
    for row, (key, composed, where) in t.unplain.items():
        warnings.append(Diagnostic(
            f"the {row} reads '{composed}' on the {book.id.value} card ({lang}): not words a player follows",
            where or book.id.span, f"give it player text: labels {lang} {{ {key} \"...\" }}", severity="warning"))
    warnings += _unprinted_effects(resolved, lang)
    data["missing"] = list(t.missing)
    return data, warnings


def _unprinted_effects(resolved: ir.Resolved, lang: str) -> list[Diagnostic]:
    """A warning for each effect of the rules in effect whose question's reminders topic the card does not
    list: a rule the engine executes that a player would never read on the card."""
    shown = set(card_options(resolved).reminders)
    out = []
    for effective in resolved.rules:
        for effect in effective.node.effects:
            question = QUESTIONS.get(effect.question.value)
            if question is not None and question.topic not in shown:
                out.append(Diagnostic(
                    f"rule {effective.node.id.value}'s '{effect.text}' is on no reminder of the {resolved.id} card "
                    f"({lang}): the card lists no '{question.topic}' reminders", effect.span,
                    f"add the topic to the card's reminders: card {{ reminders: ... {question.topic} }}",
                    severity="warning"))
    return out


_CHROME = [
    "card.series", "card.game", "card.version", "card.extends", "card.fallback",
    "heading.sequence-of-play", "heading.game-turn", "heading.player-turn", "heading.terrain-effects",
    "heading.combat-results", "heading.modifiers", "heading.shifts", "heading.stacking", "heading.tables",
    "heading.outcomes", "heading.defender-side", "heading.attacker-side",
    "column.phase", "column.rules", "column.activities", "column.terrain", "column.movement", "column.combat",
    "column.level", "column.line", "column.roll", "column.odds", "column.defense", "column.modifier", "column.drm",
    "column.side", "column.when", "column.source", "column.shift", "column.maximum",
    "section.hex", "section.hexside", "section.road",
    "legend.title", "legend.prohibited", "legend.other-terrain", "legend.attacker", "legend.defender",
    "legend.no-effect", "legend.left", "legend.right", "legend.stop", "legend.lower", "legend.no-zoc",
    "legend.exerts-no-zoc",
    "code.tec.no-effect", "code.tec.other", "code.tec.prohibited", "code.tec.left", "code.tec.right",
    "code.tec.stop", "code.tec.lower",
    "crt.legend", "crt.steps-first", "crt.retreat-first", "crt.breakthrough", "crt.no-effect",
    "crt.above", "crt.above-result", "crt.below-result", "crt.below-leftmost", "crt.voluntary-result",
    "crt.voluntary-leftmost", "crt.forced-result", "crt.forced-leftmost", "crt.differential", "crt.dice",
    "outcome.defender-step", "outcome.defender-retreat", "outcome.defender-steps", "outcome.attacker-steps",
    "outcome.attacker-step", "outcome.note", "outcome.by-drm",
    "side.attacker", "side.defender", "side.both", "stacking.text", "modifiers.cap", "shifts.per-side",
    "player-turn", "side-turn", "heading.factors", "heading.adjustments", "column.factor", "column.multiplies",
    "column.result", "column.change", "heading.own",
    "sequence.not-on-set", "sequence.only-on-set", "sequence.not-on-turn", "sequence.not-on-turns",
    "sequence.only-on-turn", "sequence.only-on-turns", "sequence.from-turn", "sequence.later",
    "sequence.on-set", "sequence.on-turn", "sequence.on-turns",
]


def _amended_parameter(resolved: ir.Resolved, amended: ir.Amended, t: Labeler) -> Label:
    """An amended parameter as a player reads it: what its declaration says it means (its label
    `parameter.<name>` in the card's language, else the declared meaning, marked), then its value."""
    name = amended.key.split(" ", 1)[0]     # a value on some turns only is amended as 'name on night'
    line = _param_line(resolved, t, name, stated=True) if name == amended.key else None
    if line is not None:        # a rule as a sentence ('... does not count ...'), or its meaning and value in words
        said: Label = line["meaning"]
        if line["value"] is None:
            return said
        value: Label = line["value"]
        return Label(f"{said.text}: {value.text}", said.fallback or value.fallback)
    entry = resolved.declared.get(name)
    meaning = t(f"parameter.{name}", entry.meaning if entry is not None else wording.words(name))
    return Label(f"{meaning.text[:1].upper()}{meaning.text[1:]}: {amended.text}", meaning.fallback)


def _own(resolved: ir.Resolved, data: dict[str, Any], t: Labeler) -> list[dict[str, Any]]:
    """The items the game's own amendments changed, listed on the card; its CRT cells and TEC rows are
    marked where they are printed."""
    me = resolved.id
    out = [{"where": f"{e.node.id.value}",
            "text": _amended_parameter(resolved, a, t) if a.key != "(summary)" else
            t(f"summary.{e.node.id.value}", a.text)}
           for e in resolved.rules for a in e.amended if a.origin == me]
    if resolved.sequence is not None:
        out += [{"where": "SoP", "text": f"{a.key.split(': ', 1)[0]}: {a.text}"}
                for a in resolved.sequence.amended if a.origin == me]
    if resolved.terrain is not None and data.get("terrain"):
        out += [{"where": "TEC", "text": a.text} for a in resolved.terrain.amended if a.origin == me]
    if resolved.results is not None and data.get("results"):
        cells = {a.key for a in resolved.results.amended if a.origin == me}
        columns = data["results"]["columns"]
        for row in data["results"]["rows"]:     # a cell, or a whole column the game adds ("7:1 column")
            row["own"] = [f"{column} x {row['label']}" in cells or f"{column} column" in cells
                          for column in columns]
        out += [{"where": "CRT", "text": f"{a.key}: {a.text}"} for a in resolved.results.amended if a.origin == me]
    return out


def _sequence(resolved: ir.Resolved, t: Labeler) -> dict[str, Any] | None:
    if resolved.sequence is None:
        return None
    node = resolved.sequence.node
    # player_turns: the shared player turn (side None), or each side's own, in the order written
    heading = printed_cites(resolved, [c.value for c in node.cites])
    out: dict[str, Any] = {"cites": heading, "game_turn": [], "player_turns": []}

    def row_cites(cites: tuple[ir.Text, ...]) -> list[str]:
        """A row's printed rule numbers, less those the chart's heading already cites ("[1.0]" on each row)."""
        return [c for c in printed_cites(resolved, [c.value for c in cites]) if c not in heading]

    by_side = any(block.side is not None for block in node.blocks)
    sequence = resolved.sequence
    turn_sets = {s.name.value: s for s in node.turn_sets}
    for block in node.blocks:
        phases: list[dict[str, Any]] = []
        turn = f"{block.kind.value} turn" + (f" {block.side.value}" if block.side is not None else "")
        for item in block.items:
            entry: dict[str, Any]
            if isinstance(item, ir.PlayerTurnSlot):
                entry = {"slot": True, "side": by_side, "name": t.name("player-turn", item.name.value), "own": False}
            else:
                own = sequence.item_origin(f"{turn}: {item.name.value}") == resolved.id != sequence.origin
                entry = {"slot": False, "name": t.name("phase", item.name.value), "own": own,
                         "cites": row_cites(item.cites),
                         "activities": [t.name("activity", a.value) for a in item.activities],
                         "note": t(f"note.{item.name.value}", item.note.value) if item.note else None,
                         "turns": wording.phase_turns(item.turns, turn_sets, t) if item.turns else None}
            phases.append(entry)
        if block.kind.value == "game":
            out["game_turn"].extend(phases)
        else:
            side = t.name("player-turn", block.side.value) if block.side is not None else None
            out["player_turns"].append({"side": side, "phases": phases})
    out["rules_column"] = any(p["cites"] for turn in out["player_turns"] for p in turn["phases"])
    # the named turns, which a phase, a value or a rule's condition (`turn is night`) may name
    out["turn_sets"] = [wording.turn_set(s, t) for s in node.turn_sets]
    return out


def _terrain(resolved: ir.Resolved, t: Labeler) -> dict[str, Any] | None:
    if resolved.terrain is None or not printed(resolved, resolved.terrain):
        return None
    node = resolved.terrain.node
    terrain = resolved.terrain

    def own(key: str) -> bool:
        """An item the game's own amendment gives: a row (its name), or one cell (`woods combat`)."""
        return terrain.item_origin(key) == resolved.id != terrain.origin

    sections = []
    for kind in ("hex", "road", "hexside"):
        rows = [{"name": t.name("terrain", r.name.value),
                 "movement": movement_text(r.movement, t) + ([" (", t("tec.no-overrun", "no overrun"), ")"]
                                                             if r.no_overrun else [])
                 + ([" (", t("tec.no-zoc"), ")"] if r.no_zoc else [])
                 + ([" (", t("tec.exerts-no-zoc"), ")"] if r.exerts_no_zoc else []),
                 "own": own(r.name.value), "movement_own": own(f"{r.name.value} movement"),
                 "combat_own": own(f"{r.name.value} combat"),
                 "combat": combat_card_text(r.combat, t), "level": r.level,
                 "line": t.name("line", r.line.value) if r.line else None}
                for r in node.rows if r.kind == kind]
        if rows:
            sections.append({"heading": t(f"section.{kind}"), "rows": rows})
    has_level = any(r.level is not None for r in node.rows)
    has_line = any(r.line is not None for r in node.rows)
    title = chart_title(resolved, resolved.terrain, t, "title.terrain", node.title.value) if node.title else None
    return {"title": title, "cites": chart_cites(resolved, node.cites, t, title or t("heading.terrain-effects")),
            "sections": sections, "has_level": has_level, "has_line": has_line, "legend": _tec_legend(node, t),
            "combination": [line for name in COMBINATION_PARAMETERS
                            for line in (_param_line(resolved, t, name, stated=True),) if line is not None]}


# how terrains combine in combat, stated under the TEC (and wherever the card states a value the title sets)
COMBINATION_PARAMETERS = ("combat.terrain_combination", "combat.hexside_combination")
_COMBINATION_ENGLISH = {
    "hex.cumulative": "Several terrains in one hex: all their effects apply",
    "hex.most-restrictive": "Several terrains in one hex: each effect is the one most against the attacker",
    "hex.defender-best": "Several terrains in one hex: only the one best for the defender applies",
    "hexside.cumulative": "A hexside crossed applies on top of the hex's terrain",
    "hexside.most-restrictive": "A hexside crossed is not cumulative with the hex's terrain: each effect is the "
                                "one most against the attacker",
    "hexside.defender-best": "A hexside crossed is not cumulative with the hex's terrain: only the one best for "
                             "the defender applies",
}


def _combination_statement(resolved: ir.Resolved, t: Labeler, name: str, value: object) -> Label | None:
    """How terrains combine in combat, in players' words: `combat.terrain_combination` for a hex's terrains,
    `combat.hexside_combination` for a hexside crossed (combined with the hex by the other's rule, or on top
    of it: with-terrain under a cumulative rule adds up as well).  None for another parameter."""
    if name == "combat.terrain_combination":
        key = f"hex.{value}"
    elif name == "combat.hexside_combination":
        rule = next((p.value for p in resolved.parameters if p.name == "combat.terrain_combination"), None)
        key = f"hexside.{rule if value == 'with-terrain' and rule is not None else 'cumulative'}"
    else:
        return None
    english = _COMBINATION_ENGLISH.get(key)
    return None if english is None else t(f"tec.combination.{key}", english)


def printed(resolved: ir.Resolved, chart: ir.Effective[Any] | None) -> bool:
    """Whether a chart in effect is printed on the title's card: any chart but one marked `for examples` (a
    series' chart that only its worked examples read; each game prints its own, and the chart's invented
    values would mislead at the table), unless the title amends that chart, which makes it the title's own."""
    return chart is not None and (not chart.node.for_examples or any(a.origin == resolved.id for a in chart.amended))


# the TEC's legend: each abbreviation, printed only when some cell of the chart uses it
_TEC_KEYS = (("P", "legend.prohibited"), ("ot", "legend.other-terrain"), ("A", "legend.attacker"),
             ("D", "legend.defender"), ("ne", "legend.no-effect"), ("L", "legend.left"), ("R", "legend.right"),
             ("stop", "legend.stop"), ("lower", "legend.lower"), ("no-zoc", "legend.no-zoc"),
             ("exerts-no-zoc", "legend.exerts-no-zoc"))
# the codes the cells print through labels (the French edition writes NE, G, D): their label keys
_TEC_CODE_LABELS = {"P": "code.tec.prohibited", "ot": "code.tec.other", "ne": "code.tec.no-effect",
                    "L": "code.tec.left", "R": "code.tec.right", "stop": "code.tec.stop",
                    "lower": "code.tec.lower", "no-zoc": "tec.no-zoc",
                    "exerts-no-zoc": "tec.exerts-no-zoc"}


def _tec_legend(node: ir.TerrainChart, t: Labeler) -> list[tuple[Label, Label]]:
    """The legend's (code as the cells print it, meaning) pairs, for the codes the chart uses."""
    return [(t(_TEC_CODE_LABELS[key]) if key in _TEC_CODE_LABELS else Label(key), t(meaning))
            for key, meaning in _TEC_KEYS if key in _tec_codes(node)]


def _tec_codes(node: ir.TerrainChart) -> set[str]:
    used: set[str] = set()
    for row in node.rows:
        used |= {"prohibited": {"P"}, "other": {"ot"}}.get(row.movement.kind, set())
        used |= {"stop"} if row.movement.stop else set()
        used |= {"lower"} if row.movement.lower else set()
        used |= {"no-zoc"} if row.no_zoc else set()
        used |= {"exerts-no-zoc"} if row.exerts_no_zoc else set()
        cell = row.combat
        used |= {"none": {"ne"}, "prohibited": {"P"}, "other": {"ot"}}.get(cell.kind, set())
        used |= {"A"} if cell.attacker is not None else set()
        used |= {"D"} if cell.defender is not None else set()
        used |= {"L"} if cell.shift and cell.shift < 0 else {"R"} if cell.shift else set()
    return used


def printed_cites(resolved: ir.Resolved, cites: list[str]) -> list[str]:
    """Rule references as the rulebook prints them: a numbered rule's number.  An unnumbered section
    (`readiness`, `map`) has no printed number, and its internal id means nothing at the table, so it
    is left out; the chart's heading or phase name already names it."""
    sections = {e.node.id.value for e in resolved.rules if not e.node.numbered}
    return list(dict.fromkeys(c for c in cites if c and c not in sections))


def chart_title(resolved: ir.Resolved, chart: ir.Effective[Any] | None, t: Labeler, key: str, english: str) -> Label:
    """A chart's title in the card's language: the label of the rulebook the chart comes from (or the
    project's), never the label another rulebook of the chain gives its own chart of that kind."""
    books = [resolved.id, *(book.id.value for book in resolved.ancestors)]
    if chart is None or chart.origin not in books:
        return t(key, english)
    return t.of_book(books.index(chart.origin), key, english)


def chart_cites(resolved: ir.Resolved, cites: tuple[ir.Text, ...], t: Labeler,
                heading: Label | None) -> list[str | Label]:
    """A chart's citations: the numbered rules it cites.  A chart that cites only unnumbered sections (New SCS
    prints its rules under headings, without numbers) cites the first by its title, as the rules print it, in
    the card's language; not when the chart's own heading is that title (it says it already)."""
    numbered = printed_cites(resolved, [c.value for c in cites])
    if numbered or not cites:
        return list(numbered)
    section = next((e.node for e in resolved.rules if e.node.id.value == cites[0].value), None)
    if section is None or section.title is None:
        return []
    title = t(f"rule.{section.id.value.lower()}.title", section.title.value)
    if heading is not None and heading.text.casefold() == title.text.casefold():
        return []
    return [title]


def _results(resolved: ir.Resolved, t: Labeler, params: dict[str, ir.EffectiveParameter]) -> dict[str, Any] | None:
    """The combat results table as the card prints it: its grid, each column's odds (and by die roll
    modifier), the odds of the declared codes' outcomes, its attacker side and the legend's lines on odds
    off the table; None when the card prints no such table."""
    if resolved.results is None or not printed(resolved, resolved.results):
        return None
    node = resolved.results.node
    block = resolved.result_codes.node if resolved.result_codes is not None else None
    notation = result_codes.family(block, node)
    codes = result_codes.declared(block) or None
    rows = {r.label.value: tuple(c.value for c in r.cells) for r in node.rows}
    columns = [c.value for c in node.columns]
    every = [column_odds(node.dice.value, rows, index, notation, codes=codes) for index in range(len(columns))]
    title = chart_title(resolved, resolved.results, t, "title.results", node.title.value) if node.title else None
    return {
        "title": title, "cites": chart_cites(resolved, node.cites, t, title or t("heading.combat-results")),
        "dice": node.dice.value, "notation": notation,
        **_grid(node, t),
        "outcome": _column_outcomes(columns, every, t.lang),
        "more_outcome": _declared_outcomes(every, codes, node.attacker is not None, t),
        "by_drm": _outcomes_by_drm(resolved, node, rows, notation, codes, t.lang),
        "attacker": _attacker_side(node, notation, codes, t.lang),
        "steps_average": _steps_average(codes),
        "declared": codes is not None,
        "defender_step_label": t("outcome.defender-loses") if codes else t("outcome.defender-step"),
        "breakthrough": any("*" in c.value for r in node.rows for c in r.cells),
        "dash": any(c.value == "-" for r in (*node.rows, *(node.attacker.rows if node.attacker else ()))
                    for c in r.cells),
        **_off_table(resolved, params),
    }


def _grid(node: ir.ResultsTable, t: Labeler) -> dict[str, Any]:
    """The table's grid as printed: its odds lines (a differential line's columns as differences), its rows
    of results and its columns."""
    return {
        "lines": [{"name": t.name("line", l.name.value) if l.name else None,
                   "columns": [difference_heading(c.value) if l.differential else c.value for c in l.columns]}
                  for l in node.lines],
        "differential": node.differential,
        "rows": [{"label": r.label.value, "cells": [c.value for c in r.cells], "own": [False] * len(r.cells)}
                 for r in node.rows],
        "columns": [c.value for c in node.columns],
    }


def _steps_average(codes: dict[str, Result] | None) -> dict[str, bool]:
    """For each side, whether the card prints its average of steps lost: an average says nothing where a
    side's codes take whole units or everything (the rows of those chances say it instead)."""
    return {side: not any(getattr(r, f"{side}_eliminated") or getattr(r, f"{side}_units")
                          for r in (codes or {}).values()) for side in ("attacker", "defender")}


def _column_outcomes(columns: list[str], every: list[Odds], lang: str) -> list[dict[str, str]]:
    """Each column's chances and averages, as the card's locale writes them (58.3% and 0.61, or 58,3 % and
    0,61)."""
    return [{"column": column, "defender_step": wording.percent(odds.defender_loses_step, lang),
             "defender_retreat": wording.percent(odds.defender_retreats, lang),
             "defender_steps": wording.decimal(odds.defender_steps, lang),
             "attacker_steps": wording.decimal(odds.attacker_steps, lang)}
            for column, odds in zip(columns, every)]


# the outcomes a declared code can give (codes.meaning), each with the Odds field of its chance, in the order
# the card prints their rows: the states a side takes come between these and _LAST_OUTCOMES
_DECLARED_OUTCOMES = (("defender-all", "defender_eliminated"), ("attacker-loses", "attacker_loses_step"),
                      ("attacker-all", "attacker_eliminated"), ("attacker-retreat", "attacker_retreats"),
                      ("defender-advance", "defender_advances"), ("attacker-advance", "attacker_advances"),
                      ("exchange", "exchange"), ("breakthrough", "breakthrough"))
_LAST_OUTCOMES = (("no-effect", "no_effect"), ("not-allowed", "not_allowed"))


def _declared_outcomes(every: list[Odds], codes: dict[str, Result] | None, has_attacker: bool,
                       t: Labeler) -> list[dict[str, Any]]:
    """The odds only declared meanings give, a row for each outcome that some column has: losses, retreats,
    advances, states, exchange, breakthrough, no effect, not allowed.  A table with an attacker side has its
    own odds of the attacker's losses, so no row of them here."""
    if not codes:
        return []
    readers: dict[str, Callable[[Odds], Fraction]] = {
        key: attrgetter(field_name) for key, field_name in _DECLARED_OUTCOMES
        if not (has_attacker and key == "attacker-loses")}
    states = dict.fromkeys((side, state) for odds in every for side, state, _ in odds.states)
    readers.update({f"state {side} {state}": _state_chance(side, state) for side, state in states})
    readers.update({key: attrgetter(field_name) for key, field_name in _LAST_OUTCOMES})
    return [{"label": _outcome_label(key, t), "cells": [wording.percent(read(o), t.lang) for o in every]}
            for key, read in readers.items() if any(read(o) for o in every)]


def _outcomes_by_drm(resolved: ir.Resolved, node: ir.ResultsTable, rows: dict[str, tuple[str, ...]],
                     notation: str, codes: dict[str, Result] | None, lang: str) -> list[dict[str, Any]]:
    """Each column's chance that the defender loses, for every net die roll modifier the cap allows (none
    for a d66 table, or without a cap)."""
    cap = resolved.modifiers.node.cap if resolved.modifiers is not None else None
    if cap is None or node.dice.value == "d66":
        return []
    return [{"drm": signed(drm),
             "cells": [wording.percent(column_odds(node.dice.value, rows, i, notation, drm, codes).defender_loses_step,
                                       lang)
                       for i in range(len(node.columns))]}
            for drm in range(-cap, cap + 1)]


def _attacker_side(node: ir.ResultsTable, notation: str, codes: dict[str, Result] | None,
                   lang: str) -> dict[str, Any] | None:
    """A dual-sided table's attacker side: its grid and each column's odds of the attacker's losses."""
    if node.attacker is None:
        return None
    rows = {r.label.value: tuple(c.value for c in r.cells) for r in node.attacker.rows}

    def odds(index: int) -> Odds:
        """Column `index`'s odds on the attacker side."""
        return column_odds(node.dice.value, rows, index, notation, codes=codes)

    return {
        "columns": [c.value for c in node.attacker.columns],
        "rows": [{"label": r.label.value, "cells": [c.value for c in r.cells]} for r in node.attacker.rows],
        "outcome": [{"column": c.value, "attacker_steps": wording.decimal(odds(i).attacker_steps, lang),
                     "attacker_step": wording.percent(odds(i).attacker_loses_step, lang)}
                    for i, c in enumerate(node.attacker.columns)],
    }


def _off_table(resolved: ir.Resolved, params: dict[str, ir.EffectiveParameter]) -> dict[str, tuple[object, str] | None]:
    """The legend's lines on odds off the table (below, a forced attack's below, above): each value with the
    rules that set it, or None."""
    below = params.get("combat.below_table")
    forced = params.get("combat.below_table_forced")
    if forced is not None and below is not None and forced.value == below.value:
        forced = None       # a forced attack reads the table as any other: one line says it
    above = params.get("combat.above_table")

    def line(parameter: ir.EffectiveParameter | None) -> tuple[object, str] | None:
        """A parameter's value and the printed number of the rule that sets it."""
        return None if parameter is None else (parameter.value, " ".join(printed_cites(resolved, [parameter.rule])))

    # a forced attack (one the rules require) with a result of its own: the legend says both, in turn
    return {"below": line(below), "below_forced": line(forced), "above": line(above)}


def _state_chance(side: str, state: str) -> Callable[[Odds], Fraction]:
    """Reads a column's chance that `side` takes `state`."""
    return lambda odds: sum((c for s, w, c in odds.states if (s, w) == (side, state)), Fraction(0))


def _outcome_label(key: str, t: Labeler) -> Label:
    """An outcome row's label: `outcome.KEY`, or, for a state a side takes, `{side} {state}`."""
    if not key.startswith("state "):
        return t(f"outcome.{key}")
    _, side, state = key.split(" ", 2)
    what = t.name("state", state)
    label = filled(t("outcome.becomes"), side=t(f"code.side.{side}"), state=Label(what.text.lower(), what.fallback))
    return Label(label.text[:1].upper() + label.text[1:], label.fallback)


def _codes(resolved: ir.Resolved, t: Labeler) -> list[dict[str, Any]] | None:
    """The legend of the declared result codes: each code and what it means, in the card's language."""
    if resolved.result_codes is None:
        return None
    exchange = _exchange_label(resolved, t)
    return [{"code": code.code.value, "meaning": Label("; ".join(l.text for l in labels),
                                                        any(l.fallback for l in labels)),
             "rules": exchange[1] if exchange is not None and _exchanges(code) else []}
            for code in resolved.result_codes.node.codes
            for labels in ([exchange[0] if exchange is not None and c.effect == ir.CodeEffect.EXCHANGE
                            else _clause_label(c, t) for c in code.clauses],)]


EXCHANGE_PARAMETERS = ("combat.exchange_measure", "combat.exchange_counts_terrain", "combat.exchange_loser")


def _exchanges(code: ir.ResultCode) -> bool:
    return any(c.effect == ir.CodeEffect.EXCHANGE for c in code.clauses)


def _exchange_label(resolved: ir.Resolved, t: Labeler) -> tuple[Label, list[str]] | None:
    """What an exchange costs, in players' words (combat.exchange_measure, combat.exchange_counts_terrain and
    the unit types that never pay it), and the rules that say so; None where the rulebook does not say."""
    params = {p.name: p for p in resolved.parameters}
    measure = params.get("combat.exchange_measure")
    if measure is None:
        return None
    counts = params.get("combat.exchange_counts_terrain")
    loser = params.get("combat.exchange_loser")
    terrain = measure.value == "factors" and counts is not None and counts.value is True
    key = "code.exchange-fewer" if loser is not None and loser.value == "fewer-factors" else \
        "code.exchange-terrain" if terrain else f"code.exchange-{measure.value}"
    label = t(key)
    exempt = [name for name, words in resolved.vocabulary.unit_types.items() if EXCHANGE_EXEMPT in words]
    if exempt:
        names = [t.name("type", name) for name in exempt]
        label = Label(label.text + ", " + filled(t("code.exchange-exempt"),
                                                types=Label(", ".join(n.text for n in names))).text,
                      label.fallback or any(n.fallback for n in names))
    rules = [measure.rule] + [p.rule for p in (counts, loser) if p is not None]
    return label, printed_cites(resolved, rules)


def _clause_label(clause: ir.CodeClause, t: Labeler) -> Label:
    if clause.side is None:
        return t("code." + str(clause.effect).replace(" ", "-"))
    side = t(f"code.side.{clause.side}")
    word = clause.word.value if clause.word is not None else ""
    if clause.effect == ir.CodeEffect.BECOMES:
        key = "code.becomes"
    elif clause.effect == ir.CodeEffect.LOSES and clause.amount is None:
        key = "code.loses-all"
    else:
        key = f"code.{clause.effect}" + ("-units" if word in result_codes.UNIT_WORDS else "") + \
            ("-one" if clause.amount == 1 else "")
    if clause.side == ir.Side.BOTH and key != "code.becomes":
        key = key.replace("code.", "code.both.", 1)     # a plural subject: both sides lose, retreat, advance
    values: dict[str, str | Label] = {"side": side, "n": str(clause.amount or 0)}
    if clause.effect == ir.CodeEffect.BECOMES:      # the state's own label is not checked for English here
        values["state"] = t.name("state", word).text.lower()
    return filled(t(key), **values)


def _modifiers(resolved: ir.Resolved, t: Labeler) -> dict[str, Any] | None:
    if resolved.modifiers is None:
        return None
    node = resolved.modifiers.node
    return {"cap": node.cap, "cites": chart_cites(resolved, node.cites, t, t("heading.modifiers")), "entries": [
        {"name": t.name("modifier", m.name.value), "value": signed(m.value), "side": t(f"side.{m.side}"),
         "when": player_text(t, f"when.modifier.{m.name.value}", _condition_text(m.condition, t, resolved),
                             f"die roll modifier '{m.name.value}'")} for m in node.modifiers],
        "terms": _terms(resolved, t, [m.condition for m in node.modifiers])}


def _shifts(resolved: ir.Resolved, t: Labeler) -> dict[str, Any] | None:
    if resolved.shifts is None:
        return None
    node = resolved.shifts.node
    return {"per_side": node.per_side, "cites": chart_cites(resolved, node.cites, t, t("heading.shifts")),
            "entries": [
        {"name": t.name("shift", s.source.value), "maximum": s.maximum,
         "text": player_text(t, f"when.shift.{s.source.value}", _shift_text(s, t, resolved),
                             f"column shift '{s.source.value}'")}
        for s in node.shifts], "terms": _terms(resolved, t, [s.condition for s in node.shifts])}


def printed_factors(resolved: ir.Resolved) -> list[ir.UnitFactor]:
    """The strength factors a card prints: not one that multiplies by 1 (out-of-supply defense x1 changes
    nothing); a cap of 1 (`at most 1`) does change it."""
    if resolved.unit_factors is None:
        return []
    constant = Checker(resolved.vocabulary, values=numeric_values(resolved.parameters)).constant
    return [f for f in resolved.unit_factors.node.factors if f.cap or f.round_down or constant(f.factor) != 1]


def charted_parameters(resolved: ir.Resolved) -> set[str]:
    """The parameters whose values a chart of the card prints (a strength factor read from
    `supply.out_of_supply_attack_factor`, how terrains combine under the TEC): no reminder or exception prints
    them a second time."""
    factors = {node.path for f in printed_factors(resolved) for node in walk(f.factor) if isinstance(node, ir.Name)}
    codes = resolved.result_codes
    exchange = set(EXCHANGE_PARAMETERS) if printed(resolved, resolved.results) and codes is not None and any(
        _exchanges(code) for code in codes.node.codes) else set()      # the legend under the table says them
    return factors | exchange | (set(COMBINATION_PARAMETERS) if printed(resolved, resolved.terrain) else set())


def _unit_factors(resolved: ir.Resolved, t: Labeler) -> dict[str, Any] | None:
    factors = printed_factors(resolved)
    if resolved.unit_factors is None or not factors:
        return None
    node = resolved.unit_factors.node
    title = chart_title(resolved, resolved.unit_factors, t, "title.factors", node.title.value) if node.title else None
    return {"title": title, "cites": chart_cites(resolved, node.cites, t, title or t("heading.factors")), "entries": [
        {"name": t.name("factor", f.name.value), "role": t(f"role.{f.role}"), "factor": _factor_text(f, t, resolved),
         "when": player_text(t, f"when.factor.{f.name.value}", _condition_text(f.condition, t, resolved, unit=True),
                             f"strength factor '{f.name.value}'")} for f in factors],
        "terms": _terms(resolved, t, [f.condition for f in factors])}


def _adjustments(resolved: ir.Resolved, t: Labeler) -> dict[str, Any] | None:
    if resolved.adjustments is None:
        return None
    node = resolved.adjustments.node
    title = chart_title(resolved, resolved.adjustments, t, "title.adjustments", node.title.value) \
        if node.title else None
    return {"title": title, "cites": chart_cites(resolved, node.cites, t, title or t("heading.adjustments")),
            "entries": [
        {"name": t.name("adjustment", a.name.value), "result": t(f"result.{a.target}"),
         "change": signed(a.amount), "when": player_text(t, f"when.adjustment.{a.name.value}",
                                                        _condition_text(a.condition, t, resolved),
                                                        f"result adjustment '{a.name.value}'")}
        for a in node.adjustments], "terms": _terms(resolved, t, [a.condition for a in node.adjustments])}


MINUS = "\u2212"     # a true minus sign: a hyphen is not a minus on a printed chart


def difference_heading(label: str) -> str:
    """A differential column as a chart prints it: +3, −6…−5, ≤ −7, ≥ +12 (true minus signs)."""
    found = parse_difference(label)
    if found is None:
        return label
    low, high = found
    if low == high:
        return signed(low)
    if low == -OPEN_DIFFERENCE:
        return f"\u2264 {signed(high)}"
    if high == OPEN_DIFFERENCE:
        return f"\u2265 {signed(low)}"
    return f"{signed(low)}\u2026{signed(high)}"


def signed(value: int | Fraction) -> str:
    """+1, −1, 0: a signed number as a chart prints it."""
    if value < 0:
        return MINUS + fraction(Fraction(-value))
    return ("+" if value > 0 else "") + fraction(Fraction(value))


def _terms(resolved: ir.Resolved, t: Labeler, conditions: list[ir.Expr | None]) -> list[dict[str, Label]]:
    """What a chart's conditions name that a player must know to read it (ambush: a white 1...): each definition
    they read, directly, that the rulebook words for players (the label `term.NAME`), in the order first read."""
    names: dict[str, None] = {}
    for condition in conditions:
        if condition is not None:
            for node in walk(condition):
                if isinstance(node, ir.Name) and node.path in resolved.vocabulary.definitions:
                    names[node.path] = None
    return [{"name": t.name("definition", name), "text": t(f"term.{name}")} for name in names if t.has(f"term.{name}")]


def _factor_text(factor: ir.UnitFactor, t: Labeler, resolved: ir.Resolved) -> Label:
    """What a player multiplies by: a number (a parameter's value, never its id), or the factor in words; a
    cap as 'at most 1', a rounding after it as '½, rounded down'."""
    said = wording.describe(factor.factor, t, resolved, unit=True)
    if factor.cap:
        said = filled(t("value.at-most", "at most {x}"), x=said)
    if factor.round_down:
        said = filled(t("factor.rounded-down", "{x}, rounded down"), x=said)
    return said


def _condition_text(condition: ir.Expr, t: Labeler, resolved: ir.Resolved, unit: bool = False) -> Label:
    """The 'when ...' part of a chart line, in the card's words (rulesdsl.cards.wording), never as written."""
    return wording.when(condition, t, resolved, unit=unit)


def _shift_text(shift: ir.Shift, t: Labeler, resolved: ir.Resolved) -> Label:
    """A column shift in words: its amount and side, then when it applies."""
    amount = wording.shift(shift.amount, t, resolved)
    if shift.condition is None:
        return amount
    return wording.with_condition(amount, shift.condition, t, resolved)


def _tables(resolved: ir.Resolved, t: Labeler) -> list[dict[str, Any]]:
    out = []
    for effective in resolved.tables:
        node = effective.node
        head = node.header[0].value
        title = chart_title(resolved, effective, t, f"table.{node.name.value}",
                            node.title.value if node.title else node.name.value)
        out.append({"name": node.name.value, "title": title,
                    "cites": chart_cites(resolved, node.cites, t, title), "key": _value(t, head),
                    "columns": [_value(t, c.value) for c in node.header[1:]],
                    "rows": [{"label": _value(t, r[0].value), "cells": [_value(t, c.value) for c in r[1:]]}
                             for r in node.rows]})
    # tables written one after another under the same rules are one chart on the card: never on two sides
    cites = [[c.value for c in effective.node.cites] for effective in resolved.tables]
    for (before, before_cites), (table, table_cites) in zip(zip(out, cites), list(zip(out, cites))[1:]):
        if table_cites and table_cites == before_cites:
            table["follows"] = before.get("follows", before["name"])
            table["cites"] = []     # the first of them cites the rules for all
    return out


def _value(t: Labeler, cell: str) -> Label:
    """A word in a chart (company, trace) is looked up as `value.<word>`; numbers print as they are."""
    if re.fullmatch(r"[a-z][a-z-]*(?:/[a-z][a-z-]*)+", cell):  # a two-key header: row key / column key
        parts = [t.name("value", part) for part in cell.split("/")]
        return Label(" / ".join(p.text for p in parts), any(p.fallback for p in parts))
    if re.fullmatch(r"[a-z][a-z-]*", cell):
        if not t.has(f"value.{cell}") and t.has(f"state.{cell}"):   # a unit state (in-ezoc): its own words
            state = t(f"state.{cell}")
            return Label(state.text[:1].upper() + state.text[1:], state.fallback)
        return t.name("value", cell)
    return Label(cell)


# ---- the card block and the panels it drives (exceptions, reminders, swatches, optional charts) ----------
@dataclass(frozen=True)
class Swatch:
    """What a card shows beside a TEC row: a colour, and a pattern drawn over it."""

    colour: str                 # "#3a7d44"
    pattern: str = "plain"      # catalogue.CARD_PATTERNS


@dataclass(frozen=True)
class CardOptions:
    """How a rulebook's card is printed (its `card` block, or its series', or these defaults)."""

    sides: int = 2                             # the most sheet sides the card may take
    paper: str | None = None                   # preferred paper; the CLI's --paper still wins
    reminders: tuple[str, ...] = ()            # the reminders panel's topics, in order
    swatches: Mapping[str, Swatch] = field(default_factory=dict)   # declared, by terrain; others: swatch_for
    charts: tuple[str, ...] = ()               # tables printed as optional charts


def card_block(resolved: ir.Resolved) -> ir.Card | None:
    """The card block in effect: the rulebook's own, else the nearest ancestor's (resolve.NEAREST)."""
    return next((book.card[0] for book in (resolved.rulebook, *resolved.ancestors) if book.card), None)


def card_options(resolved: ir.Resolved) -> CardOptions:
    block = card_block(resolved)
    if block is None:
        return CardOptions()
    return CardOptions(
        sides=block.sides if block.sides is not None else 2,
        paper=block.paper.value if block.paper is not None else None,
        reminders=tuple(dict.fromkeys(r.value for r in block.reminders)),
        swatches={s.terrain.value: Swatch(s.colour.value.lower(), s.pattern.value if s.pattern else "plain")
                  for s in reversed(block.swatches)},   # reversed: the first of two wins (validate reports it)
        charts=tuple(dict.fromkeys(c.value for c in block.charts)))


# Colours by terrain name, as printed maps tend to have them: a name, or any of its words (light-woods,
# minor-river), finds its swatch; any other terrain gets a pale colour of its own from its name.
DEFAULT_SWATCHES: dict[str, Swatch] = {
    **dict.fromkeys(("clear", "open", "plain", "plains", "flat"), Swatch("#f3eed8")),
    **dict.fromkeys(("woods", "wood", "forest", "jungle"), Swatch("#5f9a57")),
    **dict.fromkeys(("bocage", "hedgerow", "hedgerows", "hedge"), Swatch("#86a94a", "cross")),
    **dict.fromkeys(("marsh", "swamp", "bog", "polder"), Swatch("#9cc5b5", "waves")),
    **dict.fromkeys(("rough", "broken", "badlands"), Swatch("#cdb084", "dots")),
    **dict.fromkeys(("hills", "hill", "ridge", "heights", "slope"), Swatch("#d4b27a")),
    **dict.fromkeys(("mountain", "mountains", "alpine"), Swatch("#9c7a55", "hatch")),
    **dict.fromkeys(("peaks", "peak", "summit", "glacier"), Swatch("#6e5640", "cross")),
    **dict.fromkeys(("escarpment", "cliff", "cliffs"), Swatch("#8a5a32", "hatch")),
    **dict.fromkeys(("city", "urban", "built-up", "fortress"), Swatch("#8a8a8a")),
    **dict.fromkeys(("town", "suburb"), Swatch("#ababab")),
    **dict.fromkeys(("village", "hamlet"), Swatch("#cacaca")),
    **dict.fromkeys(("river", "canal", "lake", "sea", "ocean", "water", "estuary"), Swatch("#4a86c8")),
    **dict.fromkeys(("stream", "creek", "brook", "wadi", "ford"), Swatch("#8dbbe3")),
    **dict.fromkeys(("road", "highway", "pike"), Swatch("#b8483a")),
    **dict.fromkeys(("trail", "track", "path"), Swatch("#a77f52", "dots")),
    **dict.fromkeys(("railroad", "railway", "rail"), Swatch("#3a3a3a", "hatch")),
    **dict.fromkeys(("bridge", "causeway", "dike", "dyke"), Swatch("#7d7d7d")),
    **dict.fromkeys(("desert", "sand", "dunes"), Swatch("#ead9a0", "dots")),
    **dict.fromkeys(("crops", "farm", "fields", "orchard", "vineyard"), Swatch("#e3d58a")),
    **dict.fromkeys(("entrenchment", "fort", "fortification", "bunker"), Swatch("#6d6d6d", "cross")),
}


def swatch_for(name: str, declared: Mapping[str, Swatch] | None = None) -> Swatch:
    """The swatch of a terrain: declared, else by its name or a word of it, else a pale colour of its own."""
    if declared and name in declared:
        return declared[name]
    if name in DEFAULT_SWATCHES:
        return DEFAULT_SWATCHES[name]
    for word in reversed(re.split(r"[-_.]", name)):    # minor-river: river; light-woods: woods
        if word in DEFAULT_SWATCHES:
            return DEFAULT_SWATCHES[word]
    hue = int(hashlib.sha256(name.encode("utf-8")).hexdigest()[:4], 16) % 360
    red, green, blue = colorsys.hls_to_rgb(hue / 360, 0.78, 0.45)
    return Swatch(f"#{round(red * 255):02x}{round(green * 255):02x}{round(blue * 255):02x}")


def _ink(colour: str) -> str:
    """The colour a pattern is drawn in over `colour`: dark on a light swatch, light on a dark one."""
    digits = colour.lstrip("#")
    if len(digits) == 3:
        digits = "".join(c * 2 for c in digits)
    red, green, blue = (int(digits[i:i + 2], 16) for i in (0, 2, 4))
    return "#1a1a1a" if 0.299 * red + 0.587 * green + 0.114 * blue > 140 else "#f4f4f4"


def swatches(resolved: ir.Resolved, t: Labeler, options: CardOptions | None = None) -> dict[str, dict[str, str]]:
    """Each TEC terrain's swatch, keyed by the name the card prints for it (the TEC rows' `name`)."""
    if resolved.terrain is None or not printed(resolved, resolved.terrain):
        return {}
    declared = (options or card_options(resolved)).swatches
    out = {}
    for row in resolved.terrain.node.rows:
        swatch = swatch_for(row.name.value, declared)
        out[t.name("terrain", row.name.value).text] = {"terrain": row.name.value, "colour": swatch.colour,
                                                        "pattern": swatch.pattern, "ink": _ink(swatch.colour)}
    return out


def rule_ref(resolved: ir.Resolved, rule_id: str, t: Labeler) -> str:
    """What a player looks up: a numbered rule's number, an unnumbered section's title in the card's language
    (label `rule.ID.title`)."""
    found = next((e.node for e in resolved.rules if e.node.id.value == rule_id), None)
    if found is None or found.numbered or found.title is None:
        return rule_id
    return t(f"rule.{rule_id.lower()}.title", found.title.value).text


def _refs(resolved: ir.Resolved, cites: tuple[ir.Text, ...], t: Labeler) -> str:
    """A chart's citations as a player looks them up: its numbered rules (7.4), or else its first section's
    title."""
    numbered = [c.value for c in cites if re.match(r"[A-Z]*[0-9]", c.value)]
    return ", ".join(numbered or [rule_ref(resolved, c.value, t) for c in cites[:1]])


def _param_value(value: object, t: Labeler) -> Label:
    """A parameter's typed value as a player reads it: 2 MP, ½, yes, rightmost, A1 (marked where a word is
    shown in English)."""
    if isinstance(value, bool):
        return t("value.yes" if value else "value.no", "yes" if value else "no")
    if isinstance(value, Quantity):
        amount = ("+" if value.signed and value.amount >= 0 else "") + fraction(value.amount)
        if value.unit is None:
            return Label(amount)
        one = value.amount in (1, -1)
        unit = t(f"unit.{value.unit.lower()}.one", value.unit) if one else \
            t(f"unit.{value.unit.lower()}", PLURALS.get(value.unit, value.unit))
        return Label(f"{amount} {unit.text}", unit.fallback)
    if isinstance(value, Fraction):
        return Label(fraction(value))
    if isinstance(value, int):
        return Label(str(value))
    if isinstance(value, tuple):
        parts = [_param_value(v, t) for v in value]
        return Label(", ".join(p.text for p in parts), any(p.fallback for p in parts))
    if isinstance(value, str) and re.fullmatch(r"[a-z][a-z0-9-]*", value):
        return t(f"value.{value}", value.replace("-", " "))     # rightmost, away from combat
    return Label(str(value))     # a result code: A1


_EVERY_TURN = object()     # _param_line's value: the parameter's value on every turn not otherwise said


def _param_line(resolved: ir.Resolved, t: Labeler, name: str, stated: bool = False,
                value: object = _EVERY_TURN) -> dict[str, Any] | None:
    """A parameter in effect as a card line: what it means (its label, else its declared meaning), its value
    (`value`, one of its values on some turns only, else the value of every other turn) and its rule; None
    when the rulebook does not set it."""
    found = next((p for p in resolved.parameters if p.name == name), None)
    if found is not None and value is not _EVERY_TURN:
        found = replace(found, value=value)
    if found is None or found.value is None:
        return None
    declared = resolved.declared.get(name)
    meaning = declared.meaning if declared is not None else name
    rule = rule_ref(resolved, found.rule, t)
    said_on_crt = _OFF_TABLE.get((name, str(found.value)))
    if stated and said_on_crt is not None:          # in the words the CRT's legend says it in
        return {"name": name, "meaning": t(said_on_crt), "value": None, "rule": rule}
    combination = _combination_statement(resolved, t, name, found.value) if stated else None
    if combination is not None:                     # how terrains combine, as the rule says it
        return {"name": name, "meaning": combination, "value": None, "rule": rule}
    if stated and isinstance(found.value, bool):    # a reminder states the rule, not "whether ...: yes"
        said = "yes" if found.value else "no"
        if t.has(f"statement.{name}.{said}"):
            return {"name": name, "meaning": t(f"statement.{name}.{said}"), "value": None, "rule": rule}
        if t.lang == "en":      # the sentence is made of the English meaning: another language labels it
            sentence = statement(meaning, found.value)
            if sentence is not None:
                return {"name": name, "meaning": Label(sentence), "value": None, "rule": rule}
            t.unplain[f"reminder '{name}'"] = (f"statement.{name}.{said}", f"{meaning}: {said}", None)
    label = t(f"param.{name}", meaning[:1].upper() + meaning[1:])
    return {"name": name, "meaning": label, "value": _param_value(found.value, t), "rule": rule}


def _param_lines(resolved: ir.Resolved, t: Labeler, name: str, stated: bool = False) -> list[dict[str, Any]]:
    """A parameter in effect as card lines: its line (`_param_line`), then a line for each of its values on
    some game turns only, saying which turns in players' words: 'On night turns (3, 6, 9, 12): +0 MP'."""
    line = _param_line(resolved, t, name, stated)
    if line is None:
        return []
    found = next(p for p in resolved.parameters if p.name == name)
    sets = {s.name.value: s for s in resolved.sequence.node.turn_sets} if resolved.sequence is not None else {}
    lines = [line]
    for limited in found.on_turns:
        turns = wording.phase_turns(limited.turns, sets, t, value=True)
        turns = Label(turns.text[:1].upper() + turns.text[1:], turns.fallback)
        said = _param_line(resolved, t, name, stated, value=limited.value)
        rule = rule_ref(resolved, limited.rule, t)
        if said is None:
            continue
        if said["value"] is None:      # a rule stated in a sentence: the turns, then the sentence
            lines.append({**said, "meaning": Label(f"{turns.text}: {said['meaning'].text}",
                                                   turns.fallback or said["meaning"].fallback), "rule": rule})
        else:
            lines.append({**said, "meaning": turns, "rule": rule})
    return lines


def _changes_nothing(resolved: ir.Resolved, name: str) -> bool:
    """Whether a parameter in effect is a multiplier of 1 (out-of-supply defense x1), or a forced attack's
    below-table result that is every attack's: a line that changes nothing is left off the card."""
    found = next((p for p in resolved.parameters if p.name == name), None)
    if found is not None and name == "combat.below_table_forced":     # a forced attack reads as any other
        below = next((p for p in resolved.parameters if p.name == "combat.below_table"), None)
        return below is not None and found.value == below.value
    declared = resolved.declared.get(name)
    return (found is not None and declared is not None and "multiplied" in declared.meaning
            and not isinstance(found.value, bool) and isinstance(found.value, (int, Fraction)) and found.value == 1)


# off-table attacks, stated as the CRT's legend states them (crt.* labels), wherever the card says them
_OFF_TABLE = {("combat.above_table", "rightmost"): "crt.above", ("combat.below_table", "leftmost"): "crt.below-leftmost",
              ("combat.below_table_forced", "leftmost"): "crt.forced-leftmost"}

# the modals a "no" negates; any other verb may stand in a clause of its own ("a unit is marked"), so a
# flag set to no that has none of them asks for player text
# a flag set to no negates its modal: what must be done need not be (not "must not": that would forbid it)
_NEGATED = {"may": "may not", "can": "cannot", "must": "need not", "will": "will not", "should": "should not"}


def statement(meaning: str, value: bool) -> str | None:
    """A flag's meaning ("whether a unit may ...") as the rule its value states: "A unit may ..." or
    "A unit may not ..."; None when the meaning is not a whether-clause, or is set to no and has no modal
    to negate."""
    found = re.fullmatch(r"(?i:whether),?\s+(.+?)\.?", meaning.strip())
    if found is None:
        return None
    clause = found.group(1)
    if not value:
        verb = re.search(r"\b(" + "|".join(_NEGATED) + r")\b", clause)
        if verb is None:
            return None
        clause = clause[:verb.start()] + _NEGATED[verb.group(1)] + clause[verb.end():]
    return clause[:1].upper() + clause[1:] + "."


REMINDER_HEADINGS = {"odds": "Odds and rounding", "zoc": "Zones of control", "overrun": "Overrun",
                     "retreat": "Losses and retreat", "advance": "Advance after combat", "supply": "Out of supply",
                     "stacking": "Stacking", "reaction": "Reaction",
                     "attack": "Who may attack", "movement": "Movement"}



def _odds_lines(resolved: ir.Resolved, t: Labeler) -> list[dict[str, Any]]:
    """The odds and rounding reminder: how the ratio is rounded, read from the rounding rule in effect."""
    if resolved.rounding is None:
        return []
    node = resolved.rounding.node
    refs = _refs(resolved, node.cites, t)
    if resolved.favour_defender:
        text = t("reminder.odds-defender", "Odds round down, in the defender's favour")
    elif resolved.threshold == 1:
        text = t("reminder.odds-down", "Odds and fractions round down")
    elif resolved.threshold == 0:
        text = t("reminder.odds-up", "Fractions round up")
    else:
        template = t("reminder.odds-threshold", "Fractions of {n} or more round up, smaller ones down")
        text = filled(template, n=fraction(resolved.threshold or Fraction(1, 2)))
    lines = [{"name": "rounding", "meaning": t("reminder.odds-ratio", "Odds: total attack ÷ total defense"),
              "value": None, "rule": refs},
             {"name": "rounding", "meaning": text, "value": None, "rule": refs}]
    if any(c.value.split() == ["keep", "fractions"] for c in node.spec):
        kept = t("reminder.keep-fractions", "Fractions are kept until the odds are worked out")
        lines.append({"name": "keep-fractions", "meaning": kept, "value": None, "rule": refs})
    return lines


def reminders(resolved: ir.Resolved, t: Labeler, options: CardOptions | None = None) -> list[dict[str, Any]]:
    """The reminders panel: for each topic the card block lists, the values in effect with their rules."""
    out = []
    # the CRT's own legend says what an attack off either end of it does: no reminder says it again
    said_by_crt = {"combat.below_table", "combat.below_table_forced", "combat.above_table"} \
        if printed(resolved, resolved.results) else set()
    # nor what a chart prints (the strength factors' values) or the exceptions panel states (a value the title
    # set): each value is printed once
    said_elsewhere = said_by_crt | charted_parameters(resolved) | stated_as_exceptions(resolved)
    for topic in (options or card_options(resolved)).reminders:
        lines = _odds_lines(resolved, t) if topic == "odds" else []
        lines += [line for name in catalogue.REMINDER_PARAMETERS.get(topic, ()) if name not in said_elsewhere
                  and not _changes_nothing(resolved, name)
                  for line in _param_lines(resolved, t, name, stated=True)]
        lines += _effect_lines(resolved, t, topic)
        if lines:
            out.append({"topic": topic, "heading": t(f"reminder.{topic}", REMINDER_HEADINGS[topic]), "lines": lines})
    return out


def _effect_lines(resolved: ir.Resolved, t: Labeler, topic: str) -> list[dict[str, Any]]:
    """The effects of the rules in effect on the questions `topic` prints, each an order in players' words:
    the rulebook's own words where it gives them (label `effect.RULE.N`, N counting the rule's effects from
    1), else the compiler's; an effect it cannot say is printed as its rule's summary and warned of."""
    out: list[dict[str, Any]] = []
    for effective in resolved.rules:
        node = effective.node
        for n, effect in enumerate(node.effects, 1):
            question = QUESTIONS.get(effect.question.value)
            if question is None or question.topic != topic:
                continue
            key = f"effect.{node.id.value.lower()}.{n}"
            value = None if effect.amount is None else _amount(resolved, effect.amount, question.unit, t)
            said = t(key) if t.has(key) else wording.effect_sentence(effect, t) if question.word == "allowance" \
                else wording.effect_where(effect, t) if effect.kind in (ir.EffectKind.COST, ir.EffectKind.STOP) \
                else wording.effect_sentence(effect, t)
            if said is None and effect.kind is ir.EffectKind.FORBID:     # a forbid of hexes: 'No advance into ...'
                said = wording.effect_where(effect, t)
            if said is None:
                t.unplain[f"effect {n} of rule {node.id.value}"] = (key, effect.text, effect.span)
                summary = node.summary.value if node.summary is not None else effect.text
                said = t(f"rule.{node.id.value.lower()}.summary", summary)
            out.append({"name": key, "meaning": said, "value": value, "rule": rule_ref(resolved, node.id.value, t)})
    return out


def _amount(resolved: ir.Resolved, amount: ir.EffectAmount, unit: str | None, t: Labeler) -> Label:
    """A `cost` effect's amount as the card prints it: +1 MP, 3 MP, at least 1 MP, at most 6 MP, +2 hexes,
    ×½ rounded down; a parameter's amount is its value in effect."""
    value = amount.value
    if amount.parameter is not None:
        found = next((p.value for p in resolved.parameters if p.name == amount.parameter.value), None)
        value = found.amount if isinstance(found, Quantity) else Fraction(found) \
            if isinstance(found, (int, Fraction)) and not isinstance(found, bool) else None
    if value is None:       # a parameter checks/resolve.py let through unset: the card says which
        return Label(amount.parameter.value if amount.parameter is not None else "?", True)
    if amount.how is ir.AmountHow.TIMES:
        said = Label("×" + fraction(Fraction(value)))
        return filled(t("factor.rounded-down", "{x}, rounded down"), x=said) if amount.rounded_down else said
    counted = amount.unit.value if amount.unit is not None and amount.unit.value in ("hex", "hexes") else unit
    said = _param_value(Quantity(Fraction(value), "hex" if counted == "hexes" else counted,
                                 signed=amount.how is ir.AmountHow.ADD), t)
    if amount.how is ir.AmountHow.AT_LEAST:
        return filled(t("value.at-least", "at least {x}"), x=said)
    if amount.how is ir.AmountHow.AT_MOST:
        return filled(t("value.at-most", "at most {x}"), x=said)
    return said


_CHART_NOUNS = {"sequence": "heading.sequence-of-play", "terrain": "heading.terrain-effects",
                "results": "heading.combat-results", "result_codes": "crt.legend", "modifiers": "heading.modifiers",
                "shifts": "heading.shifts", "adjustments": "heading.adjustments", "unit_factors": "heading.factors"}


def _excepted_rules(resolved: ir.Resolved) -> Iterator[tuple[ir.Effective[ir.Rule], str, list[str]]]:
    """The rules this title replaces or amends, each with how and the parameters it sets."""
    me = resolved.id
    if not resolved.ancestors or resolved.rulebook.kind.value != "game":
        return      # a series variant (New SCS) is a whole rulebook to its players, not a list of exceptions
    for effective in resolved.rules:
        node = effective.node
        amended = [a for a in effective.amended if a.origin == me]
        if effective.origin == me and node.override:
            yield effective, "replaced", [p.name.value for p in node.parameters]
        elif amended:
            # a value on some turns only ('zoc.entry_cost on night') is stated with its parameter
            yield effective, "amended", list(dict.fromkeys(a.key.split(" ", 1)[0] for a in amended
                                                           if a.key != "(summary)"))


def stated_as_exceptions(resolved: ir.Resolved) -> set[str]:
    """The parameters the exceptions panel states (those the title's own rules set)."""
    return {name for _, _, names in _excepted_rules(resolved) for name in names} - charted_parameters(resolved)


def exceptions(resolved: ir.Resolved, t: Labeler) -> list[dict[str, Any]]:
    """This title's exceptions to the rulebooks it extends: each rule it amends or replaces, with its number,
    its summary and the values it sets in players' words, and each chart it replaces or amends."""
    if not resolved.ancestors or resolved.rulebook.kind.value != "game":
        return []       # a series variant (New SCS) is a whole rulebook to its players, not a list of exceptions
    return [*_rule_exceptions(resolved, t), *_own_rules(resolved, t), *_chart_exceptions(resolved, t)]


def _rule_exceptions(resolved: ir.Resolved, t: Labeler) -> list[dict[str, Any]]:
    """The series' rules this title replaces or amends: each with its title, its summary when the title
    rewrites it, and the values it sets that no chart prints, beside the series' value they change."""
    me = resolved.id
    out: list[dict[str, Any]] = []
    charted = charted_parameters(resolved)
    for effective, kind, names in _excepted_rules(resolved):
        node = effective.node
        amended = [a for a in effective.amended if a.origin == me]
        rule = node.id.value
        title = t(f"rule.{rule.lower()}.title", node.title.value) if node.title is not None else None
        summary = t(f"rule.{rule.lower()}.summary", node.summary.value) if node.summary is not None and (
            kind == "replaced" or any(a.key == "(summary)" for a in amended)) else None
        values = [line for name in names if name not in charted
                  for line in _param_lines(resolved, t, name, stated=True)]
        for line in values:
            series = _inherited_value(resolved, rule, line["name"], t)
            # a flag stated as its rule needs no series value beside it: the rule is marked amended
            line["series"] = series if series is not None and line["value"] is not None \
                and series.text != line["value"].text else None
        out.append({"rule": rule_ref(resolved, rule, t), "title": title, "kind": kind,
                    "kind_label": t(f"exceptions.{kind}", kind), "summary": summary, "settings": values})
    return out


def _own_rules(resolved: ir.Resolved, t: Labeler) -> list[dict[str, Any]]:
    """The title's own rules that no chart prints and the series has not: what a rule like "bocage hexes are
    closed to overruns" says."""
    series_rules = {rule.id.value for book in resolved.ancestors for rule in book.rules}
    out: list[dict[str, Any]] = []
    for effective in resolved.rules:
        node = effective.node
        rule = node.id.value
        if effective.origin != resolved.id or rule in series_rules or node.parameters or node.summary is None:
            continue
        out.append({"rule": rule_ref(resolved, rule, t),
                    "title": t(f"rule.{rule.lower()}.title", node.title.value) if node.title is not None else None,
                    "kind": "own", "kind_label": t("exceptions.own", "own rule"),
                    "summary": t(f"rule.{rule.lower()}.summary", node.summary.value), "settings": []})
    return out


def _chart_exceptions(resolved: ir.Resolved, t: Labeler) -> list[dict[str, Any]]:
    """The charts this title puts in place of the series' (replaced) and those it amends, with the items
    its amendment changes."""
    me = resolved.id
    out: list[dict[str, Any]] = []
    for field_name, noun in _CHART_NOUNS.items():
        chart = getattr(resolved, field_name, None)
        if not isinstance(chart, ir.Effective):
            continue
        # a chart put in place of one the series only illustrates its examples with (`for examples`) is no
        # exception to the series' rules: the series' players have no such chart
        inherited = any(not getattr(c, "for_examples", False)
                        for book in resolved.ancestors for c in getattr(book, field_name))
        cites = _refs(resolved, getattr(chart.node, "cites", ()), t)
        name = t(noun)
        if chart.origin == me and inherited:
            out.append({"rule": cites or name.text, "title": name, "kind": "replaced",
                        "kind_label": _chart_kind(t, "replaced", field_name), "summary": None, "settings": []})
        own = [a for a in chart.amended if a.origin == me]
        if own:
            # the rules the title's own amendment cites (its G1.2), else the chart's
            mine = [b for b in getattr(resolved.rulebook, field_name) if getattr(b, "amend", False)]
            cites = (_refs(resolved, mine[0].cites, t) if mine and mine[0].cites else "") or cites
            out.append({"rule": cites or name.text, "title": name, "kind": "amended",
                        "kind_label": _chart_kind(t, "amended", field_name), "summary": None,
                        "settings": [_amended_item(field_name, a, t, resolved) for a in own]})
    return out


def _chart_kind(t: Labeler, kind: str, field_name: str) -> Label:
    """'amended' or 'replaced' said of a chart: a language whose words agree with the chart's name (French:
    le tableau modifié, les modificateurs modifiés) labels each chart's kind; the rule's word otherwise."""
    specific = f"exceptions.{kind}.{field_name}"
    return t(specific) if t.says(specific) else t(f"exceptions.{kind}", kind)


def _amended_item(field_name: str, amended: ir.Amended, t: Labeler, resolved: ir.Resolved) -> dict[str, Any]:
    """One item of a chart the title amends: a terrain row or cell, a phase of a turn, a CRT cell or column, a
    die roll modifier (in the words its chart prints) or their cap."""
    text = amended.text
    found = next((m for m in resolved.modifiers.node.modifiers if m.name.value == amended.key), None) \
        if field_name == "modifiers" and resolved.modifiers is not None else None
    if field_name == "modifiers" and resolved.modifiers is not None and amended.key == "cap":
        return {"name": amended.key, "meaning": t("modifiers.cap"),
                "value": Label(f"±{resolved.modifiers.node.cap}"), "rule": ""}
    if found is not None:
        side = t(f"side.{found.side}")
        when = player_text(t, f"when.modifier.{found.name.value}", _condition_text(found.condition, t, resolved),
                           f"die roll modifier '{found.name.value}'")
        return {"name": amended.key, "meaning": t.name("modifier", amended.key),
                "value": Label(f"{signed(found.value)} {side.text}, {when.text}", side.fallback or when.fallback),
                "rule": ""}
    if field_name == "terrain":     # "woods" or "woods combat": "woods: combat 2L"
        name = amended.key.split(" ", 1)[0]
        meaning = t.name("terrain", name)
        text = text[len(name) + 2:] if text.startswith(f"{name}: ") else text
    elif field_name == "results" and " x " in amended.key:      # "3:1 x 4": "D2r2", a cell
        column, _, roll = amended.key.partition(" x ")
        meaning = filled(t("exceptions.crt-cell", "{column} column, roll {roll}"), column=column, roll=roll)
    elif field_name == "results" and amended.key.endswith(" column"):   # "7:1 column": its results, by roll
        meaning = filled(t("exceptions.crt-column", "new {column} column"), column=amended.key[:-len(" column")])
    else:                           # "player turn soviet: movement": "movement [3.0] ..."
        meaning = Label(amended.key)
        phase = amended.key.split(": ", 1)[-1]
        for prefix in (f"{amended.key}: ", f"{phase} "):
            text = text[len(prefix):] if text.startswith(prefix) else text
    return {"name": amended.key, "meaning": meaning, "value": Label(text), "rule": ""}


def optional_charts(resolved: ir.Resolved, t: Labeler, options: CardOptions | None = None) -> list[dict[str, Any]]:
    """The tables the card block prints as charts of their own: a one-row table as a track of boxes (a turn
    record track), any other as a schedule."""
    tables = {e.node.name.value: e for e in resolved.tables}
    out = []
    for name in (options or card_options(resolved)).charts:
        effective = tables.get(name)
        if effective is None:
            continue
        node = effective.node
        title = chart_title(resolved, effective, t, f"table.{name}", node.title.value if node.title else name)
        boxes = [{"key": c.value, "cells": [_value(t, r[i + 1].value) for r in node.rows if i + 1 < len(r)]}
                 for i, c in enumerate(node.header[1:])]
        out.append({"name": name, "title": title, "cites": [c.value for c in node.cites],
                    "track": len(node.rows) <= 2, "key": _value(t, node.header[0].value),
                    "labels": [_value(t, r[0].value) for r in node.rows], "boxes": boxes})
    return out


def _inherited_value(resolved: ir.Resolved, rule: str, name: str, t: Labeler) -> Label | None:
    """What the nearest rulebook this one extends sets `name` to in rule `rule`, in players' words: the value
    the title's exception replaces; None when no ancestor's rule sets it."""
    for book in resolved.ancestors:
        for node in book.rules:
            if node.id.value != rule:
                continue
            for parameter in node.parameters:
                if parameter.name.value == name:
                    value = parameter.value
                    if isinstance(value, ir.Quantity):
                        unit = UNIT_SPELLINGS.get(value.unit.value, value.unit.value) if value.unit else None
                        return _param_value(Quantity(value.amount, unit, value.signed), t)
                    if isinstance(value, ir.Words):
                        words = [w.value for w in value.words]
                        if words in (["yes"], ["no"]):
                            return _param_value(words == ["yes"], t)
                        parts = [_param_value(w, t) for w in words]
                        return Label(", ".join(p.text for p in parts), any(p.fallback for p in parts))
                    return Label(value.value)
    return None


def _panels(resolved: ir.Resolved, t: Labeler) -> dict[str, Any]:
    """What the card block drives, and the exceptions panel every title with a series gets."""
    options = card_options(resolved)
    charts_ = optional_charts(resolved, t, options)
    reminded = reminders(resolved, t, options)
    return {"exceptions": exceptions(resolved, t), "reminders": reminded, "cites_width": _cites_width(reminded),
            "swatches": swatches(resolved, t, options), "charts": charts_,
            "chart_names": [chart["name"] for chart in charts_],   # printed here, not among the other tables
            "sides": options.sides, "paper": options.paper,
            "headings": {"exceptions": t("heading.exceptions", "This title's exceptions to the series"),
                         "reminders": t("heading.reminders", "Reminders"),
                         "series": t("exceptions.series", "series:"),
                         "colon": t("exceptions.colon", ":")}}


def _cites_width(topics: list[dict[str, Any]]) -> int:
    """The width (mm) of the reminders' rule column, one for every topic's table so that the meanings align:
    12 mm, enough for rule numbers and a section's title wrapped at its spaces, widened to the longest word
    any line cites ("Mouvement"), up to 19 mm; about 1.5 mm a character at the card's 7 pt."""
    words = [len(word) for topic in topics for line in topic["lines"] for word in str(line["rule"]).split()]
    return min(19, max(12, -(-max(words, default=0) * 3 // 2)))


_ENV = Environment(loader=PackageLoader("rulesdsl.cards", "templates"), undefined=StrictUndefined,
                   autoescape=select_autoescape(["html", "j2"], default=True), trim_blocks=True, lstrip_blocks=True)


def render_html(data: dict[str, Any]) -> str:
    assert _ENV.loader is not None
    css = _ENV.loader.get_source(_ENV, "card.css")[0] + _ENV.loader.get_source(_ENV, "card-panels.css")[0]
    # a control character from a rulebook (NUL, ESC ...) is shown as an escape, never printed raw
    return visible_lines(typeset(_ENV.get_template("card.html.j2").render(data, css=css), data["lang"]))


def _nothing(resolved: ir.Resolved, t: Labeler) -> None:
    return None


# What the card shows of each kind of statement (tests/test_walk.py checks every kind is here): the key
# of its section in the card data and the function that builds it, or None where a kind prints no
# section of its own.
SECTIONS: dict[type, tuple[str | None, Callable[[ir.Resolved, Labeler], Any]]] = {
    ir.Rule: (None, _nothing),               # rules print only as the parameters charts read (stacking)
    ir.UnitTypes: (None, _nothing),          # read by the conditions the charts print
    ir.Vocabulary: (None, _nothing),         # the words conditions use
    ir.ParameterDeclarations: (None, _nothing),   # what parameters mean: printed where a parameter is
    ir.Rounding: (None, _nothing),           # folded into the outcome odds
    ir.Labels: (None, _nothing),             # how every section prints: label_layers
    ir.Example: (None, _nothing),            # worked examples are checked by `rulesdsl check`, not printed
    ir.SequenceOfPlay: ("sequence", _sequence),
    ir.TerrainChart: ("terrain", _terrain),
    ir.ResultsTable: ("results", lambda resolved, t: _results(resolved, t, {p.name: p for p in resolved.parameters})),
    ir.ResultCodes: ("codes", _codes),
    ir.Modifiers: ("modifiers", _modifiers),
    ir.Shifts: ("shifts", _shifts),
    ir.UnitFactors: ("factors", _unit_factors),
    ir.Adjustments: ("adjustments", _adjustments),
    ir.LookupTable: ("tables", _tables),
    ir.Card: ("panels", _panels),           # the card block: reminders, swatches, charts; and the exceptions
}
