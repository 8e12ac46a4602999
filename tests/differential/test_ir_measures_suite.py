"""ir_measures 0.4.3's own test suite, run with ipsoeval as the provider of
every measure it supports (ipsoeval.ir_measures_provider).

The suite is not in the repository: it is downloaded at test time, as the
sdist on PyPI (``pip download --no-binary :all: --no-deps
ir_measures==0.4.3``), cached under pytest's cache directory (or its base
temporary directory when the cache is off), and the tests skip, saying why,
when it cannot be had (offline).  The sdist lacks two things its tests read:
``tests/base.py`` (the ``assertMetrics`` helper of test_pytrec_eval.py) is
written here from what it checks -- both lists sorted, the same length, each
pair the same topic and measure and values equal to ``places`` decimals, or
unequal with ``not_equal`` --, and the data files of test_compat.py and
test_cwl_eval.py (``compat.qrels``, ``cwl.qrels``, ...) are not there at all,
so those two tests skip.

How a test is made to use ipsoeval: each provider the suite reaches by name
(``ir_measures.pytrec_eval``, ``ir_measures.gdeval``, ...) or by class
(``ir_measures.providers.PytrecEvalProvider()``) becomes a fallback pipeline
of ipsoeval first and that provider second, and ipsoeval is put first in
``ir_measures.DefaultPipeline`` -- so every measure ipsoeval supports is
computed by ipsoeval, and the rest by the provider the test named.
test_providers.py's one test checks nine providers at once; it runs once per
provider, with only that provider (or the default pipeline) served by
ipsoeval, so that a difference of one provider does not hide the others.

A provider not installed here (trectools: not in the test extra)
has ipsoeval serving what it supports in every run, as it cannot serve
anything itself; a test that fails in the same way with ir_measures' own
providers in this environment is skipped with that reason.  The differences that remain are the documented ones (man
ipsoeval, IR_MEASURES PROVIDER), marked xfail here with that reason.
"""

from __future__ import annotations

import contextlib
import importlib
import shutil
import subprocess
import sys
import tarfile
import tempfile
import unittest
from pathlib import Path
from typing import NamedTuple

import pytest

ir_measures = pytest.importorskip("ir_measures")

pytestmark = pytest.mark.filterwarnings("ignore::ipsoeval.api.InputWarning")

VERSION = "0.4.3"
PACKAGE = "irm_suite"        # the sdist's tests/ directory, importable as a package

# the providers ir_measures' tests reach, by attribute and by class
PROVIDERS = {"pytrec_eval": "PytrecEvalProvider", "gdeval": "GdevalProvider",
             "judged": "JudgedProvider", "msmarco": "MsMarcoProvider",
             "compat": "CompatProvider", "cwl_eval": "CwlEvalProvider",
             "pyndeval": "PyNdEvalProvider", "accuracy": "AccuracyProvider",
             "trectools": "TrectoolsProvider", "ranx": "RanxProvider"}

class Refused(NamedTuple):
    """A test of the suite that fails with ``message`` whoever serves it."""
    message: str
    reason: str


GDEVAL = ("gdeval prints its values to 5 decimals (ERR@5 0.10175, nDCG@20 0.6201) and "
          "ir_measures' test compares them exactly; ipsoeval gives the unrounded value "
          "(0.1017578125), equal to 5 decimals")
CWL = ("cwl_eval's metrics are CwlMetric records (with its residual and expected-rate "
       "fields) and its P@5 is 0.6000000000000001; ipsoeval gives ir_measures' Metric and "
       "0.6")

# a test no provider can pass: checked to fail with exactly this message, then xfailed
SUITE_BUG = Refused(
    "AssertionError: unsupported params found: ['cutoff']",
    "the test's last measure, SetP(rel=2)@5, is refused by ir_measures 0.4.3 itself (SetP "
    "takes no cutoff), after the P@5, P(rel=2)@5 and SetP checks, which ipsoeval passes; "
    "ranx 0.3.21 itself fails earlier (it refuses pandas 3's string dtype of query ids)")

# every test of the 0.4.3 suite: (file, class, method, what ipsoeval serves, xfail reason)
# -- "all": every provider and the default pipeline; one name: that provider only
SUITE = [
    ("test_accuracy", "TestMeasures", "test_accuracy", "all", None),
    ("test_aggregate", "TestMeasures", "test_P", "all", None),
    ("test_compat", "TestCompat", "test_measures", "all", None),
    ("test_cwl_eval", "TestCwlEval", "test_measures", "all", None),
    ("test_gdeval", "TestPytrecEval", "test_nDCG", "all", GDEVAL),
    ("test_gdeval", "TestPytrecEval", "test_ERR", "all", GDEVAL),
    ("test_judged", "TestMeasures", "test_judged", "all", None),
    ("test_measures", "TestMeasures", "test_P", "all", None),
    ("test_measures", "TestMeasures", "test_measures", "all", None),
    *[("test_providers", "TestPytrecEval", "test_empty", p,
       {"gdeval": GDEVAL, "cwl_eval": CWL}.get(p))
      for p in ("default", "pytrec_eval", "gdeval", "judged", "msmarco", "cwl_eval", "compat",
                "accuracy", "trectools")],
    ("test_pyndeval", "TestPynedvalEval", "test_measures", "all", None),
    ("test_pyndeval", "TestPynedvalEval", "test_ERR_IA", "all", None),
    *[("test_pytrec_eval", "TestPytrecEval", m, "all", None)
      for m in ("test_NumRet", "test_NumQ", "test_NumRel", "test_Success", "test_SetP",
                "test_SetR", "test_SetAP", "test_SetF", "test_IPrec", "test_infAP",
                "test_nDCG", "test_P", "test_judged_only")],
    ("test_ranx", "TestRanx", "test_P", "all", SUITE_BUG),
    *[("test_runtime", "TestRuntime", m, "all", None)
      for m in ("test_non_doc_qrels", "test_define_byquery", "test_define",
                "test_run_qrel_inputs")],
    *[("test_util", "TestUtil", m, "all", None)
      for m in ("test_parse_trec_measure", "test_parse_measure", "test_qrels_converter",
                "test_run_converter")],
]

# what assertMetrics checks, written from its behaviour (the sdist lacks tests/base.py)
BASE = '''import unittest


class BaseMeasureTest(unittest.TestCase):
    def assertMetrics(self, got, want, places=4, not_equal=False):
        got, want = sorted(got), sorted(want)
        self.assertEqual(len(got), len(want))
        for a, b in zip(got, want):
            self.assertEqual(a.query_id, b.query_id)
            self.assertEqual(a.measure, b.measure)
            if not_equal:
                self.assertNotAlmostEqual(a.value, b.value)
            else:
                self.assertAlmostEqual(a.value, b.value, places=places)
'''


def _cache_dir(config, tmp_path_factory) -> Path:
    cache = getattr(config, "cache", None)
    if cache is not None:
        return Path(cache.mkdir(f"ir_measures-{VERSION}-sdist"))
    return tmp_path_factory.getbasetemp() / f"ir_measures-{VERSION}-sdist"


@pytest.fixture(scope="module")
def suite_dir(request, tmp_path_factory) -> Path:
    """The sdist's tests/, as the package ``irm_suite`` (downloaded once)."""
    if ir_measures.__version__ != VERSION:
        pytest.skip(f"the suite is ir_measures {VERSION}'s; {ir_measures.__version__} "
                    f"is installed (pip install ir_measures=={VERSION})")
    root = _cache_dir(request.config, tmp_path_factory)
    pkg = root / PACKAGE
    if not (pkg / "__init__.py").exists():
        root.mkdir(parents=True, exist_ok=True)
        # a directory of this process's own: pytest-xdist's workers may fetch at once
        work = Path(tempfile.mkdtemp(dir=root))
        try:
            _fetch(work)
            try:
                (work / PACKAGE).rename(pkg)
            except OSError:             # another worker put it there first
                if not (pkg / "__init__.py").exists():
                    raise
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return root


def _fetch(work: Path) -> None:
    """Download the sdist into ``work`` and unpack its tests/ as ``work/irm_suite``."""
    archive = work / f"ir_measures-{VERSION}.tar.gz"
    try:
        done = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-binary", ":all:",
             "--no-deps", "--disable-pip-version-check", "--retries", "1",
             "--timeout", "15", "-q", "-d", str(work), f"ir_measures=={VERSION}"],
            capture_output=True, text=True, timeout=180)
    except (OSError, subprocess.TimeoutExpired) as e:
        pytest.skip(f"could not download ir_measures {VERSION}'s sdist: {e}")
    if done.returncode != 0 or not archive.exists():
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        pytest.skip(f"could not download ir_measures {VERSION}'s sdist from PyPI "
                    f"(offline?): {last}")
    staging = work / PACKAGE
    staging.mkdir()
    prefix = f"ir_measures-{VERSION}/tests/"
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            if member.isfile() and member.name.startswith(prefix):
                name = member.name[len(prefix):]
                if "/" not in name:
                    (staging / name).write_bytes(tar.extractfile(member).read())
    (staging / "base.py").write_text(BASE)
    (staging / "__init__.py").write_text("")


@contextlib.contextmanager
def _ipsoeval_serves(target: str):
    """ipsoeval first for ``target`` (a provider's name, 'default', or 'all';
    'none': only for the providers not installed)."""
    from ir_measures import providers as P

    from ipsoeval import ir_measures_provider as ipm

    saved_attrs, saved_classes = {}, {}
    ipm.register(first=target in ("default", "all"))
    try:
        for name, cls in PROVIDERS.items():
            original = P.registry[name]
            if target not in (name, "all") and original.is_available():
                continue
            saved_attrs[name] = getattr(ir_measures, name)
            setattr(ir_measures, name, P.FallbackProvider([ipm.PROVIDER, original]))
            klass = getattr(P, cls)
            saved_classes[cls] = klass
            setattr(P, cls, lambda klass=klass: P.FallbackProvider([ipm.PROVIDER, klass()]))
        yield
    finally:
        ipm.unregister()
        for name, value in saved_attrs.items():
            setattr(ir_measures, name, value)
        for cls, value in saved_classes.items():
            setattr(P, cls, value)


def _run(suite_dir: Path, module: str, cls: str, method: str) -> list[str]:
    """The failures and errors of one of the suite's tests (empty: it passed)."""
    if str(suite_dir) not in sys.path:
        sys.path.insert(0, str(suite_dir))
    try:
        mod = importlib.import_module(f"{PACKAGE}.{module}")
    except Exception as e:              # an import the test needs and this host lacks
        return [f"import {module}: {type(e).__name__}: {e}"]
    case = getattr(mod, cls)(method)
    result = unittest.TestResult()
    case.run(result)
    return [text.strip().splitlines()[-1] for _, text in result.failures + result.errors]


def _case(entry):
    module, cls, method, target, xfail = entry
    marks = ([pytest.mark.xfail(reason=xfail, strict=True)]
             if xfail and not isinstance(xfail, Refused) else [])
    return pytest.param(module, cls, method, target,
                        id=f"{module}::{method}[{target}]", marks=marks)


@pytest.mark.parametrize("module,cls,method,target", [_case(e) for e in SUITE])
def test_suite(suite_dir, module, cls, method, target):
    missing = [p.name for p in _data_files(suite_dir, module)]
    if missing:
        pytest.skip(f"ir_measures {VERSION}'s sdist lacks the data files of {module}.py "
                    f"({', '.join(missing)}): it runs with no provider")
    with _ipsoeval_serves(target):
        problems = _run(suite_dir, module, cls, method)
    refused = next((e[4] for e in SUITE if e[:4] == (module, cls, method, target)
                    and isinstance(e[4], Refused)), None)
    if refused is not None:
        assert problems == [refused.message], problems
        pytest.xfail(refused.reason)
    if not problems:
        return
    with _ipsoeval_serves("none"):     # ir_measures' own providers, where installed
        baseline = _run(suite_dir, module, cls, method)
    if baseline == problems:
        pytest.skip(f"fails with ir_measures' own providers here too: {baseline[0]}")
    pytest.fail(f"{module}.{cls}.{method} with ipsoeval serving {target}:\n"
                + "\n".join(problems))


def _data_files(suite_dir: Path, module: str) -> list[Path]:
    """The files next to the test module that it opens and the sdist lacks."""
    import re
    src = (suite_dir / PACKAGE / f"{module}.py").read_text()
    names = re.findall(r"os\.path\.dirname\(__file__\),\s*'([^']+)'", src)
    return [suite_dir / PACKAGE / n for n in names if not (suite_dir / PACKAGE / n).exists()]


def test_every_test_of_the_suite_is_run(suite_dir):
    """SUITE names every test method of the downloaded suite (a new one would
    otherwise go unrun)."""
    import ast
    found = set()
    for path in sorted((suite_dir / PACKAGE).glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                for f in node.body:
                    if isinstance(f, ast.FunctionDef) and f.name.startswith("test"):
                        found.add((path.stem, node.name, f.name))
    assert found == {(m, c, f) for m, c, f, _, _ in SUITE}
