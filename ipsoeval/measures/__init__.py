"""Measures: names, definitions, scale types and kernels.

Each measure family is declared once, with its kernel, in a module of
``ipsoeval/measures/families/`` (see :class:`~ipsoeval.measures.family.Family`);
:mod:`~ipsoeval.measures.registry` collects them and
:mod:`~ipsoeval.measures.names` parses every spelling of a measure --
canonical ``Name(param=value)@cutoff``, trec_eval's names and ``-m``
arguments (``P.5,10``, ``official``, ``all_trec``, ``set``), ir_measures'
names -- into hashable :class:`Measure` objects.
"""

from __future__ import annotations

from ipsoeval.measures.family import FAMILIES, Family, Measure, Requested
from ipsoeval.measures.names import MeasureArg, expand, expand_all, parse_measure
from ipsoeval.measures.registry import catalogue, register, unregister

__all__ = ["FAMILIES", "Family", "Measure", "Requested", "MeasureArg", "expand", "expand_all",
           "parse_measure", "catalogue", "register", "unregister"]
