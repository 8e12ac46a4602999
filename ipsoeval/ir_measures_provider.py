"""ipsoeval as an ir_measures provider: ``ir_measures.calc_aggregate``,
``ir_measures.iter_calc`` and PyTerrier (which scores through ir_measures)
served by ipsoeval's engine.

::

    import ir_measures
    from ipsoeval import ir_measures_provider
    ir_measures_provider.register()        # first in ir_measures.DefaultPipeline
    ir_measures.calc_aggregate([ir_measures.nDCG@10, ir_measures.AP], qrels, run)
    ir_measures.ipsoeval.iter_calc([ir_measures.P@5], qrels, run)   # by name

Importing this module adds ``'ipsoeval'`` to ir_measures' registry (and
``ir_measures.ipsoeval``) without changing which provider serves a measure;
:func:`register` puts it first in the default pipeline, :func:`unregister`
takes it out again.  ``import ipsoeval`` never imports this module (nor
ir_measures).

What it serves (:meth:`IpsoevalProvider.supports`) is what ipsoeval
computes equal to the provider ir_measures would otherwise ask (pytrec_eval,
gdeval, pyndeval, cwl_eval, judged, msmarco), on ir_measures'
conventions:

* results are keyed by the measure objects given (``NumRet(rel=1)`` stays
  ``NumRet(rel=1)``, though ipsoeval spells it ``NumRelRet(rel=1)``, and
  ``Bpref`` stays ``Bpref``, not ``bpref``);
* a topic is scored when it is in the qrels and the run; a qrels topic the
  run lacks gets the measure's ``DEFAULT`` from ir_measures' evaluator, as
  every provider's does, and run topics without qrels are left out;
* ``nDCG(gains={...})`` maps each qrels label through the map, a label it
  does not name keeping its value (ir_measures' rule), in an alignment of
  its own;
* diversity measures read subtopics from the qrels' ``iteration`` field;
* per-topic values are floats, as pytrec_eval gives them.

The differences that remain are listed in ``man ipsoeval`` (IR_MEASURES
PROVIDER); tests/differential/test_ir_measures_suite.py runs ir_measures' own
test suite with this provider serving what it supports.
"""

from __future__ import annotations

import ir_measures
from ir_measures import Metric
from ir_measures import measures as M
from ir_measures import providers as P
from ir_measures.providers.base import NOT_PROVIDED, Any, Choices

from ipsoeval.interop import measure_spec

NAME = "ipsoeval"

_ANY = Any()
_NO = Choices(NOT_PROVIDED)
# judged_only=True where pyndeval's own code fails on it, or where trec_eval's
# interpolated precision differs (a topic left with no judged document: NaN)
_NOT_JUDGED = Choices(NOT_PROVIDED, False)


class IpsoevalProvider(P.Provider):
    """ipsoeval's engine behind ir_measures' Provider interface."""

    NAME = NAME
    # each family with the parameters under which ipsoeval equals the provider
    # ir_measures asks for it (tests/unit/test_ir_measures_provider.py checks
    # every entry against that provider on generated qrels and runs)
    SUPPORTED_MEASURES = [
        # pytrec_eval (trec_eval)
        M._P(cutoff=_ANY, rel=_ANY, judged_only=_ANY),
        M._RR(cutoff=_NO, rel=_ANY, judged_only=_ANY),
        M._Rprec(rel=_ANY, judged_only=_ANY),
        M._AP(cutoff=_ANY, rel=_ANY, judged_only=_ANY),
        M._nDCG(cutoff=_ANY, dcg=Choices("log2"), gains=_ANY, judged_only=_ANY),
        M._R(cutoff=_ANY, judged_only=_ANY),
        M._Bpref(rel=_ANY),
        M._NumRet(rel=_ANY),
        M._NumQ(),
        M._NumRel(rel=Choices(1)),
        M._SetAP(rel=_ANY, judged_only=_ANY),
        M._SetF(rel=_ANY, beta=_ANY, judged_only=_ANY),
        M._SetP(rel=_ANY, relative=_ANY, judged_only=_ANY),
        M._SetR(rel=_ANY),
        M._Success(rel=_ANY, cutoff=_ANY, judged_only=_ANY),
        M._IPrec(recall=_ANY, judged_only=_NOT_JUDGED),
        M._infAP(rel=_ANY),
        # judged
        M._Judged(cutoff=_ANY),
        # gdeval
        M._nDCG(cutoff=Any(required=True), dcg=Choices("exp-log2"), gains=_NO,
                judged_only=Choices(False)),
        M._ERR(cutoff=Any(required=True)),
        # msmarco: RR at a cutoff
        M._RR(cutoff=_ANY, rel=_ANY, judged_only=Choices(False)),
        # not Compat: its ideal ranking orders equally relevant documents by the
        # run's score, an unretrieved one counting as 0, ties in the qrels' order;
        # ipsoeval's by rank, the unretrieved after -- they differ on tied or
        # negative scores, so the compat provider keeps it
        # pyndeval
        M._ERR_IA(cutoff=_ANY, rel=_ANY, judged_only=_NOT_JUDGED),
        M._nERR_IA(cutoff=_ANY, rel=_ANY, judged_only=_NOT_JUDGED),
        M._alpha_DCG(cutoff=_ANY, alpha=_ANY, rel=_ANY, judged_only=_NOT_JUDGED),
        M._alpha_nDCG(cutoff=_ANY, alpha=_ANY, rel=_ANY, judged_only=_NOT_JUDGED),
        M._NRBP(alpha=_ANY, beta=_ANY, rel=_ANY),
        M._nNRBP(alpha=_ANY, beta=_ANY, rel=_ANY),
        M._AP_IA(rel=_ANY, judged_only=_NOT_JUDGED),
        M._P_IA(cutoff=_ANY, rel=_ANY, judged_only=_NOT_JUDGED),
        M._StRecall(cutoff=_ANY, rel=_ANY),
        # cwl_eval
        M._RBP(cutoff=_NO, rel=Any(required=True), p=_ANY),
        M._BPM(cutoff=_ANY, T=_ANY, min_rel=_ANY, max_rel=Any(required=True)),
        M._SDCG(cutoff=Any(required=True), dcg=Choices("log2"), min_rel=_ANY,
                max_rel=Any(required=True)),
        M._NERR8(cutoff=Any(required=True), min_rel=_ANY, max_rel=Any(required=True)),
        M._NERR9(cutoff=Any(required=True), min_rel=_ANY, max_rel=Any(required=True)),
        M._NERR10(p=_ANY, min_rel=_ANY, max_rel=Any(required=True)),
        M._NERR11(T=_ANY, min_rel=_ANY, max_rel=Any(required=True)),
        M._INST(T=_ANY, min_rel=_ANY, max_rel=Any(required=True)),
        M._INSQ(T=_ANY, min_rel=_ANY, max_rel=Any(required=True)),
    ]

    def supports(self, measure) -> bool:
        if not super().supports(measure):
            return False
        name, gains = measure_spec(measure)
        if gains is not None and not _plain_gains(gains):
            return False
        from ipsoeval.errors import UsageError
        from ipsoeval.measures import parse_measure
        try:
            parse_measure(name)
        except UsageError:
            return False
        return True

    def _evaluator(self, measures, qrels):
        measures = list(measures)
        for m in measures:
            if not self.supports(m):
                raise ValueError(f"unsupported measure {m}")
        return IpsoevalEvaluator(measures, qrels)


def _plain_gains(gains: dict) -> bool:
    """A map ipsoeval's alignment takes as ir_measures applies it: whole
    labels from 0 to whole gains from 0 (pytrec_eval reads the mapped labels
    as whole relevance levels, and a negative label stays unjudged here)."""
    def whole(x):
        return isinstance(x, int) and not isinstance(x, bool) and x >= 0
    return all(whole(k) and whole(v) for k, v in gains.items())


class IpsoevalEvaluator(P.Evaluator):
    """Scores runs against one set of qrels; each call aligns the run anew.
    Measures that share a gain map share an alignment (a diversity measure
    has its own: its qrels carry subtopics)."""

    def __init__(self, measures, qrels):
        conv = ir_measures.util.QrelsConverter(qrels)
        kind, err = conv.predict_type()
        if kind == "UNKNOWN":
            raise ValueError(f"unknown qrels format: {err}")
        if kind == "namedtuple_iter":
            rows = list(conv.as_namedtuple_iter())
            self._qrels = {}
            self._subtopics = {}
            for r in rows:
                self._qrels.setdefault(r.query_id, {})[r.doc_id] = r.relevance
                sub = getattr(r, "iteration", "0")
                self._subtopics.setdefault(r.query_id, {}).setdefault(str(sub), {})[r.doc_id] = \
                    r.relevance
        elif kind == "dict_of_dict":
            self._qrels = qrels
            # no subtopics in the dict: one subtopic per topic (as pyndeval reads it)
            self._subtopics = {q: {"0": dict(d)} for q, d in qrels.items()}
        else:                                           # a DataFrame
            self._qrels = qrels
            self._subtopics = qrels if "iteration" in qrels.columns else \
                qrels.assign(iteration="0")
        qids = set(self._qrels) if isinstance(self._qrels, dict) else \
            set(self._qrels["query_id"].astype(str).tolist())
        super().__init__(measures, qids)
        self._groups = _groups(self.measures)
        self._labels = None

    def _qrels_labels(self) -> set:
        if self._labels is None:
            if isinstance(self._qrels, dict):
                self._labels = {int(v) for d in self._qrels.values() for v in d.values()}
            else:
                self._labels = {int(v) for v in self._qrels["relevance"].tolist()}
        return self._labels

    def _iter_calc(self, run):
        if not self.qrel_qids:
            return
        run = _run_input(run)
        if run is None:
            return
        for (gains, diversity, ties, judged), members in self._groups.items():
            yield from self._group(run, gains, diversity, ties, judged, members)

    def _judged_qrels(self):
        """The qrels with every label below 0 raised to 0 (Judged's)."""
        q = self._qrels
        if isinstance(q, dict):
            return {t: {d: max(int(v), 0) for d, v in docs.items()} for t, docs in q.items()}
        return q.assign(relevance=q["relevance"].clip(lower=0))

    def _group(self, run, gains, diversity, ties, judged, members):
        from ipsoeval import engine
        from ipsoeval.pipeline.common import _warn
        from ipsoeval.pipeline.inputs import load_inputs

        gain_map = None
        if gains is not None:
            g = dict(gains)
            # ir_measures' rule: a label the map does not name keeps its value
            gain_map = {lab: float(g.get(lab, max(lab, 0))) for lab in self._qrels_labels()
                        if lab >= 0}
            gain_map.update({k: float(v) for k, v in g.items()})
        qrels = self._subtopics if diversity else self._judged_qrels() if judged else self._qrels
        al = load_inputs(qrels, [run], queries="intersection", gains=gain_map, names=["run"],
                         subtopics=diversity, tie_break=ties)
        names = list(dict.fromkeys(name for name, _ in members))
        scores = engine.evaluate(al, names)
        # the inputs' warnings, as ipsoeval.evaluate gives them (InputWarning)
        _warn(list(al.warnings) + engine.score_warnings(scores))
        mask = scores.mask()[0]
        topics = al.topics
        rows = [(m, scores.matrix(name)[0], self._undefined(m, diversity))
                for name, m in members]
        for t, qid in enumerate(topics):
            if not mask[t]:
                continue
            for m, row, undefined in rows:
                value = float("nan") if qid in undefined else float(row[t])
                yield Metric(query_id=qid, measure=m, value=value)

    def _undefined(self, m, diversity) -> set:
        """The topics where the provider ir_measures asks gives NaN and
        ipsoeval a number: pyndeval's nNRBP divides by the ideal NRBP, 0 on a
        topic with no judgment at the relevance level (ipsoeval: 0)."""
        if not diversity or m.NAME != "nNRBP":
            return set()
        level = m["rel"]
        q = self._subtopics
        if isinstance(q, dict):
            have = {t for t, subs in q.items()
                    if any(int(j) >= level for d in subs.values() for j in d.values())}
        else:
            have = set(q.loc[q["relevance"] >= level, "query_id"].astype(str).tolist())
        return set(map(str, self.qrel_qids)) - have


# The order of tied documents of the provider ir_measures asks for each
# family (ipsoeval's --tie-break): pytrec_eval's and gdeval's is trec_eval's
# (score, then docno descending); the judged, msmarco and pyndeval
# providers sort by score and then docno ascending; cwl_eval sorts by score
# alone, stably, so tied documents keep the run's order.
DOCNO_ASC = ("Judged", "ERR_IA", "nERR_IA", "alpha_DCG", "alpha_nDCG", "NRBP",
             "nNRBP", "AP_IA", "P_IA", "StRecall")
INPUT_ORDER = ("RBP", "BPM", "SDCG", "NERR8", "NERR9", "NERR10", "NERR11", "INST", "INSQ")


def tie_break(m) -> str:
    """The tie order of the provider ir_measures would ask for ``m``."""
    if m.NAME in DOCNO_ASC or (m.NAME == "RR" and m["cutoff"] is not NOT_PROVIDED):
        return "docno-asc"                      # RR@k: the msmarco provider's
    if m.NAME in INPUT_ORDER:
        return "input"
    return "trec"


def _groups(measures) -> dict:
    """{(gains, diversity, tie order, judged): [(ipsoeval name, measure)]}, in
    the order given.  ``judged``: ir_measures' Judged counts every document
    in the qrels as judged, a negative label too (ipsoeval's, as trec_eval,
    counts those unjudged), so it reads its qrels with negative labels
    raised to 0 -- the labels' values are nothing to it."""
    from ipsoeval.measures import parse_measure
    out: dict = {}
    for m in measures:
        name, gains = measure_spec(m)
        key = None if gains is None else tuple(sorted(gains.items()))
        diversity = bool(parse_measure(name).fam.subtopics)
        out.setdefault((key, diversity, tie_break(m), m.NAME == "Judged"), []).append((name, m))
    return out


def _run_input(run):
    """The run as ipsoeval's in-memory reader takes it, or None when empty."""
    conv = ir_measures.util.RunConverter(run)
    kind, err = conv.predict_type()
    if kind == "UNKNOWN":
        raise ValueError(f"unknown run format: {err}")
    if kind == "pd_dataframe":
        return run if len(run) else None
    d = run if kind == "dict_of_dict" else conv.as_dict_of_dict()
    d = {q: docs for q, docs in d.items() if docs}
    return d or None


PROVIDER = IpsoevalProvider()


def register(first: bool = True) -> IpsoevalProvider:
    """Put ipsoeval in ir_measures' registry (``ir_measures.ipsoeval``) and,
    with ``first``, first in ``ir_measures.DefaultPipeline``: the measures it
    supports are then served by it in ``ir_measures.calc_aggregate``,
    ``iter_calc``, ``calc``, ``evaluator`` and in PyTerrier.  Idempotent."""
    P.register(PROVIDER)
    ir_measures.ipsoeval = PROVIDER
    pipeline = ir_measures.DefaultPipeline.providers
    if first and PROVIDER not in pipeline:
        pipeline.insert(0, PROVIDER)
    return PROVIDER


def unregister() -> None:
    """Take ipsoeval out of ``ir_measures.DefaultPipeline`` (it stays in the
    registry, as importing this module leaves it)."""
    pipeline = ir_measures.DefaultPipeline.providers
    while PROVIDER in pipeline:
        pipeline.remove(PROVIDER)


register(first=False)
