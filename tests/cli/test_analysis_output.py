"""Defect 12 (analyses): plain floats in records; big integers as strings."""

import json

from tests.conftest import invoke


def test_interval_map_normalise_per_topic_prints_plain_floats(tmp_path):
    (tmp_path / "qrels").write_text("q1 0 d1 1\nq1 0 d2 0\nq2 0 d1 1\n")
    (tmp_path / "run").write_text("q1 Q0 d1 1 2 A\nq1 Q0 d2 2 1 A\nq2 Q0 d2 1 1 A\n")
    code, out, err = invoke(["interval-map", "-q", "--normalise", "-m", "P@2", "--format", "tsv",
                             tmp_path / "qrels", tmp_path / "run"])
    assert code == 0, err
    assert "np.float64" not in out
    rows = [ln.split("\t") for ln in out.splitlines()[1:]]
    assert [r[4] for r in rows if r[1] == "q1"] == ["0.5"]


def test_ipso_enumerate_big_counts_are_json_strings():
    code, out, err = invoke(["ipso", "--enumerate", "5,100", "--format", "json"])
    assert code == 0, err
    rec = {r["k"]: r for r in json.loads(out)["results"]}
    n = rec[100]["n_separable"]
    assert isinstance(n, str) and n == "360401018730232861668242368167253153032720224855582449135888"
    assert int(rec[100]["n_equal"]) == 2 ** 100
    assert rec[5]["n_equal"] == "32"
