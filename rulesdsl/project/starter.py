"""`rulesdsl new`: commented starter rulebooks that compile and build as they are.

`new game NAME --extends ID` writes rulebooks/NAME.rules (and pyproject.toml, if the folder has none)
with a rule that sets every parameter the resolved series `requires` of its games, so the game
builds at once; `new game NAME` alone writes a standalone game with its own rounding rule, sequence
of play and charts.  `new series NAME [--extends ID]` writes a series rulebook.  Each starter is
compiled with the project's rulebooks before anything is written, and no existing file is replaced.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from rulesdsl.model import ir
from rulesdsl.cards.labeler import languages
from rulesdsl.model.catalogue import example_setting
from rulesdsl.modules.codegen import module_name, module_problem
from rulesdsl.errors import Diagnostic, RulesError, suggest, visible
from rulesdsl.language.fmt import format_source
from rulesdsl.project.build import compile_sources, rulebook_files, shown_path
from rulesdsl.checks.resolve import resolve
from rulesdsl.checks.schema import RULEBOOK_ID
from rulesdsl.project.settings import CONFIG_FILE, load_config
from rulesdsl.language.source import Source, read_source
from rulesdsl.language.transform import parse


class StarterError(Exception):
    """The starter cannot be written (a usage problem: nothing was written)."""


@dataclass
class Starter:
    files: dict[str, str]          # path under the project -> text
    next_steps: list[str]
    diagnostics: list[Diagnostic]  # a broken series: reported, nothing written
    sources: dict[str, str]


PYPROJECT = '''\
# Settings for rulesdsl, the wargame rulebook compiler (all optional).
[tool.rulesdsl]
# The Python package `rulesdsl build` writes the rule modules and cards into,
# importable from this folder: `from {package} import {module}`.
package = "{package}"
# Folders of series rulebooks named after their ids (house-series.rules holds
# `series house-series ...`), searched before the series rulesdsl ships.
library = []
'''

_STANDALONE = '''\
rounding standard: .50 up, keep fractions [rounding]

section rounding "Rounding" {{
  summary "Odds are rounded: a fraction of one half or more rounds up, a smaller one down."
}}

rule 1.0 "Sequence of Play" {{
  summary "Each game turn, each side moves, then fights."
}}

rule 1.1 "Paying for a hex" {{
  summary "A unit must have a hex's whole MP cost left to enter it."
  # The safe default, as SCS sets it (scs-1.8 rule 3.2a): left unset, the engine lets a unit with any
  # MP left enter a hex it cannot afford.  Set it to no only if the game's rules say so.
  movement.must_afford_entry = yes
}}

sequence of play [1.0] {{
  game turn {{
    player turn first
    player turn second
  }}
  player turn {{
    movement  [1.0]  movement
    combat    [1.0]  combat
  }}
}}

section units "Units" {{
  summary "Every counter is of one of these types; add a game's own (armor, artillery ...) with its capabilities."
}}

unit types [units] {{
  infantry
}}

terrain effects chart "{title} Terrain Effects Chart" [1.0] {{
  hex:
    clear   1  ne
    forest  2  Dx2
}}

combat results table "{title} Combat Results Table" [rounding] dice 1d6 {{
  odds  1:1   2:1   3:1
  1     A1    A1    D1
  2-3   A1    D1    D1
  4-6   D1    D1    D2
}}
'''

# a series starter shows how a series declares its own parameters and asks something of every game
_REQUIRES = '''
# The parameters this series adds to the language: each one's name, what it takes, and what it
# means in players' words (cards and errata print the meaning).  Kinds: quantity UNIT,
# modifier UNIT, count, number, flag, result, choice WORD, WORD..., order WORD, WORD...
parameters "Parameters" {
  roads.hex_cost  quantity MP  "what entering a hex along a road costs"
}

rule 2.0 "Stacking" {
  summary "Each game sets how many steps may stack in one hex."
  requires stacking.limit
}

rule 3.0 "Roads" {
  summary "A unit moving along a road pays half a movement point for each hex."
  roads.hex_cost = 1/2 MP
}
'''


def new_rulebook(root: Path, kind: str, name: str, extends: str | None, title: str | None) -> Starter:
    """The starter's files, checked; StarterError when it cannot be written."""
    if not re.fullmatch(RULEBOOK_ID, name) or len(name) > 60:
        raise StarterError(f"'{name}' is not a rulebook id: ids are lower case letters and digits joined "
                           f"by '-' or '.', like my-title or house-1.0")
    problem = module_problem(name)
    if problem:
        raise StarterError(f"'{name}' makes no Python module name: {problem}")
    config = load_config(root)     # RulesError: positioned problems in pyproject.toml
    target = f"rulebooks/{name}.rules"
    files: dict[str, str] = {}
    if (root / target).exists() or (root / target).is_symlink():
        raise StarterError(f"{target} exists already; nothing was written (remove it or choose another name)")
    project = _project_sources(root, target)
    for source in project:      # a module of the same name would collide at the next check
        try:
            other = parse(source).id.value
        except RulesError:
            continue
        if other != name and module_name(other) == module_name(name):
            raise StarterError(f"'{name}' makes the module name '{module_name(name)}', which '{other}' "
                               f"({source.path}) makes already; nothing was written (choose another name)")
    title = name.replace("-", " ").replace(".", " ").title() if title is None else _sayable(title)
    parent: ir.Rulebook | None = None
    header = f'{kind} {name} {string_literal(title)} version "0.1"' + (f" extends {extends}" if extends else "")
    if extends is not None:
        probe = compile_sources(project + [Source(target, header + "\n")], [target], config.library,
                                config.package, root)
        parent = probe.rulebooks.get(extends)
        if parent is None:
            series = {key for key, book in probe.rulebooks.items() if book.kind.value == "series"}
            known = sorted({*series, *probe.library_ids} - {name})      # a rulebook extends a series only
            raise StarterError(f"no series '{extends}' in this project or the library; "
                               + (suggest(extends, known) or "known: " + ", ".join(known)))
        if parent.kind.value != "series":
            raise StarterError(f"'{extends}' is a {parent.kind.value}, not a series: a rulebook extends a series")
        resolved, problems = resolve(parent, probe.rulebooks, probe.library_ids)
        if resolved is None:
            return Starter({}, [], problems, probe.sources)
        bodies: Iterable[str] = (_game_body(resolved, name, title, amount) for amount in PLACEHOLDER_AMOUNTS) \
            if kind == "game" else [_series_body(resolved)]
    else:
        bodies = [_STANDALONE.format(title=string_literal(title)[1:-1]) + (_REQUIRES if kind == "series" else "")]
    # the starter must build as it is, and quietly: compile it with the project before writing anything.
    # Its placeholder amounts are the first that leave the series' worked examples answering as they do (a
    # stacking limit of 1 step refuses the series' overrun examples), so its first build prints only what it
    # wrote.
    for body in bodies:
        text = _comment(kind, name, extends, parent, config.package) + header + "\n\n" + body
        try:
            text = format_source(Source(target, text))      # in the canonical layout: `rulesdsl fmt --check` passes
        except RulesError as exc:
            _refuse_own(exc.diagnostics, target, title)
            raise
        check = compile_sources(project + [Source(target, text)], [target], config.library, config.package, root)
        _refuse_own(check.diagnostics, target, title)
        if not check.ok:
            raise RulesError(check.diagnostics, check.sources)
        written_title = check.rulebooks[name].title.value if name in check.rulebooks else None
        if written_title != title:      # never a title other than the one asked for
            raise StarterError(f"--title {visible(repr(title))} cannot be written as a rulebook string; nothing "
                               f"was written (choose another title)")
        if not check.notes:
            break
    files[target] = text
    if kind == "game" and not (root / CONFIG_FILE).exists():
        files[CONFIG_FILE] = PYPROJECT.format(package=config.package, module=module_name(name))
    return Starter(files, _next_steps(kind, name, extends, config.package), [], {})


MAX_TITLE = 100     # as the schema has it (rulesdsl/checks/schema.py)


def string_literal(text: str) -> str:
    """`text` as a rulebook string (grammar.lark's STRING): a backslash, a quote and a tab escaped (\\\\, \\", \\t);
    every other character as it is."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t") + '"'


def _sayable(title: str) -> str:
    """The title given with --title, if a rulebook can carry it; StarterError, before anything is written, if not:
    empty, longer than a title may be, or holding a line break (a title is one line of the file)."""
    shown = visible(repr(title))
    if not title.strip():
        raise StarterError("--title is empty: give the rulebook's title, like --title 'Bocage 1944'")
    if len(title) > MAX_TITLE:
        raise StarterError(f"--title is too long ({len(title)} characters, at most {MAX_TITLE}); nothing was written")
    if len(f"a{title}b".splitlines()) > 1 or "\0" in title:
        raise StarterError(f"--title {shown} holds a line break or a NUL character: a title is one line of text; "
                           f"nothing was written")
    return title


def _refuse_own(diagnostics: Iterable[Diagnostic], target: str, title: str) -> None:
    """StarterError when a problem is the starter's own: the file is never written, so it is said of the title
    that made it (a usage error), not at a line of a file that does not exist."""
    own = [d for d in diagnostics if d.severity == "error" and d.span.path == target]
    if own:
        raise StarterError(f"--title {visible(repr(title))} makes a starter that does not check: {own[0].message}; "
                           f"nothing was written (choose another title)")


# the amounts a starter's placeholder values are tried at, in turn (see new_rulebook)
PLACEHOLDER_AMOUNTS = (1, 2, 3, 4, 6, 8, 10)


def _project_sources(root: Path, target: str) -> list[Source]:
    out = []
    for file in rulebook_files(root):
        shown = shown_path(file, root)
        if shown == target:
            continue
        try:
            out.append(read_source(file, shown, root=root))
        except RulesError:
            continue     # `rulesdsl check` reports it; the starter does not depend on it
    return out


def _free_rule_id(taken: set[str], prefix: str = "G") -> str:
    number = 1
    while f"{prefix}{number}.0" in taken:
        number += 1
    return f"{prefix}{number}.0"


def _game_body(series: ir.Resolved, name: str, title: str, amount: int = 1) -> str:
    taken = {e.node.id.value for e in series.rules}
    have = {p.name for p in series.parameters}
    required: dict[str, str] = {}
    for effective in series.rules:
        for parameter in effective.node.requires:
            if parameter.value not in have:
                required.setdefault(parameter.value, effective.node.id.value)
    rule_id = _free_rule_id(taken)
    lines = [
        "# ---- rules of the game's own ------------------------------------------------",
        "# Number them as the game's rulebook does; a series rule the game changes is",
        "# replaced with `override rule <id> \"<title>\" { ... }`, restating its parameters.",
        "",
    ]
    if required:
        lines += [
            f'rule {rule_id} "Game values" {{',
            f'  summary "What {series.rulebook.id.value} leaves to each game (placeholder values: set the game\'s own)."',
        ]
        width = max(map(len, required))
        for key, rule in required.items():
            lines.append(f"  {key.ljust(width)} = {example_setting(series.declared, key, amount)}"
                         f"   # required by rule {rule}")
        lines.append("  see " + ", ".join(dict.fromkeys(required.values())))
        lines.append("}")
    else:
        lines += [f'rule {rule_id} "About this game" {{',
                  '  summary "What makes this game different; replace with the game\'s first rule."', "}"]
    series_id = series.rulebook.id.value
    charts = (("Terrain Effects Chart", series.terrain), ("Combat Results Table", series.results))
    has = [name for name, chart in charts if chart and not chart.node.for_examples]
    illustrates = [name for name, chart in charts if chart and chart.node.for_examples]
    lacks = [name for name, chart in charts if not chart]
    lines += ["", "# ---- charts -----------------------------------------------------------------",
              "# Write the game's charts here as they are printed; `rulesdsl docs` prints the",
              "# language guide, with an example of each."]
    for chart in has:
        keyword = chart.lower()
        lines += [f"# {series_id} has a {chart}: the game replaces it with",
                  f"# `override {keyword} \"Title\" [rule] {{ ... }}`, or changes rows of it with",
                  f"# `amend {keyword} {{ ... }}`."]
    for chart in illustrates:
        lines += [f"# {series_id}'s {chart} only illustrates its examples (no card prints it): the game",
                  "# writes its own, which takes its place."]
    for chart in lacks:
        lines += [f"# {series_id} has no {chart}: the game writes its own, without `override`."]
    others = [lang for lang in languages(series) if lang != "en"]
    if others:     # the series' cards come in these languages: the game's title is on each
        lines += ["", "# ---- the card in other languages -----------------------------------------------",
                  "# The card's words in each language the series' cards have; add a label for",
                  "# anything the build says is shown in English."]
        for lang in others:
            lines += [f"labels {lang} {{", f"  title.rulebook  {string_literal(title)}", "}"]
    return "\n".join(lines) + "\n"


def _series_body(parent: ir.Resolved) -> str:
    taken = {e.node.id.value for e in parent.rules}
    section = "variant"
    while section in taken:
        section += "-x"
    return (f'section {section} "About this variant" {{\n'
            f'  summary "What this series changes in {parent.rulebook.id.value}; its games extend this rulebook."\n'
            "}\n")


def _comment(kind: str, name: str, extends: str | None, parent: ir.Rulebook | None, package: str) -> str:
    what = (f"a game of {parent.title.value if parent else extends} ({extends})" if kind == "game" and extends
            else "a standalone game (in no series: it says everything itself)" if kind == "game"
            else f"a series extending {extends}" if extends else "a series")
    lines = [f"# {name}: {what}.", "#"]
    if kind == "game":
        lines += (["# A game says only what differs from its series: its own rules, the series rules",
                   "# it amends or overrides, its charts."] if extends else
                  ["# A standalone game says all its rules itself: its rounding, its sequence of play,",
                   "# its charts."])
        lines += [f"# `rulesdsl build` checks it and writes {package}/{module_name(name)}.py and its",
                  f"# player-aid cards to {package}/charts/."]
    else:
        lines += ["# A series holds the rules its games share; a game extends it by id",
                  f"# (`game my-title \"My Title\" version \"1.0\" extends {name}`).  `requires <parameter>`",
                  "# in a rule makes every game set that parameter."]
    return "\n".join(lines) + "\n"


def _next_steps(kind: str, name: str, extends: str | None, package: str) -> list[str]:
    file = f"rulebooks/{name}.rules"
    module = module_name(name)
    import_name = package.replace("/", ".")
    if kind == "game":
        return [
            f"edit {file}: its title, the placeholder values"
            + (f" that {extends} requires" if extends else "") + ", then its charts and exceptions",
            f"rulesdsl build: writes {package}/{module}.py and the cards in {package}/charts/",
            f"python -c \"from {import_name} import {module}; print({module}.odds(9, 2))\"",
            f"rulesdsl diff OLD.rules {file}: an errata sheet between two versions",
        ]
    return [
        f"edit {file}: the rules its games share (`rulesdsl docs` prints the language guide)",
        f"rulesdsl new game my-title --extends {name}: a game of the series",
        "rulesdsl build",
    ]


def write_starter(root: Path, starter: Starter) -> list[str]:
    """Write the starter's files, each created anew (never over an existing file)."""
    written = []
    for rel, text in starter.files.items():
        file = root / rel
        file.parent.mkdir(parents=True, exist_ok=True)
        with open(file, "x", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        written.append(rel)
    return written

