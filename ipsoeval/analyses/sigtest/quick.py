"""sigtest's quick path: ``ipsoeval sigtest -m M QRELS RUN RUN...`` without
numpy, click or rich, byte for byte what the full program prints.

Taken by the console script (:mod:`ipsoeval._quick`) before anything heavy
is imported, for the calls of shell one-liners and CI checks:

* ``-m``/``--measure`` naming measures the compiled core serves
  (:mod:`ipsoeval.reading.provider`) whose topics' values are averaged (not
  the counts), each at the scale its family declares (:func:`_scale`);
* two runs or more, the pairs as the full program forms them (every run
  against the first or ``--baseline NAME``, or ``--all-pairs``);
* the default test of each measure's scale (registry.default_test: t for
  interval and ratio scales, sign for ordinal ones), ``--alpha``,
  ``--alternative``, ``--correct``, the CI gate ``--fail-if
  worse|different`` (and ``--samples``, ``--seed``, ``--scale original``,
  which change nothing here but are checked);
* TSV (``--format tsv``, or the default when standard output is not a
  terminal, or with ``-o FILE``) or JSON (``--format json``), on standard
  output or in a regular file (``-o FILE``, written whole or not at all);
  ``--junit FILE`` (the gate as JUnit XML) and ``-W MODE`` too.

Per-topic scores come from the core (``_core.eval_measures``, as eval's quick
path, :mod:`ipsoeval.reading.quick`), which declines any unusual input (a
topic in one file and not the other, compressed files, anything else the
full program warns about) but tied scores: their warning is eval's, from
the core's tie flags (:func:`ipsoeval.reading.quick.tie_notes`), as every
command gives it (engine.score_warnings); a measure's scale is a note of
the report (json's ``notes``), never a warning; each comparison's numbers from
:mod:`ipsoeval.stats.paired`, which the full program's vectorised tests call
too; the options' checks, the pairs, the warning texts and the gate from
:mod:`ipsoeval.analyses.sigtest.common`, the TSV from
:mod:`ipsoeval.formatters.tsv`.  Anything else -- another option or
measure, a terminal, a NaN score, a run name twice, ``--warnings error``
with a warning, any error -- returns False with nothing printed, and the
full program runs.  ``IPSOEVAL_CORE=python`` turns this off.
tests/unit/analyses/sigtest/test_quick.py compares both paths byte for byte.
"""

from __future__ import annotations

import math
import os
import stat
import sys

# the options this path serves, by name (their spellings, kinds and ranges are
# the command's declaration, ipsoeval.pipeline.sigtest.COMMAND, whose parser
# hands the values here); any other option given: the full program runs
SERVES = frozenset({"measures", "baseline", "all_pairs", "alpha", "alternative", "fail_if",
                    "fmt", "correct", "samples", "seed", "scale", "output", "junit",
                    "warnings_mode"})


def quick_sigtest(values: dict | None) -> bool:
    """Print the tests (and the gate's verdict) and return True -- or exit 1
    when the gate fails, as the full program does -- or return False with
    nothing printed.  ``values``: the command line as the declaration's parser
    reads it (None: declined there)."""
    if values is None or os.environ.get("IPSOEVAL_CORE", "auto") == "python":
        return False
    if values["fmt"] not in ("auto", "tsv", "json") or values["scale"] != "original":
        return False
    opts = {**values, "paths": [values["qrels"], *values["runs"]],
            "warn_mode": values["warnings_mode"]}
    if not opts["measures"] or len(opts["paths"]) < 3 or "-" in opts["paths"]:
        return False
    from ipsoeval.writing import output_path
    output, junit = output_path(opts["output"]), opts["junit"]
    if any(p is not None and not _writable(p) for p in (output, junit)) \
            or (junit is not None and opts["fail_if"] is None):
        return False
    if opts["fmt"] == "auto" and output is None:
        try:
            if sys.stdout.isatty():          # auto on a terminal is the table layout
                return False
        except (ValueError, OSError):
            pass
    from ipsoeval.reading import quick as core_scores
    reqs = core_scores.measure_requests(opts["measures"])
    if not reqs or any(_scale(r.family) is None for r in reqs):
        return False
    paths = opts["paths"]
    from ipsoeval.reading.provider import family_spec
    num_rel = family_spec("NumRel")         # R of each topic, at relevance level 1
    extra = (num_rel,) if any(r.family == "R" for r in reqs) else ()
    got = core_scores.topic_scores(reqs, paths[0], paths[1:], extra)
    if got is None:
        return False
    specs, topics, per_run = got
    try:
        runs = [name.decode("utf-8") for name, _, _ in per_run]
    except UnicodeDecodeError:
        return False
    if len(set(runs)) != len(runs) or not topics:
        return False

    def cells(spec):
        col = specs.index(spec)
        return [memoryview(raw).cast("d")[col::len(specs)].tolist() for _, raw, _ in per_run]

    columns, notes = {}, []                 # measure name -> (scale, per run, per topic)
    for r in reqs:
        if r.name in columns:
            continue
        fam = r.family
        got = cells(core_scores.core_spec(r))
        if any(v != v for row in got for v in row):      # NaN: the full path's omissions
            return False
        scale = _scale(fam)
        if fam == "R":                      # as stats.scales.measure_scale
            from ipsoeval.stats.scales import recall_scale
            scale, why = recall_scale(r.name, cells(num_rel)[0], scale)
            if why:
                notes.append(why)
        columns[r.name] = (scale, got)
    # the warnings every command gives on these inputs (engine.score_warnings):
    # a tie order that moves a value, from the core's flags as eval's quick path
    tie_warnings = core_scores.tie_notes(reqs, topics, per_run)
    try:
        report = _report(runs, paths[1:], len(topics), columns, notes, opts, tie_warnings)
    except Exception:           # noqa: BLE001  a case not foreseen: the full program's
        return False
    if report is None:
        return False
    return _write(*report, output, junit)


def _report(runs, paths, topics, columns, notes, opts, tie_warnings=()):
    """(text, warning lines, gate, JUnit XML or None) of the tests, or None
    (declined).  ``notes``: the measures' scale notes (the report's notes,
    never warnings); ``tie_warnings``: the runs' tie warnings."""
    from ipsoeval.analyses.sigtest.common import (
        COLUMNS,
        TESTS_DESCRIPTION,
        decide_gate,
        make_options,
        pairs_of,
        report_params,
        undefined_warning,
    )
    from ipsoeval.errors import IpsoevalError
    from ipsoeval.stats import paired, registry
    from ipsoeval.stats.corrections import adjust_list
    from ipsoeval.tiewarn_text import warnings_mode
    try:
        options = make_options([], None, gate_option="--gate-test", baseline=opts["baseline"],
                               all_pairs=opts["all_pairs"], correct=opts["correct"],
                               alpha=opts["alpha"], alternative=opts["alternative"],
                               samples=opts["samples"], seed=opts["seed"],
                               fail_if=opts["fail_if"])
        options.baseline = _baseline(opts["baseline"], runs, paths)
        options.check(runs)
    except (IpsoevalError, _Declined):
        return None
    pairs = pairs_of(runs, options)
    records, undefined = [], {}
    for mname, (scale, cells) in columns.items():
        test, why = registry.default_test(scale)
        perm = registry.permissible(scale, test)
        for i, j in pairs:
            a, b = cells[i], cells[j]
            n, mean_a, mean_b, diff, sd, wins, ties, losses = paired.moments(a, b)
            low, high, effect = paired.t_interval(diff, sd, n, options.level)
            if test == "t":
                statistic, p = paired.t_test(diff, sd, n, options.alternative)
            else:
                k, m = paired.sign_counts(a, b)
                statistic, p = float(k), paired.sign_p(k, m, options.alternative)
            if p != p:
                undefined[test] = undefined.get(test, 0) + 1
            mean_a, mean_b, diff, low, high, effect, statistic, p = (
                None if x != x else x
                for x in (mean_a, mean_b, diff, low, high, effect, statistic, p))
            records.append({
                "run_a": runs[i], "run_b": runs[j], "measure": mname, "n": n,
                "mean_a": mean_a, "mean_b": mean_b, "diff": diff, "ci_low": low,
                "ci_high": high, "effect_size": effect, "wins": wins, "ties": ties,
                "losses": losses, "test": test, "statistic": statistic, "p_value": p,
                "p_adjusted": None, "significant": False, "permissible": perm, "why": why})
    # one correction family: every comparison reported (common.family_key, no --test)
    adjusted = adjust_list([math.nan if r["p_value"] is None else r["p_value"]
                            for r in records], options.correct)
    for rec, p in zip(records, adjusted):
        rec["p_adjusted"] = None if p != p else p
        rec["significant"] = bool(p == p and p < options.alpha)
    messages = list(dict.fromkeys(
        list(tie_warnings) + [undefined_warning(test, count) for test, count in undefined.items()]))
    mode = warnings_mode(opts["warn_mode"])       # -W, else $IPSOEVAL_WARNINGS
    if mode is None or (mode == "error" and messages):
        return None
    shown = []
    if messages:
        from ipsoeval.warntext import lines
        shown = lines(messages, mode)
    gate = None
    if options.fail_if is not None:
        base = None if options.all_pairs else runs[pairs[0][0]]
        gate = decide_gate(records, base, list(columns), options, set())
    from ipsoeval.results import ResultSet
    if opts["fmt"] != "json" and opts["junit"] is None:
        from ipsoeval.formatters.tsv import render
        return render(ResultSet(command="sigtest", columns=COLUMNS + ["why"],
                                records=records)), shown, gate, None
    # the full program's Report (run, run_scores, the CLI's alignment params)
    from ipsoeval.align_options import AlignOptions
    from ipsoeval.results import Report
    params = report_params(runs, pairs, list(columns), {m: c[0] for m, c in columns.items()},
                           options, list(dict.fromkeys(r["test"] for r in records)))
    params["topics"] = topics
    params.update(AlignOptions().as_params())
    tests = ResultSet(command="sigtest", columns=COLUMNS + ["why"], records=records,
                      params=params, id="tests", description=TESTS_DESCRIPTION)
    report = Report("sigtest", [tests], primary="tests", warnings=messages, gate=gate,
                    notes=list(dict.fromkeys(notes)))
    if opts["fmt"] == "json":
        from ipsoeval.formatters import json_
        text = json_.render(report)
    else:
        from ipsoeval.formatters.tsv import render
        text = render(tests)
    xml = None
    if opts["junit"] is not None:
        from ipsoeval.formatters.junit import render_junit
        xml = render_junit(report)
    return text, shown, gate, xml


class _Declined(Exception):
    pass


def _scale(family: str) -> str | None:
    """The scale of a family's measures (its declaration's, as Measure.scale
    gives it; recall's becomes ordinal when the topics' recall bases differ,
    stats.scales.recall_scale), or None where this path declines: a family
    whose topics' values are not averaged (the counts, the run's name), or
    whose scale its parameters change."""
    from ipsoeval.measures.registry import FAMILIES
    fam = FAMILIES[family]
    if fam.agg != "mean" or fam.scale_of is not None:
        return None
    return fam.scale


def _baseline(value, runs, paths):
    """validate.baseline's run for ``--baseline``: served when it names exactly
    one run and is no RUN argument's file; else declined."""
    if value is None:
        return None
    if runs.count(value) != 1 or value in paths or os.path.exists(value):
        raise _Declined
    return value


def _writable(path: str) -> bool:
    """``-o PATH`` the quick path takes: a regular file or a new one in an
    existing directory (cli.output.check_output refuses the others, or
    writes devices in place: the full program's)."""
    if path in ("", "-"):
        return False
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    except OSError:
        return False
    if st is not None and not stat.S_ISREG(st.st_mode):
        return False
    d = os.path.dirname(os.path.realpath(path)) or "."
    if not os.path.isdir(d):
        return False
    try:                                    # check_output's probe: the only sure test
        from ipsoeval.writing import mkstemp
        fd, probe = mkstemp(".ipsoeval-", d)
        os.close(fd)
        os.unlink(probe)
    except OSError:
        return False
    return True


def _write(text, warnings, gate, xml=None, output=None, junit=None) -> bool:
    """As cli.output.emit: the warnings, the table (on standard output or
    in ``output``, replaced whole), the JUnit XML, then the gate's verdict (a
    failed gate exits 1 after the table).  False (nothing done) when
    ``output`` cannot be written: the full program says why."""
    if output is not None or junit is not None:
        from ipsoeval.errors import InputError
        from ipsoeval.writing import write_output
        try:
            if output is not None:
                write_output(output, text)
            if junit is not None:
                write_output(junit, xml)
        except InputError:
            return False
    from ipsoeval.stdio import warn_lines, write_stdout
    warn_lines(warnings)
    if output is None:
        write_stdout(text)                  # `| head`: quiet, the gate still decides
    if gate is None:
        return True
    try:
        sys.stderr.write(f"ipsoeval: gate {'passed' if gate.passed else 'failed'}: "
                         f"{gate.reason}\n")
        sys.stderr.flush()
    except (BrokenPipeError, OSError):
        pass
    if not gate.passed:
        raise SystemExit(1)
    return True
