/* loop — time blocks where they stand (loop.h), with counts of their own:
   parse numbers with strtod, counting the characters each parse reads and
   the parses a second, and look words up in a table, counting the hits
   (5 of 8).  Every common flag (cli.h): --quick, --format=json ... */
#include <chronoscope.h>
#include <stdlib.h>
#include <string.h>

static const char *const numbers[] = { "3.14159", "2.71828e10", "-0.000123", "42", "6.02214076e23", "1e-9" };
static const char *const words[] = { "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta" };

static int find(const char *w)
{
    for (int k = 0; k < 8; k++)
        if (!strcmp(words[k], w)) return k;
    return -1;
}

static void measure(chrono_cli *cli, chrono_session *s)
{
    chrono_user_counter counts[2] = { { "digits", CHRONO_PER_ITERATION, 0 }, { "parses", CHRONO_PER_SECOND, 0 } };
    chrono_config saved = s->cfg;
    chrono_result r;
    unsigned i = 0;

    s->cfg.user_counters = counts;   /* the runs below report them */
    s->cfg.nuser_counters = 2;
    if (chrono_cli_want(cli, "strtod")) {
        for (CHRONO_LOOP(s, "strtod", &r)) {   /* the block is the body */
            char *end;
            const char *p = numbers[i++ % 6];
            chrono_keep(strtod(p, &end));
            counts[0].value += (double)(end - p);
            counts[1].value += 1;
        }
    }
    s->cfg = saved;

    chrono_user_counter hits = { "hits", CHRONO_PER_ITERATION, 0 };
    s->cfg.user_counters = &hits;
    s->cfg.nuser_counters = 1;
    if (chrono_cli_want(cli, "lookup")) {
        chrono_loop l;
        chrono_loop_begin(&l, s, "lookup", NULL);
        while (chrono_loop_next(&l)) {
            const char *w = words[i % 8] + (i % 16 >= 8);   /* less its first letter every other round: "lpha" misses, "eta" hits */
            i++;
            hits.value += find(w) >= 0;
        }
        if (chrono_loop_end(&l) < 0) fprintf(stderr, "lookup: %s\n", chrono_strerror(chrono_loop_end(&l)));
    }
    s->cfg = saved;
}

int main(int argc, char **argv)
{
    chrono_config cfg = chrono_config_default();
    chrono_cli cli;
    chrono_session s;
    int rc;
    if (chrono_cli_parse(&cfg, &cli, argc, argv) < 0) return chrono_cli_fail(&cli, argv[0]);   /* exit 2 */
    if (chrono_cli_handle_info(&cli, argv[0])) return 0;
    if (chrono_session_open(&s, &cfg) < 0) return 1;
    measure(&cli, &s);
    rc = chrono_cli_finish(&cli, &s);   /* the report, in --format, to --out */
    chrono_session_close(&s);
    return rc < 0 ? 1 : 0;
}
