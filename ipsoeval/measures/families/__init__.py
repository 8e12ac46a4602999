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
"""
