"""What differs between series lives in rulebooks, not in the compiler."""
import re

from conftest import ROOT


def test_compiler_names_no_series_beyond_examples():
    offenders = []
    for path in sorted((ROOT / "rulesdsl").rglob("*")):
        if path.suffix not in (".py", ".lark", ".j2"):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"vcs|new-scs|new_scs", line, re.I):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == []
