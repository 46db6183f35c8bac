/* test_program — program.h as a user meets it: a table of entries and the
   common flags.  --list names and runs nothing, --filter runs only the
   matching entries, an unknown flag exits 2, --out writes the file while the
   console keeps the text report, an unwritable --out exits 2 before anything
   runs, a failing entry exits 1 naming it, and a blocking entry keeps its
   samples.  Each program's stdout and stderr go to files that are read back. */
#include <chronoscope.h>
#include "tap.h"
#if defined(__linux__) || defined(__unix__) || defined(__APPLE__)
#  include <unistd.h>
#  include <time.h>
#  define TP_POSIX 1
#else
#  define TP_POSIX 0
#endif

static char out_text[65536], err_text[65536];

CHRONO__UNUSED static void adds(void *ctx, uint64_t iters)
{
    unsigned *calls = (unsigned *)ctx;
    uint64_t i, x = 1;
    ++*calls;
    for (i = 0; i < iters * 8; i++) { x = x * 3 + 1; chrono_keep(x); }
}

#if TP_POSIX
static void nap(void *ctx, uint64_t iters)
{
    struct timespec ts = { 0, 50000 };
    uint64_t i;
    (void)ctx;
    for (i = 0; i < iters; i++) nanosleep(&ts, NULL);
}
#endif

CHRONO__UNUSED static void slurp(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "rb");
    size_t got = f ? fread(buf, 1, n - 1, f) : 0;
    buf[got] = '\0';
    if (f) fclose(f);
}

/* chrono_main on argv with stdout and stderr captured; the exit status. */
CHRONO__UNUSED static int run_main(const char *const *args, const chrono_entry *e, size_t n)
{
    char *argv[16];
    int argc = 0, rc;
    FILE *o, *r;
    argv[argc++] = (char *)"test_program";
    while (args && args[argc - 1] && argc < 15) { argv[argc] = (char *)args[argc - 1]; argc++; }
    argv[argc] = NULL;
    fflush(stdout);
    fflush(stderr);
#if TP_POSIX
    {
        int so = dup(1), se = dup(2);
        o = freopen("test_program.stdout", "w", stdout);
        r = freopen("test_program.stderr", "w", stderr);
        rc = chrono_main(argc, argv, e, n);
        fflush(stdout);
        fflush(stderr);
        dup2(so, 1); dup2(se, 2);
        close(so); close(se);
        (void)o; (void)r;
    }
#else
    (void)o; (void)r;
    rc = chrono_main(argc, argv, e, n);
#endif
    slurp("test_program.stdout", out_text, sizeof out_text);
    slurp("test_program.stderr", err_text, sizeof err_text);
    return rc;
}

int main(void)
{
    static unsigned ca, cb, cg;
    chrono_entry t[3];
    int rc;
#if !TP_POSIX
    /* the checks read what chrono_main printed, captured with dup/dup2 */
    (void)ca; (void)cb; (void)cg; (void)t; (void)rc;
    tap_skip("program.h's console and exit checks capture stdout and stderr with dup2: POSIX only");
    return tap_done();
#else
    t[0] = chrono_with_bytes(chrono_bench("alpha", adds, &ca), 64);
    t[1] = chrono_bench("beta", adds, &cb);
    t[2] = chrono_versus("gamma", adds, &cg, "delta", adds, &cg);

    {
        const char *a[] = { "--list", NULL };
        rc = run_main(a, t, 3);
        tap_ok(rc == 0 && ca == 0 && cb == 0, "--list: exit 0 and no body ran (rc %d, %u + %u calls)", rc, ca, cb);
        tap_ok(strstr(out_text, "alpha") && strstr(out_text, "beta") && strstr(out_text, "gamma vs delta"),
               "--list: every name printed, the comparison as 'a vs b'");
        tap_ok(cg == 0, "--list: the comparison did not run either");
    }
    {
        const char *a[] = { "--bogus-flag", NULL };
        rc = run_main(a, t, 3);
        tap_ok(rc == 2 && ca == 0 && strstr(err_text, "--bogus-flag"), "unknown flag: exit 2 naming it, nothing ran (rc %d)", rc);
    }
    {
        const char *a[] = { "--quick", "--out=/nonexistent-dir/x/f.json", NULL };
        rc = run_main(a, t, 3);
        tap_ok(rc == 2 && ca == 0 && cb == 0 && strstr(err_text, "/nonexistent-dir/x/f.json"),
               "unwritable --out: exit 2 naming the path before any body ran (rc %d)", rc);
    }
    if (tap_emulated()) {
        tap_skip("the runs below time real bodies: emulated here");
        return tap_done();
    }
    {
        const char *a[] = { "--quick", "--filter=beta", NULL };
        rc = run_main(a, t, 3);
        tap_ok(rc == 0 && ca == 0 && cg == 0 && cb > 0, "--filter=beta: only beta ran (rc %d, alpha %u, beta %u, gamma/delta %u)",
               rc, ca, cb, cg);
        tap_ok(strstr(out_text, "beta") != NULL && strstr(out_text, "alpha ") == NULL, "--filter=beta: no 'alpha' row");
    }
    {
        chrono_entry one = chrono_with_bytes(chrono_bench("alpha", adds, &ca), 64);
        const char *a[] = { "--quick", "--out=test_program.json", NULL };
        char json[65536];
        rc = run_main(a, &one, 1);
        slurp("test_program.json", json, sizeof json);
        tap_ok(rc == 0 && strstr(out_text, "alpha") && json[0] == '{' && strstr(json, "\"benchmarks\"") &&
               strstr(json, "\"bytes_per_second\""), "--out=f.json: the JSON in the file (with bytes_per_second), the text on stdout (rc %d)", rc);
        tap_ok(strstr(out_text, "\"benchmarks\"") == NULL, "--out=f.json: no JSON on stdout");
        remove("test_program.json");
    }
#if TP_POSIX
    {
        chrono_entry e[2];
        const char *a[] = { "--quick", NULL };
        e[0] = chrono_bench("broken", NULL, NULL);   /* no body: the entry fails */
        e[1] = chrono_bench("alpha", adds, &ca);
        ca = 0;
        rc = run_main(a, e, 2);
        tap_ok(rc == 1 && strstr(err_text, "broken") && ca > 0,
               "a failing entry (no body): exit 1, named on stderr, the others still run (rc %d)", rc);
        e[0] = chrono_with_budget(chrono_bench("sleeper", nap, NULL), 100);
        rc = run_main(a, e, 1);
        tap_ok(rc == 0 && strstr(out_text, "sleeper !"),
               "a body that blocks, not marked so: every sample switched out, kept as INTERRUPTED and marked (rc %d)", rc);
        e[0] = chrono_with_blocking(e[0]);
        rc = run_main(a, e, 1);
        tap_ok(rc == 0 && strstr(out_text, "sleeper") && !strstr(out_text, "sleeper !"),
               "the same entry with chrono_with_blocking: its samples are kept, unmarked (rc %d)", rc);
    }
#endif
    remove("test_program.stdout");
    remove("test_program.stderr");
    return tap_done();
#endif
}
