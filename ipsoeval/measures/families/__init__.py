"""The measure families, one declaration each, with its kernel.

Every module here has a ``FAMILIES`` tuple of
:class:`~ipsoeval.measures.family.Family` objects; the registry
(:mod:`ipsoeval.measures.registry`) collects every module of this package in
name order, so adding a measure family is adding (or extending) one module
here, plus its test.  A declaration says everything the rest of ipsoeval
knows of the family::

    def judged_nonrel(ctx, m):               # Context, Measure -> (runs, topics)
        lab = ctx.al.labels[:, :, :m.k]
        level = m.level(ctx.al.rel_level)
        return np.count_nonzero((lab >= 0) & (lab < level), axis=2).astype(np.float64)

    FAMILIES = (Family("NonRel", "judged non-relevant documents in the top k", "ratio",
                       judged_nonrel, cutoff="required", params=(REL,), kind="int",
                       agg="sum", higher_is_better=False,
                       trec=TrecName("nonrel", 99, (), (5, 10))),)

``-m NonRel@10``, ``-m nonrel.5,10``, ``-m NonRel(rel=2)@5``, the
did-you-mean of near names and the row of ``ipsoeval measures`` follow from
it (tests/unit/measures/test_registry.py does exactly this).  Arrays several
families share (relevant positions, ideal gains, trec_eval's gain levels)
are cached on the :class:`~ipsoeval.measures.kernels.Context`.

The declarations are read without numpy (the quick paths read the registry:
its names, cutoff rules, parameters, scales, trec_eval names and orders, tie
behaviour and the compiled core's codes): a module here names numpy, the
kernels' helpers and the label models through :mod:`ipsoeval.measures.lazy`
(``np = lazy.module("numpy", globals(), "np")``, ``ties=TI.invariant`` with
``TI = lazy.functions("ipsoeval.measures.ties")``), which the first kernel
that runs imports; tests/test_import_discipline.py checks it.  ``core=N``
gives a family the compiled core computes its code
(:mod:`ipsoeval.reading.provider`).
"""
