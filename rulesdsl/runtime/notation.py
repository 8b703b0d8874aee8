"""Result notation and odds, as the rules engine and generated modules name them: they live in
`rulesdsl.core.notation`, below both the engine and the compiler's model, which reads them too."""
from rulesdsl.core.notation import (DECLARED, NO_EFFECT, NOTATIONS, OPEN_DIFFERENCE, Result, difference_text,
                                    odds_ratio, parse_difference, parse_odds, parse_result, parse_turns,
                                    read_result, turns_text)

__all__ = ["DECLARED", "NO_EFFECT", "NOTATIONS", "OPEN_DIFFERENCE", "Result", "difference_text", "odds_ratio",
           "parse_difference", "parse_odds", "parse_result", "parse_turns", "read_result", "turns_text"]
