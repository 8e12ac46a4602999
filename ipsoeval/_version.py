"""The version, alone: every layer may read it without importing the package's API."""

__version__ = "0.2.0"


def version_line() -> str:
    """What ``ipsoeval --version`` prints: the version and which reading core
    this install has (the compiled one, or the pure-Python path of an install
    built without a C compiler; setup.py says so then)."""
    import importlib.util
    if importlib.util.find_spec("ipsoeval._core") is not None:
        core = "compiled core"
    else:
        core = "pure-Python core: built without a C compiler, reading is slower"
    return f"ipsoeval, version {__version__} ({core})"
