"""Outcomes breakdown of two runs with one relevant document per topic.

Lin, Campos, Craswell, Mitra and Yilmaz (2021), "Significant Improvements over
the State of the Art? A Case Study of the MS MARCO Document Ranking
Leaderboard", §3–5.  At cutoff k every topic falls into exactly one outcome:

* ``1``  — neither run has a relevant document in its top k;
* ``2A`` — only run A has one;  ``2B`` — only run B has one;
* ``3``  — both have one.

A run's ESL for a topic is the rank of its first relevant document in the top
k, its RR is 1/ESL (0 when there is none).  Outcome 3 compares ESL and RR with
the Wilcoxon signed-rank test and the paired t-test; outcome 2 compares the
number of topics only A answers with the number only B answers with an exact
two-sided binomial (sign) test.  :func:`verdict` combines the two facets as
the paper's §5 proposes (strict and "do no harm" definitions).

The core (:func:`compare_pair`, :func:`verdict`) works on plain arrays of
first-relevant ranks; :func:`run` takes those ranks from the engine (ESL@k,
:func:`first_relevant_from_engine`) and builds the result records.
"""

from __future__ import annotations

import numpy as np

from ipsoeval.analyses import validate
from ipsoeval.analyses.breakdown.options import (  # noqa: F401  (re-exported)
    VERDICT_TESTS,
    Options,
    parse_verdict_test,
)
from ipsoeval.results import Report, ResultSet
from ipsoeval.stats import corrections, registry

COMMAND = "breakdown"

OUTCOME_NEITHER = "1"
OUTCOME_A_ONLY = "2A"
OUTCOME_B_ONLY = "2B"
OUTCOME_BOTH = "3"

CORRECTIONS = validate.CORRECTIONS

# the one sentence naming breakdown's tests: Lin et al. (2021) fix them
TEST_NOTE = ("Tests: sign test on the topics only one run answers (outcome 2); Wilcoxon "
             "signed-rank and paired t tests on ESL and RR where both answer (outcome 3); "
             "verdict by {verdict} (Lin et al. 2021 §4-5 fix the tests, not the default "
             "by scale).")

VERDICT_BETTER = "better"
VERDICT_BETTER_NO_HARM = "better (do no harm)"
VERDICT_WORSE = "worse"
VERDICT_WORSE_HARM = "worse (do harm)"
VERDICT_MIXED = "mixed"
VERDICT_NONE = "no significant difference"
VERDICTS = (VERDICT_BETTER, VERDICT_BETTER_NO_HARM, VERDICT_WORSE,
            VERDICT_WORSE_HARM, VERDICT_MIXED, VERDICT_NONE)

# p-value columns, in output order.
P_COLUMNS = ["esl_wilcoxon_p_value", "esl_t_p_value", "rr_wilcoxon_p_value", "rr_t_p_value",
             "answered_sign_p_value"]
NAIVE_P_COLUMNS = ["mrr_ranksum_p_value", "mrr_wilcoxon_p_value", "mrr_t_p_value"]

SUMMARY_COLUMNS = [
    "run_a", "run_b", "k", "n", "mrr_a", "mrr_b", "mrr_diff",
    "n_neither", "n_a_only", "n_b_only", "n_both",
    "pct_neither", "pct_a_only", "pct_b_only", "answered_sign_p_value", "pct_both",
    "esl_a", "esl_b", "esl_wilcoxon_p_value", "esl_t_p_value",
    "rr_a", "rr_b", "rr_wilcoxon_p_value", "rr_t_p_value",
]
PER_QUERY_COLUMNS = ["run_a", "run_b", "qid", "outcome", "rank_a", "rank_b"]


def adjusted(column: str) -> str:
    """The corrected p-value's column of a raw one: esl_t_p_value -> esl_t_p_adjusted."""
    return column[:-len("p_value")] + "p_adjusted"


# --------------------------------------------------------------------------
# core on arrays
# --------------------------------------------------------------------------

def _ranks(x) -> np.ndarray:
    """Accept ranks as ints with 0 = none, or floats with NaN = none (ESL@k)."""
    a = np.asarray(x)
    if a.dtype.kind == "f":
        a = np.where(np.isnan(a), 0, a)
    a = a.astype(np.int64)
    if a.ndim != 1:
        raise ValueError("ranks must be one-dimensional (one value per topic)")
    if (a < 0).any():
        raise ValueError("ranks must be positive (0 or NaN: no relevant document)")
    return a


def outcomes(rank_a, rank_b) -> np.ndarray:
    """Outcome label per topic: "1", "2A", "2B" or "3" (object array)."""
    a = _ranks(rank_a) > 0
    b = _ranks(rank_b) > 0
    out = np.full(a.shape, OUTCOME_NEITHER, dtype=object)
    out[a & ~b] = OUTCOME_A_ONLY
    out[~a & b] = OUTCOME_B_ONLY
    out[a & b] = OUTCOME_BOTH
    return out


def reciprocal(ranks: np.ndarray) -> np.ndarray:
    """1/rank, 0 where the rank is 0 (no relevant document)."""
    r = np.asarray(ranks, dtype=np.float64)
    out = np.zeros_like(r)
    np.divide(1.0, r, out=out, where=r > 0)
    return out


def _pvalue(res) -> float | None:
    p = float(np.asarray(res.pvalue))
    return None if np.isnan(p) else p


def _sign(x: float) -> int:
    return 1 if x > 0 else (-1 if x < 0 else 0)


def _paired_tests(a: np.ndarray, b: np.ndarray, alternative: str = "two-sided",
                  ) -> tuple[float | None, float | None, int]:
    """Wilcoxon signed-rank p, paired t p (None when undefined) for b − a,
    and the sign of the signed-rank sum W+ − W− (0 without non-zero difference)."""
    d = b - a
    p_w, direction = None, 0
    if np.any(d != 0):
        w = registry.run("wilcoxon", a, b, alternative=alternative)
        p_w = _pvalue(w)
        direction = _sign(float(w.extra["r_plus"]) - float(w.extra["r_minus"]))
    p_t = _pvalue(registry.run("t", a, b, alternative=alternative)) if d.size >= 2 else None
    return p_w, p_t, direction


def compare_pair(rank_a, rank_b, *, naive: bool = False, alternative: str = "two-sided") -> dict:
    """Breakdown statistics for one pair of runs (B compared with A).

    ``rank_a``/``rank_b``: first-relevant ranks per topic (same topic order),
    0 or NaN where the run has no relevant document in the top k.  Returns a
    dict with the counts, percentages, means and raw p-values of the summary
    columns (no run names, no cutoff, no verdict), and under ``"_direction"``
    the sign of each outcome-3 facet for :func:`verdict` (+1 = B better), keyed
    by ("esl" | "rr", "mean" | "signed-rank").  Means and p-values that are
    undefined (no topic in the outcome, fewer than two topics for the t-test,
    all differences zero, no topic in outcome 2) are None.
    """
    ra, rb = _ranks(rank_a), _ranks(rank_b)
    if ra.shape != rb.shape:
        raise ValueError("rank_a and rank_b must have one value per topic each")
    n = int(ra.size)
    has_a, has_b = ra > 0, rb > 0
    both = has_a & has_b
    counts = {
        "n_neither": int(np.count_nonzero(~has_a & ~has_b)),
        "n_a_only": int(np.count_nonzero(has_a & ~has_b)),
        "n_b_only": int(np.count_nonzero(~has_a & has_b)),
        "n_both": int(np.count_nonzero(both)),
    }
    from ipsoeval import mean as one_mean
    rr_a_all, rr_b_all = reciprocal(ra), reciprocal(rb)
    out: dict = {"n": n}
    if n:
        out["mrr_a"] = one_mean.mean(rr_a_all)
        out["mrr_b"] = one_mean.mean(rr_b_all)
        out["mrr_diff"] = one_mean.mean(rr_b_all - rr_a_all)
    else:
        out["mrr_a"] = out["mrr_b"] = out["mrr_diff"] = None
    out.update(counts)
    for name in ("neither", "a_only", "b_only", "both"):
        out[f"pct_{name}"] = 100.0 * counts[f"n_{name}"] / n if n else None

    esl_a = ra[both].astype(np.float64)
    esl_b = rb[both].astype(np.float64)
    rr_a, rr_b = rr_a_all[both], rr_b_all[both]
    if esl_a.size:
        out["esl_a"], out["esl_b"] = one_mean.mean(esl_a), one_mean.mean(esl_b)
        out["rr_a"], out["rr_b"] = one_mean.mean(rr_a), one_mean.mean(rr_b)
    else:
        out["esl_a"] = out["esl_b"] = out["rr_a"] = out["rr_b"] = None
    out["esl_wilcoxon_p_value"], out["esl_t_p_value"], esl_w_dir = _paired_tests(esl_a, esl_b, alternative)
    out["rr_wilcoxon_p_value"], out["rr_t_p_value"], rr_w_dir = _paired_tests(rr_a, rr_b, alternative)

    # Outcome 2: per topic, "answered" is 1 or 0; the sign test drops the
    # zero differences (outcomes 1 and 3) and is exact binomial on the rest
    # (p = 1 when no topic is in outcome 2).
    out["answered_sign_p_value"] = (_pvalue(registry.run("sign", has_a.astype(np.float64),
                                                    has_b.astype(np.float64),
                                                    alternative=alternative))
                              if n else None)

    # Direction of each case-3 facet, for the verdict: +1 when B is better
    # (lower ESL, higher RR), by the mean or by the signed-rank sum.
    out["_direction"] = {
        ("esl", "mean"): -_sign(float((esl_b - esl_a).sum())),
        ("esl", "signed-rank"): -esl_w_dir,
        ("rr", "mean"): _sign(float((rr_b - rr_a).sum())),
        ("rr", "signed-rank"): rr_w_dir,
    }

    if naive:
        # Lin et al. Table 1: tests on per-topic RR@k over all topics.
        out["mrr_ranksum_p_value"] = (_pvalue(registry.run("ranksum", rr_a_all, rr_b_all,
                                                     alternative=alternative)) if n else None)
        out["mrr_wilcoxon_p_value"], out["mrr_t_p_value"], _ = _paired_tests(rr_a_all, rr_b_all, alternative)
    return out


def verdict(p_answered: float | None, n_a_only: int, n_b_only: int,
            p_rank: float | None, rank_direction: float, alpha: float) -> str:
    """Combine the answered facet (outcome 2) and the ranking facet (outcome 3).

    Each facet is +1 (B significantly better), −1 (B significantly worse) or
    0 (not significant: p ≥ alpha or undefined).

    * both +1: "better";  both −1: "worse";
    * one +1 and one −1: "mixed";
    * one +1, the other 0: "better (do no harm)"
      (significantly answers more without significantly raising ESL, or
      significantly lowers ESL without significantly answering fewer);
    * one −1, the other 0: "worse (do harm)";
    * both 0: "no significant difference".
    """
    ans = 0
    if p_answered is not None and p_answered < alpha and n_a_only != n_b_only:
        ans = 1 if n_b_only > n_a_only else -1
    rank = 0
    if p_rank is not None and p_rank < alpha and rank_direction != 0:
        rank = 1 if rank_direction > 0 else -1
    if ans == 1 and rank == 1:
        return VERDICT_BETTER
    if ans == -1 and rank == -1:
        return VERDICT_WORSE
    if ans * rank == -1:
        return VERDICT_MIXED
    if ans + rank == 1:
        return VERDICT_BETTER_NO_HARM
    if ans + rank == -1:
        return VERDICT_WORSE_HARM
    return VERDICT_NONE


# --------------------------------------------------------------------------
# on aligned runs
# --------------------------------------------------------------------------

def table_hints(naive: bool, corrected: bool) -> dict:
    """Hints for the table formatter: grouped headers mirroring Lin et al. Table 2.

    Counts, MRRs, the cutoff and run A (named in the title) are hidden;
    percentages are shown, as in the paper.  ``labels`` gives the paper's
    short column names for formatters that support them.
    """
    p_cols = P_COLUMNS + (NAIVE_P_COLUMNS if naive else [])
    adj = [adjusted(c) for c in p_cols] if corrected else []
    groups = [
        ["Runs", ["run_b", "mrr_diff"]],
        ["(1)", ["pct_neither"]],
        ["(2)", ["pct_a_only", "pct_b_only", "answered_sign_p_value"]],
        ["(3)", ["pct_both"]],
        ["(3) ESL", ["esl_a", "esl_b", "esl_wilcoxon_p_value", "esl_t_p_value"]],
        ["(3) RR", ["rr_a", "rr_b", "rr_wilcoxon_p_value", "rr_t_p_value"]],
    ]
    if naive:
        groups.append(["naive MRR", list(NAIVE_P_COLUMNS)])
    if corrected:
        groups.append(["adjusted", adj])
    labels = {
        "run_a": "A", "run_b": "B", "mrr_diff": "Δ",
        "pct_neither": "All %", "pct_a_only": "A wins %", "pct_b_only": "B wins %",
        "answered_sign_p_value": "sign p", "pct_both": "All %",
        "esl_a": "A ESL", "esl_b": "B ESL", "esl_wilcoxon_p_value": "WSR p", "esl_t_p_value": "t p",
        "rr_a": "A RR", "rr_b": "B RR", "rr_wilcoxon_p_value": "WSR p", "rr_t_p_value": "t p",
        "mrr_ranksum_p_value": "WRS p", "mrr_wilcoxon_p_value": "WSR p", "mrr_t_p_value": "t p",
    }
    styles = {VERDICT_BETTER: "bold green", VERDICT_BETTER_NO_HARM: "green",
              VERDICT_WORSE: "bold red", VERDICT_WORSE_HARM: "red",
              VERDICT_MIXED: "yellow", VERDICT_NONE: ""}
    return {
        "groups": groups,
        "hide": ["run_a", "k", "n", "mrr_a", "mrr_b", "n_neither", "n_a_only",
                 "n_b_only", "n_both"],
        "digits": 4,
        "cell_styles": {"verdict": styles},
        "labels": labels,
    }


def not_applicable(aligned) -> str | None:
    """Why the outcomes breakdown does not apply to ``aligned`` (None when it
    does): the one rule of every caller that applies it on its own
    (``report``, :func:`ipsoeval.experiment`).  Lin et al. (2021, §6) separate
    the outcomes by the rank of *the* relevant document, which needs one
    relevant document per topic; and it counts relevant documents by integer
    labels.  (``breakdown`` itself, asked for by name, runs with a warning.)"""
    if aligned.label_mode != "integer":
        return (f"no outcomes breakdown: it counts relevant documents by integer labels "
                f"(--labels {aligned.label_mode})")
    n_multi = int(np.count_nonzero(np.asarray(aligned.num_rel) > 1))
    if n_multi:
        return (f"no outcomes breakdown: {n_multi} of {len(aligned.topics)} topics have "
                f"more than one relevant document, and the breakdown (Lin et al. 2021) "
                f"assumes one per topic")
    return None


def first_relevant_from_engine(aligned, k: int) -> np.ndarray:
    """(R, T) first-relevant ranks in the top k, 0 where none: the engine's ESL@k."""
    from ipsoeval import engine
    from ipsoeval.measures import parse_measure
    esl = engine.evaluate(aligned, [parse_measure(f"ESL@{int(k)}")]).values
    return _ranks_matrix(next(iter(esl.values())))


def _ranks_matrix(esl: np.ndarray) -> np.ndarray:
    a = np.asarray(esl, dtype=np.float64)
    return np.where(np.isnan(a), 0, a).astype(np.int64)


def run(aligned, options: Options | None = None, **kw) -> Report:
    """Outcomes breakdown of the baseline against every other run of ``aligned``.

    ``options`` (or its fields as keywords).  Returns a Report with the tables
    ``summary`` (one record per pair) and ``topics`` (the outcome and
    first-relevant ranks of every topic and pair); the primary is ``topics``
    with ``per_query``, else ``summary``.
    """
    opts = options if options is not None else Options(**kw)
    runs = list(aligned.runs)
    opts.check(runs)
    k, naive, correct, alpha = opts.k, opts.naive, opts.correct, opts.alpha
    verdict_test, per_query = opts.verdict_test, opts.per_query
    base = runs.index(validate.baseline(opts.baseline, runs)) if opts.baseline is not None else 0
    others = [i for i in range(len(runs)) if i != base]

    warnings: list[str] = []
    num_rel = np.asarray(aligned.num_rel)
    n_multi = int(np.count_nonzero(num_rel > 1))
    if n_multi:
        warnings.append(
            f"{n_multi} of {len(num_rel)} topics have more than one relevant document; "
            "the breakdown assumes one and uses the first relevant document retrieved")
    n_none = int(np.count_nonzero(num_rel == 0))
    if n_none:
        warnings.append(
            f"{n_none} of {len(num_rel)} topics have no relevant document in the qrels; "
            "they always fall into outcome (1)")

    ranks = first_relevant_from_engine(aligned, k)   # (R, T)
    params = {"k": k, "baseline": runs[base], "naive": naive, "correct": correct,
              "alpha": alpha, "alternative": opts.alternative, "verdict_test": verdict_test,
              "test_note": TEST_NOTE.format(verdict=verdict_test),
              "rel_level": int(aligned.rel_level)}

    # the per-topic table
    records = []
    topics = list(aligned.topics)
    ra = ranks[base]
    for j in others:
        rb = ranks[j]
        oc = outcomes(ra, rb)
        for t, qid in enumerate(topics):
            records.append({
                "run_a": runs[base], "run_b": runs[j], "qid": qid,
                "outcome": oc[t],
                "rank_a": int(ra[t]) if ra[t] > 0 else None,
                "rank_b": int(rb[t]) if rb[t] > 0 else None,
            })
    per_topic = ResultSet(command=COMMAND, columns=list(PER_QUERY_COLUMNS),
                          records=records, params=dict(params, per_query=True),
                          title=f"Outcomes per topic at k={k}", id="topics",
                          description="per pair of runs and topic: the outcome (1, 2A, 2B, "
                                      "3) and each run's first relevant rank")

    p_cols = P_COLUMNS + (NAIVE_P_COLUMNS if naive else [])
    records = []
    directions = []
    for j in others:
        stats = compare_pair(ranks[base], ranks[j], naive=naive, alternative=opts.alternative)
        directions.append(stats.pop("_direction"))
        rec = {"run_a": runs[base], "run_b": runs[j], "k": k}
        rec.update(stats)
        records.append(rec)

    corrected = correct != "none"
    if corrected:
        where = [(i, c) for i, rec in enumerate(records) for c in p_cols
                 if rec[c] is not None]
        raw = np.array([records[i][c] for i, c in where], dtype=np.float64)
        adj = np.asarray(corrections.adjust(raw, correct), dtype=np.float64) if raw.size else raw
        for rec in records:
            for c in p_cols:
                rec[adjusted(c)] = None
        for (i, c), p in zip(where, adj):
            records[i][adjusted(c)] = float(p)

    p_rank_col, facet, how = VERDICT_TESTS[verdict_test]
    for rec, direc in zip(records, directions):
        col = adjusted if corrected else (lambda c: c)
        rec["verdict"] = verdict(rec[col("answered_sign_p_value")], rec["n_a_only"],
                                 rec["n_b_only"], rec[col(p_rank_col)],
                                 direc[(facet, how)], alpha)

    columns = list(SUMMARY_COLUMNS)
    if naive:
        columns += NAIVE_P_COLUMNS
    if corrected:
        columns += [adjusted(c) for c in p_cols]
    columns.append("verdict")
    records = [{c: rec[c] for c in columns} for rec in records]
    rs = ResultSet(command=COMMAND, columns=columns, records=records, params=params,
                   title=f"Outcomes breakdown at k={k}, A = {runs[base]} "
                         f"(Lin et al. 2021, Table 2)", id="summary",
                   description="per pair of runs: outcome shares, the tests of outcomes 2 "
                               "and 3, and the verdict",
                   table_hints=table_hints(naive, corrected))
    primary = "topics" if per_query else "summary"
    return Report(COMMAND, [rs, per_topic], primary=primary, display=[primary],
                  warnings=warnings)
