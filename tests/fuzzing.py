"""A deterministic fuzzer for the compiler: no input may reach exit 3.

Every input is run the way a user runs the compiler, on a throwaway project
folder (a `rulebooks/` tree holding the fuzzed file and the series it
extends):

* `rulesdsl -C DIR check`: the exit code is 0 or 1, nothing escapes `main`,
  and every error is positioned (`path:line:col: error:` with a line > 0);
* when check passes, `rulesdsl -C DIR build` (cards as HTML only: PDF
  rendering takes seconds a card), then every module written to generated/
  is compiled and executed in a fresh module and must expose `RULES`;
* when the fuzzed file parses, `rulesdsl -C DIR fmt FILE`: exit 0 leaves a
  file that parses to the same model and formats to itself, exit 1 leaves
  the file untouched.

The inputs are about a thousand mutants of the shipped rulebooks (token and
line edits, truncation), and hand-made families: unicode, line endings,
deep nesting, huge numbers, hostile names and huge inputs.  Everything is
seeded, so a run is the same run everywhere.

`python tests/fuzzing.py` runs every input, groups the failures into classes
and prints each class with the smallest reproducer it can shrink to.
"""
from __future__ import annotations

import contextlib
import functools
import io
import keyword
import random
import re
import shutil
import sys
import time
import types
import zlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Mapping
from typing import Callable, Iterable, Iterator

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

MUTANTS = 1000          # mutants of the shipped rulebooks, spread over the corpus files
SEED = 20261123         # change it to explore; CI keeps it fixed


# ---- the corpus ------------------------------------------------------------
def corpus() -> dict[str, str]:
    """The shipped rulebooks and the test fixtures: path under the repository -> text."""
    files = sorted((ROOT / "rulebooks").rglob("*.rules")) + sorted((ROOT / "tests/fixtures").rglob("*.rules"))
    return {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8") for p in files}


def project_path(rel: str) -> str:
    """Where a corpus file sits in a fuzz project: under rulebooks/, keeping its folders."""
    if rel.startswith("rulebooks/"):
        return rel
    return "rulebooks/" + rel.removeprefix("tests/")


_HEADER = re.compile(r"^(?:series|game)[ \t]+(\S+)[^\n]*?(?:extends[ \t]+(\S+))?[ \t]*$", re.M)


def _header(text: str) -> tuple[str | None, str | None]:
    match = _HEADER.search(text)
    return (match.group(1), match.group(2)) if match else (None, None)


def lineage(rel: str, files: dict[str, str]) -> list[str]:
    """The corpus files `rel` extends, nearest first (the diff fixtures' 'demo' is never a parent)."""
    by_id = {}
    for path, text in files.items():
        key, _ = _header(text)
        if key and "/diff/" not in path:
            by_id.setdefault(key, path)
    out, current = [], files[rel]
    while True:
        _, parent = _header(current)
        if parent is None or parent not in by_id or by_id[parent] in out or by_id[parent] == rel:
            return out
        out.append(by_id[parent])
        current = files[by_id[parent]]


# ---- inputs ----------------------------------------------------------------
@dataclass(frozen=True)
class Input:
    family: str
    name: str                      # what was done, for reports
    target: str                    # the fuzzed file, relative to the project
    files: tuple[tuple[str, bytes], ...]  # every file of the project: path -> content
    valid: bool = False            # the compiler must accept it (check exits 0), as it accepts the original
    original: bytes | None = None  # the text it was made from, for `rulesdsl diff`

    def content(self) -> bytes:
        return dict(self.files)[self.target]

    def with_content(self, data: bytes) -> "Input":
        return Input(self.family, self.name, self.target,
                     tuple((p, data if p == self.target else c) for p, c in self.files), self.valid,
                     self.original)


def make_input(family: str, name: str, target: str, data: str | bytes,
               parents: Iterable[tuple[str, str]] = (), valid: bool = False, original: str | None = None) -> Input:
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    files = ((target, raw),) + tuple((p, t.encode("utf-8")) for p, t in parents)
    return Input(family, name, target, files, valid, original.encode("utf-8") if original is not None else None)


_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|[^\s"#]+')


def _shape(token: str) -> str:
    """A token's kind, so that a replacement can keep the file parsing: most mutants should reach
    the semantic stages, not stop at the parser."""
    for kind, pattern in (("string", r'".*'), ("comment", r"#.*"), ("number", r"[+\-]?[0-9./:]+[A-Za-z]*"),
                          ("id", r"[A-Z]{0,3}[0-9][0-9.]*[a-z]?"), ("name", r"[a-z_][a-z0-9_.\-]*"),
                          ("word", r"[A-Za-z][A-Za-z0-9_\-/]*")):
        if re.fullmatch(pattern, token):
            return kind
    return "other"


def _mutate(text: str, pool: dict[str, list[str]], lines_pool: list[str], rng: random.Random) -> tuple[str, str]:
    """One edit of `text`, and its name.  `pool`: the corpus's tokens by shape ("" for all)."""
    tokens = list(_TOKEN.finditer(text))
    op = rng.choice(["delete", "duplicate", "swap", "replace", "insert", "alike", "alike", "alike", "alike",
                     "delete-line", "duplicate-line", "swap-lines", "foreign-line", "truncate",
                     "empty-block", "one-line-block"])
    if op == "alike" and tokens:
        tok = rng.choice(tokens)
        new = rng.choice(pool[_shape(tok.group(0))])
        a, b = tok.span()
        return text[:a] + new + text[b:], f"replace {tok.group(0)[:30]!r} with {new[:30]!r}"
    if op in ("delete", "duplicate", "swap", "replace", "insert") and tokens:
        i = rng.randrange(len(tokens))
        tok = tokens[i]
        a, b = tok.span()
        if op == "delete":
            return text[:a] + text[b:], f"delete token {tok.group(0)[:30]!r}"
        if op == "duplicate":
            return text[:b] + " " + tok.group(0) + text[b:], f"duplicate token {tok.group(0)[:30]!r}"
        if op == "swap":
            j = min(len(tokens) - 1, i + rng.choice([1, 1, 2, rng.randrange(1, 40)]))
            other = tokens[j]
            if j == i:
                return text[:a] + text[b:], f"delete token {tok.group(0)[:30]!r}"
            c, d = other.span()
            return (text[:a] + other.group(0) + text[b:c] + tok.group(0) + text[d:],
                    f"swap tokens {tok.group(0)[:30]!r} and {other.group(0)[:30]!r}")
        new = rng.choice(pool[""])
        if op == "replace":
            return text[:a] + new + text[b:], f"replace token {tok.group(0)[:30]!r} with {new[:30]!r}"
        return text[:a] + new + " " + text[a:], f"insert token {new[:30]!r}"
    lines = text.split("\n")
    k = rng.randrange(len(lines))
    if op in ("empty-block", "one-line-block"):
        opens = [i for i, line in enumerate(lines) if line.rstrip().endswith("{")]
        if opens:
            start = rng.choice(opens)
            indent = len(lines[start]) - len(lines[start].lstrip())
            end = next((j for j in range(start + 1, len(lines))
                        if lines[j].strip() == "}" and len(lines[j]) - len(lines[j].lstrip()) == indent), start + 1)
            keep = start + 1 + (op == "one-line-block")
            return "\n".join(lines[:keep] + lines[end:]), f"{op} at line {start + 1}"
    if op == "delete-line":
        return "\n".join(lines[:k] + lines[k + 1:]), f"delete line {k + 1}"
    if op == "duplicate-line":
        return "\n".join(lines[:k + 1] + lines[k:]), f"duplicate line {k + 1}"
    if op == "swap-lines":
        m = min(len(lines) - 1, k + rng.randint(1, 5))
        lines[k], lines[m] = lines[m], lines[k]
        return "\n".join(lines), f"swap lines {k + 1} and {m + 1}"
    if op == "foreign-line":
        new = rng.choice(lines_pool)
        return "\n".join(lines[:k] + [new] + lines[k:]), f"insert line {new.strip()[:40]!r} at {k + 1}"
    cut = rng.randrange(len(text) + 1)
    return text[:cut], f"truncate at offset {cut}"


def mutants(count: int = MUTANTS, seed: int = SEED) -> list[Input]:
    """`count` mutants spread evenly over the corpus files, one to three edits each."""
    return list(_mutants(count, seed, tuple(sorted(corpus().items()))))


@functools.lru_cache(maxsize=4)     # several tests and every shard of the fuzz job ask for the same thousand
def _mutants(count: int, seed: int, corpus_files: tuple[tuple[str, str], ...]) -> tuple[Input, ...]:
    files = dict(corpus_files)
    tokens = sorted({m.group(0) for text in files.values() for m in _TOKEN.finditer(text)})
    pool: dict[str, list[str]] = {"": [t for t in tokens if not t.startswith("#")]}
    for token in tokens:
        pool.setdefault(_shape(token), []).append(token)
    lines_pool = sorted({line for text in files.values() for line in text.split("\n") if line.strip()})
    out = []
    names = sorted(files)
    for n in range(count):
        rel = names[n % len(names)]
        rng = random.Random(zlib.crc32(f"{seed}:{rel}:{n}".encode()))
        text, edits = files[rel], []
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            text, edit = _mutate(text, pool, lines_pool, rng)
            edits.append(edit)
        parents = [(project_path(p), files[p]) for p in lineage(rel, files)]
        out.append(make_input("mutants", f"{rel}: " + "; ".join(edits), project_path(rel), text, parents,
                              original=files[rel]))
    return tuple(out)


# ---- hand-made families ----------------------------------------------------
BASE = (ROOT / "tests/fixtures/base.rules").read_text(encoding="utf-8")
GAME = '''game demo "Demo Game" version "1.0" extends base

rule G1.0 "Stacking" {
  summary "Six steps may stack in a hex."
  stacking.limit = 6 steps
  note "A note."
}

rule G2.0 "Formulas" {
  summary "Definitions."
  define two = 1 + 1
}

die roll modifiers "Modifiers" [G2.0] {
  density  +1  both      when count(defenders) >= 3
}

combat results table "Demo CRT" [7.4] dice 1d6 {
  odds   1:2    1:1    2:1    3:1
  1-2    A1r1   A1     A1D1   D1r1
  3-4    A1     A1D1   D1r1   D2r2
  5-6    A1D1   D1r1   D2r2   D2r3
}
'''
GAME_PATH = "rulebooks/demo.rules"


def _game(family: str, name: str, text: str | bytes, valid: bool = False) -> Input:
    return make_input(family, name, GAME_PATH, text, [("rulebooks/base.rules", BASE)], valid, GAME)


def _define(expr: str) -> str:
    return GAME.replace("define two = 1 + 1", f"define two = {expr}")


def _replace_in(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def unicode_family() -> list[Input]:
    marks = {
        "combining": "e\u0301\u0301\u0301", "rtl": "\u202eabc\u202c \u05d0\u05d1", "nul": "a\x00b",
        "line-separator": "a\u2028b", "paragraph-separator": "a\u2029b", "nel": "a\x85b",
        "emoji": "\U0001f600\U0001f468\u200d\U0001f469\u200d\U0001f467", "bom-inside": "a\ufeffb",
        "zero-width": "a\u200bb", "escape": "a\x1b[31mb", "fullwidth": "\uff41\uff42",
        "lone-surrogate": "a\ud800b", "noncharacter": "a\uffffb", "private": "\U0010fffd",
    }
    printable = {"combining", "rtl", "emoji", "fullwidth", "zero-width", "private", "noncharacter"}
    out = []
    for kind, chars in marks.items():
        ok = kind in printable  # text people write: it must compile
        out.append(_game("unicode", f"{kind} in a summary", _replace_in(GAME, "Six steps", chars), ok))
        out.append(_game("unicode", f"{kind} in a comment", "# " + chars + "\n" + GAME, ok))
        out.append(_game("unicode", f"{kind} in a name", _replace_in(GAME, "define two", f"define t{chars}o")))
        out.append(_game("unicode", f"{kind} in a rule id", _replace_in(GAME, "G1.0", f"G1{chars}.0")))
        out.append(_game("unicode", f"{kind} in a label",
                         GAME + f'\nlabels fr "{chars}" {{\n  title.results "{chars}"\n}}\n', ok))
        out.append(_game("unicode", f"{kind} in a table cell", _replace_in(GAME, "A1r1   A1  ", f"A1r1   A{chars}  ")))
        out.append(_game("unicode", f"{kind} in the rulebook id", _replace_in(GAME, "game demo", f"game de{chars}mo")))
        out.append(_game("unicode", f"{kind} after a token", _replace_in(GAME, "6 steps", f"6 steps{chars}")))
    for name, data in {
        "latin-1 byte": GAME.replace("Six", "Six \u00e9").encode("latin-1"),
        "0xff byte": GAME.encode() + b"\xff\n",
        "utf-16": GAME.encode("utf-16"),
        "utf-8 bom": b"\xef\xbb\xbf" + GAME.encode(),  # (valid: below)
        "two boms": b"\xef\xbb\xbf\xef\xbb\xbf" + GAME.encode(),
        "overlong nul": GAME.encode().replace(b"Six", b"\xc0\x80"),
        "truncated sequence": GAME.encode().replace(b"Six", b"\xe2\x82"),
        "surrogate bytes": GAME.encode().replace(b"Six", b"\xed\xa0\x80"),
        "nul bytes only": b"\x00" * 64,
        "binary": bytes(range(256)) * 4,
    }.items():
        out.append(_game("unicode", name, data, name == "utf-8 bom"))
    return out


# Layouts the language accepts (the issue: comments and blank lines at any indentation; CR, CRLF
# and LF line endings): a rulebook written so must compile as it does with LF and no indentation.
VALID_LAYOUTS = {"crlf", "cr", "mixed", "crlf-no-final", "no-final-newline", "lf-cr", "cr-cr-lf", "tabs",
                 "form-feed-in-line", "many-blank", "blank-with-spaces", "indented-comment", "trailing-spaces"}


def line_ending_family() -> list[Input]:
    out = []
    texts = {"game": GAME, "base": BASE}
    for which, text in texts.items():
        variants = {
            "crlf": text.replace("\n", "\r\n"),
            "cr": text.replace("\n", "\r"),
            "mixed": "".join(line + ("\r\n", "\n", "\r")[i % 3] for i, line in enumerate(text.split("\n"))),
            "crlf-no-final": text.rstrip("\n").replace("\n", "\r\n"),
            "no-final-newline": text.rstrip("\n"),
            "lf-cr": text.replace("\n", "\n\r"),
            "cr-cr-lf": text.replace("\n", "\r\r\n"),
            "form-feed-lines": text.replace("\n\n", "\n\f\n"),
            "form-feed-in-line": text.replace("  summary", "\f summary"),
            "vertical-tab": text.replace("  summary", "\v summary"),
            "vertical-tab-line": text.replace("\n\n", "\n\v\n"),
            "tabs": text.replace("  ", "\t"),
            "file-separator": text.replace("\n\n", "\n\x1c\n"),
            "nel": text.replace("\n\n", "\n\x85\n"),
            "line-separator": text.replace("\n\n", "\n\u2028\n"),
            "many-blank": text.replace("\n\n", "\n" * 200),
            "blank-with-spaces": text.replace("\n\n", "\n   \n"),
            "indented-comment": text.replace("  summary", "  # a comment\n  summary"),
            "trailing-spaces": text.replace("\n", "   \n"),
        }
        for name, variant in variants.items():
            valid = name in VALID_LAYOUTS
            if which == "game":
                out.append(_game("line-endings", f"{name} (game)", variant, valid))
            else:
                out.append(make_input("line-endings", f"{name} (series)", "rulebooks/base.rules", variant,
                                      valid=valid))
    return out


def nesting_family() -> list[Input]:
    out = []
    for n in (200, 201, 500, 5000):
        out.append(_game("nesting", f"{n} parentheses", _define("(" * n + "1" + ")" * n)))
        out.append(_game("nesting", f"{n} added terms", _define(" + ".join(["1"] * n))))
        out.append(_game("nesting", f"{n} multiplied terms", _define(" * ".join(["1"] * n))))
        out.append(_game("nesting", f"{n} mixed terms", _define(" + ".join(["2 * 1 - 1 / 1"] * (n // 4 + 1)))))
        out.append(_game("nesting", f"{n} negations", _define("- " * n + "1")))
        out.append(_game("nesting", f"{n} nots", _define("not " * n + "1 > 0")))
        out.append(_game("nesting", f"{n} ands", _define(" and ".join(["1 > 0"] * n))))
        out.append(_game("nesting", f"{n} ors", _define(" or ".join(["1 > 0"] * n))))
        out.append(_game("nesting", f"{n} nested calls", _define("min(" * n + "1" + ", 2)" * n)))
        out.append(_game("nesting", f"{n} chained definitions", _replace_in(
            GAME, "  define two = 1 + 1",
            "\n".join(f"  define d{i} = d{i + 1} + 1" for i in range(n)) + f"\n  define d{n} = 1")))
        out.append(_game("nesting", f"{n} terms in a condition", _replace_in(
            GAME, "count(defenders) >= 3", " + ".join(["count(defenders)"] * n) + " >= 3")))
        out.append(_game("nesting", f"{n} open braces", GAME + "rule X1 {\n" * n))
        out.append(_game("nesting", f"{n} unclosed parentheses", _define("(" * n + "1")))
    return out


def numbers_family() -> list[Input]:
    big = "9" * 4301
    huge = "7" * 20000
    out = []
    for name, (old, new) in {
        "4301-digit parameter": ("6 steps", f"{big} steps"),
        "20000-digit parameter": ("6 steps", f"{huge} steps"),
        "4301-digit fraction": ("6 steps", f"1/{big} steps"),
        "huge fraction numerator": ("6 steps", f"{big}/3 steps"),
        "zero denominator": ("6 steps", "1/0 steps"),
        "4301 decimals": ("6 steps", f"0.{big} steps"),
        "4301-digit expression literal": ("1 + 1", f"{big} + 1"),
        "4301-digit decimal literal": ("1 + 1", f"1.{big}"),
        "division by zero literal": ("1 + 1", "1 / 0"),
        "huge dice count": ("dice 1d6", f"dice {big}d6"),
        "huge dice sides": ("dice 1d6", f"dice 1d{big}"),
        "many dice": ("dice 1d6", "dice 999999999d6"),
        "many sides": ("dice 1d6", "dice 1d999999999"),
        "zero dice": ("dice 1d6", "dice 0d6"),
        "zero sides": ("dice 1d6", "dice 1d0"),
        "huge odds": ("3:1\n", f"{big}:1\n"),
        "huge odds divisor": ("odds   1:2 ", f"odds   1:{big} "),
        "zero odds": ("odds   1:2 ", "odds   0:0 "),
        "huge roll": ("5-6    A1D1", f"5-{big}    A1D1"),
        "huge roll start": ("5-6    A1D1", f"{big}-6    A1D1"),
        "huge result": ("D2r3", f"D{big}r3"),
        "huge modifier": ("+1  both", f"+{big}  both"),
        "huge cap": ("[G2.0] {", f"[G2.0] cap {big} {{"),
        "huge comparison": (">= 3", f">= {big}"),
        "huge rule id": ("G1.0", f"G1.{big}"),
        "huge multiplier": ("D1r1   D2r2   D2r3", f"D1r1   D2r2   D2r{big}"),
    }.items():
        out.append(_game("numbers", name, _replace_in(GAME, old, new)))
    out.append(make_input("numbers", "huge terrain cost", "rulebooks/base.rules",
                          _replace_in(BASE, "woods     2 ", f"woods     {big} ")))
    out.append(make_input("numbers", "huge terrain multiplier", "rulebooks/base.rules",
                          _replace_in(BASE, "Dx2", f"Dx{big}")))
    out.append(make_input("numbers", "huge shift", "rulebooks/base.rules",
                          _replace_in(BASE, "Dx2", f"{big}L")))
    out.append(make_input("numbers", "huge rounding", "rulebooks/base.rules",
                          _replace_in(BASE, ".50 up", f".{big} up")))
    return out


# A game with a block of every kind, each with a title and cites where it takes them.
FULL = '''game full "Every Block" version "1.0" extends base

rule G1.0 "Stacking" {
  summary "Six steps may stack in a hex."
  stacking.limit = 6 steps
}

rule G2.0 "Formulas" {
  summary "Definitions."
  define two = 1 + 1
  define choice {
    high when count(defenders) >= 3
    low otherwise
  }
}

unit types [G2.0] {
  tank  armored, exploit
  infantry
}

unit states [G2.0]: dg, out-of-supply

combat situations [G2.0]: ambush

combat amounts [G2.0]: artillery-points

die roll modifiers "Modifiers" [G2.0] cap 2 {
  density  +1  both  when count(defenders) >= 3
}

column shifts "Shifts" [G2.0] max 2 per side {
  cover  -1 max 1 when two > 1
}

strength factors "Factors" [G2.0] {
  dg-attack  attack  1/2  when dg
}

result adjustments "Adjustments" [G2.0] {
  ambush-retreat  defender-retreat  -1  when ambush
}

table weather "Weather" [G2.0] {
  roll  1-2  3-6
  sky   rain clear
}

combat results table "Demo CRT" [7.4] dice 1d6 {
  odds   1:2    1:1    2:1    3:1
  1-2    A1r1   A1     A1D1   D1r1
  3-4    A1     A1D1   D1r1   D2r2
  5-6    A1D1   D1r1   D2r2   D2r3
}

override terrain effects chart "Full TEC" [G2.0] {
  hex:
    open      1    ne
    woods     2    Dx2  level 1
  roads:
    road      1/2  ot
  hexside:
    river     P    P    line river
    bridge    negates river  Ax1/2
}

override sequence of play [1.0] {
  game turn {
    player turn first
    player turn second
  }
  player turn {
    movement  [G1.0]  movement, overrun  "Move."
    combat    [7.4]   combat
  }
}

labels fr "Français" {
  title.results  "Table des résultats"
}
'''


def _blocks(text: str) -> list[tuple[int, int]]:
    """(first, last) line numbers of each top-level block and one-line statement (0-based)."""
    lines, out, i = text.split("\n"), [], 0
    while i < len(lines):
        line = lines[i]
        if line and not line[0].isspace() and not line.startswith(("#", "}")):
            if line.rstrip().endswith("{"):
                end = next((j for j in range(i + 1, len(lines)) if lines[j] == "}"), len(lines) - 1)
                out.append((i, end))
                i = end
            else:
                out.append((i, i))
        i += 1
    return out


def blocks_family() -> list[Input]:
    """Every block of FULL and of the base series emptied, cut to one line, without its title,
    without its cites, doubled, and with `override` toggled."""
    out = []
    for which, text in (("game", FULL), ("series", BASE)):
        lines = text.split("\n")
        for first, last in _blocks(text)[1:]:  # not the header
            head = lines[first]
            kind = " ".join(head.split()[:2])
            variants = {
                "empty": lines[:first + 1] + lines[last:] if last > first else
                lines[:first] + [re.sub(r":.*", ":", head)] + lines[first + 1:],
                "one line": lines[:first + 2] + lines[last:] if last > first + 1 else None,
                "no title": lines[:first] + [re.sub(r' "[^"]*"', "", head, count=1)] + lines[first + 1:],
                "no cites": lines[:first] + [re.sub(r" \[[^\]]*\]", "", head)] + lines[first + 1:],
                "doubled": lines[:last + 1] + lines[first:last + 1] + lines[last + 1:],
                "override toggled": lines[:first] + [head.removeprefix("override ") if head.startswith("override ")
                                                      else "override " + head] + lines[first + 1:],
            }
            for name, variant in variants.items():
                if variant is None or variant == lines:
                    continue
                data = "\n".join(variant)
                label = f"{kind} (line {first + 1}): {name}"
                if which == "game":
                    out.append(make_input("blocks", label, "rulebooks/full.rules", data, [("rulebooks/base.rules", BASE)],
                                          original=FULL))
                else:
                    out.append(make_input("blocks", f"series {label}", "rulebooks/base.rules", data, original=BASE))
    return out


def _runtime_names() -> list[str]:
    try:
        import rulesdsl.runtime as runtime
        # its public names, not dir(): that also lists the submodules imported so far, which depends on
        # what ran before in the process, and the fuzzer's inputs must be the same on every run
        return sorted(n for n in runtime.__all__ if re.fullmatch(r"[a-z_][a-z0-9_]*", n))
    except Exception:  # the fuzzer must not depend on the runtime's shape
        return []


def names_family() -> list[Input]:
    soft = list(getattr(keyword, "softkwlist", []))
    builtins = ["print", "list", "int", "str", "len", "min", "max", "sum", "open", "exec", "eval", "id", "type",
                "object", "__import__", "__builtins__", "__name__", "__file__", "__init__", "self", "cls",
                "fraction", "math", "sys", "os", "re", "rules", "rulebook", "parameters", "parameter", "resolve",
                "true", "false", "none", "yes", "no"]
    names = sorted(set([k for k in keyword.kwlist if re.fullmatch(r"[a-z_]+", k)] + soft + builtins + ["_", "__"]
                       + _runtime_names()))
    out = []
    for name in names:
        out.append(_game("names", f"define {name} = 1", _replace_in(GAME, "define two = 1 + 1", f"define {name} = 1")))
    for name in ("class", "import", "none", "_", "__init__", "generated", "runtime", "rulesdsl", "base-", "a--b",
                 "sys", "lambda", "match", "def"):
        out.append(_game("names", f"rulebook id {name}", _replace_in(GAME, "game demo", f"game {name}")))
        out.append(make_input("names", f"series id {name}", "rulebooks/base.rules",
                              _replace_in(BASE, "series base", f"series {name}")))
    pairs = [("a-b", "a_b"), ("a.b", "a_b"), ("x-1", "x_1"), ("two-x", "two_x"), ("two", "two_")]
    for one, other in pairs:
        out.append(_game("names", f"define {one} and {other}", _replace_in(
            GAME, "define two = 1 + 1", f"define {one} = 1\n  define {other} = 2")))
    for one, other in [("demo-x", "demo_x"), ("demo.x", "demo-x")]:
        two = _replace_in(GAME, "game demo", f"game {other}").replace("G1.0", "G7.0")
        inp = _game("names", f"rulebook ids {one} and {other}", _replace_in(GAME, "game demo", f"game {one}"))
        out.append(Input(inp.family, inp.name, inp.target, inp.files + (("rulebooks/other.rules", two.encode()),)))
    for name in ("class", "_", "if", "round_from", "resolve", "rules"):
        out.append(_game("names", f"case {name}", _replace_in(
            GAME, "  define two = 1 + 1", f"  define choice {{\n    {name} when 1 > 0\n    other otherwise\n  }}")))
        out.append(_game("names", f"modifier {name}", _replace_in(GAME, "  density  +1", f"  {name}  +1")))
        out.append(_game("names", f"parameter {name}.x", _replace_in(GAME, "  note \"A note.\"", f"  {name}.x = 1")))
        out.append(_game("names", f"section {name}", GAME + f'\nsection {name} "S" {{\n  summary "s"\n}}\n'))
        out.append(_game("names", f"table {name}", GAME + f'\ntable {name} "T" {{\n  a 1 2\n  b 3 4\n}}\n'))
        out.append(_game("names", f"unit state {name}", GAME + f"\nunit states: {name}\n"))
    return out


def huge_family() -> list[Input]:
    out = []
    out.append(_game("huge", "a 1 MB summary", _replace_in(GAME, "Six steps", "x" * 1_000_000)))
    out.append(_game("huge", "a 1 MB comment line", "#" + "x" * 1_000_000 + "\n" + GAME))
    out.append(_game("huge", "a 100k-character name", _replace_in(GAME, "define two", "define t" + "w" * 100_000)))
    out.append(_game("huge", "a 100k-character rule id", _replace_in(GAME, "G1.0", "G1." + "1" * 100_000)))
    out.append(_game("huge", "a 100k-token line", _replace_in(GAME, "6 steps", "6 " + "steps " * 100_000)))
    out.append(_game("huge", "a 20k-cell row", _replace_in(GAME, "5-6    A1D1", "5-6    " + "A1D1 " * 20_000)))
    rules = "".join(f'rule H{i}.0 "R{i}" {{\n  summary "s"\n}}\n' for i in range(2000))
    out.append(_game("huge", "2000 rules", GAME + rules))
    out.append(_game("huge", "2000 duplicate rules", GAME + 'rule H1.0 "R" {\n  summary "s"\n}\n' * 2000))
    out.append(_game("huge", "5000 unknown references", GAME + 'rule H1.0 "R" {\n  summary "s"\n'
                     + "".join(f"  see nowhere{i}\n" for i in range(2000)) + "}\n"))
    out.append(_game("huge", "2000 rows", _replace_in(GAME, "  5-6    A1D1   D1r1   D2r2   D2r3\n",
                                                      "  5-6    A1D1   D1r1   D2r2   D2r3\n" * 2000)))
    return out


def limits_family() -> list[Input]:
    """At and past each limit of work (language/limits.py) and each division by zero: a build or a positioned
    error, quickly (the 10,000-column CRT ran ten minutes, the 99999.99999 map grew past 2.7 GB)."""
    out = []
    for columns in (24, 25, 60, 10_000):
        head = "  odds   " + " ".join(f"{i}:1" for i in range(1, columns + 1))
        rows = "".join(f"  {r}-{r}    " + " ".join("D1" for _ in range(columns)) + "\n" for r in range(1, 7))
        crt = f'combat results table "Wide" [7.4] dice 1d6 {{\n{head}\n{rows}}}\n'
        text = GAME[:GAME.index("combat results table")] + crt
        out.append(_game("limits", f"a CRT of {columns} columns", text, valid=columns <= 24))
    for rows in (100, 101, 5000):
        table = 'table long "Long" [7.4] {\n  roll/steps  0  1\n' + "".join(f"  {i}  0  1\n" for i in range(1, rows + 1)) + "}\n"
        out.append(_game("limits", f"a table of {rows} rows", GAME + table, valid=rows <= 100))
    for last in ("141.141", "142.142", "99999.99999", "9999999.9999999"):
        example = (f'example "Big" [7.4] {{\n  map 1.01 - {last} open\n  phasing friendly\n'
                   f'  unit 1 friendly 4-4-5 at 1.01\n  expect move 1 1.02 costs 1\n}}\n')
        out.append(_game("limits", f"a map to {last}", GAME + example))
    for expr in ("1 / 0", "2 / (1 - 1)", "1 / (two - 2)", "3 / max(count(defenders), 1)",
                 "count(attackers) / count(defenders)"):
        out.append(_game("limits", f"define z = {expr}", _define(expr)))
    return out


FAMILIES: dict[str, Callable[[], list[Input]]] = {
    "mutants": mutants, "unicode": unicode_family, "line-endings": line_ending_family,
    "nesting": nesting_family, "blocks": blocks_family, "numbers": numbers_family, "names": names_family, "huge": huge_family,
    "limits": limits_family,
}


# ---- running one input -----------------------------------------------------
@dataclass(frozen=True)
class Failure:
    kind: str       # exit-3, escaped, exit-N, unpositioned, no-error-reported, build-*, module-*, fmt-*
    detail: str     # the message that shows the class (an exception's type and message, an error line ...)
    input: Input = field(compare=False)

    @property
    def signature(self) -> str:
        """The failure class: its kind and its detail with names, numbers and quoted text blurred."""
        if self.kind == "module-binds-a-name-twice":
            return self.kind
        if self.kind.endswith("terminal-control-characters"):
            return f"{self.kind}: {self.detail.split(' in ')[0]}"
        detail = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", self.detail)
        detail = re.sub(r"\d+", "N", detail)
        detail = re.sub(r"^rulebooks/\S*", "FILE", detail)
        return f"{self.kind}: {detail[:160]}"

    def __str__(self) -> str:
        return f"[{self.kind}] {self.detail}\n    input: {self.input.family} / {self.input.name}"


_HEAD = re.compile(r"^(?P<where>[^ \n][^\n]*?): (?P<severity>error|warning): (?P<message>.*)$")
_POSITIONED = re.compile(r"^(?P<path>.+):(?P<line>\d+):(?P<column>\d+)$")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # what a terminal acts on, besides \t and \n
_INTERNAL = re.compile(r"^rulesdsl: internal error: (?P<what>.*?)\n(?:this is a bug|\Z)", re.M | re.S)


def _run_cli(argv: list[str]) -> tuple[int | None, str, str, BaseException | None]:
    from rulesdsl.cli import main
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    except BaseException as exc:  # noqa: BLE001 - anything escaping main is a finding
        if isinstance(exc, KeyboardInterrupt):
            raise
        return None, out.getvalue(), err.getvalue(), exc
    return code, out.getvalue(), err.getvalue(), None


def check_output(command: str, code: int | None, err: str, exc: BaseException | None, item: Input,
                 files: dict[str, int]) -> list[Failure]:
    """What is wrong with one command's exit code and error output. `files`: path -> number of lines."""
    if exc is not None:
        return [Failure(f"{command}-escaped", f"{type(exc).__name__}: {exc}"[:300], item)]
    found = []
    if code == 3:
        internal = _INTERNAL.search(err)
        what = re.sub(r"\s+", " ", internal.group("what") if internal else err)
        return [Failure(f"{command}-exit-3", what[:300], item)]
    if code not in (0, 1):
        return [Failure(f"{command}-exit-{code}", err.strip()[:300], item)]
    control = _CONTROL.search(err)
    if control:
        around = err[max(0, control.start() - 60):control.end() + 20]
        found.append(Failure(f"{command}-terminal-control-characters",
                             f"{ascii(control.group())} in {ascii(around)}"[:300], item))
    errors = 0
    for line in err.split("\n"):
        head = _HEAD.match(line)
        if not head or line.startswith("hint: "):
            continue
        errors += head.group("severity") == "error"
        if ": error: internal error: " in line:  # a compiler bug the build caught: positioned, still a bug
            found.append(Failure(f"{command}-internal-error", line[:300], item))
        where = _POSITIONED.match(head.group("where"))
        if head.group("severity") == "error" and (where is None or int(where.group("line")) < 1):
            found.append(Failure(f"{command}-unpositioned", line[:300], item))
        elif where is not None and where.group("path") in files:
            if int(where.group("line")) > files[where.group("path")] + 1:
                found.append(Failure(f"{command}-position-past-end", line[:300], item))
    if code == 1 and errors == 0 and command == "check":
        found.append(Failure(f"{command}-no-error-reported", err.strip()[:300], item))
    if code == 0 and errors:
        found.append(Failure(f"{command}-error-but-exit-0", err.strip()[:300], item))
    return found


def _import_modules(folder: Path, item: Input) -> list[Failure]:
    found = []
    for file in sorted(folder.glob("*.py")):
        if file.name == "__init__.py":
            continue
        name = f"_fuzz_generated_{file.stem}"
        module = types.ModuleType(name)
        module.__file__ = str(file)
        sys.modules[name] = module
        try:
            source = file.read_text(encoding="utf-8")
            code = compile(source, str(file), "exec")
            twice = _bound_twice(source)
            if twice:  # two rulebook names made one Python name, or one took a name the module uses
                found.append(Failure("module-binds-a-name-twice", f"{file.name}: {', '.join(twice)}", item))
            exec(code, module.__dict__)
        except BaseException as exc:  # noqa: BLE001
            if isinstance(exc, KeyboardInterrupt):
                raise
            kind = "module-does-not-compile" if isinstance(exc, (SyntaxError, RecursionError, MemoryError)) \
                and "exec" not in str(getattr(exc, "filename", "")) else "module-does-not-import"
            found.append(Failure(kind, f"{file.name}: {type(exc).__name__}: {exc}"[:300], item))
            continue
        finally:
            sys.modules.pop(name, None)
        if not isinstance(getattr(module, "RULES", None), Mapping):
            found.append(Failure("module-without-RULES", file.name, item))
    return found


def _bound_twice(source: str) -> list[str]:
    """Top-level names a module binds more than once (imports, functions, classes, assignments)."""
    import ast
    names: Counter = Counter()
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names[node.name] += 1
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return sorted(name for name, count in names.items() if count > 1)


@contextlib.contextmanager
def html_cards_only() -> Iterator[None]:
    """`rulesdsl build` with HTML cards only: PDF rendering costs seconds a card."""
    import rulesdsl.project.build as build     # the command line imports add_charts from it when it builds
    original = build.add_charts

    def add_charts(result, formats=("html", "pdf"), *args, **kwargs):
        return original(result, tuple(f for f in formats if f != "pdf"), *args, **kwargs)
    build.add_charts = add_charts
    try:
        yield
    finally:
        build.add_charts = original


@contextlib.contextmanager
def stage_cache(size: int = 16) -> Iterator[None]:
    """Remember the last parses by (path, text), and the semantic check of each model they gave:
    the unchanged series under a mutant are parsed and checked once, not once a command.
    Models and diagnostics are immutable, so this changes speed only.  Only names that
    rulesdsl.project.passes, rulesdsl.project.build and rulesdsl.language.fmt import are replaced; when they are
    gone, nothing is cached."""
    import rulesdsl.language.fmt
    import rulesdsl.project.build
    import rulesdsl.project.passes
    saved = []
    parses: dict[tuple[str, str], tuple[bool, object]] = {}
    checks: dict[int, tuple[object, list]] = {}

    def remember(memo: dict, key, value) -> None:
        memo[key] = value
        if len(memo) > size:
            memo.pop(next(iter(memo)))

    def cached_parse(original):
        def parse(source, *args, **kwargs):
            key = (getattr(source, "path", None), getattr(source, "text", None))
            if args or kwargs or not isinstance(key[1], str):
                return original(source, *args, **kwargs)
            if key not in parses:
                try:
                    remember(parses, key, (True, original(source)))
                except Exception as exc:  # noqa: BLE001 - raised again below, the same each time
                    remember(parses, key, (False, exc))
            ok, value = parses[key]
            if ok:
                return value
            raise value.with_traceback(None)
        return parse

    def cached_check(original):
        def check(model, *args, **kwargs):
            if args or kwargs:
                return original(model, *args, **kwargs)
            if id(model) not in checks or checks[id(model)][0] is not model:
                remember(checks, id(model), (model, list(original(model))))
            return list(checks[id(model)][1])
        return check

    for module, name, wrap in ((rulesdsl.project.passes, "parse", cached_parse), (rulesdsl.project.build, "parse", cached_parse),
                               (rulesdsl.language.fmt, "parse", cached_parse), (rulesdsl.project.passes, "check", cached_check),
                               (rulesdsl.project.build, "check", cached_check)):
        function = getattr(module, name, None)
        if callable(function):
            saved.append((module, name, function))
            setattr(module, name, wrap(function))
    try:
        yield
    finally:
        for module, name, function in saved:
            setattr(module, name, function)


def _parse_model(path: str, data: bytes):
    """The model of a file, or None when it does not parse (or is not UTF-8)."""
    from rulesdsl.language.source import Source
    import rulesdsl.project.build
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    text = text.removeprefix("\ufeff")
    try:
        return rulesdsl.project.build.parse(Source(path, text))
    except Exception:  # noqa: BLE001 - a syntax error; a crash here is the check command's finding
        return None


def run(item: Input, workdir: Path) -> list[Failure]:
    """Run check, build, import and fmt on one input in `workdir` (emptied first)."""
    project = workdir / "project"
    if project.exists():
        shutil.rmtree(project)
    lines = {}
    for rel, data in item.files:
        path = project / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        lines[rel] = data.count(b"\n") + 1
    code, _, err, exc = _run_cli(["-C", str(project), "check"])
    found = check_output("check", code, err, exc, item, lines)
    if item.valid and code == 1:
        first = next((line for line in err.split("\n") if ": error: " in line), err.strip())
        found.append(Failure("check-rejects-valid-input", first[:300], item))
    if code == 0 and not found:
        with html_cards_only():
            code, _, err, exc = _run_cli(["-C", str(project), "build"])
        found += check_output("build", code, err, exc, item, lines)
        if code == 0:
            found += _import_modules(project / "generated", item)
    model = _parse_model(item.target, item.content())
    if model is not None and item.original is not None:
        found += _check_diff(item, project, lines)
    if model is not None:
        found += _check_fmt(item, project, lines, model)
    return found


DIFF_FORMATS = ("text", "md", "json", "html")


def _check_diff(item: Input, project: Path, lines: dict[str, int]) -> list[Failure]:
    """`rulesdsl diff ORIGINAL FILE`, in one of its formats: 0 or 1, or 2 with positioned errors."""
    original = project / "original.rules"
    original.write_bytes(item.original or b"")
    form = DIFF_FORMATS[zlib.crc32(item.name.encode()) % len(DIFF_FORMATS)]
    code, _, err, exc = _run_cli(["-C", str(project), "diff", "--format", form, str(original),
                                  str(project / item.target)])
    if code == 2 and not err.startswith("rulesdsl: error:"):
        code = 1  # a side with errors: they are rendered like check's, and judged the same way
    original.unlink()
    return check_output("diff", code, err, exc, item, lines | {"original.rules": item.original.count(b"\n") + 1})


def _check_fmt(item: Input, project: Path, lines: dict[str, int], model) -> list[Failure]:
    from rulesdsl.language.fmt import format_text
    target = project / item.target
    before = target.read_bytes()
    code, _, err, exc = _run_cli(["-C", str(project), "fmt", str(target)])
    if code == 123:
        code = 1  # a file fmt cannot read or parse: its errors are rendered like check's, and judged the same way
    found = check_output("fmt", code, err, exc, item, lines)
    after = target.read_bytes()
    if code == 1 and after != before:
        found.append(Failure("fmt-exit-1-but-wrote", item.target, item))
    if code != 0 or found:
        return found
    formatted = _parse_model(item.target, after)
    if formatted is None:
        from rulesdsl.errors import RulesError
        from rulesdsl.language.source import Source
        import rulesdsl.project.build
        try:
            rulesdsl.project.build.parse(Source(item.target, after.decode("utf-8")))
            why = "does not parse"
        except RulesError as error:
            first = error.diagnostics[0]
            text_line = after.decode("utf-8").split("\n")[first.span.line - 1] if first.span.line else ""
            why = f"{first.message} at {first.span.line}:{first.span.column}: {text_line.strip()[:60]!r}"
        except Exception as error:  # noqa: BLE001
            why = f"{type(error).__name__}: {error}"
        return [Failure("fmt-output-does-not-parse", why[:300], item)]
    if formatted != model:
        return [Failure("fmt-changes-the-model", item.target, item)]
    text = after.decode("utf-8")
    try:
        again = format_text(text)
    except Exception as error:  # noqa: BLE001
        return [Failure("fmt-not-idempotent", f"{type(error).__name__}: {error}"[:300], item)]
    if again != text:
        return [Failure("fmt-not-idempotent", item.target, item)]
    return []


# ---- failure classes other branches fix ---------------------------------------
def _text(item: Input) -> str:
    return item.content().decode("utf-8", "replace")


def _claimed_grammar(failure: Failure) -> bool:
    """CR-only line endings, form feeds, comment lines or whitespace-only lines indented inside blocks."""
    text = _text(failure.input)
    if failure.kind == "fmt-output-does-not-parse":  # fmt indents a comment line the grammar then rejects
        return bool(re.search(r"""at \d+:\d+: (['"])(#.*|\s*)\1$""", failure.detail))
    if failure.kind == "check-rejects-valid-input":
        return failure.input.family == "line-endings" and \
            bool(re.search(r"\r(?!\n)|\n[ \t]+(?:#|\n|\r)|\n\f", text))
    return bool(re.search(r"\r(?!\n)|\f", text)) and failure.kind.endswith("exit-3")


def _claimed_codegen(failure: Failure) -> bool:
    """Keywords, `_`, mangling collisions and runtime names as definitions or ids;
    numbers over 4,300 digits; 201 or more chained terms."""
    detail = failure.detail
    if "not a safe identifier" in detail or "Exceeds the limit" in detail or "integer string conversion" in detail:
        return True
    if failure.kind.endswith("exit-3") and ("RecursionError" in detail or "maximum recursion" in detail):
        return True
    if failure.kind.endswith("exit-3") and "string index out of range" in detail:
        return bool(re.search(r"define _+ ", _text(failure.input)))  # `define _ = 1`
    if failure.kind == "module-binds-a-name-twice":
        return True  # `define a-b` beside `define a_b`, `define round_from`
    if failure.kind == "module-does-not-compile":
        return "too many nested parentheses" in detail or "RecursionError" in detail
    return False


def _claimed_safety(failure: Failure) -> bool:
    """Escape sequences (any control character) from a rulebook reach the terminal."""
    return failure.kind.endswith("terminal-control-characters")


# Failure classes that were known, and fixed elsewhere, while the fuzzer was written. Empty since the
# fixes were merged: every input of every family must pass. (The recognisers stay, so a regression in
# one of those classes is named by owner when the fuzzer reports it.)
KNOWN_CLAIMED: list[tuple[str, Callable[[Failure], bool]]] = []
RECOGNISERS: list[tuple[str, Callable[[Failure], bool]]] = [
    ("grammar", _claimed_grammar),
    ("codegen", _claimed_codegen),
    ("safety", _claimed_safety),
]


def claimed_by(failure: Failure) -> str | None:
    for owner, recognises in KNOWN_CLAIMED:
        if recognises(failure):
            return owner
    return None


# ---- running many, and shrinking ---------------------------------------------
@dataclass
class Report:
    counts: Counter = field(default_factory=Counter)
    seconds: dict[str, float] = field(default_factory=dict)
    failures: list[Failure] = field(default_factory=list)

    def classes(self) -> dict[str, list[Failure]]:
        out: dict[str, list[Failure]] = {}
        for failure in self.failures:
            out.setdefault(failure.signature, []).append(failure)
        return out


def run_all(items: Iterable[Input], workdir: Path, report: Report | None = None) -> Report:
    report = report or Report()
    limit = sys.getrecursionlimit()
    with stage_cache():
        for item in items:
            start = time.perf_counter()
            try:
                report.failures += run(item, workdir)
            finally:
                sys.setrecursionlimit(limit)
            report.counts[item.family] += 1
            report.seconds[item.family] = report.seconds.get(item.family, 0.0) + time.perf_counter() - start
    return report


def shrink(failure: Failure, workdir: Path, budget: int = 300) -> Input:
    """A smaller input that fails in the same class: drop lines, then tokens, while it still fails."""
    signature = failure.signature
    item = failure.input

    def fails(data: bytes) -> bool:
        candidate = item.with_content(data)
        with stage_cache():
            return any(f.signature == signature for f in run(candidate, workdir))
    data = item.content()
    tries = 0
    for separator in (b"\n", b" "):
        chunk = max(1, len(data.split(separator)) // 2)
        while chunk >= 1 and tries < budget:
            parts = data.split(separator)
            i, changed = 0, False
            while i < len(parts) and tries < budget:
                candidate = separator.join(parts[:i] + parts[i + chunk:])
                tries += 1
                if candidate != data and fails(candidate):
                    data, parts, changed = candidate, parts[:i] + parts[i + chunk:], True
                else:
                    i += chunk
            if not changed:
                chunk //= 2
    return item.with_content(data)


def main() -> int:
    import tempfile
    report = Report()
    with tempfile.TemporaryDirectory() as temp:
        for family, make in FAMILIES.items():
            run_all(make(), Path(temp), report)
            print(f"{family:13} {report.counts[family]:5} inputs {report.seconds[family]:7.1f} s", flush=True)
        print(f"{'total':13} {sum(report.counts.values()):5} inputs {sum(report.seconds.values()):7.1f} s")
        for signature, failures in sorted(report.classes().items()):
            first = min(failures, key=lambda f: len(f.input.content()))
            owner = next((who for who, recognises in RECOGNISERS if recognises(first)), None)
            print(f"\n== {signature}  ({len(failures)} inputs{', a class once owned by ' + owner if owner else ''})")
            print(f"   first: {first.input.family} / {first.input.name}")
            print(f"   {first.detail[:200]}")
            if "--shrink" in sys.argv:
                small = shrink(first, Path(temp))
                text = small.content().decode("utf-8", "replace")
                print("   reproducer (" + small.target + "):\n" + "\n".join("   | " + l for l in text[:2000].split("\n")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
