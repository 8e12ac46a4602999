"""Stand-ins for the numpy modules a family module uses, so that its
declaration reads without importing them.

The registry of measure families is read by the quick paths (``ipsoeval
eval`` served by the compiled core, sigtest's quick path), which must not
import numpy: numpy's import alone costs more than their whole call.  A
family module therefore names numpy and the kernel helpers through these
stand-ins; the first kernel that runs imports them.

* :func:`module` stands for ``import NAME as ALIAS``: the first attribute
  read imports NAME and puts the module itself in the place of the stand-in,
  so the kernels' later reads cost what a plain global costs.
* :func:`functions` stands for a module whose functions a declaration
  names (``expected=E.e_precision``, ``ties=TI.invariant``): each attribute
  is a :class:`Deferred` callable, one object per function, so a test of
  identity (``fam.ties is TI.invariant``) holds wherever it is written.
"""

from __future__ import annotations

import importlib


class _Module:
    __slots__ = ("_name", "_namespace", "_alias")

    def __init__(self, name: str, namespace: dict, alias: str):
        self._name, self._namespace, self._alias = name, namespace, alias

    def __getattr__(self, attr: str):
        mod = importlib.import_module(self._name)
        if self._namespace.get(self._alias) is self:
            self._namespace[self._alias] = mod
        return getattr(mod, attr)

    def __repr__(self):
        return f"<lazy module {self._name!r}>"


def module(name: str, namespace: dict, alias: str):
    """``ALIAS = module(NAME, globals(), ALIAS)`` for ``import NAME as ALIAS``."""
    return _Module(name, namespace, alias)


class Deferred:
    """A function of another module, imported when first called."""

    __slots__ = ("module", "name", "_fn")

    def __init__(self, module: str, name: str):
        self.module, self.name, self._fn = module, name, None

    def resolve(self):
        if self._fn is None:
            self._fn = getattr(importlib.import_module(self.module), self.name)
        return self._fn

    def __call__(self, *args, **kwargs):
        return (self._fn or self.resolve())(*args, **kwargs)

    def __repr__(self):
        return f"<deferred {self.module}.{self.name}>"


_deferred: dict[tuple[str, str], Deferred] = {}


def function(module: str, name: str) -> Deferred:
    """The one :class:`Deferred` of ``module.name``."""
    key = (module, name)
    got = _deferred.get(key)
    if got is None:
        got = _deferred[key] = Deferred(module, name)
    return got


class _Functions:
    __slots__ = ("_module",)

    def __init__(self, module: str):
        self._module = module

    def __getattr__(self, name: str) -> Deferred:
        if name.startswith("__"):
            raise AttributeError(name)
        return function(self._module, name)


def functions(module: str) -> _Functions:
    """``E = functions("ipsoeval.measures.expected")``: ``E.f`` is :func:`function`'s."""
    return _Functions(module)
