"""Run a block of code with the BLAS library numpy uses limited to one thread.

The resampling tests do thousands of small matrix products; a multi-threaded
OpenBLAS spends more time waking threads than computing them (ten times slower
on a busy 2-core machine), and one thread also fixes the summation order, so
results do not depend on the thread count.  When the OpenBLAS thread-control
functions cannot be found this is a no-op.
"""

from __future__ import annotations

import contextlib
import ctypes
import glob
import os

import numpy as np

_CANDIDATES = (
    ("scipy_openblas_get_num_threads64_", "scipy_openblas_set_num_threads64_"),
    ("scipy_openblas_get_num_threads", "scipy_openblas_set_num_threads"),
    ("openblas_get_num_threads64_", "openblas_set_num_threads64_"),
    ("openblas_get_num_threads", "openblas_set_num_threads"),
)

_funcs: tuple | None = None
_looked = False


def _find() -> tuple | None:
    global _funcs, _looked
    if _looked:
        return _funcs
    _looked = True
    libdir = os.path.join(os.path.dirname(os.path.dirname(np.__file__)), "numpy.libs")
    paths = sorted(glob.glob(os.path.join(libdir, "*openblas*")))
    try:
        with open("/proc/self/maps", encoding="ascii", errors="replace") as fh:
            for line in fh:
                part = line.split()
                if part and "openblas" in part[-1] and part[-1] not in paths:
                    paths.append(part[-1])
    except OSError:
        pass
    for path in paths:
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for get_name, set_name in _CANDIDATES:
            getter = getattr(lib, get_name, None)
            setter = getattr(lib, set_name, None)
            if getter is not None and setter is not None:
                getter.restype = ctypes.c_int
                setter.argtypes = [ctypes.c_int]
                _funcs = (getter, setter)
                return _funcs
    return None


@contextlib.contextmanager
def single_thread():
    funcs = _find()
    if funcs is None:
        yield
        return
    getter, setter = funcs
    before = getter()
    setter(1)
    try:
        yield
    finally:
        setter(max(1, before))
