"""'did you mean' hints: the answer difflib gives, at a cost that does not grow with the pool."""
from __future__ import annotations

import difflib
import random

from rulesdsl.model.catalogue import ACTIVITIES, UNIT_SPELLINGS
from rulesdsl.project.build import library_parameters

PARAMETERS = library_parameters()["vcs"]   # the largest shipped vocabulary
from rulesdsl.errors import SCAN_LIMIT, Suggester, suggest


def _typos(pool: list[str], count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        word = list(rng.choice(pool))
        for _ in range(rng.randint(0, 3)):
            i, what = rng.randrange(len(word)), rng.random()
            if what < 0.3 and len(word) > 1:
                del word[i]
            elif what < 0.6:
                word.insert(i, rng.choice("abcdefghijklmnopqrstuvwxyz._1"))
            else:
                word[i] = rng.choice("abcdefghijklmnopqrstuvwxyz._1")
        out.append("".join(word))
    return out


def test_small_pools_get_the_answer_of_difflib():
    rule_ids = [f"{a}.{b}{c}" for a in range(1, 9) for b in range(1, 9) for c in ("", "a")]
    for pool in (sorted(PARAMETERS), sorted(ACTIVITIES), sorted(UNIT_SPELLINGS), rule_ids):
        assert len(pool) <= SCAN_LIMIT
        for n, cutoff in ((1, 0.6), (3, 0.5), (1, 0.75)):
            suggester = Suggester(pool, n=n, cutoff=cutoff)
            for word in _typos(pool, 300, seed=len(pool)) + ["zzzz", "", "x"]:
                expected = difflib.get_close_matches(word, pool, n=n, cutoff=cutoff)
                assert suggester.close(word)[:len(expected)] == expected, word


def test_a_large_pool_is_not_compared_name_by_name(monkeypatch):
    """3,300 bad references against every rule id of a 50k-line file took 40 s: a search
    compared the name with every id.  Now it meets only the ids a typo away."""
    pool = [f"{a}.{b}" for a in range(1, 201) for b in range(1, 101)]
    suggester = Suggester(pool)
    calls = 0
    set_seq1 = difflib.SequenceMatcher.set_seq1

    def counted(self, a):  # once for each name compared
        nonlocal calls
        calls += 1
        return set_seq1(self, a)

    monkeypatch.setattr(difflib.SequenceMatcher, "set_seq1", counted)
    assert suggester("12.34x") == "did you mean '12.34'?"
    assert suggester("123.4") in ("did you mean '123.4'?",)
    assert suggester("no-such-rule") is None
    assert calls < 1000  # a scan would compare 60,000 names


def test_case_only_differences_are_found():
    assert suggest("mp", ["MP", "hex"]) == "did you mean 'MP'?"


def test_answers_are_memoised_and_stable():
    suggester = Suggester(sorted(PARAMETERS))
    first = suggester("stacking.limt")
    assert first == "did you mean 'stacking.limit'?"
    assert suggester("stacking.limt") == first == suggest("stacking.limt", PARAMETERS)
