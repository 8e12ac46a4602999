"""The scale a measure has on the topics of an evaluation (Ferrante, Ferro &
Fuhr 2021, §3.2-3.4), which decides which tests are permissible.

A measure family has a nominal scale (``Measure.scale``); two facts of the
data refine it:

* graded RBP (``--gains``, gains scaled by the largest) is an interval scale
  only for p = G/(G+1), G the smallest gap between consecutive normalised
  gains (§3.2): ``--gains 0:0,1:1,2:3`` gives gaps 1/3 and 2/3, so p = 1/4;
  binary gains give G = 1, p = 1/2.  Any other p: ordinal.
* recall (R@k) is an interval scale on the runs of one topic, but topics
  with different recall bases R have different, incompatible scales (§3.4.2,
  the surrogate argument of §5.2.2): averaging or testing across them is not
  permissible for interval tests, so R@k is ordinal unless every topic has
  the same R.
"""

from __future__ import annotations

# fractions and numpy are imported where needed: sigtest's quick path reads
# recall's scale (recall_scale) without either


def graded_rbp_p(gains):
    """The p at which RBP with these gains is interval: G/(G+1), G the
    smallest gap between consecutive distinct gains after scaling by the
    largest (0 included), a Fraction.  None without a positive gain."""
    from fractions import Fraction

    vals = sorted({Fraction(float(g)).limit_denominator(10 ** 9) for g in gains} | {Fraction(0)})
    top = vals[-1]
    if top <= 0:
        return None
    norm = [v / top for v in vals if v >= 0]
    G = min(b - a for a, b in zip(norm, norm[1:]))
    return G / (G + 1)


def measure_scale(measure, aligned=None) -> tuple[str | None, str | None]:
    """``(scale, reason)`` of ``measure`` on ``aligned``'s topics; reason says
    why it differs from the family's nominal scale (None when it does not)."""
    nominal = getattr(measure, "scale", None)
    fam = getattr(measure, "family", None)
    if fam == "RBP":
        from fractions import Fraction
        p = Fraction(float(measure.param("p", 0.8))).limit_denominator(10 ** 9)
        gmap = getattr(aligned, "gain_map", None) if aligned is not None else None
        if gmap:
            pos = [g for g in gmap.values() if g > 0]
            target = graded_rbp_p(pos) if pos else Fraction(1, 2)
            why = "graded"
        else:
            target = Fraction(1, 2)
            why = "binary"
        if target is not None and p == target:
            return "interval", None if nominal == "interval" else \
                f"{measure.name}: interval with {why} gains at p = {target} (Ferrante et al. §3.2)"
        return "ordinal", None if nominal == "ordinal" else (
            f"{measure.name}: ordinal: with {why} gains RBP is interval only at p = {target} "
            f"(Ferrante et al. §3.2)")
    if fam == "R" and aligned is not None:
        return recall_scale(measure.name, aligned.num_rel, nominal)
    return nominal, None


def recall_scale(name: str, num_rel, nominal: str | None = "interval"):
    """``(scale, reason)`` of recall measure ``name`` on topics with these
    recall bases (R per topic): ordinal, and why, when they differ."""
    R = [int(r) for r in num_rel]
    if R and min(R) != max(R):
        return "ordinal", (f"{name} is ordinal across topics: recall is interval on one "
                           f"topic, but the topics' recall bases differ "
                           f"({min(R)}..{max(R)}), so their scales differ "
                           f"(Ferrante et al. §3.4.2)")
    return nominal, None


# Families the interval map (``ipsoeval interval-map``, ``sigtest --scale
# interval``) maps onto an interval scale (Ferrante et al. 2021 §4).
INTERVAL_MAPPABLE = ("P", "R", "AP", "RR", "ESL", "Success", "DCG", "nDCG", "RBP")


def _routes(name: str, scale: str | None, runs: int) -> list[tuple[str, str]]:
    """The permissible routes for ``name`` as (kind, measure-or-test) pairs:
    ``("mapped", "AP@30")`` and ``("rank", "friedman" | "sign")``; empty
    when the scale permits tests of means (or is not known)."""
    if scale != "ordinal":
        return []
    try:
        from ipsoeval.measures import parse_measure
        m = parse_measure(name)
        family, cutoff = m.family, m.cutoff
    except Exception:       # a name from a score file: no interval map offered
        family = cutoff = None
    routes = []
    if family in INTERVAL_MAPPABLE:
        # the map needs a run length: a measure without a cutoff gets
        # interval-map's default, 30
        routes.append(("mapped", name if cutoff is not None else f"{name}@30"))
    routes.append(("rank", "friedman" if runs >= 3 else "sign"))
    return routes


def permissible_route(name: str, scale: str | None, runs: int = 3) -> str | None:
    """Where a test of means is not permissible (an ordinal ``scale``), the
    routes that are, as commands: the interval-mapped measure (Ferrante et al.
    2021), when the interval map covers the family, and a rank-based test --
    Friedman with Tukey HSD on the ranks for three or more ``runs``, the sign
    test for two -- which needs only an ordinal scale.  None when the scale
    permits tests of means (or is not known)."""
    routes = []
    for kind, what in _routes(name, scale, runs):
        if kind == "mapped":
            routes.append(f"the interval-mapped measure: ipsoeval sigtest --all-pairs "
                          f"--scale interval -m '{what}'")
        else:
            routes.append(f"rank-based: ipsoeval sigtest --all-pairs --test {what} -m '{name}'")
    return "; ".join(routes) or None


def permissible_alternatives(name: str, scale: str | None, runs: int = 3) -> str | None:
    """:func:`permissible_route` in words, for a note a paper can print (no
    command lines): "the interval-mapped AP@30 or Friedman's test on the
    ranks"; None where :func:`permissible_route` is None."""
    words = {"friedman": "Friedman's test with Tukey HSD on the ranks",
             "sign": "the sign test"}
    parts = [f"the interval-mapped {what}" if kind == "mapped" else words[what]
             for kind, what in _routes(name, scale, runs)]
    return " or ".join(parts) or None
