/* chronoscope-ab — did this change make the code slower?  Two builds of a
   benchmark module (program.h's CHRONO_MODULE), the base commit's and the
   change's, loaded side by side into one process and compared entry by entry.

       chronoscope-ab BASE.so HEAD.so [flags]

   Each module is loaded with RTLD_LOCAL, so each keeps its own copy of the
   code under test.  Entries are matched by name (an entry of one module only
   is listed, not compared); each pair is compared interleaved, sample by
   sample (chrono_compare: A = base, B = head: a disturbance that hits both
   sides of a pair alike moves neither their ratio nor its median), in fresh
   processes: code placement differs between processes as between builds, so
   the processes are the units, each one's median ratio a draw from the
   placements.  Within a process too: the parent copies each module file
   --copies - 1 times (default 4 in all) into a temporary directory
   ($TMPDIR, else /tmp; removed on the way out, on error and on SIGINT,
   SIGTERM, SIGABRT), each process loads every copy (another path: other
   addresses, other pages for its code and data), and each side of a pair
   turns among them sample by sample (base copy c against head copy c), so
   that a process's ratio is a median over 4 placements, not one.  Measured
   on examples/ab_suite.c (docs/ab.md): the spread of the processes' ratios
   for qsort/4096 fell from 4.8% to 0.8% (interquartile), qsort/256 from
   1.5% to 0.7%, bsearch/4096 from 2.7% to 1.9%.  Each copy is called once
   before the engine sizes its batches (ab_prime: a first call's page faults
   had made it keep one-call samples, each from a cold cache).  The gate
   decides adaptively, in looks:

     look 1   --processes processes (default 8) run every entry (31 samples,
              5 ms warm-up, 300 ms budget each unless the flags say other);
     look j   the entries still inconclusive run in as many processes again
              (their count doubles: 16, 32, 64), or in as many as the rest
              of --budget-s has room for (4 at least; the default budget a
              second an entry, 5 s at least); an entry decided stops;
     until    every entry is decided, 4 looks are spent, or the budget has
              no room for 4 more processes.

   At each look an entry's head/base is the median of its processes' ratios,
   its interval their order-statistic interval (sign test) at the level
   alpha spending leaves each look: (1 - confidence) / 2 a side split evenly
   over the 4 looks (so 98.75% two-sided for 95%; 8 processes' lowest to
   highest is 99.2%), so that the looks together call identical code slower
   at most 2.5% of the time.  The rule (chrono_change_decide, twice):

       slower        the interval lies entirely above 1 and head/base > 1 + threshold/2
       faster        the interval lies entirely below 1 and head/base < 1 - threshold/2
       no clear difference   the interval lies within 1 +- threshold (else not the above)
       inconclusive  otherwise: no interval at the level, or one holding 1 and
                     reaching beyond 1 +- threshold

   A change of the threshold's size reads beyond half of it when measured
   tightly; --threshold=1 finds a 1% change.  When the processes' own
   intervals do not overlap and their ratios spread beyond the threshold,
   the row says "placement-sensitive: processes LO-HI": the code's speed
   depends on where it lands, and the verdict rests on the median over
   placements, not on the worst one.  --processes=1 runs once, here, and
   decides at the confidence asked.

   --threshold=PCT sets the threshold (default 2).  Exit status: 1 when an
   entry is slower (or an entry failed), 0 otherwise, 2 on bad input: a file
   that is missing or is not a module, a module built with another header
   version, no entry in common, a bad flag.  Every common flag and format
   works (cli.h); the "ab" table carries the verdicts in each format, and
   --format=bmf writes Bencher's metric format.  A thin client: processes.h
   runs the processes and pools the report's figures, stats.h the intervals,
   module.h the rule. */
#if !defined(_POSIX_C_SOURCE)
#  define _POSIX_C_SOURCE 200809L   /* mkdtemp under -std=c99 */
#endif
#include <chronoscope.h>

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AB_PROCESSES 8         /* the first look's processes (default --processes): the lowest to the highest
                                  of 8 medians is a 99.2% interval, above each look's 98.75% (alpha split in 4) */
#define AB_LOOKS 4             /* looks at most: 8, 16, 32, 64 processes (each later look doubles them) */
#define AB_TRACK_MAX 64        /* processes one pair is pooled over at most */
#define AB_MORE_MIN 4          /* a later look runs at least these many processes, or none */
#define AB_START 2             /* a process's start (exec, load, calibrate) costs about 2 entries' time */
#define AB_COLS 7
#define AB_COPIES 4            /* default --copies: each module loaded this many times a process */
#define AB_COPIES_MAX 8        /* chrono_tmp holds the directory and 2 x 7 copies */

typedef struct ab_side {
    const char *role;        /* "base" or "head" */
    const char *path;
    void *handle;
    const chrono_entry *table;
    size_t n;
} ab_side;

/* One benchmark of a module: a run, or one side of a comparison entry. */
typedef struct ab_unit {
    const char *name;
    chrono_fn fn;
    void *ctx;
    const chrono_entry *entry;
} ab_unit;

/* One side of a pair in a process: the entry in each placement copy of its
   module, called in turn (a call is a sample, or a calibration's try). */
typedef struct ab_rot {
    chrono_fn fn[AB_COPIES_MAX];
    void *ctx[AB_COPIES_MAX];
    unsigned long calls[AB_COPIES_MAX];   /* each copy's turns (said at --processes=1) */
    unsigned n, next;
} ab_rot;

/* One pair over the rounds: the comparison each process handed back, and the
   verdict once made (or the last look's). */
typedef struct ab_track {
    const chrono_comparison **got;   /* [cap] */
    size_t k, cap;
    int decided, selected, looks;
    chrono_comparison pooled;    /* at the last look's confidence */
    chrono_change_verdict v;
} ab_track;

typedef struct ab_state {
    ab_side side[2];
    ab_unit *units[2];
    size_t nunits[2];
    chrono_entry *pairs;     /* chrono_versus entries: A = base, B = head */
    size_t npairs;
    char (*names)[2][CHRONO_NAME_MAX];
    const char **rows;       /* the "ab" table's cells */
    char *cells;
    size_t nrows;
    ab_track *track;         /* [npairs]: each pair's processes and verdict (the adaptive gate) */
    chrono_processes *sets;  /* the rounds of processes, kept for the pooled report */
    int nsets;
    double threshold;        /* a fraction */
    int looks, nprocs;       /* the gate's looks and processes */
    double seconds;          /* its time */
    int copies;              /* --copies: each module loaded this many times a process (1: once) */
    const char *copy_dir;    /* where the parent put the copies (children: --copy-dir) */
    ab_side copy[2][AB_COPIES_MAX];   /* [side][1..copies-1]: the copies loaded ([0]: side[]) */
    ab_rot (*rot)[2];        /* [npairs][side] */
} ab_state;

/* The placement copies, removed on the way out, on error and on a signal. */
static chrono_tmp ab_tmp;
static void ab_on_signal(int sig) { chrono_tmp_signal(&ab_tmp, sig); }

static const char *const ab_cols[AB_COLS] = { "entry", "head/base", "ci_low", "ci_high", "cycles head/base", "verdict",
                                              "why" };

/* Load one module; 0, or 2 (bad input, said on stderr naming the file). */
static int ab_load(const char *prog, ab_side *s)
{
    char path[4096], why[200];
    const chrono_module *m;
    FILE *f = fopen(s->path, "rb");
    const char *err;
    if (!f) {
        fprintf(stderr, "%s: %s module '%s': %s\n", prog, s->role, s->path, strerror(errno));
        return 2;
    }
    fclose(f);
    /* a name without a slash would be searched for in the library path */
    (void)snprintf(path, sizeof path, "%s%s", strchr(s->path, '/') ? "" : "./", s->path);
    if (!(s->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL))) {
        err = dlerror();
        fprintf(stderr, "%s: %s module '%s' cannot be loaded: %s (a benchmark module is a shared object "
                "built with CHRONO_MODULE)\n", prog, s->role, s->path, err ? err : "?");
        return 2;
    }
    if (!(m = (const chrono_module *)dlsym(s->handle, CHRONO_MODULE_SYMBOL))) {
        fprintf(stderr, "%s: %s module '%s' is not a benchmark module: it has no %s symbol (build it with "
                "CHRONO_MODULE, program.h)\n", prog, s->role, s->path, CHRONO_MODULE_SYMBOL);
        return 2;
    }
    if (chrono_module_check(m, why, sizeof why) < 0) {
        fprintf(stderr, "%s: %s module '%s': %s\n", prog, s->role, s->path, why);
        return 2;
    }
    s->table = NULL;
    s->n = m->table(&s->table);
    if (s->n && !s->table) {
        fprintf(stderr, "%s: %s module '%s': its table function gave no table\n", prog, s->role, s->path);
        return 2;
    }
    return 0;
}

/* The benchmarks of a table that two builds can be compared on: runs (not
   those with a setup function) and both sides of comparisons. */
static size_t ab_units(const ab_side *s, ab_unit *out)
{
    size_t i, k = 0;
    for (i = 0; i < s->n; i++) {
        const chrono_entry *e = &s->table[i];
        if (!e->name || !e->fn || e->setup) continue;
        if (e->kind == CHRONO_ENTRY_RUN || e->kind == CHRONO_ENTRY_COMPARE) {
            out[k].name = e->name; out[k].fn = e->fn; out[k].ctx = e->ctx; out[k].entry = e; k++;
        }
        if (e->kind == CHRONO_ENTRY_COMPARE && e->name_b && e->fn_b) {
            out[k].name = e->name_b; out[k].fn = e->fn_b; out[k].ctx = e->ctx_b; out[k].entry = e; k++;
        }
    }
    return k;
}

static const ab_unit *ab_find(const ab_unit *u, size_t n, const char *name)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (!strcmp(u[i].name, name)) return &u[i];
    return NULL;
}

/* The pairs to compare, as chrono_versus entries with the head entry's settings. */
static int ab_pair(ab_state *st)
{
    size_t i, k;
    for (k = 0; k < 2; k++) {
        st->units[k] = (ab_unit *)malloc((2 * st->side[k].n + 1) * sizeof *st->units[k]);
        if (!st->units[k]) return CHRONO_ENOMEM;
        st->nunits[k] = ab_units(&st->side[k], st->units[k]);
    }
    st->pairs = (chrono_entry *)malloc((st->nunits[0] + 1) * sizeof *st->pairs);
    st->names = (char (*)[2][CHRONO_NAME_MAX])malloc((st->nunits[0] + 1) * sizeof *st->names);
    if (!st->pairs || !st->names) return CHRONO_ENOMEM;
    for (i = 0; i < st->nunits[0]; i++) {
        const ab_unit *b = &st->units[0][i], *h = ab_find(st->units[1], st->nunits[1], b->name);
        chrono_entry *e = &st->pairs[st->npairs];
        char *nb = st->names[st->npairs][0], *nh = st->names[st->npairs][1];
        if (!h || ab_find(st->units[0], i, b->name)) continue;   /* only in base, or a repeated name */
        (void)snprintf(nb, CHRONO_NAME_MAX, "base/%s", b->name);
        (void)snprintf(nh, CHRONO_NAME_MAX, "head/%s", b->name);
        *e = chrono_versus(nb, b->fn, b->ctx, nh, h->fn, h->ctx);
        e->samples = h->entry->samples; e->max_ms = h->entry->max_ms; e->warmup_ms = h->entry->warmup_ms;
        e->expect_empty = h->entry->expect_empty; e->blocking = h->entry->blocking;
        if (h->entry->kind == CHRONO_ENTRY_RUN) { e->bytes = h->entry->bytes; e->items = h->entry->items; }
        st->npairs++;
    }
    return 0;
}

/* ---- placement copies: each module loaded again from other paths lands at other addresses ---- */

/* from -> to, byte for byte; 0 or -1. */
static int ab_copy_file(const char *from, const char *to)
{
    static char buf[1 << 16];
    size_t n;
    int bad = 0;
    FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
    if (!out) {
        if (in) fclose(in);
        return -1;
    }
    while (!bad && (n = fread(buf, 1, sizeof buf, in)) > 0) bad = fwrite(buf, 1, n, out) != n;
    bad |= ferror(in);
    fclose(in);
    bad |= fclose(out) != 0;
    return bad ? -1 : 0;
}

/* The parent's copies: DIR/base-C.so and DIR/head-C.so, C = 1 .. copies - 1,
   in a new directory under $TMPDIR (or /tmp), each path tracked (ab_tmp)
   before it is made, so that every way out removes it.  0, or 2 (said on stderr). */
static int ab_make_copies(const char *prog, ab_state *st)
{
    static char dir[CHRONO_TMP_PATH];
    const char *top = getenv("TMPDIR"), *path;
    char name[32];
    int c, k;
    if (st->copies < 2) return 0;
    (void)chrono_tmp_catch(ab_on_signal);
    (void)snprintf(dir, sizeof dir - 16, "%s/chronoscope-ab.XXXXXX", top && *top ? top : "/tmp");
    if (!mkdtemp(dir) || !chrono_tmp_track(&ab_tmp, dir, "")) {   /* "DIR/": a directory */
        fprintf(stderr, "%s: no directory for the placement copies ('%s'): %s (--copies=1 goes without)\n", prog,
                dir, strerror(errno));
        return 2;
    }
    for (c = 1; c < st->copies; c++)
        for (k = 0; k < 2; k++) {
            (void)snprintf(name, sizeof name, "%s-%d.so", st->side[k].role, c);
            if (!(path = chrono_tmp_track(&ab_tmp, dir, name)) || ab_copy_file(st->side[k].path, path) < 0) {
                fprintf(stderr, "%s: cannot copy %s module '%s' to '%s/%s': %s\n", prog, st->side[k].role,
                        st->side[k].path, dir, name, strerror(errno));
                return 2;
            }
        }
    st->copy_dir = dir;
    return 0;
}

/* A pair's side: the next copy's entry. */
static void ab_rot_call(void *ctx, uint64_t iters)
{
    ab_rot *r = (ab_rot *)ctx;
    unsigned i = r->next;
    r->next = i + 1 < r->n ? i + 1 : 0;
    r->calls[i]++;
    r->fn[i](r->ctx[i], iters);
}

/* In a process that runs the pairs: load the copies from copy_dir and make
   each pair's sides turn among them (base copy c against head copy c, sample
   by sample), so that one process averages over st->copies placements.
   0, or 2 (a copy that does not load, or lacks an entry: said on stderr). */
static int ab_rotate(const char *prog, ab_state *st)
{
    static char paths[2][AB_COPIES_MAX][CHRONO_TMP_PATH];
    ab_unit *u = NULL;
    size_t i, n;
    int c, k, rc = 0;
    if (st->copies < 2 || !st->copy_dir) return 0;
    st->rot = (ab_rot (*)[2])calloc(st->npairs + 1, sizeof *st->rot);
    if (!st->rot) return 2;
    for (i = 0; i < st->npairs; i++)
        for (k = 0; k < 2; k++) {
            ab_rot *r = &st->rot[i][k];
            r->fn[0] = k ? st->pairs[i].fn_b : st->pairs[i].fn;
            r->ctx[0] = k ? st->pairs[i].ctx_b : st->pairs[i].ctx;
            r->n = 1;
        }
    for (c = 1; c < st->copies && !rc; c++)
        for (k = 0; k < 2 && !rc; k++) {
            ab_side *s = &st->copy[k][c];
            s->role = st->side[k].role;
            (void)snprintf(paths[k][c], CHRONO_TMP_PATH, "%s/%s-%d.so", st->copy_dir, s->role, c);
            s->path = paths[k][c];
            if ((rc = ab_load(prog, s)) != 0) break;
            if (!(u = (ab_unit *)realloc(u, (2 * s->n + 1) * sizeof *u))) { rc = 2; break; }
            n = ab_units(s, u);
            for (i = 0; i < st->npairs && !rc; i++) {
                const ab_unit *x = ab_find(u, n, st->names[i][k] + 5);
                ab_rot *r = &st->rot[i][k];
                if (!x) { fprintf(stderr, "%s: copy '%s' lacks %s\n", prog, s->path, st->names[i][k]); rc = 2; break; }
                r->fn[r->n] = x->fn; r->ctx[r->n] = x->ctx; r->n++;
            }
        }
    free(u);
    for (i = 0; i < st->npairs && !rc; i++) {
        st->pairs[i].fn = ab_rot_call; st->pairs[i].ctx = &st->rot[i][0];
        st->pairs[i].fn_b = ab_rot_call; st->pairs[i].ctx_b = &st->rot[i][1];
    }
    return rc;
}

/* One row of the "ab" table. */
static void ab_row(ab_state *st, const char *name, const chrono_change_verdict *v, const char *verdict, const char *why)
{
    enum { CELL = 192 };
    char *c = st->cells + st->nrows * AB_COLS * CELL;
    size_t k;
    (void)snprintf(c, CELL, "%s", name);
    if (v) {
        (void)snprintf(c + CELL, CELL, "%.4f", v->ratio);
        (void)snprintf(c + 2 * CELL, CELL, "%.4f", v->ci_low);
        (void)snprintf(c + 3 * CELL, CELL, "%.4f", v->ci_high);
        (void)snprintf(c + 4 * CELL, CELL, "%.4f", v->cycles_ratio);
    }
    for (k = 1; k < 5; k++)
        if (!v || !strcmp(c + k * CELL, "nan") || !strcmp(c + k * CELL, "-nan")) strcpy(c + k * CELL, "n/a");
    (void)snprintf(c + 5 * CELL, CELL, "%s", verdict);
    (void)snprintf(c + 6 * CELL, CELL, "%s", why);
    for (k = 0; k < AB_COLS; k++) st->rows[st->nrows * AB_COLS + k] = c + k * CELL;
    st->nrows++;
}

/* The gate's rule, chrono_change_decide twice: slower (faster) when the
   interval lies above (below) 1 and head/base beyond half the threshold;
   no clear difference when the interval lies within 1 +- threshold;
   inconclusive otherwise.  A change of the threshold's size, measured
   tightly, reads beyond half of it; a change of a tenth of it does not. */
static void ab_decide(const chrono_comparison *c, double threshold, double conf, chrono_change_verdict *v)
{
    (void)chrono_change_decide(c, threshold / 2, conf, v);
    if (v->change == CHRONO_CHANGE_SLOWER || v->change == CHRONO_CHANGE_FASTER)
        (void)snprintf(v->why, sizeof v->why, "%+.1f%% [%+.1f%%, %+.1f%%]: %s 1, beyond half the %.3g%% threshold",
                       (v->ratio - 1) * 100, (v->ci_low - 1) * 100, (v->ci_high - 1) * 100,
                       v->change == CHRONO_CHANGE_SLOWER ? "above" : "below", threshold * 100);
    if (v->change != CHRONO_CHANGE_SLOWER && v->change != CHRONO_CHANGE_FASTER)
        (void)chrono_change_decide(c, threshold, conf, v);
}

/* "; placement-sensitive: processes 0.98-1.52" when the processes' own
   intervals do not all overlap and their figures spread beyond the
   threshold: the code's speed depends on where it lands. */
static void ab_placement(const ab_track *t, double threshold, char *why, size_t n)
{
    double lo = 1e300, hi = -1e300, top_low = -1e300, bottom_high = 1e300;
    size_t i, len = strlen(why);
    for (i = 0; i < t->k; i++) {   /* head/base: 1 / (base/head) */
        double r = 1 / t->got[i]->ratio, l = 1 / t->got[i]->ci_high, h = 1 / t->got[i]->ci_low;
        if (r < lo) lo = r;
        if (r > hi) hi = r;
        if (l > top_low) top_low = l;
        if (h < bottom_high) bottom_high = h;
    }
    if (t->k >= 2 && top_low > bottom_high && hi - lo > threshold)
        (void)snprintf(why + len, n - len, "; placement-sensitive: processes %.2f-%.2f", lo, hi);
}

/* The placement copies: the parent makes them (not a child: it has
   --copy-dir), and whichever process runs the pairs (a child, or the parent
   at --processes=1) loads them and rotates.  0, or 2 (said on stderr). */
static int ab_placements(chrono_program *p, ab_state *st)
{
    int runs = chrono_program_child(p) || p->cli.processes == 1, rc = 0;
    size_t i;
    if (!chrono_program_child(p) && !st->copy_dir) rc = ab_make_copies(p->cli.prog, st);
    if (!rc && runs) rc = ab_rotate(p->cli.prog, st);
    if (rc || !runs || !st->rot || chrono_program_child(p)) return rc;
    for (i = 0; i < 2; i++) {   /* where the copies landed: their table functions' addresses */
        char at[AB_COPIES_MAX * 24];
        size_t len = 0;
        int c;
        for (c = 0; c < st->copies; c++) {
            const chrono_module *m = (const chrono_module *)dlsym(c ? st->copy[i][c].handle : st->side[i].handle,
                                                                  CHRONO_MODULE_SYMBOL);
            len += (size_t)snprintf(at + len, sizeof at - len, "%s%p", c ? " " : "", m ? (const void *)m : NULL);
        }
        chrono_program_note(p, "placement: %s module loaded %d times, its descriptor at %s", st->side[i].role,
                            st->copies, at);
    }
    return 0;
}

/* The verdicts: the "ab" table and a summary line; how many entries are slower. */
static size_t ab_verdicts(chrono_program *p, ab_state *st, double threshold)
{
    size_t i, k, counts[4] = { 0, 0, 0, 0 }, rows = st->npairs + st->nunits[0] + st->nunits[1];
    static char title[256];
    chrono_table t;
    st->cells = (char *)malloc((rows + 1) * AB_COLS * 192);
    st->rows = (const char **)malloc((rows + 1) * AB_COLS * sizeof *st->rows);
    if (!st->cells || !st->rows) return 0;
    for (i = 0; i < st->npairs; i++) {
        const chrono_comparison *c = st->track ? NULL : chrono_program_compared(p, st->pairs[i].name);
        chrono_change_verdict v;
        if (st->track && st->track[i].k) v = st->track[i].v;
        else if (c) ab_decide(c, threshold, p->session.cfg.confidence, &v);
        else continue;   /* not selected by --filter, or it failed (said on stderr) */
        counts[v.change]++;
        ab_row(st, st->pairs[i].name + 5, &v, chrono_change_name(v.change), v.why);
    }
    for (k = 0; k < 2; k++)
        for (i = 0; i < st->nunits[k]; i++) {
            const char *name = st->units[k][i].name;
            if (ab_find(st->units[1 - k], st->nunits[1 - k], name) || ab_find(st->units[k], i, name)) continue;
            if (!chrono_cli_want(&p->cli, name)) continue;
            ab_row(st, name, NULL, k ? "only in head" : "only in base", "not compared");
        }
    (void)snprintf(title, sizeof title, "A/B per entry, head/base (slower: the interval entirely above 1 and "
                   "head/base above %.4g, half --threshold=%g%%)", 1 + threshold / 2, threshold * 100);
    memset(&t, 0, sizeof t);
    t.key = "ab"; t.title = title; t.ncols = AB_COLS; t.nrows = st->nrows; t.cols = ab_cols; t.cells = st->rows;
    (void)chrono_program_table(p, &t);
    chrono_program_note(p, "%zu compared: %zu slower, %zu faster, %zu no clear difference, %zu inconclusive "
                        "(base %s, head %s)", counts[0] + counts[1] + counts[2] + counts[3],
                        counts[CHRONO_CHANGE_SLOWER], counts[CHRONO_CHANGE_FASTER], counts[CHRONO_CHANGE_NONE],
                        counts[CHRONO_CHANGE_INCONCLUSIVE], st->side[0].path, st->side[1].path);
    return counts[CHRONO_CHANGE_SLOWER];
}

/* ---- the adaptive gate: looks at more processes for the entries not yet decided ---- */

/* Each comparison the processes of set ps handed back, to its pair's track. */
static void ab_gather(ab_state *st, const chrono_processes *ps)
{
    size_t i, j;
    int c;
    for (c = 0; c < ps->n; c++)
        for (j = 0; j < ps->procs[c].ncomparisons; j++) {
            const chrono_comparison *x = &ps->procs[c].comparisons[j];
            for (i = 0; i < st->npairs; i++) {
                ab_track *t = &st->track[i];
                if (strcmp(x->a.name, st->names[i][0]) != 0) continue;
                if (t->k < t->cap && x->ratio > 0 && x->ci_low > 0 && x->ci_high > 0) t->got[t->k++] = x;
                break;
            }
        }
}

/* Look `look` at pair i: its processes pooled at the level alpha spending
   leaves each look (alpha split evenly over the AB_LOOKS looks, as check.h
   spends it over its unbounded ones: the looks together keep each wrong call
   within (1 - confidence) / 2 a side), then the rule; decided unless
   inconclusive. */
static void ab_look(ab_state *st, size_t i, int look, double confidence)
{
    ab_track *t = &st->track[i];
    double conf = 1 - (1 - confidence) / AB_LOOKS, rat[AB_TRACK_MAX], cyc[AB_TRACK_MAX];
    size_t j, k = t->k;
    chrono_stats ps;
    if (!k) return;
    t->looks = look;
    t->pooled = *t->got[0];
    t->pooled.pair_ratios = NULL; t->pooled.npair_ratios = 0;
    for (j = 0; j < k; j++) {
        rat[j] = t->got[j]->ratio;
        cyc[j] = t->got[j]->cycles_ratio;
    }
    if (k > 1 && chrono_stats_pool_median(rat, NULL, NULL, k, conf, NULL, &ps) == 0) {
        t->pooled.ratio = ps.median; t->pooled.ci_low = ps.ci_low; t->pooled.ci_high = ps.ci_high;
        t->pooled.ci_level = ps.ci_level;
        t->pooled.cycles_ratio = chrono_stats_median(cyc, k);   /* NAN when one is unknown */
    }
    ab_decide(&t->pooled, st->threshold, k > 1 ? conf : confidence, &t->v);
    ab_placement(t, st->threshold, t->v.why, sizeof t->v.why);
    t->decided = t->v.change != CHRONO_CHANGE_INCONCLUSIVE;
}

/* The argv of a round's children: the program's, and --only=LIST, the
   pairs still undecided (indices); how many those are. */
static size_t ab_round_args(const ab_state *st, int ac, char **av, char **out, char *only, size_t n)
{
    size_t i, pending = 0, len;
    int a;
    for (a = 0; a < ac; a++) out[a] = av[a];
    len = (size_t)snprintf(only, n, "--only=");
    for (i = 0; i < st->npairs; i++) {
        if (!st->track[i].selected || st->track[i].decided) continue;
        if (len + 24 < n) len += (size_t)snprintf(only + len, n - len, "%s%zu", pending ? "," : "", i);
        pending++;
    }
    out[ac] = only;
    out[ac + 1] = NULL;
    if (st->copy_dir) {   /* the children load the parent's placement copies */
        static char dir[CHRONO_TMP_PATH + 16];
        (void)snprintf(dir, sizeof dir, "--copy-dir=%s", st->copy_dir);
        out[ac + 1] = dir;
        out[ac + 2] = NULL;
    }
    return pending;
}

/* Seconds since t0 on the session's clock. */
static double ab_since(const chrono_program *p, uint64_t t0)
{
    return chrono_clock_ns(&p->session.clock, chrono_clock_stop(&p->session.clock) - t0) / 1e9;
}

/* One round: nproc children run the pairs still undecided; their
   comparisons gathered.  0, or a negative code (said on stderr). */
static int ab_round(chrono_program *p, ab_state *st, int ac, char **av, int nproc)
{
    char only[16384], **args = (char **)malloc(((size_t)ac + 3) * sizeof *args);
    chrono_processes *ps = &st->sets[st->nsets];
    chrono_entry *sub = (chrono_entry *)malloc((st->npairs + 1) * sizeof *sub);
    size_t i, n = 0;
    double limit;
    int rc = CHRONO_ENOMEM;
    if (args && sub) {
        (void)ab_round_args(st, ac, av, args, only, sizeof only);
        for (i = 0; i < st->npairs; i++)
            if (st->track[i].selected && !st->track[i].decided) sub[n++] = st->pairs[i];
        limit = p->process_timeout_s > 0 ? p->process_timeout_s : chrono_processes_timeout(&p->cfg, sub, n);
        rc = chrono_processes_run(ps, &p->session, ac + (st->copy_dir ? 2 : 1), args, 0, nproc, limit, p->cli.prog);
        st->nsets++;
        if (rc == 0) ab_gather(st, ps);
        else fprintf(stderr, "%s: the processes could not run: %s\n", p->cli.prog, chrono_strerror(rc));
    }
    free(args); free(sub);
    return rc;
}

/* The gate: look 1 at `first` processes, then as many again for the pairs
   still undecided (their processes double), or as many as the budget
   (seconds) has room for, a process's cost estimated from the last look's;
   until each pair decides, AB_LOOKS looks are spent, or there is room for
   fewer than AB_MORE_MIN processes. */
static void ab_gate(chrono_program *p, ab_state *st, int ac, char **av, int first, double budget_s)
{
    uint64_t t0 = chrono_clock_stop(&p->session.clock);
    double per_proc = 0, t_round;
    size_t i, pending = 0, ran = 0;
    int look, nproc = first;
    for (i = 0; i < st->npairs; i++) pending += (size_t)st->track[i].selected;
    for (look = 1; look <= AB_LOOKS && pending && nproc > 0; look++) {
        t_round = ab_since(p, t0);
        if (look > 1) {   /* a process costs about (AB_START + pending) entries' time: fit what the budget leaves */
            double fit = (budget_s - t_round) / (per_proc * (double)(pending + AB_START) / (double)(ran + AB_START));
            if (fit < nproc) nproc = (int)fit;
            if (nproc < AB_MORE_MIN) break;
        }
        if (ab_round(p, st, ac, av, nproc) < 0) break;
        per_proc = (ab_since(p, t0) - t_round) / nproc;
        for (i = 0, ran = pending, pending = 0; i < st->npairs; i++) {
            if (!st->track[i].selected || st->track[i].decided) continue;
            ab_look(st, i, look, p->session.cfg.confidence);
            pending += (size_t)!st->track[i].decided;
        }
        st->looks = look;
        st->nprocs += nproc;
        nproc = st->nprocs + st->nprocs > AB_TRACK_MAX ? AB_TRACK_MAX - st->nprocs : st->nprocs;   /* double */
    }
    st->seconds = ab_since(p, t0);
}

/* The tracks, and which pairs --filter selects; 0 or CHRONO_ENOMEM. */
static int ab_tracks(chrono_program *p, ab_state *st)
{
    char name[2 * CHRONO_NAME_MAX + 8];
    size_t i, cap = AB_TRACK_MAX;
    st->track = (ab_track *)calloc(st->npairs + 1, sizeof *st->track);
    st->sets = (chrono_processes *)calloc(AB_LOOKS, sizeof *st->sets);
    if (!st->track || !st->sets) return CHRONO_ENOMEM;
    for (i = 0; i < st->npairs; i++) {
        st->track[i].selected = chrono_cli_want(&p->cli, chrono_entry_name(name, sizeof name, &st->pairs[i]));
        st->track[i].cap = cap;
        if (!(st->track[i].got = (const chrono_comparison **)calloc(cap, sizeof *st->track[i].got))) return CHRONO_ENOMEM;
    }
    return 0;
}

static void ab_help(void)
{
    printf("\nchronoscope-ab BASE.so HEAD.so [flags]: two builds of a benchmark module (CHRONO_MODULE, program.h),\n"
           "the base first, loaded side by side; each entry found in both is compared interleaved (A = base,\n"
           "B = head) in fresh processes, in looks: every entry in --processes processes (default %d), then the\n"
           "entries still inconclusive in as many again (doubling, up to %d looks, within --budget-s).  Each look\n"
           "pools the processes' ratios (their median, its sign-test interval at the level alpha spending\n"
           "leaves the look) and applies the rule, on head/base and its interval:\n"
           "  slower        the interval lies entirely above 1 and head/base is above 1 + threshold/2\n"
           "  faster        the interval lies entirely below 1 and head/base is below 1 - threshold/2\n"
           "  no clear difference  the interval lies within 1 +- threshold\n"
           "  inconclusive  otherwise (no interval at the level, or one holding 1 and reaching beyond 1 +- threshold)\n"
           "Each process loads each module --copies times (default %d), from copies in a temporary directory\n"
           "($TMPDIR or /tmp, removed after the run), and a pair's sides turn among them sample by sample.\n"
           "Exit status: 1 when an entry is slower (or failed), 0 otherwise, 2 on bad input (a missing file,\n"
           "a file that is not a module, a module of another header version, no entry in common).\n",
           AB_PROCESSES, AB_LOOKS, AB_COPIES);
}

static void ab_free(ab_state *st)
{
    size_t k;
    int r;
    for (k = 0; k < 2; k++) free(st->units[k]);
    for (k = 0; st->track && k < st->npairs; k++) free((void *)st->track[k].got);
    for (r = 0; st->sets && r < st->nsets; r++) chrono_processes_free(&st->sets[r]);
    free(st->pairs); free(st->names); free(st->cells); free(st->rows); free(st->track); free(st->sets); free(st->rot);
}

/* A child of the gate's rounds: only the pairs of --only=LIST (indices), in place. */
static int ab_only(ab_state *st, const char *list)
{
    size_t n = 0, i;
    char *end;
    while (*list) {
        unsigned long v = strtoul(list, &end, 10);
        if (end == list || v >= st->npairs || (*end && *end != ',')) return -1;
        for (i = 0; i < n && st->pairs[i].name != st->pairs[v].name; i++) {}
        if (i == n) { chrono_entry e = st->pairs[v]; st->pairs[v] = st->pairs[n]; st->pairs[n++] = e; }
        list = *end ? end + 1 : end;
    }
    st->npairs = n;
    return 0;
}

/* Every round's processes pooled into the session (its report: each pair's
   comparison over all that ran it, at the confidence asked), and the
   "processes" table; tb freed by the caller after the end. */
static void ab_pool_report(chrono_program *p, ab_state *st, chrono_table_builder *tb)
{
    chrono_processes all;
    size_t i;
    int r, n = 0, failed = 0;
    for (r = 0; r < st->nsets; r++) { n += st->sets[r].n; failed += st->sets[r].failed; }
    memset(&all, 0, sizeof all);
    if (!(all.procs = (chrono_process *)malloc(((size_t)n + 1) * sizeof *all.procs))) return;
    for (r = 0; r < st->nsets; r++) {
        memcpy(all.procs + all.n, st->sets[r].procs, (size_t)st->sets[r].n * sizeof *all.procs);
        all.n += st->sets[r].n;
    }
    all.failed = failed;
    for (i = 0; i < st->npairs; i++)
        if (st->track[i].k && chrono_processes_pool_entry(&all, &p->session, &st->pairs[i], NULL) < 0) p->failed++;
    if (chrono_processes_table(&all, p->cfg.seed, tb) == 0) (void)chrono_program_table(p, &tb->table);
    if (failed || p->failed) p->status = p->status ? p->status : 1;
    free(all.procs);   /* a view: the rounds own their processes */
}

/* The parent's gate: the rounds, the pooled report, the "ab" table; how many
   entries are slower. */
static size_t ab_parent(chrono_program *p, ab_state *st, int ac, char **av, double budget_s, chrono_table_builder *tb)
{
    size_t i, n = 0, slower;
    int first = p->cli.processes ? (p->cli.processes < AB_TRACK_MAX ? p->cli.processes : AB_TRACK_MAX) : AB_PROCESSES;
    const char *filter = p->cli.filter;
    if (ab_tracks(p, st) < 0) { fprintf(stderr, "%s: out of memory\n", p->cli.prog); p->status = 2; return 0; }
    for (i = 0; i < st->npairs; i++) n += (size_t)st->track[i].selected;
    if (!n) {
        fprintf(stderr, "%s: --filter '%s' selects no entry the two modules have in common (--list shows them)\n",
                p->cli.prog, filter ? filter : "");
        p->status = 2;
        return 0;
    }
    if (budget_s <= 0) budget_s = n > 5 ? (double)n : 5;   /* a second an entry, 5 s at least */
    ab_gate(p, st, ac, av, first, budget_s);
    ab_pool_report(p, st, tb);
    slower = ab_verdicts(p, st, st->threshold);
    chrono_program_note(p, "gate: %d look%s, %d processes (%d at the first, doubled at each look for the entries "
                        "still undecided; each with %d placement%s of each module, --copies), %.1f s for %zu entries "
                        "(--budget-s=%g)", st->looks, st->looks == 1 ? "" : "s", st->nprocs, first, st->copies,
                        st->copies == 1 ? "" : "s", st->seconds, n, budget_s);
    p->cli.filter = NULL;   /* applied here, pair by pair: the end's check of --filter is for chrono_program_run */
    return slower;
}

/* "BASE.so HEAD.so [flags]": the two first arguments become --base / --head
   (also how the children get them), the gate's per-process settings before
   the user's flags, which win (many short processes cover more placements
   than few long ones; a child's argv repeats them, harmlessly).  av has room
   for argc + 6; how many are in it (NULL: 0). */
static int ab_argv(int argc, char **argv, char **av)
{
    static const char *const defaults[] = { "--samples=31", "--warmup-ms=5", "--max-ms=300" };
    int ac = 0, i = 1, k;
    if (!av) return 0;
    av[ac++] = argv[0];
    if (argc > 1 && argv[1][0] != '-') { av[ac++] = (char *)"--base"; av[ac++] = argv[i++]; }
    if (i == 2 && argc > 2 && argv[2][0] != '-') { av[ac++] = (char *)"--head"; av[ac++] = argv[i++]; }
    for (k = 0; k < 3; k++) av[ac++] = (char *)defaults[k];
    for (; i < argc; i++) av[ac++] = argv[i];
    av[ac] = NULL;
    return ac;
}

/* Each copy of each side of the pairs this process runs called once, before
   the engine sizes its batches: a copy's first call pays its page faults
   (memcpy/64KiB's untouched buffer), and the engine, seeing a first batch 4x
   past its target, kept batches of one call (1.5 us samples, each from a
   cold cache: identical code read 0.96-0.99 and was called faster). */
static void ab_prime(chrono_program *p, const ab_state *st)
{
    char name[2 * CHRONO_NAME_MAX + 8];
    size_t i;
    unsigned c;
    int k;
    for (i = 0; st->rot && i < st->npairs; i++) {
        if (!chrono_cli_want(&p->cli, chrono_entry_name(name, sizeof name, &st->pairs[i]))) continue;
        for (k = 0; k < 2; k++) {
            const ab_rot *r = (const ab_rot *)(k ? st->pairs[i].ctx_b : st->pairs[i].ctx);
            for (c = 0; c < r->n; c++) r->fn[c](r->ctx[c], 1);
        }
    }
}

/* At --processes=1: how many turns each copy had, each side of the first pair that ran. */
static void ab_turns(const chrono_program *p, const ab_state *st)
{
    size_t i = 0;
    int k;
    unsigned c;
    while (i < st->npairs && !st->rot[i][0].calls[0]) i++;
    for (k = 0; k < 2 && i < st->npairs; k++) {
        char line[AB_COPIES_MAX * 24];
        size_t len = 0;
        for (c = 0; c < st->rot[i][k].n; c++)
            len += (size_t)snprintf(line + len, sizeof line - len, "%s%lu", c ? " " : "", st->rot[i][k].calls[c]);
        chrono_program_note(p, "placement: %s's turns a copy, %s: %s", st->side[k].role, st->names[i][k] + 5, line);
    }
}

/* A child of a round, --list, or --processes=1 (once, here): the program's
   own run; else the gate.  How many entries are slower. */
static size_t ab_run(chrono_program *p, ab_state *st, int ac, char **av, double budget_s, chrono_table_builder *tb)
{
    if (!chrono_program_child(p) && !p->cli.list && p->cli.processes != 1) return ab_parent(p, st, ac, av, budget_s, tb);
    if (!p->cli.list) ab_prime(p, st);
    (void)chrono_program_run(p, st->pairs, st->npairs);
    if (st->rot && !chrono_program_child(p)) ab_turns(p, st);
    return !chrono_program_child(p) && !p->cli.list && p->status != 2 ? ab_verdicts(p, st, st->threshold) : 0;
}

int main(int argc, char **argv)
{
    static const char *base = NULL, *head = NULL, *only = NULL, *copy_dir = NULL;
    double threshold_pct = 2.0, budget_s = 0;
    int copies = AB_COPIES;
    const chrono_cli_flag flags[] = {
        { "--base", CHRONO_CLI_STRING, &base, 0, 0, "the base build's module (or the first argument)" },
        { "--head", CHRONO_CLI_STRING, &head, 0, 0, "the head build's module (or the second argument)" },
        { "--threshold", CHRONO_CLI_DOUBLE, &threshold_pct, 0, 1000,
          "percent: slower needs the interval above 1 and head/base above 1 + half of it (default 2)" },
        { "--budget-s", CHRONO_CLI_DOUBLE, &budget_s, 0, 1e6,
          "seconds the gate may spend on looks after the first (default: 1 a compared entry, 5 at least)" },
        { "--copies", CHRONO_CLI_INT, &copies, 1, AB_COPIES_MAX,
          "each module loaded this many times a process, from copies at other paths (default 4; 1: once)" },
        { "--only", CHRONO_CLI_STRING, &only, 0, 0, "the gate's own rounds: the pairs (by index, 0,3,...) a child runs" },
        { "--copy-dir", CHRONO_CLI_STRING, &copy_dir, 0, 0, "the gate's own rounds: where the placement copies are" },
    };
    chrono_table_builder tb;
    char **av = (char **)malloc(((size_t)argc + 6) * sizeof *av);
    chrono_program p;
    ab_state st;
    int ac = ab_argv(argc, argv, av), rc, status;
    size_t slower = 0;
    if (!av) return 2;
    memset(&st, 0, sizeof st);
    memset(&tb, 0, sizeof tb);
    rc = chrono_program_begin(&p, ac, av, flags, sizeof flags / sizeof flags[0]);
    if (rc != 1) {
        if (rc == 0 && p.cli.help) ab_help();
        status = chrono_program_end(&p);
        free(av);
        return status;
    }
    st.threshold = threshold_pct / 100;
    st.copies = copies;
    st.copy_dir = copy_dir;
    st.side[0].role = "base"; st.side[0].path = base;
    st.side[1].role = "head"; st.side[1].path = head;
    if (!base || !head) {
        fprintf(stderr, "%s: two modules are needed: %s BASE.so HEAD.so [flags] (--help)\n", p.cli.prog, p.cli.prog);
        p.status = 2;
    } else if (ab_load(p.cli.prog, &st.side[0]) || ab_load(p.cli.prog, &st.side[1])) {
        p.status = 2;
    } else if (ab_pair(&st) < 0) {
        fprintf(stderr, "%s: out of memory\n", p.cli.prog);
        p.status = 2;
    } else if (!st.npairs) {
        fprintf(stderr, "%s: '%s' (%zu entries) and '%s' (%zu entries) have no entry in common\n", p.cli.prog,
                base, st.side[0].n, head, st.side[1].n);
        p.status = 2;
    }
    if (p.status != 2 && !p.cli.list) p.status = ab_placements(&p, &st) ? 2 : p.status;
    if (p.status != 2 && only && ab_only(&st, only) < 0) {
        fprintf(stderr, "%s: --only=%s: not a list of pair indices below %zu\n", p.cli.prog, only, st.npairs);
        p.status = 2;
    }
    if (p.status != 2) slower = ab_run(&p, &st, ac, av, budget_s, &tb);
    status = chrono_program_end(&p);
    chrono_tmp_remove(&ab_tmp);   /* the placement copies (also on a signal: ab_on_signal) */
    chrono_table_free(&tb);
    if (status == 0 && slower) status = 1;
    ab_free(&st);
    free(av);
    /* the modules stay loaded: the session's names pointed into them until the end */
    return status;
}
