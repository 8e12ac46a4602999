"""Shared statistics layer: significance tests, corrections, omnibus tests.

Never prints; pure numpy/scipy.  See :mod:`ipsoeval.stats.tests`.
"""
