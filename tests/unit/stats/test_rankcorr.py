"""τ_AP against numbers stated outside ipsoeval, with their inputs.

Source: the test suite of the R package ircor (Julián Urbano's reference
implementation of Yilmaz, Aslam & Robertson's τ_AP, SIGIR 2008, and of
Urbano & Marrero's tie-aware variants, ICTIR 2017):
github.com/julian-urbano/ircor, tests/testthat/helper_data.R (the inputs) and
tests/testthat/test_tauAP.R (the values, stated to 4 decimals, tolerance 5e-5),
commit 6335f56b9a0a15396b4fb5102db3959efee3519c.

Mapping: ircor's ``tauAP(x, y)`` takes the true scores x and the estimated
scores y, both sorted decreasingly (the default) -- the same roles as our
``tau_ap(reference, other)``.  ``tauAP_a`` (ties in y, "accuracy" scenario)
is the expectation over the orderings of the tie groups, which is how
``tau_ap`` treats ties.  ``tauAP_b`` without ties is the mean of the two
directions (Yilmaz et al. §3's symmetric use), our ``tau_ap_symmetric``;
ircor's ``tauAP_b`` WITH ties is a different ("agreement") estimator that
ipsoeval does not implement, so those values are not checked here.

The SIGIR 2008 paper itself: its text is online (docslib.org/doc/11327313,
vdocuments.site), but the search service only returned its opening pages
(abstract and §1), which state no worked example with numbers; no numeric
example from the paper is therefore asserted here.
"""

from __future__ import annotations

import pytest

from ipsoeval.stats import rankcorr as rc

IRCOR_SETS = {
    "set1": dict(
        x=[0.897, 0.372, 0.908, 0.898, 0.661, 0.062, 0.177, 0.384, 0.498, 0.992],
        y=[0.82, 0.406, 0.817, 0.953, 0.673, 0.073, 0.364, 0.547, 0.589, 0.988],
        y_ties=[0.8, 0.4, 0.8, 1, 0.7, 0.1, 0.4, 0.5, 0.6, 1]),
    "set2": dict(
        x=[0.266, 0.573, 0.202, 0.945, 0.629, 0.206, 0.687, 0.77, 0.718, 0.38],
        y=[0.263, 0.843, 0.728, 0.928, 0.08, 0.114, 0.467, 0.641, 0.973, 0.644],
        y_ties=[0.3, 0.8, 0.7, 0.9, 0.1, 0.1, 0.5, 0.6, 1, 0.6]),
    "set3": dict(
        x=[0.185, 0.573, 0.944, 0.129, 0.468, 0.553, 0.761, 0.405, 0.976, 0.445],
        y=[0.845, 0.272, 0.275, 0.924, 0.605, 0.334, 0.162, 0.872, 0.018, 0.25],
        y_ties=[0.8, 0.3, 0.3, 0.9, 0.6, 0.3, 0.2, 0.9, 0, 0.2]),
}

# (tauAP(x, y), tauAP_a(x, y.ties), tauAP_b(x, y)) as stated in test_tauAP.R
IRCOR_STATED = {
    "set1": (0.8519, 0.7454, 0.8333),
    "set2": (0.2504, 0.2692, 0.2880),
    "set3": (-0.6971, -0.5558, -0.668),
}


@pytest.mark.parametrize("name", sorted(IRCOR_SETS))
def test_tau_ap_equals_ircor_stated_values(name):
    s = IRCOR_SETS[name]
    tau_ap, tau_ap_a_ties, tau_ap_b = IRCOR_STATED[name]
    assert rc.tau_ap(s["x"], s["y"]) == pytest.approx(tau_ap, abs=5e-5)
    assert rc.tau_ap(s["x"], s["y_ties"]) == pytest.approx(tau_ap_a_ties, abs=5e-5)
    assert rc.tau_ap_symmetric(s["x"], s["y"]) == pytest.approx(tau_ap_b, abs=5e-5)
