"""The worked examples' query kinds (rulesdsl.queries): every ExpectKind has a module that gives every
operation, the registry refuses a set of kinds that lacks one, and an engine bug is no diagnostic."""
from __future__ import annotations

from dataclasses import fields, replace
from pathlib import Path

import pytest

from conftest import ROOT
from rulesdsl.checks import examples
from rulesdsl.model import ir
from rulesdsl.queries import QUERIES, Unanswerable, registry
from rulesdsl.queries.base import QueryKind, engine_call

PACKAGE = ROOT / "rulesdsl" / "queries"


def test_every_expect_kind_has_its_module():
    assert set(QUERIES) == set(ir.ExpectKind)
    for kind, query in QUERIES.items():
        assert query.kind == kind
        module = Path(query.ask.__code__.co_filename)
        assert module.parent == PACKAGE and module.stem == str(kind), f"{kind} is asked outside its module"


def test_every_kind_gives_every_operation():
    operations = {"text", "result_text", "ask", "check", "states_answer"}
    assert operations <= {f.name for f in fields(QueryKind)}
    for query in QUERIES.values():
        assert all(callable(getattr(query, name)) for name in operations), query.kind
        assert query.result_hint.startswith("end it with"), query.kind


@pytest.mark.parametrize("name", ["text", "result_text", "ask", "check", "states_answer", "result_hint"])
def test_a_kind_missing_an_operation_is_refused(name):
    broken = replace(QUERIES[ir.ExpectKind.MOVE], **{name: None})
    others = [q for k, q in QUERIES.items() if k != ir.ExpectKind.MOVE]
    with pytest.raises(ValueError, match=f"query kind 'move' lacks {name}"):
        registry([broken, *others])


def test_a_kind_left_out_or_given_twice_is_refused():
    kinds = list(QUERIES.values())
    with pytest.raises(ValueError, match="no module answers the query kinds phases"):
        registry([q for q in kinds if q.kind != ir.ExpectKind.PHASES])
    with pytest.raises(ValueError, match="'move' is registered twice"):
        registry([*kinds, QUERIES[ir.ExpectKind.MOVE]])
    assert registry(kinds) == QUERIES


def test_a_refusal_of_the_engine_is_unanswerable():
    def refuses() -> None:
        raise KeyError("no unit 'x' in this situation")
    with pytest.raises(Unanswerable, match="the engine cannot answer this move: \"no unit 'x'"):
        engine_call("move", refuses)


def test_an_engine_bug_propagates_instead_of_becoming_a_diagnostic(monkeypatch):
    from rulesdsl.checks.situations import build
    from rulesdsl.language.source import Source
    from rulesdsl.language.transform import parse_situation
    from rulesdsl.runtime.engine import RulesEngine
    situation_ir = parse_situation(Source("<bug>", "map 1.01 - 3.03 clear\nunit a allies 3-2-4 at 1.01\n"
                                                   "expect move a 1.02 costs 1\n"))
    situation, problems = build(situation_ir)
    assert situation is not None and not problems

    def broken(self: RulesEngine, *args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("a bug in the engine")
    monkeypatch.setattr(RulesEngine, "move", broken)
    engine = RulesEngine.__new__(RulesEngine)
    with pytest.raises(ZeroDivisionError, match="a bug in the engine"):
        examples.ask(engine, None, situation, situation_ir.expectations[0])
