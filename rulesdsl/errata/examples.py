"""The worked examples a change makes answer otherwise.

Each expect line of the old version's examples (the rulebook's own and those it inherits, and those of the
project's rulebooks that extend it) is asked of the rules engine of each version; where the two answers differ, the errata says which
example, which line and how: `Into the bocage: expect move 1 1.02: costs 3 -> costs 2`.  The answers are
compared with each other, not with what the line says: an example that was already wrong stays silent, and
one the designer updated along with the rule is still reported (players who learnt it should hear).
"""
from __future__ import annotations

import types
from collections.abc import Mapping

from rulesdsl.checks.examples import Unanswerable, ask, engine_of
from rulesdsl.checks.situations import build, query_text
from rulesdsl.errata.diff import Change
from rulesdsl.model import ir
from rulesdsl.modules.modcheck import compiled_module
from rulesdsl.runtime.situation import Situation

HEADING = "Worked examples"
NO_ANSWER = "no answer"      # the new rules cannot answer the line (a sheet prints it in its language)


def _module(resolved: ir.Resolved) -> types.ModuleType | None:
    return compiled_module(resolved)[1]


def _situation(example: ir.Example, module: types.ModuleType) -> Situation | None:
    situation, _ = build(example.situation, getattr(module, "TERRAIN", None))
    return situation


def _answer(module: types.ModuleType, situation: Situation | None, expectation: ir.Query) -> str | None:
    """The engine's answer in the notation's words; None when it cannot answer."""
    if situation is None:
        return None
    try:
        return ask(engine_of(module), module, situation, expectation).computed
    except Unanswerable:
        return None


def answered_otherwise(old: Mapping[str, ir.Resolved], new: Mapping[str, ir.Resolved], main: str) -> list[Change]:
    """A change (area examples, kind `answers otherwise`) per expect line whose answer differs between the
    two versions, for the examples of `main` and of each rulebook that extends it (both mappings: id ->
    that rulebook resolved on that side); filed under the example's first cited rule."""
    changes: list[Change] = []
    for key in sorted(old.keys() & new.keys(), key=lambda k: (k != main, k)):
        # the rulebook's own examples and, for the one diffed, those it inherits (a game's change may make its
        # series' example answer otherwise); a rulebook extending it brings its own
        books = (old[key].rulebook, *(old[key].ancestors if key == main else ()))
        examples = [(example, book.id.value) for book in books for example in book.examples]
        if not examples:
            continue
        before, after = _module(old[key]), _module(new[key])
        if before is None or after is None:
            continue
        for example, origin in examples:
            was_in, now_in = _situation(example, before), _situation(example, after)
            for expectation in example.situation.expectations:
                was = _answer(before, was_in, expectation)
                if was is None:
                    continue     # the old rules could not answer it: nothing players relied on
                now = _answer(after, now_in, expectation) or NO_ANSWER
                if now == was:
                    continue
                owner = "" if origin == main else f"{origin}'s "
                title, query, span = example.title.value, query_text(expectation), expectation.span
                changes.append(Change(
                    "examples", HEADING, "answers otherwise", f"{owner}example {title}: expect {query}", was, now,
                    details=(f"{span.path}, line {span.line}",),
                    rule=example.cites[0].value if example.cites else None,
                    parts=("" if origin == main else origin, title, query, span.path, str(span.line))))
    return changes
