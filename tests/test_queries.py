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


def test_every_query_node_of_the_ir_has_its_module_its_builder_and_its_grammar():
    """A new kind is its node pair in ir.Query, its grammar alternative and builder, one module here and one
    registration line: each missing piece fails here."""
    from rulesdsl.language.transform.examples import ExampleBuilder
    grammar = (ROOT / "rulesdsl" / "language" / "grammar.lark").read_text(encoding="utf-8")
    assert {q.node for q in QUERIES.values()} == set(ir.QUERY_NODES)
    for kind, query in QUERIES.items():
        assert ir.QUERY_TYPES[kind] is query.node
        assert f"-> expect_{kind}\n" in grammar or f"-> expect_{kind} " in grammar, kind
        assert callable(getattr(ExampleBuilder, f"expect_{kind}", None)), kind


def test_a_kind_whose_node_is_no_query_of_the_ir_is_refused():
    @__import__("dataclasses").dataclass(frozen=True)
    class Stray:
        kind = ir.ExpectKind.MOVE
    others = [q for k, q in QUERIES.items() if k != ir.ExpectKind.MOVE]
    with pytest.raises(ValueError, match="'Stray' is no query node of ir.Query"):
        registry([replace(QUERIES[ir.ExpectKind.MOVE], node=Stray), *others])


def _expect_lines():
    """Every expect line of every shipped rulebook, as its query node."""
    from rulesdsl.language.transform import parse
    from rulesdsl.language.source import Source
    for path in sorted((ROOT / "rulebooks").rglob("*.rules")):
        book = parse(Source(str(path), path.read_text(encoding="utf-8")))
        for example in book.examples:
            yield from example.situation.expectations


def test_every_shipped_expect_line_prints_back_as_written():
    """Each kind prints exactly the fields its node has: query and result printed back are the line as
    written (spaces aside), for every expect line the shipped rulebooks hold."""
    from rulesdsl.queries import query_text, result_text
    seen = set()
    for query in _expect_lines():
        written = " ".join(query.text.split())
        assert " ".join(f"{query_text(query)} {result_text(query)}".split()) == written, query.span
        seen.add(query.kind)
    assert len(seen) >= 10, seen


@pytest.mark.parametrize(("line", "part", "column"), [
    ("expect overrun a from 1.01 on 1.02 allowed mp 3", "an overrun's answer gives no 'mp'", 44),
    ("expect exploit a allowed cost 2", "an exploitation move's answer gives no 'cost'", 26),
    ("expect attack a on 1.02 allowed left 1", "an attack's answer gives no 'left'", 33),
])
def test_a_verdict_part_another_kind_has_is_an_error_at_the_part(line, part, column):
    from rulesdsl.errors import RulesError
    from rulesdsl.language.source import Source
    from rulesdsl.language.transform import parse_situation
    with pytest.raises(RulesError) as caught:
        parse_situation(Source("s", f"map 1.01 - 3.03 clear\nunit a allies 3-2-4 at 1.01\n{line}\n"))
    (problem,) = caught.value.diagnostics
    assert problem.message == part and (problem.span.line, problem.span.column) == (3, column)
