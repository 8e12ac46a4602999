"""ipsoeval eval — trec_eval-compatible scores."""

from __future__ import annotations

import click

from ipsoeval.cli import options as opt


@click.command("eval")
@opt.qrels_and_runs
@opt.measure_option
@click.option("-q", "--per-query", is_flag=True, help="Also print each topic's scores.")
@opt.alignment_options(default_queries="intersection")
@opt.format_option(pipe_default="trec")
@click.pass_context
def command(ctx, qrels, runs, measures, per_query, align_opts, fmt, output):
    """Score runs against qrels, as trec_eval does.

    With no -m, trec_eval's default (official) measure set.  --format trec
    reproduces trec_eval's output byte for byte; several runs print one block
    each (trec) or a run column (tsv, json, table).
    """
    from ipsoeval import engine
    from ipsoeval.analyses.evaluate import eval_results
    from ipsoeval.formatters import resolve

    reqs = engine.requested(measures)          # usage errors before reading files
    obj = ctx.find_root().obj or {}
    concrete = resolve(fmt, pipe_default="trec",
                       isatty=obj.get("isatty") if output is None else (lambda: False))
    al = opt.load_aligned(qrels, runs, align_opts)
    scores = engine.evaluate(al, reqs, text_ok=True)
    params = {"measures": [r.measure.name for r in reqs], "per_query": per_query,
              **align_opts.as_params()}
    rs, warnings = eval_results(scores, per_query=per_query, runid=concrete == "trec",
                                params=params)
    for w in warnings:
        opt.warn(w)
    opt.emit(ctx, rs, concrete, output, pipe_default="trec")
