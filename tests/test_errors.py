"""The broken-rulebook corpus: each file in tests/errors shows one kind of
problem; its .expected file is the full output `rulesdsl check` prints for it.

A case is checked in a project beside tests/fixtures/base.rules (series
`base`).  A case may hold more than one file, split by lines
`# ---- file: NAME.rules`.  Run pytest with --update-goldens to rewrite the
.expected files, then review the diff.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parent / "errors"
CASES = sorted(p.stem for p in CORPUS.glob("*.rules"))
_SPLIT = re.compile(rb"^# ---- file: (\S+)\n", re.M)


def _install(project, case: str) -> Path:
    data = (CORPUS / f"{case}.rules").read_bytes()
    parts = _SPLIT.split(data)
    main = project.write(f"rulebooks/{case}.rules", parts[0])
    for name, body in zip(parts[1::2], parts[2::2]):
        project.write(f"rulebooks/{name.decode()}", body)
    return main


@pytest.mark.parametrize("case", CASES)
def test_broken_rulebook_is_reported_in_full(case, project, capsys, update_goldens):
    project.add_base()
    path = _install(project, case)
    code, out, err = project.run("check", str(path), capsys=capsys)
    expected = CORPUS / f"{case}.expected"
    if update_goldens:
        expected.write_text(err, encoding="utf-8")
    assert code == 1, err
    assert out == ""
    assert err == expected.read_text(encoding="utf-8")
    # every diagnostic is positioned in the file and followed by its source line and caret
    first = err.splitlines()[0]
    assert re.match(rf"rulebooks/{re.escape(case)}\.rules:\d+:\d+: error: ", first) or \
        re.match(r"rulebooks/demo-two\.rules:\d+:\d+: error: ", first), first
    assert "Traceback" not in err


def test_corpus_has_an_expected_output_for_every_case():
    assert CASES, "the corpus is empty"
    assert sorted(p.stem for p in CORPUS.glob("*.expected")) == CASES


def test_missing_file(project, capsys):
    project.add_base()
    code, out, err = project.run("check", str(project.root / "rulebooks" / "nope.rules"), capsys=capsys)
    assert code == 1
    assert err == "rulebooks/nope.rules: error: no such file\n1 rulebook checked: 1 error\n"
