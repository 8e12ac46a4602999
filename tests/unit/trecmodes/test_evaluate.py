"""trec_eval's other modes (-R prefs / qrels_prefs / qrels_jg), -Z, -n, -N, -D, -v
and --trec-eval-version, byte for byte against trec_eval's outputs."""

import re

import pytest

from tests.conftest import ROOT, TE, invoke

DATA = ROOT / "tests" / "data"
TM = DATA / "trec_modes"


def run(*args, code=0):
    c, out, err = invoke(["eval", "--format", "trec", *args])
    assert c == code, err
    return out, err


# --- the quicktest golden files ---------------------------------------------------

@pytest.mark.parametrize("prefs", ["prefs.test", "prefs.comment.test"])
def test_prefs_golden(prefs):
    out, _ = run("-m", "all_prefs", "-q", "-R", "prefs", TE / prefs, TE / "prefs.results.test")
    assert out == (TE / "out.test.prefs").read_text()


def test_qrels_prefs_golden():
    out, _ = run("-m", "all_prefs", "-q", "-R", "qrels_prefs", TE / "qrels.test",
                 TE / "results.test")
    assert out == (TE / "out.test.qrels_prefs").read_text()


@pytest.mark.parametrize("qrels", ["qrels.123", "qrels.comments.123"])
def test_qrels_jg_golden(qrels):
    out, _ = run("-m", "qrels_jg", "-q", "-R", "qrels_jg", TE / qrels, TE / "results.test")
    assert out == (TE / "out.test.qrels_jg").read_text()


def test_zscores_golden_whole_file():
    out, _ = run("-q", "-m", "all_trec", "-Z", TE / "zscores_file", TE / "qrels.test",
                 TE / "results.test")
    assert out == (TE / "out.test.aqZ").read_text()


def test_zscores_golden_on_the_measures_we_have():
    out, _ = run("-q", "-m", "all_trec", "-Z", TE / "zscores_file", TE / "qrels.test",
                 TE / "results.test")
    got = out.splitlines(keepends=True)
    names = {ln.split("\t")[0] for ln in got}
    want = [ln for ln in (TE / "out.test.aqZ").read_text().splitlines(keepends=True)
            if ln.split("\t")[0] in names]
    assert got == want
    assert len(got) > 200
    # the parts of -Z: prefix, float counts, -1000000 for gm_map, num_q, runid as is
    assert "Znum_ret               \t301\t-2.7605\n" in got
    assert "Zgm_map                \tall\t0.0000\n" in got
    assert "Znum_q                 \tall\t3.0000\n" in got
    assert "runid                 \tall\tSTANDARD\n" in got


# --- more cases from trec_eval 9.0.8 and 10.0 (tests/data/trec_modes) ---------------

CASES = [ln.split("|") for ln in (TM / "commands.txt").read_text().splitlines()
         if ln and not ln.startswith("#")]


@pytest.mark.parametrize("name,version,args", CASES, ids=[c[0] for c in CASES])
def test_trec_eval_cases(name, version, args):
    argv = [a if not re.match(r"^trec_(eval|modes)/", a) else str(DATA / a)
            for a in args.split()]
    out, _ = run("--trec-eval-version", version, *argv)
    assert out == (TM / f"{name}.out").read_text()


# --- options --------------------------------------------------------------------------

def test_no_summary_drops_all_lines_in_prefs_mode():
    out, _ = run("-n", "-q", "-m", "all_prefs", "-R", "prefs", TE / "prefs.test",
                 TE / "prefs.results.test")
    want = [ln for ln in (TE / "out.test.prefs").read_text().splitlines(keepends=True)
            if "\tall\t" not in ln]
    assert out == "".join(want)


def test_v_prints_version_and_exits_0():
    code, out, err = invoke(["eval", "-v"])
    assert code == 0 and out == ""
    assert "ipsoeval eval" in err and "trec_eval 10.0" in err


def test_debug_level_without_topic_changes_nothing():
    a, _ = run("-D", "3", TE / "qrels.test", TE / "results.test")
    assert a == (TE / "out.test").read_text()


def test_num_docs_in_coll_accepted_and_does_not_change_other_measures():
    a, _ = run("-N", "100000", TE / "qrels.test", TE / "results.test")
    assert a == (TE / "out.test").read_text()


def test_default_measures_of_the_modes():
    out, _ = run("-R", "qrels_jg", TE / "qrels.123", TE / "results.test")
    want = [ln for ln in (TE / "out.test.qrels_jg").read_text().splitlines(keepends=True)
            if "\tall\t" in ln]
    assert out == "".join(want)
    out, _ = run("-R", "prefs", TE / "prefs.test", TE / "prefs.results.test")
    assert [ln.split("\t")[0].strip() for ln in out.splitlines()] == [
        "runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful",
        "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair", "prefs_avgjg"]


def test_tsv_has_no_runid_rows_in_prefs_mode():
    code, out, _ = invoke(["eval", "--format", "tsv", "-m", "prefs_simp", "-R", "prefs",
                           TE / "prefs.test", TE / "prefs.results.test"])
    assert code == 0
    assert "runid" not in out and "\tall\tprefs_simp\t0.388" in out


def test_version_10_stops_on_a_missing_topic_version_9_skips_it(tmp_path):
    o = tmp_path / "out.txt"
    code, out, err = invoke(["eval", "--trec-eval-version", "10", "-o", o, TE / "qrels.test",
                             TE / "results.trunc"])
    assert code == 3 and not o.exists()
    assert re.fullmatch(r"ipsoeval: error: \S*results.trunc: qrels topic '302' is missing "
                        r"from the run .*\n", err)
    out, err = run("--trec-eval-version", "9", TE / "qrels.test", TE / "results.trunc")
    assert "num_q                 \tall\t2\n" in out


def test_version_9_all_trec_has_no_rbp(tmp_path):
    out, _ = run("--trec-eval-version", "9", "-m", "all_trec", TE / "qrels.test",
                 TE / "results.test")
    assert "rbp" not in out and "unj" not in out


def test_rnonrel_short_lowest_class_warns(tmp_path):
    q = tmp_path / "q"
    q.write_text("1 0 a 1\n1 0 b 1\n1 0 c 1\n1 0 d 0\n1 0 e 0\n1 0 f 0\n1 0 g 0\n"
                 "1 0 h -1\n")
    r = tmp_path / "r"
    r.write_text("1 Q0 a 1 3 R\n1 Q0 d 2 2 R\n1 Q0 h 3 1 R\n")
    code, out, err = invoke(["eval", "-m", "prefs_avgjg_Rnonrel", "-R", "qrels_prefs", q, r])
    assert code == 0
    assert "fewer than R documents" in err and "reads past its end" in err


# --- errors ------------------------------------------------------------------------------

def err_of(args):
    code, out, err = invoke(["eval", *args])
    return code, err


def test_malformed_prefs_line(tmp_path):
    p = tmp_path / "p"
    p.write_text("1 g s d1 1\n1 g s d2\n")
    code, err = err_of(["-R", "prefs", p, TE / "prefs.results.test"])
    assert code == 3
    assert err == f"ipsoeval: error: {p}:2: expected 5 fields (qid jg jsg docno rel_level), " \
                  f"found 4\n"


def test_prefs_level_not_a_number(tmp_path):
    p = tmp_path / "p"
    p.write_text("1 g s d1 1\n1 g s d2 high\n")
    code, err = err_of(["-R", "prefs", p, TE / "prefs.results.test"])
    assert code == 3 and err.startswith(f"ipsoeval: error: {p}:2: rel_level is not a number")


def test_malformed_qrels_jg(tmp_path):
    p = tmp_path / "q"
    p.write_text("301 0 d1 1\n301 0 d2 1 extra\n")
    code, err = err_of(["-R", "qrels_jg", p, TE / "results.test"])
    assert code == 3 and err.startswith(f"ipsoeval: error: {p}:2: expected 4 fields")
    p.write_text("301 0 d1 1\n301 1 d1 0\n301 0 d1 2\n")
    code, err = err_of(["-R", "qrels_jg", p, TE / "results.test"])
    assert code == 3 and err.startswith(f"ipsoeval: error: {p}:3: duplicate docno 'd1'")


def test_malformed_zscores(tmp_path):
    z = tmp_path / "z"
    z.write_text("301 map 0.1 0.2\n301 P_5 0.1\n")
    code, err = err_of(["-Z", z, TE / "qrels.test", TE / "results.test"])
    assert code == 3 and err == f"ipsoeval: error: {z}:2: expected 4 fields (qid measure " \
                                f"mean stddev), found 3\n"
    z.write_text("301 map 0.1 x\n")
    code, err = err_of(["-Z", z, TE / "qrels.test", TE / "results.test"])
    assert code == 3 and err.startswith(f"ipsoeval: error: {z}:1: mean/stddev is not a number")


def test_inconsistent_preferences_in_one_group(tmp_path):
    p = tmp_path / "p"
    p.write_text("1 g s1 a 2\n1 g s1 b 1\n1 g s2 b 2\n1 g s2 a 1\n")
    r = tmp_path / "r"
    r.write_text("1 Q0 a 1 2 R\n")
    code, err = err_of(["-R", "prefs", p, r])
    assert code == 3 and "inconsistent preferences" in err and err.count("\n") == 1


def test_duplicate_docno_in_run_prefs_mode(tmp_path):
    r = tmp_path / "r"
    r.write_text("1.EC.AB Q0 FBIS4-39881 1 2 R\n1.EC.AB Q0 FBIS4-39881 2 1 R\n")
    code, err = err_of(["-R", "prefs", "-c", TE / "prefs.test", r])
    assert code == 3 and err.startswith(f"ipsoeval: error: {r}:2: duplicate docno")


def test_unknown_rel_format_is_a_usage_error():
    code, err = err_of(["-R", "trec_prefs", TE / "qrels.test", TE / "results.test"])
    assert code == 2 and err.startswith("ipsoeval: error:") and "trec_prefs" in err


@pytest.mark.parametrize("args", [
    ["-m", "prefs_simp", TE / "qrels.test", TE / "results.test"],
    ["-m", "all_prefs", TE / "qrels.test", TE / "results.test"],
    ["-m", "qrels_jg", TE / "qrels.test", TE / "results.test"],
    ["-R", "prefs", "-m", "map", TE / "prefs.test", TE / "prefs.results.test"],
    ["-R", "qrels_jg", "-m", "prefs_simp", TE / "qrels.123", TE / "results.test"],
    ["-R", "qrels_jg", "-m", "P_avgjg.5,5", TE / "qrels.123", TE / "results.test"],
])
def test_measure_and_mode_mismatch_is_a_usage_error(args):
    code, err = err_of(args)
    assert code == 2 and err.count("\n") == 1, err


def test_version_9_refuses_measures_new_in_10():
    from ipsoeval.measures import expand
    if expand("rbp")[0].label != "rbp":
        pytest.skip("trec_eval's rbp comes with branch trec-measures")
    code, err = err_of(["--trec-eval-version", "9", "-m", "rbp", TE / "qrels.test",
                        TE / "results.test"])
    assert code == 2 and "9.0.8" in err


def test_debug_topic_not_judged_is_an_input_error():
    code, err = err_of(["-D", "1.999", "-R", "prefs", TE / "prefs.test",
                        TE / "prefs.results.test"])
    assert code == 3 and "'999'" in err


def test_zscores_rules_by_hand(tmp_path):
    z = tmp_path / "z"
    # num_rel of 301 is 474: sd 0 and a different mean -> missing; 302 absent -> missing;
    # 303 (num_rel 10): (10 - 4) / 2 = 3
    z.write_text("301 num_rel 400 0\n303 num_rel 4 2\n")
    out, _ = run("-q", "-m", "num_rel", "-Z", z, TE / "qrels.test", TE / "results.test")
    assert out == ("Znum_rel               \t301\t-1000000.0000\n"
                   "Znum_rel               \t302\t-1000000.0000\n"
                   "Znum_rel               \t303\t3.0000\n"
                   "Znum_rel               \tall\t-1999997.0000\n")


def test_prefs_mode_several_runs_and_names(tmp_path):
    out, _ = run("--name-from-file", "-m", "runid", "-m", "prefs_simp", "-R", "prefs",
                 TE / "prefs.test", TE / "prefs.results.test", TE / "prefs.results.test")
    lines = out.splitlines()
    assert len(lines) == 4 and lines[1] == lines[3] == "prefs_simp            \tall\t0.3881"
    code, js, _ = invoke(["eval", "--format", "json", "-m", "prefs_simp", "-R", "prefs",
                          TE / "prefs.test", TE / "prefs.results.test"])
    assert code == 0 and '"measure": "prefs_simp"' in js and '"qid": "all"' in js


def test_num_docs_in_coll_reaches_utility():
    from ipsoeval.errors import UsageError
    from ipsoeval.measures import expand
    try:
        expand("utility.2,-1,0,1")
    except UsageError:
        pytest.skip("trec_eval's utility comes with branch trec-measures")
    out, _ = run("-q", "-m", "utility.2,-1,0,1", "-N", "100000", TE / "qrels.test",
                 TE / "results.test")
    assert out == (TM / "v10.utilityN.out").read_text()
