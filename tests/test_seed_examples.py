"""The 35 worked or numeric examples of the source documents (E1-E35 of the issue-10 survey) are encoded
as `example` blocks: every one is present, in the rulebook it belongs to, says where its source is cut,
states what the source says wherever the notation can, and sits after the last rule it illustrates.

Whether each example holds is `rulesdsl check`'s business (tests/test_examples_language.py covers the
runner); this file guards the encoding itself, so that an example lost in an edit or a merge is noticed.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulesdsl.model import ir
from rulesdsl.language.source import Source
from rulesdsl.language.transform import parse

ROOT = Path(__file__).resolve().parent.parent

# where each example of the sources is encoded: the series rulebook of its source document, or the
# demonstration game of that series when it needs a value the series leaves to games (a stacking limit,
# a Combat Results Table, out-of-supply effects, terrain levels)
WHERE = {
    "rulebooks/series/scs-1.8.rules": {f"E{n}" for n in range(1, 25)} - {"E3", "E11"},
    "rulebooks/games/bocage.rules": {"E3", "E11", "E17", "E19"},
    "rulebooks/series/new-scs.rules": {f"E{n}" for n in range(25, 31)},
    "rulebooks/series/vcs.rules": {"E31", "E34", "E35"},
    "rulebooks/games/ridgeline.rules": {"E32", "E33"},
}
# no engine query can state these (bombardment ratings; artillery range and strategic movement): they
# carry their situation and notes only
NOTES_ONLY = {"E30", "E35"}
SEED_ID = re.compile(r"^(E[0-9]+)\. ")


def _rulebook(path: str) -> ir.Rulebook:
    return parse(Source(path, (ROOT / path).read_text(encoding="utf-8")))


def _seed_examples(path: str) -> list[tuple[str, ir.Example]]:
    found = []
    for example in _rulebook(path).examples:
        match = SEED_ID.match(example.title.value)
        if match:
            found.append((match.group(1), example))
    return found


@pytest.mark.parametrize("path", sorted(WHERE))
def test_every_seed_example_is_encoded_where_it_belongs(path: str) -> None:
    assert {seed for seed, _ in _seed_examples(path)} == WHERE[path]


def test_the_thirty_five_examples_are_all_there() -> None:
    every = set().union(*({seed for seed, _ in _seed_examples(path)} for path in WHERE))
    assert every == {f"E{n}" for n in range(1, 36)}


@pytest.mark.parametrize("path", sorted(WHERE))
def test_each_seed_example_says_where_its_source_is_cut(path: str) -> None:
    for seed, example in _seed_examples(path):
        assert example.situation.notes, f"{example.span}: {seed} has no note"
        assert example.cites, f"{example.span}: {seed} cites no rule"


@pytest.mark.parametrize("path", sorted(WHERE))
def test_each_seed_example_states_what_the_source_says(path: str) -> None:
    for seed, example in _seed_examples(path):
        expectations = example.situation.expectations
        if seed in NOTES_ONLY:
            assert not expectations, f"{example.span}: {seed} now has expect lines; drop it from NOTES_ONLY"
            continue
        assert expectations, f"{example.span}: {seed} states nothing"
        assert all(e.result is not None for e in expectations), f"{example.span}: a bare query in {seed}"


@pytest.mark.parametrize("path", sorted(WHERE))
def test_a_seed_example_follows_the_last_rule_it_cites(path: str) -> None:
    """In a rulebook, the nearest rule or section above an example is the last (in file order) of the
    rules it cites that the rulebook holds; an example citing none of them (a game's example of series
    rules) may stand anywhere."""
    rulebook = _rulebook(path)
    line_of = {rule.id.value: rule.span.line for rule in rulebook.rules}
    for seed, example in _seed_examples(path):
        cited = [line_of[c.value] for c in example.cites if c.value in line_of]
        if not cited or path.startswith("rulebooks/games/"):
            continue
        above = max(line for line in line_of.values() if line < example.span.line)
        assert above == max(cited), f"{example.span}: {seed} does not follow the last rule it cites"


ADDED_ID = re.compile(r"^A[0-9]+\. ")


@pytest.mark.parametrize("path", sorted(WHERE))
def test_an_added_example_says_it_is_not_from_the_source(path: str) -> None:
    """Where the sources print no example of a rule, a rulebook may add a test case: titled A1, A2 ..., it
    says first that it is added, cites the rules it checks and states what they answer."""
    added = [e for e in _rulebook(path).examples if ADDED_ID.match(e.title.value)]
    for example in added:
        notes = [n.value for n in example.situation.notes]
        assert notes and notes[0].startswith("Added, not from the source"), f"{example.span}: not marked as added"
        assert example.cites and example.situation.expectations, f"{example.span}: checks nothing it names"
    numbers = [int(ADDED_ID.match(e.title.value).group(0)[1:-2]) for e in added]
    assert numbers == list(range(1, len(numbers) + 1)), f"{path}: added examples are numbered A1, A2 ... in order"
