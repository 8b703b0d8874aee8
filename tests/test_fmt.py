"""`rulesdsl fmt`: canonical, idempotent, comment-keeping, and never changes meaning."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import FIXTURES, ROOT
from rulesdsl.errors import RulesError
from rulesdsl.fmt import format_source, format_text
from rulesdsl.source import Source
from rulesdsl.transform import parse

SHIPPED = sorted((ROOT / "rulebooks").rglob("*.rules")) + [ROOT / "rulesdsl/labels/charts.rules"]


def _parses(path: Path) -> bool:
    try:
        parse(Source(str(path), path.read_text(encoding="utf-8")))
        return True
    except (RulesError, UnicodeDecodeError):
        return False


FIXTURE_FILES = [p for p in sorted((ROOT / "tests/errors").glob("*.rules")) + [FIXTURES / "base.rules"]
                 if _parses(p)]


@pytest.mark.parametrize("path", SHIPPED + FIXTURE_FILES, ids=lambda p: p.name)
def test_format_is_idempotent_and_keeps_meaning(path):
    text = path.read_text(encoding="utf-8")
    once = format_text(text)
    assert format_text(once) == once
    assert parse(Source("x.rules", once)) == parse(Source("x.rules", text))
    comments = re.findall(r"#.*", re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', text))
    assert re.findall(r"#.*", re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', once)) == [c.rstrip() for c in comments]


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_shipped_rulebooks_are_canonical(path):
    assert format_text(path.read_text(encoding="utf-8")) == path.read_text(encoding="utf-8")


def _perturb(text: str, rng: random.Random) -> str:
    """The same tokens with other whitespace: runs of spaces, indentation, trailing spaces,
    and more blank lines where there is a blank line (one blank line is kept as written)."""
    out = []
    for line in text.split("\n"):
        if not line.strip():
            out.extend([" " * rng.randint(0, 3)] * rng.randint(1, 3))
            continue
        pieces = re.split(r'("(?:[^"\\\n]|\\.)*"|#.*)', line)
        rebuilt = [piece if i % 2 else re.sub(r" +", lambda m: " " * rng.randint(1, 4), piece)
                   for i, piece in enumerate(pieces)]
        out.append(" " * rng.randint(0, 6) + "".join(rebuilt).strip() + " " * rng.randint(0, 2))
    return "\n".join(out)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(SHIPPED + [FIXTURES / "base.rules"]), st.integers(0, 2 ** 32))
def test_any_whitespace_formats_back_to_the_canonical_text(path, seed):
    text = path.read_text(encoding="utf-8")
    assert format_text(_perturb(text, random.Random(seed))) == format_text(text)


def test_a_broken_rulebook_is_reported_and_left_alone(project, capsys):
    broken = project.write("rulebooks/broken.rules", 'series x "X" version "1"\nrule 1.0 "A" {\n  summary "a"\n')
    before = broken.read_bytes()
    code, out, err = project.run("fmt", str(broken), capsys=capsys)
    assert code == 1 and "unterminated block" in err
    assert broken.read_bytes() == before
    with pytest.raises(RulesError):
        format_source(Source("broken.rules", before.decode()))


def test_fmt_check_and_rewrite(project, capsys):
    path = project.write("rulebooks/base.rules", (FIXTURES / "base.rules").read_text().replace("  summary", "      summary"))
    code, _, err = project.run("fmt", "--check", capsys=capsys)
    assert code == 1 and "not canonical: rulebooks/base.rules" in err
    code, out, _ = project.run("fmt", capsys=capsys)
    assert code == 0 and "formatted rulebooks/base.rules" in out
    assert project.run("fmt", "--check", capsys=capsys)[0] == 0
    assert path.read_text() == format_text(path.read_text())
