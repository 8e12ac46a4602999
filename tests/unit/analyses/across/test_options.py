"""ipsoeval/analyses/across/options.py: across's options and their checks."""

from __future__ import annotations

import pytest

from ipsoeval.analyses.across.options import MAX_SAMPLES, Options
from ipsoeval.errors import UsageError


def test_the_checks():
    Options().check()
    with pytest.raises(UsageError, match="--effect must be one of md, smd"):
        Options(effect="d").check()
    with pytest.raises(UsageError, match="--method must be one of reml, dl, pm"):
        Options(method="ml").check()
    with pytest.raises(UsageError):
        Options(samples=MAX_SAMPLES + 1).check()


def test_the_params_name_every_option():
    assert set(Options().as_params()) == {"baseline", "effect", "method", "alpha", "samples",
                                          "seed", "correct"}
