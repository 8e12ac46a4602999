"""``ipsoeval ipso``: innate pairwise SERP orderings over topic sets.

Moffat & Mackenzie (2024), "How much freedom does an effectiveness metric
really have?", JASIST 75(6), §2–3.  The numeric core is
:mod:`ipsoeval.analyses.ipso_core`; this module applies it to runs aligned to
qrels and builds the result records:

- :func:`run` — per pair of runs the five groups of §3.4 and the sign test of
  |ns| vs |ni| (with the range of p if every ** topic broke one way), the
  reporting protocol of §3.6 with ``measures``/``tests``, the per-topic view
  of Figures 5–6, and for many runs Table 3 (fractions per depth) and
  Figure 7 (agreement of the IPSO sign test with metric tests);
- :func:`enumerate_table` — Table 2, exactly, for any k.
"""

from __future__ import annotations

import re

import numpy as np

from ipsoeval.analyses.ipso import TESTS, core
from ipsoeval.analyses.ipso.options import (  # noqa: F401  (re-exported)
    MAX_ENUMERATE_K,
    MAX_K,
    Options,
    parse_depths,
    parse_enumerate,
)
from ipsoeval.errors import UsageError
from ipsoeval.results import Report, ResultSet
from ipsoeval.stats import registry

# ipsoeval.stats.tests (and scipy) is imported where it is needed, so that
# --enumerate starts fast.

COMMAND = "ipso"


PAIR_COLUMNS = ["run_a", "run_b", "k", "n", "n_nonsep_via_ns", "n_ns",
                "n_equal", "n_ni", "n_nonsep_via_ni", "sign_p_value", "sign_p_value_min",
                "sign_p_value_max"]
METRIC_COLUMNS = ["measure", "test", "permissible", "mean_a", "mean_b", "diff",
                  "metric_p_value", "claim"]
TOPIC_COLUMNS = ["run_a", "run_b", "qid", "serp_a", "serp_b", "relation", "group",
                 "trajectory", "nonsep_depth"]
DEPTH_COLUMNS = ["k", "n_serp_pairs", "n_equal", "n_separable", "n_nonseparable",
                 "pct_equal", "pct_separable", "pct_nonseparable"]
AGREEMENT_COLUMNS = ["measure", "test", "k", "alpha", "n_run_pairs", "both_yes",
                     "both_no", "metric_only", "ipso_only", "pct_both_yes",
                     "pct_both_no", "pct_metric_only", "pct_ipso_only",
                     "n_opposite"]
ENUMERATE_COLUMNS = ["k", "pct_equal", "pct_separable", "pct_nonseparable",
                     "n_equal", "n_separable", "n_nonseparable"]

# Colours of Figures 2, 4–6 (table format only).
RELATION_STYLES = {
    "==": "bold white on dark_blue",
    "ni": "black on yellow",
    "ns": "black on light_sky_blue1",
    "**": "bold white on red",
}
# diff = M(B) - M(A): positive is B ahead (ns, A non-superior), negative A ahead (ni)
DIFF_STYLES = {"positive": "black on light_sky_blue1", "negative": "black on yellow",
               "zero": "bold white on dark_blue"}


def figure5_measures(k: int) -> list[str]:
    """The score-difference columns of Figure 5, at depth k."""
    return [f"RR@{k}", f"P@{k}", f"RBP(p=0.5)@{k}", f"RBP(p=0.8)@{k}",
            f"AP@{k}", f"nDCG@{k}"]


def column_name(measure: str) -> str:
    """lower_snake_case column for a measure name: ``RBP(p=0.5)@10`` →
    ``rbp_p_0_5_10``."""
    s = re.sub(r"[^0-9a-zA-Z]+", "_", measure).strip("_").lower()
    return s or "measure"


# ------------------------------------------------------------------ options

# --------------------------------------------------------------- relevance

def is_graded(aligned) -> bool:
    """More than one positive relevance label in the qrels."""
    levels: set[int] = set()
    for lab in aligned.judged_labels:
        levels.update(int(x) for x in np.unique(lab) if x > 0)
        if len(levels) > 1:
            return True
    return False


def ipso_gains(aligned, graded: str, *, gains_given: bool, rel_level_given: bool,
               graded_given: bool = False) -> tuple[np.ndarray, str]:
    """The per-rank values Algorithm 1 compares, (R, T, D), and a short
    description of them for the output's params.

    - ``--gains`` given: the mapped gains (a ratio scale, §3.8);
    - binary qrels, or ``-l`` given: relevant = label ≥ level (0/1);
    - graded qrels with ``--graded threshold`` given explicitly: the labels
      themselves, since threshold dominance needs only their order;
    - otherwise a usage error: Algorithm 1 adds gains, and ordinal grades
      must not be added (§3.8).
    """
    if gains_given and aligned.gain_map is not None:
        return aligned.gains(), "gains"
    if rel_level_given or not is_graded(aligned):
        return aligned.relevant(), f"binary (label >= {aligned.rel_level})"
    if graded == "threshold" and graded_given:
        lab = aligned.labels
        return np.where(lab > 0, lab, 0).astype(np.int32), "ordinal labels (threshold)"
    raise UsageError(
        "the qrels have graded labels; IPSO adds gains (paper §3.8), so give a gain "
        "map with --gains (e.g. --gains 0:0,1:1,2:3), binarise with -l LEVEL, or "
        "use --graded threshold (found labels "
        + ", ".join(str(v) for v in sorted({int(x) for lab in aligned.judged_labels
                                             for x in np.unique(lab)}))
        + ")")


def serp_strings(aligned, k: int, binary: bool) -> np.ndarray:
    """(R, T) strings: per rank '1'/'0' (binary) or the label digit (graded),
    '.' past the end of the ranking.  Unjudged documents show as '0'."""
    from ipsoeval.model import PAD
    lab = aligned.labels
    R, T, D = lab.shape
    if D >= k:
        lab = lab[..., :k]
    else:
        lab = np.concatenate([lab, np.full((R, T, k - D), PAD, dtype=lab.dtype)], axis=2)
    if binary:
        ch = np.where(lab >= aligned.rel_level, "1", "0")
    else:
        clipped = np.clip(lab, 0, 10)
        digits = np.array(list("0123456789+"))
        ch = digits[clipped]
    ch = np.where(lab == PAD, ".", ch)
    flat = ch.reshape(R * T, k)
    return np.array(["".join(row) for row in flat.tolist()], dtype=object).reshape(R, T)


# ----------------------------------------------------------------- metrics

def _measure_scores(aligned, names: list[str], warnings: list | None = None):
    """{name: (canonical, scale, (R, T) scores)} computed by the engine;
    ``warnings`` extended with the scores' own (engine.score_warnings)."""
    from ipsoeval import engine
    from ipsoeval.measures import parse_measure
    measures = [parse_measure(n) for n in names]
    scores = engine.evaluate(aligned, measures)
    if warnings is not None:
        warnings.extend(engine.score_warnings(scores))
    from ipsoeval.stats.scales import measure_scale
    return {n: (m.name, measure_scale(m, aligned)[0], np.asarray(scores.matrix(m), dtype=np.float64))
            for n, m in zip(names, measures)}


def _metric_test(test: str, a: np.ndarray, b: np.ndarray, opts: Options) -> np.ndarray:
    """p-values of ``test`` for paired rows a, b (..., T); differences b − a."""
    r = registry.run(test, a, b, alternative=opts.alternative, samples=opts.samples,
                     seed=opts.seed)
    return np.asarray(r.pvalue, dtype=np.float64)


def _nanmean(x: np.ndarray) -> np.ndarray:
    """Each row's mean over its defined values: the one mean of every command."""
    from ipsoeval import mean as one_mean
    x = np.asarray(x, dtype=np.float64)
    lead = x.shape[:-1]
    rows = int(np.prod(lead)) if lead else 1
    got = one_mean.means(x.reshape(rows, x.shape[-1]), skip_nan=True)
    return np.asarray(got, dtype=np.float64).reshape(lead)


def claim(p_metric: float, p_sign: float, diff: float, n_ns: int, n_ni: int,
          alpha: float) -> str:
    """§3.6: "†" when the metric test is significant; "†‡" when the IPSO sign
    test is significant too and favours the same run (|ns| > |ni| when B has
    the higher mean, |ni| > |ns| when A has); "" otherwise."""
    if not (p_metric < alpha):
        return ""
    same_way = (diff > 0 and n_ns > n_ni) or (diff < 0 and n_ni > n_ns)
    if p_sign < alpha and same_way:
        return "†‡"
    return "†"


# ------------------------------------------------------------------ core

def sign_p_counts(n_ns, n_ni) -> np.ndarray:
    """Two-sided exact sign test p for counts |ns| vs |ni| (arrays), via the
    shared statistics layer."""
    n_ns = np.asarray(n_ns, dtype=np.int64)
    n_ni = np.asarray(n_ni, dtype=np.int64)
    width = max(int((n_ns + n_ni).max()) if n_ns.size else 0, 1)
    i = np.arange(width)
    out = np.where(i < n_ns[..., None], -1.0,
                   np.where(i < (n_ns + n_ni)[..., None], 1.0, 0.0))
    return np.asarray(registry.run("sign", np.zeros(out.shape), out).pvalue, dtype=np.float64)


def sign_pvalues(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """From group counts (..., 5): the sign test p of |ns| vs |ni|, and the
    smallest and largest p over every way the ** topics could break (each
    towards A or towards B).  The smallest is at one extreme (all of them
    towards the side that leads); the largest where the break balances the
    two sides best, which is 1 whenever the ** topics can close the gap."""
    c = np.asarray(counts, dtype=np.int64)
    ns, ni = c[..., 1], c[..., 3]
    s = c[..., 0] + c[..., 4]
    p = sign_p_counts(ns, ni)
    p_to_a = sign_p_counts(ns, ni + s)
    p_to_b = sign_p_counts(ns + s, ni)
    # x of the s topics towards B (the ns side): best balance at ns + x = ni + s - x
    x = np.clip((ni + s - ns) // 2, 0, s)
    p_bal = np.maximum(sign_p_counts(ns + x, ni + s - x),
                       sign_p_counts(ns + np.minimum(x + 1, s), ni + s - np.minimum(x + 1, s)))
    return p, np.minimum(p_to_a, p_to_b), np.maximum(np.maximum(p_to_a, p_to_b), p_bal)


def crossings_for_pairs(G: np.ndarray, k: int, graded: str, pairs, all_pairs: bool,
                        progress=None) -> tuple[np.ndarray, np.ndarray]:
    """(fp, fn) arrays (P, T) for the given run pairs."""
    if all_pairs:
        return core.all_pairs_crossings(G, k, graded, progress=progress)
    ia, ib = pairs
    return core.crossings(G[ia], G[ib], k, graded)


def run(aligned, opts: Options, *, gains_given: bool = False, rel_level_given: bool = False,
        graded_given: bool = False, progress=None, enumerate_ks: list[int] | None = None
        ) -> Report:
    """The Report of one ``ipso`` invocation on aligned runs: tables ``pairs``
    (primary), ``topics`` (``per_query``; then primary), ``depths`` and, with
    measures, ``agreement`` (``all_pairs``), ``enumerate`` (``enumerate_ks``)."""
    if aligned.ties_averaged:
        from ipsoeval.errors import UsageError
        raise UsageError("ipso compares the rankings themselves, rank by rank: --tie-break "
                         "expected (an expectation of measure values) does not apply; "
                         "choose an order (trec, docno-asc, input)")
    opts.check(list(aligned.runs))
    R = len(aligned.runs)
    if R < 2:
        raise UsageError(f"ipso compares runs: give at least two (got {R})")
    if not aligned.topics:
        raise UsageError("no topics to compare")
    k = opts.k
    G, gain_desc = ipso_gains(aligned, opts.graded, gains_given=gains_given,
                              rel_level_given=rel_level_given, graded_given=graded_given)
    if opts.all_pairs:
        ia, ib = core.run_pairs(R)
    else:
        base = aligned.runs.index(opts.baseline) if opts.baseline is not None else 0
        ib = np.array([j for j in range(R) if j != base], dtype=np.int64)
        ia = np.full(R - 1, base, dtype=np.int64)
    fp, fn = crossings_for_pairs(G, k, opts.graded, (ia, ib), opts.all_pairs, progress)

    params = {"k": k, "graded": opts.graded, "values": gain_desc, "alpha": opts.alpha,
              "n_runs": R, "n_topics": len(aligned.topics),
              "pairs": "all" if opts.all_pairs else f"{aligned.runs[int(ia[0])]} vs each"}
    warnings: list[str] = []            # the metric tests' scores: ties the order moves
    scores = _measure_scores(aligned, opts.measures, warnings) if opts.measures else {}
    if opts.measures:
        params["tests"] = list(opts.tests) or {c: _tests(opts, sc)[0]
                                               for c, sc, _ in scores.values()}
        params["test_note"] = registry.test_note(opts.tests, {c: sc for c, sc, _ in
                                                              scores.values()})
        params["measures"] = list(opts.measures)
        params["alternative"] = opts.alternative
    if opts.correct != "none":
        params["correction"] = opts.correct
        params["correction_family"] = ("every p-value of the invocation: the IPSO sign test "
                                       "of each pair at each depth reported and each metric "
                                       "test of each pair, measure and test")
        if any(registry.get(t).resampling for t in opts.tests):
            params["samples"] = opts.samples
            params["seed"] = opts.seed

    metric_p = {}
    for name, (_, scale, S) in scores.items():
        for test in _tests(opts, scale):
            metric_p[(name, test)] = _metric_test(test, S[ia], S[ib], opts)

    summary_depths = opts.depths if (opts.depths and not opts.all_pairs) else [k]
    adjusted = corrected(fp, fn, summary_depths, metric_p, opts.correct)
    results: list[ResultSet] = []
    if opts.all_pairs:
        depths = opts.depths or list(range(1, k + 1))
        results.append(depth_table(fp, fn, k, depths, params))
        if opts.measures:
            results.append(agreement_table(fp, fn, k, ia, ib, scores, metric_p, opts, params,
                                           adjusted))
    results.append(pair_table(aligned, fp, fn, ia, ib, summary_depths, scores, metric_p,
                              opts, params, adjusted))
    if opts.per_query:
        results.append(topic_table(aligned, G, fp, fn, ia, ib, k, opts, params,
                                   binary=gain_desc.startswith("binary")))
    if enumerate_ks is not None:
        results.append(enumerate_table(enumerate_ks))
    return Report(COMMAND, results, primary="topics" if opts.per_query else "pairs",
                  warnings=warnings)


def _tests(opts, scale) -> list[str]:
    """The metric tests of a measure on ``scale``: --test's, else the one
    policy of every command (registry.default_for)."""
    return list(opts.tests) or [registry.default_for(scale, TESTS)]


def corrected(fp, fn, depths, metric_p: dict, method: str):
    """``--correct``: ({depth: adjusted sign-test p per pair}, {(measure, test):
    adjusted metric p per pair}) over one family, every p-value of the invocation;
    None without a correction."""
    if method == "none":
        return None
    from ipsoeval.stats.corrections import adjust
    sign = {d: sign_pvalues(core.group_counts(core.group(fp, fn, d)))[0] for d in depths}
    parts = [np.asarray(v, dtype=np.float64) for v in sign.values()] + \
        [np.asarray(v, dtype=np.float64) for v in metric_p.values()]
    flat = adjust(np.concatenate(parts), method) if parts else np.zeros(0)
    out_sign, out_metric, at = {}, {}, 0
    for d, v in sign.items():
        out_sign[d] = flat[at:at + len(v)]
        at += len(v)
    for key, v in metric_p.items():
        out_metric[key] = flat[at:at + len(v)]
        at += len(v)
    return out_sign, out_metric


def pair_table(aligned, fp, fn, ia, ib, depths, scores, metric_p, opts, params,
               adjusted=None) -> ResultSet:
    T = len(aligned.topics)
    records = []
    per_depth = {}
    for d in depths:
        counts = core.group_counts(core.group(fp, fn, d))
        per_depth[d] = (counts, *sign_pvalues(counts))
    for p in range(len(ia)):
        for d in depths:
            counts, ps, pmin, pmax = per_depth[d]
            c = counts[p].tolist()
            base = {"run_a": aligned.runs[ia[p]], "run_b": aligned.runs[ib[p]], "k": d,
                    "n": T, "n_nonsep_via_ns": c[0], "n_ns": c[1], "n_equal": c[2],
                    "n_ni": c[3], "n_nonsep_via_ni": c[4], "sign_p_value": float(ps[p]),
                    "sign_p_value_min": float(pmin[p]), "sign_p_value_max": float(pmax[p])}
            sign_for_claim = base["sign_p_value"]
            if adjusted is not None:
                base["sign_p_adjusted"] = sign_for_claim = float(adjusted[0][d][p])
            if not scores:
                records.append(base)
                continue
            for name, (canon, scale, S) in scores.items():
                ma = float(_nanmean(S[ia[p]]))
                mb = float(_nanmean(S[ib[p]]))
                diff = mb - ma
                for test in _tests(opts, scale):
                    pm = float(metric_p[(name, test)][p])
                    rec = dict(base)
                    rec.update({
                        "measure": canon, "test": test,
                        "permissible": registry.permissible(scale, test),
                        "mean_a": _clean(ma), "mean_b": _clean(mb), "diff": _clean(diff),
                        "metric_p_value": _clean(pm),
                    })
                    if adjusted is not None:
                        pm = float(adjusted[1][(name, test)][p])
                        rec["metric_p_adjusted"] = _clean(pm)
                    rec["claim"] = claim(pm, sign_for_claim, diff, c[1], c[3], opts.alpha)
                    records.append(rec)
    columns = PAIR_COLUMNS + (METRIC_COLUMNS if scores else [])
    if adjusted is not None:          # --correct: the adjusted p-values beside the raw ones
        columns.insert(columns.index("sign_p_value_max") + 1, "sign_p_adjusted")
        if scores:
            columns.insert(columns.index("metric_p_value") + 1, "metric_p_adjusted")
    records = [{c: r.get(c) for c in columns} for r in records]
    groups = [["runs", ["run_a", "run_b", "k", "n"]],
              ["IPSO groups (§3.4)", ["n_nonsep_via_ns", "n_ns", "n_equal", "n_ni",
                                      "n_nonsep_via_ni"]],
              ["IPSO sign test (‡)", ["sign_p_value", "sign_p_value_min",
                                      "sign_p_value_max"]]]
    if scores:
        groups.append(["metric (†, diff = B − A)", list(METRIC_COLUMNS)])
    hints = {"groups": groups, "digits": 4, "hide": ["n"]}
    return ResultSet(COMMAND, columns, records, params=dict(params),
                     title="IPSO per pair of runs (groups of §3.4, sign test |ns| vs |ni|)",
                     table_hints=hints, id="pairs",
                     description="per pair of runs (and depth): the five IPSO groups and the "
                                 "sign test of |ns| against |ni|; with -m the metric tests")


def _clean(x: float):
    return None if x is None or not np.isfinite(x) else float(x)


def topic_table(aligned, G, fp, fn, ia, ib, k, opts, params, binary: bool) -> ResultSet:
    diff_names = figure5_measures(k)
    for m in opts.measures:
        if m not in diff_names:
            diff_names.append(m)
    scores = _measure_scores(aligned, diff_names)
    diff_cols = []
    seen = set()
    for name in diff_names:
        col = column_name(scores[name][0]) + "_diff"
        if col in seen:
            continue
        seen.add(col)
        diff_cols.append((col, name))
    serps = serp_strings(aligned, k, binary)
    rel = core.relation_at(fp, fn, k)
    grp = core.group(fp, fn, k)
    nsd = core.nonsep_depth(fp, fn, k)
    records = []
    for p in range(len(ia)):
        a, b = ia[p], ib[p]
        order = core.display_order(fp[p], fn[p], k)
        for t in order.tolist():
            rec = {"run_a": aligned.runs[a], "run_b": aligned.runs[b],
                   "qid": aligned.topics[t], "serp_a": serps[a, t], "serp_b": serps[b, t],
                   "relation": core.SYMBOLS[int(rel[p, t])], "group": int(grp[p, t]),
                   "trajectory": core.trajectory_string(int(fp[p, t]), int(fn[p, t]), k),
                   "nonsep_depth": int(nsd[p, t]) or None}
            for col, name in diff_cols:
                S = scores[name][2]
                rec[col] = _clean(float(S[b, t] - S[a, t]))
            records.append(rec)
    columns = TOPIC_COLUMNS + [c for c, _ in diff_cols]
    hints = {
        "cell_styles": {"relation": dict(RELATION_STYLES)},
        "token_styles": {"trajectory": {"sep": ",", "styles": dict(RELATION_STYLES)}},
        "sign_styles": {c: dict(DIFF_STYLES) for c, _ in diff_cols},
        "digits": 2,
        "groups": [["score difference M(B) − M(A)", [c for c, _ in diff_cols]]],
    }
    single = len(ia) == 1
    if single:   # the pair is in the title; keep the table narrow
        hints["hide"] = ["run_a", "run_b"]
    return ResultSet(COMMAND, columns, records,
                     params=dict(params, diff="M(B) - M(A)",
                                 diff_measures=[scores[n][0] for _, n in diff_cols]),
                     title=(f"IPSO per topic at k = {k}"
                            + (f", A = {aligned.runs[ia[0]]}, B = {aligned.runs[ib[0]]}"
                               if single else "")
                            + " (Figure 5 order; differences M(B) − M(A))"),
                     table_hints=hints, id="topics",
                     description="per pair of runs and topic: SERPs, IPSO relation, trajectory "
                                 "and score differences B - A (Figure 5)")


def depth_table(fp, fn, k, depths, params) -> ResultSet:
    dc = core.depth_counts(fp, fn, k)
    n = int(np.size(fp))
    records = []
    for d in depths:
        eq = int(dc["equal"][d - 1])
        sep = int(dc["ni"][d - 1] + dc["ns"][d - 1])
        ns = int(dc["nonsep"][d - 1])
        records.append({"k": d, "n_serp_pairs": n, "n_equal": eq, "n_separable": sep,
                        "n_nonseparable": ns,
                        "pct_equal": 100.0 * eq / n if n else None,
                        "pct_separable": 100.0 * sep / n if n else None,
                        "pct_nonseparable": 100.0 * ns / n if n else None})
    hints = {"digits": 2}
    return ResultSet(COMMAND, DEPTH_COLUMNS, records, params=dict(params),
                     title="SERP pairs by depth: equal / separable / non-separable (Table 3)",
                     table_hints=hints, id="depths",
                     description="per depth: SERP pairs of all run pairs and topics that are "
                                 "equal, separable, non-separable (Table 3)")


def agreement_table(fp, fn, k, ia, ib, scores, metric_p, opts, params,
                    adjusted=None) -> ResultSet:
    counts = core.group_counts(core.group(fp, fn, k))
    p_sign = sign_p_counts(counts[:, 1], counts[:, 3])
    if adjusted is not None:        # --correct: decisions on the adjusted p-values
        p_sign = adjusted[0][k]
        metric_p = adjusted[1]
    ipso_sig = p_sign < opts.alpha
    ipso_dir = np.sign(counts[:, 3] - counts[:, 1])      # +1: A ahead (ni > ns)
    n = len(ia)
    records = []
    for name, (canon, scale, S) in scores.items():
        mdir = -np.sign(_nanmean(S[ib]) - _nanmean(S[ia]))  # +1: A ahead
        for test in _tests(opts, scale):
            msig = metric_p[(name, test)] < opts.alpha
            both_yes = int((msig & ipso_sig).sum())
            both_no = int((~msig & ~ipso_sig).sum())
            m_only = int((msig & ~ipso_sig).sum())
            i_only = int((~msig & ipso_sig).sum())
            opposite = int((msig & ipso_sig & (mdir != ipso_dir)).sum())
            records.append({
                "measure": canon, "test": test, "k": k, "alpha": opts.alpha, "n_run_pairs": n,
                "both_yes": both_yes, "both_no": both_no, "metric_only": m_only,
                "ipso_only": i_only,
                "pct_both_yes": 100.0 * both_yes / n, "pct_both_no": 100.0 * both_no / n,
                "pct_metric_only": 100.0 * m_only / n, "pct_ipso_only": 100.0 * i_only / n,
                "n_opposite": opposite})
    hints = {"digits": 1,
             "groups": [["Figure 7 categories (pairs of runs)",
                         ["both_yes", "both_no", "metric_only", "ipso_only"]]]}
    return ResultSet(COMMAND, AGREEMENT_COLUMNS, records, params=dict(params),
                     title="Agreement of metric tests with the IPSO sign test (Figure 7)",
                     table_hints=hints, id="agreement",
                     description="per measure and test: run pairs where the metric test and "
                                 "the IPSO sign test agree or not (Figure 7)")


# ------------------------------------------------------------- Table 2

def enumerate_table(ks: list[int]) -> ResultSet:
    """Exact fractions of the 4^k binary SERP pairs (Table 2)."""
    records = []
    for k in ks:
        if not 1 <= k <= MAX_ENUMERATE_K:
            raise UsageError(f"--enumerate: k must be in 1..{MAX_ENUMERATE_K} (got {k})")
        eq, sep, ns = core.enumerate_counts(k)
        records.append({"k": k, "pct_equal": core.percentage(eq, k),
                        "pct_separable": core.percentage(sep, k),
                        "pct_nonseparable": core.percentage(ns, k),
                        # exact counts as decimal strings: JSON parsers round
                        # integers past 2^53 (k = 100 has 60 digits)
                        "n_equal": str(eq), "n_separable": str(sep), "n_nonseparable": str(ns)})
    hints = {"digits": 2}
    if max(ks) > 30:   # exact counts of hundreds of digits: tsv/json only
        hints["hide"] = ["n_equal", "n_separable", "n_nonseparable"]
    return ResultSet(COMMAND, ENUMERATE_COLUMNS, records,
                     params={"enumerate": ks, "total": "4^k ordered pairs of binary k-SERPs",
                             "counts": "decimal strings (exact; JSON numbers would be rounded)",
                             "method": "exact: equal 2^k, separable 2(C(2k+1,k) - 2^k)"},
                     title="All binary SERP pairs of length k, exactly (Table 2)",
                     table_hints=hints, id="enumerate",
                     description="per k: equal, separable and non-separable among all binary "
                                 "SERP pairs of length k, exactly (Table 2)")


def enumerate_report(ks: list[int]) -> Report:
    """``ipso --enumerate`` without runs: Table 2 alone."""
    return Report(COMMAND, [enumerate_table(ks)])
