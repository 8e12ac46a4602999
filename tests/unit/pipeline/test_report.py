"""ipsoeval.pipeline.report: the page's options taken from leaderboard's and
sigtest's declarations (worded for the page), the page built without click,
and its warnings given before it is written."""

import pytest

from ipsoeval.analyses.leaderboard.options import Options as LeaderboardOptions
from ipsoeval.analyses.sigtest.common import Options as SigtestOptions
from ipsoeval.declare import Group, parse
from ipsoeval.pipeline import report as pipeline
from tests.conftest import TESTDATA, invoke

AD = TESTDATA / "adhoc"
FILES = [str(AD / "qrels.txt"), str(AD / "run-bm25.txt"), str(AD / "run-neural.txt")]
SAME = ("flags", "kind", "choices", "multiple", "default", "low", "high", "low_open",
        "high_open", "metavar")


@pytest.mark.parametrize("cls, dests", [
    (LeaderboardOptions, ("samples", "seed", "alpha", "ci")),
    (SigtestOptions, ("baseline", "tests", "correct")),
])
def test_shared_options_are_the_other_commands_declarations(cls, dests):
    theirs = {o.dest: o for o in Group(cls).opts()}
    for dest in dests:
        ours = pipeline.COMMAND.opt(dest)
        assert [getattr(ours, a) for a in SAME] == [getattr(theirs[dest], a) for a in SAME]


def test_from_values_is_the_page_of_the_command_line(tmp_path):
    argv = ["-m", "AP", "--samples", "200", "--pair", "bm25:neural", "--test", "t", *FILES]
    page = pipeline.from_values(parse(pipeline.COMMAND, argv))
    out = tmp_path / "r.html"
    code, _, err = invoke(["report", *argv, "-o", str(out)])
    assert code == 0 and out.read_text() == page.html
    assert page.warnings and all(w in err for w in page.warnings)


def test_nuggets_page_is_not_written_when_a_warning_is_fatal(tmp_path):
    # two runs with the same nugget assignments: no residual variance (a warning)
    lines = (TESTDATA / "nuggets" / "human.tsv").read_text().splitlines()
    same = [lines[0]] + [ln for ln in lines[1:] if ln.startswith("ragbase\t")]
    same += [ln.replace("ragbase\t", "ragcopy\t", 1) for ln in same[1:]]
    nuggets = tmp_path / "same.tsv"
    nuggets.write_text("\n".join(same) + "\n")
    out = tmp_path / "r.html"
    args = ["report", "--nuggets", str(nuggets), "-m", "nugget_vital_strict", "--samples", "50",
            "-o", str(out)]
    code, _, err = invoke([*args, "-W", "error"])
    assert code == 3 and "fatal under --warnings error" in err and not out.exists()
    code, _, err = invoke(args)
    assert code == 0 and out.exists() and "ipsoeval: warning: nugget_vital_strict:" in err
