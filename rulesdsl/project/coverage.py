"""How much of a rulebook the rules engine executes: `rulesdsl coverage RULEBOOK`.

Every parameter a resolved rulebook puts in effect on movement (roads, road movement and reaction
included), ZOC, stacking, combat, retreat, advance, overrun, exploitation and supply is one of:

- executed: core vocabulary, so something runs it: the rules engine's contract
  (`rulesdsl/runtime/contract.py`, the engine function it drives) or the generated combat resolution;
  or read by an expression of the rulebook in effect (a strength factor, a modifier, a definition ...),
  which the generated module compiles;
- descriptive: its declaration says `descriptive REASON` (table-talk, components, intent): no engine
  function can act on it, and why;
- unaccounted: neither; the figure exists to make these visible.

A parameter of another category (air, bombardment, victory, setup ...) is outside the engine's scope and
only listed.  A parameter's category is the part of its name before the dot; an engine parameter named
otherwise (`map.off_map_movement`) counts in the category of the engine function it drives.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rulesdsl.core.facts import QUESTIONS
from rulesdsl.model import catalogue, ir
from rulesdsl.model.walk import walk
from rulesdsl.runtime.contract import engine_parameter

# the categories the engine covers, in the order a player turn meets them: name -> the name prefixes in it
CATEGORIES: dict[str, tuple[str, ...]] = {
    "movement": ("movement", "roads", "road_movement", "reaction"),
    "zoc": ("zoc",),
    "stacking": ("stacking",),
    "combat": ("combat", "steps"),
    "retreat": ("retreat",),
    "advance": ("advance",),
    "overrun": ("overrun",),
    "exploitation": ("exploitation",),
    "supply": ("supply",),
}
_BY_PREFIX = {prefix: category for category, prefixes in CATEGORIES.items() for prefix in prefixes}
# the category of the engine function a parameter drives, for an engine parameter named outside them
_BY_FUNCTION = {"zoc": "zoc", "move": "movement", "stack": "stacking", "supply": "supply", "retreat": "retreat",
                "advance": "advance", "may_overrun": "overrun", "may_exploit": "exploitation",
                "may_attack": "combat", "engage": "combat", "losses": "combat"}
STATUSES = ("executed", "descriptive", "unaccounted")


def category(name: str) -> str | None:
    """The engine category of parameter `name`, or None when it is outside the engine's scope."""
    found = _BY_PREFIX.get(name.split(".", 1)[0])
    if found is None:
        engine = engine_parameter(name)
        found = _BY_FUNCTION[engine.drives] if engine is not None else None
    return found


@dataclass(frozen=True, slots=True)
class Entry:
    """One parameter in effect: its category (None: outside the engine's scope), its status, and what runs
    it (`drives`) or why nothing does (`reason`), with the rule that sets it."""

    name: str
    category: str | None
    status: str                  # executed, descriptive or unaccounted; "outside" when category is None
    meaning: str
    rule: str
    origin: str
    source: str                  # path:line of the setting
    drives: str | None = None    # executed: what runs it
    reason: str | None = None    # descriptive: table-talk, components or intent

    def as_json(self) -> dict[str, str | None]:
        return {"name": self.name, "category": self.category, "status": self.status, "meaning": self.meaning,
                "rule": self.rule, "origin": self.origin, "source": self.source, "drives": self.drives,
                "reason": self.reason}


RULE_STATUSES = ("executed", "descriptive", "heading", "unaccounted")


@dataclass(frozen=True, slots=True)
class RuleEntry:
    """One rule in effect: executed (what of it the engine runs), descriptive (why nothing can), a heading
    (no content of its own, rules numbered under it) or unaccounted (prose nothing runs, and unmarked)."""

    id: str
    title: str
    status: str
    how: str              # executed: what runs it; descriptive: the reason and why; heading: its first sub-rule
    origin: str
    source: str           # path:line of the rule

    def as_json(self) -> dict[str, str]:
        return {"id": self.id, "title": self.title, "status": self.status, "how": self.how, "origin": self.origin,
                "source": self.source}


@dataclass(frozen=True, slots=True)
class Coverage:
    rulebook: str
    path: str
    entries: tuple[Entry, ...] = field(default_factory=tuple)
    rules: tuple[RuleEntry, ...] = field(default_factory=tuple)

    def rules_of(self, status: str) -> list[RuleEntry]:
        return [r for r in self.rules if r.status == status]

    def of(self, status: str, category: str | None = None) -> list[Entry]:
        return [e for e in self.entries if e.status == status and (category is None or e.category == category)]

    def counts(self, category: str | None = None) -> dict[str, int]:
        """in_effect, executed, descriptive, unaccounted: of one category, or of all the engine's."""
        counts = {status: len(self.of(status, category)) for status in STATUSES}
        return {"in_effect": sum(counts.values()), **counts}

    def executed_share(self, category: str | None = None) -> Fraction | None:
        counts = self.counts(category)
        return Fraction(counts["executed"], counts["in_effect"]) if counts["in_effect"] else None


# the statements in effect whose expressions the generated module compiles, and what each is called
_EXPRESSIONS = (("modifiers", "die roll modifier", "modifiers"), ("shifts", "column shift", "shifts"),
                ("unit_factors", "strength factor", "factors"), ("adjustments", "result adjustment", "adjustments"))


def expression_reads(resolved: ir.Resolved) -> dict[str, str]:
    """The parameters the rulebook's own expressions in effect read: name -> the first that reads it."""
    reads: dict[str, str] = {}
    named = {p.name for p in resolved.parameters}

    def note(node: object, what: str) -> None:
        for inner in walk(node):
            if isinstance(inner, ir.Name) and inner.path in named:
                reads.setdefault(inner.path, what)

    for field_name, noun, items in _EXPRESSIONS:
        effective = getattr(resolved, field_name)
        if effective is not None:
            for item in getattr(effective.node, items):
                label = item.source.value if isinstance(item, ir.Shift) else item.name.value
                note(item, f"the {noun} {label} (the generated `resolve_combat`)")
    for definition, _, rule, _ in resolved.definitions:
        note(definition, f"the definition {definition.name.value} of rule {rule}")
    for effective in resolved.rules:      # a cost's amount that names a parameter: `max isolation.x`
        for effect in effective.node.effects:
            amount = effect.amount
            if amount is not None and amount.parameter is not None and amount.parameter.value in named:
                question = QUESTIONS.get(effect.question.value)
                engine = f"the engine's `{question.asked_by}`" if question is not None else "the engine"
                reads.setdefault(amount.parameter.value, f"the effect '{effect.kind} {effect.question.value}' of "
                                                         f"rule {effective.node.id.value} ({engine})")
    return reads


def _reader_category(resolved: ir.Resolved, name: str) -> str:
    """The engine category of a parameter outside the engine's vocabulary that the rulebook's own statements
    read: that of the question an effect names it at, else combat (the expressions are the combat's)."""
    for effective in resolved.rules:
        for effect in effective.node.effects:
            question = QUESTIONS.get(effect.question.value)
            if effect.amount is not None and effect.amount.parameter is not None and \
                    effect.amount.parameter.value == name and question is not None:
                return _BY_FUNCTION.get(question.asked_by, "combat")
    return "combat"


def measure(resolved: ir.Resolved) -> Coverage:
    """What the engine executes of the parameters `resolved` puts in effect."""
    entries = []
    read = expression_reads(resolved)
    for parameter in sorted(resolved.parameters, key=lambda p: p.name):
        name = parameter.name
        declared = resolved.declared.get(name)
        where = f"{parameter.span.path}:{parameter.span.line}"
        kind = category(name)
        if kind is None and name in read:      # a game's own parameter its statements read (a strength factor's)
            kind = _reader_category(resolved, name)
        drives = reason = None
        if kind is None:
            status = "outside"
        elif name in catalogue.CORE_USES:
            status, drives = "executed", catalogue.CORE_USES[name]
        elif name in read:
            status, drives = "executed", read[name]
        elif declared is not None and declared.descriptive is not None:
            status, reason = "descriptive", str(declared.descriptive)
        else:
            status = "unaccounted"
        entries.append(Entry(name, kind, status, declared.meaning if declared else "", parameter.rule,
                             parameter.origin, where, drives, reason))
    return Coverage(resolved.id, resolved.rulebook.span.path, tuple(entries), measure_rules(resolved, entries))


# the blocks the engine or the generated module executes, whose cited rules they are the content of
_CITING = ("rounding", "sequence", "terrain", "results", "modifiers", "shifts", "unit_factors", "adjustments",
           "result_codes")
_CITING_NAMES = {"rounding": "the rounding", "sequence": "the sequence of play", "terrain": "the Terrain Effects Chart",
                 "results": "the Combat Results Table", "modifiers": "the die roll modifiers",
                 "shifts": "the column shifts", "unit_factors": "the strength factors",
                 "adjustments": "the result adjustments", "result_codes": "the result codes"}


def _cited(resolved: ir.Resolved) -> dict[str, str]:
    """The rules the executed blocks in effect cite: rule id -> the first block citing it."""
    cited: dict[str, str] = {}
    blocks: list[tuple[str, ir.Effective[Any] | None]] = [(f, getattr(resolved, f)) for f in _CITING]
    blocks += [(f"the table {t.node.name.value}", t) for t in resolved.tables]
    for name, effective in blocks:
        if effective is None:
            continue
        for cite in getattr(effective.node, "cites", ()):
            cited.setdefault(cite.value, _CITING_NAMES.get(name, name))
        for amended in effective.amended:
            for cite in amended.cites:
                cited.setdefault(cite, _CITING_NAMES.get(name, name))
    return cited


def _under(parent: str, child: str) -> bool:
    """Whether rule `child` is numbered under `parent`: 2.1a under 2.1, 4.21 under 4.2, 2.1 under 2.0."""
    if child == parent or not parent[:1].isdigit():
        return False
    return child.startswith(parent) or (parent.endswith(".0") and child.startswith(parent[:-1]))


def measure_rules(resolved: ir.Resolved, entries: list[Entry]) -> tuple[RuleEntry, ...]:
    """What of each rule in effect the engine executes: its effects, its definitions, a parameter it sets that
    is executed, an executed block that cites it; else why nothing can (`descriptive REASON`, or every
    parameter it sets is descriptive), or a heading over the rules numbered under it."""
    by_rule: dict[str, list[Entry]] = {}
    for entry in entries:
        by_rule.setdefault(entry.rule, []).append(entry)
    cited = _cited(resolved)
    checked: dict[str, str] = {}      # rule -> the first worked example citing it
    for book in (resolved.rulebook, *resolved.ancestors):
        for example in book.examples:
            for cite in example.cites:
                checked.setdefault(cite.value, example.title.value.split(" ", 1)[0].rstrip("."))
    ids = [effective.node.id.value for effective in resolved.rules]
    found = []
    for effective in resolved.rules:
        rule = effective.node
        rid = rule.id.value
        own = by_rule.get(rid, [])
        executed = [e.name for e in own if e.status == "executed"]
        described = [e for e in own if e.status == "descriptive"]
        subs = [other for other in ids if _under(rid, other)]
        if rule.effects:
            status, how = "executed", f"{len(rule.effects)} effect{'s' if len(rule.effects) > 1 else ''}: " + \
                "; ".join(e.text for e in rule.effects)
        elif executed:
            status, how = "executed", "sets " + ", ".join(executed)
        elif rule.definitions:
            status, how = "executed", "defines " + ", ".join(d.name.value for d in rule.definitions)
        elif rid in cited:
            status, how = "executed", f"{cited[rid]} cites it"
        elif rule.executed_by is not None:
            status, how = "executed", (f"the engine's own `{rule.executed_by.value}`, which worked example "
                                       f"{checked.get(rid, '?')} asks")
        elif rule.descriptive is not None:
            why = rule.descriptive.why
            status, how = "descriptive", str(rule.descriptive.reason) + (f": {why.value}" if why else "")
        elif described and len(described) == len(own):
            status, how = "descriptive", "its parameters are descriptive (" + \
                ", ".join(sorted({e.reason or "" for e in described})) + ")"
        elif subs and not own and not rule.notes:
            status, how = "heading", f"over {subs[0]}" + (f" ... {subs[-1]}" if len(subs) > 1 else "")
        else:
            status, how = "unaccounted", ("sets only " + ", ".join(e.name for e in own) + ", which nothing runs"
                                          if own else "prose only")
        title = rule.title.value if rule.title else (rule.summary.value if rule.summary else "")
        found.append(RuleEntry(rid, title, status, how, effective.origin, f"{rule.span.path}:{rule.span.line}"))
    return tuple(found)


def percent(share: Fraction | None) -> str:
    """A share as a whole percentage, or - when there is nothing to share."""
    return "-" if share is None else f"{round(share * 100)}%"


def render_text(coverage: Coverage) -> str:
    lines = [f"{coverage.rulebook} ({coverage.path}): the parameters in effect on movement, ZOC, stacking, combat, "
             "retreat, advance, overrun, exploitation and supply",
             "",
             f"{'category':<14}{'in effect':>10}{'executed':>10}{'descriptive':>13}{'unaccounted':>13}{'executed %':>12}"]
    for name in [*CATEGORIES, None]:
        counts = coverage.counts(name)
        lines.append(f"{name or 'all':<14}{counts['in_effect']:>10}{counts['executed']:>10}{counts['descriptive']:>13}"
                     f"{counts['unaccounted']:>13}{percent(coverage.executed_share(name)):>12}")
    total = coverage.counts()
    lines += ["", f"executed: {total['executed']} of {total['in_effect']} "
                  f"({percent(coverage.executed_share())})"]
    width = max((len(e.name) for e in coverage.entries), default=0)
    for status, title in (("unaccounted", "unaccounted: neither executed nor marked descriptive"),
                          ("descriptive", "descriptive: no engine function can act on them"),
                          ("executed", "executed"),
                          ("outside", "outside the engine's scope (air, bombardment, victory, setup ...)")):
        entries = coverage.of(status)
        lines += ["", f"{title} ({len(entries)}):"]
        for e in entries:
            what = {"unaccounted": e.meaning, "descriptive": f"{e.reason}: {e.meaning}",
                    "executed": e.drives or "", "outside": e.meaning}[status]
            lines.append(f"  {e.name:<{width}}  {what}  [rule {e.rule}, {e.origin}, {e.source}]")
    return "\n".join(lines + _rule_lines(coverage)) + "\n"


def _rule_lines(coverage: Coverage) -> list[str]:
    counts = {status: len(coverage.rules_of(status)) for status in RULE_STATUSES}
    lines = ["", f"rules in effect: {len(coverage.rules)}: " + ", ".join(f"{counts[s]} {s}" for s in RULE_STATUSES)]
    width = max((len(r.id) for r in coverage.rules), default=0)
    for status, title in (("unaccounted", "rules unaccounted: prose nothing executes, not marked descriptive"),
                          ("descriptive", "rules marked descriptive: no engine function can act on them"),
                          ("heading", "headings: no content of their own, rules numbered under them"),
                          ("executed", "rules executed")):
        rules = coverage.rules_of(status)
        lines += ["", f"{title} ({len(rules)}):"]
        lines += [f"  {r.id:<{width}}  {r.title}: {r.how}  [{r.origin}, {r.source}]" for r in rules]
    return lines


def render_json(coverage: Coverage) -> str:
    def figures(name: str | None) -> dict[str, int | str | None]:
        value = coverage.executed_share(name)
        return {**coverage.counts(name), "executed_share": None if value is None else str(value)}
    document: dict[str, object] = {
        "rulebook": coverage.rulebook, "path": coverage.path,
        "categories": {name: figures(name) for name in CATEGORIES},
        "total": figures(None),
        **{status: [e.as_json() for e in coverage.of(status)] for status in (*STATUSES, "outside")},
        "rules": {"counts": {status: len(coverage.rules_of(status)) for status in RULE_STATUSES},
                  **{status: [r.as_json() for r in coverage.rules_of(status)] for status in RULE_STATUSES}},
    }
    return json.dumps(document, indent=2) + "\n"
