"""``ipsoeval agree``: how far apart two sets of labels (QRELS_A, QRELS_B) are.

On the judgments both qrels share (:mod:`.judgments`; a negative label in
either is "pooled but not judged" and left out), the table ``agreement``
(primary): Cohen's κ unweighted, linear and quadratic, Krippendorff's α
interval and ordinal and the proportion of equal labels
(:mod:`ipsoeval.stats.agreement`), and the table ``confusion`` (label_a,
label_b, count).

With runs, each run is evaluated under A and under B on the topics both qrels
have (the others are left out, with a warning), and per measure
(:mod:`ipsoeval.stats.rankcorr`):

- ``means``: each run's mean under A and under B and its rank (1 = best;
  ties share the best rank);
- ``rankings``: the correlation of the two rankings of the runs by their
  means (best first: lower-is-better measures are ranked ascending) --
  Kendall's τ_b, τ_AP with A's ranking as the reference, with B's, their mean,
  and RBO_ext -- and, over all pairs of runs, how many differ significantly
  under A, under B, and how many of those decisions appear, disappear or flip;
- ``changes``: each pair of runs whose decision differs: ``appears``
  (significant under B only), ``disappears`` (under A only), ``flips``
  (significant under both, in opposite directions).

The tests are sigtest's (:mod:`ipsoeval.analyses.sigtest`, the test registry):
one paired test on every pair of runs, two-sided, ``--correct`` applied
separately under A and under B over all pairs and measures.
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from ipsoeval.analyses.agree import DEFAULT_TEST, TESTS
from ipsoeval.analyses.agree.options import MAX_SAMPLES, Options, make_options  # noqa: F401
from ipsoeval.errors import InputError, UsageError
from ipsoeval.results import Report, ResultSet
from ipsoeval.stats import registry

__all__ = ["Options", "make_options", "run", "TESTS", "DEFAULT_TEST", "AGREEMENT_COLUMNS",
           "CONFUSION_COLUMNS", "RANKING_COLUMNS", "MEANS_COLUMNS", "CHANGE_COLUMNS",
           "STATISTICS"]


AGREEMENT_COLUMNS = ["statistic", "value", "judgments"]
CONFUSION_COLUMNS = ["label_a", "label_b", "count"]
RANKING_COLUMNS = ["measure", "runs", "topics", "kendall_tau", "tau_ap_ref_a", "tau_ap_ref_b",
                   "tau_ap_sym", "rbo", "test", "pairs", "significant_under_a",
                   "significant_under_b", "appears", "disappears", "flips"]
MEANS_COLUMNS = ["run", "measure", "mean_under_a", "mean_under_b", "rank_under_a",
                 "rank_under_b"]
CHANGE_COLUMNS = ["run_a", "run_b", "measure", "test", "change", "diff_under_a",
                  "p_adjusted_under_a", "diff_under_b", "p_adjusted_under_b"]

# statistic -> what it is (the agreement table's rows, in order)
STATISTICS = {
    "exact_agreement": "proportion of shared judgments with the same label",
    "kappa": "Cohen's kappa, unweighted",
    "kappa_linear": "Cohen's weighted kappa, weights |a - b| between label values",
    "kappa_quadratic": "Cohen's weighted kappa, weights (a - b)^2 between label values",
    "alpha_interval": "Krippendorff's alpha, interval metric",
    "alpha_ordinal": "Krippendorff's alpha, ordinal metric",
}


def _who(params: dict, side: str, tag: bool = True) -> str:
    """How a title names qrels A or B: the file's name (and its letter, the
    columns' suffix _a / _b)."""
    path = params.get(f"qrels_{side}")
    name = "<stdin>" if path == "-" else (path or f"QRELS_{side.upper()}")
    return f"{name} ({side.upper()})" if tag else name


def _f(x) -> float | None:
    if x is None:
        return None
    x = float(x)
    return None if x != x else x


# --- the labels -------------------------------------------------------------------

def label_tables(shared, params: dict, warnings: list[str],
                 names: Sequence[str] | None = None) -> list[ResultSet]:
    """The agreement and confusion tables; ``names``: the name of each label
    code (the nugget support labels), shown instead of the code."""
    from ipsoeval.stats import agreement as ag

    def label(x):
        return names[int(x)] if names is not None else int(x)

    a, b = shared.label_a, shared.label_b
    n = int(a.size)
    values = {
        "exact_agreement": float((a == b).mean()) if n else None,
        "kappa": ag.cohen_kappa(a, b),
        "kappa_linear": ag.cohen_kappa(a, b, "linear"),
        "kappa_quadratic": ag.cohen_kappa(a, b, "quadratic"),
        "alpha_interval": ag.krippendorff_alpha(a, b, "interval"),
        "alpha_ordinal": ag.krippendorff_alpha(a, b, "ordinal"),
    }
    records = [{"statistic": k, "value": _f(v), "judgments": n} for k, v in values.items()]
    undefined = [r["statistic"] for r in records if r["value"] is None]
    if n and undefined:
        warnings.append(f"{', '.join(undefined)} undefined: every shared judgment has the "
                        f"same label ({label(a[0])}); reported as empty")
    agreement = ResultSet(
        command="agree", columns=list(AGREEMENT_COLUMNS), records=records,
        params={**params, "statistics": dict(STATISTICS)},
        title=f"Agreement of {_who(params, 'a')} and {_who(params, 'b')} on {n} shared "
              f"judgment(s)", id="agreement",
        description="chance-corrected agreement of the labels both qrels give "
                    "(one row per statistic)",
        table_hints={"digits": 4})
    la, lb, counts = ag.confusion(a, b)
    crec = [{"label_a": label(x), "label_b": label(y), "count": int(counts[i, j])}
            for i, x in enumerate(la.tolist()) for j, y in enumerate(lb.tolist())]
    confusion = ResultSet(
        command="agree", columns=list(CONFUSION_COLUMNS), records=crec, params=dict(params),
        title="Confusion matrix of the shared judgments", id="confusion",
        description="count of shared judgments per (label under A, label under B); every "
                    "label each qrels uses, zero counts included")
    confusion.view = _confusion_view(la, lb, counts, params, label)
    return [agreement, confusion]


def _confusion_view(la, lb, counts, params, label=int) -> ResultSet:
    cols = ["label_a"] + [f"b={label(y)}" for y in lb.tolist()]
    records = []
    for i, x in enumerate(la.tolist()):
        row = {"label_a": label(x)}
        row.update({f"b={label(y)}": int(counts[i, j]) for j, y in enumerate(lb.tolist())})
        records.append(row)
    return ResultSet(command="agree", columns=cols, records=records, params=params,
                     title=f"Confusion matrix: rows = label under {_who(params, 'a')}, "
                           f"columns (b=) = label under {_who(params, 'b')}")


# --- the runs ---------------------------------------------------------------------

def _rank_tables(runs: list[str], topics: int, scores_a, scores_b, options: Options,
                 params: dict, warnings: list[str], progress: Callable | None,
                 scales: dict | None = None):
    from ipsoeval.analyses import sigtest
    from ipsoeval.stats import rankcorr as rc

    measures = []
    seen = set()
    for m in scores_a.measures:
        if m.name not in seen:
            seen.add(m.name)
            measures.append(m)
    means_rec, rank_rec, change_rec = [], [], []
    mats_a = {m.name: np.asarray(scores_a.matrix(m.name), dtype=np.float64) for m in measures}
    mats_b = {m.name: np.asarray(scores_b.matrix(m.name), dtype=np.float64) for m in measures}
    sopts = sigtest.Options(tests=[options.test] if options.test else [], all_pairs=True,
                            correct=options.correct, alpha=options.alpha,
                            samples=options.samples, seed=options.seed)
    # the scale of each measure on these topics (as sigtest's): without --test
    # it chooses the test, the one policy of every command
    from ipsoeval.stats.scales import measure_scale
    if scales is None:
        scales = {m.name: measure_scale(m, scores_a.aligned)[0] for m in measures}
    test_of = {m.name: options.test or registry.default_for(scales[m.name], TESTS)
               for m in measures}
    test_note = registry.describe_choice({m: (t, scales[m]) for m, t in test_of.items()},
                                         given=options.test is not None)
    tests = {}
    for which, mats in (("A", mats_a), ("B", mats_b)):
        rep = sigtest.run(list(runs), mats, scales, sopts, topics=topics)
        warnings.extend(f"under {_who(params, which.lower(), False)}: {w}"
                        for w in rep.warnings)
        tests[which] = {(r["run_a"], r["run_b"], r["measure"]): r
                        for r in rep.table("tests").records}
    for done, m in enumerate(measures, 1):
        ma = np.asarray(scores_a.aggregate(m), dtype=np.float64)
        mb = np.asarray(scores_b.aggregate(m), dtype=np.float64)
        sign = 1.0 if m.higher_is_better else -1.0
        ok = ~(np.isnan(ma) | np.isnan(mb))
        ra = np.zeros(len(runs), dtype=np.int64)      # ranks among the runs ranked
        rb = np.zeros(len(runs), dtype=np.int64)
        ra[ok] = rc.competition_ranks(sign * ma[ok])
        rb[ok] = rc.competition_ranks(sign * mb[ok])
        for i, r in enumerate(runs):
            means_rec.append({"run": r, "measure": m.name, "mean_under_a": _f(ma[i]),
                              "mean_under_b": _f(mb[i]),
                              "rank_under_a": int(ra[i]) if ok[i] else None,
                              "rank_under_b": int(rb[i]) if ok[i] else None})
        if not ok.all():
            warnings.append(f"{m.name}: {int((~ok).sum())} run(s) with an undefined mean under "
                            f"one qrels left out of the rank correlations")
        xa, xb = sign * ma[ok], sign * mb[ok]
        n = int(ok.sum())
        if n >= 2:
            tau = rc.kendall_tau_b(xa, xb)
            t_ra, t_rb = rc.tau_ap(xa, xb), rc.tau_ap(xb, xa)
            sym = 0.5 * (t_ra + t_rb)
            rbo = rc.rbo(xa, xb, options.rbo_p)
        else:
            tau = t_ra = t_rb = sym = rbo = float("nan")
        if tau != tau and n >= 2:
            warnings.append(f"{m.name}: Kendall's tau undefined (every run has the same mean "
                            f"under one qrels); reported as empty")
        counts = {"pairs": 0, "significant_under_a": 0, "significant_under_b": 0,
                  "appears": 0, "disappears": 0, "flips": 0}
        for i in range(len(runs)):
            for j in range(i + 1, len(runs)):
                key = (runs[i], runs[j], m.name)
                A, B = tests["A"][key], tests["B"][key]
                sa, sb = bool(A["significant"]), bool(B["significant"])
                counts["pairs"] += 1
                counts["significant_under_a"] += sa
                counts["significant_under_b"] += sb
                change = None
                if sa and sb:
                    da, db = A["diff"] or 0.0, B["diff"] or 0.0
                    if da * db < 0:
                        change = "flips"
                elif sa:
                    change = "disappears"
                elif sb:
                    change = "appears"
                if change is None:
                    continue
                counts[change] += 1
                change_rec.append({"run_a": runs[i], "run_b": runs[j], "measure": m.name,
                                   "test": test_of[m.name], "change": change,
                                   "diff_under_a": A["diff"],
                                   "p_adjusted_under_a": A["p_adjusted"],
                                   "diff_under_b": B["diff"],
                                   "p_adjusted_under_b": B["p_adjusted"]})
        rank_rec.append({"measure": m.name, "runs": n, "topics": topics,
                         "kendall_tau": _f(tau), "tau_ap_ref_a": _f(t_ra),
                         "tau_ap_ref_b": _f(t_rb), "tau_ap_sym": _f(sym), "rbo": _f(rbo),
                         "test": test_of[m.name], **counts})
        if progress is not None:
            progress(done, len(measures))
    rparams = {
        **params, "test": options.test or dict(test_of), "test_note": test_note,
        "alternative": "two-sided", "alpha": options.alpha,
        "correction": options.correct,
        "correction_family": "all pairs of runs and measures, separately under QRELS_A and "
                             "under QRELS_B",
        "significant": "p_adjusted < alpha", "samples": options.samples, "seed": options.seed,
        "rbo_p": options.rbo_p,
        "kendall_tau": "Kendall's tau-b of the run means (ties corrected, as scipy.stats."
                       "kendalltau)",
        "tau_ap_ref_a": "tau_AP (Yilmaz et al. 2008) of B's ranking against A's",
        "tau_ap_ref_b": "tau_AP of A's ranking against B's",
        "tau_ap_sym": "mean of tau_ap_ref_a and tau_ap_ref_b",
        "rbo": "RBO_ext (Webber et al. 2010, Eq. 32) at depth = runs: "
               "p^N + (1-p)/p * sum_{d=1..N} X_d/d * p^d",
        "ties": "tau_AP and RBO with tied means: expected value over random orderings of "
                "the tied runs",
        "ranking": "best first (lower-is-better measures ascending)",
    }
    rankings = ResultSet(
        command="agree", columns=list(RANKING_COLUMNS), records=rank_rec, params=rparams,
        title=f"Rankings of the runs under {_who(params, 'a')} and {_who(params, 'b')}",
        id="rankings",
        description="per measure: rank correlations of the run means under A and B, and the "
                    "pairs whose significance appears, disappears or flips",
        table_hints={"digits": 4})
    means = ResultSet(
        command="agree", columns=list(MEANS_COLUMNS), records=means_rec, params=dict(params),
        title=f"Run means under {_who(params, 'a')} and {_who(params, 'b')}", id="means",
        description="per run and measure: the mean under each qrels and the rank (1 = best)",
        table_hints={"digits": 4})
    changes = ResultSet(
        command="agree", columns=list(CHANGE_COLUMNS), records=change_rec,
        params={k: rparams[k] for k in ("test", "test_note", "alpha", "correction",
                                        "correction_family",
                                        "significant")} | dict(params),
        title="Pairs of runs whose significant difference changes (diff = B − A)",
        id="changes",
        description="each pair of runs significant under one qrels only (appears: B only; "
                    "disappears: A only) or under both in opposite directions (flips)",
        table_hints={"digits": 4})
    return [rankings, means, changes]


def run(qa, qb, runs=(), measures=None, options: Options | None = None, *,
        align: dict | None = None, progress: Callable | None = None) -> Report:
    """The Report of ``ipsoeval agree``.

    ``qa``, ``qb``: :class:`~ipsoeval.model.Qrels`; ``runs``: Run models (read,
    not aligned; empty for the label statistics alone); ``measures``: names or
    Requested (needed with runs); ``align``: the alignment options of
    :func:`ipsoeval.align.align` (queries, rel_level, judged_only, gains,
    depth, tie_break)."""
    from ipsoeval.align import QrelsIndex
    from ipsoeval.analyses.agree import judgments as jd

    options = options or Options()
    runs = list(runs or [])
    options.check([r.name for r in runs] if runs else None)
    if runs and not measures:
        raise UsageError("agree with runs needs at least one -m MEASURE")
    if measures and not runs:
        raise UsageError("-m needs runs to evaluate (agree QRELS_A QRELS_B RUN RUN... -m M)")
    ia, ib = QrelsIndex(qa), QrelsIndex(qb)
    sh = jd.shared(qa, qb, ia, ib)
    warnings: list[str] = []
    params = {"qrels_a": qa.path, "qrels_b": qb.path, "judgments": dict(sh.counts),
              "negative_labels": "pairs with a negative label (pooled, not judged) in either "
                                 "qrels are left out"}
    if sh.counts["negative"]:
        warnings.append(f"{sh.counts['negative']} judgment(s) both qrels share have a negative "
                        f"label (pooled, not judged) in one of them: left out")
    if sh.counts["shared"] == 0:
        what = (f"{qa.path} and {qb.path} share no judged (qid, docno) pair "
                f"({sh.counts['judgments_a']} and {sh.counts['judgments_b']} judgments)")
        if not runs:
            raise InputError(what)
        warnings.append(what + "; the label statistics are empty")
    run_tables = []
    if runs:        # first: the alignment's parameters join every table's params
        run_tables = _with_runs(qa, qb, ia, ib, runs, measures, options, align or {}, params,
                                warnings, progress)
    tables = label_tables(sh, params, warnings) + run_tables
    return Report("agree", tables, primary="agreement", warnings=warnings,
                  params=dict(params))


def _with_runs(qa, qb, ia, ib, runs, measures, options, align, params, warnings, progress):
    from ipsoeval import engine
    from ipsoeval.align import parse_gains
    from ipsoeval.analyses.agree import judgments as jd
    from ipsoeval.analyses.topicset import select

    topics, only_a, only_b = jd.common_topics(ia, ib)
    if not topics:
        raise InputError(f"{qa.path} and {qb.path} have no topic in common: the runs cannot "
                         f"be evaluated on one topic set")
    if only_a or only_b:
        warnings.append(f"the runs are evaluated on the {len(topics)} topic(s) both qrels have: "
                        f"{only_a} topic(s) only in {qa.path} and {only_b} only in {qb.path} "
                        f"left out")
    kw = dict(align)
    if isinstance(kw.get("gains"), str):
        kw["gains"] = parse_gains(kw["gains"])
    from ipsoeval.measures import Requested
    measures = list(measures)
    requested = measures if all(isinstance(m, Requested) for m in measures) \
        else engine.requested(measures)
    aligned = []
    for q, idx in ((qa, ia), (qb, ib)):
        sub = jd.restrict(q, idx, topics)
        al = engine.align_read(sub, list(runs), **kw)   # a new list: runs stay whole
        al, notes = select(al, paired=True)
        if only_a or only_b:    # the topics cut from the qrels: not in *both* qrels
            notes = [w.replace(" topic(s) not in the qrels ignored",
                               " topic(s) not in both qrels ignored") for w in notes]
        warnings.extend(w for w in notes if w not in warnings)
        aligned.append(al)
    al_a, al_b = aligned
    if al_a.topics != al_b.topics or al_a.runs != al_b.runs:   # one topic set by construction
        raise InputError("the runs were evaluated on different topics under the two qrels")
    sa = engine.evaluate(al_a, requested)
    sb = engine.evaluate(al_b, requested)
    warnings.extend(w for w in engine.score_warnings(sa) + engine.score_warnings(sb)
                    if w not in warnings)
    gains = align.get("gains")
    params.update({k: v for k, v in align.items() if k != "gains"})
    params["gains"] = gains if gains is None or isinstance(gains, str) else \
        ",".join(f"{k}:{v:g}" for k, v in dict(gains).items())
    params["topics"] = len(al_a.topics)
    params["runs"] = list(al_a.runs)
    return _rank_tables(list(al_a.runs), len(al_a.topics), sa, sb, options, params, warnings,
                        progress)
