"""A build never writes a module that does not import.

Before anything is written, each rulebook's names are checked as Python
names (codegen.python_names), and each generated module is compiled and
executed into a fresh module object, one not registered in sys.modules, so
a module that fails stops the build with a positioned error instead of
reaching generated/.
"""
from __future__ import annotations

import types
from collections.abc import Callable, Mapping
from dataclasses import replace

from rulesdsl.model import ir
from rulesdsl.modules.codegen import generate, module_name, module_problem, python_names
from rulesdsl.errors import Diagnostic, Span


def name_problems(rulebook: ir.Rulebook) -> list[Diagnostic]:
    """The rulebook id as a module name."""
    problem = module_problem(rulebook.id.value)
    if problem is None:
        return []
    return [Diagnostic(problem, rulebook.id.span, "give the rulebook an id that starts with a letter, like: my-game")]


def resolved_problems(resolved: ir.Resolved) -> list[Diagnostic]:
    """The names the rulebook brings into its module (definitions, rounding, parameter constants)
    that Python cannot tell apart. (A chart cell that divides by zero is reported by validate.)"""
    return python_names(resolved)[1]


def load_module(name: str, source: str) -> tuple[types.ModuleType | None, str | None]:
    """Compile `source` and execute it as module `name`, in a module object of its own: the module, or why
    it fails."""
    module = types.ModuleType(name)
    module.__file__ = f"generated/{name}.py"
    try:
        code = compile(source, module.__file__, "exec")
        exec(code, module.__dict__)  # noqa: S102 - our own generated code, checked before it is written
    except Exception as exc:  # anything at all: the build must stop, not write the module
        return None, f"{type(exc).__name__}: {exc}"
    return module, None


def import_problem(name: str, source: str) -> str | None:
    """Compile `source` and execute it as module `name`, in a module object of its own; why it fails, or None."""
    return load_module(name, source)[1]


def build_module(resolved: ir.Resolved) -> tuple[str | None, list[Diagnostic]]:
    """The module's source, checked to compile and import, or the diagnostics that stop the build."""
    source, _, problems = compiled_module(resolved)
    return source, problems


def compiled_module(resolved: ir.Resolved) -> tuple[str | None, types.ModuleType | None, list[Diagnostic]]:
    """The module's source and the module itself (imported in memory, not registered in sys.modules), or
    the diagnostics that stop the build; the worked examples run against the module (examples.py)."""
    return checked_module(resolved)


def checked_module(resolved: ir.Resolved, imported_before: Callable[[str], bool] | None = None
                   ) -> tuple[str | None, types.ModuleType | None, list[Diagnostic]]:
    """`compiled_module`; but a source `imported_before` says was compiled and imported before (by the same
    compiler: project/memo.py) is not imported again, and comes with no module object."""
    problems = resolved_problems(resolved)
    if problems:
        return None, None, problems
    name = module_name(resolved.rulebook.id.value)
    source: str | None = None
    module: types.ModuleType | None = None
    try:
        source = generate(resolved)
    except Exception as exc:  # a bug in codegen: report it at the rulebook, never write a half module
        why: str | None = f"{type(exc).__name__}: {exc}"
    else:
        if imported_before is not None and imported_before(source):
            return source, None, []
        module, why = load_module(name, source)
    if why is None:
        return source, module, []
    return None, None, [Diagnostic(f"internal error: the generated module for {resolved.rulebook.id.value} does not "
                             f"import: {why}; please report", resolved.rulebook.id.span,
                             "this is a bug in rulesdsl, not in the rulebook")]


def with_values(resolved: ir.Resolved, values: Mapping[str, object],
                where: Mapping[str, Span] | None = None) -> ir.Resolved:
    """`resolved` with some parameters at other values (`values` by name), those it sets none for added: what an
    example's `assume` lines and a mutation's changes run against.  `where`: the lines that give the values
    (an example's `assume` lines), which the engine's steps then cite."""
    own = resolved.rulebook.id.value
    parameters = {p.name: p for p in resolved.parameters}
    effects = {name: value for name, value in values.items() if name.startswith("effect ")}
    if effects:
        resolved = _with_effects(resolved, effects)
    rows = {name: value for name, value in values.items() if name.startswith("row ")}
    if rows:
        resolved = _with_rows(resolved, rows)
    for name, value in values.items():
        if name in effects or name in rows:
            continue
        span = (where or {}).get(name)
        if name in parameters:
            found = replace(parameters[name], value=value)
            parameters[name] = found if span is None else replace(found, span=span)
        else:   # cited at the rule that requires it of the games, if one does
            rule = next((r.node.id.value for r in resolved.rules if any(t.value == name for t in r.node.requires)),
                        "")
            added = ir.EffectiveParameter(name, value, rule, own)
            parameters[name] = added if span is None else replace(added, span=span)
    return replace(resolved, parameters=tuple(parameters[name] for name in sorted(parameters)))


def _with_effects(resolved: ir.Resolved, changes: Mapping[str, object]) -> ir.Resolved:
    """`resolved` with some rules' effects changed: `effect RULE N` (runtime.ruleset.effect_key) to another
    ir.Effect, or None to remove it (a mutation's)."""
    rules = []
    for effective in resolved.rules:
        node = effective.node
        mine = {int(name.rsplit(" ", 1)[1]): value for name, value in changes.items()
                if name.rsplit(" ", 1)[0] == f"effect {node.id.value}"}
        if mine:
            kept = tuple(e for e in (mine.get(n, effect) for n, effect in enumerate(node.effects, 1))
                         if isinstance(e, ir.Effect))
            effective = replace(effective, node=replace(node, effects=kept))
        rules.append(effective)
    return replace(resolved, rules=tuple(rules))


# the combat charts whose rows a mutation changes one by one: the Resolved field, and the node's row field
ROW_CHARTS = (("modifiers", "modifiers"), ("shifts", "shifts"), ("unit_factors", "factors"),
              ("adjustments", "adjustments"))


def row_key(chart: str, n: int) -> str:
    """How a combat chart's row is named where parameters are (a mutation's change): `row modifiers 2`, the
    second die roll modifier."""
    return f"row {chart} {n}"


def _with_rows(resolved: ir.Resolved, changes: Mapping[str, object]) -> ir.Resolved:
    """`resolved` with some rows of its combat charts changed: `row CHART N` to another row, or None to
    remove it (a mutation's)."""
    for chart, items in ROW_CHARTS:
        effective = getattr(resolved, chart)
        if effective is None:
            continue
        rows = getattr(effective.node, items)
        mine = {int(name.rsplit(" ", 1)[1]): value for name, value in changes.items()
                if name.rsplit(" ", 1)[0] == f"row {chart}"}
        if mine:
            kept = tuple(r for r in (mine.get(n, row) for n, row in enumerate(rows, 1)) if r is not None)
            resolved = replace(resolved, **{chart: replace(effective, node=replace(effective.node, **{items: kept}))})
    return resolved


class Variants:
    """The modules of a rulebook with some parameters at other values, each generated once."""

    def __init__(self, resolved: ir.Resolved) -> None:
        self.resolved = resolved
        self._made: dict[tuple[tuple[str, str, str], ...], types.ModuleType | None] = {}

    def get(self, values: Mapping[str, object], where: Mapping[str, Span] | None = None) -> types.ModuleType | None:
        """The module with `values` in effect (given on the lines `where` says), or None when the rulebook so
        changed does not compile."""
        key = tuple(sorted((name, repr(value), repr((where or {}).get(name))) for name, value in values.items()))
        if key not in self._made:
            self._made[key] = compiled_module(with_values(self.resolved, values, where))[1]
        return self._made[key]
