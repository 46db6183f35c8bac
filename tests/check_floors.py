#!/usr/bin/env python3
"""check_floors.py INCLUDE_DIR -- the layering rules of DESIGN.md, checked on the modules (TAP).

  1. Sealed floors: a private name (chrono__x, CHRONO__X) defined in one module and used in
     another is listed in its module's interface block: in the header's top comment, a line
     that reads exactly "Interface for the modules above", then one entry a line (a name, or
     a few related names, and what they do) to the first blank line or the comment's end.
     Every entry says what it does.
  2. One way down: a module uses no name of a module it does not include (directly or not).
  3. No function over 60 lines (from its opening brace to its closing one).
  4. Lines a person reads: at most 1% of the lines of the headers (the modules and
     chronoscope.h) over 100 characters; those over are named.
  5. One home: no private name is defined in two modules (a struct member, a macro, a
     function), so every use has one owner to answer to.

Definitions are found twice where Universal Ctags is installed: by this file's patterns and
by ctags (its kinds: macros, functions, prototypes, types, struct members, enumerators), and
a name either finds is checked; without ctags the patterns alone are used, struct members
are then their struct's wherever used, and the TAP output says so.

Exit 0 when every rule holds; the TAP lines name each breach."""
import os
import re
import subprocess
import sys

NAME = re.compile(r'\b(chrono__[A-Za-z0-9_]+|CHRONO__[A-Z0-9_]+)\b')
DEF_FN = re.compile(r'^(?:CHRONO__PRIVATE|CHRONO_API|static)[^;()]*?\b(chrono__[A-Za-z0-9_]+)\s*\(', re.M)
DEF_MACRO = re.compile(r'^\s*#\s*define\s+(chrono__[A-Za-z0-9_]+|CHRONO__[A-Z0-9_]+)\b', re.M)
DEF_TYPE = re.compile(r'\b(?:typedef\s+struct|struct|typedef)\s+(chrono__[A-Za-z0-9_]+)\s*\{', re.M)
DEF_TYPEDEF = re.compile(r'^typedef\s[^;{]*?\b(chrono__[A-Za-z0-9_]+)\s*;', re.M)
DEF_TYPEDEF_END = re.compile(r'^\}\s*(chrono__[A-Za-z0-9_]+)\s*;', re.M)
DEF_FNPTR = re.compile(r'^typedef\s[^;]*?\(\s*\*\s*(chrono__[A-Za-z0-9_]+)\s*\)', re.M)
DEF_ENUM = re.compile(r'\b(CHRONO__[A-Z0-9_]+)\s*(?:=\s*[^,}]+)?\s*[,}]')
DEF_FIELD = re.compile(r'^\s+[A-Za-z_][\w \t\*]*?\b(chrono__[A-Za-z0-9_]+)\s*(?:\[[^\]]*\])?\s*;', re.M)
MEMBER = re.compile(r'(?:\.|->)\s*(chrono__[A-Za-z0-9_]+)')
LINE_MAX, LONG_SHARE_MAX = 100, 1   # a line a person reads; the share of the lines allowed over
INCLUDE = re.compile(r'^#\s*include\s+"(?:chronoscope/)?([a-z_]+\.h)"', re.M)


def strip_comments_and_strings(text):
    """The code alone: comments and string literals blanked (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
        elif text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
            i = j
        elif c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            out.append(c + ' ' * (min(j, n) - i - 1) + (c if j < n else ''))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return ''.join(out)


HEADING = 'Interface for the modules above'


def interface_lines(text):
    """The lines of the top comment's interface block: from a line that reads exactly
    HEADING to the first blank line or the comment's end (empty: no block)."""
    m = re.search(r'/\*.*?\*/', text, re.S)
    if not m:
        return []
    lines = m.group(0)[:-2].split('\n')
    for i, line in enumerate(lines):
        if line.strip() == HEADING:
            block = []
            for entry in lines[i + 1:]:
                if not entry.strip():
                    break
                block.append(entry)
            return block
    return []


def interface_block(text):
    """The names the interface block lists for the modules above."""
    return set(NAME.findall('\n'.join(interface_lines(text))))


def undescribed(text):
    """The block's entries that do not say what they do: a line that names private names
    and ends there, not followed by a deeper-indented line that says it."""
    lines, bad = interface_lines(text), []
    for i, line in enumerate(lines):
        names = NAME.findall(line)
        rest = NAME.sub('', line)
        rest = re.sub(r'\([^()]*\)|[,/&*]|\band\b', ' ', rest).strip()
        nxt = lines[i + 1] if i + 1 < len(lines) else ''
        deeper = len(nxt) - len(nxt.lstrip()) > len(line) - len(line.lstrip()) and not NAME.match(nxt.strip())
        if names and not rest and not deeper:
            bad.append(line.strip())
    return bad


def defined_names(code):
    names = set(DEF_FN.findall(code)) | set(DEF_MACRO.findall(code)) | set(DEF_TYPE.findall(code))
    names |= set(DEF_TYPEDEF.findall(code)) | set(DEF_TYPEDEF_END.findall(code)) | set(DEF_FNPTR.findall(code))
    names |= set(DEF_FIELD.findall(code))
    for body in re.findall(r'\benum\b[^{;]*\{([^}]*)\}', code):
        names |= set(DEF_ENUM.findall(body + '}'))
    return names


def ctags_defined(paths):
    """{module file name: private names ctags finds defined there}, or None without
    Universal Ctags.  A macro used inside an enum's braces is not an enumerator."""
    try:
        out = subprocess.run(['ctags', '-x', '--c-kinds=+defgmpstuv', '--language-force=C']
                             + paths, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    found = {os.path.basename(p): set() for p in paths}
    for line in out.splitlines():
        m = re.match(r'(\S+)\s+(\S+)\s+\d+\s+(\S+)\s?(.*)', line)
        if not m or not NAME.fullmatch(m.group(1)):
            continue
        name, kind, path, src = m.groups()
        if kind == 'enumerator' and re.search(r'\b%s\s*\(' % re.escape(name), src):
            continue
        found.setdefault(os.path.basename(path), set()).add(name)
    return found


def functions(code):
    """(name, first line, lines) of each function definition: a line that opens with '{'
    after a line that ends a declarator, to its '}' at column 0."""
    lines = code.split('\n')
    out = []
    for i, line in enumerate(lines):
        if line.rstrip() == '{' and i > 0 and lines[i - 1].rstrip().endswith(')'):
            j = i + 1
            while j < len(lines) and not lines[j].startswith('}'):
                j += 1
            head = ' '.join(lines[max(0, i - 3):i])
            m = re.findall(r'\b([A-Za-z_][A-Za-z0-9_]*)\s*\(', head)
            out.append((m[0] if m else '?', i, j - i + 1))
    return out


def main():
    inc = sys.argv[1]
    mods = sorted(f for f in os.listdir(os.path.join(inc, 'chronoscope')) if f.endswith('.h'))
    text, code, direct = {}, {}, {}
    for m in mods:
        text[m] = open(os.path.join(inc, 'chronoscope', m), encoding='utf-8').read()
        code[m] = strip_comments_and_strings(text[m])
        direct[m] = set(INCLUDE.findall(text[m])) & set(mods)

    def below(m, seen=None):
        seen = set() if seen is None else seen
        for d in direct[m]:
            if d not in seen:
                seen.add(d)
                below(d, seen)
        return seen

    tags = ctags_defined([os.path.join(inc, 'chronoscope', m) for m in mods])
    owner, own = {}, {}
    fields = set()   # without ctags, private fields of structs: their struct's, wherever used
    for m in mods:
        for line in code[m].split('\n') if tags is None else []:
            if re.match(r'^\s+(?:const\s+|volatile\s+|unsigned\s+)*[A-Za-z_]\w*[\s\*]+[^=(]*\bchrono__\w+[^(]*;', line):
                fields |= set(re.findall(r'\b(chrono__\w+)\b(?!\s*\()', line))
    homes = {}
    for m in mods:
        own[m] = defined_names(code[m]) | (tags or {}).get(m, set())
        for n in own[m]:
            owner.setdefault(n, m)
            homes.setdefault(n, []).append(m)
        own[m] |= fields
    two_homes = ['%s is defined in %s' % (n, ' and '.join(h)) for n, h in sorted(homes.items())
                 if len(h) > 1]
    sealed, upward = [], []
    for m in mods:
        reach = below(m)
        used = code[m] if tags is not None else MEMBER.sub(' ', code[m])   # a member: its struct's
        for n in sorted(set(NAME.findall(used)) - own[m]):
            o = owner.get(n)
            if o is None:
                continue
            if o not in reach:
                upward.append('%s uses %s of %s, which it does not include' % (m, n, o))
            elif n not in interface_block(text[o]):
                sealed.append('%s uses %s, not in the interface block of %s' % (m, n, o))
    for m in mods:
        sealed.extend('%s: the interface entry "%s" does not say what it does' % (m, b)
                      for b in undescribed(text[m]))
    long_fns, long_lines, total = [], [], 0
    top = os.path.join(inc, 'chronoscope.h')
    headers = [('chronoscope.h', open(top, encoding='utf-8').read())] if os.path.exists(top) else []
    for m in mods:
        for name, at, n in functions(code[m]):
            if n > 60:
                long_fns.append('%s:%d %s is %d lines' % (m, at + 1, name, n))
    for m, t in headers + [(m, text[m]) for m in mods]:
        for k, line in enumerate(t.split('\n'), 1):
            total += 1
            if len(line) > LINE_MAX:
                long_lines.append('%s:%d is %d characters' % (m, k, len(line)))
    over = long_lines if len(long_lines) * 100 > total * LONG_SHARE_MAX else []
    checks = [
        (sealed, 'sealed floors: every private name used by another module is in its interface block'),
        (upward, 'one way down: no module uses a name of a module above it'),
        (long_fns, 'no function over 60 lines'),
        (two_homes, 'one home: no private name defined in two modules'),
        (over, 'lines over %d characters: at most %d%% of the headers\' lines (%d of %d, %.2f%%)'
         % (LINE_MAX, LONG_SHARE_MAX, len(long_lines), total, 100.0 * len(long_lines) / max(total, 1))),
    ]
    print('TAP version 13')
    print('1..%d' % len(checks))
    print('# definitions found by %s' % ('the patterns and Universal Ctags' if tags is not None
                                         else 'the patterns (no ctags: struct members unchecked)'))
    failed = 0
    for k, (bad, what) in enumerate(checks, 1):
        print('%sok %d - %s (%d found)' % ('not ' if bad else '', k, what, len(bad)))
        for b in bad:
            print('# ' + b)
        failed += bool(bad)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
