"""catchten_sim: Monte Carlo strategy analyser and odds calculator for Catch the Ten.

The public functions are names of the package: ``from catchten_sim import simulate,
advise, odds, match, solve, deal, play, equity_table`` gives the functions (loaded on first
use: ``import catchten_sim`` stays light, the engine is imported when a function is
first asked for). Six of them share their name with the module that holds them
(``advise``, ``odds``, ``match``, ``simulate``, ``solve``, ``play``): the package attribute is the
function, and the module stays importable by its dotted name, ``from catchten_sim.advise
import Advice`` or ``importlib.import_module("catchten_sim.advise")`` (but ``import
catchten_sim.advise as m`` binds ``m`` to the function, as Python's ``import a.b as m``
reads the attribute ``b`` of ``a``).
"""
from __future__ import annotations

import gc
import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

# importing numba makes some hundred thousand objects and no garbage: the cyclic
# collector walking them during the import is time lost (start-up, issue 10); it is
# switched back on (if it was on) when the import is done
_GC_WAS_ON = gc.isenabled()
gc.disable()
try:
    from .cards import Card, Hand, Rank, Suit, format_card, parse_card, parse_cards
    from .errors import (ArgumentError, CatchTenError, DealNotGeneratedError,
                         IllegalPlayError, ParseError, PositionError, RevokeError, RulesError)
    from .rules import Rules
finally:
    if _GC_WAS_ON:
        gc.enable()

if TYPE_CHECKING:                         # pragma: no cover - for type checkers only
    from .advise import advise as advise
    from .odds import odds as odds
    from .equity import equity_table as equity_table
    from .match import match as match
    from .play import deal as deal
    from .play import play as play
    from .simulate import simulate as simulate
    from .solve import solve as solve
    from .state import PlayState as PlayState

__version__ = "0.1.0"

#: the public functions (and the play core's ``PlayState``), each with the module that
#: holds it
FUNCTIONS = {"simulate": "simulate", "advise": "advise", "odds": "odds",
             "match": "match", "solve": "solve", "deal": "play", "play": "play",
             "equity_table": "equity", "PlayState": "state"}

__all__ = ["Card", "Hand", "Rank", "Suit", "format_card", "parse_card", "parse_cards",
           "ArgumentError", "CatchTenError", "DealNotGeneratedError", "IllegalPlayError",
           "ParseError", "PositionError", "RevokeError", "RulesError", "Rules", "__version__",
           "simulate", "advise", "odds", "match", "solve", "deal", "play", "equity_table",
           "PlayState"]


class _Package(types.ModuleType):
    """The package module: its public function names resolve to the functions."""

    def __getattr__(self, name: str) -> Any:
        mod = FUNCTIONS.get(name)
        if mod is None:
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        fn = getattr(importlib.import_module(f"{self.__name__}.{mod}"), name)
        self.__dict__[name] = fn
        return fn

    def __setattr__(self, name: str, value: Any) -> None:
        # the import system binds a submodule to its package's attribute once it is
        # loaded; a public function of the same name keeps the name (the module stays in
        # sys.modules under its dotted name)
        if isinstance(value, types.ModuleType) and FUNCTIONS.get(name) == name:
            self.__dict__[name] = getattr(value, name)
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
