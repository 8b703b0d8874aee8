"""The canonical layout of a rulebook.

The language is line-oriented, so formatting only ever changes whitespace:
two spaces of indentation per block, one space between tokens, columns
aligned in chart-like blocks (CRT grids, terrain rows, modifiers, labels
...), at most one blank line in a row, no trailing spaces, one final
newline.  Tokens, strings and comments are kept exactly as written, so a
formatted rulebook parses to the same rulebook, and formatting twice
changes nothing.
"""
from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass

from rulesdsl.model import ir
from rulesdsl.errors import Diagnostic, RulesError, Span
from rulesdsl.language.source import Source, normalise_newlines
from rulesdsl.language.transform import parse

_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|#.*|[^\s"#]+(?:"(?:[^"\\\n]|\\.)*")?')
_COMBAT = re.compile(r"^(?:[AD]x[0-9]+(?:/[0-9]+)?|[0-9]+[LR]|[+\-][1-9][0-9]*|a(?:ll|ny)-across)$")


@dataclass
class _Line:
    depth: int
    tokens: list[str]          # code tokens (strings whole)
    comment: str | None        # a trailing or whole-line comment, as written
    block: str = ""            # the kind of block the line sits in


def _tokens(line: str) -> tuple[list[str], str | None]:
    tokens, comment = [], None
    for match in _TOKEN.finditer(line):
        text = match.group(0)
        if text.startswith("#"):
            comment = text.rstrip()
            break
        tokens.append(text)
    return tokens, comment


# How each kind of statement is laid out (tests/test_walk.py checks every kind is here): the words its
# header starts with, and how the lines of its block align; None for a statement written on one line.
BLOCKS: dict[type, tuple[str, tuple[tuple[str, ...], ...]] | None] = {
    ir.Rule: ("rule", (("rule",), ("section",))),
    ir.UnitTypes: ("unit-types", (("unit", "types"),)),
    ir.Vocabulary: None,
    ir.ParameterDeclarations: ("declarations", (("parameters",),)),   # name  kind [unit|options]  [descriptive REASON]  "meaning"
    ir.Modifiers: ("modifiers", (("die", "roll", "modifiers"),)),
    ir.Shifts: ("shifts", (("column", "shifts"),)),
    ir.Adjustments: ("adjustments", (("result", "adjustments"),)),
    ir.UnitFactors: ("factors", (("strength", "factors"),)),       # name role factor when ...
    ir.Rounding: None,
    ir.SequenceOfPlay: ("sequence", (("sequence", "of", "play"),)),
    ir.TerrainChart: ("terrain", (("terrain", "effects", "chart"),)),
    ir.ResultsTable: ("grid", (("combat", "results", "table"),)),
    ir.ResultCodes: ("codes", (("result", "codes"),)),            # code  what it does, ...
    ir.LookupTable: ("grid", (("table",),)),
    ir.Labels: ("labels", (("labels",),)),
    ir.Example: ("example", (("example",),)),   # one item per line, as written
    ir.Card: ("card", (("card",),)),            # swatch lines align: swatch  terrain  "colour"  pattern
}
# blocks inside statements
_INNER = {("defender", "side"): "grid", ("attacker", "side"): "grid", ("game", "turn"): "phases",
          ("player", "turn"): "phases", ("define",): "cases"}


def _block_kind(tokens: list[str]) -> str:
    words = [t for t in tokens if t not in ("override", "amend")]
    heads = [(head, kind) for layout in BLOCKS.values() if layout is not None for head in layout[1]
             for kind in (layout[0],)] + list(_INNER.items())
    for head, kind in heads:
        if tuple(words[:len(head)]) == head:
            return kind
    return "other"


def _cells(line: _Line) -> list[str] | None:
    """The cells to align, or None for a line that is not a row."""
    tokens = line.tokens
    if not tokens or tokens[-1] == "{" or tokens == ["}"]:
        return None
    cells_of = _ROW_CELLS.get(line.block)
    return cells_of(tokens) if cells_of is not None else None


def _grid_cells(tokens: list[str]) -> list[str]:
    """A results grid's row: each word a cell, but `odds NAME` or `difference NAME` heads a line as one."""
    if tokens[0] in ("odds", "difference") and len(tokens) > 1 and re.match(r"^[a-z_]", tokens[1]):
        return [" ".join(tokens[:2])] + tokens[2:]
    return tokens


def _terrain_cells(tokens: list[str]) -> list[str] | None:
    """A terrain row: name, movement, combat, then its extras (`level 2`, `no-zoc`), each one cell; an
    amended cell (`woods  movement  2 stop`) is name, column, value.  A `hexside:` heading is no row."""
    if len(tokens) == 1 and tokens[0].endswith(":"):
        return None
    rest = tokens[1:]
    if rest[:1] in (["movement"], ["combat"]):    # one cell of an amended row: woods  movement  2 stop
        return [tokens[0], rest[0], " ".join(rest[1:])]
    movement, rest = _terrain_movement(rest)
    cells = [tokens[0], *movement]
    combat, rest = _terrain_combat(rest)
    cells.append(" ".join(combat))
    while rest:
        size = 1 if rest[0] in ("no-overrun", "no-zoc", "exerts-no-zoc") else 2   # `level 2`, `line close`
        cells.append(" ".join(rest[:size]))
        rest = rest[size:]
    return cells


def _terrain_movement(rest: list[str]) -> tuple[list[str], list[str]]:
    """A terrain row's movement cell (none when the row ends after its name) and the words after it."""
    if rest[:1] == ["negates"] or rest[1:2] in (["stop"], ["lower"]):     # negates river, 2 stop: one cell
        return [" ".join(rest[:2])], rest[2:]
    if len(rest) > 1 and ("," in rest[0] or rest[1].startswith(",")):
        size = _road_costs_size(rest)
        return [re.sub(r"\s*,\s*", ", ", " ".join(rest[:size]))], rest[size:]
    if rest:
        return [rest[0]], rest[1:]
    return [], rest


def _road_costs_size(rest: list[str]) -> int:
    """How many words a road's cost by terrain takes, one cell: trail  1, forest 2, swamp 3  ne."""
    size = 1
    while size < len(rest):
        text = " ".join(rest[:size])
        if not (text.endswith(",") or rest[size].startswith(",") or len(text.split(",")[-1].split()) < 2):
            break
        size += 1
    return size


def _terrain_combat(rest: list[str]) -> tuple[list[str], list[str]]:
    """A terrain row's combat words (one cell; `1L defending allies` included) and the words after them."""
    combat: list[str] = []
    while rest and (_COMBAT.match(rest[0]) or not combat):
        combat.append(rest[0])
        rest = rest[1:]
        if combat[-1] in ("ne", "-", "P", "ot"):
            break
    if len(rest) >= 2 and rest[0] in ("defending", "attacking"):    # `1L defending allies`: one cell
        combat += rest[:2]
        rest = rest[2:]
    return combat, rest


def _declaration_cells(tokens: list[str]) -> list[str]:
    """A declaration: name, kind, meaning; or name, kind, `descriptive REASON`, meaning."""
    if len(tokens) > 4 and tokens[-3] == "descriptive":   # name  kind  descriptive REASON  "meaning"
        return [tokens[0], " ".join(tokens[1:-3]), " ".join(tokens[-3:-1]), tokens[-1]]
    return [tokens[0], " ".join(tokens[1:-1]), tokens[-1]] if len(tokens) > 2 else tokens


def _label_cells(tokens: list[str]) -> list[str]:
    """A label: its key, and its text."""
    return [tokens[0], " ".join(tokens[1:])]


def _card_cells(tokens: list[str]) -> list[str] | None:
    """A card block's swatch line (swatch  terrain  "colour"  pattern); its other lines are no rows."""
    return [" ".join(tokens[:2])] + tokens[2:] if tokens[0] == "swatch" and len(tokens) > 1 else None


def _leading_cells(count: int) -> Callable[[list[str]], list[str]]:
    """A row whose first `count` words are a cell each and the rest one cell (modifiers, factors, shifts)."""
    def cells(tokens: list[str]) -> list[str]:
        """The row's first words, a cell each, and the rest as one."""
        return tokens[:count] + [" ".join(tokens[count:])] if len(tokens) > count else tokens
    return cells


def _sequence_cells(tokens: list[str]) -> list[str] | None:
    """A sequence of play's `turns night  3 6 9 12` line; its other lines are no rows."""
    return [" ".join(tokens[:2]), " ".join(tokens[2:])] if tokens[0] == "turns" and len(tokens) > 2 else None


def _phase_row_cells(tokens: list[str]) -> list[str] | None:
    """A phase: name, cites (empty when it has none), activities, then the game turns it happens on (`not
    on night`, `on turns 2+`) as a column of their own before the note.  `player turn` is no row."""
    if tokens[:2] == ["player", "turn"]:
        return None
    cells, rest = [tokens[0]], tokens[1:]
    if rest and rest[0].startswith("["):
        end = next(i for i, t in enumerate(rest) if t.endswith("]"))
        cells.append(" ".join(rest[: end + 1]))
        rest = rest[end + 1:]
    else:
        cells.append("")
    on = next((i for i, t in enumerate(rest) if t == "on" or t == "not" and rest[i + 1:i + 2] == ["on"]), None)
    if on is not None:
        end = next((i for i in range(on, len(rest)) if rest[i].startswith('"')), len(rest))
        cells += [" ".join(rest[:on]), " ".join(rest[on:end]), " ".join(rest[end:])]
    elif rest:
        cells.append(" ".join(rest))
    return cells


def _parameter_cells(tokens: list[str]) -> list[str] | None:
    """A rule's `name = value` line, with the game turns the value holds on (`on night`, `on turns 1`) as a
    column of its own after the value; a rule's other lines are no rows."""
    if len(tokens) <= 2 or tokens[1] != "=":
        return None
    on = next((i for i in range(3, len(tokens)) if not tokens[i - 1].endswith(",") and (
        tokens[i] == "on" or tokens[i] == "not" and tokens[i + 1:i + 2] == ["on"])), None)
    if on is not None:
        return [tokens[0], "=", " ".join(tokens[2:on]), " ".join(tokens[on:])]
    return [tokens[0], "=", " ".join(tokens[2:])]


# how each kind of block's lines divide into cells (a kind not here has no rows)
_ROW_CELLS: dict[str, Callable[[list[str]], list[str] | None]] = {
    "grid": _grid_cells, "terrain": _terrain_cells, "declarations": _declaration_cells, "labels": _label_cells,
    "card": _card_cells, "modifiers": _leading_cells(3), "adjustments": _leading_cells(3),
    "factors": _leading_cells(2), "shifts": _leading_cells(1), "unit-types": _leading_cells(1),
    "cases": _leading_cells(1), "codes": _leading_cells(1), "sequence": _sequence_cells,
    "phases": _phase_row_cells, "rule": _parameter_cells,
}


_LONG_TYPE = 16   # a declared type wider than this does not set its column's width


def _phase_cells(cells: list[str]) -> list[str]:
    """A phase row beside phases that list their game turns: activities, no turns, its note apart."""
    rest = cells[2]
    note = rest.find('"')
    if note < 0:
        return cells
    return cells[:2] + [rest[:note].rstrip(), "", rest[note:]]


def _render_group(group: list[_Line]) -> list[str]:
    """Rows aligned in columns; comment lines among them are kept in place."""
    if not group:
        return []
    rows = [_cells(line) if line.tokens else None for line in group]
    if group[0].block == "declarations" and any(cells and len(cells) == 4 for cells in rows):
        # a group with a `descriptive REASON` column: the other declarations leave it empty
        rows = [cells[:2] + [""] + cells[2:] if cells and len(cells) == 3 else cells for cells in rows]
    if group[0].block == "phases" and any(cells and len(cells) == 5 for cells in rows):
        # a group with a turns column (`not on night`): the other phases' activities and note move apart
        rows = [_phase_cells(cells) if cells and len(cells) == 3 else cells for cells in rows]
        rows = [cells[:-1] if cells and len(cells) == 5 and not cells[-1] else cells for cells in rows]
    widths: dict[int, int] = {}
    for cells in rows:
        for i, cell in enumerate((cells or [])[:-1]):
            if group[0].block == "declarations" and i == 1 and len(cell) > _LONG_TYPE:
                continue   # a long `choice a, b, c` overflows its column rather than pushing every meaning right
            widths[i] = max(widths.get(i, 0), len(cell))
    gap = " " if group[0].block == "rule" else "  "
    out = []
    for line, cells in zip(group, rows):
        if cells is None:
            out.append(_finish(line, ""))
            continue
        text = "".join(("" if i == 0 else "  " if i == 3 and group[0].block == "rule" else gap) +
                       (c.ljust(widths.get(i, 0)) if i < len(cells) - 1 else c) for i, c in enumerate(cells))
        out.append(_finish(line, re.sub(r" +$", "", text)))
    return out


def _finish(line: _Line, code: str) -> str:
    indent = "  " * line.depth
    if line.comment and code:
        return f"{indent}{code}  {line.comment}"
    return f"{indent}{code or (line.comment or '')}".rstrip()


def format_text(text: str) -> str:
    """The canonical layout of a rulebook's text (which must parse)."""
    lines: list[_Line | None] = []
    depth, blocks = 0, ["top"]
    for raw in normalise_newlines(text).split("\n"):
        tokens, comment = _tokens(raw)
        if not tokens and comment is None:
            lines.append(None)
            continue
        closing = tokens[:1] == ["}"]
        if closing:
            depth = max(0, depth - 1)
            blocks.pop()
        extra = 0
        if blocks[-1] == "terrain" and tokens and not (len(tokens) == 1 and tokens[0].endswith(":")) \
                and not closing:
            extra = 1  # terrain rows sit under their hex:, roads:, hexside: heading
        lines.append(_Line(depth + extra, tokens, comment, blocks[-1]))
        opens = tokens.count("{") - tokens.count("}") + (1 if closing else 0)
        if opens > 0:
            blocks.append(_block_kind(tokens))
            depth += opens
        elif opens < 0 and not closing:
            depth = max(0, depth + opens)
    _indent_comment_lines(lines)
    out: list[str] = []
    group: list[_Line] = []

    def flush() -> None:
        out.extend(_render_group(group))
        group.clear()

    for line in lines:
        if line is not None and line.tokens and _cells(line) is not None:
            if group and group[-1].block != line.block:
                flush()
            group.append(line)
            continue
        if line is not None and not line.tokens and group:
            group.append(line)  # a comment line between rows does not split their columns
            continue
        flush()
        if line is None:
            if out and out[-1] != "":
                out.append("")
            continue
        out.append(_finish(line, " ".join(line.tokens)))
    flush()
    while out and out[-1] == "":
        out.pop()
    while out and out[0] == "":
        out.pop(0)
    return "\n".join(out) + "\n"


def _indent_comment_lines(lines: list[_Line | None]) -> None:
    """A line holding only a comment is indented like the code line after it;
    before a closing '}' (or at the end), like the code line before it, or one
    level in when that line opened the block."""
    following: _Line | None = None
    for i in range(len(lines) - 1, -1, -1):
        line = lines[i]
        if line is None:
            continue
        if line.tokens:
            following = line
            continue
        if following is not None and following.tokens[:1] != ["}"]:
            line.depth = following.depth
            continue
        before = next((l for l in reversed(lines[:i]) if l is not None and l.tokens), None)
        if before is None:
            line.depth = 0
        elif before.tokens[-1] == "{":
            line.depth = before.depth + 1
        else:
            line.depth = before.depth


def _content(text: str) -> list[tuple[list[str], str | None]]:
    """The tokens and comment of each non-blank line: what formatting must keep."""
    lines = (_tokens(raw) for raw in normalise_newlines(text).split("\n"))
    return [line for line in lines if line[0] or line[1] is not None]


class FormatRefused(RulesError):
    """fmt's own output would not parse, or would parse to another rulebook."""


def format_source(source: Source) -> str:
    """Format a rulebook, after checking it parses (a syntax error raises RulesError).

    The result is parsed again and compared with the rulebook as written
    (spans aside); if it does not parse, or means something else, nothing is
    returned: FormatRefused says so, for the file to be left as it is."""
    model = parse(source)
    formatted = format_text(source.text)
    try:
        again = parse(Source(source.path, formatted))
    except RulesError as exc:
        first = min(exc.diagnostics, key=Diagnostic.sort_key)
        problem = f"its formatted text does not parse (line {first.span.line}: {first.message})"
    else:
        if again != model:
            problem = "its formatted text parses to a different rulebook"
        elif _content(formatted) != _content(source.text):
            problem = "its formatted text loses or changes a comment or token"
        else:
            return formatted
    raise FormatRefused([Diagnostic(
        f"not formatted, file left as it is: {problem}", Span(source.path),
        hint="this is a bug in rulesdsl fmt; please report it with the rulebook attached")],
        {source.path: source.text})


def unified_diff(shown: str, before: str, after: str) -> str:
    """What formatting would change, as a unified diff (`--- PATH\t(original)`, `+++ PATH\t(formatted)`:
    after a tab, as black puts its timestamps, so that patch and git apply read the path alone);
    "" when the texts are the same.  A last line without a newline is marked as diff marks it."""
    def lines(text: str) -> list[str]:   # at \n only: str.splitlines also splits at form feeds and \x1c-\x1e
        return re.findall(r"[^\n]*\n|[^\n]+$", text)

    out = []
    for line in difflib.unified_diff(lines(before), lines(after),
                                     f"{shown}\t(original)", f"{shown}\t(formatted)"):
        out.append(line)
        if not line.endswith("\n"):
            out.append("\n\\ No newline at end of file\n")
    return "".join(out)
