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

from rulesdsl.model import catalogue, ir
from rulesdsl.model.walk import walk
from rulesdsl.runtime.contract import engine_parameter

# the categories the engine covers, in the order a player turn meets them: name -> the name prefixes in it
CATEGORIES: dict[str, tuple[str, ...]] = {
    "movement": ("movement", "roads", "road_movement", "reaction"),
    "zoc": ("zoc",),
    "stacking": ("stacking",),
    "combat": ("combat",),
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
                "may_attack": "combat", "engage": "combat"}
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


@dataclass(frozen=True, slots=True)
class Coverage:
    rulebook: str
    path: str
    entries: tuple[Entry, ...] = field(default_factory=tuple)

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
    return reads


def measure(resolved: ir.Resolved) -> Coverage:
    """What the engine executes of the parameters `resolved` puts in effect."""
    entries = []
    read = expression_reads(resolved)
    for parameter in sorted(resolved.parameters, key=lambda p: p.name):
        name = parameter.name
        declared = resolved.declared.get(name)
        where = f"{parameter.span.path}:{parameter.span.line}"
        kind = category(name)
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
    return Coverage(resolved.id, resolved.rulebook.span.path, tuple(entries))


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
    return "\n".join(lines) + "\n"


def render_json(coverage: Coverage) -> str:
    def figures(name: str | None) -> dict[str, int | str | None]:
        value = coverage.executed_share(name)
        return {**coverage.counts(name), "executed_share": None if value is None else str(value)}
    document: dict[str, object] = {
        "rulebook": coverage.rulebook, "path": coverage.path,
        "categories": {name: figures(name) for name in CATEGORIES},
        "total": figures(None),
        **{status: [e.as_json() for e in coverage.of(status)] for status in (*STATUSES, "outside")},
    }
    return json.dumps(document, indent=2) + "\n"
