"""Declared result codes (`result codes`): what each code a CRT prints means, and how cells are read.

A rulebook without a `result codes` block reads its table in the table's notation (steps-first unless
it says `notation retreat-first`), as before.  With one, a cell is a declared code, or else a code of the
block's `family` (or of the table's written notation); with neither, only the declared codes.
"""
from __future__ import annotations

from typing import Any, Callable

from rulesdsl.model import ir
from rulesdsl.errors import Diagnostic, suggest
from rulesdsl.core.notation import DECLARED, NOTATIONS, Result, read_result

STEP_WORDS = ("step", "steps")
UNIT_WORDS = ("unit", "units")
HEX_WORDS = ("hex", "hexes")
_ALONE = (ir.CodeEffect.NO_EFFECT, ir.CodeEffect.NOT_ALLOWED)   # effects that take no other clause


def meaning(code: ir.ResultCode) -> Result:
    """The Result a declared code stands for."""
    values: dict[str, Any] = {"text": code.code.value}
    for clause in code.clauses:
        sides = ("attacker", "defender") if clause.side == "both" else (clause.side,) if clause.side else ()
        word = clause.word.value if clause.word is not None else None
        for side in sides:
            if clause.effect == ir.CodeEffect.LOSES:
                if clause.amount is None:
                    values[f"{side}_eliminated"] = True
                elif word in UNIT_WORDS:
                    values[f"{side}_units"] = clause.amount
                else:
                    values[f"{side}_steps"] = clause.amount
            elif clause.effect == ir.CodeEffect.RETREATS:
                values[f"{side}_retreat"] = clause.amount or 0
            elif clause.effect == ir.CodeEffect.ADVANCES:
                values[f"{side}_advance"] = clause.amount or 0
            elif clause.effect == ir.CodeEffect.BECOMES and word is not None:
                values[f"{side}_states"] = values.get(f"{side}_states", ()) + (word,)
        if clause.effect == ir.CodeEffect.EXCHANGE:
            values["exchange"] = True
        elif clause.effect == ir.CodeEffect.NOT_ALLOWED:
            values["not_allowed"] = True
        elif clause.effect == ir.CodeEffect.BREAKTHROUGH:
            values["breakthrough"] = True
    return Result(**values)


def declared(block: ir.ResultCodes | None) -> dict[str, Result]:
    """Each declared code and its meaning (the first declaration of a code twice, which validate reports)."""
    out: dict[str, Result] = {}
    for code in block.codes if block is not None else ():
        out.setdefault(code.code.value, meaning(code))
    return out


def family(block: ir.ResultCodes | None, table: ir.ResultsTable | None) -> str:
    """The notation cells are read in besides the declared codes: `declared` when there is none."""
    written = table.notation.value if table is not None and table.notation is not None else None
    if block is None:
        return written or "steps-first"
    return (block.family.value if block.family is not None else None) or written or DECLARED


def reader(block: ir.ResultCodes | None, table: ir.ResultsTable | None) -> Callable[[str], Result | None]:
    """Reads a cell of `table` as `block` declares: its Result, or None when it is no code."""
    codes, notation = declared(block), family(block, table)
    if notation not in (*NOTATIONS, DECLARED):
        notation = "steps-first"     # an unknown notation is reported by itself
    return lambda text: read_result(text, notation, codes)


def below_reader(block: ir.ResultCodes | None) -> Callable[[str], Result | None]:
    """Reads a result parameter (combat.below_table): a declared code, or steps-first notation unless the
    rulebook declares its codes with no family."""
    codes = declared(block)
    notation = DECLARED if block is not None and block.family is None else "steps-first"
    return lambda text: read_result(text, notation, codes)


def cell_hint(block: ir.ResultCodes | None, notation: str, hints: dict[str, str], text: str) -> str:
    """What a cell that is no code may be: the nearest declared code, else what the codes are."""
    codes = declared(block)
    near = suggest(text, codes) if codes else None
    if near:
        return near
    parts = ["the declared codes are " + ", ".join(codes)] if codes else []
    if notation in hints:
        parts.append(hints[notation])
    elif not codes:
        parts.append("declare the code in a 'result codes' block")
    return "; or ".join(parts)


def check(block: ir.ResultCodes) -> list[Diagnostic]:
    """A codes block by itself: a known family, each code once, each clause sensible."""
    out = []
    if block.family is not None and block.family.value not in NOTATIONS:
        out.append(Diagnostic(f"unknown result family '{block.family.value}'", block.family.span,
                              suggest(block.family.value, NOTATIONS) or "the families are " + ", ".join(NOTATIONS)))
    seen: dict[str, ir.ResultCode] = {}
    for code in block.codes:
        first = seen.setdefault(code.code.value, code)
        if first is not code:
            out.append(Diagnostic(f"result code '{code.code.value}' is declared twice", code.code.span,
                                  f"the first is at line {first.span.line}; keep one"))
        effects: set[tuple[str, str | None]] = set()
        for clause in code.clauses:
            if clause.effect in _ALONE and len(code.clauses) > 1:
                out.append(Diagnostic(f"'{clause.effect}' says all a code does: it takes no other clause",
                                      clause.span, f"remove the other clauses of {code.code.value}"))
            key = (str(clause.effect), str(clause.side) if clause.side else None)
            if key in effects:
                out.append(Diagnostic(f"{code.code.value} says '{clause.effect}' twice"
                                      + (f" for the {clause.side}" if clause.side else ""), clause.span,
                                      "say it once"))
            effects.add(key)
            if clause.effect in (ir.CodeEffect.RETREATS, ir.CodeEffect.ADVANCES) and clause.amount is None:
                out.append(Diagnostic(f"a side {clause.effect} a number of hexes, not all", clause.span,
                                      "a retreat or an advance counts hexes: give their number"))
            elif clause.amount is not None and clause.amount < 1 and clause.effect != ir.CodeEffect.BECOMES:
                out.append(Diagnostic(f"a side {clause.effect} 1 or more, not {clause.amount}", clause.span,
                                      "a code that changes nothing for a side leaves the clause out"))
            word = clause.word
            if word is None or clause.effect == ir.CodeEffect.BECOMES:
                continue
            allowed = (*STEP_WORDS, *UNIT_WORDS) if clause.effect == ir.CodeEffect.LOSES else HEX_WORDS
            if word.value not in allowed:
                out.append(Diagnostic(f"a side {clause.effect} a number of {'/'.join(allowed)}, not '{word.value}'", word.span,
                                      suggest(word.value, allowed) or "write " + " or ".join(allowed)))
    return out


def clause_text(clause: ir.CodeClause) -> str:
    """A clause as the rulebook writes it: `defender loses all`, `attacker retreats 2`, `exchange`."""
    if clause.side is None:
        return str(clause.effect)
    amount = "all" if clause.amount is None and clause.effect == ir.CodeEffect.LOSES else \
        "" if clause.amount is None else str(clause.amount)
    return " ".join(t for t in (str(clause.side), str(clause.effect), amount,
                                clause.word.value if clause.word is not None else "") if t)
