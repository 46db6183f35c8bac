"""TAP output for the Python checks (the C tests use tap.h):
ok(cond, what) prints "ok N - what" or "not ok N - what" and returns cond;
skip(why) prints a skipped point; done() prints the plan and exits 1 if any
point failed."""
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
