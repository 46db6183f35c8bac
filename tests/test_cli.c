/* test_cli — chrono_cli_parse and friends: every bad input is refused with a
   message naming the flag and the value; good input sets the configuration
   exactly; --quick yields to explicit flags in any order; --list / --filter;
   the program's own flags; --out.  Exit statuses and the printed help are
   checked by check_cli.py, which runs report_fixture. */
#include <chronoscope.h>
#include <chronoscope/cli.h>
#define CHRONO_FIXTURE_NO_MAIN
#include "report_fixture.c"
#include "tap.h"
#include "same_config.h"

#define ARGS(...) { "prog", __VA_ARGS__, NULL }
#define COUNT(a) ((int)(sizeof a / sizeof a[0]) - 1)

static int parse(chrono_config *cfg, chrono_cli *o, int argc, const char **argv)
{
    *cfg = chrono_config_default();
    return chrono_cli_parse(cfg, o, argc, (char **)argv);
}

/* A CPU this thread may pin to, or -1. */
static int usable_cpu(void)
{
    int n = chrono_cpu_count(), i;
    for (i = 0; i < n; i++)
        if (chrono_cpu_allowed(i) == 1) return i;
    return -1;
}

static void test_defaults(void)
{
    const char *argv[] = { "prog", NULL };
    chrono_config cfg, d = chrono_config_default();
    chrono_cli o;
    int rc = parse(&cfg, &o, 1, argv);
    tap_ok(rc == 0 && same_config(&cfg, &d), "no flags: 0, configuration untouched");
    tap_ok(o.format == CHRONO_FORMAT_TEXT && !o.out_path && !o.filter && !o.list && !o.help && !o.version && !o.quick &&
           !o.error[0] && !strcmp(o.prog, "prog"), "no flags: text to stdout, no filter, no error");
    tap_ok(chrono_cli_parse(&cfg, &o, 0, NULL) == 0 && !strcmp(o.prog, "program"), "argc 0 is fine");
    tap_ok(chrono_cli_parse(NULL, &o, 1, (char **)argv) == CHRONO_EINVAL && o.error[0], "NULL config: CHRONO_EINVAL");
    tap_ok(chrono_cli_parse(&cfg, NULL, 1, (char **)argv) == CHRONO_EINVAL, "NULL options: CHRONO_EINVAL");
}

static void test_good(void)
{
    const char *a1[] = ARGS("--format=json", "--out=report.json", "--samples=7", "--warmup-ms=2.5", "--max-ms", "100",
                            "--filter=sum", "--no-pin");
    const char *a2[] = ARGS("--format", "csv", "--out", "-", "--samples", "7", "--warmup-ms", "2.5e0", "--max-ms=1e2",
                            "--filter", "sum", "--no-pin");
    const char *fmts[][2] = { { "--format=text", "text" }, { "--format=md", "md" }, { "--format=markdown", "md" },
                              { "--format=csv", "csv" }, { "--format=json", "json" } };
    chrono_config cfg, want = chrono_config_default(), cfg2;
    chrono_cli o, o2;
    char cpuarg[32];
    int rc, cpu, i;
    want.samples = 7; want.warmup_ms = 2.5; want.max_ms = 100; want.pin = CHRONO_PIN_OFF;
    rc = parse(&cfg, &o, COUNT(a1), a1);
    tap_ok(rc == 0 && same_config(&cfg, &want), "--flag=value: samples 7, warmup 2.5, max 100, no pin; nothing else changed");
    tap_ok(o.format == CHRONO_FORMAT_JSON && o.out_path && !strcmp(o.out_path, "report.json") && o.filter &&
           !strcmp(o.filter, "sum"), "--format=json --out --filter recorded");
    rc = parse(&cfg2, &o2, COUNT(a2), a2);
    tap_ok(rc == 0 && same_config(&cfg2, &want) && o2.format == CHRONO_FORMAT_CSV && !strcmp(o2.out_path, "-") &&
           !strcmp(o2.filter, "sum"), "--flag value form gives the same");
    chrono_cli_close(&o);
    chrono_cli_close(&o2);
    {
        const char *a3[] = ARGS("--keep-contended", "--samples=7");
        chrono_config keep = chrono_config_default();
        keep.samples = 7;
        keep.contention_tolerance = CHRONO_CONTENTION_OFF;
        rc = parse(&cfg, &o, COUNT(a3), a3);
        tap_ok(rc == 0 && same_config(&cfg, &keep), "--keep-contended: contention_tolerance = CHRONO_CONTENTION_OFF");
    }
    for (i = 0; i < 5; i++) {
        const char *a[] = { "prog", fmts[i][0], NULL };
        rc = parse(&cfg, &o, 2, a);
        tap_ok(rc == 0 && !strcmp(chrono_format_name(o.format), fmts[i][1]), "%s", fmts[i][0]);
    }
    cpu = usable_cpu();
    if (cpu >= 0) {
        const char *a[] = { "prog", cpuarg, NULL };
        (void)snprintf(cpuarg, sizeof cpuarg, "--cpu=%d", cpu);
        rc = parse(&cfg, &o, 2, a);
        tap_ok(rc == 0 && cfg.pin == CHRONO_PIN_CPU && cfg.cpu == cpu, "%s: pin CHRONO_PIN_CPU to cpu %d", cpuarg, cpu);
    } else {
        const char *a[] = ARGS("--cpu=0");
        rc = parse(&cfg, &o, COUNT(a), a);
        tap_ok(rc == CHRONO_EINVAL && strstr(o.error, "--cpu") && strstr(o.error, "'0'"),
               "--cpu=0 where pinning is impossible: refused, naming flag and value (%s)", o.error);
    }
    {
        const char *a[] = ARGS("--list", "--help", "-h", "--version");
        rc = parse(&cfg, &o, COUNT(a), a);
        tap_ok(rc == 0 && o.list && o.help && o.version && !o.quick, "--list --help -h --version set their flags");
    }
    {
        const char *a[] = ARGS("--samples=1", "--samples=1000000", "--warmup-ms=0.001", "--max-ms=86400000");
        rc = parse(&cfg, &o, COUNT(a), a);
        tap_ok(rc == 0 && cfg.samples == 1000000 && cfg.warmup_ms == (double)0.001 && cfg.max_ms == 86400000,
               "range limits are inclusive; the last of a repeated flag wins");
    }
    {
        const char *a[] = ARGS("--samples=+12", "--warmup-ms=.5", "--max-ms=7.");
        rc = parse(&cfg, &o, COUNT(a), a);
        tap_ok(rc == 0 && cfg.samples == 12 && cfg.warmup_ms == 0.5 && cfg.max_ms == 7, "+12, .5 and 7. are numbers");
    }
}

static void test_quick(void)
{
    const char *q[] = ARGS("--quick");
    const char *q1[] = ARGS("--quick", "--samples=50", "--max-ms=1000");
    const char *q2[] = ARGS("--samples=50", "--max-ms", "1000", "--quick");
    const char *q3[] = ARGS("--warmup-ms=1", "--quick");
    chrono_config cfg;
    chrono_cli o;
    int rc = parse(&cfg, &o, COUNT(q), q);
    tap_ok(rc == 0 && o.quick && cfg.samples == 11 && cfg.warmup_ms == 5 && cfg.max_ms == 300 && cfg.min_sample_us == 20,
           "--quick: 11 samples, warmup 5 ms, budget 300 ms, min sample 20 us");
    rc = parse(&cfg, &o, COUNT(q1), q1);
    tap_ok(rc == 0 && cfg.samples == 50 && cfg.max_ms == 1000 && cfg.warmup_ms == 5 && cfg.min_sample_us == 20,
           "--quick first: explicit --samples and --max-ms win");
    rc = parse(&cfg, &o, COUNT(q2), q2);
    tap_ok(rc == 0 && cfg.samples == 50 && cfg.max_ms == 1000 && cfg.warmup_ms == 5 && cfg.min_sample_us == 20,
           "--quick last: explicit --samples and --max-ms win");
    rc = parse(&cfg, &o, COUNT(q3), q3);
    tap_ok(rc == 0 && cfg.warmup_ms == 1 && cfg.samples == 11, "--warmup-ms before --quick wins");
}

/* s with control characters as '?', for a one-line test description. */
static const char *printable(char *buf, size_t n, const char *s)
{
    size_t i;
    for (i = 0; s[i] && i + 1 < n; i++) buf[i] = (unsigned char)s[i] < 0x20 ? '?' : s[i];
    buf[i] = '\0';
    return buf;
}

/* Each bad input: CHRONO_EINVAL, one line naming the flag and the value (or what is missing). */
static void test_bad(void)
{
    static const char *const cases[][4] = {
        /* argv[1], argv[2] or NULL, two strings the message must hold */
        { "--samples=0", NULL, "--samples", "'0'" },
        { "--cpu=99999", NULL, "--cpu", "'99999'" },
        { "--warmup-ms=-5", NULL, "--warmup-ms", "'-5'" },
        { "--format=xml", NULL, "--format", "'xml'" },
        { "--bogus", NULL, "--bogus", "unknown flag" },
        { "--bogus=3", NULL, "--bogus", "'3'" },
        { "--samples", NULL, "--samples", "missing value" },
        { "--samples=", NULL, "--samples", "missing value" },
        { "--samples", "--quick", "--samples", "missing value" },
        { "--samples=abc", NULL, "--samples", "'abc' is not an integer" },
        { "--samples=12x", NULL, "--samples", "'12x'" },
        { "--samples= 5", NULL, "--samples", "' 5'" },
        { "--samples=1.5", NULL, "--samples", "'1.5'" },
        { "--samples=-", NULL, "--samples", "'-'" },
        { "--samples=1000001", NULL, "--samples", "out of range (1..1000000)" },
        { "--samples=99999999999999999999999", NULL, "--samples", "out of range" },
        { "--samples=-99999999999999999999999", NULL, "--samples", "out of range" },
        { "--samples", "-3", "--samples", "'-3' is out of range" },
        { "--warmup-ms=nan", NULL, "--warmup-ms", "'nan' is not a number" },
        { "--warmup-ms=inf", NULL, "--warmup-ms", "'inf'" },
        { "--warmup-ms=-inf", NULL, "--warmup-ms", "'-inf'" },
        { "--warmup-ms=1e999", NULL, "--warmup-ms", "out of range" },
        { "--warmup-ms=0", NULL, "--warmup-ms", "'0' is out of range" },
        { "--warmup-ms=1,5", NULL, "--warmup-ms", "'1,5'" },
        { "--warmup-ms=0x10", NULL, "--warmup-ms", "'0x10'" },
        { "--warmup-ms=1e", NULL, "--warmup-ms", "'1e'" },
        { "--warmup-ms=.", NULL, "--warmup-ms", "'.'" },
        { "--max-ms=0.5", NULL, "--max-ms", "out of range (1..86400000)" },
        { "--max-ms=1.5.2", NULL, "--max-ms", "'1.5.2'" },
        { "--cpu=-1", NULL, "--cpu", "'-1'" },
        { "--cpu=one", NULL, "--cpu", "'one'" },
        { "--cpu", NULL, "--cpu", "missing value" },
        { "--format", NULL, "--format", "missing value" },
        { "--format=JSON", NULL, "--format", "'JSON'" },
        { "--out=", NULL, "--out", "missing value" },
        { "--filter=", NULL, "--filter", "missing value" },
        { "--no-pin=1", NULL, "--no-pin", "'1'" },
        { "--quick=yes", NULL, "--quick", "'yes'" },
        { "--keep-contended=1", NULL, "--keep-contended", "'1'" },
        { "--help=1", NULL, "--help", "'1'" },
        { "extra", NULL, "extra", "unexpected argument" },
        { "-x", NULL, "-x", "unexpected argument" },
        { "--", NULL, "--", "unexpected argument" },
        { "--samples=\x01\n", NULL, "--samples", "'?" "?'" },
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *argv[4] = { "prog", cases[i][0], cases[i][1], NULL };
        int argc = cases[i][1] ? 3 : 2, rc;
        chrono_config cfg, d = chrono_config_default();
        chrono_cli o;
        char shown[64];
        rc = parse(&cfg, &o, argc, argv);
        tap_ok(rc == CHRONO_EINVAL && strstr(o.error, cases[i][2]) && strstr(o.error, cases[i][3]) && !strchr(o.error, '\n') &&
               same_config(&cfg, &d), "bad input %s%s%s -> %s", printable(shown, sizeof shown, cases[i][0]),
               cases[i][1] ? " " : "", cases[i][1] ? cases[i][1] : "", o.error);
    }
    {
        int cpu = usable_cpu();
        char arg[32];
        const char *argv[] = { "prog", "--no-pin", arg, NULL }, *after[] = { "prog", arg, "--no-pin", NULL };
        (void)snprintf(arg, sizeof arg, "--cpu=%d", cpu >= 0 ? cpu : 0);
        if (cpu >= 0) {
            chrono_config cfg;
            chrono_cli o;
            int rc = parse(&cfg, &o, 3, argv);
            tap_ok(rc == CHRONO_EINVAL && strstr(o.error, "--no-pin") && strstr(o.error, arg), "--no-pin with %s: conflict (%s)",
                   arg, o.error);
            /* --no-pin after --cpu resets cfg.cpu: the message still quotes what was typed */
            rc = parse(&cfg, &o, 3, after);
            tap_ok(rc == CHRONO_EINVAL && strstr(o.error, arg) && !strstr(o.error, "--cpu=-1"),
                   "%s --no-pin: the conflict names %s as typed (%s)", arg, arg, o.error);
        } else {
            tap_skip("no CPU to pin to");
            tap_skip("no CPU to pin to");
        }
    }
    {
        char long_flag[200];
        const char *argv[] = { "prog", long_flag, NULL };
        chrono_config cfg;
        chrono_cli o;
        memset(long_flag, 'a', sizeof long_flag - 1);
        long_flag[0] = long_flag[1] = '-';
        long_flag[sizeof long_flag - 1] = '\0';
        tap_ok(parse(&cfg, &o, 2, argv) == CHRONO_EINVAL && strstr(o.error, "unknown flag") && strstr(o.error, "...") &&
               strlen(o.error) < sizeof o.error - 1, "a 200-byte unknown flag: refused, quoted shortened (%s)", o.error);
    }
}

static void test_extra(void)
{
    int reads = -1, verbose = -1;
    double ratio = -1;
    const char *label = NULL;
    chrono_cli_flag flags[4];
    chrono_config cfg;
    chrono_cli o;
    int rc;
    memset(flags, 0, sizeof flags);
    flags[0].name = "--reads"; flags[0].kind = CHRONO_CLI_INT; flags[0].value = &reads; flags[0].min = 1; flags[0].max = 100;
    flags[0].help = "reads per call";
    flags[1].name = "--ratio"; flags[1].kind = CHRONO_CLI_DOUBLE; flags[1].value = &ratio; flags[1].min = 0; flags[1].max = 1;
    flags[2].name = "--verbose"; flags[2].kind = CHRONO_CLI_BOOL; flags[2].value = &verbose;
    flags[3].name = "--label"; flags[3].kind = CHRONO_CLI_STRING; flags[3].value = &label;
    {
        const char *a[] = ARGS("--reads=42", "--ratio", "0.25", "--verbose", "--label", "x,y", "--samples=9");
        cfg = chrono_config_default();
        rc = chrono_cli_parse_ex(&cfg, &o, COUNT(a), (char **)a, flags, 4);
        tap_ok(rc == 0 && reads == 42 && ratio == 0.25 && verbose == 1 && label && !strcmp(label, "x,y") && cfg.samples == 9,
               "program flags: int, double, bool, string, with the common ones");
    }
    {
        const char *a[] = ARGS("--verbose=no", "--reads", "7");
        rc = chrono_cli_parse_ex(&cfg, &o, COUNT(a), (char **)a, flags, 4);
        tap_ok(rc == 0 && verbose == 0 && reads == 7, "--verbose=no, --reads 7");
    }
    {
        static const char *const bad[][3] = {
            { "--reads=0", "--reads", "'0' is out of range (1..100)" },
            { "--reads=101", "--reads", "'101'" },
            { "--reads=x", "--reads", "'x' is not an integer" },
            { "--reads", "--reads", "missing value" },
            { "--ratio=1.5", "--ratio", "'1.5' is out of range (0..1)" },
            { "--ratio=nan", "--ratio", "'nan'" },
            { "--verbose=maybe", "--verbose", "'maybe'" },
            { "--verbose=", "--verbose", "missing value" },
            { "--label=", "--label", "missing value" },
            { "--labels=x", "--labels", "unknown flag" },
        };
        size_t i;
        for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            const char *a[] = { "prog", bad[i][0], NULL };
            rc = chrono_cli_parse_ex(&cfg, &o, 2, (char **)a, flags, 4);
            tap_ok(rc == CHRONO_EINVAL && strstr(o.error, bad[i][1]) && strstr(o.error, bad[i][2]), "program flag %s -> %s",
                   bad[i][0], o.error);
        }
    }
    {
        chrono_cli_flag broken = flags[0];
        const char *a[] = ARGS("--reads=5");
        broken.name = "--samples";
        tap_ok(chrono_cli_parse_ex(&cfg, &o, COUNT(a), (char **)a, &broken, 1) == CHRONO_EINVAL && o.error[0],
               "a program flag may not shadow a common one");
        broken.name = "reads";
        tap_ok(chrono_cli_parse_ex(&cfg, &o, COUNT(a), (char **)a, &broken, 1) == CHRONO_EINVAL, "program flag names start with --");
        broken.name = "--reads"; broken.value = NULL;
        tap_ok(chrono_cli_parse_ex(&cfg, &o, COUNT(a), (char **)a, &broken, 1) == CHRONO_EINVAL, "program flag needs a value pointer");
        broken.value = &reads; broken.kind = 9;
        tap_ok(chrono_cli_parse_ex(&cfg, &o, COUNT(a), (char **)a, &broken, 1) == CHRONO_EINVAL, "program flag needs a known kind");
        tap_ok(chrono_cli_parse_ex(&cfg, &o, COUNT(a), (char **)a, NULL, 1) == CHRONO_EINVAL, "NULL table with nextra 1");
    }
    {
        FILE *f = tmpfile();
        char text[4096];
        size_t n = 0;
        if (f) {
            chrono__cli_usage_ex(f, "prog", flags, 4, 0);
            rewind(f);
            n = fread(text, 1, sizeof text - 1, f);
            fclose(f);
        }
        text[n] = '\0';
        tap_ok(strstr(text, "--reads=N") && strstr(text, "reads per call (1..100)") && strstr(text, "--verbose") &&
               strstr(text, "--quick") && strstr(text, "--format=FMT"), "usage lists the common and the program's flags");
    }
}

/* --out's format: --format when given, else the extension; an unknown one refused. */
static void test_out_format(void)
{
    static const struct { const char *a, *b; int rc; chrono_format fmt; } cases[] = {
        { "--out=r.json", NULL, 0, CHRONO_FORMAT_JSON },
        { "--out=R.CSV", NULL, 0, CHRONO_FORMAT_CSV },
        { "--out=notes.md", NULL, 0, CHRONO_FORMAT_MARKDOWN },
        { "--out=page.htm", NULL, 0, CHRONO_FORMAT_HTML },
        { "--out=r.txt", NULL, 0, CHRONO_FORMAT_TEXT },
        { "--out=report", NULL, 0, CHRONO_FORMAT_TEXT },            /* no extension: text */
        { "--out=./v1.2/report", NULL, 0, CHRONO_FORMAT_TEXT },     /* a dot in a folder is no extension */
        { "--out=.hidden", NULL, 0, CHRONO_FORMAT_TEXT },
        { "--out=r.xyz", "--format=json", 0, CHRONO_FORMAT_JSON },  /* --format given: any name */
        { "--out=r.json", "--format=md", 0, CHRONO_FORMAT_MARKDOWN },
        { "--out=r.xyz", NULL, CHRONO_EINVAL, CHRONO_FORMAT_TEXT },
        { "--out=dir/r.json.bak", NULL, CHRONO_EINVAL, CHRONO_FORMAT_TEXT },
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *argv[] = { "prog", cases[i].a, cases[i].b, NULL };
        chrono_config cfg;
        chrono_cli o;
        int rc = parse(&cfg, &o, cases[i].b ? 3 : 2, argv);
        if (cases[i].rc == 0)
            tap_ok(rc == 0 && o.out_format == cases[i].fmt, "%s%s%s: the file's format is %s (rc %d, %s)", cases[i].a,
                   cases[i].b ? " " : "", cases[i].b ? cases[i].b : "", chrono_format_name(cases[i].fmt), rc,
                   chrono_format_name(o.out_format));
        else
            tap_ok(rc == CHRONO_EINVAL && !strncmp(o.error, "--out: '", 8) && strstr(o.error, cases[i].a + 6) &&
                   strstr(o.error, strrchr(cases[i].a, '.')) && strstr(o.error, "unknown extension"),
                   "%s: refused, the message names the file and its extension (%s)", cases[i].a, o.error);
    }
}

/* chrono_cli_refuse: a common flag a program does not do. */
static void test_refuse(void)
{
    const char *given[] = ARGS("--processes=3"), *none[] = ARGS("--quick");
    chrono_config cfg;
    chrono_cli o;
    FILE *f;
    char text[4096];
    size_t n = 0;
    (void)parse(&cfg, &o, COUNT(given), given);
    tap_ok(chrono_cli_refuse(&o, "--processes", "one process only") == CHRONO_EINVAL && !strncmp(o.error, "--processes:", 12) &&
           strstr(o.error, "not supported") && strstr(o.error, "one process only"),
           "chrono_cli_refuse(--processes) when given: CHRONO_EINVAL, the message says why (%s)", o.error);
    (void)parse(&cfg, &o, COUNT(none), none);
    tap_ok(chrono_cli_refuse(&o, "--processes", "x") == 0 && !o.error[0], "chrono_cli_refuse when not given: 0");
    tap_ok(chrono_cli_refuse(&o, "--bogus", "x") == CHRONO_EINVAL, "chrono_cli_refuse(a name that is no common flag): CHRONO_EINVAL");
    if ((f = tmpfile()) != NULL) {
        chrono__cli_usage_ex(f, "prog", NULL, 0, o.chrono__refused);
        rewind(f);
        n = fread(text, 1, sizeof text - 1, f);
        fclose(f);
    }
    text[n] = '\0';
    tap_ok(n > 0 && !strstr(text, "--processes") && strstr(text, "--baseline"), "a refused flag is left out of the usage");
    tap_ok(chrono_cli_reject(&o, "--baseline", "no\nsuch", "is bad") == CHRONO_EINVAL && !strcmp(o.error, "--baseline: 'no?such' is bad"),
           "chrono_cli_reject: one printable line naming the flag and the value (%s)", o.error);
}

static void test_want(void)
{
    const char *a[] = ARGS("--filter=sum");
    const char *l[] = ARGS("--list", "--filter", "#");
    chrono_config cfg;
    chrono_cli o;
    (void)parse(&cfg, &o, 1, a);
    tap_ok(chrono_cli_want(&o, "anything") == 1, "no filter: every name wanted");
    (void)parse(&cfg, &o, COUNT(a), a);
    tap_ok(chrono_cli_want(&o, "sum_in_order") == 1 && chrono_cli_want(&o, "a_sum") == 1, "--filter=sum: names containing it");
    tap_ok(chrono_cli_want(&o, "stride") == 0 && chrono_cli_want(&o, "SUM") == 0, "--filter=sum: others not (case matters)");
    chrono_cli_close(&o);
    (void)parse(&cfg, &o, COUNT(l), l);
    /* the listed name is printed on stdout: make it a TAP comment */
    tap_ok(chrono_cli_want(&o, "# listed by chrono_cli_want") == 0, "--list: wanted names printed, nothing runs");
    tap_ok(chrono_cli_want(&o, "not listed") == 0, "--list --filter: other names neither printed nor run");
    tap_ok(chrono_cli_want(NULL, "x") == 0 && chrono_cli_want(&o, NULL) == 0, "NULL: not wanted");
    chrono_cli_close(&o);
}

/* Which of NAMES the flags select, as a string of 0/1 (chrono_cli_match), or
   "EINVAL: <error>" when parsing refuses them. */
static const char *const filter_names[] = { "sum_in_order/64", "sum_shuffled/64", "sum_in_order/4096", "stride/64",
                                            "stride/4096", "a+b", "aab", "copy vs move" };
#define NNAMES (sizeof filter_names / sizeof filter_names[0])

static const char *selected(const char *f1, const char *f2, const char *f3)
{
    static char out[300];
    const char *argv[5];
    chrono_config cfg;
    chrono_cli o;
    int argc = 1;
    size_t i;
    argv[0] = "prog";
    if (f1) argv[argc++] = f1;
    if (f2) argv[argc++] = f2;
    if (f3) argv[argc++] = f3;
    argv[argc] = NULL;
    if (parse(&cfg, &o, argc, argv) < 0) {
        (void)snprintf(out, sizeof out, "EINVAL: %s", o.error);
        return out;
    }
    for (i = 0; i < NNAMES; i++) {
        int m = chrono_cli_match(&o, filter_names[i]);
        out[i] = m == 1 ? '1' : m == 0 ? '0' : '?';
        if (m != chrono_cli_want(&o, filter_names[i])) out[i] = 'W';   /* want must agree (no --list) */
    }
    out[i] = '\0';
    chrono_cli_close(&o);
    chrono_cli_close(&o);   /* twice is fine */
    return out;
}

static void check_sel(const char *what, const char *got, const char *want)
{
    tap_ok(!strcmp(got, want), "%s: selects %s (got %s; names: sum_in_order/64 sum_shuffled/64 sum_in_order/4096 "
           "stride/64 stride/4096 a+b aab 'copy vs move')", what, want, got);
}

/* --filter: POSIX extended regular expressions (substrings only without
   <regex.h>), '-' excludes, several combine; a bad pattern is refused. */
static void test_filter(void)
{
    const char *got;
    char many[CHRONO_CLI_FILTERS_MAX + 2][16];
    const char *argv[CHRONO_CLI_FILTERS_MAX + 3];
    chrono_config cfg;
    chrono_cli o;
    int k;
    check_sel("no --filter", selected(NULL, NULL, NULL), "11111111");
    check_sel("--filter=sum (a plain substring)", selected("--filter=sum", NULL, NULL), "11100000");
    check_sel("--filter=-stride (excludes)", selected("--filter=-stride", NULL, NULL), "11100111");
    check_sel("--filter=sum --filter=-shuffled (include, then exclude)", selected("--filter=sum", "--filter=-shuffled", NULL), "10100000");
    check_sel("--filter=-shuffled --filter=sum (order does not matter)", selected("--filter=-shuffled", "--filter", "sum"), "10100000");
    check_sel("--filter=stride --filter=copy (any positive)", selected("--filter=stride", "--filter=copy", NULL), "00011001");
    check_sel("--filter=-stride --filter=-sum (every negative)", selected("--filter=-stride", "--filter=-sum", NULL), "00000111");
    check_sel("--filter=a+b: the literal name (and, as a regex, aab)", selected("--filter=a+b", NULL, NULL),
              CHRONO__CLI_REGEX ? "00000110" : "00000100");
    check_sel("--filter=/64 ('/' is not special)", selected("--filter=/64", NULL, NULL), "11010000");
#if CHRONO__CLI_REGEX
    check_sel("--filter='^sum_.*64$'", selected("--filter=^sum_.*64$", NULL, NULL), "11000000");
    check_sel("--filter='^(sum|stride).*4096$'", selected("--filter=^(sum|stride).*4096$", NULL, NULL), "00101000");
    check_sel("--filter='-/[0-9]+$' (exclude every parameterised name)", selected("--filter=-/[0-9]+$", NULL, NULL), "00000111");
    check_sel("--filter=SUM (case matters)", selected("--filter=SUM", NULL, NULL), "00000000");
    got = selected("--filter=(", NULL, NULL);
    tap_ok(!strncmp(got, "EINVAL: --filter: '(' is not a valid extended regular expression", 64),
           "--filter='(': refused, the pattern named (%s)", got);
    got = selected("--filter=sum", "--filter=-a[", NULL);
    tap_ok(!strncmp(got, "EINVAL: --filter: '-a[' is not a valid", 38), "a bad second pattern: refused, named as given (%s)", got);
    got = selected("--filter=((a{99}){99}){99}", NULL, NULL);
    tap_ok(strstr(got, "EINVAL: --filter: '((a{99}){99}){99}'") && strstr(got, "past 1000 copies"),
           "--filter='((a{99}){99}){99}': refused before regcomp spends minutes on it (%s)", got);
    got = selected("--filter=x+*++++++++", NULL, NULL);
    tap_ok(strstr(got, "EINVAL: --filter: 'x+*++++++++'") && strstr(got, "repeats a repetition"),
           "--filter='x+*++++++++' (stacked repetitions, undefined in POSIX): refused before regcomp spends seconds on it (%s)", got);
    got = selected("--filter=((((x?)+)?)+)?", NULL, NULL);
    tap_ok(strstr(got, "EINVAL: --filter: '((((x?)+)?)+)?'") && strstr(got, "more than 4 deep"),
           "--filter='((((x?)+)?)+)?' (5 nested repetitions): refused (%s)", got);
    check_sel("--filter='((((s)+)+)+)+um' (4 nested repetitions compile)", selected("--filter=((((s)+)+)+)+um", NULL, NULL), "11100000");
    check_sel("--filter='^(sum|stride)(_[a-z]+)*/[0-9]+$'", selected("--filter=^(sum|stride)(_[a-z]+)*/[0-9]+$", NULL, NULL),
              "11111000");
    check_sel("--filter='s+u+m+_+i+n+_+o+r+d+e+r+' (many '+' in a row of atoms compile)",
              selected("--filter=s+u+m+_+i+n+_+o+r+d+e+r+", NULL, NULL), "10100000");
    check_sel("--filter='[]a(]*sum' (a bracket holding ']' and '(')", selected("--filter=[]a(]*sum", NULL, NULL), "11100000");
    check_sel("--filter='a{2}b' (small bounds compile)", selected("--filter=a{2}b", NULL, NULL), "00000010");
#else
    check_sel("--filter='^sum_.*64$' (no regex here: a substring)", selected("--filter=^sum_.*64$", NULL, NULL), "00000000");
    (void)got;
    tap_skip("regular expressions: not on this platform (substring filters)");
#endif
    for (k = 0; k < CHRONO_CLI_FILTERS_MAX + 1; k++) {
        (void)snprintf(many[k], sizeof many[k], "--filter=x%d", k);
        argv[k + 1] = many[k];
    }
    argv[0] = "prog";
    argv[CHRONO_CLI_FILTERS_MAX + 2] = NULL;
    tap_ok(parse(&cfg, &o, CHRONO_CLI_FILTERS_MAX + 1, argv) == 0 && o.nfilters == CHRONO_CLI_FILTERS_MAX &&
           !strcmp(o.filter, "x0") && chrono_cli_match(&o, "x15") && !chrono_cli_match(&o, "y"),
           "%d --filter flags: all kept, .filter the first", CHRONO_CLI_FILTERS_MAX);
    chrono_cli_close(&o);
    tap_ok(parse(&cfg, &o, CHRONO_CLI_FILTERS_MAX + 2, argv) == CHRONO_EINVAL && strstr(o.error, "one --filter too many"),
           "%d --filter flags: refused (%s)", CHRONO_CLI_FILTERS_MAX + 1, o.error);
    chrono_cli_close(NULL);
}

static void test_output(void)
{
    static fixture fx;
    const char *a[] = ARGS("--format=json", "--out=test_cli_out.json");
    const char *b[] = ARGS("--out=/nonexistent-dir/x.json");
    const char *l[] = ARGS("--list", "--out=test_cli_list.json");
    chrono_config cfg;
    chrono_cli o;
    FILE *f;
    char text[256];
    size_t n = 0;
    int rc;
    fixture_fill(&fx);
    (void)parse(&cfg, &o, 1, a);
    tap_ok(chrono_cli_output(&o) == stdout, "no --out: stdout");
    (void)parse(&cfg, &o, COUNT(a), a);
    rc = chrono_cli_finish(&o, &fx.s);
    f = fopen("test_cli_out.json", "rb");
    if (f) { n = fread(text, 1, sizeof text - 1, f); fclose(f); }
    text[n] = '\0';
    tap_ok(rc == 0 && !o.out && !strncmp(text, "{\n  \"context\": {", 16), "--out=FILE --format=json: the report in the file");
    remove("test_cli_out.json");
    (void)parse(&cfg, &o, COUNT(b), b);
    tap_ok(chrono_cli_output(&o) == NULL && strstr(o.error, "--out") && strstr(o.error, "/nonexistent-dir/x.json"),
           "--out to a missing directory: NULL, error names it (%s)", o.error);
    tap_ok(chrono_cli_finish(&o, &fx.s) == CHRONO_EIO, "chrono_cli_finish: CHRONO_EIO when --out cannot be opened");
    (void)parse(&cfg, &o, COUNT(l), l);
    rc = chrono_cli_finish(&o, &fx.s);
    f = fopen("test_cli_list.json", "rb");
    tap_ok(rc == 0 && !f, "--list: no report written, the --out file not even created");
    if (f) { fclose(f); remove("test_cli_list.json"); }
    tap_ok(chrono_cli_handle_info(&o, "prog") == 0, "handle_info without --help/--version: 0, prints nothing");
    tap_ok(chrono_cli_finish(NULL, &fx.s) == CHRONO_EINVAL, "chrono_cli_finish(NULL): CHRONO_EINVAL");
}

int main(void)
{
    test_defaults();
    test_good();
    test_quick();
    test_bad();
    test_extra();
    test_want();
    test_filter();
    test_out_format();
    test_refuse();
    test_output();
    return tap_done();
}
