"""Names of a package loaded on first use (its module ``__getattr__``), so
that importing the package stays cheap: ``import ipsoeval`` loads no part of
the API, ``import ipsoeval.reading`` no numpy.  A leaf: it imports nothing
of ipsoeval, and nothing that is not loaded already."""

from __future__ import annotations

import sys


def lazy_attributes(namespace: dict, sources):
    """The ``__getattr__`` and ``__dir__`` of the module whose globals are
    ``namespace``: a name in one of ``sources``' ``(names, module)`` pairs
    (the first that holds it) is the attribute of that module, imported on
    first use; ``__dir__`` lists the globals and ``__all__``.  The module
    names are written out in full, so the layout tests see them as imports."""
    package = namespace["__name__"]

    def __getattr__(name):
        for names, module in sources:
            if name in names:
                __import__(module)
                return getattr(sys.modules[module], name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__():
        return sorted(set(namespace) | set(namespace["__all__"]))

    return __getattr__, __dir__
