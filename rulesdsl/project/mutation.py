"""Whether the worked examples prove the rules: `rulesdsl coverage RULEBOOK --mutate`.

`rulesdsl coverage` says which parameters the rules engine executes.  That they run does not mean an example
would notice if one were wrong.  Mutation testing asks it: each executed parameter is set, one at a time, to
each other value it may take (a flag flipped, a count or quantity one more and one less, each other choice,
an order reversed, another declared result), the rulebook's module is generated again, and its examples
are run:

- caught: an expect line the rulebook answers as printed now answers otherwise (the example is named);
- uncaught: no expect line fails, but some question about the example situations is answered otherwise
  (the first such question is given: it is an expect line that would pin the parameter);
- masked: the change alone answers no question otherwise, because another parameter, at the value the
  rulebook gives it, decides the same questions first (a unit that overran may not overrun again: SCS
  says so twice, once as "an overrun ends movement" and once as "once a phase"); the change is tried
  again with that parameter changed too, and answers otherwise then (the pair is named).  An example cannot
  catch a masked change without the rulebook itself changing: it is the mutation testers' "equivalent
  mutant", reported apart rather than counted as missed;
- no effect: no question asked of any example situation is answered otherwise;
- one value: the parameter's type allows no other value.

The examples that can catch a change are those that `check` would run and the rules as written answer as
printed: the rulebook's own, those it inherits, and those of the project's rulebooks that extend it (a
series' games), each under the values that rulebook inherits unchanged (a change to a value the game sets
itself cannot reach its examples).  A game's examples count because a change to its series makes
`rulesdsl check` fail on them, and some rules can only be shown there: a series' rule about a game's own
modifiers, say.  The questions are
asked of every example situation of the rulebooks read (the project's and the library's), expanded into
every query the notation has: each unit's moves to each neighbouring hex and its reachable hexes, each
side's ZOC, each stack under each stacking moment, supply, exploitation, attacks, overruns, retreats and
advances around each unit, and combats.  A parameter marked "no effect" may still matter in a situation no
example draws: the answer is "nothing here shows it", not a proof.
"""
from __future__ import annotations

import json
import types
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from collections import Counter
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Union

from rulesdsl.checks.examples import Unanswerable, ask, assumed, engine_of
from rulesdsl.checks.situations import build, lines, query_text, result_text
from rulesdsl.errors import RulesError
from rulesdsl.language.source import Source
from rulesdsl.model import ir
from rulesdsl.modules.modcheck import ROW_CHARTS, Variants, compiled_module, row_key
from rulesdsl.queries import QUERIES, query_of
from rulesdsl.project.coverage import Coverage, measure, percent
from rulesdsl.runtime.model import Quantity, unit_text
from rulesdsl.runtime.contract import ENGINE_PARAMETERS, EngineParameter, engine_parameter
from rulesdsl.runtime.hexmap import Hex
from rulesdsl.runtime.situation import Situation

STATUSES = ("caught", "masked", "uncaught", "no effect", "one value")
# the query that asks each engine function (a parameter's contract says which function it drives)
_DRIVES = {query.drives: kind for kind, query in QUERIES.items() if query.drives is not None}
_MASK_REFUSED = 40               # of the questions refused before the parameter is read, those tried
_MASK_SPREAD = 120               # of an answer with no reasons, the questions tried (one per example and units)
_MASK_CANDIDATES = 8              # bounds the pairs tried for one change: those beside it first, then by questions decided
_PROBES_PER_SITUATION = 400       # bounds the work on a large example; the questions are asked in a fixed order


def value_text(value: object) -> str:
    """A parameter's typed value as a rulebook writes it: yes, 2 MP, +2 MP, 3, 1/2, rightmost, a, b, none."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Quantity):
        amount = f"+{value.amount}" if value.signed and value.amount >= 0 else str(value.amount)
        return unit_text(amount, value.unit) if value.unit else amount
    if isinstance(value, tuple):
        return ", ".join(str(v) for v in value)
    return str(value)


_SAMPLE_CODES = ("A1", "A2", "D1", "D2", "A1r1", "AE", "DE", "EX", "NE")   # tried where the rulebook reads them


def _codes(resolved: ir.Resolved) -> list[str]:
    """The result codes a result parameter may take in this rulebook: those it declares, those its CRT
    prints, then common codes its notation reads."""
    from rulesdsl.model.codes import below_reader
    block = resolved.result_codes.node if resolved.result_codes is not None else None
    found: dict[str, None] = {}
    if block is not None:
        found.update((c.code.value, None) for c in block.codes)
    if resolved.results is not None:
        found.update((cell.value, None) for row in resolved.results.node.rows for cell in row.cells)
    found.update((code, None) for code in _SAMPLE_CODES)
    readable = below_reader(block)
    return [code for code in found if readable(code) is not None]


def alternatives(value: object, declared: ir.Declared, resolved: ir.Resolved) -> Sequence[object]:
    """Every other value the parameter may take that a mutation tries, in a fixed order."""
    kind = declared.type.kind
    if kind == "flag":
        return [not value]
    if kind == "count" and isinstance(value, int):
        return [v for v in (value + 1, value - 1) if v >= 0]
    if kind == "quantity" and value is None and declared.type.unit:    # none (no limit): a tight limit instead
        return [Quantity(Fraction(1), declared.type.unit, False)]
    if kind in ("quantity", "modifier") and isinstance(value, Quantity):
        amounts = [value.amount + 1, value.amount - 1]
        return [Quantity(a, value.unit, value.signed) for a in amounts if a >= 0 or kind == "modifier"]
    if kind == "number" and isinstance(value, (int, Fraction)):
        return [Fraction(value) * 2, Fraction(value) / 2] if value else [Fraction(1)]
    if kind == "choice":
        return [o for o in declared.type.options if o != value]
    if kind == "order" and isinstance(value, tuple):
        contract = engine_parameter(declared.name)
        if contract is not None and contract.unordered:     # a set of words: one of them forgotten
            return [value[:i] + value[i + 1:] for i in range(len(value))] if len(value) > 1 else []
        if len(value) == 1:     # nothing to reorder: each other option in its place
            return [(o,) for o in declared.type.options if o != value[0]]
        return [value[::-1]]
    if kind == "result":
        return [c for c in _codes(resolved) if c != value][:2]
    return []


# ---- the questions asked of each example situation -----------------------------------------------------------
def _questions(situation: Situation, moments: Sequence[str]) -> Iterator[str]:
    """Every query of the notation around the situation's units, as expect lines would write them."""
    phasing = situation.phasing or (situation.sides()[0] if situation.units else "")
    stacks: dict[Hex, list[str]] = {}
    for unit in situation.units:
        stacks.setdefault(unit.hex, []).append(unit.name)
    for side in situation.sides():
        yield f"zoc {side}"
    for unit in situation.units:
        yield f"reach {unit.name}"
        yield f"supply {unit.name}"
        yield f"exploit {unit.name}"
        for near in situation.neighbours(unit.hex):
            yield f"move {unit.name} {unit.hex} {near}"
    for hex, names in stacks.items():
        yield f"stack {hex}"
        for moment in moments:
            yield f"stack {hex} when {moment}"
        if "overrun" in moments and situation.unit(names[0]).side == phasing:
            yield f"stack {hex} when overrun by {names[-1]}"     # the bottom unit overruns, the others stay
    for hex, names in stacks.items():
        if situation.unit(names[0]).side != phasing:
            continue
        for target in situation.neighbours(hex):
            defenders = [u.name for u in situation.units_at(target) if u.side != phasing]
            if defenders:
                yield f"attack {' '.join(names)} on {target}"
                for name in names[1:] if len(names) > 1 else ():
                    yield f"attack {name} on {target}"
                yield f"overrun {' '.join(names)} from {hex} on {target}"
                yield f"combat {' '.join(names)} on {target}"
                yield f"engage {' '.join(names)} on {target}"
                if len(defenders) > 1:
                    yield f"engage {' '.join(names)} on {target} defending {defenders[0]}"
                attackers = sorted({u.name for h in situation.neighbours(target) for u in situation.units_at(h)
                                    if u.side == phasing})
                yield f"combat {' '.join(attackers)} on {target}"
                for count in (1, 2, 3):
                    yield f"retreat {' '.join(defenders)} {count} from {' '.join(names)}"
                    yield f"retreat {' '.join(defenders)} {count} from {' '.join(names)} refuse 1"
                    # the advance into the hex the defenders leave
                    yield f"advance {' '.join(names)} into {target} after {count}"
                    yield f"advance {' '.join(names)} into {target} after {count} destroyed"
                    yield f"advance {' '.join(names)} into {target} after {count} overrun"
            else:
                for near in situation.neighbours(target):
                    if any(u.side != phasing for u in situation.units_at(near)):
                        yield f"overrun {' '.join(names)} from {target} on {near}"


@dataclass(frozen=True, slots=True)
class Probe:
    """One question about one example's situation, its answer under the rules as written, and the parameters
    the rules engine read to answer it (None: the generated combat engine judged it, QueryKind.judged, and may
    read any)."""

    example: ir.Example
    situation: Situation
    expectation: ir.Query
    answer: tuple[str, dict[str, object]]
    reads: frozenset[str] | None
    deciders: frozenset[str] = frozenset()    # the parameters that decided its refusals (Answer.deciders)
    assumed: dict[str, object] = field(default_factory=dict)   # the values its example assumes (`assume`)

    @property
    def query(self) -> str:
        return query_text(self.expectation)


def _answer(module: types.ModuleType, situation: Situation,
            expectation: ir.Query) -> tuple[str, dict[str, object]] | None:
    """The engine's answer in words and as data (compared as a whole: an advance's hexes, a stack's excess),
    or None when it cannot answer."""
    try:
        answer = ask(engine_of(module), module, situation, expectation)
    except Unanswerable:
        return None
    return answer.computed, answer.data


def probes(examples: Iterable[ir.Example], modules: Variants, moments: Sequence[str]) -> list[Probe]:
    """The questions about every distinct example situation that the rules as written answer (with the
    values the example assumes)."""
    from rulesdsl.language.transform import parse_situation
    seen: set[tuple[tuple[str, str], ...]] = set()
    out: list[Probe] = []
    for example in examples:
        key = tuple(sorted(lines(replace(example.situation, expectations=())).items()))
        if key in seen:
            continue
        seen.add(key)
        values, problems = assumed(modules.resolved, example.situation)
        module = modules.get(values)
        if problems or module is None:
            continue    # values this rulebook's parameters do not take: another rulebook's example
        chart = getattr(module, "TERRAIN", None)
        reads: set[str] = module.RULESET.reads
        situation, _ = build(example.situation, chart)
        if situation is None:
            continue    # another rulebook's terrain: not a situation under these rules
        texts = list(dict.fromkeys(_questions(situation, moments)))[:_PROBES_PER_SITUATION]
        try:
            asked = parse_situation(Source("<probe>", "".join(f"expect {t}\n" for t in texts)))
        except RulesError:
            continue
        for expectation in asked.expectations:
            reads.clear()
            try:
                full = ask(engine_of(module), module, situation, expectation)
            except Unanswerable:
                continue
            out.append(Probe(example, situation, expectation, (full.computed, full.data),
                             _recorded(expectation, reads), full.deciders, values))
    return out


def _shown(items: Iterable[str], limit: int = 8) -> list[str]:
    """At most `limit` hexes: any one of the hexes that came or went pins the change."""
    return sorted(items)[:limit]


def difference(expectation: ir.Query, was: tuple[str, dict[str, object]],
               now: tuple[str, dict[str, object]] | None) -> tuple[str, str, bool]:
    """What changed between two answers, shortly: for a set of hexes, the hexes that came or went (written
    as an expect line would pin them); otherwise the answer in words, or the first field of the answer's
    data that differs when the words are the same; and whether an expect line can state the difference."""
    if now is None:
        return was[0], "no answer", True
    field_name = query_of(expectation.kind).answer_hexes
    before, after = was[1].get(field_name or ""), now[1].get(field_name or "")
    if isinstance(before, dict) and isinstance(after, dict) and before.keys() != after.keys():
        went, came = set(before) - set(after), set(after) - set(before)
        return (" ".join([*_shown(went), *(["not", *_shown(came)] if came else [])]),
                " ".join([*_shown(came), *(["not", *_shown(went)] if went else [])]), True)
    if was[0] != now[0]:
        return was[0], now[0], True
    for key, value in was[1].items():
        other = now[1].get(key)
        if other != value:
            if isinstance(value, dict) and isinstance(other, dict):
                hex = next(k for k in sorted(value.keys() | other.keys()) if value.get(k) != other.get(k))
                return f"{key} {hex}: {value.get(hex, '-')}", f"{key} {hex}: {other.get(hex, '-')}", False
            if isinstance(value, list) and isinstance(other, list) and set(map(str, value)) != set(map(str, other)):
                lost = [str(v) for v in value if v not in other]
                gained = [str(v) for v in other if v not in value]
                return (f"{key} {'; '.join(lost) if lost else 'nothing more'}",
                        f"{key} {'; '.join(gained) if gained else 'nothing more'}", False)
            return f"{key}: {value}", f"{key}: {other}", False
    return was[0], now[0], False


# ---- the report ------------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Witness:
    """An expect line (caught) or a question (uncaught) the mutant answers otherwise, and where it comes from."""

    example: str          # the example's title
    origin: str           # the rulebook the example belongs to
    path: str
    line: int
    query: str
    was: str              # the answer under the rulebook as written (caught: what the line expects)
    now: str              # the answer under the mutant
    pinnable: bool = True  # uncaught: the expect line `expect QUERY WAS` was checked to catch the change
                           # (else the notation does not compare the part of the answer that changed)

    def as_json(self) -> dict[str, object]:
        return {"example": self.example, "rulebook": self.origin, "path": self.path, "line": self.line,
                "query": self.query, "was": self.was, "now": self.now,
                "expect_line": f"expect {self.query} {self.was}" if self.pinnable else None}


@dataclass(frozen=True, slots=True)
class Masker:
    """The parameter that masks a change: its name, its value in the rulebook, and the value that unmasks it."""

    name: str
    value: str
    other: str

    def as_json(self) -> dict[str, object]:
        return {"parameter": self.name, "value": self.value, "unmasked_at": self.other}


@dataclass(frozen=True, slots=True)
class Mutant:
    parameter: str
    value: str            # the value tried, as a rulebook writes it
    status: str           # caught, masked, uncaught or no effect
    witness: Witness | None = None
    masker: Masker | None = None     # masked: the parameter that decides first, and the witness under the pair

    def as_json(self) -> dict[str, object]:
        return {"value": self.value, "status": self.status,
                "witness": None if self.witness is None else self.witness.as_json(),
                "masked_by": None if self.masker is None else self.masker.as_json()}


@dataclass(frozen=True, slots=True)
class Verdict:
    """One executed parameter: its value, the rule and rulebook that set it, and what each change did."""

    name: str
    value: str
    rule: str
    origin: str
    source: str
    mutants: tuple[Mutant, ...]

    @property
    def status(self) -> str:
        """caught when every change is caught; masked when every change is caught or masked; one value when
        there is none to try; no effect when none answers anything otherwise; uncaught otherwise."""
        if not self.mutants:
            return "one value"
        if all(m.status == "caught" for m in self.mutants):
            return "caught"
        if all(m.status in ("caught", "masked") for m in self.mutants):
            return "masked"
        if all(m.status == "no effect" for m in self.mutants):
            return "no effect"
        return "uncaught"

    def as_json(self) -> dict[str, object]:
        return {"name": self.name, "value": self.value, "rule": self.rule, "rulebook": self.origin,
                "source": self.source, "status": self.status, "mutants": [m.as_json() for m in self.mutants]}


@dataclass(frozen=True, slots=True)
class Mutation:
    rulebook: str
    path: str
    examples: int               # the expect lines that can catch a change
    questions: int              # the questions asked of the example situations
    verdicts: tuple[Verdict, ...]
    effects: tuple[Verdict, ...] = ()   # each rule's effect (`forbid react when ...`): removed, negated ...
    rows: tuple[Verdict, ...] = ()      # each row of the combat charts (a DRM, a shift, a strength factor ...)

    def rows_of(self, status: str) -> list[Verdict]:
        return [v for v in self.rows if v.status == status]

    def effects_of(self, status: str) -> list[Verdict]:
        return [v for v in self.effects if v.status == status]

    def of(self, status: str) -> list[Verdict]:
        return [v for v in self.verdicts if v.status == status]

    def caught_share(self) -> Fraction | None:
        return Fraction(len(self.of("caught")), len(self.verdicts)) if self.verdicts else None

    def catchable_share(self) -> Fraction | None:
        """The share caught of the parameters an example can catch alone (all but the masked)."""
        catchable = len(self.verdicts) - len(self.of("masked"))
        return Fraction(len(self.of("caught")), catchable) if catchable else None


@dataclass(frozen=True, slots=True)
class _Line:
    """An expect line that can catch a change: the rules as written answer it as printed."""

    example: ir.Example
    origin: str
    situation: Situation
    expectation: ir.Query
    assumed: dict[str, object] = field(default_factory=dict)   # the values its example assumes (`assume`)
    # a line of a rulebook that extends the one changed: its modules, and the parameters it inherits unchanged
    # (a change to one it sets itself cannot reach it); None: a line of the changed rulebook or its ancestors
    variants: Variants | None = None
    inherits: frozenset[str] = frozenset()
    # the parameters the engine read to answer it under the rules as written; None for a question that
    # goes through the generated combat engine (QueryKind.judged), which reads its constants without the rule set
    reads: frozenset[str] | None = None


def _recorded(expectation: ir.Query, reads: set[str]) -> frozenset[str] | None:
    """What the rule set recorded as read while answering `expectation`; None when that is not all it read
    (the generated module's CombatEngine answers or judges its kind, QueryKind.judged: a combat, an attack
    refused below the table, the terrain best for the defender)."""
    return None if query_of(expectation.kind).judged else frozenset(reads)


def _with(changes: dict[str, object], assumed: dict[str, object]) -> dict[str, object]:
    """A change under the values an example assumes: the example's own values stand."""
    return {**changes, **assumed}


def descendants(resolved: Mapping[str, ir.Resolved], key: str) -> list[ir.Resolved]:
    """The rulebooks of a compilation that extend `key`, directly or through another (a series' games)."""
    return [resolved[other] for other in sorted(resolved)
            if any(book.id.value == key for book in resolved[other].ancestors)]


def _lines(modules: Variants, own: bool = True, inherits: frozenset[str] | None = None) -> list[_Line]:
    """The expect lines the rules as written answer as printed: of the rulebook and its ancestors, or (own
    False) of a rulebook extending the one changed, with the parameters it `inherits` from it unchanged."""
    resolved = modules.resolved
    out = []
    for book in (resolved.rulebook, *resolved.ancestors) if own else (resolved.rulebook,):
        for example in book.examples:
            values, problems = assumed(resolved, example.situation)
            module = modules.get(values)
            if problems or module is None:
                continue
            situation, _ = build(example.situation, getattr(module, "TERRAIN", None))
            if situation is None:
                continue
            reads: set[str] = module.RULESET.reads
            for expectation in example.situation.expectations:
                reads.clear()
                try:
                    if ask(engine_of(module), module, situation, expectation).matches:
                        out.append(_Line(example, book.id.value, situation, expectation, values,
                                         None if own else modules, inherits or frozenset(),
                                         _recorded(expectation, reads)))
                except Unanswerable:
                    continue
    return out


def _catches(line: str, probe: Probe, base: types.ModuleType, module: types.ModuleType) -> bool:
    """Whether the expect line `line` holds under the rules as written and fails under the changed ones."""
    from rulesdsl.language.transform import parse_situation
    try:
        [expectation] = parse_situation(Source("<suggestion>", line + "\n")).expectations
        return ask(engine_of(base), base, probe.situation, expectation).matches and \
            not ask(engine_of(module), module, probe.situation, expectation).matches
    except (RulesError, Unanswerable, ValueError):
        return False


def _judge(modules: Variants, changes: dict[str, object], name: str, lines_: Sequence[_Line],
           probes_: Sequence[Probe]) -> tuple[str, Witness | None]:
    if modules.get(changes) is None:   # the changed rulebook does not compile: check would refuse it (caught)
        return "caught", None
    for line in lines_:
        if line.reads is not None and name not in line.reads:
            continue     # the engine did not read the parameter to answer it: the line holds still
        if line.variants is None:
            module = modules.get(_with(changes, line.assumed))
        else:       # a rulebook that extends the changed one: only what it inherits unchanged changes
            reaching = {key: value for key, value in changes.items() if key in line.inherits}
            if not reaching:
                continue
            module = line.variants.get(_with(reaching, line.assumed))
        if module is None:
            return "caught", None
        try:
            answer = ask(engine_of(module), module, line.situation, line.expectation)
        except Unanswerable as exc:
            computed, matches = f"no answer ({exc})", False
        else:
            computed, matches = answer.computed, answer.matches
        if not matches:
            span = line.expectation.span
            return "caught", Witness(line.example.title.value, line.origin, span.path, span.line,
                                     query_text(line.expectation),
                                     result_text(line.expectation), computed)
    first: Witness | None = None      # the first question answered otherwise, if no expect line can pin any
    for probe in probes_:
        if probe.reads is not None and name not in probe.reads:
            continue     # the engine did not read the parameter to answer it: the answer cannot change
        module, base = modules.get(_with(changes, probe.assumed)), modules.get(probe.assumed)
        if module is None or base is None:
            continue
        now = _answer(module, probe.situation, probe.expectation)
        if now != probe.answer:
            was_text, now_text, pinnable = difference(probe.expectation, probe.answer, now)
            pinnable = pinnable and _catches(f"expect {probe.query} {was_text}", probe, base, module)
            span = probe.example.span
            witness = Witness(probe.example.title.value, "", span.path, span.line, probe.query, was_text, now_text,
                              pinnable)
            if pinnable:
                return "uncaught", witness
            first = first or witness
    return ("no effect", None) if first is None else ("uncaught", first)


def executed(coverage: Coverage) -> list[str]:
    """The names of the parameters a mutation changes: those the engine executes."""
    return [e.name for e in coverage.of("executed")]


def mutate(resolved: ir.Resolved, examples: Iterable[ir.Example], only: Collection[str] = (),
           progress: Callable[[str], None] | None = None, extending: Sequence[ir.Resolved] = ()) -> Mutation:
    """Each executed parameter of `resolved` (or those named in `only`) changed to each other value it may
    take, judged by the rulebook's examples, those of the rulebooks `extending` it (under the values they
    inherit from it), and by the questions about the situations of `examples`."""
    _, module, problems = compiled_module(resolved)
    if module is None:
        raise RulesError(problems, {})
    modules = Variants(resolved)
    lines_ = _lines(modules)
    origins = {p.name: p.origin for p in resolved.parameters}
    from rulesdsl.runtime.ruleset import effect_key
    ruled = {r.node.id.value: r for r in resolved.rules}
    for other in extending:
        inherits = frozenset(p.name for p in other.parameters if origins.get(p.name) == p.origin)
        # and the effects of the rules it inherits unchanged (a rule it overrides has its own)
        inherits |= {effect_key(r.node.id.value, n) for r in other.rules for n in range(1, len(r.node.effects) + 1)
                     if r.node.id.value in ruled and ruled[r.node.id.value].origin == r.origin}
        # and the rows of the combat charts it inherits unchanged
        for chart, items in ROW_CHARTS:
            mine, theirs = getattr(resolved, chart), getattr(other, chart)
            if mine is not None and theirs is not None and mine.origin == theirs.origin:
                inherits |= {row_key(chart, n) for n in range(1, len(getattr(theirs.node, items)) + 1)}
        lines_ += _lines(Variants(other), own=False, inherits=inherits)
    moments = resolved.declared["stacking.checked_at"].type.options if "stacking.checked_at" in resolved.declared \
        else ()
    probes_ = probes(examples, modules, moments)
    by_name = {p.name: p for p in resolved.parameters}
    entries = measure(resolved).of("executed")
    verdicts = []
    for entry in entries:
        if only and entry.name not in only:
            continue
        parameter, declared = by_name[entry.name], resolved.declared[entry.name]
        if progress is not None:
            progress(entry.name)
        mutants = []
        for value in alternatives(parameter.value, declared, resolved):
            status, witness = _judge(modules, {entry.name: value}, entry.name, lines_, probes_)
            masker = None
            if status in ("uncaught", "no effect") and (witness is None or not witness.pinnable):
                found = _masked(modules, entry.name, value, probes_, [e.name for e in entries])
                if found is not None:
                    status, masker, witness = "masked", found[0], found[1]
            mutants.append(Mutant(entry.name, value_text(value), status, witness, masker))
        verdicts.append(Verdict(entry.name, value_text(parameter.value), entry.rule, entry.origin, entry.source,
                                tuple(mutants)))
    effects = [] if only else _effect_verdicts(resolved, modules, lines_, probes_, progress)
    rows = [] if only else _row_verdicts(resolved, modules, lines_, probes_, progress)
    return Mutation(resolved.id, resolved.rulebook.span.path, len(lines_), len(probes_), tuple(verdicts),
                    tuple(effects), tuple(rows))


# ---- the combat charts' rows: each removed, its condition negated or dropped, its amount changed ----------------
_Row = Union[ir.Modifier, ir.Shift, ir.UnitFactor, ir.Adjustment]


def row_mutants(row: _Row) -> list[tuple[str, _Row | None]]:
    """The changes tried on one row of a combat chart (a DRM, a column shift, a strength factor, a result
    adjustment), each named as the row would then read (None: the row removed): removed; its condition
    negated; its condition dropped, so that it always holds; a number amount one more and one less."""
    from rulesdsl.errata.diff import expression_text
    out: list[tuple[str, _Row | None]] = [("removed", None)]
    condition = getattr(row, "condition", None)
    if condition is not None:
        negated = condition.operand if isinstance(condition, ir.Unary) and condition.op is ir.UnaryOp.NOT else \
            ir.Unary(op=ir.UnaryOp.NOT, operand=condition)
        out.append((f"when {expression_text(negated)}", replace(row, condition=negated)))
        out.append(("always", replace(row, condition=_ALWAYS)))
    return out + _amount_mutants(row)


def _amount_mutants(row: _Row) -> list[tuple[str, _Row | None]]:
    """A row's number one more and one less: a DRM's value, an adjustment's amount, a shift's or a factor's
    number (an expression that reads more than a number is mutated through what it reads)."""
    def signed(n: Fraction) -> str:
        return f"{'+' if n >= 0 else ''}{n}"
    if isinstance(row, ir.Modifier):
        return [(f"value {signed(Fraction(v))}", replace(row, value=v)) for v in (row.value + 1, row.value - 1)]
    if isinstance(row, ir.Adjustment):
        return [(f"amount {signed(Fraction(v))}", replace(row, amount=v)) for v in (row.amount + 1, row.amount - 1)]
    if isinstance(row, ir.Shift) and _constant_shift(row.amount) is not None:
        shift = _constant_shift(row.amount)
        assert shift is not None
        return [(f"amount {signed(v)}", replace(row, amount=ir.Number(value=v))) for v in (shift + 1, shift - 1)]
    if isinstance(row, ir.UnitFactor) and isinstance(row.factor, ir.Number):
        return [(f"x {v}", replace(row, factor=ir.Number(value=v)))
                for v in (row.factor.value + 1, row.factor.value - 1) if v >= 0]
    return []


def _constant_shift(amount: ir.Expr) -> Fraction | None:
    """A shift's amount where it is a number (`1`, `-1`), else None."""
    if isinstance(amount, ir.Number):
        return amount.value
    if isinstance(amount, ir.Unary) and amount.op is ir.UnaryOp.NEG and isinstance(amount.operand, ir.Number):
        return -amount.operand.value
    return None


def _row_verdicts(resolved: ir.Resolved, modules: Variants, lines_: Sequence[_Line], probes_: Sequence[Probe],
                  progress: Callable[[str], None] | None) -> list[Verdict]:
    """Each row of the combat charts in effect, each of its changes judged as a parameter's are; a row is named
    `row CHART N` (modcheck.row_key)."""
    out = []
    for chart, items in ROW_CHARTS:
        effective = getattr(resolved, chart)
        if effective is None:
            continue
        for n, row in enumerate(getattr(effective.node, items), 1):
            key = row_key(chart, n)
            if progress is not None:
                progress(key)
            mutants = []
            for label, new in row_mutants(row):
                status, witness = _judge(modules, {key: new}, key, lines_, probes_)
                mutants.append(Mutant(key, label, status, witness))
            name = row.source.value if isinstance(row, ir.Shift) else row.name.value
            out.append(Verdict(f"{_CHART_WORDS[chart]} {name}", row.text, "", effective.origin,
                               f"{row.span.path}:{row.span.line}", tuple(mutants)))
    return out


_CHART_WORDS = {"modifiers": "DRM", "shifts": "column shift", "unit_factors": "strength factor",
                "adjustments": "result adjustment"}


# ---- a rule's effects: each removed, its condition negated or a part of it dropped, its amount changed ---------
_ALWAYS = ir.Binary(op=ir.BinaryOp.EQ, left=ir.Number(value=Fraction(0)), right=ir.Number(value=Fraction(0)))


def effect_mutants(effect: ir.Effect) -> list[tuple[str, ir.Effect | None]]:
    """The changes tried on one effect, each as the line would then read (None: the line removed): removed;
    the condition negated; for a condition of several parts joined by `or` or `and`, each part dropped (an
    `and` then holds more often, an `or` less); the condition dropped, so that it always holds; a cost's
    amount one more and one less."""
    from rulesdsl.errata.diff import amount_text, expression_text
    from rulesdsl.model.walk import chain
    condition = effect.condition
    conditions: list[ir.Expr] = [ir.Unary(op=ir.UnaryOp.NOT, operand=condition)]
    if isinstance(condition, ir.Binary) and condition.op in (ir.BinaryOp.AND, ir.BinaryOp.OR):
        parts = chain(condition, condition.op)
        for k in range(len(parts)):
            rest = parts[:k] + parts[k + 1:]
            joined = rest[0]
            for part in rest[1:]:
                joined = ir.Binary(op=condition.op, left=joined, right=part)
            conditions.append(joined)
    conditions.append(_ALWAYS)
    head = f"{effect.kind} {effect.question.value}"
    amount = effect.amount

    def said(new: ir.Effect) -> str:
        shown = "" if new.amount is None else f" {amount_text(new.amount)}"
        when = "always" if new.condition == _ALWAYS else f"when {expression_text(new.condition)}"
        return f"{head}{shown} {when}"
    out: list[tuple[str, ir.Effect | None]] = [("removed", None)]
    for new_condition in conditions:
        new = replace(effect, condition=new_condition)
        out.append((said(new), replace(new, text=said(new))))
    if amount is not None and amount.value is not None:     # a parameter's amount mutates as the parameter
        for step in (Fraction(1), Fraction(-1)):
            value = amount.value + step
            if amount.how is not ir.AmountHow.ADD and value < 0:
                continue
            new = replace(effect, amount=replace(amount, value=value))
            out.append((said(new), replace(new, text=said(new))))
    return out


def _effect_verdicts(resolved: ir.Resolved, modules: Variants, lines_: Sequence[_Line], probes_: Sequence[Probe],
                     progress: Callable[[str], None] | None) -> list[Verdict]:
    """Each effect of the rules in effect, each of its changes judged as a parameter's are (the expect lines,
    then the questions about the example situations); an effect is named `effect RULE N` where the engine
    records what it read."""
    from rulesdsl.runtime.ruleset import effect_key
    out = []
    for effective in resolved.rules:
        rule = effective.node
        for n, effect in enumerate(rule.effects, 1):
            key = effect_key(rule.id.value, n)
            if progress is not None:
                progress(key)
            mutants = []
            for label, new in effect_mutants(effect):
                status, witness = _judge(modules, {key: new}, key, lines_, probes_)
                mutants.append(Mutant(key, label, status, witness))
            out.append(Verdict(f"{rule.id.value}: {effect.kind} {effect.question.value}", effect.text,
                               rule.id.value, effective.origin, f"{effect.span.path}:{effect.span.line}",
                               tuple(mutants)))
    return out


@dataclass(frozen=True)
class _MaskSearch:
    """Where `_masked` looks for the parameter that masks a change: the questions it tries, who refuses each
    once the change is made (by the probe's id), the parameters that are candidates because those questions
    read them (an answer with no reasons), and every candidate, in the order tried."""

    reading: tuple[Probe, ...]
    after: Mapping[int, frozenset[str]]
    read_too: frozenset[str]
    candidates: tuple[str, ...]


def _masked(modules: Variants, name: str, value: object, probes_: Sequence[Probe],
            executed_names: Sequence[str]) -> tuple[Masker, Witness] | None:
    """The parameter that masks the change `name` = `value`: another executed parameter read by the same
    questions such that, with it changed too, the change answers one of them otherwise; None if none does."""
    contract = engine_parameter(name)
    reading = _mask_questions(name, contract, probes_)
    after = _refused_once_changed(modules, name, value, reading)
    search = _mask_search(name, contract, reading, after, set(executed_names))
    return _first_unmasking(modules, name, value, search)


def _mask_questions(name: str, contract: EngineParameter | None, probes_: Sequence[Probe]) -> list[Probe]:
    """The questions a masking parameter is looked for in: those that read the parameter `name`, and some of
    the questions of its engine function another parameter refuses before it is read."""
    reading = [p for p in probes_ if p.reads is not None and name in p.reads]
    kind = _DRIVES.get(contract.drives) if contract is not None else None
    return reading + [p for p in probes_ if p.expectation.kind == kind and p.deciders and p.reads is not None
                      and name not in p.reads][:_MASK_REFUSED]


def _refused_once_changed(modules: Variants, name: str, value: object,
                          reading: Sequence[Probe]) -> dict[int, frozenset[str]]:
    """By probe (its id): the parameters that refuse the question once `name` is `value`, for some of the
    questions this parameter decides (two rules that refuse the same cases: each masks the other)."""
    after: dict[int, frozenset[str]] = {}
    for probe in [p for p in reading if name in p.deciders][:_MASK_REFUSED]:
        changed = modules.get(_with({name: value}, probe.assumed))
        if changed is not None:
            try:
                after[id(probe)] = ask(engine_of(changed), changed, probe.situation, probe.expectation).deciders
            except Unanswerable:
                continue
    return after


def _mask_search(name: str, contract: EngineParameter | None, reading: list[Probe],
                 after: Mapping[int, frozenset[str]], executed_: set[str]) -> _MaskSearch:
    """The candidates, in order: first the executed parameters that decide a question together with `name`,
    or refuse it once `name` is changed; then those that decide the most of the questions it reads (or
    would read); failing both, the parameters of the same engine function its questions read (`_read_alike`:
    then the questions tried are fewer)."""
    beside = sorted(({o for p in reading if name in p.deciders for o in p.deciders} |
                     {o for found in after.values() for o in found}) - {name} & executed_)
    deciding = Counter(o for p in reading for o in p.deciders if o != name and o in executed_ and o not in beside)
    others = sorted(deciding, key=lambda o: (-deciding[o], o))
    read_too: Counter[str] = Counter()
    if not beside and not others and contract is not None:
        reading, read_too = _read_alike(name, contract, reading, executed_)
    candidates = (beside + others + sorted(read_too, key=lambda o: (-read_too[o], o)))[:_MASK_CANDIDATES]
    return _MaskSearch(tuple(reading), after, frozenset(read_too), tuple(candidates))


def _read_alike(name: str, contract: EngineParameter, reading: Sequence[Probe],
                executed_: set[str]) -> tuple[list[Probe], Counter[str]]:
    """For an answer with no reasons (a retreat's paths): a question or two of each example, not all of the
    first, and how often they read each other executed parameter of the same engine function."""
    same = {e.name for e in ENGINE_PARAMETERS if e.drives == contract.drives}
    spread: dict[tuple[int, str], Probe] = {}
    for probe in reading:
        units = query_of(probe.expectation.kind).units(probe.expectation)
        spread.setdefault((id(probe.example), " ".join(u.value for u in units)), probe)
    fewer = list(spread.values())[:_MASK_SPREAD]
    return fewer, Counter(o for p in fewer for o in (p.reads or ()) if o in same and o != name and o in executed_)


def _first_unmasking(modules: Variants, name: str, value: object,
                     search: _MaskSearch) -> tuple[Masker, Witness] | None:
    """The first candidate, at the first other value it may take, with which the change `name` = `value`
    answers one of the questions otherwise, in words an expect line compares; None if none does."""
    resolved = modules.resolved
    by_name = {p.name: p for p in resolved.parameters}
    for other in search.candidates:
        parameter = by_name[other]
        for unmasked in alternatives(parameter.value, resolved.declared[other], resolved):
            for probe in search.reading:
                if other not in probe.deciders and other not in search.after.get(id(probe), ()) \
                        and other not in search.read_too:
                    continue
                found = _unmasked_difference(modules, probe, {other: unmasked}, name, value)
                if found is not None:
                    span = probe.example.span
                    return (Masker(other, value_text(parameter.value), value_text(unmasked)),
                            Witness(probe.example.title.value, "", span.path, span.line, probe.query, found[0],
                                    found[1], False))
    return None


def _unmasked_difference(modules: Variants, probe: Probe, unmasking: dict[str, object], name: str,
                         value: object) -> tuple[str, str] | None:
    """How the question's answer with the other parameter changed (`unmasking`) differs once `name` is
    `value` too (what was, what is), when an expect line would compare the words that change; else None."""
    alone = modules.get(_with(unmasking, probe.assumed))
    both = modules.get(_with({**unmasking, name: value}, probe.assumed))
    if alone is None or both is None:
        return None
    was, now = _answer(alone, probe.situation, probe.expectation), _answer(both, probe.situation, probe.expectation)
    if was is None or was == now:
        return None
    was_text, now_text, pinnable = difference(probe.expectation, was, now)
    return (was_text, now_text) if pinnable else None


def render_text(mutation: Mutation) -> str:
    total = len(mutation.verdicts)
    out = [f"{mutation.rulebook} ({mutation.path}): each executed parameter changed, one at a time, to each other "
           "value it may take",
           f"judged by {mutation.examples} expect lines and {mutation.questions} questions about the example "
           "situations",
           "",
           f"caught by an example: {len(mutation.of('caught'))} of {total} ({percent(mutation.caught_share())}); "
           f"of those an example can catch alone (all but the masked): "
           f"{percent(mutation.catchable_share())}"]
    for status in STATUSES[1:]:
        out.append(f"{status}: {len(mutation.of(status))}")
    width = max((len(v.name) for v in mutation.verdicts), default=0)
    for status, title in (("masked", "masked: a change answers otherwise only when another parameter changes "
                                     "too"),
                          ("uncaught", "uncaught: a change answers a question otherwise, and no example notices"),
                          ("no effect", "no effect: no question about the example situations is answered otherwise"),
                          ("one value", "one value: nothing else to try"),
                          ("caught", "caught")):
        verdicts = mutation.of(status)
        if not verdicts:
            continue
        out += ["", f"{title} ({len(verdicts)}):"]
        for v in verdicts:
            out.append(f"  {v.name:<{width}}  {v.value}  [rule {v.rule}, {v.origin}, {v.source}]")
            for m in v.mutants:
                w = m.witness
                if w is None:
                    why = {"caught": "the changed rulebook does not compile", "no effect": "nothing answered otherwise",
                           "uncaught": ""}[m.status]
                    out.append(f"    = {m.value}: {m.status}, {why}")
                elif m.status == "masked" and m.masker is not None:
                    k = m.masker
                    out.append(f"    = {m.value}: masked by {k.name} = {k.value}; with {k.name} = {k.other}, in the "
                               f"situation of \"{w.example}\" ({w.path}:{w.line}), expect {w.query}: {w.was} -> {w.now}")
                elif m.status == "caught":
                    out.append(f"    = {m.value}: caught by {w.origin}'s example \"{w.example}\" ({w.path}:{w.line}): "
                               f"expect {w.query}: {w.was} -> {w.now}")
                else:
                    out.append(f"    = {m.value}: {m.status}; in the situation of \"{w.example}\" ({w.path}:{w.line}), "
                               f"expect {w.query}: {w.was} -> {w.now}")
                    out.append(f"      an expect line that would catch it: expect {w.query} {w.was}" if w.pinnable else
                               "      (no expect line compares this part of the answer)")
    for group, title, ruled in (
            (mutation.effects, "the rules' effects, each removed, its condition negated, a part of it dropped, or "
                               "always holding, and a cost's amount changed", True),
            (mutation.rows, "the combat charts' rows, each removed, its condition negated or always holding, and its "
                            "number changed", False)):
        if group:
            caught = sum(v.status == "caught" for v in group)
            out += ["", f"{title}: {caught} of {len(group)} caught"]
            for v in group:
                where = f"rule {v.rule}, " if ruled else ""
                out.append(f"  {v.name}  [{v.status}]  {v.value}  [{where}{v.origin}, {v.source}]")
                out += _changes(v)
    return "\n".join(out) + "\n"


def _changes(verdict: Verdict) -> list[str]:
    """What each change of an effect or a chart's row did, a line each (and the line that caught it)."""
    out = []
    for m in verdict.mutants:
        w = m.witness
        if m.status == "caught" and w is not None:
            out.append(f"    = {m.value}: caught by {w.origin}'s example \"{w.example}\" ({w.path}:{w.line}): "
                       f"expect {w.query}: {w.was} -> {w.now}")
        elif m.status == "caught":
            out.append(f"    = {m.value}: caught, the changed rulebook does not compile")
        elif w is not None:
            out.append(f"    = {m.value}: {m.status}; in the situation of \"{w.example}\" ({w.path}:{w.line}), "
                       f"expect {w.query}: {w.was} -> {w.now}")
        else:
            out.append(f"    = {m.value}: {m.status}")
    return out


def render_json(mutation: Mutation) -> str:
    document = {"rulebook": mutation.rulebook, "path": mutation.path, "expect_lines": mutation.examples,
                "questions": mutation.questions,
                "figures": {**{status: len(mutation.of(status)) for status in STATUSES},
                            "executed": len(mutation.verdicts),
                            "caught_share": None if mutation.caught_share() is None else str(mutation.caught_share()),
                            "catchable_share": None if mutation.catchable_share() is None
                            else str(mutation.catchable_share())},
                "parameters": [v.as_json() for v in mutation.verdicts],
                "effects": [v.as_json() for v in mutation.effects],
                "rows": [v.as_json() for v in mutation.rows]}
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
