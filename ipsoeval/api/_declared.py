"""An API function from a command's declaration: its keyword arguments, their
defaults and its docstring's parameter list are the declaration's
(:func:`ipsoeval.declare.api_signature`), so an option added to a command is
an argument of the API function with no edit here."""

from __future__ import annotations

import functools


def declared(cmd, first: tuple = ("res",)):
    """Wrap ``func(*first, **kw)``: ``kw`` checked against ``cmd``'s API options
    (an unknown keyword is a TypeError) and completed with their defaults."""
    from ipsoeval.declare import api_doc, api_kwargs, api_opts, api_signature

    positional = {p[0] if isinstance(p, tuple) else p for p in first}

    def deco(func):
        defaults = {o.keyword: o.api_empty() for o in api_opts(cmd)}

        @functools.wraps(func)
        def wrapper(*args, **kw):
            api_kwargs(cmd, {k: v for k, v in kw.items() if k not in positional},
                       func.__name__)
            return func(*args, **{**defaults, **kw})

        wrapper.__signature__ = api_signature(cmd, first)
        wrapper.__doc__ = api_doc(cmd, func.__doc__ or "")
        wrapper.__wrapped__ = None
        del wrapper.__wrapped__
        return wrapper
    return deco
