"""Run one command as a child and report its wall time and peak memory.

Usage: python -I -S launch.py FD CMD [ARG ...]

Writes ``STATUS WALL_NS MAXRSS_KIB CPU_S`` to file descriptor FD when CMD ends
(STATUS as ``os.waitstatus_to_exitcode``, 127 if it could not start;
CPU_S = user + system seconds).  The
harness starts this tiny process (no site, stdlib only) instead of forking the
tool itself because Linux carries a parent's peak RSS over into the ru_maxrss
of a forked child, even across exec; forking from this ~5 MB process keeps
that floor low, whatever the harness has allocated.
"""

import os
import sys
import time


def main() -> None:
    fd = int(sys.argv[1])
    cmd = sys.argv[2:]
    os.set_inheritable(fd, False)
    t0 = time.perf_counter_ns()
    pid = os.fork()
    if pid == 0:
        try:
            os.execvp(cmd[0], cmd)
        except OSError as e:
            os.write(2, f"launch: {cmd[0]}: {e.strerror}\n".encode())
        os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter_ns() - t0
    code = os.waitstatus_to_exitcode(status)
    cpu = usage.ru_utime + usage.ru_stime
    os.write(fd, f"{code} {wall} {usage.ru_maxrss} {cpu!r}\n".encode())


if __name__ == "__main__":
    main()
