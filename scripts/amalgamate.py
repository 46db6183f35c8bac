#!/usr/bin/env python3
"""Build chronoscope as one file to drop in (stb style) from the modules.

    python3 scripts/amalgamate.py -o single_include/chronoscope.h   write it
    python3 scripts/amalgamate.py                                   to stdout
    python3 scripts/amalgamate.py --check single_include/chronoscope.h
                         exit 1, naming the first differing line and the
                         command above, when that file is not what the
                         modules generate now

The output is include/chronoscope.h with every quoted #include of a module
replaced by that module's declarations, in the order the umbrella includes
them (a module's own quoted includes are followed first, so the order comes
from the headers, never from a list here); then every module's
implementation, in the same order, behind CHRONO__IMPLEMENT.  A user includes
the one file everywhere and defines CHRONOSCOPE_IMPLEMENTATION (or
CHRONO_STATIC) before including it in one file, as with the split headers.

Each module header is split where its implementation starts: the line
`#if defined(CHRONO__IMPLEMENT) ...` (and the banner comment just above it),
whose #endif must close the file.  src/chronoscope.c must hold nothing but
that define and that include (else the single file would miss its code).
Anything else stops the script with a message naming the file and line.
Python 3 standard library only; the output depends on the sources alone
(no date, no path), so a committed copy can be checked against it.
"""
import argparse
import difflib
import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
UMBRELLA = 'include/chronoscope.h'
SOURCE = 'src/chronoscope.c'
COMMITTED = 'single_include/chronoscope.h'
REGENERATE = 'python3 scripts/amalgamate.py -o ' + COMMITTED

QUOTED = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
IMPL_START = re.compile(r'^\s*#\s*if\s+defined\s*\(\s*CHRONO__IMPLEMENT\s*\)')
COND_OPEN = re.compile(r'^\s*#\s*if(n?def)?\b')
COND_CLOSE = re.compile(r'^\s*#\s*endif\b')
BANNER = re.compile(r'^/\*\s*=+\s*implementation\b.*\*/\s*$')


class Stop(Exception):
    """A source the script cannot amalgamate safely; the message says where and why."""


def rel(path):
    return os.path.relpath(path, ROOT).replace(os.sep, '/')


def read_lines(path):
    with open(path, encoding='utf-8') as f:
        return f.read().splitlines()


def code_only(lines):
    """Each line with its comments blanked (enough to find directives outside comments)."""
    out, in_comment = [], False
    for line in lines:
        text, i = '', 0
        while i < len(line):
            if in_comment:
                end = line.find('*/', i)
                if end < 0:
                    i = len(line)
                else:
                    in_comment, i = False, end + 2
            elif line.startswith('/*', i):
                in_comment, i = True, i + 2
            elif line.startswith('//', i):
                break
            else:
                text += line[i]
                i += 1
        out.append(text)
    return out


def split_module(path):
    """(declarations, implementation) line lists of one module header."""
    lines = read_lines(path)
    code = code_only(lines)
    starts = [i for i, c in enumerate(code) if IMPL_START.match(c)]
    if not starts:
        return lines, []    # a module of declarations only
    if len(starts) > 1:
        raise Stop('%s:%d: a second implementation block (the first is at line %d); '
                   'one per module' % (rel(path), starts[1] + 1, starts[0] + 1))
    start = starts[0]
    depth = 0
    for i in range(start, len(code)):
        if COND_OPEN.match(code[i]):
            depth += 1
        elif COND_CLOSE.match(code[i]):
            depth -= 1
            if depth == 0:
                rest = [j for j in range(i + 1, len(code)) if code[j].strip()]
                if rest:
                    raise Stop('%s:%d: code after the implementation block (which ends at line %d); '
                               'the implementation must close the file' % (rel(path), rest[0] + 1, i + 1))
                break
    else:
        raise Stop('%s:%d: the implementation block is never closed' % (rel(path), start + 1))
    while start > 0 and not lines[start - 1].strip():
        start -= 1
    if start > 0 and BANNER.match(lines[start - 1]):
        start -= 1
    decl = lines[:start]
    while decl and not decl[-1].strip():
        decl.pop()
    return decl, lines[start:]


class Amalgam:
    def __init__(self):
        self.seen = set()
        self.impls = []     # (module, lines) in dependency order

    def expand(self, lines, path, name=None):
        """lines with each quoted #include of a module replaced by its declarations
        (name: the module's, to head what follows a nested one)."""
        out = []
        code = code_only(lines)
        for n, (line, c) in enumerate(zip(lines, code), 1):
            m = QUOTED.match(c)
            if not m and name and out[-2:] and out[-1] == '' and out[-2].startswith('/* ==== end '):
                out[-1:] = [self.banner(name + ', continued'), '']
            if not m:
                out.append(line)
                continue
            target = os.path.normpath(os.path.join(os.path.dirname(path), m.group(1)))
            if not os.path.isfile(target):
                raise Stop('%s:%d: #include "%s" names no file' % (rel(path), n, m.group(1)))
            if target in self.seen:
                continue    # its declarations are already above
            self.seen.add(target)
            decl, impl = split_module(target)
            mod = rel(target)[len('include/'):] if rel(target).startswith('include/') else rel(target)
            out.append(self.banner(mod))
            out.extend(self.expand(decl, target, mod))
            out += ['/* ==== end %s */' % mod, '']
            if impl:
                self.impls.append((mod, target, impl))
        return out

    @staticmethod
    def banner(text):
        return '/* ==== %s %s */' % (text, '=' * max(3, 72 - len(text)))


def check_source(root):
    """src/chronoscope.c must be the define and the include, nothing else."""
    path = os.path.join(root, SOURCE)
    for n, c in enumerate(code_only(read_lines(path)), 1):
        c = c.strip()
        if not c or re.match(r'^#\s*define\s+CHRONOSCOPE_IMPLEMENTATION\s*$', c) \
                or re.match(r'^#\s*include\s*[<"]chronoscope\.h[>"]\s*$', c):
            continue
        raise Stop('%s:%d: code of its own (%r): the single file would not carry it; '
                   'move it into a module header' % (SOURCE, n, c))


def generate(root=ROOT):
    check_source(root)
    umbrella = os.path.join(root, UMBRELLA)
    lines = read_lines(umbrella)
    a = Amalgam()
    a.seen.add(os.path.normpath(umbrella))
    body = a.expand(lines, umbrella)
    for name, target, impl in a.impls:
        code = code_only(impl)
        for n, c in enumerate(code, 1):
            m = QUOTED.match(c)
            if m and os.path.normpath(os.path.join(os.path.dirname(target), m.group(1))) not in a.seen:
                raise Stop('%s: its implementation includes "%s", which no declarations include'
                           % (name, m.group(1)))
    head = [
        '/* chronoscope.h, single-file edition: the whole library in one header.',
        '   GENERATED by scripts/amalgamate.py from include/chronoscope.h,',
        '   its modules (include/chronoscope/) and src/chronoscope.c -- do not edit; edit those and run',
        '       ' + REGENERATE,
        '   Drop this file in; include it anywhere; in exactly one .c file write',
        '       #define CHRONOSCOPE_IMPLEMENTATION',
        '       #include "chronoscope.h"',
        '   (or #define CHRONO_STATIC in a single-file program), and link -lm.',
        '   The modules\' declarations follow the manual below; their implementations',
        '   are at the end of the file. */',
    ]
    tail = ['', '/* ' + '=' * 74 + ' */',
            '/* The implementations, in the order of the declarations above (CHRONOSCOPE_IMPLEMENTATION',
            '   or CHRONO_STATIC defined before this file was included). */',
            '#if defined(CHRONO__IMPLEMENT)']
    for name, target, impl in a.impls:
        tail.append('')
        tail.append('/* ==== %s: implementation %s */' % (name, '=' * max(3, 56 - len(name))))
        if BANNER.match(impl[0]):
            impl = impl[1:]     # the heading above replaces the module's own
        # a module's quoted includes inside its implementation are above already
        tail.extend(l for l, c in zip(impl, code_only(impl)) if not QUOTED.match(c))
    tail += ['', '#endif /* CHRONO__IMPLEMENT */', '']
    return '\n'.join(head + body + tail)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('-o', '--output', help='write here (default: standard output)')
    p.add_argument('--check', metavar='FILE', help='exit 1 unless FILE is what would be generated')
    p.add_argument('--root', default=ROOT, help='the source tree (default: this script\'s)')
    args = p.parse_args(argv)
    try:
        text = generate(os.path.abspath(args.root))
    except Stop as e:
        print('amalgamate: %s' % e, file=sys.stderr)
        return 2
    if args.check:
        try:
            with open(args.check, encoding='utf-8') as f:
                have = f.read()
        except OSError as e:
            print('amalgamate: %s: %s; generate it: %s' % (args.check, e.strerror, REGENERATE), file=sys.stderr)
            return 1
        if have == text:
            return 0
        diff = list(difflib.unified_diff(have.splitlines(), text.splitlines(), args.check, 'generated', n=1, lineterm=''))
        print('amalgamate: %s is not what the modules generate now (%d diff lines; first ones below); '
              'regenerate it: %s' % (args.check, len(diff), REGENERATE), file=sys.stderr)
        print('\n'.join(diff[:12]), file=sys.stderr)
        return 1
    if args.output:
        d = os.path.dirname(args.output)
        if d:
            os.makedirs(d, exist_ok=True)
        with open(args.output, 'w', encoding='utf-8', newline='\n') as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
