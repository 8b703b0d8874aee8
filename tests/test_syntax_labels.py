"""Every hand-written syntax message is reachable, and shown by the corpus."""
from pathlib import Path

import pytest

from rulesdsl.errors import RulesError
from rulesdsl.language.parser import _EXAMPLES, parse_tree
from rulesdsl.language.source import Source

CORPUS = Path(__file__).resolve().parent / "errors"


@pytest.mark.parametrize("label", list(_EXAMPLES))
def test_label_is_given_for_its_examples(label):
    for example in _EXAMPLES[label]:
        with pytest.raises(RulesError) as caught:
            parse_tree(Source("x.rules", example))
        assert caught.value.diagnostics[0].message == label, example


@pytest.mark.parametrize("label", list(_EXAMPLES))
def test_label_appears_in_the_error_corpus(label):
    shown = "".join(p.read_text(encoding="utf-8") for p in CORPUS.glob("*.expected"))
    assert f"error: {label}\n" in shown
