#!/usr/bin/env python3
"""check_cli.py PROGRAM -- a program built on cli.h refuses bad input with exit
status 2, one line on stderr naming the flag and the value and a usage hint,
and nothing on stdout; --help and --version print and exit 0.  TAP on stdout."""
import subprocess
import sys

from tap import done, ok

PROG = sys.argv[1] if len(sys.argv) > 1 else "./report_fixture"


def run(*args):
    return subprocess.run([PROG] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)


# the six bad inputs of the issue, then more; each: argv, text the message must hold
BAD = [
    (["--bogus"], ["--bogus", "unknown flag"]),
    (["--samples"], ["--samples", "missing value"]),
    (["--samples=abc"], ["--samples", "'abc'"]),
    (["--samples=0"], ["--samples", "'0'", "out of range"]),
    (["--cpu=99999"], ["--cpu", "'99999'"]),
    (["--warmup-ms=-5"], ["--warmup-ms", "'-5'", "out of range"]),
    (["--format=xml"], ["--format", "'xml'"]),
    (["--max-ms=nan"], ["--max-ms", "'nan'"]),
    (["--samples=99999999999999999999"], ["--samples", "out of range"]),
    (["--out="], ["--out", "missing value"]),
    (["--out=r.xyz"], ["--out", "'r.xyz'", "'.xyz'", "unknown extension"]),
    (["--out=r.json.bak", "--quick"], ["--out", "'r.json.bak'", "'.bak'"]),
    (["--no-pin=yes"], ["--no-pin", "'yes'"]),
    (["--fixed=maybe"], ["--fixed", "'maybe'"]),
    (["stray"], ["stray", "unexpected argument"]),
]

for argv, needles in BAD:
    p = run(*argv)
    err = p.stderr.decode("utf-8", "replace")
    lines = err.splitlines()
    ok(p.returncode == 2, "%s: exit status 2 (got %d)" % (" ".join(argv), p.returncode))
    ok(len(lines) == 2 and all(n in lines[0] for n in needles), "%s: one line naming the flag and the value: %s"
       % (" ".join(argv), lines[0] if lines else "(nothing)"))
    ok(len(lines) == 2 and "--help" in lines[1], "%s: a usage hint" % " ".join(argv))
    ok(p.stdout == b"", "%s: nothing on stdout, no report" % " ".join(argv))

p = run("--help")
out = p.stdout.decode("utf-8")
ok(p.returncode == 0 and all(f in out for f in ("--format", "--out", "--cpu", "--no-pin", "--samples", "--warmup-ms",
                                                  "--max-ms", "--filter", "--quick", "--list", "--help", "--version",
                                                  "--keep-contended")),
   "--help: every common flag, exit 0")
ok("--fixed" in out and "program flags" in out, "--help: the program's own flags too")
p = run("-h", "--samples=5")
ok(p.returncode == 0 and p.stdout.startswith(b"usage:"), "-h works with other flags")
p = run("--version")
ok(p.returncode == 0 and b"chronoscope " in p.stdout and p.stdout.count(b"\n") == 1, "--version: one line, exit 0")
done()
