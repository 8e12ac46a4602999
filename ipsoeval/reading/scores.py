"""Per-topic scores from any tool (``--scores FILE...``): the one reader of score
files, into a :class:`TopicScores` (the analyses that apply to scores alone are
in :mod:`ipsoeval.analyses.scores`).

Score files are small (a value per run, topic and measure): they are read
whole (:func:`ipsoeval.reading.opening.read_bytes`, decompressed by magic
bytes) and parsed line by line in Python; neither numpy's tokeniser nor the
compiled core is involved.

Formats (detected from the content, stated in a note; ``fmt`` forces one):

``trec_eval``
    ``trec_eval -q`` output, one file per run: ``measure qid value`` (blank
    separated); ``runid all NAME`` names the run (else the file name);
    ``all`` rows (the means) and text measures (``relstring``) are skipped.
``ir_measures``
    ``ir_measures -q`` output, one file per run: ``qid measure value``.
``long``
    A header line ``run, qid, measure, value`` (tab- or comma-separated;
    ``query_id`` is taken for ``qid``, extra columns are ignored): ipsoeval's
    own ``eval -q --format tsv`` and any CSV of that shape; several runs per
    file.  Without a ``run`` column the file is one run named by its file.
``json``
    ipsoeval's ``eval -q --format json`` (records with run, qid, measure, value),
    or a JSON list of such records.

Topics are aligned across runs with the ``--queries`` policy: ``intersection``
keeps the topics every run has, ``strict`` requires the same topics, ``qrels``
(the default) takes every topic any run has and scores a missing one 0 (what
an empty ranking scores on most measures), with a warning.

A measure's scale (which decides whether a test is permissible) is known for
ipsoeval's and trec_eval's measure names; ``--scores-scale [MEASURE=]SCALE``
declares it for others.  An unknown scale is never taken as permissible: the
tests are marked "scale unknown" (``permissible`` empty) and a warning says so.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ipsoeval.errors import InputError, UsageError
from ipsoeval.ids import decode_text, id_sort_key
from ipsoeval.reading.grammar import SCORE_FORMATS, check_stdin_once
from ipsoeval.reading.opening import read_bytes
from ipsoeval.reading.opening import stem as _stem

if TYPE_CHECKING:
    import numpy as np

FORMATS = SCORE_FORMATS
SCALES = ("ordinal", "interval", "ratio")
_TEXT_MEASURES = {"runid", "relstring"}
_SUMMARY_QIDS = {"all"}


@dataclass
class TopicScores:
    """Per-topic scores of several runs: ``matrices[m]`` is (runs, topics), NaN undefined."""

    runs: list[str]
    topics: list[str]
    matrices: dict[str, np.ndarray]
    scales: dict[str, str | None]
    higher_is_better: dict[str, bool]
    notes: list[str] = field(default_factory=list)      # format statements
    warnings: list[str] = field(default_factory=list)
    params: dict = field(default_factory=dict)
    # measure -> why its scale on these scores is not the nominal one: a note
    # of the report of any analysis asked for that measure (and of no other)
    scale_notes: dict[str, str] = field(default_factory=dict)

    def notes_for(self, measures) -> list[str]:
        """The scale notes of ``measures`` (names), in their order."""
        return [self.scale_notes[m] for m in measures if m in self.scale_notes]

    @property
    def measures(self) -> list[str]:
        return list(self.matrices)

    def matrix(self, measure: str) -> np.ndarray:
        return self.matrices[measure]


# --- reading -----------------------------------------------------------------------

def known_measure(name: str):
    from ipsoeval.measures import parse_measure
    try:
        return parse_measure(name)
    except Exception:            # an unknown or malformed name: not one of ours
        return None


def _lines(text: str):
    for i, raw in enumerate(text.split("\n"), 1):
        line = raw.rstrip("\r")
        if line.strip() and not line.lstrip().startswith("#"):
            yield i, line


def detect(text: str, path: str) -> str:
    s = text.lstrip()
    if s[:1] in ("{", "["):
        return "json"
    first = next(_lines(text), None)
    if first is None:
        raise InputError("empty scores file (no data lines)", path=path)
    head = [c.strip().lower() for c in _split_header(first[1])]
    if "measure" in head and "value" in head and ({"qid", "query_id"} & set(head)):
        return "long"
    fields = [ln.split() for _, ln in _take(_lines(text), 200)]
    three = [f for f in fields if len(f) == 3]
    if len(three) != len(fields):
        bad = next(i for i, ln in _lines(text) if len(ln.split()) != 3)
        raise InputError("cannot tell the scores format: lines of trec_eval -q and "
                         "ir_measures have 3 fields (measure qid value / qid measure value); "
                         "a long file needs a header run,qid,measure,value "
                         f"(found {len(next(f for f in fields if len(f) != 3))} fields)",
                         path=path, line=bad)
    every = [ln.split() for _, ln in _lines(text)]
    te = any(len(f) == 3 and (f[0] == "runid" or f[1] == "all") for f in every)
    irm = any(len(f) == 3 and f[0] == "all" for f in every)    # ir_measures' summary rows
    if te != irm:
        return "trec_eval" if te else "ir_measures"
    known0 = sum(known_measure(f[0]) is not None for f in three[:50])
    known1 = sum(known_measure(f[1]) is not None for f in three[:50])
    if known0 > known1:
        return "trec_eval"
    if known1 > known0:
        return "ir_measures"
    raise InputError("cannot tell whether this is trec_eval -q (measure qid value) or "
                     "ir_measures (qid measure value) output; give --scores-format",
                     path=path, line=first[0])


def _take(it, n):
    for k, x in enumerate(it):
        if k >= n:
            break
        yield x


def _split_header(line: str) -> list[str]:
    if "\t" in line:
        return line.split("\t")
    if "," in line:
        return next(csv.reader([line]))
    return line.split()


def _number(text: str, path: str, line: int, measure: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise InputError(f"value of {measure} is not a number ({text!r})", path=path,
                         line=line) from None
    if v != v:
        return float("nan")
    if v in (float("inf"), float("-inf")):
        raise InputError(f"value of {measure} is not finite ({text!r})", path=path, line=line)
    return v


# rows: (run, qid, measure, value, line)
def _rows_three(text: str, path: str, order: str):
    run = None
    rows = []
    for ln, line in _lines(text):
        f = line.split()
        if len(f) != 3:
            raise InputError(f"expected 3 fields ({order}), found {len(f)}", path=path, line=ln)
        m, q, v = (f[0], f[1], f[2]) if order == "measure qid value" else (f[1], f[0], f[2])
        if m == "runid":
            run = v
            continue
        if m in _TEXT_MEASURES or q in _SUMMARY_QIDS:
            continue
        rows.append([None, q, m, _number(v, path, ln, m), ln])
    name = run if run is not None else _stem(path)
    for r in rows:
        r[0] = name
    return rows


def _rows_long(text: str, path: str):
    lines = list(_lines(text))
    hl, header = lines[0]
    sep = "\t" if "\t" in header else ("," if "," in header else None)
    cols = [c.strip().lower() for c in _split_header(header)]

    def col(*names, required=True):
        for n in names:
            if n in cols:
                return cols.index(n)
        if required:
            raise InputError(f"header has no {names[0]} column (found {', '.join(cols)})",
                             path=path, line=hl)
        return None
    ir = col("run", "run_id", "system", required=False)
    iq, im, iv = col("qid", "query_id"), col("measure", "metric"), col("value", "score")
    stem = _stem(path)
    rows = []
    body = "\n".join(line for _, line in lines[1:])
    if sep == ",":
        parsed = list(csv.reader(io.StringIO(body)))
    else:
        parsed = [ln.split(sep) if sep else ln.split() for ln in body.split("\n")]
    for (ln, _), f in zip(lines[1:], parsed):
        if len(f) < len(cols):
            raise InputError(f"expected {len(cols)} fields as in the header, found {len(f)}",
                             path=path, line=ln)
        q, m = f[iq].strip(), f[im].strip()
        if m in _TEXT_MEASURES or q in _SUMMARY_QIDS:
            continue
        v = f[iv].strip()
        rows.append([f[ir].strip() if ir is not None else stem, q, m,
                     float("nan") if v == "" else _number(v, path, ln, m), ln])
    return rows


def _rows_json(text: str, path: str):
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON ({exc.msg})", path=path, line=exc.lineno) from None
    recs = _find_records(doc)
    if recs is None:
        raise InputError("no records with run, qid, measure and value in this JSON",
                         path=path)
    rows = []
    for i, r in enumerate(recs, 1):
        q, m, v = str(r["qid"]), str(r["measure"]), r["value"]
        if m in _TEXT_MEASURES or q in _SUMMARY_QIDS:
            continue
        if v is None:
            v = float("nan")
        elif isinstance(v, bool) or not isinstance(v, (int, float)):
            raise InputError(f"value of {m} is not a number ({v!r}) in record {i}", path=path)
        rows.append([str(r.get("run", _stem(path))), q, m, float(v), i])
    return rows


def _find_records(doc):
    def ok(x):
        return isinstance(x, list) and x and all(
            isinstance(r, dict) and {"qid", "measure", "value"} <= set(r) for r in x)
    if ok(doc):
        return doc
    if isinstance(doc, dict):
        for key in ("results", "records"):
            if ok(doc.get(key)):
                return doc[key]
        tables = doc.get("tables")
        if isinstance(tables, dict):
            tables = list(tables.values())
        for t in tables or []:
            if isinstance(t, dict) and ok(t.get("records")):
                return t["records"]
            if ok(t):
                return t
    return None


def read_file(path: str, fmt: str = "auto"):
    """(rows, format) of one scores file."""
    if fmt not in FORMATS:
        raise UsageError(f"--scores-format must be one of {', '.join(FORMATS)} (found {fmt!r})")
    data = read_bytes(path)
    name = "<stdin>" if path == "-" else path
    text = decode_text(data)    # ids as bytes (ipsoeval.ids): what tsv and trec wrote
    kind = detect(text, name) if fmt == "auto" else fmt
    if kind == "json":
        rows = _rows_json(text, name)
    elif kind == "long":
        rows = _rows_long(text, name)
    elif kind == "trec_eval":
        rows = _rows_three(text, name, "measure qid value")
    else:
        rows = _rows_three(text, name, "qid measure value")
    if not rows:
        raise InputError("no per-topic scores in this file (was it written with -q?)",
                         path=name)
    return rows, kind, name


def parse_scale_specs(specs) -> tuple[str | None, dict[str, str]]:
    """``--scores-scale`` values: (scale for every unknown measure, {measure: scale})."""
    default, per = None, {}
    for spec in specs or ():
        for part in str(spec).split(","):
            part = part.strip()
            if not part:
                continue
            m, _, s = part.rpartition("=")
            s = s.strip().lower()
            if s not in SCALES:
                raise UsageError(f"--scores-scale takes [MEASURE=]SCALE with SCALE one of "
                                 f"{', '.join(SCALES)} (found {part!r})")
            if m:
                per[m.strip()] = s
            else:
                default = s
    return default, per


def read_scores(paths, *, fmt: str = "auto", queries: str = "qrels", scale=None) -> TopicScores:
    """Read per-topic score files into a :class:`TopicScores` (see the module doc)."""
    if queries not in ("intersection", "qrels", "strict"):
        raise UsageError(f"--queries must be intersection, qrels or strict (found {queries!r})")
    paths = list(paths)
    if not paths:
        raise UsageError("--scores needs at least one file")
    check_stdin_once(paths)
    default_scale, per_scale = parse_scale_specs(
        [scale] if isinstance(scale, str) else (scale or ()))
    per_scale = {(known_measure(k).name if known_measure(k) is not None else k): v
                 for k, v in per_scale.items()}
    notes: list[str] = []
    warnings: list[str] = []
    data: dict[str, dict[str, dict[str, float]]] = {}     # run -> measure -> qid -> value
    run_file: dict[str, str] = {}
    for p in paths:
        rows, kind, name = read_file(p, fmt)
        runs_here = []
        local: dict[str, dict[str, dict[str, float]]] = {}
        seen: dict[tuple, int] = {}
        for run, q, m, v, ln in rows:
            key = (run, q, m)
            if key in seen:
                raise InputError(f"{m} of topic {q!r} for run {run!r} given twice "
                                 f"(also at line {seen[key]})", path=name, line=ln)
            seen[key] = ln
            if run not in local:
                local[run] = {}
                runs_here.append(run)
            local[run].setdefault(m, {})[q] = v
        for run in runs_here:
            final = run
            if run in data:
                final = f"{run}[{name}]"
                if final in data:
                    raise InputError(f"run {run!r} given twice", path=name)
                prev = run_file[run]
                if run in data and f"{run}[{prev}]" not in data:
                    data[f"{run}[{prev}]"] = data.pop(run)
                    run_file[f"{run}[{prev}]"] = prev
            data[final] = local[run]
            run_file[final] = name
        kind_text = {"trec_eval": "trec_eval -q output (measure qid value)",
                     "ir_measures": "ir_measures output (qid measure value)",
                     "long": "a long table (run, qid, measure, value)",
                     "json": "ipsoeval JSON records"}[kind]
        notes.append(f"{name}: read as {kind_text}: {len(runs_here)} run(s) "
                     f"({', '.join(runs_here[:5])}{', ...' if len(runs_here) > 5 else ''})")
    runs = list(data)
    # measures every run has
    measures = [m for m in data[runs[0]]]
    for r in runs[1:]:
        measures = [m for m in measures if m in data[r]]
    every = {m for r in runs for m in data[r]}
    dropped = sorted(every - set(measures))
    if not measures:
        raise InputError("no measure is given for every run "
                         f"(measures: {', '.join(sorted(every)[:8])})", path=run_file[runs[-1]])
    if dropped:
        warnings.append(f"measure(s) not given for every run left out: {', '.join(dropped)}")
    # known names in ipsoeval's canonical spelling, as eval prints them (map -> AP, P_5 -> P@5)
    canon = {m: (known_measure(m).name if known_measure(m) is not None else m) for m in measures}
    if len(set(canon.values())) == len(canon) and any(k != v for k, v in canon.items()):
        for r in runs:
            data[r] = {canon.get(m, m): v for m, v in data[r].items()}
        measures = [canon[m] for m in measures]
    topic_sets = [set().union(*(data[r][m].keys() for m in measures)) for r in runs]
    union = set().union(*topic_sets)
    if queries == "strict":
        for r, ts in zip(runs, topic_sets):
            if ts != union:
                missing = sorted(union - ts, key=id_sort_key)
                raise InputError(f"--queries strict: run {r!r} lacks {len(missing)} topic(s) "
                                 f"other runs have, e.g. {missing[0]!r}", path=run_file[r])
        topics = sorted(union, key=id_sort_key)
    elif queries == "intersection":
        common = set.intersection(*topic_sets)
        if not common:
            raise InputError("--queries intersection: no topic is common to all runs",
                             path=run_file[runs[-1]])
        if len(common) < len(union):         # topics left out: a warning, as aligning's
            warnings.append(f"--queries intersection: {len(union) - len(common)} topic(s) missing "
                         f"from at least one run left out; the analysis uses the "
                         f"{len(common)} topic(s) common to all {len(runs)} runs")
        topics = sorted(common, key=id_sort_key)
    else:
        topics = sorted(union, key=id_sort_key)
        for r, ts in zip(runs, topic_sets):
            if len(ts) < len(union):
                warnings.append(f"{run_file[r]}: run {r!r} lacks {len(union - ts)} topic(s) "
                                f"other runs have, scored 0 (--queries qrels: an empty "
                                f"ranking); use --queries intersection to leave them out")
    import numpy as np  # here: FORMATS serves --help

    t_index = {t: i for i, t in enumerate(topics)}
    matrices: dict[str, np.ndarray] = {}
    scales: dict[str, str | None] = {}
    hib: dict[str, bool] = {}
    unknown: list[str] = []
    for m in measures:
        M = np.full((len(runs), len(topics)), np.nan)
        for i, r in enumerate(runs):
            has = topic_sets[i]
            vals = data[r][m]
            for q, v in vals.items():
                j = t_index.get(q)
                if j is not None:
                    M[i, j] = v
            if queries == "qrels":
                for q in topics:
                    if q not in has:
                        M[i, t_index[q]] = 0.0
        matrices[m] = M
        known = known_measure(m)
        s, why = _scale_of(m, known)
        if m in per_scale:
            s, why = per_scale[m], None
        elif s is None and default_scale is not None:
            s, why = default_scale, None
        if why:
            warnings.append(why)
        scales[m] = s
        if s is None:
            unknown.append(m)
        hib[m] = known.higher_is_better if known is not None else True
    for m in per_scale:
        if m not in matrices:
            raise UsageError(f"--scores-scale names {m!r}, which is not among the measures "
                             f"({', '.join(measures)})")
    if unknown:
        warnings.append(f"scale unknown for {', '.join(unknown)}: the tests are marked "
                        f"'scale unknown' (permissible left empty); declare it with "
                        f"--scores-scale MEASURE=ordinal|interval|ratio")
    params = {"scores": [run_file[r] for r in runs], "queries": queries,
              "scales": dict(scales)}
    return TopicScores(runs, topics, matrices, scales, hib, notes, warnings, params)


def _scale_of(name: str, measure) -> tuple[str | None, str | None]:
    """The scale of a measure known by name, without the rankings behind it."""
    if measure is None:
        return None, None
    fam = getattr(measure, "family", None)
    if fam == "R":
        return None, (f"{name}: scale unknown from scores alone: recall is interval only "
                      f"when every topic has the same number of relevant documents "
                      f"(Ferrante et al. §3.4.2); declare it with --scores-scale")
    if fam == "RBP":
        return None, (f"{name}: scale unknown from scores alone: RBP is interval only at the "
                      f"p its gains fix (Ferrante et al. §3.2); declare it with --scores-scale")
    return getattr(measure, "scale", None), None


def select(ts: TopicScores, measures) -> list[str]:
    if measures is None:
        return ts.measures
    names = [measures] if isinstance(measures, str) else list(measures)
    out = []
    for n in names:
        if n in ts.matrices:
            out.append(n)
            continue
        known = known_measure(n)
        hit = [m for m in ts.matrices if known is not None and known_measure(m) is not None
               and known_measure(m).name == known.name]
        if not hit:
            raise UsageError(f"measure {n!r} is not in the scores "
                             f"(measures: {', '.join(ts.measures)})")
        out.append(hit[0])
    return out
