"""The fixes a diagnostic's hint proposes, carried out on the rulebooks' text.

A hint that proposes concrete text ("did you mean 'woods'?", "write 'override rule 7.4' to replace it",
"amend its rule: amend rule 7.4 { ... }") says exactly what to write; `fix` writes it, so that the
language server offers it as a code action and the hint tests prove, by applying every proposal to the
broken-rulebook corpus, that the error it came with goes away.  A hint whose text needs the designer's
knowledge (a printed title, a chart's odds) gets no fix: `fix` answers None.

`fix` works on text, not on the syntax tree: the files it is given may not parse, which is why there is
a diagnostic at all.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from rulesdsl.errors import Diagnostic

Files = dict[str, str]


@dataclass(frozen=True)
class Fix:
    """What applying a hint does: a title for the editor's menu, and the changed files' whole text."""
    title: str
    files: Files


def fix(diagnostic: Diagnostic, files: Files) -> Fix | None:
    """The files after carrying out the hint's proposal, or None when no rule knows how."""
    changed = _apply(diagnostic, files)
    if changed is None:
        return None
    changed = {path: text for path, text in changed.items() if files.get(path) != text}
    return Fix(_title(diagnostic.hint or ""), changed) if changed else None


def _title(hint: str) -> str:
    if m := re.match(r"did you mean '([^']+)'\?", hint):
        return f"Change to '{m.group(1)}'"
    if m := re.match(r"the nearest rules are ([^,]+)", hint):
        return f"Change to rule {m.group(1)}"
    if m := re.search(r"amend its rule: amend rule (\S+)", hint):
        return f"Move it into 'amend rule {m.group(1)}'"
    first = hint.split("\n")[0]
    return "Apply the hint: " + (first if len(first) <= 80 else first[:77] + "...")


def smallest_edit(before: str, after: str) -> tuple[int, int, str]:
    """The smallest run of whole lines that turns `before` into `after`, as character offsets in `before`
    (start, end) and the text that replaces them."""
    shortest = min(len(before), len(after))
    head = 0
    while head < shortest and before[head] == after[head]:
        head += 1
    tail = 0
    while tail < shortest - head and before[-1 - tail] == after[-1 - tail]:
        tail += 1
    start = before.rfind("\n", 0, head) + 1
    end = before.find("\n", len(before) - tail)
    end = len(before) if end < 0 else end
    return start, end, after[start:len(after) - (len(before) - end)]


def _apply(diagnostic: Diagnostic, files: Files) -> Files | None:
    hint, span = diagnostic.hint or "", diagnostic.span
    text = files.get(span.path)
    if text is None or not span.line:
        return None
    lines = text.split("\n")
    i = span.line - 1
    if i >= len(lines):
        return None
    line = lines[i]
    indent = line[:len(line) - len(line.lstrip())]

    def done(new_lines: list[str]) -> Files:
        return {**files, span.path: "\n".join(new_lines)}

    def replace_span(by: str, *, to_line_end: bool = False) -> Files:
        if span.end_line == span.line and span.end_column > span.column:
            end = span.end_column
        else:
            word = re.split(r"\s", line[span.column - 1:], maxsplit=1)[0]    # the name at the column
            end = len(line) + 1 if to_line_end else span.column + len(word)
        return done(lines[:i] + [line[:span.column - 1] + by + line[end - 1:]] + lines[i + 1:])

    if m := re.match(r"did you mean '([^']+)'\?(?: \(|$)", hint):    # the name, then perhaps what else to do
        return replace_span(m.group(1))
    if m := re.fullmatch(r"the nearest rules are ([^,]+)(?:, .*)?", hint):
        return replace_span(m.group(1))
    if m := re.match(r"to change (\S+)'s value, amend its rule: amend rule (\S+) \{ (.+) \} "
                     r"\(and remove it from rule \S+\)$", hint):
        return done(_into_amendment(lines, i, m.group(2), m.group(3)))
    if re.match(r"write '(override (?:rule|section) \S+|override [a-z ]+)' to replace it", hint):
        return done(lines[:i] + [indent + "override " + line.lstrip()] + lines[i + 1:])
    if re.search(r"cannot be overridden: remove this one", hint):
        return done(lines[:i] + lines[span.end_line or span.line:])
    if hint.startswith("remove 'override'"):
        return done(lines[:i] + [line.replace("override ", "", 1)] + lines[i + 1:])
    if m := re.fullmatch(r"write '(\.50 up)' \(.*", hint):  # a rounding clause: the first option
        return replace_span(m.group(1), to_line_end=True)
    if hint.startswith("a result is one word: ") and "=" in line:  # a result parameter: no effect
        return done(lines[:i] + [line.split("=", 1)[0] + "= NE"] + lines[i + 1:])
    if m := re.search(r"write '([^']+)'$", hint):
        if "=" in line:  # a parameter's value
            name = line.split("=", 1)[0]
            return done(lines[:i] + [name + "= " + m.group(1)] + lines[i + 1:])
        return replace_span(m.group(1))
    if hint == 'add it to the header: version "1.0"':
        return done(lines[:i] + [line.rstrip() + ' version "1.0"'] + lines[i + 1:])
    if hint.startswith("add a one-line summary in your own words: "):
        return done(lines[:i + 1] + [indent + '  summary "..."'] + lines[i + 1:])
    if hint == "a rule has one summary line; put the rest in a note":
        return done(lines[:i] + [line.replace("summary", "note", 1)] + lines[i + 1:])
    if m := re.fullmatch(r"add a line such as '([^']+)'", hint):
        return done(lines[:i + 1] + [indent + "  " + m.group(1)] + lines[i + 1:])
    if m := re.fullmatch(r"add a clause such as '([^']+)'", hint):
        return done(lines[:i] + [line.rstrip() + ", " + m.group(1)] + lines[i + 1:])
    if m := re.match(r"restate it in the override \(the inherited line is ([^:]+):(\d+)\)", hint):
        source = files.get(m.group(1))
        if source is None:
            return None
        inherited = source.split("\n")[int(m.group(2)) - 1]
        return done(lines[:i + 1] + [inherited] + lines[i + 1:])
    if hint == 'close the string with " on the same line':
        return done(lines[:i] + [line.rstrip() + '"'] + lines[i + 1:])
    if hint == "add the closing '}' at the end of the block":
        return done(lines + ["}"])
    if m := re.fullmatch(r"use (P) for prohibited terrain|give \w+ terrain its full cost, like (\d+)", hint):
        return replace_span(m.group(1) or m.group(2))
    if m := re.fullmatch(r"add a rounding rule, like: (.+)", hint):  # a statement of its own: at the end
        return done(lines + [m.group(1)])
    if m := re.fullmatch(r"end the cases with a line like: (.+)", hint):  # before the block's '}'
        close = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == "}"), None)
        if close is None:
            return None
        return done(lines[:close] + [indent + "  " + m.group(1)] + lines[close:])
    return None


_AMEND = re.compile(r"^amend rule (\S+) \{\s*$")


def _into_amendment(lines: list[str], i: int, rule: str, setting: str) -> list[str]:
    """The parameter line `i` taken out of its rule and set in `amend rule <rule>`: the file's own amendment
    of that rule when it has one, a new one at the end otherwise."""
    rest = lines[:i] + lines[i + 1:]
    for j, line in enumerate(rest):
        if (m := _AMEND.match(line)) and m.group(1) == rule:
            close = next((k for k in range(j + 1, len(rest)) if rest[k].startswith("}")), None)
            if close is not None:
                return rest[:close] + ["  " + setting] + rest[close:]
    while rest and not rest[-1].strip():
        rest = rest[:-1]
    return rest + ["", f"amend rule {rule} {{", "  " + setting, "}", ""]
