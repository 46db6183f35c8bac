/* test_product — products of parameter lists (program.h, chrono_product_entry
   + chrono_with_args): {64, 4096} x {1, 8} names four points NAME/64/1 ..
   NAME/4096/8, the last list fastest; with chrono_with_fit(e, 0) the first
   list varies fastest and each slice is named with '*'; malformed products
   are refused (chrono_entry_ok); entry.h's interface names the points. */
#include <chronoscope.h>
#include "tap.h"

static void body(void *ctx, const uint64_t *a, uint64_t iters) { (void)ctx; (void)a; (void)iters; }
static void run_body(void *ctx, uint64_t iters) { (void)ctx; (void)iters; }

static const char *names(const chrono_entry *e, int star)
{
    static char out[256];
    size_t j, n = chrono_entry_points(e);
    char one[CHRONO_NAME_MAX];
    out[0] = '\0';
    for (j = 0; j < n; j++) {
        if (j) strcat(out, " ");
        strcat(out, chrono_entry_point_name(one, sizeof one, e, j, star));
    }
    return out;
}

/* A fitted product run by chrono_entry_run: each slice's sweep runs its
   points at that slice's values of the other lists (list 1 here). */
typedef struct seen { unsigned calls, wrong; uint64_t want; } seen;

static void record(void *ctx, const uint64_t *a, uint64_t iters)
{
    seen *w = (seen *)ctx;
    uint64_t i;
    w->calls++;
    if (a[1] != w->want) w->wrong++;
    for (i = 0; i < iters; i++) chrono_clobber();
}

static int only_nine(void *ctx, const char *name)
{
    (void)ctx;
    return strlen(name) > 2 && !strcmp(name + strlen(name) - 2, "/9");
}

static void test_fit_runs(void)
{
    static const uint64_t x[4] = { 1, 2, 4, 8 }, k[2] = { 7, 9 };
    chrono_config cfg = chrono_config_default();
    chrono_session s;
    chrono_entry_hooks h;
    seen w = { 0, 0, 9 };
    chrono_entry e = chrono_with_fit(chrono_with_args(chrono_with_args(chrono_product_entry("p", record, &w), x, 4), k, 2), 0);
    int rc;
    cfg.samples = 5; cfg.max_ms = 20; cfg.warmup_ms = 1; cfg.cpu = -1;
    if (chrono_session_open(&s, &cfg) < 0) { tap_skip("no session (fitted product run)"); tap_skip("-"); return; }
    memset(&h, 0, sizeof h);
    h.want = only_nine;
    rc = chrono_entry_run(&s, &e, &h);
    tap_ok(rc == 0 && s.nsweeps == 1 && !strcmp(s.sweeps[0].name, "p/*/9") && s.nresults == 4 &&
           !strcmp(s.results[0].name, "p/1/9") && !strcmp(s.results[3].name, "p/8/9"),
           "a fitted slice run: one sweep p/*/9 of four points p/1/9 .. p/8/9 (rc %d, %zu results)", rc, s.nresults);
    tap_ok(w.calls > 0 && w.wrong == 0, "its points ran at list 1's value of the slice, 9 (%u of %u calls not)", w.wrong, w.calls);
    chrono_session_close(&s);
}

int main(void)
{
    static const uint64_t a[2] = { 64, 4096 }, b[2] = { 1, 8 }, same[2] = { 5, 5 };
    chrono_entry e = chrono_with_args(chrono_with_args(chrono_product_entry("name", body, NULL), a, 2), b, 2), f, bad;
    const char *got = names(&e, 0);
    tap_ok(!strcmp(got, "name/64/1 name/64/8 name/4096/1 name/4096/8"), "{64, 4096} x {1, 8}: four points, the last list fastest (%s)", got);
    tap_ok(chrono_entry_ok(&e) && chrono_entry_makes(&e, "name/4096/8") && !chrono_entry_makes(&e, "name/8/4096"),
           "well formed; it makes name/4096/8, not name/8/4096");
    f = chrono_with_fit(e, 0);
    got = names(&f, 0);
    tap_ok(!strcmp(got, "name/64/1 name/4096/1 name/64/8 name/4096/8"), "fitted along list 0: that list fastest (%s)", got);
    got = names(&f, 1);
    tap_ok(!strcmp(got, "name/*/1 name/*/1 name/*/8 name/*/8"), "its slices named with '*' (%s)", got);
    bad = chrono_with_fit(chrono_with_args(chrono_product_entry("x", body, NULL), same, 2), 0);
    tap_ok(!chrono_entry_ok(&bad), "a fit along equal values: malformed");
    bad = chrono_product_entry("x", body, NULL);
    tap_ok(!chrono_entry_ok(&bad), "no list: malformed");
    bad = chrono_with_args(chrono_with_args(chrono_with_args(chrono_with_args(chrono_with_args(e, a, 2), a, 2), a, 2), a, 2), a, 2);
    tap_ok(!chrono_entry_ok(&bad), "more than CHRONO_ARGS_MAX lists: malformed");
    bad = chrono_with_args(chrono_product_entry("x", NULL, NULL), a, 2);
    tap_ok(!chrono_entry_ok(&bad), "no body: malformed");
    tap_ok(chrono_entry_width(&e) == 13 && chrono_entry_width(NULL) == 0,
           "name column: name/4096/8 and 2 (13, %d)", chrono_entry_width(&e));
    {
        chrono_entry_hooks h;
        chrono_entry r = chrono_bench("x/9", run_body, NULL);
        memset(&h, 0, sizeof h);
        h.want = only_nine;
        tap_ok(!chrono_entry_wants(&e, &h) && chrono_entry_wants(&f, NULL) && !chrono_entry_wants(&bad, NULL) &&
               chrono_entry_wants(&r, &h), "chrono_entry_wants: no point of name/a/b ends in /9, a run named x/9 does; "
               "no want hook takes all; a malformed entry none");
    }
    test_fit_runs();
    return tap_done();
}
