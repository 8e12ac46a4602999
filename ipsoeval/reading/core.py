"""The compiled core (``ipsoeval/_core.c``, module ``ipsoeval._core``): loaded
once, checked against the interface version this Python code speaks, and
switched by ``IPSOEVAL_CORE`` (:func:`enabled`).

No numpy here: the quick path (:mod:`ipsoeval.reading.quick`) imports this
module to decide, before ``import numpy``, whether C can serve the call.
``CORE`` is None when the extension was not built (no C compiler: the Python
reader serves) or is a stale build (rebuild with ``make install``).  Besides
the readers, the randomised Tukey HSD (:mod:`ipsoeval.stats.randhsd`) takes
its samples from the extension: this module is its one handle.
"""

import os

CORE_API = 11   # the compiled core's interface version (CORE_API in _core.c)

try:
    from ipsoeval import _core as CORE
    if getattr(CORE, "API", None) != CORE_API:   # a stale build
        CORE = None
except ImportError:  # built without a C compiler: the Python path serves
    CORE = None


def enabled() -> bool:
    """Whether the compiled core serves: ``IPSOEVAL_CORE=python`` says no,
    ``IPSOEVAL_CORE=c`` requires it (a usage error when it is not built), the
    default uses it when it was built."""
    mode = os.environ.get("IPSOEVAL_CORE", "auto")
    if mode == "python":
        return False
    if mode == "c" and CORE is None:
        from ipsoeval.errors import UsageError
        raise UsageError("IPSOEVAL_CORE=c but the compiled core is not built "
                         "(reinstall with a C compiler)")
    return CORE is not None
