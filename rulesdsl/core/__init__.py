"""What the compiler's model and the rules engine share, below both: units and their plurals, result
notation, and the core vocabulary compiled from `vocabulary.rules`.  Standard library only: generated
modules import it through `rulesdsl.runtime`, and it must not drag the compiler in."""
