"""The rulebook document schema (cerberus), with error paths mapped to spans.

The grammar is deliberately permissive about what a rulebook contains; the
schema says what a complete one must have (a version, a title and a summary
per rule, a game's `extends`, at most one chart of each kind, known dice).
Cerberus reports each gap with its document path, which the span index built
beside the document maps back to the source position.
"""
from __future__ import annotations

from typing import Any, Iterable, Iterator

from cerberus import Validator

from rulesdsl.model import ir
from rulesdsl.errors import Diagnostic, Span

RULEBOOK_ID = r"^[a-z][a-z0-9]*(?:[.\-][a-z0-9]+)*$"
_ONE_LINE = r"^[^\n\r]*$"
_TEXT = {"type": "string", "empty": False, "regex": _ONE_LINE}


def _rule_schema(title_required: bool, summary_required: bool = True) -> dict[str, Any]:
    return {"type": "dict", "schema": {
        "id": {"type": "string", "required": True},
        "title": {**_TEXT, "required": title_required, "maxlength": 100},
        "summary": {**_TEXT, "required": summary_required, "maxlength": 240},
        "notes": {"type": "list", "schema": {"type": "string", "empty": False}},
    }}


# How each kind of statement enters the document cerberus checks (tests/test_walk.py checks every kind is
# here): RULE, by its fields; ONE, at most one per rulebook, named by its noun (resolve takes a rulebook's
# chart whole, so a second one would be lost); MANY, any number (duplicate names are validate's).
RULE, MANY = "rule", "many"
DOCUMENT: dict[type, str] = {
    ir.Rule: RULE,
    ir.Vocabulary: MANY,
    ir.ParameterDeclarations: MANY,
    ir.LookupTable: MANY,
    ir.Labels: MANY,
    ir.Example: MANY,
    ir.UnitTypes: "unit types block",
    ir.Rounding: "rounding rule",
    ir.SequenceOfPlay: "sequence of play",
    ir.TerrainChart: "terrain effects chart",
    ir.ResultsTable: "combat results table",
    ir.ResultCodes: "result codes block",
    ir.Modifiers: "die roll modifiers block",
    ir.Shifts: "column shifts block",
    ir.Adjustments: "result adjustments block",
    ir.UnitFactors: "strength factors block",
    ir.Card: "card block",
}
_ONE = {ir.STATEMENT_FIELD[kind]: noun for kind, noun in DOCUMENT.items() if noun not in (RULE, MANY)}


def schema_for(kind: str) -> dict[str, Any]:
    return {
        "kind": {"type": "string", "required": True, "allowed": ["series", "game", "labels"]},
        "id": {"type": "string", "required": True, "regex": RULEBOOK_ID, "maxlength": 60},
        "title": {**_TEXT, "required": True, "maxlength": 100},
        "version": {**_TEXT, "required": True, "maxlength": 40},
        "extends": {"type": "string"},   # a game may stand alone, in no series
        "rules": {"type": "list", "schema": _rule_schema(True)},
        # an override may keep the title of the rule it replaces
        "overrides": {"type": "list", "schema": _rule_schema(False)},
        # an amendment keeps the title and, unless it gives one, the summary of the rule it amends
        "amendments": {"type": "list", "schema": _rule_schema(False, False)},
        **{key: {"type": "list", "maxlength": 1} for key in _ONE},
        "results": {"type": "list", "maxlength": 1, "schema": {"type": "dict", "schema": {
            # an amendment reads the inherited table's dice (the grammar gives every other table dice)
            "dice": {"type": "string", "required": True, "allowed": ["1d6", "2d6", "d66"], "excludes": "amend"},
            "amend": {"type": "boolean", "required": True, "excludes": "dice"},
        }}},
    }


_WHAT = {
    "kind": "rulebook kind", "id": "rulebook id", "title": "title", "version": "version",
    "extends": "'extends'", "summary": "summary", "notes": "note", "dice": "dice", **_ONE,
}
_BOOK_HINTS = {
    "version": 'add it to the header: version "1.0"',
    "id": "ids are lower case letters and digits joined by '-' or '.', like scs-1.8",
}
_RULE_HINTS = {
    "summary": 'add a one-line summary in your own words: summary "..."',
    "title": 'give the rule its printed title: rule 6.0 "Overrun Combat" { ... }',
}


Path = tuple[str | int, ...]


def document(rulebook: ir.Rulebook) -> tuple[dict[str, Any], dict[Path, Span]]:
    """The rulebook as a plain document for cerberus, and the span of each path."""
    spans: dict[Path, Span] = {(): rulebook.span}
    doc: dict[str, Any] = {}

    def put(path: Path, target: dict[str, Any], key: str, text: ir.Text | None) -> None:
        if text is not None:
            target[key] = text.value
            spans[path + (key,)] = text.span

    for key in ("kind", "id", "title", "version", "extends"):
        put((), doc, key, getattr(rulebook, key))
    doc["rules"], doc["overrides"], doc["amendments"] = [], [], []
    for rule in rulebook.rules:
        group = "overrides" if rule.override else "amendments" if rule.amend else "rules"
        path = (group, len(doc[group]))
        spans[path] = rule.id.span
        entry: dict[str, Any] = {}
        put(path, entry, "id", rule.id)
        put(path, entry, "title", rule.title)
        put(path, entry, "summary", rule.summary)
        entry["notes"] = [n.value for n in rule.notes]
        for i, n in enumerate(rule.notes):
            spans[path + ("notes", i)] = n.span
        doc[group].append(entry)
    for key in _ONE:
        items = getattr(rulebook, key)
        doc[key] = []
        spans[(key,)] = items[-1].span if items else rulebook.span
        for i, item in enumerate(items):
            spans[(key, i)] = item.span
            entry = {}
            if key == "results" and item.amend:
                entry["amend"] = True
            elif key == "results":
                put((key, i), entry, "dice", item.dice)
            doc[key].append(entry)
    return doc, spans


def _leaves(errors: Iterable[Any]) -> Iterator[Any]:   # cerberus's ValidationErrors
    for error in errors:
        if error.is_group_error and error.child_errors:
            yield from _leaves(error.child_errors)
        else:
            yield error


def _message(error: Any, path: Path) -> tuple[str, str | None]:
    field = next((str(p) for p in reversed(path) if isinstance(p, str)), "rulebook")
    what = _WHAT.get(field, field)
    in_rule = path[:1] in (("rules",), ("overrides",), ("amendments",))
    hints = _RULE_HINTS if in_rule else _BOOK_HINTS
    rule = error.rule
    if rule == "required":
        owner = "rule" if in_rule else "rulebook"
        if path[:1] == ("results",):
            owner = "combat results table"
        return f"{owner} has no {what}", hints.get(field)
    if rule == "allowed":
        options = ", ".join(str(o) for o in error.constraint)
        return f"{what} must be one of {options}, not '{error.value}'", None
    if rule == "regex":
        if error.constraint == _ONE_LINE:
            return f"{what} must fit on one line", "split long text into a summary and notes"
        return f"'{error.value}' is not a valid {what}", hints.get(field)
    if rule == "empty":
        return f"{what} is empty", hints.get(field)
    if rule == "maxlength":
        if isinstance(error.value, list):
            return f"a rulebook has at most {error.constraint} {what}; this is number {len(error.value)}", \
                "merge them into one"
        return f"{what} is too long ({len(error.value)} characters, at most {error.constraint})", \
            "keep it short; put detail in a note"
    return f"{what}: {error.rule} {error.constraint!r} not met", None


def _validator(schema: dict[str, Any]) -> Validator:
    return Validator(schema, allow_unknown=False)


# The validators are built once, their schemas normalised once.  The rules are validated apart,
# in batches of _BATCH: cerberus sorts a document's whole error list again each time a rule adds
# its errors, which is quadratic in the errors of one document, while the fixed cost of a
# validation is large enough that one rule at a time would be slower on a clean file.
_BATCH = 64
_GROUPS = ("rules", "overrides", "amendments")
_BOOK = {kind: _validator({**schema_for(kind), **{group: {"type": "list"} for group in _GROUPS}})
         for kind in ("series", "game", "labels", "")}
_RULES = _validator({group: schema_for("")[group] for group in _GROUPS})


def check_schema(rulebook: ir.Rulebook) -> list[Diagnostic]:
    doc, spans = document(rulebook)
    book = _BOOK.get(doc.get("kind", ""), _BOOK[""])
    book.validate(doc)
    found = [(0, error) for error in _leaves(book._errors)]
    for group in _GROUPS:
        entries = doc[group]
        for start in range(0, len(entries), _BATCH):
            if not _RULES.validate({group: entries[start:start + _BATCH]}):
                found += [(start, error) for error in _leaves(_RULES._errors)]
    out = []
    for offset, error in found:
        path = tuple(error.document_path)
        if offset and len(path) > 1:  # a rule of a later batch: its index in the whole list
            path = (path[0], path[1] + offset) + path[2:]
        message, hint = _message(error, path)
        if error.rule == "maxlength" and isinstance(error.value, list):
            path = path + (len(error.value) - 1,)
        probe = path
        while probe not in spans and probe:
            probe = probe[:-1]
        out.append(Diagnostic(message, spans.get(probe, rulebook.span), hint))
    return out
