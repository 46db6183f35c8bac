#!/usr/bin/env python3
"""check_html.py — the HTML report read back by independent parsers (TAP).

    check_html.py REPORT_FIXTURE            the fixed session (--fixed) and a measured one
    check_html.py --file PAGE [NAME...]     one page already written, with the names it must hold

Each page: Python's html.parser sees balanced tags (void elements aside) and
no external reference (no script, link, iframe, object, no src/href/url()
outside the page); every <svg>...</svg> parses as XML on its own (xml.etree);
the page's text holds every benchmark name; the counts of SVGs match the
session (one per run outside a sweep, two per comparison, one per sweep)."""
import html
import html.parser
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

from tap import done, ok, skip

VOID = {'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr'}
# inside <svg>, elements may close themselves (<path/>): html.parser reports those as startendtag
FORBIDDEN = {'script', 'link', 'iframe', 'object', 'embed', 'img', 'base', 'frame'}



class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.text, self.tags, self.external = [], [], [], {}, []

    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        if tag in FORBIDDEN:
            self.external.append('<%s>' % tag)
        for k, v in attrs:
            if k in ('src', 'href', 'xlink:href', 'action') or (v and re.search(r'url\(', v)):
                self.external.append('%s=%r' % (k, v))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        if tag in FORBIDDEN:
            self.external.append('<%s/>' % tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append('</%s> closes <%s>' % (tag, self.stack[-1] if self.stack else 'nothing'))
            if tag in self.stack:
                while self.stack.pop() != tag:
                    pass
        else:
            self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def check_page(path, names, label, counts=None):
    raw = open(path, 'rb').read()
    ok(raw.startswith(b'<!DOCTYPE html>'), '%s: starts with <!DOCTYPE html>' % label)
    try:
        page = raw.decode('utf-8')
        ok(True, '%s: valid UTF-8 (%d bytes)' % (label, len(raw)))
    except UnicodeDecodeError as e:
        ok(False, '%s: valid UTF-8: %s' % (label, e))
        return
    p = Page()
    p.feed(page)
    p.close()
    ok(not p.errors and not p.stack, '%s: tags balanced%s' % (label, (': ' + '; '.join(p.errors[:5] + p.stack[:5])) if p.errors or p.stack else ''))
    ok(not p.external, '%s: no external reference%s' % (label, (': ' + ', '.join(p.external[:5])) if p.external else ''))
    ok('<style>' in page and 'http' not in re.sub(r'xmlns="http://www.w3.org/2000/svg"', '', page),
       '%s: styles inline, no http(s) address besides the SVG namespace' % label)
    ok(not re.search(r'[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]', page), '%s: no control characters' % label)
    svgs = re.findall(r'<svg\b.*?</svg>', page, re.S)
    bad = []
    for i, svg in enumerate(svgs):
        try:
            root = ET.fromstring(svg)
            if not root.tag.endswith('svg') or not root.get('viewBox'):
                bad.append('%d: root %s without viewBox' % (i, root.tag))
        except ET.ParseError as e:
            bad.append('%d: %s' % (i, e))
    ok(svgs and not bad, '%s: %d SVGs, each well-formed XML%s' % (label, len(svgs), (': ' + '; '.join(bad[:3])) if bad else ''))
    ok(p.tags.get('svg', 0) == len(svgs), '%s: every <svg> seen by html.parser is one of them' % label)
    if counts is not None:
        counts = counts if isinstance(counts, tuple) else (counts,)
        ok(len(svgs) in counts, '%s: %d SVGs, expected %s' % (label, len(svgs), ' or '.join(map(str, counts))))
    text = ''.join(p.text)
    missing = [nm for nm in names if nm not in text]
    ok(not missing, '%s: the text holds every name%s' % (label, (': missing ' + ', '.join(map(repr, missing))) if missing else ''))
    for word in ('Summary', 'median'):
        ok(word in text, '%s: the text says %r' % (label, word))
    return text


def display(name):
    """A name as the page shows it: control characters as \\n \\t \\r \\xNN, invalid UTF-8 as U+FFFD."""
    out = []
    for ch in name.decode('utf-8', errors='replace') if isinstance(name, bytes) else name:
        o = ord(ch)
        if ch == '\n': out.append('\\n')
        elif ch == '\t': out.append('\\t')
        elif ch == '\r': out.append('\\r')
        elif o < 0x20 or o == 0x7f or 0x80 <= o < 0xa0: out.append('\\x%02X' % o)
        else: out.append(ch)
    return ''.join(out)


FIXED_NAMES = ['quote"back\\slash', 'tab\\there, new\\nline', '\u00fcn\u00ef \u2713 \u8a08\u6642 \u2014 \u00b5s',
               'copy/1', 'copy/2', 'copy/4', 'no_samples', 'imul1000', 'add1000', 'same_a', 'same_b', '\U0001F600']


FIT_SCRIPT = """<script>
var w = document.querySelector('table.sum').parentNode, out = [];
out.push(w.scrollWidth <= w.clientWidth ? 'fits' : 'overflows');
document.querySelectorAll('table.sum .tp').forEach(function (e) {
  var r = e.getBoundingClientRect();
  out.push(r.right <= window.innerWidth && r.right <= w.getBoundingClientRect().right + 0.5 ? 'shown' : 'hidden');
});
document.body.setAttribute('data-fit', out.join(' '));
</script>"""


def check_fit(page, label, width=1200):
    """The summary table in headless Chromium at `width` px: no scrollbar, every throughput inside the window.
    A copy of the page with a measuring script (the page itself has none); skipped without chromium."""
    browser = shutil.which('chromium') or shutil.which('chromium-browser')
    if not browser:
        skip('%s: no chromium on PATH: the table\'s fit at %d px is not measured' % (label, width))
        return
    with tempfile.TemporaryDirectory() as d:
        probe = os.path.join(d, 'probe.html')
        with open(page, encoding='utf-8') as f:
            src = f.read()
        with open(probe, 'w', encoding='utf-8') as f:
            f.write(src.replace('</body>', FIT_SCRIPT + '</body>'))
        r = subprocess.run([browser, '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
                            '--disable-component-update', '--disable-sync', '--no-first-run', '--hide-scrollbars',
                            '--user-data-dir=' + os.path.join(d, 'profile'), '--window-size=%d,1000' % width,
                            '--dump-dom', 'file://' + probe], capture_output=True, timeout=120)
    m = re.search(r'data-fit="([^"]*)"', r.stdout.decode('utf-8', 'replace'))
    words = m.group(1).split() if m else []
    ok(words[:1] == ['fits'] and len(words) > 1 and all(w == 'shown' for w in words[1:]),
       '%s at %d px in Chromium: the summary table fits, its %d throughputs inside the window (%s)' %
       (label, width, len(words) - 1, ' '.join(words) or r.stderr.decode('utf-8', 'replace').strip()[-200:]))


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == '--file':
        print('# page ' + sys.argv[2])
        check_page(sys.argv[2], sys.argv[3:], os.path.basename(sys.argv[2]))
        check_fit(sys.argv[2], os.path.basename(sys.argv[2]))
        done()
    fixture = sys.argv[1]
    with tempfile.TemporaryDirectory() as d:
        fixed = os.path.join(d, 'fixed.html')
        r = subprocess.run([fixture, '--fixed', '--format=html', '--out=' + fixed], capture_output=True)
        ok(r.returncode == 0 and not r.stderr, 'report_fixture --fixed --format=html: exit 0, nothing on stderr')
        # fixed: 4 runs with samples outside the sweep (no_samples gets a note); imul1000 vs add1000 (3x apart):
        # drift + a strip each; same_a vs same_b: drift + shared strips; 1 sweep
        text = check_page(fixed, FIXED_NAMES, 'fixed', counts=4 + 3 + 2 + 1)
        ok(text is not None and 'memory: 2 minor + 0 major page faults an iteration, peak RSS +1024 KiB' in text,
           'fixed: a run\'s memory figures are on the page')
        ok(text is not None and 'between processes: medians 1.45 \u00b5s .. 1.57 \u00b5s across 3 processes (spread 8.00%)' in text,
           'fixed: a pooled run\'s spread between processes is on the page')
        ok(text is not None and 'per iteration: instr 100 [99.8, 100]' in text and 'faults 109 [109, 109]' in text and
           'IPC 1.01' in text, 'fixed: a run\'s counters per iteration, with their intervals and IPC, are on the page')
        ok(text is not None and 'CPU time 1.12 \u00b5s an iteration (on a CPU 75% of the time)' in text and 'CPU time n/a' in text,
           'fixed: each run\'s CPU time per iteration beside its real time (n/a where unknown)')
        with open(fixed, encoding='utf-8') as f:
            raw = f.read()
        ok('<span class="tp">2.00 GB/s</span></td>' in raw and '<span class="tp">200 M items/s</span></td>' in raw and
           '<span class="tp thr">4 threads: slowest 50.0 ns, 80.0 M/s together</span></td>' in raw and
           raw.count('<span class="tp') == 3,
           'fixed: the throughputs (2.00 GB/s, 200 M items/s) and the threaded run\'s in their own span of the summary')
        check_fit(fixed, 'fixed')
        measured = os.path.join(d, 'measured.html')
        r = subprocess.run([fixture, '--quick', '--samples=25', '--format=html', '--out=' + measured], capture_output=True)
        ok(r.returncode == 0, 'report_fixture --quick --format=html: exit 0 (%s)' % r.stderr.decode(errors='replace').strip()[:200])
        if r.returncode == 0:
            text = check_page(measured, [display(b'quote"back\\slash'), display(b'tab\there, new\nline'), 'mul', 'add', 'copy/8', 'copy/32'],
                              'measured', counts=(3 + 2 + 1, 3 + 3 + 1))   # the comparison's sides share an axis or not
            ok(text is not None and 'samples taken' in text, 'measured: rejected samples are counted per run')
        stdout = subprocess.run([fixture, '--fixed', '--format=html'], capture_output=True)
        ok(stdout.returncode == 0 and stdout.stdout.startswith(b'<!DOCTYPE html>'), '--format=html without --out: the page on stdout')
    done()


if __name__ == '__main__':
    sys.exit(main())
