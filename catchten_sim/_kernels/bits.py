"""Bit tricks on int64 card masks: popcount, lowest set bit, k-th set bit, and the RNG.

Under numba these are LLVM intrinsics (``llvm.ctpop``, ``llvm.cttz`` and, where the CPU
has BMI2, ``llvm.x86.bmi.pdep.64``). With ``NUMBA_DISABLE_JIT=1`` the same names are
plain Python functions, so the kernels run (slowly) as Python for debugging.

Masks are int64 (cards use bits 0..51, so the sign bit is never set); the random number
generator works on uint64 and hands out int64.
"""
from __future__ import annotations

import os

import numba
import numpy as np
from numba import njit

#: every JIT option comes from here (DESIGN.md §3); CATCHTEN_NO_CACHE=1 turns the on-disk
#: cache off, for inspecting the generated code
JIT = dict(cache=not os.environ.get("CATCHTEN_NO_CACHE"), nogil=True, fastmath=False,
           error_model="numpy")

U64 = np.uint64
_GAMMA = U64(0x9E3779B97F4A7C15)
_M1 = U64(0xBF58476D1CE4E5B9)
_M2 = U64(0x94D049BB133111EB)
_S30 = U64(30)
_S27 = U64(27)
_S31 = U64(31)
_S32 = U64(32)
_S12 = U64(12)
_S25 = U64(25)
_MSTAR = U64(0x2545F4914F6CDD1D)

if numba.config.DISABLE_JIT:
    import warnings

    # numpy uint64 scalars wrap like the compiled code but warn; the wrap is intended
    warnings.filterwarnings("ignore", "overflow encountered", RuntimeWarning)

    def popcount(x):
        return int(x).bit_count()

    def lowest_index(x):
        x = int(x)
        return (x & -x).bit_length() - 1

    def highest_index(x):
        return int(x).bit_length() - 1

    def select_bit(m, k):
        m = int(m)
        for _ in range(int(k)):
            m &= m - 1
        return m & -m

    HAVE_PDEP = False
else:
    from llvmlite import binding as _llvm
    from llvmlite import ir as _ir
    from numba.core import cgutils as _cgutils
    from numba.core import types as _types
    from numba.extending import intrinsic as _intrinsic

    try:
        HAVE_PDEP = "+bmi2" in _llvm.get_host_cpu_features().flatten().split(",")
    except Exception:  # pragma: no cover - unusual platforms
        HAVE_PDEP = False

    @_intrinsic
    def _ctpop(typingctx, x):
        sig = _types.int64(_types.int64)

        def codegen(context, builder, signature, args):
            return builder.ctpop(args[0])
        return sig, codegen

    @_intrinsic
    def _cttz(typingctx, x):
        sig = _types.int64(_types.int64)

        def codegen(context, builder, signature, args):
            return builder.cttz(args[0], _ir.Constant(_ir.IntType(1), 0))
        return sig, codegen

    @_intrinsic
    def _ctlz(typingctx, x):
        sig = _types.int64(_types.int64)

        def codegen(context, builder, signature, args):
            return builder.ctlz(args[0], _ir.Constant(_ir.IntType(1), 0))
        return sig, codegen

    @_intrinsic
    def _pdep(typingctx, src, mask):
        sig = _types.int64(_types.int64, _types.int64)

        def codegen(context, builder, signature, args):
            fnty = _ir.FunctionType(_ir.IntType(64), [_ir.IntType(64), _ir.IntType(64)])
            fn = _cgutils.get_or_insert_function(builder.module, fnty, "llvm.x86.bmi.pdep.64")
            return builder.call(fn, args)
        return sig, codegen

    @njit(inline="always", **JIT)
    def popcount(x):
        return _ctpop(np.int64(x))

    @njit(inline="always", **JIT)
    def lowest_index(x):
        return _cttz(np.int64(x))

    @njit(inline="always", **JIT)
    def highest_index(x):
        return 63 - _ctlz(np.int64(x))

    if HAVE_PDEP:
        @njit(inline="always", **JIT)
        def select_bit(m, k):
            return _pdep(np.int64(1) << k, m)
    else:
        @njit(inline="always", **JIT)
        def select_bit(m, k):
            for _ in range(k):
                m &= m - 1
            return m & -m


@njit(inline="always", **JIT)
def mix64(z):
    """splitmix64 finaliser of a uint64."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(inline="always", **JIT)
def rng_seed(seed, stream):
    """Non-zero uint64 state for (seed, stream): counter-based, so a deal's random numbers
    depend only on the seed and the deal's number, never on threads or chunks."""
    z = mix64(U64(seed) ^ mix64(U64(stream) * _GAMMA + _GAMMA))
    if z == U64(0):
        z = _GAMMA
    return z


@njit(inline="always", **JIT)
def _next(state):
    """xorshift64* (Vigna) step on a 1-element uint64 state array."""
    x = state[0]
    x ^= x >> _S12
    x ^= x << _S25
    x ^= x >> _S27
    state[0] = x
    return x * _MSTAR


@njit(inline="always", **JIT)
def rng_below(state, n):
    """A uniform int in [0, n) (multiply-shift on the high 32 bits; bias at most n / 2**32)."""
    return np.int64(((_next(state) >> _S32) * U64(n)) >> _S32)


@njit(inline="always", **JIT)
def rng_uniform(state):
    """A uniform float in [0, 1) with 53 random bits."""
    return np.float64(_next(state) >> U64(11)) * (1.0 / 9007199254740992.0)
