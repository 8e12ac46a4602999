"""A measure: one member of a family (a cutoff and parameter values),
hashable, computed by the family's kernel and aggregated over topics by
trec_eval's rules; and a measure as the user asked for it.  (Apart from the
declarations of :mod:`ipsoeval.measures.family`, which read without numpy.)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ipsoeval.errors import UsageError
from ipsoeval.measures.family import FAMILIES, Family
from ipsoeval.measures.params import fmt_value


def _of_family(attr: str, doc: str | None = None) -> property:
    """A property that every measure of a family shares: the family's own."""
    return property(lambda self: getattr(self.fam, attr), doc=doc)


@dataclass(frozen=True)
class Measure:
    family: str
    cutoff: float | int | None = None
    params: tuple = ()        # sorted ((name, value), …)

    @property
    def fam(self) -> Family:
        return FAMILIES[self.family]

    def param(self, key, default=None):
        for k, v in self.params:
            if k == key:
                return v
        return default

    def get(self, key):
        """The parameter's value, or the family's default for it."""
        p = self.fam.param(key)
        return self.param(key, p.default if p is not None else None)

    @property
    def k(self) -> int | None:
        """The cutoff as a rank (None: the whole ranking)."""
        return None if self.cutoff is None else int(self.cutoff)

    @property
    def name(self) -> str:
        if self.param("te") is not None:        # trec_eval parameter string
            return f"{self.fam.trec_plain.name}_{self.param('te')}"
        s = self.family
        if self.params:
            s += "(" + ",".join(f"{k}={fmt_value(v)}" for k, v in self.params) + ")"
        if self.cutoff is not None:
            s += "@" + fmt_value(self.cutoff)
        return s

    @property
    def trec_name(self) -> str | None:
        """The name trec_eval prints, when this is a trec_eval measure."""
        f = self.fam
        if self.param("te") is not None:
            return self.name
        if self.params:
            return None
        if self.cutoff is None:
            return f.trec_plain.name if f.trec_plain else None
        if f.trec is None:
            return None
        if f.float_cutoff:
            return f"{f.trec.name}_{self.cutoff:.2f}"
        return f"{f.trec.name}_{int(self.cutoff)}"

    @property
    def trec_order(self) -> tuple:
        f = self.fam
        t = f.trec if self.cutoff is not None else f.trec_plain
        return (t.order if t is not None else 1000,
                self.cutoff if self.cutoff is not None else -1)

    @property
    def scale(self) -> str:
        f = self.fam
        return f.scale_of(self) if f.scale_of is not None else f.scale

    higher_is_better = _of_family("higher_is_better",
                                  "False where a smaller value is better (ESL: a rank).")
    kind = _of_family("kind")
    agg = _of_family("agg")
    description = _of_family("description")

    def level(self, default: int) -> int:
        return int(self.param("rel", default))

    def compute(self, aligned, ctx=None) -> np.ndarray:
        """Per-topic values, float64 (runs, topics); NaN where undefined."""
        from ipsoeval.measures import kernels as K
        ctx = ctx or K.Context(aligned)
        if ctx.al.ties_averaged:            # --tie-break expected (measures/ties.py)
            from ipsoeval.measures.ties import expectation as tie_expectation
            return tie_expectation(ctx, self)
        mode = ctx.al.label_mode
        if mode == "probability":              # an expected value (measures/expected.py)
            from ipsoeval.measures.expected import expectation
            return expectation(ctx, self)
        if self.param("judged_only"):          # ir_measures: unjudged documents removed
            plain = Measure(self.family, self.cutoff,
                            tuple(kv for kv in self.params if kv[0] != "judged_only"))
            jctx = K.judged_only_context(ctx)
            return plain.compute(jctx.al, jctx)
        if mode == "gain" and self.param("rel") is not None:   # -l in gain codes
            from ipsoeval.labels import code_level
            level = code_level(ctx.al.label_values, float(self.param("rel")))
            return self.fam.kernel(ctx, Measure(self.family, self.cutoff, tuple(
                (k, level if k == "rel" else v) for k, v in self.params)))
        return self.fam.kernel(ctx, self)

    def aggregate(self, values: np.ndarray, mask: np.ndarray | None = None, *,
                  trec: bool = False) -> np.ndarray:
        """Per-run aggregate over topics (trec_eval's rules), (runs,).  Means
        are :func:`ipsoeval.mean.means` (correctly rounded sums), the one mean
        of every command; ``trec``: trec_eval's sequential sum instead, for
        the digits of ``--format trec``."""
        from ipsoeval import mean as one_mean
        from ipsoeval.measures.kernels import MIN_GEO_MEAN
        if self.kind == "text":
            raise UsageError(f"{self.name} is text per topic (ipsoeval eval -q only)")
        v = np.asarray(values, dtype=np.float64)
        if mask is None:
            mask = np.ones(v.shape, dtype=bool)
        n = mask.sum(axis=1)
        agg = self.agg
        if agg == "count":
            return n.astype(np.float64)
        if agg == "sum":
            return np.where(mask, v, 0.0).sum(axis=1)
        if agg == "gm":
            logs = np.log(np.maximum(np.where(mask, v, 1.0), MIN_GEO_MEAN))
            logs = np.where(mask, logs, 0.0)
            s = np.add.accumulate(logs, axis=1)[:, -1] if v.shape[1] else np.zeros(len(v))
            out = np.zeros(len(v))
            np.divide(s, n, out=out, where=n > 0)
            return np.where(n > 0, np.exp(out), 0.0)
        if agg == "mean_defined":
            ok = mask & ~np.isnan(v)
            if not trec:
                return np.asarray(one_mean.means(v, ok), dtype=np.float64).reshape(len(v))
            cnt = ok.sum(axis=1)
            s = np.where(ok, v, 0.0)
            s = np.add.accumulate(s, axis=1)[:, -1] if v.shape[1] else np.zeros(len(v))
            return np.where(cnt > 0, s / np.maximum(cnt, 1), np.nan)
        if not trec:
            got = np.asarray(one_mean.means(v, mask), dtype=np.float64).reshape(len(v))
            return np.where(n > 0, got, 0.0)
        s = np.where(mask, v, 0.0)
        s = np.add.accumulate(s, axis=1)[:, -1] if v.shape[1] else np.zeros(len(v))
        out = np.zeros(len(v))
        np.divide(s, n, out=out, where=n > 0)
        return out


@dataclass(frozen=True)
class Requested:
    """A measure as the user asked for it."""

    measure: Measure
    label: str                 # name printed in trec format
    trec_style: bool = False   # asked for with a trec_eval spelling
    source: str = ""           # the -m argument it came from
    te_family: str | None = None   # trec_eval measure name it was asked for with …
    te_explicit: bool = False      # … with explicit parameters (trec_eval: these win)
    note: str = ""             # a warning for stderr (trec_eval's reading of a cutoff)
