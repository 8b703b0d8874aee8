"""The core vocabulary compiled: `rulesdsl/core/vocabulary.rules`, read by the parser every rulebook goes
through, to `rulesdsl/core/vocabulary.py`, the plain tuple the rules engine and the compiler's model read
(generated modules import the engine, and must not pay for the parser).

Refresh the compiled form after editing the file:

    python -m rulesdsl.project.vocabulary

tests/test_core_vocabulary.py checks that the committed module is what this writes.
"""
from __future__ import annotations

import sys
from pathlib import Path

from rulesdsl.core.parameters import QUESTIONS, UNORDERED, VOCABULARY_FILE, CoreParameter
from rulesdsl.errors import Diagnostic, RulesError, suggest
from rulesdsl.language.source import Source
from rulesdsl.language.transform import parse
from rulesdsl.model import ir
from rulesdsl.model.catalogue import declared_type

__all__ = ["MODULE_FILE", "SHOWN_AS", "compile_vocabulary", "main", "module_text"]

MODULE_FILE = VOCABULARY_FILE.with_suffix(".py")
SHOWN_AS = "rulesdsl/core/vocabulary.rules"     # the file as its diagnostics name it


def _question(block: ir.ParameterDeclarations) -> tuple[str, bool]:
    """The question a block's title names, and whether it reads the block's orders as sets."""
    title = block.title.value if block.title is not None else ""
    question = title.removesuffix(UNORDERED)
    if question not in QUESTIONS:
        where = block.title.span if block.title is not None else block.span
        raise RulesError([Diagnostic(f"'{title}' names no question that reads a core parameter", where,
                                     suggest(question, QUESTIONS) or "the questions are " + ", ".join(QUESTIONS))])
    return question, question != title


def _problem(declaration: ir.ParameterDeclaration, ptype: ir.ParamType | None, unordered: bool) -> str | None:
    """What is wrong with a core declaration (its block read as sets when `unordered`), or None."""
    if ptype is None:
        return "its unit or options are wrong"
    if declaration.descriptive is not None:
        return "a core parameter is read by its question: it is not descriptive"
    if unordered and ptype.kind != ir.ParamKind.ORDER:
        return "only an order is read as a set"
    return None


def _parameter(declaration: ir.ParameterDeclaration, question: str, unordered: bool) -> CoreParameter:
    """The record of one declaration of a block that `question` reads."""
    ptype = declared_type(declaration)
    problem = _problem(declaration, ptype, unordered)
    if ptype is None or problem is not None:
        raise RulesError([Diagnostic(f"core parameter '{declaration.name.value}': {problem}", declaration.span)])
    where = declaration.span
    return CoreParameter(declaration.name.value, str(ptype.kind), drives=question,
                         meaning=declaration.meaning.value, unit=ptype.unit, options=ptype.options,
                         unordered=unordered, line=where.line, column=where.column, end_column=where.end_column)


def compile_vocabulary(text: str) -> tuple[CoreParameter, ...]:
    """The core parameters a vocabulary file's text declares, in its order; RulesError when it is wrong."""
    rulebook = parse(Source(SHOWN_AS, text))
    out: list[CoreParameter] = []
    for block in rulebook.parameter_declarations:
        question, unordered = _question(block)
        out += [_parameter(d, question, unordered) for d in block.declarations]
    return tuple(out)


def _record(parameter: CoreParameter) -> str:
    """One record as Python source, its defaults left out."""
    fields = [repr(parameter.name), repr(parameter.kind), f"drives={parameter.drives!r}",
              f"meaning={parameter.meaning!r}"]
    fields += [f"unit={parameter.unit!r}"] if parameter.unit is not None else []
    fields += [f"options={parameter.options!r}"] if parameter.options else []
    fields += ["unordered=True"] if parameter.unordered else []
    fields += [f"line={parameter.line}", f"column={parameter.column}", f"end_column={parameter.end_column}"]
    return f"    CoreParameter({', '.join(fields)}),\n"


def module_text(parameters: tuple[CoreParameter, ...]) -> str:
    """The compiled module: the records, in the file's order."""
    return ('"""The core vocabulary, compiled from vocabulary.rules by `python -m rulesdsl.project.vocabulary`:\n'
            'edit that file and run the command, never this one."""\n'
            "from rulesdsl.core.parameters import CoreParameter\n\n"
            "PARAMETERS: tuple[CoreParameter, ...] = (\n"
            + "".join(_record(p) for p in parameters) + ")\n")


def main(target: Path = MODULE_FILE) -> int:
    """Compile the shipped vocabulary file and write its module; 1, with the problem, when it is wrong."""
    try:
        parameters = compile_vocabulary(VOCABULARY_FILE.read_text(encoding="utf-8"))
    except RulesError as exc:
        for diagnostic in exc.diagnostics:
            print(f"{diagnostic.span}: error: {diagnostic.message}", file=sys.stderr)
        return 1
    target.write_text(module_text(parameters), encoding="utf-8")
    print(f"wrote {target} ({len(parameters)} parameters)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
