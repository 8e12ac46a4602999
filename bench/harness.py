"""Shared pieces of the benchmark harness: what a case is, how tools are
found, and how one child process is measured.

A case file ``bench/cases/NAME.py`` exports ``CASES``, a list of ``Case``.
Each case names the data set it needs (see ``gen.py``) and maps tool names
to ``Tool``s.  A tool's ``argv(ctx)`` returns either one command (a list of
strings) or a list of commands; a list is run in sequence and counts as one
measurement (wall times summed, peak memory the largest).
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

BENCH_DIR = Path(__file__).resolve().parent
REPO_DIR = BENCH_DIR.parent
PEERS_DIR = BENCH_DIR / "peers"
LAUNCHER = BENCH_DIR / "launch.py"

Command = list[str]


@dataclass
class Context:
    """What a tool's argv builder gets: the case's data directory and flags."""
    data: Path
    quick: bool = False
    python: str = sys.executable

    def qrels_and_runs(self) -> list[str]:
        """qrels.txt then every run*.txt of the data set, sorted."""
        return [str(self.data / "qrels.txt"),
                *sorted(str(p) for p in self.data.glob("run*.txt"))]


@dataclass
class Tool:
    argv: Callable[[Context], Command | list[Command]]
    # Returns None when the tool can run here, else why not ("not installed").
    available: Callable[[], str | None] = lambda: None
    # repetitions at most, whatever --repeat says (a peer that takes minutes)
    max_repeat: int | None = None
    # run by --smoke (every tool of ipsoeval's own that takes seconds on quick data)
    smoke: bool = True


@dataclass
class Target:
    """A goal for ipsoeval on a case.  ``peer`` set: ipsoeval's median wall
    time must be at most ``max_ratio`` times that peer's.  ``max_peak_mb``
    set: ipsoeval's peak memory must stay under it.  ``max_seconds`` set:
    ipsoeval's median wall time must stay under it.  ``cpu``: the ratio to
    the peer is of median CPU times (user + system), not wall times.
    ``max_cpu_seconds`` set: the median CPU time (user + system) must stay
    under it.  ``tool`` names the row judged when it is not ipsoeval's (a
    case with several ipsoeval commands).  Only ``text``: shown, not judged."""
    text: str
    peer: str | None = None
    max_ratio: float | None = None
    max_peak_mb: float | None = None
    max_seconds: float | None = None
    cpu: bool = False
    max_cpu_seconds: float | None = None
    tool: str | None = None


@dataclass
class Case:
    name: str
    description: str
    data: str  # data set name for gen.ensure
    tools: dict[str, Tool]
    targets: list[Target] = field(default_factory=list)
    # run only when named by --only (its data is large: e.g. 3.2 GB)
    opt_in: bool = False


@dataclass
class Measurement:
    wall: float  # seconds
    peak_kib: int  # ru_maxrss of the child (KiB on Linux)
    status: int  # exit status (negative: killed by signal)
    stderr_tail: str = ""
    cpu: float = 0.0  # user + system seconds of the child


# ---------------------------------------------------------------- tools


def ipsoeval_cmd() -> Command:
    """ipsoeval as installed next to the running interpreter (a venv's
    bin/ipsoeval), else ``python -m ipsoeval``; env IPSOEVAL overrides."""
    if os.environ.get("IPSOEVAL"):
        return shlex.split(os.environ["IPSOEVAL"])
    exe = Path(sys.executable).parent / "ipsoeval"
    if exe.exists():
        return [str(exe)]
    return [sys.executable, "-m", "ipsoeval"]


def trec_eval_bin() -> str | None:
    """trec_eval from env TREC_EVAL, else from PATH."""
    env = os.environ.get("TREC_EVAL")
    if env:
        return env if (shutil.which(env) or Path(env).is_file()) else None
    return shutil.which("trec_eval")


def need_trec_eval() -> str | None:
    return None if trec_eval_bin() else "not installed (set TREC_EVAL or PATH)"


def te_rust_bin() -> str | None:
    """trec-eval-rust (not on PyPI): env TE_RUST, else ``te-rust`` on PATH."""
    env = os.environ.get("TE_RUST")
    if env:
        return env if (shutil.which(env) or Path(env).is_file()) else None
    return shutil.which("te-rust")


def need_te_rust() -> str | None:
    return None if te_rust_bin() else "not installed (te-rust on PATH or env TE_RUST)"


def need_module(name: str) -> Callable[[], str | None]:
    """Availability check for a peer that is a Python package."""
    def check() -> str | None:
        if importlib.util.find_spec(name) is None:
            return f"not installed (pip install {name.replace('_', '-')})"
        return None
    return check


def peer_script(name: str) -> str:
    return str(PEERS_DIR / name)


# ---------------------------------------------------------------- measuring


def measure(cmd: Command, stdout_path: Path | None = None,
            timeout: float | None = None) -> Measurement:
    """Run ``cmd`` as a fresh process from the repository root, through
    ``launch.py``, and return its wall time and its own peak RSS."""
    if not cmd or not cmd[0]:
        return Measurement(0.0, 0, 127, "no command")
    rfd, wfd = os.pipe()
    try:
        with open(stdout_path or os.devnull, "wb") as out:
            proc = subprocess.Popen(
                [sys.executable, "-I", "-S", str(LAUNCHER), str(wfd), *cmd],
                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.PIPE,
                pass_fds=(wfd,), cwd=REPO_DIR, start_new_session=True)
            os.close(wfd)
            wfd = -1
            try:
                _, err = proc.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.communicate()
                return Measurement(float(timeout), 0, -signal.SIGKILL,
                                   f"killed after {timeout:g} s")
            except BaseException:  # e.g. Ctrl-C: take the tool down too
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                raise
        report = os.read(rfd, 4096).split()
    finally:
        os.close(rfd)
        if wfd >= 0:
            os.close(wfd)
    tail = " | ".join(err.decode("utf-8", "replace").strip().splitlines()[-3:])
    if len(report) != 4:
        return Measurement(0.0, 0, proc.returncode or 70, tail or "launcher failed")
    status, wall_ns, peak = (int(x) for x in report[:3])
    return Measurement(wall_ns / 1e9, peak, status, tail, float(report[3]))


def measure_all(cmds: list[Command], stdout_path: Path | None = None,
                timeout: float | None = None) -> Measurement:
    """Run several commands in sequence as one measurement: wall times add
    up, peak is the largest child's; stops at the first failure.  Standard
    output of all of them is concatenated into ``stdout_path``."""
    total, peak, cpu = 0.0, 0, 0.0
    if stdout_path:
        stdout_path.write_bytes(b"")
    for cmd in cmds:
        part = stdout_path.with_suffix(".part") if stdout_path else None
        m = measure(cmd, part, timeout)
        if part:
            with open(stdout_path, "ab") as f:
                f.write(part.read_bytes())
            part.unlink()
        total += m.wall
        cpu += m.cpu
        peak = max(peak, m.peak_kib)
        if m.status != 0:
            return Measurement(total, peak, m.status, m.stderr_tail, cpu)
    return Measurement(total, peak, 0, "", cpu)
