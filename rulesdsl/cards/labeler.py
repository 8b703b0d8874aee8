"""The words a card prints: labels looked up by key through the rulebook chain and the project, in the
card's language with English as the fallback, and how numbers and fractions print.

Charts and wording both print through this module; it imports neither.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction

from rulesdsl.errors import Span
from rulesdsl.model import ir

LANGS = ("en", "fr")


@dataclass(frozen=True)
class Label:
    text: str
    fallback: bool = False     # shown in English because the chosen language lacks it

    def __str__(self) -> str:
        return self.text


@dataclass
class Labeler:
    """Looks up printed words: the rulebook chain's labels, then the project's; English as the fallback."""

    lang: str
    layers: list[dict[str, dict[str, str]]]        # nearest first: {lang: {key: text}}
    missing: dict[str, None] = field(default_factory=dict)
    derived: dict[str, None] = field(default_factory=dict)   # English written out from an id: no label
    # row -> (label key, composed words, where the rulebook states it; None: the rulebook's header)
    unplain: dict[str, tuple[str, str, Span | None]] = field(default_factory=dict)

    def _find(self, lang: str, key: str) -> str | None:
        for layer in self.layers:
            if key in layer.get(lang, {}):
                return layer[lang][key]
        return None

    def says(self, key: str) -> bool:
        """Whether the card's own language has a label `key` (no English stands in for it)."""
        return self._find(self.lang, key) is not None

    def has(self, key: str) -> bool:
        """Whether some language has a label `key`."""
        return any(key in texts for layer in self.layers for texts in layer.values())

    def __call__(self, key: str, english: str | None = None) -> Label:
        text = self._find(self.lang, key)
        if text is not None:
            return Label(text)
        fallback = self._find("en", key) or english
        if fallback is None:
            self.missing[key] = None
            return Label(key, True)
        if self.lang != "en":
            self.missing[key] = None
            return Label(fallback, True)
        return Label(fallback)

    def own(self, key: str, english: str) -> Label:
        """A label of the rulebook itself (its title): never one the series it extends gives."""
        return self._scoped(self.layers[:1], key, english)

    def of_book(self, book: int, key: str, english: str) -> Label:
        """A label of one rulebook of the chain (layer `book`: 0 the rulebook itself, 1 the one it extends ...)
        or of the project: a chart's title, which the label another rulebook gives its own chart of that kind
        must not rename (a series' example TEC title on a game's own TEC)."""
        return self._scoped([self.layers[book], self.layers[-1]], key, english)

    def _scoped(self, layers: list[dict[str, dict[str, str]]], key: str, english: str) -> Label:
        text = next((layer[self.lang][key] for layer in layers if key in layer.get(self.lang, {})), None)
        if text is not None:
            return Label(text)
        if self.lang != "en":
            self.missing[key] = None
            return Label(english, True)
        return Label(english)

    def name(self, kind: str, name: str) -> Label:
        """A rulebook name (terrain, phase, activity...): English is the name itself, written out, its
        acronyms as printed (dg-removal: DG removal)."""
        words = name.replace("-", " ").replace("_", " ").capitalize().split(" ")
        return self(f"{kind}.{name}", " ".join(ACRONYMS.get(w.lower(), w) for w in words))


# Acronyms a rulebook's names spell in lower case (dg-removal) that charts print in capitals.
ACRONYMS = {word.lower(): word for word in ("DG", "ZOC", "EZOC", "MP", "MPs", "DRM", "CRT", "TEC", "HQ", "SP", "SPs")}

# Composed words that do not read as a rule a player follows: a comparison with 0, "the smaller of", "when
# not", in every language the compiler ships.  A chart row whose composed words match needs player text.
UNPLAIN = re.compile(r"\b(?:greater|less|more|fewer) than 0\b|\bat least 0\b|\bis 0\b|\bsmaller of\b|"
                     r"\blarger of\b|\bwhen not\b|\bvaut 0\b|n'atteint pas 0|\bdépasse 0\b|\bplus petit de\b|"
                     r"\bplus grand de\b", re.I)


def filled(template: Label, **values: str | Label) -> Label:
    """A label with its {placeholders} filled in: text as given, or labels (the result is marked as English
    when the template or a label put in it is)."""
    text = template.text
    for name, value in values.items():
        text = text.replace("{" + name + "}", str(value))
    return Label(text, template.fallback or any(isinstance(v, Label) and v.fallback for v in values.values()))


def player_text(t: Labeler, key: str, composed: Label, row: str) -> Label:
    """A chart row's words: the rulebook's own player text (the label `key`, in any of its languages) where it
    gives one, else the words the compiler composed; composed words that do not read as a rule are noted
    (`t.unplain`), and the card warns, asking for player text."""
    if t.has(key):
        return t(key)
    if UNPLAIN.search(composed.text):
        t.unplain[row] = (key, composed.text, None)
    return composed


def book_labels(book: ir.Rulebook) -> dict[str, dict[str, str]]:
    """A rulebook's own `labels` blocks: lang -> key -> text."""
    layer: dict[str, dict[str, str]] = {}
    for block in book.labels:
        layer.setdefault(block.lang.value, {}).update({k.value: v.value for k, v in block.labels})
    return layer


def label_layers(resolved: ir.Resolved, project: dict[str, dict[str, str]]) -> list[dict[str, dict[str, str]]]:
    """The labels a card looks words up in, nearest first: the rulebook's, its series', the project's."""
    return [*(book_labels(book) for book in (resolved.rulebook, *resolved.ancestors)), project]


def languages(resolved: ir.Resolved) -> tuple[str, ...]:
    """English, and every language the rulebook or the series it extends has labels for."""
    found = {"en"}
    for book in (resolved.rulebook, *resolved.ancestors):
        found |= {block.lang.value for block in book.labels}
    return tuple(lang for lang in LANGS if lang in found)


# ---- how cells print -------------------------------------------------------------
_GLYPHS = {Fraction(1, 2): "½", Fraction(1, 4): "¼", Fraction(3, 4): "¾", Fraction(1, 3): "⅓",
           Fraction(2, 3): "⅔", Fraction(3, 2): "1½"}


def fraction(value: Fraction) -> str:
    if value in _GLYPHS:
        return _GLYPHS[value]
    if value.denominator == 1:
        return str(value.numerator)
    whole, rest = divmod(value.numerator, value.denominator)
    return (f"{whole}" if whole else "") + _GLYPHS.get(Fraction(rest, value.denominator), f"{rest}/{value.denominator}")


# ---- typography -------------------------------------------------------------------------
_MARKUP = re.compile(r"(<style\b.*?</style>|<title\b.*?</title>|<[^>]+>|&#?\w+;)", re.S)    # tags, entities
_FRENCH = (
    (re.compile(r"(?<=[^\s\d])[ \u00a0\u202f]?:(?=[\s<]|$)"), "\u00a0:"),      # mot : (not the 3:1 of odds)
    (re.compile(r"(?<=\S)[ \u00a0\u202f]?([;!?])(?=[\s<)]|$)"), "\u202f\\1"),   # mot ; mot ! mot ?
    (re.compile(r"(?<=\d)[ \u00a0\u202f]?%"), "\u202f%"),                        # 16,7 %
)
_MINUS = re.compile(r"(?<![\w\d])-(?=\d)(?![\d]*[-–])")                        # -1, not the 1-2 of a range


def typeset(html: str, lang: str) -> str:
    """A card's printed text set as its language prints it: a true minus sign for a negative number, and in
    French a no-break space before : (a narrow one before ; ! ? and %), whatever the labels wrote.  Only
    text is touched: never markup, an entity (&lt; ends in a semicolon), the stylesheet or the title."""
    parts = _MARKUP.split(html)
    before = ""         # the last character of the text so far: a colon may follow a tag that ends a word
    for i in range(0, len(parts), 2):
        text = _MINUS.sub("\u2212", parts[i])
        if lang == "fr":
            starts = re.match(r"[ \u00a0\u202f]?([:;!?])(?=[\s<]|$)", text)
            if starts and before and not before.isspace() and not (starts.group(1) == ":" and before.isdigit()):
                text = ("\u00a0" if starts.group(1) == ":" else "\u202f") + starts.group(1) + text[starts.end():]
            for pattern, replacement in _FRENCH:
                text = pattern.sub(replacement, text)
        parts[i] = text
        before = text[-1:] or before
    return "".join(parts)
