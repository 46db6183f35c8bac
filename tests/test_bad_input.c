/* test_bad_input — every public function of every module (base, clock, cpu,
   stats, bench, report, cli) called with the bad input that applies to it:
   NULL for each pointer, zero / negative / huge counts (SIZE_MAX), NaN,
   infinities and negative doubles, enums out of range, never-opened (zeroed)
   and closed sessions, empty and over-long names, argc 0 and argv holding
   NULL.  Each call must give the exact documented answer (a specific
   CHRONO_E... code, or NULL / NAN / 0 / "unknown"), leave its output in the
   state the header promises, and never crash or abort (only chrono_cli_fail,
   documented to print, writes to stderr here).

   Sessions are kept short (5 samples, 50 ms budget).  The only file it writes
   is test_bad_input.tmp in the working directory, removed at the end. */
#include <chronoscope.h>
#include "tap.h"
#include "same_config.h"
#include <float.h>
#include <limits.h>
#if !defined(_WIN32)
#  include <pthread.h>
#else
#  include <windows.h>   /* a thread of our own: the declarations bring no platform header */
#endif

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const char *const tmp_path = "test_bad_input.tmp";

/* ---- helpers ------------------------------------------------------------ */
static const char *code_name(int rc)
{
    switch (rc) {
    case CHRONO_OK:          return "CHRONO_OK";
    case CHRONO_EINVAL:      return "CHRONO_EINVAL";
    case CHRONO_ENOTSUP:     return "CHRONO_ENOTSUP";
    case CHRONO_ENOMEM:      return "CHRONO_ENOMEM";
    case CHRONO_ECALIBRATE:  return "CHRONO_ECALIBRATE";
    case CHRONO_EPIN:        return "CHRONO_EPIN";
    case CHRONO_ECLOCK:      return "CHRONO_ECLOCK";
    case CHRONO_ENOSAMPLES:  return "CHRONO_ENOSAMPLES";
    case CHRONO_EIO:         return "CHRONO_EIO";
    case CHRONO_ERANGE:      return "CHRONO_ERANGE";
    case CHRONO_EBUSY:       return "CHRONO_EBUSY";
    default:                 return "not a chronoscope code";
    }
}

/* One TAP line: `what` returned `want`. */
static int expect(int got, int want, const char *what)
{
    if (got == want) return tap_ok(1, "%s -> %s", what, code_name(want));
    return tap_ok(0, "%s -> %s (got %d, %s)", what, code_name(want), got, code_name(got));
}

/* Short sessions: 5 samples, 1 ms warmup, 50 ms budget. */
static chrono_config short_config(void)
{
    chrono_config c;
    memset(&c, 0, sizeof c);
    c.samples = 5;
    c.warmup_ms = 1;
    c.min_sample_us = 5;
    c.max_ms = 50;
    /* Arguments are under test, not the cycle estimate: under emulation the
       reference chains reject most samples and would make runs fail. */
    c.cycles = CHRONO_CYCLES_OFF;
    return c;
}

static void body(void *ctx, uint64_t iters)
{
    uint64_t i, x = 0;
    (void)ctx;
    for (i = 0; i < iters; i++) { x += i; chrono_keep(x); }
}

static void sweep_body(void *ctx, uint64_t param, uint64_t iters)
{
    uint64_t i, x = 0;
    (void)ctx;
    for (i = 0; i < iters; i++) { x += i ^ param; chrono_keep(x); }
}

/* A string of n copies of c, in buf (at least n + 1 bytes). */
static const char *repeat(char *buf, size_t n, char c)
{
    memset(buf, c, n);
    buf[n] = '\0';
    return buf;
}

/* The scratch file, empty, for writing and reading back. */
static FILE *scratch(void)
{
    return fopen(tmp_path, "w+b");
}

/* Everything written to f so far, terminated (f stays open). */
static size_t slurp(FILE *f, char *buf, size_t n)
{
    size_t len;
    fflush(f);
    rewind(f);
    len = fread(buf, 1, n - 1, f);
    buf[len] = '\0';
    return len;
}

/* A stream that refuses every write: the scratch file opened read-only. */
static FILE *read_only(void)
{
    FILE *f = fopen(tmp_path, "wb");
    if (!f) return NULL;
    fputs("x", f);
    fclose(f);
    return fopen(tmp_path, "rb");
}

static long stream_size(FILE *f)
{
    fflush(f);
    fseek(f, 0, SEEK_END);
    return ftell(f);
}

/* Case-insensitive strstr for ASCII. */
static const char *find_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle), i;
    for (; *hay; hay++) {
        for (i = 0; i < n; i++) {
            char a = hay[i], b = needle[i];
            if (a >= 'A' && a <= 'Z') a = (char)(a - 'A' + 'a');
            if (b >= 'A' && b <= 'Z') b = (char)(b - 'A' + 'a');
            if (a != b) break;
        }
        if (i == n) return hay;
    }
    return NULL;
}

/* No spelling of NaN or infinity any printf writes ("nan", "-nan", "inf",
   "1.#INF", "1.#IND", "1.#QNAN"). */
static int no_nan_inf(const char *s)
{
    return !find_ci(s, "nan") && !find_ci(s, "inf") && !strstr(s, "#I") && !strstr(s, "#Q");
}

/* Every JSON member value in s is a string, null, true/false, an array, an
   object, or a plain number: no NaN, no infinity, nothing else. */
static int json_values_ok(const char *s)
{
    const char *p = s;
    while ((p = strstr(p, "\": ")) != NULL) {
        p += 3;
        if (*p == '"' || *p == '[' || *p == '{') continue;
        if (!strncmp(p, "null", 4) || !strncmp(p, "true", 4) || !strncmp(p, "false", 5)) continue;
        if (*p == '-' || (*p >= '0' && *p <= '9')) {
            const char *q = p;
            while ((*q >= '0' && *q <= '9') || *q == '-' || *q == '+' || *q == '.' || *q == 'e' || *q == 'E') q++;
            if (*q == ',' || *q == '\n' || *q == '}' || *q == ']' || *q == '\r') continue;
        }
        return 0;
    }
    return 1;
}

/* The line of s holding `key` (copied into line), or "" when none. */
static const char *line_with(const char *s, const char *key, char *line, size_t n)
{
    const char *hit = strstr(s, key), *a, *b;
    size_t len;
    line[0] = '\0';
    if (!hit) return line;
    for (a = hit; a > s && a[-1] != '\n'; a--) {}
    for (b = hit; *b && *b != '\n'; b++) {}
    len = (size_t)(b - a) < n - 1 ? (size_t)(b - a) : n - 1;
    memcpy(line, a, len);
    line[len] = '\0';
    return line;
}

/* CPUs in the calling thread's affinity mask (among the first 64), or -1. */
static int allowed_cpus(void)
{
    int n = chrono_cpu_count(), i, k = 0;
    if (n < 1) return -1;
    for (i = 0; i < n && i < 64; i++)
        if (chrono_cpu_allowed(i) == 1) k++;
    return k;
}

/* A session opened on a simulated clock and closed again. */
static uint64_t closed_ticks;
static uint64_t closed_read(void *ctx) { uint64_t *t = (uint64_t *)ctx; return ++*t; }
static int closed_session(chrono_session *s)
{
    chrono_clock clk;
    chrono_config c = short_config();
    int rc = chrono_clock_open_custom(&clk, "sim", closed_read, &closed_ticks, 1e9);
    c.custom_clock = &clk;
    c.pin = CHRONO_PIN_OFF;
    c.cycles = CHRONO_CYCLES_OFF;
    if (rc == 0) rc = chrono_session_open(s, &c);
    if (rc == 0) chrono_session_close(s);
    return rc;
}

/* ---- base.h --------------------------------------------------------------- */
static void test_base(void)
{
    static const int codes[] = { CHRONO_OK, CHRONO_EINVAL, CHRONO_ENOTSUP, CHRONO_ENOMEM, CHRONO_ECALIBRATE,
                                 CHRONO_EPIN, CHRONO_ECLOCK, CHRONO_ENOSAMPLES, CHRONO_EIO, CHRONO_ERANGE,
                                 CHRONO_EBUSY };
    static const int bad[] = { 1, -12, 100, -100, INT_MIN, INT_MAX };
    const char *unknown = "unknown chronoscope error";
    size_t i, j;
    int ok = 1;
    tap_diag("base.h: chrono_strerror");
    for (i = 0; i < COUNT(bad); i++) ok &= chrono_strerror(bad[i]) && !strcmp(chrono_strerror(bad[i]), unknown);
    tap_ok(ok, "chrono_strerror(1, -12, 100, -100, INT_MIN, INT_MAX) -> \"%s\"", unknown);
    ok = 1;
    for (i = 0; i < COUNT(codes); i++) {
        const char *m = chrono_strerror(codes[i]);
        ok &= m && m[0] && strcmp(m, unknown) != 0;
        for (j = 0; j < i; j++) ok &= strcmp(m, chrono_strerror(codes[j])) != 0;
    }
    tap_ok(ok, "chrono_strerror: each of the 11 codes has its own text, none \"unknown\"");
}

/* ---- clock.h -------------------------------------------------------------- */
static uint64_t frozen_read(void *ctx) { return *(const uint64_t *)ctx; }
static uint64_t backwards_read(void *ctx) { uint64_t *t = (uint64_t *)ctx; *t -= 7; return *t; }
static uint64_t counter_read(void *ctx) { uint64_t *t = (uint64_t *)ctx; return ++*t; }

static void test_clock(void)
{
    static const chrono_clock_source bad_src[] = { (chrono_clock_source)-1, CHRONO_CLOCK_CUSTOM,
                                                   CHRONO_CLOCK_SOURCE_COUNT, (chrono_clock_source)99,
                                                   (chrono_clock_source)INT_MAX, (chrono_clock_source)INT_MIN };
    static const int bad_windows[] = { 0, -1, 17, INT_MIN, INT_MAX };
    static const uint64_t bad_window_ns[] = { 0, 1, 999, UINT64_C(10000000001), UINT64_MAX, (uint64_t)1 << 62 };
    const double bad_hz[] = { 0.0, -0.0, -1.0, -1e9, NAN, -NAN, INFINITY, -INFINITY, 1e12, 1e13, DBL_MAX, -DBL_MAX,
                              DBL_MIN / 4, 4.9e-324 };
    chrono_clock zero, clk, c;
    uint64_t ticks = 1000000000000ull, ctr_ticks = 0;
    double hz = -1, spread = -1;
    size_t i;
    int ok, rc, real;
    char what[160];

    tap_diag("clock.h: chrono_clock_start/stop/ns/ns_u64/available/source_name/hz_method_name/calibrate/open/open_custom");
    memset(&zero, 0, sizeof zero);

    tap_ok(chrono_clock_start(NULL) == 0 && chrono_clock_stop(NULL) == 0, "chrono_clock_start/stop(NULL) -> 0");
    tap_ok(isnan(chrono_clock_ns(NULL, 0)) && isnan(chrono_clock_ns(NULL, UINT64_MAX)), "chrono_clock_ns(NULL, 0 / UINT64_MAX) -> NAN");
    tap_ok(isnan(chrono_clock_ns(&zero, 1000)), "chrono_clock_ns(never-opened zeroed clock) -> NAN");
    tap_ok(chrono_clock_ns_u64(NULL, 1000) == 0 && chrono_clock_ns_u64(NULL, UINT64_MAX) == 0,
           "chrono_clock_ns_u64(NULL, 1000 / UINT64_MAX) -> 0");
    tap_ok(chrono_clock_ns_u64(&zero, 1000) == 0, "chrono_clock_ns_u64(never-opened zeroed clock) -> 0");

    ok = 1;
    for (i = 0; i < COUNT(bad_src); i++) ok &= chrono_clock_available(bad_src[i]) == 0;
    tap_ok(ok, "chrono_clock_available(-1, CUSTOM, SOURCE_COUNT, 99, INT_MAX, INT_MIN) -> 0");
    ok = 1;
    for (i = 0; i < COUNT(bad_src); i++)
        ok &= bad_src[i] == CHRONO_CLOCK_CUSTOM ? !strcmp(chrono_clock_source_name(bad_src[i]), "custom")
                                                : !strcmp(chrono_clock_source_name(bad_src[i]), "unknown");
    tap_ok(ok, "chrono_clock_source_name(-1, SOURCE_COUNT, 99, INT_MAX, INT_MIN) -> \"unknown\"");
    tap_ok(!strcmp(chrono_clock_hz_method_name((chrono_hz_method)-1), "unknown") &&
           !strcmp(chrono_clock_hz_method_name((chrono_hz_method)(CHRONO_HZ_USER + 1)), "unknown") &&
           !strcmp(chrono_clock_hz_method_name((chrono_hz_method)INT_MAX), "unknown"),
           "chrono_clock_hz_method_name(-1, CHRONO_HZ_USER + 1, INT_MAX) -> \"unknown\"");

    /* open */
    expect(chrono_clock_open(NULL, CHRONO_CLOCK_AUTO), CHRONO_EINVAL, "chrono_clock_open(NULL, AUTO)");
    for (i = 0; i < COUNT(bad_src); i++) {
        (void)snprintf(what, sizeof what, "chrono_clock_open(&c, (chrono_clock_source)%d)", (int)bad_src[i]);
        expect(chrono_clock_open(&c, bad_src[i]), CHRONO_EINVAL, what);
    }
    ok = 1;
    for (i = CHRONO_CLOCK_TSC; i < CHRONO_CLOCK_CUSTOM; i++) {
        if (chrono_clock_available((chrono_clock_source)i)) continue;
        (void)snprintf(what, sizeof what, "chrono_clock_open(&c, %s), which this machine lacks",
                       chrono_clock_source_name((chrono_clock_source)i));
        expect(chrono_clock_open(&c, (chrono_clock_source)i), CHRONO_ENOTSUP, what);
        ok = 0;
    }
    if (ok) tap_skip("every clock source is available here: no ENOTSUP case");

    /* open_custom */
    expect(chrono_clock_open_custom(NULL, "x", counter_read, &ctr_ticks, 1e9), CHRONO_EINVAL,
           "chrono_clock_open_custom(NULL clock)");
    expect(chrono_clock_open_custom(&c, "x", NULL, &ctr_ticks, 1e9), CHRONO_EINVAL,
           "chrono_clock_open_custom(NULL read function)");
    for (i = 0; i < COUNT(bad_hz); i++) {
        (void)snprintf(what, sizeof what, "chrono_clock_open_custom(hz = %g)", bad_hz[i]);
        expect(chrono_clock_open_custom(&c, "x", counter_read, &ctr_ticks, bad_hz[i]), CHRONO_EINVAL, what);
    }
    rc = chrono_clock_open_custom(&c, NULL, counter_read, &ctr_ticks, 1e9);
    tap_ok(rc == 0 && c.name && !strcmp(c.name, "custom"), "chrono_clock_open_custom(name NULL) -> CHRONO_OK, named \"custom\"");
    expect(chrono_clock_open_custom(&c, "frozen", frozen_read, &ticks, 1e9), CHRONO_ECLOCK,
           "chrono_clock_open_custom(a counter that never advances)");
    expect(chrono_clock_open_custom(&c, "backwards", backwards_read, &ticks, 1e9), CHRONO_ECLOCK,
           "chrono_clock_open_custom(a counter that runs backwards)");

    /* ns_u64 at its limit: a 1 GHz clock turns UINT64_MAX ticks into UINT64_MAX ns exactly. */
    ctr_ticks = 0;
    rc = chrono_clock_open_custom(&c, "1GHz", counter_read, &ctr_ticks, 1e9);
    tap_ok(rc == 0 && chrono_clock_ns_u64(&c, UINT64_MAX) == UINT64_MAX && chrono_clock_ns(&c, UINT64_MAX) > 1.8e19,
           "chrono_clock_ns_u64 / ns(1 GHz clock, UINT64_MAX ticks) -> UINT64_MAX ns, no overflow");

    /* calibrate */
    real = chrono_clock_open(&clk, CHRONO_CLOCK_AUTO) == 0;
    if (!real) clk = c;
    expect(chrono_clock_calibrate(NULL, 1, 1000000, &hz, &spread), CHRONO_EINVAL, "chrono_clock_calibrate(NULL clock)");
    expect(chrono_clock_calibrate(&clk, 1, 1000000, NULL, &spread), CHRONO_EINVAL, "chrono_clock_calibrate(NULL hz)");
    for (i = 0; i < COUNT(bad_windows); i++) {
        (void)snprintf(what, sizeof what, "chrono_clock_calibrate(windows = %d)", bad_windows[i]);
        expect(chrono_clock_calibrate(&clk, bad_windows[i], 1000000, &hz, &spread), CHRONO_EINVAL, what);
    }
    for (i = 0; i < COUNT(bad_window_ns); i++) {
        (void)snprintf(what, sizeof what, "chrono_clock_calibrate(window_ns = %llu)", (unsigned long long)bad_window_ns[i]);
        expect(chrono_clock_calibrate(&clk, 1, bad_window_ns[i], &hz, &spread), CHRONO_EINVAL, what);
    }
    hz = -1;
    rc = chrono_clock_calibrate(&clk, 1, 1000, &hz, NULL);
    tap_ok(rc == 0 && hz > 0 && isfinite(hz), "chrono_clock_calibrate(1 window of 1000 ns, spread NULL) -> CHRONO_OK (the smallest valid call)");
}

/* ---- cpu.h ----------------------------------------------------------------- */
static int unpin_rc = 99;
#if defined(_WIN32)
static DWORD WINAPI unpin_elsewhere(LPVOID arg) { unpin_rc = chrono_cpu_unpin((chrono_pin *)arg); return 0; }
static int run_thread(chrono_pin *p)
{
    HANDLE h = CreateThread(NULL, 0, unpin_elsewhere, p, 0, NULL);
    if (!h) return -1;
    WaitForSingleObject(h, INFINITE);
    CloseHandle(h);
    return 0;
}
#else
static void *unpin_elsewhere(void *arg) { unpin_rc = chrono_cpu_unpin((chrono_pin *)arg); return NULL; }
static int run_thread(chrono_pin *p)
{
    pthread_t t;
    if (pthread_create(&t, NULL, unpin_elsewhere, p) != 0) return -1;
    return pthread_join(t, NULL) == 0 ? 0 : -1;
}
#endif

static int pin_cleared(const chrono_pin *p)
{
    return p->cpu == -1 && p->pinned == 0 && p->smt_siblings == -1 && p->topology[0] == '\0';
}

static void test_cpu(void)
{
    static const int bad_cpu[] = { -2, -100, INT_MIN };
    static const unsigned bad_bits[] = { 0u, 3u, CHRONO_WARN_LAST << 1, 1u << 31, UINT_MAX };
    const char *unknown = "unknown environment warning";
    int n = chrono_cpu_count(), cur = chrono_cpu_current(), before, rc, ok;
    long sw = chrono_cpu_switches();
    unsigned b;
    chrono_pin p;
    size_t i;
    char what[128];

    tap_diag("cpu.h: chrono_cpu_current/switches/count/allowed/pin/unpin, chrono_env_read/warning");
    tap_ok(n >= 1 || n == CHRONO_ENOTSUP, "chrono_cpu_count() -> >= 1 or CHRONO_ENOTSUP (got %d)", n);
    tap_ok((cur >= 0 && (n < 1 || cur < n)) || cur == CHRONO_ENOTSUP, "chrono_cpu_current() -> a CPU below the count, or CHRONO_ENOTSUP (got %d)", cur);
    tap_ok(sw >= 0 || sw == CHRONO_ENOTSUP, "chrono_cpu_switches() -> >= 0 or CHRONO_ENOTSUP (got %ld)", sw);

    for (i = 0; i < COUNT(bad_cpu); i++) {
        (void)snprintf(what, sizeof what, "chrono_cpu_allowed(%d)", bad_cpu[i]);
        expect(chrono_cpu_allowed(bad_cpu[i]), CHRONO_EINVAL, what);
    }
    expect(chrono_cpu_allowed(-1), CHRONO_EINVAL, "chrono_cpu_allowed(-1 = CHRONO_CPU_CURRENT, not a CPU number)");
    expect(chrono_cpu_allowed(INT_MAX), CHRONO_CPU_HAVE_PIN ? 0 : CHRONO_ENOTSUP, "chrono_cpu_allowed(INT_MAX) (0 = not allowed)");

    expect(chrono_cpu_pin(NULL, CHRONO_CPU_CURRENT), CHRONO_EINVAL, "chrono_cpu_pin(NULL, CURRENT)");
    for (i = 0; i < COUNT(bad_cpu); i++) {
        memset(&p, 0x5A, sizeof p);
        rc = chrono_cpu_pin(&p, bad_cpu[i]);
        (void)snprintf(what, sizeof what, "chrono_cpu_pin(&uninitialised, %d)", bad_cpu[i]);
        expect(rc, CHRONO_EINVAL, what);
        tap_ok(pin_cleared(&p), "  ... leaves the pin unpinned: cpu -1, pinned 0, smt_siblings -1, topology \"\"");
    }
    before = allowed_cpus();
    memset(&p, 0x5A, sizeof p);
    rc = chrono_cpu_pin(&p, INT_MAX);
    expect(rc, CHRONO_CPU_HAVE_PIN ? CHRONO_EPIN : CHRONO_ENOTSUP, "chrono_cpu_pin(&p, INT_MAX)");
    tap_ok(pin_cleared(&p) && allowed_cpus() == before, "  ... p unpinned, the thread's affinity mask unchanged");

    expect(chrono_cpu_unpin(NULL), CHRONO_EINVAL, "chrono_cpu_unpin(NULL)");
    expect(chrono_cpu_unpin(&p), CHRONO_OK, "chrono_cpu_unpin(a pin whose chrono_cpu_pin failed) (harmless)");
    memset(&p, 0, sizeof p);
    expect(chrono_cpu_unpin(&p), CHRONO_OK, "chrono_cpu_unpin(zeroed, never pinned) (harmless)");

    rc = chrono_cpu_pin(&p, CHRONO_CPU_CURRENT);
    if (rc == 0) {
        if (run_thread(&p) == 0) {
            expect(unpin_rc, CHRONO_EINVAL, "chrono_cpu_unpin from a thread other than the one that pinned");
            tap_ok(p.pinned == 1, "  ... the pin is still held");
        } else {
            tap_skip("could not start a thread");
            tap_skip("could not start a thread");
        }
        expect(chrono_cpu_unpin(&p), CHRONO_OK, "chrono_cpu_unpin by the pinning thread");
        expect(chrono_cpu_unpin(&p), CHRONO_OK, "chrono_cpu_unpin twice (harmless)");
        tap_ok(p.pinned == 0 && p.cpu == -1 && allowed_cpus() == before, "  ... unpinned, cpu -1, affinity mask restored");
    } else {
        tap_diag("chrono_cpu_pin(CURRENT): %s", chrono_strerror(rc));
        for (i = 0; i < 5; i++) tap_skip("pinning not available here");
    }

    expect(chrono_env_read(NULL), CHRONO_EINVAL, "chrono_env_read(NULL)");
    ok = 1;
    for (i = 0; i < COUNT(bad_bits); i++) ok &= !strcmp(chrono_env_warning(bad_bits[i]), unknown);
    tap_ok(ok, "chrono_env_warning(0, 3 (two bits), WARN_LAST<<1, 1<<31, UINT_MAX) -> \"%s\"", unknown);
    ok = 1;
    for (b = 1; b <= CHRONO_WARN_LAST; b <<= 1) ok &= strcmp(chrono_env_warning(b), unknown) != 0;
    tap_ok(ok, "chrono_env_warning(each CHRONO_WARN_* bit) -> its own text");
}

/* ---- stats.h ----------------------------------------------------------------- */
static int untouched(const void *p, size_t n, unsigned char fill)
{
    const unsigned char *b = (const unsigned char *)p;
    size_t i;
    for (i = 0; i < n; i++)
        if (b[i] != fill) return 0;
    return 1;
}

/* Deterministic pseudo-random numbers (xorshift64). */
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static void test_stats_sort(void)
{
    double x[300], keep[5] = { 3, 1, 2, 5, 4 };
    size_t n, i;
    int ok = 1, round;
    chrono_stats_sort(NULL, 5);
    chrono_stats_sort(NULL, SIZE_MAX);
    chrono_stats_sort(keep, 0);
    tap_ok(keep[0] == 3 && keep[4] == 4, "chrono_stats_sort(NULL, 5 / SIZE_MAX), (x, 0) -> no-op");
    chrono_stats_sort(keep, SIZE_MAX);
    tap_ok(keep[0] == 3 && keep[1] == 1 && keep[4] == 4, "chrono_stats_sort(x, SIZE_MAX: more doubles than memory holds) -> no-op");
    /* NaNs "end up somewhere; nothing breaks": every NaN stays, the rest is
       a permutation, and with infinities only the order is right. */
    for (round = 0; round < 200; round++) {
        size_t nans = 0, after = 0;
        int with_nan = round % 2 == 0;
        n = 1 + (size_t)(rng() % COUNT(x));
        for (i = 0; i < n; i++) {
            uint64_t r = rng() % 10;
            x[i] = r == 0 ? INFINITY : r == 1 ? -INFINITY : (r == 2 && with_nan) ? NAN : (double)(rng() % 50) - 25;
            if (x[i] != x[i]) nans++;
        }
        chrono_stats_sort(x, n);
        for (i = 0; i < n; i++) after += x[i] != x[i];
        ok &= after == nans;
        if (!with_nan)
            for (i = 1; i < n; i++) ok &= x[i - 1] <= x[i];
    }
    tap_ok(ok, "chrono_stats_sort(200 arrays of 1..300 with NaN, +inf, -inf) -> NaNs kept, finite and infinite values ordered");
}

static void test_stats_quantile_ci(void)
{
    const double sorted[4] = { 1, 2, 3, 4 };
    const double bad_p[] = { NAN, -0.1, 1.1, INFINITY, -INFINITY, DBL_MAX, -DBL_MAX };
    const double bad_conf[] = { 0.0, 1.0, -1.0, 1.5, NAN, INFINITY, -INFINITY, -0.0 };
    size_t lo = 77, hi = 77, i;
    double level = -1;
    int ok = 1;
    char what[96];

    tap_ok(isnan(chrono_stats_quantile(NULL, 4, 0.5)) && isnan(chrono_stats_quantile(sorted, 0, 0.5)),
           "chrono_stats_quantile(NULL, 4), (x, n = 0) -> NAN");
    for (i = 0; i < COUNT(bad_p); i++) ok &= isnan(chrono_stats_quantile(sorted, 4, bad_p[i]));
    tap_ok(ok, "chrono_stats_quantile(p = NaN, -0.1, 1.1, +inf, -inf, DBL_MAX, -DBL_MAX) -> NAN");
    tap_ok(isnan(chrono_stats_quantile(sorted, SIZE_MAX, 0.5)), "chrono_stats_quantile(x, SIZE_MAX) -> NAN");
    tap_ok(chrono_stats_quantile(sorted, 4, -0.0) == 1 && chrono_stats_quantile(sorted, 4, 1.0) == 4,
           "chrono_stats_quantile(p = -0.0 / 1.0) -> first / last (the edges are valid)");

    expect(chrono_stats_median_ci(0, 0.95, &lo, &hi, &level), CHRONO_EINVAL, "chrono_stats_median_ci(n = 0)");
    expect(chrono_stats_median_ci(10, 0.95, NULL, &hi, &level), CHRONO_EINVAL, "chrono_stats_median_ci(lo NULL)");
    expect(chrono_stats_median_ci(10, 0.95, &lo, NULL, &level), CHRONO_EINVAL, "chrono_stats_median_ci(hi NULL)");
    for (i = 0; i < COUNT(bad_conf); i++) {
        (void)snprintf(what, sizeof what, "chrono_stats_median_ci(confidence = %g)", bad_conf[i]);
        expect(chrono_stats_median_ci(10, bad_conf[i], &lo, &hi, &level), CHRONO_EINVAL, what);
    }
    /* A huge n is valid here (no array is read): the answer comes in
       O(sqrt n) steps, ~1 ms for 2^32 + 1.  (SIZE_MAX on 64 bits is valid
       too but takes tens of seconds: not run.) */
    lo = hi = 77;
    level = -1;
    expect(chrono_stats_median_ci((size_t)UINT32_MAX, 0.95, &lo, &hi, &level), CHRONO_OK, "chrono_stats_median_ci(n = 2^32 - 1)");
    tap_ok(lo < hi && hi == (size_t)UINT32_MAX - 1 - lo && level >= 0.95 && level < 0.9501,
           "  ... a symmetric pair of ranks with coverage in [0.95, 0.9501) (%zu..%zu, %.6f)", lo, hi, level);
    lo = hi = 77;
    tap_ok(chrono_stats_median_ci(1, 0.5, &lo, &hi, NULL) == 0 && lo == 0 && hi == 0, "chrono_stats_median_ci(n = 1, level NULL) -> [0, 0]");
}

static void test_stats_compute(void)
{
    const double good[3] = { 1, 2, 3 };
    const double with_nan[3] = { 1, NAN, 3 }, with_inf[3] = { 1, INFINITY, 3 }, with_ninf[3] = { -INFINITY, 2, 3 };
    const double huge[3] = { DBL_MAX, -DBL_MAX, DBL_MAX }, all_max[3] = { DBL_MAX, DBL_MAX, DBL_MAX };
    const double bad_conf[] = { 0.0, 1.0, -0.5, 2.0, NAN, INFINITY, -INFINITY };
    double work[3];
    chrono_stats s;
    size_t i;
    char what[112];
#define COMPUTE(x, n, conf, scratch, want, label)                                                           \
    do {                                                                                                   \
        memset(&s, 0xA5, sizeof s);                                                                        \
        expect(chrono_stats_compute(x, n, conf, scratch, &s), want, "chrono_stats_compute(" label ")");   \
        tap_ok(untouched(&s, sizeof s, 0xA5), "  ... *out left untouched");                               \
    } while (0)
    COMPUTE(NULL, 3, 0.95, NULL, CHRONO_EINVAL, "x NULL");
    expect(chrono_stats_compute(good, 3, 0.95, NULL, NULL), CHRONO_EINVAL, "chrono_stats_compute(out NULL)");
    COMPUTE(good, 0, 0.95, NULL, CHRONO_EINVAL, "n = 0");
    COMPUTE(with_nan, 3, 0.95, NULL, CHRONO_EINVAL, "NaN in the data");
    COMPUTE(with_inf, 3, 0.95, work, CHRONO_EINVAL, "+inf in the data, scratch given");
    COMPUTE(with_ninf, 3, 0.95, NULL, CHRONO_EINVAL, "-inf in the data");
    COMPUTE(huge, 3, 0.95, NULL, CHRONO_ERANGE, "+-DBL_MAX: the spread overflows");
    COMPUTE(all_max, 3, 0.95, work, CHRONO_ERANGE, "DBL_MAX x3: the sum overflows");
    COMPUTE(good, SIZE_MAX, 0.95, NULL, CHRONO_ERANGE, "n = SIZE_MAX");
    COMPUTE(good, SIZE_MAX / sizeof(double) + 1, 0.95, NULL, CHRONO_ERANGE, "n = SIZE_MAX / sizeof(double) + 1");
    for (i = 0; i < COUNT(bad_conf); i++) {
        memset(&s, 0xA5, sizeof s);
        (void)snprintf(what, sizeof what, "chrono_stats_compute(confidence = %g)", bad_conf[i]);
        expect(chrono_stats_compute(good, 3, bad_conf[i], NULL, &s), CHRONO_EINVAL, what);
        tap_ok(untouched(&s, sizeof s, 0xA5), "  ... *out left untouched");
    }
#undef COMPUTE
}

static void test_stats_ratio_fit(void)
{
    const double one[2] = { 1, 1 }, zero[2] = { 0, 1 }, neg[2] = { -1, 1 }, nan2[2] = { NAN, 1 }, inf2[2] = { INFINITY, 1 };
    const double big[2] = { DBL_MAX, DBL_MAX }, tiny[2] = { 4.9e-324, 4.9e-324 };
    const double x[3] = { 1, 2, 3 }, y[3] = { 2, 4, 6 }, same[3] = { 5, 5, 5 }, xnan[3] = { 1, NAN, 3 };
    const double xinf[3] = { 1, 2, -INFINITY }, x01[2] = { 0, 1 }, steep[2] = { -DBL_MAX, DBL_MAX };
    chrono_ratio r;
    chrono_fit f;
#define RATIO(a, b, n, conf, want, label)                                                                       \
    do {                                                                                                       \
        memset(&r, 0xA5, sizeof r);                                                                            \
        expect(chrono_stats_ratio(a, b, n, conf, NULL, &r), want, "chrono_stats_ratio(" label ")");            \
        tap_ok(untouched(&r, sizeof r, 0xA5), "  ... *out left untouched");                                   \
    } while (0)
#define FIT(a, b, n, want, label)                                                                               \
    do {                                                                                                       \
        memset(&f, 0xA5, sizeof f);                                                                            \
        expect(chrono_stats_fit(a, b, n, &f), want, "chrono_stats_fit(" label ")");                            \
        tap_ok(untouched(&f, sizeof f, 0xA5), "  ... *out left untouched");                                   \
    } while (0)
    RATIO(NULL, one, 2, 0.95, CHRONO_EINVAL, "a NULL");
    RATIO(one, NULL, 2, 0.95, CHRONO_EINVAL, "b NULL");
    expect(chrono_stats_ratio(one, one, 2, 0.95, NULL, NULL), CHRONO_EINVAL, "chrono_stats_ratio(out NULL)");
    RATIO(one, one, 0, 0.95, CHRONO_EINVAL, "n = 0");
    RATIO(one, one, 2, 1.0, CHRONO_EINVAL, "confidence = 1");
    RATIO(one, one, 2, NAN, CHRONO_EINVAL, "confidence = NaN");
    RATIO(one, one, 2, -INFINITY, CHRONO_EINVAL, "confidence = -inf");
    RATIO(zero, one, 2, 0.95, CHRONO_EINVAL, "a zero");
    RATIO(one, neg, 2, 0.95, CHRONO_EINVAL, "b negative");
    RATIO(nan2, one, 2, 0.95, CHRONO_EINVAL, "a NaN");
    RATIO(one, inf2, 2, 0.95, CHRONO_EINVAL, "b +inf");
    RATIO(big, tiny, 2, 0.95, CHRONO_ERANGE, "DBL_MAX / 4.9e-324: the ratio overflows");
    RATIO(one, one, SIZE_MAX, 0.95, CHRONO_ERANGE, "n = SIZE_MAX");

    FIT(NULL, y, 3, CHRONO_EINVAL, "x NULL");
    FIT(x, NULL, 3, CHRONO_EINVAL, "y NULL");
    expect(chrono_stats_fit(x, y, 3, NULL), CHRONO_EINVAL, "chrono_stats_fit(out NULL)");
    FIT(x, y, 0, CHRONO_EINVAL, "n = 0");
    FIT(x, y, 1, CHRONO_EINVAL, "n = 1");
    FIT(same, y, 3, CHRONO_EINVAL, "every x equal");
    FIT(xnan, y, 3, CHRONO_EINVAL, "NaN in x");
    FIT(x, xinf, 3, CHRONO_EINVAL, "-inf in y");
    FIT(x01, steep, 2, CHRONO_ERANGE, "x = 0, 1; y = -DBL_MAX, DBL_MAX: the slope overflows");
    FIT(x, y, SIZE_MAX, CHRONO_ERANGE, "n = SIZE_MAX");
#undef RATIO
#undef FIT
}

static void test_stats_histogram(void)
{
    const double x[6] = { 0, 1, 2, 3, NAN, 9 }, odd[4] = { -INFINITY, INFINITY, 5, NAN };
    unsigned bins[4];
    int ok;
    chrono_stats_histogram(x, 6, 0, 4, NULL, 4);
    chrono_stats_histogram(x, 6, 0, 4, NULL, SIZE_MAX);
    memset(bins, 0xA5, sizeof bins);
    chrono_stats_histogram(x, 6, 0, 4, bins, 0);
    tap_ok(untouched(bins, sizeof bins, 0xA5), "chrono_stats_histogram(bins NULL), (nbins = 0) -> no-op, bins untouched");
    chrono_stats_histogram(x, 6, 0, 4, bins, SIZE_MAX);
    tap_ok(untouched(bins, sizeof bins, 0xA5), "chrono_stats_histogram(nbins = SIZE_MAX: more than memory holds) -> no-op, bins untouched");
    memset(bins, 0xA5, sizeof bins);
    chrono_stats_histogram(NULL, 6, 0, 4, bins, 4);
    tap_ok(!bins[0] && !bins[1] && !bins[2] && !bins[3], "chrono_stats_histogram(x NULL) -> bins zeroed");
    memset(bins, 0xA5, sizeof bins);
    chrono_stats_histogram(x, SIZE_MAX, 0, 4, bins, 4);
    tap_ok(!bins[0] && !bins[1] && !bins[2] && !bins[3], "chrono_stats_histogram(n = SIZE_MAX) -> bins zeroed, nothing counted");
    chrono_stats_histogram(x, 6, NAN, 4, bins, 4);
    ok = bins[0] == 5 && !bins[1] && !bins[2] && !bins[3];
    chrono_stats_histogram(x, 6, 0, NAN, bins, 4);
    ok &= bins[0] == 5;
    chrono_stats_histogram(x, 6, 4, 0, bins, 4);
    ok &= bins[0] == 5;
    tap_ok(ok, "chrono_stats_histogram(lo NaN, hi NaN, hi < lo) -> every non-NaN value in bin 0");
    chrono_stats_histogram(odd, 4, -INFINITY, INFINITY, bins, 4);
    ok = bins[0] + bins[1] + bins[2] + bins[3] == 3;
    chrono_stats_histogram(odd, 4, 0, 10, bins, 4);
    ok &= bins[0] == 1 && bins[3] == 1 && bins[2] == 1;
    tap_ok(ok, "chrono_stats_histogram(+-inf data, infinite range) -> infinities clamped to the end bins, NaN not counted");
}

/* ---- bench.h --------------------------------------------------------------- */
static int result_reset(const chrono_result *r)
{
    return r->name[0] == '\0' && r->iters_per_sample == 0 && r->samples == 0 && r->samples_taken == 0 &&
           isnan(r->ns.median) && isnan(r->ticks.median) && isnan(r->cycles.median) && isnan(r->core_ghz) &&
           r->cpu == -1 && r->truncated == 0;
}

static int comparison_reset(const chrono_comparison *c)
{
    return result_reset(&c->a) && result_reset(&c->b) && c->rounds == 0 && isnan(c->ratio) && isnan(c->ci_low) &&
           isnan(c->ci_high) && isnan(c->ci_level) && isnan(c->cycles_ratio);
}

static int sweep_reset(const chrono_sweep_result *w)
{
    return w->name[0] == '\0' && w->points == 0 && isnan(w->per_unit_ns) && isnan(w->fixed_ns) && isnan(w->r2) &&
           isnan(w->per_unit_cycles) && isnan(w->fixed_cycles) && isnan(w->r2_cycles);
}

typedef struct bad_cfg { const char *what; chrono_config cfg; } bad_cfg;

static size_t bad_configs(bad_cfg *out, const chrono_clock *zero_clock, const chrono_clock *nan_clock,
                          const chrono_clock *inf_clock, const chrono_clock *hz_only_clock)
{
    const double bad_d[] = { NAN, -1.0, -INFINITY, INFINITY, 1e15, DBL_MAX };
    static const char *const dname[] = { "NaN", "-1", "-inf", "+inf", "1e15", "DBL_MAX" };
    static char labels[64][96];
    size_t n = 0, i, f;
    chrono_config c;
#define ADD(label, stmt)                                          \
    do {                                                          \
        c = short_config();                                       \
        stmt;                                                     \
        out[n].what = label;                                      \
        out[n].cfg = c;                                           \
        n++;                                                      \
    } while (0)
    ADD("samples = -1", c.samples = -1);
    ADD("samples = INT_MIN", c.samples = INT_MIN);
    ADD("samples = CHRONO_SAMPLES_MAX + 1", c.samples = CHRONO_SAMPLES_MAX + 1);
    ADD("samples = INT_MAX", c.samples = INT_MAX);
    for (f = 0; f < 5; f++)
        for (i = 0; i < COUNT(bad_d); i++) {
            static const char *const field[] = { "warmup_ms", "min_sample_us", "max_ms", "ref_tolerance",
                                                 "contention_tolerance" };
            char *l = labels[f * COUNT(bad_d) + i];
            (void)snprintf(l, sizeof labels[0], "%s = %s", field[f], f == 4 && bad_d[i] == -1.0 ? "-0.5" : dname[i]);
            ADD(l, (f == 0 ? (void)(c.warmup_ms = bad_d[i]) : f == 1 ? (void)(c.min_sample_us = bad_d[i])
                    : f == 2 ? (void)(c.max_ms = bad_d[i]) : f == 3 ? (void)(c.ref_tolerance = bad_d[i])
                    : (void)(c.contention_tolerance = bad_d[i] == -1.0 ? -0.5 : bad_d[i])));
        }
    ADD("confidence = -0.5", c.confidence = -0.5);
    ADD("confidence = 1", c.confidence = 1.0);
    ADD("confidence = 1.5", c.confidence = 1.5);
    ADD("confidence = NaN", c.confidence = NAN);
    ADD("confidence = +inf", c.confidence = INFINITY);
    ADD("pin = (chrono_pin_mode)-1", c.pin = (chrono_pin_mode)-1);
    ADD("pin = (chrono_pin_mode)4", c.pin = (chrono_pin_mode)4);
    ADD("pin = (chrono_pin_mode)99", c.pin = (chrono_pin_mode)99);
    ADD("cycles = (chrono_cycles_mode)-1", c.cycles = (chrono_cycles_mode)-1);
    ADD("cycles = (chrono_cycles_mode)2", c.cycles = (chrono_cycles_mode)2);
    ADD("pin = CHRONO_PIN_CPU, cpu = -2", (c.pin = CHRONO_PIN_CPU, c.cpu = -2));
    ADD("pin = CHRONO_PIN_CPU, cpu = INT_MIN", (c.pin = CHRONO_PIN_CPU, c.cpu = INT_MIN));
    ADD("pin = CHRONO_PIN_PREFER, cpu = -2", (c.pin = CHRONO_PIN_PREFER, c.cpu = -2));
    ADD("clock = (chrono_clock_source)-1", c.clock = (chrono_clock_source)-1);
    ADD("clock = CHRONO_CLOCK_CUSTOM (needs .custom_clock)", c.clock = CHRONO_CLOCK_CUSTOM);
    ADD("clock = CHRONO_CLOCK_SOURCE_COUNT", c.clock = CHRONO_CLOCK_SOURCE_COUNT);
    ADD("clock = (chrono_clock_source)99", c.clock = (chrono_clock_source)99);
    ADD("custom_clock = a never-opened (zeroed) clock", c.custom_clock = zero_clock);
    ADD("custom_clock = an opened clock whose hz was set to NaN", c.custom_clock = nan_clock);
    ADD("custom_clock = an opened clock whose hz was set to +inf", c.custom_clock = inf_clock);
    ADD("custom_clock = a zeroed clock with only hz set (1e9)", c.custom_clock = hz_only_clock);
#undef ADD
    return n;
}

static void test_bench(chrono_session *s, int have_session)
{
    static bad_cfg bad[80];
    const uint64_t params[3] = { 1, 2, 3 }, same[3] = { 3, 3, 3 }, big_same[2] = { UINT64_MAX, UINT64_MAX - 1 };
    chrono_config d = chrono_config_default(), c;
    chrono_session zs, cs, t;
    chrono_clock zero_clock, sim, nan_clock, inf_clock, hz_only_clock;
    chrono_result r;
    chrono_comparison cmp;
    chrono_sweep_result sw;
    uint64_t sim_ticks = 0;
    char name[CHRONO_NAME_MAX + 1000], what[200];
    size_t i, n, kept;
    int rc, before, ok;

    tap_diag("bench.h: chrono_clobber, chrono_config_default, chrono_session_open/close, chrono_run, chrono_compare, chrono_sweep");
    chrono_clobber();
    tap_ok(d.samples == 101 && d.warmup_ms == 50 && d.min_sample_us == 50 && d.max_ms == 2000 && d.cpu == CHRONO_CPU_CURRENT &&
           d.pin == CHRONO_PIN_AUTO && d.confidence == (double)0.95 && d.clock == CHRONO_CLOCK_AUTO &&
           d.cycles == CHRONO_CYCLES_AUTO && d.ref_tolerance == (double)0.01 && d.contention_tolerance == (double)0.05 && d.custom_clock == NULL && d.seed != 0,
           "chrono_config_default() -> the documented defaults (chrono_clobber() returned too)");

    memset(&zs, 0, sizeof zs);
    memset(&zero_clock, 0, sizeof zero_clock);
    hz_only_clock = zero_clock;
    hz_only_clock.hz = 1e9;
    rc = chrono_clock_open_custom(&sim, "sim", counter_read, &sim_ticks, 1e9);
    nan_clock = inf_clock = sim;
    nan_clock.hz = NAN;
    inf_clock.hz = INFINITY;

    /* open */
    expect(chrono_session_open(NULL, NULL), CHRONO_EINVAL, "chrono_session_open(NULL, NULL)");
    c = short_config();
    expect(chrono_session_open(NULL, &c), CHRONO_EINVAL, "chrono_session_open(NULL, &cfg)");
    n = bad_configs(bad, &zero_clock, &nan_clock, &inf_clock, &hz_only_clock);
    ok = 1;
    for (i = 0; i < n; i++) {
        memset(&t, 0x5A, sizeof t);
        (void)snprintf(what, sizeof what, "chrono_session_open(cfg.%s)", bad[i].what);
        rc = chrono_session_open(&t, &bad[i].cfg);
        expect(rc, CHRONO_EINVAL, what);
        ok &= t.is_open == 0 && chrono_run(&t, "x", body, NULL, NULL) == CHRONO_EINVAL;
        chrono_session_close(&t);
    }
    tap_ok(ok, "  ... after each, the session is not open: chrono_run refuses it, chrono_session_close is harmless");
    before = allowed_cpus();
    for (i = CHRONO_CLOCK_TSC; i < CHRONO_CLOCK_CUSTOM; i++)
        if (!chrono_clock_available((chrono_clock_source)i)) break;
    if (i < CHRONO_CLOCK_CUSTOM) {
        c = short_config();
        c.clock = (chrono_clock_source)i;
        (void)snprintf(what, sizeof what, "chrono_session_open(cfg.clock = %s, which this machine lacks)",
                       chrono_clock_source_name(c.clock));
        expect(chrono_session_open(&t, &c), CHRONO_ENOTSUP, what);
        tap_ok(t.is_open == 0 && allowed_cpus() == before, "  ... not open, and the thread is not left pinned");
    } else {
        tap_skip("every clock source is available here");
        tap_skip("every clock source is available here");
    }
    c = short_config();
    c.pin = CHRONO_PIN_CPU;
    c.cpu = INT_MAX;
    expect(chrono_session_open(&t, &c), CHRONO_CPU_HAVE_PIN ? CHRONO_EPIN : CHRONO_ENOTSUP,
           "chrono_session_open(cfg.pin = CHRONO_PIN_CPU, cpu = INT_MAX)");

    /* close */
    chrono_session_close(NULL);
    chrono_session_close(&zs);
    tap_ok(zs.is_open == 0 && zs.results == NULL, "chrono_session_close(NULL), (never-opened zeroed session) -> no-op");
    c = short_config();
    c.pin = CHRONO_PIN_OFF;
    c.custom_clock = &sim;
    c.cycles = CHRONO_CYCLES_OFF;
    rc = chrono_session_open(&cs, &c);
    expect(rc, CHRONO_OK, "chrono_session_open(a simulated clock) (to have a session to close)");
    chrono_session_close(&cs);
    chrono_session_close(&cs);
    tap_ok(cs.is_open == 0 && cs.results == NULL && cs.buf == NULL, "chrono_session_close twice -> closed, nothing held");

    /* run */
    repeat(name, CHRONO_NAME_MAX, 'n');
#define RUN(sess, nm, fn, want, label)                                                          \
    do {                                                                                        \
        memset(&r, 0x5A, sizeof r);                                                             \
        expect(chrono_run(sess, nm, fn, NULL, &r), want, "chrono_run(" label ")");              \
        tap_ok(result_reset(&r), "  ... *out defined: name \"\", 0 samples, NaN statistics, cpu -1"); \
    } while (0)
    RUN(NULL, "x", body, CHRONO_EINVAL, "NULL session");
    RUN(&zs, "x", body, CHRONO_EINVAL, "never-opened zeroed session");
    RUN(&cs, "x", body, CHRONO_EINVAL, "closed session");
    expect(chrono_run(&cs, "x", body, NULL, NULL), CHRONO_EINVAL, "chrono_run(closed session, out NULL)");
    if (have_session) {
        kept = s->nresults;
        RUN(s, "x", NULL, CHRONO_EINVAL, "fn NULL");
        RUN(s, NULL, body, CHRONO_EINVAL, "name NULL");
        RUN(s, "", body, CHRONO_EINVAL, "name \"\"");
        RUN(s, repeat(name, CHRONO_NAME_MAX, 'n'), body, CHRONO_ERANGE, "name of CHRONO_NAME_MAX bytes");
        RUN(s, repeat(name, CHRONO_NAME_MAX + 999, 'n'), body, CHRONO_ERANGE, "name of CHRONO_NAME_MAX + 999 bytes");
        tap_ok(s->nresults == kept, "  ... none of the refused runs was kept in the session");
        rc = chrono_run(s, repeat(name, CHRONO_NAME_MAX - 1, 'n'), body, NULL, &r);
        tap_ok(rc == 0 && strlen(r.name) == CHRONO_NAME_MAX - 1 && s->nresults == kept + 1,
               "chrono_run(name of CHRONO_NAME_MAX - 1 bytes) -> CHRONO_OK, name kept whole (the longest valid name)");
    } else {
        for (i = 0; i < 12; i++) tap_skip("no session");
    }
#undef RUN

    /* compare */
#define CMP(sess, na, fa, nb, fb, want, label)                                                         \
    do {                                                                                               \
        memset(&cmp, 0x5A, sizeof cmp);                                                                \
        expect(chrono_compare(sess, na, fa, NULL, nb, fb, NULL, &cmp), want, "chrono_compare(" label ")"); \
        tap_ok(comparison_reset(&cmp), "  ... *out defined: NaN ratio and interval, 0 rounds, both sides reset"); \
    } while (0)
    CMP(NULL, "a", body, "b", body, CHRONO_EINVAL, "NULL session");
    CMP(&zs, "a", body, "b", body, CHRONO_EINVAL, "never-opened zeroed session");
    CMP(&cs, "a", body, "b", body, CHRONO_EINVAL, "closed session");
    if (have_session) {
        kept = s->ncomparisons;
        CMP(s, "a", NULL, "b", body, CHRONO_EINVAL, "fn a NULL");
        CMP(s, "a", body, "b", NULL, CHRONO_EINVAL, "fn b NULL");
        CMP(s, NULL, body, "b", body, CHRONO_EINVAL, "name a NULL");
        CMP(s, "a", body, NULL, body, CHRONO_EINVAL, "name b NULL");
        CMP(s, "", body, "b", body, CHRONO_EINVAL, "name a \"\"");
        CMP(s, "a", body, "", body, CHRONO_EINVAL, "name b \"\"");
        CMP(s, repeat(name, CHRONO_NAME_MAX, 'a'), body, "b", body, CHRONO_ERANGE, "name a of CHRONO_NAME_MAX bytes");
        CMP(s, "a", body, repeat(name, CHRONO_NAME_MAX + 999, 'b'), body, CHRONO_ERANGE, "name b of CHRONO_NAME_MAX + 999 bytes");
        tap_ok(s->ncomparisons == kept, "  ... none of the refused comparisons was kept in the session");
    } else {
        for (i = 0; i < 17; i++) tap_skip("no session");
    }
#undef CMP

    /* sweep */
#define SWEEP(sess, nm, fn, p, np, want, label)                                                   \
    do {                                                                                          \
        memset(&sw, 0x5A, sizeof sw);                                                             \
        expect(chrono_sweep(sess, nm, fn, NULL, p, np, &sw), want, "chrono_sweep(" label ")");    \
        tap_ok(sweep_reset(&sw), "  ... *out defined: name \"\", 0 points, NaN fit");            \
    } while (0)
    SWEEP(NULL, "s", sweep_body, params, 3, CHRONO_EINVAL, "NULL session");
    SWEEP(&zs, "s", sweep_body, params, 3, CHRONO_EINVAL, "never-opened zeroed session");
    SWEEP(&cs, "s", sweep_body, params, 3, CHRONO_EINVAL, "closed session");
    if (have_session) {
        kept = s->nresults;
        SWEEP(s, "s", NULL, params, 3, CHRONO_EINVAL, "fn NULL");
        SWEEP(s, "s", sweep_body, NULL, 3, CHRONO_EINVAL, "params NULL");
        SWEEP(s, "s", sweep_body, params, 0, CHRONO_EINVAL, "nparams = 0");
        SWEEP(s, "s", sweep_body, params, 1, CHRONO_EINVAL, "nparams = 1");
        SWEEP(s, "s", sweep_body, params, 10001, CHRONO_EINVAL, "nparams = 10001");
        SWEEP(s, "s", sweep_body, params, SIZE_MAX, CHRONO_EINVAL, "nparams = SIZE_MAX");
        SWEEP(s, NULL, sweep_body, params, 3, CHRONO_EINVAL, "name NULL");
        SWEEP(s, "", sweep_body, params, 3, CHRONO_EINVAL, "name \"\"");
        SWEEP(s, repeat(name, CHRONO_NAME_MAX - 22, 's'), sweep_body, params, 3, CHRONO_ERANGE,
              "name of CHRONO_NAME_MAX - 22 bytes: no room for \"/<param>\"");
        SWEEP(s, repeat(name, CHRONO_NAME_MAX + 999, 's'), sweep_body, params, 3, CHRONO_ERANGE, "name of CHRONO_NAME_MAX + 999 bytes");
        SWEEP(s, "s", sweep_body, same, 3, CHRONO_EINVAL, "every param equal: nothing to fit");
        SWEEP(s, "s", sweep_body, big_same, 2, CHRONO_EINVAL, "params UINT64_MAX, UINT64_MAX - 1: equal as doubles");
        tap_ok(s->nresults == kept && s->nsweeps == 0, "  ... none of the refused sweeps ran a point or was kept");
    } else {
        for (i = 0; i < 25; i++) tap_skip("no session");
    }
#undef SWEEP
}

/* ---- report.h --------------------------------------------------------------- */
/* A result no run could produce: every double NaN, infinite or huge, every count at its maximum. */
static void hostile_result(chrono_result *r)
{
    size_t i;
    (void)chrono_run(NULL, "x", body, NULL, r);   /* the defined "failed" state */
    strcpy(r->name, "hostile");
    r->iters_per_sample = UINT64_MAX;
    r->samples = r->samples_taken = SIZE_MAX;
    r->ns.median = DBL_MAX; r->ns.ci_low = -INFINITY; r->ns.ci_high = INFINITY; r->ns.min = -DBL_MAX;
    r->ns.max = INFINITY; r->ns.mean = 4.9e-324; r->ns.stddev = INFINITY; r->ns.cv = NAN; r->ns.mad = -INFINITY;
    r->ns.q1 = -0.0; r->ns.q3 = NAN; r->ns.ci_level = 2.0;
    r->ns.outliers_low = r->ns.outliers_high = r->ns.outliers_severe = SIZE_MAX;
    r->has_cycles = 1;
    r->cycles.median = INFINITY; r->cycles.ci_low = NAN; r->cycles.ci_high = -DBL_MAX; r->cycles.min = DBL_MAX;
    r->core_ghz = -INFINITY;
    r->cpu = INT_MIN;
    r->migrated = r->backwards = r->ref_rejected = r->preempted = SIZE_MAX;
    r->truncated = -5;
    r->wall_ms = INFINITY;
    r->warmup_ms = NAN;
    for (i = 0; i < CHRONO_HIST_BINS; i++) r->hist[i] = i % 2 ? UINT_MAX : 0;
    r->hist_lo = NAN;
    r->hist_hi = INFINITY;
}

static void hostile_comparison(chrono_comparison *c, double ratio)
{
    memset(c, 0, sizeof *c);
    hostile_result(&c->a);
    hostile_result(&c->b);
    strcpy(c->a.name, "hostile-a");
    strcpy(c->b.name, "hostile-b");
    c->rounds = SIZE_MAX;
    c->ratio = ratio;
    c->ci_low = NAN;
    c->ci_high = -INFINITY;
    c->ci_level = INFINITY;
    c->cycles_ratio = -1;
}

static void test_report_strings(void)
{
    static const chrono_format bad_fmt[] = { (chrono_format)-1, (chrono_format)6, (chrono_format)99, (chrono_format)INT_MIN };
    static const char *const bad_names[] = { "", "xml", "TEXT", "text ", " text", "markdown\n", "jso", "jsonx" };
    char buf[64], out[512], longs[300];
    chrono_format fmt = CHRONO_FORMAT_JSON;
    FILE *f, *ro;
    size_t i;
    int ok;

    tap_diag("report.h: chrono_report_duration, chrono_json_escape, chrono_csv_field, chrono_format_name/parse");
    tap_ok(chrono_report_duration(NULL, 10, 1.0) == NULL, "chrono_report_duration(buf NULL) -> NULL");
    buf[0] = 'Z';
    tap_ok(chrono_report_duration(buf, 0, 1.0) == buf && buf[0] == 'Z', "chrono_report_duration(n = 0) -> buf, untouched");
    tap_ok(chrono_report_duration(buf, 1, 1500) == buf && buf[0] == '\0', "chrono_report_duration(n = 1) -> \"\" (truncated, terminated)");
    ok = !strcmp(chrono_report_duration(buf, sizeof buf, NAN), "-") && !strcmp(chrono_report_duration(buf, sizeof buf, INFINITY), "-") &&
         !strcmp(chrono_report_duration(buf, sizeof buf, -INFINITY), "-");
    tap_ok(ok, "chrono_report_duration(NaN, +inf, -inf) -> \"-\"");
    chrono_report_duration(buf, 8, DBL_MAX);
    ok = strlen(buf) < 8;
    chrono_report_duration(buf, sizeof buf, -DBL_MAX);
    ok &= strlen(buf) < sizeof buf && buf[0] == '-';
    tap_ok(ok, "chrono_report_duration(+-DBL_MAX) -> terminated within n");

    tap_ok(!strcmp(chrono_format_name(bad_fmt[0]), "unknown") && !strcmp(chrono_format_name(bad_fmt[1]), "unknown") &&
           !strcmp(chrono_format_name(bad_fmt[2]), "unknown") && !strcmp(chrono_format_name(bad_fmt[3]), "unknown"),
           "chrono_format_name(-1, 6, 99, INT_MIN) -> \"unknown\"");
    expect(chrono_format_parse(NULL, &fmt), CHRONO_EINVAL, "chrono_format_parse(NULL name)");
    expect(chrono_format_parse("text", NULL), CHRONO_EINVAL, "chrono_format_parse(\"text\", NULL fmt)");
    ok = 1;
    for (i = 0; i < COUNT(bad_names); i++) ok &= chrono_format_parse(bad_names[i], &fmt) == CHRONO_EINVAL;
    ok &= chrono_format_parse(repeat(longs, sizeof longs - 1, 't'), &fmt) == CHRONO_EINVAL;
    tap_ok(ok, "chrono_format_parse(\"\", \"xml\", \"TEXT\", \"text \", \" text\", \"markdown\\n\", \"jso\", \"jsonx\", 299 bytes) -> CHRONO_EINVAL");

    f = scratch();
    if (!f) {
        for (i = 0; i < 9; i++) tap_skip("cannot create test_bad_input.tmp");
        return;
    }
    expect(chrono_json_escape(NULL, "x"), CHRONO_EINVAL, "chrono_json_escape(NULL stream)");
    expect(chrono_json_escape(f, NULL), CHRONO_EINVAL, "chrono_json_escape(NULL string)");
    expect(chrono_csv_field(NULL, "x"), CHRONO_EINVAL, "chrono_csv_field(NULL stream)");
    expect(chrono_csv_field(f, NULL), CHRONO_EINVAL, "chrono_csv_field(NULL string)");
    tap_ok(stream_size(f) == 0, "  ... nothing written by the refused calls");
    ok = chrono_json_escape(f, "a\"\\\n\x01\x7f\xff\xc0\xaf\xed\xa0\x80z") == 0;
    slurp(f, out, sizeof out);
    tap_ok(ok && !strcmp(out, "a\\\"\\\\\\n\\u0001\\u007f\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffdz"),
           "chrono_json_escape(quote, backslash, controls, invalid UTF-8) -> escaped, U+FFFD for each bad byte (got %s)", out);
    fclose(f);
    f = scratch();
    ok = f && chrono_csv_field(f, "a,\"b\"\r\n\xff") == 0;
    if (f) { slurp(f, out, sizeof out); fclose(f); }
    tap_ok(ok && !strcmp(out, "\"a,\"\"b\"\"\r\n\xEF\xBF\xBD\""), "chrono_csv_field(comma, quotes, CRLF, invalid UTF-8) -> quoted, U+FFFD");

    ro = read_only();
    if (ro) {
        expect(chrono_json_escape(ro, "x"), CHRONO_EIO, "chrono_json_escape(a stream that refuses writes)");
        clearerr(ro);
        expect(chrono_csv_field(ro, "x"), CHRONO_EIO, "chrono_csv_field(a stream that refuses writes)");
        fclose(ro);
    } else {
        tap_skip("cannot reopen test_bad_input.tmp read-only");
        tap_skip("cannot reopen test_bad_input.tmp read-only");
    }
}

static void test_report(chrono_session *s, int have_session)
{
    static const chrono_format bad_fmt[] = { (chrono_format)-1, (chrono_format)6, (chrono_format)99 };
    static char out[1 << 17];
    chrono_session zs, cs;
    chrono_report_writer w;
    chrono_report_options opt;
    chrono_result r;
    chrono_comparison cmp;
    FILE *f, *ro;
    char line[4096], what[160];
    size_t i;
    int fmt, ok, rc;

    tap_diag("report.h: chrono_report, chrono_report_ex, chrono_report_begin/result/comparison/end");
    memset(&zs, 0, sizeof zs);
    if (closed_session(&cs) < 0) memset(&cs, 0, sizeof cs);
    f = scratch();
    if (!f || !have_session) {
        tap_skip(f ? "no session: report tests skipped" : "cannot create test_bad_input.tmp: report tests skipped");
        if (f) fclose(f);
        return;
    }
    memset(&opt, 0, sizeof opt);

    expect(chrono_report(NULL, f, CHRONO_FORMAT_TEXT), CHRONO_EINVAL, "chrono_report(NULL session)");
    expect(chrono_report(&zs, f, CHRONO_FORMAT_JSON), CHRONO_EINVAL, "chrono_report(never-opened zeroed session)");
    expect(chrono_report(&cs, f, CHRONO_FORMAT_CSV), CHRONO_EINVAL, "chrono_report(closed session)");
    expect(chrono_report(s, NULL, CHRONO_FORMAT_TEXT), CHRONO_EINVAL, "chrono_report(NULL stream)");
    for (i = 0; i < COUNT(bad_fmt); i++) {
        (void)snprintf(what, sizeof what, "chrono_report(format (chrono_format)%d)", (int)bad_fmt[i]);
        expect(chrono_report(s, f, bad_fmt[i]), CHRONO_EINVAL, what);
    }
    expect(chrono_report_ex(NULL, f, CHRONO_FORMAT_MARKDOWN, &opt), CHRONO_EINVAL, "chrono_report_ex(NULL session)");
    expect(chrono_report_ex(s, f, (chrono_format)-1, NULL), CHRONO_EINVAL, "chrono_report_ex(format -1, options NULL)");
    tap_ok(stream_size(f) == 0, "  ... nothing written by any refused report");

    expect(chrono_report_begin(NULL, s, f, CHRONO_FORMAT_TEXT, NULL), CHRONO_EINVAL, "chrono_report_begin(NULL writer)");
    ok = 1;
    memset(&w, 0x5A, sizeof w);
    rc = chrono_report_begin(&w, NULL, f, CHRONO_FORMAT_TEXT, NULL);
    ok &= w.session == NULL && w.out == NULL;
    expect(rc, CHRONO_EINVAL, "chrono_report_begin(NULL session)");
    memset(&w, 0x5A, sizeof w);
    expect(chrono_report_begin(&w, &zs, f, CHRONO_FORMAT_TEXT, NULL), CHRONO_EINVAL, "chrono_report_begin(never-opened zeroed session)");
    ok &= w.session == NULL && w.out == NULL;
    memset(&w, 0x5A, sizeof w);
    expect(chrono_report_begin(&w, s, NULL, CHRONO_FORMAT_TEXT, NULL), CHRONO_EINVAL, "chrono_report_begin(NULL stream)");
    ok &= w.session == NULL && w.out == NULL;
    memset(&w, 0x5A, sizeof w);
    expect(chrono_report_begin(&w, s, f, (chrono_format)99, &opt), CHRONO_EINVAL, "chrono_report_begin(format 99)");
    ok &= w.session == NULL && w.out == NULL;
    tap_ok(ok && stream_size(f) == 0, "  ... the writer is left zeroed (no session, no stream) and nothing is written");
    hostile_result(&r);
    hostile_comparison(&cmp, 0.5);
    expect(chrono_report_result(&w, &r), CHRONO_EINVAL, "chrono_report_result(the writer of a failed begin)");
    expect(chrono_report_comparison(&w, &cmp), CHRONO_EINVAL, "chrono_report_comparison(the writer of a failed begin)");
    expect(chrono_report_end(&w), CHRONO_EINVAL, "chrono_report_end(the writer of a failed begin)");
    expect(chrono_report_result(NULL, &r), CHRONO_EINVAL, "chrono_report_result(NULL writer)");
    expect(chrono_report_comparison(NULL, &cmp), CHRONO_EINVAL, "chrono_report_comparison(NULL writer)");
    expect(chrono_report_end(NULL), CHRONO_EINVAL, "chrono_report_end(NULL writer)");
    tap_ok(stream_size(f) == 0, "  ... nothing written");
    fclose(f);

    /* Hostile values in every format: NaN and infinities never appear as
       such, a row stays on one line, the JSON stays JSON. */
    for (fmt = CHRONO_FORMAT_TEXT; fmt <= CHRONO_FORMAT_JSON; fmt++) {
        const char *fname = chrono_format_name((chrono_format)fmt);
        f = scratch();
        if (!f) { tap_skip("cannot create test_bad_input.tmp"); tap_skip("cannot create test_bad_input.tmp"); continue; }
        opt.color = 99;              /* not a CHRONO_COLOR_*: no colour */
        opt.executable = NULL;
        rc = chrono_report_begin(&w, s, f, (chrono_format)fmt, &opt);
        if (rc == 0) rc = chrono_report_result(&w, NULL) == CHRONO_EINVAL ? 0 : -100;
        if (rc == 0) rc = chrono_report_comparison(&w, NULL) == CHRONO_EINVAL ? 0 : -101;
        if (rc == 0) rc = chrono_report_result(&w, &r);
        hostile_comparison(&cmp, 0.0);
        if (rc == 0) rc = chrono_report_comparison(&w, &cmp);
        hostile_comparison(&cmp, NAN);
        if (rc == 0) rc = chrono_report_comparison(&w, &cmp);
        hostile_comparison(&cmp, -INFINITY);
        if (rc == 0) rc = chrono_report_comparison(&w, &cmp);
        if (rc == 0) rc = chrono_report_end(&w);
        slurp(f, out, sizeof out);
        fclose(f);
        (void)snprintf(what, sizeof what, "%s: begin(color 99), result(NULL) and comparison(NULL) refused, hostile result and comparisons (ratio 0, NaN, -inf)", fname);
        expect(rc, CHRONO_OK, what);
        if (fmt == CHRONO_FORMAT_JSON) {
            const char *b = strstr(out, "\"benchmarks\"");
            ok = b && no_nan_inf(b) && json_values_ok(out);
            tap_ok(ok, "  ... JSON: every member value a plain number, string, null or bool; no NaN/inf");
        } else if (fmt == CHRONO_FORMAT_CSV) {
            const char *p = line_with(out, "hostile", line, sizeof line);
            ok = p[0] && no_nan_inf(p);
            for (; *p && ok; p++) ok = strchr("0123456789.-+eE,\r", *p) || (*p >= 'a' && *p <= 'z');
            tap_ok(ok, "  ... CSV: the hostile row has empty fields for NaN/inf, numbers otherwise");
        } else {
            line_with(out, "hostile", line, sizeof line);
            tap_ok(line[0] && no_nan_inf(line), "  ... %s: the hostile row shows \"-\" for NaN/inf", fname);
        }
    }

    /* Streams that fail. */
    ro = read_only();
    if (ro) {
        for (fmt = CHRONO_FORMAT_TEXT; fmt <= CHRONO_FORMAT_JSON; fmt++) {
            clearerr(ro);
            (void)snprintf(what, sizeof what, "chrono_report(%s, a stream that refuses writes)", chrono_format_name((chrono_format)fmt));
            expect(chrono_report(s, ro, (chrono_format)fmt), CHRONO_EIO, what);
        }
        fclose(ro);
    } else {
        for (i = 0; i < 4; i++) tap_skip("cannot reopen test_bad_input.tmp read-only");
    }
#if defined(__linux__)
    f = fopen("/dev/full", "wb");
    if (f) {
        hostile_result(&r);
        rc = chrono_report_begin(&w, s, f, CHRONO_FORMAT_JSON, NULL);
        if (rc == 0) rc = chrono_report_result(&w, &r);
        if (rc == 0) rc = chrono_report_end(&w);
        expect(rc, CHRONO_EIO, "chrono_report_begin/result/end(JSON to /dev/full: the error shows when the buffer is flushed)");
        fclose(f);
    } else {
        tap_skip("no /dev/full");
    }
#else
    tap_skip("/dev/full is Linux only");
#endif
}

/* ---- cli.h ------------------------------------------------------------------- */
static int parse_args(chrono_config *cfg, chrono_cli *o, const char *a1, const char *a2)
{
    char *argv[4];
    int argc = 1;
    argv[0] = (char *)"prog";
    if (a1) argv[argc++] = (char *)a1;
    if (a2) argv[argc++] = (char *)a2;
    argv[argc] = NULL;
    *cfg = chrono_config_default();
    return chrono_cli_parse(cfg, o, argc, argv);
}

static void test_cli_flags(void)
{
    /* flag (as .error starts), first argument, second argument */
    static const char *const bad[][3] = {
        { "--samples", "--samples=0", NULL }, { "--samples", "--samples=-1", NULL },
        { "--samples", "--samples=1000001", NULL }, { "--samples", "--samples=2147483648", NULL },
        { "--samples", "--samples=99999999999999999999", NULL }, { "--samples", "--samples=-99999999999999999999", NULL },
        { "--samples", "--samples=nan", NULL }, { "--samples", "--samples=1.5", NULL }, { "--samples", "--samples=1e3", NULL },
        { "--samples", "--samples=0x10", NULL }, { "--samples", "--samples= 5", NULL }, { "--samples", "--samples=5 ", NULL },
        { "--samples", "--samples=", NULL }, { "--samples", "--samples", NULL }, { "--samples", "--samples", "--quick" },
        { "--samples", "--samples", "" },
        { "--warmup-ms", "--warmup-ms=nan", NULL }, { "--warmup-ms", "--warmup-ms=NaN", NULL },
        { "--warmup-ms", "--warmup-ms=inf", NULL }, { "--warmup-ms", "--warmup-ms=-inf", NULL },
        { "--warmup-ms", "--warmup-ms=infinity", NULL }, { "--warmup-ms", "--warmup-ms=-1", NULL },
        { "--warmup-ms", "--warmup-ms=0", NULL }, { "--warmup-ms", "--warmup-ms=-0", NULL },
        { "--warmup-ms", "--warmup-ms=1e400", NULL }, { "--warmup-ms", "--warmup-ms=3600000.001", NULL },
        { "--warmup-ms", "--warmup-ms=0x10", NULL }, { "--warmup-ms", "--warmup-ms=1e", NULL }, { "--warmup-ms", "--warmup-ms=.", NULL },
        { "--max-ms", "--max-ms=0.5", NULL }, { "--max-ms", "--max-ms=1e308", NULL }, { "--max-ms", "--max-ms=-1e-400", NULL },
        { "--format", "--format=xml", NULL }, { "--format", "--format=", NULL }, { "--format", "--format=TEXT", NULL },
        { "--format", "--format", NULL },
        { "--cpu", "--cpu=-1", NULL }, { "--cpu", "--cpu=2147483648", NULL }, { "--cpu", "--cpu=abc", NULL },
        { "--cpu", "--cpu=", NULL },
        { "--out", "--out=", NULL }, { "--filter", "--filter=", NULL },
        { "--no-pin", "--no-pin=1", NULL }, { "--quick", "--quick=yes", NULL }, { "--list", "--list=", NULL },
        { "--keep-contended", "--keep-contended=no", NULL },
        { "--bogus", "--bogus", NULL }, { "--bogus", "--bogus=1", NULL }, { "-x", "-x", NULL }, { "positional", "positional", NULL },
        { "--", "--", NULL }, { "-", "-", NULL }, { "", "", NULL }
    };
    chrono_config cfg, d = chrono_config_default();
    chrono_cli o;
    size_t i;
    int rc, ok, cpu;
    char what[200], longarg[1100];

    tap_diag("cli.h: chrono_cli_parse with bad flag values");
    for (i = 0; i < COUNT(bad); i++) {
        rc = parse_args(&cfg, &o, bad[i][1], bad[i][2]);
        (void)snprintf(what, sizeof what, "chrono_cli_parse(\"%s\"%s%s%s)", bad[i][1], bad[i][2] ? ", \"" : "",
                       bad[i][2] ? bad[i][2] : "", bad[i][2] ? "\"" : "");
        expect(rc, CHRONO_EINVAL, what);
        ok = o.error[0] && strlen(o.error) < sizeof o.error && !strncmp(o.error, bad[i][0], strlen(bad[i][0])) &&
             cfg.samples == d.samples && cfg.warmup_ms == d.warmup_ms && cfg.max_ms == d.max_ms &&
             cfg.pin == d.pin && cfg.cpu == d.cpu;
        tap_ok(ok, "  ... .error names the flag (%s), the configuration is unchanged", o.error);
    }
    /* an over-long flag name and an over-long value with control characters */
    longarg[0] = '-'; longarg[1] = '-';
    repeat(longarg + 2, 1000, 'f');
    rc = parse_args(&cfg, &o, longarg, NULL);
    tap_ok(rc == CHRONO_EINVAL && o.error[0] && strlen(o.error) < 200, "chrono_cli_parse(a 1002-byte flag) -> CHRONO_EINVAL, .error short (%s)", o.error);
    strcpy(longarg, "--samples=");
    repeat(longarg + 10, 1000, '7');
    longarg[20] = '\n';
    longarg[21] = '\x1b';
    rc = parse_args(&cfg, &o, longarg, NULL);
    tap_ok(rc == CHRONO_EINVAL && strlen(o.error) < 120 && !strchr(o.error, '\n') && !strchr(o.error, '\x1b') && strstr(o.error, "..."),
           "chrono_cli_parse(--samples=<1000 bytes with LF, ESC>) -> CHRONO_EINVAL, value quoted cut short, no control characters (%s)", o.error);
    cpu = -1;
    for (i = 0; i < 64 && (int)i < chrono_cpu_count(); i++)
        if (chrono_cpu_allowed((int)i) == 1) { cpu = (int)i; break; }
    if (cpu >= 0) {
        char arg[32];
        (void)snprintf(arg, sizeof arg, "--cpu=%d", cpu);
        rc = parse_args(&cfg, &o, arg, "--no-pin");
        tap_ok(rc == CHRONO_EINVAL && !strncmp(o.error, "--no-pin", 8), "chrono_cli_parse(\"%s\", \"--no-pin\") -> CHRONO_EINVAL, conflict named (%s)", arg, o.error);
        (void)snprintf(arg, sizeof arg, "--cpu=%d", chrono_cpu_count() > 0 ? chrono_cpu_count() : 1 << 20);
        rc = parse_args(&cfg, &o, arg, NULL);
        tap_ok(rc == CHRONO_EINVAL && !strncmp(o.error, "--cpu", 5), "chrono_cli_parse(\"%s\": one past the last CPU) -> CHRONO_EINVAL (%s)", arg, o.error);
    } else {
        tap_skip("no CPU to pin to");
        tap_skip("no CPU to pin to");
    }
}

static void test_cli_args(void)
{
    static const char *const null_middle[] = { "prog", NULL, "--samples=0", NULL };
    static const char *const missing_value[] = { "prog", "--samples", NULL, NULL };
    static const char *const quick[] = { "prog", "--quick", NULL };
    static const char *const only_null[] = { NULL };
    static const char *const one[] = { "prog", "--samples=7", NULL };
    chrono_config cfg, d = chrono_config_default(), before;
    chrono_cli o;
    int rc;

    tap_diag("cli.h: chrono_cli_parse / chrono_cli_parse_ex with bad argc, argv and flag tables");
    cfg = d;
    expect(chrono_cli_parse(&cfg, NULL, 1, (char **)one), CHRONO_EINVAL, "chrono_cli_parse(NULL options)");
    memset(&o, 0x5A, sizeof o);
    rc = chrono_cli_parse(NULL, &o, 2, (char **)one);
    expect(rc, CHRONO_EINVAL, "chrono_cli_parse(NULL config)");
    tap_ok(o.error[0] && !strcmp(o.prog, "prog") && o.format == CHRONO_FORMAT_TEXT && !o.out && !o.filter,
           "  ... options reset, .error set (%s)", o.error);
    memset(&o, 0x5A, sizeof o);
    rc = chrono_cli_parse(&cfg, &o, -1, (char **)one);
    tap_ok(rc == CHRONO_EINVAL && o.error[0] && same_config(&cfg, &d), "chrono_cli_parse(argc = -1) -> CHRONO_EINVAL, .error set, config untouched");
    rc = chrono_cli_parse(&cfg, &o, INT_MIN, (char **)one);
    tap_ok(rc == CHRONO_EINVAL && o.error[0], "chrono_cli_parse(argc = INT_MIN) -> CHRONO_EINVAL");
    rc = chrono_cli_parse(&cfg, &o, 2, NULL);
    tap_ok(rc == CHRONO_EINVAL && o.error[0] && !strcmp(o.prog, "program"), "chrono_cli_parse(argc = 2, argv NULL) -> CHRONO_EINVAL, prog \"program\"");
    rc = chrono_cli_parse(&cfg, &o, 0, NULL);
    tap_ok(rc == 0 && !strcmp(o.prog, "program") && same_config(&cfg, &d) && !o.error[0], "chrono_cli_parse(argc = 0, argv NULL) -> CHRONO_OK, prog \"program\"");
    rc = chrono_cli_parse(&cfg, &o, 0, (char **)only_null);
    tap_ok(rc == 0 && !strcmp(o.prog, "program"), "chrono_cli_parse(argc = 0, argv = { NULL }) -> CHRONO_OK");
    rc = chrono_cli_parse(&cfg, &o, 1, (char **)only_null);
    tap_ok(rc == 0 && !strcmp(o.prog, "program"), "chrono_cli_parse(argc = 1, argv[0] NULL) -> CHRONO_OK, prog \"program\"");
    before = cfg;
    rc = chrono_cli_parse(&cfg, &o, 3, (char **)null_middle);
    tap_ok(rc == 0 && same_config(&cfg, &before), "chrono_cli_parse(argv = { prog, NULL, --samples=0 }) -> CHRONO_OK: NULL ends argv, nothing after it is read");
    rc = chrono_cli_parse(&cfg, &o, 3, (char **)missing_value);
    tap_ok(rc == CHRONO_EINVAL && !strncmp(o.error, "--samples", 9), "chrono_cli_parse(argv = { prog, --samples, NULL }, argc 3) -> CHRONO_EINVAL, missing value (%s)", o.error);
    rc = chrono_cli_parse(&cfg, &o, INT_MAX, (char **)quick);
    tap_ok(rc == 0 && o.quick == 1, "chrono_cli_parse(argc = INT_MAX, argv NULL-terminated after 2) -> CHRONO_OK, stops at the NULL");
}

static void test_cli_extra(void)
{
    int iv = 0, bv = 0;
    double dv = 0;
    const char *sv = NULL;
    chrono_cli_flag good[4], bad;
    static const char *const names[] = { "-x", "--", "x", "--a=b", "--samples", "--help" };
    static const char *const with_n[] = { "prog", "--n=5", NULL };
    chrono_config cfg;
    chrono_cli o;
    size_t i;
    int rc;
    char what[160];

    tap_diag("cli.h: the program's own flags (chrono_cli_parse_ex)");
    memset(good, 0, sizeof good);
    good[0].name = "--n"; good[0].kind = CHRONO_CLI_INT; good[0].value = &iv; good[0].min = 1; good[0].max = 10;
    good[1].name = "--d"; good[1].kind = CHRONO_CLI_DOUBLE; good[1].value = &dv; good[1].min = NAN; good[1].max = NAN;
    good[2].name = "--b"; good[2].kind = CHRONO_CLI_BOOL; good[2].value = &bv;
    good[3].name = "--s"; good[3].kind = CHRONO_CLI_STRING; good[3].value = &sv;

    cfg = chrono_config_default();
    expect(chrono_cli_parse_ex(&cfg, &o, 1, NULL, NULL, 1), CHRONO_EINVAL, "chrono_cli_parse_ex(argv NULL, argc 1)");
    rc = chrono_cli_parse_ex(&cfg, &o, 0, NULL, NULL, 1);
    tap_ok(rc == CHRONO_EINVAL && !strncmp(o.error, "program flags", 13), "chrono_cli_parse_ex(extra NULL, nextra 1) -> CHRONO_EINVAL (%s)", o.error);
    rc = chrono_cli_parse_ex(&cfg, &o, 0, NULL, good, SIZE_MAX);
    expect(rc, CHRONO_EINVAL, "chrono_cli_parse_ex(nextra = SIZE_MAX)");
    rc = chrono_cli_parse_ex(&cfg, &o, 0, NULL, NULL, 0);
    expect(rc, CHRONO_OK, "chrono_cli_parse_ex(extra NULL, nextra 0) (allowed)");
    for (i = 0; i < COUNT(names) + 5; i++) {
        bad = good[0];
        if (i < COUNT(names)) bad.name = names[i];
        else if (i == COUNT(names)) bad.name = NULL;
        else if (i == COUNT(names) + 1) bad.value = NULL;
        else if (i == COUNT(names) + 2) bad.kind = -1;
        else if (i == COUNT(names) + 3) bad.kind = 99;
        else { bad.min = 1e300; bad.max = 1e301; }   /* an INT flag no int can satisfy */
        (void)snprintf(what, sizeof what, "chrono_cli_parse_ex(a flag table entry with %s%s%s)",
                       i < COUNT(names) ? "name \"" : "", i < COUNT(names) ? names[i] : i == COUNT(names) ? "name NULL"
                       : i == COUNT(names) + 1 ? "value NULL" : i == COUNT(names) + 2 ? "kind -1" : i == COUNT(names) + 3 ? "kind 99"
                       : "INT bounds 1e300..1e301", i < COUNT(names) ? "\"" : "");
        iv = 5;
        expect(chrono_cli_parse_ex(&cfg, &o, 2, (char **)with_n, &bad, 1), CHRONO_EINVAL, what);
        tap_ok(iv == 5, "  ... .error set (%s), nothing parsed", o.error);
    }
    {
        static const char *const vals[][2] = {
            { "--n", "--n=x" }, { "--n", "--n=0" }, { "--n", "--n=11" }, { "--n", "--n=2147483648" }, { "--n", "--n=" },
            { "--d", "--d=nan" }, { "--d", "--d=inf" }, { "--d", "--d=1e999" }, { "--d", "--d=" }, { "--d", "--d" },
            { "--b", "--b=maybe" }, { "--b", "--b=" }, { "--b", "--b=2" }, { "--s", "--s=" }, { "--s", "--s" }
        };
        for (i = 0; i < COUNT(vals); i++) {
            char *argv[3];
            argv[0] = (char *)"prog";
            argv[1] = (char *)vals[i][1];
            argv[2] = NULL;
            iv = 5; dv = 5; bv = 5; sv = "keep";
            rc = chrono_cli_parse_ex(&cfg, &o, 2, argv, good, 4);
            (void)snprintf(what, sizeof what, "chrono_cli_parse_ex(program flag \"%s\")", vals[i][1]);
            expect(rc, CHRONO_EINVAL, what);
            tap_ok(!strncmp(o.error, vals[i][0], strlen(vals[i][0])) && iv == 5 && dv == 5 && bv == 5 && !strcmp(sv, "keep"),
                   "  ... .error names the flag (%s), its variable unchanged", o.error);
        }
    }
}

static void test_cli_program(chrono_session *s, int have_session)
{
    chrono_cli o, zo;
    chrono_session zs, cs;
    FILE *f;
    char out[4096];
    int rc, ok;
    const char *missing = "no-such-dir-test_bad_input/report.txt";

    tap_diag("cli.h: chrono_cli_usage/fail/handle_info/want/output/finish");
    memset(&zo, 0, sizeof zo);
    memset(&zs, 0, sizeof zs);
    if (closed_session(&cs) < 0) memset(&cs, 0, sizeof cs);
    chrono_cli_usage(NULL, "prog");
    f = scratch();
    if (f) {
        chrono_cli_usage(f, NULL);
        slurp(f, out, sizeof out);
        fclose(f);
        tap_ok(!strncmp(out, "usage: program [flags]\n", 23), "chrono_cli_usage(NULL stream) -> nothing; (f, prog NULL) -> \"usage: program ...\"");
    } else {
        tap_skip("cannot create test_bad_input.tmp");
    }
    tap_ok(chrono_cli_fail(NULL, NULL) == 2 && chrono_cli_fail(&zo, "") == 2,
           "chrono_cli_fail(NULL, NULL), (zeroed options, \"\") -> 2 (message on stderr)");
    tap_ok(chrono_cli_handle_info(NULL, NULL) == 0 && chrono_cli_handle_info(&zo, NULL) == 0,
           "chrono_cli_handle_info(NULL), (zeroed options) -> 0, prints nothing");
    tap_ok(chrono_cli_want(NULL, "x") == 0 && chrono_cli_want(&zo, NULL) == 0 && chrono_cli_want(&zo, "") == 1,
           "chrono_cli_want(NULL, name) -> 0, (o, NULL) -> 0, (zeroed options, \"\") -> 1");
    zo.filter = "";
    tap_ok(chrono_cli_want(&zo, "x") == 1, "chrono_cli_want(filter \"\") -> 1 (every name contains \"\")");
    zo.filter = NULL;

    tap_ok(chrono_cli_output(NULL) == NULL, "chrono_cli_output(NULL) -> NULL");
    memset(&o, 0, sizeof o);
    tap_ok(chrono_cli_refuse(NULL, "--processes", "x") == CHRONO_EINVAL && chrono_cli_refuse(&o, NULL, "x") == CHRONO_EINVAL,
           "chrono_cli_refuse(NULL options / NULL flag) -> CHRONO_EINVAL");
    tap_ok(chrono_cli_refuse(&o, "--processes", NULL) == 0 && !o.error[0],
           "chrono_cli_refuse(zeroed options: not given, why NULL) -> 0, no error");
    tap_ok(chrono_cli_refuse(&o, "--no-such-flag", "x") == CHRONO_EINVAL && strstr(o.error, "--no-such-flag"),
           "chrono_cli_refuse(a name that is not a common flag) -> CHRONO_EINVAL naming it (%s)", o.error);
    tap_ok(chrono_cli_reject(NULL, "--x", "v", "w") == CHRONO_EINVAL, "chrono_cli_reject(NULL options) -> CHRONO_EINVAL");
    tap_ok(chrono_cli_reject(&o, NULL, NULL, NULL) == CHRONO_EINVAL && o.error[0] && !strchr(o.error, '\n'),
           "chrono_cli_reject(o, NULL, NULL, NULL) -> CHRONO_EINVAL, .error still one line (%s)", o.error);
    memset(&o, 0, sizeof o);
    o.out_path = missing;
    ok = chrono_cli_output(&o) == NULL && !strncmp(o.error, "--out", 5) && o.out == NULL;
    ok &= chrono_cli_output(&o) == NULL;
    tap_ok(ok, "chrono_cli_output(--out in a missing directory) -> NULL twice, .error names --out (%s)", o.error);
    memset(&o, 0, sizeof o);
    o.out_path = "";
    tap_ok(chrono_cli_output(&o) == NULL && !strncmp(o.error, "--out", 5), "chrono_cli_output(--out \"\") -> NULL, .error set");

    expect(chrono_cli_finish(NULL, s), CHRONO_EINVAL, "chrono_cli_finish(NULL options)");
    memset(&o, 0, sizeof o);
    o.out_path = missing;
    rc = chrono_cli_finish(&o, s);
    expect(rc, CHRONO_EIO, "chrono_cli_finish(--out in a missing directory)");
    tap_ok(!strncmp(o.error, "--out", 5) && o.out == NULL, "  ... .error names --out, no stream left open");
    memset(&o, 0, sizeof o);
    o.out_path = tmp_path;
    expect(chrono_cli_finish(&o, NULL), CHRONO_EINVAL, "chrono_cli_finish(NULL session)");
    tap_ok(o.out == NULL, "  ... the --out file is closed");
    o.out_path = tmp_path;
    expect(chrono_cli_finish(&o, &zs), CHRONO_EINVAL, "chrono_cli_finish(never-opened zeroed session)");
    o.out_path = tmp_path;
    expect(chrono_cli_finish(&o, &cs), CHRONO_EINVAL, "chrono_cli_finish(closed session)");
    memset(&o, 0, sizeof o);
    o.list = 1;
    expect(chrono_cli_finish(&o, NULL), CHRONO_OK, "chrono_cli_finish(--list, NULL session): no report to write");
    if (have_session) {
        memset(&o, 0, sizeof o);
        o.out_path = tmp_path;
        o.format = (chrono_format)99;
        expect(chrono_cli_finish(&o, s), CHRONO_EINVAL, "chrono_cli_finish(format (chrono_format)99)");
    } else {
        tap_skip("no session");
    }
}

int main(void)
{
    chrono_session s;
    chrono_config c = short_config();
    int rc, have;

    test_base();
    test_clock();
    test_cpu();
    test_stats_sort();
    test_stats_quantile_ci();
    test_stats_compute();
    test_stats_ratio_fit();
    test_stats_histogram();

    rc = chrono_session_open(&s, &c);
    have = rc == 0;
    /* A session that cannot open on the real clock is a failure, not a comment:
       the checks that need one are skipped, each with this reason. */
    tap_ok(have, "chrono_session_open(short config) on the real clock (rc %d: %s)", rc, chrono_strerror(rc));
    test_bench(&s, have);
    test_report_strings();
    test_report(&s, have);
    test_cli_flags();
    test_cli_args();
    test_cli_extra();
    test_cli_program(&s, have);
    if (have) chrono_session_close(&s);
    remove(tmp_path);
    return tap_done();
}
