"""The compiler's version: a leaf every stage may read (cards and caches print or hash it)."""

__version__ = "0.1.0"
