"""The rulebook model (IR): plain immutable data, its one walk, the core vocabulary, the expression context and the declared result codes."""
