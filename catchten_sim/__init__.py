"""catchten_sim: Monte Carlo strategy analyser and odds calculator for Catch the Ten."""
from .cards import Card, Hand, Rank, Suit, format_card, parse_card, parse_cards
from .errors import (CatchTenError, DealNotGeneratedError, IllegalPlayError, ParseError,
                     PositionError, RevokeError, RulesError)
from .rules import Rules

__version__ = "0.1.0"

__all__ = ["Card", "Hand", "Rank", "Suit", "format_card", "parse_card", "parse_cards",
           "CatchTenError", "DealNotGeneratedError", "IllegalPlayError", "ParseError",
           "PositionError", "RevokeError", "RulesError", "Rules", "__version__"]
