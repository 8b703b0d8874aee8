"""Output: the player-aid cards (HTML, PDF) of a resolved rulebook, with their words, exact odds, labels and fonts."""
