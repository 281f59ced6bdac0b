"""Bit tricks on int64 card masks: popcount, lowest set bit, k-th set bit, bit compression
and expansion (``pext``, ``pdep``), and the RNG.

Under numba these are LLVM intrinsics (``llvm.ctpop``, ``llvm.cttz`` and, where the CPU
has BMI2, ``llvm.x86.bmi.pdep.64`` and ``llvm.x86.bmi.pext.64``). With
``NUMBA_DISABLE_JIT=1`` the same names are plain Python functions, so the kernels run
(slowly) as Python for debugging.

Masks are int64 (cards use bits 0..51, so the sign bit is never set); the random number
generator (SplitMix64, counter-based) works on uint64 and hands out int64.
"""
from __future__ import annotations

import os
from typing import Any

import numba

import numpy as np
from numba import njit

#: every JIT option comes from here (DESIGN.md §3); CATCHTEN_NO_CACHE=1 turns the on-disk
#: cache off, for inspecting the generated code
JIT: dict[str, Any] = dict(cache=not os.environ.get("CATCHTEN_NO_CACHE"), nogil=True,
                           fastmath=False, error_model="numpy")
#: the entry kernels: no reference counting (``_nrt=False``). With it, every array that
#: reaches an ``inline="always"`` helper is increfed and decrefed (atomic operations, ~2 ns
#: each) at every call, which cost more than the playing itself; so the kernels allocate
#: nothing and their Python wrappers pass in every array (scratch included).
KERNEL_JIT: dict[str, Any] = dict(JIT, _nrt=False)
#: a helper typed and compiled once, as its own function, and inlined by LLVM at every call
#: (``forceinline``: LLVM's ``alwaysinline``): the code of ``inline="always"`` without its
#: compile time (that inlines numba's IR at each call site, so every copy is translated and
#: typed again: the solver's cold compile halved, docs/speed.md "First compiles"); with
#: no wrappers to call it from Python (they cost as much to compile as a small helper)
INLINE_JIT: dict[str, Any] = dict(KERNEL_JIT, forceinline=True, no_cpython_wrapper=True,
                                  no_cfunc_wrapper=True)
#: the same, callable from Python too (the helpers the tests check one by one)
INLINE_PY_JIT: dict[str, Any] = dict(KERNEL_JIT, forceinline=True)

U64 = np.uint64
#: ``a[ix(i)]``: an array index known to be >= 0, as uint64, so that numba skips the
#: negative-index wraparound (a sign test, a load of the length and an add per access)
ix = np.uint64
_GAMMA = U64(0x9E3779B97F4A7C15)
_M1 = U64(0xBF58476D1CE4E5B9)
_M2 = U64(0x94D049BB133111EB)
_S30 = U64(30)
_S27 = U64(27)
_S31 = U64(31)
_S32 = U64(32)


@njit(inline="always", **JIT)
def _compress_loop(x, m):
    """The bits of ``x`` at the set bits of ``m``, packed low (``pext`` without BMI2)."""
    r = np.int64(0)
    j = 0
    while m:
        low = m & -m
        if x & low:
            r |= np.int64(1) << j
        j += 1
        m &= m - 1
    return r


@njit(inline="always", **JIT)
def _expand_loop(x, m):
    """The low bits of ``x`` placed at the set bits of ``m`` (``pdep`` without BMI2)."""
    r = np.int64(0)
    j = 0
    while m:
        low = m & -m
        if (x >> j) & 1:
            r |= low
        j += 1
        m &= m - 1
    return r


if numba.config.DISABLE_JIT:  # type: ignore[attr-defined]
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

    compress = _compress_loop
    expand = _expand_loop

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

    def _bmi2(name):
        """An intrinsic calling the BMI2 instruction ``name`` on two int64."""
        @_intrinsic
        def call(typingctx, src, mask):
            sig = _types.int64(_types.int64, _types.int64)

            def codegen(context, builder, signature, args):
                fnty = _ir.FunctionType(_ir.IntType(64), [_ir.IntType(64), _ir.IntType(64)])
                fn = _cgutils.get_or_insert_function(builder.module, fnty, name)
                return builder.call(fn, args)
            return sig, codegen
        return call

    _pdep = _bmi2("llvm.x86.bmi.pdep.64")
    _pext = _bmi2("llvm.x86.bmi.pext.64")

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

    if HAVE_PDEP:
        @njit(inline="always", **JIT)
        def compress(x, m):
            """The bits of ``x`` at the set bits of ``m``, packed low (BMI2 ``pext``)."""
            return _pext(np.int64(x), np.int64(m))

        @njit(inline="always", **JIT)
        def expand(x, m):
            """The low bits of ``x`` placed at the set bits of ``m`` (BMI2 ``pdep``)."""
            return _pdep(np.int64(x), np.int64(m))
    else:
        compress = _compress_loop
        expand = _expand_loop


def _emit_call(context: Any, builder: Any, fn: Any, rt: Any, argtys: Any, args: Any) -> Any:
    """A call of the numba function ``fn`` (its exceptions passed on); its result."""
    from numba.core import cgutils
    status, res = context.call_conv.call_function(builder, fn, rt, argtys, args)
    with cgutils.if_unlikely(builder, status.is_error):
        context.call_conv.return_status_propagate(builder, status)
    return res


def root_call(kernel: Any, restype: str) -> Any:
    """``kernel()`` (a late-bound njit function of seven arguments returning ``restype``:
    the solver's search) called from inside itself without numba seeing a recursive call
    (numba types a recursive call by typing the whole function again at each one it
    resolves: about 1.3 s of the solver's cold compile), and from its callers through its
    address. The eighth argument, ``addr`` (int64), is the address of the kernel's compiled
    code for these argument types (:func:`kernel_address`). Lowered in the kernel's own
    compile, this calls the function being lowered (``addr`` unused); elsewhere, a call
    through ``addr``, so the caller neither links nor optimises the kernel's module again
    and a cached caller holds no reference to its symbol. The arguments must have the
    kernel's own types. With ``NUMBA_DISABLE_JIT=1``: a plain call."""
    if numba.config.DISABLE_JIT:  # type: ignore[attr-defined]
        def plain(a0, a1, a2, a3, a4, a5, a6, addr):
            return kernel()(a0, a1, a2, a3, a4, a5, a6)
        return plain
    from numba.core import types
    from numba.extending import intrinsic

    @intrinsic
    def call(typingctx, a0, a1, a2, a3, a4, a5, a6, addr):
        disp = kernel()
        argtys = tuple(types.unliteral(a) for a in (a0, a1, a2, a3, a4, a5, a6))
        sig = getattr(types, restype)(*argtys, types.int64)

        def codegen(context, builder, signature, llargs):
            rt = signature.return_type
            want = context.call_conv.get_function_type(rt, argtys)
            if disp._compiling_counter:
                fn = builder.function
                if fn.function_type != want:
                    raise TypeError(f"root_call: {fn.name} is not {disp.__name__}{argtys}")
            else:
                fn = builder.inttoptr(llargs[7], want.as_pointer())
            return _emit_call(context, builder, fn, rt, argtys, llargs[:7])
        return sig, codegen
    return call


def address_call(kernel: Any, restype: Any) -> Any:
    """``kernel()`` (a late-bound njit function of nine arguments returning the numba type
    ``restype``) called through an address given as a tenth argument (int64:
    :func:`kernel_address` for the arguments' types). The caller neither types, links nor
    compiles the kernel: it is compiled (or loaded from the cache) only when its address
    is taken, so code a run never reaches is never compiled (the solver's honours-only
    bounds, in a solve with card points). The arguments must have the kernel's own types.
    With ``NUMBA_DISABLE_JIT=1``: a plain call."""
    if numba.config.DISABLE_JIT:  # type: ignore[attr-defined]
        def plain(a0, a1, a2, a3, a4, a5, a6, a7, a8, addr):
            return kernel()(a0, a1, a2, a3, a4, a5, a6, a7, a8)
        return plain
    from numba.core import types
    from numba.extending import intrinsic

    @intrinsic
    def call(typingctx, a0, a1, a2, a3, a4, a5, a6, a7, a8, addr):
        argtys = tuple(types.unliteral(a) for a in (a0, a1, a2, a3, a4, a5, a6, a7, a8))
        sig = restype(*argtys, types.int64)

        def codegen(context, builder, signature, llargs):
            want = context.call_conv.get_function_type(restype, argtys)
            fn = builder.inttoptr(llargs[9], want.as_pointer())
            return _emit_call(context, builder, fn, restype, argtys, llargs[:9])
        return sig, codegen
    return call


def kernel_address(kernel: Any, argtys: tuple) -> int:
    """The address of ``kernel``'s compiled code for ``argtys`` (compiled, or loaded from
    the cache, first), for :func:`root_call`; 1 with ``NUMBA_DISABLE_JIT=1``."""
    if numba.config.DISABLE_JIT:  # type: ignore[attr-defined]
        return 1
    kernel.compile(argtys)
    cres = kernel.overloads[argtys]
    return int(cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name))


@njit(inline="always", **JIT)
def mix64(z):
    """splitmix64 finaliser of a uint64."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


# The generator is SplitMix64 (Steele, Lea & Flood 2014): the state is a Weyl sequence
# s, s + g, s + 2g, … and each output is mix64 of it. Deal ``i`` of seed ``k`` draws the
# block of _BLOCK_DRAWS consecutive outputs starting at mix64(k ^ _SEED_SALT) + i*_BLOCK_DRAWS*g:
# counter-based (a deal's numbers depend only on the seed and its number), no two deals
# share a number (a deal uses fewer than 2 * 52 draws), and the state update is one
# addition, so successive draws do not wait for each other (a xorshift step is a chain
# of six dependent instructions per draw).
_BLOCK_DRAWS = 256
_BLOCK = U64((_BLOCK_DRAWS * 0x9E3779B97F4A7C15) % 2 ** 64)
_SEED_SALT = U64(0x5851F42D4C957F2D)


@njit(inline="always", **JIT)
def rng_seed(seed, stream):
    """The uint64 state for the first draw of stream ``stream`` (a deal's number) of
    ``seed``."""
    return mix64(U64(seed) ^ _SEED_SALT) + U64(stream) * _BLOCK


@njit(inline="always", **JIT)
def rng_step(s):
    """One SplitMix64 draw from a uint64 state held in a local variable.

    Returns ``(new_state, output)``; the kernels keep the state in a register this way.
    """
    s = s + _GAMMA
    return s, mix64(s)


@njit(inline="always", **JIT)
def rng_below_s(s, n):
    """``(new_state, r)`` with ``r`` uniform in [0, n) (multiply-shift on the high 32 bits;
    bias at most n / 2**32)."""
    s, x = rng_step(s)
    return s, np.int64(((x >> _S32) * U64(n)) >> _S32)


@njit(inline="always", **JIT)
def _next(state):
    """:func:`rng_step` on a 1-element uint64 state array."""
    s, x = rng_step(state[0])
    state[0] = s
    return x


@njit(inline="always", **JIT)
def rng_below(state, n):
    """A uniform int in [0, n) from a 1-element state array (as :func:`rng_below_s`)."""
    return np.int64(((_next(state) >> _S32) * U64(n)) >> _S32)


@njit(inline="always", **JIT)
def rng_uniform(state):
    """A uniform float in [0, 1) with 53 random bits."""
    return np.float64(_next(state) >> U64(11)) * (1.0 / 9007199254740992.0)
