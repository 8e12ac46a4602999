"""CLI: exact error lines and exit statuses, formats, pipes, output files."""

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import TE, TESTDATA, invoke

# run against the compiled reading core and the pure-Python one (conftest.py)
CORE_PATHS = ("c", "python")

QRELS = TESTDATA / "adhoc" / "qrels.txt"
BM25 = TESTDATA / "adhoc" / "run-bm25.txt"
NEURAL = TESTDATA / "adhoc" / "run-neural.txt"


def write(tmp_path, name, data):
    p = tmp_path / name
    p.write_bytes(data if isinstance(data, bytes) else data.encode())
    return p


@pytest.mark.parametrize("content,line,msg", [
    ("401 Q0 a 1 1.0 t\n401 Q0 b 2\n", 2,
     "expected 6 or more fields (qid Q0 docno rank score tag), found 4"),
    ("401 Q0 a 1 1.0 t\n401 Q0 b 2 high t\n", 2, "score is not a finite number ('high')"),
    ("401 Q0 a 1 1.0 t\n401 Q0 c 2 0.5 t\n401 Q0 a 3 0.2 t\n", 3,
     "duplicate docno 'a' in topic '401' (also at line 1)"),
    (b"401 Q0 a 1 1.0 t\n\x00\xff\x13garbage\n", 2, "binary data, not a text file (byte 0x00)"),
])
def test_input_errors_exact_line(tmp_path, content, line, msg):
    run = write(tmp_path, "run", content)
    code, out, err = invoke(["eval", QRELS, run])
    assert code == 3
    assert out == ""
    assert err == f"ipsoeval: error: {run}:{line}: {msg}\n"


def test_empty_file(tmp_path):
    run = write(tmp_path, "run", "")
    code, out, err = invoke(["eval", QRELS, run])
    assert (code, out) == (3, "")
    assert err == f"ipsoeval: error: {run}: empty run file (no data lines)\n"


def test_missing_file(tmp_path):
    code, out, err = invoke(["eval", QRELS, tmp_path / "nope"])
    assert (code, out) == (3, "")
    assert err == f"ipsoeval: error: {tmp_path / 'nope'}: no such file\n"


def test_duplicate_in_qrels(tmp_path):
    q = write(tmp_path, "q", "1 0 a 1\n1 0 b 0\n1 0 a 0\n")
    code, _, err = invoke(["eval", q, BM25])
    assert code == 3
    assert err == f"ipsoeval: error: {q}:3: duplicate docno 'a' in topic '1' (also at line 1)\n"


def test_unknown_measure_suggests():
    code, out, err = invoke(["eval", "-m", "nDGC@10", QRELS, BM25])
    assert (code, out) == (2, "")
    assert err == "ipsoeval: error: unknown measure 'nDGC@10' (did you mean 'nDCG@10'?)\n"


def test_unknown_option_and_command():
    code, _, err = invoke(["eval", "--bogus", QRELS, BM25])
    assert code == 2 and err.startswith("ipsoeval: error: ")
    code, _, err = invoke(["evl", QRELS, BM25])
    assert code == 2 and "did you mean 'eval'" in err


def test_conflicting_options():
    code, _, err = invoke(["eval", "-c", "--queries", "strict", QRELS, BM25])
    assert code == 2 and err == "ipsoeval: error: -c/--complete conflicts with --queries strict\n"


def test_two_stdin_arguments_is_usage_error():
    code, _, err = invoke(["eval", "-", "-"], input="")
    assert code == 2 and "at most one input may be '-'" in err


def test_strict_topics_differ_is_input_error():
    code, _, err = invoke(["eval", "--queries", "strict", QRELS, NEURAL])
    assert code == 3 and "--queries strict: topics differ" in err


def test_warnings_for_dropped_and_filled_topics():
    code, out, err = invoke(["eval", "-m", "P@5", QRELS, NEURAL])
    assert code == 0
    assert "1 topic(s) not in the qrels ignored" in err
    assert "1 qrels topic(s) missing from the run skipped" in err
    code, out, err = invoke(["eval", "-c", "-m", "P@5", QRELS, NEURAL])
    assert "evaluated as empty rankings" in err
    assert "num_q" not in out


def test_format_auto_uses_isatty():
    code, out, _ = invoke(["eval", "-m", "P@5", QRELS, BM25], isatty=False)
    assert out.startswith("P@5                   \tall\t")
    code, out, _ = invoke(["eval", "-m", "P@5", QRELS, BM25], isatty=True)
    assert "P@5" in out and "\t" not in out          # a rich table


def test_tsv_and_json_exact():
    code, out, _ = invoke(["eval", "--format", "tsv", "-m", "P@5", "-m", "NumRet", QRELS, BM25])
    assert out == "run\tqid\tmeasure\tvalue\nbm25\tall\tP@5\t0.35000000000000003\nbm25\tall\tNumRet\t60\n"
    code, out, _ = invoke(["eval", "--format", "json", "-m", "ESL@1", QRELS, BM25])
    doc = json.loads(out)
    assert doc["command"] == "eval" and doc["ipsoeval"]
    assert doc["results"][0]["measure"] == "ESL@1"
    assert set(doc["results"][0]) == {"run", "qid", "measure", "value"}


def test_json_null_for_undefined():
    code, out, _ = invoke(["eval", "--format", "json", "-q", "-m", "ESL@1", QRELS, BM25])
    vals = [r["value"] for r in json.loads(out)["results"] if r["qid"] != "all"]
    assert None in vals


def test_output_file_written_only_on_success(tmp_path):
    dest = tmp_path / "out.tsv"
    code, out, _ = invoke(["eval", "-o", dest, "-m", "P@5", QRELS, BM25])
    assert code == 0 and out == "" and dest.read_text().startswith("P@5")
    bad = write(tmp_path, "bad", "401 Q0 a 1 x t\n")
    dest2 = tmp_path / "out2.tsv"
    code, _, _ = invoke(["eval", "-o", dest2, QRELS, bad])
    assert code == 3 and not dest2.exists()


def test_trec_names_keep_trec_order_canonical_keep_request_order():
    _, out, _ = invoke(["eval", "-m", "P.5", "-m", "map", QRELS, BM25])
    assert [ln.split()[0] for ln in out.splitlines()] == ["map", "P_5"]
    _, out, _ = invoke(["eval", "-m", "P@5", "-m", "AP", QRELS, BM25])
    assert [ln.split()[0] for ln in out.splitlines()] == ["P@5", "AP"]


def test_measures_command_lists_scales():
    code, out, _ = invoke(["measures", "--format", "tsv"])
    assert code == 0
    rows = [ln.split("\t") for ln in out.splitlines()]
    assert rows[0][:3] == ["measure", "example", "scale"]
    scale = {r[0]: r[2] for r in rows[1:]}
    assert scale["P"] == "interval" and scale["AP"] == "ordinal" and scale["ESL"] == "ratio"


def _subprocess(args, **kw):
    env = dict(os.environ, PYTHONPATH=str(TE.parent.parent.parent))
    return subprocess.run([sys.executable, "-m", "ipsoeval", *map(str, args)],
                          capture_output=True, env=env, **kw)


def test_broken_pipe_is_quiet_and_zero():
    env = dict(os.environ, PYTHONPATH=str(TE.parent.parent.parent))
    cmd = (f"{sys.executable} -m ipsoeval eval -q -m all_trec {TE / 'qrels.test'} "
           f"{TE / 'results.test'} | head -1")
    p = subprocess.run(["bash", "-c", cmd + "; echo ${PIPESTATUS[0]}"], capture_output=True,
                       env=env, text=True)
    lines = p.stdout.splitlines()
    assert lines[0].startswith("num_ret") and lines[-1] == "0"
    # nothing but the tie warning (topic 301 ranks FBIS3-58025, 0, and FBIS3-58055, 1,
    # at one score): no broken-pipe noise
    assert p.stderr.count("\n") == 1 and "1 topic(s) have tied scores" in p.stderr, p.stderr


def test_internal_error_one_line(monkeypatch):
    import ipsoeval.engine as engine

    def boom(*a, **k):
        raise RuntimeError("kaboom")

    monkeypatch.setattr(engine, "evaluate", boom)
    code, _, err = invoke(["eval", QRELS, BM25])
    assert code == 70
    assert err.count("\n") == 1 and "internal error: RuntimeError: kaboom" in err


def test_stdin_run():
    code, out, _ = invoke(["eval", "-m", "P@5", QRELS, "-"], input=BM25.read_text())
    code2, out2, _ = invoke(["eval", "-m", "P@5", QRELS, BM25])
    assert code == 0 and out == out2


def test_python_dash_m_and_version():
    p = _subprocess(["--version"])
    assert p.returncode == 0 and b"ipsoeval" in p.stdout


# --- data in tables is text, not markup ---------------------------------------

def test_table_shows_run_names_verbatim():
    code, out, err = invoke(["eval", "--format", "table", "-m", "P@5", "--name", "bm25[run.txt]",
                             "--name", "bm25[run1.txt]", QRELS, BM25, BM25])
    assert code == 0, err
    assert "bm25[run.txt]" in out and "bm25[run1.txt]" in out


def test_table_path_in_brackets_is_no_markup_error():
    code, out, err = invoke(["eval", "--format", "table", "-m", "P@5", "--name", "[/tmp/x]",
                             QRELS, BM25])
    assert (code, err) == (0, "")
    assert "[/tmp/x]" in out


def test_table_tag_with_brackets(tmp_path):
    run = write(tmp_path, "run", "".join(
        " ".join(ln.split()[:5] + ["a[b]c"]) + "\n" for ln in BM25.read_text().splitlines()))
    code, out, err = invoke(["eval", "--format", "table", "-m", "P@5", QRELS, run])
    assert code == 0, err
    assert "a[b]c" in out


def test_table_formatter_escapes_every_string():
    from ipsoeval.formatters import render
    from ipsoeval.results import ResultSet

    rs = ResultSet(command="x", columns=["[b]run[/b]", "qid", "measure", "value"],
                   records=[{"[b]run[/b]": "[red]r[/red]", "qid": "[1]", "measure": "P[@5]",
                             "value": 0.5}],
                   title="title [i]data[/i]",
                   table_hints={"labels": {"qid": "[q]"}, "groups": [["[g]", ["measure"]]]})
    out = render(rs, "table", width=200)
    for s in ("[b]run[/b]", "[red]r[/red]", "[1]", "P[@5]", "title [i]data[/i]", "[q]", "[g]"):
        assert s in out
    piv = ResultSet(command="x", columns=["run", "measure", "value"],
                    records=[{"run": "[/x]", "measure": "m[a]", "value": 1.0}],
                    table_hints={"pivot": {"index": ["measure"], "columns": "run",
                                           "values": "value"}})
    out = render(piv, "table", width=200)
    assert "[/x]" in out and "m[a]" in out


# --- -o honours the umask, keeps what is at the path -----------------------

@pytest.mark.parametrize("umask,mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_output_file_mode_honours_umask(tmp_path, umask, mode):
    dest = tmp_path / "out.tsv"
    old = os.umask(umask)
    try:
        code, _, err = invoke(["measures", "-o", dest])
    finally:
        os.umask(old)
    assert code == 0, err
    assert dest.stat().st_mode & 0o777 == mode


def test_output_existing_file_keeps_its_mode(tmp_path):
    dest = write(tmp_path, "out.tsv", "old\n")
    dest.chmod(0o640)
    code, _, err = invoke(["measures", "-o", dest])
    assert code == 0, err
    assert dest.stat().st_mode & 0o777 == 0o640 and dest.read_text().startswith("measure")


def test_output_through_symlink_writes_the_target(tmp_path):
    target = write(tmp_path, "real.tsv", "old\n")
    link = tmp_path / "link.tsv"
    link.symlink_to(target)
    code, _, err = invoke(["measures", "-o", link])
    assert code == 0, err
    assert link.is_symlink() and target.read_text().startswith("measure")


def test_output_to_fifo_is_written_not_replaced(tmp_path):
    import threading

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got = []
    t = threading.Thread(target=lambda: got.append(fifo.read_text()), daemon=True)
    t.start()
    code, _, err = invoke(["measures", "-o", fifo])
    t.join(30)
    if t.is_alive():                   # the fifo was replaced: release the reader
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)) if fifo.exists() else None
    import stat
    assert code == 0, err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert got and got[0].startswith("measure")


def test_output_symlink_to_full_device_is_io_error(tmp_path):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    link = tmp_path / "full"
    link.symlink_to("/dev/full")
    code, out, err = invoke(["measures", "-o", link])
    assert link.is_symlink()
    assert (code, out) == (3, "")
    assert err == f"ipsoeval: error: cannot write to {link}: No space left on device\n"


def test_output_empty_path_is_usage_error():
    code, out, err = invoke(["eval", "-o", "", QRELS, BM25])
    assert (code, out) == (2, "")
    assert err == "ipsoeval: error: -o/--output: empty file name\n"


def test_output_missing_directory_checked_before_reading(tmp_path):
    bad = write(tmp_path, "bad", "401 Q0 a 1 x t\n")
    dest = tmp_path / "nodir" / "x"
    code, out, err = invoke(["eval", "-o", dest, QRELS, bad])
    assert (code, out) == (3, "")
    assert err == f"ipsoeval: error: cannot write to {dest}: no such directory {dest.parent}\n"


def test_output_unwritable_directory_checked_before_reading(tmp_path):
    bad = write(tmp_path, "bad", "401 Q0 a 1 x t\n")
    if os.geteuid() == 0:
        d = "/proc/self"           # root may write anywhere but here
    else:
        d = tmp_path / "ro"
        d.mkdir()
        d.chmod(0o500)
    dest = os.path.join(d, "x")
    code, out, err = invoke(["eval", "-o", dest, QRELS, bad])
    assert (code, out) == (3, "")
    assert err.startswith(f"ipsoeval: error: cannot write to {dest}: ") and err.count("\n") == 1
    assert not os.path.exists(dest)


def test_output_directory_is_io_error(tmp_path):
    code, out, err = invoke(["measures", "-o", tmp_path])
    assert (code, out) == (3, "")
    assert err == f"ipsoeval: error: cannot write to {tmp_path}: is a directory\n"


def test_no_temp_file_left_on_bad_input(tmp_path):
    bad = write(tmp_path, "bad", "401 Q0 a 1 x t\n")
    out_dir = tmp_path / "o"
    out_dir.mkdir()
    code, _, _ = invoke(["eval", "-o", out_dir / "x", QRELS, bad])
    assert code == 3 and list(out_dir.iterdir()) == []


# --- closed pipes and full disks ----------------------------------------------

def _bash(cmd):
    env = dict(os.environ, PYTHONPATH=str(TE.parent.parent.parent))
    p = subprocess.run(["bash", "-c", cmd + "; echo ${PIPESTATUS[0]}"], capture_output=True,
                       env=env, text=True)
    return int(p.stdout.splitlines()[-1]), p.stderr


def _gate_files(tmp_path, *, b_worse):
    qrels = "".join(f"{t} 0 d{t}r 1\n{t} 0 d{t}n 0\n" for t in range(1, 11))
    a = "".join(f"{t} Q0 d{t}r 1 2 A\n{t} Q0 d{t}n 2 1 A\n" for t in range(1, 11))
    b = "".join(f"{t} Q0 d{t}n 1 2 B\n{t} Q0 d{t}r 2 1 B\n" for t in range(1, 11))
    return (write(tmp_path, "qrels", qrels), write(tmp_path, "a", a),
            write(tmp_path, "b", b if b_worse else a.replace(" A\n", " B\n")))


def test_closed_pipe_before_any_output_exits_zero():
    code, err = _bash(f"{sys.executable} -m ipsoeval measures | head -n 0")
    assert (code, err) == (0, "")


@pytest.mark.parametrize("b_worse,status", [(False, 0), (True, 1)])
def test_closed_pipe_keeps_the_gate_status(tmp_path, b_worse, status):
    q, a, b = _gate_files(tmp_path, b_worse=b_worse)
    code, err = _bash(f"{sys.executable} -m ipsoeval sigtest -m P@1 --test sign --fail-if worse "
                      f"{q} {a} {b} | head -n 0")
    assert code == status, err
    assert "Traceback" not in err and "error" not in err


def test_full_disk_on_stdout_is_io_error():
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    env = dict(os.environ, PYTHONPATH=str(TE.parent.parent.parent))
    p = subprocess.run(["bash", "-c", f"{sys.executable} -m ipsoeval measures > /dev/full"],
                       capture_output=True, env=env, text=True)
    assert p.returncode == 3
    assert p.stderr == ("ipsoeval: error: cannot write to standard output: "
                        "No space left on device\n")


# --- import hygiene -----------------------------------------------------------

def test_eval_trec_imports_neither_rich_nor_scipy():
    code = ("import sys, atexit\n"
            "atexit.register(lambda: sys.stderr.write('MODULES ' + ' '.join(sorted("
            "{m.split('.')[0] for m in sys.modules})) + '\\n'))\n"
            "from ipsoeval.cli import main\n"
            f"main(['eval', '--format', 'trec', {str(QRELS)!r}, {str(BM25)!r}])\n")
    env = dict(os.environ, PYTHONPATH=str(TE.parent.parent.parent))
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, env=env, text=True)
    assert p.returncode == 0, p.stderr
    mods = set(p.stderr.split("MODULES ")[1].split())
    assert not mods & {"rich", "scipy", "pandas", "hypothesis", "pygments"}
    third_party = {m for m in mods if m not in sys.stdlib_module_names
                   and not m.startswith("_")}
    assert third_party <= {"ipsoeval", "click", "numpy"}


def test_output_to_proc_fd_link_writes_stdout(tmp_path):
    link = tmp_path / "stdout"            # like /dev/stdout, without risking it
    link.symlink_to("/proc/self/fd/1")
    p = _subprocess(["measures", "-o", link], text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("measure\t") and link.is_symlink()


# --- absurd option values are usage errors --------------------------------------

@pytest.mark.parametrize("cmd", [
    ["sigtest", "-m", "P@5", "--test", "randomization", "--samples", "10"],
    ["ipso", "--gains", "0:0,1:1"],
    ["bootstrap", "-m", "P@5", "--samples", "10"],
])
def test_negative_seed_is_usage_error(cmd):
    code, out, err = invoke([*cmd, "--seed", "-1", QRELS, BM25, NEURAL])
    assert (code, out) == (2, "")
    assert err.startswith("ipsoeval: error: Invalid value for '--seed': -1 is not in the range")
    assert err.count("\n") == 1


def _zlib_error_gzip(text: bytes) -> bytes:
    """A gzip file whose deflate stream makes zlib raise zlib.error (not OSError)."""
    import gzip
    import zlib

    comp = gzip.compress(text)
    for j in range(12, len(comp) - 8):
        for bit in range(8):
            bad = comp[:j] + bytes([comp[j] ^ (1 << bit)]) + comp[j + 1:]
            try:
                gzip.decompress(bad)
            except zlib.error:
                return bad
            except Exception:  # noqa: BLE001
                continue
    raise AssertionError("no zlib.error corruption found")


def test_corrupt_gzip_zlib_error_is_input_error(tmp_path):
    run = write(tmp_path, "run.gz", _zlib_error_gzip(BM25.read_bytes()))
    code, out, err = invoke(["eval", "-m", "P@5", QRELS, run])
    assert (code, out) == (3, "")
    assert err.startswith(f"ipsoeval: error: {run}: corrupt or truncated gzip data (") and err.count("\n") == 1


@pytest.mark.parametrize("cmd", [["eval", "-m", "P@5"], ["interval-map", "-m", "ESL@10"],
                                 ["sigtest", "-m", "P@5", "--test", "t"]])
@pytest.mark.parametrize("level", ["99999999999999999999", "-99999999999999999999"])
def test_huge_rel_level_is_usage_error(cmd, level):
    code, out, err = invoke([*cmd, "-l", level, QRELS, BM25, NEURAL])
    assert (code, out) == (2, "")
    assert err == (f"ipsoeval: error: Invalid value for '-l' / '--rel-level': {level} is not "
                   f"a 64-bit integer.\n")


def test_long_table_shows_every_row_in_order():
    from ipsoeval.formatters import render
    from ipsoeval.results import ResultSet

    n = 5001
    rs = ResultSet(command="x", columns=["run", "value"],
                   records=[{"run": f"r[{i}]", "value": i / 8} for i in range(n)], title="t[1]")
    lines = render(rs, "table", width=80).splitlines()
    assert lines[0].strip() == "t[1]" and lines[2].split() == ["run", "value"]
    rows = [ln.split() for ln in lines[4:] if ln.strip()]
    assert rows == [[f"r[{i}]", f"{i / 8:.4f}"] for i in range(n)]
