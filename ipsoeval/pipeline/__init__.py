"""The commands: each one's declaration (:class:`ipsoeval.declare.Command`, in
``ipsoeval.pipeline.<module>``) and the calls that turn its inputs into a
Report, which the command line (:mod:`ipsoeval.cli`) and the Python API
(:mod:`ipsoeval.api`) both make.

This module is the table of commands -- name, module, help text -- read by
``ipsoeval --help`` without importing any command; the help text of a
command is declared here and nowhere else.
"""

from __future__ import annotations

from ipsoeval.declare import Opt

# subcommand -> module of ipsoeval.pipeline declaring it (COMMAND)
COMMANDS = {
    "eval": "evaluate",
    "measures": "measures",
    "breakdown": "breakdown",
    "ipso": "ipso",
    "interval-map": "interval_map",
    "sigtest": "sigtest",
    "bootstrap": "bootstrap",
    "ppi": "ppi",
    "agree": "agree",
    "leaderboard": "leaderboard",
    "compare": "compare",
    "power": "power",
    "meta": "meta",
    "report": "report",
    "nuggets": "nuggets",
    "across": "across",
    "risk": "risk",
    "qpp": "qpp",
    "repro": "repro",
}

GROUP_HELP = """trec_eval-compatible evaluation of ranked runs, with honest comparisons.

Subcommands read TREC qrels and runs (gzip, bzip2 or xz are detected;
'-' is standard input), score them with one engine and print trec_eval's
layout, TSV, JSON or a table (--format).  See `ipsoeval COMMAND --help`
and the man pages (man ipsoeval)."""

GROUP_OPTIONS = (
    Opt("-V", "--version", kind="flag", dest="version", help="Show the version and exit."),
    Opt("--debug", kind="flag", dest="debug", help="Show a traceback for internal errors."),
    Opt("-h", "--help", kind="flag", dest="help", help="Show this message and exit."),
)

HELP = {  # each command's --help text: the first paragraph is its summary
    'eval': "Score runs against qrels, as trec_eval does.\n\nWith no -m, trec_eval's default (official) measure set.  --format trec\nreproduces trec_eval's output byte for byte; several runs print one block\neach (trec) or a run column (tsv, json, table).",
    'measures': 'List every measure with its definition, scale type and trec_eval names\n(--dataset ID: the relevance levels of an ir_datasets data set).',
    'breakdown': 'Outcomes breakdown of runs with one relevant document per topic (Lin,\nCampos, Craswell, Mitra and Yilmaz, 2021).  Each topic is (1) answered by\nneither run in its top k, (2A) only by A, (2B) only by B, or (3) by both.\nOutcome 2 is tested with an exact sign test, outcome 3 compares ESL (rank\nof the first relevant document) and RR with Wilcoxon signed-rank and\npaired t tests; a verdict combines the two facets.  See\nipsoeval-breakdown(1).',
    'ipso': "Innate pairwise SERP orderings: for each topic, is run A's SERP\nnon-inferior (ni), non-superior (ns), equal (==) or non-separable (**)\nto run B's for every metric at depth k?  Then the sign test of |ns|\nagainst |ni| over the topics (Moffat & Mackenzie 2024).",
    'interval-map': "Map per-topic scores onto an interval scale: phi(m) is the rank of m\namong the distinct values the measure takes on all judged runs of length\nN (Ferrante, Ferro & Fuhr 2021).  Prints per-run means of the original\nand mapped scores (-q: per topic), the value set (--values) and the\npaper's comparisons (--analyze).",
    'sigtest': "Significance tests between runs on per-topic scores: paired t,\nWilcoxon signed-rank, sign, rank-sum, randomization, bootstrap and, for\nthree or more runs, ANOVA, Kruskal-Wallis, two-way ANOVA and Friedman with\nTukey HSD.  Each result says whether the test is permissible for the\nmeasure's scale (Ferrante et al. 2021).  With --fail-if, a CI gate.",
    'bootstrap': "Leaderboard stability under bootstrapping: resample the topics with\nreplacement (same size) in each trial, rank the runs by mean score, and\nreport each run's expected rank, rank interval, share of samples at rank\n1 and the bootstrap CI of its mean; optionally the expected rank on\nnamed topic subsets and the split-half reliability of significance\ntests (Craswell et al. 2021, §3.1-3.2, §4.3).",
    'ppi': 'The mean of a measure over topics from a few human-judged topics and\nmachine labels on all of them: the prediction-powered estimate and its\nconfidence interval (PPI++ by default, or classical PPI), beside the\nhuman-only and the auto-only estimates; for pairs of runs, the same for\nthe paired difference.  The human topics must be a random subset of the\ntopics (Angelopoulos et al. 2023; Oosterhuis et al. 2024).',
    'agree': "Agreement of two qrels on the judgments they share: Cohen's kappa\n(unweighted, linear, quadratic), Krippendorff's alpha (interval,\nordinal) and the confusion matrix.  With two or more runs, for each -m\nmeasure: the correlation of the rankings of the runs under QRELS_A and\nQRELS_B (Kendall's tau-b, tau_AP, RBO) and the pairs of runs whose\nsignificant difference appears, disappears or flips.",
    'leaderboard': "A leaderboard that says which differences are real: each run's mean and\nCI, every pair tested with the randomised Tukey HSD (family-wise over all\npairs; Carterette 2012, Sakai 2018) beside Tukey HSD from the two-way\nANOVA, a compact letter display (runs sharing a letter are not\nsignificantly different; Piepho 2004), rank intervals, the group of runs\nindistinguishable from the best and the rank resolution.",
    'compare': "The results table of a paper: runs as rows, measures as columns, each\ncell the mean over topics with marks saying which differences are\nsignificant -- against a baseline, between all pairs as superscript\nletters (each cell lists the runs it is significantly better than, as\nranx prints them) or as the letter groups of leaderboard's randomised\nTukey HSD -- and the best value of each measure in bold.  The tests and\ncorrections are sigtest's, the family the pairs of one measure.",
    'power': 'Topic set size design (Sakai 2016): the number of topics the paired\nt-test, one-way ANOVA over m systems and a confidence interval need to\ndetect a difference delta with power 1 - beta at alpha (or to bound the\nCI), from the residual variance of the two-way ANOVA (topics x runs) of\nthe given runs; and the power and the minimal detectable difference of\nthe collection as it is.',
    'meta': "Compare measures over a set of runs, to choose the one to report:\ndiscriminative power (share of run pairs a test finds significant, and\nthe sorted p-values, Sakai 2006), swap rate over random topic halves\n(Voorhees & Buckley 2002) and Kendall's tau / tau_ap (Yilmaz et al.\n2008) between the rankings of the runs each pair of measures gives.",
    'report': "One self-contained HTML page comparing runs, to attach to a paper's\nrepository or a CI job: the leaderboard with CIs and letter groups\n(randomised Tukey HSD), the significance matrix as a heat map, the\nper-topic differences of chosen pairs with their tests, the outcomes\nbreakdown of the best run against the baseline (Lin et al. 2021) and\nthe permissible tests of each measure's scale.  The page loads nothing\nfrom the network; its tables hold the same numbers as ipsoeval\nleaderboard, sigtest and breakdown.  The charts are SVG drawn by ipsoeval\nitself (no plotting library needed).",
    'nuggets': "Nugget scores of generated answers from nugget assignment files\n(nuggetizer's JSONL or the long TSV): per run the mean over topics of\nthe strict and the partial (0.5) vital and all-nugget scores, as the\nTREC 2024 RAG track's AutoNuggetizer.  Every run must answer the same\ntopics.  The same files stand for runs and qrels in sigtest, bootstrap,\nleaderboard, power, meta, ipso (--nuggets), ppi (--nuggets --human H\n--auto A) and agree (--nuggets A B).",
    'across': "Compare runs over several test collections.  MANIFEST is a TSV file of\n`collection qrels run` lines (paths relative to it; qrels may be\nirds:DATASET_ID, or '-' for a file of per-topic scores).  Each run's\neffect against --baseline on each collection is pooled by random-effects\nmeta-analysis (fixed effect beside; Q, I^2, prediction interval); the\nleaderboard ranks runs by their pooled means with bootstrap rank\nintervals, beside the plain mean of means and the mean rank; a linear\nmixed model (system fixed, topic and collection random) handles runs\nmissing from collections or topics.",
    'repro': "How close a reproduced experiment comes to the original (Breuer et\nal., SIGIR 2020): QRELS ORIG_BASELINE ORIG_ADVANCED REP_BASELINE\nREP_ADVANCED.  Kendall's tau Union and RBO between the original and\nreproduced rankings, RMSE and nRMSE of the per-topic scores, the effect\nratio (ER), Delta RI and the t tests, as repro_eval 0.5.0 computes\nthem; bootstrap intervals for ER, Delta RI and the differences of means,\nand whether the reproduced effect is distinguishable from the original\none.  --rep-qrels: replicability on another collection.  See\nipsoeval-repro(1).",
    'risk': 'Risk-sensitive comparison of runs on per-topic scores: URisk and TRisk\nof each run against a baseline (Dinçer, Macdonald and Ounis, SIGIR 2014),\nand ZRisk and GeoRisk of each run against all of them (Dinçer, Macdonald\nand Ounis, SIGIR 2016).  See ipsoeval-risk(1).',
    'qpp': "Evaluate query performance predictors of one run: Pearson's r,\nSpearman's rho and Kendall's tau-b between each predictor's values and\na measure's per-topic scores, with p-values, Fisher z and bootstrap\nintervals, and sMARE (Faggioli et al. 2021); predictors compared by\nWilliams's t with Zou's interval (tau: a paired bootstrap), and the\ntwo-way ANOVA of sARE (topic, predictor) with Tukey's HSD.  A predictor\nfile is 'qid value' (named by its file) or 'predictor qid value'.",
}


def command(name: str):
    """The declaration of subcommand ``name`` (KeyError if there is none)."""
    import importlib
    return importlib.import_module(f"ipsoeval.pipeline.{COMMANDS[name]}").COMMAND


def group_help(width: int | None = None) -> str:
    from ipsoeval.declare import render_group_help
    return render_group_help(GROUP_HELP, GROUP_OPTIONS, HELP, width)
