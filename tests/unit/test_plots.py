"""--plot FILE: each command draws a non-blank figure (the 'plot' extra)."""

import sys

import pytest

from tests.conftest import TESTDATA, invoke

try:
    import matplotlib  # noqa: F401
    HAVE_MPL = True
except ImportError:
    HAVE_MPL = False
needs_mpl = pytest.mark.skipif(
    not HAVE_MPL, reason="matplotlib (the 'plot' extra) is not installed; make test installs it")

M = TESTDATA / "msmarco"
F = TESTDATA / "ipso-fig5"
A = TESTDATA / "adhoc"
MSM3 = [M / "qrels.txt", M / "baseline.run.xz", M / "better-ranking.run.xz",
        M / "fewer-answers.run.xz"]

CASES = {
    "sigtest": ["sigtest", "-m", "RR@10", "-m", "nDCG@10", *MSM3],
    "bootstrap": ["bootstrap", "-m", "RR@10", "--samples", "200", *MSM3],
    "leaderboard": ["leaderboard", "-m", "RR@10", "-m", "P@10", "--samples", "200", *MSM3],
    "breakdown": ["breakdown", "-q", *MSM3],
    "ipso": ["ipso", "-m", "P@10", F / "qrels.txt", F / "sysA.run", F / "sysB.run"],
    "interval-map": ["interval-map", "-m", "P@10", "-m", "RR@10", A / "qrels.txt",
                     A / "run-bm25.txt", A / "run-neural.txt"],
}


@needs_mpl
@pytest.mark.parametrize("case", sorted(CASES))
def test_plot_renders(tmp_path, case):
    from matplotlib.image import imread
    path = tmp_path / f"{case}.png"
    args = CASES[case]
    code, out, err = invoke([args[0], "--format", "tsv", "--plot", path, *args[1:]])
    assert code == 0, err
    _, plain, _ = invoke([args[0], "--format", "tsv", *args[1:]])
    assert out == plain                       # the plot changes nothing printed
    assert path.stat().st_size > 10_000
    img = imread(str(path))
    assert img.shape[0] > 200 and img.shape[1] > 400
    rgb = img[..., :3]
    assert float(rgb.std()) > 0.05                               # not blank
    assert float((rgb.min(axis=2) < 0.5).mean()) > 0.01          # ink on the page


@needs_mpl
@pytest.mark.parametrize("ext", ["svg", "pdf"])
def test_plot_formats_by_extension(tmp_path, ext):
    path = tmp_path / f"b.{ext}"
    code, _, err = invoke(["breakdown", "--plot", path, *MSM3])
    assert code == 0, err
    head = path.read_bytes()[:200]
    assert (b"<svg" in head or b"<?xml" in head) if ext == "svg" else head.startswith(b"%PDF")


@needs_mpl
def test_plot_on_scores(tmp_path):
    code, out, _ = invoke(["eval", "-q", "--queries", "qrels", "--format", "tsv", "-m", "RR@10",
                           *MSM3])
    s = tmp_path / "s.tsv"
    s.write_text(out)
    code, _, err = invoke(["sigtest", "-m", "RR@10", "--scores", "--plot", tmp_path / "p.png", s])
    assert code == 0, err and (tmp_path / "p.png").stat().st_size > 10_000


def test_plot_usage_errors(tmp_path, monkeypatch):
    code, _, err = invoke(["breakdown", "--plot", tmp_path / "x.jpg", *MSM3])
    assert code == 2 and "must end in .svg, .png or .pdf" in err
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    code, _, err = invoke(["breakdown", "--plot", tmp_path / "x.png", *MSM3])
    assert code == 2 and "pip install 'ipsoeval[plot]'" in err
    assert not (tmp_path / "x.png").exists()
