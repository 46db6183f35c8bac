/* .ci/fuzz/fuzz_cli.c — libFuzzer target for cli.h's argument parser.

   The input is an argument vector: NUL-separated strings (argv[0] first).  The
   first byte picks the parser: even, chrono_cli_parse (common flags only); odd,
   chrono_cli_parse_ex with a table of program flags of every kind.  Besides the
   sanitizers (ASan, UBSan), it checks what cli.h documents:
     - the result is 0 or CHRONO_EINVAL; argv is left unchanged;
     - on CHRONO_EINVAL, .error is one non-empty line (no control characters);
     - on success, every value a flag set is within its documented range, every
       string it kept points into argv, and --cpu and --no-pin were not both given.
   Built and run by .ci/run (leg "fuzz"):
     clang -fsanitize=fuzzer,address,undefined -Iinclude .ci/fuzz/fuzz_cli.c -lm */
#define CHRONO_STATIC   /* a private copy: one file, no library to link */
#include <chronoscope.h>
#include <chronoscope/cli.h>
#include <stdlib.h>

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz_cli: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    abort();
}

static int in_argv(const char *p, char **argv, int argc)
{
    int i;
    for (i = 0; i < argc; i++)
        if (p >= argv[i] && p <= argv[i] + strlen(argv[i])) return 1;
    return 0;
}

/* A format the library knows: its name parses back to it.  Asked of table.h, so
   a format added there is known here without a list to keep in step. */
static int format_known(chrono_format fmt)
{
    chrono_format back;
    return chrono_format_parse(chrono_format_name(fmt), &back) == 0 && back == fmt;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf, *copy, *argv[MAX_ARGS + 1];
    int argc = 0, rc, with_extra, i;
    size_t pos = 0;
    chrono_config cfg = chrono_config_default(), before;
    chrono_cli cli;
    int ival = 7, bval = 0;
    double dval = 0.5;
    const char *sval = NULL;
    const chrono_cli_flag extra[] = {
        { "--reads", CHRONO_CLI_INT, &ival, 1, 100000000, "reads per batch" },
        { "--ratio", CHRONO_CLI_DOUBLE, &dval, 0.0, 1.0, "a fraction" },
        { "--strict", CHRONO_CLI_BOOL, &bval, 0, 0, "exit 1 when a bar is missed" },
        { "--label", CHRONO_CLI_STRING, (void *)&sval, 0, 0, "a name" },
    };

    if (size < 1) return 0;
    with_extra = data[0] & 1;
    data++;
    size--;
    /* NUL-terminated copy, split on NUL into arguments. */
    buf = malloc(size + 1);
    copy = malloc(size + 1);
    if (!buf || !copy) abort();
    memcpy(buf, data, size);
    buf[size] = '\0';
    while (argc < MAX_ARGS && pos <= size) {
        argv[argc++] = buf + pos;
        pos += strlen(buf + pos) + 1;
    }
    argv[argc] = NULL;
    memcpy(copy, buf, size + 1);
    before = cfg;

    rc = with_extra ? chrono_cli_parse_ex(&cfg, &cli, argc, argv, extra, sizeof extra / sizeof extra[0])
                    : chrono_cli_parse(&cfg, &cli, argc, argv);

    if (memcmp(buf, copy, size + 1) != 0) fail("the parser changed argv", NULL);
    for (i = 0; i <= argc; i++)
        if (i < argc ? argv[i] == NULL : argv[i] != NULL) fail("the parser changed the argv array", NULL);
    if (rc != 0 && rc != CHRONO_EINVAL) fail("result is neither 0 nor CHRONO_EINVAL", chrono_strerror(rc));
    if (memchr(cli.error, '\0', sizeof cli.error) == NULL) fail(".error is not NUL-terminated", NULL);
    if (rc == CHRONO_EINVAL) {
        const unsigned char *e = (const unsigned char *)cli.error;
        if (!e[0]) fail("CHRONO_EINVAL with an empty .error", NULL);
        for (; *e; e++)
            if (*e < 0x20 || *e == 0x7F) fail(".error is not one line of text (control character)", cli.error);
    } else {
        if (cli.error[0]) fail("success, but .error is set", cli.error);
        if (cfg.samples != before.samples && !(cfg.samples >= 1 && cfg.samples <= CHRONO_SAMPLES_MAX) &&
            !(cli.quick && cfg.samples == 11))
            fail("--samples out of 1..1000000", NULL);
        if (cfg.warmup_ms != before.warmup_ms && !(cfg.warmup_ms >= 0.001 && cfg.warmup_ms <= 3600000.0) &&
            !(cli.quick && cfg.warmup_ms == 5))
            fail("--warmup-ms out of 0.001..3600000", NULL);
        if (cfg.max_ms != before.max_ms && !(cfg.max_ms >= 1.0 && cfg.max_ms <= 86400000.0) &&
            !(cli.quick && cfg.max_ms == 300))
            fail("--max-ms out of 1..86400000", NULL);
        if (cfg.pin == CHRONO_PIN_CPU && (cfg.cpu < 0 || cfg.cpu >= chrono_cpu_count()))
            fail("--cpu gave a CPU that does not exist", NULL);
        if (!format_known(cli.format)) fail("unknown format", chrono_format_name(cli.format));
        if (!format_known(cli.out_format)) fail("unknown --out format", chrono_format_name(cli.out_format));
        if (cli.out_path && !in_argv(cli.out_path, argv, argc)) fail(".out_path does not point into argv", NULL);
        if (cli.filter && !in_argv(cli.filter, argv, argc)) fail(".filter does not point into argv", NULL);
        if (cli.nfilters < 0 || cli.nfilters > CHRONO_CLI_FILTERS_MAX) fail(".nfilters out of 0..16", NULL);
        for (i = 0; i < cli.nfilters; i++)
            if (!in_argv(cli.filters[i], argv, argc)) fail(".filters[] does not point into argv", NULL);
        if (cli.nfilters ? cli.filter != cli.filters[0] : cli.filter != NULL)
            fail(".filter is not the first of .filters", NULL);
        if (cli.baseline && !in_argv(cli.baseline, argv, argc)) fail(".baseline does not point into argv", NULL);
        if (cli.save && !in_argv(cli.save, argv, argc)) fail(".save does not point into argv", NULL);
        if (cli.compare && !in_argv(cli.compare, argv, argc)) fail(".compare does not point into argv", NULL);
        if (!(cli.fail_above >= 0.0 && cli.fail_above <= 1000.0)) fail("--fail-above out of 0..1000 (or NaN)", NULL);
        if (cli.processes < 0 || cli.processes > 1000) fail("--processes out of 1..1000", NULL);
        if (cli.threads < 0 || cli.threads > 256) fail("--threads out of 1..256", NULL);
        if (sval && !in_argv(sval, argv, argc)) fail("a STRING flag does not point into argv", NULL);
        if (ival < 1 || ival > 100000000) fail("INT flag out of its range", NULL);
        if (!(dval >= 0.0 && dval <= 1.0)) fail("DOUBLE flag out of its range (or NaN)", NULL);
        if (bval != 0 && bval != 1) fail("BOOL flag is neither 0 nor 1", NULL);
    }
    chrono_cli_close(&cli);   /* the compiled --filter patterns */
    free(buf);
    free(copy);
    return 0;
}
