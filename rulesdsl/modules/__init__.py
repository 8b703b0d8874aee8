"""Output: the importable Python rule module of a resolved rulebook, generated and checked before it is written."""
