"""A build never writes a module that does not import.

Before anything is written, each rulebook's names are checked as Python
names (codegen.python_names), and each generated module is compiled and
executed into a fresh module object, one not registered in sys.modules, so
a module that fails stops the build with a positioned error instead of
reaching generated/.
"""
from __future__ import annotations

import types

from rulesdsl.model import ir
from rulesdsl.modules.codegen import generate, module_name, module_problem, python_names
from rulesdsl.errors import Diagnostic


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
        module, why = load_module(name, source)
    if why is None:
        return source, module, []
    return None, None, [Diagnostic(f"internal error: the generated module for {resolved.rulebook.id.value} does not "
                             f"import: {why}; please report", resolved.rulebook.id.span,
                             "this is a bug in rulesdsl, not in the rulebook")]
