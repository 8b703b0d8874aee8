"""The TextMate grammar (editors/vscode): current with the lexer it is made from, and, run as TextMate runs a
grammar (line by line, the earliest match of any pattern, the first listed on a tie), it scopes every
character of every shipped rulebook and reference example that is not blank, exactly as the Pygments
lexer does."""
from __future__ import annotations

import json
import re
from functools import lru_cache

import pytest

from conftest import ROOT
from rulesdsl.editor import textmate
from rulesdsl.editor.lexer import RulesdslLexer

GRAMMAR_FILE = ROOT / "editors" / "vscode" / "syntaxes" / "rulesdsl.tmLanguage.json"
SHIPPED = sorted((ROOT / "rulebooks").rglob("*.rules"))


def _reference_examples() -> list[str]:
    """The reference's examples, a `\\r` at a line's end read as the CR it shows (the CR-only file's)."""
    text = (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")
    return [re.sub(r"\\r$", "\r", example, flags=re.M) for example in re.findall(r"```rules\n(.*?)```", text, re.S)]


@lru_cache(maxsize=1)
def _compiled() -> tuple[list[tuple[re.Pattern[str], str, dict | None]], ...]:
    patterns = []
    for p in json.loads(GRAMMAR_FILE.read_text(encoding="utf-8"))["patterns"]:
        if "begin" in p:
            inner = [(re.compile(textmate.python(i["match"])), i["name"]) for i in p["patterns"]]
            patterns.append((re.compile(textmate.python(p["begin"])), p["name"],
                             {"end": re.compile(textmate.python(p["end"])), "inner": inner}))
        else:
            patterns.append((re.compile(textmate.python(p["match"])), p["name"], None))
    return (patterns,)


def tokenize(text: str) -> list[tuple[str, str]]:
    """(scope, text) of each scoped run, as a TextMate engine finds them; a non-blank run no pattern scopes
    comes out as ('UNSCOPED', it)."""
    (patterns,) = _compiled()
    out: list[tuple[str, str]] = []
    for line in text.split("\n"):
        position, inside, string = 0, None, ""
        while True:
            if inside is not None:      # in a string: its content up to its end (a quote, or the line's end)
                end = inside["end"].search(line, position)
                stop = end.start() if end else len(line)
                while position < stop:
                    hits = [(m.start(), k, m) for k, (rx, _) in enumerate(inside["inner"])
                            if (m := rx.search(line, position, stop)) and m.end() > m.start()]
                    if not hits:
                        out.append(("UNSCOPED", line[position:stop]))
                        break
                    start, k, m = min(hits, key=lambda h: (h[0], h[1]))
                    if start > position:
                        out.append(("UNSCOPED", line[position:start]))
                    out.append((inside["inner"][k][1], m.group()))
                    position = m.end()
                if end is not None and end.group():
                    out.append((string, end.group()))
                position, inside = (end.end() if end is not None else len(line)), None
                continue
            if position >= len(line):
                break
            hits = [(m.start(), k, m) for k, (rx, _, _) in enumerate(patterns)
                    if (m := rx.search(line, position)) and m.end() > m.start()]
            if not hits:
                if line[position:].strip():
                    out.append(("UNSCOPED", line[position:].strip()))
                break
            start, k, m = min(hits, key=lambda h: (h[0], h[1]))
            if line[position:start].strip():
                out.append(("UNSCOPED", line[position:start].strip()))
            _, name, begin = patterns[k]
            out.append((name, m.group()))
            position = m.end()
            if begin is not None:
                inside, string = begin, name
    return out


def pygments_scopes(text: str) -> list[tuple[str, str]]:
    """The lexer's tokens as the grammar's scopes, blanks left out, the runs of a string joined as TextMate
    gives them (its opening quote, then each run of content)."""
    out = []
    for _, token, value in RulesdslLexer().get_tokens_unprocessed(text):
        name = textmate.scope(token)
        if name is None or value == "\n":
            continue
        out.append((name, value))
    return out


def test_the_grammar_file_is_current():
    assert GRAMMAR_FILE.read_text(encoding="utf-8") == textmate.text(), \
        "run: python -m rulesdsl.editor.textmate > editors/vscode/syntaxes/rulesdsl.tmLanguage.json"


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_shipped_rulebook_is_scoped_whole_and_as_pygments_scopes_it(path):
    text = path.read_text(encoding="utf-8")
    tokens = tokenize(text)
    assert [t for t in tokens if t[0] == "UNSCOPED"] == []
    assert tokens == pygments_scopes(text)


def test_every_reference_example_is_scoped_whole_and_as_pygments_scopes_it():
    examples = _reference_examples()
    assert len(examples) > 20
    for example in examples:
        tokens = tokenize(example)
        assert [t for t in tokens if t[0] == "UNSCOPED"] == [], example
        assert tokens == pygments_scopes(example), example


def test_the_scopes_are_what_a_theme_colours():
    tokens = dict((v, s) for s, v in tokenize('rule 6.0c "Title" {\n  zoc.entry_cost = +2 MP  # extra\n}\n'
                                              'example "E" {\n  expect combat 5 on 10.08 odds 3:1 result D1r2\n}\n'))
    assert tokens["rule"] == "storage.type.rulesdsl" and tokens["expect"] == "keyword.other.rulesdsl"
    assert tokens["6.0c"] == "constant.numeric.rulesdsl" and tokens["Title"] == "string.quoted.double.rulesdsl"
    assert tokens["zoc.entry_cost"] == "variable.other.rulesdsl" and tokens["# extra"].startswith("comment.")
    assert tokens["10.08"] == "constant.other.hex.rulesdsl" and tokens["D1r2"] == "constant.language.rulesdsl"


def test_the_vscode_extension_declares_the_language_the_grammar_and_the_server():
    folder = ROOT / "editors" / "vscode"
    package = json.loads((folder / "package.json").read_text(encoding="utf-8"))
    [language] = package["contributes"]["languages"]
    [grammar] = package["contributes"]["grammars"]
    assert language["extensions"] == [".rules"] and grammar["scopeName"] == textmate.SCOPE_NAME
    assert (folder / grammar["path"]).resolve() == GRAMMAR_FILE
    assert package["contributes"]["configuration"]["properties"]["rulesdsl.command"]["default"] == ["rulesdsl", "lsp"]
    assert '"lsp"' in (folder / "extension.js").read_text(encoding="utf-8")
    json.loads((folder / language["configuration"].removeprefix("./")).read_text(encoding="utf-8"))
