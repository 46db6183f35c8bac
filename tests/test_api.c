/* test_api — what Google Benchmark and nanobench users expect of the API
   (issue 34): chrono_keep of any expression, each flag named on its row, the
   markdown's sections, a comparison's CPU time a side, --threads refused
   where nothing is threaded, the body's own counters in every format, the
   loop form (loop.h) against the function form.  A private copy of the implementation
   (CHRONO_STATIC): it looks at the report's private helpers too. */
#include <chronoscope.h>
#include <string.h>
#define CHRONO_FIXTURE_NO_MAIN
#include "report_fixture.c"
#include "tap.h"
#include "loop_pairs.h"

/* ---- a report into memory ----------------------------------------------------- */
typedef struct text { char *s; size_t n; } text;

static text report_of(const chrono_session *s, chrono_format fmt)
{
    text t = { NULL, 0 };
    chrono_report_options opt;
    FILE *f = tmpfile();
    long n;
    memset(&opt, 0, sizeof opt);
    opt.color = CHRONO_COLOR_NEVER;
    opt.executable = "test_api";
    if (!f) return t;
    if (chrono_report_ex(s, f, fmt, &opt) == 0 && (n = ftell(f)) >= 0 && (t.s = (char *)malloc((size_t)n + 1))) {
        rewind(f);
        t.n = fread(t.s, 1, (size_t)n, f);
        t.s[t.n] = '\0';
    }
    fclose(f);
    return t;
}

static const char *find(const text *t, const char *needle) { return t->s ? strstr(t->s, needle) : NULL; }

/* The line of t that starts with `start` (leading blanks and "| " skipped), into buf. */
static const char *line_of(const text *t, const char *start, char *buf, size_t n)
{
    const char *p = t->s;
    while (p && *p) {
        const char *e = strchr(p, '\n'), *q = p;
        size_t len = e ? (size_t)(e - p) : strlen(p);
        while (*q == ' ' || *q == '|') q++;
        if (!strncmp(q, start, strlen(start))) {
            if (len >= n) len = n - 1;
            memcpy(buf, p, len);
            buf[len] = '\0';
            return buf;
        }
        p = e ? e + 1 : NULL;
    }
    return NULL;
}

static chrono_config quick_config(void)
{
    chrono_config cfg = chrono_config_default();
    cfg.samples = 21;
    cfg.warmup_ms = 10;
    cfg.max_ms = 2000;
    return cfg;
}

/* ---- chrono_keep: any expression ------------------------------------------------ */
typedef struct text_ctx { char buf[256]; } text_ctx;

static void keep_strlen(void *ctx, uint64_t iters)
{
    const text_ctx *c = (const text_ctx *)ctx;
    uint64_t i;
    for (i = 0; i < iters; i++) chrono_keep(strlen(c->buf));   /* an rvalue: DoNotOptimize's use */
}

static void keep_index(void *ctx, uint64_t iters)
{
    uint64_t i;
    (void)ctx;
    for (i = 0; i < iters; i++) chrono_keep(i + 1);
}

static void test_keep(chrono_session *s)
{
    static text_ctx c;
    const int k = 3;
    double d = 1.5;
    chrono_comparison cmp;
    int rc;
    memset(c.buf, 'x', sizeof c.buf - 1);
    chrono_keep(k);          /* a const lvalue */
    chrono_keep(d * 2);      /* an rvalue of another type */
    chrono_keep(c);          /* a struct */
    chrono_keep(&c);         /* an address */
    rc = chrono_compare(s, "strlen255", keep_strlen, &c, "index", keep_index, NULL, &cmp);
    /* strlen of 255 bytes is tens of cycles, the index one: were the strlen
       dropped the ratio would be about 1 */
    tap_ok(rc == 0 && cmp.ratio > 4 && !(cmp.a.warnings & CHRONO_WARN_EMPTY_BODY),
           "chrono_keep(strlen(s)) keeps the call: %.1fx a chrono_keep(i + 1) loop (want > 4), no EMPTY_BODY", cmp.ratio);
}

/* ---- the flags: which applies to which row --------------------------------------- */
static void test_marks(void)
{
    static fixture f;
    char buf[64], line[512];
    text t;
    fixture_fill(&f);
    tap_ok(chrono__mark_text(buf, sizeof buf, CHRONO_WARN_CONTENDED | CHRONO_WARN_SHARED_CORE) == 6 && !strcmp(buf, " !9,10"),
           "a row's mark names its flags by number: ' !9,10' (got '%s')", buf);
    tap_ok(chrono__mark_text(buf, sizeof buf, 0) == 0 && buf[0] == '\0', "no flag, no mark");
    f.results[4].warnings = CHRONO_WARN_SHARED_CORE;   /* copy/1 */
    f.results[5].warnings = CHRONO_WARN_EMPTY_BODY;    /* copy/2 */
    t = report_of(&f.s, CHRONO_FORMAT_TEXT);
    tap_ok(line_of(&t, "copy/1 !10 ", line, sizeof line) && line_of(&t, "copy/2 !11 ", line, sizeof line),
           "text: each row says which flag applies (copy/1 !10, copy/2 !11)");
    tap_ok(find(&t, "\n!10 SHARED_CORE: ") && find(&t, "\n!11 EMPTY_BODY: ") && !find(&t, "CONTENDED:") &&
               !find(&t, "LOW_LEVEL:"),
           "text: the legend names the flags the rows carry, and only those");
    free(t.s);
    t = report_of(&f.s, CHRONO_FORMAT_MARKDOWN);
    tap_ok(find(&t, "| copy/1 !10 ") && find(&t, "- !10 SHARED_CORE: ") && !find(&t, "CONTENDED:"),
           "markdown: the row's flag and its legend item");
    free(t.s);
}

/* ---- markdown: the runs' memory lines in a section of their own -------------------- */
static void test_md_sections(void)
{
    static fixture f;
    const char *cmp, *runs, *mem;
    text t;
    fixture_fill(&f);   /* its first result faulted 2 pages an iteration; two comparisons */
    t = report_of(&f.s, CHRONO_FORMAT_MARKDOWN);
    cmp = find(&t, "**Comparisons**");
    runs = find(&t, "**Runs**");
    mem = find(&t, "- memory ");
    tap_ok(cmp && runs && mem && cmp < runs && runs < mem && !find(&t, "**Sweeps**") == !f.s.nsweeps,
           "markdown: the memory line under its own **Runs** title, not under **Comparisons**");
    free(t.s);
    f.s.ncomparisons = 0;
    f.s.nsweeps = 0;
    t = report_of(&f.s, CHRONO_FORMAT_TEXT);
    mem = find(&t, "\nmemory ");
    tap_ok(mem && !find(&t, "**Runs**"), "text: the memory line, no markdown title");
    free(t.s);
}

/* ---- --threads where nothing is threaded ------------------------------------------------ */
static void noop(void *ctx, uint64_t iters)
{
    uint64_t i;
    (void)ctx;
    for (i = 0; i < iters; i++) chrono_keep(i);
}

static void test_threads_flag(void)
{
    const char *argv[] = { "test_api", "--list", "--threads=4", NULL };
    chrono_program p;
    chrono_entry plain[1], threaded[2];
    int rc;
    plain[0] = chrono_bench("plain", noop, NULL);
    threaded[0] = plain[0];
    threaded[1] = chrono_with_threads(chrono_bench("threaded", noop, NULL), CHRONO_THREADS_CLI);
    if (chrono_program_begin(&p, 3, (char **)argv, NULL, 0) != 1) { tap_skip("no program (--threads)"); tap_skip("-"); return; }
    rc = chrono_program_run(&p, threaded, 2);
    tap_ok(rc == 0 && p.status != 2, "--threads=4 with an entry that takes it: accepted");
    rc = chrono_program_run(&p, plain, 1);
    tap_ok(rc < 0 && p.status == 2 && strstr(p.cli.error, "--threads") && strstr(p.cli.error, "4"),
           "--threads=4 with no threaded entry: refused, exit 2, naming it ('%s')", p.cli.error);
    (void)chrono_program_end(&p);
}

/* ---- the body's own counters (chrono_user_counter) ------------------------------------- */
typedef struct counted { chrono_user_counter c[2]; uint64_t x; } counted;   /* c[0] hits, c[1] bytes */

static void hits3(void *ctx, uint64_t iters)
{
    counted *k = (counted *)ctx;
    uint64_t i;
    for (i = 0; i < iters; i++) {
        k->x = k->x * 2862933555777941757u + 3037000493u;
        chrono_keep(k->x);
        k->c[0].value += 3;     /* three hits an iteration */
        k->c[1].value += 64;    /* 64 bytes an iteration, reported per second */
    }
}

/* The number after `key` in t (NAN when absent). */
static double number_after(const text *t, const char *key)
{
    const char *p = find(t, key);
    return p ? strtod(p + strlen(key), NULL) : NAN;
}

static void test_user_counters(chrono_session *s)
{
    static counted k;
    chrono_config saved = s->cfg;
    chrono_result r;
    text t;
    double per_s;
    FILE *html;
    int rc;
    k.c[0].name = "hits";
    k.c[1].name = "bytes";
    k.c[1].rate = CHRONO_PER_SECOND;
    s->cfg.user_counters = k.c;
    s->cfg.nuser_counters = 2;
    rc = chrono_run(s, "hits3", hits3, &k, &r);
    per_s = 64e9 / r.ns.median;
    tap_ok(rc == 0 && r.nuser == 2 && r.user[0].per_iter == 3.0 && r.user[1].per_iter == 64.0 &&
               !strcmp(r.user[0].name, "hits") && r.user[1].rate == CHRONO_PER_SECOND,
           "a body counting 3 hits and 64 bytes an iteration: %g and %g per iteration", r.user[0].per_iter, r.user[1].per_iter);
    s->cfg = saved;
    t = report_of(s, CHRONO_FORMAT_TEXT);
    tap_ok(find(&t, "  per iteration: hits 3.00  bytes ") != NULL && find(&t, "/s\n") != NULL, "text: 'per iteration: hits 3.00  bytes .../s' under the row");
    free(t.s);
    t = report_of(s, CHRONO_FORMAT_MARKDOWN);
    tap_ok(find(&t, "per iteration: hits 3.00  bytes ") != NULL, "markdown: the row's last cell ends 'per iteration: hits 3.00  bytes ...'");
    free(t.s);
    t = report_of(s, CHRONO_FORMAT_CSV);
    tap_ok(find(&t, ",user_counters") && find(&t, ",hits=3;bytes/s=") &&
               fabs(number_after(&t, ";bytes/s=") / per_s - 1) < 1e-6,
           "CSV: the user_counters column 'hits=3;bytes/s=%.4g' (64 bytes over the median %.2f ns)", per_s, r.ns.median);
    free(t.s);
    t = report_of(s, CHRONO_FORMAT_JSON);
    tap_ok(number_after(&t, "\"hits\": ") == 3.0 && fabs(number_after(&t, "\"bytes\": ") / per_s - 1) < 1e-6,
           "JSON: members \"hits\": 3 and \"bytes\": %.4g (per second), as Google Benchmark's counters", per_s);
    free(t.s);
    if ((html = tmpfile()) != NULL) {
        text h = { NULL, 0 };
        long n;
        if (chrono_report_html(s, html, NULL) == 0 && (n = ftell(html)) > 0 && (h.s = (char *)malloc((size_t)n + 1))) {
            rewind(html);
            h.n = fread(h.s, 1, (size_t)n, html);
            h.s[h.n] = '\0';
        }
        tap_ok(find(&h, "per iteration: hits 3.00  bytes ") != NULL, "HTML: the run's note 'per iteration: hits 3.00  bytes ...'");
        free(h.s);
        fclose(html);
    }
}

static void test_user_counters_refused(chrono_session *s)
{
    static counted k;
    chrono_config saved = s->cfg;
    chrono_entry e;
    const chrono_result *last;
    int rc_name, rc_many, rc_entry;
    k.c[0].name = "two words";
    s->cfg.user_counters = k.c;
    s->cfg.nuser_counters = 1;
    rc_name = chrono_run(s, "bad", hits3, &k, NULL);
    k.c[0].name = "hits";
    s->cfg.nuser_counters = CHRONO_USER_COUNTERS_MAX + 1;
    rc_many = chrono_run(s, "bad", hits3, &k, NULL);
    s->cfg = saved;
    tap_ok(rc_name == CHRONO_EINVAL && rc_many == CHRONO_EINVAL, "a counter named 'two words', or 9 counters: CHRONO_EINVAL");
    k.c[1].name = "bytes";
    e = chrono_with_user_counters(chrono_bench("entry_hits", hits3, &k), k.c, 1);
    rc_entry = chrono_entry_run(s, &e, NULL);
    last = &s->results[s->nresults - 1];
    tap_ok(rc_entry == 0 && !strcmp(last->name, "entry_hits") && last->nuser == 1 && last->user[0].per_iter == 3.0 &&
               s->cfg.nuser_counters == 0,
           "an entry's chrono_with_user_counters: hits 3 an iteration, the session's configuration as it was");
}

/* ---- the loop form (loop.h) ---------------------------------------------------------- */
static void test_loop_figures(chrono_session *s)
{
    double ratio[5];
    int rc, k;
    static const uint64_t steps[2] = { 5, 50000 };   /* ~5 ns and ~50 us */
    for (k = 0; k < 2; k++) {
        double m = lp_pairs(s, steps[k], 5, ratio, &rc);
        if (rc == CHRONO_ENOTSUP) { tap_skip("the loop form is not supported here"); continue; }
        /* Under an emulator (valgrind, qemu) the figures are for correctness
           only (chrono_session_emulated): valgrind's translation of the two
           forms read 1.185 and 1.211 for 5 steps.  There, only that they ran. */
        if (chrono_session_emulated(s)) {
            tap_ok(rc == 0 && m > 0, "loop form of a %llu-step body against its function form: %.3f, emulated "
                   "(%s): ran, the ratio not held", (unsigned long long)steps[k], m, s->env.emulator);
            continue;
        }
        /* Under AddressSanitizer (its checks compiled into both forms) one process
           in five read 1.39-1.41 for 5 steps in all three pairs, the other four
           passed: the small body's ratio is not held there; the long one's is. */
        if (TAP_ASAN && steps[k] < 1000) {
            tap_ok(rc == 0 && m > 0, "loop form of a %llu-step body against its function form: %.3f, under "
                   "AddressSanitizer: ran, the ratio not held", (unsigned long long)steps[k], m);
            continue;
        }
        /* The median of 5 pairs: beside a build, one pair of 50,000 steps read 1.32
           and the median of 3 pairs 1.204 (runs taken moments apart). */
        tap_ok(rc == 0 && m > 0.8 && m < 1.25, "loop form of a %llu-step body against its function form: %.3f "
               "(5 pairs side by side, %.3f .. %.3f; bench_loop holds it to 2%%)", (unsigned long long)steps[k], m,
               ratio[0], ratio[4]);
    }
}

static void test_loop_runs(chrono_session *s)
{
    chrono_user_counter one = { "one", CHRONO_PER_ITERATION, 0 };
    chrono_config saved = s->cfg;
    chrono_result r;
    chrono_loop l;
    size_t before = s->nresults;
    uint64_t x = 1, n = 0;
    int rc;
    if (chrono_loop_begin(&l, s, "counted", &r) == CHRONO_ENOTSUP) { tap_skip("the loop form is not supported here"); return; }
    s->cfg.user_counters = &one;
    s->cfg.nuser_counters = 1;
    while (chrono_loop_next(&l)) { x = lp_steps(x, 5); one.value += 1; n++; }
    rc = chrono_loop_end(&l);
    s->cfg = saved;
    tap_ok(rc == 0 && r.nuser == 1 && r.user[0].per_iter == 1.0 && r.samples > 0 &&
               n >= r.iters_taken && s->nresults == before + 1 &&
               !strcmp(s->results[before].name, "counted"),
           "a loop is one run: its samples' iterations are the block's (a counter of 1 an iteration reads %g), "
           "%llu iterations in all, its result kept in the session", r.user[0].per_iter, (unsigned long long)n);
    n = 0;
    for (CHRONO_LOOP(s, "for", &r)) n++;
    tap_ok(n > 0 && !strcmp(r.name, "for") && r.samples > 0 && !strcmp(s->results[s->nresults - 1].name, "for"),
           "for (CHRONO_LOOP(s, \"for\", &r)): %llu iterations, the result named 'for'", (unsigned long long)n);
    chrono_loop_begin(&l, s, NULL, &r);
    n = 0;
    while (chrono_loop_next(&l)) n++;
    rc = chrono_loop_end(&l);
    tap_ok(rc == CHRONO_EINVAL && n == 0, "a loop without a name: no iteration, CHRONO_EINVAL");
    before = s->nresults;
    chrono_loop_begin(&l, s, "left", NULL);
    n = 0;
    while (chrono_loop_next(&l))
        if (++n == 10) break;
    rc = chrono_loop_end(&l);
    tap_ok(rc == CHRONO_EINVAL && n == 10 && s->nresults == before, "a loop left by break: abandoned at chrono_loop_end (CHRONO_EINVAL), no result kept");
    chrono_loop_begin(&l, s, "never", NULL);
    tap_ok(chrono_loop_end(&l) == CHRONO_EINVAL, "a loop begun and never run: CHRONO_EINVAL at its end");
}

int main(void)
{
    chrono_session s;
    chrono_config cfg = quick_config();
    test_marks();
    test_md_sections();
    test_threads_flag();
    if (chrono_session_open(&s, &cfg) < 0) {
        tap_skip("no session (chrono_keep)");
        tap_skip("no session (counters)");
        tap_skip("no session (loop)");
        return tap_done();
    }
    test_keep(&s);
    test_user_counters(&s);
    test_user_counters_refused(&s);
    test_loop_runs(&s);
    test_loop_figures(&s);
    chrono_session_close(&s);
    return tap_done();
}
