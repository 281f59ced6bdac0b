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
    ``pimc[:N]``
    Perfect Information Monte Carlo (:mod:`catchten_sim.pimc`): at each decision, ``N``
    deals consistent with what the seat knows (default 50), each solved double-dummy;
    the card of the best mean value. Driven at the decision level (not a kernel id).
    jaques ``dealer_declares``: no trumps when the longest suit has at most three cards
    and the dealer holds two Aces or more; else the longest suit (ties: more honour points).
"""
from __future__ import annotations

from enum import IntEnum

from .errors import CatchTenError


class Policy(IntEnum):
    """Policy ids; values are the kernel codes (``_kernels.engine.POL_*``)."""

    RANDOM = 0
    HEURISTIC = 1

    @classmethod
    def parse(cls, name: object, field: str = "policy") -> Policy:
        """``Policy`` from a name (``random``, ``heuristic``), an id or a Policy; ``pimc``
        or ``pimc:N`` give a :class:`catchten_sim.pimc.PimcPolicy` instead.

        Raises
        ------
        CatchTenError
            ``unknown policy`` naming the field and the choices.
        """
        if isinstance(name, Policy):
            return name
        from .pimc import PimcPolicy
        if isinstance(name, PimcPolicy):
            return name                        # type: ignore[return-value]
        if isinstance(name, str) and name.strip().lower().startswith("pimc"):
            return PimcPolicy.parse(name, field)   # type: ignore[return-value]
        if isinstance(name, str) and name.strip().upper() in cls.__members__:
            return cls[name.strip().upper()]
        raise CatchTenError(field, "unknown policy",
                            f"{name!r}; known: "
                            f"{', '.join(p.name.lower() for p in cls)}, pimc[:N]")

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
