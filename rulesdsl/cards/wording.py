"""Rulebook expressions in players' words, in the card's language.

A card never prints an expression as the rulebook writes it: `describe` walks the expression (ir.Expr)
and builds a phrase from labels.  The sentence patterns ("{a} and {b}", "{n} or more {x}") are labels
`words.*` of the compiler's labels (rulesdsl/cards/labels/words.rules), in every language; the names
an expression reads are labels too:

  state.<name>, type.<name>     a unit's state, type or capability    (dg, armor, engineer)
  situation.<name>              a situation the players declare       (river-assault)
  amount.<name>                 an amount the players count           (artillery-attack)
  define.<name>                 a definition                          (ambush, combined-arms-stacks)
  define.<name>.<case>          `name is case`, as a whole            (armor-advantage is attacker)
  parameter.<name>              a parameter that is not a number: its declared meaning
  terrain.<name>                a terrain of the TEC
  <any of these>.not            its negation, where "not {x}" reads badly

A name with no label is written out from its id ("river-assault" -> "river assault"); on a card in
another language than English it is marked and named in the card's warning (Labeler.missing), in
English it is recorded in Labeler.derived.  A numeric parameter prints as its value, never its id.

Numbers and percentages follow the locale (Babel): 58.3% and 0.61 in English, 58,3 % and 0,61 in French.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Callable, Mapping, assert_never

from babel import Locale
from babel.numbers import format_decimal, format_percent

from rulesdsl.cards.labeler import Label, Labeler, filled, fraction
from rulesdsl.model import ir
from rulesdsl.model.context import HEX_ATTRIBUTES, NUMERIC, RESULT_FIELDS, ROOT, TERRAIN_ATTRIBUTES, UNIT_ATTRIBUTES
from rulesdsl.model.walk import chain, walk
from rulesdsl.checks.expressions import numeric_values
from rulesdsl.runtime.model import Quantity
from rulesdsl.runtime.notation import parse_turns


# ---- numbers by locale ---------------------------------------------------------------
def _rounded(value: Fraction, places: int) -> Decimal:
    """`value` rounded half up at `places` decimals, exactly (no float on the way)."""
    scaled = value * 10 ** places
    whole = int(scaled) + (1 if scaled - int(scaled) >= Fraction(1, 2) else 0)
    return Decimal(whole).scaleb(-places)


def percent(value: Fraction, lang: str) -> str:
    """A chance to one decimal place, as the locale writes it: '58.3%' (en), '58,3 %' (fr)."""
    pattern = Locale.parse(lang).percent_formats[None].pattern
    pattern = re.sub(r"0(?!\.)", "0.0", pattern, count=1) if "." not in pattern else pattern
    return format_percent(_rounded(value, 3), format=pattern, locale=lang)


def decimal(value: Fraction, lang: str, places: int = 2) -> str:
    """A number to `places` decimals, as the locale writes it: '0.61' (en), '0,61' (fr)."""
    return format_decimal(_rounded(value, places), format="#,##0." + "0" * places, locale=lang)


def number(value: Fraction | int, lang: str) -> str:
    """A value a rule gives: a whole number, or a fraction as a glyph (½, 1½) when it has one."""
    value = Fraction(value)
    if value.denominator == 1:
        return ("\u2212" if value < 0 else "") + format_decimal(abs(value.numerator), locale=lang)
    text = fraction(abs(value))
    if "/" in text and value.denominator not in (2, 3, 4, 8):
        text = format_decimal(_rounded(abs(value), 2), locale=lang)
    return ("\u2212" if value < 0 else "") + text


# ---- phrases ---------------------------------------------------------------------------
@dataclass(frozen=True)
class _VP:
    """A verb phrase whose subject is the unit or hex in scope: 'is DG', 'holds 3 or more units'.
    `word` is set for 'is X' (X: a state, type or capability), so that phrases can be joined
    ('is armor or anti-tank'), negated and made plural."""

    label: Label
    word: Label | None = None


@dataclass(frozen=True)
class _Collection:
    """A group an aggregate reads, by the label stem of its forms (one, every, none, the, some, such)."""

    stem: str
    scope: str          # the element's kind: unit or hex
    inside: bool        # a hex's own units: the phrase is a verb phrase of that hex


def words(text: str) -> str:
    """Readable words from an id: 'river-assault' -> 'river assault', 'dice.white' -> 'dice white'."""
    return re.sub(r"[-_.]+", " ", text).strip()


class _Say:
    def __init__(self, t: Labeler, resolved: ir.Resolved | None):
        self.t = t
        self.resolved = resolved
        self.scopes: list[str] = []        # unit / hex, innermost last
        self.bare = False                  # inside `of`: an attribute without "its"
        vocabulary = resolved.vocabulary if resolved is not None else None
        self.states = set(vocabulary.states) if vocabulary is not None else set()
        self.types: set[str] = set()
        if vocabulary is not None:
            for name, capabilities in vocabulary.unit_types.items():
                self.types |= {name, *capabilities}
        self.definitions = dict(vocabulary.definitions) if vocabulary is not None else {}
        self.situations = set(vocabulary.situations) if vocabulary is not None else set()
        self.amounts = set(vocabulary.amounts) if vocabulary is not None else set()
        self.parameters = {p.name: p for p in resolved.parameters} if resolved is not None else {}
        self.values = numeric_values(resolved.parameters) if resolved is not None else {}     # their numbers
        self.terrain = dict(vocabulary.terrain) if vocabulary is not None else {}

    # -- labels ------------------------------------------------------------------------
    def fill(self, key: str, **parts: Label) -> Label:
        """The sentence pattern `key` with its {slots} filled; marked when any part is."""
        template = self.t(key)
        text = re.sub(r"\{(\w+)\}", lambda m: parts[m.group(1)].text if m.group(1) in parts else m.group(0),
                      template.text)
        return Label(text, template.fallback or any(p.fallback for p in parts.values()))

    def name(self, key: str, derived: str) -> Label:
        """A rulebook name's label, or its words; either way never its id."""
        if self.t.lang == "en" and not self.t.has(key):
            self.t.derived[key] = None
        return self.t(key, derived)

    def optional(self, key: str) -> Label | None:
        """A label that may be absent everywhere (a negated form): None then."""
        return self.t(key) if self.t.has(key) else None

    # -- the walk ------------------------------------------------------------------------
    def say(self, expr: ir.Expr) -> Label | _VP:
        match expr:
            case ir.Number():
                return self.number(expr)
            case ir.OddsLiteral():
                return self.odds(expr)
            case ir.Name():
                return self.name_of(expr)
            case ir.Call():
                return self.call(expr)
            case ir.Unary():
                return self.unary(expr)
            case ir.Binary():
                return self.binary(expr)
            case ir.Is():
                return self.is_(expr)
        assert_never(expr)

    def np(self, expr: ir.Expr) -> Label:
        """`expr` as a phrase standing alone (a clause or a noun phrase)."""
        said = self.say(expr)
        return self.clause(said)

    def clause(self, said: Label | _VP) -> Label:
        if isinstance(said, _VP):   # a verb phrase standing alone: its subject is the element in scope
            subject = self.t(f"words.{self.scopes[-1] if self.scopes else 'unit'}.the")
            return Label(f"{subject.text} {said.label.text}", subject.fallback or said.label.fallback)
        return said

    def number(self, expr: ir.Number) -> Label:
        return Label(number(expr.value, self.t.lang))

    def odds(self, expr: ir.OddsLiteral) -> Label:
        return Label(expr.text.strip())

    def name_of(self, expr: ir.Name) -> Label | _VP:
        path = expr.path
        head, _, rest = path.partition(".")
        for scope in reversed(self.scopes):
            if scope == "unit":
                if path in UNIT_ATTRIBUTES:
                    return self.attribute("unit", path)
                if path in self.states or path in self.types or self.t.has(f"state.{path}"):
                    kind = "type" if path in self.types else "state"
                    word = self.name(f"{kind}.{path}", words(path))
                    return _VP(self.fill("words.is", x=word), word)
            elif scope == "hex":
                if path in HEX_ATTRIBUTES:
                    return self.attribute("hex", path)
                if head == "terrain" and rest in TERRAIN_ATTRIBUTES:
                    return self.fill("words.of", x=self.t(f"words.terrain.{rest}"),
                                     y=self.attribute("hex", "terrain"))
        if path in self.definitions:
            return self.name(f"define.{path}", words(path))
        if path in self.parameters:
            return self.parameter(path)
        if path in self.situations:
            return self.name(f"situation.{path}", words(path))
        if path in self.amounts:
            return self.name(f"amount.{path}", words(path))
        if path in ROOT:
            return self.t(f"words.root.{path.replace('_', '-')}")
        if path in RESULT_FIELDS:
            return self.t(f"words.{path.replace('_', '-')}")
        if head in ROOT and ROOT[head] == "terrain" and rest in TERRAIN_ATTRIBUTES:
            return self.fill("words.of", x=self.t(f"words.terrain.{rest}"),
                             y=self.t(f"words.root.{head.replace('_', '-')}"))
        if path in self.states or path in self.types or self.t.has(f"state.{path}"):   # a unit word outside where
            return self.name(f"{'type' if path in self.types else 'state'}.{path}", words(path))
        return self.name(f"name.{path}", words(path))

    def attribute(self, owner: str, name: str) -> Label:
        """A unit's or hex's attribute: 'its quality' (or 'quality' inside `of`)."""
        label = self.t(f"words.{owner}.{name}")
        return label if self.bare else self.fill(f"words.{owner}.its", x=label)

    def parameter(self, path: str) -> Label:
        """A parameter's value where it is a number, else what its declaration says it means."""
        value = self.parameters[path].value
        if isinstance(value, Quantity):
            value = value.amount
        if isinstance(value, (int, Fraction)) and not isinstance(value, bool):
            return Label(number(value, self.t.lang))
        declared = self.resolved.declared.get(path) if self.resolved is not None else None
        return self.name(f"parameter.{path}", declared.meaning if declared is not None else words(path))

    # -- calls -------------------------------------------------------------------------
    def collection(self, expr: ir.Expr) -> _Collection | None:
        if isinstance(expr, ir.Name):
            if expr.path == "units" and self.scopes and self.scopes[-1] == "hex":
                return _Collection("words.hex-units", "unit", True)
            if expr.path in ROOT and ROOT[expr.path] in ("units", "hexes"):
                return _Collection(f"words.{expr.path.replace('_', '-')}",
                                   "unit" if ROOT[expr.path] == "units" else "hex", False)
        return None

    def inner(self, group: _Collection, expr: ir.Expr | None, bare: bool = False) -> Label | _VP | None:
        """`where`/`of` said with the group's element in scope."""
        if expr is None:
            return None
        self.scopes.append(group.scope)
        saved, self.bare = self.bare, bare
        try:
            return self.say(expr)
        finally:
            self.scopes.pop()
            self.bare = saved

    def filtered(self, group: _Collection, where: Label | _VP | None, form: str = "some") -> Label:
        """'units', or 'units that are soft': the group's elements the condition keeps."""
        noun = self.t(f"{group.stem}.{form}")
        if where is None:
            return noun
        if isinstance(where, _VP):
            plural = self.fill("words.are", x=where.word) if where.word is not None else where.label
            return self.fill("words.that", x=noun, vp=plural if form in ("some", "the") else where.label)
        return self.fill("words.such-that", x=noun, y=where)

    def call(self, expr: ir.Call) -> Label | _VP:
        function = expr.function.value
        group = self.collection(expr.args[0]) if len(expr.args) == 1 else None
        if function in ("any", "all", "count", "sum", "max", "min") and group is not None:
            return self.aggregate(function, group, expr)
        if function in ("min", "max"):
            items = [self.np(a) for a in expr.args]
            return self.fill(f"words.{function}-of-list", x=self.join(items, "words.list-and"))
        if function == "if" and len(expr.args) == 3:
            return self.fill("words.if", c=self.np(expr.args[0]), a=self.np(expr.args[1]), b=self.np(expr.args[2]))
        if function == "odds" and len(expr.args) == 2:
            return self.fill("words.odds-of", a=self.np(expr.args[0]), d=self.np(expr.args[1]))
        if function in NUMERIC and len(expr.args) == 1:
            return self.fill(f"words.{function}", x=self.np(expr.args[0]))
        if function == "across" and len(expr.args) == 1 and isinstance(expr.args[0], ir.Name):
            feature = self.terrain_name(expr.args[0].path)
            return _VP(self.fill("words.across", x=feature))
        # a call the checker refuses: its name and what it reads, in words
        parts = [self.np(a) for a in expr.args]
        return self.fill("words.call", f=self.name(f"name.{function}", words(function)),
                         x=self.join(parts, "words.list-and") if parts else Label(""))

    def terrain_name(self, name: str) -> Label:
        label = self.t.name("terrain", name)
        return Label(label.text[:1].lower() + label.text[1:], label.fallback)

    def aggregate(self, function: str, group: _Collection, expr: ir.Call) -> Label | _VP:
        where = self.inner(group, expr.where)
        if function in ("any", "all"):
            return self.quantified("one" if function == "any" else "every", group, where)
        if function == "count":
            things = self.filtered(group, where)
            counted = self.fill("words.number-of", x=things)
            return counted
        of = self.inner(group, expr.of, bare=True)
        value = self.clause(of) if of is not None else self.t("words.unit.strength")
        members = self.filtered(group, where, "the")
        return self.fill(f"words.{function}-of", x=value, y=members)

    def quantified(self, form: str, group: _Collection, where: Label | _VP | None) -> Label | _VP:
        """any (form one), all (every) and not any (none) over a group."""
        if group.inside:    # a hex's own units: 'holds a unit that is armor', 'holds no unit ...'
            return _VP(self.fill(f"words.holds-{form}", x=self.filtered(group, where, "some" if form == "every"
                                                                        else form)))
        subject = self.t(f"{group.stem}.{form}")
        if where is None:
            return self.fill(f"words.exists-{form}", x=subject)
        if isinstance(where, _VP):
            return self.fill(f"words.quantified-{form}", x=subject, vp=where.label)
        return self.fill(f"words.quantified-{form}-clause", x=subject, y=where,
                         such=self.t(f"{group.stem}.such"))

    # -- operators ---------------------------------------------------------------------
    def unary(self, expr: ir.Unary) -> Label | _VP:
        if expr.op == ir.UnaryOp.NEG:
            if isinstance(expr.operand, ir.Number):
                return Label(number(-expr.operand.value, self.t.lang))
            return self.fill("words.minus", x=self.np(expr.operand))
        return self.negate(expr.operand)

    def negate(self, operand: ir.Expr) -> Label | _VP:
        if isinstance(operand, ir.Call) and operand.function.value == "any" and len(operand.args) == 1:
            group = self.collection(operand.args[0])
            if group is not None:
                return self.quantified("none", group, self.inner(group, operand.where))
        if isinstance(operand, ir.Name):
            said = self.say(operand)
            key = self.key_of(operand)
            if isinstance(said, _VP):
                return self.negate_vp(said)
            negated = self.optional(f"{key}.not") if key is not None else None
            return negated if negated is not None else self.fill("words.not", x=said)
        said = self.say(operand)
        if isinstance(said, _VP):
            return self.negate_vp(said)
        return self.fill("words.not", x=said)

    def negate_vp(self, said: _VP) -> _VP:
        if said.word is not None:
            return _VP(self.fill("words.is-not", x=said.word))
        return _VP(self.fill("words.not-vp", x=said.label))

    def key_of(self, name: ir.Name) -> str | None:
        """The label key of a name that labels itself (a situation, a definition ...)."""
        path = name.path
        if path in self.definitions:
            return f"define.{path}"
        if path in self.situations:
            return f"situation.{path}"
        if path in ROOT:
            return f"words.root.{path.replace('_', '-')}"
        return None

    def binary(self, expr: ir.Binary) -> Label | _VP:
        op = expr.op
        if op in (ir.BinaryOp.AND, ir.BinaryOp.OR):
            return self.junction(expr)
        if op in (ir.BinaryOp.ADD, ir.BinaryOp.SUB, ir.BinaryOp.MUL, ir.BinaryOp.DIV):
            constant = _constant(expr, self.values)
            if constant is not None:     # 3/2 is a number, not a sum to do (nor two parameters' quotient)
                return Label(number(constant, self.t.lang))
            key = {"+": "plus", "-": "minus-of", "*": "times", "/": "divided"}[op.value]
            return self.fill(f"words.{key}", a=self.np(expr.left), b=self.np(expr.right))
        name = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge", "==": "eq", "!=": "ne"}[op.value]
        counted = self.count_comparison(expr, name)
        if counted is not None:
            return counted
        return self.fill(f"words.compare-{name}", a=self.np(expr.left), b=self.np(expr.right))

    def count_comparison(self, expr: ir.Binary, name: str) -> Label | _VP | None:
        """count(C where P) compared with a number: '3 or more defending units', 'holds 3 or more units'."""
        left = expr.left
        if not (isinstance(left, ir.Call) and left.function.value == "count" and len(left.args) == 1
                and isinstance(expr.right, ir.Number)):
            return None
        group = self.collection(left.args[0])
        if group is None:
            return None
        things = self.filtered(group, self.inner(group, left.where))
        amount = self.fill(f"words.count-{name}", n=self.number(expr.right), x=things)
        return _VP(self.fill("words.holds", x=amount)) if group.inside else self.fill("words.there-are", x=amount)

    def junction(self, expr: ir.Binary, nested: bool = False) -> Label | _VP:
        """and/or; one inside the other says how they group: 'a and either b or c'."""
        op = "and" if expr.op == ir.BinaryOp.AND else "or"
        key = f"words.{('both' if op == 'and' else 'either') if nested else op}"
        left, right = (self.junction(side, True)
                       if isinstance(side, ir.Binary) and side.op in (ir.BinaryOp.AND, ir.BinaryOp.OR)
                       and side.op != expr.op else self.say(side) for side in (expr.left, expr.right))
        if isinstance(left, _VP) and isinstance(right, _VP):
            if left.word is not None and right.word is not None:   # is X or Y
                word = self.fill(key, a=left.word, b=right.word)
                return _VP(self.fill("words.is", x=word), word)
            return _VP(self.fill(key, a=left.label, b=right.label))
        return self.fill(key, a=self.clause(left), b=self.clause(right))

    def is_(self, expr: ir.Is) -> Label | _VP:
        operand, word = expr.operand, expr.word.value
        if isinstance(operand, ir.Name) and operand.path in self.definitions:
            key = f"define.{operand.path}.{word}"
            if self.t.has(key):
                return self.t(key)
            return self.fill("words.is-case", x=self.np(operand),
                             y=self.name(f"case.{operand.path}.{word}", words(word)))
        if isinstance(operand, ir.Name) and ROOT.get(operand.path) == "side":
            return self.fill("words.is-side", x=self.np(operand), y=self.name(f"side.{word}", word))
        if word in self.terrain:
            return self.fill("words.is-terrain", x=self.np(operand), y=self.terrain_name(word))
        return self.fill("words.is-case", x=self.np(operand), y=self.name(f"name.{word}", words(word)))

    def join(self, items: list[Label], key: str) -> Label:
        """'a, b and c'."""
        if len(items) == 1:
            return items[0]
        head = Label(", ".join(i.text for i in items[:-1]), any(i.fallback for i in items[:-1]))
        return self.fill(key, a=head, b=items[-1])


# Every expression node and the method that words it (tests/test_wording.py checks that each node kind
# of ir.Expr is here, and `_Say.say` dispatches on the same kinds with assert_never).
WORDINGS: dict[type, Callable[..., object]] = {
    ir.Number: _Say.number,
    ir.OddsLiteral: _Say.odds,
    ir.Name: _Say.name_of,
    ir.Call: _Say.call,
    ir.Unary: _Say.unary,
    ir.Binary: _Say.binary,
    ir.Is: _Say.is_,
}


def _constant(expr: ir.Expr, values: Mapping[str, Fraction]) -> Fraction | None:
    """The value of arithmetic on numbers and numeric parameters alone (3/2, a tripling over a doubling), or
    None."""
    match expr:
        case ir.Number():
            return expr.value
        case ir.Name() if expr.path in values:
            return values[expr.path]
        case ir.Unary() if expr.op == ir.UnaryOp.NEG:
            inner = _constant(expr.operand, values)
            return None if inner is None else -inner
        case ir.Binary() if expr.op in (ir.BinaryOp.ADD, ir.BinaryOp.SUB, ir.BinaryOp.MUL, ir.BinaryOp.DIV):
            a, b = _constant(expr.left, values), _constant(expr.right, values)
            if a is None or b is None or (expr.op == ir.BinaryOp.DIV and b == 0):
                return None
            return {"+": a + b, "-": a - b, "*": a * b, "/": a / b if b else a}[expr.op.value]
    return None


# ---- French spelling: what gluing words together breaks -----------------------------------
_VOWEL = "aeiouyhéèêëàâîïôûAEIOUYHÉÈÊÀÂÎÔÛ"


def _french(text: str) -> str:
    text = re.sub(rf"\b([lL])[ea] (?=[{_VOWEL}])", r"\1'", text)                # la unité -> l'unité
    text = re.sub(r"\b([dD])e les\b", r"\1es", text)
    text = re.sub(r"\b([dD])e le\b", lambda m: "du" if m.group(1) == "d" else "Du", text)
    text = re.sub(r"\b([àÀ]) les\b", "aux", text)
    text = re.sub(r"\b([àÀ]) le\b", "au", text)
    text = re.sub(rf"\b([dDnN])e (?=[{_VOWEL}])", r"\1'", text)                # de unités -> d'unités
    text = re.sub(rf"\b([qQ])ue (?=[{_VOWEL}])", r"\1u'", text)
    text = re.sub(r"\b([sS])i (?=ils?\b)", r"\1'", text)
    return text


def _finish(label: Label, lang: str) -> Label:
    text = " ".join(label.text.split())
    if lang == "fr":
        text = _french(text)
    return Label(text, label.fallback)


# ---- what charts.py calls ------------------------------------------------------------------
def describe(expr: ir.Expr, t: Labeler, resolved: ir.Resolved | None = None, *, unit: bool = False) -> Label:
    """`expr` in players' words: a condition as a clause, a value as a noun phrase.  `unit`: the
    expression reads one unit (a strength factor's), whose words are 'the unit ...'."""
    say = _Say(t, resolved)
    if unit:
        say.scopes.append("unit")
    return _finish(say.np(expr), t.lang)


def shift(amount: ir.Expr, t: Labeler, resolved: ir.Resolved | None = None) -> Label:
    """A column shift's amount: '1 right', '1 left', 'right by the artillery attack'."""
    say = _Say(t, resolved)
    value = amount.value if isinstance(amount, ir.Number) else (
        -amount.operand.value if isinstance(amount, ir.Unary) and amount.op == ir.UnaryOp.NEG
        and isinstance(amount.operand, ir.Number) else None)
    if value is not None:
        side = "right" if value >= 0 else "left"
        return _finish(say.fill(f"words.shift-{side}", n=Label(number(abs(value), t.lang))), t.lang)
    if isinstance(amount, ir.Unary) and amount.op == ir.UnaryOp.NEG:
        return _finish(say.fill("words.shift-left-by", x=say.np(amount.operand)), t.lang)
    if _never_negative(amount, say):
        return _finish(say.fill("words.shift-right-by", x=say.np(amount)), t.lang)
    return _finish(say.fill("words.shift-signed", x=say.np(amount)), t.lang)


def _never_negative(expr: ir.Expr, say: _Say, depth: int = 0) -> bool:
    """Whether an amount cannot be below 0 (an amount the players count, a count, a min/max/if of such)."""
    match expr:
        case ir.Number():
            return expr.value >= 0
        case ir.Name():
            definition = say.definitions.get(expr.path)
            if definition is not None and definition.expr is not None and depth < 20:
                return _never_negative(definition.expr, say, depth + 1)
            return expr.path in say.amounts
        case ir.Call():
            if expr.function.value == "count":
                return True
            if expr.function.value in ("min", "max") and len(expr.args) > 1:
                return all(_never_negative(a, say, depth) for a in expr.args)
            if expr.function.value == "if" and len(expr.args) == 3:
                return all(_never_negative(a, say, depth) for a in expr.args[1:])
            return False
        case ir.Binary():
            return expr.op in (ir.BinaryOp.ADD, ir.BinaryOp.MUL) and _never_negative(expr.left, say, depth) \
                and _never_negative(expr.right, say, depth)
    return False


def when(condition: ir.Expr | None, t: Labeler, resolved: ir.Resolved | None = None, *,
         unit: bool = False) -> Label:
    """The 'when ...' column of a chart line: its condition in words, or nothing when it has none."""
    if condition is None:
        return Label("")
    return describe(condition, t, resolved, unit=unit)


def with_condition(value: Label, condition: ir.Expr, t: Labeler, resolved: ir.Resolved | None = None) -> Label:
    """'1 right, when ...': a value and the condition it applies under."""
    say = _Say(t, resolved)
    return _finish(say.fill("words.shift-when", x=value, y=say.np(condition)), t.lang)


def phase_turns(turns: ir.PhaseTurns, sets: Mapping[str, ir.TurnSet], t: Labeler, *, value: bool = False) -> Label:
    """The game turns a phase happens on, in players' words: 'not on night turns (3, 6, 9, 12)', 'from turn 2
    on', 'only on turns 1, 5–8'.  A set's name is its label `turns.<name>`, else its words.  `value`: the turns
    a parameter's value holds on, without 'only': 'on night turns (3, 6, 9, 12)', 'on turn 1'."""
    written = sets[turns.set.value].turns if turns.set is not None and turns.set.value in sets else turns.turns
    spans = tuple(span for span in (parse_turns(text.value) for text in written) if span is not None)
    parts = [filled(t("sequence.later"), turn=str(first)) if last is None else
             Label(str(first) if first == last else f"{first}\u2013{last}") for first, last in spans]
    listed = Label(", ".join(p.text for p in parts), any(p.fallback for p in parts))
    side = "not" if turns.negated else "only" if not value else "on"
    if turns.set is not None:
        name = t(f"turns.{turns.set.value}", turns.set.value.replace("-", " ").replace("_", " "))
        said = filled(t(f"sequence.{side}-on-set" if side != "on" else "sequence.on-set"), name=name, turns=listed)
    elif not turns.negated and len(spans) == 1 and spans[0][1] is None:
        said = filled(t("sequence.from-turn"), turn=str(spans[0][0]))
    else:
        one = len(spans) == 1 and spans[0][0] == spans[0][1]
        key = f"sequence.{side}-on-{'turn' if one else 'turns'}" if side != "on" else \
            f"sequence.on-{'turn' if one else 'turns'}"
        said = filled(t(key), turns=listed)
    return _finish(said, t.lang)


def turn_set(named: ir.TurnSet, t: Labeler) -> Label:
    """A turn set of the sequence of play as the card lists it: 'Night turns: 3, 6, 9, 12'."""
    spans = tuple(span for span in (parse_turns(text.value) for text in named.turns) if span is not None)
    parts = [filled(t("sequence.later"), turn=str(first)) if last is None else
             Label(str(first) if first == last else f"{first}\u2013{last}") for first, last in spans]
    listed = Label(", ".join(p.text for p in parts), any(p.fallback for p in parts))
    name = t(f"turns.{named.name.value}", named.name.value.replace("-", " ").replace("_", " "))
    said = filled(t("sequence.turn-set", "{name} turns: {turns}"), name=name, turns=listed)
    return Label(said.text[:1].upper() + said.text[1:], said.fallback)


# ---- a rule's effects: `forbid exert-zoc when unit is artillery or unit is cadre` ----------------------
def _units(expr: ir.Expr, t: Labeler) -> Label | None:
    """The units one condition picks out, as a plural noun phrase ('Companies', 'DG units', 'Units that start
    the phase in an enemy ZOC'); None when the condition is not one the card can say so."""
    if isinstance(expr, ir.Binary) and expr.op is ir.BinaryOp.AND:   # units that are isolated and mechanized
        qualifiers = [_qualifier(part, t) for part in chain(expr, ir.BinaryOp.AND)]
        if any(q is None for q in qualifiers):
            return None
        said = [q for q in qualifiers if q is not None]
        if all(" " not in q.text for q in said):     # isolated mechanized units
            joined = said[0]
            for later in said[1:]:
                joined = filled(t("words.adjectives", "{a} {b}"), a=joined, b=later)
            named = filled(t("units.described", "{qualifiers} units"), qualifiers=joined)
            return Label(named.text[:1].upper() + named.text[1:], named.fallback)
        listed = _listed(said, t, "words.list-and", "{a} and {b}")
        return filled(t("units.qualified", "Units that are {qualifiers}"), qualifiers=listed)
    negated = isinstance(expr, ir.Unary) and expr.op is ir.UnaryOp.NOT
    inner = expr.operand if isinstance(expr, ir.Unary) and negated else expr
    if isinstance(inner, ir.Is) and isinstance(inner.operand, ir.Name) and \
            inner.operand.path in ("unit", "unit.type", "unit.size"):
        word = inner.word.value
        if negated:
            return t(f"units.not.{word}", f"Units that are not {words(word)}")
        return t(f"units.{word}", f"{words(word)[:1].upper()}{words(word)[1:]} units")
    if isinstance(inner, ir.Is) and isinstance(inner.operand, ir.Name) and inner.operand.path == "mode" \
            and not negated:        # units on a road move
        return t(f"units.mode.{inner.word.value}", f"Units on a {words(inner.word.value)} move")
    if isinstance(inner, ir.Name) and inner.path.startswith("unit."):
        key = f"units.{'not.' if negated else ''}{inner.path}"
        english = words(inner.path.removeprefix("unit."))
        return t(key, f"Units that are {'not ' if negated else ''}{english}")
    return None


def _qualifier(expr: ir.Expr, t: Labeler) -> Label | None:
    """What one condition says of the units it picks out, where a label says it as a qualifier ('DG',
    'unready', 'not exploit capable'): the units' states, capabilities and facts; None for what only a noun
    says (artillery, companies) or a condition with no such label."""
    negated = isinstance(expr, ir.Unary) and expr.op is ir.UnaryOp.NOT
    inner = expr.operand if isinstance(expr, ir.Unary) and negated else expr
    if isinstance(inner, ir.Is) and isinstance(inner.operand, ir.Name) and inner.operand.path == "unit":
        key = f"qualifier.{'not.' if negated else ''}{inner.word.value}"
    elif isinstance(inner, ir.Name) and inner.path.startswith("unit."):
        key = f"qualifier.{'not.' if negated else ''}{inner.path}"
    else:
        return None
    return t(key) if t.has(key) else None


def _listed(labels: list[Label], t: Labeler, last: str, english: str) -> Label:
    """Labels as one list: 'a, b and c' (`last` the label that joins the last two)."""
    said = labels[0]
    for later in labels[1:-1]:
        said = filled(t("words.list-comma", "{a}, {b}"), a=said, b=later)
    if len(labels) > 1:
        said = filled(t(last, english), a=said, b=labels[-1])
    return said


def effect_where(effect: ir.Effect, t: Labeler) -> Label | None:
    """A `cost enter` or a `stop` effect's condition as where it applies, in players' words ('Entering a rubble
    hex', a cost's amount printed beside it; 'An advance after combat ends on entering a rubble hex.'); None
    when a part of the condition is not a hex's terrain or marker."""
    hexes: list[Label] = []
    for part in chain(effect.condition, ir.BinaryOp.OR):
        if not (isinstance(part, ir.Is) and isinstance(part.operand, ir.Name) and part.operand.path == "hex"):
            return None
        word = part.word.value
        hexes.append(t(f"hexes.{word}", f"a {words(word)} hex"))
    listed = _listed(hexes, t, "words.list-or", "{a} or {b}")
    key = f"effect.{effect.kind}.{effect.question.value}" + (".hexes" if effect.kind is ir.EffectKind.FORBID else "")
    return filled(t(key, "Entering {hexes}"), hexes=listed)


def effect_sentence(effect: ir.Effect, t: Labeler) -> Label | None:
    """A rule's effect as an order in players' words ('Companies, cadres and artillery exert no ZOC.'): the
    units its condition picks out, each `or` a group of its own, in the sentence of its effect and question;
    None when a part of the condition is not one the card can say (the author gives the words)."""
    parts = chain(effect.condition, ir.BinaryOp.OR)
    qualifiers = [_qualifier(part, t) for part in parts]
    if len(parts) > 1 and all(q is not None for q in qualifiers):
        # units that are DG, unready or not exploit capable: one noun, its qualifiers in a list joined by `or`
        listed = _listed([q for q in qualifiers if q is not None], t, "words.list-or", "{a} or {b}")
        subject = filled(t("units.qualified", "Units that are {qualifiers}"), qualifiers=listed)
    else:
        groups = [_units(part, t) for part in parts]
        if not groups or any(g is None for g in groups):
            return None
        named = [g for g in groups if g is not None]
        subject = _listed([named[0]] + [_lower(g, t.lang) for g in named[1:]], t, "words.list-and", "{a} and {b}")
    key = f"effect.{effect.kind}.{effect.question.value}"
    if effect.kind is ir.EffectKind.FORBID and effect.question.value == "enter" and not any(
            isinstance(n, ir.Name) and n.path.split(".")[0] in _PLACE_FACTS for n in walk(effect.condition)):
        key += ".any"       # no hex named: the units may not enter any hex, they may not move
    template = t(key, "{units}: " + f"{effect.kind} {effect.question.value}")
    return filled(template, units=subject)


_PLACE_FACTS = frozenset({"hex", "from", "hexside", "road"})    # what a condition on entering reads of the hex


def _lower(label: Label, lang: str) -> Label:
    """A noun phrase inside a list: its first letter lowered (not an acronym: DG, EZOC)."""
    text = label.text
    if len(text) > 1 and text[1].isupper():
        return label
    return Label(text[:1].lower() + text[1:], label.fallback)
