"""Defect 13: the default interval map is the paper's (Ferrante et al. §5,
§7.1.2): one universe REL^N for every topic, so R maps like P and nDCG like
DCG, and high-R topics do not dominate means and tests."""

import csv
import io

import numpy as np

from ipsoeval.analyses import interval_map as im
from tests.conftest import invoke


def _two_topics(tmp_path):
    # t1: R = 1; t2: R = 10.  A finds t1's relevant document and nothing on t2;
    # B misses t1 and finds 5 of t2's 10 relevant documents.
    q = ["t1 0 r0 1\n"] + [f"t2 0 r{i} 1\n" for i in range(10)]
    q += [f"t1 0 n{i} 0\n" for i in range(10)] + [f"t2 0 n{i} 0\n" for i in range(10)]
    (tmp_path / "qrels").write_text("".join(q))
    a = ["t1 Q0 r0 1 10 A\n"] + [f"t1 Q0 n{i} {i + 2} {9 - i} A\n" for i in range(9)]
    a += [f"t2 Q0 n{i} {i + 1} {10 - i} A\n" for i in range(10)]
    b = [f"t1 Q0 n{i} {i + 1} {10 - i} B\n" for i in range(10)]
    b += [f"t2 Q0 r{i} {i + 1} {10 - i} B\n" for i in range(5)]
    b += [f"t2 Q0 n{i} {i + 6} {5 - i} B\n" for i in range(5)]
    (tmp_path / "a").write_text("".join(a))
    (tmp_path / "b").write_text("".join(b))
    return tmp_path


def _means(tmp_path, *extra):
    code, out, err = invoke(["interval-map", "-m", "R@10", *extra, "--format", "tsv",
                             tmp_path / "qrels", tmp_path / "a", tmp_path / "b"])
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out), delimiter="\t"))
    return {r["run"]: float(r["interval_value"]) for r in rows if r["qid"] == "all"}


def test_two_topic_example_same_order_with_and_without_normalise(tmp_path):
    d = _two_topics(tmp_path)
    raw, norm = _means(d), _means(d, "--normalise")
    assert raw["B"] > raw["A"] and norm["B"] > norm["A"]
    # the per-topic attainable universe reverses them under --normalise
    att_raw = _means(d, "--universe", "attainable")
    att_norm = _means(d, "--universe", "attainable", "--normalise")
    assert att_raw["B"] > att_raw["A"] and att_norm["A"] > att_norm["B"]


def test_default_maps_r_like_p_and_ndcg_like_dcg():
    import sys
    sys.path.insert(0, "tests")
    from test_interval_map import synthetic
    al = synthetic(5, runs=5, topics=6)
    np.testing.assert_array_equal(im.interval_scores(al, "R@10"), im.interval_scores(al, "P@10"))
    np.testing.assert_array_equal(im.interval_scores(al, "nDCG(b=2)@10"),
                                  im.interval_scores(al, "DCG(b=2)@10"))
