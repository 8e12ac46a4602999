"""The compiled core (``ipsoeval/_core.c``, module ``ipsoeval._core``): loaded
once, checked against the interface version this Python code speaks.

No numpy here: the quick path (:mod:`ipsoeval.reading.quick`) imports this
module to decide, before ``import numpy``, whether C can serve the call.
``CORE`` is None when the extension was not built (no C compiler: the Python
reader serves) or is a stale build (rebuild with ``make install``).
"""

CORE_API = 7   # the compiled core's interface version (CORE_API in _core.c)

try:
    from ipsoeval import _core as CORE
    if getattr(CORE, "API", None) != CORE_API:   # a stale build
        CORE = None
except ImportError:  # built without a C compiler: the Python path serves
    CORE = None
