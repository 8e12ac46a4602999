"""The analyses, one package per subcommand.

A package's ``__init__`` holds only what the command line declares its options
with (test names, methods: no numpy); the rest of the package's names load
with its ``report`` module on first use (:func:`load_on_use`), so that
``ipsoeval CMD --help`` is instant.
"""

from __future__ import annotations


def load_on_use(package: str, module: str = "report"):
    """A module ``__getattr__`` for the analysis package ``package``: a name
    not defined in the package is looked up in ``package.module``, imported on
    first use."""
    def __getattr__(name: str):
        if name.startswith("__"):
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        import importlib
        mod = importlib.import_module(f"{package}.{module}")
        try:
            return getattr(mod, name)
        except AttributeError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
    return __getattr__
