"""TAP output for the Python checks (the C tests use tap.h):
ok(cond, what) prints "ok N - what" or "not ok N - what" and returns cond;
skip(why) prints a skipped point; done() prints the plan and exits 1 if any
point failed; pty_output(argv, stream, env) runs a program with one stream on
a terminal."""
import os
import subprocess
import sys

_count = 0
_failed = 0


def ok(cond, what):
    global _count, _failed
    _count += 1
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
