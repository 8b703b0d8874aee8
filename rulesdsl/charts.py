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

import re
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Callable

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from . import __version__, codes as result_codes, ir
from .errors import Diagnostic
from .outcomes import Odds, column_odds, number, percent
from .runtime.model import Quantity

PAPERS = {"a4": ("210mm", "297mm"), "letter": ("8.5in", "11in")}
LANGS = ("en", "fr")


@dataclass(frozen=True)
class Label:
    text: str
    fallback: bool = False     # shown in English because the chosen language lacks it


@dataclass
class Labeler:
    """Looks up printed words: the rulebook chain's labels, then the project's; English as the fallback."""

    lang: str
    layers: list[dict[str, dict[str, str]]]        # nearest first: {lang: {key: text}}
    missing: dict[str, None] = field(default_factory=dict)

    def _find(self, lang: str, key: str) -> str | None:
        for layer in self.layers:
            if key in layer.get(lang, {}):
                return layer[lang][key]
        return None

    def __call__(self, key: str, english: str | None = None) -> Label:
        text = self._find(self.lang, key)
        if text is not None:
            return Label(text)
        fallback = self._find("en", key) or english
        if fallback is None:
            self.missing[key] = None
            return Label(key, True)
        if self.lang != "en":
            self.missing[key] = None
            return Label(fallback, True)
        return Label(fallback)

    def name(self, kind: str, name: str) -> Label:
        """A rulebook name (terrain, phase, activity...): English is the name itself, written out."""
        return self(f"{kind}.{name}", name.replace("-", " ").replace("_", " ").capitalize())


def label_layers(resolved: ir.Resolved, project: dict[str, dict[str, str]]) -> list[dict[str, dict[str, str]]]:
    layers = []
    for book in (resolved.rulebook, *resolved.ancestors):
        layer: dict[str, dict[str, str]] = {}
        for block in book.labels:
            layer.setdefault(block.lang.value, {}).update({k.value: v.value for k, v in block.labels})
        layers.append(layer)
    layers.append(project)
    return layers


def languages(resolved: ir.Resolved) -> tuple[str, ...]:
    """English, and every language the rulebook or the series it extends has labels for."""
    found = {"en"}
    for book in (resolved.rulebook, *resolved.ancestors):
        found |= {block.lang.value for block in book.labels}
    return tuple(lang for lang in LANGS if lang in found)


# ---- how cells print -------------------------------------------------------------
_GLYPHS = {Fraction(1, 2): "½", Fraction(1, 4): "¼", Fraction(3, 4): "¾", Fraction(1, 3): "⅓",
           Fraction(2, 3): "⅔", Fraction(3, 2): "1½"}


def fraction(value: Fraction) -> str:
    if value in _GLYPHS:
        return _GLYPHS[value]
    if value.denominator == 1:
        return str(value.numerator)
    whole, rest = divmod(value.numerator, value.denominator)
    return (f"{whole}" if whole else "") + _GLYPHS.get(Fraction(rest, value.denominator), f"{rest}/{value.denominator}")


def movement_text(cell: ir.MovementCell, t: Labeler) -> list[str | Label]:
    amount = cell.amount if cell.amount is not None else Fraction(0)
    if cell.kind == "cost":
        return [fraction(amount)]
    if cell.kind == "add":
        return ["+" + fraction(amount)]
    if cell.kind == "prohibited":
        return ["P"]
    if cell.kind == "other":
        return ["ot"]
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
    return " ".join(parts)


def combat_card_text(cell: ir.CombatCell, t: Labeler) -> list[str | Label]:
    """The combat cell as the card prints it, with a DRM and the all-across qualifier in words."""
    text = combat_text(replace(cell, drm=0, across=ir.Crossing.ANY))
    parts: list[str | Label] = [text] if text else []
    if cell.drm:
        parts += [" " if parts else "", f"{cell.drm:+d}".replace("-", "\u2212"), " ", t("tec.drm", "DRM")]
    if cell.across == ir.Crossing.ALL:
        parts += [" (", t("tec.all-across", "only when every attacker is across"), ")"]
    return parts


# ---- the card ------------------------------------------------------------------------
def card(resolved: ir.Resolved, lang: str, project_labels: dict[str, Any], paper: str = "a4") -> tuple[dict[str, Any], list[Diagnostic]]:
    t = Labeler(lang, label_layers(resolved, project_labels))
    book = resolved.rulebook
    params = {p.name: p for p in resolved.parameters}
    data: dict[str, Any] = {
        "lang": lang, "paper": paper, "size": PAPERS[paper], "version": __version__,
        "title": book.title.value, "id": book.id.value,
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
                            "unit": t.name("unit", stacking.value.unit or ""), "rule": stacking.rule}
    data["own"] = _own(resolved, data)
    warnings = []
    if t.missing:
        keys = ", ".join(t.missing)
        warnings.append(Diagnostic(
            f"{len(t.missing)} label{'s' if len(t.missing) != 1 else ''} missing in '{lang}', shown in English on "
            f"the {book.id.value} card: {keys}", book.id.span,
            f"add them to a 'labels {lang}' block", severity="warning"))
    data["missing"] = list(t.missing)
    return data, warnings


_CHROME = [
    "card.series", "card.game", "card.version", "card.extends", "card.fallback",
    "heading.sequence-of-play", "heading.game-turn", "heading.player-turn", "heading.terrain-effects",
    "heading.combat-results", "heading.modifiers", "heading.shifts", "heading.stacking", "heading.tables",
    "heading.outcomes", "heading.defender-side", "heading.attacker-side",
    "column.phase", "column.rules", "column.activities", "column.terrain", "column.movement", "column.combat",
    "column.level", "column.line", "column.roll", "column.odds", "column.defense", "column.modifier",
    "column.side", "column.when", "column.source", "column.shift", "column.maximum",
    "section.hex", "section.hexside", "section.road",
    "legend.title", "legend.prohibited", "legend.other-terrain", "legend.attacker", "legend.defender",
    "legend.no-effect", "legend.left", "legend.right",
    "crt.legend", "crt.steps-first", "crt.retreat-first", "crt.breakthrough", "crt.no-effect",
    "crt.above", "crt.below-result", "crt.below-leftmost", "crt.dice",
    "outcome.defender-step", "outcome.defender-retreat", "outcome.defender-steps", "outcome.attacker-steps",
    "outcome.attacker-step", "outcome.note", "outcome.by-drm",
    "side.attacker", "side.defender", "side.both", "stacking.text", "modifiers.cap", "shifts.per-side",
    "player-turn", "side-turn", "heading.factors", "heading.adjustments", "column.factor", "column.multiplies",
    "column.result", "column.change", "heading.own",
]


def _amended_parameter(resolved: ir.Resolved, amended: ir.Amended) -> str:
    """An amended parameter as a player reads it: what its declaration says it means, then its value."""
    entry = resolved.declared.get(amended.key)
    if entry is None:
        return f"{amended.key} = {amended.text}"
    meaning = entry.meaning
    return f"{meaning[:1].upper()}{meaning[1:]}: {amended.text}"


def _own(resolved: ir.Resolved, data: dict[str, Any]) -> list[dict[str, str]]:
    """The items the game's own amendments changed, listed on the card; its CRT cells and TEC rows are
    marked where they are printed."""
    me = resolved.id
    out = [{"where": f"{e.node.id.value}", "text": _amended_parameter(resolved, a) if a.key != "(summary)" else a.text}
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
    out: dict[str, Any] = {"cites": [c.value for c in node.cites], "game_turn": [], "player_turns": []}
    by_side = any(block.side is not None for block in node.blocks)
    sequence = resolved.sequence
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
                         "cites": [c.value for c in item.cites],
                         "activities": [t.name("activity", a.value) for a in item.activities],
                         "note": t(f"note.{item.name.value}", item.note.value) if item.note else None}
            phases.append(entry)
        if block.kind.value == "game":
            out["game_turn"].extend(phases)
        else:
            side = t.name("player-turn", block.side.value) if block.side is not None else None
            out["player_turns"].append({"side": side, "phases": phases})
    return out


def _terrain(resolved: ir.Resolved, t: Labeler) -> dict[str, Any] | None:
    if resolved.terrain is None:
        return None
    node = resolved.terrain.node
    terrain = resolved.terrain

    def own(key: str) -> bool:
        """An item the game's own amendment gives: a row (its name), or one cell (`woods combat`)."""
        return terrain.item_origin(key) == resolved.id != terrain.origin

    sections = []
    for kind in ("hex", "road", "hexside"):
        rows = [{"name": t.name("terrain", r.name.value), "movement": movement_text(r.movement, t),
                 "own": own(r.name.value), "movement_own": own(f"{r.name.value} movement"),
                 "combat_own": own(f"{r.name.value} combat"),
                 "combat": combat_card_text(r.combat, t), "level": r.level,
                 "line": t.name("line", r.line.value) if r.line else None}
                for r in node.rows if r.kind == kind]
        if rows:
            sections.append({"heading": t(f"section.{kind}"), "rows": rows})
    has_level = any(r.level is not None for r in node.rows)
    has_line = any(r.line is not None for r in node.rows)
    return {"title": t("title.terrain", node.title.value) if node.title else None,
            "cites": [c.value for c in node.cites],
            "sections": sections, "has_level": has_level, "has_line": has_line}


def _results(resolved: ir.Resolved, t: Labeler, params: dict[str, ir.EffectiveParameter]) -> dict[str, Any] | None:
    if resolved.results is None:
        return None
    node = resolved.results.node
    block = resolved.result_codes.node if resolved.result_codes is not None else None
    notation = result_codes.family(block, node)
    codes = result_codes.declared(block) or None
    rows = {r.label.value: tuple(c.value for c in r.cells) for r in node.rows}
    columns = [c.value for c in node.columns]
    cap = resolved.modifiers.node.cap if resolved.modifiers is not None else None
    outcome = []
    every = [column_odds(node.dice.value, rows, index, notation, codes=codes) for index in range(len(columns))]
    for column, odds in zip(columns, every):
        outcome.append({"column": column, "defender_step": percent(odds.defender_loses_step),
                        "defender_retreat": percent(odds.defender_retreats),
                        "defender_steps": number(odds.defender_steps),
                        "attacker_steps": number(odds.attacker_steps)})
    # odds only declared meanings give, shown when some column has them: a row for every outcome a declared
    # code can give (codes.meaning): losses, retreats, advances, states, exchange, breakthrough, no effect,
    # not allowed
    states = dict.fromkeys((side, state) for odds in every for side, state, _ in odds.states)
    declared_rows: dict[str, Callable[[Odds], Fraction]] = {
        "defender-all": lambda o: o.defender_eliminated, "attacker-loses": lambda o: o.attacker_loses_step,
        "attacker-all": lambda o: o.attacker_eliminated, "attacker-retreat": lambda o: o.attacker_retreats,
        "defender-advance": lambda o: o.defender_advances, "attacker-advance": lambda o: o.attacker_advances,
        "exchange": lambda o: o.exchange, "breakthrough": lambda o: o.breakthrough,
        **{f"state {side} {state}": _state_chance(side, state) for side, state in states},
        "no-effect": lambda o: o.no_effect, "not-allowed": lambda o: o.not_allowed}
    if node.attacker is not None:
        del declared_rows["attacker-loses"]     # the attacker side has its own odds
    more_outcome = [{"label": _outcome_label(key, t), "cells": [percent(read(o)) for o in every]}
                    for key, read in declared_rows.items() if codes and any(read(o) for o in every)]
    by_drm = []
    if cap is not None and node.dice.value != "d66":
        for drm in range(-cap, cap + 1):
            by_drm.append({"drm": f"{drm:+d}" if drm else "0",
                           "cells": [percent(column_odds(node.dice.value, rows, i, notation, drm,
                                                         codes).defender_loses_step)
                                     for i in range(len(columns))]})
    attacker = None
    if node.attacker is not None:
        attacker_rows = {r.label.value: tuple(c.value for c in r.cells) for r in node.attacker.rows}
        attacker = {
            "columns": [c.value for c in node.attacker.columns],
            "rows": [{"label": r.label.value, "cells": [c.value for c in r.cells]} for r in node.attacker.rows],
            "outcome": [{"column": c.value, "attacker_steps": number(column_odds(
                node.dice.value, attacker_rows, i, notation, codes=codes).attacker_steps),
                "attacker_step": percent(column_odds(node.dice.value, attacker_rows, i, notation,
                                                     codes=codes).attacker_loses_step)}
                for i, c in enumerate(node.attacker.columns)],
        }
    below = params.get("combat.below_table")
    above = params.get("combat.above_table")
    return {
        "title": t("title.results", node.title.value) if node.title else None,
        "cites": [c.value for c in node.cites], "dice": node.dice.value, "notation": notation,
        "lines": [{"name": t.name("line", l.name.value) if l.name else None, "columns": [c.value for c in l.columns]}
                  for l in node.lines],
        "rows": [{"label": r.label.value, "cells": [c.value for c in r.cells], "own": [False] * len(r.cells)}
                 for r in node.rows],
        "columns": [c.value for c in node.columns],
        "outcome": outcome, "more_outcome": more_outcome, "by_drm": by_drm, "attacker": attacker,
        # an average of steps says nothing where a side's codes take whole units or everything: the rows of
        # those chances say it instead
        "steps_average": {side: not any(getattr(r, f"{side}_eliminated") or getattr(r, f"{side}_units")
                                        for r in (codes or {}).values()) for side in ("attacker", "defender")},
        "declared": codes is not None,
        "defender_step_label": t("outcome.defender-loses") if codes else t("outcome.defender-step"),
        "breakthrough": any("*" in c.value for r in node.rows for c in r.cells),
        "below": None if below is None else (below.value, below.rule),
        "above": None if above is None else above.rule,
    }


def _state_chance(side: str, state: str) -> Callable[[Odds], Fraction]:
    """Reads a column's chance that `side` takes `state`."""
    return lambda odds: sum((c for s, w, c in odds.states if (s, w) == (side, state)), Fraction(0))


def _outcome_label(key: str, t: Labeler) -> Label:
    """An outcome row's label: `outcome.KEY`, or, for a state a side takes, `{side} {state}`."""
    if not key.startswith("state "):
        return t(f"outcome.{key}")
    _, side, state = key.split(" ", 2)
    template, who, what = t("outcome.becomes"), t(f"code.side.{side}"), t.name("state", state)
    text = template.text.replace("{side}", who.text).replace("{state}", what.text.lower())
    return Label(text[:1].upper() + text[1:], template.fallback or who.fallback or what.fallback)


def _codes(resolved: ir.Resolved, t: Labeler) -> list[dict[str, Any]] | None:
    """The legend of the declared result codes: each code and what it means, in the card's language."""
    if resolved.result_codes is None:
        return None
    return [{"code": code.code.value, "meaning": Label("; ".join(l.text for l in labels),
                                                        any(l.fallback for l in labels))}
            for code in resolved.result_codes.node.codes for labels in ([_clause_label(c, t) for c in code.clauses],)]


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
    template = t(key)
    state = t.name("state", word) if clause.effect == ir.CodeEffect.BECOMES else None
    text = template.text.replace("{side}", side.text).replace("{n}", str(clause.amount or 0))
    if state is not None:
        text = text.replace("{state}", state.text.lower())
    return Label(text, template.fallback or side.fallback)


def _modifiers(resolved: ir.Resolved, t: Labeler) -> dict[str, Any] | None:
    if resolved.modifiers is None:
        return None
    node = resolved.modifiers.node
    return {"cap": node.cap, "cites": [c.value for c in node.cites], "entries": [
        {"name": t.name("modifier", m.name.value), "value": f"{m.value:+d}", "side": t(f"side.{m.side}"),
         "when": _condition_text(m.text)} for m in node.modifiers]}


def _shifts(resolved: ir.Resolved, t: Labeler) -> dict[str, Any] | None:
    if resolved.shifts is None:
        return None
    node = resolved.shifts.node
    return {"per_side": node.per_side, "cites": [c.value for c in node.cites], "entries": [
        {"name": t.name("shift", s.source.value), "maximum": s.maximum, "text": _shift_text(s)}
        for s in node.shifts]}


def _unit_factors(resolved: ir.Resolved, t: Labeler) -> dict[str, Any] | None:
    if resolved.unit_factors is None:
        return None
    node = resolved.unit_factors.node
    return {"title": t("title.factors", node.title.value) if node.title else None,
            "cites": [c.value for c in node.cites], "entries": [
        {"name": t.name("factor", f.name.value), "role": t(f"role.{f.role}"), "factor": _factor_text(f, resolved),
         "when": _condition_text(f.text)} for f in node.factors]}


def _adjustments(resolved: ir.Resolved, t: Labeler) -> dict[str, Any] | None:
    if resolved.adjustments is None:
        return None
    node = resolved.adjustments.node
    return {"title": t("title.adjustments", node.title.value) if node.title else None,
            "cites": [c.value for c in node.cites], "entries": [
        {"name": t.name("adjustment", a.name.value), "result": t(f"result.{a.target}"),
         "change": f"{a.amount:+d}", "when": _condition_text(a.text)} for a in node.adjustments]}


def _factor_text(factor: ir.UnitFactor, resolved: ir.Resolved) -> str:
    """The factor's value when it is a number or a parameter (what a player multiplies by, not the
    parameter's id); otherwise as written: what lies between the role and 'when'."""
    if isinstance(factor.factor, ir.Number):
        return str(factor.factor.value)
    if isinstance(factor.factor, ir.Name):
        value = next((p.value for p in resolved.parameters if p.name == factor.factor.path), None)
        if isinstance(value, (int, Fraction)) and not isinstance(value, bool):
            return str(value)
    words = " ".join(factor.text.split()).split(" ", 2)     # name, role, then the factor up to 'when'
    return words[2].split(" when ", 1)[0] if len(words) == 3 else ""


def _condition_text(text: str) -> str:
    """The 'when ...' part of a modifier line as written in the rulebook."""
    match = re.search(r"\bwhen\b(.*)$", text, re.S)
    return " ".join(match.group(1).split()) if match else ""


def _shift_text(shift: ir.Shift) -> str:
    text = " ".join(shift.text.split())
    return text[len(shift.source.value):].strip()


def _tables(resolved: ir.Resolved, t: Labeler) -> list[dict[str, Any]]:
    out = []
    for effective in resolved.tables:
        node = effective.node
        head = node.header[0].value
        out.append({"name": node.name.value,
                    "title": t(f"table.{node.name.value}", node.title.value if node.title else node.name.value),
                    "cites": [c.value for c in node.cites], "key": _value(t, head),
                    "columns": [c.value for c in node.header[1:]],
                    "rows": [{"label": _value(t, r[0].value), "cells": [_value(t, c.value) for c in r[1:]]}
                             for r in node.rows]})
    return out


def _value(t: Labeler, cell: str) -> Label:
    """A word in a chart (company, trace) is looked up as `value.<word>`; numbers print as they are."""
    if re.fullmatch(r"[a-z][a-z-]*(?:/[a-z][a-z-]*)+", cell):  # a two-key header: row key / column key
        parts = [t.name("value", part) for part in cell.split("/")]
        return Label(" / ".join(p.text for p in parts), any(p.fallback for p in parts))
    if re.fullmatch(r"[a-z][a-z-]*", cell):
        return t.name("value", cell)
    return Label(cell)


_ENV = Environment(loader=PackageLoader("rulesdsl", "templates"), undefined=StrictUndefined,
                   autoescape=select_autoescape(["html", "j2"], default=True), trim_blocks=True, lstrip_blocks=True)


def render_html(data: dict[str, Any]) -> str:
    assert _ENV.loader is not None
    css = _ENV.loader.get_source(_ENV, "card.css")[0]
    return _ENV.get_template("card.html.j2").render(data, css=css)


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
}
