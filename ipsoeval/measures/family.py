"""What a measure family declares, and the measures made from it.

A :class:`Family` is the one declaration of a measure family: its canonical
name, definition, scale type, direction, cutoff rule, typed parameters, its
trec_eval names and parameter syntax, and its kernel.  Families live in
``ipsoeval/measures/families/`` (one module per theme, each with a
``FAMILIES`` tuple) and are collected by :mod:`ipsoeval.measures.registry`.

The declarations are data that read without numpy (the kernels import it
when they run, :mod:`ipsoeval.measures.lazy`): the quick paths read them as
the numpy engine does.  A :class:`~ipsoeval.measures.measure.Measure` is one
member of a family (a cutoff and parameter values): hashable, computed by the
family's kernel and aggregated over topics by trec_eval's rules.
"""

from __future__ import annotations

from ipsoeval.measures import lazy
from ipsoeval.measures.params import Param, fmt_value

TYPE_CHECKING = False
if TYPE_CHECKING:                 # (typing and re cost the quick paths ~15 ms of imports)
    from typing import Callable

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


_INVARIANT = lazy.function("ipsoeval.measures.ties", "invariant")

# the attributes of a Family, in the order of its constructor's arguments
_SLOTS = ("name", "description", "scale", "kernel", "cutoff", "cutoff_kind", "params", "kind",
          "agg", "per_query", "higher_is_better", "trec_plain", "trec", "trec_params",
          "ir_measures", "other_names", "respell", "scale_of", "example", "bounds", "expected",
          "expected_note", "ties", "ties_note", "subtopics", "check", "core", "param_names")


class Family:
    """One measure family, declared once (a plain class, frozen: the quick
    paths read the registry, and ``dataclasses`` alone costs them ~18 ms of
    imports).

    * ``name``: canonical name (ir_measures' where it has one); ``description``;
      ``scale``: nominal | ordinal | interval | ratio; ``kernel(ctx, measure)``
      -> float64 (runs, topics).
    * ``cutoff``: none | optional | required; ``cutoff_kind``: rank
      (1..2^31-1) | recall ([0, 1]) | multiple (of R); ``params``: the typed
      :class:`~ipsoeval.measures.params.Param` it takes.
    * ``kind``: float | int (printed as an integer) | text; ``agg``: mean |
      sum | gm | count | mean_defined | text | none; ``per_query``: trec_eval
      prints it per topic; ``higher_is_better``.
    * ``trec_plain``, ``trec``: trec_eval's name without a cutoff (map) and
      with one (map_cut, printed map_cut_K); ``trec_params``: trec_eval's own
      parameter string; ``ir_measures``: ir_measures' names of this family
      beyond its own; ``other_names``: other tools' names (did you mean);
      ``respell(typed params) -> (family, params)``: ir_measures' respellings;
      ``scale_of(measure)`` where parameters change the scale; ``example``
      for ``ipsoeval measures`` (default: derived).
    * ``bounds``: the --bounds search shape (:mod:`ipsoeval.measures.bounds`).
    * ``expected(ctx, measure)``: --labels probability's exact expectation
      (runs, topics), or None for a form it does not cover (then Monte Carlo);
      None here: Monte Carlo for every form; ``expected_note``: which forms
      are exact.
    * ``ties(ctx, measure)``: --tie-break expected's exact expectation over
      the tie orders (closed form), or None for a form it does not cover;
      ``ties.invariant``: the order does not matter; ``ties.per_group``: each
      tie group's orders on their own; None: enumeration of the orders;
      ``ties_note``: which forms are closed.
    * ``subtopics``: reads diversity qrels (qid subtopic docno judgment).
    * ``check(ctx, measure)``: refuses inputs the measure is not defined on
      (UsageError), called by the engine before any measure is scored.
    * ``core``: the compiled core's code of the family (``_core.c``'s
      ``G_*`` values, which ``_core.family_codes()`` reports), 0 where the
      core does not compute it; the quick paths' provider
      (:mod:`ipsoeval.reading.provider`) serves by it.
    """

    __slots__ = _SLOTS

    def __init__(self, name: str, description: str, scale: str, kernel: Callable,
                 cutoff: str = "none", cutoff_kind: str = "rank", params: tuple[Param, ...] = (),
                 kind: str = "float", agg: str = "mean", per_query: bool = True,
                 higher_is_better: bool = True, trec_plain: TrecName | None = None,
                 trec: TrecName | None = None, trec_params: TrecParams | None = None,
                 ir_measures: tuple[str, ...] = (), other_names: tuple[str, ...] = (),
                 respell: Callable | None = None, scale_of: Callable | None = None,
                 example: str | None = None, bounds: str = "exhaustive",
                 expected: Callable | None = None, expected_note: str = "",
                 ties: Callable | None = None, ties_note: str = "", subtopics: bool = False,
                 check: Callable | None = None, core: int = 0):
        values = locals()
        for slot in _SLOTS[:-1]:
            object.__setattr__(self, slot, values[slot])
        object.__setattr__(self, "param_names", tuple(p.name for p in params))

    def __setattr__(self, key, value):
        raise AttributeError(f"a Family is frozen (cannot set {key!r})")

    def __reduce__(self):               # (pickle and copy: a frozen class with slots)
        return (Family, tuple(getattr(self, slot) for slot in _SLOTS[:-1]))

    def __repr__(self):
        return f"Family({self.name!r})"

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

    @property
    def tie_invariant(self) -> bool:
        """No tie order moves the family's values (``ties.invariant``)."""
        t = self.ties
        return t is _INVARIANT or (getattr(t, "__module__", None) == _INVARIANT.module
                                   and getattr(t, "__name__", None) == _INVARIANT.name)

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

