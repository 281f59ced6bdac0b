"""numba kernels: arrays and ints in, arrays and ints out (DESIGN.md §3).

Stale caches: numba checks a cached kernel against a hash of the one file that defines it,
not of the files whose functions it inlines (``_run_policies`` of ``engine.py`` inlines
``policy.py``, ``trick.py`` ...): after an edit or an upgrade that changed ``policy.py``
alone, the compiled ``_run_policies`` of the old code would still be loaded. So the kernels of
this package are cached with a stamp that is the hash of *every* kernel file
(:func:`kernel_fingerprint`): any change to any of them recompiles every kernel. This is
done with cache locators of our own, placed first in numba's list; files outside this
package keep numba's own locators.
"""
from __future__ import annotations

import functools
import hashlib
import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent


@functools.lru_cache(maxsize=1)
def kernel_fingerprint() -> bytes:
    """sha256 (32 bytes) of the names and contents of every ``_kernels/*.py`` file."""
    h = hashlib.sha256()
    for f in sorted(_HERE.glob("*.py")):
        h.update(f.name.encode())
        h.update(f.read_bytes())
    return h.digest()


def _ours(py_file: str) -> bool:
    try:
        return Path(py_file).resolve().parent == _HERE
    except OSError:
        return False


def _install_locators() -> None:
    try:
        from numba.core import caching
        bases = [caching.UserProvidedCacheLocator, caching.InTreeCacheLocator,
                 caching.UserWideCacheLocator]
        # CacheImpl (numba >= 0.68), _CacheImpl before
        impl = vars(caching).get("CacheImpl") or vars(caching)["_CacheImpl"]
    except (ImportError, AttributeError, KeyError):  # pragma: no cover - another numba
        return
    mine = []
    for base in bases:
        def from_function(cls, py_func, py_file, _base=base):
            if not _ours(py_file):
                return None
            # numba's own choice among the three (a user cache dir, the source tree's
            # __pycache__ when writable, else the user-wide cache), with our stamp
            return _base.from_function.__func__(cls, py_func, py_file)

        mine.append(type(f"Kernel{base.__name__}", (base,), {
            "get_source_stamp": lambda self: kernel_fingerprint(),
            "from_function": classmethod(from_function)}))
    if not any(getattr(c, "__name__", "").startswith("Kernel") for c in impl._locator_classes):
        impl._locator_classes = mine + list(impl._locator_classes)


class _SkipBlasProbe:
    """Start-up: numba's first kernel load imports ``numba.np.arraymath``, whose module-level
    BLAS probe (``_check_blas``) imports ``scipy.linalg``: 75-135 ms of a 1.5 s ``catchten
    advise``. The probe only chooses the inner loop of ``np.correlate``/``np.convolve``
    (``_HAVE_BLAS``); ``np.dot`` and ``np.linalg`` probe again when they are compiled, and no
    kernel of ours uses any of them. So while that one probe runs with ``scipy.linalg`` not yet
    imported, this finder makes its import fail (the probe catches it) and then removes
    itself; scipy imports normally afterwards (``aggregate`` uses ``scipy.stats``)."""

    def find_spec(self, name, path=None, target=None):
        if not name.startswith("scipy.linalg"):
            return None
        f = sys._getframe(1)
        while f is not None:
            if f.f_code.co_name == "_check_blas" and "numba" in f.f_code.co_filename:
                self.remove()
                raise ImportError("scipy skipped for numba's BLAS probe (catchten_sim start-up)")
            f = f.f_back
        return None

    def remove(self) -> None:
        if self in sys.meta_path:
            sys.meta_path.remove(self)


_install_locators()
if "scipy.linalg" not in sys.modules and "numba.np.arraymath" not in sys.modules:
    sys.meta_path.insert(0, _SkipBlasProbe())
