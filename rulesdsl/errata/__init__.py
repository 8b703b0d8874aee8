"""Output: semantic differences between two versions of a rulebook, and the errata sheets that print them."""
