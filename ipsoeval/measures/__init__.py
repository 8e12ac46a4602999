"""Measures: names, definitions, scale types and kernels.

Each measure family is declared once, with its kernel, in a module of
``ipsoeval/measures/families/`` (see :class:`~ipsoeval.measures.family.Family`);
:mod:`~ipsoeval.measures.registry` collects them and
:mod:`~ipsoeval.measures.names` parses every spelling of a measure --
canonical ``Name(param=value)@cutoff``, trec_eval's names and ``-m``
arguments (``P.5,10``, ``official``, ``all_trec``, ``set``), ir_measures'
names -- into hashable :class:`Measure` objects.

The registry is read on import (it is numpy-free data: the quick paths
read it too); the other names are loaded when first read, so that the quick
paths import neither the name parser (``re``) nor :class:`Measure` (numpy).
"""

from __future__ import annotations

from ipsoeval.measures.family import FAMILIES, Family
from ipsoeval.measures.registry import catalogue, register, unregister

_WHERE = {"Measure": "measure", "Requested": "measure", "MeasureArg": "names",
          "expand": "names", "expand_all": "names", "parse_measure": "names"}

__all__ = ["FAMILIES", "Family", "catalogue", "register", "unregister", *_WHERE]


def __getattr__(name: str):
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib
    return getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
