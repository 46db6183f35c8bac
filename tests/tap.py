"""TAP output for the Python checks (the C tests use tap.h):
ok(cond, what) prints "ok N - what" or "not ok N - what" and returns cond;
skip(why) prints a skipped point; done() prints the plan and exits 1 if any
point failed; pty_output(argv, stream, env) runs a program with one stream on
a terminal."""
import os
import re
import subprocess
import sys

_count = 0
_failed = 0


def _reads_as_directive(what):
    """'#', spaces, then SKIP... or TODO: what a TAP reader takes for a directive."""
    return re.search(r"#\s*(skip|todo)", what, re.I) is not None


def ok(cond, what):
    global _count, _failed
    _count += 1
    if _reads_as_directive(what):   # meson would count it skipped whatever it found
        cond, what = False, "(a test's bug: its description holds a TAP directive) " + what.replace("#", "\\x23")
    if not cond:
        _failed += 1
    print("%sok %d - %s" % ("" if cond else "not ", _count, what.replace("\n", "\\n")))
    sys.stdout.flush()
    return cond


def skip(why):
    global _count
    _count += 1
    print("ok %d # SKIP %s" % (_count, why))
    sys.stdout.flush()


BUSY = 0.25   # CPUs of other work above which a check that needs a quiet machine skips


class Load:
    """Other work on the machine (Linux) since this was made: CPUs' worth of
    time that went to anything but this process and its waited-for children
    (other programs, the kernel, the host's steal), from /proc/stat less
    os.times(); others() is NAN where /proc/stat cannot be read."""

    @staticmethod
    def _stat():
        try:
            with open("/proc/stat") as f:
                lines = f.read().splitlines()
        except OSError:
            return None
        v = [float(x) for x in lines[0].split()[1:9]]
        ncpu = sum(1 for ln in lines if ln.startswith("cpu") and ln[3:4].isdigit())
        return sum(v) - v[3] - v[4], sum(v), ncpu

    @staticmethod
    def _own():
        t = os.times()
        return t.user + t.system + t.children_user + t.children_system

    def __init__(self):
        self.start, self.own = self._stat(), self._own()

    def others(self):
        now = self._stat()
        if not self.start or not now or now[1] <= self.start[1] or not self.start[2]:
            return float("nan")
        wall = (now[1] - self.start[1]) / self.start[2]
        return ((now[0] - self.start[0]) - (self._own() - self.own) * 100.0) / wall


def ok_quiet(cond, load, what):
    """ok(), except that a failure while other work took more than BUSY of a
    CPU (since load was made) is a skip naming that load."""
    others = load.others()
    if not cond and others > BUSY:
        skip("needs a quiet machine: other work took %.2f CPUs meanwhile (over %.2f): %s" % (others, BUSY, what))
        return True
    return ok(cond, what)


def done():
    print("1..%d" % _count)
    sys.exit(1 if _failed else 0)


def pty_output(argv, stream="stdout", env=None):
    """What argv writes to `stream` ("stdout" or "stderr") when that stream is a
    pseudo-terminal (the other is discarded), as bytes.  ImportError where
    there is no pty module."""
    import pty
    master, slave = pty.openpty()
    quiet = subprocess.DEVNULL
    proc = subprocess.Popen(argv, stdout=slave if stream == "stdout" else quiet,
                            stderr=slave if stream == "stderr" else quiet, env=env)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:   # the terminal closed with the child
            break
        if not chunk:
            break
        out += chunk
    proc.wait()
    os.close(master)
    return out
