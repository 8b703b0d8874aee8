"""The papers a card may be printed on, by name: (width, height) in portrait.  Apart from the catalogue so
that the command line can offer them without importing the model."""
from __future__ import annotations

# the office sizes, and the tabloid (11x17 in) and A3 sheets that SCS chart sets are printed on
PAPERS: dict[str, tuple[str, str]] = {"a4": ("210mm", "297mm"), "letter": ("8.5in", "11in"),
                                      "a3": ("297mm", "420mm"), "tabloid": ("11in", "17in")}
CARD_PAPERS: tuple[str, ...] = tuple(PAPERS)
