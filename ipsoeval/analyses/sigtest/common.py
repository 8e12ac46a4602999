"""The part of ``ipsoeval sigtest`` that needs no numpy: the options and their
checks, the pairs, the correction families, the warning texts and the CI
gate's decision -- shared by the analysis (:mod:`.report`) and the quick path
(:mod:`.quick`), which serves the everyday calls without numpy."""

from __future__ import annotations

from ipsoeval.analyses import common_options as co
from ipsoeval.analyses import validate
from ipsoeval.analyses.sigtest import OMNIBUS, PAIRWISE, TESTS
from ipsoeval.declare import option, options
from ipsoeval.errors import UsageError
from ipsoeval.stats import registry

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ipsoeval.results import Gate

COLUMNS = ["run_a", "run_b", "measure", "test", "n", "mean_a", "mean_b", "diff", "ci_low",
           "ci_high", "effect_size", "wins", "ties", "losses", "statistic", "p_value",
           "p_adjusted", "significant", "permissible"]
BOUNDS_COLUMNS = ["p_bounds", "survives_bounds"]
FLIP_COLUMNS = ["measure", "test", "pairs", "sig_original", "sig_interval", "s2ns", "ns2s",
                "changed"]
SCALES = ("original", "interval", "both")
GATES = ("worse", "different")
TESTS_DESCRIPTION = ("one row per pair of runs, measure and test (omnibus tests: run_a = "
                     "run_b = *; without --test one test per pair and measure, why it was "
                     "chosen in why)")
MAX_SAMPLES = 100_000_000


def parse_tests(args) -> list[str]:
    """Test names from repeatable / comma-separated ``--test`` values (registry names
    or aliases)."""
    return registry.parse(args, allowed=TESTS, command="sigtest")


def make_options(tests=None, gate_test: str | None = None, *,
                 gate_option: str = "gate_test", **kw) -> "Options":
    """Validated Options from what a user gives: ``tests`` as ``--test`` takes
    them (none: each measure gets the test its scale permits), ``gate_test``
    one test name (``gate_option`` names it in the error; without ``tests`` it
    is the one test run); the other fields as they are."""
    test_list = parse_tests([tests] if isinstance(tests, str) else (tests or []))
    gate = None
    if gate_test is not None:
        parsed = parse_tests([gate_test])
        if len(parsed) != 1:
            raise UsageError(f"{gate_option} takes one test (found {gate_test!r})")
        gate = parsed[0]
        test_list = test_list or [gate]
    options = Options(tests=test_list, gate_test=gate, **kw)
    options.check()
    return options


def _tests(value):
    return tuple(parse_tests(value))


@options
class Options:
    tests: list[str] = co.tests("Test (the last four for three or more runs, with Tukey HSD)", TESTS,
                                default=[], check=_tests)    # empty: by scale
    baseline: str | None = co.baseline("Compare every other run against this run.")
    all_pairs: bool = co.all_pairs()
    correct: str = co.correct("Multiple-comparison correction across all p-values of the invocation.")
    alpha: float = co.alpha()
    alternative: str = co.alternative("Alternative hypothesis about B - A.")
    samples: int = co.samples(100_000, co.EXACT_RESAMPLES_HELP)
    seed: int = co.seed()
    scale: str = option("--scale", kind="choice", choices=SCALES, default="original",
                        show_default=True,
                        help="Test the measure's values, their interval-mapped values, or "
                             "both (and count decisions that flip).")
    fail_if: str | None = option(
        "--fail-if", kind="choice", choices=GATES,
        help="CI gate: exit 1 when a challenger is significantly worse than the baseline "
             "(worse) or any pair differs significantly (different).")
    gate_test: str | None = option(
        "--gate-test", metavar="NAME",
        default_text="per measure, the first --test permissible for its scale",
        help="Test deciding the gate.")
    bounds: bool = option(
        "--bounds", kind="flag",
        help="Also say whether each significant difference survives the worst case for its "
             "winner: the winner's low and the loser's high on every topic, over the "
             "labellings of the unjudged retrieved documents (columns p_bounds, "
             "survives_bounds).")
    level: float = 0.95

    def check(self, runs: list[str] | None = None) -> None:
        if self.tests:
            validate.tests(self.tests, TESTS, "sigtest")
        validate.correct(self.correct)
        validate.alpha(self.alpha)
        validate.alternative(self.alternative)
        validate.samples(self.samples, MAX_SAMPLES)
        validate.seed(self.seed)
        if self.scale not in SCALES:
            raise UsageError(f"--scale must be one of {', '.join(SCALES)} (found {self.scale!r})")
        if self.baseline is not None and self.all_pairs:
            raise UsageError("--baseline conflicts with --all-pairs")
        if self.fail_if not in (None, "worse", "different"):
            raise UsageError(f"--fail-if must be worse or different (found {self.fail_if!r})")
        if self.gate_test is not None:
            if self.fail_if is None:
                raise UsageError("--gate-test needs --fail-if")
            if self.tests and self.gate_test not in self.tests:
                raise UsageError(f"--gate-test {self.gate_test} is not among the tests run "
                                 f"({', '.join(self.tests)})")
        if self.bounds and self.scale != "original":
            raise UsageError("--bounds tests the original values only (it conflicts with "
                             f"--scale {self.scale})")
        if self.fail_if == "worse" and self.all_pairs:
            raise UsageError("--fail-if worse needs a baseline to compare against "
                             "(it conflicts with --all-pairs; use --fail-if different)")
        if runs is not None:
            if len(runs) < 2:
                raise UsageError(f"sigtest needs at least two runs (got {len(runs)})")
            if self.baseline is not None:
                validate.baseline(self.baseline, runs)
            omni = [t for t in self.tests if t in OMNIBUS]
            if omni and len(runs) < 3:
                raise UsageError(f"{', '.join(omni)} compare three or more runs (got {len(runs)}); "
                                 f"use a paired test such as t or randomization")

    def check_inputs(self, *, scores: bool = False, labels: str = "integer") -> None:
        """The checks that need the inputs' kind -- per-topic score files or
        runs, the label model -- worded once for the command line and the API."""
        if scores and self.bounds:
            raise UsageError("--bounds needs QRELS and runs (per-topic --scores files have no "
                             "unjudged documents to label)")
        if self.bounds and labels != "integer":
            raise UsageError(f"--bounds does not combine with --labels {labels} (the bounds "
                             f"range over integer labels)")
        if self.scale != "original" and labels != "integer":
            raise UsageError(f"--scale {self.scale} maps measures through their integer-label "
                             f"values (interval-map): it needs --labels integer")

    def gate(self) -> str | None:
        return self.gate_test or (self.tests[0] if self.tests else None)

    def tests_for(self, scale: str | None) -> list[str]:
        """The tests a measure on ``scale`` gets: --test's, else its default."""
        return list(self.tests) or [registry.default_test(scale)[0]]


def family_key(rec: dict, options: Options) -> str | None:
    """The correction family of a record: None for Tukey HSD rows (already
    adjusted), else its test's rows with --test, or every row reported."""
    if rec["run_a"] != "*" and rec["test"] not in PAIRWISE:
        return None
    return rec["test"] if options.tests else ""


def family_text(options: Options, pairs: int, measures: int) -> str:
    """What --correct corrects over, in one line (params and the table's title)."""
    n = f"{pairs} pair(s) x {measures} measure(s)"
    if not options.tests:
        return f"the {pairs * measures} comparison(s) reported ({n}, one test each)"
    return (f"each test's {pairs * measures} comparison(s) ({n}; alternative tests are "
            f"not corrected together)")


def pairs_of(runs: list[str], options: Options) -> list[tuple[int, int]]:
    """(A, B) index pairs: every run against the baseline, or all pairs."""
    if options.all_pairs:
        return [(i, j) for i in range(len(runs)) for j in range(i + 1, len(runs))]
    base = runs.index(options.baseline) if options.baseline is not None else 0
    return [(base, j) for j in range(len(runs)) if j != base]



_UNDEFINED_REASON = {
    "t": "the differences have zero variance or fewer than 2 topics",
    "wilcoxon": "no non-zero difference (or no topic) for the normal approximation",
    "ranksum": "no topics",
    "anova": "zero within-run variance",
    "anova2": "zero residual variance",
    "kruskal": "all values tied",
    "friedman": "all runs tied on every topic",
}




def undefined_warning(test: str, count: int, scale_label: str | None = None) -> str:
    """The warning for ``count`` comparisons whose p-value ``test`` leaves undefined."""
    where = f" ({scale_label} values)" if scale_label else ""
    reason = _UNDEFINED_REASON.get(test, "degenerate data")
    return (f"{test}: p-value undefined for {count} comparison(s){where}: "
            f"{reason}; reported as empty and not significant")


def decide_gate(records: list[dict], baseline: str | None, matrices, options: Options,
          lower_better: set[str]) -> Gate:
    from ipsoeval.results import Gate
    # the test deciding the gate, per measure: --gate-test, else the first
    # requested test permissible for the measure's scale (a t test is not
    # permissible for nDCG, AP or RR; the sign test is)
    perm: dict[tuple[str, str], bool | None] = {}
    for rec in records:
        if rec["run_a"] != "*":
            perm.setdefault((rec["measure"], rec["test"]), rec.get("permissible"))
    chosen: dict[str, str] = {}
    caveats: list[str] = []
    for meas in matrices:
        ran = [t for (m, t) in perm if m == meas]
        if options.gate_test is not None:
            t = options.gate_test
        else:
            ok = [t for t in options.tests or ran
                  if t in PAIRWISE and perm.get((meas, t)) is not False]
            t = ok[0] if ok else (options.gate() or ran[0])
        chosen[meas] = t
        if perm.get((meas, t)) is False:
            caveats.append(f"{t} is not permissible for {meas}'s scale")
    test = "/".join(dict.fromkeys(chosen.values())) or options.gate() or ""
    bad = []
    gated = []
    for rec in records:
        if rec["test"] != chosen.get(rec["measure"], test) or rec["run_a"] == "*":
            continue
        gated.append(rec)
        if not rec["significant"]:
            continue
        if options.fail_if == "worse":
            d = rec["diff"]
            if d is None:
                continue
            worse = d > 0 if rec["measure"] in lower_better else d < 0
            if not worse:
                continue
        bad.append(rec)
    what = "significantly worse than" if options.fail_if == "worse" else "significantly different from"
    corr = f", correction {options.correct}" if options.correct != "none" else ""
    how = f"{test}, alpha {options.alpha:g}{corr}, {options.alternative}"
    if len(set(chosen.values())) > 1:
        how = ", ".join(f"{m}: {t}" for m, t in chosen.items()) + \
            f"; alpha {options.alpha:g}{corr}, {options.alternative}"
    if caveats:
        how += "; warning: " + "; ".join(caveats)
    def line(rec) -> str:
        return (f"{rec['run_b']} {what} {rec['run_a']} on {rec['measure']} "
                f"(diff {rec['diff']:+.4g}, p_adjusted {rec['p_adjusted']:.3g}; {how})")

    failed = {id(rec) for rec in bad}
    cases = [(f"{rec['run_b']} vs {rec['run_a']} on {rec['measure']} ({rec['test']})",
              f"ipsoeval.sigtest.{rec['measure']}", line(rec) if id(rec) in failed else None)
             for rec in gated]
    if not bad:
        scope = (f"no challenger {what} baseline {baseline}"
                 if options.fail_if == "worse" else f"no pair {what} each other")
        return Gate(True, f"{scope} on {', '.join(matrices)} ({how})", cases)
    msg = line(bad[0])
    if len(bad) > 1:
        msg += f"; {len(bad)} significant {'regressions' if options.fail_if == 'worse' else 'differences'} in all"
    return Gate(False, msg, cases)


def report_params(runs: list[str], pairs: list[tuple[int, int]], measures: list[str],
                  scales: dict, options: Options, used: list[str]) -> dict:
    """The table ``tests``'s params: what was tested and how (``used``: the
    tests of the records, in order)."""
    params = {
        "runs": list(runs), "pairs": "all" if options.all_pairs else "baseline",
        "baseline": None if options.all_pairs else runs[pairs[0][0]],
        "measures": list(measures), "scales": {m: scales.get(m) for m in measures},
        "tests": list(options.tests) or used, "alternative": options.alternative,
        "alpha": options.alpha, "correction": options.correct,
        "correction_family": family_text(options, len(pairs), len(measures))
                             + (", separately per scale" if options.scale == "both" else "")
                             + ("; Tukey HSD rows are adjusted over all run pairs of their "
                                "measure and not corrected again"
                                if any(t in OMNIBUS for t in options.tests) else ""),
        "significant": "p_adjusted < alpha",
        "ci_level": options.level, "samples": options.samples,
        "seed": options.seed, "scale": options.scale,
        "requirements": {t: registry.requirement(t) for t in options.tests or used},
    }
    if not options.tests:
        params["test_choice"] = {m: registry.default_test(scales.get(m))[1] for m in measures}
    params["test_note"] = registry.test_note(options.tests, {m: scales.get(m) for m in measures})
    if options.bounds:
        params["bounds"] = ("p_bounds: the test again with, per topic, the winner at its low "
                            "and the loser at its high over the labellings of the unjudged "
                            "retrieved documents (each run's own worst case), corrected as "
                            "p_adjusted; survives_bounds: still significant, same winner")
    return params
