#!/usr/bin/env python3
"""docs_blocks.py ROOT -- every ```c block of README.md and docs/*.md is code the
suite compiles: its lines (trailing blanks aside) stand, in order and
together, in one of the example programs (examples/*.c, each built by meson
and run by a test) or the test programs (tests/*.c), or as one string
("line\\nline\\n") in a test script that compiles it (tests/*.py).  A block that drifts
from its source, or quotes code no program holds, fails with its first
line and where it is.  TAP on stdout."""
import glob
import os
import re
import sys

root = sys.argv[1]
sources = {}
for pattern in ("examples/*.c", "tests/*.c"):
    for path in sorted(glob.glob(os.path.join(root, pattern))):
        with open(path, encoding="utf-8") as f:
            sources[os.path.relpath(path, root)] = [l.rstrip() for l in f.read().split("\n")]


scripts = {}
for path in sorted(glob.glob(os.path.join(root, "tests", "*.py"))):
    with open(path, encoding="utf-8") as f:
        scripts[os.path.relpath(path, root)] = f.read()


def blocks(path):
    """(first line number, lines) of each ```c block of a markdown file."""
    out, cur, start = [], None, 0
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f.read().split("\n"), 1):
            if cur is None and re.match(r"^```c\s*$", line):
                cur, start = [], n + 1
            elif cur is not None and line.startswith("```"):
                out.append((start, cur))
                cur = None
            elif cur is not None:
                cur.append(line.rstrip())
    return out


def found(block):
    """The source that holds the block's lines together, in order; None."""
    lines = [l for l in block]
    while lines and not lines[-1]:
        lines.pop()
    if not lines:
        return "(empty)"
    for name, text in sources.items():
        for i in range(len(text) - len(lines) + 1):
            if text[i:i + len(lines)] == lines:
                return name
    for name, text in scripts.items():
        if "\\n".join(lines) + "\\n" in text:
            return name
    return None


n = failed = 0
docs = [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))
for doc in docs:
    rel = os.path.relpath(doc, root)
    for start, block in blocks(doc):
        n += 1
        where = found(block)
        if where:
            print("ok %d - %s:%d, a C block of %d lines, is in %s" % (n, rel, start, len(block), where))
        else:
            failed += 1
            print("not ok %d - %s:%d: a C block no example or test program holds (its first line: %r)" %
                  (n, rel, start, block[0] if block else ""))
print("1..%d" % n)
sys.exit(1 if failed else 0)
