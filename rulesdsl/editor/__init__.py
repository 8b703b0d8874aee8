"""Where designers write: highlighting for editors and documentation (a Pygments lexer)."""
