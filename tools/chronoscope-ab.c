/* chronoscope-ab — did this change make the code slower?  Two builds of a
   benchmark module (program.h's CHRONO_MODULE), the base commit's and the
   change's, loaded side by side into one process and compared entry by entry.

       chronoscope-ab BASE.so HEAD.so [flags]

   Each module is loaded with RTLD_LOCAL, so each keeps its own copy of the
   code under test.  Entries are matched by name (an entry of one module only
   is listed, not compared); each pair is compared interleaved, sample by
   sample (chrono_compare: A = base, B = head), in --processes fresh processes
   (default 6, the fewest whose pooled interval reaches 95%), pooled.  Per
   entry the report gives head/base with its interval, the same in estimated
   cycles, and a verdict by one rule (program.h, chrono_change_decide):

       slower        the interval lies entirely above 1 and head/base > 1 + threshold
       faster        the interval lies entirely below 1 and head/base < 1 - threshold
       inconclusive  no interval at the confidence asked, or one reaching beyond 1 +- threshold
       no clear difference   otherwise

   --threshold=PCT sets the threshold (default 2).  Exit status: 1 when an
   entry is slower (or an entry failed), 0 otherwise, 2 on bad input: a file
   that is missing or is not a module, a module built with another header
   version, no entry in common, a bad flag.  Every common flag and format
   works (cli.h); the "ab" table carries the verdicts in each format, and
   --format=bmf writes Bencher's metric format.  A thin client: program.h
   does the runs, the pooling, the reports and the rule. */
#include <chronoscope.h>

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AB_PROCESSES 6      /* default --processes: 6 processes give a 96.9% interval of their median */
#define AB_COLS 7

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
} ab_state;

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
        const chrono_comparison *c = chrono_program_compared(p, st->pairs[i].name);
        chrono_change_verdict v;
        const char *name = st->pairs[i].name + 5;
        if (!c) continue;   /* not selected by --filter, or it failed (said on stderr) */
        (void)chrono_change_decide(c, threshold, p->session.cfg.confidence, &v);
        counts[v.change]++;
        ab_row(st, name, &v, chrono_change_name(v.change), v.why);
    }
    for (k = 0; k < 2; k++)
        for (i = 0; i < st->nunits[k]; i++) {
            const char *name = st->units[k][i].name;
            if (ab_find(st->units[1 - k], st->nunits[1 - k], name) || ab_find(st->units[k], i, name)) continue;
            if (!chrono_cli_want(&p->cli, name)) continue;
            ab_row(st, name, NULL, k ? "only in head" : "only in base", "not compared");
        }
    (void)snprintf(title, sizeof title, "A/B per entry, head/base (slower: the interval entirely above 1 and "
                   "head/base above %.4g, --threshold=%g%%)", 1 + threshold, threshold * 100);
    memset(&t, 0, sizeof t);
    t.key = "ab"; t.title = title; t.ncols = AB_COLS; t.nrows = st->nrows; t.cols = ab_cols; t.cells = st->rows;
    (void)chrono_program_table(p, &t);
    chrono_program_note(p, "%zu compared: %zu slower, %zu faster, %zu no clear difference, %zu inconclusive "
                        "(base %s, head %s)", counts[0] + counts[1] + counts[2] + counts[3],
                        counts[CHRONO_CHANGE_SLOWER], counts[CHRONO_CHANGE_FASTER], counts[CHRONO_CHANGE_NONE],
                        counts[CHRONO_CHANGE_INCONCLUSIVE], st->side[0].path, st->side[1].path);
    return counts[CHRONO_CHANGE_SLOWER];
}

static void ab_help(void)
{
    printf("\nchronoscope-ab BASE.so HEAD.so [flags]: two builds of a benchmark module (CHRONO_MODULE, program.h),\n"
           "the base first, loaded side by side; each entry found in both is compared interleaved (A = base,\n"
           "B = head) in --processes fresh processes (default %d), pooled.\n"
           "The rule, on head/base and its interval:\n"
           "  slower        the interval lies entirely above 1 and head/base is above 1 + threshold\n"
           "  faster        the interval lies entirely below 1 and head/base is below 1 - threshold\n"
           "  inconclusive  no interval at the confidence asked, or one reaching beyond 1 +- threshold\n"
           "  no clear difference  otherwise\n"
           "Exit status: 1 when an entry is slower (or failed), 0 otherwise, 2 on bad input (a missing file,\n"
           "a file that is not a module, a module of another header version, no entry in common).\n", AB_PROCESSES);
}

static void ab_free(ab_state *st)
{
    size_t k;
    for (k = 0; k < 2; k++) free(st->units[k]);
    free(st->pairs); free(st->names); free(st->cells); free(st->rows);
}

int main(int argc, char **argv)
{
    static const char *base = NULL, *head = NULL;
    double threshold_pct = 2.0;
    const chrono_cli_flag flags[] = {
        { "--base", CHRONO_CLI_STRING, &base, 0, 0, "the base build's module (or the first argument)" },
        { "--head", CHRONO_CLI_STRING, &head, 0, 0, "the head build's module (or the second argument)" },
        { "--threshold", CHRONO_CLI_DOUBLE, &threshold_pct, 0, 1000,
          "percent: slower needs head/base above 1 + it, and the interval above 1 (default 2)" },
    };
    char **av = (char **)malloc(((size_t)argc + 3) * sizeof *av);
    chrono_program p;
    ab_state st;
    int ac = 0, i, rc, status;
    size_t slower = 0;
    if (!av) return 2;
    memset(&st, 0, sizeof st);
    av[ac++] = argv[0];
    /* "BASE.so HEAD.so [flags]": the two first arguments become --base / --head,
       which is also how the children of --processes get them */
    i = 1;
    if (argc > 1 && argv[1][0] != '-') { av[ac++] = (char *)"--base"; av[ac++] = argv[i++]; }
    if (i == 2 && argc > 2 && argv[2][0] != '-') { av[ac++] = (char *)"--head"; av[ac++] = argv[i++]; }
    for (; i < argc; i++) av[ac++] = argv[i];
    av[ac] = NULL;
    rc = chrono_program_begin(&p, ac, av, flags, sizeof flags / sizeof flags[0]);
    if (rc != 1) {
        if (rc == 0 && p.cli.help) ab_help();
        status = chrono_program_end(&p);
        free(av);
        return status;
    }
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
    if (p.status != 2) {
        if (p.cli.processes == 0) p.cli.processes = AB_PROCESSES;
        (void)chrono_program_run(&p, st.pairs, st.npairs);
        if (!chrono_program_child(&p) && !p.cli.list && p.status != 2)
            slower = ab_verdicts(&p, &st, threshold_pct / 100);
    }
    status = chrono_program_end(&p);
    if (status == 0 && slower) status = 1;
    ab_free(&st);
    free(av);
    /* the modules stay loaded: the session's names pointed into them until the end */
    return status;
}
