"""Rollout policies: who plays which card. The kernels implement them, dispatched by id.

``random``
    A uniformly random legal card.
``heuristic``
    A rule-based player in the manner of a sensible club player, built from the advice in
    the seeds (000 "Tips for beginners", 003 strategy notes) and the old books. Rules in
    priority order (it sees only its own hand, the cards played and the trick so far):

    Leading
      1. With two of the three highest trumps other than the Ten (J+A, J+K or A+K in
         foster) while the Ten is still out and not in its own hand, and its side has led
         trumps fewer than twice this deal: lead the highest trump, to draw the Ten.
      2. Lead a master card of a plain suit (no unseen card of the suit beats it) that
         scores no honour: a sure trick for card points unless it is trumped.
      3. Lead the lowest card of the longest plain suit; honours and trumps last.
    Following
      4. Holding the Ten of trumps: play it on a trick the partner already wins with a
         higher trump that no unseen trump can beat, or when it wins the trick and no
         opponent plays after (keep the Ten out of danger).
      5. Partner winning: throw the lowest non-counting card.
      6. No opponent to play after: win with the cheapest winning card.
      7. Second hand low, when the trick holds no honour.
      8. Win with the cheapest winning card that no unseen card can beat (never the Ten).
      9. Third hand high: the highest winning card that scores no honour.
     10. Otherwise throw the lowest non-counting card: never an honour to the opponents
         when a cheaper legal card exists.
    jaques ``dealer_declares``: no trumps when the longest suit has at most three cards
    and the dealer holds two Aces or more; else the longest suit (ties: more honour points).
``pimc[:N]``
    Perfect Information Monte Carlo (:mod:`catchten_sim.pimc`): at each decision, ``N``
    deals consistent with what the seat knows (default 50), each solved double-dummy;
    the card of the best mean value. Driven at the decision level (not a kernel id).
``ipimc[:N]``
    PIMC on inference-weighted worlds (:mod:`catchten_sim.inference`): at each decision
    max(200, 20 N) deals drawn as pimc draws them, each weighted by how likely the other
    seats' cards so far are in it under a model of their play (the heuristic mixed with a
    uniform choice), then ``N`` of them kept by resampling and solved double-dummy.

Every kind is data here: :class:`Policy` (the kernel ids) and :class:`PimcPolicy` (a
Python-driven player: the spec only, the player is :mod:`catchten_sim.pimc`). A
:class:`Seating` resolves the policies of the seats once: the kernel id of every seat
(``POL_SCRIPTED`` for a Python-driven one) and which seats are Python-driven, so no caller
asks "is this pimc?" (a new Python-driven kind is added to :data:`DRIVEN_KINDS`).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING, Any, Union

import numpy as np

from ._kernels.layout import POL_SCRIPTED
from .checks import is_whole
from .errors import CatchTenError, described, echoed, unknown_name

if TYPE_CHECKING:
    from .rules import Rules

#: determinizations per decision: measured (benchmarks/bench_pimc.py --only-n), 50 is the
#: most that keeps a 4-player deal with two pimc seats near a second of CPU; its regret
#: at opening leads was 0.40 points against a 200-deal run (100: 0.05, at twice the time)
DEFAULT_N = 50
MAX_N = 100_000
#: where the policies are listed, said instead of the list where it does not fit the line:
#: for a Python caller this module's docstring; each surface says its own place instead
#: (:func:`pointed`): the command line the help of the command in use
#: (cli_kit.pointed_to_help), the page's API the choices themselves
POLICIES_POINTER = "see: help(catchten_sim.policies)"


def pointed(exc: CatchTenError, here: str) -> CatchTenError:
    """``exc`` with :data:`POLICIES_POINTER` replaced by ``here`` (where the user of that
    surface finds the policies), in its detail and its short detail; the same error."""
    exc.detail = exc.detail.replace(POLICIES_POINTER, here)
    exc.short = exc.short.replace(POLICIES_POINTER, here)
    exc.args = (exc.line(),)
    return exc


class Policy(IntEnum):
    """Policy ids; values are the kernel codes (``_kernels.engine.POL_*``)."""

    RANDOM = 0
    HEURISTIC = 1

    @classmethod
    def parse(cls, name: object, field: str = "policy") -> Policy:
        """``Policy`` from a name (``random``, ``heuristic``), an id or a Policy; ``pimc``,
        ``pimc:N``, ``ipimc`` or ``ipimc:N`` give a :class:`PimcPolicy` instead.

        Raises
        ------
        CatchTenError
            ``unknown policy`` naming the field and the choices.
        """
        if isinstance(name, Policy):
            return name
        if isinstance(name, DRIVEN_KINDS):
            return name                        # type: ignore[return-value]
        if isinstance(name, str) and "," in name:
            raise CatchTenError(field, "one policy, not a list",
                                f"{echoed(name)}; {POLICIES_POINTER}")
        if isinstance(name, str) and name.strip().lower().startswith(("pimc", "ipimc")):
            return PimcPolicy.parse(name, field)   # type: ignore[return-value]
        if isinstance(name, str) and name.strip().upper() in cls.__members__:
            return cls[name.strip().upper()]
        known = [p.name.lower() for p in cls] + ["pimc[:N]", "ipimc[:N]"]
        raise unknown_name(field, "policy", name, known, POLICIES_POINTER)

    @classmethod
    def per_seat(cls, policies: object, players: int) -> tuple[Policy, ...]:
        """One Policy per seat from one policy (a name, an id or a Policy) for every seat
        or a sequence of ``players`` of them.

        Raises
        ------
        CatchTenError
            ``unknown policy``; ``wrong number of policies``.
        """
        if isinstance(policies, (str, Policy)) or not hasattr(policies, "__iter__"):
            return tuple(cls.parse(policies) for _ in range(players))
        pols = tuple(cls.parse(p) for p in policies)
        if len(pols) != players:
            raise CatchTenError("policies", "wrong number of policies",
                                f"{len(pols)} for {players} players")
        return pols

    @property
    def label(self) -> str:
        return self.name.lower()


POLICY_NAMES = tuple(p.label for p in Policy)


@dataclass(frozen=True)
class PimcPolicy:
    """The ``pimc:N`` policy (``N`` determinizations per decision).

    Not a kernel policy id: ``int(PimcPolicy(...))`` raises, so a kernel path that cannot
    play it fails loudly instead of playing another policy; :meth:`Seating.kernel_ids`
    refuses it with a clear message.
    """

    n: int = DEFAULT_N
    #: ``ipimc``: the worlds weighted by what the other seats' cards show
    #: (:func:`catchten_sim.inference.worlds_for_player`)
    infer: bool = False

    @property
    def label(self) -> str:
        return f"{'ipimc' if self.infer else 'pimc'}:{self.n}"

    @property
    def name(self) -> str:
        return "IPIMC" if self.infer else "PIMC"

    def __str__(self) -> str:
        return self.label

    @classmethod
    def parse(cls, text: str, field: str = "policy") -> PimcPolicy:
        """``pimc``, ``pimc:N``, ``ipimc`` or ``ipimc:N`` (1 <= N <= 100000)."""
        t = text.strip().lower()
        head, _, num = t.partition(":")
        if head not in ("pimc", "ipimc"):
            raise CatchTenError(field, "unknown policy", f"{echoed(text)}: pimc[:N] or ipimc[:N]")
        infer = head == "ipimc"
        if t == head:
            return cls(DEFAULT_N, infer)
        if not num.isdigit() or not 1 <= int(num) <= MAX_N:
            raise CatchTenError(field, "out of range" if num.isdigit() else "unknown policy",
                                f"{echoed(text)}: {head}:N needs N from 1 to {MAX_N}")
        return cls(int(num), infer)


#: the Python-driven policy kinds (not kernel ids: played decision by decision)
DRIVEN_KINDS: tuple[type, ...] = (PimcPolicy,)
#: any policy of a seat: a kernel id or a Python-driven kind
AnyPolicy = Union[Policy, PimcPolicy]   # noqa: UP007 (a runtime alias)


@dataclass(frozen=True)
class Seating:
    """The policies of the seats, resolved once.

    Attributes
    ----------
    policies : one policy per seat (kernel :class:`Policy` or a Python-driven kind)
    driven : the seats played in Python, decision by decision (ascending)
    """

    policies: tuple[Any, ...]
    driven: tuple[int, ...]

    @classmethod
    def of(cls, policies: Iterable[Any]) -> Seating:
        """The seating of ``policies`` (one per seat, already parsed)."""
        pols = tuple(policies)
        return cls(pols, tuple(s for s, p in enumerate(pols) if isinstance(p, DRIVEN_KINDS)))

    @property
    def any_driven(self) -> bool:
        """Whether some seat is Python-driven (no kernel alone can play the deals)."""
        return bool(self.driven)

    def is_driven(self, seat: int) -> bool:
        return seat in self.driven

    def kernel_ids(self, where: str, mine: Sequence[int] | None = None) -> np.ndarray:
        """int64 policy ids for a kernel that cannot play Python-driven seats (refused,
        naming the first such policy and ``where``; with ``mine``, the seats ``--policy``
        sets, a seat outside them is named by the field ``opponents``).

        Raises
        ------
        CatchTenError
            ``policy: not available`` (or ``opponents: ...``).
        """
        if self.driven:
            seat = min(self.driven, key=lambda q: (mine is not None and q not in mine, q))
            name = self.policies[seat].label.split(":")[0]
            # (it needs a double-dummy search per decision: too slow for these kernels)
            raise CatchTenError("policy" if mine is None or seat in mine else "opponents",
                                "not available", f"{where}: heuristic or random, not {name}")
        return np.array([int(p) for p in self.policies], dtype=np.int64)

    def scripted_ids(self) -> np.ndarray:
        """int64 policy ids with ``POL_SCRIPTED`` for the Python-driven seats (the play
        kernels that replay their choices)."""
        return np.array([POL_SCRIPTED if s in self.driven else int(p)
                         for s, p in enumerate(self.policies)], dtype=np.int64)

    def stand_in(self) -> tuple[Policy, ...]:
        """The policies with ``heuristic`` standing in for the Python-driven seats."""
        return tuple(Policy.HEURISTIC if s in self.driven else p
                     for s, p in enumerate(self.policies))


def seat_policies(rules: Rules, policy: object = "heuristic", opponents: object = None,
                  seats: dict[int, object] | None = None) -> tuple[Policy, ...]:
    """Policy of every seat: ``policy`` for side 0 (seat 0 and its partners),
    ``opponents`` (default: the same) for every other seat, then ``seats`` overrides.

    Raises
    ------
    CatchTenError
        ``unknown policy``, or a seat outside 0 … n-1.
    """
    mine = Policy.parse(policy, "policy")
    theirs = Policy.parse(opponents, "opponents") if opponents is not None else mine
    out = [mine if rules.side_of(s) == 0 else theirs for s in range(rules.players)]
    for seat, pol in (seats or {}).items():
        if not is_whole(seat):
            raise CatchTenError("seat-policy", "not a whole number",
                                f"got {described(seat)}; a seat 0 … {rules.players - 1}")
        if not 0 <= seat < rules.players:
            raise CatchTenError("seat-policy", "seat out of range",
                                f"seat {described(seat)} with {rules.players} players")
        out[seat] = Policy.parse(pol, "seat-policy")
    return tuple(out)
