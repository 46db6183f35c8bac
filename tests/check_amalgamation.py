#!/usr/bin/env python3
"""Usage: CC="cc ..." CXX="c++ ..." check_amalgamation.py SOURCE_ROOT

The single-file edition (scripts/amalgamate.py), used as a user drops it in:
generated into a scratch folder, then copied with examples/quickstart.c and
one extra file that defines CHRONOSCOPE_IMPLEMENTATION into an empty folder,
which must be all the build needs:
  - every module header under include/chronoscope/ is in the file, once;
  - the implementation file and quickstart.c compile with
    -std=c99 -Wall -Wextra -pedantic -Werror against the folder alone (the
    compiler reads no file of the source tree), and link with -lm;
  - quickstart --list names its benchmarks; quickstart --quick prints a row with
    a median and an interval for each, and its comparison's ratio;
  - quickstart.c compiled as C++11 (-pedantic -Werror) against the same file
    links with the C implementation and lists the same benchmarks.
TAP.  Skips without a C compiler; the C++ points skip without CXX."""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tap import ok, skip, done  # noqa: E402

WARN = ['-Wall', '-Wextra', '-pedantic', '-Werror']


def run(cmd, cwd, timeout=300):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, timeout=timeout)
    return p.returncode, p.stdout


def show(text, lines=15):
    for line in text.splitlines()[-lines:]:
        print('# ' + line)


def compile_alone(cmd, folder, src, root):
    """Compile src in folder; (ok, output, source-tree files the compiler read)."""
    rc, out = run(cmd + ['-I.', '-c', src, '-MD', '-MF', src + '.d'], folder)
    if rc != 0:
        return False, out, []
    deps = open(os.path.join(folder, src + '.d')).read().replace('\\\n', ' ').split()[1:]
    tree = [d for d in deps if os.path.realpath(os.path.join(folder, d)).startswith(root + os.sep)]
    return True, out, tree


def main():
    root = os.path.realpath(sys.argv[1] if len(sys.argv) > 1 else '.')
    cc = shlex.split(os.environ.get('CC', 'cc'))
    cxx = shlex.split(os.environ.get('CXX', 'false'))
    if not shutil.which(cc[0]):
        print('1..0 # SKIP no C compiler (%s)' % cc[0])
        return 77
    work = tempfile.mkdtemp(prefix='chrono-amalgam.')
    try:
        return check(root, cc, cxx, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def check(root, cc, cxx, work):
    gen = os.path.join(work, 'gen', 'chronoscope.h')
    rc, out = run([sys.executable, os.path.join(root, 'scripts', 'amalgamate.py'), '-o', gen], work)
    if not ok(rc == 0 and os.path.isfile(gen), 'scripts/amalgamate.py -o %s exits 0 (%d)' % (gen, rc)):
        show(out)
        done()
    text = open(gen, encoding='utf-8').read()

    # Every module is in it once: its declarations' include guard opens once.
    mods = sorted(f for f in os.listdir(os.path.join(root, 'include', 'chronoscope')) if f.endswith('.h'))
    missing, twice = [], []
    for m in mods:
        src = open(os.path.join(root, 'include', 'chronoscope', m), encoding='utf-8').read()
        g = re.search(r'^#ifndef (CHRONOSCOPE_\w+_H)\s*$', src, re.M)
        n = len(re.findall(r'^#ifndef %s\s*$' % g.group(1), text, re.M)) if g else 0
        (missing if n == 0 else twice if n > 1 else []).append(m)
    why = ''.join('; %s: %s' % (k, ' '.join(v)) for k, v in (('missing', missing), ('twice', twice)) if v)
    ok(not why, 'each of the %d modules (%s) is in the single file once%s'
       % (len(mods), ' '.join(m[:-2] for m in mods), why))
    ok('#include "' not in re.sub(r'/\*.*?\*/', '', text, flags=re.S),
       'no quoted #include is left in it (it needs no other file)')

    # An empty folder: the single file, quickstart.c and the implementation file.
    w = os.path.join(work, 'drop-in')
    os.mkdir(w)
    shutil.copy(gen, w)
    shutil.copy(os.path.join(root, 'examples', 'quickstart.c'), w)
    with open(os.path.join(w, 'implementation.c'), 'w') as f:
        f.write('/* the one file of the program that compiles the library */\n'
                '#define CHRONOSCOPE_IMPLEMENTATION\n#include "chronoscope.h"\n')
    ok(sorted(os.listdir(w)) == ['chronoscope.h', 'implementation.c', 'quickstart.c'],
       'the folder holds chronoscope.h, implementation.c and quickstart.c only')

    c = cc + ['-std=c99', '-O2'] + WARN
    objs = []
    for src in ('implementation.c', 'quickstart.c'):
        good, out, tree = compile_alone(c, w, src, root)
        if not ok(good, '%s compiles: %s' % (src, ' '.join(c[1:] + ['-I.', '-c', src]))):
            show(out)
            done()
        ok(not tree, '%s reads no file of the source tree%s' % (src, (': ' + ' '.join(tree)) if tree else ''))
        objs.append(src[:-2] + '.o')
    rc, out = run(cc + objs + ['-lm', '-o', 'quickstart'], w)
    if not ok(rc == 0, 'quickstart links from the two objects with -lm'):
        show(out)
        done()

    rc, listed = run(['./quickstart', '--list'], w, 60)
    names = [l.strip() for l in listed.splitlines() if l.strip()]
    ok(rc == 0 and len(names) >= 3, 'quickstart --list exits 0 and names %d benchmarks: %s' % (len(names), ', '.join(names)))
    # --quick's 11 samples, with a 5 s budget a run, not its 300 ms: on a shared core the
    # contended samples it replaces can use up 300 ms at 3 pairs (a 75% interval, or n/a)
    rc, out = run(['./quickstart', '--quick', '--max-ms=5000', '--no-pin'], w, 120)
    ok(rc == 0, 'quickstart --quick --max-ms=5000 exits 0 (%d)' % rc) or show(out)
    value = r'\d+(\.\d+)?\s*(ns|µs|us|ms|s)\s+\[\d+(\.\d+)?, \d+(\.\d+)?\]'
    for name in names:
        if ' vs ' in name:
            a, b = name.split(' vs ')
            rows = [r'^a: %s\s' % re.escape(a), r'^b: %s\s' % re.escape(b)]
            good = all(re.search(r + '.*' + value, out, re.M) for r in rows) and \
                re.search(r'^%s: \d+\.\d+x \[\d+\.\d+, \d+\.\d+\]' % re.escape(name), out, re.M)
            ok(bool(good), "'%s': rows a: %s and b: %s with median and interval, and the ratio with its interval"
               % (name, a, b)) or show(out, 30)
        else:
            ok(bool(re.search(r'^%s\s.*%s' % (re.escape(name), value), out, re.M)),
               "'%s': a row with its median and interval" % name) or show(out, 30)

    # The header part as C++11, linked with the C implementation.
    if cxx[0] == 'false' or not shutil.which(cxx[0]):
        skip('no C++ compiler')
        done()
    cpp = cxx + ['-std=c++11', '-O0'] + WARN + ['-x', 'c++']
    good, out, tree = compile_alone(cpp, w, 'quickstart.c', root)
    if not ok(good and not tree, 'quickstart.c compiles as C++: %s' % ' '.join(cpp[1:] + ['-I.', '-c', 'quickstart.c'])):
        show(out)
        done()
    rc, out = run(cxx + ['quickstart.o', 'implementation.o', '-lm', '-o', 'quickstart_cpp'], w)
    ok(rc == 0, 'the C++ object links with the C implementation (extern "C")') or show(out)
    rc, listed_cpp = run(['./quickstart_cpp', '--list'], w, 60)
    ok(rc == 0 and listed_cpp == listed, 'the C++ build lists the same benchmarks')
    done()


if __name__ == '__main__':
    sys.exit(main())
