/* test_ab.c — what chronoscope-ab takes from the library, on deterministic
   inputs: the verdict rule (chrono_change_decide), the module descriptor's
   check (chrono_module_check) and the BMF writer (report.h), checked field by
   field against the values they came from. */
#include <chronoscope.h>
#include "tap.h"

/* A comparison whose head/base is h with the interval [lo, hi] at `level`. */
static chrono_comparison cmp_of(double h, double lo, double hi, double level)
{
    chrono_comparison c;
    memset(&c, 0, sizeof c);
    c.ratio = 1 / h; c.ci_low = 1 / hi; c.ci_high = 1 / lo; c.ci_level = level;
    c.cycles_ratio = 1 / (h * 1.01);
    return c;
}

static chrono_change decide(double h, double lo, double hi, double level, double threshold)
{
    chrono_comparison c = cmp_of(h, lo, hi, level);
    chrono_change_verdict v;
    if (chrono_change_decide(&c, threshold, 0.95, &v) < 0) return (chrono_change)-1;
    return v.change;
}

static void test_rule(void)
{
    chrono_comparison c = cmp_of(3.0, 2.9, 3.1, 0.969);
    chrono_change_verdict v;
    int rc = chrono_change_decide(&c, 0.02, 0.95, &v);
    tap_ok(rc == 0 && v.change == CHRONO_CHANGE_SLOWER, "3x slower, interval [2.9, 3.1]: slower (%s)", v.why);
    tap_ok(fabs(v.ratio - 3.0) < 1e-12 && fabs(v.ci_low - 2.9) < 1e-12 && fabs(v.ci_high - 3.1) < 1e-12,
           "head/base and its interval are 1 / the comparison's (A = base): %.6f [%.6f, %.6f]", v.ratio, v.ci_low, v.ci_high);
    tap_ok(fabs(v.cycles_ratio - 3.03) < 1e-12, "cycles head/base is 1 / cycles_ratio: %.6f", v.cycles_ratio);
    tap_ok(strstr(v.why, "+200.0%") && strstr(v.why, "[+190.0%, +210.0%]") && strstr(v.why, "2%"),
           "why gives the change, its interval and the threshold: '%s'", v.why);
    /* the threshold's direction: a change above it, one below it, one straddling it */
    tap_ok(decide(1.025, 1.01, 1.04, 0.97, 0.02) == CHRONO_CHANGE_SLOWER, "+2.5%% [+1%%, +4%%], threshold 2%%: slower");
    tap_ok(decide(1.025, 1.01, 1.04, 0.97, 0.03) == CHRONO_CHANGE_INCONCLUSIVE,
           "the same with threshold 3%%: not slower (reaches beyond 3%%: inconclusive)");
    tap_ok(decide(1.015, 1.005, 1.019, 0.97, 0.02) == CHRONO_CHANGE_NONE,
           "+1.5%% [+0.5%%, +1.9%%], threshold 2%%: a real change within the threshold, no clear difference");
    tap_ok(decide(1.03, 0.995, 1.06, 0.97, 0.02) == CHRONO_CHANGE_INCONCLUSIVE,
           "+3%% with an interval holding 1: not slower (the interval must lie above 1), inconclusive");
    tap_ok(decide(1.0, 0.995, 1.005, 0.97, 0.02) == CHRONO_CHANGE_NONE, "1.00 [0.995, 1.005]: no clear difference");
    tap_ok(decide(0.9, 0.89, 0.91, 0.97, 0.02) == CHRONO_CHANGE_FASTER, "0.90 [0.89, 0.91]: faster");
    tap_ok(decide(0.99, 0.985, 0.995, 0.97, 0.02) == CHRONO_CHANGE_NONE, "0.99 [0.985, 0.995]: faster within the threshold");
    tap_ok(decide(3.0, 2.9, 3.1, 0.75, 0.02) == CHRONO_CHANGE_INCONCLUSIVE, "3x at a 75%% level (3 processes): inconclusive");
    tap_ok(decide(3.0, 2.9, 3.1, 0, 0.02) == CHRONO_CHANGE_INCONCLUSIVE, "no interval (level 0): inconclusive");
    c = cmp_of(3.0, 2.9, 3.1, 0);
    rc = chrono_change_decide(&c, 0.02, 0.95, &v);
    tap_ok(rc == 0 && fabs(v.ratio - 3.0) < 1e-12 && v.ci_low != v.ci_low && v.ci_high != v.ci_high,
           "no interval (level 0): head/base %g, its interval NAN as the comparison's report has none ([%g, %g])"
           "   [ab row: a level-0 interval]", v.ratio, v.ci_low, v.ci_high);
    tap_ok(decide(3.0, NAN, NAN, 0.97, 0.02) == CHRONO_CHANGE_INCONCLUSIVE, "a NaN interval: inconclusive");
    tap_ok(decide(1.0, 0.99, 1.01, 0.97, -0.01) == (chrono_change)-1 && decide(1, 0.99, 1.01, 0.97, NAN) == (chrono_change)-1,
           "a negative or NaN threshold: CHRONO_EINVAL");
    tap_ok(!strcmp(chrono_change_name(CHRONO_CHANGE_SLOWER), "slower") &&
           !strcmp(chrono_change_name(CHRONO_CHANGE_NONE), "no clear difference"), "the verdicts' names");
}

static size_t no_table(const chrono_entry **t) { *t = NULL; return 0; }

static void test_module_check(void)
{
    chrono_module m = { CHRONO_MODULE_MAGIC, CHRONO_VERSION_NUM, CHRONO_VERSION_STRING, sizeof(chrono_entry), no_table };
    char why[200];
    int rc = chrono_module_check(&m, why, sizeof why);
    tap_ok(rc == 0 && why[0] == '\0', "a descriptor of this header: accepted");
    m.version = 100; m.version_string = "0.1.0";
    rc = chrono_module_check(&m, why, sizeof why);
    tap_ok(rc == CHRONO_EVERSION && strstr(why, "0.1.0") && strstr(why, CHRONO_VERSION_STRING),
           "another header version: CHRONO_EVERSION naming both ('%s')", why);
    m.version = CHRONO_VERSION_NUM; m.entry_size = sizeof(chrono_entry) + 8;
    tap_ok(chrono_module_check(&m, why, sizeof why) == CHRONO_EVERSION, "another table layout: CHRONO_EVERSION ('%s')", why);
    m.entry_size = sizeof(chrono_entry); m.magic = 0;
    tap_ok(chrono_module_check(&m, NULL, 0) == CHRONO_EINVAL && chrono_module_check(NULL, why, sizeof why) == CHRONO_EINVAL,
           "not a descriptor (bad magic, NULL): CHRONO_EINVAL");
}

/* A result named `name` with median m and interval [lo, hi]. */
static chrono_result result_of(const char *name, double m, double lo, double hi)
{
    chrono_result r;
    memset(&r, 0, sizeof r);
    strcpy(r.name, name);
    r.ns.median = m; r.ns.ci_low = lo; r.ns.ci_high = hi; r.ns.ci_level = 0.97; r.ns.n = 101;
    r.cycles.median = NAN;
    return r;
}

static void test_bmf(void)
{
    chrono_session s;
    chrono_result runs[2];
    chrono_comparison c;
    char buf[4096];
    size_t n;
    FILE *f = tmpfile();
    chrono_format fmt;
    memset(&s, 0, sizeof s);
    s.is_open = 1;
    s.cfg.confidence = 0.95;
    runs[0] = result_of("sum \"4KiB\"", 250.5, 249.75, 251.25);
    runs[1] = result_of("no median", NAN, NAN, NAN);
    memset(&c, 0, sizeof c);
    c.a = result_of("base/add", 100, 99, 101);
    c.b = result_of("head/add", 300, 297, 303);
    c.ratio = 0.25; c.ci_low = 0.2; c.ci_high = 0.5; c.ci_level = 0.97;
    s.results = runs; s.nresults = 2;
    s.comparisons = &c; s.ncomparisons = 1;
    tap_ok(chrono_format_parse("bmf", &fmt) == 0 && fmt == CHRONO_FORMAT_BMF && !strcmp(chrono_format_name(fmt), "bmf"),
           "--format=bmf names CHRONO_FORMAT_BMF");
    if (!f) { tap_ok(0, "tmpfile"); return; }
    tap_ok(chrono_report(&s, f, CHRONO_FORMAT_BMF) == 0, "chrono_report writes BMF");
    rewind(f);
    n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    tap_ok(!strcmp(buf,
        "{\n"
        "  \"sum \\\"4KiB\\\"\": {\n"
        "    \"latency\": {\"value\": 250.5, \"lower_value\": 249.75, \"upper_value\": 251.25}\n"
        "  },\n"
        "  \"base/add\": {\n"
        "    \"latency\": {\"value\": 100, \"lower_value\": 99, \"upper_value\": 101},\n"
        "    \"ratio\": {\"value\": 0.25, \"lower_value\": 0.2, \"upper_value\": 0.5}\n"
        "  },\n"
        "  \"head/add\": {\n"
        "    \"latency\": {\"value\": 300, \"lower_value\": 297, \"upper_value\": 303},\n"
        "    \"ratio\": {\"value\": 4, \"lower_value\": 2, \"upper_value\": 5}\n"
        "  }\n"
        "}\n"),
        "BMF: each result's median and interval as latency, a side's ratio to the other (b: 1/ratio, its "
        "interval inverted), a result without a median left out, names escaped");
    if (tap__failed) tap_diag("got:\n%s", buf);
}

int main(void)
{
    test_rule();
    test_module_check();
    test_bmf();
    return tap_done();
}
