"""ipsoeval/api/_declared.py: an API function from a command's declaration."""

from __future__ import annotations

import inspect

import pytest

from ipsoeval.declare import Command, option, options


@options
class _One:
    level: int = option("--level", kind="int", default=3, help="A level.")


def test_positional_parameters_with_defaults_may_be_given_by_name():
    from ipsoeval.api._declared import declared
    cmd = Command("x", "X.", (), (_One,))
    f = declared(cmd, first=("a", ("b", None)))(lambda a, b=None, **kw: (a, b, kw))
    params = inspect.signature(f).parameters
    assert params["b"].default is None and params["a"].default is inspect.Parameter.empty
    assert params["level"].kind is inspect.Parameter.KEYWORD_ONLY
    assert f(1) == (1, None, {"level": 3})
    assert f(1, b=2, level=4) == (1, 2, {"level": 4})
    assert f(a=1) == (1, None, {"level": 3})
    with pytest.raises(TypeError, match="'levl'"):
        f(1, levl=4)
