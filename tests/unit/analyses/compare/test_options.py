"""compare's options: its samples, limits and interval level are those the
commands reporting each procedure alone declare (sigtest's tests,
leaderboard's randomised Tukey HSD and t interval), not copies."""

from __future__ import annotations

import pytest

from ipsoeval.analyses.compare.options import Options
from ipsoeval.analyses.leaderboard import options as leaderboard
from ipsoeval.analyses.sigtest import common as sigtest
from ipsoeval.errors import UsageError


def test_defaults_are_sigtest_and_leaderboard_declarations():
    o = Options()
    assert o.test_samples() == sigtest.Options().samples
    assert o.hsd_samples() == leaderboard.Options().samples
    from ipsoeval.analyses.compare.options import CI_LEVEL
    assert CI_LEVEL == leaderboard.Options().ci


def test_samples_limit_is_the_procedure_s_own():
    Options(samples=leaderboard.MAX_SAMPLES).check(["a", "b"])
    with pytest.raises(UsageError):
        Options(marks="groups", samples=leaderboard.MAX_SAMPLES + 1).check(["a", "b"])
    Options(marks="pairs", samples=leaderboard.MAX_SAMPLES + 1).check(["a", "b"])
    with pytest.raises(UsageError):
        Options(marks="pairs", samples=sigtest.MAX_SAMPLES + 1).check(["a", "b"])
