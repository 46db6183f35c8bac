/* test_threads — multithreaded runs (threads.h, public API only).

   Correctness: every thread runs every call (a shared atomic counter ends at
   a multiple of the thread count), the figures hang together (the slowest
   thread's median at least the threads', the throughput its inverse times
   the threads), bad arguments are refused, more threads than CPUs run with
   CHRONO_WARN_OVERSUBSCRIBED, and every report format carries the threads.

   Timing (native only, 2 CPUs or more): a body incrementing a counter of
   its own keeps its time per increment with 2 threads; one incrementing a
   shared atomic becomes slower per increment.  Measured side by side in one
   session: rounds of the four runs (private and shared, 1 and 2 threads),
   each ratio the median over the rounds.  The bars are 10% for the private
   body and 2x for the shared one; on a shared 2-vCPU machine loaded by other
   work a run's figure can move by more than 10%, so what is asserted is the
   contrast, which that noise cannot close: the shared body's slowdown at
   least twice the private body's, and the private body's within 1.5x.  Up
   to three looks; each look's figures are printed.  It needs two CPUs free
   of other work: a miss while other work took a quarter of a CPU or more is
   a skip naming that load (tap_ok_quiet). */
#include <chronoscope.h>
#include "tap.h"

static unsigned long counter;

/* One body for both: ctx NULL increments a counter on the thread's own stack,
   else the shared atomic counter ctx points to. */
static void body(void *ctx, uint64_t iters)
{
    volatile unsigned long *shared = (volatile unsigned long *)ctx;
    uint64_t i, n = 0;
    if (!shared) {
        for (i = 0; i < iters; i++) { n++; chrono_keep(n); }
        return;
    }
    for (i = 0; i < iters; i++) (void)chrono_atomic_add(shared, 1);
}

static double median3(double a, double b, double c)
{
    if (a > b) { double t = a; a = b; b = t; }
    if (b > c) b = c;
    return a > b ? a : b;
}

static chrono_config quick(int samples, double max_ms)
{
    chrono_config c = chrono_config_default();
    c.samples = samples;
    c.max_ms = max_ms;
    c.warmup_ms = 5;
    if (tap_emulated()) c.cycles = CHRONO_CYCLES_OFF;
    return c;
}

static void test_figures(void)
{
    chrono_config cfg = quick(21, 200);
    chrono_session s;
    chrono_result r;
    int rc;
    if (chrono_session_open(&s, &cfg) < 0) { tap_ok(0, "session"); return; }
    counter = 0;
    rc = chrono_run_threads(&s, "shared", body, &counter, 2, &r);
    tap_ok(rc == 0 && r.threads == 2 && r.samples > 0 && counter > 0 && counter % 2 == 0,
           "2 threads: rc %d, threads %d, %zu samples, the shared counter %lu a multiple of 2", rc, r.threads, r.samples,
           counter);
    tap_ok(rc == 0 && r.thread_slowest_ns >= r.ns.median * (1 - 1e-12) && r.ns.ci_low <= r.ns.median &&
               r.ns.median <= r.ns.ci_high,
           "the slowest thread (%.3f ns) at least the threads' median (%.3f ns [%.3f, %.3f])", r.thread_slowest_ns,
           r.ns.median, r.ns.ci_low, r.ns.ci_high);
    tap_ok(rc == 0 && fabs(r.threads_per_second * r.thread_slowest_ns / 2e9 - 1) < 1e-9,
           "throughput: 2 threads / the slowest's time (%.4g/s)", r.threads_per_second);
    tap_ok(rc == 0 && s.nresults == 1 && s.results[0].threads == 2 && !strcmp(s.results[0].name, "shared") &&
               s.results[0].sample_ns == NULL,
           "kept in the session, without samples of the engine's wall time");
    tap_ok(chrono_run_threads(&s, "x", body, &counter, 0, NULL) == CHRONO_ERANGE &&
               chrono_run_threads(&s, "x", body, &counter, CHRONO_THREADS_MAX + 1, NULL) == CHRONO_ERANGE &&
               chrono_run_threads(&s, "x", NULL, &counter, 2, NULL) == CHRONO_EINVAL &&
               chrono_run_threads(&s, "", body, &counter, 2, NULL) == CHRONO_EINVAL &&
               chrono_run_threads(NULL, "x", body, &counter, 2, NULL) == CHRONO_EINVAL,
           "0 or too many threads, no body, no name, no session: refused");
    chrono_session_close(&s);
}

static void test_oversubscribed(void)
{
    chrono_config cfg = quick(11, 100);
    chrono_session s;
    chrono_result r;
    int cpus = chrono_cpu_count(), rc;
    if (cpus < 1 || cpus + 1 > CHRONO_THREADS_MAX) { tap_skip("oversubscribed: CPU count unknown or too large"); return; }
    if (chrono_session_open(&s, &cfg) < 0) { tap_ok(0, "session"); return; }
    counter = 0;
    rc = chrono_run_threads(&s, "over", body, &counter, cpus + 1, &r);
    tap_ok(rc == 0 && r.threads == cpus + 1 && (r.warnings & CHRONO_WARN_OVERSUBSCRIBED) &&
               (s.warnings & CHRONO_WARN_OVERSUBSCRIBED) && counter % (unsigned long)(cpus + 1) == 0,
           "%d threads on %d CPUs: runs (rc %d), warns OVERSUBSCRIBED", cpus + 1, cpus, rc);
    chrono_session_close(&s);
}

/* The report in fmt into a string (static storage). */
static const char *report(const chrono_session *s, chrono_format fmt)
{
    static char buf[1 << 16];
    FILE *f = tmpfile();
    size_t n = 0;
    buf[0] = '\0';
    if (!f) return buf;
    if (fmt == CHRONO_FORMAT_HTML ? chrono_report_html(s, f, NULL) == 0 : chrono_report(s, f, fmt) == 0) {
        rewind(f);
        n = fread(buf, 1, sizeof buf - 1, f);
    }
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void test_formats(void)
{
    chrono_config cfg = quick(11, 100);
    chrono_session s;
    const char *t;
    if (chrono_session_open(&s, &cfg) < 0 || chrono_run_threads(&s, "two", body, NULL, 2, NULL) < 0) {
        tap_ok(0, "session and run");
        return;
    }
    t = report(&s, CHRONO_FORMAT_TEXT);
    tap_ok(strstr(t, "2 threads: slowest ") && strstr(t, "/s together"), "text: '2 threads: slowest ..., .../s together'");
    t = report(&s, CHRONO_FORMAT_MARKDOWN);
    tap_ok(strstr(t, "2 threads: slowest ") != NULL, "markdown: the same in the row");
    t = report(&s, CHRONO_FORMAT_CSV);
    tap_ok(strstr(t, ",threads,slowest_thread_ns,iterations_per_second_all_threads,") != NULL, "csv: the columns");
    t = report(&s, CHRONO_FORMAT_JSON);
    tap_ok(strstr(t, "\"threads\": 2,") && strstr(t, "\"slowest_thread_ns\": ") &&
               strstr(t, "\"iterations_per_second_all_threads\": "),
           "json: threads 2, slowest_thread_ns, iterations_per_second_all_threads");
    t = report(&s, CHRONO_FORMAT_HTML);
    tap_ok(strstr(t, "2 threads: slowest ") != NULL, "html: the threads in the summary and the run");
    chrono_session_close(&s);
}

/* One look: `rounds` rounds of the four runs; the private and shared ratios
   (2 threads over 1), each the median over the rounds. */
static int look(double *priv, double *shared)
{
    chrono_config cfg = quick(51, 250);
    chrono_session s;
    chrono_result r[4];
    double pr[3], sr[3];
    int k, i;
    if (chrono_session_open(&s, &cfg) < 0) return -1;
    for (k = 0; k < 3; k++) {
        if (chrono_run_threads(&s, "private/1", body, NULL, 1, &r[0]) < 0 ||
            chrono_run_threads(&s, "private/2", body, NULL, 2, &r[1]) < 0 ||
            chrono_run_threads(&s, "shared/1", body, &counter, 1, &r[2]) < 0 ||
            chrono_run_threads(&s, "shared/2", body, &counter, 2, &r[3]) < 0) {
            chrono_session_close(&s);
            return -1;
        }
        pr[k] = r[1].ns.median / r[0].ns.median;
        sr[k] = r[3].ns.median / r[2].ns.median;
        for (i = 0; i < 4; i++) tap_diag("round %d %-9s %8.3f ns a thread, slowest %8.3f ns", k + 1, r[i].name,
                                         r[i].ns.median, r[i].thread_slowest_ns);
    }
    *priv = median3(pr[0], pr[1], pr[2]);
    *shared = median3(sr[0], sr[1], sr[2]);
    chrono_session_close(&s);
    return 0;
}

static void test_contrast(void)
{
    double priv = NAN, shared = NAN;
    int tries, pass = 0;
    tap_load load;
    if (tap_emulated()) { tap_skip("contrast: emulated (CHRONO_TEST_EMULATED=1): timings are the emulator's"); return; }
    if (chrono_cpu_count() < 2) { tap_skip("contrast: fewer than 2 CPUs"); return; }
    for (tries = 1; tries <= 3 && !pass; tries++) {
        tap_load_start(&load);
        if (look(&priv, &shared) < 0) break;
        pass = shared >= 2.0 * priv && priv <= 1.5;
        tap_diag("look %d: private 2/1 threads %.3fx (bar: within 10%%), shared 2/1 threads %.3fx (bar: 2x), contrast %.2f",
                 tries, priv, shared, shared / priv);
    }
    /* Two threads contend for the atomic only while both run at once: with
       other work on the other CPU they take turns, and the shared body's
       slowdown fades (issue 31: 3 of 32 suite runs at load 2-3).  A miss
       while the last look shared the CPUs is a skip that says so. */
    tap_ok_quiet(pass, &load, "2 threads against 1: shared atomic %.2fx slower a thread, private counter %.3fx: contrast %.2f >= 2",
           shared, priv, shared / priv);
}

int main(void)
{
    test_figures();
    test_oversubscribed();
    test_formats();
    test_contrast();
    return tap_done();
}
