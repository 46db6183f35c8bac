"""check_ab_commits.py SCRIPT TOOL INCLUDE_DIR
scripts/ab-commits.sh on a throwaway git repository of three commits of a
one-entry benchmark module (meson, CHRONO_MODULE): "base" does 200 dependent
multiplies a call, "slow" 600, "broken" does not compile.  The script builds
the module at both commits and runs chronoscope-ab (TOOL) on the two:
base -> slow exits 1 naming the entry slower, slow -> base exits 0 (faster),
a commit that does not build exits 2 with the build log, a name that is no
commit exits 2; its worktrees are gone afterwards.  Kept short for CI: the
module built unoptimised (AB_MESON_ARGS=--buildtype=plain: compiling the
library in it at -O2 took 4.4 s of CPU, at -O0 0.9 s), 21 samples (--quick's
11 left a 75% interval under load 24), one process, a 50% threshold, which a
3x change clears on a loaded machine."""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tap import ok, skip, done  # noqa: E402

SHORT = ("too few pairs or processes", "(too few processes)")

script, tool, include = (os.path.abspath(a) for a in sys.argv[1:4])

MESON = """project('abmod', 'c', default_options: ['c_std=c99'])
m_dep = meson.get_compiler('c').find_library('m', required: false)
shared_module('abmod', 'abmod.c', include_directories: include_directories('%s'),
  dependencies: m_dep, name_prefix: '')
"""

MODULE = """/* one entry, a chain of dependent multiplies: WORK of them a call */
#define CHRONOSCOPE_IMPLEMENTATION
#include <chronoscope.h>

static uint64_t work = %s;

static void chain(void *ctx, uint64_t iters)
{
    uint64_t i, k, n = *(const uint64_t *)ctx, x = 3;
    for (i = 0; i < iters; i++)
        for (k = 0; k < n; k++) { x *= 0x9E3779B97F4A7C15ull; chrono_keep(x); }
}

static size_t table(const chrono_entry **t)
{
    static chrono_entry e[1];
    e[0] = chrono_bench("chain", chain, &work);
    *t = e;
    return 1;
}

CHRONO_MODULE(table)
"""


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, "-c", "user.name=ab", "-c", "user.email=ab@example.invalid",
                           "-c", "commit.gpgsign=false"] + list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True, check=True).stdout.strip()


def commit(repo, work, message):
    with open(os.path.join(repo, "abmod.c"), "w") as f:
        f.write(MODULE % work)
    git(repo, "add", "abmod.c")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD")


def gate(repo, work, base, head):
    env = dict(os.environ, AB_TOOL=tool, AB_WORKDIR=os.path.join(work, "trees"), AB_MESON_ARGS="--buildtype=plain")
    env.pop("AB_KEEP", None)
    p = subprocess.run(["sh", script, base, head, "abmod", "--samples=21", "--warmup-ms=5", "--max-ms=3000",
                        "--processes=1", "--threshold=50"],
                       cwd=repo, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=240)
    return p.returncode, p.stdout, p.stderr


def gate_clear(repo, work, base, head):
    """gate(), run again (three runs at most) while the verdict is inconclusive
    because the samples kept were too few for a 95% interval: on a busy machine
    the rejected samples (a reference chain that disagrees, the host taking the
    CPU mid-sample) can use up a run's attempts (issue 31: 3 of 32 suite runs).
    The last run's (rc, out, err) and whether it was still short."""
    for _ in range(3):
        rc, out, err = gate(repo, work, base, head)
        row = [ln for ln in out.splitlines() if ln.startswith("chain ")]
        short = rc == 0 and len(row) == 1 and "inconclusive" in row[0] and any(w in row[0] for w in SHORT)
        if not short:
            break
        print("# inconclusive for want of samples, run again: %r" % row[0])
    return rc, out, err, short


if not shutil.which("git") or not shutil.which("meson"):
    skip("ab-commits.sh needs git and meson on PATH")
    done()

with tempfile.TemporaryDirectory() as work:
    repo = os.path.join(work, "repo")
    os.mkdir(repo)
    git(repo, "init", "-q")
    with open(os.path.join(repo, "meson.build"), "w") as f:
        f.write(MESON % include.replace("\\", "/").replace("'", "\\'"))
    git(repo, "add", "meson.build")
    base = commit(repo, "200", "base: 200 multiplies")
    slow = commit(repo, "600", "slow: 600 multiplies")
    broken = commit(repo, "600 +", "broken: does not compile")

    rc, out, err, short = gate_clear(repo, work, base, slow)
    row = [ln for ln in out.splitlines() if ln.startswith("chain ")]
    if short:
        skip("base -> slow: three runs inconclusive for want of samples on a busy machine (%r)" % row)
    else:
        ok(rc == 1 and len(row) == 1 and "slower" in row[0] and "1 compared: 1 slower" in out,
           "base -> slow (3x the work): exit 1 (got %d), chain called slower (%r; stderr %r)" % (rc, row, err[-400:]))
    ok(("base %s (%s)" % (base, base[:7])) in err or ("base %s" % base) in err,
       "the script names the commits it compared (%r)" % err.splitlines()[-1:])

    rc, out, err, short = gate_clear(repo, work, slow, base)
    row = [ln for ln in out.splitlines() if ln.startswith("chain ")]
    if short:
        skip("slow -> base: three runs inconclusive for want of samples on a busy machine (%r)" % row)
    else:
        ok(rc == 0 and len(row) == 1 and "faster" in row[0],
           "slow -> base: exit 0 (got %d), chain called faster (%r; stderr %r)" % (rc, row, err[-400:]))

    rc, out, err = gate(repo, work, broken, slow)   # the base side fails: one build, not two
    ok(rc == 2 and ("building 'abmod:shared_module' at '%s' failed" % broken) in err and "abmod.c" in err,
       "a commit that does not build: exit 2 (got %d), the build log shown (%r)" % (rc, err[-400:]))

    rc, out, err = gate(repo, work, base, "no-such-commit")
    ok(rc == 2 and "'no-such-commit' is not a commit" in err,
       "a name that is no commit: exit 2 (got %d, %r)" % (rc, err.strip()[-200:]))

    trees = git(repo, "worktree", "list", "--porcelain").count("worktree ")
    ok(trees == 1 and not os.path.exists(os.path.join(work, "trees")),
       "the worktrees and builds are removed afterwards (%d worktrees listed)" % trees)
done()
