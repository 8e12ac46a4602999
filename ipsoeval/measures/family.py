"""What a measure family declares, and the measures made from it.

A :class:`Family` is the one declaration of a measure family: its canonical
name, definition, scale type, direction, cutoff rule, typed parameters, its
trec_eval names and parameter syntax, and its kernel.  Families live in
``ipsoeval/measures/families/`` (one module per theme, each with a
``FAMILIES`` tuple) and are collected by :mod:`ipsoeval.measures.registry`.

A :class:`Measure` is one member of a family (a cutoff and parameter
values): hashable, computed by the family's kernel and aggregated over
topics by trec_eval's rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ipsoeval.errors import UsageError
from ipsoeval.measures.params import Param, fmt_value

# the registry's table, canonical name -> Family (filled by ipsoeval.measures.registry)
FAMILIES: dict[str, Family] = {}

CUTOFF_EXAMPLE = {"rank": "@10", "recall": "@0.1", "multiple": "@0.2"}


class TrecName:
    """A trec_eval measure name: as printed, its place in trec_eval's measure
    table (te_trec_measures, the order trec_eval prints in), the nicknames
    (official, all_trec, set) that include it and, for a name with cutoffs,
    the default cutoffs of ``-m NAME``.  (Plain classes here and in params.py:
    a dataclass costs a millisecond of import time.)"""

    __slots__ = ("name", "order", "nicknames", "cutoffs")

    def __init__(self, name: str, order: int, nicknames: tuple[str, ...] = (),
                 cutoffs: tuple = ()):
        self.name, self.order, self.nicknames, self.cutoffs = name, order, nicknames, cutoffs

    def __repr__(self):
        return f"TrecName({self.name!r}, {self.order})"


class TrecParams:
    """trec_eval's own parameter string, ``-m NAME.PARAMS`` (printed NAME_PARAMS).

    ``check(raw, original)`` raises the usage errors before any file is read.
    The string is kept verbatim in the measure's ``te`` parameter and read by
    the kernel, unless ``to_params(raw, original)`` turns it into canonical
    parameters (``set_F.0.5`` is ``SetF(beta=0.5)``)."""

    __slots__ = ("check", "help", "to_params")

    def __init__(self, check: Callable[[str, str], None], help: str = "trec_eval LEVEL=GAIN,...",
                 to_params: Callable[[str, str], dict] | None = None):
        self.check, self.help, self.to_params = check, help, to_params


@dataclass(frozen=True)
class Family:
    name: str                     # canonical name (ir_measures' where it has one)
    description: str
    scale: str                    # nominal | ordinal | interval | ratio
    kernel: Callable              # kernel(ctx, measure) -> float64 (runs, topics)
    cutoff: str = "none"          # none | optional | required
    cutoff_kind: str = "rank"     # rank (1..2^31-1) | recall ([0, 1]) | multiple (of R)
    params: tuple[Param, ...] = ()
    kind: str = "float"           # float | int (printed as an integer) | text
    agg: str = "mean"             # mean | sum | gm | count | mean_defined | text | none
    per_query: bool = True        # trec_eval prints it per topic
    higher_is_better: bool = True
    trec_plain: TrecName | None = None   # trec_eval's name without a cutoff (map) …
    trec: TrecName | None = None         # … and with one (map_cut, printed map_cut_K)
    trec_params: TrecParams | None = None
    ir_measures: tuple[str, ...] = ()    # ir_measures' names of this family beyond its own
    other_names: tuple[str, ...] = ()    # other tools' names: "did you mean" this family
    respell: Callable | None = None      # respell(typed params) -> (family, params): ir_measures
    scale_of: Callable | None = None     # scale(measure) where parameters change it
    example: str | None = None           # for ``ipsoeval measures`` (default: derived)
    bounds: str = "exhaustive"           # --bounds search shape (ipsoeval.measures.bounds)
    # --labels probability (ipsoeval.measures.expected): expected(ctx, measure) ->
    # the exact expectation (runs, topics), or None for a form it does not cover
    # (then Monte Carlo); None here: Monte Carlo for every form
    expected: Callable | None = None
    expected_note: str = ""              # which forms are exact, for ``ipsoeval measures``
    # --tie-break expected (ipsoeval.measures.ties): ties(ctx, measure) -> the exact
    # expectation over the tie orders of the ctx's rankings (closed form), or None for
    # a form it does not cover; ties.invariant: the order does not matter; None:
    # enumeration of the orders
    ties: Callable | None = None
    ties_note: str = ""                  # which forms are closed, for ``ipsoeval measures``
    subtopics: bool = False              # reads diversity qrels (qid subtopic docno judgment)
    # check(ctx, measure): refuses inputs the measure is not defined on (UsageError),
    # called by the engine for every measure asked for before any is scored
    check: Callable | None = None
    param_names: tuple[str, ...] = field(init=False, default=())

    def __post_init__(self):
        object.__setattr__(self, "param_names", tuple(p.name for p in self.params))

    def param(self, name: str) -> Param | None:
        for p in self.params:
            if p.name == name:
                return p
        return None

    @property
    def float_cutoff(self) -> bool:
        return self.cutoff_kind != "rank"

    @property
    def cutoff_example(self) -> str:
        return CUTOFF_EXAMPLE[self.cutoff_kind]

    def example_name(self) -> str:
        if self.example:
            return self.example
        s = self.name
        shown = [p for p in self.params if p.in_name]
        if shown:
            s += "(" + ",".join(f"{p.name}={fmt_value(p.default)}" for p in shown) + ")"
        if self.cutoff != "none":
            s += self.cutoff_example
        return s


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

    @property
    def higher_is_better(self) -> bool:
        """False where a smaller value is better (ESL: a rank)."""
        return self.fam.higher_is_better

    @property
    def kind(self) -> str:
        return self.fam.kind

    @property
    def agg(self) -> str:
        return self.fam.agg

    @property
    def description(self) -> str:
        return self.fam.description

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
