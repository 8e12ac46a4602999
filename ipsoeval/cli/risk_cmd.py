"""ipsoeval risk — risk-sensitive comparison of runs: URisk/TRisk against a
baseline, ZRisk/GeoRisk over all runs (Dinçer, Macdonald and Ounis 2014, 2016)."""

from __future__ import annotations

import click

from ipsoeval.cli import options as opt
from ipsoeval.cli import output as out_
from ipsoeval.cli.scores_opts import qrels_and_runs_or_scores, scores_options
from ipsoeval.errors import UsageError


def _risk_alphas(ctx, param, values):
    out: list[float] = []
    for v in values:
        for part in str(v).split(","):
            part = part.strip()
            try:
                a = float(part)
            except ValueError:
                raise click.BadParameter(f"{part!r} is not a number", ctx, param) from None
            if not a >= 0 or a == float("inf"):
                raise click.BadParameter(f"must be 0 or more (found {part})", ctx, param)
            if a not in out:
                out.append(a)
    return out


@click.command("risk")
@qrels_and_runs_or_scores
@opt.measure_option(help_text="Measure to compare, e.g. nDCG@20, AP, ERR@20 (repeatable; "
                              "see `ipsoeval measures`).  Required, except with --scores "
                              "whose files hold one measure.")
@opt.baseline_option(help_text="The baseline of URisk and TRisk.")
@click.option("--risk-alpha", "risk_alphas", multiple=True, metavar="A[,A...]",
              callback=_risk_alphas,
              help="Risk aversion: a loss against the baseline (or the expected score) "
                   "weighs 1 + A times a win.  Repeatable or comma-separated.  "
                   "[default: 1,5]")
@opt.alpha_option
@opt.alignment_options()
@scores_options
@out_.format_option(pipe_default="tsv")
@click.pass_context
def command(ctx, qrels, runs, measures, baseline, risk_alphas, alpha, align_opts, scores,
            scores_format, scores_scale, fmt, output):
    """Risk-sensitive comparison of runs on per-topic scores: URisk and TRisk
    of each run against a baseline (Dinçer, Macdonald and Ounis, SIGIR 2014),
    and ZRisk and GeoRisk of each run against all of them (Dinçer, Macdonald
    and Ounis, SIGIR 2016).  See ipsoeval-risk(1).
    """
    from ipsoeval import engine
    from ipsoeval.analyses import risk, validate

    if not measures and not scores:
        raise UsageError("Missing option '-m' / '--measure'.")
    if len(runs) < 2 and not scores:
        raise UsageError(f"risk needs QRELS and at least two runs (got {len(runs)} run)")
    options = risk.Options(baseline=baseline, alpha=alpha,
                           risk_alphas=list(risk_alphas) or list(risk.DEFAULT_RISK_ALPHAS))
    options.check()
    if scores:      # the arguments are per-topic score files
        from ipsoeval.cli import scores_opts
        ts = scores_opts.load([qrels, *runs], align_opts, scores_format, scores_scale,
                              baseline=baseline, measures=measures, command="risk")
        names = scores_opts.measures_or_only(ts, measures, "risk")
        from ipsoeval.reading.scores import select
        names = select(ts, names)
        options.baseline = scores_opts._baseline(baseline, ts)
        report = risk.run(list(ts.runs), {m: ts.matrices[m] for m in names}, options,
                          lower_better={m for m in names if not ts.higher_is_better[m]})
        for rs in report.tables:
            rs.params.update(ts.params)
        return out_.emit(ctx, report, fmt, output, pipe_default="tsv")
    requested = engine.requested(measures)          # usage errors before reading files
    risk.refuse_lower_better({r.measure.name for r in requested
                              if not r.measure.higher_is_better})
    aligned = opt.load_aligned(qrels, runs, align_opts)
    options.baseline = validate.baseline(baseline, aligned.runs, runs)
    report = risk.run_scores(engine.evaluate(aligned, requested), options)
    for rs in report.tables:
        rs.params.update(align_opts.as_params())
    out_.emit(ctx, report, fmt, output, pipe_default="tsv")
