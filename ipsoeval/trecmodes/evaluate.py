"""``eval -R prefs|qrels_prefs|qrels_jg``: measures, topics and result columns.

Also the topic policy shared with qrels mode under ``--trec-eval-version``:
trec_eval 10.0 walks the topics of the relevance file (a topic missing from
the run stops it unless -c); 9.0.8 walks the run's topics and skips those
without judgments (with -c it still averages over every judged topic).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ipsoeval import reading
from ipsoeval.errors import InputError, UsageError
from ipsoeval.ids import id_sort_key
from ipsoeval.measures.trec_catalogue import hint, mode_of
from ipsoeval.parallel import parallel_map
from ipsoeval.trecmodes import jg as J
from ipsoeval.trecmodes import prefs as P
from ipsoeval.trecmodes.common import Column, rank_run

MODES = ("qrels", "prefs", "qrels_prefs", "qrels_jg")
PREFS_MODES = ("prefs", "qrels_prefs")


def mode_of_measure(name: str) -> str | None:
    """The -R mode a trec_eval measure name or nickname needs (None: qrels/any)."""
    return mode_of(name)


@dataclass
class ModeMeasures:
    mode: str
    names: list[str]            # requested names in trec_eval's table order (no params)
    jg_params: dict             # *_avgjg name -> cutoffs


def parse_measures(mode: str, args) -> ModeMeasures:
    """-m arguments in a prefs or qrels_jg mode (trec_eval's names only)."""
    family = P if mode in PREFS_MODES else J
    default = "prefs" if mode in PREFS_MODES else "qrels_jg"
    names: set[str] = set()
    params: dict = {}
    for arg in (args or [default]):
        base, dot, par = arg.strip().partition(".")
        if base in family.NICKNAMES and not dot:
            names.update(family.NICKNAMES[base])
            continue
        if base in ("runid", "num_q") and not dot:
            names.add(base)
            continue
        if mode in PREFS_MODES and base in P.MEASURE_SET and not dot:
            names.add(base)
            continue
        if mode == "qrels_jg" and base in J.MEASURES:
            if dot and base == "map_avgjg":
                raise UsageError(f"measure map_avgjg takes no parameters (found {arg!r})")
            names.add(base)
            if base != "map_avgjg":
                params[base] = J.parse_params(base, par if dot else None)
            continue
        need = mode_of_measure(arg)
        if need is not None:
            raise UsageError(f"measure {arg!r} needs -R {need if need != 'prefs' else 'prefs or -R qrels_prefs'} "
                             f"(found -R {mode})")
        raise UsageError(f"measure {arg!r} is not available with -R {mode} (use "
                         f"{', '.join(family.NICKNAMES)} or {family.MEASURES[0]} ...)")
    for b in J.MEASURES[1:]:
        if b in names and b not in params:
            params[b] = J.parse_params(b, None)
    table = ["runid", "num_q"] + (P.MEASURES if mode in PREFS_MODES else J.MEASURES)
    return ModeMeasures(mode, [n for n in table if n in names], params)


def check_mode_measures(mode: str, args) -> None:
    """In qrels mode, a prefs_* or *_avgjg measure is a usage error."""
    for a in args or ():
        msg = hint(a)
        if msg is not None:
            raise UsageError(msg)


def topic_plan(rel_topics: list[str], run_topics: set[str], *, queries: str, version: str,
               path: str) -> tuple[list[str], np.ndarray, list[str], int | None]:
    """Topics evaluated for one run, which of them to print per topic, warnings,
    and the number of topics means divide by (None: the topics evaluated).

    ``version`` is "ipsoeval", "9" or "10" (--trec-eval-version).  trec_eval 9
    with -c evaluates only the run's topics but divides by every judged topic.
    """
    warnings = []
    rel = set(rel_topics)
    missing = [t for t in rel_topics if t not in run_topics]
    extra = len(run_topics - rel)
    if extra:
        warnings.append(f"{path}: {extra} topic(s) not in the qrels ignored")
    if queries == "strict" and (missing or extra):
        raise InputError(f"--queries strict: topics differ ({len(missing)} qrels topic(s) "
                         f"missing from the run, {extra} run topic(s) not in the qrels)",
                         path=path)
    if queries == "qrels":
        if missing:
            how = ("count as 0 in the means (trec_eval 9 -c)" if version == "9"
                   else "evaluated as empty rankings")
            warnings.append(f"{path}: {len(missing)} qrels topic(s) missing from the run {how}")
        if version == "9":
            topics = [t for t in rel_topics if t in run_topics]
            if not topics:
                raise InputError("no topic in common between run and relevance file",
                                 path=path)
            return topics, np.ones(len(topics), dtype=bool), warnings, len(rel_topics)
        return list(rel_topics), np.ones(len(rel_topics), dtype=bool), warnings, None
    if missing and version == "10":
        raise InputError(f"qrels topic {missing[0]!r} is missing from the run (trec_eval 10 "
                         f"stops here; -c evaluates it as an empty ranking)", path=path)
    if missing:
        warnings.append(f"{path}: {len(missing)} qrels topic(s) missing from the run skipped")
    topics = [t for t in rel_topics if t in run_topics]
    if not topics:
        raise InputError("no topic in common between run and relevance file", path=path)
    return topics, np.ones(len(topics), dtype=bool), warnings, None


@dataclass
class RunResult:
    run: str
    topics: list[str]
    columns: list[Column]
    show: np.ndarray
    denominator: int | None = None   # -c with -D qid: every judged topic


def evaluate(mode: str, rel_path: str, run_paths, measures: ModeMeasures, *,
             queries: str = "intersection", version: str = "ipsoeval", depth=None,
             judged_only: bool = False, rel_level: int = 1, tie_break: str = "trec",
             run_format: str = "auto", run_names=None, only_topic: str | None = None
             ) -> tuple[list[RunResult], list[str]]:
    run_paths = list(run_paths)
    reading.check_stdin_once([rel_path, *run_paths])
    if mode in PREFS_MODES:
        info = P.read_prefs(rel_path, mode)
        rel_topics = list(info.topics)
    else:
        info = J.read_qrels_jg(rel_path)
        rel_topics = sorted(info.topics, key=id_sort_key)
    n_judged = len(rel_topics)
    if only_topic is not None:
        rel_topics = [t for t in rel_topics if t == only_topic]
        if not rel_topics:
            raise InputError(f"topic {only_topic!r} (-D) is not in the relevance file",
                             path=info.path)
    runs = parallel_map(lambda i: reading.read_run(
        run_paths[i], run_format=run_format, name=run_names[i] if run_names else None),
        range(len(run_paths)))
    names = [r.name for r in runs]
    for r in runs:                       # same tag in several files: add the file name
        if names.count(r.name) > 1:
            r.name = f"{r.name}[{r.path}]"
    warnings: list[str] = [w for r in runs for w in r.warnings]   # ids not UTF-8
    results = []
    wanted = set(measures.names)
    wanted_jg = {n: measures.jg_params.get(n) for n in measures.names if n in J.MEASURES}
    for run in runs:
        ranked = rank_run(run, docno_ties="asc" if mode in PREFS_MODES else "desc",
                          depth=depth, tie_break=tie_break)
        topics, show, w, denom = topic_plan(rel_topics, set(ranked.topics), queries=queries,
                                     version=version, path=run.path)
        warnings.extend(w)

        def one(qid):
            rt = ranked.topics.get(qid)
            docs = rt.docno if rt is not None else None
            if mode in PREFS_MODES:
                return P.topic_values(info.topics[qid], docs, wanted, info.path, qid)
            return J.topic_values(info.topics[qid], docs, wanted_jg, rel_level,
                                  judged_only)

        per_topic = parallel_map(one, topics)
        if wanted & {"prefs_avgjg_Rnonrel", "prefs_avgjg_Rnonrel_ret"}:
            short = [q for q, v in zip(topics, per_topic) if v.get("_short_last")]
            if short:
                warnings.append(
                    f"{info.path}: prefs_avgjg_Rnonrel: in {len(short)} topic(s) (e.g. "
                    f"{short[0]!r}) the lowest relevance class of a judgment group has fewer "
                    f"than R documents; trec_eval 10.0 then reads past its end (undefined "
                    f"values), ipsoeval counts only the documents it has")
        cols = []
        for name in measures.names:
            if name == "runid":
                cols.append(Column("runid", "text", "text", False, np.zeros(0), text=run.name))
            elif name == "num_q":
                cols.append(Column("num_q", "int", "count", False,
                                   np.ones(len(topics))))
            elif mode in PREFS_MODES:
                kind, agg = ("int", "sum") if name in P.COUNTS else ("float", "mean")
                cols.append(Column(name, kind, agg, True,
                                   np.array([v[name] for v in per_topic], dtype=np.float64)))
            else:
                for lab in J.labels({name: measures.jg_params.get(name)}):
                    cols.append(Column(lab, "float", "mean", True,
                                       np.array([v[lab] for v in per_topic],
                                                dtype=np.float64)))
        if only_topic is not None and queries == "qrels":
            denom = n_judged
        results.append(RunResult(run.name, topics, cols, show, denom))
    return results, warnings


# --- qrels mode: scores as columns, result sets --------------------------------

V9_ABSENT = ("rbp", "rbp_resid", "unj_")     # all_trec measures new in trec_eval 10


def drop_v10_only(reqs):
    """trec_eval 9.0.8's all_trec has no rbp, rbp_resid, unj_*: drop them from
    the nickname (naming one explicitly is a usage error under version 9)."""
    out = []
    for r in reqs:
        lab = r.label or ""
        new = lab in ("rbp", "rbp_resid") or lab.startswith("unj_")
        if new and r.source in ("all_trec", "set", "official"):
            continue
        if new:
            raise UsageError(f"measure {lab!r} is not in trec_eval 9.0.8 "
                             f"(--trec-eval-version 9)")
        out.append(r)
    return out


def columns_from_scores(scores, run_index: int, topic_rows: np.ndarray,
                        runid: bool = True, complete: bool = False) -> list[Column]:
    """The requested measures of one run as columns over the given topics.

    With ``complete`` (-c), num_rel's 'all' value is the raw count over every
    judged topic, as trec_eval prints it (even under -Z or -D).
    """
    cols = []
    for r in scores.requested:
        m = r.measure
        if m.family == "runid":
            if runid:
                cols.append(Column(r.label, "text", "text", False, np.zeros(0),
                                   text=scores.runs[run_index]))
            continue
        vals = scores.matrix(m)[run_index][topic_rows]
        kind = m.kind
        agg = m.agg if m.agg in ("mean", "sum", "gm", "count", "text") else "mean"
        if vals.dtype == object:
            kind, agg = "text", "text"
        col = Column(r.label, kind, agg, m.fam.per_query, vals, zkey=m.trec_name)
        if complete and m.family == "NumRel":
            col.fixed_all = float(scores.matrix(m)[run_index].sum())
        cols.append(col)
    return cols


def result_set(blocks, *, per_query: bool, summary: bool, zscores=None, params=None):
    """ResultSet of eval records from (run, topics, columns, show, denominator) blocks."""
    from ipsoeval.analyses.evaluate import COLUMNS, DESCRIPTION
    from ipsoeval.results import ResultSet
    from ipsoeval.trecmodes.common import records
    recs = []
    for run, topics, cols, show, denom in blocks:
        recs.extend(records(run, topics, cols, per_query=per_query, summary=summary,
                            zscores=zscores, show=show, denominator=denom))
    index = ["qid", "measure"] if any(r["qid"] != "all" for r in recs) else ["measure"]
    return ResultSet(command="eval", columns=list(COLUMNS), records=recs, params=params or {},
                     title="ipsoeval eval",
                     id="scores", description=DESCRIPTION,
                     table_hints={"pivot": {"index": index, "columns": "run",
                                            "values": "value"}})
