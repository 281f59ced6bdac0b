"""Double-dummy search: the exact value of every legal card, all hands visible.

The value of a position is the final hand score difference for the whole deal, seen from one
side (the *root side*, normally the side of the player to move): that side's total minus the
other sides' totals added together (RULES.md §2, §7.1, §7.2: honours and the 10♦ bonus to the
side taking them, card points ``max(0, cards taken - share)`` per scoring unit). Seats of the
root side maximise it, every other seat minimises it: exact minimax with two sides, the
*paranoid* reduction with three or more.

Search (as in bridge double-dummy solvers, on points instead of tricks)
-------------------------------------------------------------------------
- fail-soft alpha-beta driven by zero-window tests (MTD(f), Plaat et al. 1996) on points;
- the value below a node is the *future* score difference (points of the tricks still to
  come), so a window shifts by the points of each trick as it is quitted;
- a cut-off from the points still in play: the future value lies in ``[-B, B]``, ``B`` = the
  honours not yet taken + the card points the remaining cards can still make, narrowed at
  each trick start by what is sure: the run of top trumps held by one side (its honours and
  tricks), the *quick tricks* of the side on lead (the leader's top trumps, then plain-suit
  winners no opponent can ruff, or a cheap lead to a partner's top cards), and the trumps
  that must fall under the leader's top trumps (honours of seats with no more trumps than
  the run is long); with honours only (no card points), after the table's probe, the
  honours each team keeps whatever is played (a higher trump takes one honour a trick:
  per seat, the honours the other team can match each to its own higher trump, :func:`_keep`)
  and the best plan of the leader's team (:func:`_lead_sure`: its quick tricks, drawing
  trumps with its top trumps wherever they are, a lead to a partner's top card that no
  one can ruff and then the partner's draw, a partner's ruff with an honour trump that no
  higher trump can overruff);
- a transposition table (fixed size, 32-way buckets of 32-byte entries: upper and lower
  bounds, the best lead, a mask of places and a pattern hash) stored at trick boundaries
  and probed before the quick tricks (a table cut-off saves them), with *winning ranks*
  (as DDS, Haglund 2010): the bucket is chosen by a key without ranks (the leader, the set,
  the search id so entries of earlier solves never match, each seat's number of cards in
  each suit, honours and an exposed turn-up by name and, when card points make the score
  non-linear (three or more sides), each side's card count in the unit clamped to the
  share), and an entry holds for every position whose seats own the same cards at the
  entry's places: each seat's cards packed over the cards still out (``pext``: places by
  *relative rank*), the places from the top of each suit down to the lowest card whose rank
  the bound rested on (a card that beat a card of its own suit in a trick searched below,
  a run of sure winners and the card ending it, an entry's places on a hit) and to the
  lowest named card. Cards below never beat a card of their suit in that search, so any
  cards of the same seats in the same numbers play out alike; honours and card points do
  not depend on them (they are named, or count alike);
- equivalent cards searched once: two cards of one hand, one suit, no honour points, with no
  card of another hand (or of the current trick) between them in the order of the remaining
  cards, give the same value (card points count every card alike); honours never merge;
  found bit-parallel (cards packed with ``pext``, one shift, placed back with ``pdep``);
- move ordering: the table's best lead first, then the last lead that cut off at this ply
  (one tier up), plain-suit masters, cheap leads to a partner's master, trump masters, low
  cards, and last the suits an opponent can ruff; followers win with the cheapest card no
  opponent still to play can beat (honours onto it), throw honours onto a partner's sure
  winner, and otherwise play their cheapest card; the first guess of MTD(f) counts the
  honours each side holds and, with card points, 3 points per trump held;
- the last trick is scored without search; a player with one card to play (after merging)
  skips the ordering.

Never a refusal (issue 26): the zero-window tests of MTD(f) prove a lower or an upper bound
each, so a solve stopped early keeps every card's bounds proven so far (``S.mtd``; the test
under way is dropped, and nothing is stored in the table once a search stops). A solve stops
at its node budget (each card first gets a fair share of it, the cards still unproven then
share the rest, resumed where they stopped) or when the stop flag ``S_FLAG`` is raised from
another thread (a time limit, Ctrl-C); both are looked at every ``CHECK_EVERY`` nodes at a
trick start.

Profile: every search counts per ply (``S.prof``, ``NPROF`` counters) the nodes, their
cut-offs by the points in play, the table and the quick tricks, the table's probes and
hits, the nodes searched move by move, their cut-offs and those on the first move tried;
``S.log`` keeps each zero-window test's threshold, result and nodes
(``benchmarks/bench_solve.py --profile``). The counters are compiled in only with
``CATCHTEN_SOLVE_PROFILE=1`` (:data:`PROFILE`), so the search pays nothing for them.

Cost per node (a node is ~70 ns): the tables, the scratch and the table are each one flat
int64 buffer, and the recursive search passes the three buffers and rebuilds its named
views inside (slices at constant offsets, free): numba passes a namedtuple of arrays field
by field (~7 words an array), which cost ~30 ns a call with 27 arrays.

With two sides and card points the card points are linear in the tricks (one side takes
``c`` cards of the unit's ``2 * share``: the difference is ``c - share``), so each trick is
worth ``±(honours + players / 2)`` and no card count enters the key.

Rules of play are the play core's: :func:`_legal` is :func:`.trick.legal_cards` (with
:func:`.trick.lock_bit`), tricks are won by :func:`.trick.winning_card` and card points
counted by :func:`.scoring.card_points`, over the same rank and honour tables as every
kernel (:func:`catchten_sim.solve.solver_tables` builds them from ``Rules.tables()``). The
switches of play come in as ``Tables.play_rules``, packed into the parameter ``K_RULES``
(:func:`set_play_rules`) and read by the play core alone: the search hands them to
``legal_cards``, and the quick-trick bounds (:func:`_quick`), which must respect them to
stay exact, ask the play core's predicates (:func:`.trick.trump_lead_allowed`:
``no_trump_first_lead`` on the first lead of every set; :func:`.trick.void_follower_must_trump`:
``must_trump``) and ``K_TLOCK`` (:func:`.trick.turnup_lock_bit`: ``exposed_trump``, the
turn-up locked until the deal's last two tricks). Six-card sets are loaded one after another
(the winner of a set's last trick leads to the next), per-set or per-deal scoring
(RULES.md §1-§3, §7.6).

Kernels assume valid input (the Python wrapper ``catchten_sim.solve`` validates the record).
"""
from __future__ import annotations

import os
from collections import namedtuple

import numpy as np
import numba
from numba import njit

from . import bits, trick
from .bits import INLINE_JIT, INLINE_PY_JIT, JIT, KERNEL_JIT
from .scoring import card_points
from .trick import (legal_cards, lock_bit, play_rules_code, play_rules_of, trump_lead_allowed,
                    turnup_lock_bit, void_follower_must_trump, winning_card)

#: the search profile (``S.prof``) is counted only with ``CATCHTEN_SOLVE_PROFILE=1`` in the
#: environment: the counters are compiled out otherwise, and a profiling build compiles
#: without the on-disk cache (so that it never lands there)
PROFILE = bool(os.environ.get("CATCHTEN_SOLVE_PROFILE"))
if PROFILE:
    JIT = dict(JIT, cache=False)
    KERNEL_JIT = dict(KERNEL_JIT, cache=False)
    INLINE_JIT = dict(INLINE_JIT, cache=False)
    INLINE_PY_JIT = dict(INLINE_PY_JIT, cache=False)

# The bit helpers the search calls most, as helpers of its own: typed once and inlined by
# LLVM (INLINE_JIT), where the ``inline="always"`` originals would be inlined as numba IR
# and typed again at each of some 70 call sites (about 1 s of the cold compile).


@njit(**INLINE_JIT)
def suit_mask(s):
    return trick.suit_mask(s)


@njit(**INLINE_JIT)
def trump_mask(trump):
    return trick.trump_mask(trump)


@njit(**INLINE_JIT)
def lowest_index(x):
    return bits.lowest_index(x)


@njit(**INLINE_JIT)
def highest_index(x):
    return bits.highest_index(x)


@njit(**INLINE_JIT)
def popcount(x):
    return bits.popcount(x)


@njit(**INLINE_JIT)
def compress(x, m):
    return bits.compress(x, m)


@njit(**INLINE_JIT)
def expand(x, m):
    return bits.expand(x, m)


@njit(**INLINE_JIT)
def mix64(z):
    return bits.mix64(z)


INF = 30000
MAX_SEATS = 8
MAX_SETS = 3
MAX_PLY = 64
MAX_MOVES = 24

# solver parameters (SolveTables.p)
# (``K_RULES``: the play switches as :func:`.trick.play_rules_code` packs them, read by the
# play core's functions alone; ``K_TLOCK``: :func:`.trick.turnup_lock_bit`, the turn-up's
# bit while ``exposed_trump`` may lock it, else 0)
K_N, K_NSIDES, K_SETSIZE, K_NTRICKS, K_UNIT, K_SHARE, K_MODE, K_TRUMP, K_TURNUP, K_TLOCK, \
    K_RULES, K_HALFN, K_HONMASK, K_MERGE, K_NSETS, K_DEALER, K_FASTKEY, \
    K_NPARAMS = range(18)
# scoring modes
MODE_HONOURS = 0   # card points off: each trick is worth ± its honours
MODE_LINEAR = 1    # two sides with card points: ± (honours + players / 2)
MODE_COUNTS = 2    # three or more sides with card points: counts per side in the key

# statistics (SolveState.st)
S_ROOT, S_SID, S_NODES, S_PROBES, S_HITS, S_STORES, S_ITERS, S_LIMIT, S_STOP, S_ABORT, \
    S_END, S_FLAG, S_BOUNDED, S_NLOG, S_FN, S_HFN, S_NST = range(17)
# why a solve stopped early (``S_ABORT``): its node budget spent, or told to stop
# (``S_FLAG`` set from another thread: a time limit, Ctrl-C)
ABORT_BUDGET = 1
ABORT_STOP = 2
#: nodes between two looks at the budget and at the stop flag (~1 ms)
CHECK_EVERY = 4096
_NO_END = np.int64(1) << np.int64(62)

# search profile (SolveState.prof): counters per ply (``NPROF * ply + P_*``), summed over
# every solve since the scratch was made: nodes entered, cut by the points still in play,
# by the table, by the quick tricks, scored without search (the last trick), probes of the
# table and hits (an entry of the same places found), nodes searched move by move,
# those that cut off, those that cut off on the first move, moves searched, and the sum of
# the 1-based place of the move that cut off
P_NODE, P_BOUND, P_TT, P_QUICK, P_LEAF, P_PROBE, P_HIT, P_EXP, P_CUT, P_CUT1, P_TRIED, \
    P_CUTAT, NPROF = range(13)

# The tables and the scratch are each one flat int64 buffer (``buf``) with named views at
# fixed offsets: the recursive search passes the buffers alone (a namedtuple of arrays is
# passed field by field, ~7 words an array, which cost ~30 ns a call) and rebuilds the views
# (free: slices at constant offsets).
_T_SIZES = (("p", 24), ("tp", 52), ("rp", 52), ("pw", 52), ("hon", 52), ("side", MAX_SEATS),
            ("order", 56), ("zl1", MAX_SEATS), ("zl2", MAX_SEATS), ("top", 8192))
_S_SIZES = (("hands", MAX_SEATS), ("sets", MAX_SETS * MAX_SEATS), ("owner", 52),
            ("future", MAX_SETS + 1), ("trick", MAX_PLY), ("moves", MAX_PLY * MAX_MOVES),
            ("mscore", MAX_PLY * MAX_MOVES), ("winners", 128), ("tmp", 128), ("st", S_NST),
            ("wr", MAX_PLY + 2), ("cw", MAX_SEATS), ("prof", MAX_PLY * NPROF),
            ("mtd", 3 * 53), ("log", 3 * 64))


def _offsets(sizes):
    off = {}
    o = 0
    for name, size in sizes:
        off[name] = (o, o + size)
        o += size
    return off, o


_TO, T_BUF = _offsets(_T_SIZES)
_SO, S_BUF = _offsets(_S_SIZES)
(T_P, T_P1), (T_TP, T_TP1), (T_RP, T_RP1), (T_PW, T_PW1), (T_HON, T_HON1), \
    (T_SIDE, T_SIDE1), (T_ORDER, T_ORDER1), (T_ZL1, T_ZL11), (T_ZL2, T_ZL21), \
    (T_TOP, T_TOP1) = (_TO[name] for name, _ in _T_SIZES)
(O_HANDS, O_HANDS1), (O_SETS, O_SETS1), (O_OWNER, O_OWNER1), (O_FUTURE, O_FUTURE1), \
    (O_TRICK, O_TRICK1), (O_MOVES, O_MOVES1), (O_MSCORE, O_MSCORE1), (O_WIN, O_WIN1), \
    (O_TMP, O_TMP1), (O_ST, O_ST1), (O_WR, O_WR1), (O_CW, O_CW1), (O_PROF, O_PROF1), \
    (O_MTD, O_MTD1), (O_LOG, O_LOG1) = \
    (_SO[name] for name, _ in _S_SIZES)

SolveTables = namedtuple("SolveTables", "p tp rp pw hon side order zl1 zl2 top buf")
SolveTables.__doc__ = """The rule tables of one deal for the search (trumps fixed): views of
one int64 buffer ``buf`` (:func:`make_tables`).

p : (K_NPARAMS,) scalars (``K_*``); tp : (52,) trump power (0 = not a trump);
rp : (52,) power in its own suit; pw : (52,) ``tp`` if a trump else ``rp``;
hon : (52,) honour points (10♦ bonus included); side : (8,) side of each seat;
order : (56,) each suit's cards of the pack, strongest first (trick order), -1 after the
last: suit ``s``, place ``j`` at ``14 * s + j``; zl1, zl2 : (8,) keys of the leader (uint64
bits); top : (8192,) ``Tables.top_trump`` (the play core's trick winner).
"""
SolveState = namedtuple("SolveState",
                        "hands sets owner future trick moves mscore winners tmp st wr cw "
                        "prof mtd log buf")
SolveState.__doc__ = """Scratch of one search thread (allocated once, reused per solve): views
of one int64 buffer ``buf``.

hands : (8,) cards of the current set held by each seat; wr : (66,) the winning ranks of
each ply's result (:func:`_search`); cw : (8,) each seat's cards packed as the table compares
them (:func:`_key`); sets : (3 * 8,) the deal's sets as
dealt (set ``s``, seat ``q`` at ``8 * s + q``); owner : (52,) seat dealt each card; future :
(4,) cards of the sets after set ``s``; trick : (64,) the cards of each trick by ply;
moves, mscore : (MAX_PLY * MAX_MOVES,) move lists per ply (``MAX_MOVES * ply + i``); winners :
(64 * 2,) (winner seat, honour points) of each trick replayed; tmp : (128,) scratch
(``tmp[64 + ply]``: the killer card of each ply; ``tmp[56]``: the nodes below the
position being stored); st : (S_NST,) root side, search id,
counters, the node budget of one solve (``S_LIMIT``, 0 = none), ``S_ABORT`` (``ABORT_BUDGET``
or ``ABORT_STOP`` once a search stopped: its result is dropped, the bounds proven before
stand), the stop flag ``S_FLAG``; prof : (64 * NPROF,) the search
profile; mtd : (3 * 53,) each card's (52: the position's) proven lower and upper bound and
next guess; log : (3 * 64,) the first zero-window tests since ``S_NLOG`` was reset.
"""
TTable = namedtuple("TTable", "e")
TTable.__doc__ = """A fixed-size transposition table: ``e`` int64 (4 * 2**bits,), four words an
entry in ``TT_WAYS``-entry buckets: ``e[:2**bits]`` the key words (the key without ranks,
uint64 bits, its low 10 bits replaced by the search id's low 5 bits (age) and log2 of the
nodes its subtree took, for replacement only), then three words an entry: the pattern hash,
the mask of places (:func:`_pins`; -1: every card, by name) and the record ``lo | hi << 16 | move
<< 32`` (lo, hi: int16 lower / upper bound of the future value; move: the best lead, 6
bits, 63 none).
"""
TT_WORDS = 4
TT_WAYS = 32
# a key word: the key's high bits, the search id's low 5 bits (age) and the subtree's size
_KEY_HI = ~np.int64(0x3FF)


def _views(cls, sizes, buf):
    off, _n = _offsets(sizes)
    return cls(*(buf[off[name][0]:off[name][1]] for name, _ in sizes), buf)


def make_tables(p, tp, rp, pw, hon, side, order, top, zl1, zl2) -> SolveTables:
    """Pack the tables of one deal (shapes as in :data:`SolveTables`; ``order`` (4, 14),
    ``zl1``, ``zl2`` uint64 (8,)) into one buffer and its views."""
    buf = np.zeros(T_BUF, np.int64)
    tabs = _views(SolveTables, _T_SIZES, buf)
    tabs.p[:len(p)] = p
    for name, arr in (("tp", tp), ("rp", rp), ("pw", pw), ("hon", hon), ("side", side),
                      ("order", np.asarray(order).reshape(-1)), ("top", top)):
        getattr(tabs, name)[:] = arr
    tabs.zl1[:] = np.asarray(zl1, np.uint64).view(np.int64)
    tabs.zl2[:] = np.asarray(zl2, np.uint64).view(np.int64)
    return tabs


def set_play_rules(p, play_rules) -> None:
    """Put ``play_rules`` (``Tables.play_rules``) into the solver's parameters ``p``
    (``K_TURNUP`` set): ``K_RULES`` and ``K_TLOCK``, computed by the play core."""
    p[K_RULES] = play_rules_code(play_rules)
    p[K_TLOCK] = turnup_lock_bit(play_rules, int(p[K_TURNUP]))


def new_state() -> SolveState:
    """Zeroed scratch for one thread."""
    S = _views(SolveState, _S_SIZES, np.zeros(S_BUF, np.int64))
    S.st[S_FN] = search_address()
    return S


_ADDRESS: list[int] = []


def search_address() -> int:
    """The address of the search's compiled code in this process, which ``solve_batch``
    calls through (``S.st[S_FN]``: set it again in a scratch from another process)."""
    if not _ADDRESS:
        a = numba.types.Array(numba.types.int64, 1, "C")
        i = numba.types.int64
        _ADDRESS.append(bits.kernel_address(_search, (a, a, a, i, i, i, i)))
    return _ADDRESS[0]


_PLANS: list[int] = []


def plans_address() -> int:
    """The address of the honours-only bounds' compiled code (:func:`_honour_plans`) in
    this process, which the search calls through (``S.st[S_HFN]``); compiled (or loaded
    from the cache) on the first call."""
    if not _PLANS:
        a = numba.types.Array(numba.types.int64, 1, "C")
        i = numba.types.int64
        _PLANS.append(bits.kernel_address(_honour_plans, (a, a) + (i,) * 7))
    return _PLANS[0]


def ready(S: SolveState, T: SolveTables) -> None:
    """Set the addresses ``solve_batch`` calls through in scratch ``S`` for tables ``T``:
    the search's, and with honours only (``MODE_HONOURS``) the bounds' (compiling them
    the first time in a process)."""
    S.st[S_FN] = search_address()
    if T.p[K_MODE] == MODE_HONOURS:
        S.st[S_HFN] = plans_address()


def new_table(bits: int = 20) -> TTable:
    """An empty transposition table of ``2**bits`` entries (32 bytes each)."""
    size = 1 << int(bits)
    return TTable(np.zeros(TT_WORDS * size, np.int64))


@njit(**INLINE_JIT)
def _tview(b):
    """The :data:`SolveTables` views of a tables buffer."""
    return SolveTables(b[T_P:T_P1], b[T_TP:T_TP1], b[T_RP:T_RP1], b[T_PW:T_PW1],
                       b[T_HON:T_HON1], b[T_SIDE:T_SIDE1], b[T_ORDER:T_ORDER1],
                       b[T_ZL1:T_ZL11], b[T_ZL2:T_ZL21], b[T_TOP:T_TOP1], b)


@njit(**INLINE_JIT)
def _sview(b):
    """The :data:`SolveState` views of a scratch buffer."""
    return SolveState(b[O_HANDS:O_HANDS1], b[O_SETS:O_SETS1], b[O_OWNER:O_OWNER1],
                      b[O_FUTURE:O_FUTURE1], b[O_TRICK:O_TRICK1], b[O_MOVES:O_MOVES1],
                      b[O_MSCORE:O_MSCORE1], b[O_WIN:O_WIN1], b[O_TMP:O_TMP1],
                      b[O_ST:O_ST1], b[O_WR:O_WR1], b[O_CW:O_CW1], b[O_PROF:O_PROF1],
                      b[O_MTD:O_MTD1], b[O_LOG:O_LOG1], b)


def leader_keys():
    """Fixed pseudo-random keys of the leader (SplitMix64 of a counter): same on every run."""
    z = np.zeros(2 * MAX_SEATS, np.uint64)
    x0 = 0x243F6A8885A308D3
    for i in range(z.size):
        x = (x0 + (i + 1) * 0x9E3779B97F4A7C15) % 2 ** 64
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) % 2 ** 64
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) % 2 ** 64
        z[i] = x ^ (x >> 31)
    return z[:MAX_SEATS], z[MAX_SEATS:]


@njit(**INLINE_JIT)
def _bit(c):
    return np.int64(1) << np.int64(c)


@njit(**INLINE_JIT)
def _power(T, c, led):
    """Strength of card ``c`` in a trick led in suit ``led`` (0 cannot win; RULES.md §1)."""
    tp = T.tp[c]
    if tp > 0:
        return tp
    if c // 13 == led:
        return T.rp[c]
    return 0


@njit(**INLINE_PY_JIT)
def _honours_of(T, mask):
    """Honour points of the cards in ``mask``."""
    m = mask & T.p[K_HONMASK]
    h = 0
    while m:
        c = lowest_index(m)
        h += T.hon[c]
        m &= m - 1
    return h


@njit(**INLINE_JIT)
def _trick_value(T, root, wside, hon, cnt, t):
    """Points of a quitted trick for the root side and the new card counts.

    ``wside``: side that took it; ``hon``: its honour points; ``cnt``: cards taken per side
    in the current scoring unit (6 bits each, MODE_COUNTS only); ``t``: its index in the deal.
    Card points are counted as they are made: the winner's ``max(0, count - share)`` grows by
    ``d``, so the sum over a unit is the unit's card points (RULES.md §2, §7.1).
    """
    p = T.p
    mode = p[K_MODE]
    pts = hon
    if mode == MODE_LINEAR:
        pts += p[K_HALFN]
    elif mode == MODE_COUNTS:
        sh = 6 * wside
        old = (cnt >> sh) & 63
        new = old + p[K_N]
        share = p[K_SHARE]
        d = card_points(new, share) - card_points(old, share)
        pts += d
        cnt = cnt + (p[K_N] << sh)
        if (t + 1) % p[K_UNIT] == 0:
            cnt = 0
    if wside != root:
        pts = -pts
    return pts, cnt


@njit(**INLINE_JIT)
def _winner(T, S, leader, n, tb):
    """Seat that wins the complete trick at ``S.trick[tb:tb + n]`` (the play core's
    ``winning_card``), its honour points and the winning rank it needs: the winning card
    if it beat a card of its own suit (its rank decided the trick), else 0."""
    tm = np.int64(0)
    for i in range(n):
        tm |= _bit(S.trick[tb + i])
    c = winning_card(tm, suit_mask(S.trick[tb] // 13), T.p[K_TRUMP], T.top)
    b = _bit(c)
    pin = b if tm & suit_mask(c // 13) & ~b else np.int64(0)
    return S.owner[c], _honours_of(T, tm), pin


@njit(**INLINE_JIT)
def _count_key(T, cnt):
    """The card counts that still matter (clamped to the share), mixed into a key."""
    if T.p[K_MODE] != MODE_COUNTS:
        return np.uint64(0)
    share = T.p[K_SHARE]
    packed = np.int64(0)
    for s in range(T.p[K_NSIDES]):
        c = (cnt >> (6 * s)) & 63
        if c > share:
            c = share
        packed |= c << (6 * s)
    return mix64(np.uint64(packed) + np.uint64(0x632BE59BD9B4E019))


@njit(**INLINE_JIT)
def _legal(T, S, seat, k, t):
    """Legal cards of ``seat`` (RULES.md §1, §3, §7.3, §7.6): the play core's
    ``legal_cards``."""
    p = T.p
    led = suit_mask(S.trick[t * p[K_N]] // 13) if k > 0 else np.int64(0)
    return legal_cards(play_rules_of(p[K_RULES]), S.hands[seat],
                       lock_bit(p[K_TLOCK], t, p[K_NTRICKS]), k, led, t % p[K_SETSIZE] == 0,
                       trump_mask(p[K_TRUMP]))


@njit(**INLINE_JIT)
def _thin(T, S, legal, seat, k, tb):
    """Drop cards equivalent to a higher card of the same hand (see the module docstring):
    a plain legal card whose next higher card of its suit, among these cards and the cards
    of the other hands and of the trick, is also one of these cards. Bit-parallel: the
    cards packed in rank order (``compress``), each kept card's successor tested with one
    shift, and the dropped cards placed back (``expand``); the top card of each suit has no
    successor in its suit."""
    if not T.p[K_MERGE]:
        return legal
    n = T.p[K_N]
    present = np.int64(0)
    for i in range(n):
        present |= S.hands[i]
    for i in range(k):
        present |= _bit(S.trick[tb + i])
    plain = legal & ~T.p[K_HONMASK]
    if plain & (plain - 1) == 0:
        return legal
    pm = plain | (present & ~S.hands[seat])
    tops = np.int64(0)
    for s in range(4):
        lane = pm & suit_mask(s)
        if lane:
            tops |= _bit(highest_index(lane))
    x = compress(plain, pm)
    return legal & ~(expand(x & (x >> 1), pm) & ~tops)


@njit(**INLINE_JIT)
def _order(T, S, cands, seat, k, leader, ply, maximizing, ttmove):
    """Fill ``S.moves[ply]`` with the cards of ``cands``, best first; returns their number."""
    tb = ply - k
    n = T.p[K_N]
    root = S.st[S_ROOT]
    wpow = -1
    oppmax = -1
    partner_wins = False
    led = 0
    if k > 0:
        led = S.trick[tb] // 13
        wi = 0
        for i in range(k):
            pw = _power(T, S.trick[tb + i], led)
            if pw > wpow:
                wpow = pw
                wi = i
        w = leader + wi
        if w >= n:
            w -= n
        # the strongest card an opponent still to play can put on this trick
        for j in range(k + 1, n):
            q = leader + j
            if q >= n:
                q -= n
            if (T.side[q] == root) == maximizing:
                continue
            h = S.hands[q]
            f = h & suit_mask(led)
            su = led
            if f == 0:
                su = T.p[K_TRUMP]
                f = h & trump_mask(su)
                if f == 0:
                    continue
            # its best card: the trump order's top card, else the highest by rank
            if su == T.p[K_TRUMP]:
                c2 = su * 13 + T.top[(f >> (13 * su)) & 0x1FFF]
            else:
                c2 = highest_index(f)
            pc = _power(T, c2, led)
            if pc > oppmax:
                oppmax = pc
        partner_wins = (T.side[w] == root) == maximizing and wpow > oppmax
    top = np.int64(0)
    ruffed = 0
    to_partner = 0
    if k == 0:
        # the highest remaining card of each suit; suits an opponent can ruff; suits whose
        # highest card a partner holds
        allc = np.int64(0)
        for q in range(n):
            allc |= S.hands[q]
        tmask = trump_mask(T.p[K_TRUMP])
        for su in range(4):
            if (cands >> (13 * su)) & 0x1FFF:
                c = _top_card(T, allc, su)
                top |= _bit(c)
                o = S.owner[c]
                if o != seat and (T.side[o] == root) == maximizing:
                    to_partner |= 1 << su
                if su != T.p[K_TRUMP]:
                    for q in range(n):
                        if (T.side[q] == root) != maximizing and S.hands[q] & tmask \
                                and not S.hands[q] & suit_mask(su):
                            ruffed |= 1 << su
    m = 0
    mb = MAX_MOVES * ply
    mv = S.moves
    sc = S.mscore
    killer = S.tmp[64 + ply]
    while cands:
        c = lowest_index(cands)
        cands &= cands - 1
        h = T.hon[c]
        if k == 0:
            su = c // 13
            if c == ttmove:
                s = 100000
            elif (ruffed >> su) & 1:
                s = 500 - 20 * h - T.pw[c]
            elif (top >> c) & 1:
                s = 5000 + T.pw[c] + (500 if su != T.p[K_TRUMP] else 0)
            elif (to_partner >> su) & 1:
                s = 6000 - 20 * h - T.pw[c]
            else:
                s = 1000 - 20 * h - T.pw[c]
        else:
            p = _power(T, c, led)
            if partner_wins:
                s = 3000 + 20 * h - T.pw[c]
            elif p > wpow and p > oppmax:
                s = 6000 - p + 20 * h
            elif p > wpow:
                s = 2000 - p
            else:
                s = 1000 - 20 * h - T.pw[c]
        if k == 0 and c == killer and s < 90000:
            s += 1500
        # insertion, best first
        j = mb + m
        while j > mb and sc[j - 1] < s:
            mv[j] = mv[j - 1]
            sc[j] = sc[j - 1]
            j -= 1
        mv[j] = c
        sc[j] = s
        m += 1
    return m


_M1 = np.uint64(0x9E3779B97F4A7C15)
_M2 = np.uint64(0xC2B2AE3D27D4EB4F)
_SEP = np.uint64(0x165667B19E3779F9)


@njit(**INLINE_JIT)
def _key(T, S, leader, t, cnt, allc):
    """The key of a position at a trick boundary without its ranks: the leader, the set,
    the counts that matter, the search id (entries of earlier solves never match), each
    seat's number of cards in each suit and its named cards (honours, an exposed turn-up).
    Also fills ``S.cw``: each seat's cards as the table entries compare them, by *relative
    rank* (packed over the cards still out, ``pext``) with ``K_FASTKEY``, else as they are.
    An entry stores a mask of the packed places whose owners it depends on (its winning
    ranks, :func:`_pins`): :func:`_pattern` of these words under it must agree too."""
    p = T.p
    n = p[K_N]
    named = p[K_HONMASK] | p[K_TLOCK]
    k1 = np.uint64(T.zl1[leader]) ^ _count_key(T, cnt) ^ (np.uint64(t // p[K_SETSIZE]) * _SEP) \
        ^ (np.uint64(S.st[S_SID]) * _M2)
    fast = p[K_FASTKEY]
    if fast:
        # the named cards' places too: a named card below cards of no name in its suit
        # (the 10 of diamonds' bonus) must meet the same places, or the pattern of owners
        # could pair it with a plain card
        k1 = (k1 ^ np.uint64(compress(named & allc, allc))) * _M2
    for q in range(n):
        h = S.hands[q]
        S.cw[q] = compress(h, allc) if fast else h
        w = np.uint64(0)
        for su in range(4):
            w |= np.uint64(popcount(h & suit_mask(su))) << np.uint64(4 * su)
        k1 = (k1 ^ w) * _M1
        k1 = (k1 ^ np.uint64(h & named)) * _M1
    return mix64(k1)


@njit(**INLINE_JIT)
def _pattern(S, n, mask):
    """Hash of each seat's packed cards (``S.cw``) at the places of ``mask``."""
    h = np.uint64(0x6A09E667F3BCC909)
    for q in range(n):
        h = (h ^ np.uint64(S.cw[q] & mask)) * _M2
    return np.int64(mix64(h ^ (h >> np.uint64(29))))


@njit(**INLINE_JIT)
def _pins(T, allc, w):
    """The places an entry depends on, packed over ``allc`` as ``S.cw`` is: in each suit
    the remaining cards from the top down to the lowest of the winning ranks ``w`` and the
    named cards (their owners must agree; the cards below only in number per seat: they
    never beat a card of their suit in the search below). With ``K_FASTKEY`` rank order
    and trick order agree but on pairs of named cards, so the top in trick order is the
    top in rank order and one mask a suit does it; otherwise every card counts."""
    p = T.p
    if not p[K_FASTKEY]:
        return np.int64(-1)
    named = p[K_HONMASK] | p[K_TLOCK]
    wn = (w | named) & allc
    pin = np.int64(0)
    for su in range(4):
        m = wn & suit_mask(su)
        if m:
            pin |= allc & suit_mask(su) & ~(_bit(lowest_index(m)) - 1)
    return compress(pin, allc)


@njit(**INLINE_PY_JIT)
def _sure(T, S, root, maxs):
    """Honour points and tricks sure for each team: the run of the highest remaining trumps
    held by one team (seats of the root side, or all the others) all go to that team, and
    the seat of the team holding most of the run wins that many tricks. Returns
    ``(points_root, tricks_root, points_others, tricks_others, run, pin)``, ``run`` the
    mask of those trumps, ``pin`` the run and the trump that ends it (the winning ranks
    that fix the result)."""
    p = T.p
    tr = p[K_TRUMP]
    if tr > 3:
        return 0, 0, 0, 0, np.int64(0), np.int64(0)
    n = p[K_N]
    team = -1
    pts = 0
    rm = np.int64(0)
    allc = np.int64(0)
    for q in range(n):
        allc |= S.hands[q]
    lane = allc & suit_mask(tr)
    brk = np.int64(0)
    j = 0
    while lane:
        c = T.order[14 * tr + j]
        j += 1
        if not (lane >> c) & 1:
            continue
        lane ^= _bit(c)
        holder = S.owner[c]
        tm = 1 if T.side[holder] == root else 0
        if team < 0:
            team = tm
            for q in range(n):
                maxs[q] = 0
        elif tm != team:
            brk = _bit(c)
            break
        pts += T.hon[c]
        rm |= _bit(c)
        maxs[holder] += 1
    if team < 0:
        return 0, 0, 0, 0, np.int64(0), np.int64(0)
    most = 0
    for q in range(n):
        if maxs[q] > most:
            most = maxs[q]
    if team == 1:
        return pts, most, 0, 0, rm, rm | brk
    return 0, 0, pts, most, rm, rm | brk


@njit(**INLINE_JIT)
def _top_card(T, allc, s):
    """The highest remaining card of suit ``s`` (some card of it is in ``allc``) in trick
    order: by the trump lane table for trumps, else the highest rank."""
    if s == T.p[K_TRUMP]:
        return 13 * s + T.top[(allc >> (13 * s)) & 0x1FFF]
    return highest_index(allc & suit_mask(s))


@njit(**INLINE_JIT)
def _run(T, S, allc, s, seat):
    """How many of the highest remaining cards of suit ``s`` (trick order) ``seat`` holds
    in a row, their mask, and the mask of the run and the card that ends it (the winning
    ranks that fix the run; a plain suit's trick order is its rank order: bit tricks)."""
    lane = allc & suit_mask(s)
    if s != T.p[K_TRUMP]:
        others = lane & ~S.hands[seat]
        pin = lane
        if others:
            hb = _bit(highest_index(others))
            lane &= ~((hb << 1) - 1)
            pin = lane | hb
        return popcount(lane), lane, pin
    r = 0
    j = 0
    brk = np.int64(0)
    while lane:
        c = T.order[14 * s + j]
        j += 1
        if (lane >> c) & 1:
            if S.owner[c] != seat:
                brk = _bit(c)
                break
            lane ^= _bit(c)
            r += 1
    run = (allc & suit_mask(s)) & ~lane
    return r, run, run | brk


@njit(**KERNEL_JIT)
def _quick(tb, sb, leader, t, root, allc):
    """Tricks the leader's team surely takes at a trick start by cashing its winners (the
    quick tricks of bridge solvers): first the leader's run of top trumps (each opponent
    holding trumps must follow), then in each plain suit the leader's run of top cards for
    as many rounds as every opponent that may still hold a trump can follow (an opponent
    without trumps cannot ruff; one that follows loses no card of another suit). Partners
    never spoil a trick of their own side, but with ``must_trump`` one that is out of the
    suit must ruff and would take the lead: they count as opponents there.
    Returns ``(tricks, captured)``: ``captured`` holds the trumps that fall into the
    leader's trump tricks (the leader's run, and every trump of a seat holding no more
    trumps than the run is long: it must follow with all of them); their honours go to the
    leader's team. Plain-suit tricks are counted in ``MODE_LINEAR`` only. Nothing while an
    exposed turn-up is still in play (its lock changes who can follow). ``pin``: the
    winning ranks the count rests on (each run looked at and the card ending it, each top
    card looked at). ``tb``, ``sb``: the buffers of the tables and the scratch."""
    T = _tview(tb)
    S = _sview(sb)
    p = T.p
    n = p[K_N]
    tr = p[K_TRUMP]
    if p[K_TLOCK] & allc:
        return 0, np.int64(0), np.int64(0)
    pr = play_rules_of(p[K_RULES])
    must_ruff = void_follower_must_trump(pr)
    team = T.side[leader] == root
    tmask = trump_mask(tr)
    lh = S.hands[leader]
    may_lead_trump = trump_lead_allowed(pr, lh, t % p[K_SETSIZE] == 0, tmask)
    rt = 0
    cap = np.int64(0)
    pin = np.int64(0)
    if tr <= 3 and lh & tmask:
        if may_lead_trump:
            rt, cap, pin = _run(T, S, allc, tr, leader)
    q = rt
    ruffers = 0
    for o in range(n):
        nt = popcount(S.hands[o] & tmask)
        if rt > 0 and o != leader and nt <= rt:
            cap |= S.hands[o] & tmask
        if o != leader and nt > rt:
            # with must_trump a partner out of the suit must ruff and takes the lead
            if (T.side[o] == root) != team or must_ruff:
                ruffers |= 1 << o
    if p[K_MODE] != MODE_LINEAR:
        return q, cap, pin
    for s in range(4):
        if s == tr or not lh & suit_mask(s):
            continue
        r, _m, pn = _run(T, S, allc, s, leader)
        pin |= pn
        o = 0
        while r > 0 and o < n:
            if (ruffers >> o) & 1:
                ln = popcount(S.hands[o] & suit_mask(s))
                if ln < r:
                    r = ln
            o += 1
        q += r
    # or a cheap lead to a partner's top cards in one suit, which the partner then cashes
    # (every opponent with a trump must follow; with must_trump so must every partner
    # holding a trump, or it would ruff and take the lead)
    for s in range(4):
        if not lh & suit_mask(s) or (s == tr and not may_lead_trump):
            continue
        tc = _top_card(T, allc, s)
        pin |= _bit(tc)
        pt = S.owner[tc]
        if pt == leader or (T.side[pt] == root) != team:
            continue
        r, _m, pn = _run(T, S, allc, s, pt)
        pin |= pn
        if r <= q:
            continue
        if s != tr:
            for o in range(n):
                if o == pt or not S.hands[o] & tmask:
                    continue
                if (T.side[o] == root) != team or must_ruff:
                    ln = popcount(S.hands[o] & suit_mask(s))
                    if ln < r:
                        r = ln
        if r > q:
            q = r
    return q, cap, pin


@njit(**KERNEL_JIT)
def _keep(tb, sb, root, allc, exempt):
    """Honour points of the trumps each team surely keeps whatever is played: a team takes
    an honour trump ``c`` of the other team only in a trick it wins with a higher trump of
    its own, and one trump wins one trick, so the honours it takes from one seat can be
    matched each to its own higher trump (the ``j``-th highest of them to ``j`` or more
    higher trumps: Hall's condition on nested sets). Per seat the most the other team can
    take is found greedily (most points first: a transversal matroid) and the rest is
    sure; an honour with no higher trump of the other team (the top run) is always sure.
    Only the current hands count (a trick is played from one set). The honours in
    ``exempt`` count as kept (a plan of the caller keeps them). Returns
    ``(keep_root, keep_others, root_cards)``: the honour points the root side and the others
    surely keep, and the cards the root side holds. The places they rest on (trumps down
    to the lowest honour) are pinned in every entry already (:func:`_pins`). ``tb``,
    ``sb``: the buffers of the tables and the scratch (not inlined: compiled once)."""
    T = _tview(tb)
    S = _sview(sb)
    p = T.p
    n = p[K_N]
    tr = p[K_TRUMP]
    rootc = np.int64(0)
    for q in range(n):
        if T.side[q] == root:
            rootc |= S.hands[q]
    if tr > 3:
        return 0, 0, rootc
    lane = allc & trump_mask(tr)
    if not lane & p[K_HONMASK]:
        return 0, 0, rootc
    # each trump's number of higher trumps of the other team: S.tmp[8 + place] (place:
    # 1, 2, ... from the top in the trump order), the trump at S.tmp[24 + place]
    n_root = 0
    n_oth = 0
    j = 0
    o = 0
    m = lane
    while m:
        c = T.order[14 * tr + o]
        o += 1
        if not (m >> c) & 1:
            continue
        m ^= _bit(c)
        j += 1
        own = (rootc >> c) & 1
        S.tmp[8 + j] = n_oth if own else n_root
        S.tmp[24 + j] = c
        if own:
            n_root += 1
        else:
            n_oth += 1
    kr = 0
    ko = 0
    for q in range(n):
        hm = S.hands[q] & lane & p[K_HONMASK]
        if not hm:
            continue
        # the other team's greedy choice: most points first, kept if still matchable
        tot = _honours_of(T, hm)
        took = 0
        chosen = np.int64(0)   # places chosen (bit j)
        left = np.int64(0)
        for i in range(1, j + 1):
            if ((hm & ~exempt) >> S.tmp[24 + i]) & 1:
                left |= np.int64(1) << i
        while left:
            bi = -1
            bv = -1
            x = left
            while x:
                i = lowest_index(x)
                x &= x - 1
                v = T.hon[S.tmp[24 + i]]
                if v > bv:
                    bv = v
                    bi = i
            left ^= np.int64(1) << bi
            trial = chosen | (np.int64(1) << bi)
            # matchable: the r-th chosen from the top has r or more higher trumps
            ok = True
            r = 0
            x = trial
            while x:
                i = lowest_index(x)
                x &= x - 1
                r += 1
                if S.tmp[8 + i] < r:
                    ok = False
                    break
            if ok:
                chosen = trial
                took += bv
        if T.side[q] == root:
            kr += tot - took
        else:
            ko += tot - took
    return kr, ko, rootc


@njit(**KERNEL_JIT)
def _draw(tb, sb, leader, t, root, allc):
    """Trumps the leader's team surely draws at a trick start: while the seat on lead holds
    a trump and the team holds the top trumps (its *run*, every trump of the other team
    lower), it leads trumps: its highest run card, or a low trump to a partner's run card
    (the partner with most run cards); the team's other seats follow with a trump not of
    the run if they can. Every round is the team's (a run card beats every trump of the
    other team) and every seat holding a trump must follow with one. The run card played
    highest wins and leads the next round. Nothing while an exposed turn-up is still in play
    (its lock changes who can follow) or the leader may not lead a trump.
    Returns ``(rounds, cap, extra, pin)``: ``cap`` the run (the team's, whatever is played)
    and the trumps that surely fall in those rounds (every trump of a seat of the other team
    holding no more trumps than the rounds, of a seat of the team that played all of its),
    ``extra`` the honour points a seat of the other team with more trumps loses at least
    (its cheapest honours once its plain trumps are spent), ``pin`` the run and the trump
    ending it. ``tb``, ``sb``: the buffers of the tables and the scratch (``S.tmp[40:56]``)."""
    T = _tview(tb)
    S = _sview(sb)
    p = T.p
    n = p[K_N]
    tr = p[K_TRUMP]
    z = np.int64(0)
    if tr > 3 or p[K_TLOCK] & allc:
        return 0, z, 0, z
    tmask = trump_mask(tr)
    lh = S.hands[leader]
    team = T.side[leader] == root
    if not lh & tmask or not trump_lead_allowed(play_rules_of(p[K_RULES]), lh,
                                                t % p[K_SETSIZE] == 0, tmask):
        return 0, z, 0, z
    lane = allc & tmask
    run = np.int64(0)
    brk = np.int64(0)
    j = 0
    while lane:
        c = T.order[14 * tr + j]
        j += 1
        if not (lane >> c) & 1:
            continue
        lane ^= _bit(c)
        if (T.side[S.owner[c]] == root) != team:
            brk = _bit(c)
            break
        run |= _bit(c)
    if not run:
        return 0, z, 0, z
    # the team's run cards by seat (S.tmp[40 + q]) and its other trumps (S.tmp[48 + q])
    for q in range(n):
        S.tmp[40 + q] = S.hands[q] & run
        S.tmp[48 + q] = popcount(S.hands[q] & tmask & ~run)
    lead = leader
    r = 0
    while True:
        w = -1
        if S.tmp[40 + lead]:
            w = lead
        elif S.tmp[48 + lead] > 0:
            most = 0
            for q in range(n):
                if q != lead and (T.side[q] == root) == team:
                    k = popcount(S.tmp[40 + q])
                    if k > most:
                        most = k
                        w = q
            if w < 0:
                break
            S.tmp[48 + lead] -= 1
        else:
            break
        c = 13 * tr + T.top[(S.tmp[40 + w] >> (13 * tr)) & 0x1FFF]
        S.tmp[40 + w] ^= _bit(c)
        win = w
        wp = T.tp[c]
        for q in range(n):
            if q == lead or q == w or (T.side[q] == root) != team:
                continue
            if S.tmp[48 + q] > 0:
                S.tmp[48 + q] -= 1
            elif S.tmp[40 + q]:
                # only run cards left: its lowest (it may win the round)
                x = S.tmp[40 + q]
                lo = lowest_index(x)
                while x:
                    d = lowest_index(x)
                    x &= x - 1
                    if T.tp[d] < T.tp[lo]:
                        lo = d
                S.tmp[40 + q] ^= _bit(lo)
                if T.tp[lo] > wp:
                    wp = T.tp[lo]
                    win = q
        r += 1
        lead = win
    cap = run
    extra = 0
    hm = p[K_HONMASK]
    for q in range(n):
        h = S.hands[q] & tmask
        if (T.side[q] == root) == team:
            if not S.tmp[40 + q] and not S.tmp[48 + q]:
                cap |= h
        elif popcount(h) <= r:
            cap |= h
        else:
            # it follows r times: its plain trumps first, then its cheapest honours
            x = h & hm
            k = r - popcount(h & ~hm)
            while k > 0 and x:
                lo = lowest_index(x)
                y = x
                while y:
                    d = lowest_index(y)
                    y &= y - 1
                    if T.hon[d] < T.hon[lo]:
                        lo = d
                x ^= _bit(lo)
                extra += T.hon[lo]
                k -= 1
    return r, cap, extra, run | brk


@njit(**INLINE_PY_JIT)
def _lead_sure(tb, sb, leader, t, root, allc, keep, runmask):
    """What the leader's team surely makes by the best of its plans from this trick start:
    cashing its quick tricks (:func:`_quick`), drawing trumps (:func:`_draw`), a lead to a
    partner's top card then the partner drawing trumps, or a partner's ruff with an honour
    (:func:`_ruff_save`).
    ``keep``: the honour points of its own it keeps whatever is played (:func:`_keep`);
    ``runmask``: the top run of trumps if the team holds it (else 0). A plan's points are
    the honours of its own it surely keeps (``keep``, or those falling in its tricks if
    more) and those of the other team that fall in its tricks; its tricks count with card
    points that are linear (``MODE_LINEAR``) only. Returns ``(points, tricks, pin)`` of the
    plan worth most (``pin``: the winning ranks of the plans)."""
    T = _tview(tb)
    S = _sview(sb)
    p = T.p
    n = p[K_N]
    team = T.side[leader] == root
    mine = np.int64(0)
    for q in range(n):
        if (T.side[q] == root) == team:
            mine |= S.hands[q]
    q1, cap1, pin1 = _quick(tb, sb, leader, t, root, allc)
    cap1 |= runmask
    h1 = max(keep, _honours_of(T, cap1 & mine)) + _honours_of(T, cap1 & ~mine)
    r2, cap2, x2, pin2 = _draw(tb, sb, leader, t, root, allc)
    h2 = max(keep, _honours_of(T, cap2 & mine)) + _honours_of(T, cap2 & ~mine) + x2
    lin = p[K_MODE] == MODE_LINEAR
    pin = pin1 | pin2
    if (h2 + (p[K_HALFN] * r2 if lin else 0)) > (h1 + (p[K_HALFN] * q1 if lin else 0)):
        h1 = h2
        q1 = r2
    # or a lead to a partner's top card of a plain suit that no seat can ruff (each holds
    # the suit or no trump), then the partner draws trumps
    tr = p[K_TRUMP]
    tmask = trump_mask(tr)
    lh = S.hands[leader]
    if tr <= 3 and (t + 1) % p[K_SETSIZE] != 0:
        for s in range(4):
            sm = suit_mask(s)
            if s == tr or not lh & sm:
                continue
            tc = highest_index(allc & sm)
            x = S.owner[tc]
            if x == leader or (T.side[x] == root) != team:
                continue
            ok = True
            for o in range(n):
                if o != leader and o != x and not S.hands[o] & sm and S.hands[o] & tmask:
                    ok = False
            if not ok:
                continue
            r4, cap4, x4, pin4 = _draw(tb, sb, x, t + 1, root, allc)
            if r4 == 0:
                continue
            pin |= pin4 | _bit(tc)
            h4 = max(keep, _honours_of(T, cap4 & mine)) + _honours_of(T, cap4 & ~mine) + x4
            if (h4 + (p[K_HALFN] * (r4 + 1) if lin else 0)) > (
                    h1 + (p[K_HALFN] * q1 if lin else 0)):
                h1 = h4
                q1 = r4 + 1
    # or a ruff with an honour by a partner (card points: not counted)
    if not lin:
        h3 = _ruff_save(T, S, leader, root, allc)
        if h3 > h1:
            return h3, 0, pin
    return h1, q1, pin




@njit(**INLINE_JIT)
def _quick_plan(tb, sb, leader, t, root, allc, pts, tricks, runs):
    """With card points: how far the quick tricks of the leader's team (:func:`_quick`)
    raise the lower bound (the root side leads) or lower the upper bound (the others
    lead) beyond its top run of trumps (``pts``, ``tricks``: its honours and tricks, or 0;
    ``runs``: the run if the team holds it, else 0). Returns ``(raise, lower_by, pin)``."""
    T = _tview(tb)
    p = T.p
    q, cap, pin = _quick(tb, sb, leader, t, root, allc)
    if q == 0:
        return 0, 0, pin
    d = 2 * (_honours_of(T, cap | runs) - pts)
    if p[K_MODE] == MODE_LINEAR and q > tricks:
        d += 2 * p[K_HALFN] * (q - tricks)
    if T.side[leader] == root:
        return d, 0, pin
    return 0, d, pin

@njit(**KERNEL_JIT)
def _honour_plans(tb, sb, leader, t, root, allc, pr, po, runs):
    """With honours only (``MODE_HONOURS``): how far the honours each team keeps whatever
    is played (:func:`_keep`) and the best plan of the leader's team (:func:`_lead_sure`)
    raise the lower bound and lower the upper bound beyond the top run of trumps (``pr``,
    ``po``: its honours, of the root side or of the others; ``runs``: the run if the
    leader's team holds it). Returns ``(raise, lower_by, pin)``. With card points the
    search keeps to the top run and the quick tricks (:func:`_quick`): there these bounds
    did not save nodes and cost time a node."""
    T = _tview(tb)
    kr, ko, _rc = _keep(tb, sb, root, allc, np.int64(0))
    mine = T.side[leader] == root
    hs, _q, pin = _lead_sure(tb, sb, leader, t, root, allc, kr if mine else ko, runs)
    if mine:
        return 2 * (hs - pr), 2 * (ko - po), pin
    return 2 * (kr - pr), 2 * (hs - po), pin

#: ``_honour_plans`` called from the search through its address (``S.st[S_HFN]``,
#: :func:`plans_address`): compiled only when a solve with honours only needs it (about
#: 5 s of the cold compile that a solve with card points never uses; docs/speed.md)
_plans_at = bits.address_call(lambda: _honour_plans,
                              numba.types.UniTuple(numba.types.int64, 3))


@njit(**INLINE_JIT)
def _ruff_save(T, S, leader, root, allc):
    """The honour points of its own the leader's team surely keeps when the leader leads a
    plain suit in which a partner is void and the partner ruffs with an honour trump ``c``:
    every seat of the other team holding a trump higher than ``c`` holds the suit and must
    follow, so the trick and ``c`` are the team's; the rest as :func:`_keep` (``c`` kept).
    The best such ``c`` (0 if none; nothing while an exposed turn-up is in play). The
    places it rests on (the trumps above ``c``, the honours) are pinned in every entry."""
    p = T.p
    n = p[K_N]
    tr = p[K_TRUMP]
    if tr > 3 or p[K_TLOCK] & allc:
        return 0
    tmask = trump_mask(tr)
    team = T.side[leader] == root
    lh = S.hands[leader]
    best = np.int64(-1)
    for s in range(4):
        sm = suit_mask(s)
        if s == tr or not lh & sm:
            continue
        for y in range(n):
            if y == leader or (T.side[y] == root) != team or S.hands[y] & sm:
                continue
            hm = S.hands[y] & tmask & p[K_HONMASK]
            while hm:
                c = lowest_index(hm)
                hm &= hm - 1
                if best >= 0 and T.hon[c] <= T.hon[best]:
                    continue
                ok = True
                for o in range(n):
                    if (T.side[o] == root) == team or S.hands[o] & sm:
                        continue
                    x = S.hands[o] & tmask
                    while x:
                        d = lowest_index(x)
                        x &= x - 1
                        if T.tp[d] > T.tp[c]:
                            ok = False
                    if not ok:
                        break
                if ok:
                    best = c
    if best < 0:
        return 0
    kr, ko, _rc = _keep(T.buf, S.buf, root, allc, _bit(best))
    return kr if team else ko


@njit(**INLINE_JIT)
def _count(S, i):
    """One more in the profile's counter ``i`` (nothing unless :data:`PROFILE`)."""
    if PROFILE:
        S.prof[i] += 1


@njit(**INLINE_JIT)
def _count_cut(S, pf, i):
    """The profile of a cut-off by the ``i``-th move tried at the ply of ``pf``."""
    if PROFILE:
        S.prof[pf + P_CUT] += 1
        S.prof[pf + P_CUTAT] += i + 1
        if i == 0:
            S.prof[pf + P_CUT1] += 1


@njit(**KERNEL_JIT)
def _search(tb, sb, tt, pos, cnt, alpha, beta):
    """Fail-soft alpha-beta: the future score difference (root side's view) of a position.

    ``pos`` packs the leader (bits 0-7), the cards in the trick (8-15) and the trick index
    in the deal (16-); ``cnt`` the card counts of the unit. A result ``<= alpha`` is an
    upper bound, ``>= beta`` a lower bound, else exact. ``tb``, ``sb``: the buffers of the
    tables and the scratch; ``tt``: the table's entries (``TTable.e``).

    Leaves in ``S.wr[ply]`` the *winning ranks* of the result (DDS): the cards whose rank
    the result rests on (each card that beat a card of its own suit in the tricks searched,
    the runs the sure tricks counted and the cards ending them, an entry's places), so the
    result holds for every position that agrees on them (:func:`_pins`).
    """
    T = _tview(tb)
    S = _sview(sb)
    p = T.p
    n = p[K_N]
    leader = pos & 255
    k = (pos >> 8) & 255
    t = pos >> 16
    S.st[S_NODES] += 1
    n_in = S.st[S_NODES]
    seat = leader + k
    if seat >= n:
        seat -= n
    root = S.st[S_ROOT]
    maximizing = T.side[seat] == root
    n_tricks = p[K_NTRICKS]
    ply = t * n + k
    pf = NPROF * ply
    _count(S, pf + P_NODE)
    ttmove = np.int64(-1)
    # typed, not the literal -1: a literal argument compiles the callee once more
    slot = np.int64(-1)
    k1 = np.uint64(0)
    allc = np.int64(0)
    if k == 0:
        S.wr[ply] = 0
        if t >= n_tricks:
            return 0
        if S.st[S_NODES] > S.st[S_STOP]:
            _check(S.st)
            if S.st[S_ABORT]:
                return 0
        left = n_tricks - t
        if left == 1:
            # the last trick: every card is forced
            for i in range(n):
                s2 = leader + i
                if s2 >= n:
                    s2 -= n
                S.trick[t * n + i] = lowest_index(S.hands[s2])
            w, hon, pin = _winner(T, S, leader, n, t * n)
            S.wr[ply] = pin
            v, _c = _trick_value(T, root, T.side[w], hon, cnt, t)
            _count(S, pf + P_LEAF)
            return v
        # the points still in play bound the future value; the top trumps are sure
        for i in range(n):
            allc |= S.hands[i]
        rem = S.future[t // p[K_SETSIZE]] | allc
        honours = _honours_of(T, rem)
        pr, tr_, po, to, run, spin = _sure(T, S, root, S.tmp)
        mode = p[K_MODE]
        upper = honours - 2 * po
        lower = -honours + 2 * pr
        if mode == MODE_LINEAR:
            upper += p[K_HALFN] * (left - 2 * to)
            lower -= p[K_HALFN] * (left - 2 * tr_)
        elif mode == MODE_COUNTS:
            upper += n * left
            lower -= n * left
        # (a longer run only tightens these bounds: the run is enough, not what ends it)
        if upper <= alpha or lower >= beta:
            S.wr[ply] = run
            _count(S, pf + P_BOUND)
            return upper if upper <= alpha else lower
        # transposition table: entries of this key whose places agree
        k1 = _key(T, S, leader, t, cnt, allc)
        base = _bucket(tt, k1)
        S.st[S_PROBES] += 1
        _count(S, pf + P_PROBE)
        i1 = np.int64(k1)
        nent = tt.shape[0] >> 2
        lastmask = np.int64(-2)
        pat = np.int64(0)
        for e in range(base, base + _ways(tt)):
            if (tt[e] ^ i1) & _KEY_HI == 0:
                d = nent + 3 * e
                mask = tt[d + 1]
                if mask != lastmask:
                    pat = _pattern(S, n, mask)
                    lastmask = mask
                if tt[d] != pat:
                    continue
                S.st[S_HITS] += 1
                _count(S, pf + P_HIT)
                rec = tt[d + 2]
                lo = _lo(rec)
                hi = _hi(rec)
                if lo >= beta or hi <= alpha or lo == hi:
                    S.wr[ply] = expand(mask, allc)
                    _count(S, pf + P_TT)
                    return lo if lo >= beta or lo == hi else hi
                if slot < 0:
                    slot = e
                    ttmove = _move(rec)
        # honours only: the honours each team keeps whatever is played and the best plan
        # of the leader's team; with card points its quick tricks (the trumps that fall
        # to them are sure)
        mine = T.side[leader] == root
        runs = run if (tr_ if mine else to) > 0 else np.int64(0)
        if mode == MODE_HONOURS:
            dlo, dhi, qpin = _plans_at(tb, sb, leader, t, root, allc, pr, po, runs,
                                       S.st[S_HFN])
        else:
            dlo, dhi, qpin = _quick_plan(tb, sb, leader, t, root, allc, pr if mine else po,
                                         tr_ if mine else to, runs)
        if lower + dlo >= beta or upper - dhi <= alpha:
            S.wr[ply] = spin | qpin
            _count(S, pf + P_QUICK)
            return lower + dlo if lower + dlo >= beta else upper - dhi
    legal = _legal(T, S, seat, k, t)
    cands = _thin(T, S, legal, seat, k, ply - k)
    if ttmove >= 0 and not (cands >> ttmove) & 1:
        ttmove = np.int64(-1)
    if cands & (cands - 1) == 0:
        # one card to play (after equivalent cards merged): nothing to order
        S.moves[MAX_MOVES * ply] = lowest_index(cands)
        m = 1
    else:
        m = _order(T, S, cands, seat, k, leader, ply, maximizing, ttmove)
    merged = legal & ~cands
    alpha0 = alpha
    beta0 = beta
    best = -INF if maximizing else INF
    bestc = -1
    wall = np.int64(0)
    _count(S, pf + P_EXP)
    for i in range(m):
        c = S.moves[MAX_MOVES * ply + i]
        _count(S, pf + P_TRIED)
        v = _child(T, S, tt, pos, cnt, seat, c, alpha, beta)
        if S.st[S_ABORT]:
            return 0
        wc = S.wr[ply + 1]
        if merged and (wc >> c) & 1:
            # c's rank mattered: so do those of the cards merged into it (the merged
            # cards just below it, down to the next card searched)
            below = merged & suit_mask(c // 13) & (_bit(c) - 1)
            kept = cands & suit_mask(c // 13) & (_bit(c) - 1)
            if kept:
                below &= ~((_bit(highest_index(kept)) << 1) - 1)
            wc |= below
        wall |= wc
        if maximizing:
            if v > best:
                best = v
                bestc = c
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        S.tmp[64 + ply] = c
                        wall = wc
                        _count_cut(S, pf, i)
                        break
        else:
            if v < best:
                best = v
                bestc = c
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        S.tmp[64 + ply] = c
                        wall = wc
                        _count_cut(S, pf, i)
                        break
    S.wr[ply] = wall
    if k == 0:
        lo = -INF
        hi = INF
        if best <= alpha0:
            hi = best
        elif best >= beta0:
            lo = best
        else:
            lo = best
            hi = best
        # the nodes below this one: the store keeps the entries of the largest subtrees
        S.tmp[56] = S.st[S_NODES] - n_in
        _store(tb, sb, tt, k1, ply, lo, hi, bestc, slot)
    return best


#: ``_search`` calling itself, typed once, and called through its address from
#: ``solve_batch`` (:func:`.bits.root_call`; docs/speed.md)
_search_again = bits.root_call(lambda: _search, "int64")


@njit(inline="always", **JIT)
def _child(T, S, tt, pos, cnt, seat, c, alpha, beta):
    """Play card ``c`` for ``seat`` and search on; the future value after it (the points of
    the trick it completes included). The winning ranks of the result are left in
    ``S.wr[ply + 1]`` (the trick's winning card added when it completes the trick)."""
    p = T.p
    n = p[K_N]
    leader = pos & 255
    k = (pos >> 8) & 255
    t = pos >> 16
    b = _bit(c)
    S.hands[seat] ^= b
    S.trick[t * n + k] = c
    if k + 1 < n:
        v = _search_again(T.buf, S.buf, tt, pos + 256, cnt, alpha, beta, S.st[S_FN])
    else:
        w, hon, pin = _winner(T, S, leader, n, t * n)
        pts, ncnt = _trick_value(T, S.st[S_ROOT], T.side[w], hon, cnt, t)
        nt = t + 1
        loaded = False
        if nt % p[K_SETSIZE] == 0 and nt < p[K_NTRICKS]:
            si = nt // p[K_SETSIZE]
            for q in range(n):
                S.hands[q] = S.sets[MAX_SEATS * si + q]
            loaded = True
        v = pts + _search_again(T.buf, S.buf, tt, w | (nt << 16), ncnt, alpha - pts, beta - pts,
                                S.st[S_FN])
        if loaded:
            for q in range(n):
                S.hands[q] = 0
        S.wr[nt * n] |= pin
    S.hands[seat] ^= b
    return v


@njit(**INLINE_JIT)
def _ways(tt):
    """Entries a bucket (``TT_WAYS``; a smaller table is one bucket)."""
    return min(TT_WAYS, tt.shape[0] // TT_WORDS)


@njit(**INLINE_JIT)
def _bucket(tt, k1):
    """First entry of the bucket of key ``k1``."""
    ways = _ways(tt)
    n_buckets = tt.shape[0] // (ways * TT_WORDS)
    return np.int64(k1 & np.uint64(n_buckets - 1)) * ways


@njit(**INLINE_JIT)
def _lo(rec):
    return ((rec & 0xFFFF) ^ 0x8000) - 0x8000


@njit(**INLINE_JIT)
def _hi(rec):
    return (((rec >> 16) & 0xFFFF) ^ 0x8000) - 0x8000


@njit(**INLINE_JIT)
def _move(rec):
    m = (rec >> 32) & 63
    return -1 if m == 63 else m


@njit(**KERNEL_JIT)
def _store(tb, sb, tt, k1, ply, lo, hi, bestc, slot):
    """Store the bounds ``lo``, ``hi`` of the position at trick start ``ply``, keyed ``k1``,
    for every position that agrees on the places of its winning ranks ``S.wr[ply]``: merged
    into the entry of the same places if there is one, else over an entry of an earlier
    search or the one of the smallest subtree (``S.tmp[56]``: the nodes below this
    position). ``slot``: the entry this position met in the probe (-1:
    none). Not inlined (a store is rare next to a node; the search compiles quicker)."""
    T = _tview(tb)
    S = _sview(sb)
    sid = S.st[S_SID]
    n = T.p[K_N]
    # the entry's worth to the replacement: log2 of the nodes its subtree took (1-31),
    # not its depth in tricks (issue 26: that ranked a large subtree of a hard french52
    # ending no higher than the many small ones of its trick, and they replaced it)
    size = min(31, highest_index(S.tmp[56] | 1) + 1)
    i1 = np.int64(k1)
    fast = T.p[K_FASTKEY]
    allc = np.int64(0)
    for q in range(n):
        allc |= S.hands[q]
    for q in range(n):
        # the search below overwrote S.cw
        h = S.hands[q]
        S.cw[q] = compress(h, allc) if fast else h
    mask = _pins(T, allc, S.wr[ply])
    age = sid & 31
    e = -1
    nent = tt.shape[0] >> 2
    if slot >= 0 and (tt[slot] ^ i1) & _KEY_HI == 0 and tt[nent + 3 * slot] == _pattern(
            S, n, tt[nent + 3 * slot + 1]):
        # the entry this position met (its bounds did not settle it; the search below may
        # have replaced it since, hence the check): replaced, or its bounds kept too, at
        # the places of both
        d = nent + 3 * slot
        rec = tt[d + 2]
        olo = _lo(rec)
        ohi = _hi(rec)
        if tt[d + 1] == mask or not (olo <= lo and ohi >= hi):
            mask |= tt[d + 1]
            lo = max(lo, olo)
            hi = min(hi, ohi)
        e = slot
    pat = _pattern(S, n, mask)
    base = _bucket(tt, k1)
    worst = 99
    for j in range(_ways(tt) if e < 0 else 0):
        f = base + j
        kw = tt[f]
        if (kw ^ i1) & _KEY_HI == 0:
            d = nent + 3 * f
            if tt[d + 1] == mask and tt[d] == pat:
                # the same places: keep the tighter bounds (both are true bounds)
                rec = tt[d + 2]
                lo = max(lo, _lo(rec))
                hi = min(hi, _hi(rec))
                e = f
                break
        dp = kw & 31 if (kw >> 5) & 31 == age else -1
        if dp < worst:
            worst = dp
            e = f
    tt[e] = (i1 & _KEY_HI) | (age << 5) | size
    d = nent + 3 * e
    tt[d] = pat
    tt[d + 1] = mask
    tt[d + 2] = (lo & 0xFFFF) | ((hi & 0xFFFF) << 16) | ((bestc & 63) << 32)
    S.st[S_STORES] += 1


@njit(**INLINE_JIT)
def _guess(T, S, t):
    """First guess of the future value for MTD(f): the honours still to be played held by
    the root side minus those held by the others (each side keeping its own honours)."""
    p = T.p
    n = p[K_N]
    root = S.st[S_ROOT]
    g = 0
    for q in range(n):
        m = S.hands[q] & p[K_HONMASK]
        for si in range(t // p[K_SETSIZE] + 1, p[K_NSETS]):
            m |= S.sets[MAX_SEATS * si + q] & p[K_HONMASK]
        h = _honours_of(T, m)
        if p[K_MODE] == MODE_LINEAR and p[K_TRUMP] <= 3:
            # the side with more trumps takes more tricks
            h += 3 * popcount(S.hands[q] & suit_mask(p[K_TRUMP]))
        g += h if T.side[q] == root else -h
    return g


@njit(**KERNEL_JIT)
def _check(st):
    """A look at the budget and the stop flag (every ``CHECK_EVERY`` nodes): sets
    ``S_ABORT`` when the flag is up or the budget of this search (``S_END``) is spent, else
    the next look."""
    if st[S_FLAG]:
        st[S_ABORT] = ABORT_STOP
    elif st[S_NODES] > st[S_END]:
        st[S_ABORT] = ABORT_BUDGET
    else:
        st[S_STOP] = min(st[S_END], st[S_NODES] + CHECK_EVERY)


@njit(**INLINE_JIT)
def _budget(S, end):
    """This search may run until ``S_NODES`` reaches ``end`` (with the stop flag up: it
    stops at its first look)."""
    S.st[S_END] = end
    S.st[S_STOP] = S.st[S_NODES] if S.st[S_FLAG] else min(end, S.st[S_NODES] + CHECK_EVERY)


@njit(inline="always", **JIT)
def _mtdf(T, S, tt, pos, cnt, seat, c):
    """The future value by zero-window tests (MTD(f)): of the position itself (``c`` < 0)
    or of the position after ``seat`` plays card ``c``. Resumable: ``S.mtd[3 * i:3 * i +
    3]`` (``i`` = ``c``, or 52 for the position) holds the proven lower and upper bounds and
    the next guess; the tests run until they meet or the search stops (``S_ABORT``: the
    test under way is dropped, the bounds proven so far stay)."""
    i = 3 * (52 if c < 0 else c)
    lo = S.mtd[i]
    hi = S.mtd[i + 1]
    g = S.mtd[i + 2]
    while lo < hi:
        S.st[S_ITERS] += 1
        g = max(lo, min(hi, g))
        b = g + 1 if g == lo else g
        n0 = S.st[S_NODES]
        if c < 0:
            g = _search_again(T.buf, S.buf, tt.e, pos, cnt, b - 1, b, S.st[S_FN])
        else:
            g = _child(T, S, tt.e, pos, cnt, seat, c, b - 1, b)
        if S.st[S_ABORT]:
            break
        # the tests of this scratch, for the profile: threshold, result, nodes
        j = S.st[S_NLOG]
        if j < 64:
            S.log[3 * j] = b
            S.log[3 * j + 1] = g
            S.log[3 * j + 2] = S.st[S_NODES] - n0
            S.st[S_NLOG] = j + 1
        if g < b:
            hi = g
        else:
            lo = g
    S.mtd[i] = lo
    S.mtd[i + 1] = hi
    S.mtd[i + 2] = g
    return lo == hi


@njit(**INLINE_JIT)
def _span(T, S, t, k):
    """A bound ``B`` on the future value of the position (in ``[-B, B]`` whatever is
    played): the honours still to be taken (the current trick's too) and the card points
    the tricks left can still make, as the search's bounds count them."""
    p = T.p
    n = p[K_N]
    rem = S.future[t // p[K_SETSIZE]]
    for q in range(n):
        rem |= S.hands[q]
    for i in range(k):
        rem |= _bit(S.trick[t * n + i])
    b = _honours_of(T, rem)
    left = p[K_NTRICKS] - t
    if p[K_MODE] == MODE_LINEAR:
        b += p[K_HALFN] * left
    elif p[K_MODE] == MODE_COUNTS:
        b += n * left
    return b


@njit(**INLINE_PY_JIT)
def _set_up(T, S, deal, play, n_play, root_side):
    """Load a deal and replay ``play``; returns ``(pos, cnt, acc)``.

    ``deal``: int64 (n_sets, n) card masks as dealt; ``play``: card indices, legal (checked
    by the caller). ``acc``: points of the quitted tricks for the root side (the same
    accounting as the search). ``root_side`` < 0: the side of the player to move.
    """
    p = T.p
    n = p[K_N]
    ns = p[K_NSETS]
    size = p[K_SETSIZE]
    for si in range(MAX_SETS):
        for q in range(MAX_SEATS):
            S.sets[MAX_SEATS * si + q] = deal[si, q] if si < ns and q < n else 0
    acc_mask = np.int64(0)
    for si in range(ns - 1, -1, -1):
        S.future[si] = acc_mask
        for q in range(n):
            acc_mask |= S.sets[MAX_SEATS * si + q]
    S.future[ns] = 0
    for si in range(ns):
        for q in range(n):
            m = S.sets[MAX_SEATS * si + q]
            while m:
                c = lowest_index(m)
                m &= m - 1
                S.owner[c] = q
    for q in range(MAX_SEATS):
        S.hands[q] = S.sets[q]
    leader = (p[K_DEALER] + 1) % n
    k = 0
    t = 0
    for j in range(n_play):
        c = play[j]
        seat = (leader + k) % n
        S.hands[seat] &= ~_bit(c)
        S.trick[t * n + k] = c
        k += 1
        if k == n:
            w, hon, _pin = _winner(T, S, leader, n, t * n)
            S.winners[2 * t] = w
            S.winners[2 * t + 1] = hon
            leader = w
            k = 0
            t += 1
            if t % size == 0 and t < p[K_NTRICKS]:
                for q in range(n):
                    S.hands[q] = S.sets[MAX_SEATS * (t // size) + q]
    mover = (leader + k) % n
    root = T.side[mover] if root_side < 0 else root_side
    S.st[S_ROOT] = root
    acc = 0
    cnt = np.int64(0)
    for j in range(t):
        pts, cnt = _trick_value(T, root, T.side[S.winners[2 * j]], S.winners[2 * j + 1], cnt, j)
        acc += pts
    return leader | (k << 8) | (t << 16), cnt, acc


@njit(inline="always", **JIT)
def _solve_one(T, S, tt, deal, play, n_play, root_side, all_cards, out):
    """Solve one position; ``out`` (int64, (2, 53)): the proven lower (``out[0]``) and upper
    (``out[1]``) bound of the value of each legal card of the player to move at its card
    index (INF elsewhere; equal: exact), and of the best value at 52 (with ``all_cards`` =
    0 only that one). Bounds that differ come from a search stopped early: its node budget
    ``S.st[S_LIMIT]`` spent (> 0; each card first gets a fair share of it, the cards left
    unproven then share what is left) or the stop flag ``S.st[S_FLAG]`` raised."""
    S.st[S_SID] += 1
    S.st[S_ABORT] = 0
    pos, cnt, acc = _set_up(T, S, deal, play, n_play, root_side)
    p = T.p
    n = p[K_N]
    leader = pos & 255
    k = (pos >> 8) & 255
    t = pos >> 16
    seat = (leader + k) % n
    maximizing = T.side[seat] == S.st[S_ROOT]
    limit = S.st[S_LIMIT]
    end = S.st[S_NODES] + limit if limit > 0 else _NO_END
    span = _span(T, S, t, k)
    guess = _guess(T, S, t)
    for c in range(53):
        out[0, c] = INF
        out[1, c] = INF
        S.mtd[3 * c] = -span
        S.mtd[3 * c + 1] = span
        S.mtd[3 * c + 2] = guess
    # the best value is the card loop below with one "card", the position itself (-1),
    # so that _mtdf is inlined once
    legal = np.int64(0)
    cands = np.int64(0)
    ply = 0
    m = 1
    if all_cards:
        legal = _legal(T, S, seat, k, t)
        ply = t * n + k
        cands = _thin(T, S, legal, seat, k, ply - k)
        m = _order(T, S, cands, seat, k, leader, ply, maximizing, np.int64(-1))
    # the first pass: each card a fair share of the budget left (all of it with no
    # budget); the second: the cards left unproven share the rest, resumed where they
    # stopped (the table keeps what their first tests proved)
    done = 0
    for ps in range(2):
        done = 0
        for i in range(m):
            c = S.moves[MAX_MOVES * ply + i] if all_cards else np.int64(-1)
            j = 3 * (52 if c < 0 else c)
            if S.mtd[j] < S.mtd[j + 1]:
                left = end - S.st[S_NODES]
                share = left // (m - i) if ps == 0 and limit > 0 else left
                _budget(S, S.st[S_NODES] + max(0, share))
                S.mtd[j + 2] = guess
                _mtdf(T, S, tt, pos, cnt, seat, c)
                if S.st[S_ABORT] == ABORT_STOP:
                    break
                if all_cards:
                    S.st[S_ABORT] = 0
            if S.mtd[j] == S.mtd[j + 1]:
                guess = S.mtd[j]
                done += 1
        if done == m or S.st[S_ABORT] == ABORT_STOP or not all_cards:
            break
    if done < m:
        S.st[S_BOUNDED] += 1
    if not all_cards:
        out[0, 52] = acc + S.mtd[3 * 52]
        out[1, 52] = acc + S.mtd[3 * 52 + 1]
        return
    blo = -INF if maximizing else INF
    bhi = -INF if maximizing else INF
    for i in range(m):
        c = S.moves[MAX_MOVES * ply + i]
        lo = S.mtd[3 * c]
        hi = S.mtd[3 * c + 1]
        out[0, c] = acc + lo
        out[1, c] = acc + hi
        if maximizing:
            blo = max(blo, lo)
            bhi = max(bhi, hi)
        else:
            blo = min(blo, lo)
            bhi = min(bhi, hi)
    # equivalent cards share the value of the card kept for them
    # (the card kept is the first plain legal card above it that was searched)
    plain = legal & ~p[K_HONMASK]
    dropped = legal & ~cands
    while dropped:
        c = lowest_index(dropped)
        dropped &= dropped - 1
        s = c // 13
        for r in range(c % 13 + 1, 13):
            d = s * 13 + r
            if (plain >> d) & 1 and out[0, d] < INF:
                out[0, c] = out[0, d]
                out[1, c] = out[1, d]
                break
    out[0, 52] = acc + blo
    out[1, 52] = acc + bhi


@njit(**KERNEL_JIT)
def solve_batch(T, S, tt, deals, play, n_play, root_side, all_cards, out):
    """Solve a batch of deals from the same play (one thread, one table, no allocation).

    Parameters
    ----------
    T : SolveTables
        The rules of the deals (one trump suit).
    S : SolveState
        Scratch of this thread. ``S.st[S_LIMIT]``: the node budget of one solve (0: none);
        ``S.st[S_FLAG]``: set it (from another thread) to stop the batch within
        ``CHECK_EVERY`` nodes, each deal left with the bounds proven so far (the deals
        after it searched for a moment only).
    tt : TTable
        The transposition table of this thread (entries of earlier solves are ignored).
    deals : int64 (n_deals, n_sets, n_seats)
        Card masks of every seat's sets as dealt.
    play : int64 (>= n_play,)
        The cards played so far (card indices), legal for every deal.
    n_play : int
    root_side : int
        The side whose score difference is computed; -1: the side of the player to move.
    all_cards : int
        1: the value of every legal card; 0: the best value only.
    out : int64 (n_deals, 2, 53)
        Per deal, the lower (``out[d, 0]``) and upper (``out[d, 1]``) bound of the value of
        each legal card at its card index (``INF`` = 30000 for cards that cannot be played)
        and of the best value at index 52; equal bounds: the exact value. Bounds differ only
        when a solve reached its node budget or the stop flag.

    Returns
    -------
    int
        Nodes searched. ``S.st[S_BOUNDED]`` counts the solves left with bounds (since the
        scratch was made); ``S.st[S_ABORT]`` = ``ABORT_STOP`` after a stop.
    """
    if S.st[S_FN] == 0:
        raise ValueError("S: not made by new_state (no search address)")
    if T.p[K_MODE] == MODE_HONOURS and S.st[S_HFN] == 0:
        raise ValueError("S: no address of the honours-only bounds (solve.ready)")
    n0 = S.st[S_NODES]
    for d in range(deals.shape[0]):
        _solve_one(T, S, tt, deals[d], play, n_play, root_side, all_cards, out[d])
    return S.st[S_NODES] - n0
