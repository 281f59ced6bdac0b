"""Every layout constant and code of the kernels, once (DESIGN.md §2, §3).

Plain ints (numba reads module-level ints as compile-time constants). Everything else
imports them from here: :mod:`catchten_sim.rules`, :mod:`catchten_sim.aggregate`, the
kernels, and the Python wrappers.

Groups
------
``P_*``        indices into ``Tables.params`` (int64 (P_NPARAMS,)), built by
               :meth:`catchten_sim.rules.Rules.tables`.
``NO_TRUMPS``  trump code 4: a no-trump hand (jaques ``dealer_declares``, docs/rules.md §4).
``POL_*``      policy ids (:class:`catchten_sim.policies.Policy` has the same values).
``TIE_*``      ``tie`` switch codes (docs/rules.md §3, §7.10, §7.11).
``REVOKE_*``   ``revoke`` switch codes (docs/rules.md §3, §7.4).
``STEP_*``     count-out steps, rows of a step matrix (docs/rules.md §7.10), in
               ``COUNT_OUT_STEPS`` order; ``N_STEPS`` of them.
``C_*``/``F_*`` columns of a per-deal outcome row: ``N_FIXED`` fixed columns, then per
               position ``p`` (0 = eldest … n-1 = dealer) ``N_PER_POS`` fields at
               ``N_FIXED + p * N_PER_POS + F_*``.
``FATE_*``     the fate of the Ten of trumps (column ``C_TEN_FATE``).
``A_*``        blocks of the flat int64 accumulator (offsets from
               :func:`catchten_sim.aggregate.acc_layout`); ``N_FIELDS`` summed fields
               (``F_HONOURS`` … ``F_SEAT_TRICKS``), histograms of ``HIST`` points and
               ``HIST_TRUMPS`` trump counts.
``R_*``        rollout output columns (:mod:`catchten_sim._kernels.rollout`).
``V_*``        scalar slots of a kernel play state (:mod:`catchten_sim._kernels.trick`).
``PlayRules``, ``DealRules``  the switches of play and of dealing (``Tables.play_rules``,
               ``Tables.deal_rules``).
"""
from __future__ import annotations

from collections import namedtuple

# ----------------------------------------------------------------- switches
#: The switches of play, as the kernels' rule functions read them (fields named after the
#: switches, bools; docs/rules.md §3, §7.3, §7.6): ``Tables.play_rules``. A new play switch
#: is a field here, its rule in :mod:`.trick` and in
#: :class:`catchten_sim.state.PlayState`.
PlayRules = namedtuple("PlayRules", ["no_trump_first_lead", "exposed_trump", "must_trump"])
#: The switches of dealing (bools, as they apply to these rules; docs/rules.md §3 §7.7, §4):
#: ``Tables.deal_rules``, read by :mod:`.deal`.
DealRules = namedtuple("DealRules", ["keep_six_of_spades", "dealer_declares"])

#: a game's end as the games kernels read it: the target (int64), the tie rule (int64,
#: ``games.TIE_*``) and whether the game is won at once (bool)
GameEnd = namedtuple("GameEnd", ["target", "tie", "at_once"])

#: the distinct deal outcomes of the equity DP and their grouping by deal totals
#: (``equity._groups``; the arrays are described in ``games.equity_two_sides``)
Outcomes = namedtuple("Outcomes", ["steps", "tside", "g_ptr", "g_tau", "g_p", "l_ptr",
                                   "l_idx", "l_p"])

# ----------------------------------------------------------------- rule parameters
P_N = 0           # players
P_NSIDES = 1      # sides (docs/rules.md §2, §7.8)
P_NSETS = 2       # six-card sets per deal (1 when the hand is dealt whole; §2)
P_SETSIZE = 3     # cards per player per set
P_SHARE = 4       # share of a side per scoring unit (§2, §7.1)
P_PERSET = 5      # set_scoring per_set with sets (§3, §7.9)
P_TARGET = 6      # target (§3)
P_TIE = 7         # tie, a TIE_* code (§3)
P_NPARAMS = 8
# (only what a kernel reads: the switches of play and of dealing are fields of
# ``Tables.play_rules`` / ``Tables.deal_rules`` named after them,
# ``game_at_once`` is an argument of the games kernel, ``revoke`` is never played)

NO_TRUMPS = 4

# ----------------------------------------------------------------- codes
POL_RANDOM = 0
POL_HEURISTIC = 1
POL_SCRIPTED = 2

TIE_COUNT_OUT = 0
TIE_HIGHER_TOTAL = 1
TIE_REPLAY = 2
TIE_CODES = {"count_out": TIE_COUNT_OUT, "higher_total": TIE_HIGHER_TOTAL,
             "replay": TIE_REPLAY}

REVOKE_GAME = 0
REVOKE_HAND = 1
REVOKE_FORFEIT = 2
REVOKE_CODES = {"game": REVOKE_GAME, "hand": REVOKE_HAND, "forfeit": REVOKE_FORFEIT}

#: count-out order of docs/rules.md §7.10, as step names; kernels use the index
COUNT_OUT_STEPS = ("ten", "ten_of_diamonds", "cards", "ace", "king", "queen", "jack", "nine")
STEP_TEN = 0
STEP_TEN_OF_DIAMONDS = 1
STEP_CARDS = 2
STEP_ACE = 3
STEP_KING = 4
STEP_QUEEN = 5
STEP_JACK = 6
STEP_NINE = 7
N_STEPS = 8

# ----------------------------------------------------------------- outcome rows
C_DEALER = 0
C_TRUMP = 1
C_TEN_HOLDER = 2      # position (1 = eldest … n = dealer) dealt the Ten of trumps, 0 none
C_TEN_TAKER = 3       # position that took the Ten in a trick, 0 none
C_TEN_FATE = 4        # a FATE_* code
C_HOLDER_TRUMPS = 5   # trumps dealt to the Ten's holder (0 when nobody holds it)
N_FIXED = 6
F_HONOURS = 0         # honour points taken by the side of that seat
F_CARDS = 1           # cards taken by the side
F_CARD_POINTS = 2     # card points of the side (summed over scoring units)
F_TOTAL = 3           # honours + card points
F_SIDE_TRICKS = 4
F_SEAT_TRICKS = 5
F_HONOURS_DEALT = 6   # honour points among the cards dealt to the side (turn-up included)
F_SEAT_TRUMPS = 7     # trumps dealt to that seat
N_PER_POS = 8

FATE_SAVED = 0
FATE_CAUGHT = 1
FATE_DEAD = 2
FATE_NO_TRUMPS = 3

# ----------------------------------------------------------------- accumulator
A_FATE = 0
A_SUMS = 1
A_SUMSQ = 2
A_ADV = 3
A_ADVSQ = 4
A_SIDE = 5
A_SIDESQ = 6
A_HTOT = 7
A_HHON = 8
A_HCP = 9
A_FBH = 10
A_HOLDN = 11
A_HOLDS = 12
A_HOLDSS = 13
A_NDEALS = 14
A_NOFF = 15
N_FIELDS = 6            # F_HONOURS … F_SEAT_TRICKS are summed (aggregate.FIELDS)
HIST = 128              # aggregate.MAX_POINTS
HIST_TRUMPS = 14        # aggregate.MAX_TRUMPS

# ----------------------------------------------------------------- rollout output
R_TEN_TAKER_SIDE = 0    # side that took the Ten of trumps by the end (-1: nobody)
R_TEN_HOLDER_SIDE = 1   # side of the seat dealt the Ten (-1: dead, or no trumps)
N_R_FIXED = 2
# per side s, at N_R_FIXED + s * R_PER_SIDE + field
R_HONOURS = 0
R_CARDS = 1
R_CARD_POINTS = 2
R_TOTAL = 3
R_PER_SIDE = 4
# then per side s, at N_R_FIXED + n_sides * R_PER_SIDE + s * N_STEPS + k: the side's points
# at count-out step k over the whole hand (with per-set scoring: the current set's unit)

# ----------------------------------------------------------------- kernel play state
V_TRICK = 0       # trick number over the deal (0-based)
V_K = 1           # cards played to the current trick
V_LEADER = 2      # seat that led (leads) the current trick
V_TM = 3          # mask of the current trick's cards
V_LED = 4         # suit led to the current trick (0 when V_K == 0)
V_PLAYED = 5      # mask of the cards of the finished tricks
V_TEN_TAKER = 6   # seat that took the Ten of trumps (-1 none yet)
V_TRUMP = 7       # trump code (NO_TRUMPS: none)
V_LOCK = 8        # the exposed turn-up's bit while it is locked (0: no lock)
V_DEALER = 9
N_V = 10

#: bytes kept between arrays written by different threads (cache lines, with the
#: adjacent-line prefetcher)
LINE = 128
