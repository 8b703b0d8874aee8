"""Text to the rulebook model: reading files, the grammar and parser, the tree-to-IR transform, limits checked on the tree, and the canonical formatter."""
