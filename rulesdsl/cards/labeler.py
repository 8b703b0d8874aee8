"""The words a card prints: labels looked up by key through the rulebook chain and the project, in the
card's language with English as the fallback, and how numbers and fractions print.

Charts and wording both print through this module; it imports neither.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

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

    def _find(self, lang: str, key: str) -> str | None:
        for layer in self.layers:
            if key in layer.get(lang, {}):
                return layer[lang][key]
        return None

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
        mine = self.layers[:1]
        text = next((layer[self.lang][key] for layer in mine if key in layer.get(self.lang, {})), None)
        if text is not None:
            return Label(text)
        if self.lang != "en":
            self.missing[key] = None
            return Label(english, True)
        return Label(english)

    def name(self, kind: str, name: str) -> Label:
        """A rulebook name (terrain, phase, activity...): English is the name itself, written out."""
        return self(f"{kind}.{name}", name.replace("-", " ").replace("_", " ").capitalize())


def label_layers(resolved: ir.Resolved, project: dict[str, dict[str, str]]) -> list[dict[str, dict[str, str]]]:
    layers = []
    for book in (resolved.rulebook, *resolved.ancestors):
        layer: dict[str, dict[str, str]] = {}
        for block in book.labels:
            layer.setdefault(block.lang.value, {}).update({k.value: v.value for k, v in block.labels})
        layers.append(layer)
    layers.append(project)
    return layers


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
